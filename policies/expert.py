"""`expert`: the strongest fast policy, what the decision analyses teach played at compiled speed (issue 16).

It starts from `baseline` and changes the decisions where a player's judgment pays: in Bloodshed the ron or
pass by the win's fan, the winners so far, the wall and the live waits, push or fold against visible threats,
and flush / pair-shape steering (policies.expert_bloodshed); in the riichi modes the discard, and the riichi or
dama, that strong players most likely choose (the discard prior learned from their games: it weighs each tile's
danger against the threats, the hand's shape and value and the seat's situation; policies.discard_prior) and the
calls they make (policies.expert_riichi, policies.expert_calls). Each module's docstring defines its rules; the
parameters below tune them.
"""

from tsumolab.policies.expert_bloodshed import HOOKS
from tsumolab.policies.expert_riichi import HOOKS as RIICHI_HOOKS
from tsumolab.policies.registry import Param, Policy

POLICY = Policy(
    name="expert",
    description="Value-aware play: passes a cheap ron only on a good early wait while nobody has won, folds "
                "weak hands against threats, steers to 清一色 and pair shapes (Bloodshed); discards, defends and "
                "declares riichi as strong players most likely do (a model learned from Tenhou Phoenix games), "
                "yakuhai / tanyao / flush calls (riichi modes).",
    params=(
        Param("pass_fan", int, 2, "Bloodshed: pass a ron worth at most this many fan (0 = take every ron)"),
        Param("pass_live", int, 3, "Bloodshed: pass only with at least this many unseen winning tiles"),
        Param("fold_shanten", int, 3, "Bloodshed: fold against a threat from this shanten (99 = never)"),
        Param("flush_tiles", int, 11, "Bloodshed: tiles of one non-void suit (3 per meld) that make it the "
                                      "flush target (99 = never)"),
        Param("call_shanten", int, 2, "riichi modes: a closed hand opens for a yaku-keeping call that leaves it "
                                      "this many shanten or fewer"),
    ),
    hooks=HOOKS,
    riichi_hooks=RIICHI_HOOKS,
    modes=("bloodshed", "riichi", "shura"),
)
