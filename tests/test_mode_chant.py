"""`chant` 咏唱之战 (RULES.md C, on the R rules): bonus han for the longest runs of tsumogiri and hand discards.

Invariants of the riichi core (R-1 … R-4) over ≥ 10,000 hands (100,000 in the slow test), plus the mode's own:
the recorded bonus is recomputed from the discard record of the event log, never makes a yakuless hand win,
never touches a yakuman, and enters the R-3 value of the win.
"""

from collections import defaultdict

import numpy as np
import polars as pl
import pytest

from policies.registry import parse_seats
from sims.events import EV_DISCARD
from sims.modes import get_mode
from sims.riichi import engine
from sims.riichi.table import START_POINTS, STANDARD, ChantRules
from tests.riichi_runs import FAST_MATCHES, FULL_MATCHES, per_hand, run

SLUG = "chant"


def _sizes():
    return [pytest.param(FAST_MATCHES, id="fast"), pytest.param(FULL_MATCHES, id="full", marks=pytest.mark.slow)]


def _bonus(longest_tsumogiri, longest_hand):
    """C, written out from the rule text: 3/5/7/9/12 tsumogiri → 1/2/3/5/12, 3/6/9/12/18 hand → 1/2/3/5/12."""
    t = {3: 1, 4: 1, 5: 2, 6: 2, 7: 3, 8: 3, 9: 5, 10: 5, 11: 5}.get(longest_tsumogiri, 12 if longest_tsumogiri >= 12
                                                                       else 0)
    h = 0
    for length, han in ((3, 1), (6, 2), (9, 3), (12, 5), (18, 12)):
        if longest_hand >= length:
            h = han
    return t + h


def test_rule_c_rules_are_table_options():
    """C on R: chant on, renchan as R-2; the standard table leaves it off."""
    rules = get_mode(SLUG).RULES()
    assert isinstance(rules, ChantRules) and rules.chant and rules.renchan
    assert not STANDARD.chant


def test_rule_c_bonus_table():
    """C: thresholds of both runs, and that they add."""
    from sims.riichi.chant_streaks import HAND_HAN, HAND_RUNS, TSUMOGIRI_HAN, TSUMOGIRI_RUNS, run_bonus

    for t in range(0, 20):
        for h in range(0, 22):
            assert run_bonus(t, TSUMOGIRI_RUNS, TSUMOGIRI_HAN) + run_bonus(h, HAND_RUNS, HAND_HAN) == _bonus(t, h)


@pytest.mark.parametrize("n", _sizes())
def test_rule_c_enough_hands_tiles_conserved_points_conserved(n):
    """R-1/R-2 in chant: ≥ 10,000 (100,000) hands, 136 tiles, legal answers, points + sticks conserved."""
    out = run(SLUG, n)
    hands = sum(int(c[engine.CNT_HANDS]) for _, c, _, _ in out)
    assert hands >= (100_000 if n == FULL_MATCHES else 10_000)
    for spec, counters, hands, matches in out:
        assert counters[engine.CNT_TILE_ERRORS] == 0 and counters[engine.CNT_ILLEGAL] == 0, spec
        h = per_hand(hands)
        assert (h["delta_sum"] + 1000 * (h["sticks_after"] - h["sticks_before"]) == 0).all(), spec
        totals = matches.group_by("match_id").agg(pl.col("final_points").sum())
        assert (totals["final_points"] == 4 * START_POINTS).all(), spec


@pytest.mark.parametrize("n", _sizes())
def test_rule_c_r3_bonus_is_not_a_yaku_not_on_yakuman_and_priced(n, win_value):
    """C + R-3: every win has a yaku without the bonus (han − bonus > dora); yakuman values ignore the bonus;
    the value is the R-3 price of han (bonus included) and fu."""
    with_bonus = 0
    for spec, _, hands, _ in run(SLUG, n):
        wins = hands.filter(pl.col("won"))
        assert (wins["yaku"].str.len_chars() > 0).all(), spec
        plain = wins.filter(pl.col("yakuman") == 0)
        assert (plain["han"] - plain["chant_han"] > plain["dora"]).all(), spec
        for han, fu, yakuman, dealer, kind, value in wins.select(
                "han", "fu", "yakuman", "dealer", "win_kind", "value").iter_rows():
            assert win_value(han, fu, yakuman, dealer, kind == "tsumo")[0] == value, spec
        with_bonus += plain.filter(pl.col("chant_han") > 0).height
    assert with_bonus > 0


@pytest.mark.parametrize("n", _sizes())
def test_rule_c_renchan_as_r2(n):
    """C keeps R-2 renchan: after a dealer win the same seat deals again."""
    for spec, _, hands, _ in run(SLUG, n):
        h = per_hand(hands).with_columns(pl.col("dealer_seat").shift(-1).over("match_id").alias("next_dealer"))
        kept = h.filter(pl.col("dealer_won") & pl.col("next_dealer").is_not_null())
        assert kept.height > 0 and (kept["next_dealer"] == kept["dealer_seat"]).all(), spec


def test_rule_c_bonus_recomputable_from_the_discard_record():
    """C: each seat's recorded bonus equals the one from its discards' tsumogiri flags in the event log."""
    seats = parse_seats("chanter,baseline,random,majsoul-cpu")
    hand_rows, _, events = get_mode(SLUG).simulate_events(4, np.arange(300), seats)
    from sims.riichi.columns import HC

    runs = defaultdict(lambda: [0, 0, 0, 0])  # current tsumogiri, longest, current hand, longest
    for match_id, hand_no, kind, seat, tile, a, b, c in events.tolist():
        if kind != EV_DISCARD:
            continue
        r = runs[(match_id, hand_no, seat)]
        if a == 1:
            r[0], r[2] = r[0] + 1, 0
        else:
            r[0], r[2] = 0, r[2] + 1
        r[1], r[3] = max(r[1], r[0]), max(r[3], r[2])
    nonzero = 0
    for row in hand_rows:
        key = (int(row[HC["match_id"]]), int(row[HC["hand"]]), int(row[HC["seat"]]))
        r = runs.get(key, [0, 0, 0, 0])
        assert row[HC["chant_han"]] == _bonus(r[1], r[3]), key
        nonzero += row[HC["chant_han"]] > 0
    assert nonzero > 0


def test_rule_c_bonus_is_zero_in_other_riichi_modes():
    """C is a table option: `riichi` records no bonus."""
    from sims.riichi.columns import HC

    hand_rows, _ = get_mode("riichi").simulate(1, np.arange(50), parse_seats("baseline"))
    assert (hand_rows[:, HC["chant_han"]] == 0).all()


@pytest.mark.parametrize("run_length, paid", [(2, 2000), (3, 3900)])
def test_rule_c_scripted_tsumogiri_run_of_three_adds_a_han(run_length, paid, build_wall, default_answer):
    """C, a scripted hand: seat 1 waits on 1p / 4p with tanyao + pinfu (2 han 30 fu: 2000 for a non-dealer) and
    discards every tile it draws (tsumogiri), then rons the dealer's 4p. After 3 tsumogiri (a run of 3) the win
    has 1 bonus han: 3 han 30 fu = 3900; after only 2 there is no bonus: 2000. No hand discard, so no second
    bonus."""
    from policies.riichi_api import D_REACT, D_TURN, ROBS, RON, TSUMOGIRI
    from sims.riichi.columns import H_CHANT_HAN, H_DELTA
    from sims.riichi.positions import RiichiTable

    hands = {0: "111m999p111s9s555z", 1: "23p234m678m678s22s", 2: "3456789s3456m77p", 3: "2233445566778s"}
    winds = "1z2z3z4z" * run_length  # one go-around per run step; no four-winds abort (different winds)
    wall = build_wall(hands, winds + "4p", at={126: 30})  # the dealer's draw after the winds: 4p, discarded
    table = RiichiTable(parse_seats("baseline"), ChantRules(), keep_events=True)
    pos = table.start(wall=wall)
    gone = []

    def choose(pos):
        if pos.decision == D_TURN and pos.seat == 1:
            gone.append(int(pos.view[ROBS.tile]))
            return TSUMOGIRI
        if pos.decision == D_REACT and pos.seat == 1 and pos.view[ROBS.can_win]:
            return RON
        return default_answer(pos)

    table.play_scripted(pos, choose)
    assert gone == [28] * run_length  # seat 1 let every South it drew go
    assert pos.rec[1, H_CHANT_HAN] == (1 if run_length == 3 else 0)
    assert pos.rec[:, H_DELTA].tolist() == [-paid, paid, 0, 0]
