"""A Bloodshed MatchLog (analyzer.games.writers.bloodshed_log) → the records of a Mahjong Soul chuanma game (川麻,
detail_rule `chuanma`), the layout analyzer.games.majsoul_bloodshed reads; field names as the client's protocol
(liqi.proto) and the community replay editor have them.

Per hand: RecordNewRound (`ju` and `seat` the dealer, `ju_count` the hand's index in the match, the dealer's 14
tiles holding its first draw, 55 tiles left), RecordChangeTile (the exchange of three, B-6: per seat `out_tiles` and
`in_tiles`, `change_type` 0 to the next seat, 1 across, 2 to the previous one), RecordSelectGap (the voids, B-7:
`gap_types` per seat, 0 dots, 1 characters, 2 bamboo — p, m, s, not m, p, s), then RecordDealTile, RecordDiscardTile,
RecordChiPengGang (pon type 1, open kan type 2: the called tile last in `tiles`, its giver last in `froms`),
RecordAnGangAddGang (type 3 closed, 2 added). Kan money (B-14, B-15) is RecordGangResult {gang_infos: {old_scores,
delta_scores, scores}} right after the kan (after the robbing chance of an added one), RecordGangResultEnd when it
ends the hand (a bust, B-4). Wins are RecordHuleXueZhanMid {hules, old_scores, delta_scores, scores} — one record per
discard or added kan however many win on it (B-11), a hule {seat, hu_tile, zimo, count (fan), fans (left empty),
fu 0, yiman, hand, ming (kezi(5m,5m,5m), minggang(…), angang(…)), dadian} — and RecordHuleXueZhanEnd for the win
that ends the hand (the third, B-13, or a bust). An exhaustive draw is RecordNoTile {scores: [{old_scores,
delta_scores (查花猪, 查大叫), taxes (退税)}], players: [{tingpai}]}. The records that end a hand carry the hand's
`hules_history`. Bloodshed has no dora and no riichi: `doras` is empty and `liqi` never written.
"""

from __future__ import annotations

from collections import Counter

from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.games.writers.match_log import Hand, MatchLog

CHANGE_TYPES = {1: 0, 2: 1, 3: 2}       # the receiver's offset from the giver → change_type
GAP_TYPES = {"p": 0, "m": 1, "s": 2}    # void suit → gap_types entry (B-7)
CALLS = {"pon": 1, "daiminkan": 2}
KANS = {"ankan": 3, "kakan": 2}
LIVE_TILES = 108 - 4 * 13 - 1           # live-wall tiles left after the dealer's first draw (B-5)


def chuanma_records(log: MatchLog) -> list[dict]:
    """Every hand's records, in play order."""
    if log.rules:
        key, value = next(iter(log.rules.items()))
        raise InputError(f"replay --format majsoul: a Mahjong Soul chuanma record has no place for the Bloodshed "
                         f"rule option {key}={value}; write the match with the default rules")
    return [r for hand in log.hands for r in _HandRecords(hand).write()]


def chuanma_detail_rule() -> dict:
    return {"chuanma": True, "init_point": 50000}


class _HandRecords:
    """One hand's records, written event by event."""

    def __init__(self, hand: Hand):
        self.hand = hand
        self.records: list[dict] = []
        self.scores = list(hand.start["scores"])
        self.held = [Counter(h) for h in hand.start["tehais"]]
        self.melds: list[dict[str, str]] = [{} for _ in range(4)]   # per seat: tile → its meld as a hule's `ming`
        self.history: list[dict] = []                                 # the hand's hules so far
        self.drawn: list[str | None] = [None] * 4
        self.left = LIVE_TILES

    def add(self, name: str, data: dict) -> dict:
        self.records.append({"name": f".lq.{name}", "data": data})
        return data

    def write(self) -> list[dict]:
        events = self.hand.events
        i = self.new_round(events)
        while i < len(events):
            kind = events[i]["type"]
            if kind == "exchange":
                i = self.exchange(events, i)
            elif kind == "void":
                i = self.voids(events, i)
            elif kind == "hora":
                i = self.wins(events, i)
            else:
                self.event(events[i], events[i + 1] if i + 1 < len(events) else None)
                i += 1
        return self.records

    def new_round(self, events: list[dict]) -> int:
        start, oya = self.hand.start, self.hand.start["oya"]
        first = events[0] if events else None
        if first is None or first["type"] != "tsumo" or first["actor"] != oya:
            raise ValueError(f"a Bloodshed hand starts with the dealer's draw, not {first}")
        self.held[oya][first["pai"]] += 1
        self.drawn[oya] = first["pai"]
        tiles = [list(h) for h in start["tehais"]]
        tiles[oya].append(first["pai"])
        self.add("RecordNewRound", {
            "chang": 0, "ju": oya, "ben": 0, "ju_count": start["hand"] - 1, "seat": oya, "scores": list(self.scores),
            "liqibang": 0, **{f"tiles{s}": tiles[s] for s in range(4)}, "doras": [], "left_tile_count": self.left})
        return 1

    def exchange(self, events: list[dict], i: int) -> int:
        passes = [e for e in events[i:i + 4] if e["type"] == "exchange"]
        gives = {e["actor"]: e["pais"] for e in passes}
        gets = {e["target"]: e["pais"] for e in passes}
        for e in passes:
            self.held[e["actor"]].subtract(e["pais"])
            self.held[e["target"]].update(e["pais"])
        step = (passes[0]["target"] - passes[0]["actor"]) % 4
        self.add("RecordChangeTile", {
            "change_tile_infos": [{"out_tiles": list(gives[s]), "out_tile_states": [0, 0, 0],
                                   "in_tiles": list(gets[s]), "in_tile_states": [0, 0, 0]} for s in range(4)],
            "change_type": CHANGE_TYPES[step], "doras": [], "operations": []})
        return i + len(passes)

    def voids(self, events: list[dict], i: int) -> int:
        declared = {e["actor"]: e["suit"] for e in events[i:i + 4] if e["type"] == "void"}
        self.add("RecordSelectGap", {"gap_types": [GAP_TYPES[declared[s]] for s in range(4)]})
        return i + len(declared)

    def event(self, e: dict, after: dict | None) -> None:
        kind, seat = e["type"], e.get("actor")
        if kind == "tsumo":
            self.left -= 1
            self.held[seat][e["pai"]] += 1
            self.drawn[seat] = e["pai"]
            self.add("RecordDealTile", {"seat": seat, "tile": e["pai"], "left_tile_count": self.left, "doras": []})
        elif kind == "dahai":
            self.held[seat][e["pai"]] -= 1
            self.add("RecordDiscardTile", {"seat": seat, "tile": e["pai"], "moqie": e["pai"] == self.drawn[seat],
                                           "is_liqi": False, "is_wliqi": False, "doras": []})
            self.drawn[seat] = None
        elif kind in CALLS:
            self.held[seat].subtract(e["consumed"])
            n = len(e["consumed"])
            self.melds[seat][e["pai"]] = _ming("kezi" if kind == "pon" else "minggang", e["pai"])
            self.add("RecordChiPengGang", {"seat": seat, "type": CALLS[kind], "tiles": [*e["consumed"], e["pai"]],
                                           "froms": [seat] * n + [e["target"]], "tile_states": [0] * n,
                                           "scores": list(self.scores)})
            self.kan_money(e, after)
        elif kind in KANS:
            self.held[seat].subtract(e.get("consumed") or [e["pai"]])
            self.melds[seat][e["pai"]] = _ming("angang" if kind == "ankan" else "minggang", e["pai"])
            self.add("RecordAnGangAddGang", {"seat": seat, "type": KANS[kind], "tiles": e["pai"], "doras": []})
            self.kan_money(e, after)
        elif kind == "ryukyoku":
            self.no_tile(e)

    def kan_money(self, e: dict, after: dict | None) -> None:
        """B-14, B-15: the kan's payments, if any, as RecordGangResult (RecordGangResultEnd when the hand ends on
        them: a bust, B-4)."""
        deltas = e.get("deltas") or [0] * 4
        if not any(deltas):
            return
        old = list(self.scores)
        self.scores = [s + d for s, d in zip(self.scores, deltas)]
        info = {"old_scores": old, "delta_scores": list(deltas), "scores": list(self.scores)}
        if after is None or after["type"] == "end_kyoku":
            self.add("RecordGangResultEnd", {"gang_infos": {**info, "hules_history": list(self.history)}})
        else:
            self.add("RecordGangResult", {"gang_infos": info})

    def wins(self, events: list[dict], i: int) -> int:
        """The wins on one discard, added kan or draw (B-11): one RecordHuleXueZhanMid, or End for the last."""
        first, hules, deltas = events[i], [], [0] * 4
        old = list(self.scores)
        while i < len(events) and events[i]["type"] == "hora" and _same_tile(events[i], first):
            hules.append(self.hule(events[i]))
            deltas = [a + b for a, b in zip(deltas, events[i]["deltas"])]
            i += 1
        self.scores = [s + d for s, d in zip(self.scores, deltas)]
        self.history += hules
        ends = i >= len(events) or events[i]["type"] == "end_kyoku"
        data = {"hules": hules, "old_scores": old, "delta_scores": deltas, "scores": list(self.scores)}
        if ends:
            data["hules_history"] = list(self.history)
        self.add("RecordHuleXueZhanEnd" if ends else "RecordHuleXueZhanMid", data)
        return i

    def hule(self, e: dict) -> dict:
        seat, zimo = e["actor"], e["kind"] == "tsumo"
        if e["kind"] == "robbed_kan":   # B-17: the robbed kan stays a pon
            self.melds[e["target"]][e["pai"]] = _ming("kezi", e["pai"])
        hand = sorted((+self.held[seat]).elements(), key=lambda t: ("mps".index(t[1]), t[0]))
        if zimo:
            hand.remove(e["pai"])
        return {"seat": seat, "hu_tile": e["pai"], "zimo": zimo, "count": e["fan"], "fans": [], "fu": 0,
                "yiman": False, "hand": hand, "ming": list(self.melds[seat].values()), "dadian": max(e["deltas"]),
                "liqi": False, "qinjia": False, "doras": [], "li_doras": []}

    def no_tile(self, e: dict) -> None:
        old = list(self.scores)
        self.scores = [s + d + r for s, d, r in zip(self.scores, e["deltas"], e["refunds"])]
        self.add("RecordNoTile", {"liujumanguan": False, "hules_history": list(self.history),
                                  "players": [{"tingpai": bool(t)} for t in e.get("tenpai", [False] * 4)],
                                  "scores": [{"old_scores": old, "delta_scores": list(e["deltas"]),
                                              "taxes": list(e["refunds"])}]})


def _ming(word: str, tile: str) -> str:
    """A meld as a hule's `ming` lists it: kezi (pon), minggang (open or added kan), angang (closed kan)."""
    return f"{word}({','.join([tile] * (3 if word == 'kezi' else 4))})"


def _same_tile(e: dict, first: dict) -> bool:
    """Whether win `e` is on the same discard or added kan as `first` (a multiple ron, B-11); a tsumo stands
    alone."""
    return e is first or (first["kind"] != "tsumo" and e["kind"] == first["kind"] and e["target"] == first["target"]
                          and e["pai"] == first["pai"])
