"""Mahjong Soul game records (the client's protobuf decoded to JSON) → GameRecord.

The document is {"head": {uuid, config, accounts, result, ...}, "data": D}. D may be wrapped in any number of
{"name": ..., "data": ...} objects (.lq.GameDetailRecords); inside it holds either `actions` (version 210715 on:
the type-1 actions' `result` are the records, other actions are UI input and skipped) or `records` (older).
Every record is {"name": ".lq.RecordXxx", "data": {...}}; a field proto3 leaves out is 0 / false / empty.
Four-player riichi, shura (xuezhandaodi), the special modes advise supports and Bloodshed (chuanma, read by
analyzer.games.majsoul_bloodshed) are read (READ_MODES); other
modes, three-player games and records of unknown kinds are refused with one GameError line (its "record N" counts
the records from 0). head.config.mode.mode 2 is a south game, any other four-player mode (1 East, 3 / 4 one hand)
is written "east". detail_rule's init_point becomes the rule option start_points where it differs from the mode's
default.

The special modes' side fields (analyzer.games.writers.majsoul_modes describes them) become the words of the
position documents (analyzer.advise.riichi_position):
- dragon-eye `muyu` {id, seat, count}: an `eye` event {actor: seat, counter: count} where a new id first shows —
  right after start_kyoku for RecordNewRound's, right before the draw or call of a later record (DE);
- fate: the tiles suffixed `t` of RecordNewRound's tiles0..3 are start_kyoku's `fate_open` (4 per seat, in the
  record's order), a discarded tile suffixed `t` is a discard with `"open_tile": true` (F); elsewhere the suffix is
  dropped;
- open-deal: RecordNewRound's `opens`, when present, must show each seat's start tiles (13, or the dealer's 14
  with its first draw; OD);
- fantasy: detail_rule's field_spell_mode names the match's cards, the rule option `cards` (FL);
- dora-fever's first indicators are `dora` events after the dealer's first draw, as later ones (DF);
- mirror's transparent copies (marked `t`, and RecordNewRound's `paishan`), astrology's RecordFillAwaitingTiles
  and `tile_index`, darkness's RecordRevealTile / RecordUnveilTile / RecordLockTile and the pot in `liqibang`:
  analyzer.games.majsoul_sight (M, A, D);
- chant's `yongchang`, soul strike's `hun_zhi_yi_ji_info`, fate's `tianming_bonus`, open-deal's `tile_state(s)`
  and a call's `scores` are read past: they follow from the play, which the engine replays.
"""

from __future__ import annotations

import re
from collections import Counter

from tsumolab.analyzer.games.majsoul_sight import (
    DARK_COSTS, FIRST_DRAW, LOCK_KEPT, PoolReader, mirror_wall, split_tiles,
)
from tsumolab.analyzer.games.majsoul_walk import RecordWalker, ints
from tsumolab.analyzer.games.record import GameError, GameRecord

# detail_rule flags of the Mahjong Soul modes → tsumolab mode names; READ_MODES are read
MODE_FLAGS = {
    "xuezhandaodi": "shura", "chuanma": "bloodshed", "dora3_mode": "dora-fever", "begin_open_mode": "open-deal",
    "jiuchao_mode": "mirror", "muyu_mode": "dragon-eye", "reveal_discard": "darkness", "field_spell_mode": "fantasy",
    "zhanxing": "astrology", "tianming_mode": "fate", "yongchang_mode": "chant", "hunzhiyiji_mode": "soul-strike",
}
READ_MODES = ("riichi", "shura", "dora-fever", "chant", "soul-strike", "fate", "open-deal", "dragon-eye",
              "fantasy", "mirror", "astrology", "darkness", "bloodshed")
CARD_PLACES = (1, 100, 10000)   # FL: field_spell_mode's digit of the dealer, chance and fate card
OTHER_MODES = {"wanxiangxiuluo_mode": "ten-thousand-changes shura", "beishuizhizhan_mode": "last resort"}
# detail_rule options that change no event: read (init_point, dora_count) or ignored
RULE_OPTIONS = frozenset("""
    time_fixed time_add dora_count shiduan init_point fandian can_jifei tianbian_value liqibang_value changbang_value
    noting_fafu_1 noting_fafu_2 noting_fafu_3 have_liujumanguan have_qieshangmanguan have_biao_dora
    have_gang_biao_dora ming_dora_immediately_open have_li_dora have_gang_li_dora have_sifenglianda have_sigangsanle
    have_sijializhi have_jiuzhongjiupai have_sanjiahele have_toutiao have_helelianzhuang have_helezhongju
    have_tingpailianzhuang have_tingpaizhongju have_yifa have_nanruxiru jingsuanyuandian shunweima_2 shunweima_3
    shunweima_4 bianjietishi ai_level have_zimosun disable_multi_yukaman fanfu guyi_mode open_hand huansanzhang
    disable_leijiyiman disable_double_yakuman disable_composite_yakuman enable_shiti enable_nontsumo_liqi
    disable_double_wind_four_fu disable_angang_guoshi enable_renhe enable_baopai_extend_settings
""".split())
WINDS = "ESWN"
ABORTS = {1: "nine_terminals", 2: "four_winds", 3: "four_kans", 4: "four_riichi", 5: "three_wins"}
EXCHANGES = {0: ("next", 1), 1: ("across", 2), 2: ("prev", 3)}  # change_type: counter-clockwise, across, clockwise
TILE = re.compile(r"([0-9][mps]|[1-7]z)t?")  # 0m / 0p / 0s: the red fives; t: fate's open tile (F), mirror's clear (M)
OPEN = "t"
MARKED = ("fate", "mirror")   # the modes whose records mark tiles with t


def read_majsoul(doc: dict, title: str = "") -> GameRecord:
    """A decoded Mahjong Soul game record → GameRecord (see the module docstring for the layouts read)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("head"), dict) or "data" not in doc:
        raise GameError(f"{title or 'majsoul'}: not a Mahjong Soul record (needs head and data)")
    head = doc["head"]
    title = title or str(head.get("uuid", ""))
    try:
        mode = (head.get("config") or {}).get("mode") or {}
        variant = _variant(mode.get("detail_rule") or {}, int(mode.get("mode", 0) or 0), title)
        rules = _rules(mode.get("detail_rule") or {}, variant, title)
        names = ["", "", "", ""]
        for account in head.get("accounts") or []:
            seat = int(account.get("seat", 0) or 0)
            if 0 <= seat < 4:
                names[seat] = str(account.get("nickname", ""))
    except (AttributeError, TypeError, ValueError) as exc:
        raise GameError(f"{title}: malformed head ({type(exc).__name__}: {exc})") from None
    if variant == "bloodshed":
        from tsumolab.analyzer.games.majsoul_bloodshed import read_chuanma

        return GameRecord("majsoul", variant, read_chuanma(_records(doc["data"], title), title), tuple(names), rules,
                          "east", title)
    hands = _Reader(title, variant).read(_records(doc["data"], title))
    length = "south" if int(mode.get("mode", 0) or 0) % 10 == 2 else "east"
    return GameRecord("majsoul", variant, hands, tuple(names), rules, length, title)


def _variant(rule: dict, mode: int, title: str) -> str:
    if mode // 10 in (1, 2):
        raise GameError(f"{title}: three-player games (mode {mode}) are not read")
    found = [k for k, v in rule.items() if v and k in MODE_FLAGS]
    for k, v in rule.items():
        if v and k in OTHER_MODES:
            raise GameError(f"{title}: Mahjong Soul mode {OTHER_MODES[k]} ({k}) is not read")
        if v and k not in MODE_FLAGS and k not in RULE_OPTIONS:
            raise GameError(f"{title}: unknown Mahjong Soul rule {k} = {v!r} is not read")
    if len(found) > 1:
        raise GameError(f"{title}: Mahjong Soul modes {', '.join(sorted(found))} together are not read")
    return MODE_FLAGS[found[0]] if found else "riichi"


def _rules(rule: dict, variant: str, title: str) -> dict:
    """The rule options detail_rule sets that differ from the mode's defaults."""
    from tsumolab.sims.modes import get_mode

    if variant == "bloodshed":
        return _chuanma_rules(rule, title)
    out = {}
    if rule.get("init_point") and int(rule["init_point"]) != get_mode(variant).rules_class().start_points:
        out["start_points"] = int(rule["init_point"])
    if "dora_count" in rule and not rule["dora_count"]:
        out["red_fives"] = False
    if variant == "fantasy":
        out["cards"] = _cards(int(rule["field_spell_mode"]), title)
    return out


def _chuanma_rules(rule: dict, title: str) -> dict:
    """Bloodshed's rule options of a chuanma detail_rule: none can be set there; start points other than B-2's are
    refused."""
    from tsumolab.sims.bloodshed.rules import START_POINTS

    if rule.get("init_point") and int(rule["init_point"]) != START_POINTS:
        raise GameError(f"{title}: chuanma with init_point {rule['init_point']} is not read: Bloodshed starts at "
                        f"{START_POINTS} points (B-2)")
    return {}


def _cards(code: int, title: str) -> str:
    """FL: field_spell_mode (dealer + 100 · chance + 10000 · fate card, each 1..5) → the option `cards`."""
    from tsumolab.sims.riichi.fantasy_decks import FANTASY_SLUGS

    numbers = [code // place % 100 for place in CARD_PLACES]
    if not all(1 <= n <= len(deck) for n, deck in zip(numbers, FANTASY_SLUGS)):
        raise GameError(f"{title}: field_spell_mode {code} does not name a dealer, a chance and a fate card (1..5 "
                        "each)")
    return ",".join(deck[n - 1] for n, deck in zip(numbers, FANTASY_SLUGS))


def _records(data, title: str) -> list[tuple[str, dict]]:
    """(name, data) of every record, unwrapping {name, data} layers down to `actions` or `records`."""
    items = None
    for _ in range(8):
        if not isinstance(data, dict):
            break
        if isinstance(data.get("actions"), list):
            items = [a.get("result") for a in data["actions"] if isinstance(a, dict) and a.get("type") == 1]
            break
        if isinstance(data.get("records"), list):
            items = data["records"]
            break
        data = data.get("data")
    if items is None:
        raise GameError(f"{title}: no records found (expected data.actions or data.records)")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise GameError(f"{title}: record {i} is not a {{name, data}} object")
        out.append((item["name"].rsplit(".", 1)[-1], item.get("data") or {}))
    return out


class _Reader(RecordWalker):
    """Walks the records keeping each seat's concealed tiles, pons and scores, writing the events."""

    def __init__(self, title: str, variant: str):
        super().__init__(title)
        self.variant = variant
        self.pot = 0                 # D: the pot, followed from the record's first hand
        self.filled_liqi = None      # A: a `liqi` already taken on RecordFillAwaitingTiles (the editor repeats it)

    def handle(self, method, data: dict) -> None:
        """Around each record's own method: dragon-eye's `muyu`, the riichi stick a record accepts (`liqi`) and the
        dora indicators it shows."""
        if self.name != "RecordNewRound":
            self._eye(data.get("muyu"))
        liqi = data.get("liqi") if self.name != "RecordNewRound" else None
        if self.name == "RecordDealTile" and liqi is not None and liqi == self.filled_liqi:
            liqi = None   # A: the stick the pool's refill already took
        self.filled_liqi = liqi if self.name == "RecordFillAwaitingTiles" else None
        late = self.name.startswith("RecordHuleXueZhan")  # shura: the stick is paid after the win
        if isinstance(liqi, dict) and not late:
            self._accept(liqi)
        method(data)
        if isinstance(liqi, dict) and late:
            self._accept(liqi)
        self._doras(data.get("doras") or ([data["dora"]] if data.get("dora") else []))

    # --- helpers -------------------------------------------------------------------------------------------------
    def tile_name(self, name) -> str:
        """A record's tile in tsumolab's words: 0m / 0p / 0s are the red fives 5mr / 5pr / 5sr; fate's open mark
        `t` is dropped (is_open tells it)."""
        if not isinstance(name, str) or not TILE.fullmatch(name):
            self.fail(f"unknown tile {name!r}")
        if name.endswith(OPEN) and self.variant not in MARKED:
            self.fail(f"tile {name!r}: open deal tiles (t) belong to fate records (F), transparent tiles to mirror "
                      "records (M)")
        return f"5{name[1]}r" if name[0] == "0" else name[:2]

    @staticmethod
    def is_open(name) -> bool:
        return isinstance(name, str) and name.endswith(OPEN)

    def seat(self, data: dict, key: str = "seat") -> int:
        seat = int(data.get(key, 0) or 0)
        if not 0 <= seat < 4:
            self.fail(f"{key} {seat} is not a seat 0..3")
        return seat

    def take(self, seat: int, names: list[str], what: str):
        held = self.held[seat]
        need = Counter(names)
        if any(held[t] < n for t, n in need.items()):
            self.fail(f"seat {seat} {what} {' '.join(names)} but holds {' '.join(sorted(held.elements()))}")
        held.subtract(need)
        self.held[seat] = +held

    def of_kind(self, seat: int, name: str) -> list[str]:
        kind = name.rstrip("r")
        return [t for t in self.held[seat].elements() if t.rstrip("r") == kind]

    def _accept(self, liqi: dict):
        """`liqi` on a record: the latest riichi's stick is paid (not when `failed`: too few points)."""
        if liqi.get("failed"):
            return
        seat = self.seat(liqi)
        self.emit({"type": "reach_accepted", "actor": seat})
        self.scores[seat] = int(liqi.get("score", 0) or 0)

    def _eye(self, muyu) -> None:
        """DE: a `muyu` whose id is new places an eye: the `eye` event {actor, counter}."""
        if not isinstance(muyu, dict):
            return
        if self.variant != "dragon-eye":
            self.fail("a dragon eye (muyu) outside dragon-eye")
        number = int(muyu.get("id", 0) or 0)
        if number != self.eye_id:
            self.eye_id = number
            self.emit({"type": "eye", "actor": self.seat(muyu), "counter": int(muyu.get("count", 0) or 0)})

    def _doras(self, doras: list):
        for d in doras[len(self.doras):]:
            self.doras.append(self.tile_name(d))
            self.emit({"type": "dora", "dora_marker": self.doras[-1]})

    def _end(self, scores=None):
        self.emit({"type": "end_kyoku", "scores": ints(scores) if scores else list(self.scores)})
        self.over = True

    # --- records -------------------------------------------------------------------------------------------------
    def _RecordNewRound(self, d: dict):
        self._close()
        chang, ju, ben = (int(d.get(k, 0) or 0) for k in ("chang", "ju", "ben"))
        deals = [[self.tile_name(t) for t in d.get(f"tiles{s}") or []] for s in range(4)]
        self.events, self.over, self.kan, self.giver, self.doras, self.eye_id = [], False, -1, -1, [], None
        self.pons: list[list[list[str]]] = [[] for _ in range(4)]
        self.round = f"{WINDS[chang % 4]}{ju + 1}" + (f"-{ben}" if ben else "")
        if len(d.get("scores") or []) == 3 or not deals[3]:
            self.fail("three-player games are not read")
        if not 0 <= ju < 4 or len(deals[ju]) != 14 or any(len(h) != 13 for s, h in enumerate(deals) if s != ju):
            self.fail("the dealer needs 14 tiles and every other seat 13")
        self.scores = ints(d.get("scores"))
        self.held = [Counter(h) for h in deals]
        shown = [[self.tile_name(t) for t in d.get(f"tiles{s}") if self.is_open(t)] for s in range(4)]
        self.emit({"type": "start_kyoku", "hand": len(self.hands) + 1, "round": f"{WINDS[chang % 4]}{ju + 1}",
                   "bakaze": WINDS[chang % 4], "kyoku": ju + 1, "honba": ben,
                   "kyotaku": int(d.get("liqibang", 0) or 0), "oya": ju, "scores": list(self.scores),
                   "tehais": [h[:13] for h in deals]})
        doras = d.get("doras") or ([d["dora"]] if d.get("dora") else [])
        if doras:
            self.doras.append(self.tile_name(doras[0]))
            self.events[0]["dora_marker"] = self.doras[0]
        if self.variant == "fate":
            from tsumolab.sims.riichi.fate_tiles import OPEN_DEAL_TILES

            if any(len(s) != OPEN_DEAL_TILES for s in shown):
                self.fail(f"fate opens {OPEN_DEAL_TILES} dealt tiles per seat (F), marked t; the record marks "
                          f"{', '.join(str(len(s)) for s in shown)}")
            self.events[0]["fate_open"] = shown
        if d.get("opens"):
            self._check_opens(d["opens"], deals)
        if self.variant == "mirror":
            self._mirror_start(d, ju)
        if self.variant == "darkness":
            self._pot_start()
        self.pool = PoolReader() if self.variant == "astrology" else None
        self._eye(d.get("muyu"))
        self.emit({"type": "tsumo", "actor": ju, "pai": deals[ju][13], "rinshan": False})

    def _mirror_start(self, d: dict, dealer: int) -> None:
        """M: start_kyoku's mirror_tehais (the tiles marked t of each seat's 13) and mirror_wall (from the whole
        wall, `paishan`, its dealt part aside: the dealer's first draw is the 14th of its tiles, as everywhere)."""
        start = self.events[0]
        start["mirror_tehais"] = [[self.tile_name(t) for t in (d.get(f"tiles{s}") or [])[:13] if self.is_open(t)]
                                  for s in range(4)]
        wall = split_tiles(d.get("paishan") or "")
        if len(wall) != 136:
            self.fail(f"a mirror record shows where the transparent tiles lie (M): RecordNewRound needs the whole "
                      f"wall (paishan, 136 tiles), not {len(wall)}")
        wall[FIRST_DRAW] = d[f"tiles{dealer}"][13]   # the dealer's first draw, as the record's 14th tile says
        start["mirror_wall"] = mirror_wall(wall, lambda t: self.tile_name(t) if self.is_open(t) else None)

    def _pot_start(self) -> None:
        """D: the record's liqibang is the riichi sticks and the pot (in thousands): start_kyoku's kyotaku and pot."""
        start = self.events[0]
        sticks = start["kyotaku"] - self.pot // 1000
        if sticks < 0:
            self.fail(f"liqibang {start['kyotaku']} is less than the darkness pot {self.pot} carried (D)")
        start.update(kyotaku=sticks, pot=self.pot)

    def _check_opens(self, opens, tehais: list[list[str]]) -> None:
        """OD: `opens` shows each seat's start tiles ({seat, tiles, count}): its 13, or the dealer's 14 with its
        first draw. Other modes hold the entries empty ({seat} alone), or full with the room option open_hand
        (read past)."""
        if self.variant != "open-deal":
            return
        for entry in opens:
            if not isinstance(entry, dict) or not entry.get("tiles"):
                continue
            seat = self.seat(entry)
            shown = Counter()
            for name, n in zip(entry.get("tiles") or [], ints(entry.get("count"), len(entry.get("tiles") or []))):
                shown[self.tile_name(name)] += n
            if +shown not in (Counter(tehais[seat][:13]), Counter(tehais[seat])):
                self.fail(f"opens shows seat {seat} other tiles than its start hand")

    def _RecordChangeTile(self, d: dict):
        if self.variant != "shura":
            self.fail("an exchange of three outside shura")
        direction, step = EXCHANGES.get(int(d.get("change_type", 0) or 0), (None, 0))
        infos = d.get("change_tile_infos") or []
        if direction is None or len(infos) != 4:
            self.fail("needs change_tile_infos for 4 seats and change_type 0..2")
        self.events[0]["exchange_direction"] = direction
        outs = [[self.tile_name(t) for t in info.get("out_tiles") or []] for info in infos]
        for seat, out in enumerate(outs):
            target = (seat + step) % 4
            if len(out) != 3 or sorted(out) != sorted(self.tile_name(t) for t in infos[target].get("in_tiles") or []):
                self.fail(f"seat {seat} passes {out} but seat {target} receives other tiles")
            self.take(seat, out, "passes")
            self.emit({"type": "exchange", "actor": seat, "target": target, "pais": out})
        for seat, out in enumerate(outs):
            self.held[(seat + step) % 4].update(out)

    def _RecordDealTile(self, d: dict):
        seat, pai = self.seat(d), self.tile_name(d.get("tile"))
        self.held[seat][pai] += 1
        rinshan = self.kan == seat
        self.kan = -1
        # a closed kan's new indicator comes with the replacement draw: show it before the draw, as mjai does
        self._doras(d.get("doras") or [])
        event = {"type": "tsumo", "actor": seat, "pai": pai, "rinshan": rinshan}
        if self.pool is not None and self.pool.pool:   # A: a pick from the pool
            index = int(d.get("tile_index", 0) or 0)
            self._pool(lambda: self.pool.take(index, pai))
            event["pick"] = index
        if self.pool is not None:
            self.pool.drawn(rinshan)
        self.emit(event)

    def _RecordFillAwaitingTiles(self, d: dict):
        """A: the pool refilled for the draw of operation.seat: the candidates it adds."""
        if self.pool is None:
            self.fail("a pool of candidates (RecordFillAwaitingTiles) outside astrology (A)")
        seat = self.seat(d.get("operation") or {})
        tiles = [self.tile_name(t) for t in d.get("awaiting_tiles") or []]
        for event in self._pool(lambda: self.pool.fill(tiles, self.kan == seat)):
            self.emit(event)

    def _pool(self, action):
        try:
            return action()
        except ValueError as exc:
            self.fail(f"{exc} (A)")

    def _RecordRevealTile(self, d: dict):
        """D: a face-down discard and its payment into the pot."""
        self._dark_mode()
        self._RecordDiscardTile(d)
        self.events[-1]["face_down"] = True
        self._dark_pay("face_down", self.giver)

    def _RecordUnveilTile(self, d: dict):
        """D: a seat pays to open the face-down tile just discarded."""
        self._dark_pay("dark_open", self.seat(d))

    def _RecordLockTile(self, d: dict):
        """D: how the face-down tile ends: locked by its discarder (lock_state 1, paid), face up or unopened."""
        if int(d.get("lock_state", 0) or 0) == LOCK_KEPT:
            self._dark_pay("dark_lock", self.seat(d))

    def _dark_mode(self):
        if self.variant != "darkness":
            self.fail("a face-down discard outside darkness (D)")

    def _dark_pay(self, reason: str, payer: int) -> None:
        """D: `payer` pays into the pot for the face-down tile of the latest dahai."""
        self._dark_mode()
        dahai = next((e for e in reversed(self.events) if e["type"] == "dahai"), None)
        if dahai is None or not dahai.get("face_down"):
            self.fail(f"a {reason} payment needs a face-down discard before it (D)")
        amount = DARK_COSTS[reason]
        self.scores[payer] -= amount
        self.pot += amount
        self.emit({"type": "payment", "from": payer, "to": -1, "amount": amount, "reason": reason,
                   "pai": dahai["pai"]})

    def _RecordDiscardTile(self, d: dict):
        seat, pai = self.seat(d), self.tile_name(d.get("tile"))
        if d.get("is_liqi") or d.get("is_wliqi"):
            self.emit({"type": "reach", "actor": seat, "double": bool(d.get("is_wliqi"))})
        self.take(seat, [pai], "discards")
        self.giver = seat
        event = {"type": "dahai", "actor": seat, "pai": pai, "tsumogiri": bool(d.get("moqie"))}
        if self.variant == "fate" and self.is_open(d.get("tile")):
            event["open_tile"] = True
        self.emit(event)

    def _RecordChiPengGang(self, d: dict):
        seat, kind = self.seat(d), int(d.get("type", 0) or 0)
        tiles = [self.tile_name(t) for t in d.get("tiles") or []]
        froms = ints(d.get("froms"), len(tiles))
        called = [i for i, f in enumerate(froms) if f != seat]
        word = {0: "chi", 1: "pon", 2: "daiminkan"}.get(kind)
        if word is None or len(called) != 1 or len(tiles) != (4 if kind == 2 else 3) or not 0 <= froms[called[0]] < 4:
            self.fail(f"call type {kind} with tiles {tiles} from {froms} is not a chi, pon or open kan")
        i = called[0]
        consumed = tiles[:i] + tiles[i + 1:]
        self.take(seat, consumed, "calls with")
        if kind == 1:
            self.pons[seat].append(tiles)
        self.kan = seat if kind == 2 else -1
        self.emit({"type": word, "actor": seat, "target": froms[i], "pai": tiles[i], "consumed": consumed})

    def _RecordAnGangAddGang(self, d: dict):
        seat, kind = self.seat(d), int(d.get("type", 0) or 0)
        tile = d.get("tiles")
        pai = self.tile_name(tile[0] if isinstance(tile, list) and tile else tile)
        if kind == 3:
            consumed = self.of_kind(seat, pai)
            if len(consumed) != 4:
                self.fail(f"seat {seat} makes a closed kan of {pai} holding {len(consumed)} of them")
            self.take(seat, consumed, "makes a closed kan of")
            event = {"type": "ankan", "actor": seat, "pai": pai.rstrip("r"), "consumed": consumed}
        elif kind == 2:
            pon = next((p for p in self.pons[seat] if p[0].rstrip("r") == pai.rstrip("r")), None)
            if pon is None:
                self.fail(f"seat {seat} adds {pai} to a pon it does not have")
            if not self.held[seat][pai]:
                pai = (self.of_kind(seat, pai) or [pai])[0]  # the record may write the kind, not the copy
            self.take(seat, [pai], "adds to a pon")
            self.pons[seat].remove(pon)
            event = {"type": "kakan", "actor": seat, "pai": pai, "consumed": pon}
        else:
            self.fail(f"kan type {kind} is not 2 (added) or 3 (closed)")
        self.kan = self.giver = seat
        self.emit(event)

    def _hules(self, d: dict):
        hules = d.get("hules") or []
        if not hules:
            self.fail("a win record without hules")
        for n, h in enumerate(hules):
            seat, pai = self.seat(h), self.tile_name(h.get("hu_tile"))
            zimo = bool(h.get("zimo"))
            if zimo:
                self.take(seat, [pai], "wins by tsumo on")
            count = int(h.get("count", 0) or 0)
            event = {"type": "hora", "actor": seat, "target": seat if zimo else self.giver, "pai": pai,
                     "kind": "tsumo" if zimo else "ron", "han": 13 * count if h.get("yiman") else count,
                     "fu": int(h.get("fu", 0) or 0)}
            if h.get("yiman"):
                event["yakuman"] = count
            if h.get("li_doras"):
                event["ura_markers"] = [self.tile_name(t) for t in h["li_doras"]]
            if n == len(hules) - 1:  # the record's deltas, given once on its last win
                event["deltas"] = ints(d.get("delta_scores"))
                self.scores = [s + x for s, x in zip(self.scores, event["deltas"])]
            self.emit(event)

    def _RecordHule(self, d: dict):
        self._hules(d)
        self.pot = 0   # D: the winner takes the pot
        self._end(d.get("scores"))

    def _RecordHuleXueZhanMid(self, d: dict):
        if self.variant != "shura":
            self.fail("a shura win outside shura")
        self._hules(d)

    def _RecordHuleXueZhanEnd(self, d: dict):
        self._RecordHuleXueZhanMid(d)
        self._end(d.get("scores"))

    def _RecordNoTile(self, d: dict):
        deltas = [0] * 4
        for entry in d.get("scores") or []:
            deltas = [a + b for a, b in zip(deltas, ints(entry.get("delta_scores")))]
        self.scores = [s + x for s, x in zip(self.scores, deltas)]
        event = {"type": "ryukyoku", "reason": "exhaustive", "abortive": False, "deltas": deltas}
        if d.get("liujumanguan"):
            event["nagashi"] = True
        self.emit(event)
        self._end()

    def _RecordLiuJu(self, d: dict):
        kind = int(d.get("type", 0) or 0)
        if kind not in ABORTS:
            self.fail(f"abortive draw type {kind} is not 1..5")
        self.emit({"type": "ryukyoku", "reason": ABORTS[kind], "abortive": True, "deltas": [0] * 4})
        self._end()
