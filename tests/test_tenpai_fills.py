"""The exhaustive search for a riichi declarer's hidden tiles (analyzer.advise.riichi_hands.tenpai_fills), which
the rebuild of a riichi-family position falls back on when random tries cannot find hands for several declarers
competing for few unseen copies (M: mirror leaves one normal copy per kind hidden; issue 29)."""

from __future__ import annotations

import numpy as np

from tsumolab.analyzer.advise.riichi_hands import tenpai_fills
from tsumolab.sims.shanten import hand_shanten
from tsumolab.sims.tiles import format_tiles, parse_tiles


def counts(text: str) -> np.ndarray:
    return parse_tiles(text)[0].astype(np.int64)


def fills(fixed: str, n_free: int, room: np.ndarray, budget: int = 1_000_000) -> list[np.ndarray]:
    return list(tenpai_fills(np.random.default_rng(0), counts(fixed), n_free, room, 0, [budget]))


def test_one_free_tile_beside_four_sets_is_any_tile_that_can_be_a_fifth_of_none():
    """Four complete sets and one unknown tile: every kind is a single-tile wait, except a kind whose four copies
    the hand would then hold (1z, held three times, leaves no copy for the wait)."""
    found = fills("123m456p789s111z", 1, np.full(34, 3))
    assert len(found) == 33
    assert all(f.sum() == 1 for f in found)
    assert not any(f[27] for f in found)


def test_mirror_declarers_tiles_are_found_within_one_copy_per_kind():
    """M: one normal copy per kind left. The declarer's true hidden tiles (5m 4p 5s 6s 7s 9s: 456m 234p 456s 66s
    79s waiting on 8s, a kind with no copy left) are among the fills; every fill stays within the room, and makes
    the hand tenpai."""
    room = counts("35679m234568p4567s9s5z")
    found = fills("46m23p4s66s", 6, room)
    assert "5m4p5679s" in {format_tiles(f) for f in found}
    for f in found:
        assert f.sum() == 6 and (f <= room).all()
        assert hand_shanten((counts("46m23p4s66s") + f).astype(np.int8)) == 0


def test_no_fill_when_the_room_cannot_make_a_tenpai_hand():
    """Two copies of each honor beside one run: ten unknown tiles make pairs but no second set (a pung needs a
    third copy, and only the wait may go beyond the room), and seven pairs cannot hold a run."""
    room = np.zeros(34, np.int64)
    room[27:] = 2
    assert fills("123m", 10, room) == []
    room[27:29] = 3   # two honor pungs: 123m 111z 222z and two pairs waiting on either
    assert fills("123m", 10, room)


def test_the_search_stops_when_its_budget_runs_out():
    budget = [5]
    found = list(tenpai_fills(np.random.default_rng(0), counts("46m23p4s66s"), 6, counts("35679m234568p4567s9s5z"),
                              0, budget))
    assert found == [] and budget[0] < 0
