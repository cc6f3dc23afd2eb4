"""One seat's decisions in one hand of a Bloodshed game (RULES.md B-…, a GameRecord hand: analyzer.games.record's
Bloodshed words), each with the seat's position document then (analyzer.advise.bloodshed_position) and the option
the player chose, as analyzer.review.seat_decisions does for the riichi modes.

The decisions are the engine's (sims.bloodshed.engine asks exactly these):
- `exchange` (B-6): the three tiles passed, chosen with the dealt tiles (the dealer's 14th included);
- `void` (B-7): the suit declared, after the exchange;
- `turn`: after each draw, after the seat's own pon (no draw: `after_call`) and the dealer's first turn after the
  voids (no draw either) — the choice is the tsumo win, a kan, or a discard;
- `react` (B-8, B-9): after another seat's discard the seat could ron or pon (an open kan needs a pon's tiles and
  more) — ron, pon, kan or pass;
- `rob` (B-17): after another seat's added kan whose tile completes the seat's hand — ron or pass.
A seat that has won takes no more decisions (B-12). Every seat answers the exchange, the voids and one discard at
the same moment: their positions are taken before any answer shows.

The position holds only what the seat saw (analyzer.review.bloodshed_table): the public table and its own tiles,
never another seat's tiles nor the wall.
"""

from __future__ import annotations

from tsumolab.analyzer.advise.riichi_tiles import HIDDEN
from tsumolab.analyzer.games.record import GameError
from tsumolab.analyzer.review.bloodshed_table import BloodshedTable, kind_of
from tsumolab.analyzer.review.seat_decisions import SeatDecision, TableAt
from tsumolab.sims.tiles import tile_name


def bloodshed_decisions(events, seat: int) -> list[SeatDecision]:
    """The decisions of `seat` in one hand's events, in play order."""
    table = BloodshedTable(events[0], seat)
    first_draw = 1   # the dealer's 14th tile, right after start_kyoku: its turn comes after the voids
    passes = [i for i, e in enumerate(events) if e["type"] == "exchange"]
    voids = [i for i, e in enumerate(events) if e["type"] == "void"]
    out: list[SeatDecision] = []
    for i, e in enumerate(events):
        kind, actor = e["type"], e.get("actor")
        if kind == "kakan" and actor != seat and table.can_rob(kind_of(e["pai"])):
            choice = "ron" if _wins_on(events, i, seat) else "pass"
            out.append(SeatDecision(i, "rob", choice, _own(table), _table_at(table, e["pai"])))
        table.apply(e)
        if passes and i == passes[0] - 1:
            mine = next(x for x in events if x["type"] == "exchange" and x["actor"] == seat)
            label = "exchange " + "".join(tile_name(k) for k in sorted(kind_of(p) for p in mine["pais"]))
            out.append(SeatDecision(i, "exchange", label, _own(table), _table_at(table, "")))
        elif passes and i == passes[-1]:
            mine = next(x for x in events if x["type"] == "void" and x["actor"] == seat)
            out.append(SeatDecision(i, "void", f"void {mine['suit']}", _own(table), _table_at(table, "")))
        elif voids and i == voids[-1] and seat == events[0]["oya"] or \
                actor == seat and (kind == "tsumo" and i > first_draw or kind == "pon"):
            drawn = e["pai"] if kind == "tsumo" else ""
            out.append(SeatDecision(i, "turn", _turn_choice(events, i, seat), _own(table), _table_at(table, drawn)))
        elif kind == "dahai" and actor != seat and table.can_react(kind_of(e["pai"])):
            out.append(SeatDecision(i, "react", _react_choice(events, i, seat), _own(table),
                                    _table_at(table, e["pai"])))
    return out


def bloodshed_position_at(events, seat: int, decision: SeatDecision) -> dict:
    """The position document of `decision` (one found by bloodshed_decisions in `events`)."""
    table = BloodshedTable(events[0], seat)
    for e in events[:decision.at]:
        table.apply(e)
    e = events[decision.at]
    if decision.kind == "rob":
        return table.position({"kind": "rob", "tile": tile_name(kind_of(e["pai"])), "from": e["actor"],
                               "with_drawn_tile": bool(e.get("drawn"))})
    table.apply(e)
    if decision.kind in ("exchange", "void"):
        return table.position({"kind": decision.kind})
    if decision.kind == "react":
        return table.position({"kind": "react", "tile": tile_name(kind_of(e["pai"])), "from": e["actor"],
                               "after_kan": table.kan_draw[e["actor"]]})
    after_call = e["type"] == "pon"
    drawn = table.drawn[seat] if e["type"] == "tsumo" else None
    return table.position({"kind": "turn", "drawn": None if drawn is None else tile_name(kind_of(drawn)),
                           "after_call": after_call, "kan_draw": e["type"] == "tsumo" and table.kan_draw[seat]})


def bloodshed_seat_view(events, seat: int) -> list[dict]:
    """The hand's events as `seat` saw them: the other seats' dealt tiles and draws, and the tiles passed between two
    other seats (B-6), hidden ("?"); the rest is public. Its decisions and positions are the full events'."""
    out = []
    for e in events:
        kind = e["type"]
        if kind == "start_kyoku":
            e = dict(e, tehais=[h if i == seat else [HIDDEN] * len(h) for i, h in enumerate(e["tehais"])])
        elif kind == "tsumo" and e["actor"] != seat:
            e = dict(e, pai=HIDDEN)
        elif kind == "exchange" and seat not in (e["actor"], e["target"]):
            e = dict(e, pais=[HIDDEN] * len(e["pais"]))
        out.append(e)
    return out


def _own(table: BloodshedTable) -> str:
    from tsumolab.analyzer.review.bloodshed_table import tiles_text

    return tiles_text(table.own)


def _table_at(table: BloodshedTable, pai: str) -> TableAt:
    return TableAt(tuple("".join(r) for r in table.river_order), tuple(table.melds_text(s) for s in range(4)), "",
                   tile_name(kind_of(pai)) if pai else "")


def _turn_choice(events, i: int, seat: int) -> str:
    """tsumo, `kan 5m` (closed or added) or `discard 5m`: the seat's action right after event `i`."""
    e = events[i + 1] if i + 1 < len(events) else {}
    if e.get("actor") == seat:
        if e["type"] == "hora":
            return "tsumo"
        if e["type"] in ("ankan", "kakan"):
            return f"kan {tile_name(kind_of(e['pai']))}"
        if e["type"] == "dahai":
            return f"discard {tile_name(kind_of(e['pai']))}"
    raise GameError(f"seat {seat}'s turn at event {i + 1} is not followed by its tsumo, kan or discard")


def _react_choice(events, i: int, seat: int) -> str:
    """ron, pon, kan or pass on the discard at event `i`: the rons come first, then a call."""
    for e in events[i + 1:]:
        if e["type"] == "hora":
            if e["actor"] == seat:
                return "ron"
            continue
        if e.get("actor") == seat and e["type"] in ("pon", "daiminkan"):
            return "pon" if e["type"] == "pon" else "kan"
        return "pass"
    return "pass"


def _wins_on(events, i: int, seat: int) -> bool:
    """Whether `seat` is among the wins right after event `i` (those on the same tile)."""
    for e in events[i + 1:]:
        if e["type"] != "hora":
            return False
        if e["actor"] == seat:
            return True
    return False
