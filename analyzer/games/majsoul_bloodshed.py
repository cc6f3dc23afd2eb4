"""Mahjong Soul chuanma records (川麻, detail_rule `chuanma`: tsumolab's Bloodshed, RULES.md B-…) → the hands of a
Bloodshed GameRecord, in the words analyzer.games.record gives for Bloodshed (those of
analyzer.replay.bloodshed_events). analyzer.games.majsoul finds the records and the mode and calls `read_chuanma`.

Read: RecordNewRound (`ju` the dealer, the dealer's 14 tiles — the last one is taken as its first draw; the hand's
number is its place in the record), RecordChangeTile (B-6: `change_tile_infos` per seat with `out_tiles` and
`in_tiles`; `change_type` 0 passes to the next seat, 1 across, 2 to the previous one), RecordSelectGap (B-7:
`gap_types` per seat, 0 dots, 1 characters, 2 bamboo), RecordDealTile, RecordDiscardTile, RecordChiPengGang (pon,
open kan), RecordAnGangAddGang (closed kan, added kan), RecordGangResult / RecordGangResultEnd (kan money, B-14,
B-15: its `gang_infos.delta_scores` become the latest kan's `deltas`; End ends the hand), RecordHuleXueZhanMid /
RecordHuleXueZhanEnd (one `hora` per hule: a hule after an added kan robs it, B-17; each ron winner's `deltas` are
its share of the record's, paid by the discarder, B-11), RecordNoTile (the exhaustive draw, B-20 … B-23:
`delta_scores` and `taxes`, the refund, become the `ryukyoku`'s deltas and refunds, `players[].tingpai` its tenpai).
An added kan says whether it was made with the tile its seat just drew (`drawn`, the one every other seat pays for,
B-15), as the record's draws show. Each hand ends with end_kyoku {end: three_wins | exhaustive | bust, winners,
deltas, scores}.

Refused with one GameError line naming the hand and record: what Bloodshed does not have (honor tiles or red
fives, B-1; chi, B-8; abortive draws, B-13; a hand-ending RecordHule), a fifth hand (B-2), a hand ended by a win
that is neither the third (B-13) nor a bust (B-4), and tiles a seat does not hold.
"""

from __future__ import annotations

import re
from collections import Counter

from tsumolab.analyzer.games.majsoul_walk import RecordWalker, ints

GAPS = {0: "p", 1: "m", 2: "s"}                              # gap_types entry → void suit (B-7)
STEPS = {0: 1, 1: 2, 2: 3}                                   # change_type → the receiver's offset from the giver
DIRECTIONS = {1: "next", 3: "prev", 2: "across"}             # that offset in the replay's words (B-6)
TILE = re.compile(r"[1-9][mps]")
HANDS_PER_MATCH = 4                                          # B-2
WINNERS_TO_END = 3                                           # B-13


def read_chuanma(records: list[tuple[str, dict]], title: str) -> tuple[tuple[dict, ...], ...]:
    """(name, data) of every record of a chuanma game → every hand's events (the module docstring)."""
    return _ChuanmaReader(title).read(records)


class _ChuanmaReader(RecordWalker):
    """Walks the records keeping every seat's concealed tiles, pons and the scores, writing the events."""

    unread = "this kind of record is not read in a chuanma game"
    malformed = (*RecordWalker.malformed, KeyError)

    # --- helpers -------------------------------------------------------------------------------------------------
    def tile(self, name) -> str:
        if not isinstance(name, str) or not TILE.fullmatch(name):
            self.fail(f"tile {name!r}: Bloodshed has the 108 number tiles only, no honors and no red fives (B-1)")
        return name

    def seat(self, value) -> int:
        seat = int(value or 0)
        if not 0 <= seat < 4:
            self.fail(f"seat {seat} is not a seat 0..3")
        return seat

    def take(self, seat: int, names: list[str], what: str) -> None:
        held = self.held[seat]
        if any(held[t] < n for t, n in Counter(names).items()):
            self.fail(f"seat {seat} {what} {' '.join(names)} but holds {' '.join(sorted(held.elements()))}")
        held.subtract(names)
        self.held[seat] = +held

    def playing(self, seat: int) -> None:
        if seat in self.won:
            self.fail(f"seat {seat} has won and sits out the rest of the hand (B-12)")
        if self.phase != "play":
            self.fail("play starts after the exchange of three and the voids (B-6, B-7)")

    def pay(self, deltas: list[int]) -> None:
        self.scores = [s + d for s, d in zip(self.scores, deltas)]

    def _end(self, end: str) -> None:
        if any(s < 0 for s in self.scores):
            end = "bust"   # B-4: the bust ends the hand, whatever else it is
        self.emit({"type": "end_kyoku", "end": end, "winners": len(self.won),
                   "deltas": [s - b for s, b in zip(self.scores, self.start_scores)], "scores": list(self.scores)})
        self.over = True

    # --- the start: deal, exchange, voids ------------------------------------------------------------------------
    def _RecordNewRound(self, d: dict) -> None:
        self._close()
        oya = self.seat(d.get("ju"))
        number = len(self.hands) + 1
        self.round = f"{number} (dealer {oya})"
        self.events, self.over, self.phase = [], False, "exchange"
        if number > HANDS_PER_MATCH:
            self.fail(f"a fifth hand: a Bloodshed match has {HANDS_PER_MATCH} hands (B-2)")
        deals = [[self.tile(t) for t in d.get(f"tiles{s}") or []] for s in range(4)]
        if any(len(h) != (14 if s == oya else 13) for s, h in enumerate(deals)):
            self.fail("the dealer needs 14 tiles and every other seat 13 (B-5)")
        self.scores = ints(d.get("scores"))
        self.start_scores = list(self.scores)
        self.held = [Counter(h) for h in deals]
        self.pons: list[set[str]] = [set() for _ in range(4)]
        self.won: list[int] = []
        self.last_draw: list[str | None] = [None] * 4
        self.last_draw[oya] = deals[oya][13]
        self.kan: dict | None = None       # the latest kan, until its money (if any) is read
        self.replacement = -1              # the seat whose next draw replaces a kan (B-16)
        self.giver = -1                    # the latest discarder
        self.emit({"type": "start_kyoku", "hand": number, "bakaze": "ESWN"[int(d.get("chang", 0) or 0) % 4],
                   "kyoku": oya + 1, "honba": int(d.get("ben", 0) or 0), "oya": oya, "scores": list(self.scores),
                   "exchange_direction": None, "tehais": [h[:13] for h in deals]})
        self.emit({"type": "tsumo", "actor": oya, "pai": deals[oya][13], "rinshan": False})

    def _RecordChangeTile(self, d: dict) -> None:
        step = STEPS.get(int(d.get("change_type", 0) or 0))
        infos = d.get("change_tile_infos") or []
        if self.phase != "exchange" or step is None or len(infos) != 4:
            self.fail("one exchange of three per hand before the voids (B-6), change_type 0..2, 4 seats")
        self.events[0]["exchange_direction"] = DIRECTIONS[step]
        outs = [[self.tile(t) for t in info.get("out_tiles") or []] for info in infos]
        for seat, out in enumerate(outs):
            target = (seat + step) % 4
            got = sorted(self.tile(t) for t in infos[target].get("in_tiles") or [])
            if len(out) != 3 or len({t[1] for t in out}) != 1 or sorted(out) != got:
                self.fail(f"seat {seat} passes {out} but seat {target} receives {got}: three tiles of one suit (B-6)")
            self.take(seat, out, "passes")
            self.emit({"type": "exchange", "actor": seat, "target": target, "pais": out})
        for seat, out in enumerate(outs):
            self.held[(seat + step) % 4].update(out)
        self.phase = "void"

    def _RecordSelectGap(self, d: dict) -> None:
        gaps = d.get("gap_types") or []
        if self.phase != "void" or len(gaps) != 4 or any(int(g or 0) not in GAPS for g in gaps):
            self.fail("the voids come once, after the exchange (B-7): gap_types 0 (p), 1 (m) or 2 (s) per seat")
        for seat, g in enumerate(gaps):
            self.emit({"type": "void", "actor": seat, "suit": GAPS[int(g or 0)]})
        self.phase = "play"

    # --- play ----------------------------------------------------------------------------------------------------
    def _RecordDealTile(self, d: dict) -> None:
        seat, pai = self.seat(d.get("seat")), self.tile(d.get("tile"))
        self.playing(seat)
        self.held[seat][pai] += 1
        self.last_draw[seat] = pai
        rinshan, self.replacement, self.kan = self.replacement == seat, -1, None
        self.emit({"type": "tsumo", "actor": seat, "pai": pai, "rinshan": rinshan})

    def _RecordDiscardTile(self, d: dict) -> None:
        seat, pai = self.seat(d.get("seat")), self.tile(d.get("tile"))
        self.playing(seat)
        self.take(seat, [pai], "discards")
        self.giver = seat
        self.emit({"type": "dahai", "actor": seat, "pai": pai})

    def _RecordChiPengGang(self, d: dict) -> None:
        seat, kind = self.seat(d.get("seat")), int(d.get("type", 0) or 0)
        self.playing(seat)
        tiles = [self.tile(t) for t in d.get("tiles") or []]
        froms = ints(d.get("froms"), len(tiles))
        called = [i for i, f in enumerate(froms) if f != seat]
        if kind == 0:
            self.fail("a chi: Bloodshed has no chi (B-8)")
        if kind not in (1, 2) or len(called) != 1 or len(tiles) != 2 + kind or froms[called[0]] != self.giver \
                or len(set(tiles)) != 1:
            self.fail(f"call type {kind} with tiles {tiles} from {froms} is not a pon or open kan of the last discard")
        consumed = tiles[:called[0]] + tiles[called[0] + 1:]
        self.take(seat, consumed, "calls with")
        event = {"type": "pon" if kind == 1 else "daiminkan", "actor": seat, "target": self.giver, "pai": tiles[0],
                 "consumed": consumed}
        if kind == 1:
            self.pons[seat].add(tiles[0])
        else:
            event["deltas"] = [0] * 4
            self.kan, self.replacement = event, seat
        self.emit(event)

    def _RecordAnGangAddGang(self, d: dict) -> None:
        seat, kind = self.seat(d.get("seat")), int(d.get("type", 0) or 0)
        self.playing(seat)
        tile = d.get("tiles")
        pai = self.tile(tile[0] if isinstance(tile, list) and tile else tile)
        if kind == 3:
            self.take(seat, [pai] * 4, "makes a closed kan of")
            event = {"type": "ankan", "actor": seat, "pai": pai, "consumed": [pai] * 4, "deltas": [0] * 4}
        elif kind == 2:
            if pai not in self.pons[seat]:
                self.fail(f"seat {seat} adds {pai} to a pon it does not have")
            self.take(seat, [pai], "adds to a pon")
            self.pons[seat].discard(pai)
            event = {"type": "kakan", "actor": seat, "pai": pai, "drawn": self.last_draw[seat] == pai,
                     "deltas": [0] * 4}
        else:
            self.fail(f"kan type {kind} is not 2 (added) or 3 (closed)")
        self.kan, self.replacement = event, seat
        self.emit(event)

    def _RecordGangResult(self, d: dict, ends: bool = False) -> None:
        """B-14, B-15: the latest kan's money (`ends`: it ends the hand, RecordGangResultEnd)."""
        info = d.get("gang_infos") or {}
        deltas = ints(info.get("delta_scores"))
        kan = self.kan
        if kan is None or any(kan["deltas"]) or sum(deltas) != 0 or deltas[kan["actor"]] <= 0 \
                or any(x > 0 for s, x in enumerate(deltas) if s != kan["actor"]):
            self.fail(f"kan money {deltas} does not pay the latest kan's seat (B-14, B-15)")
        kan["deltas"] = deltas
        self.pay(deltas)
        if ends != any(s < 0 for s in self.scores):
            self.fail("kan money ends the hand (RecordGangResultEnd) exactly when it leaves a player below 0 (B-4)")

    def _RecordGangResultEnd(self, d: dict) -> None:
        self._RecordGangResult(d, ends=True)
        self._end("bust")

    def _RecordHuleXueZhanMid(self, d: dict) -> None:
        self._wins(d)
        if len(self.won) >= WINNERS_TO_END or any(s < 0 for s in self.scores):
            self.fail("the hand goes on after its third win or a bust: RecordHuleXueZhanEnd ends it (B-13, B-4)")

    def _wins(self, d: dict) -> None:
        """The hules of one win record: a ron (several on one discard, B-11), a robbed added kan (B-17) or a
        tsumo."""
        hules = d.get("hules") or []
        if not hules:
            self.fail("a win record without hules")
        deltas = ints(d.get("delta_scores"))
        robbed = self.events[-1] if self.events[-1]["type"] == "kakan" else None
        paid = [0] * 4
        for h in hules:
            own = self._hora(h, deltas, robbed, len(hules))
            paid = [a + b for a, b in zip(paid, own)]
        if paid != deltas:
            self.fail(f"the wins are not paid by the delta_scores {deltas} (B-11, B-19)")
        self.kan, self.replacement = None, -1

    def _hora(self, h: dict, deltas: list[int], robbed: dict | None, n: int) -> list[int]:
        """One hule as a `hora` event; returns its payments (a ron winner's share of `deltas`, B-11)."""
        seat, pai, zimo = self.seat(h.get("seat")), self.tile(h.get("hu_tile")), bool(h.get("zimo"))
        self.playing(seat)
        if zimo and (n > 1 or robbed is not None):
            self.fail("a tsumo win stands alone in its record")
        target = seat if zimo else robbed["actor"] if robbed is not None else self.giver
        if not zimo and (target == seat or target < 0):
            self.fail(f"seat {seat} wins by ron on its own tile")
        own = list(deltas) if zimo else [0] * 4
        if not zimo:
            own[seat], own[target] = deltas[seat], -deltas[seat]
        if sum(own) != 0 or own[seat] <= 0:
            self.fail(f"the win of seat {seat} is not paid by the delta_scores {deltas} (B-11, B-19)")
        self.won.append(seat)
        self.pay(own)
        self.emit({"type": "hora", "actor": seat, "target": target, "pai": pai,
                   "kind": "tsumo" if zimo else "robbed_kan" if robbed is not None else "ron",
                   "fan": int(h.get("count", 0) or 0), "deltas": own})
        return own

    def _RecordHuleXueZhanEnd(self, d: dict) -> None:
        self._wins(d)
        if len(self.won) < WINNERS_TO_END and not any(s < 0 for s in self.scores):
            self.fail(f"the hand ends after {len(self.won)} wins without a bust: Bloodshed plays on to the third "
                      "win (B-13, B-4)")
        self._end("three_wins")

    def _RecordNoTile(self, d: dict) -> None:
        entry = (d.get("scores") or [{}])[0]
        deltas, refunds = ints(entry.get("delta_scores")), ints(entry.get("taxes"))
        players = d.get("players") or []
        tenpai = [bool(p.get("tingpai")) for p in players] if len(players) == 4 else [False] * 4
        self.pay([a + b for a, b in zip(deltas, refunds)])
        self.emit({"type": "ryukyoku", "reason": "exhaustive", "deltas": deltas, "refunds": refunds,
                   "tenpai": tenpai})
        self._end("exhaustive")

    def _RecordLiuJu(self, d: dict) -> None:
        self.fail("an abortive draw: Bloodshed has none (B-13)")

    def _RecordHule(self, d: dict) -> None:
        self.fail("a RecordHule ends the hand at a win: Bloodshed plays on after wins (RecordHuleXueZhanMid, B-12)")
