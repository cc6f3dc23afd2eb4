"""Test helpers: every decision of a simulated Bloodshed match as the engine asked it (the state stopped there, its
position document and the seat's answer), and the match written and read back as a Mahjong Soul record."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tsumolab.analyzer.advise.bloodshed_position import position_of
from tsumolab.analyzer.advise.bloodshed_sampler import Sampler, legal_options, match_hands
from tsumolab.sims.bloodshed.engine import N_COUNTERS
from tsumolab.sims.bloodshed.resume import resume_hand, stop_at_decision
from tsumolab.sims.bloodshed.state import ST
from tsumolab.sims.events import EV_EXCHANGE, N_EVENT_COLS

MAX_EVENTS = 4096   # more than a hand logs


@dataclass
class EngineDecision:
    """One decision of a simulated hand: the state stopped at it, the deciding seat's position document."""

    state: np.ndarray
    seat: int
    position: dict


class EngineHands:
    """The decisions of every hand of match `match_id` (root seed `seed`, seats `seats`; its first `hands` hands), as
    the engine asks them."""

    def __init__(self, seats: str, seed: int, match_id: int, hands: int = 4):
        self.sampler = Sampler(seats)
        self.hands: list[list[EngineDecision]] = []
        S = np.zeros(ST.SIZE, np.int32)
        for hand_no in match_hands(S, seed, match_id):
            if hand_no > hands:
                break
            start, n, decisions = S.copy(), 0, []
            while True:
                T = start.copy()
                if not self.stop(T, n):
                    break
                decisions.append(EngineDecision(T, int(T[ST.pend_seat]),
                                                position_of(T, self.sampler.pending_view(T))))
                n += 1
            self.stop(S, -1)
            self.hands.append(decisions)

    def stop(self, S: np.ndarray, n: int) -> bool:
        counters = np.zeros(N_COUNTERS, np.int64)
        return bool(stop_at_decision(S, n, *self.sampler.play_args(), counters,
                                     np.zeros((0, N_EVENT_COLS), np.int32), np.zeros(3, np.int64)))

    def chose(self, decision: EngineDecision, label: str) -> bool:
        """Whether option `label` is what the engine answered at `decision`: the hand resumed there with that answer
        forced logs exactly the events it logs when it plays on by itself (the exchange's three tiles compared as a
        set: the answer need not keep their order)."""
        answers = dict(legal_options(self.sampler, decision.state))
        if label not in answers:
            return False
        forced, natural = decision.state.copy(), decision.state.copy()
        natural[ST.pend_seat] = -1
        logs = [np.zeros((MAX_EVENTS, N_EVENT_COLS), np.int32) for _ in range(2)]
        counts = [np.zeros(3, np.int64) for _ in range(2)]
        resume_hand(forced, decision.seat, answers[label], *self.sampler.play_args(), np.zeros(N_COUNTERS, np.int64),
                    logs[0], counts[0])
        stop_at_decision(natural, -1, *self.sampler.play_args(), np.zeros(N_COUNTERS, np.int64), logs[1], counts[1])
        rows = [_canonical(log[:n[0]]) for log, n in zip(logs, counts)]
        return rows[0].shape == rows[1].shape and bool(np.array_equal(*rows))


def _canonical(rows: np.ndarray) -> np.ndarray:
    """Event rows with each exchange's three tiles (columns tile, a, b) in ascending order."""
    rows = rows.copy()
    exchange = rows[:, 2] == EV_EXCHANGE
    rows[exchange, 4:7] = np.sort(rows[exchange, 4:7], axis=1)
    return rows
