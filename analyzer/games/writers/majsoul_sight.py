"""The side records and fields of the three modes about what the table sees, written into a Mahjong Soul record by
analyzer.games.writers.write_majsoul from one hand of a MatchLog (analyzer.games.writers.match_log). Record names
and fields are those of the client's protocol (liqi.proto) as the community replay editor writes them:

- mirror `jiuchao_mode` (M): three copies of every kind are transparent, and the record writes each transparent
  copy with the suffix `t` (as fate marks its open tiles) wherever it goes: RecordNewRound's tiles0..3, doras and
  `paishan`, draws, discards, calls, an added kan's tile, indicators and the win tile. `paishan` is the hand's
  whole wall, 136 tiles: the deal in the order the game deals it (4, 4 and 4 tiles to each seat from the dealer
  on, then one tile each, then the dealer's 14th, its first draw), the live wall in draw order, and the dead wall
  last — its last tile is the first replacement tile, indicator i lies at 136 − 5 − 2i and its ura at
  136 − 6 − 2i (MIRROR_DEAD). Which copy leaves a hand is the engine's rule (sims.riichi.mirror_tiles): the copy
  drawn on a tsumogiri, else a transparent copy while the seat holds one;
- astrology `zhanxing` (A): every draw from the open pool is preceded by RecordFillAwaitingTiles {operation
  {seat}, awaiting_tiles (the pool after its refill, oldest first), left_tile_count}, and its RecordDealTile
  carries `tile_index`, the index of the candidate taken in that pool;
- darkness `reveal_discard` (D): a face-down discard is a RecordRevealTile {seat, tile, moqie, is_liqi, is_wliqi,
  scores, liqibang} in place of RecordDiscardTile; an opening is a RecordUnveilTile {seat: the opener, scores,
  liqibang}; then RecordLockTile {seat: the discarder, lock_state, tile, scores, liqibang} says how it ends:
  lock_state 0 (with the tile) face up, 1 locked by its discarder (no tile), 2 nobody opened it (no tile). The
  pot is counted in `liqibang` with the riichi sticks (one for each 1000 points), as the game shows one pile.
"""

from __future__ import annotations

from collections import Counter

MIRROR_MARK = "t"                 # M: the suffix of a transparent copy
FIRST_DRAW = 52                   # the wall position of the dealer's first draw (sims.riichi.tableau layout)
DEAD_START = 122                  # the first replacement tile; indicators from 126 (dora) and 127 (ura), by twos
DEAL_ROUNDS = 3                   # the game deals 4 tiles at a time three times, then one tile each
MIRROR_DEAD = {0: 13, 1: 12, 2: 11, 3: 10, **{4 + 2 * i: 9 - 2 * i for i in range(5)},
               **{5 + 2 * i: 8 - 2 * i for i in range(5)}}   # dead-wall position − 122 → its place in the last 14
LOCK_SHOWN, LOCK_KEPT, LOCK_UNOPENED = 0, 1, 2   # D: RecordLockTile's lock_state


def _name(tile_id: int) -> str:
    """A tile id (kind = id // 4) in the record's spelling, transparent copies (id % 4 ≠ 0) marked (M)."""
    kind = tile_id // 4
    name = f"{kind % 9 + 1}{'mpsz'[kind // 9]}"
    return name + MIRROR_MARK if tile_id % 4 else name


def paishan_order(dealer_offset_ids: list[list[int]], first_draw: int) -> list[int]:
    """M: the dealt tile ids in the order the game deals them: per seat from the dealer on, 4 tiles three times,
    then one each, then the dealer's first draw."""
    out = []
    for r in range(DEAL_ROUNDS):
        for ids in dealer_offset_ids:
            out += ids[4 * r:4 * r + 4]
    out += [ids[4 * DEAL_ROUNDS] for ids in dealer_offset_ids]
    return out + [first_draw]


class MirrorCopies:
    """M: each seat's concealed copies (transparent or not) per kind, from the hand's wall (136 tile ids), so that
    every tile the record writes carries its mark."""

    def __init__(self, ids: list[int], dealer: int):
        self.ids = ids
        self.dealer = dealer
        self.dealt = [sorted(ids[13 * ((s - dealer) % 4):13 * ((s - dealer) % 4) + 13]) for s in range(4)]
        self.held = [Counter((i // 4, i % 4 != 0) for i in dealt) for dealt in self.dealt]
        self.live, self.rinshan = FIRST_DRAW, DEAD_START
        self.drawn: list[tuple[int, bool] | None] = [None] * 4

    # --- RecordNewRound ------------------------------------------------------------------------------------------
    def deal(self, seat: int) -> list[str]:
        """The seat's 13 dealt tiles (the dealer's first draw follows as its 14th, drawn by `draw`)."""
        return [_name(i) for i in self.dealt[seat]]

    def paishan(self) -> str:
        """The whole wall as RecordNewRound's `paishan` (the module docstring)."""
        deal = paishan_order([self.ids[13 * i:13 * i + 13] for i in range(4)], self.ids[FIRST_DRAW])
        dead = [""] * 14
        for offset, place in MIRROR_DEAD.items():
            dead[place] = _name(self.ids[DEAD_START + offset])
        return "".join([*map(_name, deal), *map(_name, self.ids[FIRST_DRAW + 1:DEAD_START]), *dead])

    def indicator(self, index: int, ura: bool = False) -> str:
        """Dora indicator `index` (or its ura) with its mark."""
        return _name(self.ids[DEAD_START + 4 + 2 * index + int(ura)])

    # --- play ----------------------------------------------------------------------------------------------------
    def draw(self, seat: int, rinshan: bool) -> str:
        """The seat's next draw (the next live tile, or the next replacement tile)."""
        if rinshan:
            at, self.rinshan = self.rinshan, self.rinshan + 1
        else:
            at, self.live = self.live, self.live + 1
        copy = (self.ids[at] // 4, self.ids[at] % 4 != 0)
        self.held[seat][copy] += 1
        self.drawn[seat] = copy
        return _name(self.ids[at])

    def give(self, seat: int, name: str, drawn_copy: bool = False) -> str:
        """The seat gives up one tile of kind `name` (1m..7z): the copy drawn when `drawn_copy`, else a transparent
        one while it holds one; its name, marked when transparent."""
        kind = "mpsz".index(name[1]) * 9 + int(name[0]) - 1
        clear = self.drawn[seat][1] if drawn_copy and self.drawn[seat] is not None else \
            self.held[seat][(kind, True)] > 0
        self.held[seat][(kind, clear)] -= 1
        self.drawn[seat] = None
        return name + MIRROR_MARK if clear else name

    def last_drawn(self, seat: int, name: str) -> str:
        """The tile the seat drew last, marked when transparent (a tsumo win's tile)."""
        copy = self.drawn[seat]
        return name + MIRROR_MARK if copy is not None and copy[1] else name


class AwaitingTiles:
    """A: the pool of candidates as the record shows it (record spellings, oldest first)."""

    def __init__(self):
        self.pool: list[str] = []

    def reveal(self, name: str) -> None:
        self.pool.append(name)

    def fill_record(self, seat: int, left: int) -> dict:
        """RecordFillAwaitingTiles before the seat's pick."""
        return {"operation": {"seat": seat}, "awaiting_tiles": list(self.pool), "left_tile_count": left}

    def take(self, index: int) -> None:
        del self.pool[index]


def dark_records(dahai: dict, payments: list[dict], tile: str, riichi: dict | None, scores: list[int],
                 sticks: int) -> tuple[list[tuple[str, dict]], int]:
    """D: the records of a face-down discard `dahai` and the payments that follow it (face_down, then dark_open and
    dark_lock when they happen), each with the scores and the pile (sticks + pot in thousands) after its payment;
    `tile` is the record's spelling. Returns the (name, data) records and the pile after them; `scores` is updated
    in place."""
    seat = dahai["actor"]
    paid = {p["reason"]: p for p in payments}
    out = []

    def pay(p: dict) -> None:
        nonlocal sticks
        scores[p["from"]] -= p["amount"]
        sticks += p["amount"] // 1000

    pay(paid["face_down"])
    out.append(("RecordRevealTile", {"seat": seat, "tile": tile, "moqie": bool(dahai["tsumogiri"]),
                                     "is_liqi": riichi is not None and not riichi.get("double"),
                                     "is_wliqi": riichi is not None and bool(riichi.get("double")),
                                     "scores": list(scores), "liqibang": sticks}))
    if "dark_open" not in paid:
        out.append(("RecordLockTile", {"seat": seat, "tile": "", "scores": list(scores), "liqibang": sticks,
                                       "lock_state": LOCK_UNOPENED}))
        return out, sticks
    opener = paid["dark_open"]["from"]
    pay(paid["dark_open"])
    out.append(("RecordUnveilTile", {"seat": opener, "scores": list(scores), "liqibang": sticks}))
    if "dark_lock" in paid:
        pay(paid["dark_lock"])
        out.append(("RecordLockTile", {"seat": seat, "tile": "", "scores": list(scores), "liqibang": sticks,
                                       "lock_state": LOCK_KEPT}))
    else:
        out.append(("RecordLockTile", {"seat": seat, "tile": tile, "scores": list(scores), "liqibang": sticks,
                                       "lock_state": LOCK_SHOWN}))
    return out, sticks
