"""The known differences between tsumolab's `riichi` mode and riichienv (tests/test_riichienv_diff.py).

One entry per class of difference that the differential test may meet: its id (the `kind` that
tests.riichienv_bridge.classify gives it), the rule of sims/RULES.md it concerns, what differs, and
which side is wrong ("tsumolab": a tsumolab bug still open; "riichienv": a Mahjong Soul rule riichienv lacks).
The test requires the set of kinds that occur to be exactly the ids listed here: a difference that is not
listed fails it, and so does a listed one that no longer occurs.
"""

from __future__ import annotations

from typing import NamedTuple


class KnownDifference(NamedTuple):
    id: str
    rule: str
    side: str
    explanation: str


# Empty: the five classes of issue 13 (red-five-after-riichi R-4, yakuless-furiten R-4, robbed-kan-not-logged
# R-4, multiple-ron-deposits R-3, extension-renchan R-2) and the karaten tenpai at the draw were tsumolab
# bugs, now fixed; tests.riichienv_bridge.classify still names them should they come back.
KNOWN_DIFFERENCES: tuple[KnownDifference, ...] = ()
