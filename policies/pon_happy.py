"""`pon-happy` (claim B7): pon every pon-able tile outside the void suit (baseline with pon_mode = 2)."""

from tsumolab.policies.api import hook
from tsumolab.policies.baseline import react_to_discard
from tsumolab.policies.registry import Policy


@hook
def react(obs, params, tables):
    return react_to_discard(obs, tables, 1, 2)


POLICY = Policy(
    name="pon-happy",
    description="Baseline, but pons every pon-able non-void tile (B7).",
    modes=("bloodshed",),
    claim="B7",
    hooks={"react": react},
)
