"""Exhaustive-draw settlement of a bloodshed hand (RULES.md B-20 … B-23).

Order: 退税 refund (B-21), then 查花猪 (B-22), then 查大叫 (B-23). Won players take no part in B-22
and B-23, but B-21 refunds still go back to payers who have won since.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tsumolab.sims.bloodshed.rules import FLOWER_PIG_MIN
from tsumolab.sims.bloodshed.scoring import has_void_tile, max_ron_value

# rows of the breakdown output
ROW_REFUND = 0   # B-21
ROW_PIG = 1      # B-22
ROW_DAJIAO = 2   # B-23
N_ROWS = 3


@njit(cache=True)
def settle_exhaustive_draw(concealed, meld_type, void, won, kan_ledger, rules,
                           deltas_out, tenpai_out, pig_out, max_value_out, breakdown_out):
    """Settle an exhaustive draw (B-20 … B-23); jit-compiled. Fills every output, returns nothing.

    Inputs: concealed int8[4, 34] and meld_type int8[4, 34] (see sims.bloodshed.scoring), void int[4]
    (declared void suit 0 m, 1 p, 2 s), won bool[4], kan_ledger int[4, 4] with kan_ledger[r, p] = kan
    income receiver r got from payer p this hand, rules = BloodshedRules.to_array().
    Outputs: deltas_out int64[4] net points per seat; tenpai_out bool[4] and pig_out bool[4] (False
    for won players); max_value_out int64[4] (B-20 max ron value if tenpai, else 0); breakdown_out
    int64[3, 4] net points per seat of the refund (row ROW_REFUND), 查花猪 (ROW_PIG) and 查大叫
    (ROW_DAJIAO); deltas_out is their column sum.
    """
    for seat in range(4):
        tenpai_out[seat] = False
        pig_out[seat] = False
        max_value_out[seat] = 0
        deltas_out[seat] = 0
        for row in range(N_ROWS):
            breakdown_out[row, seat] = 0
        if won[seat]:
            continue
        if has_void_tile(concealed[seat], meld_type[seat], void[seat]):
            pig_out[seat] = True  # a hand holding a void tile is never tenpai (B-20)
            continue
        value = max_ron_value(concealed[seat], meld_type[seat], rules)
        if value > 0:
            tenpai_out[seat] = True
            max_value_out[seat] = value

    # B-21: every non-won, non-tenpai player returns all kan income, even to payers who have won since.
    for receiver in range(4):
        if won[receiver] or tenpai_out[receiver]:
            continue
        for payer in range(4):
            amount = kan_ledger[receiver, payer]
            if payer == receiver or amount == 0:
                continue
            breakdown_out[ROW_REFUND, receiver] -= amount
            breakdown_out[ROW_REFUND, payer] += amount

    # B-22: every flower pig pays every other non-won player max(8000, that player's max value).
    for pig in range(4):
        if not pig_out[pig]:
            continue
        for other in range(4):
            if other == pig or won[other]:
                continue
            amount = max(FLOWER_PIG_MIN, max_value_out[other])
            breakdown_out[ROW_PIG, pig] -= amount
            breakdown_out[ROW_PIG, other] += amount

    # B-23: every non-tenpai non-won non-pig pays every tenpai player that player's max value.
    for payer in range(4):
        if won[payer] or tenpai_out[payer] or pig_out[payer]:
            continue
        for receiver in range(4):
            if not tenpai_out[receiver]:
                continue
            amount = max_value_out[receiver]
            breakdown_out[ROW_DAJIAO, payer] -= amount
            breakdown_out[ROW_DAJIAO, receiver] += amount

    for seat in range(4):
        deltas_out[seat] = breakdown_out[ROW_REFUND, seat] + breakdown_out[ROW_PIG, seat] \
            + breakdown_out[ROW_DAJIAO, seat]


def new_outputs() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Fresh (deltas_out, tenpai_out, pig_out, max_value_out, breakdown_out) for settle_exhaustive_draw."""
    return (np.zeros(4, np.int64), np.zeros(4, np.bool_), np.zeros(4, np.bool_), np.zeros(4, np.int64),
            np.zeros((N_ROWS, 4), np.int64))
