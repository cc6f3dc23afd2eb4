"""`expert`: the strongest fast policy, what the decision analyses teach played at compiled speed (issue 16).

It starts from `baseline` and changes the decisions where a player's judgment pays: in Bloodshed the ron or
pass by the win's fan, the winners so far, the wall and the live waits, push or fold against visible threats,
and flush / pair-shape steering (policies.expert_bloodshed); in the riichi modes push or fold against a riichi
by shanten and hand value and the riichi-or-dama judgment (policies.expert_riichi). Each module's docstring
defines its rules; the parameters below tune them.
"""

from tsumolab.policies.expert_bloodshed import HOOKS
from tsumolab.policies.expert_riichi import HOOKS as RIICHI_HOOKS
from tsumolab.policies.registry import Param, Policy

POLICY = Policy(
    name="expert",
    description="Value-aware play: passes a cheap ron only on a good early wait while nobody has won, folds "
                "weak hands against threats, steers to 清一色 and pair shapes (Bloodshed); pushes or folds against "
                "riichi by shanten and value, dama on big or late thin waits (riichi modes).",
    params=(
        Param("pass_fan", int, 2, "Bloodshed: pass a ron worth at most this many fan (0 = take every ron)"),
        Param("pass_live", int, 3, "Bloodshed: pass only with at least this many unseen winning tiles"),
        Param("fold_shanten", int, 3, "Bloodshed: fold against a threat from this shanten (99 = never)"),
        Param("flush_tiles", int, 11, "Bloodshed: tiles of one non-void suit (3 per meld) that make it the "
                                      "flush target (99 = never)"),
        Param("call_shanten", int, 0, "riichi modes: a closed hand opens for a yaku-keeping call when it leaves "
                                      "this many shanten or fewer (0 = baseline: only to reach tenpai)"),
        Param("riichi_fold", int, 2, "riichi modes: fold against a riichi from this shanten (a valuable "
                                     "1-shanten hand pushes; 2 = baseline's threshold)"),
        Param("dama_value", int, 4, "riichi modes: stay dama with a yaku and this many yaku, dora and red "
                                    "fives (99 = never)"),
        Param("late_wall", int, 12, "riichi modes: no riichi on a wait of at most 2 live tiles at or below "
                                    "this many wall tiles (-1 = never)"),
    ),
    hooks=HOOKS,
    riichi_hooks=RIICHI_HOOKS,
    modes=("bloodshed", "riichi", "shura"),
)
