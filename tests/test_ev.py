"""analyzer.ev: additive EV sums agree with ev_table and combine across runs."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from tsumolab.analyzer.ev import ev_from_sums, ev_sums, ev_table
from tsumolab.analyzer.tables import hand_table, match_table
from tsumolab.policies.registry import parse_seats
from tsumolab.sims.bloodshed.rules import START_POINTS
from tsumolab.sims.modes import get_mode

SHARED = ["seat_matches", "points", "points_ci95", "avg_rank", "rank1", "rank2", "rank3", "rank4", "bust_rate",
          "win_rate", "deal_in_rate", "tsumo_share", "mean_fan", "flower_pig_rate", "kan_income"]


@pytest.fixture(scope="module")
def run_tables():
    seats = parse_seats("baseline,random,baseline,keep-void")
    hand_rows, match_rows = get_mode("bloodshed").simulate(4, np.arange(60), seats)
    return hand_table(hand_rows, seats), match_table(match_rows, seats)


def test_ev_from_sums_matches_ev_table(run_tables):
    hands, matches = run_tables
    expected = ev_table(hands, matches, START_POINTS).sort("policy").select("policy", *SHARED)
    got = ev_from_sums(ev_sums(hands, matches, ["policy"], START_POINTS), ["policy"]).select("policy", *SHARED)
    # ev_table leaves 0/0 (a policy that never wins) as NaN or null; the sums version says null
    expected = expected.with_columns(pl.col(pl.Float64).fill_nan(None))
    assert_frame_equal(got, expected, check_dtypes=False, rel_tol=1e-9)


def test_sums_of_two_halves_combine_to_the_whole(run_tables):
    hands, matches = run_tables
    keys = ["policy", "seat"]
    whole = ev_from_sums(ev_sums(hands, matches, keys, START_POINTS), keys)
    halves = [ev_sums(hands.filter(pl.col("match_id") % 2 == k), matches.filter(pl.col("match_id") % 2 == k),
                      keys, START_POINTS) for k in (0, 1)]
    combined = ev_from_sums(pl.concat(halves), keys)
    assert_frame_equal(combined, whole, rel_tol=1e-9)
    assert whole.height == 4 and whole["seat_matches"].to_list() == [60] * 4
