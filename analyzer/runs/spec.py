"""What determines a run's dataset: the RunSpec (mode, seats, matches, seed, rule options, chunk size)."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field

import numpy as np

DEFAULT_CHUNK_SIZE = 1000
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's dataset (and its file layout)."""

    variant: str
    seats: tuple[str, ...]
    matches: int
    seed: int
    rules: dict = field(default_factory=dict)
    """Full rule options of the variant, `RULES.as_dict()` (defaults included)."""
    chunk_size: int = DEFAULT_CHUNK_SIZE

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        if len(self.seats) != 4:
            raise ValueError(f"a run needs 4 seat labels, got {len(self.seats)}")
        if self.matches < 1:
            raise ValueError(f"matches must be at least 1, got {self.matches}")
        if self.chunk_size < 1:
            raise ValueError(f"chunk size must be at least 1, got {self.chunk_size}")
        if not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"seed must be in 0..{MAX_SEED}, got {self.seed}")

    @property
    def n_chunks(self) -> int:
        return math.ceil(self.matches / self.chunk_size)

    def chunk_match_ids(self, index: int) -> np.ndarray:
        lo = index * self.chunk_size
        return np.arange(lo, min(lo + self.chunk_size, self.matches), dtype=np.int64)

    def to_dict(self) -> dict:
        """JSON-ready form; equal dicts mean the same dataset."""
        return json.loads(json.dumps(asdict(self), sort_keys=True))

    @classmethod
    def from_dict(cls, values: dict) -> "RunSpec":
        return cls(**values)

    @classmethod
    def from_record(cls, values: object) -> "RunSpec":
        """The spec stored in a run record, checked field by field; ValueError names what is wrong."""
        if not isinstance(values, dict):
            raise ValueError("its spec is not an object")
        expected = {"variant": str, "seats": list, "matches": int, "seed": int, "rules": dict, "chunk_size": int}
        if set(values) != set(expected):
            raise ValueError(f"its spec has the keys {sorted(values)}, not {sorted(expected)}")
        for key, kind in expected.items():
            if not isinstance(values[key], kind) or isinstance(values[key], bool):
                raise ValueError(f"its spec's {key} is not a {kind.__name__}")
        if not all(isinstance(s, str) for s in values["seats"]):
            raise ValueError("its spec's seats are not policy labels")
        return cls.from_dict(values)
