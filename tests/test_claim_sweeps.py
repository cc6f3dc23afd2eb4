"""Claims on two objectives, treatment sweeps and robustness across fields (analyzer.claims.experiment,
analyzer.claims.verdicts,
analyzer.claims.tables): the verdict logic on constructed rows, and a tiny swept study end to end."""

from __future__ import annotations

import polars as pl
import pytest

from tsumolab.analyzer.claims.study import format_verdicts, run_experiments, with_overrides
from tsumolab.analyzer.claims.tables import _holm_verdicts
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.claims.experiment import EXPERIMENTS_DIR, cells, load_experiment, mode_experiments, select
from tsumolab.analyzer.stats import Estimate
from tsumolab.analyzer.claims.verdicts import claim_level


def _write(tmp_path, extra: str, treatment: str = "pass-cheap-ron(max_fan=3,until_winners=2)"):
    path = tmp_path / "e.toml"
    path.write_text(f'id = "T1"\nclaim = "c"\nmode = "bloodshed"\ntreatment = "{treatment}"\ncontrol = "baseline"\n'
                    f'fields = ["baseline", "treatment"]\ndirection = "greater"\n{extra}')
    return path


def test_sweep_expands_the_grid_in_file_order_and_keeps_the_files_treatment_as_headline():
    b1 = load_experiment(EXPERIMENTS_DIR / "b1.toml")
    labels = [v.label for v in b1.variants]
    assert labels == [f"max_fan={f},until_winners={w}" for f in (1, 2, 3) for w in (1, 2, 3)]
    assert b1.headline_variant == "max_fan=3,until_winners=2"
    assert b1.treatment == "pass-cheap-ron(max_fan=3,until_winners=2,escape=0)"
    for variant in b1.variants:
        assert variant.fields[1].opponents == (variant.treatment,) * 3  # the "treatment" field follows the variant


def test_swept_variants_share_the_control_cells_outside_the_treatment_field():
    b3 = load_experiment(EXPERIMENTS_DIR / "b3.toml")
    assert [f.label for f in b3.fields] == ["baseline", "treatment", "expert"]
    all_cells = cells(b3)
    assert len(all_cells) == 3 * 3 * 2 * 4
    distinct = {c.seats for c in all_cells}
    # per variant: 4 treatment cells in the baseline and expert fields each, 1 in its own treatment field (the
    # variant in every seat, whatever the rotation) and 4 control cells there; the 4 control cells of the
    # baseline field and of the expert field are one set each for all three variants
    assert len(distinct) == 3 * (4 + 4 + 1 + 4) + 4 + 4


@pytest.mark.parametrize("extra, message", [
    ("[sweep]\nmax_fn = [1, 2]\n", "has no parameter 'max_fn'"),
    ("[sweep]\nmax_fan = []\n", "non-empty list of distinct values"),
    ("[sweep]\nmax_fan = [2, 2]\n", "non-empty list of distinct values"),
    ("[sweep]\nmax_fan = 2\n", "non-empty list of distinct values"),
    ('objective = "money"\n', "objective must be one of points, placement"),
])
def test_bad_objective_or_sweep_is_an_input_error_naming_the_problem(tmp_path, extra, message):
    with pytest.raises(InputError, match=message):
        load_experiment(_write(tmp_path, extra))


def test_sweep_budget_counts_every_variant_and_field(tmp_path):
    e = load_experiment(_write(tmp_path, "matches = 960\n[sweep]\nmax_fan = [1, 2, 3]\n"))
    from tsumolab.analyzer.claims.experiment import experiment_wall_seeds

    assert len(e.variants) == 3 and experiment_wall_seeds(e) == 960 // (8 * 2 * 3)
    assert e.treatment == "pass-cheap-ron(max_fan=3,until_winners=2,escape=0)"


def _rows(verdicts_by_variant: dict, direction: str = "greater", objective: str = "points") -> pl.DataFrame:
    rows = []
    for variant, verdicts in verdicts_by_variant.items():
        for field, verdict in zip(("baseline", "treatment", "expert"), verdicts):
            effect = {"supported": 500.0, "refuted": -500.0, "inconclusive": 10.0}[verdict]
            effect *= 1 if direction == "greater" else -1
            rows.append({"claim": "T1", "variant": variant, "field": field, "direction": direction,
                         "objective": objective, "headline": field == "baseline" and variant == "a",
                         "verdict": verdict, "effect": effect + len(variant), "rank_diff": -effect / 1e4,
                         "ci_low": effect - 100, "ci_high": effect + 100,
                         "placement_ci_low": -effect / 1e4 - 0.01, "placement_ci_high": -effect / 1e4 + 0.01})
    return claim_level(pl.from_dicts(rows))


def test_a_claim_counts_as_refuted_only_when_every_tested_variant_is_refuted():
    one_holds = _rows({"a": ["refuted"] * 3, "bb": ["supported", "refuted", "refuted"], "ccc": ["refuted"] * 3})
    assert one_holds["claim_verdict"][0] == "supported" and one_holds["best_variant"][0] == "bb"
    all_fail = _rows({"a": ["refuted"] * 3, "bb": ["refuted"] * 3})
    assert all_fail["claim_verdict"][0] == "refuted"
    mixed = _rows({"a": ["refuted"] * 3, "bb": ["inconclusive"] * 3})
    assert mixed["claim_verdict"][0] == "inconclusive"


@pytest.mark.parametrize("verdicts, robustness", [
    (["supported"] * 3, "holds"), (["refuted"] * 3, "fails"), (["inconclusive"] * 3, "unsettled"),
    (["supported", "refuted", "supported"], "depends"),
])
def test_robustness_reads_the_headline_variant_across_fields(verdicts, robustness):
    rows = _rows({"a": verdicts, "bb": ["refuted"] * 3})
    assert set(rows["robustness"]) == {robustness}


def test_objectives_disagree_when_points_and_placement_point_opposite_ways():
    rows = _rows({"a": ["supported"] * 3}).with_columns(pl.lit(0.05).alias("placement_ci_low"),
                                                      pl.lit(0.2).alias("placement_ci_high"))
    again = claim_level(rows.drop("points_side", "placement_side", "objectives_disagree", "claim_verdict",
                                  "best_variant", "robustness"))
    assert again["points_side"].to_list() == [1, 1, 1]
    assert again["placement_side"].to_list() == [-1, -1, -1]  # a higher average rank is worse placement
    assert again["objectives_disagree"].all()


def test_holm_family_holds_both_objectives_and_placement_reads_a_lower_rank_as_better():
    rows = [{"direction": "greater", "objective": "placement", "beyond_sources": False},
            {"direction": "less", "objective": "points", "beyond_sources": False}]
    estimates = [{"points": Estimate(300.0, 100.0, 50), "placement": Estimate(-0.2, 0.05, 50)},
                 {"points": Estimate(-300.0, 100.0, 50), "placement": Estimate(-0.2, 0.05, 50)}]
    _holm_verdicts(rows, estimates, 0.05)
    assert rows[0]["placement_verdict"] == "supported" and rows[0]["verdict"] == "supported"
    assert rows[1]["placement_verdict"] == "refuted"  # the claim said "less": the treatment should do worse
    assert rows[1]["verdict"] == rows[1]["points_verdict"] == "supported"
    # four hypotheses in the family: the smallest p-value is multiplied by 4
    assert rows[0]["placement_p_holm"] == pytest.approx(min(1.0, 4 * rows[0]["placement_p_value"]))


def test_a_tiny_swept_study_has_a_row_per_variant_and_field_and_prints_the_claim_line(tmp_path):
    experiments = with_overrides(select(mode_experiments("bloodshed"), "B3"), 96, 11)
    result = run_experiments(experiments, tmp_path, progress=False)
    claims = result.claims
    assert claims.height == 3 * 3
    assert claims.filter(pl.col("headline")).select("variant", "field").row(0) == ("escape=1", "baseline")
    assert claims["headline_variant"].sum() == 3
    assert set(claims["placement_verdict"]) <= {"supported", "refuted", "inconclusive"}
    assert (claims["p_holm"] >= claims["p_value"]).all()
    assert claims.select("claim_verdict", "best_variant", "robustness").unique().height == 1
    text = format_verdicts(claims)
    assert "escape=2 · baseline" in text and "claim " in text and "across fields:" in text
    assert set(result.arms["variant"]) == set(result.ev["variant"]) == {"escape=1", "escape=2", "escape=3"}
