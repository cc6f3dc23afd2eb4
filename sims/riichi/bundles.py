"""The riichi engine's arguments in four groups, so its functions take a few named objects instead of the 12 to 24
positional arrays that used to travel together.

Each group is a typing.NamedTuple, which numba passes to compiled functions as a plain tuple of its fields: reading
a field costs nothing, and a step (sims.jit.step) still counts no arrays. A function on the engine's hot path
unpacks the group it needs in its first lines (`hs, obs, view, st, wall, rec, ev = state`, or the few fields
it reads: `state.hs`) and reads the same arrays as before. The explicit signatures of the engine's entry points
name the groups' numba types (the *_TYPE constants below), so an argument of another shape still raises
TypeError.

  PlayState   a match in play: the hand's blocks and the event cursor (everything a saved position holds
              besides its event log)
  Seating     the four seats: the five tuples of hooks (policies.riichi_api) and their params rows
  RuleArrays  the mode's rules as arrays: rule options, scoring options, the shanten lookup rows
  PlayLog     what play counts and logs: the counters (sims.riichi.engine.CNT_*) and the event log

Functions that receive only two or three of these arrays keep taking them one by one.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types

from tsumolab.sims.decisions import HOOK_TYPE


class PlayState(NamedTuple):
    """hs: the hand's and match's own fields (sims.riichi.hand_state.HS); obs: public state and each seat's tiles
    (obs[4, ROBS.SIZE]); hook_input: the `view` row the seat asked receives (its obs row and the question;
    numba reserves the attribute name `view`, so the field has another name); st: hidden per-seat state
    (sims.riichi.tableau); wall: the 136 tile ids in draw order; rec: the hand's record rows
    (sims.riichi.columns); ev: the event log's cursor (sims.events.log_event)."""

    hs: np.ndarray
    obs: np.ndarray
    hook_input: np.ndarray
    st: np.ndarray
    wall: np.ndarray
    rec: np.ndarray
    ev: np.ndarray


class Seating(NamedTuple):
    """ex, turn, react, rob, mode: each a tuple of the four seats' hooks for that question
    (sims.decisions.RIICHI_HOOK_NAMES); params: float64[4, MAX_PARAMS], each seat's policy parameters."""

    ex: tuple
    turn: tuple
    react: tuple
    rob: tuple
    mode: tuple
    params: np.ndarray

    @classmethod
    def of(cls, hooks, params) -> Seating:
        """From sims.seating.seat_hooks(seats, "riichi")."""
        return cls(*hooks, params)


class RuleArrays(NamedTuple):
    """topts: the rule options (sims.riichi.rules, T_*); sopts: the scoring options (sims.riichi.scoring_rules);
    lookup: the shanten lookup rows, suits first (sims.shanten_tables.lookup_tables, SUIT_ROWS)."""

    topts: np.ndarray
    sopts: np.ndarray
    lookup: np.ndarray

    @classmethod
    def of(cls, rules) -> RuleArrays:
        """From a riichi-family rules object (sims.riichi.rules.RiichiRules or a mode's subclass)."""
        from tsumolab.sims.shanten_tables import lookup_tables

        return cls(rules.to_array(), rules.scoring_array(), lookup_tables())


class PlayLog(NamedTuple):
    """counters: int64[N_COUNTERS] (sims.riichi.engine.CNT_*); events: int32[n, N_EVENT_COLS], the event log
    (no rows: play logs nothing)."""

    counters: np.ndarray
    events: np.ndarray


_HOOKS = types.UniTuple(HOOK_TYPE, 4)
PLAY_STATE_TYPE = types.NamedTuple((types.int64[::1], types.int32[:, ::1], types.int32[::1], types.int64[:, ::1],
                                    types.int64[::1], types.int64[:, ::1], types.int64[::1]), PlayState)
SEATING_TYPE = types.NamedTuple((_HOOKS, _HOOKS, _HOOKS, _HOOKS, _HOOKS, types.float64[:, ::1]), Seating)
RULE_ARRAYS_TYPE = types.NamedTuple((types.int64[::1], types.int64[::1], types.uint8[:, ::1]), RuleArrays)
PLAY_LOG_TYPE = types.NamedTuple((types.int64[::1], types.int32[:, ::1]), PlayLog)
