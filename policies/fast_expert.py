"""`fast-expert`: the riichi-family player of rules that `expert` was before it played the discard prior (issues 16
and 30), four times its speed: the rollout player of advise, review and the agreement benchmark in the riichi
modes (analyzer.advise.position_advice.default_rollout_field). Every riichi-core mode plays it as plain riichi.

Own turn, after baseline's tsumo, nine terminals, riichi tsumogiri and closed kans:
- Candidates: the discards allowed; an open hand whose yaku plan (policies.hand_judgment) wants tiles gone
  (terminals and honors for tanyao, other suits for a flush) gives them up first.
- The attacking discard: at 3+ shanten the shape order (riichi_common.far_key); nearer, among the candidates
  that keep the lowest shanten and 3/4 of the best acceptance, the one giving up least — least deal-in cost
  when threatened, else least value (dora, the last red five, a yakuhai pair) — then the most accepting.
- Facing a threat (policies.danger: a riichi, or open melds that look ready) a discard is pushed when its
  expected deal-in cost, in points, is at most `push` percent of what attacking wins: win_chance × the value
  of the hand (scored on its winning tiles when ready, policies.win_value; else hand_judgment's estimate).
  The attacking discard if it passes, else the most accepting one that keeps the shanten and passes, else the
  hand folds: the least cost, then the least shanten, then the most copies.
- Riichi or dama on a ready discard (R-4), by rules (`stays_dama`, the ron scored on each winning tile by
  policies.win_value): dama when 3/4 of the live winning tiles give a yaku and a ron pays `dama_value` points or
  more on average (half as much again for the dealer), and on a wait of at most two live tiles at `late_wall`
  wall tiles or fewer; riichi otherwise, also after another seat's win (shura, S2). With `judge_riichi` 1, where
  the discard prior's riichi judgement says strong players declare, as `expert` does: riichi as often as people
  but weaker 1v3, and no better a rollout field (README, `tsumolab realism`).
- Calls: policies.expert_calls. Exchange (shura), robbing a kan and the modes' own decisions: baseline's.
"""

import numba as nb
import numpy as np

from tsumolab.policies.api import hook
from tsumolab.policies.danger import discard_costs
from tsumolab.policies.discard_prior import declares_riichi
from tsumolab.policies.expert_calls import call_answer
from tsumolab.policies.hand_judgment import (
    FREE, expected_han, hand_han, han_points, keep_plan, win_chance, yaku_plan,
)
from tsumolab.policies.registry import Param, Policy
from tsumolab.policies.riichi_api import RIICHI, ROBS
from tsumolab.policies.riichi_baseline import riichi_turn_before_discard
from tsumolab.policies.win_value import ready_value
from tsumolab.policies.riichi_common import (
    discard_acceptance, far_key, forbidden_kinds, hand_of, is_dora, is_yakuhai, live_waits_after,
    lowest_discard_shanten, n_melds_of, unseen,
)
from tsumolab.sims.shanten import NOT_APPLICABLE
from tsumolab.sims.shanten_tables import SUIT_ROWS

# parameter slots, in the order POLICY declares them
P_CALL_SHANTEN, P_PUSH, P_DAMA_VALUE, P_LATE_WALL, P_JUDGE_RIICHI = 0, 1, 2, 3, 4
DAMA_HAN_SLACK = 3  # han of yaku hand_han does not count (pinfu, iipeikou, ittsu, sanshoku, seven pairs …)


@nb.njit(cache=True)
def candidates(obs, hand, after):
    """`after` holds the shanten after each discard allowed (NOT_APPLICABLE for the rest); an open hand whose plan
    wants tiles gone keeps only those (hand_judgment.keep_plan). Returns the lowest shanten left."""
    allowed = np.zeros(34, np.uint8)
    for k in range(34):
        allowed[k] = after[k] < NOT_APPLICABLE
    keep_plan(obs, hand, allowed)
    best = NOT_APPLICABLE
    for k in range(34):
        if not allowed[k]:
            after[k] = NOT_APPLICABLE
        best = min(best, after[k])
    return best


@nb.njit(cache=True)
def tile_value(obs, k):
    """What discarding one copy of kind k gives up: 1 per dora, 1 for the last red five of its suit, 1 for a
    yakuhai pair or triplet."""
    value = 1 if is_dora(obs, k) else 0
    if k < 27 and k % 9 == 4 and obs[ROBS.red + k // 9] and obs[ROBS.hand + k] == 1:
        value += 1
    if k >= 27 and obs[ROBS.hand + k] >= 2 and is_yakuhai(obs, k):
        value += 1
    return value


@nb.njit(cache=True)
def acceptances(obs, tables, hand, after, best, accept):
    """accept[k] gets the unseen tiles that bring the hand below `best` once k is discarded, for the candidates
    keeping `best` (-1 for the rest); returns the most."""
    left = unseen(obs)
    drawn = np.empty(34, np.int64)
    most = 0
    for k in range(34):
        accept[k] = -1
        if after[k] == best:
            accept[k] = discard_acceptance(hand, k, n_melds_of(obs), best, left, tables[:SUIT_ROWS],
                                           tables[SUIT_ROWS:], drawn)
            most = max(most, accept[k])
    return most


@nb.njit(cache=True)
def attacking_discard(obs, hand, after, best, accept, most, costs, threatened):
    """The attacking discard (module docstring)."""
    choice, choice_key = -1, -(1 << 60)
    for k in range(34):
        if after[k] != best:
            continue
        if best >= 3:
            key = -far_key(obs, hand, k)
        elif 4 * accept[k] < 3 * most:
            continue
        else:
            give_up = costs[k] if threatened else tile_value(obs, k)
            key = -give_up * 1024 + accept[k]
        if key > choice_key:
            choice, choice_key = k, key
    return choice


@nb.njit(cache=True)
def ready_worth(obs, tables, hand, kind):
    """(mean points of a ron, live winning tiles) once `kind` is discarded from the ready hand: a closed hand's
    riichi, with a quarter more for ura, ippatsu and tsumo; an open hand's as it stands (win_value)."""
    waits = np.zeros(34, np.int64)
    live_waits_after(obs, tables, kind, waits)
    closed = not obs[ROBS.open + obs[ROBS.seat]]
    hand[kind] -= 1
    points, _, live = ready_value(obs, hand, waits, 1 if closed else 0)
    hand[kind] += 1
    return (points + points // 4 if closed else points), live


@nb.njit(cache=True)
def push_worth(obs, tables, hand, kind, shanten, accept):
    """What attacking with discard `kind` wins, in points: win_chance × the value of the hand after it (scored
    when ready, else hand_judgment's estimate)."""
    if shanten == 0:
        value, live = ready_worth(obs, tables, hand, kind)
        return win_chance(obs, 0, live) * value // 1000
    hand[kind] -= 1
    value = han_points(obs, expected_han(obs, hand, yaku_plan(obs, hand)))
    hand[kind] += 1
    return win_chance(obs, shanten, accept) * value // 1000


@nb.njit(cache=True)
def passes(obs, params, tables, hand, kind, shanten, accept, costs):
    """Discarding `kind` is worth its deal-in cost (module docstring)."""
    if costs[kind] == 0:
        return True
    return costs[kind] * 100 <= push_worth(obs, tables, hand, kind, shanten, accept) * params[P_PUSH]


@nb.njit(cache=True)
def fold_discard(obs, hand, shanten_of, costs):
    """The candidate of least deal-in cost, then least shanten after it, then most copies (`shanten_of`: shanten
    per discard, NOT_APPLICABLE for discards not allowed)."""
    choice, choice_key = -1, 1 << 60
    for k in range(34):
        if shanten_of[k] >= NOT_APPLICABLE:
            continue
        key = costs[k] * 1024 + shanten_of[k] * 8 - hand[k]
        if key < choice_key:
            choice, choice_key = k, key
    return choice


@nb.njit(cache=True)
def defended_discard(obs, params, tables, hand, after, best, accept, kind, costs, allowed):
    """Facing a threat: `kind` (the attacking discard) if it passes, else the most accepting candidate keeping
    the shanten that passes, else the fold discard over every `allowed` one."""
    if best < 3 and passes(obs, params, tables, hand, kind, best, accept[kind], costs):
        return kind
    choice = -1
    for k in range(34):
        if after[k] == best and best < 3 and (choice < 0 or accept[k] > accept[choice]) \
                and passes(obs, params, tables, hand, k, best, accept[k], costs):
            choice = k
    if choice >= 0:
        return choice
    return fold_discard(obs, hand, allowed, costs)


@nb.njit(cache=True)
def stays_dama(obs, params, tables, hand, kind):
    """Skip the riichi that discards `kind` (module docstring). The ron is scored only when the quick estimate of
    the hand (hand_judgment.hand_han) plus DAMA_HAN_SLACK han, for the yaku it does not see, could pay enough."""
    waits = np.zeros(34, np.int64)
    live = live_waits_after(obs, tables, kind, waits)
    if live <= 2 and obs[ROBS.wall_left] <= params[P_LATE_WALL]:
        return True
    enough = params[P_DAMA_VALUE] * (3 if obs[ROBS.seat] == obs[ROBS.dealer] else 2) // 2
    hand[kind] -= 1
    dama = False
    if han_points(obs, hand_han(obs, hand, FREE) + DAMA_HAN_SLACK) >= enough:
        points, with_yaku, live = ready_value(obs, hand, waits, 0)
        dama = with_yaku > 0 and 4 * with_yaku >= 3 * live and points >= enough
    hand[kind] += 1
    return dama


@nb.njit(cache=True)
def declares(obs, params, tables, hand, kind):
    """Riichi on the ready discard `kind` (module docstring)."""
    if params[P_JUDGE_RIICHI]:
        return declares_riichi(obs, tables, kind)
    return not stays_dama(obs, params, tables, hand, kind)


@hook
def turn(obs, params, tables):
    action = riichi_turn_before_discard(obs, tables)
    if action >= 0:
        return action
    forbid_a, forbid_b = forbidden_kinds(obs)
    hand = hand_of(obs).copy()
    allowed = np.empty(34, np.int64)
    lowest_discard_shanten(obs, tables, hand, forbid_a, forbid_b, allowed)
    for k in range(34):
        if hand[k] == 0 or k == forbid_a or k == forbid_b:
            allowed[k] = NOT_APPLICABLE
    after = allowed.copy()
    best = candidates(obs, hand, after)
    costs = np.zeros(34, np.int64)
    threatened = discard_costs(obs, costs) > 0
    accept = np.full(34, -1, np.int64)
    most = acceptances(obs, tables, hand, after, best, accept) if best < 3 else 0
    kind = attacking_discard(obs, hand, after, best, accept, most, costs, threatened)
    if threatened:
        kind = defended_discard(obs, params, tables, hand, after, best, accept, kind, costs, allowed)
    if after[kind] == 0 and obs[ROBS.can_riichi] and declares(obs, params, tables, hand, kind):
        return RIICHI + kind
    return kind


@hook
def react(obs, params, tables):
    return call_answer(obs, tables, params[P_CALL_SHANTEN])


POLICY = Policy(
    name="fast-expert",
    description="expert's riichi play by rules (the expert of issues 16-30): reads each tile's danger, pushes or "
                "folds by value, shape and threat, riichi or dama, yakuhai / tanyao / flush calls; four times "
                "expert's speed, advise's rollout player (riichi modes).",
    params=(
        Param("call_shanten", int, 2, "a closed hand opens for a yaku-keeping call that leaves it this many shanten "
                                      "or fewer"),
        Param("push", int, 200, "against a threat, push a discard whose expected deal-in cost is at most this "
                                "percent of what attacking wins (0 = always fold)"),
        Param("dama_value", int, 8000, "stay dama when a ron without riichi has a yaku and pays this many points "
                                       "on average (a dealer half as much again; 99999 = never)"),
        Param("late_wall", int, 12, "no riichi without a yaku on a wait of at most 2 live tiles at or below this "
                                    "many wall tiles (-1 = never)"),
        Param("judge_riichi", int, 0, "1: riichi or dama where the discard prior's riichi judgement says strong "
                                      "players declare, as expert (dama_value and late_wall unused)"),
    ),
    hooks={},
    riichi_hooks={"turn": turn, "react": react},  # exchange, robbing a kan and the modes' own decisions: baseline's
    modes=("riichi", "shura"),
)
