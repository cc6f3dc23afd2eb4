"""`tsumolab regress`: per-mode baselines, economy metrics, failures that name what moved, --rule/--policy/--update.

The fast tests run small checks (a few hundred matches) against baselines written in tmp_path; the committed
baselines at their full size are checked by `make regress` (.ci/run), rule changes under the `slow` marker."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

import tsumolab.commands.regress  # noqa: F401  (registers `regress`)
from tsumolab.analyzer.regress import check as regress
from tsumolab.cli import main
from tsumolab.analyzer.package_files import regress_baseline_path
from tsumolab.analyzer.regress.economy import _ratio, economy_metrics
from tsumolab.sims.bloodshed.family import BLOODSHED
from tsumolab.sims.modes import MODES
from tsumolab.sims.riichi.family import RIICHI


def main_exit(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(["regress", *args])
    captured = capsys.readouterr()
    return info.value.code, captured.out, captured.err


def test_compare_flags_only_metrics_beyond_the_threshold():
    stored = {"a": {"value": 10.0, "se": 3.0}, "b": {"value": 0.0, "se": 0.3}}
    new = {"a": {"value": 29.0, "se": 4.0}, "b": {"value": 2.0, "se": 0.4}}   # a: 19/5 = 3.8, b: 2/0.5 = 4
    result = {c.key: c for c in regress.compare(stored, new, 4.0)}
    assert result["a"].distance == pytest.approx(3.8) and not result["a"].failed
    new["b"]["value"] = 2.1
    assert [c.key for c in regress.compare(stored, new, 4.0) if c.failed] == ["b"]


def test_ratio_se_is_the_cluster_se_and_is_floored():
    num = np.array([1.0, 3.0, 2.0, 6.0])
    den = np.array([1.0, 2.0, 1.0, 2.0])
    r = num.sum() / den.sum()
    expected = np.sqrt(4 / 3 * ((num - r * den) ** 2).sum()) / den.sum()
    got = _ratio(num, den, 0.01, False)
    assert got["value"] == pytest.approx(r) and got["se"] == pytest.approx(expected)
    assert _ratio(np.zeros(4), den, 100.0, False)["se"] == pytest.approx(100.0 / 6)   # floor: one unit / Σ den


def _hands(rows):
    columns = ["match_id", "seat", "dealer", "delta", "won", "win_order", "win_kind", "value", "win_points",
               "dealt_in", "winners", "hand_end", "tenpai_at_draw", "passed_wins"]
    return pl.DataFrame([dict(zip(columns, r)) for r in rows])


def test_points_per_win_by_kind_and_order_see_a_payment_change():
    """B-19: a tsumo paid more per payer moves tsumo_points (and the payers' cost) but not ron_points."""
    def table(tsumo_each):
        rows = []
        for match in range(4):
            rows += [(match, 0, True, 8000, True, 1, "ron", 8000, 8000, 0, 2, "exhaustive", False, 0),
                     (match, 1, False, -8000 + 3 * tsumo_each, True, 2, "tsumo", tsumo_each, 3 * tsumo_each, 1, 2,
                      "exhaustive", False, 0),
                     (match, 2, False, -tsumo_each, False, 0, "none", 0, 0, 0, 2, "exhaustive", True, 0),
                     (match, 3, False, -tsumo_each, False, 0, "none", 0, 0, 0, 2, "exhaustive", False, 0)]
        return _hands(rows)

    from tsumolab.analyzer.regress.economy import metric_specs

    names = {m.name for m in metric_specs(BLOODSHED) if m.table == "hands"}
    hands = table(2000).with_columns([pl.lit(0).alias(c) for c in
                                      ("fan", "kans", "kan_income", "kan_paid", "refund", "draw_settlement")]
                                     + [pl.lit(False).alias("flower_pig")])
    matches = pl.DataFrame({"match_id": [0, 0, 0, 0], "seat": [0, 1, 2, 3], "final_points": [1, 2, 3, 4],
                            "rank": [4, 3, 2, 1], "busted": [False] * 4, "hands_played": [1] * 4})
    base = economy_metrics(hands, matches, BLOODSHED, 0)
    more = economy_metrics(hands.with_columns(
        pl.when(pl.col("win_kind") == "tsumo").then(9000).otherwise(pl.col("win_points")).alias("win_points")),
        matches, BLOODSHED, 0)
    assert {f"econ/{n}" for n in names} <= set(base)
    assert base["econ/tsumo_points"]["value"] == 6000 and more["econ/tsumo_points"]["value"] == 9000
    assert base["econ/ron_points"] == more["econ/ron_points"]
    assert base["econ/win_points_order2"]["value"] == 6000 and base["econ/win_points_order1"]["value"] == 8000
    assert base["econ/tsumo_payer_cost"]["value"] == 2000


def test_every_mode_has_a_committed_baseline_in_the_package():
    for mode in MODES:
        document = regress.read_baseline(regress_baseline_path(mode))
        assert document["mode"] == mode and len(document["metrics"]) >= 60
        assert document["history"] and document["history"][-1]["reason"]


def test_the_claims_check_runs_each_claims_headline_variant_only():
    """A claim with a `[sweep]` grid (B1: max_fan × until_winners) is checked through its headline treatment
    alone, so every claim metric has one name and one value (the stored baseline's B1 rows were overwritten
    by the last variant of the grid before)."""
    experiments = regress.regression_experiments("bloodshed", {}, regress.REGRESS_CLAIMS["bloodshed"])
    assert [e.id for e in experiments] == list(regress.REGRESS_CLAIMS["bloodshed"])
    assert any(e.id == "B1" for e in experiments)
    for e in experiments:
        assert [v.treatment for v in e.variants] == [e.treatment]


def test_regress_refuses_several_variants_of_one_claim():
    claims = pl.DataFrame({"claim": ["B1", "B1"], "variant": ["max_fan=1", "max_fan=2"]})
    with pytest.raises(ValueError, match="B1 have several variants"):
        regress.claim_metrics(regress.ClaimsResult(None, [], claims, None, None, None))


def test_an_option_of_another_mode_is_a_one_line_input_error(capsys):
    code, _, err = main_exit(capsys, "--mode", "riichi", "--rule", "tsumo_bonus=fan")
    assert code == 2 and "not an option of riichi" in err and err.count("\n") == 1
    code, _, err = main_exit(capsys, "--mode", "bloodshed", "--rule", "winners_to_end=7")
    assert code == 2 and "winners_to_end" in err
    code, _, err = main_exit(capsys, "--rule", "no_such_option=1")
    assert code == 2 and "no mode has this option" in err


def test_update_needs_a_reason(tmp_path, capsys):
    code, _, err = main_exit(capsys, "--mode", "riichi", "--baseline", str(tmp_path / "b.json"), "--update")
    assert code == 2 and "--reason" in err


@pytest.mark.slow
def test_small_riichi_check_passes_fresh_walls_and_fails_a_changed_payment(tmp_path, capsys):
    """R-3 (riichi scoring): a 2000-match baseline, a fresh-seed rerun passes; start_points and tsumo_loss
    (S-5: only non-won players pay a tsumo) fail, naming the metrics and the update command."""
    path = tmp_path / "riichi.json"
    code, out, _ = main_exit(capsys, "--mode", "riichi", "--baseline", str(path), "--update", "--reason", "test",
                             "--matches", "1500", "--seed", "11")
    assert code in (None, 0) and path.exists()
    document = json.loads(path.read_text())
    assert document["history"][-1]["reason"] == "test" and document["seed"] == 11
    code, out, _ = main_exit(capsys, "--mode", "riichi", "--baseline", str(path))
    assert code == 0, out
    assert "seed 12 vs baseline seed 11" in out
    code, out, _ = main_exit(capsys, "--mode", "riichi", "--baseline", str(path), "--rule", "start_points=35000")
    assert code == 1 and "econ/rank1_points" in out and "DIFFERS" in out
    assert "--update --reason" in out


@pytest.mark.slow
def test_rule_d_darkness_check_plays_the_dark_actions(tmp_path, capsys):
    """D: the darkness check's field is shadow-player (baseline never discards face down), so its baseline holds
    face-down discards and switching the mode's rules off fails the check."""
    path = tmp_path / "darkness.json"
    code, _, _ = main_exit(capsys, "--mode", "darkness", "--baseline", str(path), "--update", "--reason", "test",
                           "--matches", "600", "--seed", "21")
    assert code in (None, 0)
    document = json.loads(path.read_text())
    assert document["seats"] == "shadow-player" and document["metrics"]["econ/face_down"]["value"] > 0
    code, out, _ = main_exit(capsys, "--mode", "darkness", "--baseline", str(path), "--rule", "darkness=false")
    assert code == 1 and "econ/face_down" in out


@pytest.mark.slow
def test_a_policy_is_regressed_against_its_own_numbers(tmp_path, capsys, monkeypatch):
    """--policy: seat 0 plays the policy; its stored numbers pass, and another policy at seat 0 fails."""
    monkeypatch.chdir(tmp_path)
    code, out, _ = main_exit(capsys, "--mode", "riichi", "--policy", "random", "--update", "--reason", "v1",
                             "--matches", "600")
    assert code in (None, 0) and (tmp_path / "regress-baselines" / "riichi.random.json").exists()
    code, out, _ = main_exit(capsys, "--mode", "riichi", "--policy", "random")
    assert code == 0, out
    code, out, _ = main_exit(capsys, "--mode", "riichi", "--policy", "baseline", "--baseline",
                             str(tmp_path / "regress-baselines" / "riichi.random.json"))
    assert code == 1 and "econ/seat0/" in out


@pytest.mark.slow
def test_tsumo_bonus_fan_fails_bloodshed(capsys):
    """B-19 (自摸加番 instead of 自摸加底) must fail: it was invisible to the claims-only check (issue 20)."""
    code, out, _ = main_exit(capsys, "--mode", "bloodshed", "--rule", "tsumo_bonus=fan", "--jobs", "2")
    assert code == 1 and "econ/tsumo_points" in out


@pytest.mark.slow
def test_bloodbath_winners_to_end_fails(capsys):
    """B-13: the hand ending at the first win instead of the bloodbath must be caught."""
    code, out, _ = main_exit(capsys, "--mode", "bloodshed", "--rule", "winners_to_end=1", "--jobs", "2")
    assert code == 1 and "DIFFERS" in out


@pytest.mark.slow
def test_sensitivity_lists_each_modes_own_options_and_not_other_modes():
    """Each mode's power table covers its own rule's options (SS, FL, DE, S-*) and the R-* core, not the
    options of another special mode, which do nothing there."""
    from tsumolab.analyzer.regress.sensitivity import option_changes

    shura = dict(option_changes("shura"))
    assert shura["noten_rule"] == "each" and shura["tsumo_loss"] is False and shura["bloodbath"] is False
    assert "overload_han" not in shura and "eye_multiplier" not in shura
    riichi = dict(option_changes("riichi"))
    assert riichi["start_points"] == 30000 and "noten_rule" not in riichi and "hype_max" not in riichi
    assert {"love_pot", "hourglass_floor", "confiscate_abortive"} <= set(dict(option_changes("fantasy")))
    assert dict(option_changes("bloodshed"))["tsumo_bonus"] == "fan"
    assert dict(option_changes("chant"))["count_called"] is False and "count_called" not in riichi


def test_false_alarm_upper_bound_is_the_exact_binomial_one():
    from tsumolab.analyzer.regress.sensitivity import _upper

    assert _upper(0, 200) == pytest.approx(1 - 0.05 ** (1 / 200))     # 0.0149
    p = _upper(2, 200)   # P(X <= 2; n=200, p) = 0.05 at the bound
    from math import comb
    assert sum(comb(200, i) * p ** i * (1 - p) ** (200 - i) for i in range(3)) == pytest.approx(0.05, abs=1e-6)


def test_detection_probability_is_the_two_sided_normal_tail_beyond_the_threshold():
    """P = Φ(δ − T) + Φ(−δ − T): no shift gives the null rate 2Φ(−T); a shift equal to T gives one half (plus the
    far tail); the scaled shift grows as √(n_check / n_run)."""
    from statistics import NormalDist

    from tsumolab.analyzer.regress.sensitivity import detection_probability, scaled_shift

    assert detection_probability(0.0, 4.5) == pytest.approx(2 * NormalDist().cdf(-4.5))    # 6.8e-6
    assert detection_probability(4.5, 4.5) == pytest.approx(0.5 + NormalDist().cdf(-9.0))
    assert detection_probability(-6.145, 4.5) == pytest.approx(0.95, abs=1e-3)             # symmetric in δ
    assert detection_probability(float("inf"), 4.5) == 1.0
    assert detection_probability(2.0, 4.5) < detection_probability(3.0, 4.5) < detection_probability(3.0, 4.0)
    assert scaled_shift(3.0, 5000, 10000) == pytest.approx(3.0 * 2 ** 0.5)
    assert scaled_shift(3.0, 5000, 5000) == 3.0


def test_shift_estimate_is_the_mean_signed_distance_of_the_most_moved_metric():
    """Signs count: a metric that moves +5 then −5 SE has mean shift 0 (noise), one that moves −4 and −6 has −5;
    a metric left out of a pair (distance 0) adds 0 there."""
    from tsumolab.analyzer.regress.sensitivity import shift_estimate

    def c(key, stored, new, distance):
        return regress.Comparison(key, stored, new, distance)

    pairs = [[c("a", 1.0, 2.0, 5.0), c("b", 3.0, 2.0, 4.0), c("d", 1.0, 1.0, 0.0)],
             [c("a", 2.0, 1.0, 5.0), c("b", 3.0, 1.0, 6.0), c("d", 1.0, 2.0, 3.0)]]
    assert shift_estimate(pairs) == ("b", pytest.approx(-5.0))
    assert shift_estimate([[c("a", 1.0, 1.0, 0.0)]]) == ("a", 0.0)
    assert shift_estimate([]) == ("", 0.0)


def test_sensitivity_table_shows_observed_and_modelled_detection_labelled_by_size():
    from tsumolab.analyzer.regress.sensitivity import markdown

    row = {"mode": "riichi", "option": "honba", "value": False, "detected": 1, "repeats": 2, "median_metrics": 3,
           "top_metric": "econ/honba", "largest": 3.9, "shift_metric": "econ/honba", "shift": -4.2,
           "matches": 5000, "check_matches": 10000, "p_run": 0.38, "p_check": 0.97}
    old = {k: row[k] for k in ("mode", "option", "value", "detected", "repeats", "median_metrics", "top_metric")}
    text = markdown([row, old], [{"mode": "riichi", "alarms": 0, "pairs": 200}], "Settings")
    assert "| riichi | `honba` | `false` | 1/2 | 4.2 (honba) | 0.38 (5,000) | **0.97** (scaled to 10,000) | 3 |" in text
    assert "| 1/2 | – | – | – | 3 | – | honba |" in text     # a row measured before the shift column
    assert "| riichi | 0/200 | 0.000 | 0.015 |" in text


@pytest.mark.slow
def test_value_cells_catch_a_payment_table_change_that_touches_few_wins():
    """R-3: kiriage mangan pays 8000 instead of 7700 for a child's 4 han 30 fu ron — a few percent of the wins,
    invisible in the mean points per win at CI size, but the (han, fu) cell moves by far more than 4.5 SEs."""
    from tsumolab import api

    hands, matches = api.run("riichi", "baseline", 400, seed=5)
    cell = ((pl.col("win_kind") == "ron") & ~pl.col("dealer") & (pl.col("han") == 4) & (pl.col("fu") == 30)
            & (pl.col("yakuman") == 0))
    kiriage = hands.with_columns(pl.when(cell).then(8000).otherwise(pl.col("value")).alias("value"))
    base = economy_metrics(hands, matches, RIICHI, 25000)
    changed = economy_metrics(kiriage, matches, RIICHI, 25000)
    other, _ = api.run("riichi", "baseline", 400, seed=6)
    fresh = economy_metrics(other, _, RIICHI, 25000)
    key = "econ/ron_value_child_4h30fu"
    assert base[key]["value"] == 7700 and base[key]["n"] >= 30
    assert [c.key for c in regress.compare(fresh, changed) if c.failed] == [key]
    assert not [c.key for c in regress.compare(fresh, base) if c.failed]


def test_value_cells_of_fate_are_read_before_its_multiplier():
    """F: a win pays the table's value times the multiplier (1 + open tiles held), so a (han, fu) cell of raw values
    mixes ×1…×5 and hid kiriage mangan in fate; divided by the multiplier, the cell is R-3's fixed value again."""
    from tsumolab import api

    hands, matches = api.run("fate", "baseline", 300, seed=5)
    cell = ((pl.col("win_kind") == "ron") & ~pl.col("dealer") & (pl.col("han") == 4) & (pl.col("fu") == 30)
            & (pl.col("yakuman") == 0))
    assert hands.filter(cell)["value"].n_unique() > 1          # raw values differ by the multiplier
    key = "econ/ron_value_child_4h30fu"
    base = economy_metrics(hands, matches, RIICHI, 50000)
    kiriage = economy_metrics(*api.run("fate", "baseline", 300, seed=5, rules={"kiriage_mangan": True}),
                              RIICHI, 50000)
    assert base[key]["value"] == 7700 and kiriage[key]["value"] == 8000
    assert base[key]["n"] >= 30 and key in [c.key for c in regress.compare(base, kiriage) if c.failed]


def test_multi_ron_rate_sees_mirrors_head_bump():
    """M: with `head_bump` only the first claimant wins a multiple ron, so no hand has two winners; without it,
    a double ron pays both winners — a per-win mean over second winners has no events in the baseline to compare,
    the share of hands with two or more winners does (about 1% of hands: about 20 SE at the check's size, too
    few events to fail at this test's size)."""
    from tsumolab import api

    key = "econ/multi_ron_rate"
    bumped = economy_metrics(*api.run("mirror", "baseline", 200, seed=4), RIICHI, 25000)
    both = economy_metrics(*api.run("mirror", "baseline", 200, seed=4, rules={"head_bump": False}), RIICHI, 25000)
    assert bumped[key]["value"] == 0 and both[key]["value"] > 0


def test_noten_cells_catch_the_noten_rule_of_shura():
    """S-6: with 4 players still in and 2 tenpai at the draw, `split` pays each tenpai seat 1500 and `each`
    2000; a mean over every draw barely moves, the cell moves by hundreds of standard errors."""
    from tsumolab import api

    key = "econ/noten_received_4in_2tenpai"
    base = economy_metrics(*api.run("shura", "baseline", 400, seed=5), RIICHI, 25000)
    fresh = economy_metrics(*api.run("shura", "baseline", 400, seed=6), RIICHI, 25000)
    each = economy_metrics(*api.run("shura", "baseline", 400, seed=6, rules={"noten_rule": "each"}), RIICHI, 25000)
    assert base[key]["value"] == 1500 and each[key]["value"] == 2000 and base[key]["n"] >= 30
    assert key in [c.key for c in regress.compare(base, each) if c.failed]
    assert not [c.key for c in regress.compare(base, fresh) if c.failed]


def test_card_cells_read_a_fantasy_card_in_its_own_matches_only():
    """FL: a card's payments are averaged over the matches that drew it; other modes have no such events."""
    from tsumolab import api

    fantasy = economy_metrics(*api.run("fantasy", "baseline", 60, seed=3), RIICHI, 25000)
    riichi = economy_metrics(*api.run("riichi", "baseline", 30, seed=3), RIICHI, 25000)
    assert sum(fantasy[f"econ/card_{c}_abs"]["n"] for c in ("fuuki", "eternal-night", "confiscate", "hype",
                                                            "giveaway")) == fantasy["econ/card_points_abs"]["n"]
    assert riichi["econ/card_giveaway_abs"]["n"] == 0 and riichi["econ/card_giveaway_abs"]["value"] == 0
