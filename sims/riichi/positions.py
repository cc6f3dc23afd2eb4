"""Positions of the riichi engine: a hand stopped before one of its decisions, saved, and played on with a
given answer (the groundwork of decision analysis). A position is the engine's whole state: the arrays of
sims.riichi.hand_state (hs), the observation, the private table block, the wall, the hand's record rows and
the event counters; nothing else is remembered, so a copy can be resumed any number of times.

    table = RiichiEngine(seats, SHURA, root_seed=7)
    pos = table.at_decision(match_id=3, hand_no=2, decision=10)   # None when that hand has fewer decisions
    pos.seat, pos.decision, pos.view                              # who decides what, and what it sees
    out = table.resume(pos.copy(), answer=RON)                    # play on to the end of the hand
    out.deltas                                                    # each seat's point change in the hand

A hand can also start from a given wall and a given place in its match (a position rebuilt from a log):

    pos = table.start(wall=wall, direction=2, context=HandContext(dealer=1, round=1, honba=0, sticks=1,
                                                                  points=(24000, 27000, 25000, 23000)))

Decisions are counted from 0 in each hand: exchanges (S-2), own turns, robbing a kan, reacting to a discard,
in astrology every pick of a draw among the candidates (A, decision D_PICK, answer the candidate's index;
sims.riichi.astrology_pool), and in darkness (D) opening another seat's face-down discard (each seat asked, in
turn order after the discarder, none seeing another's answer) and locking one's own opened tile (phases
PH_DARK_OPEN, PH_DARK_LOCK). A seat in riichi whose only move is to discard its draw makes no decision (its pick
is one). A forced answer
still consults the deciding seat's hook, so every random stream moves as in uninterrupted play; an answer the
rules do not allow is replaced as the engine replaces any illegal answer (counted in `counters`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi.bundles import PlayLog, PlayState, RuleArrays, Seating
from tsumolab.sims.riichi.columns import N_HAND_COLS, N_MATCH_COLS
from tsumolab.sims.riichi.hand_state import DECISION_PHASES, HS
from tsumolab.sims.riichi.play import ROWS_PER_MATCH
from tsumolab.sims.shanten_tables import lookup_tables
from tsumolab.sims.riichi.rules import N_TILES

EVENT_ROWS = 2_000  # room for one hand's events when a position keeps its log


def _direct(kernel):
    """The compiled entry of a kernel with one explicit signature, called without numba's dispatcher: the
    dispatcher types the 20 policy hooks on every call (about 1 ms, most of the cost of a short resume). An
    argument of another type raises TypeError, as through the dispatcher."""
    compiled = list(kernel.overloads.values())
    return compiled[0].entry_point if len(compiled) == 1 else kernel


@dataclass
class Position:
    """The whole state of a riichi hand in play (see sims.riichi.hand_state for the hs fields)."""

    hs: np.ndarray
    obs: np.ndarray
    view: np.ndarray
    st: np.ndarray
    wall: np.ndarray
    rec: np.ndarray
    ev: np.ndarray
    events: np.ndarray

    def copy(self) -> Position:
        return Position(*(getattr(self, name).copy() for name in self.__dataclass_fields__))

    def play_state(self) -> PlayState:
        """Its arrays as the engine takes them (sims.riichi.bundles.PlayState), shared, not copied."""
        return PlayState(self.hs, self.obs, self.view, self.st, self.wall, self.rec, self.ev)

    @property
    def pending(self) -> bool:
        """A decision waits for its answer."""
        return int(self.hs[HS.phase]) in DECISION_PHASES

    @property
    def seat(self) -> int:
        """The deciding seat."""
        return int(self.hs[HS.dec_seat])

    @property
    def decision(self) -> int:
        """The kind of decision (policies.api D_*), as the seat's observation `view` says."""
        from tsumolab.sims.riichi.observation import ROBS

        return int(self.view[ROBS.decision])

    @property
    def n_decisions(self) -> int:
        return int(self.hs[HS.n_decisions])

    @property
    def last_answer(self) -> int:
        """The answer the hook of the last decision gave (before any forcing)."""
        return int(self.hs[HS.last_answer])

    @property
    def over(self) -> bool:
        from tsumolab.sims.riichi.hand_state import PH_DONE

        return int(self.hs[HS.phase]) == PH_DONE

    @property
    def deltas(self) -> np.ndarray:
        """Each seat's point change in this hand so far (the whole hand once it is over)."""
        return self.hs[HS.delta:HS.delta + 4].copy()

    def logged(self) -> np.ndarray:
        """The events logged so far (rows of sims.events)."""
        return self.events[:min(int(self.ev[0]), self.events.shape[0])]


@dataclass(frozen=True)
class HandContext:
    """Where a hand stands in its match, as mjai's start_kyoku says: set by `RiichiEngine.start` in place of a
    new match's East 1 (the engine's match fields hs m_dealer, m_round, m_honba, m_sticks, m_pot, hand_no and the
    points, which begin_hand turns into the hand's dealer, winds, honba, sticks, pot and points_before)."""

    dealer: int = 0                                     # dealer seat
    round: int = 0                                      # 0..11 = East 1..South 4, West 1..4
    honba: int = 0
    sticks: int = 0                                     # riichi sticks on the table
    points: tuple[int, int, int, int] | None = None     # None: the mode's start points
    hand_no: int = 1                                    # number of the hand in its match, from 1
    pot: int = 0                                        # D: points in the darkness pot carried into the hand

    def apply(self, hs: np.ndarray, obs: np.ndarray) -> None:
        """Set the match fields of a state between begin_match and begin_hand."""
        if not (0 <= self.dealer <= 3 and 0 <= self.round <= 11 and self.honba >= 0 and self.sticks >= 0
                and self.hand_no >= 1 and self.pot >= 0):
            raise ValueError(f"impossible hand context {self}")
        hs[HS.m_dealer] = self.dealer
        hs[HS.m_round] = self.round
        hs[HS.m_honba] = self.honba
        hs[HS.m_sticks] = self.sticks
        hs[HS.m_pot] = self.pot
        hs[HS.hand_no] = self.hand_no - 1  # begin_hand counts the hand
        hs[HS.hands_played] = self.hand_no - 1
        if self.points is not None:
            from tsumolab.sims.riichi.observation import ROBS

            obs[:, ROBS.points:ROBS.points + 4] = np.asarray(self.points, np.int32)


@dataclass
class Outcome:
    deltas: np.ndarray       # each seat's point change in the hand the position was in
    hand_rows: np.ndarray    # record rows (sims.riichi.columns) of the hands finished
    match_rows: np.ndarray   # the match's rows when played to its end, else empty
    points: np.ndarray       # each seat's points at the end of the play


class RiichiEngine:
    """The compiled riichi engine bound to four seat policies and one mode's rules."""

    def __init__(self, seats, rules, root_seed: int = 0, keep_events: bool = False):
        from tsumolab.sims.seating import seat_hooks

        self.hooks, self.params = seat_hooks(seats, "riichi")
        self.topts = rules.to_array()
        self.sopts = rules.scoring_array()
        self.tables = lookup_tables()
        self.seating = Seating.of(self.hooks, self.params)
        self.rule_arrays = RuleArrays(self.topts, self.sopts, self.tables)
        self.root_seed = int(root_seed) & 0x7FFF_FFFF_FFFF_FFFF
        self.keep_events = keep_events
        self.counters = np.zeros(engine.N_COUNTERS, np.int64)
        from tsumolab.sims.riichi import resume

        self._resume = _direct(resume.resume)
        self._to_decision = _direct(resume.play_to_decision)

    def _blank(self) -> Position:
        from tsumolab.sims.riichi.observation import ROBS
        from tsumolab.sims.events import N_EVENT_COLS
        from tsumolab.sims.riichi.tableau import N_ST

        return Position(np.zeros(HS.SIZE, np.int64), np.zeros((4, ROBS.SIZE), np.int32),
                        np.zeros(ROBS.SIZE, np.int32), np.zeros((N_ST, 34), np.int64),
                        np.zeros(N_TILES, np.int64), np.zeros((4, N_HAND_COLS), np.int64), np.zeros(3, np.int64),
                        np.zeros((EVENT_ROWS if self.keep_events else 0, N_EVENT_COLS), np.int32))

    def _groups(self, pos: Position):
        """The engine's arguments for `pos` (sims.riichi.bundles): its state, the seats, the rules, its log."""
        return pos.play_state(), self.seating, self.rule_arrays, PlayLog(self.counters, pos.events)

    def at_decision(self, match_id: int, hand_no: int, decision: int) -> Position | None:
        """Hand `hand_no` of match `match_id` (played from the match's start) stopped before its decision
        number `decision`; None when the hand ends first or the match before the hand."""
        pos = self._blank()
        status = self._to_decision(*self._groups(pos), self.root_seed, int(match_id), int(hand_no), int(decision))
        return pos if status == 1 else None

    def play_hand(self, match_id: int, hand_no: int) -> Position | None:
        """Hand `hand_no` of match `match_id` played to its end without stopping (its decisions counted in
        n_decisions, its events in the log); None when the match ends before it."""
        pos = self._blank()
        status = self._to_decision(*self._groups(pos), self.root_seed, int(match_id), int(hand_no), -1)
        return pos if status == 0 else None

    def start(self, match_id: int = 0, wall=None, direction: int | None = None,
              context: HandContext | None = None) -> Position:
        """Hand 1 of a match (or the hand `context` describes), before its deal; `wall` (136 tile ids, kind =
        id // 4, red fives 16, 52, 88) replaces the keyed wall: seats get wall[13 i: 13 i + 13] from the dealer
        on, the dealer then draws wall[52], the live wall follows, the dead wall is wall[122:]
        (sims.riichi.tableau: replacement draws from 122 on, indicator i at 126 + 2 i, its ura at 127 + 2 i)."""
        pos = self._blank()
        engine.begin_match(pos.hs, pos.obs, self.root_seed, int(match_id), self.topts)
        if context is not None:
            context.apply(pos.hs, pos.obs)
        engine.begin_hand(pos.hs, pos.obs, pos.wall, pos.rec, pos.ev, self.topts)
        if wall is not None:
            wall = np.asarray(wall, np.int64)
            if sorted(wall.tolist()) != list(range(N_TILES)):
                raise ValueError("a wall must hold the 136 tile ids 0..135 once each")
            pos.wall[:] = wall
        if direction is not None:
            pos.hs[HS.direction] = direction
        return pos

    def advance(self, pos: Position, answer: int | None = None, stop_at: int = -1) -> bool:
        """Play `pos` on in place (with `answer` for its pending decision) until decision number `stop_at` of
        the hand is pending (True) or the hand is over (False)."""
        if pos.over:
            return False
        rows = np.zeros((4, N_HAND_COLS), np.int32)
        n = self._resume(*self._groups(pos), 0 if answer is None else int(answer), 0 if answer is None else 1,
                         int(stop_at), 0, rows, np.zeros((4, N_MATCH_COLS), np.int32))
        return n < 0

    def resume(self, pos: Position, answer: int | None = None, horizon: str = "hand") -> Outcome:
        """Play `pos` on in place (with `answer` for its pending decision) to the end of the hand, or of the
        match (horizon "match")."""
        if horizon not in ("hand", "match"):
            raise ValueError("horizon must be hand or match")
        if pos.over:
            raise ValueError("the position's hand is over")
        to_match = horizon == "match"
        hand_rows = np.zeros((ROWS_PER_MATCH if to_match else 4, N_HAND_COLS), np.int32)
        match_rows = np.zeros((4 if to_match else 0, N_MATCH_COLS), np.int32)
        n = self._resume(*self._groups(pos), 0 if answer is None else int(answer), 0 if answer is None else 1, -1,
                         int(to_match), hand_rows, match_rows)
        from tsumolab.sims.riichi.observation import ROBS
        from tsumolab.sims.riichi.columns import H_DELTA

        return Outcome(hand_rows[:4, H_DELTA].astype(np.int64), hand_rows[:n], match_rows,
                       pos.obs[0, ROBS.points:ROBS.points + 4].astype(np.int64))

    def play_scripted(self, pos: Position, choose) -> Position:
        """Play `pos` to the end of its hand, stopping at every decision: `choose(pos)` returns the answer, or
        None for the seat's own policy. Returns `pos` (played in place)."""
        stopped = self.advance(pos, None, pos.n_decisions)
        while stopped:
            stopped = self.advance(pos, choose(pos), pos.n_decisions + 1)
        return pos
