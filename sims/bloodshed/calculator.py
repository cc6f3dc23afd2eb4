"""Python edge of bloodshed scoring for the CLI: `tsumolab hand` (score_request) and `tsumolab settle`
(settle_request). Inputs are parsed JSON objects; every problem raises TileError (tiles, melds) or
ValueError (anything else) with a message naming the field.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tsumolab.sims.bloodshed.rules import BloodshedRules
from tsumolab.sims.bloodshed.scoring import (FIRST_DRAW, FLAG_NAMES, KAN_DISCARD, KAN_DRAW, LAST_TILE,
                                    P_GENERAL_PAIRS, P_PURE_TERMINALS, P_TERMINALS, P_TRIPLETS,
                                    PATTERN_NAMES, ROBBED_KAN, has_void_tile, score_detail)
from tsumolab.sims.calculator_input import check_keys, check_variant
from tsumolab.sims.bloodshed.settlement import (ROW_DAJIAO, ROW_PIG, ROW_REFUND, new_outputs,
                                       settle_exhaustive_draw)
from tsumolab.sims.tiles import N_KINDS, PON, TileError, parse_meld, parse_tile, parse_tiles, tile_name

VARIANT = "bloodshed"
SUIT_INDEX = {"m": 0, "p": 1, "s": 2}
WIN_SIZE = 14      # concealed + 3 x melds of a winning hand (a kan counts as 3)
WAITING_SIZE = 13  # the same for a hand waiting at the draw (B-20)

HAND_KEYS = {"variant", "hand", "melds", "win_tile", "tsumo", "void", "dealer", "flags", "rules"}
SETTLE_KEYS = {"variant", "players", "rules"}
PLAYER_KEYS = {"hand", "melds", "void", "won", "kan_income"}
KAN_INCOME_KEYS = {"from", "amount"}


def _bool(obj: dict, key: str, where: str, default: bool = False) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise ValueError(f"{where}: {key!r} must be true or false, got {value!r}")
    return value


def _rules(obj: dict, rules: BloodshedRules | None, where: str) -> BloodshedRules:
    if "rules" not in obj:
        return rules or BloodshedRules()
    if not isinstance(obj["rules"], dict):
        raise ValueError(f"{where}: 'rules' must be an object of rule options")
    base = (rules or BloodshedRules()).as_dict()
    return BloodshedRules.from_dict({**base, **obj["rules"]})


def _void(obj: dict, where: str) -> int:
    if "void" not in obj:
        raise ValueError(f"{where}: 'void' is required (the declared void suit, 'm', 'p' or 's')")
    void = obj["void"]
    if not isinstance(void, str) or void not in SUIT_INDEX:
        raise ValueError(f"{where}: 'void' must be 'm', 'p' or 's', got {void!r}")
    return SUIT_INDEX[void]


def _tiles(obj: dict, where: str) -> tuple[np.ndarray, np.ndarray]:
    """Parse 'hand' and 'melds' into (concealed int8[34], meld_type int8[34]), checking copies (<= 4)."""
    hand = obj.get("hand")
    if not isinstance(hand, str):
        raise ValueError(f"{where}: 'hand' must be a tile string such as '11122233344455m'")
    concealed, _ = parse_tiles(hand, allow_red=False, allow_honors=False)
    melds = obj.get("melds", [])
    if not isinstance(melds, list) or not all(isinstance(m, str) for m in melds):
        raise ValueError(f"{where}: 'melds' must be a list of strings such as 'pon 555p'")
    meld_type = np.zeros(N_KINDS, np.int8)
    copies = concealed.astype(np.int64)
    for text in melds:
        meld = parse_meld(text, allow_red=False, allow_honors=False, allow_chi=False)
        if meld_type[meld.tile]:
            raise TileError(f"{where}: two melds of {tile_name(meld.tile)}")
        meld_type[meld.tile] = meld.kind + 1
        copies += meld.counts
    over = np.nonzero(copies > 4)[0]
    if over.size:
        kind = int(over[0])
        raise TileError(f"{where}: {int(copies[kind])} copies of {tile_name(kind)} in hand and melds (at most 4)")
    return concealed, meld_type


def _hand_size(concealed: np.ndarray, meld_type: np.ndarray) -> int:
    return int(concealed.sum()) + 3 * int(np.count_nonzero(meld_type))


def _flags(obj: dict, tsumo: bool, meld_type: np.ndarray, where: str) -> int:
    names = obj.get("flags", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError(f"{where}: 'flags' must be a list of strings")
    unknown = [n for n in names if n not in FLAG_NAMES]
    if unknown:
        raise ValueError(f"{where}: unknown flag(s) {', '.join(unknown)} (allowed: {', '.join(FLAG_NAMES)})")
    flags = 0
    for name in names:
        flags |= FLAG_NAMES[name]
    has_kan = bool(np.any(meld_type > PON + 1))  # every meld code above PON + 1 is a kan
    problems = []
    if flags & KAN_DRAW and not tsumo:
        problems.append("kan_draw (杠上花) needs tsumo: true")
    if flags & KAN_DRAW and not has_kan:
        problems.append("kan_draw (杠上花) needs a kan among the melds")
    if flags & FIRST_DRAW and not tsumo:
        problems.append("first_draw (天和/地和) needs tsumo: true")
    if flags & FIRST_DRAW and np.any(meld_type):
        problems.append("first_draw (天和/地和) is impossible with melds")
    if flags & FIRST_DRAW and flags & (KAN_DRAW | LAST_TILE):
        problems.append("first_draw cannot come with kan_draw or last_tile")
    if flags & KAN_DISCARD and tsumo:
        problems.append("kan_discard (杠上炮) is a ron: tsumo must be false")
    if flags & ROBBED_KAN and tsumo:
        problems.append("robbed_kan (抢杠) is a ron: tsumo must be false")
    if flags & ROBBED_KAN and flags & (KAN_DISCARD | LAST_TILE):
        problems.append("robbed_kan cannot come with kan_discard or last_tile (a kan needs a tile left, B-9)")
    if problems:
        raise ValueError(f"{where}: inconsistent flags: {'; '.join(problems)}")
    return flags


def score_request(obj: dict, rules: BloodshedRules | None = None) -> dict:
    """Score one bloodshed hand for `tsumolab hand`.

    Input keys: "hand" (required; concealed tiles including the winning tile, e.g. "11122233344455m"),
    "void" (required; "m" | "p" | "s"), "melds" (list of "pon 555p", "kan 5555p", "ankan 5555p",
    "kakan 5555p"), "win_tile" (optional, must be in "hand"), "tsumo" (bool, default false), "dealer"
    (bool, default false), "flags" (subset of "kan_draw", "kan_discard", "robbed_kan", "last_tile",
    "first_draw"), "variant" (optional, must be "bloodshed"), "rules" (optional rule options, e.g.
    {"stack_known_bugs": true}, overriding `rules`). Concealed + 3 x melds must be 14 tiles.

    Returns one of:
      {"win": None, "reason": "void"}        a void-suit tile is in hand or melds (B-7)
      {"win": None, "reason": "incomplete"}  the tiles are not a complete hand (B-10)
      {"fan": int (capped, B-19), "raw_fan": int (uncapped), "pattern": str (B-19a name),
       "bonuses": {name: count} with only the non-zero ones of 根 杠上花 杠上炮 抢杠 海底捞月,
       "value": int (what a ron discarder pays), "tsumo_payment": int (per payer, only when tsumo),
       "stacked_pattern": "带幺九" | "对对和" (only when B-19c stacking applied)}
    """
    where = "hand"
    check_keys(obj, HAND_KEYS, where)
    check_variant(obj, VARIANT, where)
    rule_set = _rules(obj, rules, where)
    concealed, meld_type = _tiles(obj, where)
    void = _void(obj, where)
    tsumo = _bool(obj, "tsumo", where)
    dealer = _bool(obj, "dealer", where)
    size = _hand_size(concealed, meld_type)
    if size != WIN_SIZE:
        raise ValueError(f"{where}: a winning hand has 14 tiles counting each meld as 3, got {size}")
    if "win_tile" in obj:
        if not isinstance(obj["win_tile"], str):
            raise ValueError(f"{where}: 'win_tile' must be one tile such as '5p'")
        win_kind, _ = parse_tile(obj["win_tile"], allow_red=False, allow_honors=False)
        if concealed[win_kind] == 0:
            raise ValueError(f"{where}: win_tile {obj['win_tile']} is not in hand {obj['hand']!r}")
    else:
        win_kind = None
    flags = _flags(obj, tsumo, meld_type, where)
    if flags & ROBBED_KAN and win_kind is not None and concealed[win_kind] + 3 * (meld_type[win_kind] > 0) > 1:
        raise ValueError(f"{where}: robbed_kan on {tile_name(win_kind)}: the other three copies are in the "
                         f"robbed player's pon, so the hand can hold only the robbed one")

    if has_void_tile(concealed, meld_type, void):
        return {"win": None, "reason": "void"}
    detail = score_detail(concealed, meld_type, dealer, tsumo, flags, rule_set.to_array())
    if detail is None:
        return {"win": None, "reason": "incomplete"}
    result: dict[str, Any] = {
        "fan": detail["fan"],
        "raw_fan": detail["raw_fan"],
        "pattern": detail["pattern_name"],
        "bonuses": {name: n for name, n in detail["bonuses"].items() if n},
        "value": detail["value"],
    }
    if tsumo:
        result["tsumo_payment"] = detail["tsumo_payment"]
    if detail["stacked"]:
        stacked_on = {P_PURE_TERMINALS: P_TERMINALS, P_GENERAL_PAIRS: P_TRIPLETS}[detail["pattern"]]
        result["stacked_pattern"] = PATTERN_NAMES[stacked_on]
    return result


def _kan_income(player: dict, seat: int, where: str) -> dict[int, int]:
    entries = player.get("kan_income", [])
    if not isinstance(entries, list):
        raise ValueError(f"{where}: 'kan_income' must be a list of {{\"from\": seat, \"amount\": points}}")
    income: dict[int, int] = {}
    for i, entry in enumerate(entries):
        at = f"{where}.kan_income[{i}]"
        check_keys(entry, KAN_INCOME_KEYS, at)
        payer, amount = entry.get("from"), entry.get("amount")
        if not isinstance(payer, int) or isinstance(payer, bool) or not 0 <= payer <= 3:
            raise ValueError(f"{at}: 'from' must be a seat 0..3, got {payer!r}")
        if payer == seat:
            raise ValueError(f"{at}: a player cannot receive kan income from themselves")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise ValueError(f"{at}: 'amount' must be a positive integer, got {amount!r}")
        income[payer] = income.get(payer, 0) + amount
    return income


def settle_request(obj: dict, rules: BloodshedRules | None = None) -> dict:
    """Exhaustive-draw settlement for `tsumolab settle --variant bloodshed` (B-20 … B-23).

    Input: {"players": [exactly four objects in seat order], "variant": optional "bloodshed",
    "rules": optional rule options}. Player keys: "hand" (concealed tiles; required unless won),
    "melds" (list as in score_request), "void" ("m" | "p" | "s"; required unless won), "won" (bool,
    default false), "kan_income" (list of {"from": seat, "amount": points} received from kans this
    hand). A non-won player's concealed + 3 x melds must be 13 tiles; no kind may exceed 4 copies over
    the four players.

    Returns {"deltas": [4 ints], "tenpai": [4 bools], "flower_pig": [4 bools], "max_value": [4 ints],
    "breakdown": {"refund": [4 ints], "flower_pig": [4 ints], "dajiao": [4 ints]}} (net points per seat
    of B-21, B-22 and B-23; "deltas" is their sum). Won players are never tenpai nor flower pigs.
    """
    check_keys(obj, SETTLE_KEYS, "settle")
    check_variant(obj, VARIANT, "settle")
    rule_set = _rules(obj, rules, "settle")
    players = obj.get("players")
    if not isinstance(players, list) or len(players) != 4:
        got = len(players) if isinstance(players, list) else type(players).__name__
        raise ValueError(f"settle: 'players' must be a list of exactly 4 players, got {got}")
    concealed = np.zeros((4, N_KINDS), np.int8)
    meld_type = np.zeros((4, N_KINDS), np.int8)
    void = np.zeros(4, np.int64)
    won = np.zeros(4, np.bool_)
    ledger = np.zeros((4, 4), np.int64)
    for seat, player in enumerate(players):
        where = f"players[{seat}]"
        check_keys(player, PLAYER_KEYS, where)
        won[seat] = _bool(player, "won", where)
        if won[seat] and "hand" not in player:
            if player.get("melds"):
                raise ValueError(f"{where}: 'melds' given without 'hand'")
        else:
            concealed[seat], meld_type[seat] = _tiles(player, where)
            size = _hand_size(concealed[seat], meld_type[seat])
            if not won[seat] and size != WAITING_SIZE:
                raise ValueError(f"{where}: a non-won player holds 13 tiles counting each meld as 3, got {size}")
        if won[seat] and "void" not in player:
            void[seat] = 0
        else:
            void[seat] = _void(player, where)
        for payer, amount in _kan_income(player, seat, where).items():
            ledger[seat, payer] = amount
    meld_copies = np.where(meld_type == PON + 1, 3, np.where(meld_type > PON + 1, 4, 0))
    copies = concealed.sum(axis=0, dtype=np.int64) + meld_copies.sum(axis=0)
    over = np.nonzero(copies > 4)[0]
    if over.size:
        kind = int(over[0])
        raise TileError(f"settle: {int(copies[kind])} copies of {tile_name(kind)} over the four players (at most 4)")

    deltas, tenpai, pig, max_value, breakdown = new_outputs()
    settle_exhaustive_draw(concealed, meld_type, void, won, ledger, rule_set.to_array(),
                           deltas, tenpai, pig, max_value, breakdown)
    return {
        "deltas": [int(x) for x in deltas],
        "tenpai": [bool(x) for x in tenpai],
        "flower_pig": [bool(x) for x in pig],
        "max_value": [int(x) for x in max_value],
        "breakdown": {
            "refund": [int(x) for x in breakdown[ROW_REFUND]],
            "flower_pig": [int(x) for x in breakdown[ROW_PIG]],
            "dajiao": [int(x) for x in breakdown[ROW_DAJIAO]],
        },
    }
