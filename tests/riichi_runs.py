"""Simulated runs of the riichi-based modes shared by tests/test_riichi_engine.py and tests/test_shura.py."""

from __future__ import annotations

import functools

import numpy as np
import polars as pl

from tsumolab.analyzer.tables import hand_table, match_table
from tsumolab.policies.registry import parse_seats
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi import engine

SEAT_MIXES = (
    "baseline",
    "baseline,random,majsoul-cpu,disconnected",
    "majsoul-cpu,baseline,disconnected,baseline",
    "random",
)
FAST_MATCHES = 800       # per mix: ≈ 4 mixes × 800 matches × 4-6 hands ≈ 15,000-20,000 hands per mode
FULL_MATCHES = 6_500     # per mix: ≥ 100,000 hands per mode (marked slow)


@functools.lru_cache(maxsize=None)
def run(slug: str, n_matches: int, seed: int = 11):
    """[(spec, counters, hands, matches)] per seat mix; hands/matches are the decoded Parquet-layout frames."""
    mode = get_mode(slug)
    out = []
    for i, spec in enumerate(SEAT_MIXES):
        seats = parse_seats(spec)
        counters = np.zeros(engine.N_COUNTERS, np.int64)
        hand_rows, match_rows = mode.simulate(seed + i, np.arange(n_matches), seats, counters=counters)
        hands = hand_table(hand_rows, seats, mode).sort(["match_id", "hand", "seat"])
        matches = match_table(match_rows, seats, mode).sort(["match_id", "seat"])
        out.append((spec, counters, hands, matches))
    return out


def per_hand(hands: pl.DataFrame) -> pl.DataFrame:
    """One row per (match, hand) with the hand's totals."""
    return hands.group_by(["match_id", "hand"], maintain_order=True).agg(
        pl.col("delta").sum().alias("delta_sum"),
        pl.col("won").sum().alias("n_won"),
        pl.col("winners").first(),
        pl.col("hand_end").first(),
        pl.col("round").first(),
        pl.col("honba").first().cast(pl.Int64),
        pl.col("sticks_before").first().cast(pl.Int64),
        pl.col("sticks_after").first().cast(pl.Int64),
        pl.col("seat").filter(pl.col("dealer")).first().alias("dealer_seat"),
        (pl.col("won") & pl.col("dealer")).any().alias("dealer_won"),
        (pl.col("tenpai_at_draw") & pl.col("dealer")).any().alias("dealer_tenpai"),
        (pl.col("riichi") != "none").sum().alias("n_riichi"),
        pl.col("pao_paid").sum().alias("pao"),
    )
