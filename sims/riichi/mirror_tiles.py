"""`mirror` 明镜之战 (RULES.md M): transparent tiles and the head bump, as jit-compiled helpers the riichi
engine calls when the rule option `mirror` is on.

Which copies are transparent: tile ids 0..135 (kind = id // 4); copy `id % 4 == 0` of each kind is the normal
one, copies 1..3 are transparent. The wall is shuffled, so where the normal copy lies is random (with red fives
on it would be the red one; M has none).

Which copy leaves a hand: the engine tracks hands by kind, so the rule is fixed here: a seat that discards,
melds or loses to a robbed kan a kind of which it holds both kinds of copies gives up a transparent copy first
(it keeps its normal copy hidden, the better play; its transparent copies are public either way), except a
discard of the drawn copy (a tsumogiri, the forced one in riichi included), which gives up that very copy.

Observation block obs[ROBS.mirror …] (public, 256 int32 slots, identical in every seat's row):
- MIR_HAND + 34·seat + kind [136]: transparent copies in each seat's concealed hand.
- MIR_WALL + kind [34]: transparent copies still in the live wall (the tiles that can still be drawn).
- MIR_NEXT + i [72]: the kind of the tile at wall position pos + i (pos = the next tile to be drawn), −1 when
  that copy is normal or past the wall. i < obs[ROBS.wall_left] are the live wall in draw order (with no calls the
  drawer of slot i is the seat i + 1 turns after the current one); slots from ROBS.wall_left on are live tiles that
  kans moved to the dead wall (never drawn).
- MIR_DEAD + i [14]: the kind of dead-wall position i (0..3 replacement tiles, 4 + 2j dora indicator j,
  5 + 2j its ura indicator) while it lies face down and is transparent, −1 otherwise (normal copy, drawn, or
  an indicator already shown: it is in ROBS.dora). So transparent ura indicators are known in advance.
The normal copy of a kind is never shown anywhere in this block.
"""

from __future__ import annotations

import numba as nb

from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.tableau import DEAD_START, MS_LIVE_END, MS_RINSHAN, ST_MISC

MIR_HAND = 0
MIR_WALL = 136
MIR_NEXT = 170
N_NEXT = 72
MIR_DEAD = 242
N_DEAD = 14
MIR_SIZE = 256


@nb.njit(cache=True)
def transparent(tile_id):
    """M: copies 1..3 of every kind are transparent, copy 0 is the normal one."""
    return tile_id % 4 != 0


@nb.njit(cache=True)
def mirror_gain(obs, seat, tile_id):
    """The seat received tile `tile_id` (deal or draw): a transparent copy shows in its hand."""
    if tile_id % 4 != 0:
        for s in range(4):
            obs[s, ROBS.mirror + MIR_HAND + 34 * seat + tile_id // 4] += 1


@nb.njit(cache=True)
def mirror_lose(obs, seat, kind, copies):
    """The seat gave up `copies` concealed tiles of `kind` (discard, meld, robbed kan tile): transparent copies
    go first, so a normal copy it holds stays hidden."""
    at = ROBS.mirror + MIR_HAND + 34 * seat + kind
    trans = obs[0, at]
    if trans > 0:
        new = trans - copies if trans > copies else 0
        for s in range(4):
            obs[s, at] = new


@nb.njit(cache=True)
def mirror_discard(obs, seat, kind, drawn_copy, drawn_clear):
    """The seat discards one `kind`: the drawn copy (`drawn_copy`, transparent when `drawn_clear`) or else a
    transparent copy first; returns 1 if the copy discarded is transparent."""
    clear = drawn_clear if drawn_copy else (1 if obs[0, ROBS.mirror + MIR_HAND + 34 * seat + kind] > 0 else 0)
    if clear:
        mirror_lose(obs, seat, kind, 1)
    return clear


@nb.njit(cache=True)
def mirror_dead(obs, st, wall):
    """Refresh MIR_DEAD: transparent dead-wall tiles still face down (not drawn, not a shown indicator)."""
    drawn = st[ST_MISC, MS_RINSHAN]
    shown = obs[0, ROBS.n_dora]
    for i in range(N_DEAD):
        tid = wall[DEAD_START + i]
        v = tid // 4
        if tid % 4 == 0 or (i < 4 and i < drawn) or (i >= 4 and (i - 4) % 2 == 0 and (i - 4) // 2 < shown):
            v = -1
        at = ROBS.mirror + MIR_DEAD + i
        if obs[0, at] != v:
            for s in range(4):
                obs[s, at] = v


@nb.njit(cache=True)
def mirror_wall(obs, st, wall, pos):
    """Refresh the wall slots (MIR_WALL, MIR_NEXT, MIR_DEAD) after the wall changed (a draw)."""
    live_end = st[ST_MISC, MS_LIVE_END]
    for k in range(34):
        for s in range(4):
            obs[s, ROBS.mirror + MIR_WALL + k] = 0
    for p in range(pos, live_end):
        if wall[p] % 4 != 0:
            for s in range(4):
                obs[s, ROBS.mirror + MIR_WALL + wall[p] // 4] += 1
    for i in range(N_NEXT):
        p = pos + i
        v = -1
        if p < DEAD_START and wall[p] % 4 != 0:
            v = wall[p] // 4
        for s in range(4):
            obs[s, ROBS.mirror + MIR_NEXT + i] = v
    mirror_dead(obs, st, wall)


@nb.njit(cache=True)
def mirror_deal(obs, st, wall, dealer, pos):
    """After the deal and the dealer's first draw (wall positions 0 .. pos − 1): the transparent tiles of each
    seat's hand (13 tiles at positions 13·i …, seat dealer + i; then the dealer's draws) and of the wall."""
    for i in range(4):
        seat = (dealer + i) % 4
        for j in range(13):
            mirror_gain(obs, seat, wall[13 * i + j])
    for p in range(52, pos):
        mirror_gain(obs, dealer, wall[p])
    mirror_wall(obs, st, wall, pos)


@nb.njit(cache=True)
def mirror_draw(obs, st, wall, seat, pos, replacement):
    """After a draw by `seat` (the live-wall tile at pos − 1, or the last replacement tile): the seat's hand and
    the wall slots."""
    at = DEAD_START + st[ST_MISC, MS_RINSHAN] - 1 if replacement else pos - 1
    mirror_gain(obs, seat, wall[at])
    mirror_wall(obs, st, wall, pos)


@nb.njit(cache=True)
def head_bump(n_claimants):
    """M head bump: of several ron claimants (listed in turn order after the discarder) only the first wins."""
    return 1 if n_claimants > 1 else n_claimants
