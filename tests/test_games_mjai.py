"""analyzer.games.mjai on tsumolab's own replay log (tests/data/mjai, see SOURCE.md) and on edited events."""

import json

import pytest

from tsumolab.analyzer.games.mjai import DARK_REASONS, KEYS, parse_mjai_text, read_mjai
from tsumolab.analyzer.games.read import read_game
from tsumolab.analyzer.games.record import GameError
from tsumolab.analyzer.games.tenhou6 import read_tenhou6
from tests.game_records import DATA, replay_hand

REPLAY = DATA / "mjai" / "replay_riichi_seed3_match0.jsonl"


def replay_events() -> list[dict]:
    return parse_mjai_text(REPLAY.read_text())


def test_the_replay_log_reads_back_as_its_hands():
    events = replay_events()
    record = read_mjai(events, "seed 3")
    assert (record.source, record.variant, record.n_hands) == ("mjai", "riichi", 5)
    kept = [e for e in events if e["type"] in KEYS and (e["type"] != "payment" or e["reason"] in DARK_REASONS)]
    read = [e for hand in record.hands for e in hand]
    assert [e["type"] for e in read] == [e["type"] for e in kept]
    for ours, theirs in zip(read, kept):
        assert all(theirs[k] == v for k, v in ours.items()), ours
        for key in ("actor", "target", "pai", "consumed", "tehais", "scores", "deltas", "han", "fu", "dora_marker"):
            assert (key in ours) == (key in theirs and key in KEYS[ours["type"]]), (key, theirs)
    starts = [e for e in events if e["type"] == "start_kyoku"]
    assert [hand[0]["scores"] for hand in record.hands] == [e["scores"] for e in starts]
    for hand in record.hands:
        replay_hand(hand)
        assert hand[-1]["type"] == "end_kyoku" and hand[-1]["scores"] == [
            s + d for s, d in zip(hand[0]["scores"], hand[-1]["deltas"])]


def test_an_array_and_json_lines_read_the_same():
    lines = REPLAY.read_text()
    array = json.dumps(replay_events())
    assert parse_mjai_text(array) == parse_mjai_text(lines)
    assert read_mjai(parse_mjai_text(array)).hands == read_mjai(parse_mjai_text(lines)).hands
    assert read_game(array.encode()).hands == read_game(REPLAY).hands


def test_a_tenhou6_record_written_as_mjai_reads_back_the_same():
    doc = json.loads((DATA / "tenhou6" / "suukantsu_1.json").read_text())
    record = read_tenhou6(doc)
    events = [{"type": "start_game", "names": list(record.names)}, *(e for h in record.hands for e in h),
              {"type": "end_game"}]
    again = read_mjai(events)
    assert again.hands == record.hands and again.names == record.names


def test_mjai_words_become_the_records():
    events = [
        {"type": "start_game", "names": ["a", "b", "c", "d"], "seed": 1},
        {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
         "scores": [25000] * 4, "dora_marker": "P", "tehais": [["E", "S", "5mr"] + ["1m"] * 10] + [["?"] * 13] * 3},
        {"type": "tsumo", "actor": 0, "pai": "C"},
        {"type": "dahai", "actor": 0, "pai": "C", "tsumogiri": True},
        {"type": "tsumo", "actor": 1, "pai": "?"},
        {"type": "hora", "actor": 1, "target": 1, "pai": "N", "fan": 3, "fu": 40, "uradora_markers": ["W"],
         "hora_tehais": [], "yakus": [["riichi", 1]], "deltas": [-1300, 3900, -1300, -1300]},
        {"type": "end_kyoku"},
        {"type": "end_game"},
    ]
    (hand,) = read_mjai(events).hands
    assert hand[0]["dora_marker"] == "5z" and hand[0]["tehais"][0][:3] == ["1z", "2z", "5mr"]
    assert hand[0]["tehais"][1] == ["?"] * 13
    assert hand[2] == {"type": "dahai", "actor": 0, "pai": "7z", "tsumogiri": True}
    assert hand[3]["pai"] == "?"
    assert hand[4] == {"type": "hora", "actor": 1, "target": 1, "pai": "4z", "han": 3, "fu": 40,
                       "deltas": [-1300, 3900, -1300, -1300], "ura_markers": ["3z"]}
    assert read_mjai(events).names == ("a", "b", "c", "d")


def test_broken_logs_are_refused_in_one_line():
    events = replay_events()
    second = [i for i, e in enumerate(events) if e["type"] == "start_kyoku"][1]
    events[second + 3] = dict(events[second + 3], pai="0x")
    with pytest.raises(GameError, match=r"hand 2 event \d+ \(\w+\): unknown tile '0x'") as info:
        read_mjai(events, "seed 3")
    assert "\n" not in str(info.value)
    with pytest.raises(GameError, match="no start_kyoku"):
        read_mjai([{"type": "start_game"}])
    with pytest.raises(GameError, match="before any start_kyoku"):
        read_mjai([{"type": "tsumo", "actor": 0, "pai": "1m"}])
    with pytest.raises(GameError, match="line 2"):
        parse_mjai_text('{"type": "start_game"}\n{"type": \n')
    with pytest.raises(GameError, match="list of JSON objects"):
        read_mjai([{"actor": 0}])


@pytest.mark.slow
def test_the_stored_log_is_what_replay_writes():
    """The stored log is current: `tsumolab replay` (the simulator, numba) reads back to the same hands."""
    import subprocess
    import sys

    cli = [sys.executable, "-c", "from tsumolab.cli import main; main()"]
    out = subprocess.run([*cli, "replay", "--variant", "riichi", "--seed", "3", "--match", "0", "--json"],
                         capture_output=True, text=True, check=True).stdout
    assert read_mjai(parse_mjai_text(out)).hands == read_mjai(replay_events()).hands
