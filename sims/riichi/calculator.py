"""Python edge of riichi scoring for `tsumolab hand` (RULES.md R-3, R-4 win situations).

`score_request(obj)` validates one parsed JSON object, runs the compiled scorer and returns plain JSON
values. Every problem raises TileError (tiles, melds) or ValueError (anything else) naming the field.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tsumolab.sims.riichi.scoring_rules import ScoringRules
from tsumolab.sims.riichi.scoring import (CTX_DEALER, CTX_FLAGS, CTX_HONBA, CTX_IPPATSU, CTX_N_DORA, CTX_N_URA, CTX_RED,
                                 CTX_RIICHI, CTX_ROUND_WIND, CTX_SEAT_WIND, CTX_STICKS, CTX_TSUMO, CTX_WIN,
                                 CTX_DORA, CTX_URA, FLAG_CHANKAN, FLAG_CHIIHOU, FLAG_HAITEI, FLAG_HOUTEI,
                                 FLAG_NAMES, FLAG_RINSHAN, FLAG_TENHOU, LIMIT_NAMES, MAX_INDICATORS, N_CTX,
                                 NO_YAKU, RES_FU, RES_HAN, RES_HONBA, RES_LIMIT, RES_N_YAKU, RES_RECEIVED,
                                 RES_RON, RES_STICKS, RES_TOTAL, RES_TSUMO_DEALER, RES_TSUMO_OTHER, RES_WIN,
                                 RES_YAKU, RES_YAKUMAN, SCORED, new_result, score_hand)
from tsumolab.sims.calculator_input import check_keys, check_variant
from tsumolab.sims.riichi.yaku import YAKU_NAMES
from tsumolab.sims.tiles import ANKAN, CHI, N_KINDS, PON, TileError, parse_meld, parse_tile, parse_tiles, tile_name

VARIANT = "riichi"
WIN_SIZE = 14
HAND_KEYS = frozenset({"variant", "hand", "melds", "win_tile", "tsumo", "dealer", "round_wind", "seat_wind",
                       "riichi", "double_riichi", "ippatsu", "dora_indicators", "ura_indicators", "flags",
                       "honba", "sticks", "rules"})
RIICHI_ONLY_KEYS = frozenset({"round_wind", "seat_wind", "riichi", "double_riichi", "ippatsu",
                              "dora_indicators", "ura_indicators", "honba", "sticks"})
WINDS = {"E": 0, "S": 1, "W": 2, "N": 3, "1z": 0, "2z": 1, "3z": 2, "4z": 3}
BLOODSHED_FLAGS = frozenset({"kan_draw", "kan_discard", "robbed_kan", "last_tile", "first_draw"})


def check_flag_names(names: Any, where: str = "hand") -> int:
    """The FLAG_* bits of a list of riichi flag names; ValueError for anything else."""
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError(f"{where}: 'flags' must be a list of strings")
    flags = 0
    for name in names:
        if name not in FLAG_NAMES:
            hint = " (that flag is read only by the bloodshed scorer)" if name in BLOODSHED_FLAGS else ""
            raise ValueError(f"{where}: unknown riichi flag {name!r}{hint}; riichi flags: {', '.join(FLAG_NAMES)}")
        flags |= FLAG_NAMES[name]
    return flags


def parse_rules(obj: dict, rules: ScoringRules | None = None, where: str = "hand") -> ScoringRules:
    """`rules` overridden by the request's "rules" object, if any."""
    if "rules" not in obj:
        return rules or ScoringRules()
    if not isinstance(obj["rules"], dict):
        raise ValueError(f"{where}: 'rules' must be an object of rule options")
    return ScoringRules.from_dict({**(rules or ScoringRules()).as_dict(), **obj["rules"]})


def _bool(obj: dict, key: str, where: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f"{where}: {key!r} must be true or false, got {value!r}")
    return value


def _count(obj: dict, key: str, where: str) -> int:
    value = obj.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{where}: {key!r} must be a non-negative integer, got {value!r}")
    return value


def _wind(obj: dict, key: str, where: str) -> int | None:
    if key not in obj:
        return None
    value = obj[key]
    wind = WINDS.get(value.upper() if isinstance(value, str) and len(value) == 1 else value)
    if wind is None:
        raise ValueError(f"{where}: {key!r} must be one of E, S, W, N (or 1z..4z), got {value!r}")
    return wind


def _indicators(obj: dict, key: str, where: str) -> list[int]:
    """Indicator kinds from a tile string ("3m7z") or a list of tiles (["3m", "7z"])."""
    value = obj.get(key, [])
    if isinstance(value, str):
        counts, _ = parse_tiles(value)
        kinds = [k for k in range(N_KINDS) for _ in range(int(counts[k]))]
    elif isinstance(value, list) and all(isinstance(t, str) for t in value):
        kinds = [parse_tile(t)[0] for t in value]
    else:
        raise ValueError(f"{where}: {key!r} must be a tile string such as '3m7z' or a list of tiles")
    if len(kinds) > MAX_INDICATORS:
        raise ValueError(f"{where}: {key!r} holds {len(kinds)} indicators; at most {MAX_INDICATORS} (R-1)")
    return kinds


def _tiles(obj: dict, where: str) -> tuple[np.ndarray, np.ndarray, int, int, np.ndarray]:
    """(concealed int8[34], melds int8[4, 2], n_melds, red fives held, held counts incl. melds)."""
    hand = obj.get("hand")
    if not isinstance(hand, str):
        raise ValueError(f"{where}: 'hand' must be a tile string such as '123m456p789s11222z'")
    concealed, reds = parse_tiles(hand)
    texts = obj.get("melds", [])
    if not isinstance(texts, list) or not all(isinstance(m, str) for m in texts):
        raise ValueError(f"{where}: 'melds' must be a list of strings such as 'pon 555p' or 'chi 345m'")
    if len(texts) > 4:
        raise TileError(f"{where}: {len(texts)} melds: a hand has at most 4")
    melds = np.zeros((4, 2), np.int8)
    held = concealed.astype(np.int64)
    reds = reds.astype(np.int64)
    for i, text in enumerate(texts):
        meld = parse_meld(text)
        melds[i] = (meld.kind, meld.tile)
        held += meld.counts
        reds += meld.reds
    over = np.flatnonzero(held > 4)
    if over.size:
        raise TileError(f"{where}: more than four copies of {tile_name(int(over[0]))} in hand and melds")
    if np.any(reds > 1):
        raise TileError(f"{where}: more than one red five of a suit in hand and melds")
    return concealed, melds, len(texts), int(reds.sum()), held


def _check_situation(melds: np.ndarray, n_melds: int, held: np.ndarray, win: int, tsumo: bool,
                     dealer: bool, riichi: int, ippatsu: bool, flags: int, where: str) -> None:
    """R-4 win situations that cannot happen together raise ValueError."""
    types = [int(melds[i, 0]) for i in range(n_melds)]
    open_hand = any(t != ANKAN for t in types)
    has_kan = any(t not in (CHI, PON) for t in types)
    problems = []
    if riichi and open_hand:
        problems.append("riichi needs a closed hand (closed kans allowed)")
    if ippatsu and not riichi:
        problems.append("ippatsu needs riichi or double_riichi")
    if flags & FLAG_RINSHAN and not (tsumo and has_kan):
        problems.append("rinshan needs tsumo: true and a kan among the melds")
    if flags & FLAG_CHANKAN:
        if tsumo:
            problems.append("chankan is a ron: tsumo must be false")
        if win < 0:
            problems.append("chankan needs win_tile")
        elif held[win] != 1:
            problems.append(f"chankan on {tile_name(win)}: the other three copies are in the robbed kan, "
                            "so the hand holds only the robbed one")
    if flags & FLAG_HAITEI and not tsumo:
        problems.append("haitei needs tsumo: true")
    if flags & FLAG_HOUTEI and tsumo:
        problems.append("houtei is a ron: tsumo must be false")
    if flags & FLAG_HAITEI and flags & FLAG_RINSHAN:
        problems.append("haitei and rinshan cannot come together (a replacement tile is not the last draw)")
    if flags & FLAG_HOUTEI and flags & FLAG_CHANKAN:
        problems.append("houtei and chankan cannot come together")
    first = flags & (FLAG_TENHOU | FLAG_CHIIHOU)
    if first:
        name = "tenhou" if flags & FLAG_TENHOU else "chiihou"
        if flags & FLAG_TENHOU and flags & FLAG_CHIIHOU:
            problems.append("tenhou and chiihou cannot come together")
        if flags & FLAG_TENHOU and not dealer:
            problems.append("tenhou is the dealer's first draw: dealer must be true")
        if flags & FLAG_CHIIHOU and dealer:
            problems.append("chiihou is a non-dealer's first draw: dealer must be false")
        if not tsumo:
            problems.append(f"{name} needs tsumo: true")
        if n_melds:
            problems.append(f"{name} is impossible with melds")
        if riichi or ippatsu or flags & ~(FLAG_TENHOU | FLAG_CHIIHOU):
            problems.append(f"{name} cannot come with riichi, ippatsu or other flags")
    if problems:
        raise ValueError(f"{where}: inconsistent situation: {'; '.join(problems)}")


def score_request(obj: dict, rules: ScoringRules | None = None) -> dict:
    """Score one riichi hand for `tsumolab hand` (R-3).

    Input keys: "hand" (required; concealed tiles including the winning tile), "melds" (list of
    "chi 345m", "pon 555p", "kan 5555p" (open), "ankan 5555p", "kakan 5555p"), "win_tile" (optional; without
    it the held kind that scores best is taken), "tsumo", "dealer" (bools), "seat_wind", "round_wind"
    ("E" "S" "W" "N" or "1z".."4z"; round wind default E, seat wind default E for the dealer else S; the
    dealer is always East), "riichi", "double_riichi", "ippatsu" (bools), "dora_indicators",
    "ura_indicators" (tile string "3m7z" or list of tiles; at most 5; ura count only with riichi),
    "flags" (subset of rinshan, chankan, haitei, houtei, tenhou, chiihou), "honba", "sticks" (counts),
    "variant" (optional, must be "riichi"), "rules" (options of ScoringRules, overriding `rules`).
    Concealed + 3 × melds must be 14 tiles.

    Returns {"win": None, "reason": "incomplete" | "no_yaku"}, or
      {"han", "fu", "yaku": [[name, han], ...] (names of sims.riichi.yaku.YAKU_NAMES; dora, red fives and
       ura as "Dora", "Aka Dora", "Ura Dora"), "yakuman": multiplier (0 = none; kazoe yakuman is 0 with
       "limit": "kazoe yakuman"), "limit": "" | "mangan" | … | "yakuman", "total": points received
       without honba and sticks, "payments": ron {"discarder": total}; tsumo {"dealer": share,
       "non_dealer": share of each non-dealer} (a dealer's tsumo: only "non_dealer"),
       "honba": honba points per payer (300 × honba on ron, 100 × honba on tsumo), "sticks": 1000 × sticks,
       "received": total + all honba + sticks, "win_tile": the winning tile}.
    """
    where = "hand"
    check_keys(obj, HAND_KEYS, where)
    check_variant(obj, VARIANT, where)
    rule_set = parse_rules(obj, rules, where)
    concealed, melds, n_melds, red, held = _tiles(obj, where)
    size = int(concealed.sum()) + 3 * n_melds
    if size != WIN_SIZE:
        raise ValueError(f"{where}: a winning hand has 14 tiles counting each meld as 3, got {size}")
    win = -1
    if "win_tile" in obj:
        if not isinstance(obj["win_tile"], str):
            raise ValueError(f"{where}: 'win_tile' must be one tile such as '5p'")
        win, _ = parse_tile(obj["win_tile"])
        if concealed[win] == 0:
            raise TileError(f"{where}: win_tile {obj['win_tile']} is not in hand {obj['hand']!r}")
    tsumo = _bool(obj, "tsumo", where)
    seat = _wind(obj, "seat_wind", where)
    round_wind = _wind(obj, "round_wind", where) or 0
    if "dealer" in obj:
        dealer = _bool(obj, "dealer", where)
        if seat is None:
            seat = 0 if dealer else 1
        elif dealer != (seat == 0):
            raise ValueError(f"{where}: the dealer's seat wind is East: dealer={dealer} with seat_wind "
                             f"{obj['seat_wind']!r} is impossible")
    else:
        seat = 1 if seat is None else seat
        dealer = seat == 0
    riichi = 2 if _bool(obj, "double_riichi", where) else int(_bool(obj, "riichi", where))
    ippatsu = _bool(obj, "ippatsu", where)
    flags = check_flag_names(obj.get("flags", []), where)
    _check_situation(melds, n_melds, held, win, tsumo, dealer, riichi, ippatsu, flags, where)
    dora = _indicators(obj, "dora_indicators", where)
    ura = _indicators(obj, "ura_indicators", where)

    ctx = np.zeros(N_CTX, np.int64)
    ctx[CTX_WIN] = win
    ctx[CTX_TSUMO] = tsumo
    ctx[CTX_SEAT_WIND] = seat
    ctx[CTX_ROUND_WIND] = round_wind
    ctx[CTX_DEALER] = dealer
    ctx[CTX_RIICHI] = riichi
    ctx[CTX_IPPATSU] = ippatsu
    ctx[CTX_FLAGS] = flags
    ctx[CTX_RED] = red
    ctx[CTX_HONBA] = _count(obj, "honba", where)
    ctx[CTX_STICKS] = _count(obj, "sticks", where)
    ctx[CTX_N_DORA] = len(dora)
    ctx[CTX_N_URA] = len(ura)
    ctx[CTX_DORA:CTX_DORA + len(dora)] = dora
    ctx[CTX_URA:CTX_URA + len(ura)] = ura
    out = new_result()
    status = score_hand(concealed, melds, n_melds, ctx, rule_set.to_array(), out)
    if status != SCORED:
        return {"win": None, "reason": "no_yaku" if status == NO_YAKU else "incomplete"}
    res = out.tolist()
    total = res[RES_TOTAL]
    if not tsumo:
        pays = {"discarder": res[RES_RON]}
    elif dealer:
        pays = {"non_dealer": res[RES_TSUMO_OTHER]}
    else:
        pays = {"dealer": res[RES_TSUMO_DEALER], "non_dealer": res[RES_TSUMO_OTHER]}
    return {
        "han": res[RES_HAN],
        "fu": res[RES_FU],
        "yaku": [[YAKU_NAMES[res[RES_YAKU + 2 * i]], res[RES_YAKU + 2 * i + 1]] for i in range(res[RES_N_YAKU])],
        "yakuman": res[RES_YAKUMAN],
        "limit": LIMIT_NAMES[res[RES_LIMIT]],
        "total": total,
        "payments": pays,
        "honba": res[RES_HONBA],
        "sticks": res[RES_STICKS],
        "received": res[RES_RECEIVED],
        "win_tile": tile_name(res[RES_WIN]),
    }
