"""Bloodshed's record layout: the columns of its `hands` and `matches` tables.

The compiled match kernel writes one int32 row per (match, hand, seat) into `hand_rows` and one per
(match, seat) into `match_rows`; `analyzer` turns those arrays into the `hands` and `matches` tables.
Each column is (name, Parquet type, meaning, decoder). Decoders map small integer codes to labels.
"""

from __future__ import annotations

WIN_KINDS = ("none", "ron", "tsumo")
SUIT_LABELS = ("m", "p", "s")
EXCHANGE_DIRECTIONS = ("next", "prev", "across")
HAND_ENDS = ("three_wins", "exhaustive", "bust")


def _pattern_labels() -> tuple:
    from tsumolab.sims.bloodshed.scoring import PATTERN_NAMES

    return ("none",) + tuple(PATTERN_NAMES)


PATTERN_LABELS = _pattern_labels()  # stored code = pattern index + 1, 0 = no win

# (name, polars dtype name, meaning, labels or None)
HAND_COLUMNS = [
    ("match_id", "Int64", "match number within the run", None),
    ("hand", "Int8", "hand number in the match, 1-based", None),
    ("seat", "Int8", "seat 0..3 in turn order (seat 0 deals hand 1)", None),
    ("dealer", "Boolean", "seat was dealer of this hand", None),
    ("points_before", "Int32", "points at the start of the hand", None),
    ("delta", "Int32", "net points change over the hand (all payments)", None),
    ("won", "Boolean", "seat won this hand", None),
    ("win_order", "Int8", "1..3 = order among the hand's winners, 0 = no win", None),
    ("win_kind", "Utf8", "none | ron | tsumo", WIN_KINDS),
    ("fan", "Int8", "fan of the win after the cap (0 = no win)", None),
    ("raw_fan", "Int8", "fan of the win before the cap", None),
    ("pattern", "Utf8", "base pattern of the win (B-19a), e.g. 清一色; none without a win", PATTERN_LABELS),
    ("value", "Int32", "value of the win: what a ron discarder pays (B-19)", None),
    ("win_points", "Int32", "points received for the win itself", None),
    ("dealt_in", "Int8", "number of winners this seat paid by discarding", None),
    ("passed_wins", "Int8", "wins (ron or tsumo) this seat could take and passed", None),
    ("kans", "Int8", "kans declared by this seat", None),
    ("open_kans", "Int8", "open kans off a discard by this seat (each paid 2000 by the discarder, B-15)", None),
    ("closed_kan_payers", "Int8", "payers of this seat's closed kans, summed over them (2000 each, B-14)", None),
    ("added_kan_payers", "Int8", "payers of this seat's paid added kans, summed over them (1000 each, B-15)", None),
    ("kan_paid", "Int32", "kan payments this seat made to others during play", None),
    ("kan_income", "Int32", "net kan payments during play (received minus paid), before refunds", None),
    ("refund", "Int32", "net 退税 refund at the exhaustive draw (B-21)", None),
    ("draw_settlement", "Int32", "net 查花猪 + 查大叫 payments at the exhaustive draw (B-22, B-23)", None),
    ("tenpai_at_draw", "Boolean", "tenpai at an exhaustive draw (non-won players only)", None),
    ("max_value", "Int32", "max ron value at the exhaustive draw if tenpai (B-20), else 0", None),
    ("flower_pig", "Boolean", "still held a void-suit tile at the exhaustive draw (B-22)", None),
    ("void_suit", "Utf8", "declared void suit m | p | s", SUIT_LABELS),
    ("discards", "Int16", "discards made by this seat in the hand", None),
    ("exchange_dir", "Utf8", "exchange-three direction of the hand: next | prev | across", EXCHANGE_DIRECTIONS),
    ("winners", "Int8", "number of winners in the hand", None),
    ("hand_end", "Utf8", "three_wins | exhaustive | bust", HAND_ENDS),
    ("wall_left", "Int8", "tiles left in the wall when the hand ended", None),
]

MATCH_COLUMNS = [
    ("match_id", "Int64", "match number within the run", None),
    ("seat", "Int8", "seat 0..3", None),
    ("final_points", "Int32", "points at the end of the match", None),
    ("rank", "Int8", "final rank 1..4 (ties broken by seat order, B-4)", None),
    ("busted", "Boolean", "points went below 0", None),
    ("hands_played", "Int8", "hands played in the match (fewer than 4 after a bust)", None),
]

N_HAND_COLS = len(HAND_COLUMNS)
N_MATCH_COLS = len(MATCH_COLUMNS)
HC = {name: i for i, (name, *_rest) in enumerate(HAND_COLUMNS)}
MC = {name: i for i, (name, *_rest) in enumerate(MATCH_COLUMNS)}
