"""Planted blunders: real decisions with the player's choice replaced by an obviously bad one, which `review` must
flag (`tsumolab bench --agreement LOGS --planted`, issue 30).

At a decision of a real log, seen as the seat saw it (the position advise reads), a blunder is planted when one
of these applies:
- `break-ready`: an own turn of a closed hand (ready hands that are open may lack a yaku) that is ready after its
  best discard on at least LIVE_WAITS winning tiles nobody can see, with at least READY_WALL tiles left in the
  live wall and no riichi yet: the discard that leaves the hand farthest from ready;
- `push-into-riichi`: an own turn while the dealer (another seat) is in riichi and the seat's hand is two or more
  tiles from ready: the discard of a dangerous tile, a middle tile (3–7) the dealer has not shown safe and whose
  suji (the tiles three away) it has not shown safe either, the most central first;
- `pass-mangan`: a ron worth MANGAN or more on a discard with at most LATE_WALL tiles left: passing it.
The planted option is evaluated like the player's choice in `review`; it is caught when flagged a clear mistake.
"""

from __future__ import annotations

import numpy as np

from tsumolab.sims.decisions import D_REACT, D_TURN
from tsumolab.sims.riichi.observation import ROBS

READY_WALL = 24
LIVE_WAITS = 4
LATE_WALL = 8
MANGAN = 8_000


def _discards(options: list[tuple[str, int]]) -> dict[int, str]:
    """{kind: label} of the plain discards among the options."""
    return {answer: label for label, answer in options if label.startswith("discard ") and 0 <= answer < 34}


def planted_choice(view: np.ndarray, options: list[tuple[str, int]], tables) -> tuple[str, str] | None:
    """(plant, option label) of the blunder planted at this decision (module doc), or None."""
    from tsumolab.analyzer.advise.riichi_sampler import _shanten

    seat = int(view[ROBS.seat])
    decision = int(view[ROBS.decision])
    wall = int(view[ROBS.wall_left])
    hand = np.array(view[ROBS.hand:ROBS.hand + 34], np.int32)
    n_melds = int(view[ROBS.n_melds + seat])
    if decision == D_REACT:
        if view[ROBS.can_win] and view[ROBS.win_points] >= MANGAN and wall <= LATE_WALL:
            return "pass-mangan", "pass"
        return None
    if decision != D_TURN or view[ROBS.riichi + seat] > 0:
        return None
    discards = _discards(options)
    if not discards:
        return None

    def after(kind: int) -> int:
        rest = hand.copy()
        rest[kind] -= 1
        return _shanten(rest, n_melds, tables)

    def live_waits(kind: int) -> int:
        """Unseen winning tiles of the hand after discarding `kind` (0 when it is not ready then)."""
        rest = hand.copy()
        rest[kind] -= 1
        if _shanten(rest, n_melds, tables) != 0:
            return 0
        unseen = 0
        for wait in range(34):
            rest[wait] += 1
            if _shanten(rest, n_melds, tables) == -1:
                unseen += max(0, 4 - int(view[ROBS.seen + wait]) - int(hand[wait]))
            rest[wait] -= 1
        return unseen

    now = _shanten(hand, n_melds, tables)
    dealer = int(view[ROBS.dealer])
    if dealer != seat and view[ROBS.riichi + dealer] > 0 and now >= 2:
        safe = view[ROBS.safe + 34 * dealer:ROBS.safe + 34 * dealer + 34]
        fresh = [k for k in discards if k < 27 and 2 <= k % 9 <= 6 and not safe[k]
                 and not any(0 <= k % 9 + step <= 8 and safe[k + step] for step in (-3, 3))]
        if fresh:
            return "push-into-riichi", discards[min(fresh, key=lambda k: (abs(k % 9 - 4), k))]
    if wall >= READY_WALL and n_melds == 0 and now == 0 and max(live_waits(k) for k in discards) >= LIVE_WAITS:
        worst = max(discards, key=lambda k: (after(k), -k))
        if after(worst) >= 1:
            return "break-ready", discards[worst]
    return None


def shanten_of(tiles: str) -> int:
    """Shanten of the seat's concealed tiles (mpsz; 14 − 3·melds tiles after a draw: the best discard's)."""
    from tsumolab.analyzer.advise.riichi_sampler import _shanten
    from tsumolab.sims.tiles import parse_tiles

    counts, _ = parse_tiles(tiles)
    n = int(counts.sum())
    return _shanten(counts, (14 - n) // 3 if n % 3 == 2 else (13 - n) // 3, None)


EARLIEST_LATE_DRAW = 40
"""fewer draws than this leave more than LATE_WALL tiles in any riichi-family wall"""


def may_plant(events, seat: int, decision) -> bool:
    """A necessary condition of planted_choice read from the events and the decision alone, so that the position
    is built only where a blunder may apply: a late reaction; or an own turn of a seat not in riichi, either
    closed and ready or at two or more tiles from ready after the dealer declared riichi."""
    from tsumolab.sims.tiles import parse_tiles

    seen = events[:decision.at + 1]
    if decision.kind == "react":
        return sum(e["type"] == "tsumo" for e in seen) >= EARLIEST_LATE_DRAW
    if decision.kind != "turn":
        return False
    dealer = next(e["oya"] for e in seen if e["type"] == "start_kyoku")
    declared = {e["actor"] for e in seen if e["type"] == "reach"}
    if seat in declared:
        return False
    shanten = shanten_of(decision.tiles)
    closed = int(parse_tiles(decision.tiles)[0].sum()) == 14
    return (closed and shanten == 0) or (dealer in declared and dealer != seat and shanten >= 2)


def plant_at(record, events, seat: int, decision) -> tuple[str, str] | None:
    """planted_choice at a SeatDecision of a real log (the position `review` would advise), or None."""
    if not may_plant(events, seat, decision):
        return None
    from tsumolab.analyzer.advise.position_advice import read_position
    from tsumolab.analyzer.advise.riichi_sampler import riichi_options
    from tsumolab.analyzer.review.game_review import game_rules
    from tsumolab.analyzer.review.seat_decisions import position_at
    from tsumolab.sims.shanten_tables import lookup_tables

    try:
        _, state, _, _, _ = read_position(position_at(record.variant, events, seat, decision, game_rules(record)))
    except Exception:  # a decision review skips (nothing to decide, or refused) gets no blunder either
        return None
    tables = lookup_tables()
    return planted_choice(state.view, riichi_options(state.view, tables), tables)
