"""PLACEHOLDER registry while the policy API is written: parses seat specs into SeatPolicy objects."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

KNOWN = ("baseline", "random", "majsoul-cpu", "disconnected")


@dataclass(frozen=True)
class SeatPolicy:
    name: str
    params: dict = field(default_factory=dict)

    @property
    def label(self) -> str:
        if not self.params:
            return self.name
        return f"{self.name}(" + ",".join(f"{k}={v}" for k, v in sorted(self.params.items())) + ")"


def parse_seats(spec: str, policy_paths=()) -> list[SeatPolicy]:
    """`"a,b(x=1),c,d"` or one name for all four seats → four SeatPolicy objects."""
    parts = [p.strip() for p in re.split(r",(?![^()]*\))", spec) if p.strip()]
    if len(parts) == 1:
        parts *= 4
    if len(parts) != 4:
        raise ValueError(f"--seats needs one policy or four, got {len(parts)}: {spec!r}")
    seats = []
    for part in parts:
        m = re.fullmatch(r"([\w-]+)(?:\((.*)\))?", part)
        if not m or m.group(1) not in KNOWN:
            raise ValueError(f"unknown policy {part!r}; known: {', '.join(KNOWN)}")
        params = dict(kv.split("=", 1) for kv in m.group(2).split(",")) if m.group(2) else {}
        seats.append(SeatPolicy(m.group(1), params))
    return seats
