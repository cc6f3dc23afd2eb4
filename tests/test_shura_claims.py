"""Shura claims S1–S3 (CLAIMS.md) in `tsumolab claims`: experiment files, the S1 tsumo-loss measure (S-5),
mode-dependent metrics and start points, the CLI and the report of a study mixing Bloodshed and Shura."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import tsumolab.commands.claims  # noqa: F401  (registers `claims`)
from tsumolab.analyzer import stats
from tsumolab.analyzer.claims.study import run_experiments, with_overrides
from tsumolab.analyzer.claims.tables import start_points
from tsumolab.cli import main
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.claims.experiment import (
    EXPERIMENTS_DIR, cells, experiment_wall_seeds, load_experiment, mode_experiments, select,
)
from tsumolab.analyzer.claims.measures import clustered_mean
from tsumolab.reports.render import render_report

VERDICTS = {"supported", "refuted", "inconclusive"}


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    """B4 (Bloodshed) with S1, S2, S3 (Shura) at a tiny size, in one study, report rendered."""
    out = tmp_path_factory.mktemp("shura-study")
    experiments = with_overrides(select(mode_experiments(None), "B4,S1,S2,S3"), 64, 5)
    run_experiments(experiments, out, jobs=1, progress=False)
    render_report(out)
    return out


def test_shura_experiment_files_load_with_their_design():
    experiments = {e.id: e for e in mode_experiments("shura")}
    assert sorted(experiments) == ["S1", "S2", "S3"]
    s1, s2, s3 = experiments["S1"], experiments["S2"], experiments["S3"]
    assert s1.kind == "measure" and s1.measure == "tsumo_loss" and s1.direction == "less"
    assert s1.treatment == s1.control == "baseline" and [f.label for f in s1.fields] == ["baseline"]
    assert (s2.treatment, s2.control, s2.direction) == ("dama-after-win", "baseline", "greater")
    assert (s3.treatment, s3.control, s3.direction) == ("shura-recommended-exchange", "baseline", "greater")
    for e in (s2, s3):
        assert e.kind == "compare" and [f.label for f in e.fields] == ["baseline", "treatment", "expert"]
    assert s1.rules["tsumo_loss"] and s1.rules["bloodbath"]  # S-5 and S-3 are the shura defaults


def test_every_mode_is_listed_when_no_mode_is_given():
    ids = [e.id for e in mode_experiments(None)]
    assert {"B1", "X1", "S1", "S2", "S3"} <= set(ids)


def test_a_measure_is_one_run_of_the_field_policy_and_counts_distinct_matches():
    s1 = with_overrides(select(mode_experiments("shura"), "S1"), 30, 1)[0]
    assert experiment_wall_seeds(s1) == 30
    assert {c.seats for c in cells(s1)} == {("baseline",) * 4}


def test_a_measure_rejects_a_comparison_design(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('id = "Z"\nclaim = "x"\nmode = "shura"\nkind = "measure"\nmeasure = "tsumo_loss"\n'
                   'fields = ["baseline", "treatment"]\ndirection = "less"\n')
    with pytest.raises(InputError, match="exactly one field"):
        load_experiment(bad)
    bad.write_text('id = "Z"\nclaim = "x"\nmode = "shura"\nkind = "measure"\nmeasure = "nothing"\n'
                   'fields = ["baseline"]\ndirection = "less"\n')
    with pytest.raises(InputError, match="measure must be one of"):
        load_experiment(bad)


def test_start_points_come_from_the_rule_options_of_the_mode():
    """B-2: 50000 in Bloodshed; R-2/S-1: 25000 by the table rules of the riichi modes, overridable."""
    assert start_points("bloodshed") == 50_000
    assert start_points("shura") == 25_000
    assert start_points("riichi") == 25_000
    assert start_points("shura", {"start_points": 30_000}) == 30_000


def test_clustered_mean_of_one_value_per_cluster_is_the_plain_mean_and_se():
    x = np.array([3.0, 7.0, 1.0, 9.0, 4.0])
    mean, influence, n = clustered_mean(x, np.ones_like(x))
    plain = stats.mean_estimate(x)
    se = math.sqrt(x.size / (x.size - 1) * np.sum(influence ** 2))
    assert mean == pytest.approx(plain.mean) and se == pytest.approx(plain.se) and n == 5
    mean, _influence, _n = clustered_mean(np.array([10.0, 0.0]), np.array([4.0, 1.0]))
    assert mean == pytest.approx(2.0)  # ratio of sums, not mean of cluster means


@pytest.mark.slow
def test_claims_rows_of_s1_s2_s3_have_verdicts_in_one_holm_family(study):
    claims = pl.read_parquet(study / "claims.parquet")
    assert claims["claim"].to_list() == ["B4"] * 3 + ["S1"] + ["S2"] * 3 + ["S3"] * 3
    assert set(claims["verdict"]) <= VERDICTS
    # Holm over every row and objective: 9 compared rows test points and placement, S1 (a measure) points only,
    # so the smallest of the 19 p-values is multiplied by 19 (capped at 1)
    p = pl.concat([claims["p_value"], claims["placement_p_value"].drop_nulls()])
    p_holm = pl.concat([claims["p_holm"], claims["placement_p_holm"].drop_nulls()])
    assert p.len() == 19
    assert p_holm.min() == pytest.approx(min(1.0, 19 * p.min()))
    s1 = claims.filter(pl.col("claim") == "S1").row(0, named=True)
    assert s1["kind"] == "measure" and s1["headline"] and s1["matches"] == 64
    assert s1["effect"] == pytest.approx(s1["tsumo_value_1plus"] - s1["ron_value_1plus"])
    assert s1["ci_low"] <= s1["effect"] <= s1["ci_high"]
    assert claims.filter(pl.col("claim") == "B4")["kind"].null_count() == 3


def test_claim_s1_tsumo_loss_shows_in_the_measured_values(study):
    """S-5: with two earlier winners a tsumo is paid by one player only, so it is worth far less on average
    than a tsumo with nobody out yet; a ron is paid in full by the discarder either way."""
    s1 = pl.read_parquet(study / "claims.parquet").filter(pl.col("claim") == "S1").row(0, named=True)
    assert s1["tsumo_wins_2"] > 0 and s1["tsumo_wins_0"] > 0
    assert s1["tsumo_value_2"] < 0.6 * s1["tsumo_value_0"]
    assert s1["tsumo_wins_1plus"] == s1["tsumo_wins_1"] + s1["tsumo_wins_2"]


def test_shura_arms_and_ev_lack_bloodshed_metrics_instead_of_showing_zeros(study):
    arms = pl.read_parquet(study / "arms.parquet")
    shura, bloodshed = arms.filter(pl.col("claim") == "S2"), arms.filter(pl.col("claim") == "B4")
    assert shura["flower_pigs"].null_count() == shura.height and shura["kan_income"].null_count() == shura.height
    assert shura["han_sum"].null_count() == 0 and (shura["han_sum"] > 0).all()
    assert bloodshed["flower_pigs"].null_count() == 0 and bloodshed["han_sum"].null_count() == bloodshed.height
    # points are relative to 25000 in shura: the four seats of one all-baseline match sum to 0
    s1 = arms.filter(pl.col("claim") == "S1")
    assert s1["points"].to_list() == pytest.approx([0.0, 0.0], abs=1e-6)
    ev = pl.read_parquet(study / "ev.parquet")
    assert ev.filter(pl.col("claim") == "S3")["mean_han"].null_count() == 0
    assert ev.filter(pl.col("claim") == "S3")["flower_pig_rate"].null_count() == ev.filter(
        pl.col("claim") == "S3").height


def test_report_renders_the_shura_claims_without_missing_metrics(study):
    page = (study / "report.html").read_text()
    assert (study / "report.pdf").stat().st_size > 0
    for claim in ("S1", "S2", "S3"):
        assert f'id="claim-{claim}"' in page
    s2 = page[page.index('id="claim-S2"'):page.index('id="claim-S3"')]
    assert "flower pigs / match" not in s2 and "kan income" not in s2
    s1 = page[page.index('id="claim-S1"'):page.index('id="claim-S2"')]
    assert "Measured values" in s1 and "earlier winners" in s1
    b4 = page[page.index('id="claim-B4"'):page.index('id="claim-S1"')]
    assert "flower pigs / match" in b4


@pytest.mark.slow
def test_claims_command_runs_the_shura_claims_and_prints_verdicts(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["claims", "--only", "S1,S2,S3", "--matches", "48", "--seed", "2", "--out", str(tmp_path / "c"),
              "--no-report"])
    assert stop.value.code in (0, None)
    out = capsys.readouterr().out
    for claim in ("S1", "S2", "S3"):
        assert any(line.startswith(claim) and any(v in line for v in VERDICTS) for line in out.splitlines())
    assert "earlier winners" in out


def test_claims_command_needs_a_mode_for_rule_options(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["claims", "--only", "S2", "--matches", "16", "--rule", "tsumo_loss=false",
              "--out", str(tmp_path / "c"), "--no-report"])
    assert stop.value.code == 2
    assert "--mode" in capsys.readouterr().err


def test_override_of_rule_options_with_mode_reaches_the_shura_experiments():
    experiments = mode_experiments("shura", rule_overrides={"tsumo_loss": False})
    assert all(not e.rules["tsumo_loss"] for e in experiments)
    assert EXPERIMENTS_DIR.joinpath("s1.toml").is_file()


def test_ev_of_a_shura_run_has_han_and_no_bloodshed_columns():
    """ev_sums/ev_from_sums agree with ev_table on a riichi-mode hands table (han, no flower pig/kan income)."""
    from tsumolab.analyzer.ev import ev_from_sums, ev_sums, ev_table
    from tsumolab.analyzer.tables import hand_table, match_table
    from tsumolab.policies.registry import parse_seats
    from tsumolab.sims.modes import get_mode

    mode = get_mode("shura")
    seats = parse_seats("baseline,dama-after-win,baseline,shura-recommended-exchange")
    hand_rows, match_rows = mode.simulate(3, np.arange(12), seats)
    hands, matches = hand_table(hand_rows, seats, mode), match_table(match_rows, seats, mode)
    direct = ev_table(hands, matches, 25_000).sort("policy")
    summed = ev_from_sums(ev_sums(hands, matches, ["policy"], 25_000), ["policy"])
    for frame in (direct, summed):
        assert "mean_han" in frame.columns
        assert not {"mean_fan", "flower_pig_rate", "kan_income"} & set(frame.columns)
    shared = ["policy", "seat_matches", "points", "avg_rank", "win_rate", "deal_in_rate", "mean_han"]
    assert_frame_equal(summed.select(shared), direct.select(shared), check_dtypes=False, rel_tol=1e-9)
    assert abs((summed["points"] * summed["seat_matches"]).sum()) < 1e-6  # zero-sum around 25000
