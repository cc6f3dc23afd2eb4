"""One seat's decisions in one hand of a real game (a GameRecord hand, every tile known): where each decision
is, what the seat saw then (the position document advise reads) and which option the player chose.

A decision of the seat is
- `turn`: after its draw, or after its own chi / pon — the choice is the tsumo win, nine terminals, a kan,
  riichi with a discard, or a discard;
- `react`: after another seat's discard that the seat could call or win on — ron, pon, kan, chi or pass;
- `rob`: after another seat's added kan whose tile completes the seat's hand — ron or pass;
- `exchange` (shura, S-2): the three tiles passed at the start, chosen after the dealer's first draw (the
  dealer's first turn comes after the exchange);
- `pick` (astrology, A): which candidate of the pool to draw; `open` and `lock` (darkness, D): whether to pay to
  open another seat's face-down discard, or to lock one's own once opened (analyzer.review.sight, which also says
  what mirror, astrology and darkness show of the other seats' tiles).
In shura a seat that has won sits out the rest of the hand (S-3): the chi source skips it. A react or rob
decision is kept only when the seat's tiles allow something besides passing (the engine then lists the options;
one with only "pass" left is skipped by the review).

With each decision goes the table as everyone saw it then (`TableAt`, the review report's timeline): each seat's
river (a riichi tile marked *, called tiles gone from it), its melds, the dora indicators, and the tile the
decision is about.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tsumolab.analyzer.advise.riichi_position import FORMAT
from tsumolab.analyzer.advise.riichi_view import HIDDEN, tile_of
from tsumolab.analyzer.games.record import GameError
from tsumolab.analyzer.review.sight import DarkDecisions, PoolPicks, darkness_view, opened_face_up, seen_draws
from tsumolab.sims.tiles import format_tiles, tile_name


@dataclass(frozen=True)
class TableAt:
    """The public table at a decision."""

    rivers: tuple[str, ...]   # per seat, its discards in order ("1m9p4z*2s": * after the riichi tile)
    melds: tuple[str, ...]    # per seat, its melds ("pon 5m, chi 3p4p5p, ankan 1z")
    dora: str                 # the dora indicators shown ("3p1z")
    tile: str                 # the tile decided on: drawn (turn), discarded (react), added to a kan (rob); "" none


@dataclass(frozen=True)
class SeatDecision:
    """A decision of the reviewed seat: the events up to it (index `at` is the last one seen) and the choice."""

    at: int
    kind: str       # turn | react | rob | exchange | pick | open | lock
    choice: str     # the chosen option's label as advise writes it (e.g. "discard 5m", "riichi 3p", "pass")
    tiles: str      # the seat's concealed tiles then (mpsz, after the draw), e.g. "123m456p789s1122z"
    table: TableAt | None = None


def seat_view(events, seat: int, variant: str = "riichi") -> list[dict]:
    """The events as `seat` saw them: the other seats' start tiles (but in open-deal, OD, which shows them all)
    and draws hidden (but mirror's transparent copies and astrology's picks, M, A), the tiles of an exchange the
    seat took no part in, and in darkness the other seats' face-down tiles still hidden (D). What fate (F),
    dragon-eye (DE), mirror and astrology show — `fate_open`, `open_tile`, `eye`, `mirror_tehais`, `mirror_wall`,
    `candidate` — is public and stays."""
    out = []
    shown = seen_draws(events, variant)
    for i, e in enumerate(events):
        kind = e["type"]
        if kind == "start_kyoku" and variant != "open-deal":
            e = dict(e, tehais=[h if s == seat else [HIDDEN] * len(h) for s, h in enumerate(e["tehais"])])
        elif kind == "tsumo" and e["actor"] != seat and i not in shown:
            e = dict(e, pai=HIDDEN)
        elif kind == "exchange" and seat not in (e["actor"], e["target"]):
            e = dict(e, pais=[HIDDEN] * len(e["pais"]))
        elif kind in ("hora", "ryukyoku", "end_kyoku"):
            e = {k: v for k, v in e.items() if k not in ("ura_markers",)}
        out.append(e)
    return darkness_view(out, seat) if variant == "darkness" else out


def position_at(variant: str, events, seat: int, decision: SeatDecision, rules: dict | None = None) -> dict:
    """The position document (analyzer.advise.riichi_position) of `decision`. A react decision sees the dora
    indicator an open or added kan shows with the discard after it (Mahjong Soul shows it before the calls); the
    dealer's first turn sees the indicators logged right after its first draw (dora-fever's and dragon-eye's
    first ones, DF, DE). A later turn does not see an open kan's indicator logged after its replacement draw: that
    one shows with the next discard or kan."""
    end = decision.at + 1
    first_draw = next((i for i, e in enumerate(events) if e["type"] == "tsumo"), -1)
    sees_dora = decision.kind == "react" or (decision.kind == "turn" and decision.at == first_draw)
    while sees_dora and end < len(events) and events[end]["type"] == "dora":
        end += 1
    doc = {"format": FORMAT, "variant": variant, "seat": seat, "decision": decision.kind,
           "events": seat_view(events[:end], seat, variant), "note": "review"}
    if rules:
        doc["rules"] = dict(rules)
    return doc


class _SeatHand:
    """The reviewed seat's concealed tiles (counts per kind), melds and riichi, followed event by event; the other
    seats' tiles are not needed (they may be hidden, as in an mjai log of the seat's own view)."""

    def __init__(self, start: dict, seat: int):
        self.seat = seat
        self.counts = np.zeros(34, np.int32)
        for name in start["tehais"][seat]:
            self._add(name, 1)
        self.melds = 0
        self.riichi = False
        self.won: set[int] = set()   # seats that won: in shura they sit out the rest of the hand (S-3)

    def _add(self, name: str, n: int) -> None:
        tile = tile_of(name)
        if tile is None:
            raise GameError(f"the log hides seat {self.seat}'s own tiles: review the seat whose view it is")
        self.counts[tile[0]] += n

    def apply(self, e: dict) -> None:
        kind = e["type"]
        if kind == "hora":
            self.won.add(e["actor"])
        if kind == "exchange":
            for name in e["pais"]:
                if e["actor"] == self.seat:
                    self._add(name, -1)
                if e["target"] == self.seat:
                    self._add(name, 1)
        if e.get("actor") != self.seat:
            return
        if kind == "tsumo":
            self._add(e["pai"], 1)
        elif kind == "dahai":
            self._add(e["pai"], -1)
        elif kind in ("chi", "pon", "daiminkan", "ankan"):
            for name in e["consumed"]:
                self._add(name, -1)
            self.melds += 1
        elif kind == "kakan":  # the pon's tiles are already a meld; the added tile leaves the hand
            self._add(e["pai"], -1)
        elif kind == "reach_accepted":
            self.riichi = True

    def tiles(self) -> str:
        return format_tiles(self.counts)

    def completes(self, kind: int) -> bool:
        from tsumolab.sims.shanten import RIICHI_SHAPES, get_tables, shanten

        counts = self.counts.astype(np.int8)
        counts[kind] += 1
        suit_t, honor_t = get_tables()
        return int(shanten(counts, self.melds, RIICHI_SHAPES, suit_t, honor_t)) < 0

    def could_call(self, actor: int, kind: int) -> bool:
        """Pon, open kan or (from the seat on the left, the seats out after their wins skipped) chi on `kind` by
        its tiles, riichi aside."""
        if self.riichi:
            return False
        held = self.counts
        if held[kind] >= 2:
            return True
        left = (self.seat - 1) % 4
        while left in self.won and left != actor:
            left = (left - 1) % 4
        if kind >= 27 or left != actor:
            return False
        r = kind % 9
        near = [held[kind + d] > 0 if 0 <= r + d <= 8 else False for d in (-2, -1, 1, 2)]
        return (near[0] and near[1]) or (near[1] and near[2]) or (near[2] and near[3])


class _PublicTable:
    """Rivers, melds and dora indicators, followed event by event (what every seat sees; D: another seat's
    face-down tile still hidden is "?" in its river, as `seat` sees it)."""

    def __init__(self, start: dict, seat: int):
        self.seat = seat
        self.rivers: list[list[str]] = [[] for _ in range(4)]
        self.hidden: list[list[bool]] = [[] for _ in range(4)]   # D: the river tile lies face down now
        self.melds: list[list[str]] = [[] for _ in range(4)]
        self.dora = [_name(start["dora_marker"])] if start.get("dora_marker") not in (None, HIDDEN) else []
        self.riichi_next = [False] * 4
        self.last_dark = -1   # D: the discarder of the latest face-down tile

    def apply(self, e: dict) -> None:
        kind, actor = e["type"], e.get("actor")
        if kind == "reach":
            self.riichi_next[actor] = True
        elif kind == "dahai":
            self.rivers[actor].append(_name(e["pai"]) + ("*" if self.riichi_next[actor] else ""))
            self.hidden[actor].append(False)
            self.riichi_next[actor] = False
        elif kind == "payment" and e.get("reason") == "face_down":
            self.last_dark = e["from"]
            self.hidden[e["from"]][-1] = True
        elif kind == "payment" and e.get("reason") in ("dark_open", "dark_lock"):
            self.hidden[self.last_dark][-1] = e["reason"] == "dark_lock"
        elif kind in ("chi", "pon", "daiminkan"):
            if self.rivers[e["target"]]:
                self.rivers[e["target"]].pop()
                self.hidden[e["target"]].pop()
            word = {"chi": "chi", "pon": "pon", "daiminkan": "kan"}[kind]
            names = sorted([e["pai"], *e["consumed"]], key=lambda n: tile_of(n)[0])
            self.melds[actor].append(f"{word} {''.join(_name(n) for n in names)}")
        elif kind == "ankan":
            self.melds[actor].append(f"ankan {_name(e['consumed'][0])}")
        elif kind == "kakan":  # the pon it completes becomes the kan
            melds, pon = self.melds[actor], f"pon {_name(e['pai']) * 3}"
            kan = f"kakan {_name(e['pai'])}"
            if pon in melds:
                melds[melds.index(pon)] = kan
            else:
                melds.append(kan)
        elif kind == "dora" and e.get("dora_marker") not in (None, HIDDEN):
            self.dora.append(_name(e["dora_marker"]))

    def at(self, e: dict, seat: int) -> TableAt:
        """The table now, with the tile of the decision event `e` (the seat's draw, or a discard or added kan)."""
        pai = e.get("pai") if e["type"] in ("tsumo", "dahai", "kakan") else None
        tile = _name(pai) if pai not in (None, HIDDEN) and (e["type"] != "tsumo" or e.get("actor") == seat) else ""
        rivers = tuple("".join(HIDDEN + t[2:] if hidden and p != self.seat else t
                               for t, hidden in zip(self.rivers[p], self.hidden[p])) for p in range(4))
        return TableAt(rivers, tuple(", ".join(m) for m in self.melds), "".join(self.dora), tile)


def seat_decisions(events, seat: int, variant: str) -> list[SeatDecision]:
    """The decisions of `seat` in one hand's events (every tile known), in play order."""
    hand = _SeatHand(events[0], seat)
    table = _PublicTable(events[0], seat)
    picks = PoolPicks() if variant == "astrology" else None          # A
    dark = DarkDecisions(events[0], seat) if variant == "darkness" else None   # D
    out: list[SeatDecision] = []
    # In shura (S-2) play starts after the exchange: the dealer's first draw comes before it, so the exchange is
    # decided with that draw in the dealer's hand and the dealer's first turn comes after the last exchange.
    play_from, exchange, first_turn = 0, None, -1
    if variant == "shura":
        passes = [i for i, e in enumerate(events) if e["type"] == "exchange"]
        play_from = passes[0] if passes else len(events)
        exchange = next((events[i] for i in passes if events[i]["actor"] == seat), None)
        if passes and seat == events[0]["oya"]:
            first_turn = passes[-1]
    for i, e in enumerate(events):
        kind = _decision_kind(hand, events, i, seat, i >= play_from)
        picked = picks.apply(e) if picks is not None else None
        if picked is not None and e["actor"] == seat:   # A: chosen once the pool is refilled, before the draw
            out.append(SeatDecision(i - 1, "pick", picked, hand.tiles(), table.at(events[i - 1], seat)))
        hand.apply(e)
        table.apply(e)
        if dark is not None:
            dark.apply(e)
            out += [SeatDecision(i, k, choice, hand.tiles(), table.at(e, seat)) for k, choice in dark.at(events, i)]
        if exchange is not None and i == play_from - 1:
            kinds = sorted(tile_of(p)[0] for p in exchange["pais"])
            out.append(SeatDecision(i, "exchange", "exchange " + " ".join(map(tile_name, kinds)), hand.tiles(),
                                    table.at(e, seat)))
        if i == first_turn:
            kind = "turn"
        choice = None
        if kind == "turn":
            choice = _turn_choice(events, i, seat)
        elif kind == "react":
            choice = _react_choice(events, i, seat)
        elif kind == "rob":
            choice = "ron" if _won_on(events, i, seat) else "pass"
        if choice is not None:
            out.append(SeatDecision(i, kind, choice, hand.tiles(), table.at(e, seat)))
    return out


def _decision_kind(hand: _SeatHand, events, i: int, seat: int, playing: bool) -> str | None:
    """The kind of decision event `i` gives `seat` (its hand as before the event), or None."""
    e = events[i]
    kind, actor = e["type"], e.get("actor")
    opened = opened_face_up(events, i)   # D: a face-down tile turned face up is reacted to then
    if opened is not None:
        e, kind, actor = events[opened], "dahai", events[opened]["actor"]
    elif kind == "dahai" and e.get("face_down"):
        return None   # D: a face-down tile can be neither called nor ronned
    if actor == seat and kind in ("tsumo", "chi", "pon") and playing:
        if kind == "tsumo" and hand.riichi:
            k = tile_of(e["pai"])[0]
            if not (hand.completes(k) or hand.counts[k] == 3):
                return None  # the discard of a seat in riichi is forced
        return "turn"
    if kind == "dahai" and actor != seat:
        k = tile_of(e["pai"])[0]
        return "react" if hand.could_call(actor, k) or hand.completes(k) else None
    if kind == "kakan" and actor != seat and hand.completes(tile_of(e["pai"])[0]):
        return "rob"
    return None


def _name(pai: str) -> str:
    return tile_name(tile_of(pai)[0])


def _turn_choice(events, i: int, seat: int) -> str | None:
    for e in events[i + 1:]:
        kind = e["type"]
        if kind == "dora":
            continue
        if kind == "hora" and e.get("actor") == seat:
            return "tsumo"
        if kind == "reach" and e.get("actor") == seat:
            dahai = next(x for x in events[i + 1:] if x["type"] == "dahai")
            return f"riichi {_name(dahai['pai'])}" + (" face down" if dahai.get("face_down") else "")
        if kind in ("ankan", "kakan") and e.get("actor") == seat:
            return f"kan {_name(e['pai'] if kind == 'kakan' else e['consumed'][0])}"
        if kind == "dahai" and e.get("actor") == seat:
            return f"discard {_name(e['pai'])}" + (" face down" if e.get("face_down") else "")
        if kind == "ryukyoku":
            return "nine terminals" if e.get("reason") in ("kyushukyuhai", "nine_terminals") else None
        return None
    return None


def _react_choice(events, i: int, seat: int) -> str:
    called = tile_of(events[i]["pai"])[0]
    for e in events[i + 1:]:
        kind = e["type"]
        if kind == "hora" and e.get("actor") == seat:
            return "ron"
        if kind == "hora" or kind in ("reach_accepted", "dora", "payment"):
            continue  # another seat's win on the same tile (double ron), or the discard's riichi accepted
        if e.get("actor") != seat or kind not in ("chi", "pon", "daiminkan"):
            return "pass"
        if kind == "pon":
            return "pon"
        if kind == "daiminkan":
            return "kan"
        lowest = min(tile_of(p)[0] for p in e["consumed"])
        return "chi low" if called < lowest else "chi high" if called > lowest + 1 else "chi middle"
    return "pass"


def _won_on(events, i: int, seat: int) -> bool:
    return any(e["type"] == "hora" and e.get("actor") == seat for e in events[i + 1:i + 5])
