"""The table of playable modes: each is a rules class over one engine family (sims.family).

Adding a mode: its rules class (options and their defaults, sims/RULES.md for the rules they implement), one row
below, and its own module for whatever the engine must do differently (e.g. sims.riichi.fate_tiles).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tsumolab.sims.bloodshed.family import BLOODSHED
from tsumolab.sims.bloodshed.rules import BloodshedRules
from tsumolab.sims.family import EngineFamily
from tsumolab.sims.riichi.family import RIICHI
from tsumolab.sims.riichi.table import (
    AstrologyRules, ChantRules, DarknessRules, DoraFeverRules, DragonEyeRules, FantasyRules, FateRules, MirrorRules,
    OpenDealRules, RiichiTable, ShuraRules, SoulStrikeRules,
)


@dataclass(frozen=True)
class Mode:
    """A playable mode: `slug` names it on the command line, `rules_class` holds its options."""

    slug: str
    rules_class: type
    family: EngineFamily
    public: str
    """what the mode shows every seat beyond the riichi table (its discards, melds, dora indicators, points)"""

    def simulate(self, root_seed: int, match_ids, seats, rules=None, counters=None):
        """Play the matches `match_ids` with four seat policies → (hand_rows, match_rows) laid out as
        `family.hand_columns` / `family.match_columns`. `counters` (int64, the engine's N_COUNTERS) accumulates
        engine diagnostics."""
        hand_rows, match_rows, _ = self.family.play(root_seed, match_ids, seats, rules or self.rules_class(),
                                                    counters)
        return hand_rows, match_rows

    def simulate_events(self, root_seed: int, match_ids, seats, rules=None):
        """`simulate` that also returns the event log: int32[n_events, sims.events.N_EVENT_COLS]."""
        return self.family.play(root_seed, match_ids, seats, rules or self.rules_class(), None, record_events=True)

    def warm_up(self, seats) -> None:
        """Load (or compile) the engine and the seats' hooks before workers fan out."""
        self.simulate(0, np.zeros(1, np.int64), seats)


MODES = {mode.slug: mode for mode in (
    Mode("bloodshed", BloodshedRules, BLOODSHED,
         "the exchanged-three direction, each seat's void suit once chosen, every win as it happens (B)"),
    Mode("riichi", RiichiTable, RIICHI, "nothing beyond the riichi table (R)"),
    Mode("shura", ShuraRules, RIICHI, "the exchange direction and every win of the bloodbath hand (S)"),
    Mode("dora-fever", DoraFeverRules, RIICHI, "three dora indicators from the start (DF)"),
    Mode("open-deal", OpenDealRules, RIICHI, "every seat's start hand (OD)"),
    Mode("fate", FateRules, RIICHI, "the first four tiles of each deal and which of them each seat still holds (F)"),
    Mode("chant", ChantRules, RIICHI, "every seat's tsumogiri and hand-discard run counters (C)"),
    Mode("astrology", AstrologyRules, RIICHI, "the candidate pool the next draw is picked from (A)"),
    Mode("darkness", DarknessRules, RIICHI, "who discarded face down and the pot; not the face-down tiles (D)"),
    Mode("mirror", MirrorRules, RIICHI, "the three transparent copies of every kind, wherever they are (M)"),
    Mode("soul-strike", SoulStrikeRules, RIICHI, "each riichi seat's strike turns and overload state (SS)"),
    Mode("fantasy", FantasyRules, RIICHI, "the three cards in play (FL)"),
    Mode("dragon-eye", DragonEyeRules, RIICHI, "the eye's seat and its counter (DE)"),
)}


DEFAULT_MODE = "bloodshed"
"""the mode of a table or spec that names none (the first mode tsumolab simulated)"""


def get_mode(slug: str) -> Mode:
    try:
        return MODES[slug]
    except KeyError:
        raise ValueError(f"unknown mode {slug!r}; available: {', '.join(sorted(MODES))}") from None
