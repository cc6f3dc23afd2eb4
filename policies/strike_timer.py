"""`strike-timer` for `soul-strike` (RULES.md SS): baseline riichi play that times its riichi against the overload
and breaks other players' strike turns.

- Riichi (SS): a riichi buys up to 6 own draws in a row (every tsumo ippatsu, riichi 2 han) but leaves the player
  overloaded afterwards, locked in riichi while every ron on its discards gets +2 han. The policy declares when
  the wait is good (at least `min_live` unseen winning tiles), or when the wall is short (≤ `short_wall`: the
  strike turns take most of what is left, so the overload hardly matters); otherwise it stays dama when the
  closed hand already has a yaku for a ron (tanyao or a yakuhai triplet), and declares anyway when it has
  none and `yakuless_riichi` is set (a yakuless dama hand can only win by tsumo).
- Strike breaking (SS): a call on a strike-turn discard ends the striker's run of draws and overloads it at
  once. When another seat is in its strike turns with at least `break_min_left` turns left, the policy pons or
  chis its discard when the call lowers its shanten and keeps a yaku in reach (`break_strike` = 2; 1 = any
  call that does not worsen the shanten).
- `push` > 2: fold against riichi only from that many shanten when every riichi seat is overloaded.
- Everything else (wins, defense, calls) as baseline. In other riichi modes the strike block reads 0: the
  riichi rule still applies (dama with a weak wait and a yaku), the strike breaking never does.

Defaults from a tuning run (SS1 toml, seed 1, 8,000 matches each, one seat vs three baseline): dama on weak
waits costs (min_live 6: −288 points/match, no riichi without a yaku-less fallback: −1059), loose breaking calls
(break_strike 1) −580, pushing against overloaded seats (push 3) −654; strict breaking with ≥ 4 strike turns
left +113 [+9, +217]. The riichi is worth a lot in this mode; the policy keeps it for all but 1-tile waits.
"""

import numba as nb
import numpy as np

from tsumolab.policies.api import hook
from tsumolab.policies.registry import Param, Policy
from tsumolab.policies.riichi_api import CHI_HIGH, CHI_LOW, CHI_MID, PON, RIICHI, ROBS, RON
from tsumolab.policies.riichi_baseline import riichi_react, riichi_turn
from tsumolab.policies.riichi_common import (
    best_discard_shanten, dama_has_yaku, hand_of, live_waits_after, open_hand_has_yaku_path, own_shanten,
    shanten_after_call, threats,
)
from tsumolab.sims.riichi.soul_strike_turns import SS_ACTIVE, SS_LEFT, SS_OVER

P_MIN_LIVE, P_SHORT_WALL, P_YAKULESS_RIICHI, P_BREAK, P_BREAK_MIN_LEFT, P_PUSH, P_CLOSED = 0, 1, 2, 3, 4, 5, 6


@nb.njit(cache=True)
def riichi_now(obs, params, tables, kind):
    """Declare riichi discarding `kind` (legal, tenpai after it)? See the module docstring."""
    if obs[ROBS.wall_left] <= params[P_SHORT_WALL]:
        return True
    hand = hand_of(obs).copy()
    hand[kind] -= 1
    waits = np.zeros(34, np.int64)
    if live_waits_after(obs, tables, kind, waits) >= params[P_MIN_LIVE]:
        return True
    if dama_has_yaku(obs, hand, waits):
        return False
    return params[P_YAKULESS_RIICHI] != 0


@nb.njit(cache=True)
def only_overloaded_threats(obs):
    """Every opponent in riichi (not won) is overloaded: a ron on its discards gets +2 han."""
    mask = threats(obs)
    if mask == 0:
        return False
    for p in range(4):
        if (mask >> p) & 1 and obs[ROBS.soul_strike + SS_OVER + p] == 0:
            return False
    return True


@hook
def strike_timer_turn(obs, params, tables):
    defend = True
    if params[P_PUSH] > 2 and only_overloaded_threats(obs) and best_discard_shanten(obs, tables) < params[P_PUSH]:
        defend = False  # push on: the overloaded riichi seat pays +2 han when it deals in
    answer = riichi_turn(obs, tables, defend, True)
    if RIICHI <= answer < RIICHI + 34 and not riichi_now(obs, params, tables, answer - RIICHI):
        return answer - RIICHI
    return answer


@nb.njit(cache=True)
def break_call(obs, tables, mode):
    """A pon or chi of the discard, or 0: mode 1 any call that does not worsen the hand's shanten; mode 2 only a
    call that lowers it and keeps a yaku in reach (policies.riichi_common.open_hand_has_yaku_path)."""
    tile = obs[ROBS.tile]
    now = own_shanten(obs, tables)
    strict = mode >= 2
    if strict and not open_hand_has_yaku_path(obs, tile):
        return 0
    slack = -1 if strict else 0
    if obs[ROBS.can_pon] and shanten_after_call(obs, tables, tile, tile) <= now + slack:
        return PON
    bits = obs[ROBS.can_chi]
    options = ((1, CHI_LOW, tile + 1, tile + 2), (2, CHI_MID, tile - 1, tile + 1), (4, CHI_HIGH, tile - 2, tile - 1))
    for bit, answer, a, b in options:
        if bits & bit and shanten_after_call(obs, tables, a, b) <= now + slack:
            return answer
    return 0


@hook
def strike_timer_react(obs, params, tables):
    if obs[ROBS.can_win]:
        return RON
    striker = obs[ROBS.from_seat]
    if params[P_BREAK] != 0 and obs[ROBS.soul_strike + SS_ACTIVE + striker] == 1 and \
            obs[ROBS.soul_strike + SS_LEFT + striker] >= params[P_BREAK_MIN_LEFT]:
        answer = break_call(obs, tables, params[P_BREAK])
        if answer != 0:
            return answer
    return riichi_react(obs, tables, params[P_CLOSED] == 0)


POLICIES = [
    Policy(
        name="strike-timer",
        description="Soul strike (SS): riichi only with a good wait or a short wall (else dama with a yaku); "
                    "calls to break other players' strike turns.",
        hooks={},
        riichi_hooks={"turn": strike_timer_turn, "react": strike_timer_react},
        modes=("soul-strike",),
        params=(
            Param("min_live", int, 2, "unseen winning tiles that make a wait good enough for riichi"),
            Param("short_wall", int, 8, "riichi whatever the wait at or below this many wall tiles"),
            Param("yakuless_riichi", int, 1, "1 = riichi a weak wait anyway when dama has no yaku"),
            Param("break_strike", int, 2, "pon/chi a striker's discard: 0 never, 1 when shanten does not get "
                                          "worse, 2 only when it improves and keeps a yaku in reach"),
            Param("break_min_left", int, 4, "strike turns the striker must have left to be worth breaking"),
            Param("push", int, 2, "fold against riichi only from this many shanten when every riichi seat is "
                                  "overloaded (2 = baseline's threshold)"),
            Param("stay_closed", int, 0, "1 = no calls but strike-breaking ones (keeps the 2-han riichi open)"),
        ),
    ),
]
