"""The policy API of Bloodshed: what a seat sees (the observation array) and what it answers (action codes).

A policy is a set of *hooks*, one per decision point. Every hook is a numba function with the signature
`HOOK_SIG`: it receives the seat's observation `obs` (int32 array laid out by `BOBS`, the Bloodshed layout of
sims.bloodshed.observation, re-exported here), the policy's parameters `params` (float64 array, in the order
the policy declares them) and the shared shanten lookup `tables` (pass them on to the helpers in
policies.common), and returns an int64 action. The engine builds `obs` from public information and the seat's
own tiles only, so a hook cannot see other hands or the wall. Decorate hooks with `@hook` (compiled once, when
a seat first plays it, and cached on disk). The riichi-based modes have their own layout and accessors of the
same names: policies.riichi_api.

Reading the observation: the accessors below, or any field of BOBS directly (`obs[BOBS.wall_left]`,
`obs[BOBS.void + seat]`; `sims.layout.describe(BOBS)` lists every field with its offset, width and meaning).
A seat is 0..3 in turn order, a kind 0..33 (0-8 man, 9-17 pin, 18-26 sou, 27-33 honors).
- this decision: decision(obs) (a D_* kind below), tile(obs), from_seat(obs), can_win(obs), win_fan(obs),
  win_points(obs), can_pon(obs), can_kan(obs), kan_options(obs) (34 kinds), after_call(obs);
- the seat: own_seat(obs), own_hand(obs) (34 counts of its concealed tiles);
- the table: wall_left(obs), seen(obs) (34 counts of copies everyone can see), and per seat points(obs, seat),
  has_won(obs, seat), void_of(obs, seat), n_melds(obs, seat), melds_of(obs, seat) (34 kinds: 0 none, else
  the sims.tiles meld type + 1), river(obs, seat) (34 counts; a claimed tile leaves the river).
Array accessors return views of `obs` (no copy: copy before changing one). They are `inline` (sims.jit): a
hook that calls them compiles to the same code as one that slices `obs` itself.

Decision points (decision(obs)) and their answers:
- D_EXCHANGE: three tiles of one suit to pass (B-6) → `pack_exchange(t0, t1, t2)`.
- D_VOID: the void suit (B-7) → VOID_MAN (0), VOID_PIN (1) or VOID_SOU (2).
- D_TURN: own turn with 14 tiles (after a draw, or after a pon with after_call(obs) = 1); tile(obs) is the
  drawn tile (-1 after a pon) → a kind to discard, `KAN + kind` (closed or added kan, legal where
  kan_options(obs)[kind] > 0), or `TSUMO` (legal when can_win(obs) = 1).
- D_REACT: seat from_seat(obs) discarded tile(obs) → PASS, RON (can_win(obs)), PON (can_pon(obs)), KAN_CALL
  (open kan, can_kan(obs)).
- D_ROB: seat from_seat(obs) adds tile(obs) to a pon → PASS or RON (robbing the kan, B-17; can_win(obs)).
An illegal answer is replaced by a legal default and counted; the conformance tests require none.

What a hook may call: hooks are compiled with numba's reference counting (`hook`), so any `@nb.njit`
function, the accessors and the helpers of policies.common. `sims.jit.step` is for the engines' own functions
and is not used in policies.
"""

from __future__ import annotations

import numba as nb

# The engine's calling convention and the Bloodshed observation live in sims (policies import sims, never the
# reverse); they are re-exported here, names and values unchanged, so a policy needs this one module.
from tsumolab.sims.bloodshed.observation import BOBS
from tsumolab.sims.decisions import (  # noqa: F401
    D_EXCHANGE, D_REACT, D_ROB, D_TURN, D_VOID, HOOK_NAMES, HOOK_SIG, HOOK_TYPE, KAN, KAN_CALL, PASS, PON, RON,
    TSUMO, VOID_MAN, VOID_PIN, VOID_SOU,
)
from tsumolab.sims.jit import inline

# The names of this module that read the Bloodshed observation (a riichi-only policy must not use them; see
# tests/test_observation_layouts.py).
OBSERVATION_NAMES = (
    "BOBS", "decision", "own_seat", "own_hand", "tile", "from_seat", "can_win", "win_fan", "win_points", "can_pon",
    "can_kan", "kan_options", "after_call", "wall_left", "seen", "points", "has_won", "void_of", "n_melds",
    "melds_of", "river",
)


def hook(fn):
    """A policy hook of the fixed signature HOOK_SIG. It is compiled (or loaded from the disk cache) when a seat
    first plays it (compiled_hook), so that a command compiles only the hooks of the policies and the engine
    family it plays; one engine serves every policy."""
    return nb.njit(cache=True)(fn)


def compiled_hook(fn):
    """The hook `fn` compiled for HOOK_SIG alone, so that the engines take it as a function of type HOOK_TYPE."""
    if fn.get_function_type() is None:
        fn.compile(HOOK_SIG)
        fn.disable_compile()
    return fn


@nb.njit(cache=True)
def pack_exchange(t0, t1, t2):
    """Pack three tile kinds as the D_EXCHANGE answer (jit-compiled)."""
    return t0 | (t1 << 8) | (t2 << 16)


# ---------------------------------------------------------------- this decision

@inline
def decision(obs):
    """D_* kind of this decision."""
    return obs[BOBS.decision]


@inline
def tile(obs):
    """The drawn tile (D_TURN; -1 after a pon), the discard (D_REACT) or the tile added to a pon (D_ROB)."""
    return obs[BOBS.tile]


@inline
def from_seat(obs):
    """Seat that discarded tile(obs) (D_REACT) or adds it to a pon (D_ROB)."""
    return obs[BOBS.from_seat]


@inline
def can_win(obs):
    """1 if this decision may declare a win: TSUMO on D_TURN, RON on D_REACT and D_ROB."""
    return obs[BOBS.can_win]


@inline
def win_fan(obs):
    """Capped fan of that win, bonuses included."""
    return obs[BOBS.win_fan]


@inline
def win_points(obs):
    """Points that win would collect now."""
    return obs[BOBS.win_points]


@inline
def can_pon(obs):
    """1 if this decision (D_REACT) may pon the discard."""
    return obs[BOBS.can_pon]


@inline
def can_kan(obs):
    """1 if this decision (D_REACT) may call an open kan (KAN_CALL) on the discard."""
    return obs[BOBS.can_kan]


@inline
def kan_options(obs):
    """Own turn, per kind (view of 34): 1 a closed kan, 2 an added kan is possible (answer KAN + kind)."""
    return obs[BOBS.kan_options:BOBS.kan_options + 34]


@inline
def after_call(obs):
    """1 when this turn follows the seat's own pon (no draw, no kan, no tsumo)."""
    return obs[BOBS.after_call]


# ---------------------------------------------------------------- the seat and the table

@inline
def own_seat(obs):
    """The observing seat, 0..3."""
    return obs[BOBS.seat]


@inline
def own_hand(obs):
    """The seat's concealed tiles, copies per kind (view of 34)."""
    return obs[BOBS.hand:BOBS.hand + 34]


@inline
def wall_left(obs):
    """Tiles left in the live wall."""
    return obs[BOBS.wall_left]


@inline
def seen(obs):
    """Copies of each kind visible to everyone: all rivers and melds (view of 34)."""
    return obs[BOBS.seen:BOBS.seen + 34]


@inline
def points(obs, seat):
    """Points of `seat`."""
    return obs[BOBS.points + seat]


@inline
def has_won(obs, seat):
    """1 if `seat` has won this hand."""
    return obs[BOBS.won + seat]


@inline
def void_of(obs, seat):
    """The void suit `seat` declared (0 man, 1 pin, 2 sou; -1 before the declaration)."""
    return obs[BOBS.void + seat]


@inline
def n_melds(obs, seat):
    """Melds `seat` has made (closed kans included)."""
    return obs[BOBS.n_melds + seat]


@inline
def melds_of(obs, seat):
    """`seat`'s meld per kind (view of 34): 0 none, else the sims.tiles meld type (PON, MINKAN, ANKAN, KAKAN) + 1."""
    return obs[BOBS.melds + 34 * seat:BOBS.melds + 34 * seat + 34]


@inline
def river(obs, seat):
    """Tiles in `seat`'s river per kind (view of 34); a tile another seat claimed has left it."""
    return obs[BOBS.river + 34 * seat:BOBS.river + 34 * seat + 34]
