"""What `open-deal` and `fate` show of a riichi hand beyond plain riichi, in a position's events
(analyzer.advise.riichi_position): written from a simulated hand, and checked when a document is read.

- open-deal (RULES.md OD): every seat's 13 starting tiles are public, so start_kyoku shows every `tehais` in full.
- fate (RULES.md F): the first 4 tiles dealt to each seat are open. start_kyoku lists them in `fate_open` (per
  seat, in deal order, the own seat's too); a discard that gives up one of its seat's open tiles carries
  `"open_tile": true`. The engine counts open tiles per kind (sims.riichi.fate_tiles): a seat giving up a plain
  copy of a kind keeps its open plain copies while it holds as many other plain copies of its own, so a discard
  is an open tile exactly when the seat then holds fewer plain copies of that kind (concealed, or its own tiles in
  its melds) than it had open; the red five is one copy, open or not.
"""

from __future__ import annotations

import numpy as np

from tsumolab.analyzer.advise.position_errors import PositionError
from tsumolab.analyzer.advise.riichi_mirror import check_mirror
from tsumolab.analyzer.advise.riichi_tiles import Tile, tile_of, tile_text
from tsumolab.sims.riichi.fate_tiles import OPEN_DEAL_TILES


def shows_hands(rules) -> bool:
    """Does the mode show every seat's starting hand (OD)?"""
    return bool(getattr(rules, "open_deal", False))


def has_open_tiles(rules) -> bool:
    """Does the mode open the first dealt tiles of every seat (F)?"""
    return bool(getattr(rules, "fate", False))


def fate_open_tiles(rows: np.ndarray) -> list[list[str]]:
    """Each seat's first 4 dealt tiles in deal order (F), from a hand's event rows (sims.riichi.events: the deal
    rows come in wall order), written as in events (red fives 5mr)."""
    from tsumolab.sims.events import EV_DEAL

    dealt: list[list[str]] = [[] for _ in range(4)]
    for kind, seat, tile, red in rows[:, 2:6].tolist():
        if kind == EV_DEAL and len(dealt[seat]) < OPEN_DEAL_TILES:
            dealt[seat].append(tile_text((tile, bool(red))))
    return dealt


class _OpenTiles:
    """One seat's open deal tiles still held (F), and the plain copies of its own it holds per kind."""

    def __init__(self, tehai: list[Tile], open_tiles: list[Tile]):
        self.plain = np.zeros(34, np.int64)       # concealed plain copies
        self.meld_plain = np.zeros(34, np.int64)  # own plain copies in the seat's melds
        self.open_plain = np.zeros(34, np.int64)
        self.open_red: set[int] = {k for k, red in open_tiles if red}
        for k, red in tehai:
            self.plain[k] += not red
        for k, red in open_tiles:
            self.open_plain[k] += not red

    def gain(self, tile: Tile) -> None:
        self.plain[tile[0]] += not tile[1]

    def to_meld(self, tile: Tile) -> None:
        """An own tile moved from the hand into a meld (it still counts as held)."""
        self.plain[tile[0]] -= not tile[1]
        self.meld_plain[tile[0]] += not tile[1]

    def give_up(self, tile: Tile) -> bool:
        """The seat gave up `tile` from its hand: was it one of its open tiles?"""
        k, red = tile
        if red:
            was_open = k in self.open_red
            self.open_red.discard(k)
            return was_open
        self.plain[k] -= 1
        held = self.plain[k] + self.meld_plain[k]
        if self.open_plain[k] > held:
            self.open_plain[k] = held
            return True
        return False


def mark_open_tiles(events: list[dict], open_tiles: list[list[str]]) -> None:
    """Set `"open_tile": true` on every discard of a hand's full events (nothing hidden; analyzer.replay.
    riichi_events) that gives up an open deal tile of its seat (F)."""
    tehais = events[0]["tehais"]
    seats = [_OpenTiles([tile_of(t) for t in tehais[s]], [tile_of(t) for t in open_tiles[s]]) for s in range(4)]
    for e in events[1:]:
        kind = e["type"]
        if kind == "tsumo":
            seats[e["actor"]].gain(tile_of(e["pai"]))
        elif kind == "dahai" and seats[e["actor"]].give_up(tile_of(e["pai"])):
            e["open_tile"] = True
        elif kind in ("chi", "pon", "daiminkan", "ankan"):
            for name in e["consumed"]:
                seats[e["actor"]].to_meld(tile_of(name))
        elif kind == "kakan":
            seats[e["actor"]].to_meld(tile_of(e["pai"]))


def check_shown(log: "SeatLog", rules) -> None:  # noqa: F821 (analyzer.advise.riichi_view.SeatLog)
    """Refuse (PositionError) a log that does not show what the mode makes public, or shows open tiles in a mode
    without them: every tehai in open-deal (OD), `fate_open` in fate (F) and only there, mirror's transparent
    tiles in mirror (M) and only there (analyzer.advise.riichi_mirror.check_mirror)."""
    check_mirror(log, rules)
    start = log.tiles[0]
    if shows_hands(rules):
        hidden = [s for s, hand in enumerate(start["tehais"]) if any(t is None for t in hand)]
        if hidden:
            raise PositionError(f"open-deal shows every starting hand (OD), but start_kyoku hides seat "
                                f"{hidden[0]}'s tehai")
    if has_open_tiles(rules) and "fate_open" not in start:
        raise PositionError("fate opens each seat's first 4 dealt tiles (F): start_kyoku must list them in "
                            "fate_open (a plain mjai log has no such field)")
    if not has_open_tiles(rules) and ("fate_open" in start or any("open_tile" in e for e in log.events)):
        raise PositionError(f"fate_open and open_tile belong to fate positions (F), not {log.variant}")

