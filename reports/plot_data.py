"""The numbers the report's figures draw, taken from a study's (or a run's) frames once, before any language.

A figure of a claim or a run shows series: a claim's arm × field (treatment series first, in the experiment's field
order), a plain run's policies. `PlotNumbers` holds, per series, the share of each final rank, every match's
points, the mean win value by fan and the per-hand rates, with the series' colour; and the win value by earlier
winners and (for a claim) the paired differences by field. Every language and both the HTML and the PDF draw from
the same PlotNumbers (reports.figures), so the frames are filtered and grouped once however many languages and
files are rendered; a series' name in the report's language is given at drawing time (reports.content).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from tsumolab.reports.figures import fan_column, hand_rates, paired_differences, series_colours

ARMS = ("treatment", "control")


@dataclass(frozen=True)
class SeriesNumbers:
    """One series: `key` names it ((arm, field) of a claim, (policy,) of a run); None where its frame has no row."""

    key: tuple[str, ...]
    ranks: list[float] | None
    """share of matches finishing 1st, 2nd, 3rd, 4th (%)"""
    points: np.ndarray | None
    """final − starting points of each match"""
    win_value: tuple[np.ndarray, np.ndarray] | None
    """(fan, mean points received for a win of that fan), by fan"""
    rates: dict[str, float] | None
    """win, deal-in (and flower-pig) rates per hand (%)"""


@dataclass(frozen=True)
class PlotNumbers:
    """What the outcome figures of one claim or run draw (module docstring)."""

    series: tuple[SeriesNumbers, ...]
    """in drawing order"""
    colours: dict[tuple[str, ...], str]
    """series key → colour (blues for treatment series, oranges for control ones, a palette for policies)"""
    fan: str
    """the hands' fan column: "fan" (Bloodshed) or "han" (riichi modes)"""
    bins: np.ndarray
    """histogram bins shared by every series' points"""
    by_order: tuple[list[int], dict[str, list[float]]]
    """(players who had won earlier in the hand, {tsumo/ron: mean points received at each})"""
    rate_names: tuple[str, ...]
    """the rates measured: win and deal-in, and flower pig where the mode has it"""
    diffs: dict[str, np.ndarray]
    """field → per-wall-seed paired difference (figures.paired_differences); empty for a run or a measured fact"""


def claim_numbers(claim, measure: bool) -> PlotNumbers:
    """A claim's PlotNumbers; for a measured fact (`measure`) only its treatment arm, and no paired difference
    (both arms are the same run of the field's policy)."""
    pairs = [(arm, f["label"]) for arm in ARMS for f in claim.experiment["fields"]]
    colours = series_colours(pairs, {pair: pair[0] for pair in pairs})
    matches, hands = _in_pair_order(claim.matches, pairs), _in_pair_order(claim.hands, pairs)
    if measure:
        matches, hands = (f.filter(pl.col("arm") == "treatment") for f in (matches, hands))
    diffs = {} if measure else paired_differences(claim.matches)
    return _numbers(matches, hands, ["arm", "field"], colours, diffs)


def run_numbers(matches: pl.DataFrame, hands: pl.DataFrame) -> PlotNumbers:
    """A plain run's PlotNumbers: one series per policy, drawn in order of first appearance and coloured in seat
    order."""
    order = matches.sort("seat")["policy"].unique(maintain_order=True).to_list()
    return _numbers(matches, hands, ["policy"], series_colours([(p,) for p in order]), {})


def _in_pair_order(frame: pl.DataFrame, pairs: list[tuple[str, str]]) -> pl.DataFrame:
    """The rows of a claim's frame sorted by series (treatment series first, fields in the experiment's order),
    keeping their order within a series."""
    rank = {f"{arm}\x1f{field}": i for i, (arm, field) in enumerate(pairs)}
    key = pl.concat_str([pl.col("arm"), pl.lit("\x1f"), pl.col("field")])
    order = key.replace_strict(rank, default=len(rank), return_dtype=pl.Int64)
    return frame.with_columns(order.alias("_order")).sort("_order", maintain_order=True).drop("_order")


def _numbers(matches: pl.DataFrame, hands: pl.DataFrame, key_columns: list[str], colours: dict,
             diffs: dict) -> PlotNumbers:
    fan = fan_column(hands)
    match_parts = {tuple(key): part for key, part in matches.group_by(key_columns, maintain_order=True)}
    hand_parts = {tuple(key): part for key, part in hands.group_by(key_columns, maintain_order=True)}
    wins = hands.filter(pl.col("won"))
    win_parts = {tuple(key): part for key, part in wins.group_by(key_columns, maintain_order=True)}
    rates = {tuple(row[c] for c in key_columns): row for row in hand_rates(hands, key_columns).iter_rows(named=True)}
    series = []
    for key in dict.fromkeys([*match_parts, *hand_parts]):
        m, h = match_parts.get(key), hand_parts.get(key)
        series.append(SeriesNumbers(
            key=key, ranks=None if m is None else _rank_shares(m["rank"].to_numpy()),
            points=None if m is None else m["points"].to_numpy(),
            win_value=None if h is None else _win_value(win_parts.get(key, wins.clear()), fan),
            rates=None if h is None else {name: rates[key][name] for name in _rate_names(hands)}))
    return PlotNumbers(series=tuple(series), colours=colours, fan=fan,
                       bins=_bins(matches["points"].to_numpy().astype(np.float64)), by_order=_by_order(hands),
                       rate_names=_rate_names(hands), diffs=diffs)


def _rank_shares(ranks: np.ndarray) -> list[float]:
    return [100.0 * float(np.mean(ranks == r)) if ranks.size else 0.0 for r in range(1, 5)]


def _win_value(wins: pl.DataFrame, fan: str) -> tuple[np.ndarray, np.ndarray]:
    part = wins.group_by(fan).agg(pl.col("win_points").mean()).sort(fan)
    return part[fan].to_numpy(), part["win_points"].to_numpy()


def _rate_names(hands: pl.DataFrame) -> tuple[str, ...]:
    return ("win", "deal-in", "flower pig") if "flower_pig" in hands.columns else ("win", "deal-in")


def _by_order(hands: pl.DataFrame) -> tuple[list[int], dict[str, list[float]]]:
    wins = hands.filter(pl.col("won") & (pl.col("win_order") > 0))
    orders = sorted(set((wins["win_order"] - 1).to_list())) or [0]
    values = {}
    for kind in ("tsumo", "ron"):
        part = (wins.filter(pl.col("win_kind") == kind)
                .group_by((pl.col("win_order") - 1).alias("earlier")).agg(pl.col("win_points").mean(), pl.len()))
        value = dict(zip(part["earlier"].to_list(), part["win_points"].to_list()))
        values[kind] = [value.get(o, 0.0) for o in orders]
    return orders, values


def _bins(values: np.ndarray) -> np.ndarray:
    import math

    if values.size == 0:
        return np.linspace(-1, 1, 3)
    lo, hi = float(values.min()), float(values.max())
    if lo == hi:
        return np.array([lo - 500, hi + 500])
    step = max(1000.0, 1000.0 * math.ceil((hi - lo) / 40 / 1000))
    return np.arange(math.floor(lo / step) * step, hi + step + 1, step)
