"""Record layout of the riichi-based modes (`riichi`, `shura`): one int32 row per (match, hand, seat) and per
(match, seat), turned into the `hands` / `matches` tables by analyzer.tables.

Each column is (name, polars dtype name, meaning, labels): labels is None, a tuple of code labels, or a
callable `decode(rows, index) -> list` over the whole row block (the yaku set spans two int32 columns).
"""

from __future__ import annotations

import numpy as np

from tsumolab.sims.riichi.fantasy_decks import FANTASY_SLUGS
from tsumolab.sims.riichi.yaku import YAKU_NAMES

WIN_KINDS = ("none", "ron", "tsumo")
EXCHANGE_DIRECTIONS = ("none", "next", "prev", "across")
HAND_ENDS = ("win", "exhaustive", "nine_terminals", "four_winds", "four_riichi", "four_kans", "bust",
             "three_wins")
ROUNDS = ("E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4")
RIICHI_KINDS = ("none", "riichi", "double")
N_YAKU_BITS = 51  # yaku ids below sims.riichi.yaku.DORA: bits 0..30 in `yaku`, 31..50 in `yaku_ext`
LOW_BITS = 31


def _decode_yaku(rows: np.ndarray, index: dict) -> list[str]:
    lo = rows[:, index["yaku"]].astype(np.int64)
    hi = rows[:, index["yaku_ext"]].astype(np.int64)
    out = []
    for a, b in zip(lo.tolist(), hi.tolist()):
        bits = a | (b << LOW_BITS)
        out.append(",".join(YAKU_NAMES[i] for i in range(N_YAKU_BITS) if bits >> i & 1))
    return out


HAND_COLUMNS = [
    ("match_id", "Int64", "match number within the run", None),
    ("hand", "Int8", "hand number in the match, 1-based (repeats and replays counted)", None),
    ("seat", "Int8", "seat 0..3 in turn order (seat 0 deals hand 1)", None),
    ("dealer", "Boolean", "seat was dealer of this hand", None),
    ("round", "Utf8", "round of the hand: E1..E4, S1..S4 (R-2)", ROUNDS),
    ("honba", "Int8", "honba counters at the start of the hand (R-2)", None),
    ("sticks_before", "Int8", "riichi sticks on the table at the start of the hand", None),
    ("sticks_after", "Int8", "riichi sticks on the table at the end of the hand (points + sticks are conserved)", None),
    ("points_before", "Int32", "points at the start of the hand", None),
    ("delta", "Int32", "net points change over the hand (all payments, riichi sticks included)", None),
    ("won", "Boolean", "seat won this hand", None),
    ("win_order", "Int8", "1..3 = order among the hand's winners, 0 = no win", None),
    ("win_kind", "Utf8", "none | ron | tsumo", WIN_KINDS),
    ("han", "Int8", "han of the win, dora included (13 per yakuman); 0 = no win", None),
    ("fu", "Int8", "fu of the win (25 seven pairs, 0 yakuman)", None),
    ("yakuman", "Int8", "yakuman multiplier of the win (0 = none; kazoe yakuman counts 0)", None),
    ("dora", "Int8", "dora of the win: indicators + red fives + ura", None),
    ("yaku", "Utf8", "yaku of the win, comma-separated names of sims.riichi.yaku (dora not listed)", _decode_yaku),
    ("yaku_ext", "Int32", "raw bits 31.. of the yaku set (decoded into `yaku`)", None),
    ("value", "Int32", "points of the win itself (honba and sticks excluded), as the scorer computes them", None),
    ("win_points", "Int32", "points received for the win: value paid + honba + riichi sticks "
                            "(fantasy, FL: + 赠品 − 厄运沙漏)", None),
    ("sticks_won", "Int8", "riichi sticks taken with the win (R-2, S-13)", None),
    ("dealt_in", "Int8", "number of winners this seat paid by discarding", None),
    ("passed_wins", "Int8", "wins (ron or tsumo) this seat could take and passed", None),
    ("riichi", "Utf8", "riichi declared this hand: none | riichi | double (R-4)", RIICHI_KINDS),
    ("riichi_turn", "Int8", "discards made before the riichi tile (-1 = no riichi)", None),
    ("calls", "Int8", "chi, pon and open kans made by this seat", None),
    ("kans", "Int8", "kans declared by this seat (open, closed, added)", None),
    ("pao_paid", "Int32", "points this seat paid as the liable player of a 大三元/大四喜 (R-3)", None),
    ("tenpai_at_draw", "Boolean", "tenpai at an exhaustive draw (non-won players only)", None),
    ("noten_payment", "Int32", "net noten payments at the exhaustive draw (R-6, S-6)", None),
    ("nagashi", "Boolean", "nagashi mangan at the exhaustive draw (R-6)", None),
    ("discards", "Int16", "discards made by this seat in the hand", None),
    ("exchange_dir", "Utf8", "exchange-three direction (S-2): none | next | prev | across", EXCHANGE_DIRECTIONS),
    ("winners", "Int8", "number of winners in the hand", None),
    ("hand_end", "Utf8", "win | exhaustive | nine_terminals | four_winds | four_riichi | four_kans | bust | "
                         "three_wins (R-5, S-3)", HAND_ENDS),
    ("wall_left", "Int8", "tiles left in the live wall when the hand ended", None),
    ("multiplier", "Int8", "fate (F): 1 + own open deal tiles still held when the hand ended (at the win for a "
                           "winner, whose points it multiplied); 1 in other modes", None),
    ("chant_han", "Int8", "chant (C): bonus han of the seat's longest tsumogiri and hand-discard runs in the hand "
                          "(included in `han` of a non-yakuman win); 0 in other modes", None),
    ("overloaded", "Boolean", "soul strike (SS): the seat was overloaded when the hand ended (its strike turns "
                              "used up, or a strike discard called or ronned); false in other modes", None),
    ("strike_han", "Int8", "soul strike (SS): han the mode added to this seat's win (riichi 2 / double riichi 3 "
                           "instead of 1 / 2, + 2 on a ron against an overloaded discarder; included in `han`); "
                           "0 in other modes", None),
    ("card_dealer", "Utf8", "fantasy (FL): the match's dealer card (fuuki 风纪, eternal-night 永夜, confiscate 没收, "
                            "hype 炒作, giveaway 赠品); none in other modes", ("none",) + FANTASY_SLUGS[0]),
    ("card_chance", "Utf8", "fantasy (FL): the match's chance card (otherworld 里世界, triple-speed 三倍速, "
                            "golden 金闪闪, super-tanyao 超断幺, showdown 胜负手); none in other modes",
     ("none",) + FANTASY_SLUGS[1]),
    ("card_fate", "Utf8", "fantasy (FL): the match's fate card (exaggeration 夸大其词, over-prepared 过度准备, "
                          "hourglass 厄运沙漏, shady-deal 暗中交易, love-price 爱的代价); none in other modes",
     ("none",) + FANTASY_SLUGS[2]),
    ("card_points", "Int32", "fantasy (FL): net points the seat moved through card payments in the hand "
                             "(赠品 bonus, 厄运沙漏 cut, 暗中交易, 爱的代价, 没收); the win part is in `win_points`; "
                             "0 elsewhere", None),
    ("pot_before", "Int32", "darkness (D): points in the pot at the start of the hand (points + sticks + pot are "
                            "conserved); 0 in other modes", None),
    ("pot_after", "Int32", "darkness (D): points in the pot at the end of the hand; 0 in other modes", None),
    ("dark_paid", "Int32", "darkness (D): points this seat paid into the pot (1000 per face-down discard, 2000 per "
                           "opening, 4000 per lock); 0 in other modes", None),
    ("pot_won", "Int32", "darkness (D): points this seat took from the pot with a win (not in `win_points`); 0 in "
                         "other modes", None),
    ("face_down", "Int8", "darkness (D): discards this seat made face down (opened or not); 0 in other modes", None),
    ("dark_opens", "Int8", "darkness (D): face-down discards of others this seat paid to open; 0 in other modes",
     None),
    ("dark_locks", "Int8", "darkness (D): opened discards of its own this seat paid to lock; 0 in other modes",
     None),
]

MATCH_COLUMNS = [
    ("match_id", "Int64", "match number within the run", None),
    ("seat", "Int8", "seat 0..3", None),
    ("final_points", "Int32", "points at the end of the match (unclaimed riichi sticks go to first place, R-2)", None),
    ("rank", "Int8", "final rank 1..4 (ties broken by seat order, R-2)", None),
    ("busted", "Boolean", "points went below 0", None),
    ("hands_played", "Int8", "hands played in the match (replays and repeats included)", None),
]

N_HAND_COLS = len(HAND_COLUMNS)
N_MATCH_COLS = len(MATCH_COLUMNS)
HC = {name: i for i, (name, *_rest) in enumerate(HAND_COLUMNS)}
MC = {name: i for i, (name, *_rest) in enumerate(MATCH_COLUMNS)}
# sims.table_state.write_match_rows fills both families' matches rows: the layouts agree (tests/test_families.py)

# column indices for compiled code
H_MATCH, H_HAND, H_SEAT, H_DEALER, H_ROUND = HC["match_id"], HC["hand"], HC["seat"], HC["dealer"], HC["round"]
H_HONBA, H_STICKS0, H_STICKS1 = HC["honba"], HC["sticks_before"], HC["sticks_after"]
H_BEFORE, H_DELTA, H_WON, H_ORDER, H_KIND = HC["points_before"], HC["delta"], HC["won"], HC["win_order"], \
    HC["win_kind"]
H_HAN, H_FU, H_YAKUMAN, H_DORA, H_YAKU, H_YAKU_EXT = HC["han"], HC["fu"], HC["yakuman"], HC["dora"], HC["yaku"], \
    HC["yaku_ext"]
H_VALUE, H_WINPTS, H_DEALT, H_PASSED = HC["value"], HC["win_points"], HC["dealt_in"], HC["passed_wins"]
H_STICKS_WON = HC["sticks_won"]
H_RIICHI, H_RIICHI_TURN, H_CALLS, H_KANS, H_PAO = HC["riichi"], HC["riichi_turn"], HC["calls"], HC["kans"], \
    HC["pao_paid"]
H_TENPAI, H_NOTEN, H_NAGASHI, H_DISC, H_DIR = HC["tenpai_at_draw"], HC["noten_payment"], HC["nagashi"], \
    HC["discards"], HC["exchange_dir"]
H_WINNERS, H_END, H_WALL = HC["winners"], HC["hand_end"], HC["wall_left"]
H_MULTIPLIER = HC["multiplier"]
H_CHANT_HAN = HC["chant_han"]
H_OVERLOADED, H_STRIKE_HAN = HC["overloaded"], HC["strike_han"]
H_CARD_DEALER, H_CARD_CHANCE, H_CARD_FATE, H_CARD_POINTS = HC["card_dealer"], HC["card_chance"], HC["card_fate"], \
    HC["card_points"]
H_POT0, H_POT1, H_DARK_PAID, H_POT_WON = HC["pot_before"], HC["pot_after"], HC["dark_paid"], HC["pot_won"]
H_FACE_DOWN, H_DARK_OPENS, H_DARK_LOCKS = HC["face_down"], HC["dark_opens"], HC["dark_locks"]
