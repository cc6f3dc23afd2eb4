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

import numpy as np

from tsumolab.analyzer.engines import tools_for
from tsumolab.analyzer.search.table import SearchStats, SearchTable
from tsumolab.policies.registry import SeatPolicy, check_mode, get


def driven(seats) -> bool:
    """Some seat's policy decides outside its hooks, so its matches need this driver."""
    return any(get(seat.name).driven for seat in seats)


def simulate(mode, root_seed: int, match_ids, seats, rules=None, counters=None, stats: SearchStats | None = None):
    """(hand_rows, match_rows) of the matches, as `mode.simulate` lays them out; `stats` counts the searches."""
    if not driven(seats):
        return mode.simulate(root_seed, match_ids, seats, rules, counters)
    check_mode(seats, mode.slug)
    match_ids = np.ascontiguousarray(match_ids, dtype=np.int64)
    table = SearchTable(mode.slug, seats, rules or mode.rules_class(), stats if stats is not None else SearchStats())
    return tools_for(mode).search_matches(table, int(root_seed) & 0x7FFF_FFFF_FFFF_FFFF, match_ids, counters)


def warm_up(mode, seats) -> None:
    """Compile (or load) what a chunk with these seats runs, before workers fan out."""
    if not driven(seats):
        mode.warm_up(seats)
        return
    simulate(mode, 0, np.zeros(1, np.int64), [_cheap(seat) for seat in seats])


def _cheap(seat: SeatPolicy) -> SeatPolicy:
    return SeatPolicy(seat.name, {**seat.params, "rollouts": 2}) if get(seat.name).driven else seat
