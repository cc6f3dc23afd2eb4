"""What a ready riichi-family hand wins, scored by the engine's own scorer (sims.riichi.scoring) on each of its
winning tiles: a ron's points with or without riichi, 0 on a wait without a yaku (an open hand that cannot win
there, a closed one that must riichi or tsumo). Ura dora are unknown (none counted); red fives in melds are not
in the observation (only the concealed ones count). The rule options are Mahjong Soul's ranked defaults: a
policy does not see a mode's options. Every function is jit-compiled.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.policies.riichi_api import ROBS
from tsumolab.policies.riichi_common import unseen
from tsumolab.sims.riichi.scoring import (
    CTX_DEALER, CTX_DORA, CTX_N_DORA, CTX_RED, CTX_RIICHI, CTX_ROUND_WIND, CTX_SEAT_WIND, CTX_WIN, N_CTX, N_RES,
    RES_TOTAL, SCORED, score_hand,
)
from tsumolab.sims.riichi.scoring_rules import ScoringRules

SCORING_OPTIONS = ScoringRules().to_array()


@nb.njit(cache=True)
def ron_score(obs, hand, win, riichi, out):
    """Score a ron on kind `win` for the seat's concealed `hand` (13 − 3 × melds tiles) into `out` (N_RES; zeros
    without a yaku); returns the scorer's status."""
    seat = obs[ROBS.seat]
    conc = np.zeros(34, np.int8)
    for k in range(34):
        conc[k] = hand[k]
    conc[win] += 1
    melds = np.zeros((4, 2), np.int8)
    n_melds = obs[ROBS.n_melds + seat]
    for i in range(n_melds):
        melds[i, 0] = obs[ROBS.melds + 8 * seat + 2 * i] - 1
        melds[i, 1] = obs[ROBS.melds + 8 * seat + 2 * i + 1]
    ctx = np.zeros(N_CTX, np.int64)
    ctx[CTX_WIN] = win
    ctx[CTX_SEAT_WIND] = obs[ROBS.seat_wind]
    ctx[CTX_ROUND_WIND] = obs[ROBS.round_wind]
    ctx[CTX_DEALER] = 1 if seat == obs[ROBS.dealer] else 0
    ctx[CTX_RIICHI] = riichi
    ctx[CTX_RED] = obs[ROBS.red] + obs[ROBS.red + 1] + obs[ROBS.red + 2]
    ctx[CTX_N_DORA] = obs[ROBS.n_dora]
    for i in range(obs[ROBS.n_dora]):
        ctx[CTX_DORA + i] = obs[ROBS.dora + i]
    # a writable copy: numba types a global array as read-only, and score_hand compiled for a read-only argument
    # would be a second copy of the whole scorer
    return score_hand(conc, melds, n_melds, ctx, SCORING_OPTIONS.copy(), out)


@nb.njit(cache=True)
def ready_value(obs, hand, waits, riichi):
    """(mean ron points over the live winning tiles, 0 for those without a yaku; live winning tiles with a yaku;
    live winning tiles) of the ready concealed `hand` with winning kinds `waits` (riichi: 0 dama, 1 riichi)."""
    left = unseen(obs)
    out = np.zeros(N_RES, np.int64)
    total, live, with_yaku = 0, 0, 0
    for w in range(34):
        if not waits[w] or left[w] == 0:
            continue
        live += left[w]
        if ron_score(obs, hand, w, riichi, out) == SCORED:
            total += out[RES_TOTAL] * left[w]
            with_yaku += left[w]
    return (total // live if live > 0 else 0), with_yaku, live
