"""mjai logs (start_game, start_kyoku, tsumo, dahai, ..., end_game) → GameRecord.

The hands are split at start_kyoku; only the words and keys of analyzer.games.record are kept (mjai's `fan` and
`uradora_markers` become han and ura_markers; deltas and scores are kept where present, end_kyoku's too). Tiles
E S W N P F C become 1z..7z; "?" (a tile hidden from the seat whose view the log is) stays. mjai says nothing of
the game's length: the record keeps the default, "south". A log with tsumolab's `exchange` events (S-2) is a
shura game.
"""

from __future__ import annotations

import re

from tsumolab.analyzer.games.record import GameError, GameRecord

HONORS = "ESWNPFC"
KEYS = {
    "start_kyoku": ("bakaze", "kyoku", "honba", "kyotaku", "oya", "scores", "dora_marker", "tehais",
                    "exchange_direction"),
    "exchange": ("actor", "target", "pais"),
    "tsumo": ("actor", "pai", "rinshan"),
    "dahai": ("actor", "pai", "tsumogiri"),
    "chi": ("actor", "target", "pai", "consumed"),
    "pon": ("actor", "target", "pai", "consumed"),
    "daiminkan": ("actor", "target", "pai", "consumed"),
    "ankan": ("actor", "consumed"),
    "kakan": ("actor", "pai", "consumed"),
    "reach": ("actor",),
    "reach_accepted": ("actor",),
    "dora": ("dora_marker",),
    "hora": ("actor", "target", "pai", "han", "fu", "deltas", "ura_markers"),
    "ryukyoku": ("reason", "deltas"),
    "end_kyoku": ("scores", "deltas"),
}
RENAMED = {"fan": "han", "uradora_markers": "ura_markers"}
TILE = re.compile(r"[1-9][mps]|5[mps]r|[1-7]z|\?")


def parse_mjai_text(text: str) -> list[dict]:
    """A JSON array of events, or JSON lines (one event a line) → the events."""
    from tsumolab.analyzer.json_input import json_or_lines

    try:
        return json_or_lines(text)
    except ValueError as exc:
        raise GameError(f"not mjai events: {exc}") from None


def read_mjai(events: list[dict], title: str = "") -> GameRecord:
    """mjai events → GameRecord; GameError (one line) naming the hand and event of what cannot be read."""
    name = title or "mjai log"
    if not isinstance(events, list) or not all(isinstance(e, dict) and isinstance(e.get("type"), str)
                                                for e in events):
        raise GameError(f"{name}: an mjai log is a list of JSON objects, each with a type")
    names = ("", "", "", "")
    hands: list[list[dict]] = []
    for i, e in enumerate(events):
        kind = e["type"]
        if kind == "start_game" and isinstance(e.get("names"), list):
            names = tuple((list(map(str, e["names"])) + [""] * 4)[:4])
        if kind == "start_kyoku":
            hands.append([])
        if kind not in KEYS:
            continue
        if not hands:
            raise GameError(f"{name}: event {i + 1} ({kind}) comes before any start_kyoku")
        where = f"{name}: hand {len(hands)} event {len(hands[-1]) + 1} ({kind})"
        hands[-1].append(_event(e, kind, where))
    if not hands:
        raise GameError(f"{name}: the log has no start_kyoku")
    variant = "shura" if any(e["type"] == "exchange" for h in hands for e in h) else "riichi"  # S-2
    return GameRecord("mjai", variant, tuple(tuple(h) for h in hands), names, {}, "south", title)


def _event(e: dict, kind: str, where: str) -> dict:
    src = {RENAMED.get(k, k): v for k, v in e.items()}
    out = {"type": kind}
    for key in KEYS[kind]:
        if key not in src:
            continue
        v = src[key]
        if key in ("pai", "dora_marker"):
            v = tile(v, where)
        elif key in ("consumed", "ura_markers", "pais"):
            v = [tile(t, where) for t in _list(v, key, where)]
        elif key == "tehais":
            v = [[tile(t, where) for t in _list(h, key, where)] for h in _list(v, key, where)]
        out[key] = v
    return out


def _list(v, key: str, where: str) -> list:
    if not isinstance(v, list):
        raise GameError(f"{where}: {key} must be a list")
    return v


def tile(name, where: str = "") -> str:
    """An mjai tile name in the record's words (E → 1z, ..., C → 7z)."""
    if isinstance(name, str) and len(name) == 1 and name in HONORS:
        return f"{HONORS.index(name) + 1}z"
    if isinstance(name, str) and TILE.fullmatch(name):
        return name
    raise GameError(f"{where}: unknown tile {name!r}")
