"""The side fields the special riichi modes add to a Mahjong Soul record, written from one hand of a MatchLog
(analyzer.games.writers.match_log) by analyzer.games.writers.write_majsoul. Field names and layouts are those of
the client's protocol (liqi.proto) as the community replay editor writes them:

- dora-fever `dora3_mode` (DF) and dragon-eye: the 3 first indicators in RecordNewRound's `doras`;
- open-deal `begin_open_mode` (OD): RecordNewRound's `opens`, per seat {seat, tiles, count} (each tile kind of
  its start tiles — the dealer's 14 with its first draw — with its number of copies); `tile_state` 1 on a
  discard, and `tile_states` on a call or kan, for a tile of the seat's shown start tiles;
- fate `tianming_mode` (F): the open deal tiles written with the suffix `t` (3pt, 0mt) wherever they are — in
  RecordNewRound's tiles0..3 (first, in deal order), discards, calls and kans — and each win's `tianming_bonus`
  (1 + the winner's open tiles still held);
- chant `yongchang_mode` (C): `yongchang` {seat, moqie_count, moqie_bonus, shouqie_count, shouqie_bonus} (the
  longest tsumogiri and hand-discard runs and their bonus han) of the discarder on each discard, and of the seat
  called from on a call;
- soul-strike `hunzhiyiji_mode` (SS): `hun_zhi_yi_ji_info` {seat, liqi (1 riichi, 2 double), continue_deal_count
  (strike turns left), overload} on the declaration, on each strike draw and discard, and on the record where the
  seat is overloaded (the first other draw after its last strike turn, or the call of one of its strike discards);
- dragon-eye `muyu_mode` (DE): `muyu` {id, seat, count, count_max} on RecordNewRound, RecordDealTile,
  RecordDiscardTile and RecordChiPengGang — a new `id` where an eye is placed, `count` the holder's discards left;
- fantasy `field_spell_mode` (FL): detail_rule's number dealer + 100 · chance + 10000 · fate card (each 1..5);
- mirror `jiuchao_mode` (M), astrology `zhanxing` (A), darkness `reveal_discard` (D): their flags here, their marks
  and records in analyzer.games.writers.majsoul_sight.
"""

from __future__ import annotations

from collections import Counter

from tsumolab.sims.riichi.chant_streaks import HAND_HAN, HAND_RUNS, TSUMOGIRI_HAN, TSUMOGIRI_RUNS
from tsumolab.sims.riichi.fantasy_decks import FANTASY_SLUGS
from tsumolab.sims.riichi.soul_strike_turns import STRIKE_TURNS

MODE_RULES = {"dora-fever": "dora3_mode", "open-deal": "begin_open_mode", "chant": "yongchang_mode",
              "soul-strike": "hunzhiyiji_mode", "fate": "tianming_mode", "dragon-eye": "muyu_mode",
              "fantasy": "field_spell_mode", "mirror": "jiuchao_mode", "astrology": "zhanxing",
              "darkness": "reveal_discard"}   # mirror, astrology, darkness: analyzer.games.writers.majsoul_sight
DECKS = ("dealer", "chance", "fate")
CARD_PLACES = (1, 100, 10000)   # FL: field_spell_mode's digit of each deck's card
OPEN = "t"                      # F: the suffix of an open deal tile


def field_spell_mode(cards: dict) -> int:
    """FL: the match's cards ({dealer, chance, fate} slugs) as detail_rule's field_spell_mode."""
    return sum(place * (FANTASY_SLUGS[d].index(cards[deck]) + 1)
               for d, (deck, place) in enumerate(zip(DECKS, CARD_PLACES)))


def detail_rule_flags(variant: str, first_start: dict) -> dict:
    """The detail_rule entries naming the mode `variant` (the first hand's start_kyoku gives fantasy's cards)."""
    if variant == "fantasy":
        return {"field_spell_mode": field_spell_mode(first_start["cards"])}
    return {MODE_RULES[variant]: True} if variant in MODE_RULES else {}


def _bonus(run: int, runs, han) -> int:
    out = 0
    for threshold, value in zip(runs.tolist(), han.tolist()):
        if run >= threshold:
            out = value
    return out


class _Runs:
    """C: one seat's tsumogiri and hand-discard runs (current, longest), and those before its last discard."""

    def __init__(self, seat: int):
        self.seat = seat
        self.now = {True: 0, False: 0}
        self.best = {True: 0, False: 0}
        self.before = None

    def discard(self, tsumogiri: bool) -> None:
        self.before = (dict(self.now), dict(self.best))
        self.now[tsumogiri] += 1
        self.now[not tsumogiri] = 0
        self.best[tsumogiri] = max(self.best[tsumogiri], self.now[tsumogiri])

    def called(self) -> None:
        """The last discard was called: it leaves the runs (option count_called off)."""
        if self.before is not None:
            self.now, self.best = self.before

    def fields(self) -> dict:
        moqie, shouqie = self.best[True], self.best[False]
        return {"seat": self.seat, "moqie_count": moqie, "moqie_bonus": _bonus(moqie, TSUMOGIRI_RUNS, TSUMOGIRI_HAN),
                "shouqie_count": shouqie, "shouqie_bonus": _bonus(shouqie, HAND_RUNS, HAND_HAN)}


class _FateTiles:
    """F: one seat's plain and open copies (record names, 5mr for the red five) in hand and in its melds."""

    def __init__(self, tehai: list[str], shown: list[str]):
        self.open = Counter(shown)
        self.plain = Counter(tehai) - self.open
        self.melded_open = 0

    def gain(self, name: str) -> None:
        self.plain[name] += 1

    def give(self, name: str, is_open: bool | None = None) -> bool:
        """Give up a copy of `name` (open when `is_open`; None: a plain one first); was it open?"""
        if is_open is None:
            is_open = self.plain[name] == 0
        held = self.open if is_open else self.plain
        held[name] -= 1
        return is_open

    def bonus(self) -> int:
        return 1 + sum(self.open.values()) + self.melded_open


class ModeFields:
    """The side fields of one hand's records in mode `variant`, kept up to date event by event."""

    def __init__(self, variant: str, start: dict, count_called: bool = True):
        self.variant, self.count_called = variant, count_called
        tehais = start["tehais"]
        self.fate = [_FateTiles(tehais[s], start["fate_open"][s]) for s in range(4)] if variant == "fate" else None
        self.dealt = [Counter(h) for h in tehais]   # OD: start tiles not given up yet
        self.runs = [_Runs(s) for s in range(4)]
        self.strike = [None] * 4                     # SS: each seat's hun_zhi_yi_ji_info once it declares
        self.eye: dict | None = None

    # --- RecordNewRound ------------------------------------------------------------------------------------------
    def deal_tiles(self, start: dict, seat: int, tiles: list[str]) -> list[str]:
        """F: the seat's dealt tiles (and the dealer's first draw) with its open tiles first, marked `t`."""
        if self.variant != "fate":
            return tiles
        shown = start["fate_open"][seat]
        rest = list(tiles[:13])
        for name in shown:
            rest.remove(name)
        return [name + OPEN for name in shown] + rest + tiles[13:]

    def new_round(self, data: dict, dealt: list[list[str]], spell) -> None:
        """RecordNewRound's side fields; `dealt` the seats' start tiles, the dealer's with its first draw (the
        game shows those 14), `spell` writes a tile in the record's spelling."""
        if self.variant == "open-deal":
            self.dealt = [Counter(h) for h in dealt]
            counts = [sorted(Counter(spell(t) for t in dealt[s]).items()) for s in range(4)]
            data["opens"] = [{"seat": s, "tiles": [t for t, _ in counts[s]], "count": [n for _, n in counts[s]]}
                             for s in range(4)]
        if self.eye is not None:
            data["muyu"] = dict(self.eye)

    # --- events --------------------------------------------------------------------------------------------------
    def place_eye(self, e: dict) -> None:
        """DE: a new eye for seat e.actor with e.counter discards."""
        number = self.eye["id"] + 1 if self.eye else 1
        self.eye = {"id": number, "seat": e["actor"], "count": e["counter"], "count_max": e["counter"]}

    def drawn(self, data: dict, seat: int, name: str) -> None:
        if self.fate:
            self.fate[seat].gain(name)
        self._overload_others(data, seat)
        info = self.strike[seat]
        if info is not None and not info["overload"]:
            info["continue_deal_count"] = max(info["continue_deal_count"] - 1, 0)
            data["hun_zhi_yi_ji_info"] = dict(info)
        self._eye(data)

    def discarded(self, data: dict, e: dict, riichi: dict | None) -> None:
        seat, name = e["actor"], e["pai"]
        if self.fate and self.fate[seat].give(name, bool(e.get("open_tile"))):
            data["tile"] += OPEN
        if self.variant == "open-deal" and self.dealt[seat][name]:
            self.dealt[seat][name] -= 1
            data["tile_state"] = 1
        if self.variant == "chant":
            self.runs[seat].discard(bool(e["tsumogiri"]))
            data["yongchang"] = self.runs[seat].fields()
        if self.variant == "soul-strike":
            if riichi is not None:
                self.strike[seat] = {"seat": seat, "liqi": 2 if riichi.get("double") else 1,
                                     "continue_deal_count": STRIKE_TURNS, "overload": False}
            info = self.strike[seat]
            if info is not None and not info["overload"]:
                data["hun_zhi_yi_ji_info"] = dict(info)
        if self.eye is not None and self.eye["seat"] == seat:
            self.eye["count"] = max(self.eye["count"] - 1, 0)
        self._eye(data)

    def called(self, data: dict, e: dict) -> None:
        """A chi, pon or open kan of seat e.actor on the discard of e.target."""
        seat, giver = e["actor"], e["target"]
        if self.fate:
            for i, name in enumerate(e["consumed"]):
                if self.fate[seat].give(name):
                    self.fate[seat].melded_open += 1
                    data["tiles"][i] += OPEN
        if self.variant == "open-deal":
            data["tile_states"] = self._states(seat, e["consumed"])
        if self.variant == "chant":
            if not self.count_called:
                self.runs[giver].called()
            data["yongchang"] = self.runs[giver].fields()
        info = self.strike[giver]
        if info is not None and not info["overload"]:
            info["overload"] = True
            data["hun_zhi_yi_ji_info"] = dict(info)
        self._eye(data)

    def kan(self, data: dict, e: dict) -> None:
        """A closed or added kan of seat e.actor: its tiles' open marks and shown states."""
        seat = e["actor"]
        given = e["consumed"] if e["type"] == "ankan" else [e["pai"]]
        if self.fate:
            marks = [self.fate[seat].give(name) for name in given]
            self.fate[seat].melded_open += sum(marks)
            if any(marks):
                data["tiles"] += OPEN
        if self.variant == "open-deal":
            data["tile_states"] = self._states(seat, given)

    def fate_bonus(self, hule: dict, seat: int) -> None:
        if self.fate:
            hule["tianming_bonus"] = self.fate[seat].bonus()

    # --- helpers -------------------------------------------------------------------------------------------------
    def _states(self, seat: int, names: list[str]) -> list[int]:
        states = []
        for name in names:
            shown = self.dealt[seat][name] > 0
            self.dealt[seat][name] -= shown
            states.append(int(shown))
        return states

    def _overload_others(self, data: dict, seat: int) -> None:
        """SS: a draw by another seat overloads a declarer whose strike turns are used up."""
        for other, info in enumerate(self.strike):
            if other != seat and info is not None and not info["overload"] and info["continue_deal_count"] == 0:
                info["overload"] = True
                data["hun_zhi_yi_ji_info"] = dict(info)

    def _eye(self, data: dict) -> None:
        if self.eye is not None:
            data["muyu"] = dict(self.eye)
