"""Random winning riichi hands and the `mahjong` package as an independent oracle (R-3).

`random_win(rng)` builds a winning hand directly (sets + pair, seven pairs or thirteen orphans; open and
closed, with chi, pon and the three kinds of kan) with a legal random situation (winds, riichi, ippatsu,
last-tile / kan flags, first-draw wins, dora and ura indicators, red fives, honba, sticks).
`ours(hand)` scores it with sims.riichi.scoring, `theirs(hand)` with
`mahjong.hand_calculating.hand.HandCalculator` under the options equivalent to Mahjong Soul (R-3).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from tsumolab.sims.riichi.scoring_rules import ScoringRules
from tsumolab.sims.riichi.scoring import (FLAG_CHANKAN, FLAG_CHIIHOU, FLAG_HAITEI, FLAG_HOUTEI, FLAG_RINSHAN,
                                 FLAG_TENHOU, RES_FU, RES_HAN, RES_N_YAKU, RES_RECEIVED, RES_RON,
                                 RES_TOTAL, RES_TSUMO_DEALER, RES_TSUMO_OTHER, RES_YAKU, RES_YAKUMAN, SCORED,
                                 new_context, new_result, score_hand)
from tsumolab.sims.riichi.yaku import YAKU_NAMES
from tsumolab.sims.tiles import ANKAN, CHI, KAKAN, MINKAN, PON

ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
FIVES = (4, 13, 22)


@dataclass
class Hand:
    concealed: np.ndarray                      # int8[34], winning tile included
    melds: list[tuple[int, int]]               # (type, lowest kind)
    win: int
    tsumo: bool
    seat: int
    round: int
    riichi: int                                # 0 none, 1 riichi, 2 double riichi
    ippatsu: bool
    flags: int
    red: list[int]                             # per suit: a red five is held (in hand or melds)
    dora: list[int] = field(default_factory=list)
    ura: list[int] = field(default_factory=list)
    honba: int = 0
    sticks: int = 0

    @property
    def closed(self) -> bool:
        return all(t == ANKAN for t, _ in self.melds)


def _pool(rng: random.Random) -> list[int]:
    r = rng.random()
    suit = rng.randrange(3)
    if r < 0.25:
        return list(range(9 * suit, 9 * suit + 9)) + list(range(27, 34))   # honitsu-ish
    if r < 0.35:
        return list(range(9 * suit, 9 * suit + 9))                         # chinitsu-ish
    if r < 0.42:
        return ORPHANS                                                      # honroutou-ish
    if r < 0.47:
        return list(range(27, 34))                                          # all honors
    if r < 0.52:
        return [1, 2, 3, 5, 7, 10, 11, 12, 14, 16, 19, 20, 21, 23, 25]      # simples only
    if r < 0.55:
        return [19, 20, 21, 23, 25, 32]                                     # greens
    return list(range(34))


def _free_sets(rng: random.Random) -> tuple[list[tuple[bool, int]], int]:
    """Four random sets (is_sequence, lowest kind) and a pair from a random pool of kinds."""
    pool = _pool(rng)
    trip_p = rng.choice((0.05, 0.15, 0.4, 0.8))
    sets = []
    for _ in range(4):
        k = rng.choice(pool)
        seq_ok = k < 27 and k % 9 <= 6 and k + 1 in pool and k + 2 in pool
        sets.append((True, k) if seq_ok and rng.random() >= trip_p else (False, k))
    return sets, rng.choice(pool)


def _any_set(rng: random.Random) -> tuple[bool, int]:
    k = rng.randrange(34)
    return (True, k) if k < 27 and k % 9 <= 6 and rng.random() < 0.6 else (False, k)


def _patterned_sets(rng: random.Random) -> tuple[list[tuple[bool, int]], int]:
    """Sets aimed at the rarer yaku: sanshoku, sanshoku doukou, ittsu, junchan/chanta, pinfu shapes."""
    pattern = rng.randrange(5)
    if pattern == 0:  # sanshoku doujun
        r = rng.randrange(7)
        sets = [(True, 9 * s + r) for s in range(3)] + [_any_set(rng)]
        return sets, rng.randrange(34)
    if pattern == 1:  # sanshoku doukou
        r = rng.randrange(9)
        sets = [(False, 9 * s + r) for s in range(3)] + [_any_set(rng)]
        return sets, rng.randrange(34)
    if pattern == 2:  # ittsu
        s = 9 * rng.randrange(3)
        sets = [(True, s), (True, s + 3), (True, s + 6), _any_set(rng)]
        return sets, rng.randrange(34)
    if pattern == 3:  # junchan / chanta: every set and the pair holds a terminal or honor
        outside = ORPHANS if rng.random() < 0.5 else ORPHANS[:6]
        sets = []
        for _ in range(4):
            if rng.random() < 0.7:
                sets.append((True, 9 * rng.randrange(3) + rng.choice((0, 6))))
            else:
                sets.append((False, rng.choice(outside)))
        return sets, rng.choice(outside)
    # all sequences (pinfu, iipeikou, ryanpeikou shapes), a non-honor or guest-wind pair
    sets = [(True, 9 * rng.randrange(3) + rng.randrange(7)) for _ in range(4)]
    if rng.random() < 0.3:
        sets[1] = sets[0]
    return sets, rng.randrange(31)


def _chuuren(rng: random.Random) -> np.ndarray:
    s = 9 * rng.randrange(3)
    counts = np.zeros(34, np.int8)
    counts[s:s + 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    counts[s + rng.randrange(9)] += 1
    return counts


def _regular(rng: random.Random) -> tuple[np.ndarray, list[tuple[int, int]]] | None:
    sets, pair = _patterned_sets(rng) if rng.random() < 0.2 else _free_sets(rng)
    full = np.zeros(34, np.int64)
    for is_seq, k in sets:
        if is_seq:
            full[k:k + 3] += 1
        else:
            full[k] += 3
    full[pair] += 2
    n_melds = rng.choices((0, 1, 2, 3, 4), (5, 3, 2, 1, 0.5))[0]
    melds = []
    concealed = full.copy()
    for is_seq, k in sets[:n_melds]:
        if is_seq:
            melds.append((CHI, k))
            concealed[k:k + 3] -= 1
        else:
            t = rng.choices((PON, MINKAN, ANKAN, KAKAN), (5, 1, 1, 1))[0]
            melds.append((t, k))
            concealed[k] -= 3
            if t != PON:
                full[k] += 1
    if full.max() > 4:
        return None
    return concealed.astype(np.int8), melds


def _seven_pairs(rng: random.Random) -> np.ndarray:
    pool = _pool(rng)
    if len(pool) < 7:
        pool = list(range(34))
    counts = np.zeros(34, np.int8)
    counts[rng.sample(pool, 7)] = 2
    return counts


def _orphans(rng: random.Random) -> np.ndarray:
    counts = np.zeros(34, np.int8)
    counts[ORPHANS] = 1
    counts[rng.choice(ORPHANS)] += 1
    return counts


def random_win(rng: random.Random) -> Hand:
    """A random complete hand in a legal random situation (R-3, R-4)."""
    while True:
        r = rng.random()
        if r < 0.02:
            concealed, melds = _orphans(rng), []
        elif r < 0.025:
            concealed, melds = _chuuren(rng), []
        elif r < 0.12:
            concealed, melds = _seven_pairs(rng), []
        else:
            got = _regular(rng)
            if got is None:
                continue
            concealed, melds = got
        break
    held = np.flatnonzero(concealed)
    win = int(rng.choice(held.tolist()))
    tsumo = rng.random() < 0.5
    seat, rnd = rng.randrange(4), rng.choice((0, 0, 1, 1, 2, 3))
    dealer = seat == 0
    closed = all(t == ANKAN for t, _ in melds)
    has_kan = any(t in (MINKAN, ANKAN, KAKAN) for t, _ in melds)
    full = concealed.astype(np.int64)
    for t, k in melds:
        if t == CHI:
            full[k:k + 3] += 1
        else:
            full[k] += 3 if t == PON else 4
    flags = 0
    riichi = 0
    ippatsu = False
    if not melds and tsumo and rng.random() < 0.03:
        flags |= FLAG_TENHOU if dealer else FLAG_CHIIHOU
    else:
        if closed and rng.random() < 0.5:
            riichi = 2 if rng.random() < 0.1 else 1
            ippatsu = rng.random() < 0.2
        if tsumo:
            if has_kan and rng.random() < 0.2:
                flags |= FLAG_RINSHAN
            elif rng.random() < 0.1:
                flags |= FLAG_HAITEI
        else:
            if full[win] == 1 and rng.random() < 0.15:
                flags |= FLAG_CHANKAN
            elif rng.random() < 0.1:
                flags |= FLAG_HOUTEI
    red = [0, 0, 0]
    for s, five in enumerate(FIVES):
        if full[five] == 4 or (full[five] and rng.random() < 0.5):  # four fives include the red one
            red[s] = 1
    n_ind = 1 + sum(t in (MINKAN, ANKAN, KAKAN) for t, _ in melds)
    if rng.random() < 0.3:
        n_ind = min(5, n_ind + rng.randrange(3))
    dora = [rng.randrange(34) for _ in range(n_ind)]
    ura = [rng.randrange(34) for _ in range(n_ind)] if riichi else []
    return Hand(concealed, melds, win, tsumo, seat, rnd, riichi, ippatsu, flags, red, dora, ura,
                honba=rng.randrange(4), sticks=rng.randrange(3))


# ------------------------------------------------------------------------------------------------ ours

_OPTS = ScoringRules().to_array()


def ours(hand: Hand, opts: np.ndarray = _OPTS) -> dict | None:
    """Our score of `hand`: {han, fu, yakuman, total, received, main, additional, yaku} or None (no yaku)."""
    melds = np.zeros((4, 2), np.int8)
    for i, m in enumerate(hand.melds):
        melds[i] = m
    ctx = new_context(win=hand.win, tsumo=hand.tsumo, seat_wind=hand.seat, round_wind=hand.round,
                      riichi=hand.riichi, ippatsu=hand.ippatsu, flags=hand.flags, red=sum(hand.red),
                      honba=hand.honba, sticks=hand.sticks, dora=tuple(hand.dora), ura=tuple(hand.ura))
    out = new_result()
    if score_hand(hand.concealed, melds, len(hand.melds), ctx, opts, out) != SCORED:
        return None
    yaku = sorted((YAKU_NAMES[out[RES_YAKU + 2 * i]], int(out[RES_YAKU + 2 * i + 1]))
                  for i in range(out[RES_N_YAKU]))
    main = out[RES_RON] if not hand.tsumo else (out[RES_TSUMO_DEALER] or out[RES_TSUMO_OTHER])
    return {"han": int(out[RES_HAN]), "fu": int(out[RES_FU]), "yakuman": int(out[RES_YAKUMAN]),
            "total": int(out[RES_TOTAL]), "received": int(out[RES_RECEIVED]), "main": int(main),
            "additional": int(out[RES_TSUMO_OTHER]), "yaku": yaku}


# ---------------------------------------------------------------------------------------------- theirs

def _mahjong(**overrides):
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
    from mahjong.meld import Meld

    settings = dict(has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=True,
                    kazoe_limit=HandConstants.KAZOE_LIMITED, kiriage=False, fu_for_open_pinfu=True,
                    fu_for_pinfu_tsumo=False, renhou_as_yakuman=False, has_daisharin=False,
                    has_daisharin_other_suits=False, has_daichisei=False, has_sashikomi_yakuman=False,
                    limit_to_sextuple_yakuman=True, paarenchan_needs_yaku=True, is_three_player=False)
    settings.update(overrides)
    options = OptionalRules(**settings)
    return HandCalculator, HandConfig, Meld, options


def _tiles_136(hand: Hand):
    """136-format tiles of the hand (melds included), its melds and the winning tile. Copy 0 of a five
    is the red one in the package, so a red five takes copy 0 and plain fives start at copy 1."""
    used = [0] * 34
    red_left = list(hand.red)

    def take(k: int) -> int:
        if k in FIVES:
            s = FIVES.index(k)
            if red_left[s]:
                red_left[s] = 0
                return 4 * k
            used[k] = max(used[k], 1)
        idx = 4 * k + used[k]
        used[k] += 1
        return idx

    HandCalculator, HandConfig, Meld, options = _mahjong()
    meld_objs = []
    tiles = []
    for t, k in hand.melds:
        kinds = [k, k + 1, k + 2] if t == CHI else [k] * (3 if t == PON else 4)
        ts = [take(x) for x in kinds]
        tiles += ts
        mtype = {CHI: Meld.CHI, PON: Meld.PON, MINKAN: Meld.KAN, ANKAN: Meld.KAN, KAKAN: Meld.SHOUMINKAN}[t]
        meld_objs.append(Meld(meld_type=mtype, tiles=ts, opened=t != ANKAN))
    win_136 = None
    for k in range(34):
        for _ in range(int(hand.concealed[k])):
            idx = take(k)
            tiles.append(idx)
            if k == hand.win and win_136 is None:
                win_136 = idx
    return tiles, meld_objs, win_136


def theirs(hand: Hand, **option_overrides) -> dict | None:
    """The `mahjong` package's score of `hand` in the same shape as `ours`, or None when it finds no yaku.
    `option_overrides` change the package's OptionalRules (default: Mahjong Soul equivalents)."""
    HandCalculator, HandConfig, Meld, options = _mahjong(**option_overrides)
    tiles, meld_objs, win_136 = _tiles_136(hand)
    config = HandConfig(
        is_tsumo=hand.tsumo, is_riichi=hand.riichi == 1, is_daburu_riichi=hand.riichi == 2,
        is_ippatsu=hand.ippatsu, is_rinshan=bool(hand.flags & FLAG_RINSHAN),
        is_chankan=bool(hand.flags & FLAG_CHANKAN), is_haitei=bool(hand.flags & FLAG_HAITEI),
        is_houtei=bool(hand.flags & FLAG_HOUTEI), is_tenhou=bool(hand.flags & FLAG_TENHOU),
        is_chiihou=bool(hand.flags & FLAG_CHIIHOU), player_wind=27 + hand.seat, round_wind=27 + hand.round,
        tsumi_number=hand.honba, kyoutaku_number=hand.sticks, options=options)
    res = HandCalculator.estimate_hand_value(tiles, win_136, melds=meld_objs,
                                             dora_indicators=[4 * k for k in hand.dora],
                                             ura_dora_indicators=[4 * k for k in hand.ura], config=config)
    if res.error == "no_yaku":
        return None
    if res.error:
        raise AssertionError(f"mahjong package rejected the hand: {res.error} ({hand})")
    cost = res.cost
    yaku = sorted((y.name, (y.han_open if res.is_open_hand and y.han_open else y.han_closed)) for y in res.yaku)
    total = cost["main"] + 2 * cost["additional"] if hand.tsumo else cost["main"]
    yakuman = sum(y.han_closed // 13 for y in res.yaku if y.is_yakuman)
    return {"han": res.han, "fu": res.fu, "yakuman": yakuman, "total": total, "received": cost["total"],
            "main": cost["main"], "additional": cost["additional"], "yaku": yaku}
