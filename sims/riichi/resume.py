"""Entering the riichi kernel at a decision: play a match up to the N-th decision of one of its hands, and resume
a saved position with a forced answer (or the seat's own) to a later decision, the end of the hand or of the match.

Thin entry points over sims.riichi.engine (run_hand, _play_out), so the rules stay there; compiled only when a
command analyses positions (Python edge: sims.riichi.positions), not by every riichi run.
"""

from __future__ import annotations

import numba as nb
from numba import types

from tsumolab.sims.riichi.bundles import PLAY_LOG_TYPE, PLAY_STATE_TYPE, RULE_ARRAYS_TYPE, SEATING_TYPE
from tsumolab.sims.riichi.engine import _ROWS, _play_out, begin_hand, begin_match, close_hand, run_hand
from tsumolab.sims.riichi.hand_state import HS

_GROUPS = (PLAY_STATE_TYPE, SEATING_TYPE, RULE_ARRAYS_TYPE, PLAY_LOG_TYPE)
_SIG_TO_DECISION = types.int64(*_GROUPS, types.int64, types.int64, types.int64, types.int64)


@nb.njit(_SIG_TO_DECISION, cache=True)
def play_to_decision(state, seating, rules, log, root_seed, match_id, hand_no, decision):
    """Play match `match_id` from its start through its hands before `hand_no`, then hand `hand_no` up to its
    decision number `decision` (0 = the first). Returns 1 when that decision is pending (the state arrays are
    the position), 0 when the hand ended first (the arrays hold its end), -1 when the match ended before it.
    Play never stops when `decision` is -1."""
    hs, obs, wall, rec, ev = state.hs, state.obs, state.wall, state.rec, state.ev
    topts = rules.topts
    begin_match(hs, obs, root_seed, match_id, topts)
    while True:
        begin_hand(hs, obs, wall, rec, ev, topts)
        target = hs[HS.hand_no] == hand_no
        hs[HS.stop_at] = decision if target else -1
        if target:
            ev[0] = 0  # the position's event log holds its own hand only
        if not run_hand(state, seating, rules, log):
            return 1
        if target:
            return 0
        if close_hand(hs, obs, rec, topts):
            return -1


_SIG_RESUME = types.int64(*_GROUPS, types.int64, types.int64, types.int64, types.int64, _ROWS, _ROWS)


@nb.njit(_SIG_RESUME, cache=True)
def resume(state, seating, rules, log, answer, has_answer, stop_at, to_match_end, hand_rows, match_rows):
    """Continue play from a saved state, with `answer` for the pending decision when has_answer is 1, until
    decision number `stop_at` of this hand (-1: none) is pending (returns -1), or to the end of the hand (of
    the match when to_match_end is 1: every finished hand's rows into hand_rows, the match rows into
    match_rows). Returns the hand rows written."""
    hs = state.hs
    hs[HS.stop_at] = stop_at
    if has_answer:
        hs[HS.forced] = answer
        hs[HS.has_forced] = 1
    return _play_out(state, seating, rules, log, to_match_end == 1, hand_rows, 0, match_rows, 0)
