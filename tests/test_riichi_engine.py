"""Invariants of the compiled riichi engine (RULES.md R-1 … R-6) in the `riichi` and `shura` modes.

A fast subset (about 15,000-20,000 hands per mode) runs in the normal suite; the same checks over 100,000+ hands
per mode are marked slow.
"""

from collections import defaultdict

import numpy as np
import polars as pl
import pytest

from policies.registry import all_policies, parse_seats
from sims.events import EV_DISCARD, EV_END, EV_PASS, EV_WIN
from sims.modes import get_mode
from sims.riichi import engine
from sims.riichi.rules import RiichiRules
from sims.riichi.scoring import base_points, payments
from sims.riichi.tableau import EV_RIICHI
from tests.riichi_runs import FAST_MATCHES, FULL_MATCHES, per_hand, run

MODES = ("riichi", "shura")
OPTS = RiichiRules().to_array()


def _sizes():
    return [pytest.param(FAST_MATCHES, id="fast"), pytest.param(FULL_MATCHES, id="full", marks=pytest.mark.slow)]


def _win_value(han, fu, yakuman, dealer, tsumo):
    base, _limit = base_points(int(han), int(fu), int(yakuman), OPTS)
    return payments(base, bool(dealer), bool(tsumo))


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.parametrize("slug", MODES)
def test_enough_hands(slug, n):
    hands = sum(int(c[engine.CNT_HANDS]) for _, c, _, _ in run(slug, n))
    assert hands >= (100_000 if n == FULL_MATCHES else 10_000)


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.parametrize("slug", MODES)
def test_r1_tiles_conserved_and_no_illegal_answers(slug, n):
    """R-1: 136 tiles in wall, dead wall, hands, melds and rivers at every hand's end; built-ins act legally."""
    for spec, counters, _, _ in run(slug, n):
        assert counters[engine.CNT_TILE_ERRORS] == 0, spec
        assert counters[engine.CNT_ILLEGAL] == 0, spec


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.parametrize("slug", MODES)
def test_r2_points_and_sticks_conserved(slug, n):
    """R-2: every payment moves points between seats or onto/off the stick pile; sticks left go to first."""
    for spec, _, hands, matches in run(slug, n):
        h = per_hand(hands)
        assert (h["delta_sum"] + 1000 * (h["sticks_after"] - h["sticks_before"]) == 0).all(), spec
        totals = matches.group_by("match_id").agg(pl.col("final_points").sum())
        start = get_mode(slug).RULES().start_points  # 25000; other modes their own (DE: 40000)
        assert (totals["final_points"] == 4 * start).all(), spec


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.parametrize("slug", MODES)
def test_r3_every_win_has_a_yaku_and_a_recomputable_value(slug, n):
    """R-3: no win without a yaku (dora are not yaku); the recorded value follows from han/fu/yakuman."""
    for spec, _, hands, _ in run(slug, n):
        wins = hands.filter(pl.col("won"))
        assert wins.height > 0, spec
        assert (wins["yaku"].str.len_chars() > 0).all(), spec
        assert (wins["han"] >= 1).all() and (wins["han"] > wins["dora"]).all(), spec
        for row in wins.select("han", "fu", "yakuman", "dealer", "win_kind", "value").iter_rows():
            han, fu, yakuman, dealer, kind, value = row
            assert _win_value(han, fu, yakuman, dealer, kind == "tsumo")[0] == value, (spec, row)


@pytest.mark.parametrize("n", _sizes())
def test_r2_r3_riichi_payments_recomputable_from_records(n):
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
                _, _, share_dealer, share_other = _win_value(winner["han"], winner["fu"], winner["yakuman"],
                                                             winner["dealer"], True)
                for s in range(4):
                    if s != winner["seat"]:
                        share = share_dealer if (s == g["dealer_seat"][0] and not winner["dealer"]) else share_other
                        expected[s] -= share + 100 * honba
            assert (g["delta"].to_numpy() == expected).all(), (spec, match_id, hand_no)
            checked += 1
        assert checked > 0


@pytest.mark.parametrize("n", _sizes())
def test_r6_noten_payments_split_3000(n):
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
def test_r2_r5_dealer_honba_and_match_end(n):
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
def test_r2_south_extension_is_sudden_death(n):
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
def test_r4_no_furiten_ron_in_the_event_log(slug):
    """R-4: a ron never takes a tile the winner discarded earlier (furiten), never follows a ron the winner let
    pass since its own last discard (temporary furiten), nor any win let pass after its riichi."""
    mode = get_mode(slug)
    _, _, events = mode.simulate_events(5, np.arange(300), parse_seats("baseline,random,baseline,majsoul-cpu"))
    discarded = defaultdict(set)
    passed_since_discard = defaultdict(bool)
    passed_in_riichi = defaultdict(bool)
    in_riichi = defaultdict(bool)
    rons = 0
    for match_id, hand_no, kind, seat, tile, a, b, c in events.tolist():
        key = (match_id, hand_no, seat)
        if kind == EV_DISCARD:
            discarded[key].add(tile)
            passed_since_discard[key] = False
        elif kind == EV_RIICHI:
            in_riichi[key] = True
        elif kind == EV_PASS:
            if b == 0:
                passed_since_discard[key] = True
            if in_riichi[key]:
                passed_in_riichi[key] = True
        elif kind == EV_WIN and c == engine.WIN_RON:
            rons += 1
            assert tile not in discarded[key], key
            assert not passed_since_discard[key], key
            assert not passed_in_riichi[key], key
    assert rons > 100


@pytest.mark.parametrize("slug", MODES)
def test_r3_multiple_ron_at_most_three(slug):
    """R-3: up to 3 winners on one discard (the riichi mode's hand ends with them)."""
    for spec, _, hands, _ in run(slug, FAST_MATCHES):
        h = per_hand(hands)
        assert (h["n_won"] == h["winners"]).all() and (h["n_won"] <= 3).all(), spec
        if slug == "riichi":
            assert (h.filter(pl.col("hand_end") == "win")["n_won"] >= 1).all()


def _riichi_policy_modes():
    return [(slug, p.name) for p in all_policies() for slug in MODES if slug in p.modes]


@pytest.mark.parametrize(("slug", "name"), _riichi_policy_modes())
def test_policy_conformance_legal_and_deterministic(slug, name):
    """Every policy declaring a riichi mode answers legally at every decision and is deterministic."""
    mode = get_mode(slug)
    for spec in (name, f"{name},baseline,{name},random"):
        counters = np.zeros(engine.N_COUNTERS, np.int64)
        first = mode.simulate(3, np.arange(150), parse_seats(spec), counters=counters)
        assert counters[engine.CNT_ILLEGAL] == 0, spec
        assert counters[engine.CNT_TILE_ERRORS] == 0, spec
        again = mode.simulate(3, np.arange(150), parse_seats(spec))
        assert np.array_equal(first[0], again[0]) and np.array_equal(first[1], again[1]), spec


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

    from analyzer.tables import TABLES, table_columns

    text = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = text.split("### Riichi and Shura columns", 1)[1]
    missing = [name for t in TABLES for name, *_ in table_columns(t, "riichi") if f"`{name}`" not in section]
    assert not missing


def test_riichi_hooks_receive_only_the_observation():
    """Every riichi hook is compiled for (obs, params, tables) alone, like the Bloodshed hooks."""
    import inspect

    from policies import api

    for policy in all_policies():
        for name, fn in policy.riichi_hooks.items():
            assert list(inspect.signature(fn.py_func).parameters) == ["obs", "params", "tables"], (policy.name, name)
            assert list(fn.nopython_signatures) == [api.HOOK_SIG], (policy.name, name)


def test_riichi_observation_layout_has_one_concealed_block():
    """policies.riichi_api: slots do not overlap, and the only concealed-tile block is the seat's own."""
    from policies import riichi_api as ra

    widths = {"O_HAND": 34, "O_DORA": 5, "O_WON": 4, "O_POINTS": 4, "O_RIICHI": 4, "O_N_MELDS": 4, "O_N_DISCARDS": 4,
              "O_OPEN": 4, "O_MELDS": 32, "O_MELD_TILES": 136, "O_DISCARDED": 136, "O_SAFE": 136, "O_SEEN": 34,
              "O_RED": 3, "O_KAN_OPTIONS": 34, "O_RIICHI_TILE": 4, "O_FATE_OPEN": 136, "O_CHANT": 8}
    slots = sorted((getattr(ra, n), widths.get(n, 1), n) for n in dir(ra) if n.startswith("O_"))
    for (start, width, name), (nxt, _, nxt_name) in zip(slots, slots[1:]):
        assert start + width <= nxt, f"{name} overlaps {nxt_name}"
    assert slots[-1][0] + slots[-1][1] <= ra.R_OBS_SIZE
    assert [n for _, w, n in slots if w == 34] == ["O_HAND", "O_SEEN", "O_KAN_OPTIONS"]


def _cli(args, capsys):
    from analyzer.cli import main

    try:
        main(args)
    except SystemExit as exc:
        out = capsys.readouterr()
        return exc.code, out.out, out.err
    raise AssertionError("main() did not exit")


@pytest.mark.parametrize("slug", MODES)
def test_run_writes_tables_and_an_event_log_that_rederives_deltas(slug, tmp_path, capsys):
    """`tsumolab run --variant riichi|shura` writes the riichi tables; every payment is in the event log."""
    from analyzer.runner import combined_tables
    from sims.riichi.events import EVENT_FIELDS

    out = tmp_path / "run"
    code, _, err = _cli(["run", "--variant", slug, "--matches", "40", "--seed", "5", "--seats",
                         "baseline,random,majsoul-cpu,baseline", "--out", str(out), "--quiet", "--record-events", "40"],
                        capsys)
    assert code == 0, err
    hands, matches = combined_tables(out)
    assert "yaku" in hands.columns and "han" in hands.columns and matches.height == 160
    log = pl.read_parquet(out / "events.parquet")
    kinds = {name: k for k, (name, _) in EVENT_FIELDS.items()}
    pays = log.filter(pl.col("event") == "pay")
    deltas = defaultdict(lambda: np.zeros(4, np.int64))
    for match_id, hand, payer, receiver, amount in pays.select("match_id", "hand", "seat", "tile", "a").iter_rows():
        if payer >= 0:
            deltas[match_id, hand][payer] -= amount
        if receiver >= 0:
            deltas[match_id, hand][receiver] += amount
    for match_id, hand, seat, delta in hands.select("match_id", "hand", "seat", "delta").iter_rows():
        assert deltas[match_id, hand][seat] == delta
    assert set(log["event"].unique()) <= set(kinds)


@pytest.mark.parametrize("slug", MODES)
def test_event_log_does_not_change_play(slug):
    mode = get_mode(slug)
    seats = parse_seats("baseline")
    plain = mode.simulate(8, np.arange(20), seats)
    logged = mode.simulate_events(8, np.arange(20), seats)
    assert (plain[0] == logged[0]).all() and (plain[1] == logged[1]).all()


@pytest.mark.parametrize("slug", MODES)
def test_r4_situational_yaku_are_consistent(slug):
    """R-4: ippatsu only with riichi; haitei and rinshan only on tsumo; houtei and chankan only on ron; double
    riichi recorded as such."""
    for spec, _, hands, _ in run(slug, FAST_MATCHES):
        wins = hands.filter(pl.col("won"))
        yaku = wins["yaku"].str.split(",")
        kind = wins["win_kind"]
        for names, k, riichi in zip(yaku.to_list(), kind.to_list(), wins["riichi"].to_list()):
            if "Riichi" in names:
                assert riichi == "riichi", (spec, names)
            if "Double Riichi" in names:
                assert riichi == "double", (spec, names)
            if "Ippatsu" in names:
                assert "Riichi" in names or "Double Riichi" in names
            if {"Haitei Raoyue", "Rinshan Kaihou", "Menzen Tsumo"} & set(names):
                assert k == "tsumo", (spec, names)
            if {"Houtei Raoyui", "Chankan"} & set(names):
                assert k == "ron", (spec, names)


@pytest.mark.parametrize("slug", MODES)
def test_r1_r4_dora_timing_and_riichi_conditions_in_the_event_log(slug):
    """R-1: a closed kan shows its indicator at once, an open/added kan after the kan player's discard (or
    before their next kan); at most 5 indicators. R-4: riichi needs ≥1000 points, ≥4 tiles in the wall and a
    closed hand."""
    from policies.registry import parse_seats as seats_of
    from sims import tiles as T
    from sims.events import EV_DEAL, EV_DRAW, EV_KAN, EV_PAY, EV_PON, EV_START
    from sims.riichi.events import EV_CHI, EV_DORA

    mode = get_mode(slug)
    hand_rows, _, events = mode.simulate_events(9, np.arange(400), seats_of("baseline,random,baseline,random"))
    from sims.riichi.columns import HC

    points = {(int(r[HC["match_id"]]), int(r[HC["hand"]]), int(r[HC["seat"]])): int(r[HC["points_before"]])
              for r in hand_rows}
    rows = events.tolist()
    kans = 0
    riichis = 0
    state = {}
    for i, (m, h, kind, seat, tile, a, b, c) in enumerate(rows):
        if kind == EV_START:
            state = {"pts": [points[m, h, s] for s in range(4)], "dora": 0, "kans": 0, "drawn": 0, "open": set()}
        elif kind == EV_DEAL:
            state["drawn"] += 1
        elif kind == EV_DRAW and a == 0:
            state["drawn"] += 1
        elif kind == EV_DORA:
            state["dora"] += 1
            assert state["dora"] <= 5
        elif kind == EV_PAY:
            if seat >= 0:
                state["pts"][seat] -= a
            if tile >= 0:
                state["pts"][tile] += a
        elif kind in (EV_PON, EV_CHI):
            state["open"].add(seat)
        elif kind == EV_RIICHI:
            riichis += 1
            wall_left = 122 - state["kans"] - state["drawn"]
            assert state["pts"][seat] >= 1000 and wall_left >= 4 and seat not in state["open"]
        elif kind == EV_KAN:
            kans += 1
            state["kans"] += 1
            if a != T.ANKAN:
                state["open"].add(seat)
                if slug == "riichi":  # the indicator after the kan player's discard, or before their next kan
                    later = rows[i + 1:]
                    j = next((k for k, r in enumerate(later) if r[2] == EV_DORA or (r[0], r[1]) != (m, h)), None)
                    if j is not None and later[j][2] == EV_DORA:
                        before, after = later[j - 1], later[j + 1]
                        assert (before[2], before[3]) == (EV_DISCARD, seat) or (after[2], after[3]) == (EV_KAN, seat)
                continue
            nxt = next(r for r in rows[i + 1:] if r[2] not in (EV_PAY, EV_PASS, EV_WIN))  # after any rob
            assert nxt[2] == EV_DORA or state["dora"] == 5 or nxt[2] == EV_END, rows[i:i + 3]
    assert kans > 20 and riichis > 100


def test_event_log_overflow_falls_back_to_one_match_at_a_time():
    """A log too small for the matches is redone match by match: same events as with ample room."""
    from sims.riichi.play import play
    from sims.riichi.table import STANDARD

    seats = parse_seats("baseline,random,baseline,disconnected")
    small = play(4, np.arange(6), seats, STANDARD, record_events=True, events_per_match=50)[2]
    ample = play(4, np.arange(6), seats, STANDARD, record_events=True, events_per_match=20_000)[2]
    assert np.array_equal(small, ample) and len(ample) > 300


def check_riichi_core(slug, n):
    """The riichi-core invariants (R-1 … R-4) a mode built on the core must keep, over `n` matches per run;
    the per-hand checks on multiple ron and situational yaku run at the fast size."""
    test_enough_hands(slug, n)
    test_r1_tiles_conserved_and_no_illegal_answers(slug, n)
    test_r2_points_and_sticks_conserved(slug, n)
    test_r3_every_win_has_a_yaku_and_a_recomputable_value(slug, n)
    if n == FAST_MATCHES:
        test_r3_multiple_ron_at_most_three(slug)
        test_r4_situational_yaku_are_consistent(slug)
