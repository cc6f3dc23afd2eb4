"""Tile names of the riichi-family positions (analyzer.advise.riichi_position): mjai's words for tiles, with red
fives written 5mr (0m read too) and a hidden tile "?"."""

from __future__ import annotations

from functools import lru_cache

from tsumolab.analyzer.advise.position_errors import PositionError
from tsumolab.sims import tiles

HIDDEN = "?"
MJAI_HONORS = "ESWNPFC"

Tile = tuple[int, bool]  # (kind 0..33, red five)


@lru_cache(maxsize=None)
def _tile_of(name: str) -> Tile | None:
    if name == HIDDEN:
        return None
    if len(name) == 1 and name in MJAI_HONORS:
        return 27 + MJAI_HONORS.index(name), False
    red = name.endswith("r")
    base = name[:-1] if red else name
    try:
        kind, zero = tiles.parse_tile(base)
    except tiles.TileError:
        raise PositionError(f"unknown tile {name!r} (write 1m..9s, 1z..7z or E S W N P F C; red fives 5mr)") from None
    red = red or zero
    if red and (kind >= 27 or kind % 9 != tiles.FIVE_OFFSET):
        raise PositionError(f"unknown tile {name!r}: only fives can be red")
    return kind, red


def tile_of(name) -> Tile | None:
    """(kind, red) of an mjai tile name; None for "?"."""
    if not isinstance(name, str):
        raise PositionError(f"a tile is a string such as 5m or 5mr, got {name!r}")
    return _tile_of(name)



def tile_text(tile: Tile) -> str:
    """The name of (kind, red): 5mr for a red five."""
    return tiles.tile_name(tile[0]) + ("r" if tile[1] else "")
