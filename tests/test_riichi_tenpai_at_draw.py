"""R-6: who is tenpai at an exhaustive draw in the riichi-based modes (noten payments, dealer renchan R-2).

A hand waiting only on a tile whose four copies it holds in its concealed part can never win and is noten; a hand
waiting on a tile whose other copies sit in its own meld (a kan of the waited tile) is tenpai, as Mahjong Soul
scores it (riichi.wiki "Karaten" shows a Mahjong Soul log of the kan case called tenpai) and as riichienv does.
Found by the riichienv differential test (tests/test_riichienv_diff.py): seed 3, seats
random,majsoul-cpu,baseline,random, match 150 hand 8 (seat 1, closed kan of 7m) before this fix.
"""

from __future__ import annotations

import numpy as np

from tsumolab.analyzer.tables import hand_table
from tsumolab.policies.registry import parse_seats
from tsumolab.sims import shanten_tables
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi.settle import tenpai_at_draw
from tsumolab.sims.tiles import parse_tiles

SUIT_T, HONOR_T = shanten_tables.get_tables()


def _tenpai(text: str, n_melds: int) -> bool:
    return bool(tenpai_at_draw(parse_tiles(text)[0], n_melds, SUIT_T, HONOR_T, np.zeros(34, np.int64)))


def test_rule_r6_wait_in_own_kan_is_tenpai():
    """R-6: 68m with a closed kan of 7m waits only on 7m, all of it in the seat's own kan: tenpai all the same."""
    assert _tenpai("68m123p456p99s", 1)


def test_rule_r6_wait_held_four_times_in_hand_is_noten():
    """R-6: 1111m waits only on a fifth 1m: noten (the concealed hand holds all four copies)."""
    assert not _tenpai("1111m234p567p789s", 0)


def test_rule_r6_ordinary_waits():
    """R-6: a live wait is tenpai, a one-shanten hand is not."""
    assert _tenpai("68m123p456p789s99s", 0)
    assert not _tenpai("68m123p456p789s19s", 0)


def test_rule_r6_simulated_kan_waits_are_tenpai_at_the_draw():
    """R-6, R-2: in two simulated hands a seat waits on a kanchan whose tile it holds as a closed kan (seed 3, seats
    random,majsoul-cpu,baseline,random: match 150 hand 8 seat 1 waits on 7m with a kan of 7m; match 428 hand 4
    seat 2 on 8p with a kan of 8p); both are tenpai at the exhaustive draw and take their noten payments."""
    mode = get_mode("riichi")
    seats = parse_seats("random,majsoul-cpu,baseline,random")
    hand_rows, _ = mode.simulate(3, np.array([150, 428]), seats)
    hands = hand_table(hand_rows, seats, mode)
    for match_id, hand_no, seat, payment in ((150, 8, 1, 3000), (428, 4, 2, 3000)):
        row = hands.filter((hands["match_id"] == match_id) & (hands["hand"] == hand_no) & (hands["seat"] == seat))
        assert row["hand_end"].item() == "exhaustive"
        assert row["tenpai_at_draw"].item()
        assert row["noten_payment"].item() == payment
