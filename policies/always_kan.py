"""`always-kan` (claim B4): every legal closed, added and open kan outside the void suit, whatever it
does to the hand (baseline with kan_mode = 2)."""

from tsumolab.policies.api import hook
from tsumolab.policies.baseline import play_turn, react_to_discard
from tsumolab.policies.registry import Policy


@hook
def turn(obs, params, tables):
    return play_turn(obs, tables, 2, True)


@hook
def react(obs, params, tables):
    return react_to_discard(obs, tables, 2, 1)


POLICY = Policy(
    name="always-kan",
    description="Baseline, but declares every legal closed, added and open kan (B4).",
    modes=("bloodshed",),
    claim="B4",
    hooks={"turn": turn, "react": react},
)
