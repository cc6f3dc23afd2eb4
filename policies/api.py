"""The policy API: what a seat sees (the observation array) and what it answers (action codes).

A policy is a set of *hooks*, one per decision point. Every hook is a numba function with the signature
`HOOK_SIG`: it receives the seat's observation `obs` (int32 array laid out by the O_* offsets of
sims.bloodshed.observation, re-exported here),
the policy's parameters `params` (float64 array, in the order the policy declares them) and the shared
shanten lookup `tables` (pass them on to the helpers in policies.common), and returns an int64 action. The
engine builds `obs` from public information and the seat's own tiles only, so a hook cannot see other hands or
the wall. Decorate hooks with `@hook` (compiled once, cached on disk).

Decision points (obs[BOBS.decision]) and their answers:
- D_EXCHANGE: three tiles of one suit to pass (B-6) → `pack_exchange(t0, t1, t2)`.
- D_VOID: the void suit (B-7) → VOID_MAN (0), VOID_PIN (1) or VOID_SOU (2).
- D_TURN: own turn with 14 tiles (after a draw, or after a pon with obs[BOBS.after_call] = 1) →
  a kind to discard, `KAN + kind` (closed or added kan, legal where obs[BOBS.kan_options + kind] > 0),
  or `TSUMO` (legal when obs[BOBS.can_win] = 1).
- D_REACT: another seat discarded obs[BOBS.tile] → PASS, RON (obs[BOBS.can_win]), PON (obs[BOBS.can_pon]),
  KAN (open kan, obs[BOBS.can_kan]).
- D_ROB: another seat adds obs[BOBS.tile] to a pon → PASS or RON (robbing the kan, B-17).
An illegal answer is replaced by a legal default and counted; the conformance tests require none.
"""

from __future__ import annotations

import numba as nb

# The engine's calling convention and the Bloodshed observation live in sims (policies import sims, never the
# reverse); they are re-exported here, names and values unchanged, so a policy needs this one module.
from sims.bloodshed.observation import *  # noqa: F403
from sims.decisions import (  # noqa: F401
    D_EXCHANGE, D_REACT, D_ROB, D_TURN, D_VOID, HOOK_NAMES, HOOK_SIG, HOOK_TYPE, KAN, KAN_CALL, PASS, PON, RON,
    TSUMO, VOID_MAN, VOID_PIN, VOID_SOU,
)


def hook(fn):
    """Compile a policy hook with the fixed signature (cached on disk; one engine serves every policy)."""
    return nb.njit(HOOK_SIG, cache=True)(fn)


@nb.njit(cache=True)
def pack_exchange(t0, t1, t2):
    """Pack three tile kinds as the D_EXCHANGE answer (jit-compiled)."""
    return t0 | (t1 << 8) | (t2 << 16)
