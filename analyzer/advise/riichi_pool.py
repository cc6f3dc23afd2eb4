"""The candidates of an astrology hand (RULES.md A) in a position's events (analyzer.advise.riichi_position):
written from a simulated hand, read and checked from a document, rebuilt into wall positions
(analyzer.advise.riichi_hidden), and the options of a pick.

A lies the candidates face up, so everything about the pool is public:
- each tile revealed into the pool is a `candidate` event, `{"type": "candidate", "pai": "3p", "dead_wall":
  false, "pool": 3, "wall_index": 56}`: its tile (a red five written 5pr), whether it is the replacement tile
  a kan added (dead wall), the pool's size once it is in, and its wall position (the next live-wall tile, from 53
  on, or the kan's replacement tile, 122 + the replacements drawn before it);
- every draw once the pool is open is a pick of one candidate, so every seat's `tsumo` then shows its tile and
  `pick`, the candidate's index in the pool (0 = the oldest; what the tile alone does not tell when the pool holds
  it twice, and the order of the pool left matters to the seats). A log without `pick` takes the first candidate
  holding the tile. Draws before the pool opens (the dealer's first draw, a replacement draw of the dealer's
  closed kan before its first discard) stay hidden as in riichi.
A position may end at a pick (`"decision": "pick"`): the seat is to draw, and the log then ends with the
candidates the refill revealed (or, once the live wall is down to the floor and nothing is refilled, with the
discard before the seat's draw, where only the document's `decision` tells a pick from a reaction).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tsumolab.analyzer.advise.position_errors import PositionError
from tsumolab.analyzer.advise.riichi_tiles import Tile, tile_of, tile_text

POOL = 3                       # A: three candidates at most
FIRST_CANDIDATE = 53           # the live wall after the dealer's first draw
N_TILES = 136
DRAWER_SKIPS = ("candidate", "reach_accepted")  # events between the play and the pick it leads to


# ----------------------------------------------------------------------------- writing a seat's view
def candidate_shown(event: dict, wall: np.ndarray, red_fives: bool) -> dict:
    """The candidate event as every seat sees it: its tile from the wall slot, a red five written red (the engine
    logs the kind only)."""
    from tsumolab.sims.riichi.tableau import is_red

    tile_id = int(wall[event["wall_index"]])
    return dict(event, pai=tile_text((tile_id // 4, red_fives and bool(is_red(tile_id)))))


# ----------------------------------------------------------------------------- reading a document
def parse_candidate(e: dict, where: str) -> dict:
    """The tile of a candidate event (never hidden), its fields checked → {"pai": Tile}."""
    tile = tile_of(e.get("pai"))
    if tile is None:
        raise PositionError(f"{where}: a candidate lies face up (A) and cannot be hidden ('?')")
    if not isinstance(e.get("dead_wall"), bool):
        raise PositionError(f"{where}: dead_wall must be true or false")
    size = e.get("pool")
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= POOL:
        raise PositionError(f"{where}: pool must be the pool's size 1..{POOL} with the candidate in, got {size!r}")
    at = e.get("wall_index")
    if not isinstance(at, int) or isinstance(at, bool) or not FIRST_CANDIDATE <= at < N_TILES:
        raise PositionError(f"{where}: wall_index must be a wall position {FIRST_CANDIDATE}..{N_TILES - 1}, got "
                            f"{at!r}")
    return {"pai": tile}


def check_candidates(events: list[dict], variant: str) -> None:
    """A: only an astrology log has candidates, and once the pool is open every draw is a pick the log shows."""
    opened = False
    for i, e in enumerate(events):
        kind = e["type"]
        if kind == "candidate":
            if variant != "astrology":
                raise PositionError("the log has a candidate (A): only astrology hands have one")
            opened = True
        elif kind == "tsumo" and opened and tile_of(e.get("pai")) is None:
            raise PositionError(f"event {i} (tsumo): a draw from the pool is a pick of a face-up candidate (A), "
                                "so its tile is shown")
        elif kind == "tsumo" and "pick" in e:
            pick = e["pick"]
            if not opened:
                raise PositionError(f"event {i} (tsumo): a pick (A) needs candidates revealed before it")
            if not isinstance(pick, int) or isinstance(pick, bool) or not 0 <= pick < POOL:
                raise PositionError(f"event {i} (tsumo): pick must be a candidate's index 0..{POOL - 1}, got "
                                    f"{pick!r}")


def ends_at_pick(tail: list[dict], seat: int, asked: bool) -> bool:
    """Does the log (dora, payments and pass_win left out: `tail`) end at seat `seat`'s pick (A)? Yes when it ends
    with candidates revealed for the seat's draw; when it ends with the previous seat's discard in an open pool,
    only if the document says so (`asked`: nothing was refilled, the floor is reached). Candidates revealed for
    another seat's draw refuse the log."""
    last = tail[-1]
    if last["type"] == "candidate":
        drawer = _drawer(tail)
        if drawer != seat:
            raise PositionError(f"the log ends with the candidates of seat {drawer}'s pick, not seat {seat}'s")
        return True
    opened = any(e["type"] == "candidate" for e in tail)
    return asked and opened and last["type"] == "dahai" and (last["actor"] + 1) % 4 == seat


def _drawer(tail: list[dict]) -> int:
    """The seat whose draw the trailing candidates are revealed for: the next after a discard, a kan's own."""
    for e in reversed(tail):
        kind = e["type"]
        if kind in DRAWER_SKIPS:
            continue
        if kind == "dahai":
            return (e["actor"] + 1) % 4
        if kind in ("daiminkan", "ankan", "kakan"):
            return e["actor"]
        raise PositionError(f"candidates are revealed for a draw, after a discard or a kan, not after {kind}")
    raise PositionError("candidates are revealed only once the dealer has discarded (A)")


# ----------------------------------------------------------------------------- rebuilding the wall
@dataclass
class Candidate:
    at: int          # wall position
    tile: Tile
    dead: bool       # the replacement tile a kan added


@dataclass
class Pool:
    """The candidates in the pool as the log shows them, in pool order (oldest first), for the rebuild."""

    floor: int                                    # A: no refill with this many live-wall tiles or fewer
    items: list[Candidate] = field(default_factory=list)
    opened: bool = False

    def reveal(self, at: int, tile: Tile, dead: bool, size: int, where: str) -> None:
        self.opened = True
        self.items.append(Candidate(at, tile, dead))
        if len(self.items) != size:
            raise PositionError(f"{where}: the pool then holds {len(self.items)} candidates, not {size}")

    def take(self, tile: Tile, index: int | None, where: str) -> tuple[int, int]:
        """(index in the pool: the pick's answer, wall position) of the candidate `tile` a seat picks: the one at
        `index`, or without one the first holding that tile."""
        found = [i for i, c in enumerate(self.items) if c.tile == tile]
        if index is not None and index not in found:
            held = tile_text(self.items[index].tile) if index < len(self.items) else "nothing"
            raise PositionError(f"{where}: the pool's candidate {index} is {held}, not {tile_text(tile)}")
        if not found:
            shown = " ".join(tile_text(c.tile) for c in self.items) or "nothing"
            raise PositionError(f"{where}: {tile_text(tile)} is not a candidate (the pool holds {shown})")
        i = found[0] if index is None else index
        return i, self.items.pop(i).at

    def draws_left(self, live: int) -> int:
        """Draws still possible: the candidates and the refills down to the floor (A)."""
        return len(self.items) + max(0, live - self.floor)


# ----------------------------------------------------------------------------- options
def pick_options(view: np.ndarray) -> list[tuple[str, int]]:
    """(label, answer) per candidate of a pending pick (D_PICK): `take 3p`, a red five `take 5pr`, the kan's
    replacement tile `take 3p (dead wall)`; of identical candidates the first only (the same tile drawn, a pool
    left that differs in its order alone)."""
    from tsumolab.sims.riichi.astrology_pool import A_DEAD, A_KIND, A_N, A_RED
    from tsumolab.sims.riichi.observation import ROBS

    block = ROBS.astrology
    out: dict[str, int] = {}
    for i in range(int(view[block + A_N])):
        label = "take " + tile_text((int(view[block + A_KIND + i]), bool(view[block + A_RED + i])))
        if view[block + A_DEAD + i]:
            label += " (dead wall)"
        out.setdefault(label, i)
    return list(out.items())
