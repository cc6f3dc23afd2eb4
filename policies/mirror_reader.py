"""`mirror-reader` for `mirror` 明镜之战 (RULES.md M): baseline riichi play that reads the transparent tiles
(obs[ROBS.mirror …], laid out by sims.riichi.mirror_tiles).

- Acceptance counts tiles really still available: the transparent copies left in the live wall, plus a kind's
  normal copy when this seat cannot locate it (weighted by the chance it lies in the live wall rather than in an
  opponent's hand or the dead wall); copies visible in opponents' hands count zero. Tiles known to sit in this
  seat's own next draw slots (every 4th slot of the wall order from slot 3, without calls) count extra.
- Defense: against an opponent in riichi, a kind is safe when it cannot be a wait given the opponent's visible
  holdings: with all its concealed tiles visible the waits are computed exactly; otherwise a kind is a possible
  wait only if some pair or run through it can be formed from the opponent's transparent tiles and its few
  hidden (normal) tiles among the kinds whose normal copy is still unlocated. Folding (baseline's rule: an
  opponent in riichi and 2+ shanten) picks the safest tile by this reading first; while pushing against a
  riichi, among the discards keeping shanten lowest the safest is preferred.
Calls and wins: baseline's.
"""

import numba as nb
import numpy as np

from tsumolab.policies.api import hook
from tsumolab.policies.registry import Policy
from tsumolab.policies.riichi_api import RIICHI, ROBS
from tsumolab.policies.riichi_baseline import riichi_turn
from tsumolab.policies.riichi_common import (
    best_discard_shanten, discard_acceptance, efficient_discard, forbidden_kinds, hand_of, is_free_discard,
    isolation, lowest_discard_shanten, n_melds_of, safest_held, safety, threats,
)
from tsumolab.sims.riichi.mirror_tiles import MIR_DEAD, MIR_HAND, MIR_NEXT, MIR_WALL, N_DEAD, N_NEXT
from tsumolab.sims.shanten import RIICHI_SHAPES, winning_tiles
from tsumolab.sims.shanten_tables import SUIT_ROWS

OWN_SLOTS = 4       # own next draws (slots 3, 7, 11, 15 of the wall order) that count extra
UNIT = 16           # acceptance in 1/16 copies


@nb.njit(cache=True)
def unlocated_normal(obs):
    """1 for each kind whose normal copy this seat cannot locate (not in its hand, rivers, melds, indicators)."""
    me = obs[ROBS.seat]
    out = np.zeros(34, np.int64)
    vis = np.zeros(34, np.int64)
    for k in range(34):
        vis[k] = obs[ROBS.seen + k] + obs[ROBS.hand + k] + obs[ROBS.mirror + MIR_WALL + k]
        for p in range(4):
            if p != me:
                vis[k] += obs[ROBS.mirror + MIR_HAND + 34 * p + k]
    for i in range(obs[ROBS.wall_left], N_NEXT):  # live tiles moved to the dead wall by kans
        v = obs[ROBS.mirror + MIR_NEXT + i]
        if v >= 0:
            vis[v] += 1
    for i in range(N_DEAD):
        v = obs[ROBS.mirror + MIR_DEAD + i]
        if v >= 0:
            vis[v] += 1
    for k in range(34):
        out[k] = 1 if vis[k] < 4 else 0
    return out


@nb.njit(cache=True)
def hidden_count(obs, p):
    """Concealed tiles of seat p that are not transparent (its normal copies, unknown to the others)."""
    n = 13 - 3 * obs[ROBS.n_melds + p]
    for k in range(34):
        n -= obs[ROBS.mirror + MIR_HAND + 34 * p + k]
    return max(n, 0)


@nb.njit(cache=True)
def available(obs, normal):
    """Expected drawable copies per kind, in 1/UNIT copies."""
    me = obs[ROBS.seat]
    wall_left = obs[ROBS.wall_left]
    elsewhere = 7  # face-down dead-wall tiles, roughly
    for p in range(4):
        if p != me and obs[ROBS.won + p] == 0:
            elsewhere += hidden_count(obs, p)
    out = np.zeros(34, np.int64)
    for k in range(34):
        out[k] = UNIT * obs[ROBS.mirror + MIR_WALL + k]
        if normal[k] and wall_left > 0:
            out[k] += UNIT * wall_left // (wall_left + elsewhere)
    for j in range(OWN_SLOTS):
        i = 3 + 4 * j
        if i < wall_left:
            v = obs[ROBS.mirror + MIR_NEXT + i]
            if v >= 0:
                out[v] += UNIT
    return out


@nb.njit(cache=True)
def _could_hold(obs, p, k, normal):
    """Copies of kind k seat p may hold: its transparent ones, +1 if the normal copy is unlocated (-1 hidden)."""
    return obs[ROBS.mirror + MIR_HAND + 34 * p + k], normal[k]


@nb.njit(cache=True)
def possible_wait(obs, p, k, normal, hidden):
    """Can kind k complete seat p's hand, given its visible (transparent) holdings and `hidden` normal tiles?
    A necessary test: some pair/triplet or run through k formable from them (thirteen orphans left open)."""
    t_k, n_k = _could_hold(obs, p, k, normal)
    if t_k >= 1 or (n_k and hidden >= 1):
        return True  # pair / triplet / seven pairs on k
    orphans_only = True
    for j in range(34):
        if obs[ROBS.mirror + MIR_HAND + 34 * p + j] > 0 and not (j >= 27 or j % 9 == 0 or j % 9 == 8):
            orphans_only = False
    if orphans_only and (k >= 27 or k % 9 == 0 or k % 9 == 8):
        return True  # thirteen orphans not ruled out
    if k >= 27:
        return False
    r = k % 9
    for da, db in ((-2, -1), (-1, 1), (1, 2)):
        if r + da < 0 or r + db > 8:
            continue
        ta, na = _could_hold(obs, p, k + da, normal)
        tb, nb_ = _could_hold(obs, p, k + db, normal)
        if (ta == 0 and not na) or (tb == 0 and not nb_):
            continue
        if (1 if ta == 0 else 0) + (1 if tb == 0 else 0) <= hidden:
            return True
    return False


@nb.njit(cache=True)
def mirror_safety(obs, k, mask, normal, tables):
    """baseline's safety levels (3 genbutsu, 2 suji / seen honor, 1 honor, 0) raised to 3 against each riichi
    seat whose visible holdings rule k out as a wait; the weakest over the threats counts."""
    worst = 3
    waits = np.zeros(34, np.int64)
    for p in range(4):
        if not (mask >> p) & 1 or obs[ROBS.safe + 34 * p + k]:
            continue
        hidden = hidden_count(obs, p)
        if hidden == 0:
            hand = np.zeros(34, np.int64)
            for j in range(34):
                hand[j] = obs[ROBS.mirror + MIR_HAND + 34 * p + j]
            winning_tiles(hand, obs[ROBS.n_melds + p], RIICHI_SHAPES, hand, tables[:SUIT_ROWS], tables[SUIT_ROWS:],
                          waits)
            if waits[k] == 0:
                continue
        elif not possible_wait(obs, p, k, normal, hidden):
            continue
        worst = min(worst, safety(obs, k, 1 << p))
    return worst


@nb.njit(cache=True)
def mirror_fold(obs, tables, forbid_a, forbid_b, normal):
    """fold_discard with the safety levels read from the transparent tiles (mirror_safety)."""
    mask = threats(obs)
    levels = np.zeros(34, np.int64)
    for k in range(34):
        if obs[ROBS.hand + k] > 0 and k != forbid_a and k != forbid_b:
            levels[k] = mirror_safety(obs, k, mask, normal, tables)
    return safest_held(obs, forbid_a, forbid_b, levels)


@nb.njit(cache=True)
def mirror_discard(obs, tables, forbid_a, forbid_b, normal):
    """Among discards keeping shanten lowest: (facing riichi) the safest, then most available tiles accepted,
    then shape. Far from tenpai (3+ shanten after) the baseline's shape order. Returns (kind, shanten after)."""
    suit_t, honor_t = tables[:SUIT_ROWS], tables[SUIT_ROWS:]
    hand = hand_of(obs).copy()
    n_melds = n_melds_of(obs)
    after = np.empty(34, np.int64)
    best = lowest_discard_shanten(obs, tables, hand, forbid_a, forbid_b, after)
    mask = threats(obs)
    if best >= 3 and mask == 0:
        return efficient_discard(obs, tables, forbid_a, forbid_b)
    left = available(obs, normal)
    drawn = np.empty(34, np.int64)
    choice, choice_key = -1, -(1 << 60)
    for k in range(34):
        if hand[k] == 0 or k == forbid_a or k == forbid_b or after[k] != best:
            continue
        accept = discard_acceptance(hand, k, n_melds, best, left, suit_t, honor_t, drawn)
        edge = (4 - abs(k % 9 - 4)) if k < 27 else 0
        key = accept * 128 - isolation(hand, k) * 8 - edge
        if mask != 0:
            key += mirror_safety(obs, k, mask, normal, tables) << 40
        if key > choice_key:
            choice, choice_key = k, key
    return choice, best


@hook
def turn(obs, params, tables):
    action = riichi_turn(obs, tables, True, True)
    if not is_free_discard(obs, action):
        return action
    forbid_a, forbid_b = forbidden_kinds(obs)
    normal = unlocated_normal(obs)
    if action < 34 and threats(obs) != 0 and best_discard_shanten(obs, tables) >= 2:
        return mirror_fold(obs, tables, forbid_a, forbid_b, normal)  # baseline folds here too
    kind, _after = mirror_discard(obs, tables, forbid_a, forbid_b, normal)
    if action >= RIICHI:
        hand = hand_of(obs).copy()
        hand[kind] -= 1
        waits = np.zeros(34, np.int64)
        if winning_tiles(hand, n_melds_of(obs), RIICHI_SHAPES, hand, tables[:SUIT_ROWS], tables[SUIT_ROWS:],
                         waits) > 0:
            return RIICHI + kind
        return action
    return kind


POLICIES = [
    Policy(
        name="mirror-reader",
        description="Baseline riichi play that counts only really available tiles and reads riichi waits from "
                    "the transparent tiles (mirror).",
        hooks={},
        riichi_hooks={"turn": turn},
        modes=("mirror",),
    ),
]
