"""`chanter` for `chant` (RULES.md C): baseline riichi play that keeps its longer discard run alive (obs[ROBS.chant]:
current tsumogiri run, current hand-discard run) when that costs no shanten and
keeps three quarters of the baseline discard's acceptance: it discards the drawn tile to extend
a tsumogiri run, or another tile of the same shanten to extend a hand-discard run. Folds, riichi and wins as
baseline. In other riichi modes both runs read 0 and it plays baseline.
"""

import numba as nb
import numpy as np

from tsumolab.policies.api import hook
from tsumolab.policies.registry import Policy
from tsumolab.policies.riichi_api import RIICHI, ROBS, TSUMOGIRI
from tsumolab.policies.riichi_baseline import riichi_turn
from tsumolab.policies.riichi_common import (
    best_discard_shanten, discard_acceptance, hand_of, n_melds_of, threats, unseen,
)
from tsumolab.sims.shanten import RIICHI_SHAPES, discard_shanten
from tsumolab.sims.shanten_tables import SUIT_ROWS


@nb.njit(cache=True)
def acceptance(obs, tables, hand, k, target):
    """Unseen tiles that bring the hand below `target` shanten after discarding `k`."""
    return discard_acceptance(hand, k, n_melds_of(obs), target, unseen(obs), tables[:SUIT_ROWS], tables[SUIT_ROWS:],
                            np.empty(34, np.int64))


@nb.njit(cache=True)
def keeps_acceptance(obs, tables, hand, kind, alt, target):
    """The alternative discard keeps at least three quarters of the baseline discard's acceptance."""
    return 4 * acceptance(obs, tables, hand, alt, target) >= 3 * acceptance(obs, tables, hand, kind, target)


@nb.njit(cache=True)
def chant_discard_choice(obs, tables, kind):
    """`kind`, or a discard of the same shanten that extends the seat's longer current run (TSUMOGIRI for the
    drawn copy, so a drawn red five goes rather than a plain one held)."""
    seat = obs[ROBS.seat]
    drawn = obs[ROBS.tile]
    run_tsumogiri = obs[ROBS.chant + 2 * seat]
    run_hand = obs[ROBS.chant + 2 * seat + 1]
    if obs[ROBS.after_call] or drawn < 0 or (run_tsumogiri == 0 and run_hand == 0):
        return kind
    hand = hand_of(obs).copy()
    after = np.empty(34, np.int64)
    discard_shanten(hand, n_melds_of(obs), RIICHI_SHAPES, tables[:SUIT_ROWS], tables[SUIT_ROWS:], after)
    if run_tsumogiri >= run_hand:
        if kind == drawn or (after[drawn] == after[kind] and keeps_acceptance(obs, tables, hand, kind, drawn,
                                                                              after[kind])):
            return TSUMOGIRI
        return kind
    if kind != drawn:
        return kind
    for k in range(34):
        if hand[k] > 0 and k != drawn and after[k] == after[kind] and \
                keeps_acceptance(obs, tables, hand, kind, k, after[kind]):
            return k
    return kind


@hook
def chanter_turn(obs, params, tables):
    answer = riichi_turn(obs, tables, True, False)
    if obs[ROBS.riichi + obs[ROBS.seat]] > 0 or (threats(obs) != 0 and best_discard_shanten(obs, tables) >= 2):
        return answer
    if 0 <= answer < 34:
        return chant_discard_choice(obs, tables, answer)
    if RIICHI <= answer < RIICHI + 34:
        return RIICHI + chant_discard_choice(obs, tables, answer - RIICHI)
    return answer


POLICIES = [
    Policy(
        name="chanter",
        description="Baseline riichi play that keeps its longer discard run alive (chant bonus) when shanten ties (C).",
        hooks={},
        riichi_hooks={"turn": chanter_turn},
        modes=("chant",),
    ),
]
