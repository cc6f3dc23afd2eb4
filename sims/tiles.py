"""Tile model: 34 tile kinds as count arrays, red fives counted apart, and the `mpsz` notation.

Kind index: 0-8 = 1m..9m, 9-17 = 1p..9p, 18-26 = 1s..9s, 27-33 = 1z..7z (E S W N White Green Red).
A red five (`0m`, `0p`, `0s`) is counted both as a five in `counts` and in `reds[suit]`.

>>> counts, reds = parse_tiles("123m0p55z")
>>> format_tiles(counts, reds)
'123m0p55z'
>>> int(counts[13]), int(reds[1])
(1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

N_KINDS = 34
N_SUITED = 27
SUITS = "mpsz"
FIVE_OFFSET = 4  # index of the five within a suit

CHI, PON, MINKAN, ANKAN, KAKAN = 0, 1, 2, 3, 4
MELD_WORDS = {"chi": CHI, "pon": PON, "kan": MINKAN, "ankan": ANKAN, "kakan": KAKAN}
MELD_NAMES = {v: k for k, v in MELD_WORDS.items()}


class TileError(ValueError):
    """A tile, hand or meld string that does not describe legal tiles."""


def kind_of(suit: str, rank: int) -> int:
    """Index of rank (1-9, or 1-7 for honors) in suit `m`, `p`, `s` or `z`."""
    return SUITS.index(suit) * 9 + rank - 1


def tile_name(kind: int, red: bool = False) -> str:
    """`mpsz` name of one tile kind, e.g. ``tile_name(13) == '5p'``."""
    suit, rank = divmod(kind, 9)
    return f"{0 if red else rank + 1}{SUITS[suit]}"


def parse_tiles(text: str, allow_red: bool = True, allow_honors: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Parse an `mpsz` string into (counts int8[34], reds int8[3]).

    Raises TileError for unknown characters, digits without a suit, honors above 7z, red fives where
    the mode has none, more than one red five per suit, or more than four copies of a kind.
    """
    counts = np.zeros(N_KINDS, np.int8)
    reds = np.zeros(3, np.int8)
    pending: list[int] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            pending.append(int(ch))
            continue
        if ch not in SUITS:
            raise TileError(f"bad character {ch!r} in tiles {text!r} (use digits followed by m, p, s or z)")
        if not pending:
            raise TileError(f"suit letter {ch!r} without digits in tiles {text!r}")
        suit = SUITS.index(ch)
        for digit in pending:
            if suit == 3:
                if not 1 <= digit <= 7:
                    raise TileError(f"no honor tile {digit}z in {text!r} (honors are 1z..7z)")
                if not allow_honors:
                    raise TileError(f"honor tile {digit}z in {text!r}, but this mode has no honors")
            elif digit == 0:
                if not allow_red:
                    raise TileError(f"red five 0{ch} in {text!r}, but this mode has no red fives")
                reds[suit] += 1
                digit = 5
            counts[suit * 9 + digit - 1] += 1
        pending = []
    if pending:
        raise TileError(f"digits without a suit letter at the end of {text!r}")
    over = np.nonzero(counts > 4)[0]
    if over.size:
        raise TileError(f"more than four copies of {tile_name(int(over[0]))} in {text!r}")
    if np.any(reds > 1):
        raise TileError(f"more than one red five of a suit in {text!r}")
    return counts, reds


def parse_tile(text: str, allow_red: bool = True, allow_honors: bool = True) -> tuple[int, bool]:
    """Parse exactly one tile, returning (kind, is_red)."""
    counts, reds = parse_tiles(text, allow_red, allow_honors)
    if counts.sum() != 1:
        raise TileError(f"expected one tile, got {text!r}")
    kind = int(np.argmax(counts))
    return kind, bool(reds.sum())


def format_tiles(counts, reds=None) -> str:
    """Format a count array (and optional red counts) as a compact `mpsz` string, suits in m p s z order."""
    out = []
    for suit in range(4):
        digits = []
        for rank in range(9 if suit < 3 else 7):
            n = int(counts[suit * 9 + rank])
            if suit < 3 and rank == FIVE_OFFSET and reds is not None:
                n_red = min(int(reds[suit]), n)
                digits += ["0"] * n_red
                n -= n_red
            digits += [str(rank + 1)] * n
        if digits:
            out.append("".join(sorted(digits, key=lambda d: (5 if d == "0" else int(d), d != "0"))) + SUITS[suit])
    return "".join(out)


@dataclass(frozen=True)
class Meld:
    """A declared meld: its type (CHI, PON, MINKAN, ANKAN, KAKAN), its tile counts, and its red fives."""

    kind: int
    counts: np.ndarray
    reds: np.ndarray

    @property
    def tile(self) -> int:
        """Lowest tile kind in the meld (the triplet's kind, or a sequence's first tile)."""
        return int(np.nonzero(self.counts)[0][0])

    @property
    def is_kan(self) -> bool:
        return self.kind in (MINKAN, ANKAN, KAKAN)

    @property
    def is_open(self) -> bool:
        return self.kind != ANKAN


def parse_meld(text: str, allow_red: bool = True, allow_honors: bool = True, allow_chi: bool = True) -> Meld:
    """Parse a meld written as ``"<word> <tiles>"``: ``pon 555p``, ``kan 5555p`` (open kan off a discard),
    ``ankan 5555p``, ``kakan 5555p`` (added kan) or ``chi 345m``."""
    parts = text.split()
    if len(parts) != 2 or parts[0].lower() not in MELD_WORDS:
        raise TileError(f"bad meld {text!r}: write it as '<{'|'.join(MELD_WORDS)}> <tiles>', e.g. 'pon 555p'")
    kind = MELD_WORDS[parts[0].lower()]
    counts, reds = parse_tiles(parts[1], allow_red, allow_honors)
    n = int(counts.sum())
    nz = np.nonzero(counts)[0]
    if kind == CHI:
        if not allow_chi:
            raise TileError(f"chi {parts[1]!r}: this mode has no chi")
        ok = n == 3 and nz.size == 3 and nz[0] < N_SUITED and nz[2] - nz[0] == 2 and nz[0] // 9 == nz[2] // 9
    else:
        ok = nz.size == 1 and n == (3 if kind == PON else 4)
    if not ok:
        raise TileError(f"bad meld {text!r}: {parts[1]!r} is not a {parts[0].lower()}")
    return Meld(kind, counts, reds)
