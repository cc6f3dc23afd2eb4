"""What the determinization tests share: positions of simulated play to determinize, whether a determinization
kept every public field, and whether sampled tile kinds follow the hidden pool."""

from __future__ import annotations

import math

import numpy as np

from tsumolab.policies.registry import parse_seats
from tsumolab.sims.layout import describe
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.positions import RiichiEngine

PRIVATE = {"hand", "red", "rng", "furiten"}  # the only fields of a seat's row a determinization may change
PUBLIC_SPANS = [(name, lo, lo + width) for name, lo, width, _ in describe(ROBS) if name not in PRIVATE]


def assert_public_fields_kept(d, pos) -> None:
    """No public field of any seat's observation moved from `pos` to its determinization `d`."""
    for name, lo, hi in PUBLIC_SPANS:
        assert np.array_equal(d.obs[:, lo:hi], pos.obs[:, lo:hi]), name


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


def positions(slug: str, seed: int, n_matches: int, per_hand: int = 3, want=None, spec: str = "baseline"):
    """(table, position kept with its events) at random decisions of simulated matches of `spec` (default
    baseline)."""
    table = RiichiEngine(parse_seats(spec), get_mode(slug).rules_class(), root_seed=seed, keep_events=True)
    pick = np.random.default_rng(seed)
    for match_id in range(n_matches):
        for hand_no in range(1, 9):
            full = table.play_hand(match_id, hand_no)
            if full is None:
                break
            for k in sorted(pick.choice(full.n_decisions, size=min(full.n_decisions, per_hand), replace=False)):
                pos = table.at_decision(match_id, hand_no, int(k))
                if pos is not None and (want is None or want(pos)):
                    yield table, pos
