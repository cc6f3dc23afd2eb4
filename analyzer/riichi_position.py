"""Positions of the riichi modes (`riichi`, `shura`) from one seat's view: written from a simulated hand, read
back from a document or a raw mjai log, and rebuilt into an engine state (analyzer.riichi_rebuild).

A position is the deciding seat's view of one hand up to a pending decision, as mjai-style events (the words
`tsumolab replay --json` writes, analyzer.replay_riichi):

    {"format": "tsumolab-position/1", "variant": "shura",
     "seat": 2,                  the deciding seat (0..3)
     "decision": "react",        exchange (shura, S-2) | turn | react (to a discard) | rob (an added kan)
     "events": [...],            the hand's events from start_kyoku up to the decision
     "note": "..."}              free text (where the position comes from)
    optional: "rules" (rule options that differ from the mode's defaults, as for `tsumolab run --rule`)

What the seat cannot see is written "?": the other seats' starting tiles (`tehais`) and draws (`tsumo` pai),
and the three tiles other seats pass each other at the exchange. The seat's own exchange and what it received
stay; the exchange direction shows in start_kyoku once the exchange is done. Other seats' `pass_win` events are
left out. Everything else is public: discards with their tsumogiri flag, riichi (`reach`, `reach_accepted`),
calls and kans with their tiles, dora indicators, wins (`hora` with han and fu) and every point transfer
(`payment`).

start_kyoku carries the hand's place in its match: `bakaze` (E or S) and `kyoku` (1..4), `honba`, `kyotaku`
(riichi sticks on the table), `oya` (the dealer), `scores` (points at the hand's start), `dora_marker` (the first
indicator; in shura it is shown after the exchange) and `tehais`; the simulator adds `hand` (the hand's number
in its match). Tiles are 1m..9m, 1p..9p, 1s..9s, 1z..7z (mjai's E S W N P F C are read too); a red five is 5mr,
5pr, 5sr (0m, 0p, 0s are read too).

A raw mjai log is accepted as well: JSON lines, a JSON array of events, or an object with "events" and no
"format". The hand is the one of the last start_kyoku; the seat is the one whose tehai is shown; the mode is
shura when the hand has an exchange, riichi otherwise (or as given); the decision follows from the last event
(trailing dora and other seats' pass_win aside): a tsumo to the seat, its own chi/pon, or the exchange when
the seat deals → turn; a dahai by
another seat → react; a kakan (or an ankan, thirteen orphans) by another seat → rob; in shura a start_kyoku
(and the dealer's first tsumo) with no exchange yet → exchange.

`build_position(document)` replays the events through the engine itself with hidden tiles chosen so that every
logged action is possible (analyzer.riichi_rebuild) and returns the state at the decision. What the engine
cannot express is refused: a red five given up from the hand while a plain copy of it is held (the engine gives
up the plain copy first, R-1), calls, kans or an exchange that would leave the red five behind.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from analyzer.position import PositionError
from sims import tiles

FORMAT = "tsumolab-position/1"
VARIANTS = ("riichi", "shura")
DECISION_WORDS = ("exchange", "turn", "react", "rob")
HIDDEN = "?"
MJAI_HONORS = "ESWNPFC"
ACTION_TYPES = ("tsumo", "dahai", "chi", "pon", "daiminkan", "ankan", "kakan", "hora")
KNOWN_TYPES = (*ACTION_TYPES, "start_kyoku", "reach", "reach_accepted", "dora", "exchange", "pass_win", "payment")
IGNORED_TYPES = ("start_game", "none")
HAND_OVER_TYPES = ("ryukyoku", "end_kyoku", "end_game")

Tile = tuple[int, bool]  # (kind 0..33, red five)


# ----------------------------------------------------------------------------- writing
def seat_view_events(pos, seat: int | None = None) -> list[dict]:
    """The events of the hand of `pos` (a sims.riichi.positions.Position kept with keep_events=True) up to now,
    as seat `seat` (default: the deciding seat) sees them."""
    from analyzer.replay_riichi import to_json_events
    from sims.riichi.hand_state import HS

    seat = pos.seat if seat is None else int(seat)
    rows = pos.logged()
    if rows.shape[0] == 0:
        raise ValueError("the position keeps no event log (RiichiTable(..., keep_events=True))")
    key = (int(rows[0, 0]), int(rows[0, 1]))
    points = {key: [int(p) for p in pos.hs[HS.points_before:HS.points_before + 4]]}
    out = []
    for event in to_json_events(rows, points):
        kind = event["type"]
        if kind == "start_kyoku":
            event = dict(event, kyotaku=int(pos.hs[HS.m_sticks]))
            event["tehais"] = [h if i == seat else [HIDDEN] * len(h) for i, h in enumerate(event.get("tehais", []))]
        elif kind == "tsumo" and event["actor"] != seat:
            event = dict(event, pai=HIDDEN)
        elif kind == "exchange" and seat not in (event["actor"], event["target"]):
            event = dict(event, pais=[HIDDEN] * 3)
        elif kind == "pass_win" and event["actor"] != seat:
            continue
        out.append(event)
    return out


def position_document(variant: str, pos, note: str = "") -> dict:
    """The position document of the pending decision of `pos` (kept with its events) in mode `variant`."""
    from sims.decisions import D_EXCHANGE, D_REACT, D_ROB, D_TURN

    names = {D_EXCHANGE: "exchange", D_TURN: "turn", D_REACT: "react", D_ROB: "rob"}
    if variant not in VARIANTS:
        raise PositionError(f"riichi positions are for modes {' and '.join(VARIANTS)}, not {variant!r}")
    if not pos.pending or pos.decision not in names:
        raise ValueError("the position has no pending decision")
    return {"format": FORMAT, "variant": variant, "seat": pos.seat, "decision": names[pos.decision],
            "events": seat_view_events(pos), "note": note}


def simulated_document(variant: str, seats_spec: str, seed: int, match_id: int, hand_no: int, decision: int,
                       rules: dict | None = None, policy_paths: tuple[str, ...] = ()) -> dict | None:
    """The document of decision `decision` (0-based) of hand `hand_no` of match `match_id` re-simulated from
    `seed` with the seats of `seats_spec`; None when the hand has fewer decisions or the match fewer hands."""
    from policies.registry import parse_seats
    from sims.modes import get_mode
    from sims.riichi.positions import RiichiTable

    mode = get_mode(variant)
    table = RiichiTable(parse_seats(seats_spec, policy_paths), mode.RULES.from_dict(rules or {}), root_seed=seed,
                        keep_events=True)
    pos = table.at_decision(match_id, hand_no, decision)
    if pos is None:
        return None
    document = position_document(variant, pos, f"seed {seed}, match {match_id}, hand {hand_no}, decision "
                                                f"{decision}, seats {seats_spec}")
    if rules:
        document["rules"] = dict(rules)
    return document


# ----------------------------------------------------------------------------- reading
@dataclass
class SeatLog:
    """A position read from a document: the hand's events (validated, tiles parsed into `tiles`) as one seat
    sees them up to its decision."""

    variant: str
    seat: int
    decision: str
    events: list[dict]          # the events as given (the hand's only)
    tiles: list[dict]           # per event: its tiles parsed (see _parse_event)
    rules: dict                 # rule options that differ from the mode's defaults

    @property
    def start(self) -> dict:
        return self.events[0]


def read_document(data, variant: str | None = None, seat: int | None = None) -> SeatLog:
    """A position document or a raw mjai log (a dict, a list of events, or JSON / JSON-lines text) → SeatLog.
    Raises PositionError with a one-line message."""
    if isinstance(data, (bytes, str)):
        data = _parse_text(data.decode("utf-8") if isinstance(data, bytes) else data)
    decision = None
    rules: dict = {}
    if isinstance(data, dict):
        if "format" in data:
            if data["format"] != FORMAT:
                raise PositionError(f"unknown position format {data['format']!r} (expected {FORMAT!r})")
            variant = data.get("variant")
            if variant not in VARIANTS:
                raise PositionError(f"riichi positions are for modes {' and '.join(VARIANTS)}, not {variant!r}")
            seat = data.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
                raise PositionError(f"seat must be an integer in 0..3, got {seat!r}")
            decision = data.get("decision")
            if decision is not None and decision not in DECISION_WORDS:
                raise PositionError(f"decision must be one of {', '.join(DECISION_WORDS)}, got {decision!r}")
            rules = data.get("rules") or {}
            if not isinstance(rules, dict):
                raise PositionError("rules must be an object of rule options")
        events = data.get("events")
    else:
        events = data
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise PositionError("events must be a list of JSON objects (mjai events)")
    events = _this_hand(events)
    parsed = [_parse_event(i, e) for i, e in enumerate(events)]
    start = events[0]
    if seat is None:
        seat = _seat_of(events, parsed)
    if variant is None:
        variant = "shura" if any(e["type"] == "exchange" for e in events) else "riichi"
    if variant not in VARIANTS:
        raise PositionError(f"riichi positions are for modes {' and '.join(VARIANTS)}, not {variant!r}")
    if any(e["type"] == "exchange" for e in events) and variant != "shura":
        raise PositionError("the log has an exchange (S-2): only shura hands have one")
    own = parsed[0]["tehais"][seat]
    if any(t is None for t in own):
        raise PositionError(f"seat {seat}'s own starting tiles must be shown in start_kyoku")
    inferred = _infer_decision(events, seat, variant)
    if decision is not None and decision != inferred:
        raise PositionError(f"the log ends at a {inferred} decision of seat {seat}, but the document says "
                            f"{decision!r}")
    if start.get("oya") not in range(4):
        raise PositionError(f"start_kyoku oya must be a seat 0..3, got {start.get('oya')!r}")
    return SeatLog(variant, seat, inferred, events, parsed, rules)


def _parse_text(text: str):
    text = text.strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise PositionError(f"line {n} is not a JSON event: {exc.msg}") from None
    return out


def _this_hand(events: list[dict]) -> list[dict]:
    """The events of the last start_kyoku on, unknown bookkeeping words dropped."""
    for e in events:
        if not isinstance(e.get("type"), str):
            raise PositionError(f"every event needs a type, got {json.dumps(e)[:80]}")
    starts = [i for i, e in enumerate(events) if e["type"] == "start_kyoku"]
    if not starts:
        raise PositionError("the log has no start_kyoku")
    out = []
    for e in events[starts[-1]:]:
        kind = e["type"]
        if kind in IGNORED_TYPES:
            continue
        if kind in HAND_OVER_TYPES:
            raise PositionError(f"the hand is over ({kind}): a position ends at a pending decision")
        if kind not in KNOWN_TYPES:
            raise PositionError(f"event type {kind!r} is not part of riichi or shura")
        out.append(e)
    return out


@lru_cache(maxsize=None)
def _tile_of(name: str) -> Tile | None:
    if name == HIDDEN:
        return None
    if len(name) == 1 and name in MJAI_HONORS:
        return 27 + MJAI_HONORS.index(name), False
    red = name.endswith("r")
    base = name[:-1] if red else name
    try:
        kind, zero = tiles.parse_tile(base)
    except tiles.TileError:
        raise PositionError(f"unknown tile {name!r} (write 1m..9s, 1z..7z or E S W N P F C; red fives 5mr)") from None
    red = red or zero
    if red and (kind >= 27 or kind % 9 != tiles.FIVE_OFFSET):
        raise PositionError(f"unknown tile {name!r}: only fives can be red")
    return kind, red


def tile_of(name) -> Tile | None:
    """(kind, red) of an mjai tile name; None for "?"."""
    if not isinstance(name, str):
        raise PositionError(f"a tile is a string such as 5m or 5mr, got {name!r}")
    return _tile_of(name)


def _seat_field(e: dict, key: str, where: str) -> int:
    v = e.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 3:
        raise PositionError(f"{where}: {key} must be a seat 0..3, got {v!r}")
    return v


def _parse_event(i: int, e: dict) -> dict:
    """The tiles of event `i` parsed (and its seats checked): keys pai, consumed, pais, tehais, dora_marker."""
    kind = e["type"]
    where = f"event {i} ({kind})"
    out: dict = {}
    if kind == "start_kyoku":
        hands = e.get("tehais")
        if not isinstance(hands, list) or len(hands) != 4 or not all(isinstance(h, list) for h in hands):
            raise PositionError(f"{where}: tehais must be 4 lists of tiles")
        out["tehais"] = [[tile_of(t) for t in h] for h in hands]
        if any(len(h) != 13 for h in hands):
            raise PositionError(f"{where}: every tehai has 13 tiles")
        if e.get("dora_marker") is not None:
            out["dora_marker"] = _visible(tile_of(e["dora_marker"]), where)
        return out
    if kind in ("reach", "reach_accepted", "pass_win"):
        _seat_field(e, "actor", where)
        return out
    if kind == "payment":
        return out
    if kind == "dora":
        out["dora_marker"] = _visible(tile_of(e.get("dora_marker")), where)
        return out
    _seat_field(e, "actor", where)
    if kind == "exchange":
        _seat_field(e, "target", where)
        pais = e.get("pais")
        if not isinstance(pais, list) or len(pais) != 3:
            raise PositionError(f"{where}: pais must be a list of 3 tiles")
        out["pais"] = [tile_of(t) for t in pais]
        return out
    if kind != "ankan":
        out["pai"] = tile_of(e.get("pai"))
        if kind != "tsumo":
            _visible(out["pai"], where)
    if kind in ("chi", "pon", "daiminkan", "ankan"):
        consumed = e.get("consumed")
        if not isinstance(consumed, list):
            raise PositionError(f"{where}: consumed must be a list of tiles")
        out["consumed"] = [_visible(tile_of(t), where) for t in consumed]
        n = {"chi": 2, "pon": 2, "daiminkan": 3, "ankan": 4}[kind]
        if len(consumed) != n:
            raise PositionError(f"{where}: consumed must hold {n} tiles")
        kinds = sorted(t[0] for t in out["consumed"])
        if kind == "chi":
            run = sorted([*kinds, out["pai"][0]])
            if run[0] >= 27 or run[0] // 9 != run[2] // 9 or run != [run[0], run[0] + 1, run[0] + 2]:
                raise PositionError(f"{where}: {e.get('pai')} with {consumed} is not a run")
        elif kind == "ankan":
            if len(set(kinds)) != 1:
                raise PositionError(f"{where}: an ankan is four tiles of one kind")
            out["pai"] = (kinds[0], False)
        elif set(kinds) != {out["pai"][0]}:
            raise PositionError(f"{where}: consumed tiles must be of the called kind {e.get('pai')}")
    if kind in ("chi", "pon", "daiminkan"):
        out["target"] = _seat_field(e, "target", where)
        if out["target"] == e["actor"]:
            raise PositionError(f"{where}: a seat cannot call its own discard")
    if kind == "hora":
        out["target"] = _seat_field(e, "target", where)
    return out


def _visible(tile, where) -> Tile:
    if tile is None:
        raise PositionError(f"{where}: this tile is public and cannot be hidden ('?')")
    return tile


def _seat_of(events: list[dict], parsed: list[dict]) -> int:
    shown = [s for s, h in enumerate(parsed[0]["tehais"]) if all(t is not None for t in h)]
    if len(shown) == 1:
        return shown[0]
    last = events[-1]
    if len(shown) == 4 and last["type"] == "tsumo":
        return int(last["actor"])
    raise PositionError("cannot tell whose view the log is: show exactly one seat's tehai, or give the seat")


def _infer_decision(events: list[dict], seat: int, variant: str) -> str:
    """The decision the log ends at, from its last event (trailing dora and pass_win aside)."""
    exchanged = any(e["type"] == "exchange" for e in events)
    tail = [e for e in events if e["type"] not in ("dora", "pass_win")]
    last = tail[-1]
    kind = last["type"]
    actor = last.get("actor")
    if variant == "shura" and not exchanged:
        if kind == "start_kyoku" or (kind == "tsumo" and len(tail) == 2 and actor == events[0].get("oya")):
            return "exchange"
        raise PositionError("a shura hand starts with the exchange (S-2): no play before it")
    if kind == "tsumo" and actor == seat:
        return "turn"
    if kind == "exchange" and seat == events[0].get("oya"):
        return "turn"  # the dealer's first turn follows the exchange
    if kind in ("chi", "pon") and actor == seat:
        return "turn"
    if kind == "dahai" and actor != seat:
        return "react"
    if kind in ("kakan", "ankan") and actor != seat:
        return "rob"
    raise PositionError(f"the log does not end at a decision of seat {seat} (last event: {kind}"
                        + (f" by seat {actor})" if actor is not None else ")"))


# ----------------------------------------------------------------------------- rebuilding
def build_position(document, variant: str | None = None, seat: int | None = None):
    """(variant, seat, rules, Position): the engine state of the document's decision, rebuilt by replaying its
    events through the engine with hidden tiles that make every logged action possible (one such arrangement;
    determinization resamples them). The Position keeps the hand's event log in `events` (an empty array,
    `pos.events[:0]`, stops the logging in rollouts). Raises PositionError with a one-line message."""
    from analyzer.riichi_rebuild import rebuild
    from sims.modes import get_mode

    log = read_document(document, variant, seat)
    try:
        rules = get_mode(log.variant).RULES.from_dict(log.rules)
    except ValueError as exc:
        raise PositionError(f"rules: {exc}") from None
    return log.variant, log.seat, rules, rebuild(log, rules)
