"""The Bloodshed match loop of analyzer.search.play: sims.bloodshed.engine.play_matches, with a stop at
every decision of the hand (sims.bloodshed.resume.stop_at_decision) where a search seat may answer."""

from __future__ import annotations

import numpy as np

from tsumolab.analyzer.search.options import bloodshed_candidates
from tsumolab.analyzer.search.table import HOOK_ROW, choose, decision_seed, direct, rollout_arrays
from tsumolab.sims.bloodshed.play import ROWS_PER_MATCH
from tsumolab.sims.shanten_tables import lookup_tables
from tsumolab.sims.bloodshed import engine
from tsumolab.sims.bloodshed.observation import BOBS
from tsumolab.sims.bloodshed.progress import UNIFORM, field_progress
from tsumolab.sims.bloodshed.resume import pending_decision, pending_view, stop_at_decision
from tsumolab.sims.bloodshed.rollout import paired_rollouts
from tsumolab.sims.bloodshed.rules import HANDS_PER_MATCH
from tsumolab.sims.bloodshed.state import ST, obs_of, rec_of
from tsumolab.sims.events import N_EVENT_COLS
from tsumolab.sims.bloodshed.columns import HC, N_HAND_COLS, N_MATCH_COLS
from tsumolab.sims.seating import seat_hooks
from tsumolab.sims.table_state import write_match_rows


class Decider:
    """The engine's arguments for one SearchTable, and the search of one pending decision."""

    def __init__(self, table):
        self.table = table
        self.hooks, self.params = seat_hooks(table.played)
        self.rules = table.rules.to_array()
        self.tables = lookup_tables()
        self.play = (*self.hooks, self.params, self.rules, self.tables)
        self.rollout_play = {}
        for name, seating in table.rollout_seats.items():
            r_hooks, r_params = seat_hooks(seating)
            self.rollout_play[name] = (*r_hooks, r_params, self.rules, self.tables)
        self.rollouts = direct(paired_rollouts)
        self.view = np.zeros(BOBS.SIZE, np.int32)

    def answer(self, searcher, S, seed: int):
        """The searched answer of the decision S waits for (searcher.seat's), or None to let the base answer."""
        decision = int(pending_decision(S))
        seat = searcher.seat
        view = self.view
        pending_view(S, self.rules, self.tables, view)
        base = int(self.hooks[HOOK_ROW[decision]][seat](view.copy(), self.params[seat], self.tables))
        options = bloodshed_candidates(view, decision, base, searcher.kinds, searcher.top_k, self.tables)
        if len(options) < 2:
            return None
        count = searcher.rollouts
        values, ranks, outcomes = rollout_arrays(len(options), count)
        progress = field_progress("baseline") if searcher.deal == 0 else UNIFORM
        if not self.rollouts(S.copy(), seat, np.asarray(options, np.int64), seed, 0, count, False, progress,
                             *self.rollout_play[searcher.rollout_policy], values, ranks, outcomes):
            raise RuntimeError("search: a played position could not be determinized")
        return self.table.stats.record(decision, options, values, choose(values, searcher.z))


def play_matches(table, root_seed: int, match_ids: np.ndarray, counters=None):
    decider = Decider(table)
    stop = direct(stop_at_decision)
    if counters is None:
        counters = np.zeros(engine.N_COUNTERS, np.int64)
    events = np.zeros((0, N_EVENT_COLS), np.int32)
    ev = np.zeros(3, np.int64)
    hand_rows = np.zeros((ROWS_PER_MATCH * match_ids.size, N_HAND_COLS), np.int32)
    match_rows = np.zeros((4 * match_ids.size, N_MATCH_COLS), np.int32)
    S = np.zeros(ST.SIZE, np.int32)
    obs, rec = obs_of(S), rec_of(S)
    n_rows = 0
    for mi, match_id in enumerate(match_ids):
        engine.start_match(S)
        dealer, hands_played, busted = 0, 0, False
        for hand_no in range(1, HANDS_PER_MATCH + 1):
            points_before = obs[0, BOBS.points:BOBS.points + 4].copy()
            engine.start_hand(S, root_seed, match_id, hand_no, dealer)
            ev[1], ev[2] = match_id, hand_no
            n = 0
            while stop(S, n, *decider.play, counters, events, ev):
                seat = int(S[ST.pend_seat])
                searcher = table.searchers.get(seat)
                if searcher is not None:
                    answer = decider.answer(searcher, S, decision_seed(root_seed, match_id, hand_no, n))
                    if answer is not None:
                        if S[ST.force_seat] >= 0:
                            table.stats.collisions += 1
                        else:
                            S[ST.force_seat], S[ST.force_answer] = seat, answer
                S[ST.pend_seat] = -1
                n += 1
            counters[engine.CNT_HANDS] += 1
            for s in range(4):
                rec[s, HC["match_id"]] = match_id
                rec[s, HC["hand"]] = hand_no
                rec[s, HC["seat"]] = s
                rec[s, HC["dealer"]] = 1 if s == dealer else 0
                rec[s, HC["points_before"]] = points_before[s]
                hand_rows[n_rows] = rec[s]
                n_rows += 1
            hands_played = hand_no
            if S[ST.end] == engine.END_BUST:
                busted = True
                break
            dealer = int(engine.next_dealer(S))
        write_match_rows(obs, BOBS.points, match_rows, mi * 4, match_id, busted, hands_played)
    return hand_rows[:n_rows], match_rows
