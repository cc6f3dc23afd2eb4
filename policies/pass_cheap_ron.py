"""`pass-cheap-ron` (claims B1, B2, B3): pass a cheap ron and wait for the tsumo.

A ron worth at most `max_fan` fan is passed while fewer than `until_winners` players have won this hand
(a tsumo by the first winner collects from three payers, B-19). The `escape` rule takes the ron anyway
when an opponent shows a threat: 1 = a flush look (policies.threats.collected_suit: 2+ melds all of one
suit, or 5+ discards outside its void suit all of one suit while it keeps the other), 2 = a flush look or
2+ melds of any suits, 3 = a flush look or any meld. Tsumo is always taken; everything else plays like
baseline. B2 is `max_fan=1`, B3 is `escape=1` (its experiment sweeps the escape rules).
"""

import numba as nb

from tsumolab.policies.api import BOBS, PASS, RON, hook
from tsumolab.policies.baseline import react_to_discard
from tsumolab.policies.registry import Param, Policy
from tsumolab.policies.threats import any_flush_threat, meld_threats


@nb.njit(cache=True)
def _passes(obs, params):
    if obs[BOBS.win_fan] > params[0] or obs[BOBS.n_winners] >= params[1]:
        return False
    escape = params[2]
    if escape <= 0:
        return True
    if any_flush_threat(obs):
        return False
    return escape < 2 or meld_threats(obs, 4 - escape) == 0


@hook
def react(obs, params, tables):
    if obs[BOBS.can_win] and _passes(obs, params):
        return PASS
    return react_to_discard(obs, tables, 1, 1)


@hook
def rob(obs, params, tables):
    if obs[BOBS.can_win] and not _passes(obs, params):
        return RON
    return PASS


POLICY = Policy(
    name="pass-cheap-ron",
    description="Baseline, but passes a ron worth at most max_fan while fewer than until_winners have won "
                "(optionally takes it when an opponent shows a threat); tsumo always.",
    params=(
        Param("max_fan", int, 3, "pass a ron worth at most this many fan"),
        Param("until_winners", int, 2, "pass only while fewer than this many players have won the hand"),
        Param("escape", int, 0, "take the ron anyway when an opponent shows a threat (B3): 0 never, 1 a flush look, "
                                "2 a flush look or 2+ melds, 3 a flush look or any meld"),
    ),
    modes=("bloodshed",),
    claim="B1",
    hooks={"react": react, "rob": rob},
)
