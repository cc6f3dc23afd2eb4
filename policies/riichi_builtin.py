"""Riichi-family hooks of the built-in `random`, `majsoul-cpu` and `disconnected` policies.

- random: a uniformly random legal answer at every decision.
- majsoul-cpu: the recommended exchange (S-16), efficient discards, riichi when tenpai, closed kans, never
  calls, never passes a win, no defense (the sources do not describe the CPU's riichi play further).
- disconnected: the recommended exchange (S-16), discards the drawn tile, never calls or declares riichi; wins
  only with its `take_wins` parameter (as in Bloodshed, B-25).
"""

import numba as nb
import numpy as np

from tsumolab.policies.api import hook, pack_exchange
from tsumolab.policies.riichi_api import (
    CHI_HIGH, CHI_LOW, CHI_MID, KAN, NINE_TERMINALS, PASS, RIICHI, ROBS, RON, TSUMO, TSUMOGIRI,
)
from tsumolab.policies.common import add_answer, add_claim_answers, rand_below_at, take_nth_tile, tsumo_or_closed_kan
from tsumolab.policies.riichi_api import D_PICK, can_win, kan_options
from tsumolab.policies.riichi_mode_default import mode_default
from tsumolab.policies.riichi_baseline import riichi_turn
from tsumolab.policies.riichi_common import hand_of, n_melds_of, recommended_exchange
from tsumolab.sims.shanten import RIICHI_SHAPES, discard_shanten
from tsumolab.sims.shanten_tables import SUIT_ROWS


@nb.njit(cache=True)
def riichi_rand_below(obs, n):
    """Uniform integer in [0, n) from the seat's random stream at the riichi layout's ROBS.rng."""
    return rand_below_at(obs, ROBS.rng, n)


@hook
def random_exchange(obs, params, tables):
    hand = hand_of(obs).copy()
    chosen = np.empty(3, np.int64)
    for i in range(3):
        chosen[i] = take_nth_tile(hand, riichi_rand_below(obs, hand.sum()), 0, 34)
    return pack_exchange(chosen[0], chosen[1], chosen[2])


@hook
def random_turn(obs, params, tables):
    actions = np.empty(128, np.int64)
    n = add_answer(actions, 0, obs[ROBS.can_win], TSUMO)
    n = add_answer(actions, n, obs[ROBS.can_nine], NINE_TERMINALS)
    in_riichi = obs[ROBS.riichi + obs[ROBS.seat]] > 0
    after = np.empty(34, np.int64)
    if obs[ROBS.can_riichi]:
        discard_shanten(hand_of(obs), n_melds_of(obs), RIICHI_SHAPES, tables[:SUIT_ROWS], tables[SUIT_ROWS:], after)
    for k in range(34):
        n = add_answer(actions, n, obs[ROBS.kan_options + k] > 0, KAN + k)
        if in_riichi:
            continue
        if obs[ROBS.hand + k] > 0 and not (obs[ROBS.after_call] and (k == obs[ROBS.forbid_a] or
                                                                     k == obs[ROBS.forbid_b])):
            actions[n] = k
            n += 1
            if obs[ROBS.can_riichi] and after[k] == 0:
                actions[n] = RIICHI + k
                n += 1
    if in_riichi:
        actions[n] = obs[ROBS.tile]
        n += 1
    return actions[riichi_rand_below(obs, n)]


@hook
def random_react(obs, params, tables):
    actions = np.empty(8, np.int64)
    n = add_claim_answers(actions, obs[ROBS.can_win], obs[ROBS.can_pon], obs[ROBS.can_kan])
    bits = obs[ROBS.can_chi]
    n = add_answer(actions, n, bits & 1, CHI_LOW)
    n = add_answer(actions, n, bits & 2, CHI_MID)
    n = add_answer(actions, n, bits & 4, CHI_HIGH)
    return actions[riichi_rand_below(obs, n)]


@hook
def recommended_exchange_hook(obs, params, tables):
    return recommended_exchange(obs)


@hook
def cpu_turn(obs, params, tables):
    action = tsumo_or_closed_kan(can_win(obs), kan_options(obs), 34)
    return action if action >= 0 else riichi_turn(obs, tables, False, True)


@hook
def win_only_react(obs, params, tables):
    return RON if obs[ROBS.can_win] else PASS


@hook
def disconnected_turn(obs, params, tables):
    if obs[ROBS.can_win] and params[0] > 0:
        return TSUMO
    if obs[ROBS.tile] >= 0:
        return TSUMOGIRI  # auto-play discards the very copy drawn
    for k in range(33, -1, -1):  # the dealer's first turn after the exchange has no drawn tile
        if obs[ROBS.hand + k] > 0:
            return k
    return 0


@hook
def disconnected_react(obs, params, tables):
    return RON if obs[ROBS.can_win] and params[0] > 0 else PASS


@hook
def random_mode(obs, params, tables):
    """A mode's own decisions: a uniformly random candidate of the astrology pool (A); others as baseline."""
    if obs[ROBS.decision] == D_PICK:
        return riichi_rand_below(obs, max(1, obs[ROBS.astrology]))  # obs[ROBS.astrology] = pool size
    return mode_default(obs, params, tables)


RANDOM_HOOKS = {"exchange": random_exchange, "turn": random_turn, "react": random_react, "rob": random_react,
                "mode": random_mode}
CPU_HOOKS = {"exchange": recommended_exchange_hook, "turn": cpu_turn, "react": win_only_react,
             "rob": win_only_react}
DISCONNECTED_HOOKS = {"exchange": recommended_exchange_hook, "turn": disconnected_turn, "react": disconnected_react,
                      "rob": disconnected_react}
