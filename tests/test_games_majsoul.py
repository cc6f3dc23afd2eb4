"""analyzer.games.majsoul: Mahjong Soul records (tests/data/majsoul, see SOURCE.md) read into GameRecord."""

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from tsumolab.analyzer.games.majsoul import MODE_FLAGS, READ_MODES, read_majsoul
from tsumolab.analyzer.games.record import GameError

DATA = Path(__file__).resolve().parent / "data" / "majsoul"
RANKED = json.loads((DATA / "ranked_south.json").read_text(encoding="utf-8"))
OLD = json.loads((DATA / "old_layout_triple_ron.json").read_text(encoding="utf-8"))


def actions(doc):
    return doc["data"]["data"]["actions"]


def first_hand(doc):
    """A copy of `doc` holding only its first hand's records."""
    doc = copy.deepcopy(doc)
    acts = actions(doc)
    end = next(i for i, a in enumerate(acts) if a["result"]["name"] == ".lq.RecordHule")
    doc["data"]["data"]["actions"] = acts[:end + 1]
    return doc


def record(name, **data):
    return {"type": 1, "result": {"name": f".lq.{name}", "data": data}}


def replay(hand):
    """Each seat's concealed tiles through the hand: every tile given away is held, 13 between turns."""
    held = [Counter(t) for t in hand[0]["tehais"]]
    melds = [0] * 4
    for e in hand[1:]:
        kind, seat = e["type"], e.get("actor")
        if kind == "tsumo":
            held[seat][e["pai"]] += 1
        elif kind == "exchange":
            assert not Counter(e["pais"]) - held[seat], e
            held[seat] -= Counter(e["pais"])
            held[e["target"]] += Counter(e["pais"])
        elif kind == "dahai":
            assert held[seat][e["pai"]] > 0, e
            held[seat][e["pai"]] -= 1
            assert sum(held[seat].values()) + 3 * melds[seat] == 13, e
        elif kind in ("chi", "pon", "daiminkan", "ankan"):
            assert not Counter(e["consumed"]) - held[seat], e
            held[seat] -= Counter(e["consumed"])
            melds[seat] += 1
        elif kind == "kakan":
            assert held[seat][e["pai"]] > 0, e
            held[seat][e["pai"]] -= 1
        elif kind == "hora" and e["kind"] == "tsumo":
            held[seat][e["pai"]] -= 1
    return held


@pytest.fixture(scope="module")
def ranked():
    return read_majsoul(RANKED)


def test_ranked_game_reads_its_nine_hands(ranked):
    assert (ranked.source, ranked.variant, ranked.length) == ("majsoul", "riichi", "south")
    assert ranked.names == ("A", "B", "C", "D") and ranked.title == RANKED["head"]["uuid"]
    starts = [h[0] for h in ranked.hands]
    assert [s["round"] for s in starts] == ["E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4", "S4"]
    assert [s["honba"] for s in starts] == [0, 0, 0, 0, 1, 0, 0, 0, 1]
    assert [s["oya"] for s in starts] == [0, 1, 2, 3, 0, 1, 2, 3, 3]
    assert all(h[-1]["type"] == "end_kyoku" for h in ranked.hands)
    for hand in ranked.hands:
        replay(hand)


def test_results_chain_into_the_next_hand_and_the_final_points(ranked):
    scores = None
    for hand in ranked.hands:
        if scores is not None:
            assert hand[0]["scores"] == scores
        scores = list(hand[0]["scores"])
        for e in hand:
            if e["type"] == "reach_accepted":
                scores[e["actor"]] -= 1000
            for seat, d in enumerate(e.get("deltas", [0] * 4) if e["type"] in ("hora", "ryukyoku") else [0] * 4):
                scores[seat] += d
        assert hand[-1]["scores"] == scores
    final = {p["seat"]: p["part_point_1"] for p in RANKED["head"]["result"]["players"]}
    assert scores == [final[s] for s in range(4)]


def test_red_fives_are_written_5mr(ranked):
    assert ranked.hands[0][0]["tehais"][2].count("5mr") == 1 and "5sr" in ranked.hands[0][0]["tehais"][2]
    tiles = json.dumps(ranked.hands)
    assert '"0m"' not in tiles and '"0p"' not in tiles and '"0s"' not in tiles
    assert '"5pr"' in tiles


def test_riichi_and_its_acceptance(ranked):
    hand = ranked.hands[0]
    i = next(i for i, e in enumerate(hand) if e["type"] == "reach")
    assert hand[i] == {"type": "reach", "actor": 2, "double": False}
    assert hand[i + 1] == {"type": "dahai", "actor": 2, "pai": "7m", "tsumogiri": False}
    assert hand[i + 2] == {"type": "reach_accepted", "actor": 2}
    assert hand[i + 3]["type"] == "tsumo" and hand[i + 3]["actor"] == 3
    last = ranked.hands[-1]  # seat 0's riichi discard is ronned: never accepted
    assert [e["actor"] for e in last if e["type"] == "reach"] == [3, 0]
    assert [e["actor"] for e in last if e["type"] == "reach_accepted"] == [3]
    assert last[-2]["type"] == "hora" and last[-2]["target"] == 0 and last[-3]["type"] == "dahai"


def test_calls_name_the_discarder(ranked):
    assert {"type": "pon", "actor": 0, "target": 2, "pai": "1z", "consumed": ["1z", "1z"]} in ranked.hands[0]
    assert {"type": "chi", "actor": 2, "target": 1, "pai": "3m", "consumed": ["2m", "4m"]} in ranked.hands[3]
    n = 0
    for hand in ranked.hands:
        for i, e in enumerate(hand):
            if e["type"] in ("chi", "pon"):
                n += 1
                discard = hand[i - 2] if hand[i - 1]["type"] == "reach_accepted" else hand[i - 1]
                assert discard["type"] == "dahai"
                assert (discard["actor"], discard["pai"]) == (e["target"], e["pai"])
                if e["type"] == "chi":
                    assert e["target"] == (e["actor"] - 1) % 4
    assert n == 23


def test_a_win_names_its_target_han_fu_and_ura(ranked):
    hora = next(e for e in ranked.hands[0] if e["type"] == "hora")
    assert hora == {"type": "hora", "actor": 2, "target": 0, "pai": "2s", "kind": "ron", "han": 6, "fu": 30,
                    "ura_markers": ["5z"], "deltas": [-12000, 0, 13000, 0]}
    assert ranked.hands[0][0]["dora_marker"] == "1m"


@pytest.mark.parametrize("wrap", ["as stored", "records", "data.records"])
def test_old_layout_triple_ron(wrap):
    doc = copy.deepcopy(OLD)
    if wrap == "records":
        doc["data"] = {"records": doc["data"]["data"]["records"]}
    elif wrap == "data.records":
        doc["data"] = doc["data"]["data"]
    game = read_majsoul(doc)
    (hand,) = game.hands
    assert game.length == "east" and game.rules == {"start_points": 200000}
    horas = [e for e in hand if e["type"] == "hora"]
    assert [(e["actor"], e["target"], e["kind"], e.get("yakuman")) for e in horas] == [
        (1, 0, "ron", 6), (2, 0, "ron", 6), (3, 0, "ron", 6)]
    assert horas[-1]["deltas"] == [-576000, 192000, 192000, 192000] and "deltas" not in horas[0]
    assert {"type": "reach", "actor": 0, "double": True} in hand
    assert hand[-1] == {"type": "end_kyoku", "scores": [-376000, 392000, 392000, 392000]}
    replay(hand)


def _without_zeros(value):
    if isinstance(value, dict):
        return {k: _without_zeros(v) for k, v in value.items() if v not in (0, False, "", [], {}, None)}
    if isinstance(value, list):
        return [_without_zeros(v) for v in value]
    return value


def test_fields_left_out_read_as_zero(ranked):
    stripped = _without_zeros(RANKED)
    assert "seat" not in actions(stripped)[1]["result"]["data"]  # seat 0's first discard
    assert read_majsoul(stripped) == ranked
    assert read_majsoul(_without_zeros(OLD)) == read_majsoul(OLD)


def shura_doc(change_type):
    """The ranked game's first hand as shura: an exchange of the first three deal tiles of each seat with the
    change_type's neighbour, the deal rewritten so that every seat afterwards holds the tiles it held."""
    doc = first_hand(RANKED)
    doc["head"]["config"]["mode"]["detail_rule"] = {"xuezhandaodi": 1}
    step = {0: 1, 1: 2, 2: 3}[change_type]
    deal = actions(doc)[0]["result"]["data"]
    orig = [list(deal[f"tiles{s}"]) for s in range(4)]
    out = [orig[(s + step) % 4][:3] for s in range(4)]
    for s in range(4):
        deal[f"tiles{s}"] = out[s] + orig[s][3:]
    infos = [{"out_tiles": out[s], "in_tiles": orig[s][:3]} for s in range(4)]
    actions(doc).insert(1, record("RecordChangeTile", change_tile_infos=infos, change_type=change_type))
    return doc, out


@pytest.mark.parametrize("change_type, direction, step", [(0, "next", 1), (1, "across", 2), (2, "prev", 3)])
def test_shura_exchange(ranked, change_type, direction, step):
    doc, out = shura_doc(change_type)
    game = read_majsoul(doc)
    hand = game.hands[0]
    assert game.variant == "shura" and hand[0]["exchange_direction"] == direction
    assert [e["type"] for e in hand[:7]] == ["start_kyoku", "tsumo"] + ["exchange"] * 4 + ["dahai"]
    exchanges = hand[2:6]
    assert [(e["actor"], e["target"]) for e in exchanges] == [(s, (s + step) % 4) for s in range(4)]
    assert exchanges[2]["pais"] == [t.replace("0m", "5mr") for t in out[2]]
    assert hand[6:] == ranked.hands[0][2:]
    replay(hand)


def test_shura_wins_in_the_middle_of_a_hand():
    doc, _ = shura_doc(0)
    hule = actions(doc)[-1]["result"]
    hule["name"] = ".lq.RecordHuleXueZhanMid"
    actions(doc).append(record("RecordNoTile", scores=[{"delta_scores": [0, 0, 0, 0]}]))
    hand = read_majsoul(doc).hands[0]
    assert [e["type"] for e in hand[-3:]] == ["hora", "ryukyoku", "end_kyoku"]
    assert hand[-1]["scores"] == [13000, 25000, 37000, 25000]
    hule["data"]["liqi"] = {"seat": 1, "score": 24000, "liqibang": 2}  # seat 1's riichi discard was ronned
    hand = read_majsoul(doc).hands[0]
    assert [e["type"] for e in hand[-4:]] == ["hora", "reach_accepted", "ryukyoku", "end_kyoku"]
    assert hand[-1]["scores"] == [13000, 24000, 37000, 25000]
    hule["data"]["liqi"]["failed"] = True
    assert read_majsoul(doc).hands[0][-3]["type"] == "hora"
    del hule["data"]["liqi"]
    hule["name"] = ".lq.RecordHuleXueZhanEnd"
    del actions(doc)[-1]
    assert [e["type"] for e in read_majsoul(doc).hands[0][-2:]] == ["hora", "end_kyoku"]


def kan_doc():
    """A made-up hand on the old game's table: seat 0 makes a closed kan, seat 1 pons and adds to it."""
    doc = copy.deepcopy(OLD)
    new_round = copy.deepcopy(doc["data"]["data"]["records"][0])
    new_round["data"]["tiles0"] = ["1z"] * 4 + ["2m", "3m", "4m", "0p", "5p", "6p", "7s", "8s", "9s", "9m"]
    new_round["data"]["tiles1"] = ["1s", "1s", "2s", "3s", "4s", "6z", "6z", "6z", "5z", "5z", "7p", "8p", "9p"]
    doc["data"]["data"]["records"] = [new_round] + [r["result"] for r in (
        record("RecordAnGangAddGang", seat=0, type=3, tiles="1z"),
        record("RecordDealTile", seat=0, tile="0m", doras=["7p", "3z"]),
        record("RecordDiscardTile", seat=0, tile="9m", moqie=False),
        record("RecordDealTile", seat=1, tile="9m"),
        record("RecordDiscardTile", seat=1, tile="9m", moqie=True),
        record("RecordDealTile", seat=2, tile="1s"),
        record("RecordDiscardTile", seat=2, tile="1s", moqie=True),
        record("RecordChiPengGang", seat=1, type=1, tiles=["1s", "1s", "1s"], froms=[1, 1, 2]),
        record("RecordDiscardTile", seat=1, tile="6z"),
        record("RecordDealTile", seat=2, tile="2p"),
        record("RecordDiscardTile", seat=2, tile="2p", moqie=True),
        record("RecordDealTile", seat=3, tile="2p"),
        record("RecordDiscardTile", seat=3, tile="2p", moqie=True),
        record("RecordDealTile", seat=0, tile="3p"),
        record("RecordDiscardTile", seat=0, tile="3p", moqie=True),
        record("RecordDealTile", seat=1, tile="1s"),
        record("RecordAnGangAddGang", seat=1, type=2, tiles="1s"),
        record("RecordDealTile", seat=1, tile="4p", doras=["7p", "3z", "8m"]),
        record("RecordDiscardTile", seat=1, tile="4p", moqie=True),
        record("RecordLiuJu", type=3),
    )]
    return doc


def test_kans_replacement_draws_and_new_indicators():
    hand = read_majsoul(kan_doc()).hands[0]
    assert list(hand[2:6]) == [{"type": "ankan", "actor": 0, "pai": "1z", "consumed": ["1z"] * 4},
                         {"type": "dora", "dora_marker": "3z"},
                         {"type": "tsumo", "actor": 0, "pai": "5mr", "rinshan": True},
                         {"type": "dahai", "actor": 0, "pai": "9m", "tsumogiri": False}]
    assert {"type": "pon", "actor": 1, "target": 2, "pai": "1s", "consumed": ["1s", "1s"]} in hand
    i = hand.index({"type": "kakan", "actor": 1, "pai": "1s", "consumed": ["1s", "1s", "1s"]})
    assert list(hand[i + 1:i + 3]) == [{"type": "dora", "dora_marker": "8m"},
                                 {"type": "tsumo", "actor": 1, "pai": "4p", "rinshan": True}]
    assert list(hand[-2:]) == [{"type": "ryukyoku", "reason": "four_kans", "abortive": True, "deltas": [0] * 4},
                         {"type": "end_kyoku", "scores": [200000] * 4}]
    assert "5pr" in hand[0]["tehais"][0]
    replay(hand)


def test_every_mode_flag_names_a_mode_that_is_read():
    """Issue 29: every detail_rule flag of the 13 modes tsumolab simulates is read (the others are refused by
    name, below)."""
    from tsumolab.sims.modes import MODES
    assert set(MODE_FLAGS.values()) == set(READ_MODES) - {"riichi"} and set(READ_MODES) == set(MODES)


@pytest.mark.parametrize("edit, words", [
    (lambda d: d["head"]["config"]["mode"].update(mode=12), "three-player games (mode 12)"),
    (lambda d: d["head"]["config"]["mode"].update(mode=21), "three-player games (mode 21)"),
    (lambda d: actions(d)[0]["result"]["data"].pop("tiles3"), "three-player games are not read"),
    (lambda d: d["head"]["config"]["mode"]["detail_rule"].update(wanxiangxiuluo_mode=True), "wanxiangxiuluo_mode"),
    (lambda d: d["head"]["config"]["mode"]["detail_rule"].update(beishuizhizhan_mode=1), "beishuizhizhan_mode"),
    (lambda d: d["head"]["config"]["mode"]["detail_rule"].update(some_new_mode=1), "some_new_mode"),
    (lambda d: actions(d).insert(2, record("RecordBaBei", seat=0)), "record 2 (RecordBaBei)"),
    (lambda d: actions(d)[1]["result"].update(data=[1, 2]), "record 1 (RecordDiscardTile): malformed record"),
    (lambda d: actions(d)[1]["result"]["data"].update(tile=7), "record 1 (RecordDiscardTile): unknown tile 7"),
    (lambda d: actions(d).pop(), "hand E1, record 65 (RecordDiscardTile): the records end before the hand's result"),
])
def test_what_cannot_be_read_is_refused_in_one_line(edit, words):
    doc = first_hand(RANKED)
    edit(doc)
    with pytest.raises(GameError) as err:
        read_majsoul(doc)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_discard_not_held_is_refused_naming_hand_and_event():
    doc = copy.deepcopy(RANKED)
    starts = [i for i, a in enumerate(actions(doc)) if a["result"]["name"] == ".lq.RecordNewRound"]
    at = next(i for i in range(starts[1], starts[2]) if actions(doc)[i]["result"]["name"] == ".lq.RecordDiscardTile")
    seat = actions(doc)[at]["result"]["data"].get("seat", 0)
    held = actions(doc)[starts[1]]["result"]["data"][f"tiles{seat}"]
    actions(doc)[at]["result"]["data"]["tile"] = next(t for t in ("1z", "2z", "3z", "4z", "5z", "9m") if t not in held)
    with pytest.raises(GameError) as err:
        read_majsoul(doc)
    message = str(err.value)
    where = f"{RANKED['head']['uuid']}: hand E2, record {at} (RecordDiscardTile)"
    assert message.startswith(f"{where}: seat {seat} discards")
    assert "\n" not in message


def seat_view(hand, i, seat=0):
    """The events of `hand` up to event i as `seat` sees them (others' deal and draws hidden)."""
    events = [dict(e) for e in hand[:i + 1]]
    events[0]["tehais"] = [h if s == seat else ["?"] * 13 for s, h in enumerate(events[0]["tehais"])]
    for e in events:
        if e["type"] == "tsumo" and e["actor"] != seat:
            e["pai"] = "?"
        elif e["type"] == "exchange" and seat not in (e["actor"], e["target"]):
            e["pais"] = ["?"] * 3
    return events


def test_the_events_feed_the_riichi_position_reader(ranked):
    from tsumolab.analyzer.advise.riichi_view import read_events

    shura = read_majsoul(shura_doc(0)[0]).hands[0]
    for variant, hands in (("riichi", ranked.hands), ("shura", [shura])):
        for hand in hands:
            ends = [i for i, e in enumerate(hand) if e["type"] == "dahai" and e["actor"] != 0]
            for i in ends[::7]:
                log = read_events(seat_view(hand, i), seat=0)
                assert (log.variant, log.decision) == (variant, "react")


def test_stored_records_are_small_and_anonymised():
    for name, doc in (("ranked_south.json", RANKED), ("old_layout_triple_ron.json", OLD)):
        assert (DATA / name).stat().st_size < 200_000
        assert doc["head"]["accounts"] == [{"account_id": 0, "seat": s, "nickname": "ABCD"[s]} for s in range(4)]
    assert {a["type"] for a in actions(RANKED)} == {1}
