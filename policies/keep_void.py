"""`keep-void` (control of claim B5): baseline without the void-first rule. Void-suit tiles leave the hand
only when the efficient discard picks them; they still count in the hand's shape, but draws of the void
suit count as no acceptance (policies.common.efficient_discard)."""

from tsumolab.policies.api import hook
from tsumolab.policies.baseline import play_turn
from tsumolab.policies.registry import Policy


@hook
def turn(obs, params, tables):
    return play_turn(obs, tables, 1, False)


POLICY = Policy(
    name="keep-void",
    description="Baseline without void-first: void tiles are discarded only by efficiency (B5 control).",
    modes=("bloodshed",),
    claim="B5",
    hooks={"turn": turn},
)
