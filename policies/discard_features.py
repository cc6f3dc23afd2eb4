"""What a strong player weighs when choosing a discard, as numbers: one row of FEATURES per kind the seat may
discard on its turn, read from the riichi observation (policies.riichi_api) with the building blocks of the
riichi policies. The discard prior (analyzer.prior) learns from these rows which tile people discard.

The rows are versioned (VERSION): a model is trained on one version and refuses another. Change VERSION with any
change to what a column means or to their order.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.policies.danger import discard_costs
from tsumolab.policies.riichi_api import ROBS
from tsumolab.policies.riichi_common import (
    discard_acceptance, forbidden_kinds, is_dora, is_yakuhai, isolation, live_waits_after, lowest_discard_shanten,
    n_melds_of, safety, threats, unseen,
)
from tsumolab.sims.shanten import NOT_APPLICABLE
from tsumolab.sims.shanten_tables import SUIT_ROWS

VERSION = 1
FEATURES = (
    # the discard
    "keeps the lowest shanten", "shanten given up (0-2)", "acceptance after / 20",
    "acceptance after / the best acceptance", "kinds accepted after / 10", "live winning tiles after / 8",
    "honor", "yakuhai", "terminal", "2 or 8", "3 to 7", "distance from the edge / 4",
    "one copy held", "two copies held", "three or more held", "copies visible / 4", "isolation / 8",
    "neighbour held (±1)", "neighbour held (±2)", "dora", "gives up a red five", "the tile just drawn",
    "a yakuhai pair broken", "share of the hand in its suit", "already in own river",
    "deal-in cost / 8000", "genbutsu against every threat", "suji or a visible honor", "other honor",
    "no safety against a threat",
    # the seat's situation (the same on every row)
    "threatened", "riichi threats", "best shanten 0", "best shanten 1", "best shanten 2",
    "best shanten 3 or more", "live wall / 70", "dealer", "open hand", "own discards / 18", "rank / 3",
    "points behind the leader / 20000", "safe kinds held against the threats / 5", "dora held (red fives too) / 4",
)
N_FEATURES = len(FEATURES)


@nb.njit(cache=True)
def discard_features(obs, tables, rows, allowed):
    """rows (float64[34, N_FEATURES]) gets each kind's features, allowed (uint8[34]) 1 for each kind the seat
    may discard now (held, not forbidden after a call); rows of the others are left as they are. Returns the
    number allowed. Jit-compiled."""
    suit_t, honor_t = tables[:SUIT_ROWS], tables[SUIT_ROWS:]
    seat = obs[ROBS.seat]
    hand = obs[ROBS.hand:ROBS.hand + 34].copy()
    n_melds = n_melds_of(obs)
    forbid_a, forbid_b = forbidden_kinds(obs)
    after = np.empty(34, np.int64)
    best = lowest_discard_shanten(obs, tables, hand, forbid_a, forbid_b, after)
    left = unseen(obs)
    drawn = np.empty(34, np.int64)
    accept = np.zeros(34, np.int64)
    kinds = np.zeros(34, np.int64)
    n_allowed = 0
    top_accept = 1
    for k in range(34):
        allowed[k] = 1 if hand[k] > 0 and k != forbid_a and k != forbid_b else 0
        if allowed[k] == 0:
            continue
        n_allowed += 1
        accept[k] = discard_acceptance(hand, k, n_melds, after[k], left, suit_t, honor_t, drawn)
        for j in range(34):
            if drawn[j] < after[k] and left[j] > 0:
                kinds[k] += 1
        if after[k] == best:
            top_accept = max(top_accept, accept[k])
    costs = np.zeros(34, np.int64)
    threat_total = discard_costs(obs, costs)
    mask = threats(obs)
    waits = np.zeros(34, np.int64)
    suit_count = np.zeros(4, np.int64)
    for k in range(34):
        suit_count[min(k // 9, 3)] += hand[k]
    n_hand = max(1, hand.sum())
    situation = np.zeros(14)
    situation[0] = 1.0 if threat_total > 0 else 0.0
    situation[1] = bin_count(mask)
    situation[2 + min(max(best, 0), 3)] = 1.0
    situation[6] = obs[ROBS.wall_left] / 70.0
    situation[7] = 1.0 if obs[ROBS.dealer] == seat else 0.0
    situation[8] = 1.0 if obs[ROBS.open + seat] else 0.0
    situation[9] = obs[ROBS.n_discards + seat] / 18.0
    rank, lead = 0, obs[ROBS.points + seat]
    for p in range(4):
        if p != seat and obs[ROBS.points + p] > obs[ROBS.points + seat]:
            rank += 1
        lead = max(lead, obs[ROBS.points + p])
    situation[10] = rank / 3.0
    situation[11] = (lead - obs[ROBS.points + seat]) / 20000.0
    for k in range(34):
        if allowed[k] and mask != 0 and safety(obs, k, mask) == 3:
            situation[12] += 0.2
        if hand[k] > 0 and is_dora(obs, k):
            situation[13] += hand[k] / 4.0
    situation[13] += (obs[ROBS.red] + obs[ROBS.red + 1] + obs[ROBS.red + 2]) / 4.0
    drawn_kind = obs[ROBS.tile]
    for k in range(34):
        if allowed[k] == 0:
            continue
        row = rows[k]
        row[:] = 0.0
        row[0] = 1.0 if after[k] == best else 0.0
        row[1] = min(after[k] - best, 2) if after[k] < NOT_APPLICABLE else 2
        row[2] = accept[k] / 20.0
        row[3] = accept[k] / top_accept
        row[4] = kinds[k] / 10.0
        if after[k] == 0:
            row[5] = live_waits_after(obs, tables, k, waits) / 8.0
        r = k % 9
        if k >= 27:
            row[6] = 1.0
            row[7] = 1.0 if is_yakuhai(obs, k) else 0.0
        else:
            row[8] = 1.0 if r == 0 or r == 8 else 0.0
            row[9] = 1.0 if r == 1 or r == 7 else 0.0
            row[10] = 1.0 if 2 <= r <= 6 else 0.0
            row[11] = min(r, 8 - r) / 4.0
            row[17] = 1.0 if (r > 0 and hand[k - 1] > 0) or (r < 8 and hand[k + 1] > 0) else 0.0
            row[18] = 1.0 if (r > 1 and hand[k - 2] > 0) or (r < 7 and hand[k + 2] > 0) else 0.0
        row[12 + min(hand[k], 3) - 1] = 1.0
        row[15] = obs[ROBS.seen + k] / 4.0
        row[16] = isolation(hand, k) / 8.0
        row[19] = 1.0 if is_dora(obs, k) else 0.0
        if k < 27 and r == 4 and obs[ROBS.red + k // 9] > 0 and hand[k] == 1:
            row[20] = 1.0
        row[21] = 1.0 if k == drawn_kind else 0.0
        row[22] = 1.0 if is_yakuhai(obs, k) and hand[k] >= 2 else 0.0
        row[23] = suit_count[min(k // 9, 3)] / n_hand
        row[24] = 1.0 if obs[ROBS.discarded + 34 * seat + k] > 0 else 0.0
        row[25] = costs[k] / 8000.0
        if mask != 0:
            row[26 + 3 - safety(obs, k, mask)] = 1.0
        row[30:] = situation
    return n_allowed


@nb.njit(cache=True)
def bin_count(mask):
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n




MAX_OPTIONS = 14  # a hand of 14 tiles holds at most 14 kinds


@nb.njit(cache=True)
def features_of_views(views, tables, size, rows, kinds):
    """discard_features of each observation of `views` (int32[n, m], the first m fields of observations of
    `size` fields, the rest 0), packed: rows[i, j] (float32[n, MAX_OPTIONS, N_FEATURES]) the features of the j-th
    kind allowed, kinds[i, j] (int8[n, MAX_OPTIONS]) that kind, -1 past the last. Jit-compiled."""
    obs = np.zeros(size, np.int32)
    one = np.zeros((34, N_FEATURES))
    allowed = np.zeros(34, np.uint8)
    for i in range(views.shape[0]):
        obs[:views.shape[1]] = views[i]
        discard_features(obs, tables, one, allowed)
        j = 0
        for k in range(34):
            if allowed[k] and j < MAX_OPTIONS:
                kinds[i, j] = k
                for f in range(N_FEATURES):
                    rows[i, j, f] = one[k, f]
                j += 1
        while j < MAX_OPTIONS:
            kinds[i, j] = -1
            j += 1
