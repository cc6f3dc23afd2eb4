"""The errors of reading a position document, shared by the Bloodshed and the riichi-family readers (light to
import: a riichi command loads no Bloodshed engine for them)."""


class PositionError(ValueError):
    """A position that cannot occur, or one this analyzer does not support."""


class NoDecision(PositionError):
    """The log is valid but the seat has nothing to decide at its end (the engine plays on by itself there, e.g.
    the forced discard of a seat in riichi)."""
