"""Bloodshed Skirmish (赤羽之战) rules in one place: constants of RULES.md B-1 … B-25 and the rule options.

Options are a frozen dataclass (never mutated by evaluation); kernels receive them packed as an int64
array by `BloodshedRules.to_array()`, indexed by the OPT_* constants below.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

START_POINTS = 50_000          # B-2
HANDS_PER_MATCH = 4            # B-2
N_TILES = 108                  # B-1
DEAL_SIZE = 13                 # B-5
FAN_CAP = 6                    # B-19
TSUMO_EXTRA = 1_000            # B-19: every payer adds 1000 on a tsumo
CLOSED_KAN_PAY = 2_000         # B-14, from every other non-won player
OPEN_KAN_PAY = 2_000           # B-15, from the discarder
ADDED_KAN_PAY = 1_000          # B-15, from every other non-won player, drawn tile only
FLOWER_PIG_MIN = 8_000         # B-22

OPT_STACK_KNOWN_BUGS = 0
OPT_TSUMO_FAN = 1
OPT_WINNERS_TO_END = 2
N_OPTIONS = 3
TSUMO_BONUSES = ("base", "fan")


@dataclass(frozen=True)
class BloodshedRules:
    """Rule options of the bloodshed mode (RULES.md states each default)."""

    stack_known_bugs: bool = False
    """B-19c: 带幺九 stacks with 清幺九 and 对对和 with 将对, as the live game's known bugs do."""
    tsumo_bonus: str = "base"
    """B-19 tsumo reward: "base" = every payer adds 1000 (自摸加底, Mahjong Soul and source 000); "fan" = the
    win counts one more fan, within the cap (自摸加番, a common Sichuan house rule, for comparison)."""

    winners_to_end: int = 3
    """B-13: the hand ends when this many players have won (3 = the bloodbath, 血战到底; 1 = the hand ends
    at the first win, for comparing strategies without the bloodbath)."""

    def __post_init__(self) -> None:
        if not 1 <= self.winners_to_end <= 3:
            raise ValueError(f"winners_to_end must be 1, 2 or 3, got {self.winners_to_end}")
        if self.tsumo_bonus not in TSUMO_BONUSES:
            raise ValueError(f"tsumo_bonus must be one of {', '.join(TSUMO_BONUSES)}, got {self.tsumo_bonus!r}")

    def to_array(self) -> np.ndarray:
        arr = np.zeros(N_OPTIONS, np.int64)
        arr[OPT_STACK_KNOWN_BUGS] = int(self.stack_known_bugs)
        arr[OPT_TSUMO_FAN] = int(self.tsumo_bonus == "fan")
        arr[OPT_WINNERS_TO_END] = self.winners_to_end
        return arr

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, values: dict) -> "BloodshedRules":
        known = {f.name for f in fields(cls)}
        unknown = set(values) - known
        if unknown:
            raise ValueError(f"unknown bloodshed rule option(s): {', '.join(sorted(unknown))}")
        return cls(**values)


