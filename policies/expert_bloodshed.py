"""Bloodshed hooks of `expert` (policies.expert): what the decision analyses teach, at compiled speed.

- Ron or pass: a ron is passed only while nobody has won the hand (a first tsumo collects value + 1000 from
  three payers, B-19), when it is worth at most `pass_fan` fan, the wall still holds PASS_WALL tiles, at least
  `pass_live` winning tiles are unseen, and no opponent shows a threat (`threat_seats`). Tsumo and robbing a kan
  are always taken. `tsumolab advise examples/positions/b1-ron.json` (2 fan, 42 tiles, 3 live) agrees: pass.
- Kans as baseline: closed and added kans that keep the shanten (each is paid at once, B-14, B-15).
- Push or fold: against an opponent still in the hand with a flush look or two melds (policies.threats), a hand
  `fold_shanten` or more from tenpai discards the safest tile (policies.threats.safest_discard) once the void
  suit is gone, and calls nothing; a nearer hand keeps attacking (no furiten, B-8, and 查大叫 punishes the noten
  hand, B-23: folding earlier measured worse).
- Value steering: a non-void suit with `flush_tiles` or more of the seat's tiles (3 per meld) and no meld
  outside it is collected for 清一色 (off-suit tiles go first while that costs at most one step of shanten,
  no pon outside the suit); a closed hand with five or more pairs stays closed for seven pairs (七对子, 3 fan);
  among discards that keep the shanten, singles go before pairs once the hand is open (对对和, every Bloodshed
  meld is a triplet).
- Exchange, void and void tiles first as baseline.
"""

import numba as nb
import numpy as np

from tsumolab.policies.api import BOBS, PASS, PON, RON, hook
from tsumolab.policies.baseline import react_to_discard, turn_before_discard
from tsumolab.policies.common import (
    hand_shanten, own_hand, own_melds, own_void, n_own_melds, split_tables, unseen_counts,
)
from tsumolab.policies.flush_seeker import off_suit_discard, target_suit
from tsumolab.policies.threats import collected_suit, is_opponent, safest_discard
from tsumolab.sims.shanten import BLOODSHED_SHAPES, discard_shanten, ukeire_into, winning_tiles
from tsumolab.sims.tiles import PON as MELD_PON

# parameter slots shared with the riichi hooks (policies.expert declares them in this order)
P_PASS_FAN, P_PASS_LIVE, P_FOLD_SHANTEN, P_FLUSH_TILES = 0, 1, 2, 3
PASS_WALL = 40  # a ron is passed only while the wall holds this many tiles
THREAT_MELDS = 2  # an opponent with this many melds is a threat (as `fold`'s default)
PAIRS_FOR_SEVEN = 5


@nb.njit(cache=True)
def threat_seats(obs, min_melds):
    """Bit p for each opponent still in the hand that shows a flush look or has `min_melds` melds."""
    mask = 0
    for p in range(4):
        if is_opponent(obs, p) and (collected_suit(obs, p) >= 0 or obs[BOBS.n_melds + p] >= min_melds):
            mask |= 1 << p
    return mask


@nb.njit(cache=True)
def live_waits(obs, tables):
    """Unseen copies of the kinds that complete the seat's 13-tile-equivalent concealed hand (0 = not tenpai)."""
    suit_t, honor_t = split_tables(tables)
    hand = own_hand(obs)
    held = np.empty(34, np.int32)
    melds = own_melds(obs)
    for k in range(34):
        held[k] = hand[k] + (0 if melds[k] == 0 else (3 if melds[k] == MELD_PON + 1 else 4))
    mask = np.zeros(34, np.int64)
    winning_tiles(hand, n_own_melds(obs), BLOODSHED_SHAPES, held, suit_t, honor_t, mask)
    unseen = unseen_counts(obs, own_void(obs))
    live = 0
    for k in range(27):
        if mask[k]:
            live += unseen[k]
    return live


@nb.njit(cache=True)
def passes_ron(obs, params, tables):
    """The ron/pass rule of the module docstring."""
    if obs[BOBS.n_winners] > 0 or obs[BOBS.win_fan] > params[P_PASS_FAN]:
        return False
    if obs[BOBS.wall_left] < PASS_WALL:
        return False
    if threat_seats(obs, THREAT_MELDS) != 0:
        return False
    return live_waits(obs, tables) >= params[P_PASS_LIVE]


@nb.njit(cache=True)
def n_pairs(hand):
    n = 0
    for k in range(27):
        n += hand[k] // 2
    return n


@nb.njit(cache=True)
def aims_at_seven_pairs(obs):
    return n_own_melds(obs) == 0 and n_pairs(own_hand(obs)) >= PAIRS_FOR_SEVEN


@nb.njit(cache=True)
def value_discard(obs, tables, after):
    """Among the discards that keep shanten lowest and accept at least 3/4 of the best acceptance: a single
    before a pair once the hand is open or aims at seven pairs, then the most accepting, then the outermost.
    Fills `after` (shanten per discard) and returns (kind, lowest shanten)."""
    suit_t, honor_t = split_tables(tables)
    hand = own_hand(obs).copy()
    n_melds = n_own_melds(obs)
    best = discard_shanten(hand, n_melds, BLOODSHED_SHAPES, suit_t, honor_t, after)
    unseen = unseen_counts(obs, own_void(obs))
    scratch = np.empty(34, np.int64)
    accept = np.full(34, -1, np.int64)
    most = 0
    for k in range(27):
        if hand[k] == 0 or after[k] != best:
            continue
        hand[k] -= 1
        accept[k] = ukeire_into(hand, n_melds, BLOODSHED_SHAPES, unseen, suit_t, honor_t, scratch)
        hand[k] += 1
        most = max(most, accept[k])
    pairs_matter = n_melds > 0 or n_pairs(hand) >= PAIRS_FOR_SEVEN - 1
    choice, choice_key = -1, -(1 << 40)
    for k in range(27):
        if accept[k] < 0 or 4 * accept[k] < 3 * most:
            continue
        key = accept[k] * 16 + abs(k % 9 - 4)
        if pairs_matter and hand[k] == 1:
            key += 1 << 20
        if key > choice_key:
            choice, choice_key = k, key
    return choice, best


@nb.njit(cache=True)
def flush_discard(obs, min_tiles, after, best):
    """An off-suit discard toward the flush target when it costs at most one step of shanten (`after`: shanten
    per discard), or -1."""
    target = target_suit(obs, min_tiles)
    if target < 0:
        return -1
    off = off_suit_discard(obs, target)
    return off if off >= 0 and after[off] <= best + 1 else -1


@hook
def turn(obs, params, tables):
    action = turn_before_discard(obs, tables, 1, True)  # tsumo, kans that keep the hand, void tiles first
    if action >= 0:
        return action
    after = np.empty(34, np.int64)
    kind, best = value_discard(obs, tables, after)
    if best >= params[P_FOLD_SHANTEN]:
        mask = threat_seats(obs, THREAT_MELDS)
        if mask != 0:
            return safest_discard(obs, mask)
    flush = flush_discard(obs, params[P_FLUSH_TILES], after, best)
    return flush if flush >= 0 else kind


@hook
def react(obs, params, tables):
    if obs[BOBS.can_win]:
        return PASS if passes_ron(obs, params, tables) else RON
    tile = obs[BOBS.tile]
    answer = react_to_discard(obs, tables, 1, 1)
    if answer == PASS:
        return PASS
    target = target_suit(obs, params[P_FLUSH_TILES])
    if (target >= 0 and tile // 9 != target) or (answer == PON and aims_at_seven_pairs(obs)):
        return PASS
    if hand_shanten(obs, tables) >= params[P_FOLD_SHANTEN] and threat_seats(obs, THREAT_MELDS) != 0:
        return PASS
    return answer


HOOKS = {"turn": turn, "react": react}  # exchange, void and robbing a kan: baseline's
