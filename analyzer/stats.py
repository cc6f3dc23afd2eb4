"""Statistics of the duplicate design: paired means, normal p-values, Holm's correction, verdicts.

Everything here is plain numpy on per-wall-seed values; nothing knows about mahjong.

Holm-widened intervals: Holm's step-down procedure turns the raw two-sided p-values p_1..p_m into adjusted
ones p~_k = max over j ranked at or before k of min(1, (m - rank_j + 1) * p_j). Hypothesis k is rejected at
level alpha exactly when p~_k < alpha, i.e. when p_k < alpha / c_k with c_k = p~_k / p_k (the multiplier Holm
effectively applied to it). Its interval is therefore effect ± z(1 - alpha / (2 c_k)) * se: it excludes 0
exactly when Holm rejects, so interval-based verdicts and adjusted p-values always agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

ALPHA = 0.05
_NORMAL = NormalDist()


@dataclass(frozen=True)
class Estimate:
    """Mean of per-unit values with its standard error (normal approximation) and unit count."""

    mean: float
    se: float
    n: int

    def interval(self, alpha: float = ALPHA) -> tuple[float, float]:
        z = _NORMAL.inv_cdf(1 - alpha / 2)
        return self.mean - z * self.se, self.mean + z * self.se


def mean_estimate(values: np.ndarray) -> Estimate:
    """Mean and standard error (sample sd / sqrt n) of independent unit values."""
    values = np.asarray(values, dtype=np.float64)
    n = values.size
    if n == 0:
        return Estimate(math.nan, math.nan, 0)
    se = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return Estimate(float(values.mean()), se, n)


def unpaired_estimate(treatment: np.ndarray, control: np.ndarray) -> Estimate:
    """Difference of means of two samples treated as independent (what separate random matches would give)."""
    a = mean_estimate(np.ravel(treatment))
    b = mean_estimate(np.ravel(control))
    return Estimate(a.mean - b.mean, math.hypot(a.se, b.se), a.n + b.n)


def variance_reduction(unpaired: Estimate, paired: Estimate) -> float:
    """unpaired variance / paired variance of the estimated difference (inf when the paired one is 0)."""
    if not paired.se > 0:
        return math.inf if unpaired.se > 0 else math.nan
    return (unpaired.se / paired.se) ** 2


def p_value(estimate: Estimate) -> float:
    """Two-sided p-value of mean = 0 under the normal approximation."""
    if not estimate.se > 0:
        return 1.0 if estimate.mean == 0 or math.isnan(estimate.mean) else 0.0
    return math.erfc(abs(estimate.mean / estimate.se) / math.sqrt(2))


def holm(p_values) -> tuple[np.ndarray, np.ndarray]:
    """(Holm-adjusted p-values, effective multipliers c_k) for raw p-values, in input order.

    c_k is p~_k / p_k; where p_k is 0 it is the step's own multiplier (m - rank + 1).
    """
    p = np.asarray(p_values, dtype=np.float64)
    m = p.size
    order = np.argsort(p, kind="stable")
    adjusted = np.empty(m)
    multipliers = np.empty(m)
    running = 0.0
    for rank, k in enumerate(order):
        step = m - rank
        running = max(running, min(1.0, step * p[k]))
        adjusted[k] = running
        multipliers[k] = running / p[k] if p[k] > 0 else float(step)
    return adjusted, multipliers


def holm_interval(estimate: Estimate, multiplier: float, alpha: float = ALPHA) -> tuple[float, float]:
    """The interval at level 1 - alpha / multiplier: excludes 0 exactly when Holm rejects (module docstring)."""
    if not estimate.se > 0:
        return estimate.mean, estimate.mean
    tail = max(alpha / (2 * max(multiplier, 1.0)), 1e-300)
    z = -_NORMAL.inv_cdf(tail)
    return estimate.mean - z * estimate.se, estimate.mean + z * estimate.se


def verdict(low: float, high: float, direction: str) -> str:
    """supported / refuted / inconclusive: the interval lies on the claimed side of 0 / the other / straddles it.

    direction "greater": the claim says treatment − control > 0; "less": < 0.
    """
    if direction not in ("greater", "less"):
        raise ValueError(f"direction must be 'greater' or 'less', got {direction!r}")
    sign = 1 if direction == "greater" else -1
    lo, hi = sorted((sign * low, sign * high))
    if lo > 0:
        return "supported"
    if hi < 0:
        return "refuted"
    return "inconclusive"


def combined_se_distance(a: float, se_a: float, b: float, se_b: float) -> float:
    """|a − b| in units of the combined standard error sqrt(se_a² + se_b²) (inf/0 when that is 0)."""
    combined = math.hypot(se_a, se_b)
    if combined == 0:
        return 0.0 if a == b else math.inf
    return abs(a - b) / combined
