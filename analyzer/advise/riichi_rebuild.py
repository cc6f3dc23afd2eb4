"""Rebuild a hand of a riichi mode from one seat's view of its log (analyzer.advise.riichi_position.SeatLog): an
arrangement of the hidden tiles that makes every logged action possible (analyzer.advise.riichi_hidden), then the
hand replayed through the engine up to the pending decision. The rules stay the engine's: the replay answers each
decision with the logged action (a pass where the log shows none; in astrology the candidate each logged tsumo
picks) and checks each event the engine logs against the log; in dragon-eye it steers the eye's random stream to
the logged eyes and checks each eye the engine places (analyzer.advise.riichi_eyes). A failure caused by a hidden
choice is retried with other random choices (ATTEMPTS); one caused by the view itself raises PositionError.
"""

from __future__ import annotations

import numpy as np

from tsumolab.analyzer.advise.position_errors import NoDecision, PositionError
from tsumolab.analyzer.advise.riichi_eyes import EyeSteering
from tsumolab.analyzer.advise.riichi_hidden import Plan, Retry, tile_text
from tsumolab.analyzer.advise.riichi_view import ACTION_TYPES, SeatLog, seat_view_events, tile_of
from tsumolab.sims import tiles
from tsumolab.sims.decisions import (
    D_DARK_LOCK, D_DARK_OPEN, D_EXCHANGE, D_PICK, D_REACT, D_ROB, D_TURN, DARK_DECLINE, PASS,
)

ATTEMPTS = 12        # random arrangements tried before a view is declared impossible
DECISIONS = {"exchange": D_EXCHANGE, "turn": D_TURN, "react": D_REACT, "rob": D_ROB, "pick": D_PICK,
             "open": D_DARK_OPEN, "lock": D_DARK_LOCK}

_TABLES: dict = {}


def _table(rules):
    """The engine bound to baseline seats (their answers are all replaced by the log's) under `rules`."""
    from tsumolab.policies.registry import parse_seats
    from tsumolab.sims.riichi.positions import RiichiEngine

    key = (tuple(rules.to_array().tolist()), tuple(rules.scoring_array().tolist()))
    if key not in _TABLES:
        _TABLES[key] = RiichiEngine(parse_seats("baseline"), rules, keep_events=True)
    return _TABLES[key]


def rebuild(log: SeatLog, rules, watch=None):
    """The engine state at the log's pending decision (sims.riichi.positions.Position). `watch(pos, answer)`, if
    given, sees every decision the replay answers from the log, before the answer is played."""
    table = _table(rules)
    sopts = table.sopts
    reason = "no attempt"
    for attempt in range(ATTEMPTS):
        rng = np.random.default_rng(attempt)
        try:
            plan = Plan(log, rng, sopts, rules.astrology_floor if rules.astrology else None)
            plan.choose_hidden()
            pos = _replay(table, plan, log, watch)
        except Retry as exc:
            reason = str(exc)
            continue
        mismatch = _compare_views(log, seat_view_events(pos, log.seat, rules))
        if mismatch is not None:
            raise PositionError(mismatch)
        return pos
    raise PositionError(f"no arrangement of the hidden tiles makes this log possible ({reason})")


# ----------------------------------------------------------------------------- replay
def _engine_action(row) -> tuple | None:
    """The log action (as Plan.actions) of one engine event row, or None for other rows."""
    from tsumolab.sims.events import EV_DISCARD, EV_DRAW, EV_KAN, EV_PON, EV_WIN
    from tsumolab.sims.riichi.events import EV_CHI

    kind, seat, tile, a, b, c = (int(x) for x in row[2:8])
    if kind == EV_DRAW:
        return ("tsumo", seat, (tile, bool(c & 2)), bool(a))
    if kind == EV_DISCARD:
        return ("dahai", seat, (tile, bool(c)), bool(a), bool(b))
    if kind == EV_CHI:
        return ("chi", seat, (a, bool(c & 1)), bool(c & 2))
    if kind == EV_PON:
        return ("pon", seat, (tile, bool(c & 1)), bool(c & 2))
    if kind == EV_KAN:
        if a == tiles.MINKAN:
            return ("daiminkan", seat, (tile, bool(c & 1)), bool(c & 2))
        if a == tiles.ANKAN:
            return ("ankan", seat, (tile, False), bool(c & 2))
        return ("kakan", seat, (tile, bool(c & 2)), bool(c & 2))
    if kind == EV_WIN:
        return ("hora", seat, tile, c == 2, a, b)
    return None


def _same_action(logged: tuple, done: tuple, own: bool, sopts) -> bool:
    if logged[0] != done[0] or logged[1] != done[1]:
        return False
    word = logged[0]
    if word == "tsumo":
        return (logged[2] is None or logged[2] == done[2]) and (logged[3] is None or logged[3] == done[3])
    if word == "dahai":
        # the engine calls a discard a tsumogiri whenever the copy drawn left, also for a kind answer; the
        # kind of a face-down tile hidden from the seat is any (D)
        tsumogiri_ok = logged[3] == done[3] or (own and done[3] and not logged[3])
        return logged[2] in (None, done[2]) and tsumogiri_ok and logged[4] == done[4]
    if word == "hora":
        han, fu = logged[4], logged[5]
        if logged[2] != done[2] or logged[3] != done[3]:
            return False
        return han is None or (done[4] == han and (han >= 5 or fu is None or done[5] == fu)) or \
            _same_base(han, fu, done[4], done[5], sopts)
    return logged[2:] == done[2:]


def _same_base(han, fu, han2, fu2, sopts) -> bool:
    """Do both wins pay the same (R-3 limits)?"""
    from tsumolab.sims.riichi.scoring import base_points

    return base_points(han, fu or 0, han // 13 if han >= 13 else 0, sopts)[0] == \
        base_points(han2, fu2, han2 // 13 if han2 >= 13 else 0, sopts)[0]


def _describe(action: tuple) -> str:
    word, seat = action[0], action[1]
    tile = action[2]
    text = "?" if tile is None else (tiles.tile_name(tile) if isinstance(tile, int) else tile_text(tile))
    if word == "dahai":
        text += " (tsumogiri)" if action[3] else ""
        text += " (riichi)" if action[4] else ""
    elif word == "hora":
        text += f" ({action[4]} han {action[5]} fu)" if action[4] else ""
    return f"{word} {text} by seat {seat}"


def _replay(table, plan: Plan, log: SeatLog, watch=None):
    from tsumolab.sims.riichi import engine
    from tsumolab.sims.riichi.events import EV_EYE

    seat = log.seat
    known = known_hands(log)
    target = DECISIONS[log.decision]
    actions = plan.actions
    pos = table.start(wall=plan.wall(), direction=plan.direction, context=plan.context())
    eyes = EyeSteering(plan.eyes, table.topts)
    eyes.start(pos)
    seen = cursor = 0
    last_seat = -1
    illegal = int(table.counters[engine.CNT_ILLEGAL])
    stopped = table.advance(pos, None, pos.n_decisions)
    while True:
        n = min(int(pos.ev[0]), pos.events.shape[0])
        for row in pos.events[seen:n]:
            if row[2] == EV_EYE:  # DE: (kind, seat, tile, counter, ...) as sims.riichi.dragon_eye_holder logs it
                eyes.check(int(row[3]), int(row[5]), cursor)
                continue
            done = _engine_action(row)
            if done is None:
                continue
            if cursor >= len(actions):
                raise NoDecision(f"seat {seat} has no {log.decision} decision at the end of the log (the "
                                 f"engine goes on: {_describe(done)})")
            logged = actions[cursor]
            if not _same_action(logged, done, logged[1] in known, table.sopts):
                message = f"action {cursor} ({_describe(logged)}) cannot be replayed: the engine did {_describe(done)}"
                if logged[1] == seat or done[1] == seat:
                    raise PositionError(message)
                raise Retry(message)
            cursor += 1
        seen = n
        if int(table.counters[engine.CNT_ILLEGAL]) != illegal:
            illegal = int(table.counters[engine.CNT_ILLEGAL])
            message = f"seat {last_seat}'s logged action before action {cursor} is not allowed there"
            if last_seat == seat:
                raise PositionError(message)
            raise Retry(message)
        if not stopped:
            if cursor == len(actions):  # e.g. another seat's ron on the discard: nobody else is asked to call
                raise NoDecision(f"the hand ends before seat {seat}'s {log.decision} decision")
            raise PositionError(f"the hand ends before seat {seat}'s {log.decision} decision")
        q, d = pos.seat, pos.decision
        if cursor == len(actions) and q == seat and d == target:
            eyes.finish()
            return pos
        if d == D_EXCHANGE:
            answer = plan.exchange_answer[q]
        elif d == D_TURN:
            if cursor >= len(actions) or actions[cursor][1] != q or cursor not in plan.turn_answer:
                raise NoDecision(f"seat {seat} has no {log.decision} decision at the end of the log (seat {q} "
                                 "is to play)")
            answer = plan.turn_answer[cursor]
        elif d in (D_REACT, D_ROB):
            answer = plan.react_answer.get((cursor - 1, q), PASS)
        elif d == D_PICK:  # A: the candidate the logged tsumo shows (the pick comes before its draw is logged)
            if cursor not in plan.pick_answer or actions[cursor][1] != q:
                raise NoDecision(f"seat {seat} has no {log.decision} decision at the end of the log (seat {q} "
                                 "is to pick)")
            answer = plan.pick_answer[cursor]
        elif d in (D_DARK_OPEN, D_DARK_LOCK):  # D: about the face-down discard just made
            answer = plan.dark_answer.get((cursor - 1, q, d), DARK_DECLINE)
        else:
            raise PositionError(f"decision kind {d} is not part of riichi or shura")
        last_seat = q
        if watch is not None:
            watch(pos, answer)
        eyes.steer(pos)
        stopped = table.advance(pos, answer, pos.n_decisions + 1)


# ----------------------------------------------------------------------------- the views compared
VIEW_FIELDS = {
    "tsumo": ("actor", "pai", "rinshan", "pick"), "dahai": ("actor", "pai", "tsumogiri", "open_tile", "face_down"),
    "reach": ("actor",), "reach_accepted": ("actor",), "chi": ("actor", "target", "pai", "consumed"),
    "pon": ("actor", "target", "pai", "consumed"), "daiminkan": ("actor", "target", "pai", "consumed"),
    "ankan": ("actor", "consumed"), "kakan": ("actor", "pai"), "dora": ("dora_marker",),
    "hora": ("actor", "target", "pai"), "payment": ("from", "to", "amount", "reason", "pai"),
    "pass_win": ("actor", "pai", "tsumo"), "exchange": ("actor", "target", "pais"), "eye": ("actor", "counter"),
    "candidate": ("pai", "dead_wall", "pool", "wall_index"),
}
CORE_TYPES = set(ACTION_TYPES) | {"reach", "dora"}
VIEW_DEFAULTS = {"open_tile": False, "face_down": False}  # fields written only when true (riichi_shown, riichi_dark)


def _norm(value):
    if isinstance(value, str):
        try:
            return tile_of(value)
        except PositionError:
            return value
    if isinstance(value, list):
        return sorted((_norm(v) for v in value), key=repr)
    return value


def known_hands(log: SeatLog) -> set[int]:
    """The seats whose every tile the log shows: the seat's own, and any other whose deal it shows (open-deal, or
    a whole game's log, analyzer.prior.extract). Which copy of a kind such a seat discarded is its own choice: the
    engine may call a discard a tsumogiri that the log does not."""
    return {log.seat} | {s for s, tiles in enumerate(log.tiles[0]["tehais"]) if None not in tiles}


def _compare_views(log: SeatLog, rebuilt: list[dict]) -> str | None:
    """None when the rebuilt hand shows the seat what the log shows, else a one-line difference."""
    types = CORE_TYPES | {e["type"] for e in log.events}
    known = known_hands(log)
    mine = [e for e in log.events[1:] if e["type"] in VIEW_FIELDS]
    theirs = [e for e in rebuilt[1:] if e["type"] in types and e["type"] in VIEW_FIELDS]
    for n, (a, b) in enumerate(zip(mine, theirs)):
        if a["type"] != b["type"]:
            return f"event {n + 1}: the log has {a['type']}, the engine {b['type']}"
        for key in VIEW_FIELDS[a["type"]]:
            if key not in a and key not in VIEW_DEFAULTS:
                continue
            logged, rebuilt_value = a.get(key, VIEW_DEFAULTS.get(key)), b.get(key, VIEW_DEFAULTS.get(key))
            x, y = _norm(logged), _norm(rebuilt_value)
            if x == y or x is None or y is None:
                continue
            if isinstance(x, list) and len(x) == len(y) and all(u is None or v is None or u == v
                                                                for u, v in zip(x, y)):
                continue
            if key == "tsumogiri" and a.get("actor") in known and y and not x:
                continue
            return f"event {n + 1} ({a['type']}): the log has {key} {logged!r}, the engine {rebuilt_value!r}"
    if len(mine) != len(theirs):
        return f"the log has {len(mine)} events after start_kyoku, the engine {len(theirs)}"
    return None
