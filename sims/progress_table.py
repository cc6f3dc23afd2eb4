"""Progress tables shared by the engine families' determinizations: counts of how far the field's hands have
come, by (wall bucket, meld bucket), turned into per-row cumulative distributions and sampled from.

A table of counts has shape (wall buckets, meld buckets, *outcome) and ships as package data, one file per mode
family, mode and field policy (sims.bloodshed.progress, sims.riichi.progress)."""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.sims import rng


def cumulative(counts: np.ndarray) -> np.ndarray:
    """Per (wall, meld) row the cumulative distribution over the outcomes flattened (float64[W, M, outcomes]);
    an empty row borrows the nearest non-empty meld row of its wall bucket, then the nearest wall bucket."""
    n_wall, n_meld = counts.shape[:2]
    flat = counts.reshape(n_wall, n_meld, -1).astype(np.float64)
    filled = flat.copy()
    for w in range(n_wall):
        for m in range(n_meld):
            if flat[w, m].sum() > 0:
                continue
            near = sorted(((abs(m2 - m), abs(w2 - w)), w2, m2) for w2 in range(n_wall)
                          for m2 in range(n_meld) if flat[w2, m2].sum() > 0)
            if not near:
                raise ValueError("the progress table is empty")
            filled[w, m] = flat[near[0][1], near[0][2]]
    cum = np.cumsum(filled, axis=2)
    return np.ascontiguousarray(cum / cum[:, :, -1:])


@nb.njit(cache=True)
def draw_outcome(cum, w, m, state):
    """A flat outcome index drawn from row (w, m) of a `cumulative` table with the keyed stream `state`."""
    u = (rng.next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    row = cum[w, m]
    i = 0
    while i < row.size - 1 and row[i] <= u:
        i += 1
    return i


def load_counts(path, shape: tuple, build_hint: str) -> np.ndarray:
    """The counts in the package data file `path` (an importlib.resources path); ValueError naming how to build
    it if it is missing or has another shape."""
    if not path.is_file():
        raise ValueError(f"no progress table {path.name}; build it with {build_hint}")
    with path.open("rb") as f:
        counts = np.load(f)
    if counts.shape != shape:
        raise ValueError(f"{path.name}: shape {counts.shape}, expected {shape}")
    return counts
