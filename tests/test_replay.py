"""Replay: event logs re-derive every payment, and replaying a match reproduces its Parquet rows."""

import json

import numpy as np
import polars as pl

from tsumolab.sims.modes import get_mode
from tsumolab.analyzer.replay.bloodshed_events import deltas_from_events, to_json_events, to_text
from tsumolab.analyzer.runs.runner import combined_tables
from tsumolab.analyzer.tables import hand_table, match_table
from tsumolab.policies.registry import parse_seats
from tsumolab.sims.events import EVENT_FIELDS
from tsumolab.sims.bloodshed.columns import HC
from tests.cli_run import run_cli

bloodshed = get_mode("bloodshed")


def test_events_rederive_every_hands_delta(tmp_path, capsys):
    """1,000+ hands: the payments and settlements in the event log alone give each hand's point deltas in
    the `hands` Parquet rows (wins B-19, kans B-14/B-15, refunds and draw settlement B-21 … B-23)."""
    out = tmp_path / "run"
    code, _, err = run_cli(["run", "--matches", "260", "--seed", "5",
                         "--seats", "baseline,random,majsoul-cpu,disconnected",
                         "--out", str(out), "--quiet", "--record-events", "260"], capsys)
    assert code == 0, err
    hands, _ = combined_tables(out)
    assert hands.height // 4 >= 1000
    log = pl.read_parquet(out / "events.parquet").sort(["match_id", "hand", "seq"])
    kinds = {name: k for k, (name, _) in EVENT_FIELDS.items()}
    rows = log.with_columns(pl.col("event").replace_strict(kinds, return_dtype=pl.Int32).alias("kind")).select(
        "match_id", "hand", "kind", "seat", "tile", "a", "b", "c").to_numpy()
    deltas = deltas_from_events(rows)
    assert len(deltas) == hands.height // 4
    for match_id, hand, seat, delta in hands.select("match_id", "hand", "seat", "delta").iter_rows():
        assert deltas[match_id, hand][seat] == delta


def test_event_log_does_not_change_play():
    seats = parse_seats("baseline")
    plain = bloodshed.simulate(8, np.arange(30), seats)
    logged = bloodshed.simulate_events(8, np.arange(30), seats)
    assert (plain[0] == logged[0]).all() and (plain[1] == logged[1]).all()


def test_replay_reproduces_parquet_rows(tmp_path, capsys):
    out = tmp_path / "run"
    code, _, err = run_cli(["run", "--matches", "12", "--seed", "4", "--seats", "baseline,random,baseline,majsoul-cpu",
                         "--out", str(out), "--quiet", "--record-events", "3"], capsys)
    assert code == 0, err
    hands, matches = combined_tables(out)
    seats = parse_seats("baseline,random,baseline,majsoul-cpu")
    for match_id in (0, 7, 11):
        hand_rows, match_rows = bloodshed.simulate(4, np.array([match_id]), seats)
        assert hand_table(hand_rows, seats).equals(hands.filter(pl.col("match_id") == match_id))
        assert match_table(match_rows, seats).equals(matches.filter(pl.col("match_id") == match_id))
    events = pl.read_parquet(out / "events.parquet")
    assert set(events["match_id"].unique().to_list()) == {0, 1, 2}
    assert events.filter(pl.col("event") == "end").height == hands.filter(pl.col("match_id") < 3)["hand"].len() // 4


def test_replay_command_json_and_text(tmp_path, capsys):
    code, out, _ = run_cli(["replay", "--seed", "4", "--match", "7", "--seats", "baseline,random,baseline,majsoul-cpu",
                         "--json"], capsys)
    assert code in (0, None)
    events = [json.loads(line) for line in out.splitlines()]
    assert events[0]["type"] == "start_kyoku" and len(events[0]["tehais"]) == 4
    assert {"exchange", "void", "tsumo", "dahai", "end_kyoku"} <= {e["type"] for e in events}
    hand_rows, _ = bloodshed.simulate(4, np.array([7]), parse_seats("baseline,random,baseline,majsoul-cpu"))
    ends = [e for e in events if e["type"] == "end_kyoku"]
    assert [d for e in ends for d in e["deltas"]] == hand_rows[:, HC["delta"]].tolist()
    code, out, _ = run_cli(["replay", "--seed", "4", "--match", "7", "--hand", "2"], capsys)
    lines = out.splitlines()
    assert lines[1].startswith("── match 7 hand 2") and all(len(line) <= 100 for line in lines)


def test_text_lines_fit_100_columns():
    seats = parse_seats("baseline")
    hand_rows, _, events = bloodshed.simulate_events(2, np.arange(3), seats)
    before = {(int(r[0]), int(r[1])): [0] * 4 for r in hand_rows}
    lines = to_text(to_json_events(events, before), [s.label for s in seats])
    assert lines and max(len(line) for line in lines) <= 100


def test_bad_arguments_one_line_exit_2(tmp_path, capsys):
    code, _, err = run_cli(["replay", "--variant", "nosuch", "--match", "0"], capsys)
    assert code == 2 and err.count("\n") == 1
    code, _, err = run_cli(["replay", "--match", "0", "--hand", "9"], capsys)
    assert code == 2 and "no hand 9" in err and err.count("\n") == 1
    out = tmp_path / "run"
    run_cli(["run", "--matches", "5", "--out", str(out), "--quiet"], capsys)
    code, _, err = run_cli(["replay", "--run", str(out), "--match", "5"], capsys)
    assert code == 2 and "outside the run" in err and err.count("\n") == 1
    code, _, err = run_cli(["replay", "--match", "-1"], capsys)
    assert code == 2 and err.count("\n") == 1
