"""Bloodshed's sampler for analyzer.advise.evaluate: the compiled kernel with four seats' policies, ready to roll a
stopped state out; the legal options of a state and the states of a simulated match stopped at its decisions."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tsumolab.analyzer.advise.bloodshed_position import options_of
from tsumolab.analyzer.advise.evaluate import rollout_arrays
from tsumolab.sims.bloodshed.rules import START_POINTS


@dataclass
class Sampler:
    """The compiled kernel with four seats' policies, ready to roll a stopped state out."""

    seats_spec: str
    rule_values: dict = field(default_factory=dict)
    deal: str = "progress"
    hooks: tuple = field(init=False)
    params: np.ndarray = field(init=False)
    rules: np.ndarray = field(init=False)
    tables: np.ndarray = field(init=False)
    start_points: int = field(default=START_POINTS, init=False)
    south: bool = field(default=False, init=False)  # B-2: four hands, East only

    def __post_init__(self):
        from tsumolab.policies.registry import check_mode, parse_seats
        from tsumolab.sims.seating import seat_hooks
        from tsumolab.sims.shanten_tables import lookup_tables
        from tsumolab.sims.bloodshed.rules import BloodshedRules

        seats = parse_seats(self.seats_spec)
        check_mode(seats, "bloodshed")
        self.hooks, self.params = seat_hooks(seats)
        self.rules = BloodshedRules.from_dict(self.rule_values).to_array()
        self.tables = lookup_tables()

    @property
    def progress(self) -> np.ndarray:
        from tsumolab.sims.bloodshed.progress import UNIFORM, field_progress

        if self.deal == "uniform":
            return UNIFORM
        if self.deal == "progress":
            return field_progress("baseline")
        raise ValueError(f"deal must be progress or uniform, got {self.deal!r}")

    def play_args(self):
        return (*self.hooks, self.params, self.rules, self.tables)

    def recipe(self):
        """How a worker process builds the same sampler."""
        return Sampler, (self.seats_spec, self.rule_values, self.deal)

    def rollouts(self, S0, seat, answers, seed, first, count, to_match_end):
        from tsumolab.sims.bloodshed.rollout import paired_rollouts

        values, ranks, outcomes = rollout_arrays(len(answers), count)
        ok = paired_rollouts(S0, seat, np.asarray(answers, np.int64), seed, first, count, to_match_end,
                             self.progress, *self.play_args(), values, ranks, outcomes)
        if not ok:
            raise ValueError("the position's tile counts are impossible")
        return values, ranks, outcomes

    def pending_view(self, S):
        from tsumolab.policies.api import BOBS
        from tsumolab.sims.bloodshed.resume import pending_view

        view = np.zeros(BOBS.SIZE, np.int32)
        pending_view(S, self.rules, self.tables, view)
        return view

    def policy_answers(self, S, seat, seed, prior=True):
        """The answer `seat`'s policy gives at the stopped position, alone in the tuple: its hook of the pending
        decision kind (the D_* codes count the hooks in sims.decisions.HOOK_NAMES order), its random stream started
        from `seed` (analyzer.advise.policy_answer). Bloodshed has no discard prior: `prior` changes nothing."""
        from tsumolab.analyzer.advise.policy_answer import in_option_order, policy_stream
        from tsumolab.policies.api import BOBS

        view = self.pending_view(S)
        view[BOBS.rng] = policy_stream(seed)
        decision = int(view[BOBS.decision])
        return (in_option_order(decision, int(self.hooks[decision][seat](view, self.params[seat], self.tables))),)


def legal_options(sampler: Sampler, S) -> list[tuple[str, int]]:
    """(label, answer) of every legal option of the pending decision of S."""
    from tsumolab.sims.bloodshed.resume import pending_decision

    return options_of(sampler.pending_view(S), int(pending_decision(S)))


def match_hands(S: np.ndarray, seed: int, match_id: int):
    """Yields the hand numbers of simulated Bloodshed match `match_id` in turn, S reset to each hand's start
    (wall keyed by (seed, match_id, hand), B-1); the caller plays the hand in S before taking the next. Ends
    after the last hand or a bust (B-2 … B-4)."""
    from tsumolab.sims.bloodshed.engine import END_BUST, next_dealer, start_hand, start_match
    from tsumolab.sims.bloodshed.rules import HANDS_PER_MATCH
    from tsumolab.sims.bloodshed.state import ST

    root = int(seed) & 0x7FFF_FFFF_FFFF_FFFF
    start_match(S)
    dealer = 0
    for hand_no in range(1, HANDS_PER_MATCH + 1):
        start_hand(S, root, match_id, hand_no, dealer)
        yield hand_no
        if S[ST.end] == END_BUST:
            return
        dealer = int(next_dealer(S))


def stopped_state(sampler: Sampler, seed: int, match_id: int, hand_no: int, decision: int):
    """The state of simulated match `match_id` (root seed `seed`, the sampler's seats) stopped at decision
    number `decision` (0-based, all seats) of hand `hand_no`, exactly as `tsumolab run` plays it; None if
    the hand has fewer decisions. Raises ValueError if the match ended before that hand."""
    from tsumolab.sims.bloodshed.engine import N_COUNTERS
    from tsumolab.sims.bloodshed.resume import stop_at_decision
    from tsumolab.sims.bloodshed.state import ST
    from tsumolab.sims.events import N_EVENT_COLS

    S = np.zeros(ST.SIZE, np.int32)
    counters = np.zeros(N_COUNTERS, np.int64)
    events = np.zeros((0, N_EVENT_COLS), np.int32)
    ev = np.zeros(3, np.int64)
    played = 0
    for played in match_hands(S, seed, match_id):
        if played == hand_no:
            return S if stop_at_decision(S, decision, *sampler.play_args(), counters, events, ev) else None
        stop_at_decision(S, -1, *sampler.play_args(), counters, events, ev)
    raise ValueError(f"match {match_id} ended (a bust) after hand {played}")
