"""The walk both Mahjong Soul record readers share (analyzer.games.majsoul for the riichi modes,
analyzer.games.majsoul_bloodshed for 川麻): every record handled in order by the reader's `_<RecordName>` method,
a hand's events kept when the next RecordNewRound or the end of the records comes, and every refusal one GameError
line naming the hand and the record."""

from __future__ import annotations

from tsumolab.analyzer.games.record import GameError


def ints(values, n: int = 4) -> list[int]:
    """A record's list of numbers as n ints, the missing ones 0."""
    values = [int(v or 0) for v in values or []]
    return values + [0] * (n - len(values))


class RecordWalker:
    """A reader's walk over (name, data) records; a subclass adds one `_<RecordName>` method per record it reads
    and sets `round` (the hand's name in refusals) and `over` (its result written) as it goes."""

    unread = "this kind of record is not read"
    malformed = (AttributeError, TypeError, ValueError, IndexError)   # a record's data of the wrong shape

    def __init__(self, title: str):
        self.title = title
        self.hands: list[tuple[dict, ...]] = []
        self.events: list[dict] | None = None
        self.over = False
        self.round = ""

    def fail(self, message: str):
        where = f"hand {self.round}" if self.events is not None else "before the first hand"
        raise GameError(f"{self.title}: {where}, record {self.at} ({self.name}): {message}")

    def read(self, records: list[tuple[str, dict]]) -> tuple[tuple[dict, ...], ...]:
        for self.at, (self.name, data) in enumerate(records):
            method = getattr(self, "_" + self.name, None)
            if method is None:
                self.fail(self.unread)
            if self.events is None and self.name != "RecordNewRound":
                self.fail("the record comes before the first RecordNewRound")
            if self.events is not None and self.name != "RecordNewRound" and self.over:
                self.fail("the hand is already over")
            try:
                self.handle(method, data)
            except self.malformed as exc:
                self.fail(f"malformed record ({type(exc).__name__}: {exc})")
        self._close()
        if not self.hands:
            raise GameError(f"{self.title}: the record holds no hand")
        return tuple(self.hands)

    def handle(self, method, data: dict) -> None:
        """Read one record (a reader adds what every record carries around its own method)."""
        method(data)

    def emit(self, event: dict) -> dict:
        self.events.append(event)
        return event

    def _close(self) -> None:
        if self.events is not None:
            if not self.over:
                self.fail("the records end before the hand's result")
            self.hands.append(tuple(self.events))
