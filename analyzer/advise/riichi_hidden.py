"""The hidden tiles of a hand of a riichi mode rebuilt from one seat's view (analyzer.advise.riichi_rebuild): the
log read into wall positions and what each must hold, then one arrangement of the tiles the seat cannot see.

Every tile of a hand is a wall position (sims.riichi.positions.RiichiEngine.start): the deal (13 per seat from the
dealer on), the dealer's first draw at 52, live draws from 53 on, replacement draws from 122 on, indicator i at
126 + 2 i and its ura at 127 + 2 i. The view fixes the positions the seat saw (its deal and draws, the
indicators); the others start unknown and get a tile when the log needs one:
- a hidden seat's discard takes its last draw (tsumogiri) or a tile it held before; calls and kans take the
  tiles they show; a tile the seat passed at the exchange is any of its tiles;
- a winner's hidden tiles form a complete hand that the engine's scorer values at the logged han and fu (ura
  indicators and red fives make up dora), with waits that leave the seat out of furiten (R-4); a riichi
  declarer's tiles form a tenpai hand (analyzer.advise.riichi_hands); the seat's own riichi win (shura plays on
  after it) gets the ura indicators that make it worth its logged han;
- fate (F): each seat's open tiles take the first 4 positions of its deal; a hidden seat that gives up a plain
  copy of a kind it has open gives up one of its unknown tiles when the log keeps the open copy, and when the
  log marks it `open_tile` none of its unknown tiles may be another plain copy (the engine counts open copies
  per kind, sims.riichi.fate_tiles); open-deal (OD) shows every deal position, so only draws are unknown;
- mirror (M): every transparent copy is placed before the log is read (`clear`: a seat's transparent starting
  tiles take the first positions of its deal, mirror_wall gives the wall's, analyzer.advise.riichi_mirror), so
  the unknown positions hold the normal copies, one of each kind; a tile leaving a hand is a transparent copy
  while the seat holds one (a tsumogiri: the copy drawn), as the engine gives them up (sims.riichi.mirror_tiles);
- astrology (A): each candidate is public in its wall position (the next live-wall tile, or the kan's
  replacement tile), and each draw once the pool is open is the pick of one of them (analyzer.advise.riichi_pool:
  the pool, the answer of each pick); haitei and houtei count the draws the pool and its refills still give;
- what is left gets the remaining tiles at random.
Red fives follow the engine's choice of copy (R-1: a discard by kind gives up a plain copy first, calls, kans
and the exchange put the red five in first): positions carry the tiles they may not be, so that the engine
moves exactly the copies the log shows. An indicator's red or plain is left open until the hidden hands are
chosen. A hidden choice that makes a logged action impossible raises Retry; a view that no choice can make
possible raises PositionError.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tsumolab.analyzer.advise.position_errors import PositionError
from tsumolab.analyzer.advise.riichi_dark import face_down_tiles
from tsumolab.analyzer.advise.riichi_hands import WinValue, complete_hand, keeps_waits, tenpai_fills
from tsumolab.analyzer.advise.riichi_mirror import clear_first, part_positions
from tsumolab.analyzer.advise.riichi_pool import Pool
from tsumolab.analyzer.advise.riichi_tiles import Tile, tile_text  # noqa: F401 (tile_text re-exported)
from tsumolab.analyzer.advise.riichi_view import ROUND_WINDS, SeatLog
from tsumolab.sims import tiles
from tsumolab.sims.decisions import (
    CHI_HIGH, CHI_LOW, CHI_MID, D_DARK_LOCK, D_DARK_OPEN, DARK_PAY, FACE_DOWN, KAN, KAN_CALL, PON, RIICHI, RON, TSUMO,
    TSUMOGIRI,
)
from tsumolab.sims.riichi.scoring import FLAG_CHANKAN, FLAG_CHIIHOU, FLAG_HAITEI, FLAG_HOUTEI, FLAG_RINSHAN, FLAG_TENHOU

N_TILES = 136
FIRST_DRAW = 52      # the dealer's 14th tile; live draws follow
DEAD_START = 122     # replacement draws from here on
INDICATOR = 126      # indicator i at INDICATOR + 2 i, its ura right after it
RED_KINDS = (4, 13, 22)
RED_TILES = tuple((k, True) for k in RED_KINDS)
HAND_TRIES = 4_000   # candidate hands per winner (the first half must match han and fu exactly)
TENPAI_TRIES = 1_000  # candidate hands per riichi declarer
TENPAI_SEARCH = 200_000  # nodes of the exhaustive search for the declarers' hands when random tries fail
ROUNDS = 10          # orders tried when several hands compete for the unseen tiles (each with 1/ROUNDS of the
                     # candidates)
CALL_WORDS = {"chi", "pon", "daiminkan"}


class Retry(Exception):
    """A hidden choice made a logged action impossible: try another arrangement."""


@dataclass
class Win:
    """A win of a hidden seat: what its hidden tiles must do."""

    seat: int
    tsumo: bool
    tile: Tile
    held: list[int]              # wall positions the seat holds (a tsumo's drawn tile included)
    melds: list[tuple[int, int]]  # (sims.tiles meld type, lowest kind)
    meld_counts: np.ndarray      # tiles in the melds per kind (a kan 4)
    meld_reds: int
    han: int | None
    fu: int | None
    riichi: int
    ippatsu: bool
    flags: int
    dora: list[int]              # indicator kinds shown at the win
    avoid: set[int]              # kinds that must not be waits (ron: furiten, R-4)
    riichi_kans: list[int]       # kinds of the closed kans made in riichi (they must keep the waits)


@dataclass
class Riichi:
    seat: int
    held: list[int]              # positions after the declaration tile left
    n_melds: int
    kans: list[int] = field(default_factory=list)  # kinds of the closed kans made in riichi (waits kept)


@dataclass
class _Seat:
    hand: list[int] = field(default_factory=list)  # wall positions held
    drawn: int | None = None                       # position of the tile just drawn (None after a call)
    drawn_rinshan: bool = False                    # that draw is a replacement draw (A: of any candidate)
    melds: list[tuple[int, int]] = field(default_factory=list)
    meld_counts: np.ndarray = field(default_factory=lambda: np.zeros(34, np.int64))
    meld_reds: int = 0
    discards: list[tuple[int, int]] = field(default_factory=list)  # (event index, kind)
    riichi: int = 0              # 1 riichi, 2 double riichi (accepted)
    riichi_at: int = -1          # event index of the declaration tile
    riichi_kans: list[int] = field(default_factory=list)  # closed kans made in riichi
    ippatsu: bool = False
    won: bool = False
    open_plain: np.ndarray = field(default_factory=lambda: np.zeros(34, np.int64))  # F: open plain copies held
    open_red: set[int] = field(default_factory=set)  # F: kinds whose red five is an open tile still held
    own_meld_plain: np.ndarray = field(default_factory=lambda: np.zeros(34, np.int64))  # own plain tiles in melds


class Plan:
    """One arrangement of the hidden tiles consistent with the log, and the answers that replay it."""

    def __init__(self, log: SeatLog, rng: np.random.Generator, sopts: np.ndarray, astrology_floor: int | None = None):
        self.log = log
        self.rng = rng
        self.sopts = sopts
        self.seat = log.seat
        self.value: list[Tile | None] = [None] * N_TILES
        self.forbid: list[set[Tile]] = [set() for _ in range(N_TILES)]
        self.mirror = "mirror_wall" in log.tiles[0]    # M: no red fives, every transparent copy's place public
        self.clear = [False] * N_TILES                   # M: positions holding a transparent copy
        self.pool = {(k, False): 4 - (k in RED_KINDS and not self.mirror) for k in range(34)}
        if not self.mirror:
            self.pool.update({t: 1 for t in RED_TILES})
        self.seats = [_Seat() for _ in range(4)]
        self.next_live = FIRST_DRAW
        self.n_rinshan = 0
        self.indicators: list[int] = []
        self.reserved = np.zeros(34, np.int64)  # copies kept for indicators whose red or plain is unknown
        self.no_call = True          # the first go-around is uninterrupted (tenhou, chiihou)
        self.clear_ippatsu = False   # a kan or a win ended everyone's ippatsu once it settles
        self.passing: list[tuple[int, int, int]] = []  # (event index, seat, kind) of discards and added kans
        self.wins: list[Win] = []
        self.riichis: list[Riichi] = []
        self.exchange: dict[int, list[int]] = {}       # seat → the positions it passed
        self.exchange_answer = [0] * 4
        self.direction = 0
        self.actions: list[tuple] = []                 # the log's actions, compared with the engine's
        self.turn_answer: dict[int, int] = {}          # action index → answer of the acting seat's turn
        self.react_answer: dict[tuple[int, int], int] = {}  # (action index of a discard or kan, seat) → answer
        self.eyes: list[tuple[int, int, int]] = []     # DE: per eye, (seat, counter, index of the action after it)
        self.candidates = None if astrology_floor is None else Pool(astrology_floor)  # A: the pool
        self.pick_answer: dict[int, int] = {}          # A: action index of a picked tsumo → the candidate's index
        self.dark = face_down_tiles(log.events)         # D: the face-down discards by dahai event index
        self.dark_answer: dict[tuple[int, int, int], int] = {}  # (action index, seat, D_DARK_*) → DARK_PAY
        self.hidden_downs: dict[int, tuple[int, bool, bool]] = {}  # D: action index → (position, riichi, tsumogiri)
        self._riichi_next = [False] * 4
        self._double = [False] * 4
        self._ronned: set[int] = set()                # event indices of discards someone won on
        self._last = (-1, -1, -1, None, 0)            # the last discard or kan: action, event, seat, tile, wall
        self._kan_by: int | None = None               # seat whose kan awaits its replacement draw
        start = log.start
        self.dealer = int(start["oya"])
        self.round = 4 * ROUND_WINDS.index(start.get("bakaze", "E")) + start.get("kyoku", 1) - 1
        self._read()

    # ------------------------------------------------------------------ positions and tiles
    def _assign(self, at: int, tile: Tile, public: bool = True) -> None:
        if self.pool[tile] <= 0:
            if public:
                what = "a second red five" if tile[1] else "more than four copies of"
                raise PositionError(f"the log shows {what} {tile_text(tile)}")
            raise Retry(f"no {tile_text(tile)} left")
        self.pool[tile] -= 1
        self.value[at] = tile

    def _take(self, p: int, tile: Tile, where: str, exclude: int | None = None, clear: bool | None = None) -> int:
        """Remove a position holding `tile` from seat p's hand (giving an unknown position that tile); M: a
        transparent copy when `clear`, the normal one when it is False."""
        hand = self.seats[p].hand
        for at in hand:
            if at != exclude and self.value[at] == tile and clear in (None, self.clear[at]):
                hand.remove(at)
                return at
        at = self._take_unknown(p, tile, exclude)
        if at is None:
            if p == self.seat or not any(at != exclude and self.value[at] is None for at in hand):
                raise PositionError(f"{where}: seat {p} does not hold {tile_text(tile)}")
            raise Retry(f"{where}: seat {p} cannot hold {tile_text(tile)}")
        return at

    def _take_unknown(self, p: int, tile: Tile, exclude: int | None) -> int | None:
        """Remove a position of seat p's hand whose tile is still unknown, giving it `tile`; None if none may be
        that tile."""
        hand = self.seats[p].hand
        free = [at for at in hand if at != exclude and self.value[at] is None and tile not in self.forbid[at]]
        if not free:
            return None
        at = free[int(self.rng.integers(len(free)))]
        self._assign(at, tile)
        hand.remove(at)
        return at

    def _give_up_fate(self, p: int, tile: Tile, open_tile: bool, where: str) -> None:
        """F: seat p gives up `tile` from its hand (not the tile just drawn) while it has open tiles of that kind,
        or the log says the tile was open (`open_tile`). The engine drops an open plain copy exactly when the seat
        is then left with fewer plain copies of its own than it had open, and the red five when it was open; so
        with an open plain copy gone, no unknown tile of the seat is another plain copy, and with the open copies
        kept, the discarded copy is one of its unknown tiles where possible."""
        s = self.seats[p]
        k, red = tile
        exclude = s.drawn if p != self.seat else None
        fail = PositionError if p == self.seat else Retry
        if red:
            if open_tile and k not in s.open_red:
                raise PositionError(f"{where}: seat {p}'s red {tile_text(tile)} is not one of its open tiles (F)")
            if k in s.open_red and not open_tile:
                raise PositionError(f"{where}: seat {p}'s red {tile_text(tile)} is an open tile (F), which the log "
                                    "does not mark open_tile")
            s.open_red.discard(k)
            self._take(p, tile, where, exclude)
            return
        opened = int(s.open_plain[k])
        if open_tile and not opened:
            raise PositionError(f"{where}: seat {p} has no open {tile_text(tile)} left to give up (F)")
        taken = None if open_tile or self.pool[tile] <= 0 else self._take_unknown(p, tile, exclude)
        if taken is None:
            self._take(p, tile, where, exclude)
        held = self._plain_held(p, k)
        if open_tile:
            s.open_plain[k] -= 1
            for at in s.hand:
                if self.value[at] is None:
                    self.forbid[at].add(tile)
            if held != opened - 1:
                raise fail(f"{where}: seat {p} still holds another plain {tile_text(tile)}, so the engine keeps "
                           "its open copy (F)")
        elif held < opened:
            raise fail(f"{where}: seat {p} gives up an open {tile_text(tile)} (F), which the log does not mark "
                       "open_tile")

    def _plain_held(self, p: int, k: int) -> int:
        """Plain copies of kind k seat p is known to hold of its own: concealed, or its own tiles in its melds."""
        concealed = sum(self.value[at] == (k, False) for at in self.seats[p].hand)
        return concealed + int(self.seats[p].own_meld_plain[k])

    def _given_copy(self, p: int, tile: Tile, exclude: int | None = None) -> bool | None:
        """M: is the copy of `tile` that seat p gives up from its hand (by kind; `exclude`: not the tile just
        drawn) transparent? The engine gives up a transparent copy while the seat holds one. None outside
        mirror."""
        if not self.mirror:
            return None
        return any(at != exclude and self.clear[at] and self.value[at] == tile for at in self.seats[p].hand)

    def _shown_at(self, at: int, tile: Tile, where: str) -> None:
        """Wall position `at` shows `tile` (a draw, an indicator): M: the transparent copy mirror_wall names there,
        or else the normal copy."""
        if self.value[at] is None:
            self._assign(at, tile)
        elif self.value[at] != tile:
            raise PositionError(f"{where}: mirror_wall has a transparent {tile_text(self.value[at])} there, not "
                                f"{tile_text(tile)} (M)")

    def _drawn_is(self, p: int, tile: Tile, where: str) -> int:
        """The position of seat p's tile just drawn, which the log shows to be `tile`."""
        at = self.seats[p].drawn
        if at is None:
            raise PositionError(f"{where}: seat {p} has no tile just drawn")
        if self.value[at] is None:
            if tile in self.forbid[at]:
                raise Retry(f"{where}: the draw cannot be {tile_text(tile)}")
            self._assign(at, tile)
        elif self.value[at] != tile:
            raise PositionError(f"{where}: the tile drawn was {tile_text(self.value[at])}")
        return at

    def _no_other(self, p: int, tile: Tile, where: str, why: str) -> None:
        """Seat p holds no (further) copy `tile` now: the engine would have moved that copy instead (R-1)."""
        for at in self.seats[p].hand:
            if self.value[at] == tile:
                raise PositionError(f"{where}: {why}")
            if self.value[at] is None:
                self.forbid[at].add(tile)

    def _draw_position(self, rinshan: bool, where: str) -> int:
        if rinshan:
            if self.n_rinshan >= 4:
                raise PositionError(f"{where}: more than four replacement draws")
            at = DEAD_START + self.n_rinshan
            self.n_rinshan += 1
        else:
            if self.next_live >= DEAD_START - self.n_rinshan:
                raise PositionError(f"{where}: the live wall is empty")
            at = self.next_live
            self.next_live += 1
        return at

    def wall_left(self) -> int:
        """Draws left: the live wall, or in astrology once the pool is open the candidates and refills (A)."""
        live = DEAD_START - self.n_rinshan - self.next_live
        if self.candidates is not None and self.candidates.opened:
            return self.candidates.draws_left(live)
        return live

    def _picks(self) -> bool:
        """A: is every draw now a pick of a candidate?"""
        return self.candidates is not None and self.candidates.opened

    # ------------------------------------------------------------------ reading the log
    def _read(self) -> None:
        log = self.log
        i = 0
        while i < len(log.events):
            e, t = log.events[i], log.tiles[i]
            kind = e["type"]
            where = f"event {i} ({kind})"
            if kind in ("tsumo", "dahai", "chi", "pon", "daiminkan", "ankan", "kakan") and self.clear_ippatsu:
                for s in self.seats:
                    s.ippatsu = False
                self.clear_ippatsu = False
            if kind == "start_kyoku":
                self._deal(t)
            elif kind == "exchange":
                j = i
                while j < len(log.events) and log.events[j]["type"] == "exchange":
                    j += 1
                self._exchange(range(i, j))
                i = j
                continue
            elif kind == "tsumo":
                self._tsumo(i, e, t, where)
            elif kind == "reach":
                self._riichi_next[e["actor"]] = True
                self._double[e["actor"]] = bool(e.get("double", False))
            elif kind == "reach_accepted":
                s = self.seats[e["actor"]]
                s.riichi = 2 if self._double[e["actor"]] else 1
                s.ippatsu = s.riichi_at not in self._ronned
            elif kind == "dahai":
                self._dahai(i, e, t, where)
            elif kind in CALL_WORDS:
                self._call(i, e, t, where)
            elif kind in ("ankan", "kakan"):
                self._kan(i, e, t, where)
            elif kind == "dora":
                self._dora(t["dora_marker"], where)
            elif kind == "hora":
                self._hora(i, e, t, where)
            elif kind == "eye":
                self.eyes.append((e["actor"], e["counter"], len(self.actions)))
            elif kind == "candidate":
                self._candidate(e, t, where)
            i += 1
        for k, kind in enumerate(self.indicators):  # a copy each, plain or red as the hidden hands leave them
            if self.value[INDICATOR + 2 * k] is None:
                self.reserved[kind] += 1
        over = np.nonzero(self._room() < 0)[0]
        if over.size:
            raise PositionError(f"the log shows more than four copies of {tiles.tile_name(int(over[0]))}")

    def _deal(self, t: dict) -> None:
        for i in range(4):
            p = (self.dealer + i) % 4
            hand = list(range(13 * i, 13 * i + 13))
            self.seats[p].hand = hand
            dealt = t["tehais"][p] if "fate_open" not in t else self._open_first(p, t["tehais"][p], t["fate_open"][p])
            if self.mirror:
                dealt = clear_first(t["tehais"][p], t["mirror_tehais"][p], p)
                for at in hand[:len(t["mirror_tehais"][p])]:
                    self.clear[at] = True
            for at, tile in zip(hand, dealt):
                if tile is not None:
                    self._assign(at, tile)
        if self.mirror:
            self._clear_wall(t["mirror_wall"])
        if "dora_marker" in t:
            self._dora(t["dora_marker"], "start_kyoku")

    def _open_first(self, p: int, tehai: list[Tile | None], open_tiles: list[Tile]) -> list[Tile | None]:
        """F: seat p's 13 dealt tiles in wall order as far as they matter, its open tiles first (the engine opens
        the first 4 of each seat's deal); the seat's open-tile counts set."""
        s = self.seats[p]
        rest = list(tehai)
        for tile in open_tiles:
            if tile in rest:
                rest.remove(tile)
            elif None in rest:
                rest.remove(None)
            else:
                raise PositionError(f"start_kyoku: seat {p}'s open tile {tile_text(tile)} (fate_open) is not in its "
                                    "tehai")
            if tile[1]:
                s.open_red.add(tile[0])
            else:
                s.open_plain[tile[0]] += 1
        return [*open_tiles, *rest]

    def _clear_wall(self, layout: dict) -> None:
        """M: the transparent copies of the wall where mirror_wall shows them."""
        for part, shown in layout.items():
            for at, tile in zip(part_positions(part), shown):
                if tile is not None:
                    self.clear[at] = True
                    self._assign(at, tile)

    def _dora(self, tile: Tile, where: str) -> None:
        if len(self.indicators) >= 5:
            raise PositionError(f"{where}: more than five dora indicators")
        self.indicators.append(tile[0])
        if self.mirror:
            self._shown_at(INDICATOR + 2 * (len(self.indicators) - 1), tile, where)
        elif tile[1]:
            self._assign(INDICATOR + 2 * (len(self.indicators) - 1), tile)

    def _exchange(self, indices: range) -> None:
        log = self.log
        givers = sorted(log.events[i]["actor"] for i in indices)
        if givers != [0, 1, 2, 3]:
            raise PositionError(f"event {indices[0]} (exchange): every seat passes three tiles, once")
        shifts = {(log.events[i]["target"] - log.events[i]["actor"]) % 4 for i in indices}
        if len(shifts) != 1 or 0 in shifts:
            raise PositionError(f"event {indices[0]} (exchange): all seats pass in one direction")
        self.direction = {1: 0, 3: 1, 2: 2}[shifts.pop()]
        moved = {}
        for i in indices:
            e, t = log.events[i], log.tiles[i]
            p = e["actor"]
            where = f"event {i} (exchange)"
            shown = [tile for tile in t["pais"] if tile is not None]
            passed = [self._take(p, tile, where) for tile in sorted(shown, key=lambda x: x[1])]
            for tile in shown:
                if tile[1]:
                    self._no_other(p, (tile[0], False), where, f"seat {p} passes its red {tile_text(tile)} while "
                                   "holding a plain copy (the engine passes the plain one first)")
            hidden = len(t["pais"]) - len(shown)
            free = [at for at in self.seats[p].hand if self.value[at] is None]
            if len(free) < hidden:
                raise PositionError(f"{where}: seat {p} holds too few tiles")
            for at in self.rng.choice(free, hidden, replace=False).tolist():
                self.seats[p].hand.remove(at)
                self.forbid[at].update(RED_TILES)
                passed.append(at)
            moved[e["target"]] = passed
            self.exchange[p] = passed
        for target, passed in moved.items():
            self.seats[target].hand += passed
        self.seats[self.dealer].drawn = None  # the dealer's 14th tile may have been passed on

    def _tsumo(self, i: int, e: dict, t: dict, where: str) -> None:
        p = e["actor"]
        s = self.seats[p]
        if s.won:
            raise PositionError(f"{where}: seat {p} has won and draws no more (S-3)")
        # plain mjai has no rinshan flag: the draw right after the seat's own kan is the replacement
        rinshan = bool(e["rinshan"]) if "rinshan" in e else self._kan_by == p
        self._kan_by = None
        if self._picks():
            index, at = self.candidates.take(t["pai"], e.get("pick"), where)
            self.pick_answer[len(self.actions)] = index
        else:
            at = self._draw_position(rinshan, where)
            if t["pai"] is not None:
                self._shown_at(at, t["pai"], where)
            elif p == self.seat:
                raise PositionError(f"{where}: the seat's own draws must be shown")
        s.hand.append(at)
        s.drawn = at
        s.drawn_rinshan = rinshan
        self.actions.append(("tsumo", p, t["pai"], rinshan))

    def _candidate(self, e: dict, t: dict, where: str) -> None:
        """A: a tile revealed into the pool, public in its wall position: the next live-wall tile, or the
        replacement tile of the kan just declared."""
        if self.candidates is None:
            raise PositionError(f"{where}: candidates belong to astrology (A)")
        dead = e["dead_wall"]
        at = e["wall_index"]
        expected = DEAD_START + self.n_rinshan if dead else self.next_live
        if at != expected:
            which = "replacement" if dead else "live-wall"
            raise PositionError(f"{where}: the next {which} tile is wall position {expected}, not {at}")
        self._draw_position(dead, where)
        self._assign(at, t["pai"])
        self.candidates.reveal(at, t["pai"], dead, e["pool"], where)

    def _dahai(self, i: int, e: dict, t: dict, where: str) -> None:
        p = e["actor"]
        s = self.seats[p]
        tile = t["pai"]
        tsumogiri = bool(e.get("tsumogiri", False))
        riichi = self._riichi_next[p]
        self._riichi_next[p] = False
        if s.won:
            raise PositionError(f"{where}: seat {p} has won and discards no more (S-3)")
        dark = self.dark.get(i)
        if tile is None:
            self._hidden_face_down(i, p, tsumogiri, riichi, where)
            return
        open_tile = bool(e.get("open_tile", False))
        if tsumogiri:
            if open_tile:
                raise PositionError(f"{where}: the tile just drawn is not an open deal tile (F)")
            s.hand.remove(self._drawn_is(p, tile, where))
        else:
            exclude = s.drawn if p != self.seat else None
            clear = self._given_copy(p, tile, exclude)
            if open_tile or s.open_plain[tile[0]] or tile[0] in s.open_red:
                self._give_up_fate(p, tile, open_tile, where)
            else:
                if self.mirror and exclude is not None and self.clear[exclude] and self.value[exclude] == tile:
                    raise PositionError(f"{where}: seat {p} gives up from its hand the kind of its transparent draw, "
                                        "which the engine gives up and calls a tsumogiri (M)")
                self._take(p, tile, where, exclude, clear)
            if tile[1]:
                self._no_other(p, (tile[0], False), where, f"seat {p} gives up its red {tile_text(tile)} while "
                               "holding a plain copy (the engine gives up the plain one first, R-1)")
            if s.drawn is not None and p != self.seat and self.value[s.drawn] is None and not clear:
                # else the engine would call the discard a tsumogiri (M: unless a transparent copy went)
                self.forbid[s.drawn].add(tile)
        face_up = dark is None or dark.revealed
        j = self._discarded(i, p, tile if face_up else None, tsumogiri, riichi, tile)
        self.turn_answer[j] = (RIICHI if riichi else 0) + (TSUMOGIRI if tsumogiri else tile[0]) + \
            (0 if dark is None else FACE_DOWN)
        if dark is not None:
            self._dark_answers(j, dark)

    def _discarded(self, i: int, p: int, shown: Tile | None, tsumogiri: bool, riichi: bool,
                   tile: Tile | None) -> int:
        """What a discard of seat p changes, its tile now gone from the hand (`tile`: its kind, None when hidden
        from the seat; `shown`: the tile when it lies face up, the only kind that makes furiten, D). Returns its
        action index."""
        s = self.seats[p]
        s.drawn = None
        s.discards.append((i, None if shown is None else shown[0]))
        if riichi:
            s.riichi_at = i
            if p != self.seat:
                self.riichis.append(Riichi(p, list(s.hand), len(s.melds)))
        else:
            s.ippatsu = False
        if shown is not None:
            self.passing.append((i, p, shown[0]))
        j = len(self.actions)
        self.actions.append(("dahai", p, tile, tsumogiri, riichi))
        self._last = (j, i, p, shown, self.wall_left())
        return j

    def _hidden_face_down(self, i: int, p: int, tsumogiri: bool, riichi: bool, where: str) -> None:
        """D: another seat's face-down discard whose kind the seat never saw: its tile just drawn (tsumogiri), or
        any unknown tile of its hand but the one drawn (never a red five: the engine would give up a plain copy
        first). The engine's answer names the kind once the hidden tiles are chosen (face_down_answers)."""
        s = self.seats[p]
        if tsumogiri:
            at = s.drawn
            if at is None:
                raise PositionError(f"{where}: seat {p} has no tile just drawn")
        else:
            free = [at for at in s.hand if at != s.drawn and self.value[at] is None]
            if not free:
                raise Retry(f"{where}: seat {p} has no unknown tile to discard face down")
            at = free[int(self.rng.integers(len(free)))]
            self.forbid[at].update(RED_TILES)
        s.hand.remove(at)
        j = self._discarded(i, p, None, tsumogiri, riichi, None)
        self.hidden_downs[j] = (at, riichi, tsumogiri)
        self._dark_answers(j, self.dark[i])

    def _dark_answers(self, j: int, dark) -> None:
        """D: the answers about the face-down discard of action j: its opener pays, the others decline; its
        discarder locks it when the log says so."""
        if dark.opener is not None:
            self.dark_answer[(j, dark.opener, D_DARK_OPEN)] = DARK_PAY
        if dark.locked:
            self.dark_answer[(j, dark.actor, D_DARK_LOCK)] = DARK_PAY

    def face_down_answers(self) -> None:
        """D: the turn answers of the hidden face-down discards, whose kinds are now chosen."""
        for j, (at, riichi, tsumogiri) in self.hidden_downs.items():
            kind = TSUMOGIRI if tsumogiri else self.value[at][0]
            self.turn_answer[j] = FACE_DOWN + (RIICHI if riichi else 0) + kind

    def _call(self, i: int, e: dict, t: dict, where: str) -> None:
        kind = e["type"]
        p, target = e["actor"], t["target"]
        if self.seats[p].won:
            raise PositionError(f"{where}: seat {p} has won and calls no more (S-3)")
        j_last, _, discarder, called, _ = self._last
        if j_last != len(self.actions) - 1 or discarder != target or called != t["pai"]:
            raise PositionError(f"{where}: the called tile must be seat {target}'s discard just made")
        consumed = t["consumed"]
        for tile in sorted(consumed, key=lambda x: not x[1]):
            self._take(p, tile, where, clear=self._given_copy(p, tile))
        for k in {c[0] for c in consumed}:
            if k in RED_KINDS and not any(c == (k, True) for c in consumed):
                self._no_other(p, (k, True), where, f"seat {p} keeps its red five out of the meld (the engine "
                               "puts it in first)")
        s = self.seats[p]
        if kind == "chi":
            run = sorted([*(c[0] for c in consumed), called[0]])
            meld = (tiles.CHI, run[0])
            answer = (CHI_LOW, CHI_MID, CHI_HIGH)[called[0] - run[0]]
        else:
            meld = (tiles.PON if kind == "pon" else tiles.MINKAN, called[0])
            answer = PON if kind == "pon" else KAN_CALL
        s.melds.append(meld)
        self._kan_by = p if kind == "daiminkan" else None
        for c in (*consumed, called):
            s.meld_counts[c[0]] += 1
            s.meld_reds += c[1]
        for c in consumed:
            s.own_meld_plain[c[0]] += not c[1]
        s.drawn = None
        self.react_answer[(j_last, p)] = answer
        for x in self.seats:
            x.ippatsu = False
        self.no_call = False
        self.actions.append((kind, p, called, any(c[1] for c in consumed)))

    def _kan(self, i: int, e: dict, t: dict, where: str) -> None:
        kind = e["type"]
        p = e["actor"]
        s = self.seats[p]
        if s.won:
            raise PositionError(f"{where}: seat {p} has won and makes no kan (S-3)")
        if kind == "ankan":
            consumed = list(t["consumed"])
            if s.riichi_at >= 0 and s.drawn is not None:  # in riichi a closed kan takes the tile just drawn
                drawn = next((c for c in consumed if self.value[s.drawn] in (c, None)), consumed[0])
                s.hand.remove(self._drawn_is(p, drawn, where))
                consumed.remove(drawn)
            for tile in consumed:
                self._take(p, tile, where, clear=self._given_copy(p, tile))
            k = t["consumed"][0][0]
            if s.riichi_at >= 0:
                s.riichi_kans.append(k)
                for riichi in self.riichis:
                    if riichi.seat == p:
                        riichi.kans.append(k)
            s.melds.append((tiles.ANKAN, k))
            s.meld_counts[k] += 4
            s.own_meld_plain[k] += sum(not c[1] for c in t["consumed"])
            s.meld_reds += sum(c[1] for c in t["consumed"])
            tile = (k, False)
            red = any(c[1] for c in t["consumed"])
        else:
            tile = t["pai"]
            k = tile[0]
            if (tiles.PON, k) not in s.melds:
                raise PositionError(f"{where}: seat {p} has no pon of {tiles.tile_name(k)} to add to")
            self._take(p, tile, where, clear=self._given_copy(p, tile))
            if k in RED_KINDS and not tile[1]:
                self._no_other(p, (k, True), where, f"seat {p} keeps its red five out of the kan (the engine "
                               "puts it in first)")
            s.melds[s.melds.index((tiles.PON, k))] = (tiles.KAKAN, k)
            s.meld_counts[k] += 1
            s.own_meld_plain[k] += not tile[1]
            s.meld_reds += tile[1]
            red = tile[1]
            self.passing.append((i, p, k))
        s.drawn = None
        self._kan_by = p
        j = len(self.actions)
        self.actions.append((kind, p, tile, red))
        self.turn_answer[j] = KAN + k
        self._last = (j, i, p, tile, self.wall_left())
        self.clear_ippatsu = True
        self.no_call = False

    def _hora(self, i: int, e: dict, t: dict, where: str) -> None:
        p, target = e["actor"], t["target"]
        s = self.seats[p]
        tile = t["pai"]
        tsumo = p == target
        if s.won:
            raise PositionError(f"{where}: seat {p} has won already")
        han, fu = e.get("han"), e.get("fu")
        han = han if isinstance(han, int) and han > 0 else None
        fu = fu if isinstance(fu, int) and han is not None else None
        flags = 0
        if tsumo:
            self._drawn_is(p, tile, where)
            rinshan = s.drawn_rinshan
            if rinshan:
                flags |= FLAG_RINSHAN
            elif self.wall_left() == 0:
                flags |= FLAG_HAITEI
            if self.no_call and not s.discards and not rinshan:
                flags |= FLAG_TENHOU if p == self.dealer else FLAG_CHIIHOU
            j = len(self.actions)
            self.turn_answer[j] = TSUMO
        else:
            j_last, i_last, giver, given, left = self._last
            if giver != target or given is None or given[0] != tile[0]:
                raise PositionError(f"{where}: a ron is on the discard or kan just made by seat {target}")
            if self.log.events[i_last]["type"] == "kakan":
                flags |= FLAG_CHANKAN
            elif self.log.events[i_last]["type"] == "dahai" and left == 0:
                flags |= FLAG_HOUTEI
            self.react_answer[(j_last, p)] = RON
            self._ronned.add(i_last)
            tile = given
        # the seat's own hand is known, but when it won in riichi the ura indicators under its win are not: they
        # are chosen like a hidden winner's tiles, to make the win worth its logged han (shura plays on after it)
        if p != self.seat or (s.riichi and han is not None):
            since = s.riichi_at if s.riichi else (s.discards[-1][0] if s.discards else -1)
            avoid = {k for _, k in s.discards if k is not None}
            if not tsumo:
                avoid |= {k for at, q, k in self.passing if since < at < i_last and q != p}
            self.wins.append(Win(p, tsumo, tile, list(s.hand), list(s.melds), s.meld_counts.copy(), s.meld_reds,
                                 han, fu, s.riichi, s.ippatsu, flags, list(self.indicators), avoid,
                                 list(s.riichi_kans)))
        s.won = True
        self.clear_ippatsu = True
        self.no_call = False
        self.actions.append(("hora", p, tile[0], tsumo, han, fu))

    # ------------------------------------------------------------------ choosing the hidden tiles
    def choose_hidden(self) -> None:
        """Hands for the winners and riichi declarers, then every other hidden position at random. The hands
        compete for the unseen tiles: when one fails, the others are undone and the failed one goes first, each
        with a smaller budget of candidates, for several rounds; when every round fails, the declarers' hands are
        searched for exhaustively and together (_tenpai_together)."""
        order: list = [*self.wins, *(r for r in self.riichis if not self.seats[r.seat].won)]
        saved = (list(self.value), dict(self.pool))
        rounds = 1 if len(order) < 2 else ROUNDS
        for _ in range(rounds):
            failed = None
            for need in order:
                try:
                    if isinstance(need, Win):
                        self._winning_hand(need, HAND_TRIES // rounds)
                    else:
                        self._tenpai_hand(need, TENPAI_TRIES // rounds)
                except Retry as exc:
                    failed, reason = need, exc
                    break
            if failed is None:
                break
            self.value, self.pool = list(saved[0]), dict(saved[1])
            order.remove(failed)
            order.insert(0, failed)
        else:
            if isinstance(failed, Win):
                raise reason
            for win in self.wins:
                self._winning_hand(win, HAND_TRIES)
            if not self._tenpai_together([need for need in order if isinstance(need, Riichi)], [TENPAI_SEARCH]):
                raise reason
        for k, kind in enumerate(self.indicators):
            at = INDICATOR + 2 * k
            if self.value[at] is None:
                self._assign(at, (kind, False) if self.pool[(kind, False)] > 0 else (kind, True), public=False)
        in_hands = [at for s in self.seats for at in s.hand if self.value[at] is None]
        rest = sorted(set(range(N_TILES)) - set(in_hands))
        for at in in_hands + [at for at in rest if self.value[at] is None]:
            self._fill(at)
        self.face_down_answers()
        if self.log.variant != "shura":
            return
        for p in range(4):
            passed = self.exchange.get(p)
            if passed is None:  # asked before the seat's own exchange decision: any three of its tiles
                passed = self.seats[p].hand[:3]
            kinds = [self.value[at][0] for at in passed]
            self.exchange_answer[p] = kinds[0] | kinds[1] << 8 | kinds[2] << 16

    def _fill(self, at: int) -> None:
        left = [t for t, n in self.pool.items() for _ in range(n) if t not in self.forbid[at]]
        if not left:
            raise Retry("no tile fits a hidden position")
        self._assign(at, left[int(self.rng.integers(len(left)))], public=False)

    def _room(self) -> np.ndarray:
        """Copies per kind still free for hidden positions."""
        room = -self.reserved
        for (k, _), n in self.pool.items():
            room[k] += n
        return room

    def _fixed(self, held: list[int]) -> tuple[np.ndarray, int, list[int]]:
        counts = np.zeros(34, np.int64)
        reds = 0
        free = []
        for at in held:
            if self.value[at] is None:
                free.append(at)
            else:
                counts[self.value[at][0]] += 1
                reds += self.value[at][1]
        return counts, reds, free

    def place(self, extra: np.ndarray, free: list[int]) -> list[tuple[int, Tile]] | None:
        """Give the free positions the tiles of `extra` (kind counts), plain copies first; None if the
        positions' constraints or the pool do not allow it."""
        pool = dict(self.pool)
        order = sorted(free, key=lambda at: -len(self.forbid[at]))
        kinds = [k for k in range(34) for _ in range(int(extra[k]))]
        self.rng.shuffle(kinds)
        out = []
        for at in order:
            for idx, k in enumerate(kinds):
                tile = next((x for x in ((k, False), (k, True)) if pool.get(x, 0) > 0 and x not in self.forbid[at]),
                            None)
                if tile is not None:
                    pool[tile] -= 1
                    out.append((at, tile))
                    kinds.pop(idx)
                    break
            else:
                return None
        return out

    def _tenpai_hand(self, riichi: Riichi, tries: int) -> None:
        """Tiles for a riichi declarer's unknown positions that make its hand tenpai: a complete hand around its
        known tiles less one tile, the wait. The wait need not be left anywhere (every other copy may be in
        sight, as the open deal of OD often shows), so the complete hand may take one copy more than the unseen
        ones of the kind it then leaves out."""
        fixed, _, free = self._fixed(riichi.held)
        room = self._room()
        with_wait = np.minimum(room + 1, 4 - fixed)
        for _ in range(tries):
            counts = complete_hand(self.rng, fixed, 4 - riichi.n_melds, with_wait, riichi.n_melds == 0)
            if counts is None:
                continue
            extra = counts - fixed
            over = np.nonzero(extra > room)[0]
            choices = over.tolist() if over.size else [k for k in range(34) if extra[k] > 0]
            if not choices or over.size > 1:
                continue
            extra[choices[int(self.rng.integers(len(choices)))]] -= 1  # the wait, left out
            if not all(keeps_waits(fixed + extra, riichi.n_melds, k) for k in riichi.kans):
                continue
            placed = self.place(extra, free)
            if placed is not None:
                for at, tile in placed:
                    self._assign(at, tile, public=False)
                return
        raise Retry(f"no tenpai hand for seat {riichi.seat}'s riichi")

    def _tenpai_together(self, riichis: list[Riichi], budget: list[int]) -> bool:
        """Tenpai hands for all of `riichis` at once, each declarer's every hand (riichi_hands.tenpai_fills) tried
        in turn against the others' until they fit together or `budget` ([nodes]) runs out."""
        if not riichis:
            return True
        riichi = riichis[0]
        fixed, _, free = self._fixed(riichi.held)
        for extra in tenpai_fills(self.rng, fixed, len(free), self._room(), riichi.n_melds, budget):
            if not all(keeps_waits(fixed + extra, riichi.n_melds, k) for k in riichi.kans):
                continue
            placed = self.place(extra, free)
            if placed is None:
                continue
            saved = (list(self.value), dict(self.pool))
            for at, tile in placed:
                self._assign(at, tile, public=False)
            if self._tenpai_together(riichis[1:], budget):
                return True
            self.value, self.pool = saved
        return False

    def _winning_hand(self, win: Win, tries: int) -> None:
        fixed, fixed_reds, free = self._fixed(win.held)
        required = fixed.copy()
        if not win.tsumo:
            required[win.tile[0]] += 1
        n_sets = 4 - len(win.melds)
        value = WinValue(self, win, fixed_reds)
        room = self._room()
        for attempt in range(tries):
            counts = complete_hand(self.rng, required, n_sets, value.room(room, self.rng), not win.melds,
                                   style=value.style(self.rng))
            if counts is None:
                continue
            found = value.fit(counts, counts - required, free, exact=attempt < tries // 2)
            if found is not None:
                placed, ura = found
                for at, tile in placed:
                    self._assign(at, tile, public=False)
                for at, tile in ura:
                    self._assign(at, tile, public=False)
                return
        what = f"worth {win.han} han {win.fu} fu" if win.han else "with a yaku"
        raise Retry(f"no winning hand {what} for seat {win.seat}")

    # ------------------------------------------------------------------ the wall
    def wall(self) -> np.ndarray:
        """The 136 tile ids: the red five is copy 0 of its kind (R-1), and so is mirror's normal copy (M)."""
        special = RED_KINDS if not self.mirror else range(34)
        ids = {k: [i for i in range(4 * k, 4 * k + 4) if not (k in special and i == 4 * k)] for k in range(34)}
        wall = np.zeros(N_TILES, np.int64)
        for at, tile in enumerate(self.value):
            normal = self.mirror and not self.clear[at]
            wall[at] = 4 * tile[0] if tile[1] or normal else ids[tile[0]].pop()
        return wall

    def context(self):
        """The hand's place in its match, as start_kyoku gives it (checked by analyzer.advise.riichi_view)."""
        from tsumolab.sims.riichi.positions import HandContext

        start = self.log.start
        scores = start.get("scores")
        return HandContext(dealer=self.dealer, round=self.round, honba=start.get("honba", 0),
                           sticks=start.get("kyotaku", 0), points=None if scores is None else tuple(scores),
                           hand_no=start.get("hand", 1), pot=start.get("pot", 0))
