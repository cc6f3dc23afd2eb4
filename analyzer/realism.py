"""How human-like a riichi field plays: per player and hand rates from a run's `hands` table, beside reference
figures for strong human play (`tsumolab realism`).

The reference is the one place these figures live; compare shapes, not decimals: it is a hanchan ruleset
(East-South, Tenhou's red-five rules) and tsumolab plays Mahjong Soul's East-only game.
"""

from __future__ import annotations

import polars as pl

MODE = "riichi"
"""the mode the reference figures were measured in: the realism of a field is measured there"""
REFERENCE_SOURCE = ("Tenhou top room (鳳凰卓), 159,798 games of 2016, per player and hand; published statistics "
                    "as cited in tsumolab issue 16")
REFERENCE = {
    "win_rate": 0.211,
    "deal_in_rate": 0.125,
    "riichi_rate": 0.170,
    "call_rate": 0.344,
    "draw_share": 0.162,
    "avg_win": 5647.0,
    "avg_deal_in": None,  # not in the cited figures
}
"""strong human play, per player and hand (None: the source gives no figure)"""

MEASURES = (
    ("win_rate", "win rate", "share of a player's hands it won"),
    ("deal_in_rate", "deal-in rate", "share of a player's hands in which it dealt in"),
    ("riichi_rate", "riichi rate", "share of a player's hands in which it declared riichi"),
    ("call_rate", "call rate", "share of a player's hands with at least one chi, pon or open kan"),
    ("draw_share", "exhaustive draws", "share of hands (tables, not players) that ended in an exhaustive draw"),
    ("avg_win", "average win", "points of the win itself (honba and sticks excluded) per win"),
    ("avg_deal_in", "average deal-in", "points paid per deal-in (own riichi stick and noten payments excluded)"),
)
"""(key, label, meaning) of each figure, in print order"""


def realism_table(hands: pl.DataFrame) -> pl.DataFrame:
    """One row per policy of a riichi-family `hands` table (sims.riichi.columns) with the MEASURES columns and
    `player_hands` (rows of that policy) and `hands` (distinct hands it took part in)."""
    stick = 1000 * (pl.col("riichi") != "none")
    dealt = pl.col("dealt_in") > 0
    per_hand = hands.group_by("match_id", "hand").agg(
        (pl.col("hand_end").first() == "exhaustive").alias("exhaustive"), pl.col("policy").unique().alias("policies"))
    draws = per_hand.explode("policies").group_by("policies").agg(
        pl.len().alias("hands"), pl.col("exhaustive").mean().alias("draw_share")).rename({"policies": "policy"})
    rates = hands.group_by("policy").agg(
        pl.len().alias("player_hands"),
        pl.col("won").mean().alias("win_rate"),
        dealt.mean().alias("deal_in_rate"),
        (pl.col("riichi") != "none").mean().alias("riichi_rate"),
        (pl.col("calls") > 0).mean().alias("call_rate"),
        pl.col("value").filter(pl.col("won")).mean().alias("avg_win"),
        (-pl.col("delta") - stick).filter(dealt).mean().alias("avg_deal_in"),
    )
    return rates.join(draws, on="policy").sort("policy").select(
        "policy", "player_hands", "hands", *(key for key, _, _ in MEASURES))


def _figure(key: str, value) -> str:
    if value is None:
        return "—"
    return f"{value:,.0f}" if key.startswith("avg_") else f"{100 * value:.1f}%"


def short_label(label: str) -> str:
    """A seat's policy label without the parameters left at their defaults: `expert(pass_fan=2,…)` → `expert`."""
    from tsumolab.policies.registry import PolicyError, get, parse_seat

    try:
        seat = parse_seat(label)
        defaults = get(seat.name).defaults()
    except PolicyError:
        return label
    changed = [f"{k}={v}" for k, v in seat.params.items() if v != defaults[k]]
    return f"{seat.name}({','.join(changed)})" if changed else seat.name


def realism_text(table: pl.DataFrame) -> str:
    """The measures as rows, one column per policy and the reference last, then the gaps to the reference."""
    policies = [short_label(p) for p in table["policy"].to_list()]
    width = max([12] + [len(p) + 2 for p in policies])
    lines = [f"{'per player and hand':<20}" + "".join(f"{p:>{width}}" for p in policies) + f"{'strong human':>14}"]
    for key, label, _ in MEASURES:
        lines.append(f"{label:<20}" + "".join(f"{_figure(key, v):>{width}}" for v in table[key].to_list())
                     + f"{_figure(key, REFERENCE[key]):>14}")
    lines.append(f"{'player-hands':<20}" + "".join(f"{v:>{width},}" for v in table["player_hands"].to_list()))
    lines.append("")
    for policy, row in zip(policies, table.iter_rows(named=True)):
        gaps = []
        for key, label, _ in MEASURES:
            ref = REFERENCE[key]
            if ref is None or row[key] is None:
                continue
            gap = row[key] - ref
            gaps.append(f"{label} {gap:+,.0f}" if key.startswith("avg_") else f"{label} {100 * gap:+.1f} pt")
        lines.append(f"gap of {policy} to strong human play: " + ", ".join(gaps))
    lines.append(f"reference: {REFERENCE_SOURCE}; a hanchan ruleset, so compare shapes, not decimals")
    return "\n".join(lines)
