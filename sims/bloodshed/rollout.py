"""Paired rollouts with common random numbers from a stopped Bloodshed state.

For determinization k (sims.bloodshed.determinize, keyed by (seed, k); uniform, or dealt to the field's
progress when a progress table is given) every option of the pending
decision is played out from the same resampled state with the same random streams: the seats' policy
streams come with the determinization, and the later hands of a match-horizon rollout are keyed by
(seed, k). Differences between options are therefore paired, sample by sample.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import types

from tsumolab.sims.bloodshed.observation import BOBS
from tsumolab.sims import rng
from tsumolab.sims.bloodshed.determinize import determinize_by_progress
from tsumolab.sims.bloodshed.engine import END_EXHAUSTIVE, H_DEALT, H_WON, N_COUNTERS
from tsumolab.sims.bloodshed.resume import PLAY_ARGS, STATE, final_rank, finish_match, resume_hand
from tsumolab.sims.bloodshed.state import PH_DONE, ST, obs_of, rec_of
from tsumolab.sims.events import N_EVENT_COLS
from tsumolab.sims.family import DEALT_IN, EXHAUSTIVE, WON

STREAM_LATER_HANDS = 103


@nb.njit(types.boolean(STATE, types.int64, types.int64[::1], types.int64, types.int64, types.int64, types.boolean,
                       types.float64[:, :, ::1], *PLAY_ARGS[:8], types.float64[:, ::1], types.int32[:, ::1],
                       types.int32[:, ::1]), cache=True)
def paired_rollouts(S0, seat, answers, seed, first, count, to_match_end, progress, hooks_ex, hooks_void, hooks_turn,
                    hooks_react, hooks_rob, params, rules, tables, values, ranks, outcomes):
    """Determinizations first .. first+count-1 of the stopped state S0 for `seat`, each played out once per
    answer; fills values/ranks/outcomes[answer, j]. The value is the seat's points at the end of the
    match (`to_match_end`) or its point change from the decision to the end of the hand (play stops
    early once the seat has won and its points are final). Outcome bits: the seat wins, deals in, or
    is still in the hand at the exhaustive draw. `progress`: the cumulative progress table the other hands
    are dealt from (sims.bloodshed.progress), empty for the uniform re-deal. Returns False if S0's view is
    impossible."""
    det = np.empty_like(S0)
    S = np.empty_like(S0)
    counters = np.zeros(N_COUNTERS, np.int64)
    events = np.zeros((0, N_EVENT_COLS), np.int32)
    ev = np.zeros(3, np.int64)
    points_now = obs_of(S0)[0, BOBS.points + seat]
    dealt_before = rec_of(S0)[seat, H_DEALT]
    for j in range(count):
        k = first + j
        if not determinize_by_progress(S0, seat, seed, k, det, progress, tables):
            return False
        for o in range(answers.size):
            S[:] = det
            S[ST.watch_seat] = -1 if to_match_end else seat  # the hand value is final once the seat is out
            resume_hand(S, seat, answers[o], hooks_ex, hooks_void, hooks_turn, hooks_react, hooks_rob, params,
                        rules, tables, counters, events, ev)
            rec = rec_of(S)
            flags = 0
            if rec[seat, H_WON] == 1:
                flags |= WON
            if rec[seat, H_DEALT] > dealt_before:
                flags |= DEALT_IN
            if S[ST.end] == END_EXHAUSTIVE and S[ST.phase] == PH_DONE and rec[seat, H_WON] == 0:
                flags |= EXHAUSTIVE
            outcomes[o, j] = flags
            if to_match_end:
                later = np.int64(rng.key_seed(seed, k, STREAM_LATER_HANDS, 0) >> np.uint64(1))
                finish_match(S, later, k, hooks_ex, hooks_void, hooks_turn, hooks_react, hooks_rob, params, rules,
                             tables, counters, events, ev)
                values[o, j] = obs_of(S)[0, BOBS.points + seat]
            else:
                values[o, j] = obs_of(S)[0, BOBS.points + seat] - points_now
            ranks[o, j] = final_rank(S, seat)
    return True
