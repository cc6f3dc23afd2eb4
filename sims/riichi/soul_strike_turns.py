"""`soul-strike` 魂之一击 (RULES.md SS): strike turns after riichi, overload and the mode's han, as jit-compiled
helpers the riichi engine calls when the rule option `soul_strike` is on (topts[T_SOUL_STRIKE] != 0).

The whole mode configuration is packed into the single table slot topts[T_SOUL_STRIKE] (`pack_options`):
bit 0 on, SSB_* choice bits, and the strike turns / overload han / riichi han / double riichi han in bytes.

Public state, obs[ROBS.soul_strike + …] (every seat's row, see policies.riichi_api):
  SS_LEFT + seat     strike turns the seat has left (0 when not striking)
  SS_OVER + seat     1 once the seat is overloaded (rons on its discards get + overload han)
  SS_ACTIVE + seat   1 while the seat is in its strike turns (it keeps the turn after its discard)
  SS_KAN + seat      1 once the seat got the extra turn of a closed kan on its last strike draw

Rule choices where RULES.md SS and the sources leave a doubt (named bits of the packed options):
- the strike turns are counted as draw-discard turns ("turns", default; a closed kan's replacement draw belongs
  to the kan's turn and a closed kan on the 6th draw adds a 7th turn) or as draws (SSB_COUNT_DRAWS: every draw,
  replacement draws included, uses one of the 6; the replacement draw after a closed kan on the 6th draw is the
  extra one);
- a ron on a strike-turn discard (the declaration tile included) overloads the discarder but that ron itself
  gets no + overload han (default: the player was not overloaded yet when discarding); SSB_TRIGGER_BONUS gives
  it the + han;
- the striker's own ippatsu ends with its last strike discard (every tsumo in the strike turns is ippatsu,
  no ippatsu ron afterwards); SSB_IPPATSU_RON_AFTER keeps it for the go-around after the strike (R-4 ippatsu);
- another riichi seat's ippatsu is not broken by the strike turns (R-4: only a call or its own discard ends
  it), so it may ron a strike discard with ippatsu; SSB_STRIKE_ENDS_IPPATSU ends it at the first strike draw;
- a call on a strike discard overloads the striker at once and the turn order goes on from the caller as
  after any call (R rules); two seats cannot strike at the same time (only the striker moves during a strike,
  and a call ends it);
- the overload han is added to every ron (chankan included) on an overloaded seat's tile, never to a tsumo, a
  yakuman or a yakuless hand (the scorer's status decides whether the ron is possible before any bonus);
  the riichi / double riichi han replace the scorer's 1 / 2 han, so they count on tsumo and ron alike.
"""

from __future__ import annotations

import numba as nb

from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi import table_slots as T
from tsumolab.sims.riichi.columns import H_OVERLOADED
from tsumolab.sims.riichi.bonus_han import add_han
from tsumolab.sims.riichi.scoring import RES_N_YAKU, RES_YAKU, RES_YAKUMAN
from tsumolab.sims.riichi.tableau import F_IPPATSU, ST_FLAGS
from tsumolab.sims.riichi.yaku import DOUBLE_RIICHI, RIICHI
from tsumolab.sims.table_state import pub_set

SS_LEFT, SS_OVER, SS_ACTIVE, SS_KAN = 0, 4, 8, 12

SSB_ON = 1
SSB_COUNT_DRAWS = 2
SSB_TRIGGER_BONUS = 4
SSB_IPPATSU_RON_AFTER = 8
SSB_STRIKE_ENDS_IPPATSU = 16
SHIFT_TURNS, SHIFT_OVER_HAN, SHIFT_RIICHI_HAN, SHIFT_DOUBLE_HAN = 8, 16, 24, 32

STRIKE_TURNS = 6       # SS: draw-discard turns after the declaration
OVERLOAD_HAN = 2       # SS: + han on a ron against an overloaded seat
RIICHI_HAN = 2         # SS: riichi is 2 han …
DOUBLE_RIICHI_HAN = 3  # … double riichi 3


def pack_options(on=True, count="turns", trigger_bonus=False, ippatsu_ron_after=False, strike_ends_ippatsu=False,
                 turns=STRIKE_TURNS, overload_han=OVERLOAD_HAN, riichi_han=RIICHI_HAN,
                 double_riichi_han=DOUBLE_RIICHI_HAN) -> int:
    """The value of topts[T_SOUL_STRIKE] (0 = mode off)."""
    if not on:
        return 0
    for v in (turns, overload_han, riichi_han, double_riichi_han):
        if not 0 <= v <= 255:
            raise ValueError("soul strike counts must be 0..255")
    return (SSB_ON | (SSB_COUNT_DRAWS if count == "draws" else 0) | (SSB_TRIGGER_BONUS if trigger_bonus else 0)
            | (SSB_IPPATSU_RON_AFTER if ippatsu_ron_after else 0)
            | (SSB_STRIKE_ENDS_IPPATSU if strike_ends_ippatsu else 0)
            | turns << SHIFT_TURNS | overload_han << SHIFT_OVER_HAN | riichi_han << SHIFT_RIICHI_HAN
            | double_riichi_han << SHIFT_DOUBLE_HAN)


@nb.njit(cache=True)
def _opt(topts, shift):
    return (topts[T.T_SOUL_STRIKE] >> shift) & 0xFF


@nb.njit(cache=True)
def strike_active(obs, seat):
    """The seat is in its strike turns (it keeps the turn after its discard); jit-compiled."""
    return obs[0, ROBS.soul_strike + SS_ACTIVE + seat] == 1


@nb.njit(cache=True)
def strike_turn(obs, st, topts, seat, kan_draw):
    """SS: the seat starts a turn on a fresh draw (kan replacement draws included). A striker's tsumo counts as
    ippatsu; in "draws" counting the draw uses one strike draw; a closed kan on the last strike turn's draw adds
    one more turn (once). Jit-compiled."""
    if not strike_active(obs, seat):
        return
    flags = topts[T.T_SOUL_STRIKE]
    left = obs[0, ROBS.soul_strike + SS_LEFT + seat]
    if flags & SSB_COUNT_DRAWS:
        if left > 0:
            pub_set(obs, ROBS.soul_strike + SS_LEFT + seat, left - 1)
    elif kan_draw and left == 1 and obs[0, ROBS.soul_strike + SS_KAN + seat] == 0:
        pub_set(obs, ROBS.soul_strike + SS_LEFT + seat, 2)
        pub_set(obs, ROBS.soul_strike + SS_KAN + seat, 1)
    st[ST_FLAGS + seat, F_IPPATSU] = 1
    if flags & SSB_STRIKE_ENDS_IPPATSU:
        for p in range(4):
            if p != seat:
                st[ST_FLAGS + p, F_IPPATSU] = 0


@nb.njit(cache=True)
def _overload(obs, rec, seat):
    pub_set(obs, ROBS.soul_strike + SS_ACTIVE + seat, 0)
    pub_set(obs, ROBS.soul_strike + SS_LEFT + seat, 0)
    pub_set(obs, ROBS.soul_strike + SS_OVER + seat, 1)
    rec[seat, H_OVERLOADED] = 1


@nb.njit(cache=True)
def strike_after_discard(obs, st, topts, rec, seat, riichi_now, taken):
    """SS: the seat's discard went through (`taken`: it was called or ronned). A declaration starts the strike
    turns (or overloads at once when taken); a strike discard uses a turn, and the last one or a taken one
    overloads the seat. Jit-compiled."""
    if riichi_now:
        turns = _opt(topts, SHIFT_TURNS)
        if taken or turns == 0:
            _overload(obs, rec, seat)
        else:
            pub_set(obs, ROBS.soul_strike + SS_ACTIVE + seat, 1)
            pub_set(obs, ROBS.soul_strike + SS_LEFT + seat, turns)
        return
    if not strike_active(obs, seat):
        return
    if taken:
        _overload(obs, rec, seat)
        return
    left = obs[0, ROBS.soul_strike + SS_LEFT + seat]
    if not topts[T.T_SOUL_STRIKE] & SSB_COUNT_DRAWS:
        left -= 1
        pub_set(obs, ROBS.soul_strike + SS_LEFT + seat, left)
    if left <= 0:
        _overload(obs, rec, seat)
        if topts[T.T_SOUL_STRIKE] & SSB_IPPATSU_RON_AFTER:
            st[ST_FLAGS + seat, F_IPPATSU] = 1


@nb.njit(cache=True)
def strike_score(obs, topts, sopts, res, discarder, strike_discard, dealer):
    """SS: turn the scored win in `res` (status SCORED) into the mode's value: riichi / double riichi at their
    SS han, + overload han on a ron (discarder ≥ 0) against an overloaded seat (or on a strike discard with
    SSB_TRIGGER_BONUS), none of it on a yakuman; repriced through the scorer's base_points / payments (R-3
    limits, kazoe at 13+). Returns the han added. Jit-compiled."""
    if res[RES_YAKUMAN] > 0:
        return 0
    extra = 0
    for i in range(res[RES_N_YAKU]):
        y = res[RES_YAKU + 2 * i]
        if y == RIICHI:
            add = _opt(topts, SHIFT_RIICHI_HAN) - res[RES_YAKU + 2 * i + 1]
        elif y == DOUBLE_RIICHI:
            add = _opt(topts, SHIFT_DOUBLE_HAN) - res[RES_YAKU + 2 * i + 1]
        else:
            continue
        res[RES_YAKU + 2 * i + 1] += add
        extra += add
    if discarder >= 0 and (obs[0, ROBS.soul_strike + SS_OVER + discarder] == 1 or
                           (strike_discard and topts[T.T_SOUL_STRIKE] & SSB_TRIGGER_BONUS)):
        extra += _opt(topts, SHIFT_OVER_HAN)
    if extra == 0:
        return 0
    add_han(res, extra, dealer, discarder < 0, sopts)
    return extra
