"""The riichi-engine match loop of analyzer.search.play (every riichi-family mode of policies.search.MODES):
sims.riichi.engine.play_matches, with a stop before every decision (sims.riichi.resume.resume) where a search seat
may answer.

A searched decision's determinizations leave in place the tiles the mode shows the searching seat
(sims.riichi.public_tiles: fate's open deal tiles, open-deal's starting tiles, mirror's transparent copies,
astrology's candidates and picks), as advise's do; in riichi and shura that is no tile at all. Where the mode's
public tiles are read from the hand's events (fate, open-deal, astrology) the loop keeps each hand's event log,
which changes nothing in play."""

from __future__ import annotations

import numpy as np

from tsumolab.analyzer.search.options import riichi_candidates
from tsumolab.analyzer.search.table import RIICHI_HOOK_ROW, choose, decision_seed, direct, rollout_arrays
from tsumolab.sims.events import N_EVENT_COLS
from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi import rules as T
from tsumolab.sims.riichi.bundles import PlayLog, RuleArrays, Seating
from tsumolab.sims.riichi.columns import N_HAND_COLS, N_MATCH_COLS
from tsumolab.sims.riichi.hand_state import HS
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.play import ROWS_PER_MATCH
from tsumolab.sims.riichi.positions import EVENT_ROWS, Position
from tsumolab.sims.shanten_tables import lookup_tables
from tsumolab.sims.riichi.progress import UNIFORM
from tsumolab.sims.riichi.public_tiles import public_tiles
from tsumolab.sims.riichi.rollout import paired_rollouts
from tsumolab.sims.riichi.tableau import N_ST
from tsumolab.sims.seating import seat_hooks
from tsumolab.sims.table_state import rank_of

ABORTIVE = (engine.END_NINE, engine.END_WINDS, engine.END_RIICHI, engine.END_KANS)


class Decider:
    """The engine's arguments for one SearchTable, and the search of one pending decision."""

    def __init__(self, table):
        self.table = table
        self.hooks, self.params = seat_hooks(table.played, "riichi")
        self.topts, self.sopts = table.rules.to_array(), table.rules.scoring_array()
        self.tables = lookup_tables()
        self.rule_arrays = RuleArrays(self.topts, self.sopts, self.tables)
        self.keep_events = bool(self.topts[T.T_FATE] or self.topts[T.T_OPEN_DEAL] or self.topts[T.T_ASTROLOGY])
        """the mode's public tiles are read from the hand's events (sims.riichi.public_tiles: F, OD, A)"""
        self.seating = Seating.of(self.hooks, self.params)
        self.rollout_seating = {name: Seating.of(*seat_hooks(seats, "riichi"))
                                for name, seats in table.rollout_seats.items()}

    def answer(self, searcher, pos: Position, seed: int):
        """The searched answer of the decision pending in `pos` (searcher.seat's; pos.view is its hook input),
        or None to let the base policy answer."""
        seat, view = searcher.seat, pos.view
        decision = int(view[ROBS.decision])
        if decision not in RIICHI_HOOK_ROW:
            return None
        base = int(self.hooks[RIICHI_HOOK_ROW[decision]][seat](view.copy(), self.params[seat], self.tables))
        options = riichi_candidates(view, base, searcher.kinds, searcher.top_k, self.tables)
        if len(options) < 2:
            return None
        count = searcher.rollouts
        values, ranks, outcomes = rollout_arrays(len(options), count)
        if paired_rollouts(pos.play_state(), seat, np.asarray(options, np.int64), seed, 0, count, False,
                           self.rollout_seating[searcher.rollout_policy], self.rule_arrays, UNIFORM,
                           self.public(pos, seat), (values, ranks, outcomes)) < 0:
            raise RuntimeError("search: a played position could not be determinized")
        return self.table.stats.record(decision, options, values, choose(values, searcher.z))

    def public(self, pos: Position, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """(kept, kept_wall): the hidden tiles the mode shows `seat` at `pos`, which its determinizations keep."""
        return public_tiles(pos, seat, self.topts)


def play_matches(table, root_seed: int, match_ids: np.ndarray, counters=None):
    from tsumolab.sims.riichi import resume as entry

    decider = Decider(table)
    resume = direct(entry.resume)
    if counters is None:
        counters = np.zeros(engine.N_COUNTERS, np.int64)
    pos = blank_position(decider.keep_events)
    hs, obs, wall, rec, ev = pos.hs, pos.obs, pos.wall, pos.rec, pos.ev
    state = pos.play_state()
    log = PlayLog(counters, pos.events)
    hand_rows = np.zeros((ROWS_PER_MATCH * match_ids.size, N_HAND_COLS), np.int32)
    match_rows = np.zeros((4 * match_ids.size, N_MATCH_COLS), np.int32)
    rows = np.zeros((4, N_HAND_COLS), np.int32)
    no_match_rows = np.zeros((0, N_MATCH_COLS), np.int32)
    n_rows = 0
    for mi, match_id in enumerate(match_ids):
        engine.begin_match(hs, obs, root_seed, match_id, decider.topts)
        while True:
            engine.begin_hand(hs, obs, wall, rec, ev, decider.topts)
            ev[0] = 0  # the event log holds the hand in play only
            answer, forced, stop_at = 0, 0, 0
            while resume(state, decider.seating, decider.rule_arrays, log, answer, forced, stop_at, 0, rows,
                         no_match_rows) < 0:
                n = int(hs[HS.n_decisions])
                searcher = table.searchers.get(int(hs[HS.dec_seat]))
                searched = None
                if searcher is not None:
                    seed = decision_seed(root_seed, match_id, int(hs[HS.hand_no]), n)
                    searched = decider.answer(searcher, pos, seed)
                answer, forced = (0, 0) if searched is None else (searched, 1)
                stop_at = n + 1
            hand_rows[n_rows:n_rows + 4] = rows
            n_rows += 4
            if match_over(hs, obs, decider.topts):
                engine.finish_match(hs, obs, match_rows, mi * 4)
                break
    return hand_rows[:n_rows], match_rows


def blank_position(keep_events: bool) -> Position:
    """Zeroed engine arrays for the match loop, with room for one hand's events when it keeps them."""
    return Position(np.zeros(HS.SIZE, np.int64), np.zeros((4, ROBS.SIZE), np.int32), np.zeros(ROBS.SIZE, np.int32),
                    np.zeros((N_ST, 34), np.int64), np.zeros(T.N_TILES, np.int64), np.zeros((4, N_HAND_COLS), np.int64),
                    np.zeros(3, np.int64), np.zeros((EVENT_ROWS if keep_events else 0, N_EVENT_COLS), np.int32))


def match_over(hs, obs, topts) -> bool:
    """Whether the match ends after the hand sims.riichi.engine.close_hand just closed: its return value,
    read back from the state close_hand leaves (R-2, S-1; the dealer's round moved on unless it kept the deal)."""
    if hs[HS.busted] == 1:
        return True
    keeps = hs[HS.keeps] == 1
    played_round = hs[HS.m_round] - (0 if keeps else 1)
    if played_round >= topts[T.T_N_HANDS] - 1:
        dealer = int(obs[0, ROBS.dealer])
        if keeps and hs[HS.end] not in ABORTIVE and rank_of(obs, ROBS.points, dealer) == 1 \
                and obs[0, ROBS.points + dealer] >= T.TARGET_POINTS:
            return True
        if not keeps and (not topts[T.T_EXTENSION] or engine._someone_reached(obs, T.TARGET_POINTS)
                          or hs[HS.m_round] >= 8):
            return True
    return hs[HS.hand_no] >= T.MAX_HANDS
