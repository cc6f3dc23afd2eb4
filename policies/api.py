"""The policy API: what a seat sees (the observation array) and what it answers (action codes).

A policy is a set of *hooks*, one per decision point. Every hook is a numba function with the signature
`HOOK_SIG`: it receives the seat's observation `obs` (int32 array laid out by the O_* offsets below),
the policy's parameters `params` (float64 array, in the order the policy declares them) and the shared
shanten lookup `tables` (pass them on to the helpers in policies.common), and returns an int64 action. The engine builds `obs` from public information and the seat's own tiles only, so a hook
cannot see other hands or the wall. Decorate hooks with `@hook` (compiled once, cached on disk).

Decision points (obs[O_DECISION]) and their answers:
- D_EXCHANGE: three tiles of one suit to pass (B-6) → `pack_exchange(t0, t1, t2)`.
- D_VOID: the void suit (B-7) → 0 (m), 1 (p) or 2 (s).
- D_TURN: own turn with 14 tiles (after a draw, or after a pon with obs[O_AFTER_CALL] = 1) →
  a kind to discard, `KAN + kind` (closed or added kan, legal where obs[O_KAN_OPTIONS + kind] > 0),
  or `TSUMO` (legal when obs[O_CAN_WIN] = 1).
- D_REACT: another seat discarded obs[O_TILE] → PASS, RON (obs[O_CAN_WIN]), PON (obs[O_CAN_PON]),
  KAN (open kan, obs[O_CAN_KAN]).
- D_ROB: another seat adds obs[O_TILE] to a pon → PASS or RON (robbing the kan, B-17).
An illegal answer is replaced by a legal default and counted; the conformance tests require none.
"""

from __future__ import annotations

import warnings

import numba as nb
from numba import types
from numba.core.errors import NumbaExperimentalFeatureWarning

# One compiled engine calls every policy through first-class function values (numba marks them experimental).
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

HOOK_SIG = types.int64(types.int32[::1], types.float64[::1], types.uint8[:, ::1])
HOOK_TYPE = types.FunctionType(HOOK_SIG)
HOOK_NAMES = ("exchange", "void", "turn", "react", "rob")

# decision kinds
D_EXCHANGE, D_VOID, D_TURN, D_REACT, D_ROB = 0, 1, 2, 3, 4

# answers
PASS, RON, PON, KAN_CALL = 0, 1, 2, 3
KAN = 64      # own turn: KAN + kind
TSUMO = 128   # own turn: declare the win

# observation layout (int32 offsets)
O_HAND = 0                 # [34] own concealed tile counts
O_SEAT = 34                # own seat 0..3
O_DEALER = 35              # dealer seat of this hand
O_HAND_NO = 36             # hand number 1..4
O_WALL_LEFT = 37           # tiles left in the live wall
O_N_WINNERS = 38           # winners so far in this hand
O_DECISION = 39            # D_* kind of this decision
O_WON = 40                 # [4] 1 if that seat has won this hand
O_POINTS = 44              # [4] points of each seat
O_VOID = 48                # [4] declared void suit per seat (-1 before the declaration)
O_N_MELDS = 52             # [4] number of melds per seat
O_N_DISCARDS = 56          # [4] discards made by each seat this hand
O_MELDS = 60               # [4 * 34] meld type per seat and kind (0 none, 1 + PON/MINKAN/ANKAN/KAKAN)
O_RIVER = 196              # [4 * 34] tiles in each seat's river (claimed tiles leave it)
O_SEEN = 332               # [34] copies visible to everyone: all rivers and melds
O_TILE = 366               # the drawn tile (D_TURN, -1 after a pon), the discard (D_REACT), the added tile (D_ROB)
O_FROM = 367               # seat that discarded / adds the kan
O_CAN_WIN = 368            # 1 if this decision may declare a win
O_WIN_FAN = 369            # capped fan of that win, bonuses included
O_WIN_POINTS = 370         # points that win would collect now
O_CAN_PON = 371
O_CAN_KAN = 372
O_KAN_OPTIONS = 373        # [34] own turn: 1 = closed kan possible, 2 = added kan possible
O_AFTER_CALL = 407         # 1 when this turn follows the seat's own pon (no draw, no kan, no tsumo)
O_RNG = 408                # per-seat random state for randomized policies (see policies.common.rand_below)
O_TURN = 409               # draws made so far in the hand, all seats together
O_KAN_DRAW = 410           # 1 when this turn's tile is a kan replacement draw
OBS_SIZE = 416


def hook(fn):
    """Compile a policy hook with the fixed signature (cached on disk; one engine serves every policy)."""
    return nb.njit(HOOK_SIG, cache=True)(fn)


@nb.njit(cache=True)
def pack_exchange(t0, t1, t2):
    """Pack three tile kinds as the D_EXCHANGE answer (jit-compiled)."""
    return t0 | (t1 << 8) | (t2 << 16)
