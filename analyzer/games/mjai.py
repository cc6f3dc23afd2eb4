"""mjai logs (start_game, start_kyoku, tsumo, dahai, ..., end_game) → GameRecord.

The hands are split at start_kyoku; only the words and keys of analyzer.games.record are kept (mjai's `fan` and
`uradora_markers` become han and ura_markers; deltas and scores are kept where present, end_kyoku's too). Tiles
E S W N P F C become 1z..7z; "?" (a tile hidden from the seat whose view the log is) stays. mjai says nothing of
the game's length: the record keeps the default, "south". The mode is start_game's `variant` (tsumolab's
extension) when given, else shura with `exchange` events (S-2), fate with start_kyoku's `fate_open` (F),
dragon-eye with `eye` events (DE), mirror with start_kyoku's `mirror_wall` (M), astrology with `candidate` events
(A), darkness with face-down discards (D), riichi otherwise; a Bloodshed log (start_game's variant bloodshed, or
`void` events) is read by analyzer.games.mjai_bloodshed. The other words of the special modes are kept as the
position documents have them: `eye` {actor, counter}, `fate_open` and `open_tile`, fantasy's `cards` on
start_kyoku (FL), which become the rule option `cards`, `mirror_tehais` and `mirror_wall` (M), `candidate`
{pai, dead_wall, pool, wall_index} and tsumo's `pick` (A), dahai's `face_down`, start_kyoku's `pot` and the
payments into the pot (`payment` face_down, dark_open, dark_lock; D). Other payments are left out.
"""

from __future__ import annotations

import re

from tsumolab.analyzer.games.record import GameError, GameRecord

HONORS = "ESWNPFC"
KEYS = {
    "start_kyoku": ("bakaze", "kyoku", "honba", "kyotaku", "oya", "scores", "dora_marker", "tehais",
                    "exchange_direction", "fate_open", "cards", "mirror_tehais", "mirror_wall", "pot"),
    "exchange": ("actor", "target", "pais"),
    "tsumo": ("actor", "pai", "rinshan", "pick"),
    "dahai": ("actor", "pai", "tsumogiri", "open_tile", "face_down"),
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
    "eye": ("actor", "counter"),
    "candidate": ("pai", "dead_wall", "pool", "wall_index"),
    "payment": ("from", "to", "amount", "reason", "pai"),
}
DARK_REASONS = ("face_down", "dark_open", "dark_lock")   # D: the payments kept
FANTASY_DECKS = ("dealer", "chance", "fate")
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
    from tsumolab.analyzer.games.mjai_bloodshed import is_bloodshed_log, read_bloodshed_mjai

    if is_bloodshed_log(events):
        return read_bloodshed_mjai(events, title)
    names = ("", "", "", "")
    variant = None
    hands: list[list[dict]] = []
    for i, e in enumerate(events):
        kind = e["type"]
        if kind == "start_game" and isinstance(e.get("names"), list):
            names = tuple((list(map(str, e["names"])) + [""] * 4)[:4])
        if kind == "start_game" and "variant" in e:
            variant = _variant(e["variant"], name)
        if kind == "start_kyoku":
            hands.append([])
        if kind not in KEYS or (kind == "payment" and e.get("reason") not in DARK_REASONS):
            continue
        if not hands:
            raise GameError(f"{name}: event {i + 1} ({kind}) comes before any start_kyoku")
        where = f"{name}: hand {len(hands)} event {len(hands[-1]) + 1} ({kind})"
        hands[-1].append(_event(e, kind, where))
    if not hands:
        raise GameError(f"{name}: the log has no start_kyoku")
    variant = variant or _inferred_variant(hands)
    return GameRecord("mjai", variant, tuple(tuple(h) for h in hands), names, _rules(hands, name), "south", title)


def _variant(value, name: str) -> str:
    from tsumolab.analyzer.advise.riichi_view import VARIANTS

    if value not in VARIANTS:
        raise GameError(f"{name}: start_game's variant {value!r} is not a riichi-family mode "
                        f"({', '.join(VARIANTS)})")
    return value


def _inferred_variant(hands: list[list[dict]]) -> str:
    """The mode of a log that does not name it: shura with an exchange (S-2), mirror with a mirror_wall (M),
    darkness with face-down discards (D), fate with open deal tiles (F), dragon-eye with eyes (DE), astrology with
    candidates (A), else riichi."""
    kinds = {e["type"] for h in hands for e in h}
    if "exchange" in kinds:
        return "shura"
    if "mirror_wall" in hands[0][0]:
        return "mirror"
    if any(e.get("face_down") for h in hands for e in h):
        return "darkness"
    return "fate" if "fate_open" in hands[0][0] else "dragon-eye" if "eye" in kinds else \
        "astrology" if "candidate" in kinds else "riichi"


def _rules(hands: list[list[dict]], name: str) -> dict:
    """FL: the match's cards (start_kyoku's `cards`, {dealer, chance, fate}) as the rule option `cards`."""
    cards = hands[0][0].get("cards")
    if cards is None:
        return {}
    if not isinstance(cards, dict) or not all(isinstance(cards.get(d), str) for d in FANTASY_DECKS):
        raise GameError(f"{name}: start_kyoku's cards must name the dealer, chance and fate cards (FL)")
    return {"cards": ",".join(cards[d] for d in FANTASY_DECKS)}


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
        elif key in ("tehais", "fate_open", "mirror_tehais"):
            v = [[tile(t, where) for t in _list(h, key, where)] for h in _list(v, key, where)]
        elif key == "mirror_wall":
            if not isinstance(v, dict):
                raise GameError(f"{where}: mirror_wall must be an object of tile lists (M)")
            v = {part: [tile(t, where) for t in _list(ts, part, where)] for part, ts in v.items()}
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
