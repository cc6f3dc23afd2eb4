"""`dora-fever` 宝牌狂热 (RULES.md DF): 3 dora indicators (and 3 ura) from the start, kans add up to 5, no renchan,
plus every riichi-core invariant (R-1 … R-6) on simulated matches."""

from collections import defaultdict

import numpy as np
import polars as pl
import pytest

from tsumolab.policies.registry import parse_seats
from tsumolab.sims import tiles as T
from tsumolab.sims.events import EV_DISCARD, EV_KAN, EV_START
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi.events import EV_DORA
from tsumolab.sims.riichi.rules import DoraFeverRules, RiichiRules
from tests.riichi_runs import FAST_MATCHES, FULL_MATCHES, per_hand, run

SLUG = "dora-fever"
SIZES = [pytest.param(FAST_MATCHES, id="fast"), pytest.param(FULL_MATCHES, id="full", marks=pytest.mark.slow)]


def test_rule_df_registered_with_its_defaults():
    """DF: the mode is a set of riichi rule options (3 indicators, no renchan, 25000 start), not an engine fork."""
    mode = get_mode(SLUG)
    rules = mode.rules_class()
    assert (rules.initial_dora, rules.renchan, rules.start_points) == (3, False, 25_000)
    assert RiichiRules().initial_dora == 1
    with pytest.raises(ValueError):
        DoraFeverRules(initial_dora=6)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.slow
def test_rule_df_riichi_core_invariants(n, riichi_checks):
    """DF keeps R-1 (136 tiles, legal answers), R-2 (points + sticks conserved), R-3 (no yakuless win, values
    recomputable, at most 3 ron) and R-4 (situational yaku) over ≥10,000 hands (100,000 slow)."""
    riichi_checks.riichi_core_invariants(SLUG, n)


def test_rule_df_r4_no_furiten_ron(riichi_checks):
    """R-4 under DF: no ron in furiten (permanent, temporary, riichi)."""
    riichi_checks.r4_no_furiten_ron_in_the_event_log(SLUG)


def test_rule_df_r1_kan_dora_timing_and_riichi_conditions(riichi_checks):
    """R-1/R-4 under DF: kan indicators at the right time, never more than 5; riichi conditions hold."""
    riichi_checks.r1_r4_dora_timing_and_riichi_conditions_in_the_event_log(SLUG)


def test_rule_df_three_indicators_at_start_and_at_most_five():
    """DF: every hand shows exactly 3 indicators before the first discard or kan; kans add more up to 5 in all, then
    none (a kan with 5 shown flips nothing)."""
    _, _, events = get_mode(SLUG).simulate_events(3, np.arange(400), parse_seats("baseline,random,baseline,random"))
    shown = defaultdict(int)
    at_first_discard = {}
    kans_at_five = kans_below_five = 0
    for m, h, kind, seat, tile, a, b, c in events.tolist():
        key = (m, h)
        if kind == EV_START:
            shown[key] = 0
        elif kind == EV_DORA:
            shown[key] += 1
            assert a == shown[key] <= 5, key
        if kind in (EV_DISCARD, EV_KAN):  # before the hand's first discard or kan
            at_first_discard.setdefault(key, shown[key])
        if kind == EV_KAN:
            if shown[key] >= 5:
                kans_at_five += 1
            elif a == T.ANKAN:
                kans_below_five += 1
    assert len(at_first_discard) > 1000
    assert set(at_first_discard.values()) == {3}
    assert kans_below_five > 20
    assert max(shown.values()) == 5


@pytest.mark.slow
def test_rule_df_more_dora_per_win_than_riichi():
    """DF: 3 indicators and 3 ura from the start raise the dora of wins well above standard riichi (1 + 1)."""
    def mean_dora(slug):
        wins = pl.concat([h.filter(pl.col("won")) for _, _, h, _ in run(slug, FAST_MATCHES)])
        return wins["dora"].cast(pl.Float64).mean()

    assert mean_dora(SLUG) > 1.5 * mean_dora("riichi")


def test_rule_df_no_renchan():
    """DF: the deal passes after every hand except an abortive draw (R-5); honba as R-2 (+1 after a draw)."""
    aborts = ("nine_terminals", "four_winds", "four_riichi", "four_kans")
    kept_by_win_or_tenpai = 0
    for spec, _, hands, _ in run(SLUG, FAST_MATCHES):
        h = per_hand(hands)
        for _, g in h.group_by("match_id"):
            rows = g.sort("hand").to_dicts()
            for a, b in zip(rows, rows[1:]):
                keeps = a["hand_end"] in aborts
                kept_by_win_or_tenpai += a["dealer_won"] or (a["hand_end"] == "exhaustive" and a["dealer_tenpai"])
                assert b["dealer_seat"] == (a["dealer_seat"] if keeps else (a["dealer_seat"] + 1) % 4), spec
                assert b["honba"] == (a["honba"] + 1 if keeps or a["hand_end"] == "exhaustive" else 0), spec
    assert kept_by_win_or_tenpai > 100  # the standard game would have kept the deal here


def test_rule_df_start_points_option():
    """DF option `start_points` (default 25000; the community re-implementation uses 35000)."""
    mode = get_mode(SLUG)
    rules = DoraFeverRules(start_points=35_000)
    _, match_rows = mode.simulate(2, np.arange(30), parse_seats("baseline"), rules)
    from tsumolab.analyzer.tables import match_table

    matches = match_table(match_rows, parse_seats("baseline"), mode)
    totals = matches.group_by("match_id").agg(pl.col("final_points").sum())
    assert (totals["final_points"] == 4 * 35_000).all()


def test_rule_df_event_log_does_not_change_play(riichi_checks):
    riichi_checks.event_log_does_not_change_play(SLUG)


def test_rule_df_run_command(tmp_path, capsys, riichi_checks):
    """`tsumolab run --variant dora-fever` writes the riichi tables and an event log that rederives every delta."""
    riichi_checks.run_writes_tables_and_an_event_log_that_rederives_deltas(SLUG, tmp_path, capsys)


def _obs_with(hand_tiles: str, indicators: list[int]):
    from tsumolab.policies.riichi_api import ROBS
    from tsumolab.sims.tiles import parse_tiles

    obs = np.zeros(ROBS.SIZE, np.int32)
    counts, _reds = parse_tiles(hand_tiles)
    obs[ROBS.hand:ROBS.hand + 34] = counts
    obs[ROBS.n_dora] = len(indicators)
    obs[ROBS.dora:ROBS.dora + 5] = -1
    obs[ROBS.dora:ROBS.dora + len(indicators)] = indicators
    return obs


def test_dora_keeper_keeps_dora_when_shanten_ties():
    """DF policy `dora-keeper`: with 5z and 6z shown (6z, 7z are dora) and shanten tied between 5m, 6z and 7z,
    it gives up the plain 5m, where baseline's efficiency keeps the 5m for its wider acceptance."""
    from tsumolab.policies.dora_keeper import value_discard
    from tsumolab.policies.riichi_common import efficient_discard
    from tsumolab.sims.shanten_tables import lookup_tables

    obs = _obs_with("123m456p789s22z5m67z", [31, 32])
    tables = lookup_tables()
    kind, after = value_discard(obs, tables, -1, -1)
    assert (kind, after) == (4, 1)
    assert efficient_discard(obs, tables, -1, -1)[0] in (32, 33)


def test_dora_keeper_keeps_the_last_red_five():
    """DF policy: a held red five counts as a dora, so among tied discards the other isolated tile goes."""
    from tsumolab.policies.dora_keeper import discard_value
    from tsumolab.policies.riichi_api import ROBS

    obs = _obs_with("123m789p789s22z5p9m1z", [])
    obs[ROBS.red + 1] = 1
    hand = obs[ROBS.hand:ROBS.hand + 34].copy()
    assert discard_value(obs, hand, 13) == 1 and discard_value(obs, hand, 8) == 0




def test_rule_df_scripted_three_indicators_count_kan_free_fourth_stays_hidden(build_wall, default_answer):
    """DF, a scripted hand: the first three indicators 1p, 5m, 2p make 2p, 6m and 3p dora, one each in seat 1's
    tanyao + pinfu hand; the fourth indicator position holds 1m (2m would be dora too, were it shown). Seat 1 rons
    the dealer's 4p: 2 + 3 dora = 5 han, a mangan: 8000 (one indicator, as in riichi: 3 han = 3900; four: a
    haneman 12000)."""
    from tsumolab.policies.riichi_api import D_REACT, ROBS, RON
    from tsumolab.sims.riichi.columns import H_DELTA, H_DORA, H_HAN
    from tsumolab.sims.riichi.positions import RiichiEngine

    hands = {0: "111m999p111s9s555z", 1: "23p234m678m678s22s", 2: "3456789s3456m77p", 3: "2233445566778s"}
    wall = build_wall(hands, "4p", at={126: 9, 128: 4, 130: 10, 132: 0})
    table = RiichiEngine(parse_seats("baseline"), DoraFeverRules(), keep_events=True)
    pos = table.start(wall=wall)

    def choose(pos):
        if pos.decision == D_REACT and pos.seat == 1 and pos.view[ROBS.can_win]:
            return RON
        return default_answer(pos)

    table.play_scripted(pos, choose)
    assert pos.rec[1, H_HAN] == 5 and pos.rec[1, H_DORA] == 3
    assert pos.rec[:, H_DELTA].tolist() == [-8000, 8000, 0, 0]
