"""One seat's view of a hand of a riichi mode (VARIANTS) as mjai-style events (analyzer.replay.riichi_events's
words): written from a simulated hand, read back from events with their tiles parsed and the pending decision
inferred. The position document that carries them is analyzer.advise.riichi_position."""

from __future__ import annotations

import json
from dataclasses import dataclass

from tsumolab.analyzer.advise.position_errors import PositionError
from tsumolab.analyzer.advise.riichi_dark import check_face_down, face_down_tiles
from tsumolab.analyzer.advise.riichi_mirror import mirror_start, parse_mirror, shows_mirror, transparent_draws
from tsumolab.analyzer.advise.riichi_pool import check_candidates, ends_at_pick, parse_candidate
from tsumolab.analyzer.advise.riichi_tiles import HIDDEN, MJAI_HONORS, Tile, tile_of, tile_text  # noqa: F401 (re-exported)

VARIANTS = ("riichi", "shura", "dora-fever", "chant", "soul-strike", "fate", "open-deal", "dragon-eye", "fantasy",
            "mirror", "astrology", "darkness")
DECISION_WORDS = ("exchange", "turn", "react", "rob", "pick", "open", "lock")
ROUND_WINDS = ("E", "S", "W")
ACTION_TYPES = ("tsumo", "dahai", "chi", "pon", "daiminkan", "ankan", "kakan", "hora")
KNOWN_TYPES = (*ACTION_TYPES, "start_kyoku", "reach", "reach_accepted", "dora", "exchange", "pass_win", "payment",
               "eye", "candidate")
IGNORED_TYPES = ("start_game", "none")
HAND_OVER_TYPES = ("ryukyoku", "end_kyoku", "end_game")



def seat_view_events(pos, seat: int | None = None, rules=None) -> list[dict]:
    """The events of the hand of `pos` (a sims.riichi.positions.Position kept with keep_events=True) up to now,
    as seat `seat` (default: the deciding seat) sees them under the mode's `rules` (sims.riichi.rules; None: plain
    riichi): what open-deal and fate show besides is analyzer.advise.riichi_shown, what mirror shows
    analyzer.advise.riichi_mirror, astrology's candidates and picks analyzer.advise.riichi_pool, what darkness hides
    analyzer.advise.riichi_dark."""
    from tsumolab.analyzer.advise.riichi_dark import hide_face_down, is_darkness, mark_face_down
    from tsumolab.analyzer.advise.riichi_pool import candidate_shown
    from tsumolab.analyzer.advise.riichi_shown import has_open_tiles, mark_open_tiles, fate_open_tiles, shows_hands
    from tsumolab.analyzer.replay.riichi_events import to_json_events
    from tsumolab.sims.riichi.hand_state import HS
    from tsumolab.sims.riichi.tableau import MS_NO_RED, ST_MISC

    seat = pos.seat if seat is None else int(seat)
    rows = pos.logged()
    if rows.shape[0] == 0:
        raise ValueError("the position keeps no event log (RiichiEngine(..., keep_events=True))")
    key = (int(rows[0, 0]), int(rows[0, 1]))
    points = {key: [int(p) for p in pos.hs[HS.points_before:HS.points_before + 4]]}
    events = to_json_events(rows, points)
    if has_open_tiles(rules):
        open_tiles = fate_open_tiles(rows)
        mark_open_tiles(events, open_tiles)
        events[0]["fate_open"] = open_tiles
    seen_draws: set[int] = set()  # M: other seats' draws of a transparent copy
    if shows_mirror(rules):
        events[0].update(mirror_start(pos.wall, int(events[0]["oya"])))
        seen_draws = transparent_draws(events, pos.wall)
    if is_darkness(rules):
        mark_face_down(events)
        events[0]["pot"] = int(pos.hs[HS.m_pot])
    out = []
    pool_open = False  # A: from the first candidate on, every draw is a pick everyone sees
    for n, event in enumerate(events):
        kind = event["type"]
        if kind == "candidate":
            pool_open = True
            event = candidate_shown(event, pos.wall, pos.st[ST_MISC, MS_NO_RED] == 0)
        elif kind == "start_kyoku":
            event = dict(event, kyotaku=int(pos.hs[HS.m_sticks]))
            if not shows_hands(rules):
                event["tehais"] = [h if i == seat else [HIDDEN] * len(h) for i, h in enumerate(event.get("tehais", []))]
        elif kind == "tsumo" and event["actor"] != seat and n not in seen_draws and not pool_open:
            event = dict(event, pai=HIDDEN)
        elif kind == "exchange" and seat not in (event["actor"], event["target"]):
            event = dict(event, pais=[HIDDEN] * 3)
        elif kind == "pass_win" and event["actor"] != seat:
            continue
        out.append(event)
    return hide_face_down(out, seat) if is_darkness(rules) else out


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


def read_events(events, variant: str | None = None, seat: int | None = None, decision: str | None = None,
                rules: dict | None = None) -> SeatLog:
    """A list of mjai events (one seat's view, up to its decision) → SeatLog; the seat, the mode and the decision
    are inferred where not given (see analyzer.advise.riichi_position). Raises PositionError with a one-line message."""
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise PositionError("events must be a list of JSON objects (mjai events)")
    events = _this_hand(events)
    parsed = [_parse_event(i, e) for i, e in enumerate(events)]
    if seat is None:
        seat = _seat_of(events, parsed)
    elif not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise PositionError(f"seat must be an integer in 0..3, got {seat!r}")
    if variant is None:
        variant = _variant_of(events)
    if variant not in VARIANTS:
        raise PositionError(f"riichi positions are for modes {' and '.join(VARIANTS)}, not {variant!r}")
    if any(e["type"] == "exchange" for e in events) and variant != "shura":
        raise PositionError("the log has an exchange (S-2): only shura hands have one")
    _check_eyes(events, variant)
    check_candidates(events, variant)
    _check_cards(variant, rules or {})
    check_face_down(events, parsed, seat, variant)
    own = parsed[0]["tehais"][seat]
    if any(t is None for t in own):
        raise PositionError(f"seat {seat}'s own starting tiles must be shown in start_kyoku")
    inferred = _infer_decision(events, seat, variant, decision)
    if decision is not None and decision != inferred:
        raise PositionError(f"the log ends at a {inferred} decision of seat {seat}, but the document says "
                            f"{decision!r}")
    return SeatLog(variant, seat, inferred, events, parsed, rules or {})


def _variant_of(events: list[dict]) -> str:
    """The mode a log without one is read as: shura with an exchange, mirror with transparent tiles, fate with
    open deal tiles, darkness with face-down discards, dragon-eye with eyes, astrology with candidates, else
    riichi."""
    kinds = {e["type"] for e in events}
    if "exchange" in kinds:
        return "shura"
    if "mirror_wall" in events[0]:
        return "mirror"
    if "fate_open" in events[0]:
        return "fate"
    if any(e["type"] == "dahai" and e.get("face_down") for e in events):
        return "darkness"
    return "dragon-eye" if "eye" in kinds else "astrology" if "candidate" in kinds else "riichi"


def _check_eyes(events: list[dict], variant: str) -> None:
    """DE: a dragon-eye log shows its eyes (the first right after start_kyoku); no other mode has one."""
    has_eyes = any(e["type"] == "eye" for e in events)
    if has_eyes and variant != "dragon-eye":
        raise PositionError("the log has an eye (DE): only dragon-eye hands have one")
    if variant == "dragon-eye" and (len(events) < 2 or events[1]["type"] != "eye"):
        raise PositionError("a dragon-eye hand starts by placing the eye (DE): the event after start_kyoku must be "
                            "its eye event")


def _check_cards(variant: str, rules: dict) -> None:
    """FL: a fantasy position names the match's three cards in the rule option `cards` (no event shows them)."""
    from tsumolab.sims.riichi.fantasy_decks import parse_fantasy_cards

    if variant != "fantasy":
        return
    cards = rules.get("cards", "")
    try:
        chosen = parse_fantasy_cards(cards) if isinstance(cards, str) else None
    except ValueError as exc:
        raise PositionError(f"rules: {exc}") from None
    if chosen is None or min(chosen) < 0:
        raise PositionError("a fantasy position names the match's three cards (FL) in its rules, e.g. "
                            "{\"cards\": \"fuuki,golden,hourglass\"} (a raw mjai log cannot give them)")


def parse_text(text: str):
    """JSON, or JSON lines, as Python objects."""
    from tsumolab.analyzer.json_input import json_or_lines

    try:
        return json_or_lines(text)
    except ValueError as exc:
        raise PositionError(str(exc)) from None


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
            raise PositionError(f"event type {kind!r} is not part of a riichi-mode position")
        out.append(e)
    return out


def _seat_field(e: dict, key: str, where: str) -> int:
    v = e.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 3:
        raise PositionError(f"{where}: {key} must be a seat 0..3, got {v!r}")
    return v


def _parse_event(i: int, e: dict) -> dict:
    """The tiles of event `i` parsed (and its seats checked): keys pai, consumed, pais, tehais, dora_marker,
    fate_open, mirror_tehais, mirror_wall."""
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
        if "fate_open" in e:
            out["fate_open"] = _fate_open(e["fate_open"], where)
        out.update(parse_mirror(e, where))
        _seat_field(e, "oya", where)
        if e.get("bakaze", "E") not in ROUND_WINDS:
            raise PositionError(f"{where}: bakaze must be E, S or W (a West round extends a South game), got "
                                f"{e.get('bakaze')!r}")
        for key, lo, hi, default in (("kyoku", 1, 4, 1), ("honba", 0, 999, 0), ("kyotaku", 0, 999, 0),
                                     ("hand", 1, 999, 1), ("pot", 0, 10_000_000, 0)):
            v = e.get(key, default)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise PositionError(f"{where}: {key} must be an integer in {lo}..{hi}, got {v!r}")
        scores = e.get("scores")
        if scores is not None and (not isinstance(scores, list) or len(scores) != 4
                                   or not all(isinstance(x, int) and not isinstance(x, bool) for x in scores)):
            raise PositionError(f"{where}: scores must be 4 integers")
        return out
    if kind in ("reach", "reach_accepted", "pass_win"):
        _seat_field(e, "actor", where)
        return out
    if kind == "payment":
        return out
    if kind == "eye":
        _seat_field(e, "actor", where)
        counter = e.get("counter")
        if not isinstance(counter, int) or isinstance(counter, bool) or counter < 1:
            raise PositionError(f"{where}: counter must be a positive integer (the holder's discards left), got "
                                f"{counter!r}")
        return out
    if kind == "dora":
        out["dora_marker"] = _visible(tile_of(e.get("dora_marker")), where)
        return out
    if kind == "candidate":
        return parse_candidate(e, where)
    _seat_field(e, "actor", where)
    if kind == "exchange":
        _seat_field(e, "target", where)
        pais = e.get("pais")
        if not isinstance(pais, list) or len(pais) != 3:
            raise PositionError(f"{where}: pais must be a list of 3 tiles")
        out["pais"] = [tile_of(t) for t in pais]
        return out
    if kind == "dahai":
        for flag in ("open_tile", "face_down"):
            if not isinstance(e.get(flag, False), bool):
                raise PositionError(f"{where}: {flag} must be true or false")
    if kind != "ankan":
        out["pai"] = tile_of(e.get("pai"))
        if kind != "tsumo" and not (kind == "dahai" and e.get("face_down")):  # D: a face-down tile may be hidden
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


def _fate_open(value, where: str) -> list[list[Tile]]:
    """start_kyoku's `fate_open` (F): per seat, its 4 open deal tiles, none hidden."""
    from tsumolab.sims.riichi.fate_tiles import OPEN_DEAL_TILES

    if not isinstance(value, list) or len(value) != 4 or not all(isinstance(h, list) for h in value):
        raise PositionError(f"{where}: fate_open must be 4 lists of tiles (each seat's open deal tiles)")
    if any(len(h) != OPEN_DEAL_TILES for h in value):
        raise PositionError(f"{where}: fate_open lists {OPEN_DEAL_TILES} tiles per seat (F)")
    return [[_visible(tile_of(t), where) for t in h] for h in value]


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


def _infer_decision(events: list[dict], seat: int, variant: str, given: str | None = None) -> str:
    """The decision the log ends at, from its last event (trailing dora, pass_win and payments aside: FL takes
    fees right after a call); in astrology a pick (analyzer.advise.riichi_pool.ends_at_pick, where the document's
    decision `given` tells a pick from a reaction once nothing is refilled); D: a face-down discard's payments say
    who decides about it."""
    exchanged = any(e["type"] == "exchange" for e in events)
    dark = _dark_decision(events, seat)
    if dark is not None:
        return dark
    tail = [i for i, e in enumerate(events) if e["type"] not in ("dora", "pass_win", "payment")]
    if variant == "astrology" and ends_at_pick([events[i] for i in tail], seat, given == "pick"):
        return "pick"
    last = events[tail[-1]]
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
        if last.get("face_down") and _still_face_down(events, tail[-1]):
            raise PositionError(f"the log does not end at a decision of seat {seat}: seat {actor}'s face-down tile "
                                "can be neither called nor ronned (D)")
        return "react"
    if kind in ("kakan", "ankan") and actor != seat:
        return "rob"
    raise PositionError(f"the log does not end at a decision of seat {seat} (last event: {kind}"
                        + (f" by seat {actor})" if actor is not None else ")"))


def _dark_decision(events: list[dict], seat: int) -> str | None:
    """D: "open" when the log ends with another seat's face_down payment (each other seat is asked whether to open
    the tile), "lock" when it ends with the opening of the seat's own face-down tile; else None."""
    last = events[-1]
    if last["type"] != "payment" or last.get("reason") not in ("face_down", "dark_open"):
        return None
    discarder = events[-2].get("actor") if last["reason"] == "face_down" else events[-3].get("actor")
    if last["reason"] == "face_down":
        if discarder == seat:
            raise PositionError(f"the log does not end at a decision of seat {seat}: the other seats decide whether "
                                "to open its face-down tile (D)")
        return "open"
    return "lock" if discarder == seat else None


def _still_face_down(events: list[dict], dahai: int) -> bool:
    """D: is the face-down tile of the dahai at index `dahai` still face down (not opened, or locked)?"""
    tile = face_down_tiles(events).get(dahai)
    return tile is not None and not tile.revealed
