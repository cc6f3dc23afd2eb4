"""Measured facts (experiment kind "measure"): no policy comparison, one field of a single policy.

`tsumo_loss` (CLAIMS.md S1, RULES.md S-5): the mean win value received by tsumo and by ron, by the number of
players who had won earlier in the hand (win_order − 1 = 0, 1, 2), over every seat of every match. The value
received is `win_points − 1000 × sticks_won`: what the win paid, riichi sticks left out (they go to any winner,
tsumo or ron; honba counters are off in shura, S-1). The claim's effect is mean tsumo value − mean ron value
over wins with at least one earlier winner; supported when its interval lies below 0.

Unit and intervals: wins of one match share its walls and scores, so the standard errors are cluster-robust
with the match as the cluster (linearised ratio estimator: each mean is Σ values / Σ wins over matches).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl

from tsumolab.analyzer import stats
from tsumolab.analyzer.claims.experiment import SEATS, Experiment, cells, experiment_wall_seeds
from tsumolab.analyzer.runs.integrity import scan_dataset
from tsumolab.sims.riichi.rules import RIICHI_COST

EARLIER_WINNERS = (0, 1, 2)
WIN_HOWS = ("tsumo", "ron")


def tsumo_loss_wins(run_dir: Path) -> pl.DataFrame:
    """Every win of the run: match_id, how ("tsumo" | "ron"), earlier (winners before it), received."""
    hands = scan_dataset(run_dir, "hands")
    return (hands.filter(pl.col("won"))
            .select("match_id", pl.col("win_kind").alias("how"),
                    (pl.col("win_order").cast(pl.Int64) - 1).alias("earlier"),
                    (pl.col("win_points").cast(pl.Float64) - RIICHI_COST * pl.col("sticks_won").cast(pl.Float64))
                    .alias("received"))
            .collect())


def clustered_mean(values: np.ndarray, counts: np.ndarray) -> tuple[float, np.ndarray, float]:
    """Ratio mean Σ values / Σ counts over clusters, each cluster's linearised influence on it, and Σ counts.
    `values`, `counts`: per-cluster sums (float64[M])."""
    total = counts.sum()
    if total == 0:
        return math.nan, np.zeros_like(values), 0.0
    mean = values.sum() / total
    return float(mean), (values - mean * counts) / total, float(total)


def _estimate(mean: float, influence: np.ndarray, n: int) -> stats.Estimate:
    m = influence.size
    se = float(math.sqrt(m / (m - 1) * np.sum(influence ** 2))) if m > 1 and not math.isnan(mean) else math.nan
    return stats.Estimate(mean, se, n)


def tsumo_loss_estimates(wins: pl.DataFrame, matches: int) -> dict:
    """(how, earlier or "1+") → Estimate of the mean value received, and "diff" → Estimate of tsumo − ron
    with at least one earlier winner; clusters are the match ids 0..matches-1."""
    out, influences = {}, {}
    for how in WIN_HOWS:
        for group in (*EARLIER_WINNERS, "1+"):
            part = wins.filter(pl.col("how") == how)
            mask = (part["earlier"] >= 1) if group == "1+" else (part["earlier"] == group)
            part = part.filter(mask)
            sums = np.bincount(part["match_id"].to_numpy(), part["received"].to_numpy(), minlength=matches)
            counts = np.bincount(part["match_id"].to_numpy(), minlength=matches).astype(np.float64)
            mean, influence, n = clustered_mean(sums, counts)
            out[(how, group)] = _estimate(mean, influence, int(n))
            influences[(how, group)] = influence
    t, r = out[("tsumo", "1+")], out[("ron", "1+")]
    diff_influence = influences[("tsumo", "1+")] - influences[("ron", "1+")]
    out["diff"] = _estimate(t.mean - r.mean, diff_influence, t.n + r.n)
    return out


def measure_row(exp: Experiment, dirs: dict, alpha: float = stats.ALPHA) -> tuple[dict, stats.Estimate]:
    """The claims-table row of a measure experiment (before Holm) and the estimate its verdict rests on.
    `dirs` maps (claim id, Cell) to the cell's run directory (every cell of a measure is the same run)."""
    if exp.measure != "tsumo_loss":
        raise ValueError(f"unknown measure {exp.measure!r}")
    run_dir = dirs[(exp.id, cells(exp)[0])]
    n = experiment_wall_seeds(exp)
    estimates = tsumo_loss_estimates(tsumo_loss_wins(run_dir), n)
    diff = estimates["diff"]
    lo, hi = diff.interval(alpha)
    fld = exp.fields[0]
    row = {
        "claim": exp.id, "field": fld.label, "headline": True, "field_policies": ",".join(fld.opponents),
        "treatment": exp.treatment, "control": exp.control, "direction": exp.direction, "matches": n,
        "wall_seeds": n, "effect": diff.mean, "effect_se": diff.se, "ci95_low": lo, "ci95_high": hi,
        "variance_reduction": math.nan, "kind": "measure", "measure": exp.measure,
        "seat_matches": SEATS * n,
    }
    for key, est in estimates.items():
        if key == "diff":
            continue
        how, group = key
        suffix = "1plus" if group == "1+" else str(group)
        low, high = est.interval(alpha)
        row.update({f"{how}_value_{suffix}": est.mean, f"{how}_value_{suffix}_ci_low": low,
                    f"{how}_value_{suffix}_ci_high": high, f"{how}_wins_{suffix}": est.n})
    row["claim_text"], row["source"] = exp.claim, exp.source
    return row, diff


def format_tsumo_loss(row: dict) -> str:
    """Text table of a tsumo_loss row: mean value received by tsumo and by ron by earlier winners."""
    lines = [f"{row['claim']}: mean win value received (win points − riichi sticks), 95% intervals clustered by "
             f"match, {row['matches']:,} matches of {row['field']}",
             f"  {'earlier winners':<16} {'tsumo':>26} {'n':>8}   {'ron':>26} {'n':>8}"]
    for group in ("0", "1", "2", "1plus"):
        cells_ = []
        for how in WIN_HOWS:
            v, lo, hi = (row[f"{how}_value_{group}"], row[f"{how}_value_{group}_ci_low"],
                         row[f"{how}_value_{group}_ci_high"])
            text = "–" if v is None or math.isnan(v) else f"{v:,.0f} [{lo:,.0f}, {hi:,.0f}]"
            cells_.append(f"{text:>26} {row[f'{how}_wins_{group}']:>8,}")
        label = "≥1" if group == "1plus" else group
        lines.append(f"  {label:<16} {cells_[0]}   {cells_[1]}")
    return "\n".join(lines)
