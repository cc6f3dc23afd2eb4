"""EV tables: per-policy results of a run, aggregated with polars from the `hands` and `matches` tables."""

from __future__ import annotations

import polars as pl

Z95 = 1.959963984540054


def ev_table(hands: pl.DataFrame, matches: pl.DataFrame, start_points: int) -> pl.DataFrame:
    """One row per policy: matches (seat-matches), mean final points change with a 95% interval, average
    rank, placement rates, and per-hand win, deal-in, tsumo share, mean fan and flower-pig rates."""
    per_match = matches.group_by("policy").agg(
        pl.len().alias("seat_matches"),
        (pl.col("final_points") - start_points).mean().alias("points"),
        ((pl.col("final_points") - start_points).std() / pl.len().sqrt() * Z95).alias("points_ci95"),
        pl.col("rank").cast(pl.Float64).mean().alias("avg_rank"),
        *[(pl.col("rank") == r).mean().alias(f"rank{r}") for r in range(1, 5)],
        pl.col("busted").cast(pl.Float64).mean().alias("bust_rate"),
    )
    per_hand = hands.group_by("policy").agg(
        pl.col("won").cast(pl.Float64).mean().alias("win_rate"),
        (pl.col("dealt_in") > 0).cast(pl.Float64).mean().alias("deal_in_rate"),
        ((pl.col("win_kind") == "tsumo").sum() / pl.col("won").cast(pl.Int64).sum()).alias("tsumo_share"),
        pl.col("fan").filter(pl.col("won")).cast(pl.Float64).mean().alias("mean_fan"),
        pl.col("flower_pig").cast(pl.Float64).mean().alias("flower_pig_rate"),
        pl.col("kan_income").cast(pl.Float64).mean().alias("kan_income"),
    )
    return per_match.join(per_hand, on="policy").sort("points", descending=True)


def format_table(df: pl.DataFrame) -> str:
    """A fixed-width text rendering of an EV table for terminals and Markdown code blocks."""
    lines = [f"{'policy':<32} {'n':>7} {'points ±95%':>17} {'rank':>5} {'1st':>5} {'4th':>5} "
             f"{'win':>5} {'dealin':>6} {'tsumo':>5} {'fan':>4} {'pig':>5}"]
    for r in df.iter_rows(named=True):
        lines.append(
            f"{r['policy']:<32} {r['seat_matches']:>7} {r['points']:>9.0f} ±{r['points_ci95']:>6.0f} "
            f"{r['avg_rank']:>5.2f} {r['rank1']:>5.1%} {r['rank4']:>5.1%} {r['win_rate']:>5.1%} "
            f"{r['deal_in_rate']:>6.1%} {r['tsumo_share']:>5.1%} {r['mean_fan']:>4.2f} {r['flower_pig_rate']:>5.1%}")
    return "\n".join(lines)
