"""`recommended-exchange` (claim X1): baseline play with the game's recommended exchange and void
(B-24: fewest suit with at least 3 tiles, keep shapes, edges first; void = the fewest suit)."""

from tsumolab.policies.api import hook
from tsumolab.policies.common import fewest_suit, fewest_suit_exchange
from tsumolab.policies.registry import Policy


@hook
def exchange(obs, params, tables):
    return fewest_suit_exchange(obs, tables, False)


@hook
def void(obs, params, tables):
    return fewest_suit(obs)


POLICY = Policy(
    name="recommended-exchange",
    description="Baseline play with the B-24 recommended exchange and fewest-suit void (X1).",
    modes=("bloodshed",),
    claim="X1",
    hooks={"exchange": exchange, "void": void},
)
