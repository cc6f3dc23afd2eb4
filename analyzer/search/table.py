"""What analyzer.search.play's match loops share: the seats of a table with `search` seats (SearchTable), each
searching seat's settings (Searcher), the counts of a run's searches (SearchStats), the key of a decision's
rollouts and the rule that picks the answer from them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from tsumolab.policies.registry import SeatPolicy, check_mode, get, parse_seat
from tsumolab.policies.search import player
from tsumolab.sims.decisions import (
    D_DARK_LOCK, D_DARK_OPEN, D_EXCHANGE, D_PICK, D_REACT, D_ROB, D_TURN, D_VOID,
)

STREAM_SEARCH = 211  # keyed (root seed, match id, hand number · 2^16 + decision number, STREAM_SEARCH)
HOOK_ROW = {D_EXCHANGE: 0, D_VOID: 1, D_TURN: 2, D_REACT: 3, D_ROB: 4}  # Bloodshed hook tuple per decision
RIICHI_HOOK_ROW = {D_EXCHANGE: 0, D_TURN: 1, D_REACT: 2, D_ROB: 3, D_PICK: 4, D_DARK_OPEN: 4, D_DARK_LOCK: 4}
"""riichi engine's hook tuple per decision (sims.decisions.RIICHI_HOOK_NAMES: the modes' own decisions go to
`mode`)"""


@dataclass
class Searcher:
    """One search seat's settings."""

    seat: int
    rollouts: int
    kinds: int
    top_k: int
    z: float
    rollout_policy: str
    deal: int = 0
    """Bloodshed: 0 = the other hands dealt by the baseline field's progress table, 1 = uniformly"""

    @classmethod
    def of(cls, index: int, seat: SeatPolicy) -> Searcher:
        p = seat.params
        if int(p["rollouts"]) < 2:
            raise ValueError(f"search: rollouts must be at least 2, got {p['rollouts']}")
        if p["deal"] not in (0, 1):
            raise ValueError(f"search: deal must be 0 (progress) or 1 (uniform), got {p['deal']:g}")
        return cls(index, int(p["rollouts"]), int(p["kinds"]), int(p["top_k"]), float(p["z"]),
                   player(p["rollout"], "rollout"), int(p["deal"]))


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
    by_decision: dict = field(default_factory=dict)
    """decision kind (sims.decisions D_*) → [searched, changed] of that kind"""

    def record(self, decision: int, options: list[int], values: np.ndarray, best: int):
        """Count one searched decision of kind `decision`; its answer, or None when the base's (option 0)
        stands."""
        self.searched += 1
        self.rollouts += values.size
        counts = self.by_decision.setdefault(int(decision), [0, 0])
        counts[0] += 1
        if best == 0:
            return None
        self.changed += 1
        counts[1] += 1
        return options[best]


@dataclass
class SearchTable:
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
    from tsumolab.sims.rng import key_seed

    return int(key_seed(root_seed, int(match_id), (int(hand_no) << 16) + int(decision), STREAM_SEARCH) >> 1)


def rollout_arrays(n_options: int, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (values, ranks, outcomes) arrays a paired-rollout kernel fills for `n_options` × `count` rollouts."""
    return (np.zeros((n_options, count), np.float64), np.zeros((n_options, count), np.int32),
            np.zeros((n_options, count), np.int32))


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
    from tsumolab.sims.riichi.positions import _direct

    return _direct(kernel)
