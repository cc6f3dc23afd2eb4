"""The progress determinization of Bloodshed (issue 16): opponents' hands dealt as far along as the field's are.

- The shipped table is what `python -m tsumolab.analyzer.advise.bloodshed_progress` counts (its first matches are a part
of it).
- `deal_hand` reaches the drawn progress: the number of void tiles (B-7) and the shanten of the other tiles.
- `determinize_by_progress` keeps every public count and the seat's own row, depends only on the view, and
  its hands follow the table: their mean shanten is the table row's, far below the uniform re-deal's.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tsumolab.analyzer.advise.bloodshed_progress import count_matches
from tsumolab.policies.api import BOBS
from tsumolab.sims import rng
from tsumolab.sims.shanten_tables import lookup_tables
from tsumolab.sims.bloodshed.determinize import determinize, determinize_by_progress
from tsumolab.sims.bloodshed.progress import (
    N_SHANTEN, N_VOID, TABLE_SHAPE, UNIFORM, deal_hand, field_progress, progress_of, row_of, table_path,
)
from tsumolab.sims.bloodshed.state import ST
from tsumolab.sims.shanten import BLOODSHED_SHAPES, shanten
from tests.test_bloodshed_resume import _obs, _stopped_states, assert_view_kept


def _shipped():
    return np.load(table_path("baseline"))


@pytest.mark.slow
def test_shipped_table_counts_the_first_matches_of_its_build():
    """The package's table holds the counts of matches 1.. of seed 1 (analyzer.advise.bloodshed_progress defaults):
    counting the first 3 again gives a part of it, cell by cell."""
    shipped = _shipped()
    assert shipped.shape == TABLE_SHAPE and shipped.dtype == np.int64
    assert shipped.sum() > 100_000
    part = count_matches("baseline", 3, seed=1)
    assert part.sum() > 500
    assert (part <= shipped).all()


def test_shipped_table_hands_progress_as_the_wall_empties():
    """Early in the hand (full wall) the field's hands still hold void tiles and are further from winning than
    late: mean shanten falls from the first wall bucket to the last ones."""
    c = _shipped().sum(axis=1)  # over melds
    n = c.sum(axis=(1, 2))
    mean_s = (c.sum(axis=1) * (np.arange(N_SHANTEN) - 1)).sum(axis=1) / np.maximum(n, 1)
    mean_v = (c.sum(axis=2) * np.arange(N_VOID)).sum(axis=1) / np.maximum(n, 1)
    late, early = row_of(10, 0)[0], row_of(55, 0)[0]
    assert mean_s[late] < mean_s[early] - 1
    assert mean_v[late] < 0.1 < mean_v[early]


@pytest.mark.parametrize("void", [0, 2])
def test_deal_hand_reaches_the_drawn_progress(void):
    """B-7: v void tiles held and the shanten of the other tiles at the target, for every reachable target."""
    tables = lookup_tables()
    state = np.zeros(1, np.uint64)
    state[0] = rng.key_seed(5, void, 0, 0)
    for v, target, n_melds in itertools.product((0, 1, 3), (0, 1, 2, 3), (0, 2)):
        if n_melds == 2 and v + target > 3:  # 7 tiles: at most 4-shanten, and only from scattered ones
            continue
        copies = np.repeat(np.arange(27), 4)
        rng.shuffle(copies, state)
        size = 13 - 3 * n_melds
        got = deal_hand(copies, 0, size, void, v, target + v, n_melds, state, tables)
        hand = np.bincount(copies[:size], minlength=34).astype(np.int32)
        assert (hand[void * 9:void * 9 + 9]).sum() == v
        hand[void * 9:void * 9 + 9] = 0
        s = shanten(hand, n_melds, BLOODSHED_SHAPES, *_split(tables))
        assert s == got == target + v, (v, target, n_melds, s, got)
        assert sorted(copies) == sorted(np.repeat(np.arange(27), 4))  # exchanges only


def _split(tables):
    from tsumolab.sims.shanten_tables import SUIT_ROWS

    return tables[:SUIT_ROWS], tables[SUIT_ROWS:]


def _hidden_seats(S, seat):
    o = _obs(S)
    return [p for p in range(4) if p != seat and o[0, BOBS.void + p] >= 0 and o[0, BOBS.won + p] == 0]


def test_progress_determinization_keeps_the_view_and_counts():
    """B-1: the hidden copies are exactly the pool; hand sizes, the seat's row and the public fields stay."""
    progress, tables = field_progress("baseline"), lookup_tables()
    for S in _stopped_states(40, seed=31):
        seat = int(S[ST.pend_seat])
        out = np.empty_like(S)
        for k in range(3):
            assert determinize_by_progress(S, seat, 9, k, out, progress, tables)
            assert_view_kept(S, out, seat)


def test_progress_determinization_depends_only_on_the_view():
    """Rearranging the hidden tiles of the source state changes no sample (the keyed stream)."""
    progress, tables = field_progress("baseline"), lookup_tables()
    for S in _stopped_states(20, seed=32):
        seat = int(S[ST.pend_seat])
        rearranged = np.empty_like(S)
        assert determinize(S, seat, 4321, 0, rearranged)
        a, b = np.empty_like(S), np.empty_like(S)
        for k in range(3):
            determinize_by_progress(S, seat, 7, k, a, progress, tables)
            determinize_by_progress(rearranged, seat, 7, k, b, progress, tables)
            assert np.array_equal(a, b)


def test_uniform_table_is_the_uniform_redeal():
    """The empty table deals exactly as `determinize` (the old method stays available bit for bit)."""
    tables = lookup_tables()
    for S in _stopped_states(10, seed=33):
        seat = int(S[ST.pend_seat])
        a, b = np.empty_like(S), np.empty_like(S)
        for k in range(3):
            determinize(S, seat, 5, k, a)
            determinize_by_progress(S, seat, 5, k, b, UNIFORM, tables)
            assert np.array_equal(a, b)


def test_dealt_hands_follow_the_table_not_the_uniform_deal():
    """Mid-hand states of a baseline field: the dealt opponents' mean v + s is the table rows' mean within 0.3,
    and at least 1.5 below the uniform re-deal's. (Late in a hand the pool left may not allow the drawn
    progress: the deal gets as close as its walk can.)"""
    progress, tables = field_progress("baseline"), lookup_tables()
    counts = _shipped()
    got, want, uniform = [], [], []
    for S in _stopped_states(60, seed=34, seats="baseline,baseline,baseline,baseline"):
        seat = int(S[ST.pend_seat])
        o0 = _obs(S)
        wall = 108 - int(S[ST.pos])
        seats = [p for p in _hidden_seats(S, seat)
                 if o0[p, BOBS.hand:BOBS.hand + 27].sum() == 13 - 3 * o0[0, BOBS.n_melds + p]]
        if not 12 <= wall <= 40 or not seats:
            continue
        out = np.empty_like(S)
        for k in range(4):
            determinize_by_progress(S, seat, 3, k, out, progress, tables)
            got += [sum(progress_of(_obs(out), p, tables)) for p in seats]
            determinize(S, seat, 3, k, out)
            uniform += [sum(progress_of(_obs(out), p, tables)) for p in seats]
        for p in seats:
            w, m = row_of(wall, o0[0, BOBS.n_melds + p])
            row = counts[w, m]
            vs = np.add.outer(np.arange(N_VOID), np.arange(N_SHANTEN) - 1)
            want += [(row * vs).sum() / row.sum()] * 4
    assert len(got) >= 100
    assert abs(np.mean(got) - np.mean(want)) < 0.3, (np.mean(got), np.mean(want))
    assert np.mean(got) < np.mean(uniform) - 1.5, (np.mean(got), np.mean(uniform))
