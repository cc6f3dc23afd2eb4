"""Matches with a `search` seat (policies.search): the engine is stopped at every decision, the searching
seats' decisions of the searched kinds are answered by paired rollouts, and play resumes with that answer
forced.

`simulate(mode, root_seed, match_ids, seats, rules, counters)` plays like `mode.simulate` and returns the
same (hand_rows, match_rows); seats without a driven policy go straight to `mode.simulate`. A search seat
plays its base policy's hooks, and a forced answer still consults them (sims.bloodshed.resume,
sims.riichi.positions), so the records are exactly those the kernel writes when the seat gives those answers:
a search that always keeps the base's answer reproduces the base's run row for row. The match loop around
the kernel's hand loop (records per hand, next dealer, the end of the match) is the one of
sims.bloodshed.engine.play_matches and sims.riichi.engine.play_matches, run from Python.

The rollouts of a decision are determinizations 0 … rollouts-1 under the seed keyed by (root seed, match id,
hand number, decision number), so results depend only on the seed and the match ids (not on --jobs or chunks).

Bloodshed stops at the start of the phase that asks a decision (sims.bloodshed.state) and forces one answer
per phase: when two search seats both leave their base's answer in one phase (the exchange, the void choice,
or the reactions to one discard, all answered without seeing each other), the first in turn order keeps its
searched answer and the other plays its base answer (counted in `SearchStats.collisions`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from policies.registry import SeatPolicy, check_mode, get, parse_seat
from policies.search import player
from sims.decisions import D_EXCHANGE, D_REACT, D_ROB, D_TURN, D_VOID

STREAM_SEARCH = 211  # keyed (root seed, match id, hand number · 2^16 + decision number, STREAM_SEARCH)
HOOK_ROW = {D_EXCHANGE: 0, D_VOID: 1, D_TURN: 2, D_REACT: 3, D_ROB: 4}  # Bloodshed hook tuple per decision
RIICHI_HOOK_ROW = {D_EXCHANGE: 0, D_TURN: 1, D_REACT: 2, D_ROB: 3}


def driven(seats) -> bool:
    """Some seat's policy decides outside its hooks, so its matches need this driver."""
    return any(get(seat.name).driven for seat in seats)


def simulate(mode, root_seed: int, match_ids, seats, rules=None, counters=None, stats: SearchStats | None = None):
    """(hand_rows, match_rows) of the matches, as `mode.simulate` lays them out; `stats` counts the searches."""
    if not driven(seats):
        return mode.simulate(root_seed, match_ids, seats, rules, counters)
    check_mode(seats, mode.SLUG)
    match_ids = np.ascontiguousarray(match_ids, dtype=np.int64)
    table = Table(mode.SLUG, seats, rules or mode.RULES(), stats if stats is not None else SearchStats())
    if mode.SLUG == "bloodshed":
        from analyzer.search_bloodshed import play_matches
    else:
        from analyzer.search_riichi import play_matches
    return play_matches(table, int(root_seed) & 0x7FFF_FFFF_FFFF_FFFF, match_ids, counters)


def warm_up(mode, seats) -> None:
    """Compile (or load) what a chunk with these seats runs, before workers fan out."""
    if not driven(seats):
        mode.warm_up(seats)
        return
    simulate(mode, 0, np.zeros(1, np.int64), [_cheap(seat) for seat in seats])


def _cheap(seat: SeatPolicy) -> SeatPolicy:
    return SeatPolicy(seat.name, {**seat.params, "rollouts": 2}) if get(seat.name).driven else seat


@dataclass
class Searcher:
    """One search seat's settings."""

    seat: int
    rollouts: int
    kinds: int
    top_k: int
    z: float
    rollout_policy: str

    @classmethod
    def of(cls, index: int, seat: SeatPolicy) -> Searcher:
        p = seat.params
        if int(p["rollouts"]) < 2:
            raise ValueError(f"search: rollouts must be at least 2, got {p['rollouts']}")
        return cls(index, int(p["rollouts"]), int(p["kinds"]), int(p["top_k"]), float(p["z"]),
                   player(p["rollout"], "rollout"))


@dataclass
class SearchStats:
    searched: int = 0
    """decisions rolled out"""
    changed: int = 0
    """of them, answered otherwise than the base policy"""
    rollouts: int = 0
    """hands played out (options × determinizations)"""
    collisions: int = 0
    """Bloodshed: searched answers dropped because another seat's answer was forced in the same phase"""

    def record(self, options: list[int], values: np.ndarray, best: int):
        """Count one searched decision; its answer, or None when the base's (option 0) stands."""
        self.searched += 1
        self.rollouts += values.size
        if best == 0:
            return None
        self.changed += 1
        return options[best]


@dataclass
class Table:
    """The mode's rules and the seats as the engine plays them: search seats replaced by their base, and the
    rollout seatings (four seats of one rollout policy each)."""

    slug: str
    seats: list
    rules: object
    searchers: dict = field(init=False)
    played: list = field(init=False)
    rollout_seats: dict = field(init=False)
    stats: SearchStats = field(default_factory=SearchStats)

    def __post_init__(self):
        self.searchers, self.played = {}, []
        for i, seat in enumerate(self.seats):
            if get(seat.name).driven:
                self.searchers[i] = Searcher.of(i, seat)
                self.played.append(parse_seat(player(seat.params["base"], "base")))
            else:
                self.played.append(seat)
        check_mode(self.played, self.slug)
        self.rollout_seats = {}
        for s in self.searchers.values():
            seating = [parse_seat(s.rollout_policy)] * 4
            check_mode(seating, self.slug)
            self.rollout_seats[s.rollout_policy] = seating


def decision_seed(root_seed: int, match_id: int, hand_no: int, decision: int) -> int:
    from sims.rng import key_seed

    return int(key_seed(root_seed, int(match_id), (int(hand_no) << 16) + int(decision), STREAM_SEARCH) >> 1)


def choose(values: np.ndarray, z: float) -> int:
    """Index of the option to play: the best mean, if it beats option 0 (the base's answer) by more than z
    paired standard errors; else 0 (always for z = inf). Ties go to the earlier option."""
    if math.isinf(z):
        return 0
    means = values.mean(axis=1)
    best = int(np.argmax(means))
    if best == 0:
        return 0
    d = values[best] - values[0]
    se = d.std(ddof=1) / math.sqrt(d.size)
    return best if d.mean() > z * se else 0


def direct(kernel):
    """The compiled entry of a kernel with one explicit signature, skipping the dispatcher's typing of the
    policy hooks on every call (see sims.riichi.positions)."""
    from sims.riichi.positions import _direct

    return _direct(kernel)
