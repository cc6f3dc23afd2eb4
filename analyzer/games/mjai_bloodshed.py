"""Bloodshed mjai logs (RULES.md B-…): tsumolab's own Bloodshed events (analyzer.games.record's Bloodshed words, those
of `tsumolab replay --json`) as JSON lines after a start_game naming the mode (`"variant": "bloodshed"`), written by
`tsumolab replay --variant bloodshed --format mjai` (analyzer.games.writers.write_mjai) and read back here into a
GameRecord. A log of one seat's view hides the other seats' dealt tiles and draws and the tiles passed between two
other seats as "?"; its review is the full log's. analyzer.games.mjai hands over a log whose start_game names
bloodshed or that has `void` events.

Each event keeps the keys of its type (KEYS; others are dropped, mjai's start_game, end_game and none are skipped)
and every one of them is checked: seats 0..3, tiles 1m..9s or "?", lists of the right lengths. A hand is its
start_kyoku up to its end_kyoku.
"""

from __future__ import annotations

import re

from tsumolab.analyzer.games.record import GameError, GameRecord

KEYS = {
    "start_kyoku": ("hand", "bakaze", "kyoku", "honba", "oya", "scores", "exchange_direction", "tehais"),
    "exchange": ("actor", "target", "pais"),
    "void": ("actor", "suit"),
    "tsumo": ("actor", "pai", "rinshan"),
    "dahai": ("actor", "pai"),
    "pon": ("actor", "target", "pai", "consumed"),
    "daiminkan": ("actor", "target", "pai", "consumed", "deltas"),
    "ankan": ("actor", "pai", "consumed", "deltas"),
    "kakan": ("actor", "pai", "drawn", "deltas"),
    "hora": ("actor", "target", "pai", "kind", "fan", "deltas"),
    "ryukyoku": ("reason", "deltas", "refunds", "tenpai"),
    "end_kyoku": ("end", "winners", "deltas", "scores"),
}
OPTIONAL = {"rinshan", "drawn", "refunds", "tenpai", "hand", "bakaze", "kyoku", "honba", "exchange_direction"}
SEAT_KEYS = ("actor", "target", "oya")
TILE_KEYS = ("pai",)
TILE_LISTS = {"pais": 3, "consumed": None}
FOURS = ("scores", "deltas", "refunds", "tenpai")
WORDS = {"suit": ("m", "p", "s"), "kind": ("ron", "tsumo", "robbed_kan"), "reason": ("exhaustive",),
         "end": ("three_wins", "exhaustive", "bust"), "exchange_direction": ("next", "prev", "across")}
TILE = re.compile(r"[1-9][mps]|\?")


def is_bloodshed_log(events: list) -> bool:
    """Whether an mjai log is a Bloodshed one: its start_game names the mode, or it has void declarations (B-7)."""
    return any(isinstance(e, dict) and (e.get("type") == "start_game" and e.get("variant") == "bloodshed"
                                        or e.get("type") == "void") for e in events)


def read_bloodshed_mjai(events: list[dict], title: str = "") -> GameRecord:
    """A Bloodshed mjai log → GameRecord; GameError (one line) naming the hand and event it cannot read."""
    name = title or "mjai log"
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
        hands[-1].append(_event(e, f"{name}: hand {len(hands)} event {len(hands[-1]) + 1} ({kind})"))
    if not hands:
        raise GameError(f"{name}: the log has no start_kyoku")
    if len(hands) > 4:
        raise GameError(f"{name}: {len(hands)} hands: a Bloodshed match has 4 (B-2)")
    for n, hand in enumerate(hands, 1):
        if hand[-1]["type"] != "end_kyoku":
            raise GameError(f"{name}: hand {n} does not end with end_kyoku")
        hand[0].setdefault("hand", n)
    return GameRecord("mjai", "bloodshed", tuple(tuple(h) for h in hands), names, {}, "east", title)


def _event(e: dict, where: str) -> dict:
    kind = e["type"]
    out = {"type": kind}
    for key in KEYS[kind]:
        if key not in e:
            if key in OPTIONAL:
                continue
            raise GameError(f"{where}: lacks {key}")
        out[key] = _value(key, e[key], where)
    if kind == "start_kyoku":
        out["tehais"] = _tehais(e["tehais"], where)
    return out


def _value(key: str, v, where: str):
    if key in SEAT_KEYS and not (isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 3):
        raise GameError(f"{where}: {key} must be a seat 0..3, got {v!r}")
    if key in TILE_KEYS:
        return _tile(v, where)
    if key in TILE_LISTS:
        if not isinstance(v, list) or (TILE_LISTS[key] and len(v) != TILE_LISTS[key]):
            raise GameError(f"{where}: {key} must be a list of tiles")
        return [_tile(t, where) for t in v]
    if key in FOURS and not (isinstance(v, list) and len(v) == 4):
        raise GameError(f"{where}: {key} must be a list of 4 entries")
    if key in WORDS and v not in WORDS[key]:
        raise GameError(f"{where}: {key} must be one of {', '.join(WORDS[key])}, got {v!r}")
    return v


def _tehais(tehais, where: str) -> list[list[str]]:
    if not isinstance(tehais, list) or len(tehais) != 4 or not all(isinstance(h, list) and len(h) == 13
                                                                    for h in tehais):
        raise GameError(f"{where}: tehais must be 4 lists of the 13 dealt tiles (B-5)")
    return [[_tile(t, where) for t in h] for h in tehais]


def _tile(name, where: str) -> str:
    if isinstance(name, str) and TILE.fullmatch(name):
        return name
    raise GameError(f"{where}: tile {name!r}: Bloodshed has the number tiles 1m..9s only (B-1), or ? for a hidden one")
