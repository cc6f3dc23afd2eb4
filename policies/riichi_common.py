"""Compiled building blocks for riichi-family policies (policies.riichi_api observation): efficiency under the
riichi shapes, defense against riichi, the recommended exchange of S-16. All functions are jit-compiled.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.policies.api import pack_exchange
from tsumolab.policies.common import take_lowest
from tsumolab.policies.riichi_api import CHI_HIGH, CHI_LOW, CHI_MID, RIICHI, ROBS
from tsumolab.policies.riichi_api import own_hand as hand_of
from tsumolab.sims.riichi.scoring import dora_of
from tsumolab.sims.shanten import (
    NOT_APPLICABLE, RIICHI_SHAPES, discard_shanten, draw_shanten_among, shanten, winning_tiles,
)
from tsumolab.sims.shanten_tables import SUIT_ROWS


@nb.njit(cache=True)
def n_melds_of(obs):
    return obs[ROBS.n_melds + obs[ROBS.seat]]


@nb.njit(cache=True)
def unseen(obs):
    """Copies of each kind this seat cannot see."""
    out = np.zeros(34, np.int64)
    for k in range(34):
        out[k] = max(0, 4 - obs[ROBS.hand + k] - obs[ROBS.seen + k])
    return out


@nb.njit(cache=True)
def is_dora(obs, k):
    for i in range(obs[ROBS.n_dora]):
        if dora_of(obs[ROBS.dora + i]) == k:
            return True
    return False


@nb.njit(cache=True)
def is_yakuhai(obs, k):
    return k >= 31 or k == 27 + obs[ROBS.seat_wind] or k == 27 + obs[ROBS.round_wind]


@nb.njit(cache=True)
def isolation(hand, k):
    """0 for an isolated tile, more the more it belongs to a pair or a run."""
    score = 0
    if hand[k] >= 2:
        score += 4
    if k < 27:
        r = k % 9
        for d in (-2, -1, 1, 2):
            if 0 <= r + d < 9 and hand[k + d] > 0:
                score += 3 - abs(d)
    return score


@nb.njit(cache=True)
def discard_acceptance(hand, k, n_melds, target, left, suit_t, honor_t, drawn):
    """Copies in `left` (per kind) of the draws that bring `hand` below `target` shanten once `k` is
    discarded; `drawn` is int64[34] scratch. Jit-compiled."""
    hand[k] -= 1
    draw_shanten_among(hand, n_melds, RIICHI_SHAPES, left, suit_t, honor_t, drawn)
    hand[k] += 1
    accept = 0
    for j in range(34):
        if drawn[j] < target:
            accept += left[j]
    return accept


@nb.njit(cache=True)
def forbidden_kinds(obs):
    """The two kinds swap-calling forbids to discard after the seat's own call; (-1, -1) on any other turn."""
    if obs[ROBS.after_call]:
        return obs[ROBS.forbid_a], obs[ROBS.forbid_b]
    return -1, -1


@nb.njit(cache=True)
def is_free_discard(obs, action):
    """Whether the turn answer `action` is a discard (plain or declaring riichi) the seat may still choose: it is
    not in riichi, where the drawn tile goes."""
    is_discard = action < 34 or RIICHI <= action < RIICHI + 34
    return is_discard and obs[ROBS.riichi + obs[ROBS.seat]] == 0


@nb.njit(cache=True)
def lowest_discard_shanten(obs, tables, hand, forbid_a, forbid_b, after):
    """`after` (int64[34]) gets the shanten of `hand` (the seat's melds) after discarding each kind; returns the
    lowest of them among the held kinds other than forbid_a / forbid_b."""
    discard_shanten(hand, n_melds_of(obs), RIICHI_SHAPES, tables[:SUIT_ROWS], tables[SUIT_ROWS:], after)
    best = NOT_APPLICABLE
    for k in range(34):
        if hand[k] > 0 and k != forbid_a and k != forbid_b and after[k] < best:
            best = after[k]
    return best


@nb.njit(cache=True)
def far_key(obs, hand, k):
    """Far from tenpai, the order discards go in (lowest first): isolated, outer tiles before connected, inner
    ones; dora and yakuhai pairs last."""
    key = isolation(hand, k) * 16 + ((4 - abs(k % 9 - 4)) if k < 27 else 0) * 2
    if is_dora(obs, k) or (is_yakuhai(obs, k) and hand[k] >= 2):
        key += 64
    return key


@nb.njit(cache=True)
def efficient_discard(obs, tables, forbid_a, forbid_b):
    """The discard keeping shanten lowest, then accepting most unseen tiles, then keeping dora and
    yakuhai, then the most isolated/outward tile. Returns (kind, shanten after)."""
    suit_t, honor_t = tables[:SUIT_ROWS], tables[SUIT_ROWS:]
    hand = hand_of(obs).copy()
    n_melds = n_melds_of(obs)
    after = np.empty(34, np.int64)
    best = lowest_discard_shanten(obs, tables, hand, forbid_a, forbid_b, after)
    n_best = 0
    only = -1
    for k in range(34):
        if hand[k] > 0 and k != forbid_a and k != forbid_b and after[k] == best:
            n_best += 1
            only = k
    if n_best == 1:
        return only, best
    if best >= 3:  # far from tenpai: shape alone (isolated, outer, non-dora tiles first) decides
        choice, choice_key = -1, 1 << 40
        for k in range(34):
            if hand[k] == 0 or k == forbid_a or k == forbid_b or after[k] != best:
                continue
            key = far_key(obs, hand, k)
            if key < choice_key:
                choice, choice_key = k, key
        return choice, best
    left = unseen(obs)
    drawn = np.empty(34, np.int64)
    choice, choice_key = -1, -(1 << 40)
    for k in range(34):
        if hand[k] == 0 or k == forbid_a or k == forbid_b or after[k] != best:
            continue
        accept = discard_acceptance(hand, k, n_melds, best, left, suit_t, honor_t, drawn)
        keep = 0
        if is_dora(obs, k):
            keep += 2
        if is_yakuhai(obs, k) and hand[k] >= 2:
            keep += 2
        edge = (4 - abs(k % 9 - 4)) if k < 27 else 0
        key = accept * 256 - keep * 32 - isolation(hand, k) * 8 - edge
        if key > choice_key:
            choice, choice_key = k, key
    return choice, best


@nb.njit(cache=True)
def own_shanten(obs, tables):
    return shanten(hand_of(obs), n_melds_of(obs), RIICHI_SHAPES, tables[:SUIT_ROWS], tables[SUIT_ROWS:])


@nb.njit(cache=True)
def best_discard_shanten(obs, tables):
    after = np.empty(34, np.int64)
    return discard_shanten(hand_of(obs), n_melds_of(obs), RIICHI_SHAPES, tables[:SUIT_ROWS], tables[SUIT_ROWS:],
                           after)


@nb.njit(cache=True)
def threats(obs):
    """Bitmask of opponents in riichi who have not won."""
    me = obs[ROBS.seat]
    mask = 0
    for p in range(4):
        if p != me and obs[ROBS.riichi + p] > 0 and obs[ROBS.won + p] == 0:
            mask |= 1 << p
    return mask


@nb.njit(cache=True)
def safety(obs, k, mask):
    """How safe discarding kind k is against the riichi seats in `mask`: 3 genbutsu against all, 2 suji
    (or a honor with 3+ visible), 1 other honor, 0 otherwise; the weakest over the threats counts."""
    worst = 3
    for p in range(4):
        if not (mask >> p) & 1:
            continue
        if obs[ROBS.safe + 34 * p + k]:
            continue
        level = 0
        if k >= 27:
            level = 2 if obs[ROBS.seen + k] + obs[ROBS.hand + k] >= 3 else 1
        else:
            r = k % 9
            lo_safe = r < 3 or obs[ROBS.safe + 34 * p + k - 3] > 0
            hi_safe = r > 5 or obs[ROBS.safe + 34 * p + k + 3] > 0
            if lo_safe and hi_safe:
                level = 2
        worst = min(worst, level)
    return worst


@nb.njit(cache=True)
def fill_waits(obs, tables, without, waits):
    """`waits` (int64[34]) gets 1 per winning kind of the seat's hand less one tile of `without` (-1: the hand
    as it is), all 0 if it is not tenpai."""
    hand = hand_of(obs).astype(np.int64)
    if without >= 0:
        hand[without] -= 1
    held = hand.copy()
    seat = obs[ROBS.seat]
    for k in range(34):
        held[k] += obs[ROBS.meld_tiles + 34 * seat + k]
    winning_tiles(hand, n_melds_of(obs), RIICHI_SHAPES, held, tables[:SUIT_ROWS], tables[SUIT_ROWS:], waits)


@nb.njit(cache=True)
def waits_of(obs, tables, without):
    """fill_waits into a new mask."""
    waits = np.zeros(34, np.int64)
    fill_waits(obs, tables, without, waits)
    return waits


@nb.njit(cache=True)
def live_waits_after(obs, tables, kind, waits):
    """Unseen copies of the winning tiles once `kind` is discarded from the turn's hand (0 if not tenpai);
    `waits` (int64[34]) gets 1 per winning kind."""
    fill_waits(obs, tables, kind, waits)
    left = unseen(obs)
    live = 0
    for k in range(34):
        if waits[k]:
            live += left[k]  # the kind discarded now is seen after the discard: unseen counts stay right
    return live


@nb.njit(cache=True)
def is_simple(k):
    return k < 27 and 0 < k % 9 < 8


@nb.njit(cache=True)
def dama_has_yaku(obs, hand, waits):
    """A closed tenpai hand (after its discard) that can ron without riichi: a yakuhai triplet, or all simples
    with simple waits only (tanyao)."""
    seat = obs[ROBS.seat]
    for k in range(27, 34):
        if is_yakuhai(obs, k) and hand[k] + obs[ROBS.meld_tiles + 34 * seat + k] >= 3:
            return True
    for k in range(34):
        if (hand[k] + obs[ROBS.meld_tiles + 34 * seat + k] > 0 or waits[k]) and not is_simple(k):
            return False
    return True


@nb.njit(cache=True)
def fold_discard(obs, forbid_a, forbid_b):
    """The safest held kind against every riichi (genbutsu, then suji, then honors); ties: most copies."""
    mask = threats(obs)
    levels = np.zeros(34, np.int64)
    for k in range(34):
        if obs[ROBS.hand + k] > 0:
            levels[k] = safety(obs, k, mask)
    return safest_held(obs, forbid_a, forbid_b, levels)


@nb.njit(cache=True)
def safest_held(obs, forbid_a, forbid_b, levels):
    """The held kind other than forbid_a / forbid_b with the highest safety levels[kind] (0..3); ties: most
    copies, then the lowest kind."""
    choice, choice_key = -1, -1
    for k in range(34):
        c = obs[ROBS.hand + k]
        if c == 0 or k == forbid_a or k == forbid_b:
            continue
        key = levels[k] * 8 + c
        if key > choice_key:
            choice, choice_key = k, key
    return choice


@nb.njit(cache=True)
def call_improves(obs, tables, tile, used_a, used_b):
    """Shanten after calling `tile` with own tiles used_a/used_b (and discarding best) beats the current one."""
    return shanten_after_call(obs, tables, used_a, used_b) < own_shanten(obs, tables)


@nb.njit(cache=True)
def shanten_after_call(obs, tables, used_a, used_b):
    """Shanten after a call that uses own tiles used_a/used_b, then the best discard."""
    suit_t, honor_t = tables[:SUIT_ROWS], tables[SUIT_ROWS:]
    hand = hand_of(obs).copy()
    hand[used_a] -= 1
    hand[used_b] -= 1
    after = np.empty(34, np.int64)
    return discard_shanten(hand, n_melds_of(obs) + 1, RIICHI_SHAPES, suit_t, honor_t, after)


@nb.njit(cache=True)
def open_hand_has_yaku_path(obs, tile):
    """A cheap guarantee of a yaku for an open hand: a yakuhai meld (or this call), or all simples."""
    seat = obs[ROBS.seat]
    for k in range(27, 34):
        if obs[ROBS.meld_tiles + 34 * seat + k] >= 3 and is_yakuhai(obs, k):
            return True
    if is_yakuhai(obs, tile) and obs[ROBS.hand + tile] >= 2:
        return True
    if tile >= 27 or tile % 9 == 0 or tile % 9 == 8:
        return False
    outside = 0
    for k in range(34):
        if k >= 27 or k % 9 == 0 or k % 9 == 8:
            outside += obs[ROBS.hand + k] + obs[ROBS.meld_tiles + 34 * seat + k]
    return outside <= 1


@nb.njit(cache=True)
def chi_choice(obs, tables, max_after):
    """A chi answer (CHI_LOW / MID / HIGH) that improves shanten to at most `max_after`, or 0."""
    tile = obs[ROBS.tile]
    bits = obs[ROBS.can_chi]
    now = own_shanten(obs, tables)
    options = ((1, CHI_LOW, tile + 1, tile + 2), (2, CHI_MID, tile - 1, tile + 1), (4, CHI_HIGH, tile - 2, tile - 1))
    for bit, answer, a, b in options:
        if bits & bit:
            after = shanten_after_call(obs, tables, a, b)
            if after < now and after <= max_after:
                return answer
    return 0


# ---------------------------------------------------------------------------- S-16 recommended exchange
@nb.njit(cache=True)
def _isolated_rank(obs, k):
    """S-16 order among isolated tiles: guest winds > dragons > terminals > seat/round winds > middle tiles."""
    if 27 <= k <= 30:
        if k == 27 + obs[ROBS.seat_wind] or k == 27 + obs[ROBS.round_wind]:
            return 3
        return 0
    if k >= 31:
        return 1
    if k % 9 == 0 or k % 9 == 8:
        return 2
    return 4


@nb.njit(cache=True)
def _partial_rank(hand, k):
    """S-16 order when partial sets must be broken: 13/79 kanchan > edge waits > other kanchan > two-sided.
    Returns 0..3 for a tile in a partial set (lower = give first), 4 if it is in a pair or triplet."""
    if hand[k] >= 2 or k >= 27:
        return 4
    r = k % 9
    best = 4
    for d in (-2, 2):
        if 0 <= r + d < 9 and hand[k + d] > 0:
            lo = min(r, r + d)
            best = min(best, 0 if lo == 0 or lo == 6 else 2)
    for d in (-1, 1):
        if 0 <= r + d < 9 and hand[k + d] > 0:
            lo = min(r, r + d)
            best = min(best, 1 if lo == 0 or lo == 7 else 3)
    return best


@nb.njit(cache=True)
def recommended_exchange(obs):
    """S-16: isolated tiles first (by `_isolated_rank`), then partial sets (by `_partial_rank`), then pairs."""
    hand = hand_of(obs).copy()
    keys = np.empty(34, np.int64)
    chosen = np.empty(3, np.int64)
    for i in range(3):
        for k in range(34):
            if isolation(hand, k) == 0:
                keys[k] = _isolated_rank(obs, k)
            elif hand[k] >= 2:
                keys[k] = 200 + hand[k]
            else:
                keys[k] = 100 + _partial_rank(hand, k)
        chosen[i] = take_lowest(hand, keys, 0, 34)
    return pack_exchange(chosen[0], chosen[1], chosen[2])


@nb.njit(cache=True)
def efficiency_exchange(obs, tables):
    """Three tiles chosen like three discards by efficiency (shanten, then acceptance)."""
    suit_t, honor_t = tables[:SUIT_ROWS], tables[SUIT_ROWS:]
    hand = hand_of(obs).copy()
    after = np.empty(34, np.int64)
    keys = np.empty(34, np.int64)
    chosen = np.empty(3, np.int64)
    for i in range(3):
        discard_shanten(hand, 0, RIICHI_SHAPES, suit_t, honor_t, after)
        for k in range(34):
            if hand[k] > 0:
                edge = (k % 9 if k % 9 < 4 else 8 - k % 9) if k < 27 else 0
                keys[k] = after[k] * 64 + isolation(hand, k) * 4 + edge
                if is_dora(obs, k):
                    keys[k] += 3
        chosen[i] = take_lowest(hand, keys, 0, 34)
    return pack_exchange(chosen[0], chosen[1], chosen[2])


@nb.njit(cache=True)
def is_open(obs):
    return obs[ROBS.open + obs[ROBS.seat]] == 1
