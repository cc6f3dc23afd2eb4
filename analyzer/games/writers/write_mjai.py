"""MatchLog → an mjai log (JSON lines): start_game, then per hand start_kyoku, tsumo, dahai, chi / pon / daiminkan /
kakan / ankan, reach / reach_accepted, dora, hora, ryukyoku, end_kyoku, and end_game.

Plain mjai spelling: honors E S W N P F C, a red five 5mr / 5pr / 5sr, `fan` and `uradora_markers` on hora,
`deltas` and `scores` on hora and ryukyoku, no rinshan flag (the draw after a seat's own kan is its replacement).
Two extensions the project's reader (analyzer.games.mjai) takes: ryukyoku's `reason` (exhaustive,
nine_terminals, four_winds, four_riichi, four_kans, three_wins) and, in shura, start_kyoku's `exchange_direction`
with one `exchange` event {actor, target, pais} per seat (S-2). Bloodshed is written in its own words
(analyzer.games.mjai_bloodshed).
The other riichi-family modes add tsumolab's words of the position documents (analyzer.advise.riichi_position):
start_game names the mode (`variant`, left out for riichi), dragon-eye has `eye` events (DE), fate `fate_open` on
start_kyoku and `open_tile` on discards (F), fantasy the match's `cards` on start_kyoku (FL); fantasy's fees on a
call are left out (the next start_kyoku's scores hold them). Mirror has `mirror_tehais` and `mirror_wall` on
start_kyoku (M), astrology `candidate` events and `pick` on each tsumo from the pool (A), darkness `face_down` on
its face-down discards, their `payment` events into the pot and the pot carried on start_kyoku (`pot`, D).
"""

from __future__ import annotations

import json

from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.games.writers.match_log import MatchLog, check_format

HONORS = "ESWNPFC"
RENAMED = {"han": "fan", "ura_markers": "uradora_markers"}
DROPPED = {"tsumo": ("rinshan",), "reach": ("double",), "ryukyoku": ("abortive", "actor", "nagashi"),
           "end_kyoku": ("scores", "deltas"), "chi": ("fees",), "pon": ("fees",), "daiminkan": ("fees",)}
TILE_KEYS = ("pai", "dora_marker", "consumed", "pais", "tehais", "ura_markers", "fate_open", "mirror_tehais",
             "mirror_wall")


def mjai_tile(name: str) -> str:
    """A record tile (1z..7z, 5mr) in mjai's spelling (E..C, 5mr)."""
    return HONORS[int(name[0]) - 1] if name[1:] == "z" else name


def _tiles(value):
    if isinstance(value, dict):
        return {k: _tiles(v) for k, v in value.items()}
    return [_tiles(v) for v in value] if isinstance(value, list) else mjai_tile(value)


def mjai_events(log: MatchLog) -> list[dict]:
    """The match as mjai events."""
    check_format("mjai", log.variant)
    if log.variant == "bloodshed":
        return _bloodshed_events(log)
    out: list[dict] = [{"type": "start_game", "names": list(log.names), "aka_flag": log.red_fives}]
    if log.variant != "riichi":
        out[0]["variant"] = log.variant
    for hand in log.hands:
        scores = list(hand.start["scores"])
        for e in [hand.start, *hand.events]:
            event = {}
            for key, value in e.items():
                if key in DROPPED.get(e["type"], ()):
                    continue
                if key in TILE_KEYS:
                    value = _tiles(value)
                event[RENAMED.get(key, key)] = value
            if e["type"] == "reach_accepted":
                scores[e["actor"]] -= 1000
            if e["type"] == "payment":   # D: paid into the pot
                scores[e["from"]] -= e["amount"]
            if "deltas" in e and e["type"] != "end_kyoku":
                scores = [s + d for s, d in zip(scores, e["deltas"])]
                event["scores"] = list(scores)
            out.append(event)
    out.append({"type": "end_game", "scores": log.final_scores})
    return out


def _bloodshed_events(log: MatchLog) -> list[dict]:
    """B: the match's own events as they are (analyzer.games.record's Bloodshed words, number tiles only), after a
    start_game naming the mode (analyzer.games.mjai_bloodshed reads them)."""
    if log.rules:
        key, value = next(iter(log.rules.items()))
        raise InputError(f"replay --format mjai: a Bloodshed mjai log is written with the default rules, not "
                         f"{key}={value}")
    out: list[dict] = [{"type": "start_game", "names": list(log.names), "variant": "bloodshed"}]
    for hand in log.hands:
        out += [dict(hand.start), *(dict(e) for e in hand.events)]
    out.append({"type": "end_game", "scores": log.final_scores})
    return out


def write_mjai(log: MatchLog) -> str:
    """The mjai log as text: one JSON object a line."""
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in mjai_events(log))
