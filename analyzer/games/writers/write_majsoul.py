"""MatchLog → a decoded Mahjong Soul game record, the layout analyzer.games.majsoul reads and the client's protocol
(liqi.proto) uses: {"head": {uuid, start_time, end_time, config: {category, mode: {mode, ai, detail_rule}, meta},
accounts, result}, "data": {"name": ".lq.GameDetailRecords", "data": {"version": 210715, "actions": [...]}}},
every action {"type": 1, "result": {"name": ".lq.RecordXxx", "data": {...}}}.

Records: RecordNewRound (the dealer's 14 tiles hold its first draw), RecordChangeTile (shura's exchange of three),
RecordDealTile, RecordDiscardTile, RecordChiPengGang (the called tile last in `tiles`, `froms` its giver),
RecordAnGangAddGang (type 3 closed, 2 added), RecordHule (one per hand-ending win, several `hules` for a double
ron), in shura RecordHuleXueZhanMid (a win the hand goes on after) and RecordHuleXueZhanEnd (the last),
RecordNoTile (exhaustive draw) and RecordLiuJu (abortive draw). Tiles are 1m..9m, 1p..9p, 1s..9s, 1z..7z, a red
five 0m / 0p / 0s. A riichi's stick shows as `liqi` {seat, score, liqibang} on the next record; a newly shown dora
indicator in the cumulative `doras` of the record it comes with. head.config.mode.mode is 1 (East) or 2 (South);
detail_rule names shura (xuezhandaodi, huansanzhang), the start points (init_point) and the red fives
(dora_count 3 or 0). A han count of 13 or more is written as counted han (yiman false).
The special riichi modes add their detail_rule flag and side fields (analyzer.games.writers.majsoul_modes), and
mirror, astrology and darkness their marks and records of what the table sees (analyzer.games.writers.majsoul_sight:
transparent copies marked t and the wall, RecordFillAwaitingTiles, RecordRevealTile / RecordUnveilTile /
RecordLockTile).
"""

from __future__ import annotations

import json

from tsumolab.analyzer.games.writers.majsoul_modes import ModeFields, detail_rule_flags
from tsumolab.analyzer.games.writers.majsoul_sight import AwaitingTiles, MirrorCopies, dark_records
from tsumolab.analyzer.games.writers.match_log import Hand, MatchLog, check_format

ABORTS = {"nine_terminals": 1, "four_winds": 2, "four_kans": 3, "four_riichi": 4, "three_wins": 5}
CHANGE_TYPES = {1: 0, 2: 1, 3: 2}  # the receiver's offset from the giver → change_type (next, across, prev)
CALLS = {"chi": 0, "pon": 1, "daiminkan": 2}


def majsoul_tile(name: str) -> str:
    """A record tile (5mr) in Mahjong Soul's spelling (0m); fate's open mark t stays last (5mrt → 0mt)."""
    if name.endswith("t"):
        return majsoul_tile(name[:-1]) + "t"
    return f"0{name[1]}" if name.endswith("r") else name


def _tiles(names) -> list[str]:
    return [majsoul_tile(n) for n in names]


class _HandRecords:
    """One hand's records, written event by event."""

    def __init__(self, hand: Hand, variant: str, count_called: bool = True):
        self.hand, self.variant = hand, variant
        self.side = ModeFields(variant, hand.start, count_called)
        self.mirror = MirrorCopies(hand.wall["ids"], hand.start["oya"]) if variant == "mirror" else None   # M
        self.pool = AwaitingTiles() if variant == "astrology" else None   # A
        self.last_discard = ""   # the latest discard (or added kan's tile) in the record's spelling
        self.records: list[dict] = []
        self.scores = list(hand.start["scores"])
        self.sticks = int(hand.start["kyotaku"]) + int(hand.start.get("pot", 0)) // 1000   # D: the pot shows too
        self.doras = [self.indicator(0, hand.start["dora_marker"])]
        self.liqi: dict | None = None
        self.reach: dict | None = None
        self.left = 136 - 14 - 4 * 13 - 1   # live tiles left after the dealer's first draw (69)

    def add(self, name: str, data: dict) -> dict:
        if self.liqi is not None:
            data["liqi"], self.liqi = self.liqi, None
        self.records.append({"name": f".lq.{name}", "data": data})
        return data

    def write(self) -> list[dict]:
        start, events = self.hand.start, self.hand.events
        oya = start["oya"]
        i = 0
        while i < len(events) and events[i]["type"] == "eye":   # DE: the hand's first eye
            self.side.place_eye(events[i])
            i += 1
        first = events[i] if i < len(events) else None
        if first is None or first["type"] != "tsumo" or first["actor"] != oya:
            raise ValueError(f"a hand starts with the dealer's draw, not {first}")
        tiles = [list(h) for h in start["tehais"]]
        tiles[oya].append(first["pai"])
        dealt = [self.mirror.deal(s) for s in range(4)] if self.mirror else tiles
        if self.mirror:
            dealt[oya].append(self.mirror.draw(oya, False))
        data = {"chang": "ESWN".index(start["bakaze"]), "ju": start["kyoku"] - 1, "ben": start["honba"], "seat": oya,
                "scores": list(self.scores), "liqibang": self.sticks,
                **{f"tiles{s}": _tiles(self.side.deal_tiles(start, s, dealt[s])) for s in range(4)},
                "doras": list(self.doras), "left_tile_count": self.left}
        if self.mirror:
            data["paishan"] = self.mirror.paishan()
        self.side.new_round(data, tiles, majsoul_tile)
        self.add("RecordNewRound", data)
        i += 1
        while i < len(events):
            e = events[i]
            if e["type"] == "exchange":
                i = self.exchange(events, i)
            elif e["type"] == "dahai" and e.get("face_down"):
                i = self.face_down(events, i)
            elif e["type"] == "hora":
                i = self.wins(events, i)
            else:
                self.event(e)
                i += 1
        return self.records

    def exchange(self, events: list[dict], i: int) -> int:
        passes = [e for e in events[i:i + 4] if e["type"] == "exchange"]
        gives = {e["actor"]: e for e in passes}
        gets = {e["target"]: e for e in passes}
        step = (passes[0]["target"] - passes[0]["actor"]) % 4
        self.add("RecordChangeTile", {
            "change_tile_infos": [{"out_tiles": _tiles(gives[s]["pais"]), "out_tile_states": [0, 0, 0],
                                   "in_tiles": _tiles(gets[s]["pais"]), "in_tile_states": [0, 0, 0]}
                                  for s in range(4)],
            "change_type": CHANGE_TYPES[step], "doras": list(self.doras)})
        return i + len(passes)

    def indicator(self, index: int, name: str, ura: bool = False) -> str:
        """Dora indicator `index` (or its ura), marked in mirror when transparent (M)."""
        return self.mirror.indicator(index, ura) if self.mirror else majsoul_tile(name)

    def given(self, seat: int, name: str, drawn_copy: bool = False) -> str:
        """A tile the seat gives up from its hand, in the record's spelling (M: marked when transparent)."""
        return majsoul_tile(self.mirror.give(seat, name, drawn_copy) if self.mirror else name)

    def face_down(self, events: list[dict], i: int) -> int:
        """D: the face-down discard at `i` and the payments right after it, as RecordRevealTile, RecordUnveilTile
        and RecordLockTile; returns the index after them."""
        e, end = events[i], i + 1
        while end < len(events) and events[end]["type"] == "payment":
            end += 1
        riichi, self.reach = self.reach, None
        self.last_discard = majsoul_tile(e["pai"])
        records, self.sticks = dark_records(e, events[i + 1:end], self.last_discard, riichi, self.scores,
                                            self.sticks)
        for name, data in records:
            self.add(name, data)
        return end

    def event(self, e: dict) -> None:
        kind, seat = e["type"], e.get("actor")
        if kind == "tsumo":
            self.left -= 1
            tile = self.mirror.draw(seat, bool(e.get("rinshan"))) if self.mirror else e["pai"]
            data = {"seat": seat, "tile": majsoul_tile(tile), "left_tile_count": self.left}
            if self.pool is not None and "pick" in e:   # A: the pool the pick is made from, then the pick
                self.add("RecordFillAwaitingTiles", self.pool.fill_record(seat, self.left))
                data["tile_index"] = e["pick"]
                self.pool.take(e["pick"])
            self.side.drawn(data, seat, e["pai"])
            self.add("RecordDealTile", data)
        elif kind == "candidate":
            self.pool.reveal(majsoul_tile(e["pai"]))
        elif kind == "reach":
            self.reach = e
        elif kind == "dahai":
            riichi, self.reach = self.reach, None
            data = {"seat": seat, "tile": self.given(seat, e["pai"], bool(e["tsumogiri"])),
                    "is_liqi": riichi is not None and not riichi.get("double"), "moqie": bool(e["tsumogiri"]),
                    "is_wliqi": riichi is not None and bool(riichi.get("double"))}
            self.side.discarded(data, e, riichi)
            self.last_discard = data["tile"]
            self.add("RecordDiscardTile", data)
        elif kind in CALLS:
            n = len(e["consumed"])
            consumed = [self.given(seat, c) for c in e["consumed"]]
            data = {"seat": seat, "type": CALLS[kind], "tiles": [*consumed, self.last_discard],
                    "froms": [seat] * n + [e["target"]], "tile_states": [0] * n}
            self.side.called(data, e)
            self.fees(data, e.get("fees"))
            self.add("RecordChiPengGang", data)
        elif kind in ("ankan", "kakan"):
            given = [self.given(seat, c) for c in (e["consumed"] if kind == "ankan" else [e["pai"]])]
            data = {"seat": seat, "type": 3 if kind == "ankan" else 2,
                    "tiles": e["consumed"][0].rstrip("r") if kind == "ankan" else given[0]}
            if kind == "kakan":
                self.last_discard = given[0]   # the tile a robbing ron wins on
            self.side.kan(data, e)
            self.add("RecordAnGangAddGang", data)
        elif kind == "eye":
            self.side.place_eye(e)
        elif kind == "reach_accepted":
            self.scores[seat] -= 1000
            self.sticks += 1
            self.liqi = {"seat": seat, "score": self.scores[seat], "liqibang": self.sticks}
        elif kind == "dora":
            self.doras.append(self.indicator(len(self.doras), e["dora_marker"]))
            self.records[-1]["data"]["doras"] = list(self.doras)
        elif kind == "ryukyoku":
            self.draw(e)

    def fees(self, data: dict, fees: dict | None) -> None:
        """FL: the fees a call costs (暗中交易, 爱的代价) move the scores the call record shows."""
        if fees is None:
            return
        self.scores = [s + d for s, d in zip(self.scores, fees["deltas"])]
        self.sticks += fees["pot"] // 1000
        data.update(scores=list(self.scores), liqibang=self.sticks)

    def wins(self, events: list[dict], i: int) -> int:
        """The wins from event `i` on that one record holds (a double or triple ron), and the events they bring
        (a riichi stick paid after a shura win, a dora): one RecordHule or RecordHuleXueZhan* record."""
        hules, after, deltas = [], [], [0] * 4
        old = list(self.scores)
        while i < len(events) and events[i]["type"] in ("hora", "reach_accepted", "dora"):
            e = events[i]
            if e["type"] != "hora":
                after.append(e)
            else:
                zimo = e["actor"] == e["target"]
                hule = {"seat": e["actor"], "hu_tile": self.win_tile(e, zimo), "zimo": zimo,
                        "yiman": False, "count": e["han"], "fu": e["fu"], "point_sum": max(e["deltas"])}
                if e.get("ura_markers"):
                    hule["li_doras"] = [self.indicator(j, t, ura=True) for j, t in enumerate(e["ura_markers"])]
                self.side.fate_bonus(hule, e["actor"])
                hules.append(hule)
                deltas = [a + b for a, b in zip(deltas, e["deltas"])]
            i += 1
        self.scores = [s + d for s, d in zip(self.scores, deltas)]
        self.sticks = 0
        ends = i >= len(events) or events[i]["type"] == "end_kyoku"
        name = ("RecordHuleXueZhanEnd" if ends else "RecordHuleXueZhanMid") if self.variant == "shura" else \
            "RecordHule"
        # a shura win's `liqi` is read as the stick paid after the win: one paid before it waits for the next record
        early, self.liqi = (self.liqi, None) if self.variant == "shura" else (None, self.liqi)
        record = self.add(name, {"hules": hules, "old_scores": old, "delta_scores": deltas,
                                 "scores": list(self.scores)})
        for e in after:
            self.event(e)
        if self.variant == "shura" and self.liqi is not None:
            record["liqi"], self.liqi = self.liqi, None
        self.liqi = early or self.liqi
        return i

    def win_tile(self, e: dict, zimo: bool) -> str:
        """The win's tile in the record's spelling (M: marked when transparent)."""
        if not self.mirror:
            return majsoul_tile(e["pai"])
        return self.mirror.last_drawn(e["actor"], e["pai"]) if zimo else self.last_discard

    def draw(self, e: dict) -> None:
        if e.get("abortive"):
            data = {"type": ABORTS[e["reason"]]}
            if e.get("actor") is not None and e["actor"] >= 0:
                data["seat"] = e["actor"]
            self.add("RecordLiuJu", data)
            return
        old = list(self.scores)
        self.scores = [s + d for s, d in zip(self.scores, e["deltas"])]
        self.add("RecordNoTile", {"liujumanguan": bool(e.get("nagashi")),
                                  "scores": [{"old_scores": old, "delta_scores": list(e["deltas"])}]})


def majsoul_document(log: MatchLog) -> dict:
    """The match as a decoded Mahjong Soul record."""
    check_format("majsoul", log.variant)
    if log.variant == "bloodshed":
        from tsumolab.analyzer.games.writers.majsoul_bloodshed import chuanma_detail_rule, chuanma_records

        rule, records = chuanma_detail_rule(), chuanma_records(log)
    else:
        rule, records = _riichi_rule(log), _riichi_records(log)
    final = log.final_scores
    return {
        "head": {"uuid": log.title, "start_time": 0, "end_time": 0,
                 "config": {"category": 1, "mode": {"mode": 1 if log.n_hands <= 4 else 2, "ai": True,
                                                    "detail_rule": rule}, "meta": {}},
                 "accounts": [{"account_id": 0, "seat": s, "nickname": n} for s, n in enumerate(log.names)],
                 "result": {"players": [{"seat": s, "total_point": final[s], "part_point_1": final[s]}
                                        for s in sorted(range(4), key=lambda s: -final[s])]}},
        "data": {"name": ".lq.GameDetailRecords",
                 "data": {"version": 210715, "actions": [{"type": 1, "result": r} for r in records]}}}


def _riichi_rule(log: MatchLog) -> dict:
    """detail_rule of a riichi-family match: the red fives, the start points and the mode's flags."""
    from tsumolab.sims.modes import get_mode

    defaults = get_mode(log.variant).rules_class()
    rule: dict = {"dora_count": 3 if log.red_fives else 0,
                  "init_point": int(log.rules.get("start_points", defaults.start_points))}
    if log.variant == "shura":
        rule.update(xuezhandaodi=1, huansanzhang=1)
    if log.hands:
        rule.update(detail_rule_flags(log.variant, log.hands[0].start))
    return rule


def _riichi_records(log: MatchLog) -> list[dict]:
    from tsumolab.sims.modes import get_mode

    count_called = bool(log.rules.get("count_called", get_mode(log.variant).rules_class().count_called))
    return [r for hand in log.hands for r in _HandRecords(hand, log.variant, count_called).write()]


def write_majsoul(log: MatchLog) -> str:
    return json.dumps(majsoul_document(log), ensure_ascii=False) + "\n"
