"""Claim policies of Battle of Shura (CLAIMS.md S2, S3); everything not named plays like `baseline`.

- `dama-after-win` (S2): no riichi once somebody has won in the hand (tsumo loss makes riichi worth less);
  control: `baseline`, which declares riichi whenever allowed.
- `shura-recommended-exchange` (S3): the game's recommended exchange (S-16); control: `baseline`, whose
  exchange gives the three tiles that hurt efficiency least.
"""

from tsumolab.policies.api import hook
from tsumolab.policies.registry import Policy
from tsumolab.policies.riichi_baseline import riichi_turn
from tsumolab.policies.riichi_builtin import recommended_exchange_hook


@hook
def dama_turn(obs, params, tables):
    return riichi_turn(obs, tables, True, False)


POLICIES = [
    Policy(
        name="dama-after-win",
        description="Baseline shura play without riichi once somebody has won in the hand (S2).",
        hooks={},
        riichi_hooks={"turn": dama_turn},
        modes=("shura",),
        claim="S2",
    ),
    Policy(
        name="shura-recommended-exchange",
        description="Baseline shura play with the game's recommended exchange of S-16 (S3).",
        hooks={},
        riichi_hooks={"exchange": recommended_exchange_hook},
        modes=("shura",),
        claim="S3",
    ),
]
