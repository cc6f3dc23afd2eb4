"""`disconnected`: an auto-played disconnected seat (B-25): recommended exchange and void (B-24), never
calls, discards the drawn tile (so it keeps its void tiles). It declares no wins unless `take_wins` = 1
(the sources do not say; auto-play holding void tiles cannot win anyway)."""

from tsumolab.policies.api import BOBS, PASS, RON, TSUMO, hook
from tsumolab.policies.recommended_exchange import exchange, void
from tsumolab.policies import riichi_builtin
from tsumolab.policies.registry import Param, Policy


@hook
def turn(obs, params, tables):
    if obs[BOBS.can_win] and params[0] > 0:
        return TSUMO
    tile = obs[BOBS.tile]
    if tile >= 0:
        return tile
    for k in range(34):  # the dealer's first turn has no drawn tile: the last tile of the hand
        if obs[BOBS.hand + 33 - k] > 0:
            return 33 - k
    return 0


@hook
def react(obs, params, tables):
    return RON if obs[BOBS.can_win] and params[0] > 0 else PASS


POLICY = Policy(
    name="disconnected",
    description="Auto-played disconnected seat (B-25): recommended exchange/void, never calls, discards "
                "the drawn tile.",
    params=(Param("take_wins", int, 0, "1 = declare wins that come up (0 = auto-play declares none)"),),
    hooks={"exchange": exchange, "void": void, "turn": turn, "react": react, "rob": react},
    riichi_hooks=riichi_builtin.DISCONNECTED_HOOKS,
    modes=("bloodshed", "riichi", "shura"),
)
