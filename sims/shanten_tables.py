"""Per-suit lookup tables for shanten: tiles missing to reach m sets and p pairs, for every suit hand.

A suit hand is 9 counts (0..4) indexed by ``sum(h[i] * 5**i)``; an honor hand is 7 counts, same base.
Column ``2*m + p`` of a row holds D[h, m, p] = the minimum number of tiles to add to h so that it
contains m sets (sequences or triplets; triplets only for honors) and p pairs, never using a 5th copy.

The tables (uint8, shapes (5**9, 10) and (5**7, 10)) are built by two compiled passes and cached on disk
in ``$XDG_CACHE_HOME/tsumolab`` (or ``~/.cache/tsumolab``); ``get_tables()`` loads them once per process.
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np
from numba import njit

SUIT_KINDS = 9
HONOR_KINDS = 7
MAX_SETS = 4
N_TARGETS = 2 * (MAX_SETS + 1)  # column 2*m + p, m = 0..4 sets, p = 0..1 pair
SUIT_ROWS = 5**SUIT_KINDS
HONOR_ROWS = 5**HONOR_KINDS
TABLE_DTYPE = np.uint8
CACHE_FILE = "shanten_tables_v1.npz"

_ALL_TARGETS = (1 << N_TARGETS) - 1
_NO_PAIR_TARGETS = 0b0101010101  # bits of the columns with p = 0


@njit(cache=True)
def _containment_masks(n_kinds, sequences):
    """Bit 2*m+p of mask[h] is set iff hand h contains m sets and p pairs (jit-compiled).

    Removing one set (or the pair) of a contained target leaves a smaller hand that contains the rest,
    and a smaller hand has a smaller index, so one increasing pass suffices.
    """
    n_rows = 5**n_kinds
    masks = np.zeros(n_rows, np.uint16)
    pow5 = np.empty(n_kinds, np.int64)
    pow5[0] = 1
    for i in range(1, n_kinds):
        pow5[i] = pow5[i - 1] * 5
    digits = np.zeros(n_kinds, np.int64)
    for h in range(n_rows):
        rest = h
        for i in range(n_kinds):
            digits[i] = rest % 5
            rest //= 5
        mask = 1  # zero sets, no pair
        for i in range(n_kinds):
            if digits[i] >= 3:
                mask |= (masks[h - 3 * pow5[i]] << 2) & _ALL_TARGETS
            if digits[i] >= 2:
                mask |= (masks[h - 2 * pow5[i]] & _NO_PAIR_TARGETS) << 1
            if sequences and i + 2 < n_kinds and digits[i] >= 1 and digits[i + 1] >= 1 and digits[i + 2] >= 1:
                mask |= (masks[h - pow5[i] - pow5[i + 1] - pow5[i + 2]] << 2) & _ALL_TARGETS
        masks[h] = mask
    return masks


@njit(cache=True)
def _missing_tiles(masks, n_kinds):
    """D[h, t] = 0 if h contains target t, else 1 + min over kinds i with h_i < 4 of D[h + e_i, t] (jit-compiled).

    Adding a kind the target needs more of lowers the deficit by exactly one, so the recursion is exact;
    h + e_i has a larger index, so one decreasing pass suffices. The all-fours hand contains every target.
    """
    n_rows = 5**n_kinds
    table = np.zeros((n_rows, N_TARGETS), np.uint8)
    pow5 = np.empty(n_kinds, np.int64)
    pow5[0] = 1
    for i in range(1, n_kinds):
        pow5[i] = pow5[i - 1] * 5
    best = np.empty(N_TARGETS, np.int64)
    for h in range(n_rows - 1, -1, -1):
        mask = masks[h]
        if mask == _ALL_TARGETS:
            continue
        for t in range(N_TARGETS):
            best[t] = 255
        rest = h
        for i in range(n_kinds):
            if rest % 5 < 4:
                above = h + pow5[i]
                for t in range(N_TARGETS):
                    d = np.int64(table[above, t])
                    if d < best[t]:
                        best[t] = d
            rest //= 5
        for t in range(N_TARGETS):
            if not (mask >> t) & 1:
                table[h, t] = best[t] + 1
    return table


def build_tables() -> tuple[np.ndarray, np.ndarray]:
    """Build (suit_table, honor_table) from scratch; no disk access."""
    suit = _missing_tiles(_containment_masks(SUIT_KINDS, True), SUIT_KINDS)
    honor = _missing_tiles(_containment_masks(HONOR_KINDS, False), HONOR_KINDS)
    return suit, honor


def cache_dir() -> Path:
    """The user's cache directory for tsumolab: ``$XDG_CACHE_HOME/tsumolab`` or ``~/.cache/tsumolab``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tsumolab"


def _empty_hand_row() -> np.ndarray:
    # The empty hand misses every tile of its target: 3 per set, 2 for the pair.
    return np.array([3 * m + 2 * p for m in range(MAX_SETS + 1) for p in range(2)], TABLE_DTYPE)


def _valid(table: np.ndarray, n_rows: int) -> bool:
    return (
        isinstance(table, np.ndarray)
        and table.dtype == TABLE_DTYPE
        and table.shape == (n_rows, N_TARGETS)
        and np.array_equal(table[0], _empty_hand_row())
        and not table[-1].any()
    )


def _read_cache(path: Path) -> tuple[np.ndarray, np.ndarray] | None:
    """Tables from a cache file, or None if it is missing, unreadable or of the wrong shape/dtype/content."""
    try:
        with np.load(path, allow_pickle=False) as data:  # zip members are CRC-checked on read
            suit, honor = data["suit"], data["honor"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if not (_valid(suit, SUIT_ROWS) and _valid(honor, HONOR_ROWS)):
        return None
    return suit, honor


def _write_cache(path: Path, suit: np.ndarray, honor: np.ndarray) -> None:
    """Write atomically (temp file in the same directory, then os.replace); silently skip if not writable."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            np.savez(handle, suit=suit, honor=honor)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def load_or_build_tables(directory: Path | str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Load the tables from the cache in `directory` (default: `cache_dir()`), rebuilding and rewriting
    the cache file when it is missing or corrupt."""
    path = Path(directory if directory is not None else cache_dir()) / CACHE_FILE
    cached = _read_cache(path)
    if cached is not None:
        return cached
    suit, honor = build_tables()
    _write_cache(path, suit, honor)
    return suit, honor


_TABLES: tuple[np.ndarray, np.ndarray] | None = None


def get_tables() -> tuple[np.ndarray, np.ndarray]:
    """(suit_table, honor_table), loaded (or built) once per process."""
    global _TABLES
    if _TABLES is None:
        _TABLES = load_or_build_tables()
    return _TABLES


def lookup_tables() -> np.ndarray:
    """Both tables as the one uint8 array the engines take (suit rows, then honor rows), built once per process."""
    global _LOOKUP
    if _LOOKUP is None:
        _LOOKUP = np.ascontiguousarray(np.concatenate(get_tables()))
    return _LOOKUP


_LOOKUP = None
