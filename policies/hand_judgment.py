"""What a riichi-family hand is worth and how likely it wins, as `expert` weighs them against a discard's danger
(policies.danger), and the yaku an open hand is built around. Every function is jit-compiled.

- `yaku_plan`: the yaku an open hand keeps. FREE when one is sure (a yakuhai triplet, melded or concealed) or
  the hand is closed (riichi gives one); TANYAO when every meld is of simples; the suit 0..2 when every meld
  lies in one suit or honors (honitsu); NO_YAKU otherwise. `off_plan` says which discards the plan wants gone.
- `hand_han`: han the hand holds before riichi: dora and red fives, yakuhai triplets, tanyao (all simples, or
  the TANYAO plan), honitsu (a flush plan, or a closed hand of one suit and honors: 2 open, 3 closed); 0 for
  an open hand with NO_YAKU, which cannot win. `expected_han` adds riichi and its extras (ura, tsumo, ippatsu)
  for a closed hand that would declare.
- `han_points`: a non-dealer's ron value of that many han at 30-40 fu, half as much again for the dealer.
- `win_chance` (per mille): a win from this shanten with this acceptance (or live winning tiles, when ready) and
  the wall left, rough figures of a hand racing a threat.
"""

from __future__ import annotations

import numba as nb

from tsumolab.policies.danger import NO_LOOK, TANYAO_LOOK, meld_look
from tsumolab.policies.riichi_api import ROBS
from tsumolab.policies.riichi_common import is_dora, is_simple, is_yakuhai

FREE, TANYAO, NO_YAKU = -1, -2, -3
RIICHI_EXTRA = 2  # riichi itself plus what it brings on average (ura, tsumo, ippatsu), rounded up


@nb.njit(cache=True)
def own_meld(obs, k):
    return obs[ROBS.meld_tiles + 34 * obs[ROBS.seat] + k]


@nb.njit(cache=True)
def yaku_plan(obs, hand):
    """The yaku the seat's hand is built around (module docstring); `hand`: its concealed counts."""
    for k in range(27, 34):
        if is_yakuhai(obs, k) and (own_meld(obs, k) >= 3 or hand[k] >= 3):
            return FREE
    if not obs[ROBS.open + obs[ROBS.seat]]:
        return FREE
    look = meld_look(obs, obs[ROBS.seat])
    if look == TANYAO_LOOK:
        return TANYAO
    return NO_YAKU if look == NO_LOOK else look


@nb.njit(cache=True)
def off_plan(plan, k):
    """Kind k works against the plan: a terminal or honor for TANYAO, a kind of another suit for a flush."""
    if plan == TANYAO:
        return not is_simple(k)
    if plan >= 0:
        return k < 27 and k // 9 != plan
    return False


@nb.njit(cache=True)
def keep_plan(obs, hand, allowed):
    """A hand whose yaku plan wants tiles gone (off_plan; only an open hand's can) may discard only those: allowed
    (34 flags, 1 = may discard) loses the other kinds. `hand`: the concealed counts."""
    plan = yaku_plan(obs, hand)
    steer = False
    for k in range(34):
        if allowed[k] and off_plan(plan, k):
            steer = True
    for k in range(34):
        if steer and not off_plan(plan, k):
            allowed[k] = 0


@nb.njit(cache=True)
def flush_suit(obs, hand):
    """The suit every concealed and melded tile lies in (with honors), or -1."""
    suits = 0
    for k in range(27):
        if hand[k] + own_meld(obs, k) > 0:
            suits |= 1 << (k // 9)
    for s in range(3):
        if suits == 1 << s:
            return s
    return -1


@nb.njit(cache=True)
def hand_han(obs, hand, plan):
    """Han before riichi (module docstring); `hand`: concealed counts."""
    if plan == NO_YAKU:
        return 0
    closed = not obs[ROBS.open + obs[ROBS.seat]]
    han, simple = 0, True
    for k in range(34):
        copies = hand[k] + own_meld(obs, k)
        if copies == 0:
            continue
        if is_dora(obs, k):
            han += copies
        if copies >= 3 and is_yakuhai(obs, k):
            han += 1
        if not is_simple(k):
            simple = False
    for s in range(3):
        han += obs[ROBS.red + s]
    if simple or plan == TANYAO:
        han += 1
    if plan >= 0 or flush_suit(obs, hand) >= 0:
        han += 3 if closed else 2
    return han


@nb.njit(cache=True)
def expected_han(obs, hand, plan):
    """hand_han, plus RIICHI_EXTRA for a closed hand."""
    han = hand_han(obs, hand, plan)
    if not obs[ROBS.open + obs[ROBS.seat]]:
        han += RIICHI_EXTRA
    return han


@nb.njit(cache=True)
def han_points(obs, han):
    """Ron value of `han` han (module docstring); 0 for no han."""
    if han <= 0:
        return 0
    points = 1300 if han == 1 else 2600 if han == 2 else 5200 if han == 3 else 8000 if han <= 5 else \
        12000 if han <= 7 else 16000 if han <= 10 else 24000 if han <= 12 else 32000
    if obs[ROBS.seat] == obs[ROBS.dealer]:
        points += points // 2
    return points


@nb.njit(cache=True)
def win_chance(obs, shanten, accept):
    """Per mille chance to win from `shanten` with `accept` tiles that advance it (module docstring)."""
    turns = obs[ROBS.wall_left] // 4
    if shanten == 0:
        return min(600, 55 * accept) * min(turns, 8) // 8
    if shanten == 1:
        return min(300, 12 * accept) * min(turns, 12) // 12
    if shanten == 2:
        return min(100, 3 * accept) * min(turns, 15) // 15
    return 10 * min(turns, 15) // 15
