"""One seat's view of a Bloodshed hand (RULES.md B-…) followed event by event (the events of a Bloodshed GameRecord,
analyzer.games.record): everything public — points, the wall's count, rivers, melds, voids, winners, hand sizes,
draws, discards, kan money and robbed tiles — and the seat's own concealed tiles, never another seat's tiles. Its
`position` is the Bloodshed position document (analyzer.advise.bloodshed_position) of a decision at this point,
field for field what the engine's own `position_of` writes there.
"""

from __future__ import annotations

import numpy as np

from tsumolab.analyzer.advise.bloodshed_position import FORMAT
from tsumolab.sims.tiles import format_tiles, parse_tile, tile_name

N_KINDS = 27
START_WALL = 108 - 4 * 13            # the live wall after the deal, before the dealer's 14th tile (B-5)
MELD_WORDS = {"pon": "pon", "daiminkan": "kan", "ankan": "ankan", "kakan": "kakan"}


def kind_of(name: str) -> int:
    return parse_tile(name, allow_red=False, allow_honors=False)[0]


def tiles_text(counts) -> str:
    full = np.zeros(34, np.int64)
    full[:N_KINDS] = counts
    return format_tiles(full)


class BloodshedTable:
    """The public state of a hand and `seat`'s concealed tiles, after the events applied so far."""

    def __init__(self, start: dict, seat: int):
        self.seat = seat
        self.hand_no, self.dealer = int(start["hand"]), int(start["oya"])
        self.points = [int(p) for p in start["scores"]]
        self.wall = START_WALL
        self.own = np.zeros(N_KINDS, np.int64)
        for name in start["tehais"][seat]:
            self.own[kind_of(name)] += 1
        self.sizes = [len(h) for h in start["tehais"]]
        self.draws, self.discards = [0] * 4, [0] * 4
        self.rivers = np.zeros((4, N_KINDS), np.int64)
        self.river_order: list[list[str]] = [[] for _ in range(4)]
        self.melds: list[dict[int, str]] = [{} for _ in range(4)]
        self.voids: list[str | None] = [None] * 4
        self.winners: list[tuple[int, str]] = []
        self.ledger = np.zeros((4, 4), np.int64)   # kan money: receiver × payer (B-18)
        self.robbed: list[int] = []
        self.drawn: list[str | None] = [None] * 4  # each seat's latest draw (its own is the one the seat sees)
        self.kan_draw = [False] * 4                # the seat's latest draw replaces a kan (B-16)

    # --- what the seat knows -------------------------------------------------------------------------------------
    @property
    def won(self) -> set[int]:
        return {s for s, _ in self.winners}

    def n_melds(self, seat: int) -> int:
        return len(self.melds[seat])

    def can_win(self, extra: int = -1) -> bool:
        """B-10: the seat's hand (with tile `extra`) is complete and holds no tile of its void suit, melds
        included."""
        from tsumolab.sims.shanten import BLOODSHED_SHAPES, is_complete
        from tsumolab.sims.shanten_tables import get_tables

        counts = np.zeros(34, np.int8)
        counts[:N_KINDS] = self.own
        if extra >= 0:
            counts[extra] += 1
        void = self.voids[self.seat]
        if void is not None:
            suit = "mps".index(void)
            if counts[suit * 9:suit * 9 + 9].any() or any(k // 9 == suit for k in self.melds[self.seat]):
                return False
        suit_t, honor_t = get_tables()
        return bool(is_complete(counts, self.n_melds(self.seat), BLOODSHED_SHAPES, suit_t, honor_t))

    def can_react(self, kind: int) -> bool:
        """B-8, B-9: the seat may ron, pon or open-kan the discard `kind` (the engine then asks it)."""
        if self.seat in self.won:
            return False
        held = self.own[kind]
        return self.can_win(kind) or (held >= 2 and self.wall > 0)

    def can_rob(self, kind: int) -> bool:
        """B-17: the seat may rob an added kan of `kind`."""
        return self.seat not in self.won and self.can_win(kind)

    # --- events --------------------------------------------------------------------------------------------------
    def apply(self, e: dict) -> None:
        kind, actor = e["type"], e.get("actor")
        mine = actor == self.seat
        if kind == "tsumo":
            self.wall -= 1
            self.draws[actor] += 1
            self.sizes[actor] += 1
            self.drawn[actor], self.kan_draw[actor] = e["pai"], bool(e.get("rinshan"))
            if mine:
                self.own[kind_of(e["pai"])] += 1
        elif kind == "exchange":
            for name in e["pais"]:
                if mine:
                    self.own[kind_of(name)] -= 1
                if e["target"] == self.seat:
                    self.own[kind_of(name)] += 1
        elif kind == "void":
            self.voids[actor] = e["suit"]
        elif kind == "dahai":
            k = kind_of(e["pai"])
            self.sizes[actor] -= 1
            self.discards[actor] += 1
            self.rivers[actor, k] += 1
            self.river_order[actor].append(tile_name(k))
            self.drawn[actor] = None
            if mine:
                self.own[k] -= 1
        elif kind in MELD_WORDS:
            self.meld(e)
        elif kind == "hora":
            self.win(e)

    def meld(self, e: dict) -> None:
        kind, actor, k = e["type"], e["actor"], kind_of(e["pai"])
        taken = {"pon": 2, "daiminkan": 3, "ankan": 4, "kakan": 1}[kind]
        self.sizes[actor] -= taken
        if actor == self.seat:
            self.own[k] -= taken
        if kind in ("pon", "daiminkan"):
            self.rivers[e["target"], k] -= 1
            self.river_order[e["target"]].pop()
            self.drawn[actor], self.kan_draw[actor] = None, False
        self.melds[actor][k] = MELD_WORDS[kind]
        for payer, delta in enumerate(e.get("deltas") or []):
            if delta < 0:
                self.ledger[actor, payer] -= delta
                self.pay(payer, actor, -delta)

    def win(self, e: dict) -> None:
        if e["kind"] == "robbed_kan":   # B-17: the added kan is cancelled, its pon stays, the tile is gone
            k = kind_of(e["pai"])
            if self.melds[e["target"]].get(k) == "kakan":
                self.melds[e["target"]][k] = "pon"
                self.robbed.append(k)
        self.winners.append((e["actor"], "tsumo" if e["kind"] == "tsumo" else "ron"))
        self.points = [p + d for p, d in zip(self.points, e["deltas"])]

    def pay(self, payer: int, receiver: int, amount: int) -> None:
        self.points[payer] -= amount
        self.points[receiver] += amount

    # --- the position --------------------------------------------------------------------------------------------
    def position(self, decision: dict) -> dict:
        """The position document of `decision` ({"kind": ..., …} as analyzer.advise.bloodshed_position has it)."""
        return {
            "format": FORMAT, "variant": "bloodshed", "seat": self.seat, "hand_no": self.hand_no,
            "dealer": self.dealer, "points": list(self.points), "wall": self.wall, "hand": tiles_text(self.own),
            "melds": [[f"{word} {tile_name(k)}" for k, word in sorted(m.items())] for m in self.melds],
            "rivers": [tiles_text(r) for r in self.rivers],
            "voids": list(self.voids),
            "winners": [{"seat": s, "kind": kind} for s, kind in self.winners],
            "decision": decision,
            "hand_sizes": list(self.sizes), "draws": list(self.draws), "discards": list(self.discards),
            "kan_income": self.ledger.tolist(), "robbed": [tile_name(k) for k in self.robbed],
        }

    def melds_text(self, seat: int) -> str:
        return ", ".join(f"{word} {tile_name(k)}" for k, word in self.melds[seat].items())
