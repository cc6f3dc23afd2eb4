"""Riichi-family hooks of `expert` (policies.expert): a player that discards, defends and declares riichi as strong
players do. Every riichi-core mode plays them as plain riichi.

Own turn, after baseline's tsumo, nine terminals, riichi tsumogiri and closed kans: the discard strong players
most likely make there (policies.discard_prior: the discard prior learned from Tenhou Phoenix games, which weighs
shanten, acceptance, waits, value, each tile's deal-in cost and safety against the threats of policies.danger,
and the seat's situation), among the candidates: the discards allowed, and for an open hand whose yaku plan
(policies.hand_judgment) wants tiles gone (terminals and honors for tanyao, other suits for a flush) only those.
With a discard that leaves the hand ready it declares riichi where the prior's riichi judgement says strong
players would (R-4). Calls: policies.expert_calls. Exchange (shura), robbing a kan and the modes' own decisions:
baseline's.
"""

import numpy as np

from tsumolab.policies.api import hook
from tsumolab.policies.discard_features import N_FEATURES, discard_features
from tsumolab.policies.discard_prior import declares_riichi, likeliest_discard
from tsumolab.policies.expert_calls import call_answer
from tsumolab.policies.hand_judgment import keep_plan
from tsumolab.policies.riichi_api import RIICHI
from tsumolab.policies.riichi_baseline import riichi_turn_before_discard
from tsumolab.policies.riichi_common import hand_of

P_CALL_SHANTEN = 4  # parameter slot of the riichi hooks (policies.expert declares all of them)


@hook
def turn(obs, params, tables):
    action = riichi_turn_before_discard(obs, tables)
    if action >= 0:
        return action
    rows = np.zeros((34, N_FEATURES))
    allowed = np.zeros(34, np.uint8)
    discard_features(obs, tables, rows, allowed)
    keep_plan(obs, hand_of(obs).copy(), allowed)
    kind = likeliest_discard(rows, allowed)
    if declares_riichi(obs, tables, kind):
        return RIICHI + kind
    return kind


@hook
def react(obs, params, tables):
    return call_answer(obs, tables, params[P_CALL_SHANTEN])


HOOKS = {"turn": turn, "react": react}  # exchange, robbing a kan and the modes' own decisions: baseline's
