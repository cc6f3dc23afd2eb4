"""What a discard risks in the riichi family: the threats at the table and each kind's danger against them, read
from public information only (policies.riichi_api observation). Every function is jit-compiled.

- A threat is an opponent who has not won and either is in riichi (ready for sure) or shows open melds that look
  ready: `threat_weight` (per mille) is 1000 for a riichi, for an open hand 300 with two melds, 600 with three,
  900 with four, plus LOOK_BONUS when a meld holds a dora or is a yakuhai pon (a hand with a yaku and value)
  and LATE_BONUS when the wall is nearly gone (one valuable meld then counts as a threat too).
- `threat_points` is what dealing into it costs: RIICHI_POINTS for a riichi, OPEN_POINTS plus DORA_POINTS per
  dora in its melds for an open hand, half as much again for the dealer.
- `wait_danger` (per mille) is how likely the kind is one of a ready hand's winning tiles, summed over the
  wait shapes it completes, each shape weighted by the copies of its other tiles we cannot see:
  two-sided waits (`RYANMEN` per side; none through a kind the threat has as genbutsu, the suji rule, nor
  through tiles whose copies are all visible, kabe; one copy left is the one-chance), closed and edge waits,
  and pair waits (shanpon, single) by the unseen copies of the kind itself, which is all a honor has. A kind
  the threat has discarded, or let pass since its riichi (so also the tiles seen late in the rivers), is
  genbutsu: 0. Against an open hand whose melds all lie in one suit (with honors) the other suits count a
  fifth; against one whose melds are all simples (tanyao) terminals and honors count a quarter.
- `discard_costs` sums weight x danger x points over the threats: the expected points a discard pays.
The constants are deal-in rates of each kind of tile against a riichi in strong play, in per mille.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.policies.riichi_api import ROBS
from tsumolab.policies.riichi_common import is_dora

RYANMEN, KANCHAN, PENCHAN = 43, 15, 15  # per side / shape, with 3 unseen copies of each other tile
PAIR_SUITED, SINGLE_SUITED = 30, 13     # shanpon (with 4 unseen copies), single wait on a suited kind
PAIR_HONOR, SINGLE_HONOR = 54, 8        # the same on a honor
LOOK_BONUS, LATE_BONUS, LATE_WALL = 200, 150, 20
RIICHI_POINTS, OPEN_POINTS, DORA_POINTS = 5200, 2400, 1600
NO_LOOK, TANYAO_LOOK = -1, -2


@nb.njit(cache=True)
def unseen_copies(obs, k):
    """Copies of kind k this seat cannot see (in other hands or the wall)."""
    return max(0, 4 - obs[ROBS.hand + k] - obs[ROBS.seen + k])


@nb.njit(cache=True)
def is_yakuhai_for(obs, p, k):
    """Kind k is a yakuhai for seat p (dragons, p's seat wind, the round wind)."""
    return k >= 31 or k == 27 + (p - obs[ROBS.dealer]) % 4 or k == 27 + obs[ROBS.round_wind]


@nb.njit(cache=True)
def valuable_melds(obs, p):
    """Dora among seat p's meld tiles (per copy) plus its yakuhai pons and kans."""
    value = 0
    for k in range(34):
        c = obs[ROBS.meld_tiles + 34 * p + k]
        if c == 0:
            continue
        if is_dora(obs, k):
            value += c
        if c >= 3 and is_yakuhai_for(obs, p, k):
            value += 1
    return value


@nb.njit(cache=True)
def meld_look(obs, p):
    """What seat p's melds show: the suit 0..2 when every meld lies in that suit or honors (a flush look),
    TANYAO_LOOK when every meld is of simples, else NO_LOOK."""
    suits, simple, outside = 0, 0, 0
    for k in range(34):
        if obs[ROBS.meld_tiles + 34 * p + k] == 0:
            continue
        if k < 27:
            suits |= 1 << (k // 9)
        if k < 27 and 0 < k % 9 < 8:
            simple += 1
        else:
            outside += 1
    if outside == 0 and simple > 0:
        return TANYAO_LOOK
    for s in range(3):
        if suits == 1 << s:
            return s
    return NO_LOOK


@nb.njit(cache=True)
def threat_weight(obs, p):
    """How likely seat p is ready (per mille): see the module docstring; 0 for us, a winner, a closed hand."""
    if p == obs[ROBS.seat] or obs[ROBS.won + p]:
        return 0
    if obs[ROBS.riichi + p]:
        return 1000
    if not obs[ROBS.open + p]:
        return 0
    melds = obs[ROBS.n_melds + p]
    weight = 0 if melds <= 1 else 300 if melds == 2 else 600 if melds == 3 else 900
    if valuable_melds(obs, p) > 0:
        weight += LOOK_BONUS if melds >= 2 else 0
    late = obs[ROBS.wall_left] < LATE_WALL
    if late and (melds >= 2 or valuable_melds(obs, p) > 0):
        weight += LATE_BONUS
    return min(weight, 1000)


@nb.njit(cache=True)
def threat_points(obs, p):
    """What dealing into seat p's ready hand costs, in points (module docstring)."""
    points = RIICHI_POINTS if obs[ROBS.riichi + p] else OPEN_POINTS
    for k in range(34):
        c = obs[ROBS.meld_tiles + 34 * p + k]
        if c > 0 and is_dora(obs, k):
            points += DORA_POINTS * c
    if p == obs[ROBS.dealer]:
        points += points // 2
    return points


@nb.njit(cache=True)
def pair_danger(n, pair, single):
    """Shanpon and single waits on a kind with n unseen copies."""
    return pair * (n * (n - 1) // 2) // 6 + single * n // 4


@nb.njit(cache=True)
def wait_danger(obs, k, p):
    """How likely kind k is a winning tile of seat p's ready hand, per mille (module docstring)."""
    safe = ROBS.safe + 34 * p
    if obs[safe + k]:
        return 0
    n = unseen_copies(obs, k)
    if k >= 27:
        return pair_danger(n, PAIR_HONOR, SINGLE_HONOR)
    total = pair_danger(n, PAIR_SUITED, SINGLE_SUITED)
    r = k % 9
    below = unseen_copies(obs, k - 2) * unseen_copies(obs, k - 1) if r >= 2 else 0
    above = unseen_copies(obs, k + 1) * unseen_copies(obs, k + 2) if r <= 6 else 0
    if r >= 3 and not obs[safe + k - 3]:
        total += RYANMEN * below // 9
    if r <= 5 and not obs[safe + k + 3]:
        total += RYANMEN * above // 9
    if r == 2:
        total += PENCHAN * below // 9
    if r == 6:
        total += PENCHAN * above // 9
    if 0 < r < 8:
        total += KANCHAN * unseen_copies(obs, k - 1) * unseen_copies(obs, k + 1) // 9
    return total


@nb.njit(cache=True)
def look_factor(obs, k, p):
    """Percent of wait_danger that counts against seat p's open melds' look (module docstring)."""
    if obs[ROBS.riichi + p]:
        return 100
    look = meld_look(obs, p)
    if look >= 0 and k < 27 and k // 9 != look:
        return 20
    if look == TANYAO_LOOK and (k >= 27 or k % 9 == 0 or k % 9 == 8):
        return 25
    return 100


@nb.njit(cache=True)
def discard_costs(obs, costs):
    """costs[k] (int64[34]) gets the expected points that discarding kind k deals in, for every held kind (0 for
    the rest); returns the summed threat weight (0: nobody threatens)."""
    weights = np.zeros(4, np.int64)
    points = np.zeros(4, np.int64)
    total = 0
    for p in range(4):
        weights[p] = threat_weight(obs, p)
        if weights[p] > 0:
            points[p] = threat_points(obs, p)
            total += weights[p]
    for k in range(34):
        costs[k] = 0
        if obs[ROBS.hand + k] == 0 or total == 0:
            continue
        cost = 0
        for p in range(4):
            if weights[p] > 0:
                cost += weights[p] * wait_danger(obs, k, p) * look_factor(obs, k, p) // 100 * points[p]
        costs[k] = cost // 1000000
    return total


@nb.njit(cache=True)
def riichi_threatens(obs):
    """Some opponent who has not won is in riichi."""
    for p in range(4):
        if p != obs[ROBS.seat] and obs[ROBS.riichi + p] and not obs[ROBS.won + p]:
            return True
    return False
