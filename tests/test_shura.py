"""Battle of Shura (RULES.md S-1 … S-16): settlement examples and invariants of simulated matches."""

import dataclasses

import numpy as np
import polars as pl
import pytest

from tsumolab.policies.registry import parse_seats
from tsumolab.policies.riichi_api import ROBS
from tsumolab.sims.modes import get_mode
from tsumolab.sims.events import N_EVENT_COLS
from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi.columns import N_HAND_COLS
from tsumolab.sims.riichi.scoring import N_RES, RES_TSUMO_DEALER, RES_TSUMO_OTHER, RES_YAKUMAN, payments
from tsumolab.sims.riichi.rules import SHURA, STANDARD, RiichiRules, ShuraRules
from tsumolab.sims.riichi.tableau import N_ST
from tests.riichi_runs import FAST_MATCHES, FULL_MATCHES, per_hand, run

shura = get_mode("shura")


def _table(dealer=0, won=()):
    obs = np.zeros((4, ROBS.SIZE), np.int32)
    obs[:, ROBS.dealer] = dealer
    obs[:, ROBS.points:ROBS.points + 4] = 25000
    for s in won:
        obs[:, ROBS.won + s] = 1
    return obs


def _tsumo(table: RiichiRules, base, winner, dealer, won):
    obs = _table(dealer, won)
    res = np.zeros(N_RES, np.int64)
    _, _, res[RES_TSUMO_DEALER], res[RES_TSUMO_OTHER] = payments(base, winner == dealer, True)
    res[RES_YAKUMAN] = 1 if base == 8000 else 0
    delta = np.zeros(4, np.int64)
    engine.settle_tsumo(obs, np.zeros((N_ST, 34), np.int64), table.to_array(), table.scoring_array(),
                        np.zeros((4, N_HAND_COLS), np.int64), delta, winner, res, 0, 1,
                        np.zeros((0, N_EVENT_COLS), np.int32), np.zeros(3, np.int64), 0)
    return delta


def test_rule_s5_tsumo_loss_example():
    """S-5: non-dealer yakuman tsumo, the dealer already won, two others not: 32000 − 16000 = 16000."""
    delta = _tsumo(SHURA, 8000, winner=1, dealer=0, won=(0,))
    assert delta.tolist() == [0, 16000, -8000, -8000]


def test_rule_s5_shares_are_not_redistributed_and_standard_pays_in_full():
    """S-5: a won non-dealer's share is lost too; without the rule (R-2) every other seat pays."""
    assert _tsumo(SHURA, 2000, winner=0, dealer=0, won=(2,)).tolist() == [8000, -4000, 0, -4000]
    assert _tsumo(STANDARD, 8000, winner=1, dealer=0, won=()).tolist() == [-16000, 32000, -8000, -8000]


def _noten(table, tenpai, won=()):
    obs = _table(0, won)
    delta = np.zeros(4, np.int64)
    engine.noten_payments(obs, table.to_array(), np.array(tenpai), delta, np.zeros((0, N_EVENT_COLS), np.int32),
                          np.zeros(3, np.int64))
    return delta.tolist()


@pytest.mark.parametrize("tenpai, won, expected", [
    ((True, False, False, False), (), [3000, -1000, -1000, -1000]),
    ((True, True, False, False), (), [1500, 1500, -1500, -1500]),
    ((True, True, True, False), (), [1000, 1000, 1000, -3000]),
    ((True, False, False, False), (3,), [2000, -1000, -1000, 0]),
    ((True, True, False, False), (3,), [1000, 1000, -2000, 0]),
    ((True, False, False, False), (2, 3), [1000, -1000, 0, 0]),
    ((False, False, False, False), (3,), [0, 0, 0, 0]),
    ((True, True, False, False), (2, 3), [0, 0, 0, 0]),
])
def test_rule_s6_noten_split_examples(tenpai, won, expected):
    """S-6 (split, the default): the noten non-won players pay (non-won − 1) × 1000 in all, shared by the tenpai."""
    assert _noten(SHURA, tenpai, won) == expected


@pytest.mark.parametrize("tenpai, won, expected", [
    ((True, True, False, False), (), [2000, 2000, -2000, -2000]),
    ((True, False, False, False), (3,), [2000, -1000, -1000, 0]),
])
def test_rule_s6_noten_each_option(tenpai, won, expected):
    """S-6 option noten_rule = each (source 002): every noten player pays 1000 to each tenpai player."""
    assert _noten(dataclasses.replace(SHURA, noten_rule="each"), tenpai, won) == expected


def test_rule_r6_standard_noten_is_3000_split():
    assert _noten(STANDARD, (True, False, False, False)) == [3000, -1000, -1000, -1000]


def _sizes():
    return [pytest.param(FAST_MATCHES, id="fast"), pytest.param(FULL_MATCHES, id="full", marks=pytest.mark.slow)]


@pytest.mark.parametrize("n", _sizes())
def test_rule_s3_at_most_three_winners_and_three_wins_end_the_hand(n):
    for spec, _, hands, _ in run("shura", n):
        h = per_hand(hands)
        assert (h["n_won"] <= 3).all(), spec
        assert (h.filter(pl.col("hand_end") == "three_wins")["n_won"] == 3).all(), spec
        assert (h.filter(pl.col("n_won") == 3)["hand_end"].is_in(["three_wins", "bust"])).all(), spec
    h = per_hand(run("shura", n)[0][2])
    assert (h["n_won"] == 2).any() and (h["n_won"] == 3).any()


@pytest.mark.parametrize("n", _sizes())
def test_rule_s1_s7_four_hands_no_honba_aborts_replay(n):
    """S-1: East only, 4 hands plus replays of aborts, no honba; S-7: next dealer after a played hand."""
    aborts = ("nine_terminals", "four_winds", "four_riichi", "four_kans")
    for spec, _, hands, matches in run("shura", n):
        assert (hands["honba"] == 0).all(), spec
        assert hands["round"].is_in(["E1", "E2", "E3", "E4"]).all(), spec
        h = per_hand(hands)
        for _match_id, g in h.group_by("match_id"):
            rows = g.sort("hand").to_dicts()
            for a, b in zip(rows, rows[1:]):
                if a["hand_end"] in aborts:
                    assert (b["round"], b["dealer_seat"]) == (a["round"], a["dealer_seat"]), spec
                else:
                    assert b["dealer_seat"] == (a["dealer_seat"] + 1) % 4, spec
            played = [r for r in rows if r["hand_end"] not in aborts]
            assert len(played) == 4 or rows[-1]["hand_end"] == "bust", spec


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.slow
def test_rule_s5_s13_win_payments_recomputable(n, win_value):
    """S-5: a tsumo collects the shares of the players who had not won yet; a ron is paid in full; S-13: the
    hand's first winner takes the sticks that were on the table at the start of the hand."""
    for spec, _, hands, _ in run("shura", n):
        rows = hands.filter(pl.col("winners") > 0)
        for (_m, _h), g in rows.group_by(["match_id", "hand"]):
            g = g.sort("seat")
            dealer = int(np.flatnonzero(g["dealer"].to_numpy())[0])
            order = g["win_order"].to_numpy()
            for w in g.filter(pl.col("won")).iter_rows(named=True):
                got = w["win_points"] - 1000 * w["sticks_won"]
                if w["win_kind"] == "ron":
                    assert got == w["value"], spec
                    continue
                _, _, share_dealer, share_other = win_value(w["han"], w["fu"], w["yakuman"], w["dealer"], True)
                expected = 0
                for s in range(4):
                    if s != w["seat"] and not (0 < order[s] < w["win_order"]):
                        expected += share_dealer if (s == dealer and not w["dealer"]) else share_other
                assert got == expected, (spec, w)
            first = g.filter(pl.col("win_order") == 1)
            assert first["sticks_won"][0] >= g["sticks_before"][0], spec


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.slow
def test_rule_s6_noten_payments_in_simulation(n):
    for spec, _, hands, _ in run("shura", n):
        for (_m, _h), g in hands.filter(pl.col("hand_end") == "exhaustive").group_by(["match_id", "hand"]):
            if g["nagashi"].any():
                continue
            active = g.filter(~pl.col("won"))
            t = int(active["tenpai_at_draw"].sum())
            a = active.height
            pay = active["noten_payment"].to_numpy()
            tenpai = active["tenpai_at_draw"].to_numpy()
            assert (g.filter(pl.col("won"))["noten_payment"] == 0).all()
            if t in (0, a):
                assert (pay == 0).all(), spec
            else:
                total = 1000 * (a - 1)
                assert (pay[tenpai] == total // t).all() and (pay[~tenpai] == -total // (a - t)).all(), spec


def test_rule_s2_exchange_directions_and_s14_no_pao():
    _, _, hands, _ = run("shura", FAST_MATCHES)[0]
    assert set(hands["exchange_dir"].unique()) == {"next", "prev", "across"}
    assert (hands["pao_paid"] == 0).all()


def test_noten_rule_option_reaches_the_engine():
    """S-6 option: `noten_rule=each` changes the payments of some exhaustive draw."""
    seats = parse_seats("baseline")
    split = shura.simulate(21, np.arange(300), seats)[0]
    each = shura.simulate(21, np.arange(300), seats, ShuraRules(noten_rule="each"))[0]
    assert split.shape[1] == each.shape[1] and not np.array_equal(split, each)


def test_shura_rules_are_options_of_one_table():
    """Shura differs from the riichi table only by option values (no fork)."""
    assert isinstance(SHURA, RiichiRules)
    diff = {k for k, v in SHURA.as_dict().items() if STANDARD.as_dict()[k] != v}
    assert diff == {"renchan", "honba", "extension", "bloodbath", "exchange_three", "pao",
                    "four_riichi_active_only", "tsumo_loss"}
    with pytest.raises(ValueError):
        ShuraRules.from_dict({"noten_rule": "both"})


def test_rule_s8_s15_records():
    """S-8: a four-riichi abort needs four non-won players in riichi (so nobody has won yet); S-15: a player
    dealt in on cannot finish with nagashi mangan."""
    for spec, _, hands, _ in run("shura", FAST_MATCHES):
        aborted = hands.filter(pl.col("hand_end") == "four_riichi")
        assert (aborted["winners"] == 0).all(), spec
        assert (aborted["riichi"] != "none").all(), spec
        assert (hands.filter(pl.col("nagashi"))["dealt_in"] == 0).all(), spec


@pytest.mark.slow
def test_rule_s4_s10_s11_in_the_event_log():
    """S-4: no double riichi after a win in the hand. S-10: a riichi declaration tile dealt in still pays its
    stick when the declarer keeps ≥1000 points, and does not otherwise. S-11: after a robbed kan the kan
    stands, a new indicator is shown and the robbed player draws the replacement tile."""
    from tsumolab.sims.events import EV_DISCARD, EV_DRAW, EV_END, EV_KAN, EV_PASS, EV_PAY, EV_START, EV_WIN
    from tsumolab.sims.riichi.columns import HC
    from tsumolab.sims.riichi.events import EV_DORA, EV_RIICHI, PAY_RIICHI

    hand_rows, _, events = shura.simulate_events(12, np.arange(1500), parse_seats("baseline,random,baseline,random"))
    points = {(int(r[HC["match_id"]]), int(r[HC["hand"]]), int(r[HC["seat"]])): int(r[HC["points_before"]])
              for r in hand_rows}
    rows = events.tolist()
    dealt_in_declarations = robbed = 0
    won_in_hand = False
    pts = [0] * 4
    for i, (m, h, kind, seat, tile, a, b, c) in enumerate(rows):
        if kind == EV_START:
            won_in_hand = False
            pts = [points[m, h, s] for s in range(4)]
        elif kind == EV_PAY:
            if seat >= 0:
                pts[seat] -= a
            if tile >= 0:
                pts[tile] += a
        elif kind == EV_WIN:
            won_in_hand = True
        elif kind == EV_RIICHI and a == 2:
            assert not won_in_hand
        elif kind == EV_DISCARD and b == 1:  # a riichi declaration
            j = i + 1
            while rows[j][2] != EV_RIICHI:
                j += 1
            j += 1
            after = list(pts)
            ron = False
            stick = False
            while j < len(rows) and rows[j][2] in (EV_PAY, EV_WIN, EV_DORA):
                r = rows[j]
                if r[2] == EV_WIN:
                    ron = True
                if r[2] == EV_PAY and r[3] == seat and r[6] == PAY_RIICHI:
                    stick = True
                elif r[2] == EV_PAY:
                    if r[3] >= 0:
                        after[r[3]] -= r[5]
                    if r[4] >= 0:
                        after[r[4]] += r[5]
                j += 1
            if ron and min(after) >= 0:
                dealt_in_declarations += 1
                assert stick == (after[seat] >= 1000), rows[i:j]
        elif kind == EV_KAN and b == -1:  # logged before any rob (R-4): the robbers' wins follow it
            j = i + 1
            while j < len(rows) and rows[j][2] in (EV_PASS, EV_PAY, EV_WIN):
                j += 1
            if any(r[2] == EV_WIN and r[4] == tile for r in rows[i + 1:j]) and rows[j][2] != EV_END:
                robbed += 1
                assert rows[j][2] == EV_DORA and ((rows[j + 1][2], rows[j + 1][3], rows[j + 1][5]) == (EV_DRAW, seat, 1)
                                                  or rows[j + 1][2] == EV_END), rows[i:j + 2]
    assert dealt_in_declarations > 10 and robbed > 0


def test_rule_s3_s4_s5_scripted_hand_goes_on_after_a_win_to_three_winners(build_wall, default_answer, events_of,
                                                                          tile_kinds):
    """S-2 … S-5, a scripted hand (exchange to the next player; dora indicator 4z, dora 5z held by nobody):
    after the exchange seat 1 waits on 1p / 4p, seat 2 on 5s / 8s, seat 3 on 2m / 5m, each with tanyao + pinfu.
    Seat 1 rons the dealer's 4p: 2 han 30 fu = 2000 (R-3). The hand goes on (S-3) with seat 2, the next player
    after the winner (S-4), who draws 8s and tsumos: the win cancelled its first-draw chiho (S-4), so menzen
    tsumo + tanyao + pinfu, 3 han 20 fu = 700 / 1300, and seat 1, already won, pays nothing (S-5): 2000 in all.
    Then seat 3 draws 2m and tsumos the same 3 han: only the dealer is left to pay, 1300. Three winners end the
    hand (`three_wins`)."""
    from tsumolab.policies.api import pack_exchange
    from tsumolab.policies.riichi_api import D_EXCHANGE, D_REACT, D_TURN, RON, TSUMO
    from tsumolab.sims.events import EV_DRAW, EV_WIN
    from tsumolab.sims.riichi.columns import H_DELTA, H_END, H_HAN, HAND_ENDS
    from tsumolab.sims.riichi.positions import RiichiEngine as Table

    # deals: each seat passes 3 tiles to the next (the dealer 678s to seat 1, seat 1 678p to seat 2, seat 2 456s
    # to seat 3, seat 3 777z to the dealer)
    hands = {0: "4p678s111z222z333z", 1: "23p234m678m22s678p", 2: "67s234m345p88m456s", 3: "34m567p234s66m777z"}
    passes = {0: "678s", 1: "678p", 2: "456s", 3: "777z"}
    wall = build_wall(hands, "9m8s2m", at={126: 30})  # the dealer's 14th tile 9m; then 8s for seat 2, 2m for 3
    assert not {16, 52, 88} & set(wall[:55].tolist())  # no red five in play
    table = Table(parse_seats("baseline"), SHURA, keep_events=True)
    pos = table.start(wall=wall, direction=0)
    after_exchange = {}

    def choose(pos):
        view = pos.view
        if pos.decision == D_EXCHANGE:
            return pack_exchange(*tile_kinds(passes[pos.seat]))
        if pos.decision == D_TURN and pos.seat not in after_exchange:
            after_exchange[pos.seat] = [k for k in range(34) for _ in range(view[ROBS.hand + k])]
        if pos.decision == D_TURN and view[ROBS.can_win]:
            return TSUMO
        if pos.decision == D_TURN and pos.seat == 0:
            return 12
        if pos.decision == D_REACT and view[ROBS.can_win]:
            return RON if pos.seat == 1 else default_answer(pos)
        return default_answer(pos)

    table.play_scripted(pos, choose)
    assert after_exchange[0] == sorted(tile_kinds("4p111z222z333z777z9m"))
    assert after_exchange[2] == sorted(tile_kinds("67s234m345p88m678p8s"))
    wins = events_of(pos, EV_WIN)
    assert wins[:, 3].tolist() == [1, 2, 3] and wins[:, 4].tolist() == [12, 25, 1]
    assert events_of(pos, EV_DRAW)[:, 3].tolist() == [0, 2, 3]  # after the ron: seat 2, then seat 3
    assert pos.rec[:, H_HAN].tolist() == [0, 2, 3, 3]
    assert pos.rec[:, H_DELTA].tolist() == [-2000 - 1300 - 1300, 2000, 1300 + 700, -700 + 1300]
    assert (pos.rec[:, H_END] == HAND_ENDS.index("three_wins")).all()


@pytest.mark.parametrize("active_only", [True, False])
def test_rule_s8_s7_scripted_four_riichi_with_a_won_riichi_player(active_only, build_wall, default_answer,
                                                                   events_of, next_hand):
    """S-8 (option four_riichi_active_only, on in shura) with R-5 and S-7, a scripted hand (every seat passes
    its 789p and gets 789p back): the dealer and seat 1 declare (double) riichi; seat 1 rons seat 2's 5p
    with double riichi + ippatsu + pinfu, 4 han 30 fu = 7700 (R-3), and takes both sticks on the table. Seats 2
    and 3 then declare riichi: four riichi declared, but seat 1 has won. Only-active (the default): three are in
    riichi, the hand goes on. Off: the fourth declaration aborts the hand (`four_riichi`); the payments made
    before stand, the two new sticks stay on the table, and the same hand is replayed by the same dealer with no
    honba (S-7)."""
    import dataclasses

    from tsumolab.policies.api import pack_exchange
    from tsumolab.policies.riichi_api import D_EXCHANGE, D_REACT, D_TURN, RIICHI, RON
    from tsumolab.sims.events import EV_WIN
    from tsumolab.sims.riichi.columns import H_DELTA, H_END, HAND_ENDS
    from tsumolab.sims.riichi.events import EV_ABORT, EV_RIICHI
    from tsumolab.sims.riichi.positions import RiichiEngine as Table

    hands = {0: "789p123m456m11z23s", 1: "789p234m567s22p34p", 2: "789p678m345s99s23m", 3: "789p345m678s33z44z"}
    # riichi tiles 5z (dealer), 6z (seat 1); seat 2 draws 5p, then 7z after the ron; seat 3 draws 7z
    wall = build_wall(hands, "5z6z5p7z7z", at={126: 27, 127: 27})  # dora and ura indicator 1z: dora 2z, unheld
    table = Table(parse_seats("baseline"), dataclasses.replace(SHURA, four_riichi_active_only=active_only),
                  keep_events=True)
    pos = table.start(wall=wall, direction=0)

    def choose(pos):
        view = pos.view
        if pos.decision == D_EXCHANGE:
            return pack_exchange(15, 16, 17)
        if pos.decision == D_TURN and view[ROBS.tile] == 13:
            return 13  # seat 2 lets the 5p go
        dragons = [k for k in (31, 32, 33) if view[ROBS.hand + k]]
        if pos.decision == D_TURN and view[ROBS.can_riichi] and dragons:
            return RIICHI + dragons[0]  # the dragon just drawn (the dealer's 14th tile came before the exchange)
        if pos.decision == D_REACT and pos.seat == 1 and view[ROBS.can_win] and view[ROBS.tile] == 13:
            return RON
        return default_answer(pos)

    table.play_scripted(pos, choose)
    assert events_of(pos, EV_RIICHI)[:4, 3].tolist() == [0, 1, 2, 3]
    assert events_of(pos, EV_WIN)[:1, 3].tolist() == [1]
    if active_only:
        assert events_of(pos, EV_ABORT).shape[0] == 0
        assert pos.rec[0, H_END] != HAND_ENDS.index("four_riichi")
        return
    assert events_of(pos, EV_WIN).shape[0] == 1
    assert events_of(pos, EV_ABORT)[:, 5].tolist() == [HAND_ENDS.index("four_riichi")]
    assert (pos.rec[:, H_END] == HAND_ENDS.index("four_riichi")).all()
    assert pos.rec[:, H_DELTA].tolist() == [-1000, -1000 + 7700 + 2000, -7700 - 1000, -1000]
    assert next_hand(pos) == {"dealer": 0, "round": 0, "honba": 0, "sticks": 2}
