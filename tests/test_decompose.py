"""Decomposition kernel (sims/decompose.py): pair + sets splits used by B-10 / B-19a scoring."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from tsumolab.sims.decompose import (COL_N_SETS, COL_PAIR, MAX_DECOMPOSITIONS, SEQ_BASE, decompositions,
                            is_complete_standard, new_buffer)
from tsumolab.sims.tiles import parse_tiles


def _rows(text: str) -> tuple[int, list[tuple]]:
    counts, _ = parse_tiles(text)
    buf = new_buffer()
    n = decompositions(counts, buf)
    return n, [_canonical(buf[i]) for i in range(min(n, buf.shape[0]))]


def _canonical(row) -> tuple:
    sets = tuple(sorted(int(s) for s in row[1:1 + row[COL_N_SETS]]))
    return int(row[COL_PAIR]), sets


def _reference(counts) -> set[tuple]:
    """Every (pair, sorted sets) split, by plain recursion over any removable set (deduplicated)."""
    counts = [int(x) for x in counts]
    found: set[tuple] = set()

    def sets_of(c: list[int], chosen: list[int]) -> None:
        if not any(c):
            found.add((pair, tuple(sorted(chosen))))
            return
        for k in range(34):
            if c[k] >= 3:
                c[k] -= 3
                sets_of(c, chosen + [k])
                c[k] += 3
            if k < 27 and k % 9 <= 6 and c[k] and c[k + 1] and c[k + 2]:
                for j in (k, k + 1, k + 2):
                    c[j] -= 1
                sets_of(c, chosen + [SEQ_BASE + k])
                for j in (k, k + 1, k + 2):
                    c[j] += 1

    if sum(counts) % 3 != 2:
        return found
    for pair in range(34):
        if counts[pair] >= 2:
            counts[pair] -= 2
            sets_of(counts, [])
            counts[pair] += 2
    return found


def _reassemble(pair: int, sets: tuple) -> np.ndarray:
    counts = np.zeros(34, np.int64)
    counts[pair] += 2
    for s in sets:
        if s >= SEQ_BASE:
            counts[s - SEQ_BASE:s - SEQ_BASE + 3] += 1
        else:
            counts[s] += 3
    return counts


@pytest.mark.parametrize("hand, expected", [
    ("111222333m55p", {(13, (0, 1, 2)), (13, (34, 34, 34))}),            # triplets vs sequences
    ("11122233344455m", {(1, (0, 35, 36, 36)), (4, (0, 1, 2, 3)), (4, (0, 35, 35, 35)),
                         (4, (3, 34, 34, 34))}),
    ("11223344556677m", {(0, (35, 35, 38, 38)), (3, (34, 34, 38, 38)), (6, (34, 34, 37, 37))}),
    ("11123456789999m", {(0, (8, 34, 37, 40))}),                          # 9-tile run: one split
    ("123m456p789s11122z", {(28, (27, 34, 46, 58))}),
    ("55m", {(4, ())}),
])
def test_known_decompositions(hand, expected):
    """B-10 standard shape: the exact set of splits of ambiguous hands."""
    n, rows = _rows(hand)
    assert n == len(expected)
    assert {(p, tuple(sorted(s))) for p, s in rows} == {(p, tuple(sorted(s))) for p, s in expected}


@pytest.mark.parametrize("hand", ["123m", "1m", "11m22m", "123z55m", "11223344556678m", "1112223334445m",
                                  "13579m13579p1355s"])
def test_not_complete(hand):
    """No honor sequences, sizes other than 3n+2, and broken shapes give no decomposition (B-10)."""
    counts, _ = parse_tiles(hand)
    assert decompositions(counts, new_buffer()) == 0
    assert not is_complete_standard(counts)


def test_counts_restored_and_overflow_counted():
    counts, _ = parse_tiles("11122233344455m")
    before = counts.copy()
    small = new_buffer(2)
    assert decompositions(counts, small) == 4  # more than the buffer: still counted exactly
    assert np.array_equal(counts, before)
    assert all(_canonical(small[i]) in set(_rows("11122233344455m")[1]) for i in range(2))


def _random_complete(rng, n_sets: int) -> np.ndarray:
    while True:
        counts = np.zeros(34, np.int8)
        for _ in range(n_sets):
            if rng.random() < 0.35:
                counts[rng.integers(34)] += 3
            else:
                first = rng.integers(3) * 9 + rng.integers(7)
                counts[first:first + 3] += 1
        counts[rng.integers(34)] += 2
        if counts.max() <= 4:
            return counts


def test_random_cross_check_with_reference():
    """Kernel rows = the plain recursive enumeration, each reassembles to the hand (B-10)."""
    rng = np.random.default_rng(20240601)
    hands = [_random_complete(rng, int(rng.integers(0, 5))) for _ in range(600)]
    for _ in range(300):  # random near-misses: one tile moved
        h = _random_complete(rng, 4)
        h[rng.choice(np.nonzero(h)[0])] -= 1
        h[rng.integers(27)] += 1
        if h.max() <= 4:
            hands.append(h)
    for counts in hands:
        buf = new_buffer()
        n = decompositions(counts, buf)
        rows = [_canonical(buf[i]) for i in range(n)]
        assert len(rows) == len(set(rows)), "duplicate decomposition"
        assert set(rows) == _reference(counts)
        for pair, sets in rows:
            assert np.array_equal(_reassemble(pair, sets), counts.astype(np.int64))


@njit
def _max_per_size():
    """Max decompositions over every one-suit vector (counts <= 4) of 3n+2 tiles, and of 3n tiles
    (sets only, measured with a 1z pair appended), by size."""
    with_pair = np.zeros(15, np.int64)
    sets_only = np.zeros(15, np.int64)
    counts = np.zeros(34, np.int8)
    buf = np.empty((64, 6), np.int16)
    v = np.zeros(9, np.int64)
    while True:
        total = v.sum()
        if total <= 14 and total % 3 != 1:
            for k in range(9):
                counts[k] = v[k]
            if total % 3 == 0:
                counts[27] = 2
            n = decompositions(counts, buf)
            counts[27] = 0
            if total % 3 == 2:
                with_pair[total] = max(with_pair[total], n)
            else:
                sets_only[total] = max(sets_only[total], n)
        i = 0
        while i < 9 and v[i] == 4:
            v[i] = 0
            i += 1
        if i == 9:
            break
        v[i] += 1
    return with_pair, sets_only


def test_max_rows_covers_worst_case():
    """MAX_DECOMPOSITIONS bounds every hand of <= 14 tiles: one suit holds at most 4 splits, and a
    mixed hand's count is (pair suit's splits) x (other suits' set splits)."""
    with_pair, sets_only = _max_per_size()
    assert with_pair[14] == 4 and with_pair.max() == 4
    assert sets_only[12] == 3 and sets_only[9] == 2
    worst = 0
    for pair_size in (2, 5, 8, 11, 14):
        rest = 14 - pair_size
        for a in range(0, rest + 1, 3):
            for b in range(0, rest - a + 1, 3):
                c = rest - a - b
                worst = max(worst, with_pair[pair_size] * max(sets_only[a], 1) * max(sets_only[b], 1)
                            * max(sets_only[c], 1))
    assert worst == MAX_DECOMPOSITIONS
