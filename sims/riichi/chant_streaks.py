"""`chant` 咏唱之战 (RULES.md C): runs of tsumogiri and hand discards and their bonus han, as jit-compiled helpers
the riichi engine calls when the rule option `chant` is on.

`streaks[seat]` holds (current tsumogiri run, longest tsumogiri run, current hand-discard run, longest
hand-discard run) over the seat's discards of this hand, and `streaks[UNDO]` the last discarder's four counters
before its discard; obs[ROBS.chant + 2 * seat] (public) the two current runs.

Rule C leaves open whether a discard another player calls (chi, pon, open kan) still counts in its discarder's
runs: the rule option `count_called` (on by default) says it does; off, the called discard leaves the runs as if
it had not been made (the runs on either side of it join), as the community re-implementation records them.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.bonus_han import add_han
from tsumolab.sims.riichi.scoring import RES_YAKUMAN
from tsumolab.sims.table_state import pub_set

TSUMOGIRI_RUNS = np.array([3, 5, 7, 9, 12], np.int64)  # C: run length thresholds …
TSUMOGIRI_HAN = np.array([1, 2, 3, 5, 12], np.int64)   # … and their bonus han
HAND_RUNS = np.array([3, 6, 9, 12, 18], np.int64)
HAND_HAN = np.array([1, 2, 3, 5, 12], np.int64)
S_TSUMOGIRI, S_TSUMOGIRI_MAX, S_HAND, S_HAND_MAX = 0, 1, 2, 3
UNDO = 4  # row of `streaks` with the last discarder's counters before its discard
CHANT_OFF, CHANT_COUNT_CALLED, CHANT_DROP_CALLED = 0, 1, 2  # topts[T_CHANT]


def pack_options(table) -> int:
    """C's table slot from the rules dataclass (sims.riichi.rules): off, on with called discards counted, on
    with called discards dropped from the runs."""
    if not table.chant:
        return CHANT_OFF
    return CHANT_COUNT_CALLED if table.count_called else CHANT_DROP_CALLED


@nb.njit(cache=True)
def run_bonus(run, runs, han):
    """Bonus han of the highest threshold `run` reaches (0 below the first)."""
    out = 0
    for i in range(runs.size):
        if run >= runs[i]:
            out = han[i]
    return out


@nb.njit(cache=True)
def chant_bonus(streaks, seat):
    """C: bonus han of the seat's longest tsumogiri run plus that of its longest hand-discard run."""
    return run_bonus(streaks[seat, S_TSUMOGIRI_MAX], TSUMOGIRI_RUNS, TSUMOGIRI_HAN) + \
        run_bonus(streaks[seat, S_HAND_MAX], HAND_RUNS, HAND_HAN)


@nb.njit(cache=True)
def chant_discard(obs, streaks, seat, tsumogiri):
    """A discard extends one run and breaks the other (the counters before it are kept in row UNDO)."""
    for i in range(4):
        streaks[UNDO, i] = streaks[seat, i]
    if tsumogiri:
        streaks[seat, S_TSUMOGIRI] += 1
        streaks[seat, S_HAND] = 0
        streaks[seat, S_TSUMOGIRI_MAX] = max(streaks[seat, S_TSUMOGIRI_MAX], streaks[seat, S_TSUMOGIRI])
    else:
        streaks[seat, S_HAND] += 1
        streaks[seat, S_TSUMOGIRI] = 0
        streaks[seat, S_HAND_MAX] = max(streaks[seat, S_HAND_MAX], streaks[seat, S_HAND])
    _publish(obs, streaks, seat)


@nb.njit(cache=True)
def chant_called(obs, streaks, seat, option):
    """The seat's last discard was called: with called discards dropped (`option` CHANT_DROP_CALLED) its runs
    go back to what they were before that discard."""
    if option == CHANT_DROP_CALLED:
        for i in range(4):
            streaks[seat, i] = streaks[UNDO, i]
        _publish(obs, streaks, seat)


@nb.njit(cache=True)
def _publish(obs, streaks, seat):
    pub_set(obs, ROBS.chant + 2 * seat, streaks[seat, S_TSUMOGIRI])
    pub_set(obs, ROBS.chant + 2 * seat + 1, streaks[seat, S_HAND])


@nb.njit(cache=True)
def chant_apply(res, bonus, dealer, tsumo, sopts):
    """C: add the bonus han to a scored non-yakuman win and reprice it (R-3 limits, kazoe at 13+)."""
    if bonus == 0 or res[RES_YAKUMAN] > 0:
        return
    add_han(res, bonus, dealer, tsumo, sopts)
