"""Event logs of simulated hands as JSON objects (mjai words where mjai has them) and as readable text.

Extensions to the mjai vocabulary: `exchange`, `void`, `pass_win`, `payment`, `draw_state`, `settlement`.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from sims import tiles
from sims.events import (
    EV_DEAL, EV_DISCARD, EV_DRAW, EV_DRAW_STATE, EV_END, EV_EXCHANGE, EV_KAN, EV_PASS, EV_PAY, EV_PON,
    EV_SETTLE, EV_START, EV_VOID, EV_WIN, PAY_REASONS,
)
from sims.records import EXCHANGE_DIRECTIONS, HAND_ENDS, PATTERN_LABELS, SUIT_LABELS

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
        elif kind == EV_DISCARD:
            event = {"type": "dahai", "actor": seat, "pai": _pai(tile)}
        elif kind == EV_PON:
            event = {"type": "pon", "actor": seat, "target": a, "pai": _pai(tile)}
        elif kind == EV_KAN:
            event = {"type": KAN_WORDS[a], "actor": seat, "pai": _pai(tile)}
            if b >= 0:
                event["target"] = b
        elif kind == EV_PASS:
            event = {"type": "pass_win", "actor": seat, "pai": _pai(tile), "fan": a, "tsumo": bool(b)}
        elif kind == EV_WIN:
            event = {"type": "hora", "actor": seat, "pai": _pai(tile), "kind": WIN_WORDS[c], "fan": a,
                     "pattern": PATTERN_LABELS[b]}
        elif kind == EV_PAY:
            event = {"type": "payment", "from": seat, "to": tile, "amount": a, "reason": PAY_REASONS[b]}
        elif kind == EV_DRAW_STATE:
            event = {"type": "draw_state", "actor": seat, "tenpai": tile == 1, "flower_pig": tile == 2,
                     "max_value": a}
        elif kind == EV_SETTLE:
            event = {"type": "settlement", "actor": seat, "refund": a, "flower_pig": b, "dajiao": c}
        elif kind == EV_END:
            d = deltas[key].tolist()
            event = {"type": "end_kyoku", "end": HAND_ENDS[a], "winners": b, "deltas": d,
                     "scores": [p + x for p, x in zip(points_before[key], d)]}
        else:
            raise ValueError(f"unknown event kind {kind}")
        out.append(event)
    return out


def to_text(json_events: list[dict], labels: list[str], width: int = 100) -> list[str]:
    """Readable lines (at most `width` columns) of JSON events; seats are shown as S0..S3 with policies."""
    seat = [f"S{i} {labels[i][:18]}" for i in range(4)]
    lines = []
    for e in json_events:
        t = e["type"]
        if t == "start_kyoku":
            lines.append(f"── match {e['match']} hand {e['hand']} ── dealer S{e['oya']}, exchange "
                         f"{e['exchange_direction']}, points {' '.join(map(str, e['scores']))}")
            lines += [f"   {seat[i]:<22} deal {h}" for i, h in enumerate(e.get("tehais", []))]
            continue
        actor = seat[e["actor"]] if "actor" in e else ""
        if t == "exchange":
            text = f"gives {_compact(e['pais'])} to S{e['target']}"
        elif t == "void":
            text = f"void suit {e['suit']}"
        elif t == "tsumo":
            text = f"draws {e['pai']}" + (" (kan replacement)" if e["rinshan"] else "")
        elif t == "dahai":
            text = f"discards {e['pai']}"
        elif t == "pon":
            text = f"pons {e['pai']} from S{e['target']}"
        elif t in KAN_WORDS.values():
            text = f"{t} {e['pai']}" + (f" from S{e['target']}" if "target" in e else "")
        elif t == "pass_win":
            text = f"passes a {'tsumo' if e['tsumo'] else 'ron'} on {e['pai']} worth {e['fan']} fan"
        elif t == "hora":
            text = f"WINS by {e['kind']} on {e['pai']}: {e['pattern']}, {e['fan']} fan"
        elif t == "payment":
            actor = seat[e["from"]]
            text = f"pays {e['amount']} to S{e['to']} ({e['reason']})"
        elif t == "draw_state":
            text = ("tenpai, max value " + str(e["max_value"])) if e["tenpai"] else "flower pig (holds a void tile)"
        elif t == "settlement":
            text = f"draw settlement: refund {e['refund']:+d}, 查花猪 {e['flower_pig']:+d}, 查大叫 {e['dajiao']:+d}"
        elif t == "end_kyoku":
            lines.append(f"   end: {e['end']}, {e['winners']} won; deltas {' '.join(f'{d:+d}' for d in e['deltas'])}"
                         f" → {' '.join(map(str, e['scores']))}")
            continue
        else:
            text = str(e)
        lines.append(f"   {actor:<22} {text}"[:width])
    return lines
