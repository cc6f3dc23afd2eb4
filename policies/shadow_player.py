"""`shadow-player` for `darkness` (RULES.md D): baseline riichi play that uses the face-down discard, the paid
opening and the lock where they matter, keeping `reserve` points after any payment.

- Turn: the baseline's discard goes face down (FACE_DOWN + kind, 1000) when it is dangerous against an
  opponent's riichi (no genbutsu, suji or honor safety: it then cannot be ronned unless somebody pays to open
  it) and the danger is high: a middle tile 3-7 against two or more riichi, or against a dealer's riichi
  (`hide_danger` = 1; 2 = any dangerous tile; riichi declaration tiles included); when the seat is tenpai
  without riichi and discards one of its own waits (face down it makes no furiten; `hide_tenpai` = 1; 2 = also
  tiles within two ranks of a wait, which hint at it); and, with `hide_riichi` = 1, when it declares riichi
  (hides the declaration tile, whose suji tells the wait; riichi needs ≥ 2000). The defaults are the choices
  that did not lose points against baseline fields in 1v3 runs: each face-down discard costs 1000 and comes
  back only through one's own next win.
- D_DARK_OPEN: pays 2000 to open another seat's face-down tile when the seat is tenpai and not furiten and
  the expected gain from the tile being a win tile beats the cost: factor × P(win tile) × (win estimate + pot
  + sticks) > 2000, with P = unseen copies of its waits / all unseen tiles, factor `open_factor` when in riichi
  (a tile hidden against one's riichi is likelier dangerous) and 1 otherwise; an unriichied closed hand (maybe
  no yaku) does not open.
- D_DARK_LOCK: pays 4000 to keep its opened tile face down when the tile is dangerous against a riichi (the
  opener may well wait on it) or lies within two ranks of its own waits (it would show the wait, or make the
  seat furiten).
In other riichi modes obs[ROBS.darkness + DK_ON] is 0 and it plays baseline.
"""

import numba as nb

from tsumolab.policies.api import hook
from tsumolab.policies.registry import Param, Policy
from tsumolab.policies.riichi_api import D_DARK_LOCK, D_DARK_OPEN, FACE_DOWN, RIICHI, ROBS
from tsumolab.policies.riichi_baseline import riichi_turn
from tsumolab.policies.riichi_common import is_open, safety, threats, unseen, waits_of
from tsumolab.policies.riichi_mode_default import mode_default
from tsumolab.sims.riichi.darkness_pot import DK_ON, DK_POT, FACE_DOWN_COST, FACE_DOWN_RIICHI_MIN, LOCK_COST, OPEN_COST

P_RESERVE, P_HIDE_DANGER, P_HIDE_RIICHI, P_HIDE_TENPAI, P_OPEN_FACTOR, P_WIN_ESTIMATE, P_LOCK = range(7)


@nb.njit(cache=True)
def near_waits(kind, waits):
    """`kind` is a wait, or a suited tile within two ranks of a wait of its suit (it hints at the wait)."""
    for w in range(34):
        if not waits[w]:
            continue
        if w == kind:
            return True
        if kind < 27 and w < 27 and w // 9 == kind // 9 and abs(w - kind) <= 2:
            return True
    return False


@nb.njit(cache=True)
def shadow_discard(obs, params, tables, answer):
    """The baseline's answer, made face down where that pays (module docstring)."""
    if 0 <= answer < 34:
        kind, riichi = answer, False
    elif RIICHI <= answer < RIICHI + 34:
        kind, riichi = answer - RIICHI, True
    else:
        return answer
    seat = obs[ROBS.seat]
    if obs[ROBS.riichi + seat] > 0:
        return answer
    need = FACE_DOWN_RIICHI_MIN if riichi else FACE_DOWN_COST
    points = obs[ROBS.points + seat]
    if points < need or points - need < params[P_RESERVE]:
        return answer
    if riichi and params[P_HIDE_RIICHI] > 0:
        return FACE_DOWN + answer
    mask = threats(obs)
    if params[P_HIDE_DANGER] > 0 and mask != 0 and safety(obs, kind, mask) == 0:
        if params[P_HIDE_DANGER] >= 2:
            return FACE_DOWN + answer
        n_threats = 0
        for p in range(4):
            n_threats += (mask >> p) & 1
        dealer_threat = (mask >> obs[ROBS.dealer]) & 1
        if kind < 27 and 2 <= kind % 9 <= 6 and (n_threats >= 2 or dealer_threat == 1):
            return FACE_DOWN + answer
    if riichi:
        return answer
    if params[P_HIDE_TENPAI] > 0:
        waits = waits_of(obs, tables, kind)
        if waits[kind] or (params[P_HIDE_TENPAI] >= 2 and near_waits(kind, waits)):
            return FACE_DOWN + answer
    return answer


@nb.njit(cache=True)
def open_choice(obs, params, tables):
    """D_DARK_OPEN: 1 to pay 2000 when the chance that the hidden tile wins, times its worth, beats the cost."""
    seat = obs[ROBS.seat]
    if obs[ROBS.points + seat] - OPEN_COST < params[P_RESERVE] or obs[ROBS.furiten] == 1:
        return 0
    in_riichi = obs[ROBS.riichi + seat] > 0
    if not in_riichi and not is_open(obs):
        return 0
    waits = waits_of(obs, tables, -1)
    left = unseen(obs)
    total = 0
    hits = 0
    for k in range(34):
        total += left[k]
        if waits[k]:
            hits += left[k]
    if hits == 0 or total == 0:
        return 0
    factor = params[P_OPEN_FACTOR] if in_riichi else 1.0
    worth = params[P_WIN_ESTIMATE] + obs[ROBS.darkness + DK_POT] + 1000 * obs[ROBS.sticks]
    return 1 if factor * hits * worth > OPEN_COST * total else 0


@nb.njit(cache=True)
def lock_choice(obs, params, tables):
    """D_DARK_LOCK: 1 to pay 4000 when the opened tile is dangerous against a riichi or shows one's own wait."""
    seat = obs[ROBS.seat]
    if params[P_LOCK] <= 0 or obs[ROBS.points + seat] - LOCK_COST < params[P_RESERVE]:
        return 0
    tile = obs[ROBS.tile]
    mask = threats(obs)
    if mask != 0 and safety(obs, tile, mask) == 0:
        return 1
    if near_waits(tile, waits_of(obs, tables, -1)):
        return 1
    return 0


@hook
def shadow_turn(obs, params, tables):
    answer = riichi_turn(obs, tables, True, True)
    if obs[ROBS.darkness + DK_ON] == 0:
        return answer
    return shadow_discard(obs, params, tables, answer)


@hook
def shadow_mode(obs, params, tables):
    decision = obs[ROBS.decision]
    if decision == D_DARK_OPEN:
        return open_choice(obs, params, tables)
    if decision == D_DARK_LOCK:
        return lock_choice(obs, params, tables)
    return mode_default(obs, params, tables)


POLICIES = [
    Policy(
        name="shadow-player",
        description="Baseline riichi play that discards face down when dangerous or telling, opens likely win "
                    "tiles and locks telling ones (D).",
        hooks={},
        riichi_hooks={"turn": shadow_turn, "mode": shadow_mode},
        params=(
            Param("reserve", int, 8000, "points kept after any face-down, open or lock payment"),
            Param("hide_danger", int, 1, "against a riichi, discard face down a tile with no safety: 1 = a middle "
                                         "tile against 2+ riichi or a dealer's riichi, 2 = any, 0 = never"),
            Param("hide_riichi", int, 0, "1 = declare riichi with a face-down tile"),
            Param("hide_tenpai", int, 1, "tenpai without riichi: 1 = discard face down one's own wait kind (no "
                                         "furiten), 2 = also tiles near the waits, 0 = never"),
            Param("open_factor", float, 3.0, "weight on the chance a hidden tile wins when in riichi (open rule)"),
            Param("win_estimate", int, 6000, "points a win is assumed worth when deciding to open"),
            Param("lock", int, 1, "1 = lock an opened tile that is dangerous or shows the wait"),
        ),
        modes=("darkness",),
    ),
]
