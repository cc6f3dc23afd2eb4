"""Determinization: resample what one seat cannot see in a stopped Bloodshed state.

What the deciding seat sees (its view): its own concealed tiles and random stream aside, every public
field of the state block — melds, rivers, voids, winners, points, draws, the wall count, the kan ledger,
the tile under reaction, robbed tiles. What it cannot see: the other seats' concealed tiles (winners'
closed hands included, B-12), the order of the live wall, the other seats' random streams and, at the
exchange, the direction (revealed only after everybody chose, B-6).

The hidden tiles are the 108 (B-1) minus every visible copy. They are dealt back uniformly at random
among all arrangements of tile copies into the hidden slots (each other seat keeps its hand size, the
live wall its length) that agree with the view's public consequences:
- a seat that has won holds no tile of its void suit (B-7, B-10): the number of tiles of each suit
  each winner gets is drawn with probability proportional to the number of arrangements having it,
  then the copies themselves uniformly;
- a seat adding a kan (PH_ROB) holds the added tile.
Not used (documented simplifications): that a winner's hand is complete (B-10) and what the seat
remembers of the exchange (which tiles it passed to whom).

That is `determinize`, the uniform re-deal. Uniform hands are much further from winning than the hands the
field builds over the draws of a hand, so rollouts from them overvalue waiting. `determinize_by_progress`
deals each other seat that has declared its void and not won a hand of the progress (void tiles held,
shanten of the rest; sims.bloodshed.progress) drawn from a table learned from the field's play, given the
wall tiles left and the seat's melds; the seats are dealt in seat order, each from what the ones before left.

Every draw comes from the keyed stream (seed, sample index), so a sample depends only on the view, the
seed and the index: rearranging the hidden tiles of the source state changes nothing.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from tsumolab.sims.bloodshed.observation import BOBS
from tsumolab.sims import rng
from tsumolab.sims.bloodshed.progress import deal_hand, draw_progress
from tsumolab.sims.bloodshed.engine import ANKAN_MELD, KAKAN_MELD, MINKAN_MELD, PON_MELD, seat_seed
from tsumolab.sims.bloodshed.state import PH_EXCHANGE, PH_REACT, PH_ROB, ST, obs_of

N_WALL = 108
STREAM_DETERMINIZE, STREAM_DIRECTION_GUESS = 101, 102


@nb.njit(cache=True)
def hidden_pool(S, seat):
    """Copies of each kind the seat cannot see (int64[27]); a negative count means the view is impossible."""
    obs = obs_of(S)
    pool = np.full(27, 4, np.int64)
    for k in range(27):
        pool[k] -= obs[seat, BOBS.hand + k]
        for p in range(4):
            pool[k] -= obs[0, BOBS.river + 34 * p + k]
            meld = obs[0, BOBS.melds + 34 * p + k]
            if meld == PON_MELD:
                pool[k] -= 3
            elif meld == MINKAN_MELD or meld == ANKAN_MELD or meld == KAKAN_MELD:
                pool[k] -= 4
    for i in range(S[ST.robbed_tiles]):
        pool[S[ST.robbed_kind + i]] -= 1
    return pool


@nb.njit(cache=True)
def _take(pool, suit, state):
    """Remove one copy chosen uniformly among the pool's copies of `suit`; returns its kind."""
    n = 0
    for k in range(suit * 9, suit * 9 + 9):
        n += pool[k]
    r = rng.below(state, n)
    for k in range(suit * 9, suit * 9 + 9):
        if r < pool[k]:
            pool[k] -= 1
            return k
        r -= pool[k]
    return -1


@nb.njit(cache=True)
def _winner_suit_counts(pool, sizes, voids, n_w, rest, state):
    """Per winner, how many tiles of each suit it gets: drawn with probability proportional to the number
    of arrangements of all hidden copies having those counts (winners get none of their void suit)."""
    suit_n = np.zeros(3, np.int64)
    for k in range(27):
        suit_n[k // 9] += pool[k]
    n_combos = 1
    for w in range(n_w):
        n_combos *= sizes[w] + 1
    log_w = np.full(n_combos, -np.inf)
    counts = np.zeros((n_w, 3), np.int64)
    for c in range(n_combos):
        code = c
        left = suit_n.copy()
        lw = 0.0
        for w in range(n_w):
            first = code % (sizes[w] + 1)
            code //= sizes[w] + 1
            a, b = (voids[w] + 1) % 3, (voids[w] + 2) % 3
            counts[w, voids[w]] = 0
            counts[w, a] = first
            counts[w, b] = sizes[w] - first
            lw += math.lgamma(sizes[w] + 1) - math.lgamma(first + 1) - math.lgamma(sizes[w] - first + 1)
            left[a] -= first
            left[b] -= sizes[w] - first
        if left.min() < 0:
            continue
        lw += math.lgamma(rest + 1)
        for x in range(3):
            lw -= math.lgamma(left[x] + 1)
        log_w[c] = lw
    top = log_w.max()
    total = 0.0
    for c in range(n_combos):
        total += math.exp(log_w[c] - top)
    u = (rng.next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total
    chosen = n_combos - 1
    for c in range(n_combos):
        u -= math.exp(log_w[c] - top)
        if u < 0 and log_w[c] > -np.inf:
            chosen = c
            break
    code = chosen
    for w in range(n_w):
        first = code % (sizes[w] + 1)
        code //= sizes[w] + 1
        counts[w, voids[w]] = 0
        counts[w, (voids[w] + 1) % 3] = first
        counts[w, (voids[w] + 2) % 3] = sizes[w] - first
    return counts


@nb.njit(cache=True)
def determinize(S0, seat, seed, index, out):
    """Write into `out` a copy of the stopped state S0 whose hidden part (see the module doc) is resampled
    uniformly for `seat`'s view, keyed by (seed, index). Returns False (out undefined) if S0's view is
    impossible."""
    return determinize_by_progress(S0, seat, seed, index, out, np.zeros((0, 0, 0)), np.zeros((0, 0), np.uint8))


@nb.njit(cache=True)
def determinize_by_progress(S0, seat, seed, index, out, progress, tables):
    """`determinize` with the other seats' hands dealt to a progress drawn from `progress` (the cumulative
    table of sims.bloodshed.progress.cumulative; an empty array deals uniformly); `tables` the shanten
    tables."""
    out[:] = S0
    obs = obs_of(out)
    state = np.zeros(1, np.uint64)
    state[0] = rng.key_seed(seed, index, STREAM_DETERMINIZE, 0)
    pool = hidden_pool(S0, seat)
    if pool.min() < 0:
        return False
    sizes = np.zeros(4, np.int64)
    for p in range(4):
        if p != seat:
            for k in range(27):
                sizes[p] += obs[p, BOBS.hand + k]
                obs[p, BOBS.hand + k] = 0
    phase = S0[ST.phase]
    adder = -1
    if phase == PH_ROB and S0[ST.cur] != seat:  # the seat adding a kan holds the added tile
        adder = S0[ST.cur]
        pool[S0[ST.tile]] -= 1
        sizes[adder] -= 1
        obs[adder, BOBS.hand + S0[ST.tile]] = 1
        if pool[S0[ST.tile]] < 0:
            return False
    n_wall = N_WALL - S0[ST.pos]
    if pool.sum() != sizes.sum() + n_wall:
        return False

    winners = np.zeros(3, np.int64)
    w_sizes = np.zeros(3, np.int64)
    w_voids = np.zeros(3, np.int64)
    n_w = 0
    for p in range(4):
        if p != seat and obs[0, BOBS.won + p] == 1 and sizes[p] > 0:
            winners[n_w], w_sizes[n_w], w_voids[n_w] = p, sizes[p], obs[0, BOBS.void + p]
            n_w += 1
    if n_w > 0:
        rest = pool.sum() - w_sizes[:n_w].sum()
        counts = _winner_suit_counts(pool, w_sizes, w_voids, n_w, rest, state)
        for w in range(n_w):
            for x in range(3):
                for _ in range(counts[w, x]):
                    obs[winners[w], BOBS.hand + _take(pool, x, state)] += 1
            sizes[winners[w]] = 0

    copies = np.empty(pool.sum(), np.int64)
    i = 0
    for k in range(27):
        for _ in range(pool[k]):
            copies[i] = k
            i += 1
    rng.shuffle(copies, state)
    i = 0
    for p in range(4):
        void = obs[0, BOBS.void + p]
        if progress.shape[0] > 0 and sizes[p] > 0 and void >= 0:
            n_melds = obs[0, BOBS.n_melds + p]
            v, s = draw_progress(progress, n_wall, n_melds, state)
            deal_hand(copies, i, sizes[p], void, v, s, n_melds, state, tables)
        for _ in range(sizes[p]):
            obs[p, BOBS.hand + copies[i]] += 1
            i += 1
    for j in range(S0[ST.pos], N_WALL):
        out[ST.wall + j] = copies[i]
        i += 1

    for s in range(4):
        obs[s, BOBS.rng] = seat_seed(seed, index, 0, s)
    if phase == PH_EXCHANGE:
        out[ST.direction] = rng.below(state, 3)
    if (phase == PH_REACT or phase == PH_ROB) and S0[ST.cur] != seat:
        out[ST.drawn] = S0[ST.tile] if (phase == PH_ROB and S0[ST.drawn] == S0[ST.tile]) else -1
    return True
