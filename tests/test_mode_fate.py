"""`fate` 天命之战 (RULES.md F, on the R rules): open deal tiles, the win multiplier, 50000 start, no renchan.

Invariants of the riichi core (R-1 … R-4) over ≥ 10,000 hands (100,000 in the slow test), plus the mode's own:
the recorded multiplier is recomputed from the event log, and every win pays its R-3 value × multiplier.
"""

from collections import defaultdict

import numpy as np
import polars as pl
import pytest

from tsumolab.policies.registry import parse_seats
from tsumolab.policies.riichi_api import ROBS
from tsumolab.sims import tiles
from tsumolab.sims.events import EV_DEAL, EV_DISCARD, EV_DRAW, EV_KAN, EV_PASS, EV_WIN
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi.fate_tiles import fate_after_loss, fate_multiplier
from tsumolab.sims.riichi.rules import STANDARD, FateRules
from tsumolab.sims.riichi.tableau import N_ST, give_tile, take_for_meld, take_tile
from tests.riichi_runs import FAST_MATCHES, per_hand, run

SLUG = "fate"
SLOW_MATCHES = 7_000  # per seat mix: ≈ 3.8 hands per match (no renchan, 50000 start) → > 100,000 hands


def _sizes():
    return [pytest.param(FAST_MATCHES, id="fast"), pytest.param(SLOW_MATCHES, id="full", marks=pytest.mark.slow)]


def test_rule_f_rules_are_table_options():
    """F: 50000 start, no renchan, fate on; the standard table leaves it off."""
    rules = get_mode(SLUG).rules_class()
    assert isinstance(rules, FateRules)
    assert rules.start_points == 50_000 and not rules.renchan and rules.fate
    assert not STANDARD.fate


def test_rule_f_called_tiles_do_not_keep_an_open_tile():
    """F: a tile taken by a call from another seat does not count as the seat's open tile. Seat 0 holds one
    open 6m, chis 5m-6m-7m on another seat's 6m, then discards its own 6m: the open tile is gone."""
    obs = np.zeros((4, ROBS.SIZE), np.int32)
    called = np.zeros((4, 34), np.int64)
    six = 5
    obs[:, ROBS.fate_open + six] = 1
    obs[:, ROBS.meld_tiles + 4:ROBS.meld_tiles + 7] = 1  # the chi 5m6m7m
    called[0, six] = 1
    obs[0, ROBS.hand + six] = 0  # after the discard of the own 6m
    assert fate_multiplier(obs, 0) == 2
    fate_after_loss(obs, np.zeros((N_ST, 34), np.int64), 0, six, 0, called)
    assert fate_multiplier(obs, 0) == 1
    assert (obs[:, ROBS.fate_open + six] == 0).all()  # public: every seat's view drops it


def test_rule_f_discarding_a_spare_copy_keeps_the_open_tile():
    """F: with two copies of a kind, one of them open, discarding one keeps the open one (the seat chooses)."""
    obs = np.zeros((4, ROBS.SIZE), np.int32)
    obs[:, ROBS.fate_open + 30] = 1
    obs[0, ROBS.hand + 30] = 1
    fate_after_loss(obs, np.zeros((N_ST, 34), np.int64), 0, 30, 0, np.zeros((4, 34), np.int64))
    assert fate_multiplier(obs, 0) == 2


FIVE_M = 4


def _seat0_with_fives(plain, red, open_plain, open_red):
    """Seat 0 holding `plain` plain 5m and the red 0m when `red`, with `open_plain` plain copies and the red one
    (open_red) among its open deal tiles → (obs, st, called)."""
    obs = np.zeros((4, ROBS.SIZE), np.int32)
    st = np.zeros((N_ST, 34), np.int64)
    for _ in range(plain):
        give_tile(obs, st, 0, FIVE_M, False)
    if red:
        give_tile(obs, st, 0, FIVE_M, True)
    obs[:, ROBS.fate_open + FIVE_M] = open_plain + open_red
    obs[:, ROBS.fate_red] = open_red
    return obs, st, np.zeros((4, 34), np.int64)


def _discard(obs, st, called, red):
    take_tile(obs, st, 0, FIVE_M, red)
    fate_after_loss(obs, st, 0, FIVE_M, red, called)


def test_rule_f_discarding_the_plain_five_drops_an_open_plain_five_though_the_red_is_held():
    """F counts the open tiles still in the hand: the open tile is a plain 5m, the seat also holds the red 0m.
    Discarding the plain copy loses the open tile (the red one left is not it); discarding the red keeps it."""
    obs, st, called = _seat0_with_fives(plain=1, red=True, open_plain=1, open_red=0)
    assert fate_multiplier(obs, 0) == 2
    _discard(obs, st, called, red=0)
    assert fate_multiplier(obs, 0) == 1 and (obs[:, ROBS.fate_open + FIVE_M] == 0).all()
    obs, st, called = _seat0_with_fives(plain=1, red=True, open_plain=1, open_red=0)
    _discard(obs, st, called, red=1)
    assert fate_multiplier(obs, 0) == 2


def test_rule_f_an_open_red_five_goes_only_with_the_red_copy():
    """F: the open tile is the red 0m, the seat also holds a plain 5m: discarding the plain copy keeps the open
    red five; discarding the red loses it, though a plain 5m is still held."""
    obs, st, called = _seat0_with_fives(plain=1, red=True, open_plain=0, open_red=1)
    _discard(obs, st, called, red=0)
    assert fate_multiplier(obs, 0) == 2 and obs[0, ROBS.fate_red] == 1
    obs, st, called = _seat0_with_fives(plain=1, red=True, open_plain=0, open_red=1)
    _discard(obs, st, called, red=1)
    assert fate_multiplier(obs, 0) == 1 and (obs[:, ROBS.fate_red] == 0).all()


def test_rule_f_open_fives_called_into_a_meld_stay_held():
    """F: open tiles in the seat's own melds still count. The seat holds 5m (open), 5m, 0m and pons a 5m: the
    red and one plain copy go into the meld (the open plain one may be that copy), so discarding the last plain
    5m in the hand keeps the multiplier."""
    obs, st, called = _seat0_with_fives(plain=2, red=True, open_plain=1, open_red=0)
    take_for_meld(obs, st, 0, FIVE_M, 2)
    obs[:, ROBS.meld_tiles + FIVE_M] = 3
    called[0, FIVE_M] = 1
    _discard(obs, st, called, red=0)
    assert fate_multiplier(obs, 0) == 2


def test_rule_f_own_red_five_in_a_meld_is_not_an_open_plain_copy():
    """F: the seat holds two open plain 5m and the (not open) red 0m; a chi 4m-0m-6m on another seat's 4m puts
    the red five into the meld. Discarding one plain 5m leaves one plain copy: one open tile is gone."""
    obs, st, called = _seat0_with_fives(plain=2, red=True, open_plain=2, open_red=0)
    give_tile(obs, st, 0, FIVE_M + 1, False)
    take_for_meld(obs, st, 0, FIVE_M, 1)
    take_for_meld(obs, st, 0, FIVE_M + 1, 1)
    obs[:, ROBS.meld_tiles + FIVE_M - 1:ROBS.meld_tiles + FIVE_M + 2] = 1
    called[0, FIVE_M - 1] = 1
    assert fate_multiplier(obs, 0) == 3
    _discard(obs, st, called, red=0)
    assert fate_multiplier(obs, 0) == 2


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.slow
def test_rule_f_enough_hands_tiles_conserved_legal_answers(n):
    """R-1 in fate: 136 tiles at every hand's end, built-ins act legally, ≥ 10,000 (100,000) hands."""
    out = run(SLUG, n)
    hands = sum(int(c[engine.CNT_HANDS]) for _, c, _, _ in out)
    assert hands >= (100_000 if n == SLOW_MATCHES else 10_000)
    for spec, counters, _, _ in out:
        assert counters[engine.CNT_TILE_ERRORS] == 0, spec
        assert counters[engine.CNT_ILLEGAL] == 0, spec


@pytest.mark.parametrize("n", _sizes())
def test_rule_f_r2_points_and_sticks_conserved_from_50000(n):
    """R-2 with F's 50000 start: points + sticks are conserved in every hand and every match."""
    for spec, _, hands, matches in run(SLUG, n):
        h = per_hand(hands)
        assert (h["delta_sum"] + 1000 * (h["sticks_after"] - h["sticks_before"]) == 0).all(), spec
        totals = matches.group_by("match_id").agg(pl.col("final_points").sum())
        assert (totals["final_points"] == 4 * 50_000).all(), spec
        assert (hands.filter(pl.col("hand") == 1)["points_before"] == 50_000).all(), spec


@pytest.mark.parametrize("n", _sizes())
def test_rule_f_r3_wins_have_a_yaku_and_pay_value_times_multiplier(n, win_value):
    """R-3 + F: no yakuless win; the win's value is the R-3 points × the recorded multiplier (1 … 5), and the
    winner receives value + honba + sticks."""
    seen_multipliers = set()
    for spec, _, hands, _ in run(SLUG, n):
        assert hands["multiplier"].min() >= 1 and hands["multiplier"].max() <= 5, spec
        wins = hands.filter(pl.col("won"))
        assert wins.height > 0, spec
        assert (wins["yaku"].str.len_chars() > 0).all() and (wins["han"] > wins["dora"]).all(), spec
        cols = ("han", "fu", "yakuman", "dealer", "win_kind", "value", "multiplier", "win_points", "honba",
                "sticks_won", "win_order")
        for han, fu, yakuman, dealer, kind, value, mult, win_points, honba, sticks_won, order in \
                wins.select(cols).iter_rows():
            assert win_value(han, fu, yakuman, dealer, kind == "tsumo")[0] * mult == value, spec
            honba = honba if order == 1 else 0  # a multiple ron's honba goes to the first winner only
            assert win_points == value + 300 * honba + 1000 * sticks_won, spec
            seen_multipliers.add(mult)
    assert {1, 2, 3}.issubset(seen_multipliers)


@pytest.mark.parametrize("n", _sizes())
def test_rule_f_no_renchan(n):
    """F: the deal passes after every hand that is not an abortive draw (no renchan, R-2 otherwise)."""
    for spec, _, hands, _ in run(SLUG, n):
        h = per_hand(hands).with_columns(
            pl.col("dealer_seat").shift(-1).over("match_id").alias("next_dealer"))
        ended = h.filter(pl.col("next_dealer").is_not_null() & pl.col("hand_end").is_in(["win", "exhaustive"]))
        assert ended.height > 0, spec
        assert (ended["next_dealer"] == (ended["dealer_seat"] + 1) % 4).all(), spec


def _multipliers_from_events(events):
    """(match, hand, seat) → 1 + open deal tiles still held, replayed from deal, draw, discard and kan events by
    copy (plain or red five): a seat's own copies change only by its draws (+1) and discards or a robbed kan tile
    (-1); tiles it calls never count; an open plain copy survives while the seat holds as many own plain copies,
    an open red five until the red copy goes."""
    held = defaultdict(lambda: np.zeros((34, 2), np.int64))  # [kind, red]
    open_left = defaultdict(lambda: np.zeros((34, 2), np.int64))
    dealt = defaultdict(int)
    last_kan = None

    def lose(key, tile, red):
        held[key][tile, red] -= 1
        open_left[key][tile, red] = min(open_left[key][tile, red], held[key][tile, red])

    for match_id, hand_no, kind, seat, tile, a, b, c in events.tolist():
        key = (match_id, hand_no, seat)
        if kind == EV_DEAL:
            held[key][tile, a] += 1
            if dealt[key] < 4:
                open_left[key][tile, a] += 1
            dealt[key] += 1
        elif kind == EV_DRAW:
            held[key][tile, c // 2] += 1
        elif kind == EV_DISCARD:
            lose(key, tile, c)
        if kind == EV_KAN:
            last_kan = (match_id, hand_no, seat, tile, 1 if (a == tiles.KAKAN and c == 2) else 0)
        elif kind == EV_WIN and last_kan is not None and last_kan[:2] == (match_id, hand_no) and c == 1:
            lose((match_id, hand_no, last_kan[2]), last_kan[3], last_kan[4])  # a ron right after a kan robs it
            last_kan = None
        elif kind not in (EV_PASS, EV_KAN):
            last_kan = None
    return {key: 1 + int(v.sum()) for key, v in open_left.items()}


def test_rule_f_multiplier_recomputable_from_the_event_log():
    """F: the recorded multiplier of every seat equals the one replayed from the event log (first 4 deal
    tiles open; ron tile and called tiles never count)."""
    seats = parse_seats("baseline,random,fate-keeper,majsoul-cpu")
    hand_rows, _, events = get_mode(SLUG).simulate_events(3, np.arange(300), seats)
    from tsumolab.sims.riichi.columns import HC

    expected = _multipliers_from_events(events)
    assert len(expected) == hand_rows.shape[0]
    above_one = 0
    for row in hand_rows:
        key = (int(row[HC["match_id"]]), int(row[HC["hand"]]), int(row[HC["seat"]]))
        assert row[HC["multiplier"]] == expected[key], key
        above_one += row[HC["multiplier"]] > 1
    assert above_one > 0


def test_rule_f_multiplier_is_one_in_other_riichi_modes():
    """F is a rule option: `riichi` records multiplier 1 everywhere and pays the plain R-3 value."""
    hand_rows, _ = get_mode("riichi").simulate(1, np.arange(50), parse_seats("baseline"))
    from tsumolab.sims.riichi.columns import HC

    assert (hand_rows[:, HC["multiplier"]] == 1).all()


def test_rule_f_fate_keeper_is_legal_and_keeps_more_open_tiles():
    """F policy `fate-keeper`: legal answers only, and over the same deals its seat ends hands holding more of
    its open tiles (higher multiplier) than `baseline` in that seat."""
    mode = get_mode(SLUG)
    mean_mult = {}
    for spec in ("fate-keeper,baseline,baseline,baseline", "baseline"):
        counters = np.zeros(engine.N_COUNTERS, np.int64)
        hand_rows, _ = mode.simulate(9, np.arange(600), parse_seats(spec), counters=counters)
        assert counters[engine.CNT_ILLEGAL] == 0, spec
        from tsumolab.sims.riichi.columns import HC

        seat0 = hand_rows[hand_rows[:, HC["seat"]] == 0]
        mean_mult[spec] = seat0[:, HC["multiplier"]].mean()
    assert mean_mult["fate-keeper,baseline,baseline,baseline"] > mean_mult["baseline"]


def test_rule_f_scripted_win_pays_times_one_plus_open_tiles_held(build_wall, default_answer, events_of):
    """F, a scripted hand: seat 1's first 4 deal tiles (1z 2p 3p 2m) are open. It draws 2s and discards the open
    1z, keeping 3 open tiles (multiplier 4), then rons the dealer's 4p with tanyao + pinfu (2 han 30 fu, 2000 for
    a non-dealer, R-3): the dealer pays 2000 × 4 = 8000, nobody else pays."""
    from tsumolab.policies.riichi_api import D_REACT, D_TURN, RON
    from tsumolab.sims.riichi.columns import H_DELTA, H_MULTIPLIER
    from tsumolab.sims.riichi.positions import RiichiEngine

    hands = {0: "111m999p111s9s555z", 1: "1z23p2m34m678m678s2s", 2: "3456789s3456m77p", 3: "2233445566778s"}
    # dealer 6z (discarded), seat 1 2s, seats 2 and 3 7z, dealer 4p; dora indicator 4z (dora 5z: the dealer's)
    wall = build_wall(hands, "6z2s7z7z4p", at={126: 30})
    table = RiichiEngine(parse_seats("baseline"), FateRules(), keep_events=True)
    pos = table.start(wall=wall)

    def choose(pos):
        if pos.decision == D_TURN and pos.seat == 1:
            return 27  # the open 1z goes; 23p 234m 678m 678s 22s waits on 1p / 4p
        if pos.decision == D_REACT and pos.seat == 1 and pos.view[ROBS.can_win]:
            return RON
        return default_answer(pos)

    table.play_scripted(pos, choose)
    wins = events_of(pos, EV_WIN)
    assert wins.shape[0] == 1 and (wins[0, 3], wins[0, 4]) == (1, 12)  # seat 1 on 4p
    open_held = {k: int(pos.obs[0, ROBS.fate_open + 34 * 1 + k]) for k in (27, 10, 11, 1)}
    assert open_held == {27: 0, 10: 1, 11: 1, 1: 1}
    assert pos.rec[1, H_MULTIPLIER] == 4
    assert pos.rec[:, H_DELTA].tolist() == [-8000, 8000, 0, 0]


@pytest.mark.parametrize("discard_red", [False, True], ids=["plain-goes", "red-goes"])
def test_rule_f_scripted_open_plain_five_and_a_drawn_red_five(build_wall, default_answer, discard_red):
    """F, a scripted hand (issue 21's example: fate seed 11 match 19 hand 4): seat 1's open deal tiles are 5m 1z 2p
    3p, the 5m a plain copy. It draws the red 0m and discards one 5m: the plain copy (a discard by kind) takes
    the open tile with it (multiplier 4, not 5); the red one (tsumogiri) leaves the open plain 5m held (5)."""
    from tsumolab.policies.riichi_api import D_TURN, TSUMOGIRI
    from tsumolab.sims.riichi.columns import H_MULTIPLIER
    from tsumolab.sims.riichi.positions import RiichiEngine

    # seat 0 takes two plain 5m, seat 1's open 5m is the third plain one, so the 5m seat 1 draws is the red five
    hands = {0: "55m111p999p111s99s", 1: "5m1z2p3p4m678m678s22s", 2: "3456789s3467m77p", 3: "2233445566778s"}
    wall = build_wall(hands, "6z5m")
    table = RiichiEngine(parse_seats("baseline"), FateRules(), keep_events=True)
    pos = table.start(wall=wall)
    asked = []

    def choose(pos):
        if pos.decision == D_TURN and pos.seat == 1 and not asked:
            asked.append((pos.view[ROBS.red], pos.view[ROBS.fate_open + 34 + FIVE_M], pos.view[ROBS.fate_red + 3]))
            return TSUMOGIRI if discard_red else FIVE_M
        return default_answer(pos)

    table.play_scripted(pos, choose)
    assert asked == [(1, 1, 0)]  # seat 1 held the red five when it chose; its open 5m is a plain copy
    assert pos.obs[0, ROBS.fate_open + 34 + FIVE_M] == (1 if discard_red else 0)
    assert pos.rec[1, H_MULTIPLIER] == (5 if discard_red else 4)
