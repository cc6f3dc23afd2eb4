"""Scripted riichi hands (issue 14) from a hand-built wall and given decisions: the abortive draws of R-5 (nine
terminals, four winds, four riichi, four kans by several players) and the triple ron of R-3, which Mahjong Soul
does not abort. Each asserts the hand's end as recorded (`hand_end`, the EV_ABORT event), the payments, and
where the next hand stands (dealer, honba, sticks: R-2, R-5), as sims.riichi.engine.close_hand sets it.

Kuikae, the robbed kan and the double ron are in tests/test_riichi_positions.py; each special mode's moment is in
its tests/test_mode_*.py file. The helpers (build_wall, default_answer, events_of, next_hand) are fixtures of
tests/conftest.py.
"""

from __future__ import annotations

import pytest

from tsumolab.policies.registry import parse_seats
from tsumolab.policies.riichi_api import D_REACT, D_TURN, KAN, NINE_TERMINALS, PASS, RIICHI, ROBS, RON
from tsumolab.sims.events import EV_DISCARD, EV_DRAW, EV_KAN, EV_WIN
from tsumolab.sims.riichi.columns import HAND_ENDS, H_DELTA, H_END, H_STICKS_WON, H_WINNERS, H_WON
from tsumolab.sims.riichi.events import EV_ABORT, EV_RIICHI
from tsumolab.sims.riichi.positions import HandContext, RiichiEngine
from tsumolab.sims.riichi.rules import STANDARD, RiichiRules as Rules

EV_SEAT, EV_TILE, EV_A = 3, 4, 5
END = {name: i for i, name in enumerate(HAND_ENDS)}
# E1, 1 honba, 2 riichi sticks on the table (points + sticks = 100000): the abortive draws must carry both on
CONTEXT = HandContext(dealer=0, round=0, honba=1, sticks=2, points=(25_000, 24_000, 25_000, 24_000))
SEATS = "baseline"


def _table(rules=STANDARD):
    return RiichiEngine(parse_seats(SEATS), rules, keep_events=True)


def _assert_aborted(pos, end, events_of):
    """The hand ended in the abortive draw `end` with one EV_ABORT event and nobody winning."""
    assert pos.over
    assert (pos.rec[:, H_END] == END[end]).all()
    aborts = events_of(pos, EV_ABORT)
    assert aborts.shape[0] == 1 and aborts[0, EV_A] == END[end]
    assert events_of(pos, EV_WIN).shape[0] == 0 and (pos.rec[:, H_WON] == 0).all()
    return aborts[0]


# --------------------------------------------------------------------------- R-5 nine terminals
NINE = "19m19p19s1234z567m"  # ten terminal / honor kinds and three simples (11 kinds with a 5z draw)


@pytest.mark.parametrize("seat", [0, 1])
def test_rule_r5_nine_terminals_aborts_without_payment_dealer_keeps_honba_up(seat, build_wall, default_answer,
                                                                             events_of, next_hand):
    """R-5 nine terminals (player's choice): the seat's first draw gives it 11 terminal / honor kinds, it is
    offered NINE_TERMINALS (ROBS.can_nine) and takes it: the hand ends `nine_terminals` at once (no discard by
    the seat), no points move, and the next hand is the same round with the same dealer, honba 1 → 2 and the
    2 sticks still on the table. The dealer declares on its 14th tile, a non-dealer on its first draw."""
    hands = {0: "2345678m2345p88p", 1: "2345678p2345s66m", 2: "3456789s3456m77p", 3: "2233445566778s"}
    hands[seat] = NINE
    draws = "5z" if seat == 0 else "8p5z"
    table = _table()
    pos = table.start(wall=build_wall(hands, draws), context=CONTEXT)
    seen = []

    def choose(pos):
        if pos.decision == D_TURN:
            seen.append((pos.seat, int(pos.view[ROBS.can_nine])))
            if pos.seat == seat:
                return NINE_TERMINALS
        return default_answer(pos)

    table.play_scripted(pos, choose)
    assert seen[-1] == (seat, 1) and all(can == 0 for s, can in seen[:-1])
    abort = _assert_aborted(pos, "nine_terminals", events_of)
    assert abort[EV_SEAT] == seat
    assert events_of(pos, EV_DISCARD, seat).shape[0] == 0
    assert (pos.rec[:, H_DELTA] == 0).all() and (pos.deltas == 0).all()
    assert next_hand(pos) == {"dealer": 0, "round": 0, "honba": 2, "sticks": 2}


def test_rule_r5_nine_terminals_is_the_players_choice(build_wall, default_answer, events_of):
    """R-5: declining nine terminals (discarding instead) lets the hand go on; on a later turn it is no longer
    offered (first uninterrupted turn only)."""
    table = _table()
    pos = table.start(wall=build_wall({0: NINE, 1: "2345678p2345s66m", 2: "3456789s3456m77p", 3: "2233445566778s"},
                                      "5z"), context=CONTEXT)
    offered = []

    def choose(pos):
        if pos.decision == D_TURN and pos.seat == 0:
            offered.append(int(pos.view[ROBS.can_nine]))
        return default_answer(pos)

    table.play_scripted(pos, choose)
    assert offered[0] == 1 and len(offered) > 1 and not any(offered[1:])
    assert events_of(pos, EV_ABORT).shape[0] == 0
    assert pos.rec[0, H_END] != END["nine_terminals"]


# --------------------------------------------------------------------------- R-5 four winds
@pytest.mark.parametrize("last_wind", [27, 28], ids=["all-east", "south-last"])
def test_rule_r5_four_winds_same_wind_by_all_four_on_the_first_go_around(last_wind, build_wall, default_answer,
                                                                          events_of, next_hand):
    """R-5 four winds: the four seats discard East on their first turns, no call in between: the hand ends
    `four_winds` right after the fourth East (nobody draws again), without payment; dealer keeps, honba +1,
    sticks stay. When the fourth seat discards South instead, the hand goes on."""
    hands = {0: "1z2345678m2345p9s", 1: "1z2345678p2345s9m", 2: "1z2345678s3456m9p", 3: "12z234567m34567p"}
    table = _table()
    pos = table.start(wall=build_wall(hands, "9m9p9s9m"), context=CONTEXT)

    def choose(pos):
        if pos.decision == D_TURN and pos.view[ROBS.hand + 27] > 0 and pos.seat < 3:
            return 27
        if pos.decision == D_TURN and pos.seat == 3 and pos.view[ROBS.hand + last_wind] > 0:
            return last_wind
        return default_answer(pos)

    table.play_scripted(pos, choose)
    firsts = [int(events_of(pos, EV_DISCARD, s)[0, EV_TILE]) for s in range(4)]
    assert firsts == [27, 27, 27, last_wind]
    if last_wind == 28:
        assert events_of(pos, EV_ABORT).shape[0] == 0 and pos.rec[0, H_END] != END["four_winds"]
        return
    abort = _assert_aborted(pos, "four_winds", events_of)
    assert abort[EV_SEAT] == 3
    assert events_of(pos, EV_DISCARD).shape[0] == 4 and events_of(pos, EV_DRAW).shape[0] == 4
    assert (pos.rec[:, H_DELTA] == 0).all()
    assert next_hand(pos) == {"dealer": 0, "round": 0, "honba": 2, "sticks": 2}


# --------------------------------------------------------------------------- R-5 four riichi
# every seat is tenpai from the deal and declares riichi discarding a wind it draws (winds all different)
RIICHI_HANDS = {0: "123456789m123p4p", 1: "123456789s456p7p", 2: "234567m234p5678s", 3: "555z666z777z99m99p"}


def test_rule_r5_four_riichi_aborts_sticks_stay_on_the_table(build_wall, default_answer, events_of, next_hand):
    """R-5 four riichi: all four seats declare riichi on their first discards (double riichi) and nobody rons:
    after the fourth stick is paid the hand ends `four_riichi`. Each seat paid its 1000 stick and nothing else;
    the four sticks stay on the table with the 2 already there (6 for the next hand, R-2); dealer keeps, honba
    1 → 2."""
    table = _table()
    pos = table.start(wall=build_wall(RIICHI_HANDS, "1z2z3z4z"), context=CONTEXT)
    declared = []

    def choose(pos):
        view = pos.view
        if pos.decision == D_TURN and view[ROBS.can_riichi] and view[ROBS.tile] >= 27:
            declared.append(pos.seat)
            return RIICHI + int(view[ROBS.tile])
        return default_answer(pos)

    table.play_scripted(pos, choose)
    assert declared == [0, 1, 2, 3]
    assert events_of(pos, EV_RIICHI).shape[0] == 4
    abort = _assert_aborted(pos, "four_riichi", events_of)
    assert abort[EV_SEAT] == 3
    assert events_of(pos, EV_DRAW).shape[0] == 4
    assert pos.rec[:, H_DELTA].tolist() == [-1000] * 4
    assert next_hand(pos) == {"dealer": 0, "round": 0, "honba": 2, "sticks": 6}


# --------------------------------------------------------------------------- R-5 four kans
@pytest.mark.parametrize("several", [True, False], ids=["two-players", "one-player"])
def test_rule_r5_four_kans_by_more_than_one_player_abort(several, build_wall, default_answer, events_of,
                                                         next_hand):
    """R-5 four kans: the dealer makes two closed kans and seat 1 two more, then seat 1's discard passes: the
    hand ends `four_kans`, no payment, dealer keeps, honba +1. Four kans by one player (the dealer kans four
    quads in a row) do not abort: the hand goes on (the suukantsu chance)."""
    if several:
        hands = {0: "1111m9999p23457s", 1: "2222p8888p34567m", 2: "3456789s3456m77p", 3: "3344556677889m"}
        draws, dead, kans = "1z2z", {122: 27, 123: 28, 124: 29, 125: 30}, {0: (0, 17), 1: (10, 16)}
    else:
        hands = {0: "1111m9999p1111s5z", 1: "2345678p2345s66m", 2: "3456789s3456m77p", 3: "2233445566778s"}
        draws, dead, kans = "1z", {122: 31, 123: 31, 124: 31, 125: 32}, {0: (0, 17, 18, 31)}
    table = _table()
    pos = table.start(wall=build_wall(hands, draws, at=dead), context=CONTEXT)

    def choose(pos):
        view = pos.view
        if pos.decision == D_TURN:
            for k in kans.get(pos.seat, ()):
                if view[ROBS.kan_options + k] == 1:
                    return KAN + k
        return default_answer(pos)

    table.play_scripted(pos, choose)
    made = events_of(pos, EV_KAN)
    assert sorted(made[:, EV_TILE].tolist()) == sorted(k for ks in kans.values() for k in ks)
    if not several:
        assert events_of(pos, EV_ABORT).shape[0] == 0 and pos.rec[0, H_END] == END["exhaustive"]
        return
    abort = _assert_aborted(pos, "four_kans", events_of)
    assert abort[EV_SEAT] == 1
    assert events_of(pos, EV_DISCARD).shape[0] == 2  # the dealer's discard, then seat 1's after its kans
    assert (pos.rec[:, H_DELTA] == 0).all()
    assert next_hand(pos) == {"dealer": 0, "round": 0, "honba": 2, "sticks": 2}


# --------------------------------------------------------------------------- R-3 triple ron
@pytest.mark.parametrize("every", [False, True], ids=["honba-to-first", "honba-every-winner"])
def test_rule_r3_triple_ron_is_a_win_not_an_abortive_draw(every, build_wall, default_answer, events_of,
                                                          next_hand):
    """R-3: three seats ron the dealer's 4p (each tanyao + pinfu, 2 han 30 fu = 2000 for a non-dealer): the
    hand is a win, not an abortive draw. The dealer pays every winner 2000; the 2 sticks (2000) and the honba
    bonus (300) go to seat 1 only, the first winner in turn order after the discarder; option
    honba_every_winner gives each winner the 300. No renchan (the dealer did not win): next dealer seat 1,
    honba 0, no sticks left."""
    hands = {0: "4p11z22z33z44z567z9m", 1: "23p234m678m678s22s",
             2: "56p234s678p345m88m", 3: "23p456m345s678m77p"}
    table = _table(Rules(honba_every_winner=every))
    # dora indicator 5z (dora 6z, held by no winner); the dealer draws 9s and discards 4p
    pos = table.start(wall=build_wall(hands, "9s", at={126: 31}), context=CONTEXT)
    asked = []

    def choose(pos):
        view = pos.view
        if pos.decision == D_TURN and pos.seat == 0 and view[ROBS.hand + 12] > 0:
            return 12
        if pos.decision == D_REACT and view[ROBS.can_win]:
            asked.append(pos.seat)
            return RON
        return default_answer(pos) if pos.decision != D_REACT else PASS

    table.play_scripted(pos, choose)
    assert asked == [1, 2, 3]
    wins = events_of(pos, EV_WIN)
    assert sorted(wins[:, EV_SEAT].tolist()) == [1, 2, 3] and (wins[:, EV_TILE] == 12).all()
    assert (pos.rec[:, H_END] == END["win"]).all() and (pos.rec[:, H_WINNERS] == 3).all()
    assert events_of(pos, EV_ABORT).shape[0] == 0
    honba = 300 if every else 0
    assert pos.rec[:, H_DELTA].tolist() == [-(6300 + 2 * honba), 2000 + 300 + 2000, 2000 + honba, 2000 + honba]
    assert pos.rec[:, H_STICKS_WON].tolist() == [0, 2, 0, 0]
    assert next_hand(pos) == {"dealer": 1, "round": 1, "honba": 0, "sticks": 0}


def test_scripted_walls_deal_what_they_say(build_wall, tile_kinds):
    """The wall helper: hands from position 13·seat, draws from 52, single tiles where `at` says, the red five
    only once the three plain copies are used."""
    wall = build_wall({0: "123m456p789s1234z", 1: "555m2345678p111s"}, "5m7z", at={126: 33})
    assert sorted(wall.tolist()) == list(range(136))
    assert (wall[:13] // 4).tolist() == tile_kinds("123m456p789s1234z") == [0, 1, 2, 12, 13, 14, 24, 25, 26, 27,
                                                                            28, 29, 30]
    assert (wall[13:26] // 4).tolist() == tile_kinds("555m2345678p111s")
    assert (wall[52:54] // 4).tolist() == [4, 33] and wall[126] // 4 == 33
    assert sorted(wall[13:16].tolist()) == [17, 18, 19] and wall[52] == 16
