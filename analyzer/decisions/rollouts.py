"""Paired rollouts from the true state of a simulated situation: only what nobody knows yet is resampled.

`tsumolab advise` resamples everything the deciding seat cannot see, the other hands included, uniformly
among the arrangements consistent with its view (sims.bloodshed.determinize, sims.riichi.determinize): right for
a position from a real game, whose hidden state is unknown. A situation sampled from simulated play has a true
state, drawn from the very distribution the claim is about: the other hands as the field's play built them
(near tenpai in a late wall, not the random hands of a uniform deal, which win more slowly and so flatter a
passed ron). Here each sample keeps every hand and resamples only what no seat knows: the order of the unseen
wall (the live wall; in riichi also the unseen dead wall: replacement tiles, unflipped and ura indicators), the
seats' policy streams and the walls of the later hands, all keyed by (seed, sample index). Every option is
played out on the same sample (common random numbers) to the end of the match.

Both kernels follow sims.bloodshed.rollout.paired_rollouts and sims.riichi.rollout.paired_rollouts with this
resampling in place of the determinization; values: the seat's final points, ranks: its final rank.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.sims import rng
from tsumolab.sims.bloodshed.engine import N_COUNTERS, seat_seed
from tsumolab.sims.bloodshed.observation import BOBS
from tsumolab.sims.bloodshed.resume import final_rank, finish_match, resume_hand
from tsumolab.sims.bloodshed.rollout import STREAM_LATER_HANDS
from tsumolab.sims.bloodshed.state import ST, obs_of
from tsumolab.sims.events import N_EVENT_COLS
from tsumolab.sims.riichi.determinize import STREAM_LATER, STREAM_RULES, STREAM_SEATS, hidden_slot
from tsumolab.sims.riichi.hand_state import HS
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.bundles import PlayLog, PlayState
from tsumolab.sims.riichi.engine import rescore_turn_win
from tsumolab.sims.riichi.rollout import play_forced_hand, play_later_hands, rollout_scratch
from tsumolab.sims.table_state import rank_of

STREAM_UNSEEN_WALL = 111
N_WALL = 108


@nb.njit(cache=True)
def bloodshed_state_rollouts(S0, seat, answers, seed, first, count, hooks_ex, hooks_void, hooks_turn, hooks_react,
                             hooks_rob, params, rules, tables, values, ranks):
    """Samples first .. first+count-1 of the Bloodshed state S0 stopped at `seat`'s decision, each played out
    once per answer to the end of the match; fills values/ranks[answer, j]."""
    det = np.empty_like(S0)
    S = np.empty_like(S0)
    counters = np.zeros(N_COUNTERS, np.int64)
    events = np.zeros((0, N_EVENT_COLS), np.int32)
    ev = np.zeros(3, np.int64)
    pos = S0[ST.pos]
    tiles = np.empty(N_WALL - pos, np.int64)
    stream = np.zeros(1, np.uint64)
    for j in range(count):
        k = first + j
        det[:] = S0
        stream[0] = rng.key_seed(seed, k, STREAM_UNSEEN_WALL, 0)
        for i in range(tiles.size):
            tiles[i] = S0[ST.wall + pos + i]
        rng.shuffle(tiles, stream)
        for i in range(tiles.size):
            det[ST.wall + pos + i] = tiles[i]
        obs = obs_of(det)
        for s in range(4):
            obs[s, BOBS.rng] = seat_seed(seed, k, 0, s)
        for o in range(answers.size):
            S[:] = det
            S[ST.watch_seat] = -1
            resume_hand(S, seat, answers[o], hooks_ex, hooks_void, hooks_turn, hooks_react, hooks_rob, params,
                        rules, tables, counters, events, ev)
            later = np.int64(rng.key_seed(seed, k, STREAM_LATER_HANDS, 0) >> np.uint64(1))
            finish_match(S, later, k, hooks_ex, hooks_void, hooks_turn, hooks_react, hooks_rob, params, rules,
                         tables, counters, events, ev)
            values[o, j] = obs_of(S)[0, BOBS.points + seat]
            ranks[o, j] = final_rank(S, seat)


@nb.njit(cache=True)
def riichi_state_rollouts(start, seat, answers, seed, first, count, seating, rules, kept_wall, values, ranks,
                          to_match_end=True):
    """The same for a hand of a riichi-family mode stopped at `seat`'s decision, `start` (a PlayState of
    sims.riichi.bundles; its view and ev are not read; seating and rules likewise); the unseen wall is shuffled
    but for the slots the mode shows (`kept_wall`, sims.riichi.public_tiles); without `to_match_end` the
    value is the seat's point change to the end of the hand (as advise's hand horizon). Returns -1 when an
    answer was never asked for (the stop and the replay disagree), else 0."""
    hs0, obs0, st0, wall0, rec0 = start.hs, start.obs, start.st, start.wall, start.rec
    dhs, dwall = hs0.copy(), wall0.copy()
    hs, obs, st, wall, rec = hs0.copy(), obs0.copy(), st0.copy(), wall0.copy(), rec0.copy()
    view, counters, events, ev, hand_rows, match_rows = rollout_scratch(obs0)
    state = PlayState(hs, obs, view, st, wall, rec, ev)
    log = PlayLog(counters, events)
    n_slots = 0
    slots = np.empty(wall0.size, np.int64)
    for i in range(wall0.size):
        if hidden_slot(hs0, obs0, st0, kept_wall, i):
            slots[n_slots] = i
            n_slots += 1
    slots = slots[:n_slots]
    ids = np.empty(n_slots, np.int64)
    stream = np.zeros(1, np.uint64)
    for j in range(count):
        k = first + j
        dhs[:] = hs0
        dwall[:] = wall0
        stream[0] = rng.key_seed(seed, k, STREAM_UNSEEN_WALL, 0)
        for i in range(slots.size):
            ids[i] = wall0[slots[i]]
        rng.shuffle(ids, stream)
        for i in range(slots.size):
            dwall[slots[i]] = ids[i]
        dhs[HS.root_seed] = np.int64(rng.key_seed(seed, k, STREAM_LATER, 0) >> np.uint64(1))
        dhs[HS.eye_rng:HS.eye_rng + 1].view(np.uint64)[0] = rng.key_seed(seed, k, STREAM_RULES, 0)
        rescore_turn_win(dhs, obs0, st0, dwall, rules)  # the unseen ura indicators moved
        for o in range(answers.size):
            hs[:] = dhs
            obs[:, :] = obs0
            st[:, :] = st0
            wall[:] = dwall
            rec[:, :] = rec0
            for p in range(4):
                obs[p, ROBS.rng] = np.int64(rng.key_seed(seed, k, STREAM_SEATS, p) >> np.uint64(33))
            if not play_forced_hand(state, seating, rules, log, seat, answers[o]):
                return -1
            if to_match_end:
                play_later_hands(state, seating, rules, log, hand_rows, match_rows)
                values[o, j] = obs[0, ROBS.points + seat]
            else:
                values[o, j] = hs[HS.delta + seat] - hs0[HS.delta + seat]
            ranks[o, j] = rank_of(obs, ROBS.points, seat)
    return 0
