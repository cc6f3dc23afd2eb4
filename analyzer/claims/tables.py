"""From simulated cells to the claims, arms and EV tables of a set of experiments.

Unit of analysis: one wall seed (match id) of one field. For a metric x of the subject seat, the paired
difference of wall seed w is the mean over the 4 subject seats of (x of the treatment − x of the control), both
read from the same walls; its mean over w estimates the effect and its spread gives the standard error.
The unpaired interval treats the 4W treatment and 4W control seat-matches as independent samples, as separate
random matches would; the variance-reduction factor is that variance over the paired one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from tsumolab.analyzer import stats
from tsumolab.analyzer.ev import ev_from_sums, ev_sums
from tsumolab.analyzer.claims.experiment import ARMS, SEATS, Experiment, cells
from tsumolab.analyzer.claims.measures import measure_row
from tsumolab.analyzer.claims.verdicts import claim_level
from tsumolab.analyzer.runs.runner import RunSpec
from tsumolab.analyzer.runs.integrity import scan_dataset
from tsumolab.analyzer.runs.record import read_run_record

GIFT_BOX = {1: 260, 2: 130, 3: 95, 4: 60}
"""gift-box progress per match by final rank (CLAIMS.md, [000])"""
PAIRED_METRICS = {
    "effect": "final points",
    "rank_diff": "average rank",
    "first_rate_diff": "1st-place rate",
    "fourth_rate_diff": "4th-place rate",
    "giftbox_diff": "gift-box progress per match",
}
ARM_METRICS = ("points", "rank", "first", "fourth", "giftbox", "wins", "deal_ins", "tsumo_wins", "fan_sum",
               "flower_pigs", "kan_income")
"""per-match subject metrics averaged by arm (arms table) in Bloodshed; points = final points − start points.
A mode whose `hands` table lacks a column lacks the metric (riichi modes: han_sum instead of fan_sum, no flower
pigs or kan income); see arm_metrics."""
_COMMON_ARM_METRICS = ("points", "rank", "first", "fourth", "giftbox", "wins", "deal_ins", "tsumo_wins")
OPTIONAL_HAND_METRICS = (("fan_sum", "fan"), ("han_sum", "han"), ("flower_pigs", "flower_pig"),
                         ("kan_income", "kan_income"))
"""(per-match subject metric, `hands` column it sums), each present only when the mode has the column"""
_PAIRED_SOURCE = {"effect": "points", "rank_diff": "rank", "first_rate_diff": "first",
                  "fourth_rate_diff": "fourth", "giftbox_diff": "giftbox"}
EV_KEYS = ["claim", "variant", "field", "arm", "role", "policy", "seat"]


@dataclass
class CellData:
    """Per-match subject metrics of each experiment cell, and EV sums of each cell run."""

    subject: dict
    """(run dir, seat) → {metric: float64[W]} indexed by match id"""
    ev: dict
    """run dir → ev_sums by (seat, policy)"""


def start_points(mode_name: str, rules: dict | None = None) -> int:
    """Each seat's points at the start of a match of the mode under `rules` (its family decides: sims.family)."""
    from tsumolab.sims.modes import get_mode

    mode = get_mode(mode_name)
    return int(mode.family.start_points(mode.rules_class.from_dict(dict(rules or {}))))


def arm_metrics(hand_columns) -> tuple[str, ...]:
    """The per-match subject metrics a mode with these `hands` columns has (ARM_METRICS in Bloodshed)."""
    present = set(hand_columns)
    return _COMMON_ARM_METRICS + tuple(m for m, col in OPTIONAL_HAND_METRICS if col in present)


def read_cells(experiments: list[Experiment], cell_specs: dict, dirs: dict) -> CellData:
    """`cell_specs` and `dirs` map (claim id, Cell) to its RunSpec and run directory."""
    data = CellData({}, {})
    for exp in experiments:
        start = start_points(exp.mode, exp.rules)
        for cell in cells(exp):
            spec: RunSpec = cell_specs[(exp.id, cell)]
            out = dirs[(exp.id, cell)]
            key = (out, cell.subject_seat)
            if key in data.subject and out in data.ev:
                continue
            record = read_run_record(out)  # each table read once for both summaries
            hands, matches = (scan_dataset(out, table, record).collect() for table in ("hands", "matches"))
            if key not in data.subject:
                data.subject[key] = _subject_metrics(hands, matches, out, cell.subject_seat, spec.matches, start)
            if out not in data.ev:
                data.ev[out] = ev_sums(hands, matches, ["seat", "policy"], start)
    return data


def claims_table(experiments: list[Experiment], cell_specs: dict, dirs: dict, data: CellData,
                 alpha: float = stats.ALPHA) -> pl.DataFrame:
    """One row per (claim, variant, field): paired metrics with 95% intervals and Holm-adjusted verdicts on both
    objectives, final points (`points_verdict`, interval `ci_low`/`ci_high`) and placement (average rank,
    `placement_verdict`, interval `placement_ci_low`/`placement_ci_high`); `verdict` is the one on the claim's
    headline objective. Every tested row and objective is one hypothesis of the Holm family; `beyond_sources`
    marks tsumolab's own questions (experiments/extra/), which form a family of their own. The claim-level
    columns (same on each row of a claim) are described in verdicts.claim_level."""
    rows, estimates = [], []
    for exp in experiments:
        if exp.kind == "measure":
            row, est = measure_row(exp, dirs, alpha)
            row.update(beyond_sources=exp.beyond_sources, objective="points", variant="", headline_variant=True)
            rows.append(row)
            estimates.append({"points": est})
            continue
        for v, variant in enumerate(exp.variants):
            for f, fld in enumerate(variant.fields):
                row, est = _compared_row(exp, v, f, cell_specs, dirs, data, alpha)
                rows.append(row)
                estimates.append(est)
    _holm_verdicts(rows, estimates, alpha)
    df = claim_level(pl.from_dicts(rows, infer_schema_length=None))  # a measure row lacks the paired metrics
    first = ["claim", "variant", "field", "headline", "verdict", "objective", "points_verdict", "placement_verdict",
             "effect", "ci_low", "ci_high", "placement_ci_low", "placement_ci_high", "matches", "p_value", "p_holm",
             "unpaired_ci_low", "unpaired_ci_high", "variance_reduction", "beyond_sources"]
    return df.select(first + [c for c in df.columns if c not in first])


def _compared_row(exp: Experiment, v: int, f: int, cell_specs: dict, dirs: dict, data: CellData,
                  alpha: float) -> tuple[dict, dict]:
    """The row of one (variant, field) of a compared claim and its two tested estimates by objective."""
    variant, fld = exp.variants[v], exp.variants[v].fields[f]
    arms = _arm_arrays(exp, v, f, cell_specs, dirs, data)
    wall_seeds = arms["treatment"]["points"].shape[1]
    row = {
        "claim": exp.id, "variant": variant.label, "field": fld.label,
        "headline": fld.label == exp.headline and variant.treatment == exp.treatment,
        "headline_variant": variant.treatment == exp.treatment,
        "field_policies": ",".join(fld.opponents), "treatment": variant.treatment, "control": exp.control,
        "direction": exp.direction, "objective": exp.objective, "matches": 2 * SEATS * wall_seeds,
        "wall_seeds": wall_seeds, "beyond_sources": exp.beyond_sources,
    }
    tested = {}
    for name, metric in _PAIRED_SOURCE.items():
        diff = (arms["treatment"][metric] - arms["control"][metric]).mean(axis=0)
        est = stats.mean_estimate(diff)
        lo, hi = est.interval(alpha)
        if name == "effect":
            tested["points"] = est
            row.update(effect=est.mean, effect_se=est.se, ci95_low=lo, ci95_high=hi)
        else:
            if name == "rank_diff":
                tested["placement"] = est
            row.update({name: est.mean, f"{name}_se": est.se, f"{name}_ci_low": lo, f"{name}_ci_high": hi})
    unpaired = stats.unpaired_estimate(arms["treatment"]["points"], arms["control"]["points"])
    row["unpaired_ci_low"], row["unpaired_ci_high"] = unpaired.interval(alpha)
    row["unpaired_se"] = unpaired.se
    row["variance_reduction"] = stats.variance_reduction(unpaired, tested["points"])
    row["treatment_points"] = float(arms["treatment"]["points"].mean())
    row["control_points"] = float(arms["control"]["points"].mean())
    row["claim_text"], row["source"] = exp.claim, exp.source
    return row, tested


def _holm_verdicts(rows: list[dict], estimates: list[dict], alpha: float) -> None:
    """Holm over every (row, objective) estimate of a family — the claims of the sources, and tsumolab's own
    questions beyond them, so that running the latter (claims --extra) never changes a verdict on the former —
    then each row's adjusted intervals and verdicts. Placement is average rank, so a claim that the treatment
    does better (direction "greater") says its rank difference is below 0."""
    tests = [(i, objective, est) for i, row in enumerate(rows) for objective, est in estimates[i].items()]
    p = np.array([stats.p_value(est) for _, _, est in tests])
    p_holm, multipliers = np.empty_like(p), np.empty_like(p)
    for beyond in (False, True):
        family = np.array([rows[i]["beyond_sources"] is beyond for i, _, _ in tests], dtype=bool)
        if family.any():
            p_holm[family], multipliers[family] = stats.holm(p[family])
    flipped = {"greater": "less", "less": "greater"}
    for (i, objective, est), p_k, ph, c in zip(tests, p, p_holm, multipliers):
        row = rows[i]
        lo, hi = stats.holm_interval(est, c, alpha)
        if objective == "points":
            row.update(p_value=float(p_k), p_holm=float(ph), ci_low=lo, ci_high=hi,
                       points_verdict=stats.verdict(lo, hi, row["direction"]))
        else:
            row.update(placement_p_value=float(p_k), placement_p_holm=float(ph), placement_ci_low=lo,
                       placement_ci_high=hi, placement_verdict=stats.verdict(lo, hi, flipped[row["direction"]]))
    for row in rows:
        row["verdict"] = row[f"{row['objective']}_verdict"]


def arms_table(experiments: list[Experiment], cell_specs: dict, dirs: dict, data: CellData) -> pl.DataFrame:
    """One row per (claim, variant, field, arm): the subject's mean per-match metrics with standard errors over
    wall seeds."""
    parts = []
    for exp in experiments:
        rows = []
        for v, variant in enumerate(exp.variants):
            for f, fld in enumerate(variant.fields):
                rows += _arm_rows(exp, v, f, cell_specs, dirs, data)
        parts.append(pl.DataFrame(rows))
    return pl.concat(parts, how="diagonal_relaxed")  # a metric a mode lacks is null in its rows


def _arm_rows(exp: Experiment, v: int, f: int, cell_specs: dict, dirs: dict, data: CellData) -> list[dict]:
    variant = exp.variants[v]
    arms = _arm_arrays(exp, v, f, cell_specs, dirs, data)
    rows = []
    for arm in ARMS:
        row = {"claim": exp.id, "variant": variant.label, "field": variant.fields[f].label, "arm": arm,
               "policy": variant.treatment if arm == "treatment" else exp.control}
        for metric in arms[arm]:
            est = stats.mean_estimate(arms[arm][metric].mean(axis=0))
            row[metric], row[f"{metric}_se"] = est.mean, est.se
        rows.append(row)
    return rows


def ev_table(experiments: list[Experiment], cell_specs: dict, dirs: dict, data: CellData) -> pl.DataFrame:
    """EV by (claim, variant, field, arm, role, policy, seat): role "subject" is the arm's policy in its rotation
    seat, "field" the three others; each row sums the 4 rotations of that arm."""
    per_experiment = []
    for exp in experiments:
        parts = []
        for cell in cells(exp):
            out = dirs[(exp.id, cell)]
            parts.append(data.ev[out].with_columns(
                pl.lit(exp.id).alias("claim"),
                pl.lit(exp.variants[cell.variant].label).alias("variant"),
                pl.lit(exp.variants[cell.variant].fields[cell.field_index].label).alias("field"),
                pl.lit(cell.arm).alias("arm"),
                pl.when(pl.col("seat") == cell.subject_seat).then(pl.lit("subject")).otherwise(pl.lit("field"))
                .alias("role"),
            ))
        per_experiment.append(ev_from_sums(pl.concat(parts, how="vertical"), EV_KEYS))
    # modes differ in their optional EV columns; a column a mode lacks is null in its rows
    return pl.concat(per_experiment, how="diagonal_relaxed").sort(EV_KEYS)


def _arm_arrays(exp: Experiment, variant: int, field_index: int, cell_specs: dict, dirs: dict,
                data: CellData) -> dict:
    """arm → metric → float64[4 subject seats, W] of one variant and field."""
    arms = {arm: {} for arm in ARMS}
    for cell in cells(exp):
        if cell.field_index != field_index or cell.variant != variant:
            continue
        metrics = data.subject[(dirs[(exp.id, cell)], cell.subject_seat)]
        for m, values in metrics.items():
            arms[cell.arm].setdefault(m, []).append(values)
    return {arm: {m: np.vstack(v) for m, v in by_metric.items()} for arm, by_metric in arms.items()}


def _subject_metrics(hands: pl.DataFrame, matches: pl.DataFrame, out: Path, seat: int, wall_seeds: int,
                     start: int) -> dict[str, np.ndarray]:
    """Per-match metrics of `seat` in the run at `out` (its `hands` and `matches` tables)."""
    matches = matches.filter(pl.col("seat") == seat).select("match_id", "final_points", "rank").sort("match_id")
    if not np.array_equal(matches["match_id"].to_numpy(), np.arange(wall_seeds)):
        raise RuntimeError(f"{out} does not hold matches 0..{wall_seeds - 1} for seat {seat}; is the run complete?")
    metrics = arm_metrics(hands.columns)
    optional = [pl.col(col).cast(pl.Int64).sum().alias(m) for m, col in OPTIONAL_HAND_METRICS if m in metrics]
    per_match = hands.filter(pl.col("seat") == seat).group_by("match_id").agg(
        pl.col("won").cast(pl.Int64).sum().alias("wins"),
        (pl.col("dealt_in") > 0).cast(pl.Int64).sum().alias("deal_ins"),
        (pl.col("win_kind") == "tsumo").cast(pl.Int64).sum().alias("tsumo_wins"),
        *optional,
    )
    joined = matches.join(per_match, on="match_id", how="left").fill_null(0).sort("match_id")
    rank = joined["rank"].to_numpy().astype(np.int64)
    gift = np.array([0, *(GIFT_BOX[r] for r in range(1, 5))], dtype=np.float64)
    out_metrics = {
        "points": joined["final_points"].to_numpy().astype(np.float64) - start,
        "rank": rank.astype(np.float64),
        "first": (rank == 1).astype(np.float64),
        "fourth": (rank == 4).astype(np.float64),
        "giftbox": gift[rank],
    }
    for m in metrics[len(out_metrics):]:
        out_metrics[m] = joined[m].to_numpy().astype(np.float64)
    return out_metrics
