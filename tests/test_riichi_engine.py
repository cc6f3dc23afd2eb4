"""Invariants of the compiled riichi engine (RULES.md R-1 … R-6) in the `riichi` and `shura` modes.

A fast subset (about 15,000-20,000 hands per mode) runs in the normal suite; the same checks over 100,000+ hands
per mode are marked slow.
"""

import numpy as np
import polars as pl
import pytest

from tsumolab.policies.registry import all_policies, parse_seats
from tests.riichi_runs import FAST_MATCHES, FULL_MATCHES, per_hand, run

MODES = ("riichi", "shura")


def _sizes():
    return [pytest.param(FAST_MATCHES, id="fast"), pytest.param(FULL_MATCHES, id="full", marks=pytest.mark.slow)]


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.parametrize("slug", MODES)
@pytest.mark.slow
def test_enough_hands(slug, n, riichi_checks):
    riichi_checks.enough_hands(slug, n)


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.parametrize("slug", MODES)
def test_rule_r1_tiles_conserved_and_no_illegal_answers(slug, n, riichi_checks):
    """R-1: 136 tiles in wall, dead wall, hands, melds and rivers at every hand's end; built-ins act legally."""
    riichi_checks.r1_tiles_conserved_and_no_illegal_answers(slug, n)


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.parametrize("slug", MODES)
def test_rule_r2_points_and_sticks_conserved(slug, n, riichi_checks):
    """R-2: every payment moves points between seats or onto/off the stick pile; sticks left go to first."""
    riichi_checks.r2_points_and_sticks_conserved(slug, n)


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.parametrize("slug", MODES)
def test_rule_r3_every_win_has_a_yaku_and_a_recomputable_value(slug, n, riichi_checks):
    """R-3: no win without a yaku (dora are not yaku); the recorded value follows from han/fu/yakuman."""
    riichi_checks.r3_every_win_has_a_yaku_and_a_recomputable_value(slug, n)


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.slow
def test_rule_r2_r3_riichi_payments_recomputable_from_records(n, win_value):
    """R-2/R-3 in `riichi`: ron = value + 300/honba from the discarder; tsumo shares + 100/honba from each other
    seat; the winner takes the sticks; riichi declarers pay 1000; noten payments at exhaustive draws (R-6)."""
    for spec, _, hands, _ in run("riichi", n):
        h = per_hand(hands).filter(pl.col("pao") == 0)
        rows = hands.join(h.select("match_id", "hand", "winners", "dealer_seat"), on=["match_id", "hand"],
                          suffix="_h")
        checked = 0
        for (match_id, hand_no), group in rows.group_by(["match_id", "hand"]):
            g = group.sort("seat")
            if g["winners"][0] != 1 or g["hand_end"][0] not in ("win", "bust"):
                continue
            winner = g.filter(pl.col("won")).row(0, named=True)
            honba = winner["honba"]
            stick = (g["riichi"] != "none").cast(pl.Int64).to_numpy() * 1000
            expected = -stick
            expected[winner["seat"]] += winner["win_points"]
            assert winner["win_points"] == winner["value"] + 300 * honba + 1000 * winner["sticks_won"], spec
            if winner["win_kind"] == "ron":
                discarder = int(np.flatnonzero(g["dealt_in"].to_numpy())[0])
                expected[discarder] -= winner["value"] + 300 * honba
            else:
                _, _, share_dealer, share_other = win_value(winner["han"], winner["fu"], winner["yakuman"],
                                                             winner["dealer"], True)
                for s in range(4):
                    if s != winner["seat"]:
                        share = share_dealer if (s == g["dealer_seat"][0] and not winner["dealer"]) else share_other
                        expected[s] -= share + 100 * honba
            assert (g["delta"].to_numpy() == expected).all(), (spec, match_id, hand_no)
            checked += 1
        assert checked > 0


@pytest.mark.parametrize("n", _sizes())
def test_rule_r6_noten_payments_split_3000(n):
    """R-6: at an exhaustive draw without nagashi mangan, 3000 moves from the noten to the tenpai players."""
    for spec, _, hands, _ in run("riichi", n):
        draws = hands.filter(pl.col("hand_end") == "exhaustive")
        for (_m, _h), g in draws.group_by(["match_id", "hand"]):
            if g["nagashi"].any():
                continue
            tenpai = g["tenpai_at_draw"].to_numpy()
            pay = g["noten_payment"].to_numpy()
            t = int(tenpai.sum())
            if t in (0, 4):
                assert (pay == 0).all()
            else:
                assert (pay[tenpai] == 3000 // t).all() and (pay[~tenpai] == -3000 // (4 - t)).all(), spec


@pytest.mark.parametrize("n", _sizes())
def test_rule_r2_r5_dealer_honba_and_match_end(n):
    """R-2 renchan and honba, R-5 aborts keep the deal with honba + 1, the East game with sudden-death South."""
    for spec, _, hands, matches in run("riichi", n):
        h = per_hand(hands).sort(["match_id", "hand"])
        aborts = ("nine_terminals", "four_winds", "four_riichi", "four_kans")
        for match_id, g in h.group_by("match_id"):
            g = g.sort("hand")
            rows = g.to_dicts()
            for a, b in zip(rows, rows[1:]):
                keeps = a["hand_end"] in aborts or a["dealer_won"] or (a["hand_end"] == "exhaustive"
                                                                        and a["dealer_tenpai"])
                assert b["dealer_seat"] == (a["dealer_seat"] if keeps else (a["dealer_seat"] + 1) % 4), spec
                if keeps or a["hand_end"] == "exhaustive":
                    assert b["honba"] == a["honba"] + 1, spec
                else:
                    assert b["honba"] == 0, spec
                assert a["hand_end"] != "bust"
            last = rows[-1]
            if last["hand_end"] != "bust":
                assert last["round"] >= "E4" or last["round"].startswith("S"), spec
        ends = set(h["hand_end"].unique())
        assert {"win", "exhaustive"} <= ends
    assert any("four_winds" in set(per_hand(hh)["hand_end"]) for _, _, hh, _ in run("riichi", n))


@pytest.mark.parametrize("n", _sizes())
def test_rule_r2_south_extension_is_sudden_death(n):
    """R-2: a South hand is played with someone at 30000 only when the dealer kept the deal (its renchan comes
    first); a South hand after the deal passed starts with nobody at 30000."""
    for spec, _, hands, _ in run("riichi", n):
        h = per_hand(hands).sort(["match_id", "hand"])
        before = hands.group_by(["match_id", "hand"]).agg(pl.col("points_before").max().alias("top"))
        h = h.join(before, on=["match_id", "hand"]).sort(["match_id", "hand"])
        h = h.with_columns(pl.col("dealer_seat").shift(1).over("match_id").alias("prev_dealer"))
        south = h.filter(pl.col("round").str.starts_with("S"))
        assert south.height > 0
        assert (south.filter(pl.col("top") >= 30000)["dealer_seat"] ==
                south.filter(pl.col("top") >= 30000)["prev_dealer"]).all(), spec


@pytest.mark.parametrize("slug", MODES)
def test_rule_r4_no_furiten_ron_in_the_event_log(slug, riichi_checks):
    """R-4: a ron never takes a tile the winner discarded earlier (furiten), never follows a ron the winner let
    pass since its own last discard (temporary furiten), nor any win let pass after its riichi."""
    riichi_checks.r4_no_furiten_ron_in_the_event_log(slug)


@pytest.mark.parametrize("slug", MODES)
def test_rule_r3_multiple_ron_at_most_three(slug, riichi_checks):
    """R-3: up to 3 winners on one discard (the riichi mode's hand ends with them)."""
    riichi_checks.r3_multiple_ron_at_most_three(slug)


def test_baseline_riichi_sanity_rates():
    """Four baselines in `riichi`: win, deal-in and riichi rates in a plausible range for the game."""
    _, _, hands, _ = run("riichi", FAST_MATCHES)[0]
    win = hands["won"].mean()
    deal_in = (hands["dealt_in"] > 0).mean()
    riichi = (hands["riichi"] != "none").mean()
    assert 0.17 <= win <= 0.27
    assert 0.08 <= deal_in <= 0.18
    assert 0.22 <= riichi <= 0.50


def test_readme_lists_every_riichi_column():
    """README "Riichi and Shura columns" documents every column of both riichi tables."""
    from pathlib import Path

    from tsumolab.analyzer.tables import TABLES, table_columns

    text = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = text.split("### Riichi and Shura columns", 1)[1]
    missing = [name for t in TABLES for name, *_ in table_columns(t, "riichi") if f"`{name}`" not in section]
    assert not missing


def test_riichi_hooks_receive_only_the_observation():
    """Every riichi hook is compiled for (obs, params, tables) alone, like the Bloodshed hooks."""
    import inspect

    from tsumolab.policies import api

    for policy in all_policies():
        for name, fn in policy.riichi_hooks.items():
            assert list(inspect.signature(fn.py_func).parameters) == ["obs", "params", "tables"], (policy.name, name)
            assert api.compiled_hook(fn).nopython_signatures == [api.HOOK_SIG], (policy.name, name)


def test_riichi_observation_layout_has_one_concealed_block():
    """policies.riichi_api.ROBS: the only concealed-tile block is the seat's own (that the fields tile the array
    without overlapping: tests/test_observation_layouts.py)."""
    from tsumolab.policies import riichi_api as ra
    from tsumolab.sims.layout import describe

    assert [name for name, _, width, _ in describe(ra.ROBS) if width == 34] == ["hand", "seen", "kan_options"]


@pytest.mark.parametrize("slug", MODES)
def test_run_writes_tables_and_an_event_log_that_rederives_deltas(slug, tmp_path, capsys, riichi_checks):
    """`tsumolab run --variant riichi|shura` writes the riichi tables; every payment is in the event log."""
    riichi_checks.run_writes_tables_and_an_event_log_that_rederives_deltas(slug, tmp_path, capsys)


@pytest.mark.parametrize("slug", MODES)
def test_event_log_does_not_change_play(slug, riichi_checks):
    riichi_checks.event_log_does_not_change_play(slug)


@pytest.mark.parametrize("slug", MODES)
def test_rule_r4_situational_yaku_are_consistent(slug, riichi_checks):
    """R-4: ippatsu only with riichi; haitei and rinshan only on tsumo; houtei and chankan only on ron; double
    riichi recorded as such."""
    riichi_checks.r4_situational_yaku_are_consistent(slug)


@pytest.mark.parametrize("slug", MODES)
def test_rule_r1_r4_dora_timing_and_riichi_conditions_in_the_event_log(slug, riichi_checks):
    """R-1: a closed kan shows its indicator at once, an open/added kan after the kan player's discard (or
    before their next kan); at most 5 indicators. R-4: riichi needs ≥1000 points, ≥4 tiles in the wall and a
    closed hand."""
    riichi_checks.r1_r4_dora_timing_and_riichi_conditions_in_the_event_log(slug)


def test_event_log_overflow_falls_back_to_one_match_at_a_time():
    """A log too small for the matches is redone match by match: same events as with ample room."""
    from tsumolab.sims.riichi.play import play
    from tsumolab.sims.riichi.rules import STANDARD

    seats = parse_seats("baseline,random,baseline,disconnected")
    small = play(4, np.arange(6), seats, STANDARD, record_events=True, events_per_match=50)[2]
    ample = play(4, np.arange(6), seats, STANDARD, record_events=True, events_per_match=20_000)[2]
    assert np.array_equal(small, ample) and len(ample) > 300


