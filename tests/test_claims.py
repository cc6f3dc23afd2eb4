"""Duplicate-design experiments (CLAIMS.md): design, determinism across jobs/chunks/resume/Dask, tables, CLI."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import tsumolab.commands.claims  # noqa: F401  (registers `claims` and `experiment`)
from tsumolab.analyzer.runs import runner
from tsumolab.analyzer.claims.study import read_run_metadata, run_experiments, with_overrides
from tsumolab.cli import main
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.claims.experiment import (
    EXPERIMENTS_DIR,
    cells,
    load_experiment,
    mode_experiments,
    select,
    wall_seeds,
)
from tsumolab.analyzer.runs.runner import RunInterrupted
from tsumolab.sims.modes import get_mode

SMALL = 200  # matches per claim: 3 fields -> 9 wall seeds each


def small(ids: str, matches: int = SMALL, seed: int = 7):
    return with_overrides(select(mode_experiments("bloodshed"), ids), matches, seed)


def tables(out: Path) -> dict[str, pl.DataFrame]:
    return {name: pl.read_parquet(out / f"{name}.parquet") for name in ("claims", "arms", "ev")}


def assert_same_tables(a: Path, b: Path) -> None:
    ta, tb = tables(a), tables(b)
    for name in ta:
        assert_frame_equal(ta[name], tb[name], check_exact=True)


def test_every_bloodshed_claim_has_an_experiment_file_with_two_fields():
    experiments = mode_experiments("bloodshed")
    assert [e.id for e in experiments] == ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "X1"]
    for e in experiments:
        assert len(e.fields) >= 2 and e.headline in [f.label for f in e.fields]
        assert e.treatment != e.control


def test_design_rotates_the_subject_through_every_seat_with_the_field_around_it():
    b9 = load_experiment(EXPERIMENTS_DIR / "b9.toml")
    all_cells = cells(b9)
    assert len(all_cells) == len(b9.variants) * len(b9.fields) * 2 * 4  # variants x fields x arms x seats
    for cell in all_cells:
        variant = b9.variants[cell.variant]
        field = variant.fields[cell.field_index]
        subject = variant.treatment if cell.arm == "treatment" else b9.control
        assert cell.seats[cell.subject_seat] == subject
        # the disconnected opponent always sits right after the subject in turn order
        assert cell.seats[(cell.subject_seat + 1) % 4].startswith("disconnected")
        assert [cell.seats[(cell.subject_seat + k) % 4] for k in (1, 2, 3)] == list(field.opponents)
    for variant in b9.variants:
        assert variant.fields[1].opponents[1:] == (variant.treatment, variant.treatment)


def test_wall_seeds_count_every_match_of_the_claim_rounded_up():
    assert wall_seeds(2000, 2) == 125     # 125 seeds x 2 fields x 2 arms x 4 seats = 2000 matches
    assert wall_seeds(2001, 2) == 126
    assert wall_seeds(1, 3) == 1
    with pytest.raises(InputError):
        wall_seeds(0, 2)


def test_claims_table_columns_verdicts_and_metadata(tmp_path):
    run_experiments(small("B4,B5"), tmp_path, chunk_size=5, progress=False)
    claims = pl.read_parquet(tmp_path / "claims.parquet")
    for column in ("claim", "field", "verdict", "effect", "ci_low", "ci_high", "matches", "p_value", "p_holm",
                   "unpaired_ci_low", "unpaired_ci_high", "variance_reduction", "rank_diff", "first_rate_diff",
                   "fourth_rate_diff", "giftbox_diff"):
        assert column in claims.columns
    assert claims.height == 6 and set(claims["verdict"]) <= {"supported", "refuted", "inconclusive"}
    assert claims.filter(pl.col("headline"))["field"].to_list() == ["baseline", "baseline"]
    assert (claims["matches"] == 8 * 9).all()  # 200 matches over 3 fields: 9 wall seeds each
    assert (claims["p_holm"] >= claims["p_value"]).all()
    assert ((claims["ci_low"] <= claims["ci95_low"]) & (claims["ci_high"] >= claims["ci95_high"])).all()
    meta = read_run_metadata(tmp_path)
    assert meta["tsumolab.code_version"]
    described = {e["id"]: e for e in meta["tsumolab.experiments"]}
    assert described["B4"]["seed"] == 7 and described["B4"]["wall_seeds"] == 9
    assert described["B5"]["rules"] == get_mode("bloodshed").rules_class().as_dict()
    ev = pl.read_parquet(tmp_path / "ev.parquet")
    for column in ("rank1", "rank4", "points", "win_rate", "deal_in_rate", "tsumo_share", "mean_fan",
                   "flower_pig_rate", "kan_income"):
        assert column in ev.columns
    subject = ev.filter((pl.col("claim") == "B4") & (pl.col("role") == "subject"))
    assert subject.height == 3 * 2 * 4 and (subject["seat_matches"] == 9).all()


def test_effect_is_the_mean_paired_difference_of_the_arms(tmp_path):
    run_experiments(small("B4"), tmp_path, chunk_size=50, progress=False)
    claims = pl.read_parquet(tmp_path / "claims.parquet")
    arms = pl.read_parquet(tmp_path / "arms.parquet")
    for row in claims.iter_rows(named=True):
        by_arm = {r["arm"]: r for r in arms.filter((pl.col("claim") == row["claim"]) &
                                                  (pl.col("field") == row["field"])).iter_rows(named=True)}
        assert row["effect"] == pytest.approx(by_arm["treatment"]["points"] - by_arm["control"]["points"])
        assert row["rank_diff"] == pytest.approx(by_arm["treatment"]["rank"] - by_arm["control"]["rank"])


@pytest.mark.slow
def test_same_tables_for_one_or_two_jobs_and_any_chunk_size(tmp_path):
    experiments = small("B1,B4")
    run_experiments(experiments, tmp_path / "a", jobs=1, chunk_size=4, progress=False)
    run_experiments(experiments, tmp_path / "b", jobs=2, chunk_size=7, progress=False)
    assert_same_tables(tmp_path / "a", tmp_path / "b")


def test_interrupted_then_resumed_run_gives_the_same_tables(tmp_path, monkeypatch):
    experiments = small("B5")
    run_experiments(experiments, tmp_path / "full", chunk_size=5, progress=False)

    real, calls = runner._simulate_chunk, []

    def failing(task):
        calls.append(task.index)
        if len(calls) > 5:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(runner, "_simulate_chunk", failing)
    with pytest.raises(RunInterrupted):
        run_experiments(experiments, tmp_path / "cut", chunk_size=5, progress=False)
    monkeypatch.setattr(runner, "_simulate_chunk", real)
    assert not (tmp_path / "cut" / "claims.parquet").exists()
    with pytest.raises(InputError, match="--resume"):
        run_experiments(experiments, tmp_path / "cut", chunk_size=5, progress=False)
    result = run_experiments(experiments, tmp_path / "cut", chunk_size=5, resume=True, progress=False)
    assert result.execution.resumed_chunks == 5
    assert result.execution.simulated_matches < result.execution.chunks * 5
    assert_same_tables(tmp_path / "full", tmp_path / "cut")


@pytest.mark.slow
def test_dask_backend_gives_the_same_tables_as_a_local_run(tmp_path):
    distributed = pytest.importorskip("distributed")
    experiments = small("B4", matches=160)
    run_experiments(experiments, tmp_path / "local", chunk_size=5, progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        run_experiments(experiments, tmp_path / "dask", chunk_size=5, progress=False, backend="dask",
                        scheduler=cluster.scheduler_address)
    assert_same_tables(tmp_path / "local", tmp_path / "dask")


def test_pairing_reduces_variance_on_a_real_experiment(tmp_path):
    """Common random numbers: the same walls and seats for both arms make the paired interval narrower."""
    run_experiments(small("B4", matches=800), tmp_path, jobs=2, chunk_size=25, progress=False)
    claims = pl.read_parquet(tmp_path / "claims.parquet")
    headline = claims.filter(pl.col("headline")).row(0, named=True)
    assert headline["variance_reduction"] > 1
    assert headline["unpaired_ci_high"] - headline["unpaired_ci_low"] > headline["ci95_high"] - headline["ci95_low"]


def test_cells_shared_between_claims_are_simulated_once(tmp_path):
    # B2, B4 and X1 share the control cells "baseline in every seat" on the baseline field
    result = run_experiments(small("B2,B4", matches=80), tmp_path, chunk_size=100, progress=False)
    assert result.execution.cell_runs < 2 * 16
    assert len(list((tmp_path / "runs").iterdir())) == result.execution.cell_runs


def main_exit(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    captured = capsys.readouterr()
    return info.value.code, captured.out, captured.err


def test_claims_command_runs_only_the_selected_claims(tmp_path, capsys):
    code, out, _ = main_exit(capsys, "claims", "--only", "B4", "--matches", "80", "--out", str(tmp_path),
                             "--no-report")
    assert code == 0
    assert "B4" in out and "B1 " not in out
    assert any(verdict in out for verdict in ("supported", "inconclusive", "refuted"))
    assert pl.read_parquet(tmp_path / "claims.parquet")["claim"].unique().to_list() == ["B4"]


def test_claims_command_rejects_unknown_ids_with_exit_2(tmp_path, capsys):
    code, _, err = main_exit(capsys, "claims", "--only", "B4,B99", "--matches", "80", "--out", str(tmp_path))
    assert code == 2
    assert err.count("\n") == 1 and "B99" in err
    assert not tmp_path.joinpath("claims.parquet").exists()


def test_experiment_run_reads_a_file_and_rejects_bad_ones(tmp_path, capsys):
    text = (EXPERIMENTS_DIR / "b4.toml").read_text().replace('id = "B4"', 'id = "T1"')
    good = tmp_path / "t1.toml"
    good.write_text(text)
    code, out, _ = main_exit(capsys, "experiment", "run", str(good), "--matches", "80", "--out",
                             str(tmp_path / "o"), "-q")
    assert code == 0 and out == ""
    assert pl.read_parquet(tmp_path / "o" / "claims.parquet")["claim"].unique().to_list() == ["T1"]
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('control = "baseline"', 'control = "no-such-policy"'))
    code, _, err = main_exit(capsys, "experiment", "run", str(bad), "--out", str(tmp_path / "p"))
    assert code == 2 and "no-such-policy" in err and err.count("\n") == 1
    code, _, err = main_exit(capsys, "experiment", "run", str(tmp_path / "missing.toml"))
    assert code == 2


def test_override_of_rule_options_reaches_every_experiment(tmp_path):
    experiments = mode_experiments("bloodshed", rule_overrides={"stack_known_bugs": True})
    assert all(e.rules["stack_known_bugs"] is True for e in experiments)
    with pytest.raises(InputError):
        mode_experiments("bloodshed", rule_overrides={"no_such_rule": 1})
