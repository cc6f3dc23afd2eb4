"""Determinization: resample what one seat cannot see in a stopped riichi or shura hand.

What the deciding seat sees: its own concealed tiles (red fives included) and every public field — melds,
rivers, riichi declarations, dora indicators, points, winners, the wall count, the discard or kan under
decision. What it cannot see: the other seats' concealed tiles (winners' hands included, S-3), the order of
the live wall, the rest of the dead wall (replacement tiles, unflipped and ura indicators), the other seats'
random streams, and at the exchange (S-2) the other seats' choices and the direction.

The hidden tiles are the 136 (R-1) minus every visible copy, red fives as the view allows: a red five is
hidden exactly when it is in no meld, river, indicator or the seat's own hand. They are dealt back in random
order into the hidden slots: each other seat keeps its concealed-hand size, every hidden wall slot gets one
tile. Constraints from the view:
- a seat in riichi is tenpai. A random 13-tile hand is tenpai about once in 10,000, so its hand is not drawn
  again until it is: from a random draw, random exchanges with the rest of the pool that never raise the
  shanten reach tenpai, then MIX_STEPS proposed exchanges that keep it tenpai spread it over the tenpai hands
  (a random walk whose resting distribution is uniform; after a finite walk, nearly so). Riichi seats are
  dealt first, one after the other;
- a seat in riichi waits on no kind it discarded or let pass since its riichi (`discarded` and `safe` of the
  view), as players riichi, and waits two-sided (two kinds of one suit three apart, `two_sided`) as often as
  real declarers do: a tenpai hand that waits on its river is mixed again, one that waits otherwise than
  two-sided is kept only with probability ONE_SIDED_KEPT (drawn from the keyed stream) and else mixed again,
  up to RIICHI_REMIXES times (the last hand is kept, riichi-furiten as below when it waits on its river).
  Where the numbers come from: in the 799 Tenhou Phoenix games of the training list, 60.4% of the 6,086 riichi
  declarations waited two-sided (REAL_TWO_SIDED; right after the declaring discard, from the declarer's 13
  tiles); dealt at the same positions (the next seat's decision after each second declaration, 10 samples
  each) with every hand out of furiten kept, 24.6% of 29,050 did. Keeping the other hands with probability q
  would make the share 0.246 / (0.246 + 0.754 q), 0.604 at q = 0.246·0.396 / (0.604·0.754) ≈ 0.21; dealt with
  q = 0.21 at the positions of the first 200 games, 56.4% of 7,370 hands waited two-sided (the remixes walk
  from the hand they reject, and a hand still rejected after the last one is kept), so the same formula with
  the share that 56.4% implies (0.214) gives ONE_SIDED_KEPT = 0.18;
- a seat declaring a kan (the seat robbing it decides) holds the kan's tiles;
- darkness (D): the kinds of the other seats' face-down discards that nobody else saw (not opened, or locked,
  or under decision: hs dark_river, dark_red) are hidden tiles too; each such seat keeps their number in its
  river, and the tile under an open decision is the first of its discarder's (hs tile, red). The seat's own
  face-down tiles stay. No constraint ties them to the discarder's hand (a face-down tile makes no furiten);
- what the mode shows of the hidden tiles stays in place (sims.riichi.public_tiles: fate's open deal tiles,
  open-deal's starting tiles, mirror's transparent copies); the rules' own random streams are keyed again;
- with a progress table (sims.riichi.progress) every other seat that is not in riichi and has not won gets a
  hand as far along as the field's hands are at that point: a shanten is drawn from the table's row of the
  wall tiles left and the seat's melds, and its tiles are walked to it by exchanges with the rest of the pool.
  Without one (UNIFORM) these hands are uniform: three or four tiles from ready, far slower than real ones.
Not used (documented simplifications): which tiles the seat itself passed at the exchange (they are known to
have gone to the receiver), tiles a seat let pass without winning (temporary furiten starts clear), and any
reading of the opponents' discards beyond riichi (D: nor why a seat chose to discard face down; those kinds are
dealt like every other hidden tile).

A seat in riichi is riichi-furiten again when its new waits include a tile it let pass since its riichi
(the `safe` block of the view). Decisions that wait on a round the other seats were already answering
(reacting to a discard, robbing a kan, choosing exchange tiles, D: opening a face-down tile) restart that round:
the other seats answer again on their new hands, and the deciding seat's answer is held for its own turn in the
round (hs[forced_seat], set by the caller). An astrology pick (PH_PICK_ASK) restarts nothing: only the deciding
seat is asked, among candidates that are public and stay (sims.riichi.public_tiles).

Every draw comes from the keyed stream (seed, sample index): a sample depends only on the view, the seed and
the index, so rearranging the hidden tiles of the source state changes nothing. All functions here are
jit-compiled.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.sims import rng
from tsumolab.sims.jit import inline
from tsumolab.sims.riichi.hand_state import HS, PH_DARK_OPEN, PH_EXCHANGE, PH_REACT, PH_REACT_ASK, PH_ROB, PH_ROB_ASK
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.progress import MIX_STEPS as PROGRESS_MIX_STEPS, WALK_STEPS as PROGRESS_WALK_STEPS, \
    draw_shanten
from tsumolab.sims.riichi.public_tiles import RED
from tsumolab.sims.riichi.tableau import (
    DEAD_START, F_DISCARD_FURITEN, F_RIICHI_FURITEN, F_TEMP_FURITEN, MS_NO_RED, MS_RINSHAN, ST_FLAGS, ST_MISC,
    ST_RED_HAND, ST_RIVER, ST_WAITS, is_red, refresh_furiten, update_waits,
)
from tsumolab.sims.shanten import RIICHI_SHAPES, winning_tiles
from tsumolab.sims.shanten_tables import SUIT_ROWS
from tsumolab.sims.shanten_walk import walk_to_shanten

STREAM_DETERMINIZE = 101  # keyed (seed, sample, STREAM_DETERMINIZE, 0): the hidden tiles
STREAM_SEATS = 102        # keyed (seed, sample, STREAM_SEATS, seat): the seats' policy streams
STREAM_LATER = 103        # keyed (seed, sample, STREAM_LATER, 0): walls of the hands after this one
STREAM_RULES = 104        # keyed (seed, sample, STREAM_RULES, 0): the rules' own streams (the dragon eye's)
TENPAI_STEPS = 20_000   # exchanges allowed to reach tenpai
MIX_STEPS = 300         # exchanges proposed once tenpai
RIICHI_REMIXES = 40     # further mixes of a riichi seat's tenpai hand until one is kept
REAL_TWO_SIDED = 0.604  # share of real riichi declarations waiting two-sided (module doc)
ONE_SIDED_KEPT = 0.18   # probability a dealt riichi hand out of furiten not waiting two-sided is kept (module doc)
KEEP_SCALE = 1 << 30    # resolution of that probability's draw
FIVES = (4, 13, 22)


@nb.njit(cache=True)
def _hidden_wall_slot(hs, obs, st, i):
    """Is wall index i a slot the seats cannot see? Live wall from the next draw on (also the tiles a kan moved
    behind the live wall's end), unused replacement tiles, unflipped and ura indicators."""
    if i < hs[HS.pos]:
        return False
    if i < DEAD_START:
        return True
    j = i - DEAD_START
    if j < 4:
        return j >= st[ST_MISC, MS_RINSHAN]
    return (j - 4) % 2 == 1 or (j - 4) // 2 >= obs[0, ROBS.n_dora]


@nb.njit(cache=True)
def hidden_slot(hs, obs, st, kept_wall, i):
    """Is wall slot i dealt again: hidden from the seats and not shown by the mode (kept_wall)?"""
    return kept_wall[i] == 0 and _hidden_wall_slot(hs, obs, st, i)


@nb.njit(cache=True)
def _with_kan_tiles(hs, seat, kept):
    """`kept` (sims.riichi.public_tiles) plus the tiles the kan player must keep while `seat` decides whether to
    rob its kan (a closed kan of fives holds the red one)."""
    out = kept.copy()
    phase = hs[HS.phase]
    if (phase == PH_ROB_ASK or phase == PH_ROB) and hs[HS.cur] != seat:
        kind = hs[HS.tile]
        copies = 4 if hs[HS.kan_option] == 1 else 1
        out[hs[HS.cur], kind] += copies
        if copies == 4 and (kind == 4 or kind == 13 or kind == 22):
            out[hs[HS.cur], RED + kind // 9] = 1
    return out


@nb.njit(cache=True)
def hidden_tiles(hs, obs, st, wall, seat, public):
    """The tile ids a determinization for `seat` deals again, in a canonical order (see _hidden_ids);
    `public` = (kept, kept_wall) as for determinize."""
    return _hidden_ids(hs, obs, st, wall, seat, _with_kan_tiles(hs, seat, public[0]), public[1])


@inline
def _dark_river(hs, p):
    """D: seat p's face-down discards hidden from the others, per kind (a view of hs)."""
    return hs[HS.dark_river + 34 * p:HS.dark_river + 34 * p + 34]


@inline
def _dark_red(hs, p):
    """D: 1 per suit when seat p's red five of that suit is one of them (a view of hs)."""
    return hs[HS.dark_red + 3 * p:HS.dark_red + 3 * p + 3]


@nb.njit(cache=True)
def _dark_count(hs, p):
    """D: how many of seat p's face-down discards are hidden from the others."""
    n = 0
    for k in range(34):
        n += hs[HS.dark_river + 34 * p + k]
    return n


@nb.njit(cache=True)
def _deal_dark(hs, st, p, ids, first, size):
    """D: seat p's hidden face-down discards become ids[first:first+size] (its river, ST_RIVER, follows); while
    the others decide whether to open cur's tile (PH_DARK_OPEN) the first of them is that tile."""
    river = _dark_river(hs, p)
    reds = _dark_red(hs, p)
    for k in range(34):
        st[ST_RIVER + p, k] -= river[k]
        river[k] = 0
    for suit in range(3):
        reds[suit] = 0
    for i in range(first, first + size):
        k = ids[i] // 4
        river[k] += 1
        st[ST_RIVER + p, k] += 1
        if is_red(ids[i]):
            reds[k // 9] = 1
    if size > 0 and hs[HS.phase] == PH_DARK_OPEN and hs[HS.cur] == p:
        hs[HS.tile] = ids[first] // 4
        hs[HS.red] = 1 if is_red(ids[first]) else 0


@nb.njit(cache=True)
def _hidden_ids(hs, obs, st, wall, seat, kept, kept_wall):
    """The hidden tile ids in a canonical order (by kind; for a five whose red copy is hidden, the red id
    first), without the tiles the mode or a kan keeps in place (`kept` with the kan tiles, `kept_wall`). Plain
    copies are numbered 4·kind + 1, 2, 3 (and 4·kind for non-fives, and for fives at a table without red ones):
    the engine reads only a tile's kind and whether it is red (in mirror copy 0 is the normal one, the only copy
    a determinization deals)."""
    counts = np.zeros(34, np.int64)
    red = np.zeros(3, np.int64)
    for p in range(4):
        if p == seat:
            continue
        for k in range(34):
            counts[k] += obs[p, ROBS.hand + k] - kept[p, k] + hs[HS.dark_river + 34 * p + k]
        for suit in range(3):
            red[suit] += st[ST_RED_HAND + p, suit] - kept[p, RED + suit] + hs[HS.dark_red + 3 * p + suit]
    for i in range(wall.size):
        if hidden_slot(hs, obs, st, kept_wall, i):
            counts[wall[i] // 4] += 1
            if is_red(wall[i]):
                red[wall[i] // 36] += 1
    no_red = st[ST_MISC, MS_NO_RED] > 0
    n = 0
    for k in range(34):
        n += counts[k]
    ids = np.empty(n, np.int64)
    i = 0
    for k in range(34):
        five = k == 4 or k == 13 or k == 22
        for c in range(counts[k]):
            if five:
                ids[i] = 4 * k if (c == 0 and (red[k // 9] > 0 or no_red)) else 4 * k + 1 + min(c, 2)
            else:
                ids[i] = 4 * k + min(c, 3)
            i += 1
    return ids


@nb.njit(cache=True)
def _fill_hand(obs, st, p, ids, first, size, kept):
    """Seat p's concealed tiles: ids[first:first+size] and its kept tiles (kept[p])."""
    for k in range(34):
        obs[p, ROBS.hand + k] = kept[p, k]
    for suit in range(3):
        st[ST_RED_HAND + p, suit] = kept[p, RED + suit]
        obs[p, ROBS.red + suit] = kept[p, RED + suit]
    for i in range(first, first + size):
        obs[p, ROBS.hand + ids[i] // 4] += 1
        if is_red(ids[i]):
            st[ST_RED_HAND + p, ids[i] // 36] = 1
            obs[p, ROBS.red + ids[i] // 36] = 1


@nb.njit(cache=True)
def _counts(ids, first, size, kept, p):
    """Kind counts of seat p's hand to be: ids[first:first+size] and its kept tiles."""
    counts = np.zeros(34, np.int32)
    for k in range(34):
        counts[k] = kept[p, k]
    for i in range(first, first + size):
        counts[ids[i] // 4] += 1
    return counts


@nb.njit(cache=True)
def _hand_size(obs, p):
    n = 0
    for k in range(34):
        n += obs[p, ROBS.hand + k]
    return n


@nb.njit(cache=True)
def _walk_to_tenpai(ids, first, size, counts, n_melds, state, tables):
    """Make ids[first:first+size] (with the kept tiles, `counts` the hand's kinds) a tenpai hand by random
    exchanges with the tiles after it (the rest of the pool): first a walk that never raises the shanten until
    the hand is tenpai (TENPAI_STEPS exchanges at most), then MIX_STEPS proposed exchanges kept only when the
    hand stays tenpai, a random walk whose resting distribution is uniform over the tenpai hands the pool
    allows. False if no tenpai was reached."""
    reached = walk_to_shanten(ids, first, size, 4, -1, counts, n_melds, RIICHI_SHAPES, 0, True, TENPAI_STEPS,
                              MIX_STEPS, state, tables)
    return reached <= 0


@nb.njit(cache=True)
def two_sided(waits):
    """Do the waits (a 0/1 mask of the 34 kinds) hold two kinds of one suit three apart (a suji pair: the
    two-sided wait and the waits that contain one)?"""
    for suit in range(3):
        for k in range(9 * suit, 9 * suit + 6):
            if waits[k] and waits[k + 3]:
                return True
    return False


@nb.njit(cache=True)
def _keeps_riichi_hand(counts, n_melds, obs, p, state, tables):
    """Is the tenpai hand `counts` dealt to riichi seat p kept? Not when it waits on a kind p discarded or let
    pass since its riichi; else always when its waits are two-sided, with probability ONE_SIDED_KEPT when not."""
    waits = np.zeros(34, np.int64)
    winning_tiles(counts, n_melds, RIICHI_SHAPES, counts, tables[:SUIT_ROWS], tables[SUIT_ROWS:], waits)
    for k in range(34):
        if waits[k] and (obs[0, ROBS.discarded + 34 * p + k] > 0 or obs[0, ROBS.safe + 34 * p + k] > 0):
            return False
    return two_sided(waits) or rng.below(state, KEEP_SCALE) < ONE_SIDED_KEPT * KEEP_SCALE


@nb.njit(cache=True)
def _walk_to_progress(ids, first, size, counts, n_melds, wall_left, progress, state, tables):
    """Make ids[first:first+size] (with the kept tiles, `counts` the hand's kinds) a hand at a shanten drawn
    from the progress table's row (see sims.riichi.progress) by random exchanges with the rest of the pool,
    then spread it over the hands at that shanten (sims.shanten_walk)."""
    target = draw_shanten(progress, wall_left, n_melds, state)
    walk_to_shanten(ids, first, size, 4, -1, counts, n_melds, RIICHI_SHAPES, target, False, PROGRESS_WALK_STEPS,
                    PROGRESS_MIX_STEPS, state, tables)


@nb.njit(cache=True)
def determinize(hs, obs, st, wall, seat, seed, sample, tables, progress, public):
    """Resample in place what `seat` cannot see (see the module doc); the state arrays must be a copy of a
    stopped position. `progress`: the cumulative table the other seats' shanten are drawn from
    (sims.riichi.progress; UNIFORM deals them uniformly). `public` = (kept, kept_wall): the hidden tiles the mode
    shows (sims.riichi.public_tiles), left in place. Returns the number of riichi seats that could not be dealt
    a tenpai hand (0 normally), or -1 when the view is impossible."""
    kept = _with_kan_tiles(hs, seat, public[0])
    kept_wall = public[1]
    ids = _hidden_ids(hs, obs, st, wall, seat, kept, kept_wall)
    state = np.zeros(1, np.uint64)
    state[0] = rng.key_seed(seed, sample, STREAM_DETERMINIZE, 0)
    rng.shuffle(ids, state)
    sizes = np.zeros(4, np.int64)
    total = 0
    for p in range(4):
        if p != seat:
            sizes[p] = _hand_size(obs, p)
            for k in range(34):
                sizes[p] -= kept[p, k]
            if sizes[p] < 0:
                return -1
            total += sizes[p]
    n_slots = 0
    for i in range(wall.size):
        if hidden_slot(hs, obs, st, kept_wall, i):
            n_slots += 1
    for p in range(4):
        if p != seat:
            n_slots += _dark_count(hs, p)
    if total + n_slots != ids.size:
        return -1
    failed = 0
    first = 0
    for riichi_pass in range(2):  # seats in riichi first, so that their tenpai draws see the whole pool
        for p in range(4):
            if p == seat or (obs[0, ROBS.riichi + p] > 0) != (riichi_pass == 0):
                continue
            ready_size = _hand_size(obs, p) % 3 == 1
            if riichi_pass == 0 and ready_size:
                counts = _counts(ids, first, sizes[p], kept, p)
                n_melds = obs[0, ROBS.n_melds + p]
                if not _walk_to_tenpai(ids, first, sizes[p], counts, n_melds, state, tables):
                    failed += 1
                else:
                    for _ in range(RIICHI_REMIXES):
                        if _keeps_riichi_hand(counts, n_melds, obs, p, state, tables):
                            break
                        _walk_to_tenpai(ids, first, sizes[p], counts, n_melds, state, tables)
            elif riichi_pass == 1 and progress.shape[0] > 0 and ready_size and obs[0, ROBS.won + p] == 0:
                counts = _counts(ids, first, sizes[p], kept, p)
                _walk_to_progress(ids, first, sizes[p], counts, obs[0, ROBS.n_melds + p], obs[0, ROBS.wall_left],
                                  progress, state, tables)
            _fill_hand(obs, st, p, ids, first, sizes[p], kept)
            first += sizes[p]
    for p in range(4):  # D: the other seats' face-down discards that stay hidden
        if p != seat:
            n_dark = _dark_count(hs, p)
            _deal_dark(hs, st, p, ids, first, n_dark)
            first += n_dark
    for i in range(wall.size):
        if hidden_slot(hs, obs, st, kept_wall, i):
            wall[i] = ids[first]
            first += 1
    for p in range(4):
        if p == seat:
            continue
        st[ST_FLAGS + p, F_TEMP_FURITEN] = 0
        st[ST_FLAGS + p, F_RIICHI_FURITEN] = 0
        if _hand_size(obs, p) % 3 == 1:
            update_waits(obs, st, p, tables)
        else:  # a seat holding 14 tiles (the kan player) has its waits counted after its kan
            for k in range(34):
                st[ST_WAITS + p, k] = 0
            st[ST_FLAGS + p, F_DISCARD_FURITEN] = 0
        if obs[0, ROBS.riichi + p] > 0:
            for k in range(34):
                if st[ST_WAITS + p, k] and obs[0, ROBS.safe + 34 * p + k] and obs[0, ROBS.discarded + 34 * p + k] == 0:
                    st[ST_FLAGS + p, F_RIICHI_FURITEN] = 1
        refresh_furiten(obs, st, p)
    for p in range(4):
        obs[p, ROBS.rng] = np.int64(rng.key_seed(seed, sample, STREAM_SEATS, p) >> np.uint64(33))
    hs[HS.root_seed] = np.int64(rng.key_seed(seed, sample, STREAM_LATER, 0) >> np.uint64(1))
    hs[HS.eye_rng:HS.eye_rng + 1].view(np.uint64)[0] = rng.key_seed(seed, sample, STREAM_RULES, 0)
    _restart_round(hs, state)
    return failed


@nb.njit(cache=True)
def _restart_round(hs, state):
    """A decision inside a round of answers starts the round again (module doc)."""
    phase = hs[HS.phase]
    if phase == PH_REACT_ASK:
        hs[HS.phase] = PH_REACT
        hs[HS.step] = 1
        hs[HS.n_claims] = 0
        hs[HS.caller] = -1
        hs[HS.call] = 0
    elif phase == PH_ROB_ASK:
        hs[HS.phase] = PH_ROB
        hs[HS.step] = 1
        hs[HS.n_claims] = 0
    elif phase == PH_DARK_OPEN:  # D: the seats before the deciding one answer again on their new hands
        hs[HS.dark_step] = 1
        hs[HS.dark_opener] = -1
    elif phase == PH_EXCHANGE:
        hs[HS.ex_seat] = 0
        for i in range(12):
            hs[HS.given + i] = 0
        hs[HS.direction] = rng.below(state, 3)
