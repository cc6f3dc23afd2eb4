"""Entering the Bloodshed kernel at a decision: stop a hand at its N-th decision, resume a saved state with a
forced answer, play on to the end of the hand or of the match.

These are thin loops over sims.bloodshed.engine.run_hand, so the rules stay in one place. A state block
(sims.bloodshed.state.ST) stopped at a decision has `pend_seat` set; `pending_view` rebuilds what that seat
sees, and `resume_hand` answers for it (its hook still runs, so its random stream advances as usual).
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import types

from tsumolab.sims.bloodshed.observation import BOBS
from tsumolab.sims.decisions import D_EXCHANGE, D_REACT, D_ROB, D_TURN, D_VOID, HOOK_TYPE
from tsumolab.sims.bloodshed import rules as R
from tsumolab.sims.bloodshed.engine import (
    END_BUST, next_dealer, prepare_react_view, prepare_rob_view, prepare_simple_view, prepare_turn_view,
    react_options, run_hand, start_hand,
)
from tsumolab.sims.bloodshed.state import PH_EXCHANGE, PH_REACT, PH_ROB, PH_TURN, PH_VOID, ST, obs_of
from tsumolab.sims.table_state import rank_of

N_WALL = 108

# Signatures of the entry points called from Python: the state block, then (for those that play) the five
# hook tuples, params, rules, tables, counters, events, ev as in engine.play_matches.
HOOKS = types.UniTuple(HOOK_TYPE, 4)
STATE = types.int32[::1]
PLAY_ARGS = (HOOKS, HOOKS, HOOKS, HOOKS, HOOKS, types.float64[:, ::1], types.int64[::1], types.uint8[:, ::1],
             types.int64[::1], types.int32[:, ::1], types.int64[::1])


@nb.njit(cache=True)
def pending_decision(S):
    """D_* kind of the decision the stopped state waits for (-1 if none)."""
    phase = S[ST.phase]
    if S[ST.pend_seat] < 0:
        return -1
    if phase == PH_EXCHANGE:
        return D_EXCHANGE
    if phase == PH_VOID:
        return D_VOID
    if phase == PH_TURN:
        return D_TURN
    if phase == PH_REACT:
        return D_REACT
    if phase == PH_ROB:
        return D_ROB
    return -1


@nb.njit(cache=True)
def pending_view(S, rules, tables, view):
    """Fill `view` with what the pending seat sees at its decision (the hook's input)."""
    obs = obs_of(S)
    seat = S[ST.pend_seat]
    decision = pending_decision(S)
    if decision == D_EXCHANGE or decision == D_VOID:
        prepare_simple_view(obs, seat, decision, view)
    elif decision == D_TURN:
        prepare_turn_view(S, obs, view, rules, tables)
    elif decision == D_REACT:
        can_ron, can_pon, can_kan = react_options(obs, seat, S[ST.tile], N_WALL - S[ST.pos], tables)
        prepare_react_view(S, obs, seat, view, can_ron, can_pon, can_kan, rules)
    elif decision == D_ROB:
        prepare_rob_view(S, obs, seat, view, rules)


@nb.njit(types.void(STATE, types.int64, types.int64, *PLAY_ARGS), cache=True)
def resume_hand(S, seat, answer, hooks_ex, hooks_void, hooks_turn, hooks_react, hooks_rob, params, rules, tables,
                counters, events, ev):
    """Play the stopped hand in S to its end with `answer` forced for `seat`'s pending decision."""
    view = np.empty(BOBS.SIZE, np.int32)
    S[ST.force_seat] = seat
    S[ST.force_answer] = answer
    S[ST.pend_seat] = -1
    run_hand(S, view, hooks_ex, hooks_void, hooks_turn, hooks_react, hooks_rob, params, rules, tables, counters,
             events, ev, -1)


@nb.njit(types.void(STATE, types.int64, types.int64, *PLAY_ARGS), cache=True)
def finish_match(S, root_seed, match_key, hooks_ex, hooks_void, hooks_turn, hooks_react, hooks_rob, params, rules,
                 tables, counters, events, ev):
    """After a finished hand in S, play the match's remaining hands (B-2 … B-4) on walls keyed by
    (root_seed, match_key, hand number)."""
    view = np.empty(BOBS.SIZE, np.int32)
    obs = obs_of(S)
    hand_no = obs[0, BOBS.hand_no]
    while S[ST.end] != END_BUST and hand_no < R.HANDS_PER_MATCH:
        hand_no += 1
        start_hand(S, root_seed, match_key, hand_no, next_dealer(S))
        run_hand(S, view, hooks_ex, hooks_void, hooks_turn, hooks_react, hooks_rob, params, rules, tables, counters,
                 events, ev, -1)


@nb.njit(cache=True)
def final_rank(S, seat):
    """Rank 1..4 of `seat` by the points in S (B-4)."""
    return rank_of(obs_of(S), BOBS.points, seat)


@nb.njit(types.boolean(STATE, types.int64, *PLAY_ARGS), cache=True)
def stop_at_decision(S, n, hooks_ex, hooks_void, hooks_turn, hooks_react, hooks_rob, params, rules, tables,
                     counters, events, ev):
    """Play the hand in S until its decision number `n` (0-based, all seats); True if reached (S stopped
    there), False if the hand ended first."""
    view = np.empty(BOBS.SIZE, np.int32)
    return run_hand(S, view, hooks_ex, hooks_void, hooks_turn, hooks_react, hooks_rob, params, rules, tables,
                    counters, events, ev, n)
