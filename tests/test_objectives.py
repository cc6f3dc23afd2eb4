"""What `advise` and `review` maximize (analyzer.advise.objectives, issue 30): points, a plain uma, Mahjong Soul
ranked rank points, Tenhou Phoenix dan points; the rank-based values need the match played out."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import tsumolab.commands.advise  # noqa: F401  (registers `advise` on the group)
from tsumolab.analyzer.advise.objectives import check_objective, value_function
from tsumolab.analyzer.advise.riichi_sampler import RiichiSampler
from tsumolab.commands.advise import run_advice

from tests.cli_run import run_cli

POSITIONS = Path(__file__).resolve().parent.parent / "examples" / "positions"


def test_uma_is_final_points_in_thousands_plus_15_5_minus5_minus15():
    uma = value_function("uma", 25_000, south=True)
    got = uma(np.array([45_000, 30_000, 17_000, 8_000]), np.array([1, 2, 3, 4]))
    np.testing.assert_allclose(got, [35.0, 10.0, -13.0, -32.0])


def test_rank_points_add_the_throne_room_bonus_and_round_up():
    """South: +120 / +60 / 0 and the Saint 3 fourth-place penalty −240; East: +60 / +30 / 0 / −130; rounded up
    to a whole point (+42.1 → +43, −1.9 → −1)."""
    south = value_function("rank-points", 25_000, south=True)
    np.testing.assert_array_equal(south(np.array([45_000, 30_000, 17_000, 8_000]), np.array([1, 2, 3, 4])),
                                  [155.0, 70.0, -13.0, -272.0])
    east = value_function("rank-points", 25_000, south=False)
    np.testing.assert_array_equal(east(np.array([32_100, 28_100]), np.array([2, 3])), [43.0, -1.0])
    assert value_function("points", 25_000, south=False) is None


def test_tenhou_dan_points_count_the_rank_only():
    """Tenhou Phoenix room, 7-dan: +90 / +45 / 0 / −135 in a hanchan, two thirds of it East-only; the points
    themselves move nothing."""
    south = value_function("tenhou-dan", 25_000, south=True)
    np.testing.assert_array_equal(south(np.array([45_000, 30_000, 17_000, 8_000]), np.array([1, 2, 3, 4])),
                                  [90.0, 45.0, 0.0, -135.0])
    np.testing.assert_array_equal(south(np.array([60_000, 24_000]), np.array([1, 4])), [90.0, -135.0])
    east = value_function("tenhou-dan", 25_000, south=False)
    np.testing.assert_array_equal(east(np.array([30_000, 20_000]), np.array([1, 4])), [60.0, -90.0])
    with pytest.raises(ValueError):
        check_objective("tenhou-dan", "hand")


def test_rank_based_values_need_the_match_horizon():
    check_objective("uma", "match")
    with pytest.raises(ValueError, match="horizon match"):
        check_objective("rank-points", "hand")
    with pytest.raises(ValueError, match="unknown value"):
        check_objective("placement", "match")


def test_advise_uma_is_the_points_and_ranks_of_the_same_rollouts():
    """The same seed plays the same rollouts: the uma value of each option is (mean final points − start) / 1000
    + 25 − 10 · mean rank (the uma is linear in the rank), and the order of the options follows it."""
    position = json.loads((POSITIONS / "shura-riichi.json").read_text())
    kw = dict(rollouts=200, seat_policies="baseline", seed=5, jobs=1)
    start = RiichiSampler("baseline", "shura").start_points
    points = run_advice(position, horizon="match", **kw)
    uma = run_advice(position, horizon="match", objective="uma", **kw)
    assert uma["objective"] == "uma" and uma["value"] == "final points and uma (thousands)"
    by_points = {r["option"]: r for r in points["options"]}
    for r in uma["options"]:
        p = by_points[r["option"]]
        expected = (p["mean"] - start) / 1000 + 25 - 10 * p["mean_rank"]
        assert r["mean"] == pytest.approx(expected, abs=0.01)  # the means and ranks are rounded
        assert r["mean_rank"] == p["mean_rank"]
    assert [r["mean"] for r in uma["options"]] == sorted((r["mean"] for r in uma["options"]), reverse=True)


def test_advise_value_flag_picks_the_match_horizon_and_refuses_a_hand_horizon(capsys):
    source = str(POSITIONS / "shura-riichi.json")
    code, out, _ = run_cli(["advise", source, "--value", "rank-points", "--rollouts", "50", "--json"], capsys)
    result = json.loads(out)
    assert code == 0 and result["horizon"] == "match" and result["objective"] == "rank-points"
    code, _, err = run_cli(["advise", source, "--value", "uma", "--horizon", "hand"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "horizon match" in err
