"""`open-deal` 配牌明牌 (RULES.md OD): standard riichi with every starting hand shown, plus every riichi-core
invariant (R-1 … R-6) on simulated matches."""

import numpy as np
import pytest

from tsumolab.policies.registry import parse_seats
from tsumolab.policies.riichi_api import ROBS
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi.rules import OpenDealRules, RiichiRules
from tests.riichi_runs import FAST_MATCHES, FULL_MATCHES

SLUG = "open-deal"
SIZES = [pytest.param(FAST_MATCHES, id="fast"), pytest.param(FULL_MATCHES, id="full", marks=pytest.mark.slow)]


def test_rule_od_registered_as_a_table_option():
    """OD: the mode is the riichi table with `open_deal` on; the standard table has it off."""
    assert get_mode(SLUG).rules_class() == OpenDealRules() and OpenDealRules().open_deal
    assert not RiichiRules().open_deal


def test_rule_od_show_deal_makes_every_starting_hand_public():
    """OD: seat dealer + i gets wall tiles 13·i … 13·i + 12; every seat's observation shows all four hands."""
    from tsumolab.sims.riichi.deal_shown import show_deal

    wall = np.random.default_rng(4).permutation(136).astype(np.int64)
    obs = np.zeros((4, ROBS.SIZE), np.int32)
    show_deal(obs, wall, 2)
    for i in range(4):
        seat = (2 + i) % 4
        expected = np.bincount(wall[13 * i:13 * i + 13] // 4, minlength=34)
        for viewer in range(4):
            assert (obs[viewer, ROBS.deal_shown + 34 * seat:ROBS.deal_shown + 34 * seat + 34] == expected).all()


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.slow
def test_rule_od_riichi_core_invariants(n, riichi_checks):
    """OD keeps R-1 (136 tiles, legal answers), R-2 (points + sticks conserved), R-3 (no yakuless win, values
    recomputable, at most 3 ron) and R-4 (situational yaku) over ≥10,000 hands (100,000 slow)."""
    riichi_checks.riichi_core_invariants(SLUG, n)


def test_rule_od_r4_no_furiten_ron(riichi_checks):
    """R-4 under OD: no ron in furiten (permanent, temporary, riichi)."""
    riichi_checks.r4_no_furiten_ron_in_the_event_log(SLUG)


def test_rule_od_r1_dora_timing_and_riichi_conditions(riichi_checks):
    riichi_checks.r1_r4_dora_timing_and_riichi_conditions_in_the_event_log(SLUG)


def test_rule_od_is_standard_riichi_for_policies_that_ignore_the_deal():
    """OD changes only what is shown: with the same seeds, baseline plays exactly as in `riichi` (same walls)."""
    seats = parse_seats("baseline,random,majsoul-cpu,baseline")
    od = get_mode(SLUG).simulate(6, np.arange(60), seats)
    std = get_mode("riichi").simulate(6, np.arange(60), seats)
    assert np.array_equal(od[0], std[0]) and np.array_equal(od[1], std[1])


def test_rule_od_deal_reader_sees_the_shown_hands_only_in_open_deal():
    """OD: the shown-deal block is filled only in this mode: `deal-reader` plays exactly like baseline in
    `riichi` (block all zero) and differently in `open-deal`."""
    base = parse_seats("baseline")
    reader = parse_seats("deal-reader")
    std_base = get_mode("riichi").simulate(7, np.arange(40), base)[0]
    std_reader = get_mode("riichi").simulate(7, np.arange(40), reader)[0]
    assert np.array_equal(std_base, std_reader)
    od_base = get_mode(SLUG).simulate(7, np.arange(40), base)[0]
    od_reader = get_mode(SLUG).simulate(7, np.arange(40), reader)[0]
    assert od_base.shape != od_reader.shape or not np.array_equal(od_base, od_reader)


def test_deal_reader_avoids_completing_shown_shapes():
    """OD policy: against an opponent in riichi, a tile that fills a kanchan or matches a pair of their shown hand
    costs; safe ones (in that opponent's river) and unrelated tiles do not."""
    from tsumolab.policies.deal_reader import completes_shape, deal_danger

    deal = np.zeros(34, np.int32)
    deal[[2, 4]] = 1      # 3m 5m: 4m fills the kanchan, 1m … 6m extend nothing but 4m
    deal[30] = 2          # a pair of 4z
    assert completes_shape(deal, 3) == 1 and completes_shape(deal, 30) == 2
    assert completes_shape(deal, 8) == 0 and completes_shape(deal, 9) == 0
    obs = np.zeros(ROBS.SIZE, np.int32)
    obs[ROBS.seat] = 0
    obs[ROBS.deal_shown + 34 * 1:ROBS.deal_shown + 34 * 2] = deal
    obs[ROBS.safe + 34 * 1 + 30] = 1
    assert not deal_danger(obs).any()  # nobody in riichi: no defense needed
    obs[ROBS.riichi + 1] = 1
    cost = deal_danger(obs)
    assert cost[3] == 1 and cost[30] == 0 and cost[20] == 0


def test_rule_od_event_log_does_not_change_play(riichi_checks):
    riichi_checks.event_log_does_not_change_play(SLUG)


def test_rule_od_run_command(tmp_path, capsys, riichi_checks):
    """`tsumolab run --variant open-deal` writes the riichi tables and an event log that rederives every delta."""
    riichi_checks.run_writes_tables_and_an_event_log_that_rederives_deltas(SLUG, tmp_path, capsys)


@pytest.mark.parametrize("slug", ["open-deal", "riichi"])
def test_rule_od_scripted_every_starting_hand_is_shown_and_stays_the_deal(slug, build_wall, default_answer,
                                                                          tile_kinds):
    """OD, a scripted hand: at seat 1's first turn and again at the dealer's second turn, the deciding seat's view
    shows each seat's starting 13 tiles exactly as dealt from the wall (the block is the deal, not the current
    hand: the dealer has discarded one of its dealt 1m by then); in `riichi` the block stays empty."""
    from tsumolab.policies.riichi_api import D_TURN
    from tsumolab.sims.riichi.positions import RiichiEngine

    hands = {0: "111m999p111s9s555z", 1: "23p234m678m678s22s", 2: "3456789s3456m77p", 3: "2233445566778s"}
    dealt = np.zeros((4, 34), np.int32)
    if slug == "open-deal":
        for seat, text in hands.items():
            for k in tile_kinds(text):
                dealt[seat, k] += 1
    table = RiichiEngine(parse_seats("baseline"), get_mode(slug).rules_class())
    pos = table.start(wall=build_wall(hands, "1z2z3z4z5z"))
    views = []

    def choose(pos):
        if pos.decision == D_TURN and pos.seat == 0 and pos.view[ROBS.hand + 0] == 3:
            return 0  # the dealer's first discard is a dealt 1m
        if pos.decision == D_TURN and len(views) < 2 and pos.seat in (0, 1):
            views.append((pos.seat, pos.view[ROBS.deal_shown:ROBS.deal_shown + 4 * 34].reshape(4, 34).copy()))
        return default_answer(pos)

    table.play_scripted(pos, choose)
    assert [seat for seat, _ in views] == [1, 0]
    for _, block in views:
        np.testing.assert_array_equal(block, dealt)
