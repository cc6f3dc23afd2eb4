"""What mirror, astrology and darkness change in a seat's view of a hand and in its decisions (used by
analyzer.review.seat_decisions), from a GameRecord hand in the words of analyzer.games.record:

- mirror (M): another seat's draw of a transparent copy is seen (the copy mirror_wall names at that wall position:
  live draws take `live` in order from the dealer's first draw, replacement draws `rinshan` in order);
- astrology (A): once the pool is open every draw is the pick of a face-up candidate, seen by every seat; each pick
  is a decision of its drawer (`pick`: `take 3p`, `take 5pr`, `take 3p (dead wall)` for the tile a kan added),
  made with the pool revealed, so its position ends right before the tsumo;
- darkness (D): the kind of another seat's face-down tile is "?" while it stays hidden (not opened, or locked:
  analyzer.advise.riichi_dark), and the view carries every payment into the table (the riichi sticks too, as
  the position documents do). A face-down discard can be neither called nor ronned: the other seats holding
  2000 points are asked whether to open it (`open`: `open` / `decline`) — the seats before the one that opened it
  in turn order declined, the ones after it answered unseen (their decision is left out); an opened tile's
  discarder holding 4000 points is asked whether to lock it (`lock`: `lock` / `decline`); an opened tile left
  face up is an ordinary discard, reacted to once it is open.
"""

from __future__ import annotations

from tsumolab.analyzer.advise.riichi_dark import face_down_tiles, hide_face_down
from tsumolab.analyzer.advise.riichi_tiles import HIDDEN, tile_of, tile_text
from tsumolab.sims.riichi.darkness_pot import LOCK_COST, OPEN_COST

KANS = ("daiminkan", "ankan", "kakan")
STICK = 1000   # a riichi stick


def replacement_draw(events, i: int) -> bool:
    """Is the tsumo at `i` a kan's replacement draw (its flag, or the seat's own kan right before it)?"""
    e = events[i]
    if "rinshan" in e:
        return bool(e["rinshan"])
    before = next((x for x in reversed(events[:i]) if x["type"] != "dora"), {})
    return before.get("type") in KANS and before.get("actor") == e["actor"]


def seen_draws(events, variant: str) -> set[int]:
    """Indices of the tsumo events every seat sees: mirror's draws of a transparent copy (M), astrology's picks
    from the open pool (A)."""
    out: set[int] = set()
    if variant == "astrology":
        opened = False
        for i, e in enumerate(events):
            opened |= e["type"] == "candidate"
            if opened and e["type"] == "tsumo":
                out.add(i)
    elif variant == "mirror" and "mirror_wall" in events[0]:
        wall = events[0]["mirror_wall"]
        live = rinshan = 0
        for i, e in enumerate(events):
            if e["type"] != "tsumo":
                continue
            if replacement_draw(events, i):
                shown, rinshan = wall["rinshan"][rinshan], rinshan + 1
            else:
                shown, live = wall["live"][live], live + 1
            if shown != HIDDEN:
                out.add(i)
    return out


def darkness_view(events: list[dict], seat: int) -> list[dict]:
    """D: the events as `seat` sees them (every seat's start tiles and draws as given): the other seats' hidden
    face-down tiles "?", and each accepted riichi's stick as the payment the position documents show."""
    out = []
    for e in hide_face_down(list(events), seat):
        if e["type"] == "reach_accepted":
            out.append({"type": "payment", "from": e["actor"], "to": -1, "amount": STICK, "reason": "riichi_stick"})
        out.append(e)
    return out


class PoolPicks:
    """A: the pool followed event by event, to name each pick (the candidate taken and whether a kan added it)."""

    def __init__(self):
        self.pool: list[tuple[str, bool]] = []

    def apply(self, e: dict) -> str | None:
        """Follow one event; for a pick (a tsumo with `pick`), its label as advise writes it."""
        if e["type"] == "candidate":
            self.pool.append((e["pai"], bool(e["dead_wall"])))
        elif e["type"] == "tsumo" and "pick" in e:
            pai, dead = self.pool.pop(e["pick"])
            return "take " + tile_text(tile_of(pai)) + (" (dead wall)" if dead else "")
        return None


class DarkDecisions:
    """D: each seat's points followed event by event, and the open and lock decisions of one seat."""

    def __init__(self, start: dict, seat: int):
        self.seat = seat
        self.points = list(start["scores"])

    def apply(self, e: dict) -> None:
        if e["type"] == "reach_accepted":
            self.points[e["actor"]] -= STICK
        elif e["type"] == "payment":
            self.points[e["from"]] -= e["amount"]

    def at(self, events, i: int) -> list[tuple[str, str]]:
        """The seat's (kind, choice) decisions right after event `i` (its points as after it): open after another
        seat's face_down payment, lock after the opening of its own tile, react once an opened tile lies face up."""
        e = events[i]
        if e["type"] != "payment":
            return []
        tile = face_down_tiles(events[:_payments_end(events, i)]).get(_dahai_of(events, i))
        if tile is None:
            return []
        if e["reason"] == "face_down" and tile.actor != self.seat:
            return self._open(tile)
        if e["reason"] == "dark_open" and tile.actor == self.seat and self.points[self.seat] >= LOCK_COST:
            return [("lock", "lock" if tile.locked else "decline")]
        return []

    def _open(self, tile) -> list[tuple[str, str]]:
        if self.points[self.seat] < OPEN_COST:
            return []
        if tile.opener == self.seat:
            return [("open", "open")]
        order = [(tile.actor + k) % 4 for k in (1, 2, 3)]
        if tile.opener is None or order.index(self.seat) < order.index(tile.opener):
            return [("open", "decline")]
        return []   # asked after the opener: its answer is not recorded


def opened_face_up(events, i: int) -> int | None:
    """D: the index of the dahai whose face-down tile the payment at `i` leaves face up for good (its dark_open,
    with no dark_lock after it), else None."""
    e = events[i]
    if e["type"] != "payment" or e.get("reason") != "dark_open":
        return None
    after = events[i + 1] if i + 1 < len(events) else {}
    if after.get("type") == "payment" and after.get("reason") == "dark_lock":
        return None
    return _dahai_of(events, i)


def _dahai_of(events, i: int) -> int:
    """The index of the dahai whose payments include the one at `i`."""
    j = i
    while events[j]["type"] == "payment":
        j -= 1
    return j


def _payments_end(events, i: int) -> int:
    """The index after the payments that follow the dahai of the payment at `i` (all of its face-down tile's)."""
    j = i
    while j < len(events) and events[j]["type"] == "payment" and events[j].get("reason") in (
            "face_down", "dark_open", "dark_lock"):
        j += 1
    return j
