"""Positions of the riichi modes (riichi_view.VARIANTS) from one seat's view: written from a simulated hand, read
back from a document or a raw mjai log (the events: analyzer.advise.riichi_view), and rebuilt into an engine state
(analyzer.advise.riichi_rebuild).

A position is the deciding seat's view of one hand up to a pending decision, as mjai-style events (the words
`tsumolab replay --json` writes, analyzer.replay.riichi_events):

    {"format": "tsumolab-position/1",
     "variant": "shura",         one of the modes above
     "seat": 2,                  the deciding seat (0..3)
     "decision": "react",        exchange (shura, S-2) | turn | react (to a discard) | rob (an added kan) |
                                 pick (astrology, A: which candidate to draw)
                                 open (darkness, D: pay to open another seat's face-down discard) | lock (D: pay
                                 to keep one's own opened tile face down)
     "events": [...],            the hand's events from start_kyoku up to the decision
     "note": "..."}              free text (where the position comes from)
    optional: "rules" (rule options that differ from the mode's defaults, as for `tsumolab run --rule`); a
              fantasy position names the match's three cards there (FL: {"cards": "fuuki,golden,hourglass"},
              one per deck, sims.riichi.fantasy_decks), since no event shows them

What the seat cannot see is written "?": the other seats' starting tiles (`tehais`) and draws (`tsumo` pai),
and the three tiles other seats pass each other at the exchange. The seat's own exchange and what it received
stay; the exchange direction shows in start_kyoku once the exchange is done (before it, at an exchange
decision, it is unknown: the rebuilt state passes to the next seat). Other seats' `pass_win` events are left
out. Everything else is public: discards with their tsumogiri flag, riichi (`reach`, `reach_accepted`),
calls and kans with their tiles, dora indicators, wins (`hora` with han and fu), every point transfer
(`payment`) and, in dragon-eye, every placement of the eye (DE: `{"type": "eye", "actor": holder, "counter":
discards}`, the first right after start_kyoku, each later one right before the draw or call it precedes).

Astrology (RULES.md A) shows its pool (analyzer.advise.riichi_pool): each tile revealed into it is a `candidate`
event (`{"type": "candidate", "pai": "3p", "dead_wall": false, "pool": 3, "wall_index": 56}`: the tile, whether
a kan's replacement tile added it, the pool's size with it, its wall position), and once the pool is open every
seat's `tsumo` is the pick of a candidate: it shows the tile and `pick`, the candidate's index in the pool
(oldest first). A position may end at the seat's pick (`"decision": "pick"`): the options are the candidates
(`take 3p`), and the rebuilt wall holds every candidate in its wall position.

Three modes show more of the hidden tiles (analyzer.advise.riichi_shown, analyzer.advise.riichi_mirror):
- open-deal (RULES.md OD): every seat's starting hand is public, so all four `tehais` are written in full; only
  the other seats' draws stay "?". A document hiding a tehai is refused, and so is one whose shown tehais
  cannot lead to its later events (a seat discarding from its hand a tile it was not dealt and has not drawn).
- darkness (RULES.md D, analyzer.advise.riichi_dark): a face-down discard is a `dahai` with `"face_down": true`,
  followed by its payments into the pot (`face_down`, then `dark_open` by the seat that opened it, then
  `dark_lock` when its discarder locked it). Its kind (`pai`, on the dahai and its payments) is "?" in the other
  seats' views unless it was opened and not locked; start_kyoku adds `pot`, the pot carried into the hand. A log
  ending with another seat's face_down payment is the seat's `open` decision; one ending with the opening of the
  seat's own face-down tile its `lock` decision.
- fate (RULES.md F): start_kyoku adds `fate_open`, each seat's first 4 dealt tiles in deal order (its open tiles,
  the seat's own included, e.g. [["3p", "5mr", "1z", "9s"], ...]); the other seats' tehais stay "?". A `dahai`
  that gives up one of its seat's open tiles carries `"open_tile": true` (absent: false). The engine keeps a
  seat's open plain copies of a kind while it holds as many other plain copies (sims.riichi.fate_tiles), so this
  flag tells whether a seat still holds another copy; a log whose flags the engine could not give, or a fate
  document without `fate_open` (a plain mjai log has none), is refused.
- mirror (RULES.md M): three copies of every kind are transparent, seen wherever they lie; only the normal copy
  of each kind (tile id % 4 == 0) is hidden, and there are no red fives. start_kyoku adds `mirror_tehais`, each
  seat's transparent starting tiles (the seat's own too; the other seats' tehais stay "?"), and `mirror_wall`,
  the wall after the deal laid out as replay's `wall` event: {"live": 70 tiles from the dealer's first draw on in
  draw order, "rinshan": 4, "dora_markers": 5, "ura_markers": 5}, each transparent copy named and each normal
  copy "?". Another seat's `tsumo` of a transparent copy shows its tile. Which copy leaves a hand follows from
  these (a discard by kind, a call or a kan gives up a transparent copy while the seat holds one; a tsumogiri,
  the copy drawn), so the rebuilt wall holds the transparent copies exactly where the document says. A mirror
  document without both fields (a plain mjai log), with a red five or another seat's tehai shown, whose fields
  do not hold three transparent copies of each kind (or the seat's own outside its tehai), or whose draws and
  discards contradict them, is refused.

start_kyoku carries the hand's place in its match: `bakaze` (E, S, or W in the West extension of a South game)
and `kyoku` (1..4), `honba`, `kyotaku` (riichi sticks on the table), `oya` (the dealer), `scores` (points at the
hand's start), `dora_marker` (the first indicator; in shura it is shown after the exchange) and `tehais`; the
simulator adds `hand` (the hand's number in its match). Tiles are 1m..9m, 1p..9p, 1s..9s, 1z..7z (mjai's
E S W N P F C are read too); a red five is 5mr, 5pr, 5sr (0m, 0p, 0s are read too).

A raw mjai log is accepted as well: JSON lines, a JSON array of events, or an object with "events" and no "format".
The hand is the one of the last start_kyoku; the seat is the one whose tehai is shown (give it for an open-deal log,
which shows them all); the mode is shura when the hand has an exchange, fate when start_kyoku has `fate_open`,
mirror when it has `mirror_wall`, darkness when it has face-down discards, dragon-eye when it has eyes, astrology
when it has candidates, riichi otherwise (or as given; a fantasy log is refused, as a raw log cannot name its
cards); the decision follows from the last event (trailing dora, payments and other seats' pass_win aside): a tsumo
to the seat, its own chi/pon, or the exchange when the seat deals → turn; a dahai by another seat → react (D: open
or lock, above); a kakan (or an ankan, thirteen orphans) by another seat → rob; in shura a start_kyoku (and the
dealer's first tsumo) with no exchange yet → exchange; in astrology candidates revealed for the seat's draw → pick.
Plain mjai has no rinshan flag: the draw right after a seat's own kan is its replacement draw. Without han and fu
on a `hora` (plain mjai), any winning hand will do for a hidden winner.

`build_position(document)` replays the events through the engine itself with hidden tiles chosen so that every
logged action is possible (analyzer.advise.riichi_hidden) and returns the state at the decision; in dragon-eye
the eye's random stream is steered so that the engine places the logged eyes (analyzer.advise.riichi_eyes). What
the engine cannot express is refused: a red five given up from the hand while a plain copy of it is held (the
engine gives up the plain copy first, R-1), calls, kans or an exchange that would leave the red five behind. A
hidden winner's hand is worth the logged han and fu, or failing that pays the same (same base points).
"""

from __future__ import annotations

from tsumolab.analyzer.advise.position_errors import PositionError
from tsumolab.analyzer.runs.spec import RunSpec
from tsumolab.analyzer.advise.riichi_view import (  # noqa: F401  (re-exported: the reading side of positions)
    DECISION_WORDS, VARIANTS, SeatLog, parse_text, read_events, seat_view_events,
)

FORMAT = "tsumolab-position/1"


def position_document(variant: str, pos, note: str = "", rules=None) -> dict:
    """The position document of the pending decision of `pos` (kept with its events) in mode `variant`, played
    under `rules` (sims.riichi.rules; None: the mode's defaults)."""
    from tsumolab.sims.decisions import D_DARK_LOCK, D_DARK_OPEN, D_EXCHANGE, D_PICK, D_REACT, D_ROB, D_TURN
    from tsumolab.sims.modes import get_mode

    names = {D_EXCHANGE: "exchange", D_TURN: "turn", D_REACT: "react", D_ROB: "rob", D_PICK: "pick",
             D_DARK_OPEN: "open", D_DARK_LOCK: "lock"}
    if variant not in VARIANTS:
        raise PositionError(f"riichi positions are for modes {' and '.join(VARIANTS)}, not {variant!r}")
    if not pos.pending or pos.decision not in names:
        raise ValueError("the position has no pending decision")
    rules = get_mode(variant).rules_class() if rules is None else rules
    document = {"format": FORMAT, "variant": variant, "seat": pos.seat, "decision": names[pos.decision],
                "events": seat_view_events(pos, rules=rules), "note": note}
    cards = match_cards(pos)
    if cards:
        document["rules"] = {"cards": cards}
    return document


def match_cards(pos) -> str:
    """FL: the match's three cards of `pos` as the rule option `cards` ("" when the mode has none)."""
    from tsumolab.sims.riichi.fantasy_decks import FANTASY_SLUGS
    from tsumolab.sims.riichi.hand_state import HS

    codes = [int(c) for c in pos.hs[HS.cards:HS.cards + 3]]  # card index + 1, 0 = no card
    if not all(codes):
        return ""
    return ",".join(FANTASY_SLUGS[deck][code - 1] for deck, code in enumerate(codes))


def simulated_document(spec: RunSpec, match_id: int, hand_no: int, decision: int) -> dict | None:
    """The document of decision `decision` (0-based) of hand `hand_no` of match `match_id` of the run `spec`,
    re-simulated from its seed; None when the hand has fewer decisions or the match fewer hands."""
    from tsumolab.sims.riichi.positions import RiichiEngine

    engine = RiichiEngine(spec.seats, spec.rules, root_seed=spec.seed, keep_events=True)
    pos = engine.at_decision(match_id, hand_no, decision)
    if pos is None:
        return None
    note = f"seed {spec.seed}, match {match_id}, hand {hand_no}, decision {decision}, seats {','.join(spec.labels)}"
    document = position_document(spec.variant, pos, note, spec.rules)
    defaults = spec.mode.rules_class().as_dict()
    changed = {k: v for k, v in spec.rules.as_dict().items() if defaults[k] != v}
    changed.update(document.get("rules", {}))  # FL: the cards in force, where the run fixed some or none
    if changed:
        document["rules"] = changed
    return document


def read_document(data, variant: str | None = None, seat: int | None = None) -> SeatLog:
    """A position document or a raw mjai log (a dict, a list of events, or JSON / JSON-lines text) → SeatLog.
    Raises PositionError with a one-line message."""
    if isinstance(data, (bytes, str)):
        data = parse_text(data.decode("utf-8") if isinstance(data, bytes) else data)
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
    return read_events(events, variant, seat, decision, rules)


def build_position(document, variant: str | None = None, seat: int | None = None):
    """(variant, seat, rules, Position): the engine state of the document's decision, rebuilt by replaying its
    events through the engine with hidden tiles that make every logged action possible (one such arrangement;
    determinization resamples them). The Position keeps the hand's event log in `events` (an empty array,
    `pos.events[:0]`, stops the logging in rollouts). Raises PositionError with a one-line message."""
    from tsumolab.analyzer.advise.riichi_rebuild import rebuild
    from tsumolab.analyzer.advise.riichi_shown import check_shown
    from tsumolab.sims.modes import get_mode

    log = read_document(document, variant, seat)
    try:
        rules = get_mode(log.variant).rules_class.from_dict(log.rules)
    except ValueError as exc:
        raise PositionError(f"rules: {exc}") from None
    check_shown(log, rules)
    return log.variant, log.seat, rules, rebuild(log, rules)
