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
from tsumolab.sims.riichi.rules import (
    AstrologyRules, ChantRules, DarknessRules, DoraFeverRules, DragonEyeRules, FantasyRules, FateRules, MirrorRules,
    OpenDealRules, RiichiRules, ShuraRules, SoulStrikeRules,
)


@dataclass(frozen=True)
class Mode:
    """A playable mode: `slug` names it on the command line, `rules_class` holds its options."""

    slug: str
    rules_class: type
    family: EngineFamily
    public: str
    """what the mode shows every seat beyond the riichi table (its discards, melds, dora indicators, points)"""
    names: tuple[str, str, str]
    """the mode's name in English, Chinese and Japanese as the game writes them (analyzer.game_names)"""

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
         "the exchanged-three direction, each seat's void suit once chosen, every win as it happens (B)",
         ("Bloodshed Skirmish", "赤羽之战", "赤血の戦")),
    Mode("riichi", RiichiRules, RIICHI, "nothing beyond the riichi table (R)",
         ("standard 4-player East", "四人东风战（标准规则）", "四人東風戦（通常ルール）")),
    Mode("shura", ShuraRules, RIICHI, "the exchange direction and every win of the bloodbath hand (S)",
         ("Battle of Shura", "修罗之战", "修羅の戦")),
    Mode("dora-fever", DoraFeverRules, RIICHI, "three dora indicators from the start (DF)",
         ("Dora Fever", "宝牌狂热", "ドラ狂熱")),
    Mode("open-deal", OpenDealRules, RIICHI, "every seat's start hand (OD)",
         ("Open Deal", "配牌明牌", "配牌公開")),
    Mode("fate", FateRules, RIICHI, "the first four tiles of each deal and which of them each seat still holds (F)",
         ("Battle of Fate", "天命之战", "天命の戦")),
    Mode("chant", ChantRules, RIICHI, "every seat's tsumogiri and hand-discard run counters (C)",
         ("Battle of Chant", "咏唱之战", "詠唱の戦")),
    Mode("astrology", AstrologyRules, RIICHI, "the candidate pool the next draw is picked from (A)",
         ("Battle of Astrology", "占星之战", "占星の戦")),
    Mode("darkness", DarknessRules, RIICHI, "who discarded face down and the pot; not the face-down tiles (D)",
         ("Battle of Darkness", "暗夜之战", "闇夜の戦")),
    Mode("mirror", MirrorRules, RIICHI, "the three transparent copies of every kind, wherever they are (M)",
         ("Battle of the Mirror", "明镜之战", "明鏡の戦")),
    Mode("soul-strike", SoulStrikeRules, RIICHI, "each riichi seat's strike turns and overload state (SS)",
         ("Soul Strike", "魂之一击", "魂の一撃")),
    Mode("fantasy", FantasyRules, RIICHI, "the three cards in play (FL)",
         ("Fantasy Legend", "幻境传说", "幻境伝説")),
    Mode("dragon-eye", DragonEyeRules, RIICHI, "the eye's seat and its counter (DE)",
         ("Dragon Eye", "龙之目玉", "龍の目玉")),
)}


DEFAULT_MODE = "bloodshed"
"""the mode of a table or spec that names none (the first mode tsumolab simulated)"""


def get_mode(slug: str) -> Mode:
    try:
        return MODES[slug]
    except KeyError:
        raise ValueError(f"unknown mode {slug!r}; available: {', '.join(sorted(MODES))}") from None
