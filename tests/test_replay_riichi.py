"""Replay of the riichi-based modes (`riichi`, `shura` in depth, every other riichi-core mode once): the event log
alone re-derives every hand's point deltas (wins, honba, riichi sticks R-2/R-4, noten payments R-6/S-6, nagashi R-6,
pao R-3), replaying a match reproduces its Parquet rows, and the JSON stream speaks mjai."""

import json

import numpy as np
import polars as pl
import pytest

from tests.replayed import replayed
from tsumolab.analyzer.replay.riichi_events import deltas_from_events, to_json_events, to_text
from tsumolab.analyzer.runs.runner import combined_tables
from tsumolab.analyzer.tables import hand_table, match_table
from tsumolab.policies.registry import parse_seats
from tsumolab.sims.riichi.columns import HC
from tsumolab.sims.modes import MODES as MODES_ALL, get_mode
from tsumolab.sims.riichi.events import EVENT_FIELDS
from tests.cli_run import run_cli

shura, standard = get_mode("shura"), get_mode("riichi")

SEATS = "baseline,random,majsoul-cpu,disconnected"
MODES = {"riichi": standard, "shura": shura}
MJAI_WORDS = {"start_kyoku", "tsumo", "dahai", "chi", "pon", "reach", "reach_accepted", "hora", "end_kyoku"}


def _log_rows(path) -> np.ndarray:
    kinds = {name: k for k, (name, _) in EVENT_FIELDS.items()}
    log = pl.read_parquet(path).sort(["match_id", "hand", "seq"])
    return log.with_columns(pl.col("event").replace_strict(kinds, return_dtype=pl.Int32).alias("kind")).select(
        "match_id", "hand", "kind", "seat", "tile", "a", "b", "c").to_numpy()


@pytest.mark.parametrize("variant, matches", [("riichi", 200), ("shura", 280)])
def test_events_rederive_every_hands_delta(variant, matches, tmp_path, capsys):
    """1,000+ hands per mode: the payments of events.parquet alone (the riichi-stick pile as seat -1) give
    each hand's `delta` in the hands Parquet rows (R-2 sticks and honba, R-3 pao, R-6 noten/nagashi, S-6)."""
    out = tmp_path / variant
    code, _, err = run_cli(["run", "--variant", variant, "--matches", str(matches), "--seed", "5", "--seats", SEATS,
                         "--out", str(out), "--quiet", "--record-events", str(matches)], capsys)
    assert code == 0, err
    hands, _ = combined_tables(out)
    assert hands.height // 4 >= 1000
    rows = _log_rows(out / "events.parquet")
    deltas = deltas_from_events(rows)
    assert len(deltas) == hands.height // 4
    for match_id, hand, seat, delta in hands.select("match_id", "hand", "seat", "delta").iter_rows():
        assert deltas[match_id, hand][seat] == delta
    reasons = set(pl.read_parquet(out / "events.parquet").filter(pl.col("event") == "pay")["b"].to_list())
    assert {1, 2, 6} <= reasons  # ron, tsumo and riichi sticks all occur, so the -1 pile is exercised


@pytest.mark.parametrize("variant", ["riichi", "shura"])
def test_replay_reproduces_parquet_rows(variant, tmp_path, capsys):
    out = tmp_path / variant
    code, _, err = run_cli(["run", "--variant", variant, "--matches", "12", "--seed", "4", "--seats", SEATS,
                         "--out", str(out), "--quiet"], capsys)
    assert code == 0, err
    hands, matches = combined_tables(out)
    mode = MODES[variant]
    for match_id in (0, 7, 11):
        _, labels, hand_rows, match_rows = replayed(variant, 4, match_id, SEATS)
        assert hand_table(hand_rows, labels, mode).equals(hands.filter(pl.col("match_id") == match_id))
        assert match_table(match_rows, labels, mode).equals(matches.filter(pl.col("match_id") == match_id))


def _is_mjai_tile(name: str) -> bool:
    return len(name) in (2, 3) and name[0] in "123456789" and name[1] in "mpsz" and name[2:] in ("", "r")


@pytest.mark.parametrize("variant", ["riichi", "shura"])
def test_json_stream_uses_mjai_words(variant):
    """JSON events: mjai types with their mjai fields; deltas at end_kyoku equal the hands rows (R-2)."""
    seats = parse_seats(SEATS)
    hand_rows, _, events = MODES[variant].simulate_events(9, np.arange(6), seats)
    before = {}
    for row in hand_rows:
        before.setdefault((int(row[HC["match_id"]]), int(row[HC["hand"]])), [0] * 4)[int(row[HC["seat"]])] = \
            int(row[HC["points_before"]])
    stream = to_json_events(events, before)
    types = {e["type"] for e in stream}
    assert MJAI_WORDS <= types
    assert types <= MJAI_WORDS | {"daiminkan", "ankan", "kakan", "dora", "ryukyoku", "exchange", "pass_win",
                                  "payment"}
    assert ("exchange" in types) == (variant == "shura")  # S-2 exchange of three only in shura
    for e in stream:
        if e["type"] == "start_kyoku":
            assert e["bakaze"] in "ES" and 1 <= e["kyoku"] <= 4 and e["honba"] >= 0 and 0 <= e["oya"] < 4
            assert [len(t) for t in e["tehais"]] == [13] * 4 and _is_mjai_tile(e["dora_marker"])
        elif e["type"] == "dahai":
            assert isinstance(e["tsumogiri"], bool) and _is_mjai_tile(e["pai"])
        elif e["type"] in ("chi", "pon"):
            assert e["target"] != e["actor"] and len(e["consumed"]) == 2
        elif e["type"] == "hora":
            assert {"actor", "target", "pai", "han", "fu"} <= e.keys() and e["han"] >= 1
            assert (e["target"] == e["actor"]) == (e["kind"] == "tsumo")
        elif e["type"] == "payment":
            assert e["from"] != e["to"] and e["amount"] > 0 and e["reason"] in {
                "riichi_stick", "honba", "sticks", "noten", "nagashi", "pao", "ron", "tsumo"}
    ends = [e for e in stream if e["type"] == "end_kyoku"]
    assert [d for e in ends for d in e["deltas"]] == hand_rows[:, HC["delta"]].tolist()
    # every accepted riichi is preceded by its declaration and its 1,000-point stick
    for i, e in enumerate(stream):
        if e["type"] == "reach_accepted":
            assert stream[i - 1] == {"type": "payment", "from": e["actor"], "to": -1, "amount": 1000,
                                     "reason": "riichi_stick"}
            assert any(p["type"] == "reach" and p["actor"] == e["actor"] for p in stream[i - 6:i])


@pytest.mark.parametrize("variant", ["riichi", "shura"])
def test_text_lines_fit_100_columns_and_name_policies(variant):
    seats = parse_seats(SEATS)
    hand_rows, _, events = MODES[variant].simulate_events(2, np.arange(3), seats)
    before = {(int(r[HC["match_id"]]), int(r[HC["hand"]])): [25000] * 4 for r in hand_rows}
    lines = to_text(to_json_events(events, before), [s.label for s in seats])
    assert lines and max(len(line) for line in lines) <= 100
    for label in ("baseline", "random", "majsoul-cpu", "disconnected"):
        assert any(label in line for line in lines)


@pytest.mark.parametrize("variant", ["riichi", "shura"])
def test_replay_command_json_text_and_hand(variant, capsys):
    code, out, _ = run_cli(["replay", "--variant", variant, "--seed", "4", "--match", "7", "--seats", SEATS,
                         "--json"], capsys)
    assert code in (0, None)
    events = [json.loads(line) for line in out.splitlines()]
    assert events[0]["type"] == "start_kyoku" and events[-1]["type"] == "end_kyoku"
    n_hands = sum(e["type"] == "start_kyoku" for e in events)
    code, out, _ = run_cli(["replay", "--variant", variant, "--seed", "4", "--match", "7", "--seats", SEATS,
                         "--hand", str(n_hands)], capsys)
    assert code in (0, None)
    lines = out.splitlines()
    assert lines[0].startswith("seats: S0 baseline") and lines[1].startswith(f"── match 7 hand {n_hands} ")
    assert sum(line.startswith("──") for line in lines) == 1 and all(len(line) <= 100 for line in lines)
    code, _, err = run_cli(["replay", "--variant", variant, "--seed", "4", "--match", "7", "--seats", SEATS,
                         "--hand", str(n_hands + 1)], capsys)
    assert code == 2 and f"no hand {n_hands + 1}" in err and err.count("\n") == 1


def test_replay_range_errors_one_line_exit_2(tmp_path, capsys):
    out = tmp_path / "run"
    code, _, err = run_cli(["run", "--variant", "shura", "--matches", "3", "--out", str(out), "--quiet"], capsys)
    assert code == 0, err
    code, _, err = run_cli(["replay", "--run", str(out), "--match", "3"], capsys)
    assert code == 2 and "outside the run" in err and err.count("\n") == 1
    code, _, err = run_cli(["replay", "--variant", "riichi", "--match", "-1"], capsys)
    assert code == 2 and err.count("\n") == 1
    code, out_text, _ = run_cli(["replay", "--run", str(out), "--match", "2", "--hand", "1"], capsys)
    assert code in (0, None) and "exchange" in out_text  # --run takes the shura variant from run.json


RIICHI_CORE_MODES = [slug for slug, mode in MODES_ALL.items() if mode.family.name == "riichi"]


@pytest.mark.parametrize("variant", RIICHI_CORE_MODES)
def test_every_riichi_core_mode_replays(variant):
    """Every riichi-core mode (R rules plus its own) has a decodable event log: the payments alone give each
    hand's `delta`, and the text view fits 100 columns."""
    mode = get_mode(variant)
    seats = parse_seats(SEATS)
    hand_rows, _, events = mode.simulate_events(3, np.arange(20), seats)
    deltas = deltas_from_events(events)
    for row in hand_rows:
        assert deltas[int(row[HC["match_id"]]), int(row[HC["hand"]])][int(row[HC["seat"]])] == row[HC["delta"]]
    before = {(int(r[HC["match_id"]]), int(r[HC["hand"]])): [0] * 4 for r in hand_rows}
    lines = to_text(to_json_events(events, before), [s.label for s in seats])
    assert lines and max(len(line) for line in lines) <= 100


def test_start_kyoku_names_the_rule_options_changed_from_the_mode_defaults():
    """The log says which rules it follows: a match played with C's count_called=false names it in every
    start_kyoku; one played with the mode's defaults has no `rules`."""
    from tests.replayed import replayed

    changed, _, _, _ = replayed("chant", 3, 0, "baseline", ("count_called=false",))
    starts = [e for e in changed if e["type"] == "start_kyoku"]
    assert starts and all(e["rules"] == {"count_called": False} for e in starts)
    default, _, _, _ = replayed("chant", 3, 0, "baseline")
    assert not any("rules" in e for e in default if e["type"] == "start_kyoku")


def test_shura_bust_at_exhaustive_draw_after_a_win_logs_the_draw():
    """S-3, S-6 and issue 21 (a log that determines the hand): a shura hand with a winner whose exhaustive-draw
    noten payments bust a player still shows the draw (`ryukyoku` exhaustive), as every hand that pays the draw
    settlement does (seed 12 match 1 hand 3: S1 wins by tsumo, S0 busts on its noten payment)."""
    events, _, _, _ = replayed("shura", 12, 1, "random,majsoul-cpu,baseline,random", ())
    hands: list[list[dict]] = []
    for e in events:
        if e["type"] == "start_kyoku":
            hands.append([])
        hands[-1].append(e)
    last_end = hands[-1][-1]
    assert last_end["type"] == "end_kyoku" and last_end["end"] == "bust" and last_end["winners"] == 1
    settled_at_draw = [h for h in hands if any(e["type"] == "payment" and e["reason"] in ("noten", "nagashi")
                                               for e in h)]
    assert hands[-1] in settled_at_draw
    for h in settled_at_draw:
        assert [e["reason"] for e in h if e["type"] == "ryukyoku"] == ["exhaustive"]
