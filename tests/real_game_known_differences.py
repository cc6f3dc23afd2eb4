"""The known differences between real game logs and what tsumolab can rebuild (tests/test_real_games.py).

One entry per decision a real log holds that `tsumolab review` refuses: the log file, the hand (1-based), the
seat, the words of the refusal, and why. The test requires the refusals that occur to be exactly these: a new
refusal fails it, and so does a listed one that no longer occurs.
"""

from __future__ import annotations

from typing import NamedTuple


class KnownDifference(NamedTuple):
    file: str
    hand: int
    seat: int
    refusal: str
    explanation: str


KNOWN_DIFFERENCES: tuple[KnownDifference, ...] = (
    KnownDifference(
        "tenhou6/double_kakan_then_chankan.json", 1, 3, "the log has kakan, the engine dora",
        "Dora timing (R-1): Mahjong Soul shows an added kan's new indicator at the next kan at the latest; Tenhou "
        "had not shown it when the second added kan was robbed, so the log does not hold that indicator and the "
        "position of seat 3's robbing decision cannot be rebuilt."),
)
