"""`star-picker` for `astrology` (RULES.md A): baseline riichi play with a mode-aware choice of candidate.

The pool is public and a candidate left in it goes to the next drawers, so what is taken matters both for
the own hand and for what is left to others:
- a winning candidate is always taken;
- in riichi (the picked tile will be discarded unless it wins): the candidate safest against the other
  riichi seats (genbutsu, suji, honors), so the forced discard does not deal in;
- folding (baseline's rule: an opponent in riichi and the hand 2+ shanten): with at least `safe_keep` safe
  tiles in hand, take (deny) the candidate most dangerous to the riichi seats — it is held, never discarded,
  and cannot be drawn by a riichi seat; with fewer, take the safest candidate;
- otherwise: lowest shanten after the best discard; among ties, acceptance (near tenpai), plus `value` ×
  (dora, red five, yakuhai held) and, facing riichi, `deny` × safety of the tile (a tied candidate is often the
  next discard).
In other riichi modes there is no pool: plays baseline.
"""

import numba as nb
import numpy as np

from tsumolab.policies.api import hook
from tsumolab.policies.astrology_pick import (
    acceptance_after, candidate, candidate_shanten, needs_acceptance, pool_size, shape_key, visible_unseen,
)
from tsumolab.policies.registry import Param, Policy
from tsumolab.policies.riichi_api import D_PICK, ROBS
from tsumolab.policies.riichi_common import is_dora, is_yakuhai, safety, threats
from tsumolab.policies.riichi_mode_default import mode_default
from tsumolab.sims.riichi.astrology_pool import A_RED


@nb.njit(cache=True)
def _safe_tiles(obs, mask):
    n = 0
    for k in range(34):
        if obs[ROBS.hand + k] > 0 and safety(obs, k, mask) == 3:
            n += obs[ROBS.hand + k]
    return n


@nb.njit(cache=True)
def star_pick(obs, tables, value, deny, safe_keep):
    n = pool_size(obs)
    if n <= 1:
        return 0
    sh = np.empty(3, np.int64)
    best = candidate_shanten(obs, tables, sh)
    for i in range(n):
        if sh[i] < 0:
            return i
    mask = threats(obs)
    if obs[ROBS.riichi + obs[ROBS.seat]] > 0:  # the pick is the next discard: the safest one
        choice, choice_key = 0, -1
        for i in range(n):
            key = safety(obs, candidate(obs, i), mask) if mask != 0 else 0
            if key > choice_key:
                choice, choice_key = i, key
        return choice
    if mask != 0 and best >= 2:  # folding: deny a dangerous tile while safe discards remain
        hoard = _safe_tiles(obs, mask) >= safe_keep
        choice, choice_key = 0, -(1 << 40)
        for i in range(n):
            s = safety(obs, candidate(obs, i), mask)
            key = (3 - s) if hoard else s
            if key > choice_key:
                choice, choice_key = i, key
        return choice
    near = needs_acceptance(obs, tables, sh, best)
    left = visible_unseen(obs) if near else np.zeros(34, np.int64)
    choice, choice_key = -1, -1e18
    for i in range(n):
        if sh[i] != best:
            continue
        k = candidate(obs, i)
        key = float(shape_key(obs, i))
        if near:
            key += 256.0 * acceptance_after(obs, tables, k, left)
        bonus = 0.0
        if is_dora(obs, k):
            bonus += 1.0
        if obs[ROBS.astrology + A_RED + i] == 1:
            bonus += 1.0
        if is_yakuhai(obs, k) and obs[ROBS.hand + k] >= 1:
            bonus += 1.0
        key += 256.0 * 4.0 * value * bonus
        if mask != 0:
            key += 256.0 * 4.0 * deny * safety(obs, k, mask)
        if key > choice_key:
            choice, choice_key = i, key
    return choice


@hook
def star_mode(obs, params, tables):
    if obs[ROBS.decision] == D_PICK:
        return star_pick(obs, tables, params[0], params[1], int(params[2]))
    return mode_default(obs, params, tables)


POLICIES = [
    Policy(
        name="star-picker",
        description="Astrology (A): picks candidates for shanten, value and safety; denies riichi seats while "
                    "folding.",
        hooks={},
        riichi_hooks={"mode": star_mode},
        params=(
            Param("value", float, 1.0, "weight of dora / red five / held yakuhai among equally efficient picks"),
            Param("deny", float, 1.0, "weight of safety against riichi among equally efficient picks"),
            Param("safe_keep", int, 2, "safe tiles in hand needed to take a dangerous candidate while folding"),
        ),
        modes=("astrology",),
    ),
]
