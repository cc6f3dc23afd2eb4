"""Event logs of simulated hands as JSON objects (mjai words where mjai has them) and as readable text.

Extensions to the mjai vocabulary: `exchange`, `void`, `pass_win`, `payment`, `draw_state`, `settlement`.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict

import numpy as np

from tsumolab.sims import tiles
from tsumolab.sims.events import (
    EV_DEAL, EV_DISCARD, EV_DRAW, EV_DRAW_STATE, EV_END, EV_EXCHANGE, EV_KAN, EV_PASS, EV_PAY, EV_PON,
    EV_SETTLE, EV_START, EV_VOID, EV_WIN, PAY_REASONS,
)
from tsumolab.sims.bloodshed.columns import EXCHANGE_DIRECTIONS, HAND_ENDS, PATTERN_LABELS, SUIT_LABELS

KAN_WORDS = {tiles.MINKAN: "daiminkan", tiles.ANKAN: "ankan", tiles.KAKAN: "kakan"}
WIN_WORDS = {1: "ron", 2: "tsumo", 3: "robbed_kan"}


def deltas_from_events(events: np.ndarray) -> dict[tuple[int, int], np.ndarray]:
    """Net points per seat of every (match, hand), from payments and settlements alone."""
    out: dict[tuple[int, int], np.ndarray] = defaultdict(lambda: np.zeros(4, np.int64))
    for match_id, hand, kind, seat, tile, a, b, c in events.tolist():
        if kind == EV_PAY:
            out[match_id, hand][seat] -= a
            out[match_id, hand][tile] += a
        elif kind == EV_SETTLE:
            out[match_id, hand][seat] += a + b + c
        elif kind == EV_START:
            out[match_id, hand]  # a hand without payments still has its (zero) deltas
    return dict(out)


def _pai(kind: int) -> str:
    return tiles.tile_name(kind) if kind >= 0 else "-"  # the dealer's first turn has no drawn tile


def _compact(names: list[str]) -> str:
    counts = np.zeros(tiles.N_KINDS, np.int64)
    for name in names:
        counts[tiles.parse_tile(name)[0]] += 1
    return tiles.format_tiles(counts)


def to_json_events(events: np.ndarray, points_before: dict[tuple[int, int], list[int]]) -> list[dict]:
    """Event rows → JSON-ready dicts; `points_before[(match, hand)]` gives the scores at each hand start."""
    out = []
    deals: dict[int, list[int]] = defaultdict(list)
    deltas = deltas_from_events(events)
    last_giver = -1  # seat of the latest discard: the target of a ron
    drawer = -1      # seat of the latest draw: the seat whose added kan a robbed-kan win takes (B-17)
    for match_id, hand, kind, seat, tile, a, b, c in events.tolist():
        key = (match_id, hand)
        if kind == EV_DEAL:
            deals[seat].append(tile)
            if sum(len(v) for v in deals.values()) == 52:
                counts = [np.bincount(deals[s], minlength=34) for s in range(4)]
                out[-1]["tehais"] = [tiles.format_tiles(cnt) for cnt in counts]
                deals.clear()
            continue
        if kind == EV_START:
            event = {"type": "start_kyoku", "match": match_id, "hand": hand, "oya": seat,
                     "scores": points_before[key], "exchange_direction": EXCHANGE_DIRECTIONS[a]}
        elif kind == EV_EXCHANGE:
            event = {"type": "exchange", "actor": seat, "target": c, "pais": [_pai(t) for t in (tile, a, b)]}
        elif kind == EV_VOID:
            event = {"type": "void", "actor": seat, "suit": SUIT_LABELS[a]}
        elif kind == EV_DRAW:
            event = {"type": "tsumo", "actor": seat, "pai": _pai(tile), "rinshan": bool(a)}
            drawer = seat
        elif kind == EV_DISCARD:
            event = {"type": "dahai", "actor": seat, "pai": _pai(tile)}
            last_giver = seat
        elif kind == EV_PON:
            event = {"type": "pon", "actor": seat, "target": a, "pai": _pai(tile), "consumed": [_pai(tile)] * 2}
        elif kind == EV_KAN:
            event = {"type": KAN_WORDS[a], "actor": seat, "pai": _pai(tile)}
            if b >= 0:
                event["target"] = b
            if a != tiles.KAKAN:
                event["consumed"] = [_pai(tile)] * (3 if a == tiles.MINKAN else 4)
        elif kind == EV_PASS:
            event = {"type": "pass_win", "actor": seat, "pai": _pai(tile), "fan": a, "tsumo": bool(b)}
        elif kind == EV_WIN:
            target = seat if c == 2 else drawer if c == 3 else last_giver
            event = {"type": "hora", "actor": seat, "target": target, "pai": _pai(tile),
                     "kind": WIN_WORDS[c], "fan": a,
                     "pattern": PATTERN_LABELS[b]}
        elif kind == EV_PAY:
            event = {"type": "payment", "from": seat, "to": tile, "amount": a, "reason": PAY_REASONS[b]}
        elif kind == EV_DRAW_STATE:
            event = {"type": "draw_state", "actor": seat, "tenpai": tile == 1, "flower_pig": tile == 2,
                     "max_value": a}
        elif kind == EV_SETTLE:
            event = {"type": "settlement", "actor": seat, "refund": a, "flower_pig": b, "dajiao": c}
        elif kind == EV_END:
            event = end_event(HAND_ENDS[a], b, deltas[key].tolist(), points_before[key])
        else:
            raise ValueError(f"unknown event kind {kind}")
        out.append(event)
    return out


def end_event(end: str, winners: int, deltas: list[int], points_before: list[int]) -> dict:
    """The `end_kyoku` event of a hand: how it ended, its winners, each seat's payments and points after."""
    return {"type": "end_kyoku", "end": end, "winners": winners, "deltas": deltas,
            "scores": [p + x for p, x in zip(points_before, deltas)]}


def log_word(word: str, tr) -> str:
    """An event-log token (a payment reason, a hand end, an exchange direction, a win kind) in `tr`'s language."""
    return tr.p("log", word)


def to_text(json_events: list[dict], labels: list[str], width: int = 100, tr=None) -> list[str]:
    """Readable lines (at most `width` columns) of JSON events; seats are shown as S0..S3 with policies. `tr`
    (an analyzer.i18n.Translator, English by default) gives the language; pattern names follow it."""
    from tsumolab.analyzer.game_names import name, pattern_name
    from tsumolab.analyzer.i18n import translator

    tr = tr or translator("en")
    seat = [f"S{i} {labels[i][:18]}" for i in range(4)]
    lines = []
    for e in json_events:
        t = e["type"]
        if t == "start_kyoku":
            lines.append(tr("── match {match} hand {hand} ── dealer S{dealer}, exchange {direction}, points {points}",
                            match=e["match"], hand=e["hand"], dealer=e["oya"],
                            direction=log_word(e["exchange_direction"], tr),
                            points=" ".join(map(str, e["scores"]))))
            lines += [f"   {seat[i]:<22} " + tr("deal {tiles}", tiles=h) for i, h in enumerate(e.get("tehais", []))]
            continue
        actor = seat[e["actor"]] if "actor" in e else ""
        if t == "exchange":
            text = tr("gives {tiles} to S{target}", tiles=_compact(e["pais"]), target=e["target"])
        elif t == "void":
            text = tr("void suit {suit}", suit=e["suit"])
        elif t == "tsumo":
            text = (tr("draws {tile} (kan replacement)", tile=e["pai"]) if e["rinshan"]
                    else tr("draws {tile}", tile=e["pai"]))
        elif t == "dahai":
            text = tr("discards {tile}", tile=e["pai"])
        elif t == "pon":
            text = tr("pons {tile} from S{target}", tile=e["pai"], target=e["target"])
        elif t in KAN_WORDS.values():
            text = (tr("{kan} {tile} from S{target}", kan=log_word(t, tr), tile=e["pai"], target=e["target"])
                    if "target" in e else tr("{kan} {tile}", kan=log_word(t, tr), tile=e["pai"]))
        elif t == "pass_win":
            text = tr("passes a {kind} on {tile} worth {fan} fan", kind=log_word("tsumo" if e["tsumo"] else "ron", tr),
                      tile=e["pai"], fan=e["fan"])
        elif t == "hora":
            text = tr("WINS by {kind} on {tile}: {pattern}, {fan} fan", kind=log_word(e["kind"], tr), tile=e["pai"],
                      pattern=pattern_name(e["pattern"], tr.lang), fan=e["fan"])
        elif t == "payment":
            actor = seat[e["from"]]
            text = tr("pays {amount} to S{target} ({reason})", amount=e["amount"], target=e["to"],
                      reason=log_word(e["reason"], tr))
        elif t == "draw_state":
            text = (tr("tenpai, max value {value}", value=e["max_value"]) if e["tenpai"]
                    else tr("flower pig (holds a void tile)"))
        elif t == "settlement":
            text = tr("draw settlement: {refund} {a:+d}, {pig} {b:+d}, {dajiao} {c:+d}",
                      refund=name("settlement", "退税", tr.lang) if tr.lang != "en" else "refund",
                      pig=name("settlement", "查花猪", "zh" if tr.lang == "en" else tr.lang),
                      dajiao=name("settlement", "查大叫", "zh" if tr.lang == "en" else tr.lang),
                      a=e["refund"], b=e["flower_pig"], c=e["dajiao"])
        elif t == "end_kyoku":
            lines.append("   " + tr("end: {end}, {winners} won; deltas {deltas} → {scores}",
                                    end=log_word(e["end"], tr), winners=e["winners"],
                                    deltas=" ".join(f"{d:+d}" for d in e["deltas"]),
                                    scores=" ".join(map(str, e["scores"]))))
            continue
        else:
            text = str(e)
        lines.append(_cut(f"   {actor:<22} {text}", width))
    return lines


def _cut(line: str, width: int) -> str:
    """`line` cut to `width` columns, a CJK character counting two."""
    used = 0
    for i, char in enumerate(line):
        used += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
        if used > width:
            return line[:i]
    return line
