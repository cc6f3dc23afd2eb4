"""Compiled helpers over the riichi table state shared by the engine's steps: public updates, payments,
waits and furiten, scoring a win in place. All functions are jit-compiled.

Private state besides `obs[4, ROBS.SIZE]` (policies.riichi_api) lives in `st`, an int64[N_ST, 34] block:
rows ST_WAITS + seat (waits of the seat's 13-tile hand), ST_RIVER + seat (tiles lying in its river now),
and the scalar row ST_MISC with the MS_* slots.
"""

from __future__ import annotations

import numba as nb

from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.events import EV_PAY, log_event
from tsumolab.sims.riichi.events import EV_ABORT, EV_CHI, EV_DORA, EV_RIICHI  # noqa: F401
from tsumolab.sims.riichi.scoring import (
    CTX_CHANCE, CTX_DEALER, CTX_DORA, CTX_FLAGS, CTX_IPPATSU, CTX_N_DORA, CTX_N_URA, CTX_RED, CTX_RIICHI,
    CTX_ROUND_WIND, CTX_SEAT_WIND, CTX_TSUMO, CTX_URA, CTX_WIN, score_hand,
)
from tsumolab.sims.shanten import RIICHI_SHAPES, shanten, winning_tiles
from tsumolab.sims.shanten_tables import SUIT_ROWS
from tsumolab.sims.table_state import pub_add, pub_set

ST_WAITS = 0
ST_RIVER = 4
ST_RED_HAND = 8      # [seat][suit] red fives among the seat's concealed tiles
ST_FLAGS = 12        # per seat, per-kind columns of MS_* seat flags
ST_MISC = 16
N_ST = 17

# columns of row ST_FLAGS + seat
F_RIICHI_FURITEN, F_TEMP_FURITEN, F_DISCARD_FURITEN, F_IPPATSU, F_NAGASHI, F_RED_MELD, F_PAO = 0, 1, 2, 3, 4, 5, 6
F_KANS, F_DRAWS = 7, 8
F_OWN_RED_MELD = 9  # + suit (m, p, s): 1 when the seat's own red five of that suit went into its melds (F)

# columns of row ST_MISC
MS_LIVE_END, MS_N_KANS, MS_RINSHAN, MS_NO_CALL, MS_PENDING_DORA, MS_HONBA_ON = 0, 1, 2, 3, 4, 5
MS_NO_RED = 20  # 1: the table has no red fives (option red_fives off, M): no tile is dealt or drawn as red
MS_DRAWN_RED = 21    # 1: the seat to move drew the red five (the copy a tsumogiri gives up, R-1/R-4)
MS_DRAWN_CLEAR = 22  # mirror (M): 1 when the tile just drawn is a transparent copy

DEAD_START = 122  # the last 14 tiles of the 136 form the dead wall
RED_KINDS = (4, 13, 22)


@nb.njit(cache=True)
def pay(obs, payer, receiver, amount, delta, reason, events, ev):
    """Move points between seats (public); a payer or receiver of -1 is the table (riichi sticks)."""
    if amount == 0:
        return
    log_event(events, ev, EV_PAY, payer, receiver, amount, reason, 0)
    if payer >= 0:
        pub_add(obs, ROBS.points + payer, -amount)
        delta[payer] -= amount
    if receiver >= 0:
        pub_add(obs, ROBS.points + receiver, amount)
        delta[receiver] += amount


@nb.njit(cache=True)
def anyone_below_zero(obs):
    for s in range(4):
        if obs[0, ROBS.points + s] < 0:
            return True
    return False


@nb.njit(cache=True)
def is_red(tile_id):
    """Tile ids 0..135: copy 0 of each five is the red one (R-1)."""
    return tile_id == 16 or tile_id == 52 or tile_id == 88


@nb.njit(cache=True)
def dora_indicator(wall, i):
    return wall[DEAD_START + 4 + 2 * i] // 4


@nb.njit(cache=True)
def ura_indicator(wall, i):
    return wall[DEAD_START + 5 + 2 * i] // 4


@nb.njit(cache=True)
def flip_dora(obs, wall, events, ev):
    """Show the next dora indicator (at most 5, R-1)."""
    n = obs[0, ROBS.n_dora]
    if n >= 5:
        return
    kind = dora_indicator(wall, n)
    log_event(events, ev, EV_DORA, -1, kind, n + 1, 0, 0)
    pub_set(obs, ROBS.dora + n, kind)
    pub_set(obs, ROBS.n_dora, n + 1)
    pub_add(obs, ROBS.seen + kind, 1)


@nb.njit(cache=True)
def holds_red(st, seat, kind):
    """Does the seat hold the red five of `kind` among its concealed tiles?"""
    return (kind == 4 or kind == 13 or kind == 22) and st[ST_RED_HAND + seat, kind // 9] > 0


@nb.njit(cache=True)
def plain_first(obs, st, seat, kind):
    """The copy a bare kind names (policies.riichi_api): the plain one while one is held, else the red five;
    returns 1 for the red five."""
    return 1 if holds_red(st, seat, kind) and obs[seat, ROBS.hand + kind] == 1 else 0


@nb.njit(cache=True)
def take_tile(obs, st, seat, kind, red):
    """Remove one tile of `kind` from the seat's concealed hand: the red five if `red` is 1 (the caller checked
    that it is held), else a plain copy."""
    obs[seat, ROBS.hand + kind] -= 1
    if red:
        st[ST_RED_HAND + seat, kind // 9] = 0
        obs[seat, ROBS.red + kind // 9] = 0


@nb.njit(cache=True)
def take_for_meld(obs, st, seat, kind, copies):
    """Move `copies` tiles of `kind` from the hand into a meld (a red five goes into the meld first); returns 1
    if the red five went in."""
    obs[seat, ROBS.hand + kind] -= copies
    if holds_red(st, seat, kind):
        st[ST_RED_HAND + seat, kind // 9] = 0
        obs[seat, ROBS.red + kind // 9] = 0
        st[ST_FLAGS + seat, F_RED_MELD] += 1
        st[ST_FLAGS + seat, F_OWN_RED_MELD + kind // 9] = 1
        return 1
    return 0


@nb.njit(cache=True)
def give_tile(obs, st, seat, kind, red):
    obs[seat, ROBS.hand + kind] += 1
    if red:
        st[ST_RED_HAND + seat, kind // 9] = 1
        obs[seat, ROBS.red + kind // 9] = 1


@nb.njit(cache=True)
def update_waits(obs, st, seat, tables):
    """Waits of the seat's 13-tile hand and its discard furiten (R-4); refreshes obs[seat, ROBS.furiten]."""
    hand = obs[seat, ROBS.hand:ROBS.hand + 34]
    waits = st[ST_WAITS + seat]
    n_melds = obs[0, ROBS.n_melds + seat]
    if shanten(hand, n_melds, RIICHI_SHAPES, tables[:SUIT_ROWS], tables[SUIT_ROWS:]) > 0:
        waits[:] = 0  # not tenpai: no waits, no discard furiten
        st[ST_FLAGS + seat, F_DISCARD_FURITEN] = 0
        refresh_furiten(obs, st, seat)
        return
    winning_tiles(hand, n_melds, RIICHI_SHAPES, hand, tables[:SUIT_ROWS], tables[SUIT_ROWS:], waits)
    furiten = 0
    for k in range(34):
        if waits[k] and obs[0, ROBS.discarded + 34 * seat + k] > 0:
            furiten = 1
    st[ST_FLAGS + seat, F_DISCARD_FURITEN] = furiten
    refresh_furiten(obs, st, seat)


@nb.njit(cache=True)
def refresh_furiten(obs, st, seat):
    f = st[ST_FLAGS + seat]
    obs[seat, ROBS.furiten] = 1 if (f[F_RIICHI_FURITEN] or f[F_TEMP_FURITEN] or f[F_DISCARD_FURITEN]) else 0


@nb.njit(cache=True)
def score_win(obs, st, wall, seat, win_tile, extra_red, tsumo, flags, dealer, round_wind, sopts, conc, melds,
              ctx, out):
    """Score the seat's hand (plus `win_tile` when not a tsumo) into `out`; returns the scorer's status."""
    for k in range(34):
        conc[k] = obs[seat, ROBS.hand + k]
    if not tsumo:
        conc[win_tile] += 1
    n_melds = obs[0, ROBS.n_melds + seat]
    for i in range(n_melds):
        melds[i, 0] = obs[0, ROBS.melds + 8 * seat + 2 * i] - 1
        melds[i, 1] = obs[0, ROBS.melds + 8 * seat + 2 * i + 1]
    ctx[:] = 0
    ctx[CTX_WIN] = win_tile
    ctx[CTX_TSUMO] = 1 if tsumo else 0
    ctx[CTX_SEAT_WIND] = (seat - dealer) % 4
    ctx[CTX_ROUND_WIND] = round_wind
    ctx[CTX_DEALER] = 1 if seat == dealer else 0
    ctx[CTX_RIICHI] = obs[0, ROBS.riichi + seat]
    ctx[CTX_IPPATSU] = st[ST_FLAGS + seat, F_IPPATSU]
    ctx[CTX_FLAGS] = flags
    red = st[ST_FLAGS + seat, F_RED_MELD] + extra_red
    for suit in range(3):
        red += st[ST_RED_HAND + seat, suit]
    ctx[CTX_RED] = red
    n_dora = obs[0, ROBS.n_dora]
    ctx[CTX_N_DORA] = n_dora
    ctx[CTX_N_URA] = n_dora
    for i in range(n_dora):
        ctx[CTX_DORA + i] = obs[0, ROBS.dora + i]
        ctx[CTX_URA + i] = ura_indicator(wall, i)
    ctx[CTX_CHANCE] = obs[0, ROBS.fantasy + 1]  # FL: the match's chance card (0 in other modes)
    return score_hand(conc, melds, n_melds, ctx, sopts, out)


