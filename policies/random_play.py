"""`random`: a uniformly random legal answer at every decision (the floor any strategy must beat)."""

import numpy as np

from tsumolab.policies.api import BOBS, KAN, PASS, RON, TSUMO, hook, pack_exchange
from tsumolab.policies.common import add_answer, add_claim_answers, own_hand, rand_below, suit_count, take_nth_tile
from tsumolab.policies import riichi_builtin
from tsumolab.policies.registry import Policy


@hook
def exchange(obs, params, tables):
    hand = own_hand(obs).copy()
    suits = np.empty(3, np.int64)
    n = 0
    for s in range(3):
        if suit_count(hand, s) >= 3:
            suits[n] = s
            n += 1
    suit = suits[rand_below(obs, n)]
    chosen = np.empty(3, np.int64)
    for i in range(3):
        chosen[i] = take_nth_tile(hand, rand_below(obs, suit_count(hand, suit)), suit * 9, suit * 9 + 9)
    return pack_exchange(chosen[0], chosen[1], chosen[2])


@hook
def void(obs, params, tables):
    return rand_below(obs, 3)


@hook
def turn(obs, params, tables):
    actions = np.empty(64, np.int64)
    n = add_answer(actions, 0, obs[BOBS.can_win], TSUMO)
    for k in range(34):
        n = add_answer(actions, n, obs[BOBS.kan_options + k] > 0, KAN + k)
        n = add_answer(actions, n, own_hand(obs)[k] > 0, k)
    return actions[rand_below(obs, n)]


@hook
def react(obs, params, tables):
    actions = np.empty(4, np.int64)
    n = add_claim_answers(actions, obs[BOBS.can_win], obs[BOBS.can_pon], obs[BOBS.can_kan])
    return actions[rand_below(obs, n)]


@hook
def rob(obs, params, tables):
    return RON if obs[BOBS.can_win] and rand_below(obs, 2) == 1 else PASS


POLICY = Policy(
    name="random",
    description="Uniformly random legal action at every decision.",
    hooks={"exchange": exchange, "void": void, "turn": turn, "react": react, "rob": rob},
    riichi_hooks=riichi_builtin.RANDOM_HOOKS,
    modes=("bloodshed", "riichi", "shura"),
)
