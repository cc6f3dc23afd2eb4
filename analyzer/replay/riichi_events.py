"""Event logs of the riichi-based modes (`riichi`, `shura`) as mjai-style JSON objects and as readable text.

mjai words: start_kyoku, tsumo, dahai, chi, pon, daiminkan, ankan, kakan, reach, reach_accepted, dora, hora,
ryukyoku, end_kyoku. Extensions: `exchange` (S-2 exchange of three), `pass_win` (a win the seat could take and
passed), `payment` (every point transfer; seat -1 is the riichi-stick pile on the table), astrology's `candidate`
(a tile revealed into the pool, A) with `pick` on each `tsumo` that takes one (its index in the pool, oldest
first), and dragon-eye's `eye` (DE).
A red five is written `5mr` / `5pr` / `5sr` wherever that copy moves (deal, draw, discard, calls, kans, the win).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from tsumolab.analyzer.replay.bloodshed_events import end_event
from tsumolab.sims import tiles
from tsumolab.sims.riichi.columns import EXCHANGE_DIRECTIONS, HAND_ENDS
from tsumolab.sims.riichi.rules import DEAL_SIZE
from tsumolab.sims.riichi.tableau import DEAD_START, is_red
from tsumolab.sims.riichi.events import (
    EV_ABORT, EV_CHI, EV_DEAL, EV_DISCARD, EV_DORA, EV_DRAW, EV_END, EV_EXCHANGE, EV_EYE, EV_KAN, EV_PASS, EV_PAY,
    EV_PON, EV_POOL, EV_RIICHI, EV_START, EV_WIN, PAY_DARK_LOCK, PAY_DARK_OPEN, PAY_FACE_DOWN, PAY_NAGASHI, PAY_NOTEN,
    PAY_POT, PAY_REASONS, PAY_RIICHI,
)

TABLE = -1  # payer / receiver of the riichi-stick pile
KAN_WORDS = {tiles.MINKAN: "daiminkan", tiles.ANKAN: "ankan", tiles.KAKAN: "kakan"}
WIN_WORDS = {1: "ron", 2: "tsumo"}
WIN_PAYMENTS = {"ron", "tsumo", "honba", "sticks", "pao"}
DARKNESS_POT = (PAY_FACE_DOWN, PAY_DARK_OPEN, PAY_DARK_LOCK, PAY_POT)  # D: the pot, not riichi sticks
DEAL_TILES = 4 * DEAL_SIZE


def deltas_from_events(events: np.ndarray) -> dict[tuple[int, int], np.ndarray]:
    """Net points per seat of every (match, hand) from the payments alone; payments to or from the riichi-stick
    pile (seat -1) move points between a seat and the table only."""
    out: dict[tuple[int, int], np.ndarray] = defaultdict(lambda: np.zeros(4, np.int64))
    for match_id, hand, kind, seat, tile, a, _b, _c in events.tolist():
        if kind == EV_PAY:
            if seat != TABLE:
                out[match_id, hand][seat] -= a
            if tile != TABLE:
                out[match_id, hand][tile] += a
        elif kind == EV_START:
            out[match_id, hand]  # a hand without payments still has its (zero) deltas
    return dict(out)


def _pai(kind: int, red: bool = False) -> str:
    if kind < 0:
        return "-"
    return tiles.tile_name(kind) + ("r" if red else "")


def _with_red(kinds: list[int], red: bool) -> list[str]:
    """Names of tiles taken from a hand, the (one) five among them written red when `red`."""
    names = [_pai(k) for k in kinds]
    if red:
        i = next(i for i, k in enumerate(kinds) if k < 27 and k % 9 == 4)
        names[i] = _pai(kinds[i], True)
    return names


def wall_event(wall: np.ndarray, red_fives: bool = True) -> dict:
    """The `wall` event of a hand's 136 tile ids (sims.riichi.engine.shuffled_wall, layout R-1): `live`, the
    tiles drawn from the live wall in order from the dealer's first draw; `rinshan`, the replacement tiles in
    order; `dora_markers` and `ura_markers`, indicator i and its ura; `deal`, 13 tiles to each seat from the
    dealer on (fate's open tiles are the first 4 of each, F); red fives written 5mr when the table has them (not
    in mirror, M). `ids` are the 136 tile ids in wall order (kind = id // 4, copy = id % 4; mirror's normal copy
    is copy 0)."""
    names = [_pai(int(t) // 4, red_fives and is_red(int(t))) for t in wall]
    return {"type": "wall", "ids": [int(t) for t in wall], "deal": names[:4 * DEAL_SIZE],
            "live": names[4 * DEAL_SIZE:DEAD_START], "rinshan": names[DEAD_START:DEAD_START + 4],
            "dora_markers": names[DEAD_START + 4::2], "ura_markers": names[DEAD_START + 5::2]}


def _compact(names: list[str]) -> str:
    counts = np.zeros(tiles.N_KINDS, np.int64)
    for name in names:
        counts[tiles.parse_tile(name.rstrip("r"))[0]] += 1
    return tiles.format_tiles(counts)


def to_json_events(events: np.ndarray, points_before: dict[tuple[int, int], list[int]]) -> list[dict]:
    """Event rows → JSON-ready dicts; `points_before[(match, hand)]` gives the scores at each hand start."""
    out: list[dict] = []
    deals: dict[int, list[int]] = defaultdict(list)
    deltas = deltas_from_events(events)
    start: dict = {}
    last_giver = -1  # seat of the latest discard or kan (the ron or chankan target)
    given_red = False  # that discard or kan tile is the red five
    drawn_red = [False] * 4  # each seat's latest draw is the red five (its tsumo tile)
    aborted = drawn_out = False  # drawn_out: the hand's exhaustive-draw settlement (noten, nagashi) was paid
    direction = "none"
    sticks: dict[int, int] = defaultdict(int)  # riichi deposits on the table per match
    for match_id, hand, kind, seat, tile, a, b, c in events.tolist():
        key = (match_id, hand)
        if kind == EV_DEAL:
            deals[seat].append((tile, a))
            if sum(len(v) for v in deals.values()) == DEAL_TILES:
                start["tehais"] = [[_pai(t, bool(r)) for t, r in sorted(deals[s])] for s in range(4)]
                deals.clear()
            continue
        if kind == EV_DORA and a == 1 and "dora_marker" not in start:
            start["dora_marker"] = _pai(tile)
            continue
        if kind == EV_RIICHI:
            reach = next(e for e in reversed(out) if e["type"] == "reach" and e["actor"] == seat)
            reach["double"] = a == 2
            continue
        if kind == EV_START:
            aborted = drawn_out = False
            start = {"type": "start_kyoku", "match": match_id, "hand": hand, "round": f"{'ESW'[b // 4]}{b % 4 + 1}",
                     "bakaze": "ESW"[b // 4], "kyoku": b % 4 + 1, "honba": c, "kyotaku": sticks[match_id], "oya": seat,
                     "scores": list(points_before[key]), "exchange_direction": "none"}
            direction = EXCHANGE_DIRECTIONS[a + 1]  # shown once an exchange happens (S-2)
            event = start
        elif kind == EV_EXCHANGE:
            start["exchange_direction"] = direction
            event = {"type": "exchange", "actor": seat, "target": c % 4,
                     "pais": [_pai(t, bool(c // 4 >> i & 1)) for i, t in enumerate((tile, a, b))]}
        elif kind == EV_DRAW:
            drawn_red[seat] = bool(c & 2)
            event = {"type": "tsumo", "actor": seat, "pai": _pai(tile, drawn_red[seat]), "rinshan": bool(a)}
            if b:  # astrology (A): the candidate picked, 0 = the oldest in the pool
                event["pick"] = b - 1
        elif kind == EV_DISCARD:
            if b:
                out.append({"type": "reach", "actor": seat, "double": False})
            event = {"type": "dahai", "actor": seat, "pai": _pai(tile, bool(c)), "tsumogiri": bool(a)}
            last_giver, given_red = seat, bool(c)
        elif kind == EV_CHI:
            run = [tile, tile + 1, tile + 2]
            run.remove(a)
            event = {"type": "chi", "actor": seat, "target": b, "pai": _pai(a, bool(c & 1)),
                     "consumed": _with_red(run, bool(c & 2))}
        elif kind == EV_PON:
            event = {"type": "pon", "actor": seat, "target": a, "pai": _pai(tile, bool(c & 1)),
                     "consumed": _with_red([tile] * 2, bool(c & 2))}
        elif kind == EV_KAN:
            pai_red = {tiles.MINKAN: c & 1, tiles.KAKAN: c & 2}.get(a, 0)  # an ankan's red shows in `consumed`
            event = {"type": KAN_WORDS[a], "actor": seat, "pai": _pai(tile, bool(pai_red))}
            if a == tiles.MINKAN:
                event["target"] = b
                event["consumed"] = _with_red([tile] * 3, bool(c & 2))
            elif a == tiles.ANKAN:
                event["consumed"] = _with_red([tile] * 4, bool(c & 2))
            last_giver, given_red = seat, bool(c & 2)
        elif kind == EV_DORA:
            event = {"type": "dora", "dora_marker": _pai(tile), "shown": a}
        elif kind == EV_EYE:
            event = {"type": "eye", "actor": seat, "counter": a}
        elif kind == EV_POOL:
            event = {"type": "candidate", "pai": _pai(tile), "dead_wall": bool(a), "pool": c, "wall_index": b}
        elif kind == EV_PASS:
            event = {"type": "pass_win", "actor": seat, "pai": _pai(tile), "han": a, "tsumo": bool(b)}
        elif kind == EV_WIN:
            red = drawn_red[seat] if c == 2 else given_red
            event = {"type": "hora", "actor": seat, "target": seat if c == 2 else last_giver, "pai": _pai(tile, red),
                     "kind": WIN_WORDS[c], "han": a, "fu": b}
            at = len(out)  # the engine logs a win's payments before the win: show them after it, as mjai does
            while at > 0 and out[at - 1]["type"] == "payment" and out[at - 1]["reason"] in WIN_PAYMENTS:
                at -= 1
            out.insert(at, event)
            continue
        elif kind == EV_PAY:
            event = {"type": "payment", "from": seat, "to": tile, "amount": a, "reason": PAY_REASONS[b]}
            drawn_out |= b in (PAY_NOTEN, PAY_NAGASHI)
            if b in (PAY_FACE_DOWN, PAY_DARK_OPEN, PAY_DARK_LOCK):  # darkness (D): the tile paid for
                event["pai"] = _pai(c)
            if b not in DARKNESS_POT:  # every other payment to or from the table moves riichi sticks (R-3, FL)
                sticks[match_id] += (tile == TABLE) * a // 1000 - (seat == TABLE) * a // 1000
            if b == PAY_RIICHI:
                out.append(event)
                event = {"type": "reach_accepted", "actor": seat}
        elif kind == EV_ABORT:
            aborted = True
            event = {"type": "ryukyoku", "reason": HAND_ENDS[a], "abortive": True, "actor": seat}
        elif kind == EV_END:
            # a bust at the draw: with no winner, or in shura (S-3) after wins when the draw's payments bust
            if not aborted and (HAND_ENDS[a] == "exhaustive" or (HAND_ENDS[a] == "bust" and (b == 0 or drawn_out))):
                out.append({"type": "ryukyoku", "reason": "exhaustive", "abortive": False})
            event = end_event(HAND_ENDS[a], b, deltas[key].tolist(), points_before[key])
        else:
            raise ValueError(f"unknown riichi event kind {kind}")
        out.append(event)
    return out


def to_text(json_events: list[dict], labels: list[str], width: int = 100, tr=None) -> list[str]:
    """Readable lines (at most `width` columns) of riichi JSON events; seats are S0..S3 with their policies.
    `tr` (an analyzer.i18n.Translator, English by default) gives the language."""
    from tsumolab.analyzer.i18n import translator
    from tsumolab.analyzer.replay.bloodshed_events import _cut, log_word

    tr = tr or translator("en")
    seat = [f"S{i} {labels[i][:18]}" for i in range(4)]
    lines: list[str] = []
    for e in json_events:
        t = e["type"]
        if t == "start_kyoku":
            head = tr("── match {match} hand {hand} ── {round} honba {honba}, dealer S{dealer}, points {points}",
                      match=e["match"], hand=e["hand"], round=e["round"], honba=e["honba"], dealer=e["oya"],
                      points=" ".join(map(str, e["scores"])))
            if e["exchange_direction"] != "none":
                head += tr(", exchange {direction}", direction=log_word(e["exchange_direction"], tr))
            lines.append(_cut(head, width))
            lines += [_cut(f"   {seat[i]:<22} " + tr("deal {tiles}", tiles=_compact(h)), width)
                      for i, h in enumerate(e.get("tehais", []))]
            if "dora_marker" in e:
                lines.append(f"   {'':<22} " + tr("dora indicator {tile}", tile=e["dora_marker"]))
            continue
        actor = seat[e["actor"]] if e.get("actor", -1) >= 0 else ""
        if t == "wall":
            text = tr("dead wall: indicators {dora}, ura {ura}, replacement tiles {rinshan}",
                      dora=" ".join(e["dora_markers"]), ura=" ".join(e["ura_markers"]),
                      rinshan=" ".join(e["rinshan"]))
        elif t == "exchange":
            text = tr("gives {tiles} to S{target}", tiles=_compact(e["pais"]), target=e["target"])
        elif t == "tsumo":
            text = (tr("draws {tile} (kan replacement)", tile=e["pai"]) if e["rinshan"]
                    else tr("draws {tile}", tile=e["pai"]))
        elif t == "dahai":
            text = (tr("discards {tile} (tsumogiri)", tile=e["pai"]) if e["tsumogiri"]
                    else tr("discards {tile}", tile=e["pai"]))
        elif t == "reach":
            text = tr("declares double riichi") if e["double"] else tr("declares riichi")
        elif t == "reach_accepted":
            text = tr("riichi accepted")
        elif t == "chi":
            text = tr("chis {tile} from S{target} with {tiles}", tile=e["pai"], target=e["target"],
                      tiles=f"{''.join(p[0] for p in e['consumed'])}{e['pai'][1]}")
        elif t == "pon":
            text = tr("pons {tile} from S{target}", tile=e["pai"], target=e["target"])
        elif t in KAN_WORDS.values():
            text = (tr("{kan} {tile} from S{target}", kan=log_word(t, tr), tile=e["pai"], target=e["target"])
                    if "target" in e else tr("{kan} {tile}", kan=log_word(t, tr), tile=e["pai"]))
        elif t == "dora":
            text = tr("new dora indicator {tile} ({shown} shown)", tile=e["dora_marker"], shown=e["shown"])
        elif t == "eye":
            text = tr("holds the dragon eye ({count} discards)", count=e["counter"])
        elif t == "candidate":
            text = (tr("candidate {tile} revealed from the dead wall ({pool} in the pool)", tile=e["pai"],
                       pool=e["pool"]) if e["dead_wall"]
                    else tr("candidate {tile} revealed ({pool} in the pool)", tile=e["pai"], pool=e["pool"]))
        elif t == "pass_win":
            text = tr("passes a {kind} on {tile} worth {han} han", kind=log_word("tsumo" if e["tsumo"] else "ron", tr),
                      tile=e["pai"], han=e["han"])
        elif t == "hora":
            text = (tr("WINS by {kind} on {tile}: {han} han {fu} fu", kind=log_word(e["kind"], tr), tile=e["pai"],
                       han=e["han"], fu=e["fu"]) if e["kind"] == "tsumo"
                    else tr("WINS by {kind} off S{target} on {tile}: {han} han {fu} fu", kind=log_word(e["kind"], tr),
                            target=e["target"], tile=e["pai"], han=e["han"], fu=e["fu"]))
        elif t == "payment":
            actor = seat[e["from"]] if e["from"] >= 0 else tr("table (riichi sticks)")
            target = tr("table") if e["to"] == TABLE else f"S{e['to']}"
            text = tr("pays {amount} to {target} ({reason})", amount=e["amount"], target=target,
                      reason=log_word(e["reason"], tr))
        elif t == "ryukyoku":
            text = (tr("draw: {reason} (abortive)", reason=log_word(e["reason"], tr)) if e["abortive"]
                    else tr("draw: {reason}", reason=log_word(e["reason"], tr)))
        elif t == "end_kyoku":
            lines.append(_cut("   " + tr("end: {end}, {winners} won; deltas {deltas} → {scores}",
                                         end=log_word(e["end"], tr), winners=e["winners"],
                                         deltas=" ".join(f"{d:+d}" for d in e["deltas"]),
                                         scores=" ".join(map(str, e["scores"]))), width))
            continue
        else:
            text = str(e)
        lines.append(_cut(f"   {actor:<22} {text}", width))
    return lines
