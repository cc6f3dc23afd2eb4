"""Compiled riichi scorer (RULES.md R-3, Mahjong Soul ranked rules): yaku, fu, han, limits and payments.

Inputs of `score_hand` (plain arrays, so the engine can call it from compiled code):
    concealed  int8[34]     concealed tiles, the winning tile included (modified during the call, restored)
    melds      int8[4, 2]   declared melds, rows 0..n_melds-1: (type, lowest kind), type = sims.tiles
                            CHI, PON, MINKAN (open kan), ANKAN (closed kan) or KAKAN (added kan); the lowest
                            kind of a chi is its first tile. A kan fills 3 of the 14 places.
    n_melds    int
    ctx        int64[N_CTX] the situation, indexed by the CTX_* constants (build it with `new_context`):
               CTX_WIN winning tile kind (-1: try every held kind and keep the best), CTX_TSUMO 0/1,
               CTX_SEAT_WIND / CTX_ROUND_WIND 0..3 = E S W N, CTX_DEALER 0/1, CTX_RIICHI 0 none /
               1 riichi / 2 double riichi, CTX_IPPATSU 0/1, CTX_FLAGS bits FLAG_* (rinshan, chankan,
               haitei, houtei, tenhou, chiihou), CTX_RED red fives held (hand + melds), CTX_HONBA,
               CTX_STICKS (riichi sticks on the table), CTX_N_DORA / CTX_N_URA and the indicator kinds
               at CTX_DORA / CTX_URA (at most MAX_INDICATORS each; the dora is the next kind: 9→1 in a
               suit, E→S→W→N→E, White→Green→Red→White; ura dora count only with riichi), CTX_CHANCE the
               fantasy (FL) chance card (0 none; CHANCE_*: 里世界, 三倍速, 金闪闪, 超断幺, 胜负手), whose
               han changes the scorer applies to every reading before limits and payments.
    opts       int64[N_OPTIONS] from `ScoringRules.to_array()`
    out        int64[N_RES] result, indexed by the RES_* constants:
               RES_HAN (a yakuman hand: 13 × multiplier), RES_FU (rounded up to 10; 25 chiitoitsu;
               0 kokushi), RES_YAKUMAN (multiplier, 0 = no yakuman; kazoe yakuman is 0 here and
               LIMIT_KAZOE in RES_LIMIT), RES_BASE (base points), RES_TOTAL (points the winner receives,
               honba and sticks excluded), RES_RON (discarder pays; 0 on tsumo), RES_TSUMO_DEALER (the
               dealer's share of a non-dealer tsumo), RES_TSUMO_OTHER (each non-dealer's share of a tsumo),
               RES_LIMIT (LIMIT_*), RES_HONBA (honba bonus per payer: 300 × honba on ron, 100 × honba
               from each payer on tsumo), RES_STICKS (1000 × sticks), RES_RECEIVED (total + all honba +
               sticks), RES_WIN (winning kind used), RES_N_YAKU and the (yaku id, han) pairs from RES_YAKU
               (ids of sims.riichi.yaku).
Returns SCORED, NOT_COMPLETE or NO_YAKU (complete, but no yaku: no win; `out` then holds zeros).

Of all readings of the hand (decompositions × the set the winning tile completed, seven pairs,
thirteen orphans) the one paying most wins; ties go to a yakuman, then to more han, then to more fu
(as the `mahjong` package breaks them).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tsumolab.sims.decompose import COL_N_SETS, COL_PAIR, MAX_DECOMPOSITIONS, N_COLS, SEQ_BASE, decompositions
from tsumolab.sims.riichi.scoring_rules import (OPT_DOUBLE_YAKUMAN, OPT_KAZOE_YAKUMAN, OPT_KIRIAGE_MANGAN,
                                                OPT_OPEN_TANYAO, OPT_RED_FIVES, OPT_YAKUMAN_STACKING)
from tsumolab.sims.riichi.yaku import (CHANKAN, CHIIHOU, CHIITOITSU, CHINITSU, CHINROUTOU, CHUN, CHUUREN,
                              DAISANGEN, DAISUUSHII, DORA, DOUBLE_RIICHI, HAITEI, HAKU, HAN_CLOSED, HAN_OPEN,
                              HATSU, HONITSU, HONROUTOU, HOUTEI, IIPEIKO, IPPATSU, ITTSU, JUNCHAN,
                              JUNSEI_CHUUREN, KOKUSHI, KOKUSHI_13, MAX_RESULT_YAKU, MENZEN_TSUMO, PINFU,
                              RIICHI, RINSHAN, ROUND_WIND_EAST, RYANPEIKOU, RYUUIISOU, SANANKOU, SANKANTSU,
                              SANSHOKU, SANSHOKU_DOUKOU, SEAT_WIND_EAST, SHOUSANGEN, SHOUSUUSHII, SUUANKOU,
                              SUUANKOU_TANKI, SUUKANTSU, TANYAO, TENHOU, TOITOI, TSUUIISOU,
                              YAKUMAN_MULT, CHANTAI)
from tsumolab.sims.tiles import ANKAN, CHI, PON
from tsumolab.sims.jit import allocates

# ------------------------------------------------------------------------------------------- context
CTX_WIN = 0
CTX_TSUMO = 1
CTX_SEAT_WIND = 2
CTX_ROUND_WIND = 3
CTX_DEALER = 4
CTX_RIICHI = 5
CTX_IPPATSU = 6
CTX_FLAGS = 7
CTX_RED = 8
CTX_HONBA = 9
CTX_STICKS = 10
CTX_N_DORA = 11
CTX_N_URA = 12
MAX_INDICATORS = 5
CTX_DORA = 13
CTX_URA = CTX_DORA + MAX_INDICATORS
CTX_CHANCE = CTX_URA + MAX_INDICATORS
N_CTX = CTX_CHANCE + 1

# FL fantasy chance cards (card code = index in sims.riichi.rules.FANTASY_DECKS + 1)
CHANCE_OTHERWORLD, CHANCE_TRIPLE_SPEED, CHANCE_GOLDEN, CHANCE_SUPER_TANYAO, CHANCE_SHOWDOWN = 1, 2, 3, 4, 5

FLAG_RINSHAN = 1
FLAG_CHANKAN = 2
FLAG_HAITEI = 4
FLAG_HOUTEI = 8
FLAG_TENHOU = 16
FLAG_CHIIHOU = 32
FLAG_NAMES = {"rinshan": FLAG_RINSHAN, "chankan": FLAG_CHANKAN, "haitei": FLAG_HAITEI,
              "houtei": FLAG_HOUTEI, "tenhou": FLAG_TENHOU, "chiihou": FLAG_CHIIHOU}

# -------------------------------------------------------------------------------------------- result
RES_HAN = 0
RES_FU = 1
RES_YAKUMAN = 2
RES_BASE = 3
RES_TOTAL = 4
RES_RON = 5
RES_TSUMO_DEALER = 6
RES_TSUMO_OTHER = 7
RES_LIMIT = 8
RES_HONBA = 9
RES_STICKS = 10
RES_RECEIVED = 11
RES_WIN = 12
RES_N_YAKU = 13
RES_YAKU = 14
N_RES = RES_YAKU + 2 * MAX_RESULT_YAKU

SCORED, NOT_COMPLETE, NO_YAKU = 0, 1, 2

LIMIT_NONE, LIMIT_MANGAN, LIMIT_HANEMAN, LIMIT_BAIMAN, LIMIT_SANBAIMAN, LIMIT_KAZOE, LIMIT_YAKUMAN = range(7)
LIMIT_NAMES = ("", "mangan", "haneman", "baiman", "sanbaiman", "kazoe yakuman", "yakuman")

# hand properties over all 14 tiles (melds included), independent of the decomposition
_ALL_SIMPLE = 1
_ALL_TERMINAL_HONOR = 2
_ALL_HONOR = 4
_ALL_TERMINAL = 8
_ALL_GREEN = 16
_ONE_SUIT = 32
_HAS_HONOR = 64

_GREEN = np.zeros(34, np.bool_)
_GREEN[[19, 20, 21, 23, 25, 32]] = True  # 2 3 4 6 8 sou, Green dragon
_ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], np.int64)
_CHUUREN_BASE = np.array([3, 1, 1, 1, 1, 1, 1, 1, 3], np.int64)


def new_context(win: int = -1, tsumo: bool = False, seat_wind: int = 0, round_wind: int = 0,
                dealer: bool | None = None, riichi: int = 0, ippatsu: bool = False, flags: int = 0,
                red: int = 0, honba: int = 0, sticks: int = 0, dora: tuple[int, ...] = (),
                ura: tuple[int, ...] = (), chance: int = 0) -> np.ndarray:
    """A filled int64[N_CTX] context for `score_hand` (dealer defaults to seat_wind == East; `chance` is the
    FL fantasy chance card code, 0 = none)."""
    if len(dora) > MAX_INDICATORS or len(ura) > MAX_INDICATORS:
        raise ValueError(f"at most {MAX_INDICATORS} dora and {MAX_INDICATORS} ura indicators")
    ctx = np.zeros(N_CTX, np.int64)
    ctx[CTX_WIN] = win
    ctx[CTX_TSUMO] = int(tsumo)
    ctx[CTX_SEAT_WIND] = seat_wind
    ctx[CTX_ROUND_WIND] = round_wind
    ctx[CTX_DEALER] = int(seat_wind == 0 if dealer is None else dealer)
    ctx[CTX_RIICHI] = riichi
    ctx[CTX_IPPATSU] = int(ippatsu)
    ctx[CTX_FLAGS] = flags
    ctx[CTX_RED] = red
    ctx[CTX_HONBA] = honba
    ctx[CTX_STICKS] = sticks
    ctx[CTX_N_DORA] = len(dora)
    ctx[CTX_N_URA] = len(ura)
    ctx[CTX_DORA:CTX_DORA + len(dora)] = dora
    ctx[CTX_URA:CTX_URA + len(ura)] = ura
    ctx[CTX_CHANCE] = chance
    return ctx


def new_result() -> np.ndarray:
    """A result buffer for `score_hand`."""
    return np.zeros(N_RES, np.int64)


# ------------------------------------------------------------------------------------------- helpers

@njit(cache=True)
def _terminal_or_honor(k):
    return k >= 27 or k % 9 == 0 or k % 9 == 8


@njit(cache=True)
def dora_of(indicator):
    """Dora kind shown by an indicator kind (9→1 in a suit, N→E, Red→White); jit-compiled."""
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator < 31:
        return 27 + (indicator - 26) % 4
    return 31 + (indicator - 30) % 3


@njit(cache=True, inline="always")
def _hand_props(full):
    props = _ALL_SIMPLE | _ALL_TERMINAL_HONOR | _ALL_HONOR | _ALL_TERMINAL | _ALL_GREEN
    suits = 0
    for k in range(34):
        if full[k] == 0:
            continue
        if _terminal_or_honor(k):
            props &= ~_ALL_SIMPLE
        else:
            props &= ~(_ALL_TERMINAL_HONOR | _ALL_TERMINAL)
        if k < 27:
            props &= ~_ALL_HONOR
            suits |= 1 << (k // 9)
        else:
            props &= ~_ALL_TERMINAL
            props |= _HAS_HONOR
        if not _GREEN[k]:
            props &= ~_ALL_GREEN
    if suits == 1 or suits == 2 or suits == 4:
        props |= _ONE_SUIT
    if props & _ALL_HONOR:
        props &= ~_ALL_TERMINAL
    return props


@njit(cache=True)
def _ceil100(x):
    return (x + 99) // 100 * 100


@njit(cache=True)
def base_points(han, fu, yakuman, opts):
    """(base points, LIMIT_*) of han/fu, or of a yakuman multiplier > 0 (R-3 limits); jit-compiled."""
    if yakuman > 0:
        return 8000 * yakuman, LIMIT_YAKUMAN
    if han >= 13 and opts[OPT_KAZOE_YAKUMAN]:
        return 8000, LIMIT_KAZOE
    if han >= 11:
        return 6000, LIMIT_SANBAIMAN
    if han >= 8:
        return 4000, LIMIT_BAIMAN
    if han >= 6:
        return 3000, LIMIT_HANEMAN
    if han >= 5:
        return 2000, LIMIT_MANGAN
    base = fu << (han + 2)
    if base > 2000 or (opts[OPT_KIRIAGE_MANGAN] and ((han == 4 and fu == 30) or (han == 3 and fu == 60))):
        return 2000, LIMIT_MANGAN
    return base, LIMIT_NONE


@njit(cache=True)
def payments(base, dealer, tsumo):
    """(total, ron, tsumo_dealer, tsumo_other) of base points, each payment rounded up to 100; jit-compiled.

    Ron: the discarder pays 6 × base (dealer winner) or 4 × base. Tsumo: every non-dealer pays 2 × base
    to a dealer, or base to a non-dealer whose tsumo the dealer pays 2 × base of."""
    if not tsumo:
        ron = _ceil100(base * (6 if dealer else 4))
        return ron, ron, 0, 0
    if dealer:
        other = _ceil100(2 * base)
        return 3 * other, 0, 0, other
    dealer_pay = _ceil100(2 * base)
    other = _ceil100(base)
    return dealer_pay + 2 * other, 0, dealer_pay, other


@njit(cache=True, inline="always")
def _add(yk, n, yaku, han):
    yk[n, 0] = yaku
    yk[n, 1] = han
    return n + 1


@njit(cache=True, inline="always")
def _add_if(yk, n, cond, yaku, han):
    """_add when `cond` holds."""
    if cond:
        return _add(yk, n, yaku, han)
    return n


@njit(cache=True, inline="always")
def _yakuman_total(yk, n, opts):
    """Yakuman multiplier of the yakuman entries yk[:n] (R-3: stacking, double yakuman), and their han."""
    total = 0
    best = 0
    for i in range(n):
        m = YAKUMAN_MULT[yk[i, 0]]
        if m == 2 and not opts[OPT_DOUBLE_YAKUMAN]:
            m = 1
        yk[i, 1] = 13 * m
        total += m
        best = max(best, m)
    return total if opts[OPT_YAKUMAN_STACKING] else best


@njit(cache=True, inline="always")
def _situational(yk, n, ctx, closed, tsumo):
    riichi = ctx[CTX_RIICHI]
    if riichi == 2:
        n = _add(yk, n, DOUBLE_RIICHI, 2)
    elif riichi == 1:
        n = _add(yk, n, RIICHI, 1)
    n = _add_if(yk, n, ctx[CTX_IPPATSU], IPPATSU, 1)
    n = _add_if(yk, n, closed and tsumo, MENZEN_TSUMO, 1)
    flags = ctx[CTX_FLAGS]
    n = _add_if(yk, n, flags & FLAG_RINSHAN, RINSHAN, 1)
    n = _add_if(yk, n, flags & FLAG_CHANKAN, CHANKAN, 1)
    n = _add_if(yk, n, flags & FLAG_HAITEI, HAITEI, 1)
    return _add_if(yk, n, flags & FLAG_HOUTEI, HOUTEI, 1)


@njit(cache=True, inline="always")
def _first_draw_yakuman(yk, n, ctx):
    n = _add_if(yk, n, ctx[CTX_FLAGS] & FLAG_TENHOU, TENHOU, 0)
    return _add_if(yk, n, ctx[CTX_FLAGS] & FLAG_CHIIHOU, CHIIHOU, 0)


@njit(cache=True, inline="always")
def _han_of(yk, n, closed):
    han = 0
    for i in range(n):
        h = HAN_CLOSED[yk[i, 0]] if closed else HAN_OPEN[yk[i, 0]]
        yk[i, 1] = h
        han += h
    return han


# ------------------------------------------------------------------------------ FL fantasy chance cards

@njit(cache=True)
def chance_dora(extra, full, ctx):
    """FL chance cards on the dora counts `extra` (dora, red fives, ura) of the hand `full` (melds included):
    金闪闪 every face-up indicator kind is a dora too; 里世界 a riichi win ignores the face-up dora (red fives
    still count) and counts ura dora twice. Jit-compiled."""
    card = ctx[CTX_CHANCE]
    if card == CHANCE_GOLDEN:
        for i in range(ctx[CTX_N_DORA]):
            extra[0] += full[ctx[CTX_DORA + i]]
    elif card == CHANCE_OTHERWORLD and ctx[CTX_RIICHI] > 0:
        extra[0] = 0
        extra[2] *= 2


@njit(cache=True)
def chance_han(yk, n, han, card):
    """FL chance cards on the yaku han of one reading yk[:n] (entries updated): 超断幺 tanyao is 3 han; 胜负手
    riichi 2, ippatsu 2, double riichi 4. Returns the new han. Jit-compiled."""
    for i in range(n):
        y = yk[i, 0]
        new = yk[i, 1]
        if card == CHANCE_SUPER_TANYAO and y == TANYAO:
            new = 3
        elif card == CHANCE_SHOWDOWN:
            if y == RIICHI or y == IPPATSU:
                new = 2
            elif y == DOUBLE_RIICHI:
                new = 4
        han += new - yk[i, 1]
        yk[i, 1] = new
    return han


# --------------------------------------------------------------------------------------- hand shapes

@njit(cache=True, inline="always")
def _sets_of(pair, sk, sseq, sopen, skan, win_slot, tsumo):
    """Counts over the four sets: (sequences, kans, concealed triplets, dragon sets, wind sets, the sets' fu,
    whether the pair and every set hold a terminal or honor)."""
    n_seq = 0
    n_kan = 0
    n_ankou = 0
    n_dragon = 0
    n_wind = 0
    set_fu = 0
    outside = _terminal_or_honor(pair)
    for i in range(4):
        k = sk[i]
        if sseq[i]:
            n_seq += 1
            if k % 9 != 0 and k % 9 != 6:
                outside = False
            continue
        concealed_set = not sopen[i] and not (i == win_slot and not tsumo)  # a ron completes it from outside
        if concealed_set:
            n_ankou += 1
        if skan[i]:
            n_kan += 1
        if k >= 31:
            n_dragon += 1
        elif k >= 27:
            n_wind += 1
        f = 2
        if _terminal_or_honor(k):
            f *= 2
        else:
            outside = False
        if concealed_set:
            f *= 2
        if skan[i]:
            f *= 4
        set_fu += f
    return n_seq, n_kan, n_ankou, n_dragon, n_wind, set_fu, outside


@njit(cache=True, inline="always")
def _fu_of(pair, sk, sseq, win_slot, win, seat, rnd, n_seq, set_fu, closed, tsumo):
    """(fu, pinfu) of a regular reading whose sets are worth `set_fu`."""
    wait_fu = 0
    two_sided = False
    if win_slot < 0:
        wait_fu = 2  # pair wait
    elif sseq[win_slot]:
        pos = win - sk[win_slot]
        rank = sk[win_slot] % 9
        if pos == 1 or (pos == 2 and rank == 0) or (pos == 0 and rank == 6):
            wait_fu = 2  # closed or edge wait
        else:
            two_sided = True
    pair_fu = 0
    if pair >= 31:
        pair_fu = 2
    if pair == seat:
        pair_fu += 2
    if pair == rnd:
        pair_fu += 2  # a double wind pair is 4 fu
    pinfu = closed and n_seq == 4 and pair_fu == 0 and two_sided
    if pinfu:
        return (20 if tsumo else 30), pinfu
    fu = 20 + wait_fu + pair_fu + set_fu
    if tsumo:
        fu += 2
    elif closed:
        fu += 10
    if fu == 20:
        fu = 30  # open ron without fu (open pinfu shape)
    return (fu + 9) // 10 * 10, pinfu


@njit(cache=True, inline="always")
def _regular_yakuman(yk, pair, win_slot, win, concealed, n_melds, props, ctx, n_ankou, n_dragon, n_wind, n_kan):
    """The yakuman of a regular reading into yk; returns how many."""
    n = _add_if(yk, 0, n_ankou == 4, SUUANKOU_TANKI if win_slot < 0 else SUUANKOU, 0)
    n = _add_if(yk, n, n_dragon == 3, DAISANGEN, 0)
    if n_wind == 4:
        n = _add(yk, n, DAISUUSHII, 0)
    elif n_wind == 3 and 27 <= pair <= 30:
        n = _add(yk, n, SHOUSUUSHII, 0)
    n = _add_if(yk, n, props & _ALL_HONOR, TSUUIISOU, 0)
    n = _add_if(yk, n, props & _ALL_GREEN, RYUUIISOU, 0)
    n = _add_if(yk, n, props & _ALL_TERMINAL, CHINROUTOU, 0)
    n = _add_if(yk, n, n_kan == 4, SUUKANTSU, 0)
    if n_melds == 0 and props & _ONE_SUIT and not props & _HAS_HONOR:
        base = win - win % 9
        nine_gates = True
        for r in range(9):
            if concealed[base + r] < _CHUUREN_BASE[r]:
                nine_gates = False
        if nine_gates:
            pure = concealed[win] - 1 == _CHUUREN_BASE[win % 9]
            n = _add(yk, n, JUNSEI_CHUUREN if pure else CHUUREN, 0)
    return _first_draw_yakuman(yk, n, ctx)


@njit(cache=True, inline="always")
def _peikou(yk, n, sk, sseq):
    """Iipeiko or ryanpeikou (two pairs of identical sequences) of a closed reading."""
    peiko = 0
    used = 0
    for i in range(4):
        if not sseq[i] or used & (1 << i):
            continue
        for j in range(i + 1, 4):
            if sseq[j] and not used & (1 << j) and sk[j] == sk[i]:
                used |= (1 << i) | (1 << j)
                peiko += 1
                break
    if peiko >= 2:
        return _add(yk, n, RYANPEIKOU, 0)
    return _add_if(yk, n, peiko == 1, IIPEIKO, 0)


@njit(cache=True, inline="always")
def _honor_sets(yk, n, sk, sseq, seat, rnd, seq_ranks, trip_ranks):
    """Dragon and wind triplet yaku; fills seq_ranks / trip_ranks (per suit: bit r = a sequence from rank r /
    a triplet or kan of rank r)."""
    for i in range(4):
        k = sk[i]
        if sseq[i]:
            seq_ranks[k // 9] |= 1 << (k % 9)
            continue
        if k < 27:
            trip_ranks[k // 9] |= 1 << (k % 9)
        elif k == 31:
            n = _add(yk, n, HAKU, 0)
        elif k == 32:
            n = _add(yk, n, HATSU, 0)
        elif k == 33:
            n = _add(yk, n, CHUN, 0)
        n = _add_if(yk, n, k == seat, SEAT_WIND_EAST + k - 27, 0)
        n = _add_if(yk, n, k == rnd, ROUND_WIND_EAST + k - 27, 0)
    return n


@njit(cache=True, inline="always")
def _regular(pair, sk, sseq, sopen, skan, win_slot, win, concealed, n_melds, props, ctx, opts, closed, yk):
    """Yaku and fu of one reading: pair, four sets (kind, sequence?, open?, kan?) and the slot the
    winning tile completed (-1 = the pair, else a concealed set). Returns (n yaku, han, fu, yakuman)."""
    tsumo = ctx[CTX_TSUMO] != 0
    seat = 27 + ctx[CTX_SEAT_WIND]
    rnd = 27 + ctx[CTX_ROUND_WIND]
    n_seq, n_kan, n_ankou, n_dragon, n_wind, set_fu, outside = _sets_of(pair, sk, sseq, sopen, skan, win_slot, tsumo)
    fu, pinfu = _fu_of(pair, sk, sseq, win_slot, win, seat, rnd, n_seq, set_fu, closed, tsumo)
    n = _regular_yakuman(yk, pair, win_slot, win, concealed, n_melds, props, ctx, n_ankou, n_dragon, n_wind, n_kan)
    if n > 0:
        mult = _yakuman_total(yk, n, opts)
        return n, 13 * mult, fu, mult

    n = _situational(yk, n, ctx, closed, tsumo)
    n = _add_if(yk, n, pinfu, PINFU, 0)
    n = _add_if(yk, n, (props & _ALL_SIMPLE) != 0 and (closed or opts[OPT_OPEN_TANYAO] != 0), TANYAO, 0)
    if closed and n_seq >= 2:
        n = _peikou(yk, n, sk, sseq)
    seq_ranks = np.zeros(3, np.int64)
    trip_ranks = np.zeros(3, np.int64)
    n = _honor_sets(yk, n, sk, sseq, seat, rnd, seq_ranks, trip_ranks)
    n = _add_if(yk, n, seq_ranks[0] & seq_ranks[1] & seq_ranks[2], SANSHOKU, 0)
    for s in range(3):
        n = _add_if(yk, n, seq_ranks[s] & 0b1001001 == 0b1001001, ITTSU, 0)
    n = _add_if(yk, n, outside and n_seq > 0, CHANTAI if props & _HAS_HONOR else JUNCHAN, 0)
    if n_seq == 0:
        n = _add_if(yk, n, props & _ALL_TERMINAL_HONOR, HONROUTOU, 0)
        n = _add(yk, n, TOITOI, 0)
    n = _add_if(yk, n, n_ankou == 3, SANANKOU, 0)
    n = _add_if(yk, n, n_kan == 3, SANKANTSU, 0)
    n = _add_if(yk, n, trip_ranks[0] & trip_ranks[1] & trip_ranks[2], SANSHOKU_DOUKOU, 0)
    n = _add_if(yk, n, n_dragon == 2 and pair >= 31, SHOUSANGEN, 0)
    n = _add_if(yk, n, props & _ONE_SUIT, HONITSU if props & _HAS_HONOR else CHINITSU, 0)
    return n, _han_of(yk, n, closed), fu, 0


@njit(cache=True, inline="always")
def _seven_pairs(props, ctx, opts, yk):
    """Yaku of a seven-pairs hand (25 fu). Returns (n yaku, han, fu, yakuman)."""
    n = 0
    if props & _ALL_HONOR:
        n = _add(yk, n, TSUUIISOU, 0)
    n = _first_draw_yakuman(yk, n, ctx)
    if n > 0:
        mult = _yakuman_total(yk, n, opts)
        return n, 13 * mult, 25, mult
    n = _situational(yk, n, ctx, True, ctx[CTX_TSUMO] != 0)
    n = _add(yk, n, CHIITOITSU, 0)
    if props & _ALL_SIMPLE:
        n = _add(yk, n, TANYAO, 0)
    if props & _ALL_TERMINAL_HONOR:
        n = _add(yk, n, HONROUTOU, 0)
    if props & _ONE_SUIT:
        n = _add(yk, n, HONITSU if props & _HAS_HONOR else CHINITSU, 0)
    return n, _han_of(yk, n, True), 25, 0


@njit(cache=True, inline="always")
def _is_seven_pairs(concealed):
    pairs = 0
    for k in range(34):
        if concealed[k] == 2:
            pairs += 1
        elif concealed[k] != 0:
            return False
    return pairs == 7


@njit(cache=True, inline="always")
def _is_thirteen_orphans(concealed):
    total = 0
    for k in range(34):
        total += concealed[k]
    if total != 14:
        return False
    for k in _ORPHANS:
        if concealed[k] == 0:
            return False
    return True


# ----------------------------------------------------------------------------------------- the kernel

@njit(cache=True, inline="always")
def _offer(n, han, fu, mult, yk, win, extra, ctx, opts, out, found):
    """Settle one reading (dora added when it has a yaku and no yakuman) and keep it in `out` if it pays
    more than the best so far (ties: yakuman, then han, then fu). Returns the updated `found` state:
    0 none yet, 1 only yakuless readings, 2 a scored reading is in `out`."""
    if han == 0:
        return max(found, 1)
    if mult == 0 and ctx[CTX_CHANCE] != 0:
        han = chance_han(yk, n, han, ctx[CTX_CHANCE])
    if mult == 0:
        for i in range(3):
            if extra[i] > 0:
                yk[n, 0] = DORA + i  # DORA, AKA_DORA, URA_DORA are consecutive ids
                yk[n, 1] = extra[i]
                han += extra[i]
                n += 1
    base, limit = base_points(han, fu, mult, opts)
    dealer = ctx[CTX_DEALER] != 0
    tsumo = ctx[CTX_TSUMO] != 0
    total, ron, tsumo_dealer, tsumo_other = payments(base, dealer, tsumo)
    if found == 2:
        old_y = out[RES_YAKUMAN] > 0
        if total < out[RES_TOTAL]:
            return found
        if total == out[RES_TOTAL]:
            if (mult > 0) < old_y:
                return found
            if (mult > 0) == old_y:
                if han < out[RES_HAN] or (han == out[RES_HAN] and fu <= out[RES_FU]):
                    return found
    out[RES_HAN] = han
    out[RES_FU] = fu
    out[RES_YAKUMAN] = mult
    out[RES_BASE] = base
    out[RES_TOTAL] = total
    out[RES_RON] = ron
    out[RES_TSUMO_DEALER] = tsumo_dealer
    out[RES_TSUMO_OTHER] = tsumo_other
    out[RES_LIMIT] = limit
    honba = ctx[CTX_HONBA]
    out[RES_HONBA] = 100 * honba if tsumo else 300 * honba
    out[RES_STICKS] = 1000 * ctx[CTX_STICKS]
    out[RES_RECEIVED] = total + 300 * honba + out[RES_STICKS]
    out[RES_WIN] = win
    out[RES_N_YAKU] = n
    for i in range(n):
        out[RES_YAKU + 2 * i] = yk[i, 0]
        out[RES_YAKU + 2 * i + 1] = yk[i, 1]
    return 2


@allocates
def score_hand(concealed, melds, n_melds, ctx, opts, out):
    """Score a complete riichi hand (see the module docstring for the arrays); jit-compiled.

    Returns SCORED, NOT_COMPLETE or NO_YAKU; `out` holds the best reading when SCORED, zeros otherwise.
    """
    out[:] = 0
    full = np.zeros(34, np.int64)
    n_tiles = 0
    for k in range(34):
        full[k] = concealed[k]
        n_tiles += concealed[k]
    if n_tiles != 14 - 3 * n_melds:
        return NOT_COMPLETE
    closed = True
    sk = np.zeros(4, np.int64)
    sseq = np.zeros(4, np.bool_)
    sopen = np.zeros(4, np.bool_)
    skan = np.zeros(4, np.bool_)
    for i in range(n_melds):
        t = melds[i, 0]
        k = melds[i, 1]
        slot = 4 - n_melds + i
        sk[slot] = k
        sseq[slot] = t == CHI
        sopen[slot] = t != ANKAN
        skan[slot] = t != CHI and t != PON
        if t == CHI:
            full[k] += 1
            full[k + 1] += 1
            full[k + 2] += 1
        else:
            full[k] += 3 if t == PON else 4
        if t != ANKAN:
            closed = False
    props = _hand_props(full)

    extra = np.zeros(3, np.int64)  # dora, red fives, ura dora
    for i in range(ctx[CTX_N_DORA]):
        extra[0] += full[dora_of(ctx[CTX_DORA + i])]
    if opts[OPT_RED_FIVES]:
        extra[1] = ctx[CTX_RED]
    if ctx[CTX_RIICHI] > 0:
        for i in range(ctx[CTX_N_URA]):
            extra[2] += full[dora_of(ctx[CTX_URA + i])]
    if ctx[CTX_CHANCE] != 0:
        chance_dora(extra, full, ctx)

    yk = np.zeros((MAX_RESULT_YAKU, 2), np.int64)
    rows = np.full((MAX_DECOMPOSITIONS, N_COLS), -1, np.int16)
    n_rows = decompositions(concealed, rows)
    seven = n_melds == 0 and _is_seven_pairs(concealed)
    orphans = n_melds == 0 and not seven and n_rows == 0 and _is_thirteen_orphans(concealed)
    if n_rows == 0 and not seven and not orphans:
        return NOT_COMPLETE

    found = 0
    w_lo = ctx[CTX_WIN]
    w_hi = w_lo + 1
    if w_lo < 0:
        w_lo, w_hi = 0, 34
    for win in range(w_lo, w_hi):
        if concealed[win] == 0:
            continue
        if orphans:
            n = _add(yk, 0, KOKUSHI_13 if concealed[win] == 2 else KOKUSHI, 0)
            n = _first_draw_yakuman(yk, n, ctx)
            mult = _yakuman_total(yk, n, opts)
            found = _offer(n, 13 * mult, 0, mult, yk, win, extra, ctx, opts, out, found)
            continue
        if seven:
            n, han, fu, mult = _seven_pairs(props, ctx, opts, yk)
            found = _offer(n, han, fu, mult, yk, win, extra, ctx, opts, out, found)
        for r in range(n_rows):
            pair = np.int64(rows[r, COL_PAIR])
            n_conc = np.int64(rows[r, COL_N_SETS])
            for i in range(n_conc):
                code = np.int64(rows[r, 1 + i])
                sseq[i] = code >= SEQ_BASE
                sk[i] = code - SEQ_BASE if code >= SEQ_BASE else code
                sopen[i] = False
                skan[i] = False
            for slot in range(-1, n_conc):
                if slot < 0:
                    if pair != win:
                        continue
                else:
                    k = sk[slot]
                    if sseq[slot]:
                        if not k <= win <= k + 2:
                            continue
                    elif k != win:
                        continue
                    repeated = False
                    for j in range(slot):
                        if sk[j] == k and sseq[j] == sseq[slot]:
                            repeated = True
                    if repeated:
                        continue
                n, han, fu, mult = _regular(pair, sk, sseq, sopen, skan, slot, win, concealed, n_melds,
                                            props, ctx, opts, closed, yk)
                found = _offer(n, han, fu, mult, yk, win, extra, ctx, opts, out, found)
    if found == 2:
        return SCORED
    out[:] = 0
    return NO_YAKU if found == 1 else NOT_COMPLETE
