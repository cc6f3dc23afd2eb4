"""What `mirror` shows of a riichi hand (RULES.md M) in a position's events (analyzer.advise.riichi_position):
written from a simulated hand, checked when a document is read, and laid on the wall positions of the rebuilt
hand (analyzer.advise.riichi_hidden).

Three of the four copies of every kind are transparent: every seat sees where they lie, in each hand and in the
wall; only the normal copy of each kind (tile id % 4 == 0, sims.riichi.mirror_tiles) is hidden, and there are no
red fives. start_kyoku shows them in two fields:
- `mirror_tehais`: per seat, its transparent starting tiles (the seat's own too), e.g. [["1m", "3p", ...], ...];
  the other seats' `tehais` stay "?";
- `mirror_wall`: the wall after the deal, laid out as replay's `wall` event (analyzer.replay.riichi_events.
  wall_event): `live`, the 70 tiles from the dealer's first draw on in draw order (the last ones are those kans
  move to the dead wall), `rinshan`, the 4 replacement tiles in order, `dora_markers` and `ura_markers`, the 5
  indicators and their ura; each transparent copy is named, each normal copy is "?".
Another seat's draw of a transparent copy shows its tile in its `tsumo` event (a "?" there stands for the tile
mirror_wall names). Which copy leaves a hand follows from these and the engine's rule (a discard by kind, a call
or a kan gives up a transparent copy while the seat holds one; a tsumogiri gives up the copy drawn), so
discards carry no mark. A mirror document without both fields, with a red five, with another seat's tehai shown,
or whose fields do not hold exactly three transparent copies of each kind is refused with one line.
"""

from __future__ import annotations

import numpy as np

from tsumolab.analyzer.advise.position_errors import PositionError
from tsumolab.analyzer.advise.riichi_tiles import HIDDEN, Tile, tile_of, tile_text
from tsumolab.sims.riichi.tableau import DEAD_START

FIELDS = ("mirror_tehais", "mirror_wall")
FIRST_DRAW = 52            # the wall position of the dealer's first draw (13 tiles dealt to each seat before it)
TRANSPARENT_COPIES = 3     # of each kind (M)
WALL_PARTS = {             # mirror_wall's lists: (first wall position, tiles, step)
    "live": (FIRST_DRAW, DEAD_START - FIRST_DRAW, 1),
    "rinshan": (DEAD_START, 4, 1),
    "dora_markers": (DEAD_START + 4, 5, 2),
    "ura_markers": (DEAD_START + 5, 5, 2),
}


def shows_mirror(rules) -> bool:
    """Are three copies of every kind transparent (M)?"""
    return bool(getattr(rules, "mirror", False))


def part_positions(part: str) -> range:
    """The wall positions (sims.riichi.positions.RiichiEngine.start's layout) of one list of mirror_wall."""
    first, n, step = WALL_PARTS[part]
    return range(first, first + n * step, step)


def _name(tile_id: int) -> str:
    """A tile id as mirror shows it: its name when transparent, "?" for the normal copy."""
    return tile_text((tile_id // 4, False)) if tile_id % 4 else HIDDEN


# ----------------------------------------------------------------------------- writing the view
def mirror_start(wall: np.ndarray, dealer: int) -> dict:
    """start_kyoku's mirror_tehais and mirror_wall of a hand dealt from `wall` (136 tile ids) by `dealer`."""
    tehais: list[list[str]] = [[] for _ in range(4)]
    for i in range(4):
        dealt = sorted(int(t) for t in wall[13 * i:13 * i + 13] if t % 4)
        tehais[(dealer + i) % 4] = [_name(t) for t in dealt]
    layout = {part: [_name(int(wall[at])) for at in part_positions(part)] for part in WALL_PARTS}
    return {"mirror_tehais": tehais, "mirror_wall": layout}


def transparent_draws(events: list[dict], wall: np.ndarray) -> set[int]:
    """Indices of the `tsumo` events (of a hand's full events) that draw a transparent copy: live draws take the
    wall positions from FIRST_DRAW on, replacement draws (rinshan) those from DEAD_START on."""
    live, rinshan = FIRST_DRAW, DEAD_START
    out = set()
    for i, e in enumerate(events):
        if e["type"] != "tsumo":
            continue
        if e.get("rinshan"):
            at, rinshan = rinshan, rinshan + 1
        else:
            at, live = live, live + 1
        if wall[at] % 4:
            out.add(i)
    return out


# ----------------------------------------------------------------------------- reading a document
def parse_mirror(e: dict, where: str) -> dict:
    """start_kyoku's mirror fields parsed: mirror_tehais (4 lists of tiles), mirror_wall (its lists, None for a
    normal copy)."""
    out: dict = {}
    if "mirror_tehais" in e:
        hands = e["mirror_tehais"]
        if not isinstance(hands, list) or len(hands) != 4 or not all(isinstance(h, list) and len(h) <= 13
                                                                     for h in hands):
            raise PositionError(f"{where}: mirror_tehais must be 4 lists of at most 13 tiles (each seat's "
                                "transparent starting tiles, M)")
        out["mirror_tehais"] = [[_shown(t, where) for t in h] for h in hands]
    if "mirror_wall" in e:
        layout = e["mirror_wall"]
        if not isinstance(layout, dict) or set(layout) != set(WALL_PARTS):
            raise PositionError(f"{where}: mirror_wall must be an object of {', '.join(WALL_PARTS)} (M)")
        out["mirror_wall"] = {}
        for part, (_, n, _) in WALL_PARTS.items():
            names = layout[part]
            if not isinstance(names, list) or len(names) != n:
                raise PositionError(f"{where}: mirror_wall {part} must list {n} tiles (\"?\" for a normal copy)")
            out["mirror_wall"][part] = [tile_of(t) for t in names]
    return out


def _shown(name, where: str) -> Tile:
    tile = tile_of(name)
    if tile is None:
        raise PositionError(f"{where}: mirror_tehais lists transparent tiles, which are public and cannot be "
                            "hidden ('?')")
    return tile


def check_mirror(log, rules) -> None:
    """Refuse (PositionError) a log that does not show what mirror makes public or shows it in another mode: both
    fields in mirror (M) and only there; no red five; the other seats' tehais hidden; the seat's transparent tiles
    among its own; three transparent copies of each kind in all."""
    start = log.tiles[0]
    given = [f for f in FIELDS if f in start]
    if not shows_mirror(rules):
        if given:
            raise PositionError(f"{given[0]} belongs to mirror positions (M), not {log.variant}")
        return
    if len(given) < len(FIELDS):
        raise PositionError("mirror shows every transparent tile (M): start_kyoku must list them in mirror_tehais "
                            "and mirror_wall (a plain mjai log has no such fields)")
    if rules.red_fives:
        raise PositionError("mirror positions have no red fives (M): the rule red_fives must stay off")
    for i, parsed in enumerate(log.tiles):
        red = next((t for t in _tiles_in(parsed) if t[1]), None)
        if red is not None:
            raise PositionError(f"event {i}: mirror has no red fives (M), but the log shows {tile_text(red)}")
    for s, hand in enumerate(start["tehais"]):
        if s != log.seat and any(t is not None for t in hand):
            raise PositionError(f"start_kyoku shows seat {s}'s tehai: in mirror only its transparent tiles are seen "
                                "(mirror_tehais, M)")
    clear_first(start["tehais"][log.seat], start["mirror_tehais"][log.seat], log.seat)
    _check_copies(start)


def _tiles_in(value):
    """Every tile (a (kind, red) pair) in a parsed event's values."""
    if isinstance(value, tuple):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _tiles_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _tiles_in(v)


def _check_copies(start: dict) -> None:
    counts = np.zeros(34, np.int64)
    for tile in _tiles_in([start["mirror_tehais"], start["mirror_wall"]]):
        counts[tile[0]] += 1
    wrong = np.nonzero(counts != TRANSPARENT_COPIES)[0]
    if wrong.size:
        k = int(wrong[0])
        raise PositionError(f"start_kyoku shows {counts[k]} transparent {tile_text((k, False))} in mirror_tehais and "
                            f"mirror_wall, but mirror has {TRANSPARENT_COPIES} of each kind (M)")


def clear_first(tehai: list[Tile | None], transparent: list[Tile], seat: int) -> list[Tile | None]:
    """Seat `seat`'s 13 dealt tiles with its transparent ones first: the rest of its tehai (or "?"s) after them."""
    rest = list(tehai)
    for tile in transparent:
        if tile in rest:
            rest.remove(tile)
        elif None in rest:
            rest.remove(None)
        else:
            raise PositionError(f"start_kyoku: seat {seat}'s transparent {tile_text(tile)} (mirror_tehais) is not in "
                                "its tehai")
    return [*transparent, *rest]
