"""The eyes of a dragon-eye hand (RULES.md DE) rebuilt from its log (analyzer.advise.riichi_rebuild): the engine
draws each eye's seat from the hand's eye stream (sims.riichi.dragon_eye_holder), so the replay steers that stream
until the engine places the eyes the log shows, and checks every eye the engine places against the log.

Steering: before the deal, the stream's seed (hs seeds[4], which eye_start turns into the stream) is chosen, and
after each placement, at the next stop of the replay, the stream's state (hs eye_rng): each time a value under
which the engine's own eye_start / eye_place put the next LOOKAHEAD logged eyes on their seats, found by trying
values in turn on a scratch copy of the eye block (about 4 ** LOOKAHEAD tries). One seed for the whole hand would
need about 4 ** (eyes) tries; steering keeps the cost per eye constant, however many eyes the hand has. Only
when more than LOOKAHEAD eyes are placed between two decisions of the replay (never with the default counter of 5)
can an eye land elsewhere than logged; the check then refuses the log.

When an eye moves depends only on public play (its holder's discards, the next draw or call), so a logged eye the
engine does not place, or places at another moment or with another counter, makes the log impossible.
"""

from __future__ import annotations

import numpy as np

from tsumolab.analyzer.advise.position_errors import PositionError
from tsumolab.sims.events import N_EVENT_COLS
from tsumolab.sims.riichi.dragon_eye_holder import EYE_HOLDER, EYE_MOVE, EYE_PLACED, eye_place, eye_start
from tsumolab.sims.riichi.hand_state import HS
from tsumolab.sims.riichi.observation import ROBS

LOOKAHEAD = 3        # logged eyes each choice of the stream matches (even two between two stops are rare)
TRIES_PER_CHOICE = 20  # × 4 ** eyes matched: values tried before the logged seats are declared impossible
SEED_SLOT = 4        # hs seeds[SEED_SLOT]: the eye stream's seed (sims.riichi.mode_phases.modes_begin_hand)


class EyeSteering:
    """The logged eyes of one replay, the steering of the engine's eye stream towards them, and the check of every
    eye the engine places."""

    def __init__(self, eyes: list[tuple[int, int, int]], topts: np.ndarray):
        self.eyes = eyes            # per logged eye: (seat, counter, index of the log action it comes before)
        self.topts = topts
        self.checked = 0            # engine eyes checked against the log so far
        self.steered = -1           # the eye the stream was last chosen for
        self._no_rows = np.zeros((0, N_EVENT_COLS), np.int32)  # an event log without rows: nothing is logged
        self._no_ev = np.zeros(3, np.int64)

    def start(self, pos) -> None:
        """Before the deal: the seed of the hand's eye stream (its first eyes on their logged seats)."""
        if not self.eyes:
            return
        pos.hs[HS.seeds + SEED_SLOT] = self._value_for(self._next_seats(0), None)
        self.steered = 0

    def steer(self, pos) -> None:
        """At a stop of the replay: after a placement, the stream's state for the next logged eyes."""
        placed = int(pos.obs[0, ROBS.dragon_eye + EYE_PLACED])
        if placed == self.steered or placed >= len(self.eyes):
            return
        pos.hs[HS.eye_rng] = self._value_for(self._next_seats(placed), pos.obs)
        self.steered = placed

    def check(self, seat: int, counter: int, cursor: int) -> None:
        """An eye the engine placed on `seat` with `counter` before log action `cursor`, against the log."""
        k = self.checked
        if k >= len(self.eyes):
            raise PositionError(f"the engine places eye {k + 1} on seat {seat} before action {cursor}, which the log "
                                "does not show (DE: the eye moves at the next draw or call after its holder's last "
                                "counted discard)")
        logged_seat, logged_counter, at = self.eyes[k]
        if at != cursor:
            raise PositionError(f"eye {k + 1} comes before action {at} in the log, but the engine places it before "
                                f"action {cursor} (DE: the eye moves at the next draw or call after its holder's last "
                                "counted discard)")
        if logged_counter != counter:
            raise PositionError(f"eye {k + 1} has counter {logged_counter} in the log, but the rules give it {counter} "
                                "(rule option eye_counter)")
        if logged_seat != seat:
            raise PositionError(f"eye {k + 1} is on seat {logged_seat} in the log, but the engine places it on seat "
                                f"{seat} (more than {LOOKAHEAD} eyes between two decisions)")
        self.checked += 1

    def finish(self) -> None:
        """At the decision: every logged eye was placed."""
        if self.checked < len(self.eyes):
            raise PositionError(f"the log shows {len(self.eyes)} eyes, the engine places {self.checked} (DE: the eye "
                                "moves only after its holder's counted discards)")

    def _next_seats(self, first: int) -> list[int]:
        return [seat for seat, _, _ in self.eyes[first:first + LOOKAHEAD]]

    def _value_for(self, seats: list[int], obs: np.ndarray | None) -> int:
        """A stream value under which the engine puts its next eyes on `seats`: from the hand's start (obs None:
        the value is eye_start's seed) or moved from the holder in `obs` (the value is the stream's state)."""
        before = np.zeros((4, ROBS.SIZE), np.int32) if obs is None else obs
        scratch = before.copy()
        state = np.zeros(1, np.uint64)
        for value in range(TRIES_PER_CHOICE * 4 ** len(seats)):
            scratch[:] = before
            if self._places(scratch, state, value, seats, obs is None):
                return value
        raise PositionError(f"no draw of the eye stream puts the eyes on seats {seats} in turn (DE: with "
                            "eye_other_seat a new eye goes to another seat)")

    def _places(self, scratch: np.ndarray, state: np.ndarray, value: int, seats: list[int], first: bool) -> bool:
        """Do the engine's eye_start (first) or eye_place, from stream value `value`, put the eyes on `seats`?"""
        if first:
            eye_start(scratch, state, np.int64(value), self.topts, self._no_rows, self._no_ev)
        else:
            state[0] = np.uint64(value)
        for k, seat in enumerate(seats):
            if k > 0 or not first:
                eye_place(scratch, state, self.topts, EYE_MOVE, self._no_rows, self._no_ev)
            if scratch[0, ROBS.dragon_eye + EYE_HOLDER] != seat:
                return False
        return True
