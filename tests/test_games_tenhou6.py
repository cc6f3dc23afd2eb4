"""analyzer.games.tenhou6 on the tenhou.net/6 logs of tests/data/tenhou6 (see SOURCE.md there) and edits of them."""

import copy
import gzip
import json

import pytest

from tsumolab.analyzer.games.read import read_game
from tsumolab.analyzer.games.record import GameError
from tsumolab.analyzer.games.tenhou6 import parse_meld, parse_win, read_tenhou6, tile_name
from tests.game_records import DATA, replay_hand, score_chain

FILES = DATA / "tenhou6"
N_HANDS = {"ranked_game": 3, "suukantsu_1": 2}  # every other file holds one kyoku
NAMES = sorted(p.stem for p in FILES.glob("*.json"))


def load(name: str) -> dict:
    return json.loads((FILES / f"{name}.json").read_text())


def events(name: str, kyoku: int = 0) -> list[dict]:
    return list(read_tenhou6(load(name), name).hands[kyoku])


def test_twenty_files():
    assert len(NAMES) == 20


@pytest.mark.parametrize("name", NAMES)
def test_every_file_reads_and_replays(name):
    record = read_tenhou6(load(name), name)
    assert (record.source, record.variant, record.names) == ("tenhou6", "riichi", ("A", "B", "C", "D"))
    assert record.n_hands == N_HANDS.get(name, 1)
    for hand in record.hands:
        replay_hand(hand)
    after = score_chain(record)
    sc = load(name).get("sc")
    if sc:
        assert after[-1] == sc[0::2]


def test_length_from_the_rule():
    assert read_tenhou6(load("chankan")).length == "east"
    assert read_tenhou6(load("four_reach")).length == "east"
    assert read_tenhou6(load("ryukyoku")).length == "south"
    assert read_tenhou6(load("confusing_nakis_7")).length == "south"  # "Gold Room South"


def test_tiles_and_calls():
    assert [tile_name(c) for c in (11, 29, 35, 41, 47, 51, 52, 53)] == ["1m", "9p", "5s", "1z", "7z", "5mr", "5pr",
                                                                         "5sr"]
    assert parse_meld("c262452") == ("c", 0, [26, 24, 52])
    assert parse_meld("3636p36") == ("p", 2, [36, 36, 36])
    assert parse_meld("131313m13") == ("m", 3, [13, 13, 13, 13])
    assert parse_meld("424242a42") == ("a", 3, [42, 42, 42, 42])


def test_han_and_fu():
    assert parse_win([0, 1, 0, "30符2飜2000点", "役牌 發(1飜)", "ドラ(1飜)"]) == {"fu": 30, "han": 2}
    assert parse_win([0, 0, 0, "満貫2000-4000点", "立直(1飜)", "ドラ(4飜)"]) == {"han": 5}
    assert parse_win([0, 0, 0, "役満32000点", "四槓子(役満)"]) == {"han": 13}
    assert parse_win([1, 0, 0]) == {}


def of(evs, kind):
    return [e for e in evs if e["type"] == kind]


def test_calls_from_every_side_and_kans():
    everything = [e for n in NAMES for hand in read_tenhou6(load(n)).hands for e in hand]
    assert of(everything, "chi") and all((c["actor"] - c["target"]) % 4 == 1 for c in of(everything, "chi"))
    assert {(p["actor"] - p["target"]) % 4 for p in of(everything, "pon")} == {1, 2, 3}
    for kind in ("daiminkan", "kakan", "ankan"):
        assert of(everything, kind), kind
    kakan = of(events("double_kakan_then_chankan"), "kakan")
    assert len(kakan) == 2 and all(len(k["consumed"]) == 3 for k in kakan)


def test_chankan():
    evs = events("chankan")
    hora = evs[-2]
    assert hora["type"] == "hora" and (hora["actor"], hora["target"], hora["pai"], hora["han"]) == (2, 3, "6s", 5)
    assert evs[-3] == {"type": "kakan", "actor": 3, "pai": "6s", "consumed": ["6s", "6s", "6s"]}
    evs = events("double_kakan_then_chankan")
    assert evs[-3]["type"] == "kakan" and evs[-2]["target"] == evs[-3]["actor"]


def test_rinshan_and_dora_after_a_closed_kan():
    evs = events("rinshan")
    ankan = next(i for i, e in enumerate(evs) if e["type"] == "ankan")
    assert evs[ankan + 1] == {"type": "dora", "dora_marker": "1m"}
    assert evs[ankan + 2]["type"] == "tsumo" and evs[ankan + 2]["rinshan"]
    hora = evs[-2]
    assert (hora["actor"], hora["target"], hora["pai"]) == (3, 3, evs[ankan + 2]["pai"])
    assert hora["ura_markers"] == ["3z", "8s"] and hora["deltas"] == [-2000, -4000, -2000, 9000]


def test_dora_after_an_open_kan_follows_its_discard():
    evs = events("suukantsu_1", 1)
    for i, e in enumerate(evs):
        if e["type"] in ("daiminkan", "kakan") and evs[i + 1]["type"] == "tsumo" and evs[i + 2]["type"] == "dahai":
            assert evs[i + 3]["type"] == "dora", evs[i:i + 4]
    assert len(of(evs, "dora")) == len(load("suukantsu_1")["log"][1][2]) - 1


def test_double_ron():
    hora = of(events("double_ron"), "hora")
    assert [(h["actor"], h["target"], h.get("han"), h.get("fu")) for h in hora] == [(0, 3, 6, None), (2, 3, 2, 30)]
    assert hora[0]["pai"] == hora[1]["pai"]


def test_draws():
    nine = events("kyushukyuhai")
    assert nine[-2] == {"type": "ryukyoku", "reason": "nine_terminals"} and nine[-3]["type"] == "tsumo"
    four = events("four_reach")
    assert four[-2]["reason"] == "four_riichi" and len(of(four, "reach_accepted")) == 4
    drawn = events("ryukyoku")
    assert drawn[-2] == {"type": "ryukyoku", "reason": "exhaustive", "deltas": [1500, 1500, -1500, -1500]}
    assert sum(e["type"] == "tsumo" for e in drawn) == 70


def test_a_ronned_riichi_discard_pays_no_deposit():
    evs = events("double_ron")
    assert of(evs, "reach")[-1]["actor"] == 3 and all(e["actor"] != 3 for e in of(evs, "reach_accepted"))


def test_west_and_north_rounds():
    doc = load("ranked_game")
    doc["log"][0][0][0] = 8
    start = read_tenhou6(doc).hands[0][0]
    assert (start["bakaze"], start["kyoku"], start["oya"]) == ("W", 1, 0)
    doc["log"][0][0][0] = 12  # the same dealer, so the play still fits
    start = read_tenhou6(doc).hands[0][0]
    assert (start["bakaze"], start["kyoku"], start["oya"]) == ("N", 1, 0)


def test_three_player_logs_are_refused():
    doc = load("ryukyoku")
    doc["log"][0][13:16] = [[], [], []]
    with pytest.raises(GameError, match="three-player") as info:
        read_tenhou6(doc)
    assert "\n" not in str(info.value)
    doc = load("ryukyoku")
    doc["rule"]["disp"] = "三般南喰赤"
    with pytest.raises(GameError, match="three-player"):
        read_tenhou6(doc)


def test_a_discard_not_held_is_refused_naming_the_kyoku():
    doc = load("ranked_game")
    kyoku = doc["log"][1]
    held = set(kyoku[7]) | {t for t in kyoku[8] if isinstance(t, int)}
    missing = next(t for t in (11, 19, 21, 29, 31, 39, 41, 42, 43, 44, 45, 46, 47) if t not in held)
    i = next(i for i, d in enumerate(kyoku[9]) if isinstance(d, int) and d != 60)
    kyoku[9][i] = missing
    with pytest.raises(GameError, match=r"kyoku 2 \(E2-0\).*does not hold " + tile_name(missing)) as info:
        read_tenhou6(doc, "ranked")
    assert "\n" not in str(info.value)


def test_read_game_detects_tenhou6(tmp_path):
    path = FILES / "double_ron.json"
    assert read_game(path).hands == read_tenhou6(load("double_ron")).hands
    assert read_game(str(path)).title == "double_ron.json"
    packed = tmp_path / "g.json.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert read_game(packed).hands == read_game(path.read_bytes()).hands


def test_read_game_refuses_what_is_not_a_game(tmp_path):
    with pytest.raises(GameError, match="cannot read"):
        read_game(tmp_path / "missing.json")
    with pytest.raises(GameError, match="not a game log"):
        read_game(b'{"a": 1}')
    with pytest.raises(GameError, match="not a game log"):
        read_game(b"not json at all\n")
    doc = copy.deepcopy(load("chankan"))
    doc["log"][0][16] = ["謎"]
    with pytest.raises(GameError, match="unknown result"):
        read_game(json.dumps(doc).encode())


def test_a_passed_call_made_later():
    evs = events("confusing_nakis_2")  # seat 0 passes seat 1's first 6z and pons the second
    given = [i for i, e in enumerate(evs) if e["type"] == "dahai" and e["actor"] == 1 and e["pai"] == "6z"]
    pon = next(i for i, e in enumerate(evs) if e["type"] == "pon" and e["pai"] == "6z")
    assert len(given) == 2 and evs[given[0] + 1]["type"] == "tsumo" and pon == given[1] + 1
    assert evs[pon]["actor"] == 0 and evs[pon]["target"] == 1


def test_a_broken_kyoku_entry_is_refused():
    doc = load("chankan")
    doc["log"][0][1] = [25000, 25000]
    with pytest.raises(GameError, match=r"kyoku 1: not a four-player kyoku entry"):
        read_tenhou6(doc)
    doc = load("chankan")
    doc["log"][0][5][0] = 48
    with pytest.raises(GameError, match=r"kyoku 1 \(E1-0\): unknown tile code 48"):
        read_tenhou6(doc)
