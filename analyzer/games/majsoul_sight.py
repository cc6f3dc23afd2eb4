"""What the records of mirror, astrology and darkness show (analyzer.games.writers.majsoul_sight describes the
fields), read into the words of the position documents (analyzer.advise.riichi_position) by
analyzer.games.majsoul:

- mirror (M): the tiles of RecordNewRound's tiles0..3 marked `t` are start_kyoku's `mirror_tehais` (the dealer's
  first 13), and its `paishan` (the whole wall) gives `mirror_wall` (live, rinshan, dora_markers, ura_markers as
  riichi_mirror lays them out: each transparent copy named, each normal copy "?"); the mark is dropped elsewhere;
- astrology (A): each RecordFillAwaitingTiles shows the pool after its refill: the tiles added since the last pick
  are `candidate` events (the last one added for a replacement draw is the dead-wall tile, the others come from
  the live wall in order), and RecordDealTile's `tile_index` is the `pick` of its `tsumo`;
- darkness (D): RecordRevealTile is a `dahai` with `"face_down": true` and its `face_down` payment,
  RecordUnveilTile the `dark_open` payment of the seat that opened it, RecordLockTile with lock_state 1 its
  discarder's `dark_lock` payment (0 and 2 pay nothing); the record's `liqibang` counts the pot with the riichi
  sticks, so the pot is followed from the record's first hand (its payments in, a win takes it) and start_kyoku's
  `kyotaku` is `liqibang` less the pot. A record that starts after a hand that left a pot reads that pot as riichi
  sticks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MARK = "t"
FIRST_DRAW = 52          # the wall position of the dealer's first draw
DEAD_START = 122         # the first replacement tile's wall position
FIRST_CANDIDATE = 53     # A: the first live-wall candidate
DARK_COSTS = {"face_down": 1000, "dark_open": 2000, "dark_lock": 4000}
LOCK_KEPT = 1            # RecordLockTile's lock_state of a tile its discarder locked


def split_tiles(text: str) -> list[str]:
    """A `paishan` string ("1m2pt0s...") → its tiles, each with its mark."""
    out, i = [], 0
    while i < len(text):
        n = 3 if text[i + 2:i + 3] == MARK else 2
        out.append(text[i:i + n])
        i += n
    return out


def mirror_wall(paishan: list[str], shown) -> dict:
    """M: `mirror_wall` of a whole wall (136 tiles in the record's spelling, the dead wall last: its last tile
    the first replacement, indicator i at 136 − 5 − 2i, its ura at 136 − 6 − 2i); `shown(name)` gives a
    transparent copy's name (tsumolab's words), None for a normal copy ("?")."""
    names = [shown(t) or "?" for t in paishan]
    place = names[DEAD_START:]
    return {"live": names[FIRST_DRAW:DEAD_START], "rinshan": [place[13 - k] for k in range(4)],
            "dora_markers": [place[9 - 2 * i] for i in range(5)], "ura_markers": [place[8 - 2 * i] for i in range(5)]}


@dataclass
class PoolReader:
    """A: the pool of one hand as the records show it, turned into candidate events."""

    pool: list[tuple[str, bool]] = field(default_factory=list)   # (tile, dead wall), oldest first
    live: int = FIRST_CANDIDATE        # the next live-wall candidate's wall position
    replaced: int = 0                  # replacement draws so far (the next dead-wall tile is DEAD_START + this)

    def fill(self, tiles: list[str], replacement: bool) -> list[dict]:
        """The candidate events of a RecordFillAwaitingTiles showing `tiles` (tsumolab names), for a replacement
        draw when `replacement`; ValueError when the pool does not keep the candidates left."""
        kept = [t for t, _ in self.pool]
        if tiles[:len(kept)] != kept:
            raise ValueError(f"awaiting_tiles {' '.join(tiles)} do not keep the candidates left "
                             f"({' '.join(kept) or 'none'}) first")
        added = tiles[len(kept):]
        out = []
        for n, tile in enumerate(added):
            dead = replacement and n == len(added) - 1
            at = DEAD_START + self.replaced if dead else self.live
            self.live += not dead
            self.pool.append((tile, dead))
            out.append({"type": "candidate", "pai": tile, "dead_wall": dead, "pool": len(self.pool),
                        "wall_index": at})
        return out

    def take(self, index: int, tile: str) -> None:
        """The pick of candidate `index`, which must be `tile`."""
        if not 0 <= index < len(self.pool) or self.pool[index][0] != tile:
            held = self.pool[index][0] if 0 <= index < len(self.pool) else "nothing"
            raise ValueError(f"tile_index {index} of the pool is {held}, not the tile drawn {tile}")
        del self.pool[index]

    def drawn(self, rinshan: bool) -> None:
        self.replaced += rinshan
