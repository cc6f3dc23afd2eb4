"""`card-reader` for `fantasy` (RULES.md FL): baseline riichi play adjusted to the match's three cards, read from
the public block obs[ROBS.fantasy] (sims.riichi.fantasy_cards):

- riichi: always when tenpai and allowed under 胜负手 / 里世界 / 三倍速 (riichi is worth more), and as the dealer
  under 风纪 (a closed dama dealer cannot ron); otherwise under 过度准备 (riichi costs 2000) only with a good
  wait (≥ 5 unseen winning tiles) or when the hand has no yaku of its own, and under 厄运沙漏 (every discard
  after riichi cuts 300) dama when the hand already has a yaku (tanyao or a yakuhai triplet);
- calls: under 暗中交易 / 爱的代价 (a call pays 500 / 2000) only yakuhai pons, and never a dora under 爱的代价;
  under 胜负手 / 里世界 stay closed (only yakuhai pons) to keep riichi; under 超断幺 (tanyao 3 han, open too)
  chi and pon simples toward an all-simples hand like an open hand would (up to 3 shanten after the call);
- discards: under 超断幺, when the baseline discard is a simple and a terminal or honor discard keeps the same
  shanten and three quarters of the acceptance, that one goes.
Defense, wins and everything else as baseline. In other riichi modes the block reads 0 and it plays baseline.
"""

import numba as nb
import numpy as np

from tsumolab.policies.api import hook
from tsumolab.policies.chanter import acceptance, keeps_acceptance
from tsumolab.policies.registry import Policy
from tsumolab.policies.riichi_api import PASS, PON, RIICHI, ROBS, RON
from tsumolab.policies.riichi_baseline import riichi_react, riichi_turn
from tsumolab.policies.riichi_common import (
    best_discard_shanten, call_improves, chi_choice, forbidden_kinds, hand_of, is_dora, is_open, is_yakuhai,
    lowest_discard_shanten, open_hand_has_yaku_path, own_shanten, shanten_after_call, threats,
)

# card codes of sims.riichi.fantasy_cards / sims.riichi.scoring (kept here as plain numbers: policies read obs)
FUUKI = 1
OTHERWORLD, TRIPLE_SPEED, SUPER_TANYAO, SHOWDOWN = 1, 2, 4, 5
OVER_PREPARED, HOURGLASS, SHADY_DEAL, LOVE_PRICE = 2, 3, 4, 5
GOOD_WAIT = 5


@nb.njit(cache=True)
def _terminal_or_honor(k):
    return k >= 27 or k % 9 == 0 or k % 9 == 8


@nb.njit(cache=True)
def has_own_yaku(obs, discard):
    """After discarding `discard`, a closed hand with a yaku besides riichi: all simples, or a yakuhai triplet."""
    simples = True
    for k in range(34):
        c = obs[ROBS.hand + k] - (1 if k == discard else 0)
        if c <= 0:
            continue
        if _terminal_or_honor(k):
            simples = False
        if c >= 3 and is_yakuhai(obs, k):
            return True
    return simples


@nb.njit(cache=True)
def wants_riichi(obs, tables, discard):
    """Declare riichi discarding `discard` (baseline would) under the match's cards?"""
    dealer_card = obs[ROBS.fantasy]
    chance = obs[ROBS.fantasy + 1]
    fate = obs[ROBS.fantasy + 2]
    if dealer_card == FUUKI and obs[ROBS.dealer] == obs[ROBS.seat]:
        return True
    if chance == SHOWDOWN or chance == OTHERWORLD or chance == TRIPLE_SPEED:
        return True
    if fate == OVER_PREPARED:
        if not has_own_yaku(obs, discard):
            return True
        hand = hand_of(obs).copy()
        return acceptance(obs, tables, hand, discard, 0) >= GOOD_WAIT
    if fate == HOURGLASS:
        return not has_own_yaku(obs, discard)
    return True


@nb.njit(cache=True)
def tanyao_discard(obs, tables, kind):
    """超断幺: a terminal or honor with the same shanten after it instead of the simple `kind`, if any keeps
    three quarters of the acceptance."""
    if _terminal_or_honor(kind):
        return kind
    hand = hand_of(obs).copy()
    forbid_a, forbid_b = forbidden_kinds(obs)
    after = np.empty(34, np.int64)
    lowest_discard_shanten(obs, tables, hand, forbid_a, forbid_b, after)
    for k in range(34):
        if hand[k] > 0 and _terminal_or_honor(k) and k != forbid_a and k != forbid_b and after[k] == after[kind] \
                and keeps_acceptance(obs, tables, hand, kind, k, after[kind]):
            return k
    return kind


@hook
def card_reader_turn(obs, params, tables):
    answer = riichi_turn(obs, tables, True, False)
    if obs[ROBS.fantasy] == 0:
        return answer
    folding = threats(obs) != 0 and best_discard_shanten(obs, tables) >= 2
    if RIICHI <= answer < RIICHI + 34:
        kind = answer - RIICHI
        return answer if wants_riichi(obs, tables, kind) else kind
    in_riichi = obs[ROBS.riichi + obs[ROBS.seat]] > 0  # a seat in riichi discards its draw, no swap
    if 0 <= answer < 34 and not folding and not in_riichi and obs[ROBS.fantasy + 1] == SUPER_TANYAO:
        return tanyao_discard(obs, tables, answer)
    return answer


@nb.njit(cache=True)
def yakuhai_pon_only(obs, tables):
    tile = obs[ROBS.tile]
    if obs[ROBS.can_pon] and threats(obs) == 0 and is_yakuhai(obs, tile) and call_improves(obs, tables, tile, tile,
                                                                                         tile):
        return PON
    return PASS


@hook
def card_reader_react(obs, params, tables):
    if obs[ROBS.can_win]:
        return RON
    chance = obs[ROBS.fantasy + 1]
    fate = obs[ROBS.fantasy + 2]
    tile = obs[ROBS.tile]
    if fate == LOVE_PRICE and is_dora(obs, tile):
        return PASS
    if fate == SHADY_DEAL or fate == LOVE_PRICE:
        return yakuhai_pon_only(obs, tables)
    if (chance == SHOWDOWN or chance == OTHERWORLD) and not is_open(obs):
        return yakuhai_pon_only(obs, tables)
    if chance == SUPER_TANYAO and threats(obs) == 0 and not _terminal_or_honor(tile) and \
            open_hand_has_yaku_path(obs, tile):
        if obs[ROBS.can_pon]:
            now = own_shanten(obs, tables)
            if shanten_after_call(obs, tables, tile, tile) < now:
                return PON
        choice = chi_choice(obs, tables, 3)
        if choice != 0:
            return choice
    return riichi_react(obs, tables, True)


POLICIES = [
    Policy(
        name="card-reader",
        description="Baseline riichi play adjusted to the fantasy cards: riichi, dama and calls by card (FL).",
        hooks={},
        riichi_hooks={"turn": card_reader_turn, "react": card_reader_react},
        modes=("fantasy",),
    ),
]
