"""Compiled building blocks for policies: reading the observation, hand efficiency, in-game helpers.

Every function here is jit-compiled and takes the seat's `obs` (see policies.api) and, where it needs
shanten, the lookup `tables` a hook receives.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.policies.api import BOBS, KAN, KAN_CALL, PASS, PON, RON, TSUMO, own_hand, pack_exchange
from tsumolab.sims.jit import inline
from tsumolab.sims.shanten import BLOODSHED_SHAPES, NOT_APPLICABLE, discard_shanten, shanten, ukeire_into
from tsumolab.sims.shanten_tables import SUIT_ROWS

SUITED = 27


@inline
def split_tables(tables):
    """(suit table, honor table) views of the combined lookup array."""
    return tables[:SUIT_ROWS], tables[SUIT_ROWS:]


@inline
def own_melds(obs):
    """Meld type per kind of the observing seat (0 = none, else sims.tiles meld constant + 1)."""
    seat = obs[BOBS.seat]
    return obs[BOBS.melds + 34 * seat:BOBS.melds + 34 * seat + 34]


@nb.njit(cache=True)
def n_own_melds(obs):
    return obs[BOBS.n_melds + obs[BOBS.seat]]


@nb.njit(cache=True)
def own_void(obs):
    return obs[BOBS.void + obs[BOBS.seat]]


@nb.njit(cache=True)
def suit_count(hand, suit):
    n = 0
    for k in range(suit * 9, suit * 9 + 9):
        n += hand[k]
    return n


@nb.njit(cache=True)
def rand_below(obs, n):
    """Uniform integer in [0, n) from the seat's own random stream in the Bloodshed layout (obs[BOBS.rng])."""
    return rand_below_at(obs, BOBS.rng, n)


@nb.njit(cache=True)
def rand_below_at(obs, slot, n):
    """Uniform integer in [0, n) from the xorshift32 state kept in obs[slot] (each layout has its own slot:
    policies.api.BOBS.rng, policies.riichi_api.ROBS.rng)."""
    x = np.int64(obs[slot]) & 0xFFFFFFFF
    if x == 0:
        x = 1
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    obs[slot] = np.int32(x - (1 << 32) if x >= (1 << 31) else x)
    return x % n


@nb.njit(cache=True)
def add_answer(answers, n, allowed, answer):
    """Append `answer` to the first `n` entries of `answers` if `allowed`; returns the new count."""
    if allowed:
        answers[n] = answer
        return n + 1
    return n


@nb.njit(cache=True)
def add_claim_answers(answers, can_win, can_pon, can_kan):
    """answers[0..n) = PASS, then RON, PON, KAN_CALL where allowed; returns n. Layout-free: the caller passes its
    observation's values."""
    n = add_answer(answers, 0, True, PASS)
    n = add_answer(answers, n, can_win, RON)
    n = add_answer(answers, n, can_pon, PON)
    return add_answer(answers, n, can_kan, KAN_CALL)


@nb.njit(cache=True)
def tsumo_or_closed_kan(can_win, kan_options, kinds):
    """TSUMO when the seat may win, else KAN + the lowest of the first `kinds` kinds with a closed kan
    (kan_options[kind] == 1), else -1. Layout-free: the caller passes its observation's values."""
    if can_win:
        return TSUMO
    for k in range(kinds):
        if kan_options[k] == 1:
            return KAN + k
    return -1


@nb.njit(cache=True)
def unseen_counts(obs, skip_suit):
    """Copies of each kind the seat cannot see (4 − own hand − public), with `skip_suit` zeroed (-1: none)."""
    out = np.zeros(34, np.int64)
    for k in range(SUITED):
        if k // 9 != skip_suit:
            out[k] = max(0, 4 - obs[BOBS.hand + k] - obs[BOBS.seen + k])
    return out


@nb.njit(cache=True)
def hand_shanten(obs, tables):
    """Shanten of the seat's concealed tiles under the bloodshed shapes (B-10)."""
    suit_t, honor_t = split_tables(tables)
    return shanten(own_hand(obs), n_own_melds(obs), BLOODSHED_SHAPES, suit_t, honor_t)


@nb.njit(cache=True)
def edge_score(kind):
    """Larger for tiles further from the middle of their suit (1 and 9 highest)."""
    return abs(kind % 9 - 4)


@nb.njit(cache=True)
def void_discard(obs):
    """A void-suit tile to discard (fewest copies first, then outermost), or -1 if none is held."""
    suit = own_void(obs)
    if suit < 0:
        return -1
    best, best_key = -1, 1 << 30
    for k in range(suit * 9, suit * 9 + 9):
        c = obs[BOBS.hand + k]
        if c > 0:
            key = c * 16 - edge_score(k)
            if key < best_key:
                best, best_key = k, key
    return best


@nb.njit(cache=True)
def efficient_discard(obs, tables, ignore_void):
    """The discard that keeps shanten lowest, then accepts the most unseen tiles, then is most outward.

    With `ignore_void` the void suit's draws are not counted as acceptance (they cannot win); its tiles
    still count in the shape. Returns (kind, shanten after the discard).
    """
    suit_t, honor_t = split_tables(tables)
    hand = own_hand(obs).copy()
    n_melds = n_own_melds(obs)
    after = np.empty(34, np.int64)
    best = discard_shanten(hand, n_melds, BLOODSHED_SHAPES, suit_t, honor_t, after)
    unseen = unseen_counts(obs, own_void(obs) if ignore_void else -1)
    scratch = np.empty(34, np.int64)
    choice, choice_accept, choice_edge = -1, -1, -1
    for k in range(34):
        if after[k] != best:
            continue
        hand[k] -= 1
        accept = ukeire_into(hand, n_melds, BLOODSHED_SHAPES, unseen, suit_t, honor_t, scratch)
        hand[k] += 1
        edge = edge_score(k)
        if accept > choice_accept or (accept == choice_accept and edge > choice_edge):
            choice, choice_accept, choice_edge = k, accept, edge
    return choice, best


@nb.njit(cache=True)
def shanten_without(obs, tables, kind, copies, extra_melds):
    """Shanten of the concealed hand after removing `copies` of `kind` into `extra_melds` new melds."""
    suit_t, honor_t = split_tables(tables)
    hand = own_hand(obs).copy()
    hand[kind] -= copies
    return shanten(hand, n_own_melds(obs) + extra_melds, BLOODSHED_SHAPES, suit_t, honor_t)


@nb.njit(cache=True)
def best_discard_shanten(obs, tables):
    """Lowest shanten reachable by one discard from the seat's 14-tile-equivalent hand."""
    suit_t, honor_t = split_tables(tables)
    after = np.empty(34, np.int64)
    return discard_shanten(own_hand(obs), n_own_melds(obs), BLOODSHED_SHAPES, suit_t, honor_t, after)


@nb.njit(cache=True)
def kan_keeps_hand(obs, tables, kind, kan_option):
    """Whether a closed (1) or added (2) kan of `kind` leaves shanten no worse than the best discard."""
    before = best_discard_shanten(obs, tables)
    if kan_option == 1:
        return shanten_without(obs, tables, kind, 4, 1) <= before
    return shanten_without(obs, tables, kind, 1, 0) <= before


@nb.njit(cache=True)
def call_keeps_hand(obs, tables, kind, copies):
    """Whether claiming the discard `kind` with `copies` of our own (2 = pon, 3 = open kan) keeps shanten.

    After a pon the hand discards once more, so it is compared by its best discard.
    """
    suit_t, honor_t = split_tables(tables)
    hand = own_hand(obs).copy()
    n_melds = n_own_melds(obs)
    before = shanten(hand, n_melds, BLOODSHED_SHAPES, suit_t, honor_t)
    hand[kind] -= copies
    if copies == 2:
        after = np.empty(34, np.int64)
        now = discard_shanten(hand, n_melds + 1, BLOODSHED_SHAPES, suit_t, honor_t, after)
    else:
        now = shanten(hand, n_melds + 1, BLOODSHED_SHAPES, suit_t, honor_t)
    return now != NOT_APPLICABLE and now <= before


# ---------------------------------------------------------------------- B-24: the in-game recommendation
@nb.njit(cache=True)
def keep_score(hand, k):
    """How much a tile belongs to a pair, triplet or sequence shape in its suit (0 = isolated)."""
    r = k % 9
    base = k - r
    score = 0
    if hand[k] >= 2:
        score += 4
    for d in (-2, -1, 1, 2):
        if 0 <= r + d < 9 and hand[base + r + d] > 0:
            score += 3 - abs(d)
    return score


@nb.njit(cache=True)
def fewest_exchangeable_suit(hand):
    """The suit with the fewest tiles among suits holding at least 3 (B-6, B-24)."""
    suit, fewest = -1, 99
    for s in range(3):
        n = suit_count(hand, s)
        if 3 <= n < fewest:
            suit, fewest = s, n
    return suit


@nb.njit(cache=True)
def take_lowest(hand, keys, first, last):
    """The held kind in [first, last) with the lowest keys[kind] (the lowest kind on ties), taken out of `hand`."""
    best, best_key = -1, 1 << 30
    for k in range(first, last):
        if hand[k] > 0 and keys[k] < best_key:
            best, best_key = k, keys[k]
    hand[best] -= 1
    return best


@nb.njit(cache=True)
def take_nth_tile(hand, pick, first, last):
    """The kind of the tile number `pick` (from 0) among the held tiles of kinds [first, last), counted kind by
    kind, taken out of `hand`."""
    for k in range(first, last):
        if pick < hand[k]:
            hand[k] -= 1
            return k
        pick -= hand[k]
    return -1


@nb.njit(cache=True)
def fewest_suit_exchange(obs, tables, by_shanten):
    """Three tiles of the suit with the fewest tiles among suits with ≥3, one by one the tile whose loss costs
    least. B-24 (`by_shanten` False): avoid giving pairs, sequences or triplets, then prefer edge tiles;
    baseline's value exchange (`by_shanten` True): first the lowest shanten left without the tile, then the
    same order for the hand without it. Returns the packed D_EXCHANGE answer."""
    suit_t, honor_t = split_tables(tables)
    hand = own_hand(obs).copy()
    suit = fewest_exchangeable_suit(hand)
    keys = np.empty(34, np.int64)
    chosen = np.empty(3, np.int64)
    for i in range(3):
        for k in range(suit * 9, suit * 9 + 9):
            if by_shanten and hand[k] > 0:
                hand[k] -= 1
                keys[k] = shanten(hand, 0, BLOODSHED_SHAPES, suit_t, honor_t) * 256 + keep_score(hand, k) * 16 \
                    - edge_score(k)
                hand[k] += 1
            else:
                keys[k] = keep_score(hand, k) * 16 - edge_score(k)
        chosen[i] = take_lowest(hand, keys, suit * 9, suit * 9 + 9)
    return pack_exchange(chosen[0], chosen[1], chosen[2])


@nb.njit(cache=True)
def fewest_suit(obs):
    """B-24 recommended void: the suit with the fewest tiles (lowest suit on ties)."""
    hand = own_hand(obs)
    best, best_n = 0, 99
    for s in range(3):
        n = suit_count(hand, s)
        if n < best_n:
            best, best_n = s, n
    return best
