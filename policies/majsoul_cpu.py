"""`majsoul-cpu`: the game's own CPU (B-25): recommended exchange and void (B-24), never pons or open
kans but makes closed kans, discards void tiles first, never passes a win."""

from tsumolab.policies.api import can_win, hook, kan_options
from tsumolab.policies.baseline import rob as take_every_win
from tsumolab.policies.common import efficient_discard, tsumo_or_closed_kan, void_discard
from tsumolab.policies.recommended_exchange import exchange, void
from tsumolab.policies import riichi_builtin
from tsumolab.policies.registry import Policy


@hook
def turn(obs, params, tables):
    action = tsumo_or_closed_kan(can_win(obs), kan_options(obs), 27)
    if action >= 0:
        return action
    v = void_discard(obs)
    if v >= 0:
        return v
    kind, _ = efficient_discard(obs, tables, True)
    return kind


POLICY = Policy(
    name="majsoul-cpu",
    description="The game's CPU (B-25): recommended exchange/void, closed kans only, void tiles first, "
                "never passes a win.",
    # robbing a kan: baseline's (always)
    hooks={"exchange": exchange, "void": void, "turn": turn, "react": take_every_win},
    riichi_hooks=riichi_builtin.CPU_HOOKS,
    modes=("bloodshed", "riichi", "shura"),
)
