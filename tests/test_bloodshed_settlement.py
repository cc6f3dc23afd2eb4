"""Exhaustive-draw settlement: RULES.md B-20 (tenpai, max value), B-21 退税, B-22 查花猪, B-23 查大叫,
through the njit kernel and the `tsumolab settle` calculator."""

from __future__ import annotations

import numpy as np
import pytest

from tsumolab.sims.bloodshed.calculator import settle_request
from tsumolab.sims.bloodshed.rules import BloodshedRules
from tsumolab.sims.bloodshed.settlement import ROW_DAJIAO, ROW_PIG, ROW_REFUND, new_outputs, settle_exhaustive_draw
from tsumolab.sims.tiles import TileError, parse_tiles

# Hands of the B-23 worked example (source 001); all hands of one test fit one 108-tile set.
A_16000 = {"hand": "2233445566778m", "void": "s"}     # tanki 8m: 清七对, 16000
B_4000 = {"hand": "123p456p789p55p23p", "void": "m"}  # 1p/4p: 清一色, 4000
C_NOTEN = {"hand": "111444777s1479p", "void": "m"}    # not tenpai
D_PIG = {"hand": "12345678999m68p", "void": "p"}      # tenpai shape (7p kanchan) but holds void tiles
NOTEN_MS = {"hand": "113579m1355799s", "void": "p"}   # not tenpai
TENPAI_MP = {"hand": "123m456m789p1122p", "void": "s"}  # 1p/2p: 底和, 1000


def players(*seats: dict) -> dict:
    return {"players": [dict(s) for s in seats]}


def test_rule_b23_worked_example():
    """B-23 (source 001): A +32000, B +12000, C −12000, D −32000."""
    out = settle_request(players(A_16000, B_4000, C_NOTEN, D_PIG))
    assert out["max_value"][:2] == [16000, 4000]
    assert out["tenpai"] == [True, True, False, False]
    assert out["flower_pig"] == [False, False, False, True]
    assert out["deltas"] == [32000, 12000, -12000, -32000]
    assert out["breakdown"]["dajiao"] == [16000, 4000, -20000, 0]
    assert out["breakdown"]["flower_pig"] == [16000, 8000, 8000, -32000]
    assert out["breakdown"]["refund"] == [0, 0, 0, 0]


def test_rule_b22_two_flower_pigs_pay_each_other_8000():
    """B-22: a pig pays every other non-won player max(8000, max value), another pig 8000."""
    pig_a = {"hand": "12345678999m68p", "void": "p"}
    pig_b = {"hand": "11223344556p78m", "void": "m"}
    tenpai_1000 = {"hand": "123s456s789s2233p", "void": "m"}  # 2p/3p: 底和, 1000
    noten = {"hand": "13579m11337799s", "void": "p"}
    out = settle_request(players(pig_a, pig_b, tenpai_1000, noten))
    assert out["flower_pig"] == [True, True, False, False]
    assert out["tenpai"] == [False, False, True, False] and out["max_value"][2] == 1000
    assert out["breakdown"]["flower_pig"] == [-24000 + 8000, -24000 + 8000, 16000, 16000]
    assert out["breakdown"]["dajiao"] == [0, 0, 1000, -1000]  # pigs take no part in 查大叫


def test_rule_b22_won_players_neither_pay_nor_receive():
    """B-20/B-22/B-23: won players are skipped; the pig pays the 16000 tenpai player 16000."""
    out = settle_request(players(A_16000, {"won": True}, C_NOTEN, D_PIG))
    assert out["deltas"] == [16000 + 16000, 0, -16000 + 8000, -16000 - 8000]
    assert out["tenpai"][1] is False and out["flower_pig"][1] is False


def test_rule_b23_nobody_tenpai_nobody_pays():
    out = settle_request(players(C_NOTEN, NOTEN_MS, {"won": True}, {"won": True}))
    assert out["deltas"] == [0, 0, 0, 0] and out["tenpai"] == [False, False, False, False]


def test_rule_b20_four_copies_held_is_not_a_wait():
    """B-20: 1111m 456789m 789s waits only on a fifth 1m → not tenpai, pays 查大叫."""
    holder = {"hand": "1111456789m789s", "void": "p"}
    tenpai = {"hand": "123p456p789s1122s", "void": "m"}  # 1s/2s: 底和, 1000
    out = settle_request(players(holder, tenpai, {"won": True}, {"won": True}))
    assert out["tenpai"] == [False, True, False, False]
    assert out["deltas"] == [-1000, 1000, 0, 0]


def _kernel(hands, voids, won, ledger):
    concealed = np.zeros((4, 34), np.int8)
    for seat, text in enumerate(hands):
        if text:
            concealed[seat] = parse_tiles(text)[0]
    outs = new_outputs()
    settle_exhaustive_draw(concealed, np.zeros((4, 34), np.int8), np.array(voids, np.int64),
                           np.array(won, np.bool_), np.array(ledger, np.int64), BloodshedRules().to_array(),
                           *outs)
    return outs


def test_rule_b21_refund_goes_back_even_to_a_payer_who_has_won():
    """B-21: a noten player returns all kan income, also to a payer who has won since; the tenpai
    player keeps theirs; then 查大叫 (B-23) runs on the rest."""
    ledger = [[0, 2000, 2000, 0],   # seat 0 (noten) got 2000 from seat 1 and 2000 from seat 2 (won later)
              [0, 0, 0, 0],
              [0, 0, 0, 0],
              [1000, 1000, 0, 0]]   # seat 3 (tenpai) got 1000 from seats 0 and 1
    hands = ["113579m1355799s", "111444777s1479p", "", "123p456p789p2233m"]  # noten, noten, won, 2m/3m 1000
    deltas, tenpai, pig, max_value, breakdown = _kernel(hands, [1, 0, 0, 2], [False, False, True, False], ledger)
    assert list(tenpai) == [False, False, False, True] and max_value[3] == 1000
    assert list(breakdown[ROW_REFUND]) == [-4000, 2000, 2000, 0]
    assert list(breakdown[ROW_DAJIAO]) == [-1000, -1000, 0, 2000]
    assert list(breakdown[ROW_PIG]) == [0, 0, 0, 0]
    assert list(deltas) == [-5000, 1000, 2000, 2000]


def test_rule_b21_flower_pig_refunds_too():
    """B-21: a flower pig is not tenpai, so it returns its kan income as well."""
    ledger = np.zeros((4, 4), np.int64)
    ledger[3, 0] = ledger[3, 1] = ledger[3, 2] = 2000
    hands = [A_16000["hand"], B_4000["hand"], C_NOTEN["hand"], D_PIG["hand"]]
    deltas, tenpai, pig, max_value, breakdown = _kernel(hands, [2, 0, 0, 1], [False] * 4, ledger)
    assert list(breakdown[ROW_REFUND]) == [2000, 2000, 2000, -6000]
    assert list(deltas) == [32000 + 2000, 12000 + 2000, -12000 + 2000, -32000 - 6000]


def test_rule_b21_kan_income_via_calculator():
    """B-21 through `settle`: entries from the same payer add up; the noten receiver returns them."""
    income = [{"from": 1, "amount": 2000}, {"from": 1, "amount": 1000}]
    out = settle_request(players(C_NOTEN | {"kan_income": income}, TENPAI_MP, {"won": True}, {"won": True}))
    assert out["breakdown"]["refund"] == [-3000, 3000, 0, 0]
    assert out["deltas"] == [-3000 - 1000, 3000 + 1000, 0, 0]
    income = [{"from": 0, "amount": 2000}]
    kept = settle_request(players(C_NOTEN, TENPAI_MP | {"kan_income": income}, {"won": True}, {"won": True}))
    assert kept["breakdown"]["refund"] == [0, 0, 0, 0] and kept["deltas"] == [-1000, 1000, 0, 0]


@pytest.mark.parametrize("obj, error, text", [
    ({"players": [A_16000, B_4000, C_NOTEN]}, ValueError, "exactly 4"),
    ({"players": [A_16000, B_4000, C_NOTEN, D_PIG], "mode": 1}, ValueError, "unknown key"),
    ({"players": [A_16000 | {"riichi": True}, B_4000, C_NOTEN, D_PIG]}, ValueError, r"players\[0\].*unknown key"),
    ({"players": [A_16000, B_4000 | {"hand": "123p456p789p55p2p"}, C_NOTEN, D_PIG]}, ValueError, "13 tiles"),
    ({"players": [A_16000, B_4000, C_NOTEN | {"hand": "111444777s1479z"}, D_PIG]}, TileError, "honor"),
    ({"players": [A_16000, B_4000, C_NOTEN, D_PIG | {"void": "x"}]}, ValueError, "'void'"),
    ({"players": [A_16000, B_4000, C_NOTEN, {"hand": "2223334445678m", "void": "s"}]}, TileError,
     "over the four players"),
    ({"players": [A_16000 | {"kan_income": [{"from": 0, "amount": 2000}]}, B_4000, C_NOTEN, D_PIG]},
     ValueError, "themselves"),
    ({"players": [A_16000 | {"kan_income": [{"from": 1, "amount": -5}]}, B_4000, C_NOTEN, D_PIG]},
     ValueError, "positive"),
    ({"players": [A_16000 | {"kan_income": [{"from": 7, "amount": 2000}]}, B_4000, C_NOTEN, D_PIG]},
     ValueError, "seat"),
    ({"players": [A_16000, B_4000, C_NOTEN, D_PIG], "variant": "riichi"}, ValueError, "variant"),
])
def test_settle_validation(obj, error, text):
    with pytest.raises(error, match=text):
        settle_request(obj)
