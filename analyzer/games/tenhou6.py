"""tenhou.net/6 JSON (the object with "log", "name", "rule") → GameRecord; four-player games only.

A kyoku entry is [[index, honba, kyotaku], scores, dora indicators, ura indicators, then per seat haipai, takes,
discards, then the result]. The four seats' takes and discards are replayed into one stream: after a discard the
turn passes to the next seat unless another seat's next take is a call of that tile (pon and kan before chi).
Dora timing follows Mahjong Soul: a closed kan shows its indicator at once, an open or added kan after the
kan's discard (or at the next kan, whichever comes first). Riichi deposits are not in the result deltas (the log
leaves them out), so end_kyoku's scores are start + deltas - 1000 per reach_accepted.
"""

from __future__ import annotations

import copy
import re
from collections import Counter

from tsumolab.analyzer.games.record import GameError, GameRecord

TSUMOGIRI = 60
RED = {51: "5mr", 52: "5pr", 53: "5sr"}
REASONS = {"流局": "exhaustive", "全員聴牌": "exhaustive", "全員不聴": "exhaustive", "流し満貫": "exhaustive",
           "九種九牌": "nine_terminals", "四家立直": "four_riichi", "三家和了": "three_wins",
           "四風連打": "four_winds", "四槓散了": "four_kans"}
WIN = "和了"
MAX_TRIES = 4096
STATE = ("ti", "di", "hand", "pons", "shown", "pending_dora", "pending_accept", "last", "drawn")  # saved per reading
SOURCE_OFFSET = {0: 3, 1: 2, 2: 1, 3: 1}  # tiles before the call letter → seat offset (kamicha, toimen, shimocha)


def read_tenhou6(doc: dict, title: str = "") -> GameRecord:
    """A tenhou.net/6 document → GameRecord; GameError (one line) for three-player or broken logs."""
    if not isinstance(doc, dict) or not isinstance(doc.get("log"), list):
        raise GameError(f"{title or 'tenhou6'}: not a tenhou.net/6 log (no \"log\" list)")
    title = title or str(doc.get("ref") or "")
    rule = doc.get("rule") if isinstance(doc.get("rule"), dict) else {}
    disp = str(rule.get("disp", ""))
    names = [str(n) for n in doc.get("name", [])] + [""] * 4
    if "三" in disp or "sanma" in disp.lower() or len(doc.get("name", [])) == 3:
        raise GameError(f"{title or 'tenhou6'}: a three-player log; only four-player games are read")
    hands = tuple(tuple(_Kyoku(entry, n, title).events()) for n, entry in enumerate(doc["log"]))
    length = "east" if ("東" in disp or "east" in disp.lower()) else "south"
    rules = {} if rule.get("aka", 1) or any(rule.get(k) for k in ("aka51", "aka52", "aka53")) else {"red_fives": False}
    return GameRecord("tenhou6", "riichi", hands, tuple(names[:4]), rules, length, title)


def tile_name(code) -> str:
    """mjai name of a tenhou tile code (11..47, 51..53)."""
    if code in RED:
        return RED[code]
    if isinstance(code, int) and not isinstance(code, bool) and 11 <= code <= 47 and code % 10:
        suit, n = divmod(code, 10)
        if suit < 4 or n <= 7:
            return f"{n}{'mpsz'[suit - 1]}"
    raise ValueError(f"unknown tile code {code!r}")


def kind(code: int) -> int:
    return {51: 15, 52: 25, 53: 35}.get(code, code)


def parse_meld(text: str) -> tuple[str, int, list[int]]:
    """A call string → (letter, tiles before the letter, tiles with the called/added one first)."""
    m = re.fullmatch(r"((?:\d\d)*)([cpmka])((?:\d\d)+)", text)
    if not m:
        raise ValueError(f"unknown call {text!r}")
    before = [int(m[1][i:i + 2]) for i in range(0, len(m[1]), 2)]
    after = [int(m[3][i:i + 2]) for i in range(0, len(m[3]), 2)]
    return m[2], len(before), [after[0], *before, *after[1:]]


def parse_win(detail: list) -> dict:
    """han / fu from the detail list [winner, from, pao, point string, yaku...], where the log shows them."""
    out = {}
    yaku = [str(y) for y in detail[4:]]
    points = str(detail[3]) if len(detail) > 3 else ""
    found = re.search(r"(\d+)符(\d+)飜", points)
    if found:
        out["fu"], out["han"] = int(found[1]), int(found[2])
    elif yaku:
        han = 0
        for y in yaku:
            one = re.search(r"\((\d+)飜\)", y)
            if one:
                han += int(one[1])
            elif "役満" in y:
                han += 13
            else:
                return out
        out["han"] = han
    return out


def _ints(values, n: int | None = None) -> bool:
    return (isinstance(values, list) and (n is None or len(values) == n)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in values))


class _Kyoku:
    """One kyoku entry replayed into events."""

    def __init__(self, entry, index: int, title: str):
        self.title, self.index = title, index
        if not (isinstance(entry, list) and len(entry) == 17 and _ints(entry[0], 3) and _ints(entry[1], 4)
                and _ints(entry[2]) and entry[2] and _ints(entry[3]) and all(isinstance(x, list) for x in entry[4:])):
            raise GameError(f"{title or 'tenhou6'}: kyoku {index + 1}: not a four-player kyoku entry")
        (self.round, self.honba, self.kyotaku), self.scores, self.dora, self.ura = entry[:4]
        self.label = f"kyoku {index + 1} ({'ESWN'[self.round // 4 % 4]}{self.round % 4 + 1}-{self.honba})"
        seats = entry[4:16]
        self.haipai, self.takes, self.discards = seats[0::3], [list(t) for t in seats[1::3]], seats[2::3]
        if any(len(h) != 13 for h in self.haipai):
            raise self.error("a three-player log (a seat has no haipai) or a broken deal; only four-player games "
                             "are read")
        self.result = entry[16]
        self.ti, self.di = [0] * 4, [0] * 4
        self.out: list[dict] = []
        self.hand = [Counter(h) for h in self.haipai]
        self.pons: list[dict[int, list[int]]] = [{}, {}, {}, {}]
        self.shown, self.pending_dora, self.pending_accept = 1, 0, None
        self.last: tuple[int, int] | None = None  # (seat, tile) that a ron would take: discard or kakan
        self.drawn = [0] * 4
        self.tries = 0

    def error(self, what: str) -> GameError:
        return GameError(f"{self.title or 'tenhou6'}: {self.label}: {what}")

    def events(self) -> list[dict]:
        try:
            oya = self.round % 4
            self.out.append({
                "type": "start_kyoku", "bakaze": "ESWN"[self.round // 4 % 4], "kyoku": oya + 1,
                "honba": self.honba, "kyotaku": self.kyotaku, "oya": oya, "scores": list(self.scores),
                "dora_marker": tile_name(self.dora[0]), "tehais": [[tile_name(t) for t in h] for h in self.haipai]})
            self.play(oya)
        except (ValueError, TypeError, IndexError) as exc:
            raise self.error(str(exc)) from None
        return self.out

    def emit(self, event: dict):
        if self.pending_accept is not None and event["type"] != "hora":
            self.out.append({"type": "reach_accepted", "actor": self.pending_accept})
            self.pending_accept = None
        self.out.append(event)

    def play(self, actor: int, tile: int | None = None):
        """Turns until the hand ends; `tile`: the one `actor` just discarded (else `actor` draws next)."""
        while True:
            if tile is not None:
                callers = self.callers(actor, tile)
                if callers:
                    return self.branch(actor, tile, callers)
                actor = (actor + 1) % 4
            if self.ti[actor] >= len(self.takes[actor]):
                return self.end()
            self.draw(actor)
            tile = self.turn(actor)
            if tile is None:
                return self.end()

    def branch(self, actor: int, tile: int, callers: list[int]):
        """A discard some seat's next take may call: each reading in turn (the call first, then no call), the
        first that replays to a consistent end wins; a seat may pass a call and make the same one later."""
        errors = []
        for caller in [*callers, None]:
            saved = self.save()
            try:
                if caller is None:
                    return self.play((actor + 1) % 4)
                after = self.call(caller, tile)
                return self.end() if after is None else self.play(caller, after)
            except GameError as exc:
                errors.append(exc)
                self.restore(saved)
        raise errors[0]

    def save(self):
        self.tries += 1
        if self.tries > MAX_TRIES:
            raise self.error("too many readings of the calls; the log is inconsistent")
        return copy.deepcopy({k: getattr(self, k) for k in STATE}), len(self.out)

    def restore(self, saved):
        state, n = saved
        self.__dict__.update(state)
        del self.out[n:]

    def end(self):
        left = [s for s in range(4) if self.ti[s] < len(self.takes[s]) or self.di[s] < len(self.discards[s])]
        if left:
            s = left[0]
            raise self.error(f"seat {s}'s take {self.ti[s] + 1} or discard {self.di[s] + 1} cannot be placed in "
                             "the play order")
        self.finish()

    def draw(self, actor: int, rinshan: bool = False):
        take = self.takes[actor][self.ti[actor]]
        if isinstance(take, str):
            raise self.error(f"seat {actor}'s take {self.ti[actor] + 1} is a call {take!r} with no discard to call")
        self.ti[actor] += 1
        self.hand[actor][take] += 1
        self.drawn[actor] = take
        self.emit({"type": "tsumo", "actor": actor, "pai": tile_name(take), "rinshan": rinshan})

    def turn(self, actor: int) -> int | None:
        """The seat's discard after a draw or call (kans and their replacement draws on the way); None when the
        hand ends in this turn."""
        while self.di[actor] < len(self.discards[actor]):
            d = self.discards[actor][self.di[actor]]
            where = f"seat {actor}'s discard {self.di[actor] + 1} ({d!r})"
            self.di[actor] += 1
            if isinstance(d, str) and d[:1] != "r":
                self.kan(actor, d, where)
                if self.ti[actor] >= len(self.takes[actor]):
                    return None  # robbed (chankan) or the hand was aborted at the kan
                self.draw(actor, rinshan=True)
                continue
            reach = isinstance(d, str)
            code = int(d[1:]) if reach else d
            tsumogiri = code == TSUMOGIRI
            tile = self.drawn[actor] if tsumogiri else code
            if not tile or self.hand[actor][tile] < 1:
                raise self.error(f"{where}: seat {actor} does not hold {tile_name(tile) if tile else 'a drawn tile'}")
            self.hand[actor][tile] -= 1
            self.drawn[actor] = 0
            if reach:
                self.emit({"type": "reach", "actor": actor})
            self.emit({"type": "dahai", "actor": actor, "pai": tile_name(tile), "tsumogiri": tsumogiri})
            self.last = (actor, tile)
            if reach:
                self.pending_accept = actor
            self.reveal_pending()
            return tile
        return None

    def kan(self, actor: int, text: str, where: str):
        letter, before, tiles = parse_meld(text)
        self.reveal_pending()
        if letter == "a" and len(tiles) == 4:
            self.take_from_hand(actor, tiles, where)
            self.emit({"type": "ankan", "actor": actor, "consumed": [tile_name(t) for t in tiles]})
            self.reveal()
        elif letter == "k" and len(tiles) == 4:
            pon = self.pons[actor].pop(kind(tiles[0]), None)
            if pon is None:
                raise self.error(f"{where}: an added kan with no pon of {tile_name(tiles[0])}")
            added = list((Counter(tiles) - Counter(pon)).elements()) or [tiles[0]]
            if len(added) != 1:
                raise self.error(f"{where}: the added kan does not match the pon")
            self.take_from_hand(actor, added, where)
            self.emit({"type": "kakan", "actor": actor, "pai": tile_name(added[0]),
                       "consumed": [tile_name(t) for t in pon]})
            self.last = (actor, added[0])
            self.pending_dora += 1
        else:
            raise self.error(f"{where}: not a discard, riichi, added or closed kan")

    def callers(self, actor: int, tile: int) -> list[int]:
        """The seats whose next take may call `tile` just discarded by `actor` (pon / kan first, then chi)."""
        chi = []
        for offset in (1, 2, 3):
            seat = (actor + offset) % 4
            if self.ti[seat] >= len(self.takes[seat]) or not isinstance(self.takes[seat][self.ti[seat]], str):
                continue
            letter, before, tiles = parse_meld(self.takes[seat][self.ti[seat]])
            if kind(tiles[0]) != kind(tile):
                continue
            if letter in "pm" and (seat + SOURCE_OFFSET[before]) % 4 == actor:
                return [seat]
            if letter == "c" and offset == 1:
                chi = [seat]
        return chi

    def call(self, actor: int, tile: int) -> int | None:
        """The call that is the seat's next take, then its turn; the turn's discard (None: the hand ended)."""
        text = self.takes[actor][self.ti[actor]]
        where = f"seat {actor}'s take {self.ti[actor] + 1} ({text!r})"
        self.ti[actor] += 1
        letter, before, tiles = parse_meld(text)
        size = {"c": 3, "p": 3, "m": 4}[letter]
        if len(tiles) != size or (letter == "c" and before):
            raise self.error(f"{where}: a malformed call")
        consumed = tiles[1:]
        self.take_from_hand(actor, consumed, where)
        target = self.last[0]
        word = {"c": "chi", "p": "pon", "m": "daiminkan"}[letter]
        self.emit({"type": word, "actor": actor, "target": target, "pai": tile_name(tile),
                   "consumed": [tile_name(t) for t in consumed]})
        if letter == "p":
            self.pons[actor][kind(tile)] = [tile, *consumed]
        if letter != "m":
            return self.turn(actor)
        self.reveal_pending()
        self.pending_dora += 1
        if self.di[actor] >= len(self.discards[actor]) or self.discards[actor][self.di[actor]] != 0:
            raise self.error(f"{where}: an open kan needs a 0 in the discards after it")
        self.di[actor] += 1
        if self.ti[actor] >= len(self.takes[actor]):
            return None
        self.draw(actor, rinshan=True)
        return self.turn(actor)

    def take_from_hand(self, actor: int, tiles: list[int], where: str):
        for t in tiles:
            if self.hand[actor][t] < 1:
                raise self.error(f"{where}: seat {actor} does not hold {tile_name(t)}")
            self.hand[actor][t] -= 1

    def reveal(self):
        if self.shown < len(self.dora):
            self.emit({"type": "dora", "dora_marker": tile_name(self.dora[self.shown])})
            self.shown += 1

    def reveal_pending(self):
        while self.pending_dora:
            self.pending_dora -= 1
            self.reveal()

    def finish(self):
        """The result: hora events (one per winner), or ryukyoku; then end_kyoku with the scores after."""
        result = self.result
        if not isinstance(result, list) or not result:
            raise self.error("no result")
        head = result[0]
        deltas_sum = [0] * 4
        if head == WIN:
            pairs = result[1:]
            if not pairs or len(pairs) % 2:
                raise self.error("a win result needs deltas and a detail list per winner")
            for deltas, detail in zip(pairs[0::2], pairs[1::2]):
                winner, giver = int(detail[0]), int(detail[1])
                if winner == giver:
                    if self.out[-1]["type"] != "tsumo" or self.out[-1]["actor"] != winner:
                        raise self.error(f"seat {winner} wins by tsumo but did not just draw")
                    pai = self.out[-1]["pai"]
                else:
                    if self.last is None or self.last[0] != giver:
                        raise self.error(f"seat {winner} wins off seat {giver}, whose tile was not the last given")
                    pai = tile_name(self.last[1])
                if self.pending_accept == giver and winner != giver:
                    self.pending_accept = None  # the riichi discard was ronned: no deposit
                event = {"type": "hora", "actor": winner, "target": giver, "pai": pai, **parse_win(detail),
                         "deltas": list(deltas)}
                reached = any(e["type"] == "reach" and e["actor"] == winner for e in self.out)
                if reached and self.ura:
                    event["ura_markers"] = [tile_name(t) for t in self.ura]
                self.emit(event)
                deltas_sum = [a + b for a, b in zip(deltas_sum, deltas)]
        elif head in REASONS:
            event = {"type": "ryukyoku", "reason": REASONS[head]}
            if len(result) > 1:
                event["deltas"] = list(result[1])
                deltas_sum = list(result[1])
            self.emit(event)
        else:
            raise self.error(f"unknown result {head!r}")
        reached = [e["actor"] for e in self.out if e["type"] == "reach_accepted"]
        scores = [s + d - 1000 * reached.count(i) for i, (s, d) in enumerate(zip(self.scores, deltas_sum))]
        self.out.append({"type": "end_kyoku", "scores": scores})
