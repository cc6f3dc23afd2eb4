"""Four seats as the engines take them: hook tuples in the engine's call order and a parameter array.

A seat is any object (policies.registry.SeatPolicy) with `hooks(family)`, its compiled hooks in the order of
sims.decisions.HOOK_NAMES (family "bloodshed") or RIICHI_HOOK_NAMES (family "riichi"), and `param_values()`,
its parameters in declared order. The engines so never import the policies that play them.
"""

from __future__ import annotations

import numpy as np

from tsumolab.sims.decisions import MAX_PARAMS


def seat_hooks(seats, family: str = "bloodshed"):
    """(hook tuples in hook-name order, each of four seats; params float64[4, MAX_PARAMS])."""
    per_seat = [seat.hooks(family) for seat in seats]
    params = np.zeros((4, MAX_PARAMS), np.float64)
    for i, seat in enumerate(seats):
        values = seat.param_values()
        params[i, :len(values)] = values
    return tuple(zip(*per_seat)), params
