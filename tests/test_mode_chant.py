"""`chant` 咏唱之战 (RULES.md C, on the R rules): bonus han for the longest runs of tsumogiri and hand discards.

Invariants of the riichi core (R-1 … R-4) over ≥ 10,000 hands (100,000 in the slow test), plus the mode's own:
the recorded bonus is recomputed from the discard record of the event log, never makes a yakuless hand win,
never touches a yakuman, and enters the R-3 value of the win.
"""

from collections import defaultdict

import numpy as np
import polars as pl
import pytest

from tsumolab.policies.registry import parse_seats
from tsumolab.sims import tiles
from tsumolab.sims.events import EV_DISCARD, EV_KAN, EV_PON
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi.events import EV_CHI
from tsumolab.sims.riichi.rules import START_POINTS, STANDARD, ChantRules
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
    rules = get_mode(SLUG).rules_class()
    assert isinstance(rules, ChantRules) and rules.chant and rules.renchan
    assert not STANDARD.chant


def test_rule_c_bonus_table():
    """C: thresholds of both runs, and that they add."""
    from tsumolab.sims.riichi.chant_streaks import HAND_HAN, HAND_RUNS, TSUMOGIRI_HAN, TSUMOGIRI_RUNS, run_bonus

    for t in range(0, 20):
        for h in range(0, 22):
            assert run_bonus(t, TSUMOGIRI_RUNS, TSUMOGIRI_HAN) + run_bonus(h, HAND_RUNS, HAND_HAN) == _bonus(t, h)


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.slow
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


def _bonus_from_events(events, count_called):
    """(match, hand, seat) → C's bonus from the seat's discards' tsumogiri flags in the event log; a discard that
    a chi, pon or open kan took is left out of the runs when not `count_called`."""
    discards = defaultdict(list)  # tsumogiri flags in order
    for match_id, hand_no, kind, seat, tile, a, b, c in events.tolist():
        if kind == EV_DISCARD:
            discards[(match_id, hand_no, seat)].append(a == 1)
        elif not count_called and kind in (EV_CHI, EV_PON, EV_KAN) and (kind != EV_KAN or a == tiles.MINKAN):
            discarder = a if kind == EV_PON else b
            discards[(match_id, hand_no, discarder)].pop()  # the call took the discarder's last discard
    out = {}
    for key, flags in discards.items():
        longest, run = [0, 0], [0, 0]
        for tsumogiri in flags:
            i = 0 if tsumogiri else 1
            run[i], run[1 - i] = run[i] + 1, 0
            longest[i] = max(longest[i], run[i])
        out[key] = _bonus(*longest)
    return out


@pytest.mark.parametrize("count_called", [True, False], ids=["called-count", "called-dropped"])
def test_rule_c_bonus_recomputable_from_the_discard_record(count_called):
    """C: each seat's recorded bonus equals the one from its discards' tsumogiri flags in the event log; with the
    option count_called off (C leaves open whether a called discard counts) the discards others called are left
    out of the runs, the runs on either side of one joining."""
    seats = parse_seats("chanter,baseline,random,majsoul-cpu")
    hand_rows, _, events = get_mode(SLUG).simulate_events(4, np.arange(300), seats,
                                                          ChantRules(count_called=count_called))
    from tsumolab.sims.riichi.columns import HC

    expected = _bonus_from_events(events, count_called)
    nonzero = 0
    for row in hand_rows:
        key = (int(row[HC["match_id"]]), int(row[HC["hand"]]), int(row[HC["seat"]]))
        assert row[HC["chant_han"]] == expected.get(key, 0), key
        nonzero += row[HC["chant_han"]] > 0
    assert nonzero > 0
    assert _bonus_from_events(events, not count_called) != expected  # the option matters in this sample


def test_rule_c_count_called_runs_around_a_called_discard():
    """C, option count_called: tsumogiri, tsumogiri, a hand discard that another player calls, tsumogiri,
    tsumogiri. Counted, the called discard breaks the run (two runs of 2: no bonus); dropped, the runs on either
    side join into a run of 4 (1 bonus han), and the public current runs go back to what they were before it."""
    from tsumolab.policies.riichi_api import ROBS
    from tsumolab.sims.riichi.chant_streaks import CHANT_COUNT_CALLED, CHANT_DROP_CALLED, chant_bonus, chant_called, \
        chant_discard

    for option, bonus in ((CHANT_COUNT_CALLED, 0), (CHANT_DROP_CALLED, 1)):
        obs = np.zeros((4, ROBS.SIZE), np.int32)
        streaks = np.zeros((5, 4), np.int64)
        for tsumogiri in (True, True):
            chant_discard(obs, streaks, 2, tsumogiri)
        chant_discard(obs, streaks, 2, False)
        chant_called(obs, streaks, 2, option)
        assert obs[1, ROBS.chant + 4:ROBS.chant + 6].tolist() == ([0, 1] if option == CHANT_COUNT_CALLED else [2, 0])
        for tsumogiri in (True, True):
            chant_discard(obs, streaks, 2, tsumogiri)
        assert chant_bonus(streaks, 2) == bonus, option


def test_rule_c_count_called_is_a_chant_option():
    """C: count_called is on by default (a called discard counts) and packed into the chant table slot; it needs
    chant on."""
    from tsumolab.sims.riichi import rules as T
    from tsumolab.sims.riichi.chant_streaks import CHANT_COUNT_CALLED, CHANT_DROP_CALLED

    assert ChantRules().count_called
    assert ChantRules().to_array()[T.T_CHANT] == CHANT_COUNT_CALLED
    assert ChantRules(count_called=False).to_array()[T.T_CHANT] == CHANT_DROP_CALLED
    assert STANDARD.to_array()[T.T_CHANT] == 0
    with pytest.raises(ValueError, match="count_called"):
        type(STANDARD)(count_called=False)


def test_rule_c_bonus_is_zero_in_other_riichi_modes():
    """C is a rule option: `riichi` records no bonus."""
    from tsumolab.sims.riichi.columns import HC

    hand_rows, _ = get_mode("riichi").simulate(1, np.arange(50), parse_seats("baseline"))
    assert (hand_rows[:, HC["chant_han"]] == 0).all()


@pytest.mark.parametrize("run_length, paid", [(2, 2000), (3, 3900)])
def test_rule_c_scripted_tsumogiri_run_of_three_adds_a_han(run_length, paid, build_wall, default_answer):
    """C, a scripted hand: seat 1 waits on 1p / 4p with tanyao + pinfu (2 han 30 fu: 2000 for a non-dealer) and
    discards every tile it draws (tsumogiri), then rons the dealer's 4p. After 3 tsumogiri (a run of 3) the win
    has 1 bonus han: 3 han 30 fu = 3900; after only 2 there is no bonus: 2000. No hand discard, so no second
    bonus."""
    from tsumolab.policies.riichi_api import D_REACT, D_TURN, ROBS, RON, TSUMOGIRI
    from tsumolab.sims.riichi.columns import H_CHANT_HAN, H_DELTA
    from tsumolab.sims.riichi.positions import RiichiEngine

    hands = {0: "111m999p111s9s555z", 1: "23p234m678m678s22s", 2: "3456789s3456m77p", 3: "2233445566778s"}
    winds = "1z2z3z4z" * run_length  # one go-around per run step; no four-winds abort (different winds)
    wall = build_wall(hands, winds + "4p", at={126: 30})  # the dealer's draw after the winds: 4p, discarded
    table = RiichiEngine(parse_seats("baseline"), ChantRules(), keep_events=True)
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
