"""Paired rollouts with common random numbers from a stopped riichi or shura hand.

For determinization k (sims.riichi.determinize, keyed by (seed, k)) every option of the pending decision is
played out from the same resampled state with the same random streams (the seats' policy streams and the
walls of later hands come with the determinization), so options are compared sample by sample. The deciding
seat's answer is held for its own decision (hs[forced_seat]); every other decision is the seats' policies'.
The kernels take the engine's argument groups of sims.riichi.bundles (PlayState, Seating, RuleArrays, PlayLog).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.sims.events import N_EVENT_COLS
from tsumolab.sims.family import DEALT_IN, EXHAUSTIVE, WON
from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi.bundles import PlayLog, PlayState
from tsumolab.sims.riichi.columns import H_DEALT, H_WON, N_HAND_COLS, N_MATCH_COLS
from tsumolab.sims.riichi.determinize import determinize
from tsumolab.sims.riichi.hand_state import HS
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.play import ROWS_PER_MATCH
from tsumolab.sims.table_state import rank_of


@nb.njit(cache=True)
def rollout_scratch(obs0):
    """The engine's working arrays for playing a stopped hand (observation block like obs0) out: (view,
    counters, events, ev, hand_rows, match_rows)."""
    view = np.zeros(obs0.shape[1], np.int32)
    counters = np.zeros(engine.N_COUNTERS, np.int64)
    events = np.zeros((0, N_EVENT_COLS), np.int32)
    ev = np.zeros(3, np.int64)
    hand_rows = np.zeros((ROWS_PER_MATCH, N_HAND_COLS), np.int32)
    match_rows = np.zeros((4, N_MATCH_COLS), np.int32)
    return view, counters, events, ev, hand_rows, match_rows


@nb.njit(cache=True)
def paired_rollouts(start, seat, answers, seed, first, count, to_match_end, seating, rules, progress, public,
                    samples):
    """Determinizations first .. first+count-1 of the stopped state `start` (a PlayState, left as it is; its
    view and ev are not read) for `seat` (other hands dealt by the `progress` table, the tiles the mode shows,
    `public`, left in place: sims.riichi.determinize),
    each played out once per answer; fills samples = (values, ranks,
    outcomes)[answer, j]. The value is the seat's point change from the decision to the end of the hand, or its
    points at the end of the match (`to_match_end`). Outcome bits: the seat wins, deals in, or is still in the
    hand at the exhaustive draw. Returns the number of samples whose riichi seats could not all be dealt
    tenpai, or -1 when the view is impossible or an answer was never asked for."""
    hs0, obs0, st0, wall0, rec0 = start.hs, start.obs, start.st, start.wall, start.rec
    values, ranks, outcomes = samples
    dhs, dobs, dst, dwall, drec = hs0.copy(), obs0.copy(), st0.copy(), wall0.copy(), rec0.copy()
    hs, obs, st, wall, rec = hs0.copy(), obs0.copy(), st0.copy(), wall0.copy(), rec0.copy()
    view, counters, events, ev, hand_rows, match_rows = rollout_scratch(obs0)
    state = PlayState(hs, obs, view, st, wall, rec, ev)
    log = PlayLog(counters, events)
    delta_now = hs0[HS.delta + seat]
    dealt_before = rec0[seat, H_DEALT]
    not_tenpai = 0
    for j in range(count):
        dhs[:] = hs0
        dobs[:, :] = obs0
        dst[:, :] = st0
        dwall[:] = wall0
        drec[:, :] = rec0
        failed = determinize(dhs, dobs, dst, dwall, seat, seed, first + j, rules.lookup, progress, public)
        if failed < 0:
            return -1
        if failed > 0:
            not_tenpai += 1
        engine.rescore_turn_win(dhs, dobs, dst, dwall, rules)
        for o in range(answers.size):
            hs[:] = dhs
            obs[:, :] = dobs
            st[:, :] = dst
            wall[:] = dwall
            rec[:, :] = drec
            if not play_forced_hand(state, seating, rules, log, seat, answers[o]):
                return -1
            flags = 0
            if rec[seat, H_WON] == 1:
                flags |= WON
            if rec[seat, H_DEALT] > dealt_before:
                flags |= DEALT_IN
            if hs[HS.end] == engine.END_EXHAUSTIVE and rec[seat, H_WON] == 0:
                flags |= EXHAUSTIVE
            outcomes[o, j] = flags
            if to_match_end:
                play_later_hands(state, seating, rules, log, hand_rows, match_rows)
                values[o, j] = obs[0, ROBS.points + seat]
            else:
                values[o, j] = hs[HS.delta + seat] - delta_now
            ranks[o, j] = rank_of(obs, ROBS.points, seat)
    return not_tenpai


@nb.njit(cache=True)
def play_forced_hand(state, seating, rules, log, seat, answer):
    """Plays the stopped hand to its end with `seat`'s pending decision answered `answer`; False when that
    decision was never asked for (the replay left the stopped path)."""
    hs = state.hs
    hs[HS.forced] = answer
    hs[HS.has_forced] = 1
    hs[HS.forced_seat] = seat
    hs[HS.keeps_dama] = 1
    hs[HS.stop_at] = -1
    engine.run_hand(state, seating, rules, log)
    return hs[HS.has_forced] == 0


@nb.njit(cache=True)
def play_later_hands(state, seating, rules, log, hand_rows, match_rows):
    """After a hand has ended: closes it and plays the match's later hands to its end (final points in obs)."""
    hs, obs, wall, rec, ev = state.hs, state.obs, state.wall, state.rec, state.ev
    topts = rules.topts
    log.counters[engine.CNT_HANDS] += 1
    if not engine.close_hand(hs, obs, rec, topts):
        engine.begin_hand(hs, obs, wall, rec, ev, topts)
        engine._play_out(state, seating, rules, log, True, hand_rows, 0, match_rows, 0)
    else:
        engine.finish_match(hs, obs, match_rows, 0)
