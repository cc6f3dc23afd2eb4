"""Checks of the riichi core (RULES.md R-1 … R-6) that every riichi-based mode must pass, given its slug.

tests/test_riichi_engine.py runs them on `riichi` and `shura`; each mode's test file runs them on its own mode.
Test files reach them through the `riichi_checks` fixture (tests/conftest.py), never by importing a test file.
"""

from collections import defaultdict

import numpy as np
import polars as pl

from tsumolab.policies.registry import parse_seats
from tsumolab.sims.events import EV_DISCARD, EV_END, EV_PASS, EV_WIN
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi.scoring_rules import ScoringRules
from tsumolab.sims.riichi.scoring import base_points, payments
from tsumolab.sims.riichi.tableau import EV_RIICHI
from tests.riichi_runs import FAST_MATCHES, FULL_MATCHES, per_hand, run
from tests.cli_run import run_cli

OPTS = ScoringRules().to_array()


def win_value(han, fu, yakuman, dealer, tsumo):
    """(total, ron, tsumo_dealer, tsumo_other) payments of a win under the standard riichi rules."""
    base, _limit = base_points(int(han), int(fu), int(yakuman), OPTS)
    return payments(base, bool(dealer), bool(tsumo))


def enough_hands(slug, n):
    hands = sum(int(c[engine.CNT_HANDS]) for _, c, _, _ in run(slug, n))
    assert hands >= (100_000 if n == FULL_MATCHES else 10_000)


def r1_tiles_conserved_and_no_illegal_answers(slug, n):
    """R-1: 136 tiles in wall, dead wall, hands, melds and rivers at every hand's end; built-ins act legally."""
    for spec, counters, _, _ in run(slug, n):
        assert counters[engine.CNT_TILE_ERRORS] == 0, spec
        assert counters[engine.CNT_ILLEGAL] == 0, spec


def r2_points_and_sticks_conserved(slug, n):
    """R-2: every payment moves points between seats or onto/off the stick pile; sticks left go to first."""
    for spec, _, hands, matches in run(slug, n):
        h = per_hand(hands)
        assert (h["delta_sum"] + 1000 * (h["sticks_after"] - h["sticks_before"]) == 0).all(), spec
        totals = matches.group_by("match_id").agg(pl.col("final_points").sum())
        start = get_mode(slug).rules_class().start_points  # 25000; other modes their own (DE: 40000)
        assert (totals["final_points"] == 4 * start).all(), spec


def r3_every_win_has_a_yaku_and_a_recomputable_value(slug, n):
    """R-3: no win without a yaku (dora are not yaku); the recorded value follows from han/fu/yakuman."""
    for spec, _, hands, _ in run(slug, n):
        wins = hands.filter(pl.col("won"))
        assert wins.height > 0, spec
        assert (wins["yaku"].str.len_chars() > 0).all(), spec
        assert (wins["han"] >= 1).all() and (wins["han"] > wins["dora"]).all(), spec
        for row in wins.select("han", "fu", "yakuman", "dealer", "win_kind", "value").iter_rows():
            han, fu, yakuman, dealer, kind, value = row
            assert win_value(han, fu, yakuman, dealer, kind == "tsumo")[0] == value, (spec, row)


def r4_no_furiten_ron_in_the_event_log(slug):
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


def r3_multiple_ron_at_most_three(slug):
    """R-3: up to 3 winners on one discard (the riichi mode's hand ends with them)."""
    for spec, _, hands, _ in run(slug, FAST_MATCHES):
        h = per_hand(hands)
        assert (h["n_won"] == h["winners"]).all() and (h["n_won"] <= 3).all(), spec
        if slug == "riichi":
            assert (h.filter(pl.col("hand_end") == "win")["n_won"] >= 1).all()


def run_writes_tables_and_an_event_log_that_rederives_deltas(slug, tmp_path, capsys):
    """`tsumolab run --variant riichi|shura` writes the riichi tables; every payment is in the event log."""
    from tsumolab.analyzer.runs.runner import combined_tables
    from tsumolab.sims.riichi.events import EVENT_FIELDS

    out = tmp_path / "run"
    code, _, err = run_cli(["run", "--variant", slug, "--matches", "40", "--seed", "5", "--seats",
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


def event_log_does_not_change_play(slug):
    mode = get_mode(slug)
    seats = parse_seats("baseline")
    plain = mode.simulate(8, np.arange(20), seats)
    logged = mode.simulate_events(8, np.arange(20), seats)
    assert (plain[0] == logged[0]).all() and (plain[1] == logged[1]).all()


def r4_situational_yaku_are_consistent(slug):
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


def r1_r4_dora_timing_and_riichi_conditions_in_the_event_log(slug):
    """R-1: a closed kan shows its indicator at once, an open/added kan after the kan player's discard (or
    before their next kan); at most 5 indicators. R-4: riichi needs ≥1000 points, ≥4 tiles in the wall and a
    closed hand."""
    from tsumolab.policies.registry import parse_seats as seats_of
    from tsumolab.sims import tiles as T
    from tsumolab.sims.events import EV_DEAL, EV_DRAW, EV_KAN, EV_PAY, EV_PON, EV_START
    from tsumolab.sims.riichi.events import EV_CHI, EV_DORA

    mode = get_mode(slug)
    hand_rows, _, events = mode.simulate_events(9, np.arange(400), seats_of("baseline,random,baseline,random"))
    from tsumolab.sims.riichi.columns import HC

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


def riichi_core_invariants(slug, n):
    """The riichi-core invariants (R-1 … R-4) a mode built on the core must keep, over `n` matches per run;
    the per-hand checks on multiple ron and situational yaku run at the fast size."""
    enough_hands(slug, n)
    r1_tiles_conserved_and_no_illegal_answers(slug, n)
    r2_points_and_sticks_conserved(slug, n)
    r3_every_win_has_a_yaku_and_a_recomputable_value(slug, n)
    if n == FAST_MATCHES:
        r3_multiple_ron_at_most_three(slug)
        r4_situational_yaku_are_consistent(slug)
