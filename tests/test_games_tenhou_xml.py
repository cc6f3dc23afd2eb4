"""analyzer.games.tenhou_xml on the Tenhou games of tests/data/tenhou_xml (each as mjlog XML and as tenhou.net/6
JSON, see SOURCE.md there), on edits of them and on hand-written mjlog elements."""

import gzip
import json
import re
import xml.etree.ElementTree as ET

import pytest

import tsumolab.commands.bench  # noqa: F401  (registers `bench` on the group)
import tsumolab.commands.review  # noqa: F401  (registers `review` on the group)
from tsumolab.analyzer.bench.agreement import candidates, load_records
from tsumolab.analyzer.games.read import read_game
from tsumolab.analyzer.games.record import GameError
from tsumolab.analyzer.games.tenhou_xml import limit_points, read_tenhou_xml, tenhou6_document
from tests.cli_run import run_cli
from tests.game_records import DATA, replay_hand, score_chain

FILES = DATA / "tenhou_xml"
GAMES = {"2023053016gm-0029-0000-e54b3b98": ".xml", "2016052515gm-00a9-0000-c4d72066": ".mjlog",
         "2011020415gm-00a9-0000-e037b629": ".mjlog"}
TOKUJOU, PHOENIX_KANS, PHOENIX_OPEN_KAN = GAMES
PLAY = re.compile(r"([TUVWDEFG])(\d+)")
CALLS = ("chi", "pon", "daiminkan", "ankan", "kakan")


def tiles_of(record) -> list[str]:
    return [t for hand in record.hands for e in hand
            for t in [e.get("pai", ""), *e.get("consumed", []), *(x for h in e.get("tehais", []) for x in h)]]


def xml_path(game: str):
    return FILES / f"{game}{GAMES[game]}"


def twin(game: str) -> dict:
    return json.loads((FILES / f"{game}.json").read_text())


def mjlog(*elements: str, go: str = '<GO type="169" lobby="0"/>') -> bytes:
    """A hand-written mjlog: the rule, four names, one hand (the seats dealt tile ids 0..51 in turn, 7z the dora
    indicator) and `elements`."""
    hands = [",".join(str(13 * s + k) for k in range(13)) for s in range(4)]
    deal = " ".join(f'hai{s}="{hands[s]}"' for s in range(4))
    text = (f'<mjloggm ver="2.3">{go}<UN n0="%41" n1="%42" n2="%43" n3="%44"/><TAIKYOKU oya="0"/>'
            f'<INIT seed="0,0,0,2,3,132" ten="250,250,250,250" oya="0" {deal}/>{"".join(elements)}</mjloggm>')
    return text.encode()


EXHAUSTED = '<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0"/>'


@pytest.mark.parametrize("game", GAMES)
def test_an_mjlog_reads_to_the_same_record_as_its_tenhou6_twin(game):
    from_xml, from_json = read_game(xml_path(game)), read_game(FILES / f"{game}.json")
    assert from_xml.hands == from_json.hands
    assert (from_xml.names, from_xml.rules, from_xml.length) == (from_json.names, from_json.rules, from_json.length)
    assert (from_xml.source, from_xml.variant, from_xml.names) == ("mjlog", "riichi", ("A", "B", "C", "D"))
    assert from_xml.title == xml_path(game).name


@pytest.mark.parametrize("game", GAMES)
def test_the_tenhou6_form_of_an_mjlog_is_its_twin_kyoku_for_kyoku(game):
    """Every kyoku entry: start, scores, dora and ura indicators, each seat's deal, takes (calls included) and
    discards (tsumogiri, riichi, kans), and the result with its points text and yaku."""
    doc, expected = tenhou6_document(xml_path(game).read_bytes(), game), twin(game)
    assert len(doc["log"]) == len(expected["log"])
    for n, (kyoku, other) in enumerate(zip(doc["log"], expected["log"])):
        assert kyoku == other, f"kyoku {n + 1}"
    assert doc["rule"]["disp"] == expected["rule"]["disp"]
    if "sc" in expected:
        assert doc["sc"] == expected["sc"]


@pytest.mark.parametrize("game", GAMES)
def test_every_hand_replays_and_the_scores_chain_to_the_final_ones(game):
    record = read_game(xml_path(game))
    for hand in record.hands:
        replay_hand(hand)
    final = tenhou6_document(xml_path(game).read_bytes())["sc"]
    assert score_chain(record)[-1] == final[0::2]


@pytest.mark.parametrize("game", GAMES)
def test_the_record_plays_in_the_mjlog_order(game):
    """The draws, discards and calls of every hand come in the XML's order (the tenhou.net/6 reader rebuilds the
    order from each seat's takes and discards)."""
    root = ET.fromstring(xml_path(game).read_bytes())
    order = []
    for element in root:
        found = PLAY.fullmatch(element.tag)
        if element.tag == "INIT":
            order.append([])
        elif found:
            order[-1].append(("tsumo" if found[1] in "TUVW" else "dahai", "TUVWDEFG".index(found[1]) % 4))
        elif element.tag == "N":
            order[-1].append(("call", int(element.get("who"))))
    record = read_game(xml_path(game))
    played = [[("call" if e["type"] in CALLS else e["type"], e["actor"]) for e in hand
               if e["type"] in ("tsumo", "dahai", *CALLS)] for hand in record.hands]
    assert played == order


def test_the_games_hold_every_call_kind_and_red_fives_in_calls():
    events = [e for game in GAMES for hand in read_game(xml_path(game)).hands for e in hand]
    calls = [e for e in events if e["type"] in CALLS]
    assert {e["type"] for e in calls} == set(CALLS)
    red = {e["type"] for e in calls if any(t.endswith("r") for t in [e.get("pai", ""), *e["consumed"]])}
    assert {"chi", "pon", "ankan"} <= red
    assert {(e["actor"] - e["target"]) % 4 for e in calls if e["type"] == "pon"} == {1, 2, 3}
    ankan = [e for e in events if e["type"] == "ankan" and "5mr" in e["consumed"]]
    assert ankan and sorted(ankan[0]["consumed"]) == ["5m", "5m", "5m", "5mr"]


@pytest.mark.parametrize("elements, takes, discards", [
    # chi of 4m from the previous seat with 3m (copy 1) and the red 5m (copy 0): (0 × 7 + 2) × 3 + 1 = 7 → 7 << 10,
    # copies 1, 2, 0 in bits 3-4, 5-6, 7-8, bit 2, from 3
    (['<N who="1" m="7247"/>'], {1: ["c141351"]}, {}),
    # pon of 5p (kind 13) from across: 5p copies 0 (red), 1, 2, copy 3 left out, the second (id 53) called
    (['<N who="2" m="20586"/>'], {2: ["25p2552"]}, {}),
    # ... and the added kan of its fourth copy: the same with bit 4 for bit 3
    (['<N who="2" m="20586"/>', '<N who="2" m="20594"/>'], {2: ["25p2552"]}, {2: ["25k252552"]}),
    # pon of 5m from the previous seat without the red one (copy 0 left out), then the red one added: Tenhou
    # writes k51151515 (tests/data/tenhou6/confusing_nakis_0.json)
    (['<N who="0" m="6155"/>', '<N who="0" m="6163"/>'], {0: ["p151515"]}, {0: ["k51151515"]}),
    # pon of 1z from the next seat, the third of copies 0..2 called
    (['<N who="3" m="42601"/>'], {3: ["4141p41"]}, {}),
    # open kan of 5p from the next seat, id 53 called: Tenhou writes 252552m25 (confusing_nakis_4.json)
    (['<N who="0" m="13569"/>'], {0: ["252552m25"]}, {0: [0]}),
    # open kan of 9s from the previous seat, id 105 called
    (['<N who="1" m="26883"/>'], {1: ["m39393939"]}, {1: [0]}),
    # closed kans of 5s named by the red copy or by another: Tenhou writes 353535a53
    (['<N who="2" m="22528"/>'], {}, {2: ["353535a53"]}),
    (['<N who="2" m="22784"/>'], {}, {2: ["353535a53"]}),
])
def test_calls_decode_to_tenhou6_words(elements, takes, discards):
    kyoku = tenhou6_document(mjlog(*elements, EXHAUSTED))["log"][0]
    assert {s: kyoku[5 + 3 * s] for s in range(4) if kyoku[5 + 3 * s]} == takes
    assert {s: kyoku[6 + 3 * s] for s in range(4) if kyoku[6 + 3 * s]} == discards


def test_a_three_player_north_call_is_refused():
    with pytest.raises(GameError, match="three-player north"):
        tenhou6_document(mjlog('<N who="0" m="32"/>', EXHAUSTED))


def test_draws_discards_riichi_and_dora():
    play = ('<T120/><D120/><U121/><E0/>', '<V122/><REACH who="2" step="1"/><F122/>',
            '<REACH who="2" ten="250,250,240,250" step="2"/><DORA hai="16"/>')
    kyoku = tenhou6_document(mjlog(*play, EXHAUSTED))["log"][0]
    assert kyoku[:4] == [[0, 0, 0], [25000] * 4, [47, 51], []]  # 132 is 7z; 16 the red 5m; 120..122 4z
    assert (kyoku[5], kyoku[6]) == ([44], [60])                    # the tile just drawn: a tsumogiri
    assert (kyoku[8], kyoku[9]) == ([44], [11])
    assert (kyoku[11], kyoku[12]) == ([44], ["r60"])


@pytest.mark.parametrize("element, result", [
    (EXHAUSTED, ["全員不聴"]),
    ('<RYUUKYOKU sc="250,15,250,-15,250,15,250,-15" hai0="1" hai2="2"/>', ["流局", [1500, -1500, 1500, -1500]]),
    ('<RYUUKYOKU sc="250,0,250,0,250,0,250,0" hai0="1" hai1="1" hai2="2" hai3="3"/>', ["全員聴牌"]),
    ('<RYUUKYOKU type="yao9" sc="250,0,250,0,250,0,250,0"/>', ["九種九牌"]),
    ('<RYUUKYOKU type="reach4" sc="240,0,240,0,240,0,240,0"/>', ["四家立直"]),
    ('<RYUUKYOKU type="ron3" sc="250,0,250,0,250,0,250,0"/>', ["三家和了"]),
    ('<RYUUKYOKU type="kaze4" sc="250,0,250,0,250,0,250,0"/>', ["四風連打"]),
    ('<RYUUKYOKU type="kan4" sc="250,0,250,0,250,0,250,0"/>', ["四槓散了"]),
    ('<RYUUKYOKU type="nm" sc="250,-20,250,-20,250,80,250,-40"/>', ["流し満貫", [-2000, -2000, 8000, -4000]]),
    ('<AGARI who="1" fromWho="3" ten="30,1000,0" yaku="8,1,53,0" doraHai="132" doraHaiUra="8" '
     'sc="250,0,250,10,250,0,250,-10"/><AGARI who="2" fromWho="3" paoWho="0" ten="40,8000,1" yaku="1,1,52,3" '
     'doraHai="132" doraHaiUra="8" sc="250,0,260,0,250,80,240,-80"/>',
     ["和了", [0, 1000, 0, -1000], [1, 3, 1, "30符1飜1000点", "断幺九(1飜)"],
      [0, 0, 8000, -8000], [2, 3, 0, "満貫8000点", "立直(1飜)", "ドラ(3飜)"]]),
    ('<AGARI who="0" fromWho="0" ten="40,96000,5" yakuman="39,42" doraHai="132" sc="250,960,250,-320,250,-320,'
     '250,-320"/>', ["和了", [96000, -32000, -32000, -32000], [0, 0, 0, "役満32000点∀", "大三元(役満)",
                                                               "字一色(役満)"]]),
])
def test_results_in_tenhou6_words(element, result):
    assert tenhou6_document(mjlog(element))["log"][0][16] == result


def test_points_texts():
    assert limit_points(30, 1, 0, 1500, tsumo=True, dealer=True) == "30符1飜500点∀"
    assert limit_points(30, 4, 0, 7900, tsumo=True, dealer=False) == "30符4飜2000-3900点"
    assert limit_points(30, 1, 0, 1100, tsumo=True, dealer=False) == "30符1飜300-500点"
    assert limit_points(25, 2, 0, 1600, tsumo=True, dealer=False) == "25符2飜400-800点"
    assert limit_points(40, 5, 1, 8000, tsumo=True, dealer=False) == "満貫2000-4000点"
    assert limit_points(30, 4, 0, 11600, tsumo=False, dealer=True) == "30符4飜11600点"
    assert limit_points(40, 7, 2, 12000, tsumo=False, dealer=False) == "跳満12000点"
    assert limit_points(0, 0, 5, 64000, tsumo=True, dealer=False) == "役満16000-32000点"


def test_names_are_url_decoded_utf8_and_a_returning_player_keeps_them():
    data = mjlog(EXHAUSTED).replace(b'n0="%41"', b'n0="%E3%81%82%41"')
    assert read_tenhou_xml(data).names == ("あA", "B", "C", "D")
    assert read_game(xml_path(PHOENIX_OPEN_KAN)).names == ("A", "B", "C", "D")  # its BYE and later <UN n2=...>


def test_the_rule_from_the_go_type():
    text = xml_path(TOKUJOU).read_text()
    assert '<GO type="41"' in text
    assert tenhou6_document(text.encode())["rule"] == {"disp": "特南喰赤", "aka53": 1, "aka52": 1, "aka51": 1}
    east = read_game(text.replace('<GO type="41"', '<GO type="33"').encode())
    assert east.length == "east" and east.rules == {}
    plain = read_game(text.replace('<GO type="41"', '<GO type="43"').encode())  # 0x02: no red fives
    assert plain.rules == {"red_fives": False}
    assert not any(t.endswith("r") for t in tiles_of(plain)) and any(t.endswith("r") for t in tiles_of(east))
    assert tenhou6_document(text.replace('<GO type="41"', '<GO type="43"').encode())["rule"]["disp"] == "特南喰"
    closed = read_game(text.replace('<GO type="41"', '<GO type="45"').encode())  # 0x04: no open tanyao
    assert closed.rules == {"open_tanyao": False}
    assert read_game(text.replace('<GO type="41"', '<GO type="169"').encode()).hands == read_game(text.encode()).hands
    assert tenhou6_document(mjlog(EXHAUSTED, go='<GO type="225"/>'))["rule"]["disp"] == "鳳東喰赤速"


@pytest.mark.parametrize("go, message", [
    ('<GO type="185" lobby="0"/>', r"element 1 <GO>: a three-player \(sanma\) log \(GO type 185\)"),
    ('<GO type="425" lobby="0"/>', r"GO type 425 has bits 0x100 whose rule is unknown"),
    ('<GO lobby="0"/>', r"element 1 <GO>: no type"),
    ("", r"a hand before the GO element"),
])
def test_sanma_and_unknown_rules_are_refused_in_one_line(go, message):
    with pytest.raises(GameError, match=message) as info:
        read_game(mjlog(EXHAUSTED, go=go))
    assert "\n" not in str(info.value)


def test_gzip_and_the_file_extensions(tmp_path):
    plain = read_game(xml_path(TOKUJOU))
    for name in ("g.xml.gz", "g.mjlog"):
        packed = tmp_path / name
        packed.write_bytes(gzip.compress(xml_path(TOKUJOU).read_bytes()))
        assert read_game(packed).hands == plain.hands
    assert read_game(b"\xef\xbb\xbf<?xml version='1.0' encoding='UTF-8'?>\n" + xml_path(TOKUJOU).read_bytes()).hands \
        == plain.hands


@pytest.mark.parametrize("cut, message", [
    (lambda b: b[:len(b) // 2], r"not a game log: g.xml is damaged XML \((unclosed token|no element found)"),
    (lambda b: b.removesuffix(b"</mjloggm>"), r"not a game log: g.xml is damaged XML \(no element found"),
    (lambda b: gzip.compress(b)[:2000], r"not a game log: g.xml is a damaged gzip file"),
    (lambda b: b[:b.rindex(b"<AGARI")] + b"</mjloggm>", r"^g.xml: hand S4-0 ends without AGARI or RYUUKYOKU$"),
])
def test_a_truncated_file_is_refused_in_one_line(tmp_path, cut, message):
    path = tmp_path / "g.xml"
    path.write_bytes(cut(xml_path(TOKUJOU).read_bytes()))
    with pytest.raises(GameError, match=message) as info:
        read_game(path)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('<N who="0" m="', '<N who="0" m="9', 1), r"element \d+ <N> \(hand \d+\): call 9\d+ is not 16"),
    (lambda t: t.replace("<D", "<D200", 1), r"element \d+ <D200\d+> \(hand 1\): tile 200\d+ is not 0..135"),
    (lambda t: re.sub(r"<T(\d+)/>", r"<X\1/>", t, count=1), r"<X\d+> \(hand 1\): an element mjlogs do not have"),
    (lambda t: t.replace('who="0"', 'who="7"', 1), r"who=7 is not a seat 0..3"),
    (lambda t: t.replace('hai0="', 'hai0="1,', 1), r"element 5 <INIT> \(hand 1\): seat 0 is dealt 14 tiles, not 13"),
    # seat 0's first discard made a 3m (id 8), a kind it neither was dealt nor drew
    (lambda t: t.replace("<T28/><D118/>", "<T28/><D8/>", 1),
     r"^the mjlog: kyoku 1 \(E1-0\): seat 0's discard 1 \(13\): seat 0 does not hold 3m \(in the tenhou.net/6 "
     r"form of the mjlog\)$"),
    (lambda t: '<!DOCTYPE mjloggm [<!ENTITY x "y">]>' + t.replace("%41", "&x;"),
     r"a document type declaration, which is refused"),
])
def test_a_broken_log_is_refused_in_one_line(edit, message):
    data = edit(xml_path(TOKUJOU).read_text()).encode()
    with pytest.raises(GameError, match=message) as info:
        read_game(data)
    assert "\n" not in str(info.value)


def test_review_and_bench_agreement_take_an_mjlog(tmp_path, capsys):
    packed = tmp_path / f"{PHOENIX_OPEN_KAN}.xml.gz"
    packed.write_bytes(gzip.compress(xml_path(PHOENIX_OPEN_KAN).read_bytes()))
    records = load_records([str(packed), str(xml_path(PHOENIX_KANS))])
    pool = candidates(records)
    assert {c.seat for c in pool} == {0, 1, 2, 3} and sum(c.decision.kind == "turn" for c in pool) > 300
    code, text, _ = run_cli(["bench", "--agreement", str(packed), "--sample", "2", "--rollouts", "20", "--json"],
                            capsys)
    assert code == 0 and json.loads(text)["logs"] == 1
    sanma = tmp_path / "sanma.mjlog"
    sanma.write_bytes(mjlog(EXHAUSTED, go='<GO type="185" lobby="0"/>'))
    for args in (["review", str(sanma), "--seat", "0", "--out", str(tmp_path / "o")],
                 ["bench", "--agreement", str(sanma)]):
        code, out, err = run_cli(args, capsys)
        assert code == 2 and out == "" and len(err.splitlines()) == 1 and "three-player" in err
    assert not (tmp_path / "o").exists()
