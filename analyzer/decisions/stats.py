"""Decision-level verdict of a claim from its rows of decisions.parquet: how often and by how much the claim's
action beats the alternative, broken down by the features, and the conditions under which it is better.

Each row is one situation; its `diff_points` is the mean over rollouts of the paired difference (claim's action −
alternative) in final points, `diff_rank` the same in final rank (lower is better), `diff_gift` in gift-box
progress. Per claim:
- share: situations whose mean difference favours the claim's action, with a Wilson 95% interval (a situation
  whose rollouts are noisy is counted by the sign of its mean, so the share leans toward 1/2 at few rollouts);
- mean: the mean difference per situation with a 95% interval over situations;
- breakdown: the same per value (or quartile) of each feature;
- condition: the region of at most two one-sided thresholds (feature ≤ t, feature ≥ t, or both; a categorical
  feature, claims.CATEGORICAL, is or is not one value) that maximises
  n × the lower 95% bound of the mean difference inside it, i.e. the most certain total gain of playing the
  claim's action there and the alternative elsewhere; it supports the claim when that bound is above 0. The
  thresholds are chosen from the same data, so the interval is optimistic: a hypothesis to confirm on new seeds.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from tsumolab.analyzer.stats import mean_estimate

Z95 = 1.96
MIN_REGION = 10          # situations a condition must cover at least …
MIN_REGION_SHARE = 0.10  # … and this share of them
MAX_VALUES = 8           # a feature with at most this many values is broken down value by value
OBJECTIVES = {"points": ("diff_points", 1.0), "rank": ("diff_rank", -1.0)}
"""objective → (column, sign that makes larger better)"""


@dataclass(frozen=True)
class Interval:
    """A mean or share with its 95% interval over `n` situations."""

    mean: float
    low: float
    high: float
    n: int


def mean_interval(x) -> Interval:
    e = mean_estimate(np.asarray(x, np.float64))
    low, high = e.interval()
    return Interval(e.mean, low, high, e.n)


def wilson(k: int, n: int) -> Interval:
    """Share k/n with its Wilson 95% interval."""
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    p = k / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return Interval(p, centre - half, centre + half, n)


def summary(rows: pl.DataFrame) -> dict:
    """Share favouring the claim's action and mean difference per situation, on points, rank and gift box."""
    out = {"situations": rows.height}
    for objective, (column, sign) in OBJECTIVES.items():
        d = sign * rows[column].to_numpy()
        out[f"share_{objective}"] = wilson(int((d > 0).sum()), d.size)
        out[f"mean_{objective}"] = mean_interval(rows[column].to_numpy())
    out["mean_gift"] = mean_interval(rows["diff_gift"].to_numpy())
    return out


def feature_bins(values: np.ndarray) -> list[tuple[float, float]]:
    """Closed [low, high] bins: one per value when there are few, else quartiles."""
    distinct = np.unique(values)
    if distinct.size <= MAX_VALUES:
        return [(float(v), float(v)) for v in distinct]
    edges = np.unique(np.quantile(values, [0, 0.25, 0.5, 0.75, 1.0], method="lower"))
    bins, low = [], edges[0]
    for high in edges[1:]:
        inside = distinct[(distinct >= low) & (distinct <= high)]
        if inside.size:
            bins.append((float(low), float(inside.max())))
        low = distinct[distinct > high].min() if (distinct > high).any() else high
    if not bins or bins[-1][1] < distinct.max():
        bins.append((float(low), float(distinct.max())))
    return bins


def breakdown(rows: pl.DataFrame, feature: str) -> list[dict]:
    """Per bin of `feature`: situations, share favouring the claim (points), mean point and rank differences."""
    values = rows[f"f_{feature}"].to_numpy()
    out = []
    for low, high in feature_bins(values):
        part = rows.filter((pl.col(f"f_{feature}") >= low) & (pl.col(f"f_{feature}") <= high))
        d = part["diff_points"].to_numpy()
        out.append({"feature": feature, "low": low, "high": high, "situations": part.height,
                    "share_points": wilson(int((d > 0).sum()), d.size),
                    "mean_points": mean_interval(d), "mean_rank": mean_interval(part["diff_rank"].to_numpy())})
    return out


@dataclass(frozen=True)
class Condition:
    objective: str
    terms: tuple[tuple[str, str, float], ...]
    """(feature, "<=" or ">=", threshold), or (feature, "==" or "!=", code) of a categorical feature; empty =
    every situation"""
    estimate: Interval
    """mean difference inside the region (in the objective's own units and sign: rank lower is better)"""
    total: int

    @property
    def supported(self) -> bool:
        _, sign = OBJECTIVES[self.objective]
        return (self.estimate.low > 0) if sign > 0 else (self.estimate.high < 0)


def _thresholds(values: np.ndarray) -> list[float]:
    distinct = np.unique(values)
    if distinct.size <= 12:
        return [float(v) for v in distinct]
    return sorted({float(v) for v in np.quantile(values, np.linspace(0.1, 0.9, 9), method="lower")})


def _masks(values: np.ndarray, name: str):
    """(term, mask) of every one-sided threshold of a feature; of every value ("==", "!=") of a categorical one
    (claims.CATEGORICAL: a card, a part of the claim, whose codes have no order)."""
    from tsumolab.analyzer.decisions.claims import CATEGORICAL

    if name in CATEGORICAL:
        tests = [(op, t, mask) for t in np.unique(values).tolist()
                 for op, mask in (("==", values == t), ("!=", values != t))]
    else:
        tests = [(op, t, mask) for t in _thresholds(values)
                 for op, mask in (("<=", values <= t), (">=", values >= t))]
    for op, t, mask in tests:
        if 0 < mask.sum() < values.size:
            yield (name, op, float(t)), mask


def best_condition(rows: pl.DataFrame, features: list[str], objective: str = "points") -> Condition:
    """The region of at most two thresholds with the most certain gain for the claim's action (module doc)."""
    column, sign = OBJECTIVES[objective]
    d = sign * rows[column].to_numpy()
    n = d.size
    minimum = max(MIN_REGION, math.ceil(MIN_REGION_SHARE * n))
    singles = [term for f in features for term in _masks(rows[f"f_{f}"].to_numpy().astype(np.float64), f)]
    candidates = [((), np.ones(n, bool))] + [((term,), mask) for term, mask in singles]
    for (a, ma), (b, mb) in itertools.combinations(singles, 2):
        if a[0] != b[0]:
            candidates.append(((a, b), ma & mb))
    best, best_score = None, -math.inf
    for terms, mask in candidates:
        k = int(mask.sum())
        if k < minimum:
            continue
        e = mean_interval(d[mask])
        score = k * e.low
        if score > best_score + 1e-9 or (best is None):
            best, best_score = (terms, mask), score
    terms, mask = best if best is not None else ((), np.ones(n, bool))
    e = mean_interval(rows[column].to_numpy()[mask])
    return Condition(objective, terms, e, n)


def _term_text(term, claim, tr) -> str:
    from tsumolab.analyzer.decisions.claims import FEATURE_CODES

    name, op, t = term
    feature = tr({f.name: f.words for f in claim.features}.get(name, name))
    if op in ("==", "!="):
        codes = FEATURE_CODES.get(name, ())
        value = tr(codes[int(t)]) if 0 <= int(t) < len(codes) else tr.number(t)
        if op == "==":
            return tr("{feature} is {value}", feature=feature, value=value)
        return tr("{feature} is not {value}", feature=feature, value=value)
    message = "{feature} ≤ {value}" if op == "<=" else "{feature} ≥ {value}"
    return tr(message, feature=feature, value=tr.number(t))


def _numbers(cond: Condition, tr) -> str:
    e = cond.estimate
    if cond.objective == "points":
        return tr("{mean} points per situation [{low}, {high}], {n} of {total} situations", mean=tr.signed(e.mean),
                  low=tr.signed(e.low), high=tr.signed(e.high), n=e.n, total=cond.total)
    return tr("{mean} in rank per situation [{low}, {high}] (lower is better), {n} of {total} situations",
              mean=tr.signed(e.mean, 3), low=tr.signed(e.low, 3), high=tr.signed(e.high, 3), n=e.n,
              total=cond.total)


def condition_sentence(cond: Condition, claim, tr) -> str:
    """A plain sentence of when the claim's action is better (or that no tested condition supports it)."""
    action, alternative = tr(claim.action), tr(claim.alternative)
    numbers = _numbers(cond, tr)
    where = ""
    for term in cond.terms:
        text = _term_text(term, claim, tr)
        where = tr("{first} and {second}", first=where, second=text) if where else text
    if cond.supported and not cond.terms:
        return tr("“{action}” is better in general ({numbers}).", action=action, numbers=numbers)
    if cond.supported:
        return tr("“{action}” only when {where} ({numbers}); otherwise “{alternative}”.", action=action,
                  where=where, numbers=numbers, alternative=alternative)
    if where:
        return tr("No condition on the claim's features makes “{action}” better than “{alternative}”: the most "
                  "favourable region ({where}) gives {numbers}.", action=action, alternative=alternative,
                  where=where, numbers=numbers)
    return tr("No condition on the claim's features makes “{action}” better than “{alternative}”: over all "
              "situations {numbers}.", action=action, alternative=alternative, numbers=numbers)


def claim_result(rows: pl.DataFrame, claim) -> dict:
    """Everything the report and the command print about one claim (rows: its situations, every field)."""
    features = [f.name for f in claim.features]
    return {"summary": summary(rows), "by_field": {f: summary(rows.filter(pl.col("field") == f))
                                                   for f in rows["field"].unique(maintain_order=True)},
            "breakdown": {f: breakdown(rows, f) for f in features},
            "conditions": {objective: best_condition(rows, features, objective) for objective in OBJECTIVES}}


def format_summary(table: pl.DataFrame, tr=None) -> str:
    """The command's printout: per claim, situations, share favouring the claim, mean differences, conditions."""
    from tsumolab.analyzer.decisions.claims import CLAIMS
    from tsumolab.analyzer.i18n import translator

    tr = tr or translator("en")
    ids = table["claim"].unique(maintain_order=True).to_list()
    width = max([5, *map(len, ids)])
    lines = [f"{'claim':{width}s} {'n':>4s} {'share better (pts)':>22s} {'mean points':>24s} {'mean rank':>24s}"]
    sentences = []
    for cid in ids:
        rows = table.filter(pl.col("claim") == cid)
        claim = CLAIMS[cid]
        result = claim_result(rows, claim)
        s = result["summary"]
        share, pts, rank = s["share_points"], s["mean_points"], s["mean_rank"]
        lines.append(f"{cid:{width}s} {rows.height:4d} {share.mean:6.0%} [{share.low:4.0%}, {share.high:4.0%}]     "
                     f"{pts.mean:+7.0f} [{pts.low:+7.0f}, {pts.high:+7.0f}] "
                     f"{rank.mean:+7.3f} [{rank.low:+7.3f}, {rank.high:+7.3f}]")
        sentences.append(f"{cid} ({tr(claim.action)} vs {tr(claim.alternative)}): "
                         + condition_sentence(result["conditions"]["points"], claim, tr))
    return "\n".join(lines + [""] + sentences)
