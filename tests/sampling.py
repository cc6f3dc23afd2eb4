"""A check shared by the determinization tests: do sampled tile kinds follow the hidden pool?"""

from __future__ import annotations

import math

import numpy as np


def assert_follows_the_pool(counts: np.ndarray, pool: np.ndarray) -> None:
    """`counts` of kinds drawn are proportional to the hidden copies of each kind in `pool` (chi-square,
    Wilson-Hilferty z < 3.09, p > 0.001), and a kind with no hidden copy is never drawn."""
    expected = counts.sum() * pool / pool.sum()
    used = expected > 0
    chi2 = float((((counts - expected) ** 2)[used] / expected[used]).sum())
    df = int(used.sum()) - 1
    z = ((chi2 / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    assert z < 3.09, (chi2, df)
    assert counts[~used].sum() == 0
