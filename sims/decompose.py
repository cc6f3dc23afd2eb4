"""Every way to split a complete concealed hand into sets and one pair (standard shape only).

A complete concealed part has 3n+2 tiles: one pair and n sets, each set a triplet of one kind or a
sequence of three consecutive kinds in one suit (no honor sequences). Seven pairs is a different
shape and is not enumerated here.

Output rows of `decompositions` (int16[max_rows, 6]):
    column 0      pair kind
    columns 1..4  sets in order of their lowest tile (a triplet of k before a sequence from k):
                  k for a triplet of kind k, SEQ_BASE + k for the sequence k, k+1, k+2; -1 where unused
    column 5      number of sets n

Worst case: no hand of at most 14 tiles has more than MAX_DECOMPOSITIONS = 4 (e.g. 11122233344455m:
pair 2m + 111 234 345 345, pair 5m + 123 123 123 444, + 111 234 234 234, + 111 222 333 444).
Found by exhaustive enumeration: one suit holds at most 4 (pair included, 14 tiles) and at most 3
(sets only, 12 tiles); mixed suits multiply smaller maxima (e.g. 3 x 1). tests/test_decompose.py
re-checks the single-suit maxima against the kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from tsumolab.sims.jit import allocates

SEQ_BASE = 34
N_COLS = 6
COL_PAIR = 0
COL_N_SETS = 5
MAX_SETS = 4
MAX_DECOMPOSITIONS = 4
"""Rows enough for any hand of at most 14 concealed tiles (see the module docstring)."""


def new_buffer(max_rows: int = MAX_DECOMPOSITIONS) -> np.ndarray:
    """A preallocated output buffer for `decompositions`."""
    return np.full((max_rows, N_COLS), -1, np.int16)


# rows of the search-stack scratch used by _split_sets
_KIND, _COUNT, _TRIP, _SEQ, _N_SETS, _SETS = 0, 1, 2, 3, 4, 5


@njit(cache=True)
def _split_sets(c, pair, out, n_found, stack):
    """Enumerate the set splits of counts `c` (pair already removed) into `out`; jit-compiled.

    Canonical order: the lowest kind k still holding tiles is used up at once, as t = 0 or 1 triplet
    plus s = c[k] - 3t sequences starting at k, so each multiset of sets is produced exactly once.
    Explicit stack of levels (depth <= MAX_SETS, each level adds at least one set); per level:
    stack[_KIND] kind, [_COUNT] its count on entry, [_TRIP] last triplet choice tried (-1 none),
    [_SEQ] sequences taken by the applied choice (-1 none applied), [_N_SETS] sets chosen before it.
    stack[_SETS, :MAX_SETS] holds the chosen sets. Rows past the buffer are counted, not written.
    `c` is restored on return. Returns the new total of decompositions found.
    """
    depth = 0
    k = 0
    while k < 34 and c[k] == 0:
        k += 1
    stack[_KIND, 0] = k
    stack[_COUNT, 0] = c[k] if k < 34 else 0
    stack[_TRIP, 0] = -1
    stack[_SEQ, 0] = -1
    stack[_N_SETS, 0] = 0
    while depth >= 0:
        k = stack[_KIND, depth]
        if k == 34:
            if n_found < out.shape[0]:
                n = stack[_N_SETS, depth]
                out[n_found, COL_PAIR] = pair
                for i in range(MAX_SETS):
                    out[n_found, 1 + i] = stack[_SETS, i] if i < n else -1
                out[n_found, COL_N_SETS] = n
            n_found += 1
            depth -= 1
            continue
        s_prev = stack[_SEQ, depth]
        if s_prev >= 0:  # undo the choice applied at this level
            c[k] = stack[_COUNT, depth]
            if s_prev > 0:
                c[k + 1] += s_prev
                c[k + 2] += s_prev
            stack[_SEQ, depth] = -1
        trip = stack[_TRIP, depth] + 1
        stack[_TRIP, depth] = trip
        if trip > 1:
            depth -= 1
            continue
        s = stack[_COUNT, depth] - 3 * trip
        if s < 0:
            continue
        if s > 0 and (k >= 27 or k % 9 > 6 or c[k + 1] < s or c[k + 2] < s):
            continue
        n = stack[_N_SETS, depth]
        if n + trip + s > MAX_SETS:
            continue
        c[k] = 0
        if s > 0:
            c[k + 1] -= s
            c[k + 2] -= s
        stack[_SEQ, depth] = s
        if trip == 1:
            stack[_SETS, n] = k
            n += 1
        for _ in range(s):
            stack[_SETS, n] = SEQ_BASE + k
            n += 1
        nk = k + 1
        while nk < 34 and c[nk] == 0:
            nk += 1
        depth += 1
        stack[_KIND, depth] = nk
        stack[_COUNT, depth] = c[nk] if nk < 34 else 0
        stack[_TRIP, depth] = -1
        stack[_SEQ, depth] = -1
        stack[_N_SETS, depth] = n
    return n_found


@allocates
def decompositions(counts, out):
    """Write every distinct (pair, sets) split of `counts` (int8[34], 3n+2 tiles) into `out`; jit-compiled.

    Returns the number of decompositions found, 0 if the hand is not complete in the standard shape.
    If it exceeds out.shape[0], only the first out.shape[0] rows are written (the count stays exact).
    `counts` is modified during the search and restored before returning (no copy is made).
    """
    # Cheap rejection: every suit holds a multiple of 3 tiles except the pair's suit (3m+2).
    pair_suit = -1
    total = 0
    for suit in range(4):
        n_suit = 0
        for k in range(9 * suit, min(9 * suit + 9, 34)):
            n_suit += counts[k]
        total += n_suit
        r = n_suit % 3
        if r == 1:
            return 0
        if r == 2:
            if pair_suit >= 0:
                return 0
            pair_suit = suit
    if pair_suit < 0 or total > 3 * MAX_SETS + 2:
        return 0
    c = counts  # worked on in place and restored: _split_sets undoes every change
    stack = np.empty((_SETS + 1, MAX_SETS + 1), np.int64)
    n_found = 0
    for pair in range(9 * pair_suit, min(9 * pair_suit + 9, 34)):
        if c[pair] < 2:
            continue
        c[pair] -= 2
        n_found = _split_sets(c, pair, out, n_found, stack)
        c[pair] += 2
    return n_found


@allocates
def is_complete_standard(counts):
    """True if `counts` (3n+2 tiles) splits into n sets and a pair; jit-compiled."""
    out = np.empty((0, N_COLS), np.int16)
    return decompositions(counts, out) > 0
