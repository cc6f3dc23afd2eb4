"""The writers' source for Bloodshed (issue 29): a simulated Bloodshed match's replay events
(analyzer.replay.bloodshed_events, what `tsumolab replay --json` prints) cut into hands in the words of a Bloodshed
GameRecord (analyzer.games.record), so that what a writer writes and its reader reads back are the same events.

What the writers need and the replay spreads over extension events is folded in once:
- every `payment` goes on what it pays for, as `deltas` (each seat's points gained or lost): a win's on its
  `hora`, kan money (B-14, B-15) on its kan — every kan carries `deltas`, zeros when nobody paid;
- the exhaustive draw's `settlement` rows become one `ryukyoku` {reason: exhaustive, deltas (查花猪 and 查大叫,
  B-22, B-23), refunds (退税, B-21)}, with `tenpai` per seat from `draw_state`;
- an added kan says whether it was made with the tile just drawn (`drawn`: the one paid by every other seat,
  B-15), and a robbed one (B-17), which the engine logs as the robbing win alone, is written as the `kakan` the
  robbers took it from, right before their `hora`s (kind robbed_kan, target the kan's seat);
- the dealer's win on its first turn (天和, no tile drawn in that turn) names the 14th tile of its hand;
- start_kyoku's `tehais` are lists of the 13 dealt tiles, and it gets the round words of the readers (bakaze E,
  kyoku dealer + 1, honba 0); `pass_win`, `draw_state` and the replay's `match` are left out.
"""

from __future__ import annotations

from collections import Counter

from tsumolab.analyzer.games.writers.match_log import Hand, MatchLog

PLAY_KEYS = {
    "exchange": ("actor", "target", "pais"),
    "void": ("actor", "suit"),
    "tsumo": ("actor", "pai", "rinshan"),
    "dahai": ("actor", "pai"),
    "pon": ("actor", "target", "pai", "consumed"),
    "daiminkan": ("actor", "target", "pai", "consumed"),
    "ankan": ("actor", "pai", "consumed"),
    "kakan": ("actor", "pai"),
    "hora": ("actor", "target", "pai", "kind", "fan"),
    "end_kyoku": ("end", "winners", "deltas", "scores"),
}
KANS = ("daiminkan", "ankan", "kakan")
WIN_PAYMENTS = ("ron", "tsumo")
NO_TILE = "-"   # the replay's word for the tile of a turn without a draw (the dealer's first)


def split_tiles(text: str) -> list[str]:
    """A compact tile string (123m45p) → its tile names in order (1m 2m 3m 4p 5p)."""
    out, digits = [], ""
    for char in text:
        if char.isdigit():
            digits += char
        else:
            out += [f"{d}{char}" for d in digits]
            digits = ""
    return out


def bloodshed_match_log(events: list[dict], names, rules: dict | None = None, title: str = "") -> MatchLog:
    """The replay's JSON events of one Bloodshed match → MatchLog (4 hands at most, B-2)."""
    hands: list[Hand] = []
    for e in events:
        if e["type"] == "start_kyoku":
            hands.append(Hand(_start(e)))
            folder = _HandFolder(hands[-1])
        elif hands:
            folder.add(e)
    return MatchLog("bloodshed", [str(n) for n in names], hands, dict(rules or {}), 4, title)


def _start(e: dict) -> dict:
    tehais = [split_tiles(h) if isinstance(h, str) else list(h) for h in e["tehais"]]
    return {"type": "start_kyoku", "hand": e["hand"], "bakaze": "E", "kyoku": e["oya"] + 1, "honba": 0,
            "oya": e["oya"], "scores": list(e["scores"]), "exchange_direction": e["exchange_direction"],
            "tehais": tehais}


class _HandFolder:
    """Folds one hand's replay events into the hand's record events (module docstring)."""

    def __init__(self, hand: Hand):
        self.hand = hand
        self.held = [Counter(h) for h in hand.start["tehais"]]
        self.last_draw: list[str | None] = [None] * 4
        self.turn = hand.start["oya"]
        self.paid: dict | None = None      # the latest hora or kan: what a payment pays for
        self.draw: dict | None = None      # the exhaustive draw's ryukyoku

    def emit(self, event: dict) -> dict:
        self.hand.events.append(event)
        return event

    def add(self, e: dict) -> None:
        kind = e["type"]
        if kind == "payment":
            self.pay(e)
        elif kind == "draw_state":
            self.settle()["tenpai"][e["actor"]] = bool(e["tenpai"])
        elif kind == "settlement":
            row = self.settle()
            row["deltas"][e["actor"]] += e["flower_pig"] + e["dajiao"]
            row["refunds"][e["actor"]] += e["refund"]
        elif kind in PLAY_KEYS:
            self.play({"type": kind, **{k: e[k] for k in PLAY_KEYS[kind] if k in e}})

    def play(self, out: dict) -> None:
        kind, seat = out["type"], out.get("actor")
        self.paid = None
        if kind == "hora" and out["kind"] == "robbed_kan":
            self.robbed(out)
        if kind == "tsumo":
            self.turn, self.last_draw[seat] = seat, out["pai"]
            self.held[seat][out["pai"]] += 1
        elif kind == "exchange":
            self.held[seat].subtract(out["pais"])
            self.held[out["target"]].update(out["pais"])
        elif kind in ("dahai", "pon", "daiminkan", "ankan", "kakan"):
            self.held[seat].subtract(out.get("consumed") or [out["pai"]])
        if kind == "kakan":
            out["drawn"] = out["pai"] == self.last_draw[seat]
        if kind in KANS:
            out["deltas"] = [0] * 4
            self.paid = out
        elif kind == "hora":
            if out["pai"] == NO_TILE:   # 天和: the win of the dealer's 14 dealt tiles
                out["pai"] = max(+self.held[seat])
            out["deltas"] = [0] * 4
            self.paid = out
        self.emit(out)

    def robbed(self, win: dict) -> None:
        """B-17: the added kan a robbing win takes its tile from, written once before the first robber's hora."""
        last = self.hand.events[-1] if self.hand.events else {}
        if last.get("type") == "hora" and last.get("kind") == "robbed_kan":
            return
        seat = self.turn
        self.held[seat][win["pai"]] -= 1
        self.emit({"type": "kakan", "actor": seat, "pai": win["pai"], "drawn": win["pai"] == self.last_draw[seat],
                   "deltas": [0] * 4})

    def pay(self, e: dict) -> None:
        target = self.paid
        if target is None:
            raise ValueError(f"a payment ({e['reason']}) follows neither a win nor a kan")
        target["deltas"][e["from"]] -= e["amount"]
        target["deltas"][e["to"]] += e["amount"]

    def settle(self) -> dict:
        if self.draw is None:
            self.draw = self.emit({"type": "ryukyoku", "reason": "exhaustive", "deltas": [0] * 4,
                                   "refunds": [0] * 4, "tenpai": [False] * 4})
        return self.draw
