"""The known differences between tsumolab's `riichi` mode and riichienv (tests/test_riichienv_diff.py).

One entry per class of difference that the differential test may meet: its id (the `kind` that
tests.riichienv_bridge.classify gives it), the rule of /work/shared/RULES.md it concerns, what differs, and
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


KNOWN_DIFFERENCES: tuple[KnownDifference, ...] = (
    KnownDifference("red-five-after-riichi", "R-4", "tsumolab",
                    "after riichi the drawn red five must be discarded; tsumolab discards a plain copy of that five "
                    "and keeps the red one"),
    KnownDifference("yakuless-furiten", "R-4", "tsumolab",
                    "passing a discard that completes one's shape makes one temporarily furiten even without yaku; "
                    "tsumolab lets the seat ron later in the same go-around"),
    KnownDifference("robbed-kan-not-logged", "R-4", "tsumolab",
                    "a robbed added kan is missing from the event log, so the chankan ron answers no kan"),
    KnownDifference("multiple-ron-deposits", "R-3", "tsumolab",
                    "on a multiple ron the honba bonus goes only to the winner first after the discarder; "
                    "tsumolab pays it to every winner"),
    KnownDifference("extension-renchan", "R-2", "tsumolab",
                    "in the South extension a dealer renchan goes on unless the dealer is first with 30000; "
                    "tsumolab ends the match as soon as anyone has 30000"),
)
