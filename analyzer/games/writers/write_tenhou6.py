"""MatchLog → tenhou.net/6 JSON (four-player riichi only): {"title", "name", "rule", "log"} with one kyoku entry
per hand: [[round index, honba, kyotaku], scores, dora indicators, ura indicators, per seat haipai, takes and
discards, result].

Tiles are codes 11..19 (m), 21..29 (p), 31..39 (s), 41..47 (honors), 51..53 the red fives. A take is a drawn
tile or a call: chi "c" + called + two, pon "p" and open kan "m" written at the caller's offset from the giver
(before the tiles from the seat on the left, after one tile from the seat across, after two or three from the
seat on the right); a discard is a tile, 60 for the drawn tile (tsumogiri), "r" before a riichi discard, 0 after
an open kan, a closed kan "aaa" + "a" + tile and an added kan the pon's string with "k" + the added tile where
the "p" was. The result is ["和了", deltas, [winner, from, pao, "<fu>符<han>飜"], ...] per winner, or the draw's
name with the noten payments. Deltas leave the riichi sticks put down in the hand out, as tenhou does. Shura has an
exchange of three and play after wins, which tenhou.net/6 cannot say: it is refused, as are the other modes.
"""

from __future__ import annotations

import json

from tsumolab.analyzer.games.writers.match_log import MatchLog, check_format

TSUMOGIRI = 60
DRAWS = {"exhaustive": "流局", "nine_terminals": "九種九牌", "four_winds": "四風連打",
         "four_riichi": "四家立直", "four_kans": "四槓散了", "three_wins": "三家和了"}
PON_BEFORE = {3: 0, 2: 1, 1: 2}    # the giver's offset from the caller → tiles before the "p"
KAN_BEFORE = {3: 0, 2: 1, 1: 3}    # likewise before the "m" of an open kan


def tenhou_tile(name: str) -> int:
    """A record tile (1m..7z, 5mr) → its tenhou code."""
    if name.endswith("r"):
        return 51 + "mps".index(name[1])
    return (1 + "mpsz".index(name[1])) * 10 + int(name[0])


def _codes(names) -> str:
    return "".join(str(tenhou_tile(n)) for n in names)


def _kyoku(hand) -> list:
    start = hand.start
    bakaze = "ESWN".index(start["bakaze"])
    doras = [tenhou_tile(start["dora_marker"])]
    takes: list[list] = [[], [], [], []]
    discards: list[list] = [[], [], [], []]
    pons: dict[tuple[int, str], tuple[str, str]] = {}
    result: list = []
    reach = -1
    ura = []
    for e in hand.events:
        kind, actor = e["type"], e.get("actor")
        if kind == "tsumo":
            takes[actor].append(tenhou_tile(e["pai"]))
        elif kind == "reach":
            reach = actor
        elif kind == "dahai":
            code = TSUMOGIRI if e["tsumogiri"] else tenhou_tile(e["pai"])
            discards[actor].append(f"r{code}" if reach == actor else code)
            reach = -1
        elif kind == "chi":
            takes[actor].append("c" + _codes([e["pai"], *e["consumed"]]))
        elif kind in ("pon", "daiminkan"):
            offset = (e["target"] - actor) % 4
            n = (PON_BEFORE if kind == "pon" else KAN_BEFORE)[offset]
            before, after = _codes(e["consumed"][:n]), _codes(e["consumed"][n:])
            letter = "p" if kind == "pon" else "m"
            takes[actor].append(f"{before}{letter}{tenhou_tile(e['pai'])}{after}")
            if kind == "pon":
                pons[actor, e["pai"].rstrip("r")] = (before, f"{tenhou_tile(e['pai'])}{after}")
            else:
                discards[actor].append(0)
        elif kind == "kakan":
            before, rest = pons.pop((actor, e["pai"].rstrip("r")))
            discards[actor].append(f"{before}k{tenhou_tile(e['pai'])}{rest}")
        elif kind == "ankan":
            codes = [str(tenhou_tile(t)) for t in e["consumed"]]
            discards[actor].append("".join(codes[:3]) + "a" + codes[3])
        elif kind == "dora":
            doras.append(tenhou_tile(e["dora_marker"]))
        elif kind == "hora":
            if not result:
                result = ["和了"]
            result += [list(e["deltas"]), [actor, e["target"], actor, f"{e['fu']}符{e['han']}飜"]]
            ura = ura or [tenhou_tile(t) for t in e.get("ura_markers", [])]
        elif kind == "ryukyoku":
            word = "流し満貫" if e.get("nagashi") else DRAWS[e["reason"]]
            result = [word, list(e["deltas"])] if "deltas" in e else [word]
    entry: list = [[bakaze * 4 + start["kyoku"] - 1, start["honba"], start["kyotaku"]], list(start["scores"]),
                   doras, ura]
    for seat in range(4):
        entry += [[tenhou_tile(t) for t in start["tehais"][seat]], takes[seat], discards[seat]]
    return entry + [result]


def tenhou6_document(log: MatchLog) -> dict:
    """The match as a tenhou.net/6 document."""
    check_format("tenhou6", log.variant)
    length = "東" if log.n_hands <= 4 else "南"
    return {"title": [log.title, ""], "name": list(log.names), "ref": log.title,
            "rule": {"disp": f"般{length}喰{'赤' if log.red_fives else ''}", "aka": int(log.red_fives)},
            "log": [_kyoku(hand) for hand in log.hands]}


def write_tenhou6(log: MatchLog) -> str:
    return json.dumps(tenhou6_document(log), ensure_ascii=False) + "\n"
