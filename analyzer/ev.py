"""EV tables: per-policy results of a run, aggregated with polars from the `hands` and `matches` tables."""

from __future__ import annotations

import polars as pl

Z95 = 1.959963984540054


def ev_table(hands: pl.DataFrame, matches: pl.DataFrame, start_points: int) -> pl.DataFrame:
    """One row per policy: matches (seat-matches), mean final points change with a 95% interval, average
    rank, placement rates, and per-hand win, deal-in, tsumo share, mean fan (riichi modes: mean han) and
    flower-pig rates; a metric whose column the mode's hands table lacks is left out."""
    per_match = matches.group_by("policy").agg(
        pl.len().alias("seat_matches"),
        (pl.col("final_points") - start_points).mean().alias("points"),
        ((pl.col("final_points") - start_points).std() / pl.len().sqrt() * Z95).alias("points_ci95"),
        pl.col("rank").cast(pl.Float64).mean().alias("avg_rank"),
        *[(pl.col("rank") == r).mean().alias(f"rank{r}") for r in range(1, 5)],
        pl.col("busted").cast(pl.Float64).mean().alias("bust_rate"),
    )
    present = set(hands.columns)
    optional = {
        "fan": pl.col("fan").filter(pl.col("won")).cast(pl.Float64).mean().alias("mean_fan"),
        "han": pl.col("han").filter(pl.col("won")).cast(pl.Float64).mean().alias("mean_han"),
        "flower_pig": pl.col("flower_pig").cast(pl.Float64).mean().alias("flower_pig_rate"),
        "kan_income": pl.col("kan_income").cast(pl.Float64).mean().alias("kan_income"),
    }
    per_hand = hands.group_by("policy").agg(
        pl.col("won").cast(pl.Float64).mean().alias("win_rate"),
        (pl.col("dealt_in") > 0).cast(pl.Float64).mean().alias("deal_in_rate"),
        ((pl.col("win_kind") == "tsumo").sum() / pl.col("won").cast(pl.Int64).sum()).alias("tsumo_share"),
        *[expr for col, expr in optional.items() if col in present],
    )
    return per_match.join(per_hand, on="policy").sort("points", descending=True)


def format_table(df: pl.DataFrame) -> str:
    """A fixed-width text rendering of an EV table for terminals and Markdown code blocks."""
    value = "mean_han" if "mean_han" in df.columns else "mean_fan"
    pig = "flower_pig_rate" in df.columns
    lines = [f"{'policy':<32} {'n':>7} {'points ±95%':>17} {'rank':>5} {'1st':>5} {'4th':>5} "
             f"{'win':>5} {'dealin':>6} {'tsumo':>5} {value[5:]:>4}" + (f" {'pig':>5}" if pig else "")]
    for r in df.iter_rows(named=True):
        lines.append(
            f"{r['policy']:<32} {r['seat_matches']:>7} {r['points']:>9.0f} ±{r['points_ci95']:>6.0f} "
            f"{r['avg_rank']:>5.2f} {r['rank1']:>5.1%} {r['rank4']:>5.1%} {r['win_rate']:>5.1%} "
            f"{r['deal_in_rate']:>6.1%} {r['tsumo_share']:>5.1%} {r[value]:>4.2f}"
            + (f" {r['flower_pig_rate']:>5.1%}" if pig else ""))
    return "\n".join(lines)


SUM_COLUMNS = (
    "seat_matches", "points_sum", "points_sq_sum", "rank_sum", "rank1", "rank2", "rank3", "rank4", "busted",
    "hands", "wins", "deal_ins", "tsumo_wins", "ron_wins", "fan_sum", "flower_pigs", "kan_income_sum",
)
"""Additive per-group totals (Bloodshed): EV tables of several runs are combined by summing these, then
`ev_from_sums`. The last ones are optional: see OPTIONAL_SUMS."""
OPTIONAL_SUMS = (("fan_sum", "fan"), ("han_sum", "han"), ("flower_pigs", "flower_pig"),
                 ("kan_income_sum", "kan_income"))
"""(total, `hands` column it sums): present only when the mode's hands table has the column (riichi modes:
han_sum instead of fan_sum, no flower pigs or kan income)"""
_OPTIONAL_OUTPUT = {"fan_sum": "mean_fan", "han_sum": "mean_han", "flower_pigs": "flower_pig_rate",
                    "kan_income_sum": "kan_income"}
_BASE_SUMS = tuple(c for c in SUM_COLUMNS if c not in _OPTIONAL_OUTPUT)


def sum_columns(hand_columns) -> tuple[str, ...]:
    """The totals of `ev_sums` for a mode whose hands table has these columns."""
    present = set(hand_columns)
    return _BASE_SUMS + tuple(total for total, col in OPTIONAL_SUMS if col in present)


def ev_sums(hands: pl.LazyFrame | pl.DataFrame, matches: pl.LazyFrame | pl.DataFrame, keys: list[str],
            start_points: int) -> pl.DataFrame:
    """SUM_COLUMNS per group of `keys` (columns of both tables, e.g. ["policy", "seat"]); lazy frames stay lazy,
    so only the needed columns are read."""
    hands = hands.lazy()
    columns = sum_columns(hands.collect_schema().names())
    optional = [pl.col(col).cast(pl.Int64).sum().alias(total) for total, col in OPTIONAL_SUMS if total in columns]
    points = (pl.col("final_points") - start_points).cast(pl.Float64)
    per_match = matches.lazy().group_by(keys).agg(
        pl.len().cast(pl.Int64).alias("seat_matches"),
        points.sum().alias("points_sum"),
        (points * points).sum().alias("points_sq_sum"),
        pl.col("rank").cast(pl.Int64).sum().alias("rank_sum"),
        *[(pl.col("rank") == r).cast(pl.Int64).sum().alias(f"rank{r}") for r in range(1, 5)],
        pl.col("busted").cast(pl.Int64).sum().alias("busted"),
    )
    per_hand = hands.group_by(keys).agg(
        pl.len().cast(pl.Int64).alias("hands"),
        pl.col("won").cast(pl.Int64).sum().alias("wins"),
        (pl.col("dealt_in") > 0).cast(pl.Int64).sum().alias("deal_ins"),
        (pl.col("win_kind") == "tsumo").cast(pl.Int64).sum().alias("tsumo_wins"),
        (pl.col("win_kind") == "ron").cast(pl.Int64).sum().alias("ron_wins"),
        *optional,
    )
    return per_match.join(per_hand, on=keys, how="left").fill_null(0).select(*keys, *columns).collect()


def ev_from_sums(sums: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Combine rows of `ev_sums` output by `keys` and turn the totals into the EV columns of `ev_table`
    (plus kan income per hand, ron/tsumo counts, and points' standard deviation)."""
    columns = [c for c in (*_BASE_SUMS, *(t for t, _col in OPTIONAL_SUMS)) if c in sums.columns]
    totals = sums.group_by(keys).agg(pl.col(c).sum() for c in columns)
    n = pl.col("seat_matches").cast(pl.Float64)
    mean = pl.col("points_sum") / n
    sd = ((pl.col("points_sq_sum") - n * mean * mean) / (n - 1)).clip(lower_bound=0).sqrt()
    wins = pl.col("wins").cast(pl.Float64)
    hands = pl.col("hands").cast(pl.Float64)
    return totals.select(
        *keys,
        pl.col("seat_matches"),
        mean.alias("points"),
        (sd / n.sqrt() * Z95).alias("points_ci95"),
        sd.alias("points_sd"),
        (pl.col("rank_sum") / n).alias("avg_rank"),
        *[(pl.col(f"rank{r}") / n).alias(f"rank{r}") for r in range(1, 5)],
        (pl.col("busted") / n).alias("bust_rate"),
        pl.col("hands"),
        (wins / hands).alias("win_rate"),
        (pl.col("deal_ins") / hands).alias("deal_in_rate"),
        _per_win(pl.col("tsumo_wins")).alias("tsumo_share"),
        pl.col("tsumo_wins"),
        pl.col("ron_wins"),
        *[_optional_output(total, hands) for total, _col in OPTIONAL_SUMS if total in columns],
    ).sort(keys)


def _optional_output(total: str, hands: pl.Expr) -> pl.Expr:
    per_win = total in ("fan_sum", "han_sum")
    value = _per_win(pl.col(total)) if per_win else pl.col(total) / hands
    return value.alias(_OPTIONAL_OUTPUT[total])


def _per_win(total: pl.Expr) -> pl.Expr:
    """total / wins, null for a group without a win."""
    return pl.when(pl.col("wins") > 0).then(total / pl.col("wins").cast(pl.Float64)).otherwise(None)
