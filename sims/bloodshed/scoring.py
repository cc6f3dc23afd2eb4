"""Bloodshed win scoring (RULES.md B-19 … B-19c) and the max ron value used at the draw (B-20).

Hand input of every kernel: `concealed` int8[34] (concealed counts, the winning tile included when
scoring a win) and `meld_type` int8[34]: 0 = no meld of that kind, else the sims.tiles meld code + 1
(PON+1, MINKAN+1, ANKAN+1, KAKAN+1). Bloodshed has no chi, so a meld is a triplet or kan of one kind.

Packed result of `score_win` (int64, 0 = not a complete hand):
    bits  0..7   raw fan (base pattern + 根 + situational bonuses [+ B-19c stacked pattern]), uncapped
    bits  8..15  base pattern code (index into PATTERNS)
    bits 16..23  根 count, after the 龙七对 / 十八罗汉 adjustment
    bits 24..27  situational bonuses that applied: bit 24+i for BONUSES[1+i] (杠上花, 杠上炮, 抢杠, 海底捞月)
    bit  28      B-19c stacking added 带幺九 (to 清幺九) or 对对和 (to 将对)
    bits 32..62  value in points: what a ron discarder pays (B-19), fan capped at FAN_CAP
The unpack_* kernels read the fields; `score_detail` returns them as a dict.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tsumolab.sims.jit import allocates

from tsumolab.sims.bloodshed.rules import FAN_CAP, OPT_STACK_KNOWN_BUGS, OPT_TSUMO_FAN, TSUMO_EXTRA
from tsumolab.sims.decompose import COL_N_SETS, COL_PAIR, MAX_DECOMPOSITIONS, N_COLS, SEQ_BASE, decompositions
from tsumolab.sims.tiles import PON

# Base patterns in B-19a priority order: (code, name, fan). The code is the index in this tuple.
PATTERNS = (
    (0, "地和", 6),
    (1, "天和", 6),
    (2, "清十八罗汉", 6),
    (3, "十八罗汉", 6),
    (4, "清龙七对", 6),
    (5, "清幺九", 5),
    (6, "清金钩钓", 5),
    (7, "清七对", 5),
    (8, "龙七对", 4),
    (9, "将对", 4),
    (10, "清对", 4),
    (11, "金钩钓", 3),
    (12, "带幺九", 3),
    (13, "七对子", 3),
    (14, "清一色", 3),
    (15, "对对和", 2),
    (16, "底和", 1),
)
# Codes in the same order: 地和 天和 清十八罗汉 十八罗汉 清龙七对 清幺九 清金钩钓 清七对 龙七对 将对 清对 金钩钓
# 带幺九 七对子 清一色 对对和 底和.
(P_EARTHLY, P_HEAVENLY, P_PURE_ARHATS, P_ARHATS, P_PURE_DRAGON_PAIRS, P_PURE_TERMINALS,
 P_PURE_GOLDEN_HOOK, P_PURE_SEVEN_PAIRS, P_DRAGON_PAIRS, P_GENERAL_PAIRS, P_PURE_TRIPLETS, P_GOLDEN_HOOK,
 P_TERMINALS, P_SEVEN_PAIRS, P_FLUSH, P_TRIPLETS, P_BASIC) = range(len(PATTERNS))
PATTERN_NAMES = tuple(name for _, name, _ in PATTERNS)
PATTERN_FAN = np.array([fan for _, _, fan in PATTERNS], np.int64)
PATTERN_CODE = {name: code for code, name, _ in PATTERNS}

BONUSES = ("根", "杠上花", "杠上炮", "抢杠", "海底捞月")  # B-19b, +1 fan each

# Situation flags of a win, seen from the winner (bits of `flags`).
KAN_DRAW = 1       # tsumo on the own kan replacement draw → 杠上花
KAN_DISCARD = 2    # ron of the discard the discarder made right after their own kan → 杠上炮
ROBBED_KAN = 4     # ron on another player's added-kan tile → 抢杠 (B-17)
LAST_TILE = 8      # the wall is empty → 海底捞月
FIRST_DRAW = 16    # tsumo on the first draw: dealer → 天和, non-dealer → 地和 (caller checks no pon/kan)
FLAG_NAMES = {"kan_draw": KAN_DRAW, "kan_discard": KAN_DISCARD, "robbed_kan": ROBBED_KAN,
              "last_tile": LAST_TILE, "first_draw": FIRST_DRAW}
_SITUATION_FLAGS = (KAN_DRAW, KAN_DISCARD, ROBBED_KAN, LAST_TILE)  # order of BONUSES[1:]

_STACK_BIT = 1 << 28
_BONUS_SHIFT = 24


@njit(cache=True)
def fan_value(fan):
    """Points a ron discarder pays for `fan` (B-19): 1→1000 … 6→32000, capped at 6; 0 for fan <= 0.
    Jit-compiled."""
    if fan <= 0:
        return 0
    if fan > FAN_CAP:
        fan = FAN_CAP
    return 1000 << (fan - 1)


@njit(cache=True)
def tsumo_payment(fan, rules):
    """What each other non-won player pays on a tsumo of capped `fan` (B-19): value + 1000, or with the
    `tsumo_bonus = "fan"` option the value of one more fan within the cap; jit-compiled."""
    if rules[OPT_TSUMO_FAN]:
        return fan_value(min(fan + 1, FAN_CAP))
    return fan_value(fan) + TSUMO_EXTRA


@njit(cache=True)
def has_void_tile(concealed, meld_type, void_suit):
    """True if any tile of suit `void_suit` (0 m, 1 p, 2 s) is in the hand or the melds (B-7); jit-compiled."""
    for k in range(9 * void_suit, 9 * void_suit + 9):
        if concealed[k] > 0 or meld_type[k] > 0:
            return True
    return False


@njit(cache=True)
def _is_terminal(kind):
    r = kind % 9
    return r == 0 or r == 8


@njit(cache=True)
def _is_258(kind):
    r = kind % 9
    return r == 1 or r == 4 or r == 7


@njit(cache=True)
def _pack(raw_fan, pattern, gen, bonus_bits, stacked):
    """Pack the fields as described in the module docstring; jit-compiled."""
    packed = np.int64(raw_fan) | (np.int64(pattern) << 8) | (np.int64(gen) << 16)
    packed |= np.int64(bonus_bits) << _BONUS_SHIFT
    if stacked:
        packed |= _STACK_BIT
    return packed | (np.int64(fan_value(raw_fan)) << 32)


@njit(cache=True)
def _better(a, b):
    """True if packed result `a` beats `b`: higher value, then higher raw fan, then earlier pattern;
    jit-compiled."""
    va = a >> 32
    vb = b >> 32
    if va != vb:
        return va > vb
    ra = a & 0xFF
    rb = b & 0xFF
    if ra != rb:
        return ra > rb
    return ((a >> 8) & 0xFF) < ((b >> 8) & 0xFF)


@njit(cache=True)
def _standard_pattern(row, meld_type, n_melds, n_kans, one_suit, first_pattern):
    """Base pattern (B-19a) of one standard decomposition `row` plus the melds; jit-compiled."""
    if first_pattern >= 0:
        return first_pattern
    all_triplets = True
    terminal = _is_terminal(row[COL_PAIR])
    all_258 = _is_258(row[COL_PAIR])
    for i in range(row[COL_N_SETS]):
        s = row[1 + i]
        if s >= SEQ_BASE:
            all_triplets = False
            first = s - SEQ_BASE
            r = first % 9
            if r != 0 and r != 6:
                terminal = False
        else:
            if not _is_terminal(s):
                terminal = False
            if not _is_258(s):
                all_258 = False
    if n_melds > 0:
        for k in range(27):
            if meld_type[k] > 0:
                if not _is_terminal(k):
                    terminal = False
                if not _is_258(k):
                    all_258 = False
    if n_kans == 4:
        return P_PURE_ARHATS if one_suit else P_ARHATS
    if one_suit and terminal:
        return P_PURE_TERMINALS
    if one_suit and n_melds == 4:
        return P_PURE_GOLDEN_HOOK
    if all_triplets and all_258:
        return P_GENERAL_PAIRS
    if one_suit and all_triplets:
        return P_PURE_TRIPLETS
    if n_melds == 4:
        return P_GOLDEN_HOOK
    if terminal:
        return P_TERMINALS
    if one_suit:
        return P_FLUSH
    if all_triplets:
        return P_TRIPLETS
    return P_BASIC


@njit(cache=True)
def _finish(pattern, gen_all, n_bonus, bonus_bits, stack_bugs):
    """Packed result for a base pattern: 根 adjusted (B-19b), bonuses and B-19c added; jit-compiled."""
    gen = gen_all
    if pattern == P_DRAGON_PAIRS or pattern == P_PURE_DRAGON_PAIRS:
        gen -= 1
    elif pattern == P_ARHATS or pattern == P_PURE_ARHATS:
        gen -= 4
    raw = PATTERN_FAN[pattern] + gen + n_bonus
    stacked = False
    if stack_bugs:
        if pattern == P_PURE_TERMINALS:
            raw += PATTERN_FAN[P_TERMINALS]  # B-19c: 带幺九 stacks on 清幺九
            stacked = True
        elif pattern == P_GENERAL_PAIRS:
            raw += PATTERN_FAN[P_TRIPLETS]  # B-19c: 对对和 stacks on 将对
            stacked = True
    return _pack(raw, pattern, gen, bonus_bits, stacked)


@njit(cache=True)
def score_win_buf(concealed, meld_type, dealer, tsumo, flags, rules, buf):
    """`score_win` with a caller-owned decomposition buffer `buf` (int16[>=MAX_DECOMPOSITIONS, 6]); jit-compiled."""
    n_melds = 0
    n_kans = 0
    n_concealed = 0
    suit_mask = 0
    gen_all = 0
    for k in range(27):
        copies = concealed[k]
        n_concealed += concealed[k]
        m = meld_type[k]
        if m > 0:
            n_melds += 1
            if m == PON + 1:
                copies += 3
            else:
                copies += 4
                n_kans += 1
        if copies > 0:
            suit_mask |= 1 << (k // 9)
        if copies >= 4:
            gen_all += 1
    if n_concealed + 3 * n_melds != 14:
        return np.int64(0)
    one_suit = suit_mask == 1 or suit_mask == 2 or suit_mask == 4

    bonus_bits = 0
    n_bonus = 0
    for i in range(4):
        if flags & _SITUATION_FLAGS[i]:
            bonus_bits |= 1 << i
            n_bonus += 1
    first_pattern = -1
    if flags & FIRST_DRAW:
        first_pattern = P_HEAVENLY if dealer else P_EARTHLY
    stack_bugs = rules[OPT_STACK_KNOWN_BUGS] != 0

    best = np.int64(0)
    if n_melds == 0:  # seven pairs, identical pairs allowed (B-10)
        pairs_ok = True
        has_four = False
        for k in range(27):
            if concealed[k] & 1:
                pairs_ok = False
                break
            if concealed[k] == 4:
                has_four = True
        if pairs_ok:
            if first_pattern >= 0:
                pattern = first_pattern
            elif has_four:
                pattern = P_PURE_DRAGON_PAIRS if one_suit else P_DRAGON_PAIRS
            else:
                pattern = P_PURE_SEVEN_PAIRS if one_suit else P_SEVEN_PAIRS
            best = _finish(pattern, gen_all, n_bonus, bonus_bits, stack_bugs)

    n_rows = decompositions(concealed, buf)
    if n_rows > buf.shape[0]:
        n_rows = buf.shape[0]
    for i in range(n_rows):
        pattern = _standard_pattern(buf[i], meld_type, n_melds, n_kans, one_suit, first_pattern)
        result = _finish(pattern, gen_all, n_bonus, bonus_bits, stack_bugs)
        if best == 0 or _better(result, best):
            best = result
    return best


@allocates
def score_win(concealed, meld_type, dealer, tsumo, flags, rules):
    """Score a win (B-19 … B-19c); jit-compiled. Returns the packed result (module docstring), 0 if the
    14 tiles (kans counted as 3) are not a complete hand.

    `flags`: bits KAN_DRAW, KAN_DISCARD, ROBBED_KAN, LAST_TILE, FIRST_DRAW; the caller guarantees they
    fit `tsumo` (KAN_DRAW and FIRST_DRAW only with tsumo, KAN_DISCARD and ROBBED_KAN only with ron)
    and has checked the void suit (B-7). `tsumo` does not change the value itself (see tsumo_payment).
    Among several decompositions the one with the highest value counts (B-19a), then the highest raw
    fan, then the earlier pattern in PATTERNS. `rules`: BloodshedRules.to_array().
    `concealed` must be writable: the decomposition search changes it and restores it before returning.
    """
    buf = np.empty((MAX_DECOMPOSITIONS, N_COLS), np.int16)
    return score_win_buf(concealed, meld_type, dealer, tsumo, flags, rules, buf)


@njit(cache=True)
def unpack_raw_fan(packed):
    """Fan before the cap; jit-compiled."""
    return np.int64(packed & 0xFF)


@njit(cache=True)
def unpack_fan(packed):
    """Fan after the cap (B-19); jit-compiled."""
    return min(np.int64(packed & 0xFF), np.int64(FAN_CAP))


@njit(cache=True)
def unpack_pattern(packed):
    """Base pattern code (index into PATTERNS), -1 for no win; jit-compiled."""
    if packed == 0:
        return np.int64(-1)
    return np.int64((packed >> 8) & 0xFF)


@njit(cache=True)
def unpack_gen(packed):
    """根 count after the pattern adjustment; jit-compiled."""
    return np.int64((packed >> 16) & 0xFF)


@njit(cache=True)
def unpack_bonus_bits(packed):
    """Situational bonuses: bit i set = BONUSES[1+i] applied; jit-compiled."""
    return np.int64((packed >> _BONUS_SHIFT) & 0xF)


@njit(cache=True)
def unpack_stacked(packed):
    """True if B-19c stacking added a pattern; jit-compiled."""
    return (packed & _STACK_BIT) != 0


@njit(cache=True)
def unpack_value(packed):
    """Value in points (what a ron discarder pays); jit-compiled."""
    return np.int64(packed >> 32)


@njit(cache=True)
def max_ron_value(concealed13, meld_type, rules):
    """Highest ron value over the winning tiles of a 13-tile hand (B-20); jit-compiled. 0 if not tenpai.

    Scored as a ron with base pattern and 根 only (no situational bonus, no 天和/地和). A kind whose four
    copies are all in hand and melds already is not a winning tile. The void suit is not checked:
    a hand without void tiles cannot wait on one (a winning tile always joins a tile of its suit),
    and a hand holding one is not tenpai, which the caller (settlement) decides.
    """
    hand = concealed13.copy()
    buf = np.empty((MAX_DECOMPOSITIONS, N_COLS), np.int16)
    best = 0
    for k in range(27):
        copies = hand[k]
        if meld_type[k] > 0:
            copies += 3 if meld_type[k] == PON + 1 else 4
        if copies >= 4:
            continue
        r = k % 9
        near = hand[k] > 0 or (r >= 1 and hand[k - 1] > 0) or (r >= 2 and hand[k - 2] > 0) \
            or (r <= 7 and hand[k + 1] > 0) or (r <= 6 and hand[k + 2] > 0)
        if not near:
            continue
        hand[k] += 1
        packed = score_win_buf(hand, meld_type, False, False, 0, rules, buf)
        hand[k] -= 1
        value = packed >> 32
        if value > best:
            best = value
    return best


def score_detail(concealed: np.ndarray, meld_type: np.ndarray, dealer: bool, tsumo: bool, flags: int,
                 rules: np.ndarray) -> dict | None:
    """Python view of `score_win`: None if not complete, else a dict with keys
    raw_fan, fan (capped), pattern (code), pattern_name, gen, bonuses ({name: count} for every name in
    BONUSES, zeros included), stacked (B-19c applied), value, tsumo_payment (per payer, if tsumo else None).
    """
    packed = int(score_win(np.array(concealed, np.int8), np.asarray(meld_type, np.int8),
                           bool(dealer), bool(tsumo), int(flags), np.asarray(rules, np.int64)))
    if packed == 0:
        return None
    raw = int(unpack_raw_fan(packed))
    fan = min(raw, FAN_CAP)
    pattern = int(unpack_pattern(packed))
    bits = int(unpack_bonus_bits(packed))
    bonuses = {BONUSES[0]: int(unpack_gen(packed))}
    for i, name in enumerate(BONUSES[1:]):
        bonuses[name] = (bits >> i) & 1
    value = int(unpack_value(packed))
    return {
        "raw_fan": raw,
        "fan": fan,
        "pattern": pattern,
        "pattern_name": PATTERN_NAMES[pattern],
        "gen": bonuses[BONUSES[0]],
        "bonuses": bonuses,
        "stacked": bool(unpack_stacked(packed)),
        "value": value,
        "tsumo_payment": int(tsumo_payment(fan, np.asarray(rules, np.int64))) if tsumo else None,
    }
