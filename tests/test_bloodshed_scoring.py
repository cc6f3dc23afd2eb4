"""Bloodshed win scoring: RULES.md B-10, B-19, B-19a (patterns, priority), B-19b (根 and bonuses),
B-19c (stack_known_bugs), B-20 (max ron value), the CLAIMS.md tsumo/ron arithmetic, and the
`tsumolab hand` calculator."""

from __future__ import annotations

import numpy as np
import pytest

from tsumolab.sims.bloodshed.calculator import score_request
from tsumolab.sims.bloodshed.rules import BloodshedRules
from tsumolab.sims.bloodshed.scoring import (BONUSES, FIRST_DRAW, KAN_DISCARD, KAN_DRAW, LAST_TILE, PATTERNS,
                                    ROBBED_KAN, fan_value, has_void_tile, max_ron_value, score_detail,
                                    score_win, tsumo_payment, unpack_fan, unpack_pattern, unpack_value)
from tsumolab.sims.tiles import TileError, parse_meld, parse_tiles

DEFAULT = BloodshedRules().to_array()
STACKED = BloodshedRules(stack_known_bugs=True).to_array()


def _arrays(hand: str, melds=()) -> tuple[np.ndarray, np.ndarray]:
    concealed, _ = parse_tiles(hand, allow_red=False, allow_honors=False)
    meld_type = np.zeros(34, np.int8)
    for text in melds:
        meld = parse_meld(text, allow_red=False, allow_honors=False, allow_chi=False)
        meld_type[meld.tile] = meld.kind + 1
    return concealed, meld_type


def score(hand: str, melds=(), dealer=False, tsumo=False, flags=0, rules=DEFAULT) -> dict:
    concealed, meld_type = _arrays(hand, melds)
    detail = score_detail(concealed, meld_type, dealer, tsumo, flags, rules)
    assert detail is not None, f"{hand} {melds} should be complete"
    return detail


# --- B-19 fan to points -------------------------------------------------------------------------

def test_rule_b19_fan_value_table_and_cap():
    assert [fan_value(f) for f in range(1, 7)] == [1000, 2000, 4000, 8000, 16000, 32000]
    assert fan_value(7) == fan_value(13) == 32000
    base = BloodshedRules().to_array()
    assert [tsumo_payment(f, base) for f in (1, 3, 6)] == [2000, 5000, 33000]


def test_rule_b19_tsumo_bonus_fan_option():
    """Option tsumo_bonus = "fan" (自摸加番): a tsumo counts one more fan, within the 6-fan cap."""
    by_fan = BloodshedRules(tsumo_bonus="fan").to_array()
    assert [tsumo_payment(f, by_fan) for f in (1, 3, 5, 6)] == [2000, 8000, 32000, 32000]
    with pytest.raises(ValueError):
        BloodshedRules(tsumo_bonus="double")


def test_claim_b1_tsumo_and_ron_arithmetic():
    """CLAIMS.md B1 facts: 1-fan tsumo as first winner receives 6000, 3-fan tsumo 15000, 3-fan ron 4000."""
    cheap = score_request({"hand": "123m456m789m234p55p", "void": "s", "tsumo": True})
    assert cheap["fan"] == 1 and 3 * cheap["tsumo_payment"] == 6000
    flush = score_request({"hand": "123456789m23455m", "void": "s", "tsumo": True})
    assert flush["pattern"] == "清一色" and flush["fan"] == 3 and 3 * flush["tsumo_payment"] == 15000
    flush_ron = score_request({"hand": "123456789m23455m", "void": "s"})
    assert flush_ron["value"] == 4000 and "tsumo_payment" not in flush_ron


# --- B-19a: every pattern --------------------------------------------------------------------------

@pytest.mark.parametrize("name, hand, melds, dealer, flags, fan", [
    ("地和", "123m456m789m123p55p", (), False, FIRST_DRAW, 6),
    ("天和", "123m456m789m123p55p", (), True, FIRST_DRAW, 6),
    ("清十八罗汉", "11m", ("kan 2222m", "kan 3333m", "ankan 4444m", "kakan 5555m"), False, 0, 6),
    ("十八罗汉", "11m", ("kan 2222p", "kan 3333m", "ankan 4444s", "kakan 5555m"), False, 0, 6),
    ("清龙七对", "11112233445566m", (), False, 0, 6),
    ("清幺九", "11123777888999m", (), False, 0, 5),
    ("清金钩钓", "22m", ("pon 333m", "pon 555m", "pon 777m", "pon 999m"), False, 0, 5),
    ("清七对", "11223355667799m", (), False, 0, 5),
    ("龙七对", "1111m33m55p77p99s22s", (), False, 0, 4),
    ("将对", "222555m888p22255s", (), False, 0, 4),
    ("清对", "11133355577799m", (), False, 0, 4),
    ("金钩钓", "33m", ("pon 555p", "pon 777s", "pon 111m", "pon 666p"), False, 0, 3),
    ("带幺九", "123m789m111p789s99p", (), False, 0, 3),
    ("七对子", "11m33m55p77p99s22s44s", (), False, 0, 3),
    ("清一色", "123456789m23455m", (), False, 0, 3),
    ("对对和", "11122m555p777999s", (), False, 0, 2),
    ("底和", "123m456m789p234s55s", (), False, 0, 1),
])
def test_rule_b19a_each_pattern(name, hand, melds, dealer, flags, fan):
    """B-19a: the named pattern and its fan, no 根 or bonus involved."""
    detail = score(hand, melds, dealer=dealer, tsumo=bool(flags & FIRST_DRAW), flags=flags)
    assert detail["pattern_name"] == name
    assert detail["raw_fan"] == fan == dict((n, f) for _, n, f in PATTERNS)[name]
    assert detail["value"] == fan_value(fan)


def test_rule_b19a_patterns_in_priority_order():
    assert [name for _, name, _ in PATTERNS] == [
        "地和", "天和", "清十八罗汉", "十八罗汉", "清龙七对", "清幺九", "清金钩钓", "清七对", "龙七对", "将对",
        "清对", "金钩钓", "带幺九", "七对子", "清一色", "对对和", "底和"]
    assert [code for code, _, _ in PATTERNS] == list(range(17))


@pytest.mark.parametrize("hand, melds, expected, why", [
    ("22m", ("pon 333m", "pon 555m", "pon 777m", "pon 999m"), "清金钩钓", "清金钩钓 before 清对 and 金钩钓"),
    ("22m", ("pon 555p", "pon 888s", "pon 222s", "pon 555s"), "将对", "将对 before 金钩钓 and 对对和"),
    ("99s", ("pon 111m", "pon 999m", "pon 111p", "pon 999p"), "金钩钓", "金钩钓 before 带幺九 (both 3 fan)"),
    ("111999m111999p99s", (), "带幺九", "带幺九 before 对对和"),
    ("11m", ("kan 2222m", "kan 5555m", "ankan 4444m", "kan 7777m"),
     "清十八罗汉", "十八罗汉 before 清金钩钓/清对"),
])
def test_rule_b19a_priority_conflicts(hand, melds, expected, why):
    """B-19a: exactly one base pattern, the first in priority order that applies."""
    assert score(hand, melds)["pattern_name"] == expected, why


def test_rule_b19a_first_draw_overrides_seven_pairs_without_dragon_adjustment():
    """B-19a/B-19b: 天和 comes first; the 龙七对 −1 on 根 does not apply to 天和."""
    detail = score("11112233445566m", dealer=True, tsumo=True, flags=FIRST_DRAW)
    assert detail["pattern_name"] == "天和" and detail["gen"] == 1 and detail["raw_fan"] == 7


@pytest.mark.parametrize("hand, expected, value", [
    ("11122233344455m", "清对", 8000),          # 111 222 333 444 55 beats 123 123 123 44455 (清一色)
    ("11223355667799m", "清七对", 16000),       # seven pairs beats 123 123 567 567 99 (清一色)
    ("111222333m789p99p", "带幺九", 4000),      # 123 123 123 789 99 beats 111 222 333 (底和)
])
def test_rule_b19a_best_decomposition_counts(hand, expected, value):
    """B-19a last sentence: among several decompositions the one of highest value counts."""
    detail = score(hand)
    assert detail["pattern_name"] == expected and detail["value"] == value


# --- B-19b: 根 ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("hand, melds, gen, fan, case", [
    ("123m456p789p11s", ("ankan 5555s",), 1, 2, "closed kan"),
    ("123m456p789p11s", ("kan 5555s",), 1, 2, "open kan"),
    ("456p123m789m11s", ("pon 555p",), 1, 2, "pon + fourth copy in a sequence"),
    ("122333344455m55p", (), 1, 2, "four copies spread over sequences (123 234 345 345)"),
    ("111123m567p789s99p", (), 1, 2, "triplet + fourth copy in a sequence"),
    ("1111m2222m33p44p55s", (), 1, 5, "龙七对 with two fours: 2 − 1"),
    ("1111m33m55p77p99s22s", (), 0, 4, "龙七对 with one four: 1 − 1"),
    ("11m", ("kan 2222p", "kan 3333m", "ankan 4444s", "kakan 5555m"), 0, 6, "十八罗汉: 4 − 4"),
])
def test_rule_b19b_gen(hand, melds, gen, fan, case):
    """B-19b: 根 = ⌊copies/4⌋ per kind over hand and melds, −1 for 龙七对, −4 for 十八罗汉."""
    detail = score(hand, melds)
    assert detail["gen"] == gen, case
    assert detail["bonuses"]["根"] == gen
    assert detail["raw_fan"] == fan, case


def test_rule_b17_robbed_kan_pon_gives_no_gen():
    """B-17: the robbed player's meld stays a pon, so it gives no 根 when they win later."""
    assert score("123m456p789p11s", ("pon 555s",))["gen"] == 0


@pytest.mark.parametrize("flag, tsumo, bonus", [
    (KAN_DRAW, True, "杠上花"), (KAN_DISCARD, False, "杠上炮"), (ROBBED_KAN, False, "抢杠"),
    (LAST_TILE, True, "海底捞月"), (LAST_TILE, False, "海底捞月"),
])
def test_rule_b19b_situational_bonus(flag, tsumo, bonus):
    """B-19b: 杠上花, 杠上炮, 抢杠, 海底捞月 each add 1 fan to the base pattern."""
    melds = ("ankan 5555s",) if flag == KAN_DRAW else ()
    hand = "123m456p789p11s" if melds else "123m456m789p234s55s"
    plain = score(hand, melds, tsumo=tsumo)
    detail = score(hand, melds, tsumo=tsumo, flags=flag)
    assert detail["raw_fan"] == plain["raw_fan"] + 1
    assert detail["bonuses"][bonus] == 1
    assert sum(detail["bonuses"][b] for b in BONUSES[1:]) == 1


def test_rule_b19_cap_at_six_fan():
    """B-19: raw fan above 6 is capped (清一色 3 + 2 根 + 杠上花 + 海底 = 7 → 6, 32000)."""
    detail = score("111123678m99m", ("ankan 5555m",), tsumo=True, flags=KAN_DRAW | LAST_TILE)
    assert detail["pattern_name"] == "清一色" and detail["gen"] == 2
    assert detail["raw_fan"] == 7 and detail["fan"] == 6 and detail["value"] == 32000
    assert detail["tsumo_payment"] == 33000


# --- B-19c ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("hand, pattern, off, on", [
    ("11123777888999m", "清幺九", 5, 8),   # + 带幺九 3
    ("222555m888p22255s", "将对", 4, 6),   # + 对对和 2
    ("123m789m111p789s99p", "带幺九", 3, 3),  # not a listed pair: no stacking
    ("11122m555p777999s", "对对和", 2, 2),
])
def test_rule_b19c_stack_known_bugs(hand, pattern, off, on):
    """B-19c: off (default) = single pattern; on = 带幺九 stacks with 清幺九, 对对和 with 将对."""
    plain, stacked = score(hand), score(hand, rules=STACKED)
    assert plain["pattern_name"] == stacked["pattern_name"] == pattern
    assert (plain["raw_fan"], stacked["raw_fan"]) == (off, on)
    assert stacked["stacked"] == (on != off) and not plain["stacked"]


# --- B-10 seven pairs, B-7 void ------------------------------------------------------------------------

def test_rule_b10_identical_pairs_count_as_seven_pairs():
    """B-10: four of a kind in the hand counts as two pairs."""
    detail = score("1111m33m55p77p99s22s")
    assert detail["pattern_name"] == "龙七对"


def test_rule_b7_has_void_tile_sees_hand_and_melds():
    concealed, meld_type = _arrays("123m456m789m11p", ("pon 555p",))
    assert has_void_tile(concealed, meld_type, 1)
    assert not has_void_tile(concealed, meld_type, 2)
    concealed, meld_type = _arrays("123m456m789m11m", ("pon 555p",))
    assert has_void_tile(concealed, meld_type, 1)  # the meld alone


def test_incomplete_returns_zero():
    concealed, meld_type = _arrays("123m456m789p234s56s")
    assert score_win(concealed, meld_type, False, False, 0, DEFAULT) == 0
    assert unpack_pattern(0) == -1


def test_packed_fields_agree_with_detail():
    concealed, meld_type = _arrays("111123678m99m", ("ankan 5555m",))
    packed = score_win(concealed, meld_type, False, True, KAN_DRAW, DEFAULT)
    assert unpack_fan(packed) == 6 and unpack_value(packed) == 32000
    assert PATTERNS[unpack_pattern(packed)][1] == "清一色"


# --- B-20 max ron value ---------------------------------------------------------------------------------

def _max_value(hand: str, melds=()) -> int:
    concealed, meld_type = _arrays(hand, melds)
    return int(max_ron_value(concealed, meld_type, DEFAULT))


def _brute_max(hand: str, melds=()) -> int:
    """Independent loop over all 27 kinds through the calculator (ron, no flags)."""
    best = 0
    concealed, meld_type = _arrays(hand, melds)
    for kind in range(27):
        held = concealed[kind] + (3 if meld_type[kind] == 2 else 4 if meld_type[kind] else 0)
        if held >= 4:
            continue
        c = concealed.copy()
        c[kind] += 1
        detail = score_detail(c, meld_type, False, False, 0, DEFAULT)
        if detail:
            best = max(best, detail["value"])
    return best


@pytest.mark.parametrize("hand, melds, expected", [
    ("2233445566778m", (), 16000),             # 8m: 清七对 (5) beats 清一色 on 8m/5m
    ("123p456p789p55p23p", (), 4000),          # 1p/4p: 清一色
    ("123m456p789s1122s", (), 1000),           # 1s/2s shanpon: 底和
    ("1m", ("kan 2222m", "kan 3333m", "ankan 4444m", "kakan 5555m"), 32000),  # 清十八罗汉
    ("1111m234p567p789s", (), 0),              # only 1m would win, all four are held
    ("5p123m456m789m", ("pon 555p",), 0),      # tanki on 5p with the pon + the fourth in hand
    ("13579m13579p135s", (), 0),               # noten
])
def test_rule_b20_max_ron_value(hand, melds, expected):
    """B-20: highest ron value over winning tiles; a kind held 4 times is not a winning tile."""
    assert _max_value(hand, melds) == expected == _brute_max(hand, melds)


def test_rule_b20_max_value_has_no_situational_bonus():
    """B-20: the draw value counts base pattern + 根 only (here 底和 + 1 根 from the kan)."""
    assert _max_value("123m456p789p1s", ("ankan 5555s",)) == 2000


# --- calculator --------------------------------------------------------------------------------------

def test_calculator_output_keys():
    out = score_request({"variant": "bloodshed", "hand": "123p456p789p11s", "melds": ["ankan 5555s"],
                         "win_tile": "1s", "tsumo": True, "void": "m", "dealer": False,
                         "flags": ["kan_draw", "last_tile"]})
    assert out == {"fan": 4, "raw_fan": 4, "pattern": "底和", "bonuses": {"根": 1, "杠上花": 1, "海底捞月": 1},
                   "value": 8000, "tsumo_payment": 9000}


def test_calculator_void_and_incomplete_markers():
    assert score_request({"hand": "123m456m789m123p55p", "void": "p"}) == {"win": None, "reason": "void"}
    assert score_request({"hand": "123m456m789m11s", "melds": ["pon 555p"], "void": "p"})["reason"] == "void"
    assert score_request({"hand": "123m456m789m13579s", "void": "p"}) == {"win": None, "reason": "incomplete"}


def test_calculator_stacked_pattern_key():
    out = score_request({"hand": "11123777888999m", "void": "s", "rules": {"stack_known_bugs": True}})
    assert out["raw_fan"] == 8 and out["fan"] == 6 and out["stacked_pattern"] == "带幺九"
    out = score_request({"hand": "11123777888999m", "void": "s"}, BloodshedRules(stack_known_bugs=True))
    assert out["stacked_pattern"] == "带幺九"
    assert "stacked_pattern" not in score_request({"hand": "11123777888999m", "void": "s"})


@pytest.mark.parametrize("obj, error, text", [
    ({"hand": "123m456m789m234s55s", "void": "p", "flags": ["rinshan"]}, ValueError, "unknown flag"),
    ({"hand": "123m456m789m234s55s", "void": "z"}, ValueError, "'void'"),
    ({"hand": "123m456m789m234s55s"}, ValueError, "'void' is required"),
    ({"hand": "123m406m789m11s55s", "void": "p"}, TileError, "red five"),
    ({"hand": "123m456m789m11z55s", "void": "p"}, TileError, "honor"),
    ({"hand": "456m789m11s55s", "melds": ["chi 123m"], "void": "p"}, TileError, "no chi"),
    ({"hand": "5m456m789m11s55s", "melds": ["pon 555m"], "void": "p"}, TileError, "5 copies of 5m"),
    ({"hand": "123m456p789p11s", "melds": ["ankan 5555s"], "void": "m", "flags": ["kan_draw"]},
     ValueError, "needs tsumo"),
    ({"hand": "123m456m789m234s55s", "void": "p", "tsumo": True, "flags": ["kan_draw"]}, ValueError, "needs a kan"),
    ({"hand": "123m456m789m234s55s", "void": "p", "tsumo": True, "flags": ["robbed_kan"]}, ValueError, "is a ron"),
    ({"hand": "123m456m789m234s55s", "void": "p", "flags": ["first_draw"]}, ValueError, "needs tsumo"),
    ({"hand": "123m456m789m11s", "melds": ["pon 555s"], "void": "p", "tsumo": True, "flags": ["first_draw"]},
     ValueError, "impossible with melds"),
    ({"hand": "123m456m789m234s55s", "void": "p", "flags": ["robbed_kan", "last_tile"]}, ValueError, "robbed_kan"),
    ({"hand": "123m456m789m234s55s", "void": "p", "win_tile": "5s", "flags": ["robbed_kan"]}, ValueError,
     "only the robbed one"),
    ({"hand": "123m456m789m234s55s", "void": "p", "win_tile": "9s"}, ValueError, "not in hand"),
    ({"hand": "123m456m789m234s55s", "void": "p", "tsumo": "yes"}, ValueError, "true or false"),
    ({"hand": "123m456m789m234s55s", "void": "p", "riichi": True}, ValueError, "unknown key"),
    ({"hand": "123m456m789m234s55s", "void": "p", "variant": "shura"}, ValueError, "variant"),
    ({"hand": "123m456m789m11s5s", "void": "p"}, ValueError, "14 tiles"),
])
def test_calculator_validation(obj, error, text):
    with pytest.raises(error, match=text):
        score_request(obj)
