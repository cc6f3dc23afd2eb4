"""`majsoul-cpu`: the game's own CPU (B-25): recommended exchange and void (B-24), never pons or open
kans but makes closed kans, discards void tiles first, never passes a win."""

from policies.api import BOBS, KAN, PASS, RON, TSUMO, hook
from policies.common import efficient_discard, void_discard
from policies.recommended_exchange import exchange, void
from policies import riichi_builtin
from policies.registry import Policy


@hook
def turn(obs, params, tables):
    if obs[BOBS.can_win]:
        return TSUMO
    for k in range(27):
        if obs[BOBS.kan_options + k] == 1:
            return KAN + k
    v = void_discard(obs)
    if v >= 0:
        return v
    kind, _ = efficient_discard(obs, tables, True)
    return kind


@hook
def react(obs, params, tables):
    return RON if obs[BOBS.can_win] else PASS


POLICY = Policy(
    name="majsoul-cpu",
    description="The game's CPU (B-25): recommended exchange/void, closed kans only, void tiles first, "
                "never passes a win.",
    hooks={"exchange": exchange, "void": void, "turn": turn, "react": react},  # robbing a kan: baseline's (always)
    riichi_hooks=riichi_builtin.CPU_HOOKS,
    modes=("bloodshed", "riichi", "shura"),
)
