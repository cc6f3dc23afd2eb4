"""analyzer.stats: paired estimates, Holm's correction with consistent intervals, verdicts (CLAIMS.md)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tsumolab.analyzer import stats


def test_holm_adjusted_p_values_follow_the_step_down_rule():
    # sorted: 0.005 (x4 = 0.02), 0.01 (x3 = 0.03), 0.03 (x2 = 0.06), 0.04 (x1 = 0.04, but monotone: 0.06)
    adjusted, multipliers = stats.holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert multipliers == pytest.approx([3.0, 1.5, 2.0, 4.0])


def test_holm_caps_at_one_and_keeps_a_single_test_unchanged():
    assert stats.holm([0.7, 0.8])[0] == pytest.approx([1.0, 1.0])
    assert stats.holm([0.03])[0] == pytest.approx([0.03])


def test_holm_intervals_exclude_zero_exactly_when_holm_rejects():
    rng = np.random.default_rng(3)
    estimates = [stats.Estimate(float(m), 1.0, 100) for m in rng.normal(0, 3, size=40)]
    p = np.array([stats.p_value(e) for e in estimates])
    adjusted, multipliers = stats.holm(p)
    assert (adjusted >= p - 1e-15).all()
    for est, p_adj, c in zip(estimates, adjusted, multipliers):
        lo, hi = stats.holm_interval(est, c)
        raw_lo, raw_hi = est.interval()
        assert lo <= raw_lo and hi >= raw_hi  # widened, never narrowed
        assert (lo > 0 or hi < 0) == (p_adj < stats.ALPHA)


def test_holm_interval_with_a_single_hypothesis_is_the_plain_95_interval():
    est = stats.Estimate(2.0, 1.0, 50)
    (p_adj,), (c,) = stats.holm([stats.p_value(est)])
    assert stats.holm_interval(est, c) == pytest.approx(est.interval())
    assert est.interval() == pytest.approx((2 - 1.959964, 2 + 1.959964), abs=1e-5)


def test_interval_covers_the_true_mean_about_95_percent_of_the_time():
    rng = np.random.default_rng(11)
    covered = 0
    for _ in range(400):
        lo, hi = stats.mean_estimate(rng.normal(5.0, 2.0, size=200)).interval()
        covered += lo < 5.0 < hi
    assert 0.91 <= covered / 400 <= 0.98


@pytest.mark.parametrize("low, high, direction, expected", [
    (1.0, 3.0, "greater", "supported"),
    (-3.0, -1.0, "greater", "refuted"),
    (-1.0, 3.0, "greater", "inconclusive"),
    (-3.0, -1.0, "less", "supported"),
    (1.0, 3.0, "less", "refuted"),
    (0.0, 3.0, "greater", "inconclusive"),
])
def test_verdict_is_the_side_of_zero_the_interval_lies_on(low, high, direction, expected):
    assert stats.verdict(low, high, direction) == expected


def test_verdict_rejects_an_unknown_direction():
    with pytest.raises(ValueError):
        stats.verdict(1, 2, "bigger")


def test_pairing_positively_correlated_samples_reduces_variance():
    rng = np.random.default_rng(5)
    luck = rng.normal(0, 10, size=(4, 2000))         # what the walls give a seat
    treatment = luck + 1.0 + rng.normal(0, 1, size=luck.shape)
    control = luck + rng.normal(0, 1, size=luck.shape)
    paired = stats.mean_estimate((treatment - control).mean(axis=0))
    unpaired = stats.unpaired_estimate(treatment, control)
    assert paired.mean == pytest.approx(unpaired.mean)
    assert stats.variance_reduction(unpaired, paired) > 20
    lo, hi = paired.interval()
    assert lo < 1.0 < hi


def test_zero_spread_gives_p_one_or_zero_and_a_point_interval():
    zero = stats.Estimate(0.0, 0.0, 10)
    assert stats.p_value(zero) == 1.0
    assert stats.p_value(stats.Estimate(3.0, 0.0, 10)) == 0.0
    assert stats.holm_interval(zero, 2.0) == (0.0, 0.0)
    assert math.isnan(stats.variance_reduction(zero, zero))


def test_combined_se_distance():
    assert stats.combined_se_distance(10.0, 3.0, 2.0, 4.0) == pytest.approx(8 / 5)
    assert stats.combined_se_distance(1.0, 0.0, 1.0, 0.0) == 0.0
    assert math.isinf(stats.combined_se_distance(1.0, 0.0, 2.0, 0.0))
