"""What `darkness` (RULES.md D) hides and shows in a position's events (analyzer.advise.riichi_position): written
from a simulated hand, and checked when a document is read.

A face-down discard is a `dahai` with `"face_down": true`, followed at once by its payments into the pot
(analyzer.replay.riichi_events writes them: `payment` reason `face_down` from the discarder, then `dark_open` from
the seat that paid to open it, if one did, then `dark_lock` from the discarder, if it kept the opened tile hidden),
each naming the tile in `pai`. Its kind is known to its discarder only, unless it was opened and not locked: then
it lies face up, an ordinary discard, for every seat. So in another seat's view the `pai` of a face-down tile that
stays hidden — not opened, or locked — is "?" on the dahai and on its payments; its tsumogiri flag stays (where the
tile came from is seen). start_kyoku carries `pot`: the points in the pot at the start of the hand (carried over
from earlier hands like riichi sticks).
"""

from __future__ import annotations

from dataclasses import dataclass

from tsumolab.analyzer.advise.position_errors import PositionError
from tsumolab.analyzer.advise.riichi_tiles import HIDDEN

FACE_DOWN, OPEN, LOCK = "face_down", "dark_open", "dark_lock"
DARK_REASONS = (FACE_DOWN, OPEN, LOCK)


@dataclass
class FaceDown:
    """One face-down discard of a hand's events: its dahai, its payments, who opened it and whether it was
    locked."""

    dahai: int                   # index of the dahai event
    actor: int                   # the discarder
    payments: list[int]          # indices of its face_down, dark_open and dark_lock payments
    opener: int | None = None
    locked: bool = False

    @property
    def revealed(self) -> bool:
        """Opened and not locked: face up for every seat (D)."""
        return self.opener is not None and not self.locked

    def hidden_from(self, seat: int) -> bool:
        """Is its kind hidden from `seat`?"""
        return seat != self.actor and not self.revealed


def is_darkness(rules) -> bool:
    """Does the mode play face-down discards (D)?"""
    return bool(getattr(rules, "darkness", False))


def face_down_tiles(events: list[dict]) -> dict[int, FaceDown]:
    """The face-down discards of a hand's events by the index of their dahai. The payments must follow their dahai
    directly (face_down, then dark_open, then dark_lock); a document where they do not is refused."""
    out: dict[int, FaceDown] = {}
    last: FaceDown | None = None
    for i, e in enumerate(events):
        reason = e.get("reason") if e.get("type") == "payment" else None
        if reason not in DARK_REASONS:
            last = None
            continue
        where = f"event {i} (payment {reason})"
        payer = e.get("from")
        if reason == FACE_DOWN:
            before = events[i - 1] if i > 0 else {}
            if before.get("type") != "dahai" or before.get("actor") != payer:
                raise PositionError(f"{where}: a face-down payment follows its payer's dahai directly (D)")
            last = out[i - 1] = FaceDown(i - 1, payer, [i])
        elif last is None or events[i - 1].get("reason") != (FACE_DOWN if reason == OPEN else OPEN):
            raise PositionError(f"{where}: it follows the {'face_down' if reason == OPEN else 'dark_open'} payment "
                                "of its tile directly (D)")
        elif reason == OPEN:
            if payer == last.actor or not isinstance(payer, int) or not 0 <= payer <= 3:
                raise PositionError(f"{where}: another seat opens seat {last.actor}'s face-down tile (D)")
            last.opener = payer
            last.payments.append(i)
        else:
            if payer != last.actor:
                raise PositionError(f"{where}: only the discarder, seat {last.actor}, locks its tile (D)")
            last.locked = True
            last.payments.append(i)
    return out


def mark_face_down(events: list[dict]) -> None:
    """Set `"face_down": true` on every face-down dahai of a hand's full events (nothing hidden)."""
    for tile in face_down_tiles(events).values():
        events[tile.dahai]["face_down"] = True


def hide_face_down(events: list[dict], seat: int) -> list[dict]:
    """The events as `seat` sees them: the kind of every other seat's face-down tile that stays hidden is "?"."""
    out = list(events)
    for tile in face_down_tiles(events).values():
        if tile.hidden_from(seat):
            for i in (tile.dahai, *tile.payments):
                out[i] = dict(out[i], pai=HIDDEN)
    return out


def check_face_down(events: list[dict], tiles: list[dict], seat: int, variant: str) -> dict[int, FaceDown]:
    """The face-down discards of a position's events, checked against what `seat` may see (PositionError): only a
    darkness hand has them; a face-down dahai has its face_down payment and the reverse; the seat sees the kind of
    its own face-down tiles and of the opened ones (not locked), and of no other; a pot only in darkness."""
    marked = [i for i, e in enumerate(events) if e["type"] == "dahai" and e.get("face_down")]
    if variant != "darkness":
        if marked or any(e.get("reason") in DARK_REASONS for e in events if e["type"] == "payment"):
            raise PositionError(f"face-down discards belong to darkness positions (D), not {variant}")
        if "pot" in events[0]:
            raise PositionError(f"start_kyoku: a pot belongs to darkness positions (D), not {variant}")
        return {}
    found = face_down_tiles(events)
    for i in marked:
        if i not in found:
            raise PositionError(f"event {i} (dahai): a face-down discard is followed by its face_down payment (D)")
    for i, tile in found.items():
        if not events[i].get("face_down"):
            raise PositionError(f"event {i} (dahai): it is paid for as a face-down discard, so it needs "
                                "\"face_down\": true (D)")
        shown = tiles[i].get("pai") is not None
        if tile.hidden_from(seat) and shown:
            raise PositionError(f"event {i} (dahai): seat {tile.actor}'s face-down tile stays hidden from seat "
                                f"{seat} (D): write its pai \"?\"")
        if not tile.hidden_from(seat) and not shown:
            raise PositionError(f"event {i} (dahai): seat {seat} sees this tile (its own, or opened and not locked, "
                                "D): its pai cannot be \"?\"")
    return found
