"""Han a mode adds to a scored win (C's chant bonus, SS's riichi and overload han), repriced by the scorer."""

from __future__ import annotations

import numba as nb

from tsumolab.sims.riichi.scoring import (
    RES_BASE, RES_FU, RES_HAN, RES_LIMIT, RES_RECEIVED, RES_RON, RES_TOTAL, RES_TSUMO_DEALER, RES_TSUMO_OTHER,
    base_points, payments,
)


@nb.njit(cache=True)
def add_han(res, extra, dealer, tsumo, sopts):
    """Add `extra` han to the scored win in `res` and reprice it through base_points / payments (R-3 limits,
    kazoe at 13+); what the winner receives changes by the new total's difference. Jit-compiled."""
    res[RES_HAN] += extra
    base, limit = base_points(res[RES_HAN], res[RES_FU], 0, sopts)
    total, ron, tsumo_dealer, tsumo_other = payments(base, dealer, tsumo)
    res[RES_RECEIVED] += total - res[RES_TOTAL]
    res[RES_BASE] = base
    res[RES_LIMIT] = limit
    res[RES_TOTAL] = total
    res[RES_RON] = ron
    res[RES_TSUMO_DEALER] = tsumo_dealer
    res[RES_TSUMO_OTHER] = tsumo_other
