"""What determines a run's dataset: the RunSpec (mode, seats, matches, seed, rule options, chunk size).

A RunSpec holds typed objects (the mode's row, four SeatPolicy, the mode's rules dataclass) from the command line to
the workers. It is written as JSON into run.json and every chunk's metadata (`to_dict`) and read back by one
function, `RunSpec.from_record`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np

from tsumolab.policies.registry import SeatPolicy
from tsumolab.sims.modes import Mode, get_mode

DEFAULT_CHUNK_SIZE = 1000
MAX_SEED = 2**63 - 1
_STORED = {"variant": str, "seats": list, "matches": int, "seed": int, "rules": dict, "chunk_size": int}


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's dataset (and its file layout)."""

    mode: Mode
    seats: tuple[SeatPolicy, ...]
    matches: int
    seed: int
    rules: object
    """the mode's rules dataclass (`mode.rules_class`), every option set"""
    chunk_size: int = DEFAULT_CHUNK_SIZE

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        if len(self.seats) != 4 or not all(isinstance(s, SeatPolicy) for s in self.seats):
            raise ValueError(f"a run needs 4 seat policies, got {self.seats!r}")
        if not isinstance(self.rules, self.mode.rules_class):
            raise ValueError(f"the rules of {self.mode.slug} are a {self.mode.rules_class.__name__}, "
                             f"not a {type(self.rules).__name__}")
        if self.matches < 1:
            raise ValueError(f"matches must be at least 1, got {self.matches}")
        if self.chunk_size < 1:
            raise ValueError(f"chunk size must be at least 1, got {self.chunk_size}")
        if not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"seed must be in 0..{MAX_SEED}, got {self.seed}")

    @property
    def variant(self) -> str:
        return self.mode.slug

    @property
    def labels(self) -> tuple[str, ...]:
        """The seats' policy labels (`name` or `name(key=value,…)`), as the tables and run.json show them."""
        return tuple(seat.label for seat in self.seats)

    @property
    def n_chunks(self) -> int:
        return math.ceil(self.matches / self.chunk_size)

    def chunk_match_ids(self, index: int) -> np.ndarray:
        lo = index * self.chunk_size
        return np.arange(lo, min(lo + self.chunk_size, self.matches), dtype=np.int64)

    def to_dict(self) -> dict:
        """JSON-ready form; equal dicts mean the same dataset."""
        return json.loads(json.dumps({"variant": self.variant, "seats": list(self.labels), "matches": self.matches,
                                      "seed": self.seed, "rules": self.rules.as_dict(),
                                      "chunk_size": self.chunk_size}, sort_keys=True))

    @classmethod
    def from_record(cls, values: object) -> "RunSpec":
        """The spec stored by `to_dict` (run.json, a chunk's or a claims table's metadata), checked field by field;
        ValueError names what is wrong. Seat labels are read without the policy registry, so a run of a user's
        policy file reads back without that file."""
        if not isinstance(values, dict):
            raise ValueError("its spec is not an object")
        if set(values) != set(_STORED):
            raise ValueError(f"its spec has the keys {sorted(values)}, not {sorted(_STORED)}")
        for key, kind in _STORED.items():
            if not isinstance(values[key], kind) or isinstance(values[key], bool):
                raise ValueError(f"its spec's {key} is not a {kind.__name__}")
        if not all(isinstance(s, str) for s in values["seats"]):
            raise ValueError("its spec's seats are not policy labels")
        mode = get_mode(values["variant"])
        seats = tuple(SeatPolicy.from_label(label) for label in values["seats"])
        return cls(mode=mode, seats=seats, matches=values["matches"], seed=values["seed"],
                   rules=mode.rules_class.from_dict(values["rules"]), chunk_size=values["chunk_size"])
