"""Tenhou's mjlog XML (`<mjloggm ver="2.3">`, the game file Tenhou saves, plain or gzip) → GameRecord; four-player
games only.

The XML is turned into the tenhou.net/6 document of the same game (`tenhou6_document`), and
analyzer.games.tenhou6 reads that: one place turns a Tenhou hand into events. That reader rebuilds the order of
play from each seat's takes and discards; the XML's own order is checked against it. The elements, in play
order:

    GO type lobby        the rule, bits of `type`: 0x01 against people, 0x02 no red fives, 0x04 no open tanyao,
                         0x08 hanchan (else east only), 0x10 three players, 0x20 and 0x80 the room (none 一般,
                         0x80 上級, 0x20 特上, both 鳳凰), 0x40 fast
    UN n0..n3            the names, URL-encoded UTF-8 (a later UN with one name is a player coming back)
    INIT seed ten oya hai0..hai3
                         seed = round, honba, riichi sticks, two dice, dora indicator; ten = the scores / 100;
                         hai0..3 = the 13 start tiles of each seat
    T/U/V/W + tile       a draw of seat 0/1/2/3;  D/E/F/G + tile: its discard (a tsumogiri when it is the tile
                         just drawn)
    N who m              a call, `m` below
    REACH who step       1: riichi declared (the next discard is its tile), 2: the stick paid
    DORA hai             a new dora indicator
    AGARI                who, fromWho, paoWho, ten = fu, points, limit (1 mangan … 5 yakuman), yaku = id, han, …
                         or yakuman = id, …, doraHai, doraHaiUra, sc = score / 100 and change / 100 per seat,
                         owari on the game's last result (final scores / 100 and points)
    RYUUKYOKU type sc    a draw: no type is exhaustive (hai0..3 on the seats ready), yao9, reach4, ron3, kaze4,
                         kan4, nm (nagashi mangan)
    SHUFFLE, TAIKYOKU, BYE   the wall's seed, the game's start, a player leaving: not needed

A tile is an id 0..135: its kind is id // 4 (1m..9m, 1p..9p, 1s..9s, 1z..7z); with red fives, ids 16, 52 and 88
are the red 5m, 5p and 5s.

A call `m` (16 bits): bits 0-1 the seat called from, counted from the caller (1 next, 2 across, 3 previous; 0 a
closed kan). Bit 2: a chi; bits 10-15 = (suit × 7 + lowest number − 1) × 3 + which of the three (low to high) was
called; bits 3-4, 5-6 and 7-8 the copy (id % 4) of the low, middle and high tile. Bit 3: a pon, bit 4: an added
kan; bits 9-15 = kind × 3 + which of the three pon tiles (by id) was called; bits 5-6 the copy not in the pon (the
added tile of an added kan). Bit 5 alone: a three-player north (refused). Else a kan of four: bits 8-15 the id
of the called tile (a closed kan: one of its four).

The tenhou.net/6 words are the ones Tenhou's own converter writes: tile codes 11..47 and 51..53 for red fives,
60 for a tsumogiri, "r" before a riichi discard; a call's tiles with the called one after the letter, the
letter placed by the seat it came from (first: previous, after one tile: across, after the others: next); an
added kan is its pon with "p" replaced by "k" and the added tile; a closed kan is three tiles, "a", the fourth.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from urllib.parse import unquote

from tsumolab.analyzer.games.record import GameError, GameRecord

MAGIC = b"<mjloggm"
ROOMS = {0: "般", 0x80: "上", 0x20: "特", 0xA0: "鳳"}
KNOWN_TYPE_BITS = 0xFF
THREE_PLAYERS, NO_RED, NO_OPEN_TANYAO, HANCHAN, FAST = 0x10, 0x02, 0x04, 0x08, 0x40
RED_IDS = {16: 51, 52: 52, 88: 53}
TSUMOGIRI = 60
DRAW_TAGS, DISCARD_TAGS = "TUVW", "DEFG"
PLAY_TAG = re.compile(r"([TUVWDEFG])(\d+)")
IGNORED = {"SHUFFLE", "TAIKYOKU", "BYE"}
MOVES = {"tsumo": "draw", "dahai": "discard", "chi": "call", "pon": "call", "daiminkan": "call", "ankan": "call",
         "kakan": "call"}
LIMITS = {1: "満貫", 2: "跳満", 3: "倍満", 4: "三倍満", 5: "役満"}
DRAWS = {"yao9": "九種九牌", "reach4": "四家立直", "ron3": "三家和了", "kaze4": "四風連打", "kan4": "四槓散了",
         "nm": "流し満貫"}
YAKU = ("門前清自摸和", "立直", "一発", "槍槓", "嶺上開花", "海底摸月", "河底撈魚", "平和", "断幺九", "一盃口",
        "自風 東", "自風 南", "自風 西", "自風 北", "場風 東", "場風 南", "場風 西", "場風 北",
        "役牌 白", "役牌 發", "役牌 中", "両立直", "七対子", "混全帯幺九", "一気通貫", "三色同順", "三色同刻",
        "三槓子", "対々和", "三暗刻", "小三元", "混老頭", "二盃口", "純全帯幺九", "混一色", "清一色", "人和",
        "天和", "地和", "大三元", "四暗刻", "四暗刻単騎", "字一色", "緑一色", "清老頭", "九蓮宝燈", "純正九蓮宝燈",
        "国士無双", "国士無双１３面", "大四喜", "小四喜", "四槓子", "ドラ", "裏ドラ", "赤ドラ")
"""Tenhou's yaku by id, in the words of its tenhou.net/6 logs."""


def is_mjlog(data: bytes) -> bool:
    """Whether `data` (gunzipped) is an mjlog: `<mjloggm` first, after a byte order mark, blanks and an XML
    declaration (or a document type declaration of mjloggm, which the reader refuses)."""
    head = data[:512].removeprefix(b"\xef\xbb\xbf").lstrip()
    if head.startswith(b"<?xml"):
        end = head.find(b"?>")
        head = head[end + 2:].lstrip() if end >= 0 else b""
    return head.startswith(MAGIC) or head.startswith(b"<!DOCTYPE mjloggm")


def read_tenhou_xml(data: bytes, title: str = "") -> GameRecord:
    """An mjlog's bytes (gunzipped) → GameRecord (a game without open tanyao gets the rule open_tanyao off);
    GameError (one line) for three-player, unknown rules or broken logs, and for a log whose play the
    tenhou.net/6 reader would put in another order than the mjlog's."""
    from tsumolab.analyzer.games.tenhou6 import read_tenhou6

    doc, moves = _convert(data, title)
    try:
        record = replace(read_tenhou6(doc, title or "the mjlog"), title=title)
    except GameError as exc:
        raise GameError(f"{exc} (in the tenhou.net/6 form of the mjlog)") from None
    for n, (hand, expected) in enumerate(zip(record.hands, moves), 1):
        replayed = [(MOVES[e["type"]], e["actor"]) for e in hand if e["type"] in MOVES]
        if replayed != expected:
            at = next(i for i, (a, b) in enumerate(zip([*replayed, None], [*expected, None])) if a != b)
            raise GameError(f"{title or 'the mjlog'}: hand {n}: the play rebuilt from its tenhou.net/6 form leaves "
                            f"the mjlog's order at move {at + 1}")
    rules = record.rules if "喰" in doc["rule"]["disp"] else {**record.rules, "open_tanyao": False}
    return replace(record, source="mjlog", rules=rules)


def tenhou6_document(data: bytes, title: str = "") -> dict:
    """The tenhou.net/6 document of an mjlog: ref, rule, lobby, name, log, and sc when the log has the final
    scores."""
    return _convert(data, title)[0]


def _convert(data: bytes, title: str) -> tuple[dict, list[list[tuple[str, int]]]]:
    """The tenhou.net/6 document, and per hand the mjlog's order of moves: (draw | discard | call, seat)."""
    name = title or "the mjlog"
    root = parse_xml(data, name)
    if root.tag != "mjloggm":
        raise GameError(f"{name}: not an mjlog (the root element is <{root.tag}>)")
    doc = {"ref": title, "name": ["", "", "", ""], "log": []}
    hand: _Hand | None = None
    moves: list[list[tuple[str, int]]] = []
    for n, element in enumerate(root, 1):
        tag = element.tag
        number = len(moves) + (tag == "INIT")
        where = f"{name}: element {n} <{tag}>" + (f" (hand {number})" if number else "")
        try:
            if tag == "GO":
                doc["rule"], doc["lobby"] = rule(whole(element, "type")), whole(element, "lobby", 0)
            elif tag == "UN":
                if all(element.get(f"n{s}") is not None for s in range(4)):
                    doc["name"] = [unquote(element.get(f"n{s}"), errors="strict") for s in range(4)]
            elif tag == "INIT":
                if "rule" not in doc:
                    raise ValueError("a hand before the GO element that names the rule")
                if hand is not None:
                    doc["log"].append(hand.entry())
                hand = _Hand(element, "aka51" in doc["rule"])
                moves.append(hand.moves)
            elif tag in IGNORED:
                continue
            elif hand is None:
                raise ValueError("play before the first INIT")
            else:
                hand.play(element)
                if element.get("owari") is not None:
                    doc["sc"] = final_scores(element.get("owari"))
        except GameError as exc:
            raise GameError(f"{where}: {exc}") from None
        except (ValueError, TypeError, IndexError, KeyError, UnicodeDecodeError) as exc:
            raise GameError(f"{where}: {exc}") from None
    if hand is None:
        raise GameError(f"{name}: an mjlog without hands (no INIT)")
    try:
        doc["log"].append(hand.entry())
    except ValueError as exc:
        raise GameError(f"{name}: {exc}") from None
    return doc, moves


def parse_xml(data: bytes, name: str) -> ET.Element:
    """The root element; a document type declaration (and so any entity of one) is refused, not expanded."""
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise GameError(f"not a game log: {name} is an mjlog with a document type declaration, which is refused")
    parser = ET.XMLParser()
    try:
        parser.feed(data)
        return parser.close()
    except ET.ParseError as exc:
        raise GameError(f"not a game log: {name} is damaged XML ({exc})") from None


def rule(bits: int) -> dict:
    """GO's type → the tenhou.net/6 rule: disp (room, 東 or 南, 喰 with open tanyao, 赤 with red fives, 速 when
    fast) and the red fives; GameError for three players or bits no rule is known for."""
    if bits & THREE_PLAYERS:
        raise GameError(f"a three-player (sanma) log (GO type {bits}); only four-player games are read")
    if bits < 0 or bits & ~KNOWN_TYPE_BITS:
        raise GameError(f"GO type {bits} has bits {bits & ~KNOWN_TYPE_BITS:#x} whose rule is unknown")
    disp = (ROOMS[bits & 0xA0] + ("南" if bits & HANCHAN else "東") + ("" if bits & NO_OPEN_TANYAO else "喰")
            + ("" if bits & NO_RED else "赤") + ("速" if bits & FAST else ""))
    return {"disp": disp, "aka": 0} if bits & NO_RED else {"disp": disp, "aka53": 1, "aka52": 1, "aka51": 1}


def numbers(text: str | None, what: str) -> list[int]:
    if text is None:
        raise ValueError(f"no {what}")
    try:
        return [int(x) for x in text.split(",")] if text.strip() else []
    except ValueError:
        raise ValueError(f"{what} {text[:60]!r} is not a list of whole numbers") from None


def final_scores(text: str) -> list:
    """owari (score / 100, points, per seat) → tenhou.net/6's sc: scores in points, the points as numbers."""
    values = [float(x) for x in text.split(",")]
    if len(values) != 8 or not all(abs(v) < 1e9 for v in values):
        raise ValueError(f"owari {text[:60]!r} is not 8 scores and points")
    out = []
    for score, points in zip(values[0::2], values[1::2]):
        out += [round(score * 100), int(points) if points.is_integer() else points]
    return out


def limit_points(fu: int, han: int, limit: int, points: int, tsumo: bool, dealer: bool) -> str:
    """The points text of a win as tenhou.net/6 writes it: "30符2飜2000点", "満貫2000-4000点", "30符1飜500点∀"."""
    if limit not in LIMITS and not (limit == 0 and 0 <= han <= 13 and 0 <= fu <= 110):
        raise ValueError(f"a win of {fu} fu, {han} han and limit {limit}")
    head = LIMITS[limit] if limit in LIMITS else f"{fu}符{han}飜"
    if not tsumo:
        return f"{head}{points}点"
    if dealer:
        return f"{head}{points // 3}点∀"
    if limit in LIMITS:
        return f"{head}{points // 4}-{points // 2}点"
    base = fu * 2 ** (2 + han)
    return f"{head}{-(-base // 100) * 100}-{-(-2 * base // 100) * 100}点"


class _Hand:
    """One INIT and its play, gathered into a tenhou.net/6 kyoku entry."""

    def __init__(self, init: ET.Element, red: bool):
        self.red = red
        seed = numbers(init.get("seed"), "seed")
        if len(seed) != 6:
            raise ValueError(f"seed has {len(seed)} numbers, not 6")
        self.round, self.honba, self.sticks = seed[:3]
        oya = whole(init, "oya", self.round % 4)
        if not 0 <= self.round < 16 or oya != self.round % 4:
            raise ValueError(f"round {self.round} with dealer {oya}")
        self.scores = [100 * s for s in numbers(init.get("ten"), "ten")]
        if len(self.scores) != 4:
            raise ValueError(f"{len(self.scores)} scores; only four-player games are read")
        self.dora, self.ura = [self.code(seed[5])], []
        self.haipai = []
        for seat in range(4):
            tiles = numbers(init.get(f"hai{seat}"), f"hai{seat}")
            if len(tiles) != 13:
                raise ValueError(f"seat {seat} is dealt {len(tiles)} tiles, not 13")
            self.haipai.append([self.code(t) for t in self.ordered(tiles)])
        self.takes: list[list] = [[], [], [], []]
        self.discards: list[list] = [[], [], [], []]
        self.drawn: list[int | None] = [None] * 4
        self.declared: set[int] = set()
        self.pons: dict[tuple[int, int], str] = {}
        self.result: list = []
        self.moves: list[tuple[str, int]] = []  # (draw | discard | call, seat) in the mjlog's order

    def round_name(self) -> str:
        return f"{'ESWN'[self.round // 4]}{self.round % 4 + 1}-{self.honba}"

    def code(self, tile: int) -> int:
        """The tenhou.net/6 code of a tile id."""
        if not 0 <= tile < 136:
            raise ValueError(f"tile {tile} is not 0..135")
        if self.red and tile in RED_IDS:
            return RED_IDS[tile]
        suit, number = divmod(tile // 4, 9)
        return (suit + 1) * 10 + number + 1

    def ordered(self, tiles) -> list[int]:
        """Tile ids in tenhou.net/6's order: by kind, a red five after the plain ones."""
        return sorted(tiles, key=lambda t: (t // 4, self.red and t in RED_IDS, t))

    def play(self, element: ET.Element):
        tag = element.tag
        if self.result and tag != "AGARI":
            raise ValueError("play after the hand's result")
        found = PLAY_TAG.fullmatch(tag)
        if found:
            letter, tile = found[1], int(found[2])
            if letter in DRAW_TAGS:
                seat = DRAW_TAGS.index(letter)
                self.takes[seat].append(self.code(tile))
                self.drawn[seat] = tile
                self.moves.append(("draw", seat))
            else:
                self.discard(DISCARD_TAGS.index(letter), tile)
                self.moves.append(("discard", DISCARD_TAGS.index(letter)))
        elif tag == "N":
            seat = seat_of(element, "who")
            self.call(seat, whole(element, "m"))
            self.moves.append(("call", seat))
        elif tag == "REACH":
            if element.get("step") == "1":
                self.declared.add(seat_of(element, "who"))
        elif tag == "DORA":
            self.dora.append(self.code(whole(element, "hai")))
        elif tag == "AGARI":
            self.win(element)
        elif tag == "RYUUKYOKU":
            self.draw_result(element)
        else:
            raise ValueError("an element mjlogs do not have")

    def discard(self, seat: int, tile: int):
        word = TSUMOGIRI if tile == self.drawn[seat] else self.code(tile)
        if seat in self.declared:
            self.declared.discard(seat)
            word = f"r{word}"
        self.discards[seat].append(word)
        self.drawn[seat] = None

    def call(self, seat: int, m: int):
        """A call in tenhou.net/6 words: chi, pon, open kan among the seat's takes (an open kan with a 0 among
        its discards), added and closed kans among its discards."""
        if not 0 <= m < 1 << 16:
            raise ValueError(f"call {m} is not 16 bits")
        source = m & 3
        self.drawn[seat] = None
        if m & 0x4:
            if source != 3:
                raise ValueError(f"call {m}: a chi not from the previous seat")
            pattern = m >> 10
            suit, low = divmod(pattern // 3, 7)
            if suit > 2:
                raise ValueError(f"call {m}: a chi of honors")
            ids = [(suit * 9 + low + i) * 4 + (m >> (3 + 2 * i) & 3) for i in range(3)]
            called = ids.pop(pattern % 3)
            self.takes[seat].append(f"c{self.code(called)}" + "".join(str(self.code(t)) for t in ids))
        elif m & 0x18:
            if m & 0x18 == 0x18:
                raise ValueError(f"call {m}: both a pon and an added kan")
            kind, which = divmod(m >> 9, 3)
            if kind > 33:
                raise ValueError(f"call {m}: no tile kind {kind}")
            left_out = kind * 4 + (m >> 5 & 3)
            ids = [kind * 4 + c for c in range(4) if kind * 4 + c != left_out]
            called = ids.pop(which)
            ids = self.ordered(ids)
            if m & 0x8:
                if source == 0:
                    raise ValueError(f"call {m}: a pon from nobody")
                text = self.meld("p", source, called, ids)
                self.pons[seat, kind] = text
                self.takes[seat].append(text)
            else:
                pon = self.pons.pop((seat, kind), None)
                if pon is None:
                    raise ValueError(f"call {m}: an added kan of {self.code(left_out)} without its pon")
                self.discards[seat].append(pon.replace("p", f"k{self.code(left_out)}"))
        elif m & 0x20:
            raise GameError("a three-player north (nuki); only four-player games are read")
        else:
            called = m >> 8
            kind = called // 4
            if kind > 33:
                raise ValueError(f"call {m}: no tile kind {kind}")
            if source == 0:
                words = [str(self.code(t)) for t in self.ordered(range(kind * 4, kind * 4 + 4))]
                self.discards[seat].append("".join(words[:3]) + "a" + words[3])
            else:
                ids = self.ordered([kind * 4 + c for c in range(4) if kind * 4 + c != called])
                self.takes[seat].append(self.meld("m", source, called, ids))
                self.discards[seat].append(0)

    def meld(self, letter: str, source: int, called: int, others: list[int]) -> str:
        """Pon or open kan text: the letter and the called tile after none (previous seat), one (across) or all
        (next) of the others."""
        before = {3: 0, 2: 1, 1: len(others)}[source]
        words = [str(self.code(t)) for t in others]
        return "".join(words[:before]) + f"{letter}{self.code(called)}" + "".join(words[before:])

    def win(self, element: ET.Element):
        if self.result and self.result[0] != "和了":
            raise ValueError("a win after a draw")
        who, giver = seat_of(element, "who"), seat_of(element, "fromWho")
        pao = seat_of(element, "paoWho") if element.get("paoWho") is not None else who
        fu, points, limit = numbers(element.get("ten"), "ten")
        words = []
        han = 0
        if element.get("yakuman"):
            words = [f"{yaku_name(y)}(役満)" for y in numbers(element.get("yakuman"), "yakuman")]
        else:
            pairs = numbers(element.get("yaku"), "yaku")
            for y, h in zip(pairs[0::2], pairs[1::2]):
                han += h
                if h:
                    words.append(f"{yaku_name(y)}({h}飜)")
        text = limit_points(fu, han, limit, points, who == giver, who == self.round % 4)
        self.result = self.result or ["和了"]
        self.result += [self.deltas(element), [who, giver, pao, text, *words]]
        if element.get("doraHaiUra") and not self.ura:
            self.ura = [self.code(t) for t in numbers(element.get("doraHaiUra"), "doraHaiUra")]

    def draw_result(self, element: ET.Element):
        kind = element.get("type")
        if kind is None:
            ready = sum(element.get(f"hai{s}") is not None for s in range(4))
            self.result = (["全員聴牌"] if ready == 4 else ["全員不聴"] if ready == 0
                           else ["流局", self.deltas(element)])
        elif kind == "nm":
            self.result = [DRAWS[kind], self.deltas(element)]
        elif kind in DRAWS:
            self.result = [DRAWS[kind]]
        else:
            raise ValueError(f"an unknown draw type {kind!r}")

    @staticmethod
    def deltas(element: ET.Element) -> list[int]:
        sc = numbers(element.get("sc"), "sc")
        if len(sc) != 8:
            raise ValueError(f"sc has {len(sc)} numbers, not 8")
        return [100 * d for d in sc[1::2]]

    def entry(self) -> list:
        if not self.result:
            raise ValueError(f"hand {self.round_name()} ends without AGARI or RYUUKYOKU")
        seats = [part for s in range(4) for part in (self.haipai[s], self.takes[s], self.discards[s])]
        return [[self.round, self.honba, self.sticks], self.scores, self.dora, self.ura, *seats, self.result]


def whole(element: ET.Element, attribute: str, default: int | None = None) -> int:
    """An attribute that is a whole number (`default` when it is missing)."""
    text = element.get(attribute)
    if text is None and default is not None:
        return default
    if text is None or not re.fullmatch(r"-?[0-9]{1,9}", text.strip()):
        raise ValueError(f"{attribute}={text!r} is not a whole number" if text is not None else f"no {attribute}")
    return int(text)


def seat_of(element: ET.Element, attribute: str) -> int:
    seat = whole(element, attribute)
    if not 0 <= seat <= 3:
        raise ValueError(f"{attribute}={seat} is not a seat 0..3")
    return seat


def yaku_name(yaku: int) -> str:
    if not 0 <= yaku < len(YAKU):
        raise ValueError(f"unknown yaku {yaku}")
    return YAKU[yaku]
