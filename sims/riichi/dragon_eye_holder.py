"""`dragon-eye` 龙之目玉 (RULES.md DE): the eye, its counter and its moves, and the doubling of win payments, as
jit-compiled helpers the riichi engine and the settlement call when the rule option `dragon_eye` is on.

Rule options (sims.riichi.rules, topts[T_DRAGON_EYE + i]): +0 on, +1 `eye_counter` (5), +2 `eye_multiplier`
(2), +3 `eye_other_seat` (0: a new eye goes to any of the 4 seats, possibly the same one again; 1: only to one
of the other three).

Timing (RULES.md: "at 0 a new eye goes to a random seat at the next draw or call"): the holder's discard that
brings the counter to 0 is still the holder's (a ron on it is paid ×2 by the holder); the eye moves right
before the next draw from the live wall (whoever draws) or the next chi / pon / open kan on that discard,
whichever comes first, so a tsumo on that draw is already under the new holder. A hand that ends first keeps
the old holder. Each hand starts with a new eye.

Randomness: the seats come from the keyed stream key_seed(root, match, hand, STREAM_EYE): the k-th eye of a hand
is on the same seat whatever the players do (only whether a k-th eye happens depends on play).

Doubling: every ron, tsumo or pao payment between the holder and another seat is × eye_multiplier; honba,
riichi sticks, noten and nagashi payments are not. The `value` column keeps the scorer's R-3 value; the points
actually received are in `win_points` and `delta`.

Observation block obs[ROBS.dragon_eye …] (public): EYE_HOLDER (seat, −1 none), EYE_COUNTER (discards left),
EYE_PENDING (1: the counter is 0, the eye moves at the next draw or call), EYE_MULT (the multiplier), EYE_PLACED
(eyes placed so far in this hand). Events: EV_EYE (sims.riichi.events).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims import rng
from tsumolab.sims.events import log_event
from tsumolab.sims.riichi.events import EV_EYE
from tsumolab.sims.riichi.streams import STREAM_EYE
from tsumolab.sims.riichi.table_slots import T_DRAGON_EYE

EYE_HOLDER, EYE_COUNTER, EYE_PENDING, EYE_MULT, EYE_PLACED = 0, 1, 2, 3, 4
EYE_START, EYE_MOVE = 0, 1  # EV_EYE c: placed at the hand's start, moved after the counter ran out


def pack_options(table) -> list[int]:
    """DE's 4 table slots from the rules dataclass (sims.riichi.rules): on, eye_counter, eye_multiplier,
    eye_other_seat (read below as topts[T_DRAGON_EYE + i])."""
    return [int(table.dragon_eye), table.eye_counter, table.eye_multiplier, int(table.eye_other_seat)]


@nb.njit(cache=True)
def eye_seed(root_seed, match_id, hand_no):
    """The seed of the eye stream of a hand (non-negative int64, kept in the engine's per-hand seed array)."""
    return np.int64(rng.key_seed(root_seed, match_id, hand_no, STREAM_EYE) >> np.uint64(1))


@nb.njit(cache=True)
def _set(obs, slot, value):
    for s in range(4):
        obs[s, ROBS.dragon_eye + slot] = value


@nb.njit(cache=True)
def eye_place(obs, state, topts, reason, events, ev):
    """Put a new eye with a full counter on a seat drawn from the stream; returns the seat."""
    old = obs[0, ROBS.dragon_eye + EYE_HOLDER]
    if topts[T_DRAGON_EYE + 3] and reason == EYE_MOVE and old >= 0:
        seat = (old + 1 + rng.below(state, 3)) % 4
    else:
        seat = rng.below(state, 4)
    placed = obs[0, ROBS.dragon_eye + EYE_PLACED] + 1
    _set(obs, EYE_HOLDER, seat)
    _set(obs, EYE_COUNTER, topts[T_DRAGON_EYE + 1])
    _set(obs, EYE_PENDING, 0)
    _set(obs, EYE_PLACED, placed)
    log_event(events, ev, EV_EYE, seat, -1, topts[T_DRAGON_EYE + 1], placed, reason)
    return seat


@nb.njit(cache=True)
def eye_start(obs, state, seed, topts, events, ev):
    """DE: the hand's first eye (state: the hand's uint64[1] stream, seeded from `seed`)."""
    state[0] = np.uint64(seed)
    _set(obs, EYE_HOLDER, -1)
    _set(obs, EYE_PLACED, 0)
    _set(obs, EYE_MULT, topts[T_DRAGON_EYE + 2])
    eye_place(obs, state, topts, EYE_START, events, ev)


@nb.njit(cache=True)
def eye_discard(obs, seat):
    """A discard by `seat`: the holder's counter drops by 1; at 0 the eye is due to move."""
    if seat == obs[0, ROBS.dragon_eye + EYE_HOLDER] and obs[0, ROBS.dragon_eye + EYE_PENDING] == 0:
        left = obs[0, ROBS.dragon_eye + EYE_COUNTER] - 1
        _set(obs, EYE_COUNTER, left)
        if left <= 0:
            _set(obs, EYE_PENDING, 1)


@nb.njit(cache=True)
def eye_due(obs, state, topts, events, ev):
    """Before a draw from the live wall or a chi / pon / open kan: a due eye moves now."""
    if obs[0, ROBS.dragon_eye + EYE_PENDING]:
        eye_place(obs, state, topts, EYE_MOVE, events, ev)


@nb.njit(cache=True)
def eye_factor(obs, topts, payer, receiver):
    """DE: the factor on a win payment from payer to receiver (×multiplier when the holder is one of them)."""
    if topts[T_DRAGON_EYE] and payer >= 0 and receiver >= 0 and payer != receiver:
        holder = obs[0, ROBS.dragon_eye + EYE_HOLDER]
        if holder == payer or holder == receiver:
            return topts[T_DRAGON_EYE + 2]
    return 1
