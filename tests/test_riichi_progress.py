"""The riichi progress deal (sims.riichi.progress, issue 30): the field's shanten by wall tiles left and melds,
counted from simulated play, and determinizations that deal the opponents to it."""

from __future__ import annotations

import numpy as np
import pytest

from tsumolab.analyzer.advise.riichi_progress import count_matches
from tsumolab.analyzer.advise.riichi_view import VARIANTS
from tsumolab.policies.registry import parse_seats
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi.determinize import determinize
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.positions import RiichiEngine
from tsumolab.sims.riichi.public_tiles import no_public_tiles
from tsumolab.sims.riichi.progress import (
    N_SHANTEN, TABLE_SHAPE, UNIFORM, field_progress, row_of, table_path,
)
from tsumolab.sims.shanten import RIICHI_SHAPES, shanten
from tsumolab.sims.shanten_tables import SUIT_ROWS, lookup_tables

TABLES = lookup_tables()
NO_PUBLIC = no_public_tiles()
MODES = VARIANTS  # every riichi-family mode advise supports ships its table


def _shipped(mode):
    with table_path(mode, "baseline").open("rb") as f:
        return np.load(f)


@pytest.mark.parametrize("mode", MODES)
def test_shipped_table_counts_the_first_matches_of_its_build(mode):
    """The package's table of every advised mode holds the counts of matches 1.. of seed 1
    (analyzer.advise.riichi_progress defaults):
    counting the first 2 again gives a part of it, cell by cell."""
    shipped = _shipped(mode)
    assert shipped.shape == TABLE_SHAPE and shipped.dtype == np.int64
    assert shipped.sum() > 100_000
    part = count_matches(mode, "baseline", 2, seed=1)
    assert part.sum() > 300
    assert (part <= shipped).all()


@pytest.mark.parametrize("mode", MODES)
def test_field_hands_come_closer_to_ready_as_the_wall_empties(mode):
    """R-1 deal: early in a hand (full wall) the closed hands are about three tiles from ready, late ones about
    one: the mean shanten falls by more than one from the first wall bucket to the last ones."""
    c = _shipped(mode)[:, 0]  # closed hands
    mean = (c * np.arange(N_SHANTEN)).sum(axis=1) / np.maximum(c.sum(axis=1), 1)
    late, early = row_of(8, 0)[0], row_of(66, 0)[0]
    assert mean[late] < mean[early] - 1, mean


def _shanten_of(obs, p):
    return shanten(obs[p, ROBS.hand:ROBS.hand + 34].astype(np.int32), obs[0, ROBS.n_melds + p], RIICHI_SHAPES,
                   TABLES[:SUIT_ROWS], TABLES[SUIT_ROWS:])


def test_dealt_hands_follow_the_table_not_the_uniform_deal():
    """Mid-hand positions of a baseline field: the dealt opponents (not in riichi) have the table rows' mean
    shanten within 0.3, and at least 1 below the uniform re-deal's."""
    counts = _shipped("riichi")
    progress = field_progress("riichi")
    table = RiichiEngine(parse_seats("baseline"), get_mode("riichi").rules_class(), root_seed=5)
    got, want, uniform = [], [], []
    for match_id in range(12):
        full = table.play_hand(match_id, 1)
        pos = table.at_decision(match_id, 1, full.n_decisions // 2)
        if pos is None:
            continue
        seat, wall = pos.seat, int(pos.obs[0, ROBS.wall_left])
        seats = [p for p in range(4) if p != seat and pos.obs[0, ROBS.riichi + p] == 0
                 and pos.obs[p, ROBS.hand:ROBS.hand + 34].sum() == 13 - 3 * pos.obs[0, ROBS.n_melds + p]]
        for k in range(6):
            for deal, out in ((progress, got), (UNIFORM, uniform)):
                hs, obs, st, w = pos.hs.copy(), pos.obs.copy(), pos.st.copy(), pos.wall.copy()
                assert determinize(hs, obs, st, w, seat, 3, k, TABLES, deal, NO_PUBLIC) >= 0
                out += [_shanten_of(obs, p) for p in seats]
            for p in seats:
                row = counts[row_of(wall, int(pos.obs[0, ROBS.n_melds + p]))]
                want.append((row * np.arange(N_SHANTEN)).sum() / row.sum())
    assert len(got) >= 100
    assert abs(np.mean(got) - np.mean(want)) < 0.3, (np.mean(got), np.mean(want))
    assert np.mean(got) < np.mean(uniform) - 1, (np.mean(got), np.mean(uniform))


def test_missing_table_is_refused_with_how_to_build_it():
    with pytest.raises(ValueError, match="riichi_progress --mode riichi --policy nobody"):
        field_progress("riichi", "nobody")


@pytest.mark.slow
def test_deal_check_values_both_deals_on_the_same_positions():
    """analyzer.advise.deal_check: both deals judged on the same positions by the same oracle; the uniform deal's
    gain against itself is exactly zero."""
    from tsumolab.analyzer.advise.deal_check import compare

    result = compare("riichi", positions=3, samples=20, seed=2, kind="wins")
    assert set(result) == {"uniform", "progress"}
    assert result["uniform"]["positions"] == result["progress"]["positions"] >= 2
    assert result["uniform"]["vs_uniform"] == 0 == result["uniform"]["vs_uniform_ci95"]
    assert all(0 <= r["top1"] <= 1 and r["rmse"] >= 0 for r in result.values())
