"""The compiled riichi match kernel shared by every riichi-based mode (RULES.md R-1 … R-6, S-1 … S-16, and
DF, A, D, M, F, C, SS, FL, DE, OD).

`play_matches` plays whole matches under the table options of sims.riichi.table (standard East game, Battle
of Shura's bloodbath with exchange and tsumo loss, or any other special mode, whose rules live in one small
kernel module each, imported at the end of the import block) and writes one record row per (match, hand, seat)
and per (match, seat) in the layout of sims.riichi.columns. Seats decide through five tuples of four hooks
(policies.riichi_api), so one compiled engine serves every combination of policies.

Public state and each seat's own tiles live in `obs[4, R_OBS_SIZE]`; hidden state is the wall and the
`st` block of sims.riichi.tableau (waits, rivers, red fives, per-seat flags). Payments: sims.riichi.settle.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import types

from sims.decisions import (
    CHI_HIGH, CHI_LOW, CHI_MID, D_EXCHANGE, D_REACT, D_ROB, D_TURN, FACE_DOWN, HOOK_TYPE, KAN, KAN_CALL, NINE_TERMINALS,
    PON, RIICHI, RON, TSUMO, TSUMOGIRI,
)
from sims.riichi.observation import (
    O_AFTER_CALL, O_ASTROLOGY, O_CAN_CHI, O_CAN_KAN, O_CAN_NINE, O_CAN_PON, O_CAN_RIICHI, O_CAN_WIN, O_DARKNESS,
    O_DEALER, O_DECISION, O_DISCARDED, O_DORA, O_FORBID_A, O_FORBID_B, O_FROM, O_FURITEN, O_HAND, O_HONBA, O_KAN_DRAW,
    O_KAN_OPTIONS, O_MELDS, O_MELD_TILES, O_N_DISCARDS, O_N_MELDS, O_OPEN, O_POINTS, O_RIICHI, O_RIICHI_TILE, O_RNG,
    O_ROUND, O_ROUND_WIND, O_SAFE, O_SEAT, O_SEAT_WIND, O_SEEN, O_STICKS, O_TILE, O_TURN, O_WALL_LEFT, O_WIN_FU,
    O_WIN_HAN, O_WIN_POINTS, O_WON, R_OBS_SIZE,
)
from sims import rng, tiles
from sims.events import EV_DEAL, EV_DISCARD, EV_DRAW, EV_END, EV_EXCHANGE, EV_KAN, EV_PASS, EV_PON, EV_START, \
    log_event
from sims.riichi import table as T
from sims.riichi.columns import (
    H_BEFORE, H_CALLS, H_CHANT_HAN, H_DEALER, H_DELTA, H_DIR, H_DISC, H_END, H_HAND, H_HONBA, H_KANS, H_MATCH,
    H_MULTIPLIER, H_NAGASHI, H_NOTEN, H_PASSED, H_POT0, H_POT1, H_RIICHI, H_RIICHI_TURN, H_ROUND, H_SEAT, H_STICKS0,
    H_STICKS1, H_STRIKE_HAN, H_TENPAI, H_WALL, H_WINNERS, N_HAND_COLS,
)
from sims.riichi.events import PAY_NAGASHI
from sims.riichi.settle import (  # noqa: F401  (settle_tsumo, noten_payments, WIN_* re-exported for tests)
    WIN_RON, WIN_TSUMO, deposit_stick, has_yaku, noten_payments, settle_ron, settle_tsumo, tenpai_at_draw,
)
from sims.riichi.scoring import (
    FLAG_CHANKAN, FLAG_CHIIHOU, FLAG_HAITEI, FLAG_HOUTEI, FLAG_RINSHAN, FLAG_TENHOU, N_CTX, N_RES, RES_FU,
    RES_HAN, RES_TOTAL, SCORED,
)
from sims.riichi.tableau import (
    DEAD_START, EV_ABORT, EV_CHI, EV_RIICHI, F_DRAWS, F_IPPATSU, F_KANS, F_NAGASHI, F_PAO,
    F_RED_MELD, F_RIICHI_FURITEN, F_TEMP_FURITEN, MS_DRAWN_CLEAR, MS_DRAWN_RED, MS_LIVE_END, MS_N_KANS, MS_NO_CALL,
    MS_NO_RED, MS_PENDING_DORA, MS_RINSHAN, N_ST, ST_FLAGS, ST_MISC, ST_RIVER, ST_WAITS, anyone_below_zero,
    flip_dora, give_tile, holds_red, is_red, pay, plain_first, refresh_furiten, score_win, take_for_meld, take_tile,
    update_waits,
)
from sims.riichi.yaku import KOKUSHI, KOKUSHI_13
from sims.shanten import RIICHI_SHAPES, is_complete, shanten, winning_tiles
from sims.shanten_tables import SUIT_ROWS
from sims.table_state import pub_add, pub_set, rank_of, write_match_rows
# each special mode's rules, called under `if topts[T.T_<MODE>]:`
from sims.riichi.astrology_pool import A_N, astro_add_dead, astro_floor, astro_left, astro_pick, astro_pool_open, \
    astro_refill, astro_reset
from sims.riichi.chant_streaks import chant_apply, chant_bonus, chant_discard
from sims.riichi.darkness_pot import DK_POT, dark_discard, dark_face_down_ok, dark_start, dark_take_pot
from sims.riichi.deal_shown import show_deal
from sims.riichi.dragon_eye_holder import eye_discard, eye_due, eye_seed, eye_start
from sims.riichi.fantasy_cards import (
    fl_after_call, fl_draw_cards, fl_draw_sticks, fl_exaggerate, fl_honba, fl_hype_flip, fl_ippatsu_turns, fl_publish,
    fl_record, fl_riichi_cost, fl_riichi_extra, fl_ron_banned,
)
from sims.riichi.fate_tiles import fate_after_loss, fate_multiplier, fate_open_deal, fate_scale
from sims.riichi.mirror_tiles import head_bump, mirror_dead, mirror_deal, mirror_discard, mirror_draw, mirror_lose, \
    transparent
from sims.riichi.soul_strike_turns import strike_active, strike_after_discard, strike_score, strike_turn

CHI_MELD, PON_MELD, MINKAN_MELD, ANKAN_MELD, KAKAN_MELD = (tiles.CHI + 1, tiles.PON + 1, tiles.MINKAN + 1,
                                                           tiles.ANKAN + 1, tiles.KAKAN + 1)
END_WIN, END_EXHAUSTIVE, END_NINE, END_WINDS, END_RIICHI, END_KANS, END_BUST, END_THREE_WINS = range(8)
STREAM_WALL, STREAM_DIRECTION, STREAM_SEAT = 0, 1, 2

CNT_ILLEGAL = 0        # illegal policy answers replaced by a default
CNT_HANDS = 1
CNT_TILE_ERRORS = 2    # hands whose 136 tiles did not add up at the end (must stay 0)
CNT_EVENTS = 3
CNT_FURITEN_RONS = 4   # rons by a seat the engine holds furiten (must stay 0)
N_COUNTERS = 5



# ----------------------------------------------------------------------------- small helpers
@nb.njit(cache=True)
def _next_active(obs, seat):
    """Next seat after `seat` that has not won (S-3, S-4)."""
    for step in range(1, 4):
        s = (seat + step) % 4
        if obs[0, O_WON + s] == 0:
            return s
    return seat


@nb.njit(cache=True)
def _ask(hook, seat, obs, view, params, tables):
    answer = hook(view, params[seat], tables)
    obs[seat, O_RNG] = view[O_RNG]
    return answer


@nb.njit(cache=True)
def _orphan_kinds(hand):
    n = 0
    for k in range(34):
        if hand[k] > 0 and (k >= 27 or k % 9 == 0 or k % 9 == 8):
            n += 1
    return n


@nb.njit(cache=True)
def _terminal_or_honor(k):
    return k >= 27 or k % 9 == 0 or k % 9 == 8


@nb.njit(cache=True)
def _add_meld(obs, seat, mtype, kind, copies_shown):
    n = obs[0, O_N_MELDS + seat]
    pub_set(obs, O_MELDS + 8 * seat + 2 * n, mtype)
    pub_set(obs, O_MELDS + 8 * seat + 2 * n + 1, kind)
    pub_add(obs, O_N_MELDS + seat, 1)
    if mtype == CHI_MELD:
        for d in range(3):
            pub_add(obs, O_MELD_TILES + 34 * seat + kind + d, 1)
    else:
        pub_add(obs, O_MELD_TILES + 34 * seat + kind, 4 if mtype != PON_MELD else 3)
    if mtype != ANKAN_MELD:
        pub_set(obs, O_OPEN + seat, 1)


@nb.njit(cache=True)
def _pon_slot(obs, seat, kind):
    for i in range(obs[0, O_N_MELDS + seat]):
        if obs[0, O_MELDS + 8 * seat + 2 * i] == PON_MELD and obs[0, O_MELDS + 8 * seat + 2 * i + 1] == kind:
            return i
    return -1


@nb.njit(cache=True)
def _legal_after_call(hand, forbid_a, forbid_b):
    for k in range(34):
        if hand[k] > 0 and k != forbid_a and k != forbid_b:
            return True
    return False


@nb.njit(cache=True)
def _chi_forbid(tile, option):
    """Swap-calling ban after a chi (kuikae): the called kind and the kind at the other end of the run."""
    r = tile % 9
    if option == CHI_LOW and r <= 5:
        return tile + 3
    if option == CHI_HIGH and r >= 3:
        return tile - 3
    return -1


@nb.njit(cache=True)
def _chi_bits(hand, tile):
    if tile >= 27:
        return 0
    r = tile % 9
    bits = 0
    if r <= 6 and hand[tile + 1] > 0 and hand[tile + 2] > 0:
        hand[tile + 1] -= 1
        hand[tile + 2] -= 1
        if _legal_after_call(hand, tile, _chi_forbid(tile, CHI_LOW)):
            bits |= 1
        hand[tile + 1] += 1
        hand[tile + 2] += 1
    if 1 <= r <= 7 and hand[tile - 1] > 0 and hand[tile + 1] > 0:
        hand[tile - 1] -= 1
        hand[tile + 1] -= 1
        if _legal_after_call(hand, tile, -1):
            bits |= 2
        hand[tile - 1] += 1
        hand[tile + 1] += 1
    if r >= 2 and hand[tile - 1] > 0 and hand[tile - 2] > 0:
        hand[tile - 1] -= 1
        hand[tile - 2] -= 1
        if _legal_after_call(hand, tile, _chi_forbid(tile, CHI_HIGH)):
            bits |= 4
        hand[tile - 1] += 1
        hand[tile - 2] += 1
    return bits


@nb.njit(cache=True)
def _liable_after_call(obs, seat):
    """R-3 pao: does the seat now hold 3 dragon melds (1) or 4 wind melds (2)? 0 otherwise."""
    dragons = 0
    winds = 0
    for i in range(obs[0, O_N_MELDS + seat]):
        mtype = obs[0, O_MELDS + 8 * seat + 2 * i]
        kind = obs[0, O_MELDS + 8 * seat + 2 * i + 1]
        if mtype == CHI_MELD:
            continue
        if kind >= 31:
            dragons += 1
        elif kind >= 27:
            winds += 1
    if dragons == 3:
        return 1
    if winds == 4:
        return 2
    return 0


@nb.njit(cache=True)
def _tiles_in_play(obs, st):
    n = 0
    for s in range(4):
        for k in range(34):
            n += obs[s, O_HAND + k] + st[ST_RIVER + s, k] + obs[0, O_MELD_TILES + 34 * s + k]
    return n


# ----------------------------------------------------------------------------- settling wins
# ----------------------------------------------------------------------------- moving tiles
@nb.njit(cache=True)
def _draw(obs, st, wall, at, seat, replacement, events, ev):
    tile_id = wall[at]
    kind = tile_id // 4
    red = 1 if is_red(tile_id) and st[ST_MISC, MS_NO_RED] == 0 else 0
    log_event(events, ev, EV_DRAW, seat, kind, 1 if replacement else 0, 0, 2 * red)
    give_tile(obs, st, seat, kind, red == 1)
    st[ST_MISC, MS_DRAWN_RED] = red
    st[ST_MISC, MS_DRAWN_CLEAR] = 1 if transparent(tile_id) else 0
    pub_add(obs, O_TURN, 1)
    st[ST_FLAGS + seat, F_DRAWS] += 1
    return kind


@nb.njit(cache=True)
def _exchange(obs, st, view, hooks_ex, params, tables, direction, counters, events, ev):
    """S-2: every seat passes any 3 tiles at once; a five passed is the plain one unless only the red is held.
    The log's c is the receiving seat + 4 × (bit i: tile i is the red five)."""
    given = np.empty((4, 3), np.int64)
    reds = np.zeros((4, 3), np.int64)
    for s in range(4):
        view[:] = obs[s]
        view[O_DECISION] = D_EXCHANGE
        answer = _ask(hooks_ex[s], s, obs, view, params, tables)
        ok = True
        for i in range(3):
            k = (answer >> (8 * i)) & 0xFF
            if k >= 34:
                ok = False
            given[s, i] = k if k < 34 else 0
        if ok:
            for i in range(3):
                need = 0
                for j in range(3):
                    if given[s, j] == given[s, i]:
                        need += 1
                if obs[s, O_HAND + given[s, i]] < need:
                    ok = False
        if not ok:
            counters[CNT_ILLEGAL] += 1
            i = 0
            for k in range(33, -1, -1):
                for _ in range(obs[s, O_HAND + k]):
                    if i < 3:
                        given[s, i] = k
                        i += 1
    for s in range(4):
        for i in range(3):
            reds[s, i] = plain_first(obs, st, s, given[s, i])
            take_tile(obs, st, s, given[s, i], reds[s, i])
    shift = 1 if direction == 0 else (3 if direction == 1 else 2)
    for s in range(4):
        to = (s + shift) % 4
        log_event(events, ev, EV_EXCHANGE, s, given[s, 0], given[s, 1], given[s, 2],
                  to + 4 * (reds[s, 0] + 2 * reds[s, 1] + 4 * reds[s, 2]))
        for i in range(3):
            give_tile(obs, st, to, given[s, i], reds[s, i] == 1)


@nb.njit(cache=True)
def _wall_left(st, pos):
    return st[ST_MISC, MS_LIVE_END] - pos


# ----------------------------------------------------------------------------- one hand
@nb.njit(cache=True)
def _play_hand(obs, view, st, hooks_ex, hooks_turn, hooks_react, hooks_rob, hooks_mode, params, topts, sopts, tables,
               wall, direction, seat_seeds, rec, counters, events, ev):
    """Play one hand on a shuffled wall; fills rec[4, N_HAND_COLS]; returns (end code, dealer keeps the deal)."""
    dealer = obs[0, O_DEALER]
    round_wind = obs[0, O_ROUND] // 4
    honba = obs[0, O_HONBA] if topts[T.T_HONBA] else 0
    bloodbath = topts[T.T_BLOODBATH] == 1
    riichi_cost = fl_riichi_cost(obs) if topts[T.T_FANTASY] else T.RIICHI_COST  # FL 过度准备
    suit_t = tables[:SUIT_ROWS]
    honor_t = tables[SUIT_ROWS:]
    delta = np.zeros(4, np.int64)
    claimants = np.empty(3, np.int64)
    answers = np.zeros(4, np.int64)
    conc = np.zeros(34, np.int8)
    melds8 = np.zeros((4, 2), np.int8)
    ctx = np.zeros(N_CTX, np.int64)
    res = np.zeros(N_RES, np.int64)
    best = np.zeros(N_RES, np.int64)
    mask = np.zeros(34, np.int64)
    kan_opts = np.zeros(34, np.int64)
    first_winds = np.full(4, -1, np.int64)
    called = np.zeros((4, 34), np.int64)  # tiles each seat took from others by chi/pon/open kan, per kind (F)
    streaks = np.zeros((4, 4), np.int64)  # runs of tsumogiri / hand discards per seat (C)
    eye_rng = np.zeros(1, np.uint64)  # the eye's keyed stream (DE)
    st[:, :] = 0
    st[ST_MISC, MS_NO_RED] = 1 - topts[T.T_RED_FIVES]
    st[ST_MISC, MS_LIVE_END] = DEAD_START
    st[ST_MISC, MS_NO_CALL] = 1
    for s in range(4):
        obs[s, O_RNG] = seat_seeds[s]
        st[ST_FLAGS + s, F_NAGASHI] = 1
        pub_set(obs, O_RIICHI_TILE + s, -1)
        obs[s, O_SEAT_WIND] = (s - dealer) % 4
        obs[s, O_ROUND_WIND] = round_wind
    log_event(events, ev, EV_START, dealer, -1, direction, obs[0, O_ROUND], honba)
    if topts[T.T_DRAGON_EYE]:
        eye_start(obs, eye_rng, seat_seeds[4], topts, events, ev)

    pos = 0
    for i in range(4):
        seat = (dealer + i) % 4
        for _ in range(T.DEAL_SIZE):
            red = is_red(wall[pos]) and topts[T.T_RED_FIVES] == 1
            log_event(events, ev, EV_DEAL, seat, wall[pos] // 4, 1 if red else 0, 0, 0)
            give_tile(obs, st, seat, wall[pos] // 4, red)
            pos += 1
    if topts[T.T_FATE]:
        fate_open_deal(obs, wall, dealer)
    if topts[T.T_OPEN_DEAL]:
        show_deal(obs, wall, dealer)
    if topts[T.T_ASTROLOGY]:
        astro_reset(obs)
    drawn = _draw(obs, st, wall, pos, dealer, False, events, ev)
    pos += 1
    pub_set(obs, O_WALL_LEFT, _wall_left(st, pos))
    if topts[T.T_EXCHANGE]:
        _exchange(obs, st, view, hooks_ex, params, tables, direction, counters, events, ev)
        drawn = -1  # the dealer's 14th tile may have been passed on
    for _ in range(topts[T.T_INITIAL_DORA]):  # DF: several indicators from the start
        flip_dora(obs, wall, events, ev)  # S-2: the first indicator after the exchange
    for s in range(4):
        if s != dealer:
            update_waits(obs, st, s, tables)
    if topts[T.T_MIRROR]:
        mirror_deal(obs, st, wall, dealer, pos)

    cur = dealer
    need_draw = False
    kan_draw = False
    after_call = False
    forbid_a = -1
    forbid_b = -1
    last_kan_seat = -1
    kans_abort = False
    winners = 0
    first_winner = -1
    robbed_tiles = 0
    dealer_won = False
    end = END_EXHAUSTIVE
    ss_han = 0
    while True:
        if need_draw:
            if topts[T.T_ASTROLOGY]:  # A: refill the pool, then pick a candidate
                pos = astro_refill(obs, st, wall, pos, astro_floor(topts, T.T_ASTROLOGY), events, ev)
                if obs[0, O_ASTROLOGY + A_N] == 0:
                    end = END_EXHAUSTIVE
                    break
                drawn = astro_pick(obs, st, view, hooks_mode[cur], cur, params, tables, False, counters, CNT_ILLEGAL,
                                   events, ev)
            else:
                if pos >= st[ST_MISC, MS_LIVE_END]:
                    end = END_EXHAUSTIVE
                    break
                if topts[T.T_DRAGON_EYE]:
                    eye_due(obs, eye_rng, topts, events, ev)
                drawn = _draw(obs, st, wall, pos, cur, False, events, ev)
                pos += 1
                if topts[T.T_MIRROR]:
                    mirror_draw(obs, st, wall, cur, pos, False)
            pub_set(obs, O_WALL_LEFT, _wall_left(st, pos))
            kan_draw = False
            after_call = False
            need_draw = False
        wall_left = _wall_left(st, pos)
        kan_room = wall_left
        if topts[T.T_ASTROLOGY]:  # A: draws left = the pool + refills; no kan at or below the floor
            wall_left, kan_room = astro_left(obs, wall_left, astro_floor(topts, T.T_ASTROLOGY))
        hand = obs[cur, O_HAND:O_HAND + 34]
        n_melds = obs[0, O_N_MELDS + cur]
        in_riichi = obs[0, O_RIICHI + cur] > 0
        first_turn = st[ST_MISC, MS_NO_CALL] == 1 and obs[0, O_N_DISCARDS + cur] == 0
        if topts[T.T_SOUL_STRIKE] and not after_call:
            strike_turn(obs, st, topts, cur, kan_draw)

        # ---- own turn: what may be done
        can_win = False
        complete = False
        if not after_call:
            if drawn >= 0 and (kan_draw or obs[0, O_N_DISCARDS + cur] > 0):
                complete = st[ST_WAITS + cur, drawn] != 0  # the waits of the 13 tiles before this draw
            else:
                complete = is_complete(hand, n_melds, RIICHI_SHAPES, suit_t, honor_t)
        if complete:
            flags = 0
            if kan_draw:
                flags |= FLAG_RINSHAN
            elif wall_left == 0:
                flags |= FLAG_HAITEI
            if first_turn and not kan_draw:
                flags |= FLAG_TENHOU if cur == dealer else FLAG_CHIIHOU
            win_kind = drawn if drawn >= 0 else -1
            status = score_win(obs, st, wall, cur, win_kind, 0, True, flags, dealer, round_wind, sopts, conc, melds8,
                               ctx, res)
            can_win = status == SCORED
            if can_win and topts[T.T_SOUL_STRIKE]:
                ss_han = strike_score(obs, topts, sopts, res, -1, False, cur == dealer)
        view[:] = obs[cur]
        view[O_DECISION] = D_TURN
        view[O_TILE] = -1 if after_call else drawn
        view[O_AFTER_CALL] = 1 if after_call else 0
        view[O_KAN_DRAW] = 1 if kan_draw else 0
        view[O_FORBID_A] = forbid_a if after_call else -1
        view[O_FORBID_B] = forbid_b if after_call else -1
        any_kan = False
        kan_opts[:] = 0
        if not after_call and kan_room > 0 and st[ST_MISC, MS_N_KANS] < T.MAX_KANS:
            for k in range(34):
                if hand[k] == 4:
                    if in_riichi:
                        if k != drawn:
                            continue
                        hand[k] -= 4
                        winning_tiles(hand, n_melds + 1, RIICHI_SHAPES, hand, suit_t, honor_t, mask)
                        hand[k] += 4
                        same = True
                        for j in range(34):
                            if (mask[j] != 0) != (st[ST_WAITS + cur, j] != 0):
                                same = False
                        if not same:
                            continue
                    kan_opts[k] = 1
                    view[O_KAN_OPTIONS + k] = 1
                    any_kan = True
                elif hand[k] >= 1 and not in_riichi and _pon_slot(obs, cur, k) >= 0:
                    kan_opts[k] = 2
                    view[O_KAN_OPTIONS + k] = 2
                    any_kan = True
        can_riichi = False
        if (not in_riichi and not after_call and obs[0, O_OPEN + cur] == 0 and obs[0, O_POINTS + cur] >= riichi_cost
                and obs[0, O_WALL_LEFT] >= 4):
            can_riichi = shanten(hand, n_melds, RIICHI_SHAPES, suit_t, honor_t) <= 0  # tenpai after some discard
        can_nine = first_turn and not after_call and not kan_draw and _orphan_kinds(hand) >= 9
        if can_win:
            view[O_CAN_WIN] = 1
            view[O_WIN_HAN] = res[RES_HAN]
            view[O_WIN_FU] = res[RES_FU]
            view[O_WIN_POINTS] = res[RES_TOTAL]
            best[:] = res
        view[O_CAN_RIICHI] = 1 if can_riichi else 0
        view[O_CAN_NINE] = 1 if can_nine else 0

        if in_riichi and not can_win and not any_kan:
            action = drawn
        else:
            action = _ask(hooks_turn[cur], cur, obs, view, params, tables)
        # ---- validate
        face_down = topts[T.T_DARKNESS] == 1 and (FACE_DOWN <= action < FACE_DOWN + 34 or
                                                  FACE_DOWN + RIICHI <= action < FACE_DOWN + RIICHI + 34 or
                                                  action == FACE_DOWN + TSUMOGIRI or
                                                  action == FACE_DOWN + RIICHI + TSUMOGIRI)  # D
        if face_down:
            action -= FACE_DOWN
        illegal_before = counters[CNT_ILLEGAL]
        riichi_now = False
        drawn_copy = False  # the discard is the copy just drawn (R-1: the red five or not, as drawn)
        if action == TSUMOGIRI or action == RIICHI + TSUMOGIRI:
            if drawn >= 0 and not after_call:
                drawn_copy = True
                action += drawn - TSUMOGIRI
            else:
                counters[CNT_ILLEGAL] += 1
                action = -1
        if action == TSUMO:
            if not can_win:
                counters[CNT_ILLEGAL] += 1
                action = -1
        elif action == NINE_TERMINALS:
            if not can_nine:
                counters[CNT_ILLEGAL] += 1
                action = -1
        elif KAN <= action < KAN + 34:
            if kan_opts[action - KAN] == 0:
                counters[CNT_ILLEGAL] += 1
                action = -1
        elif RIICHI <= action < RIICHI + 34:
            k = action - RIICHI
            ok = can_riichi and hand[k] > 0
            if ok:
                hand[k] -= 1
                ok = winning_tiles(hand, n_melds, RIICHI_SHAPES, hand, suit_t, honor_t, mask) > 0
                hand[k] += 1
            if ok:
                riichi_now = True
                action = k
            else:
                counters[CNT_ILLEGAL] += 1
                action = k if (hand[k] > 0 and not in_riichi) else -1
        elif 0 <= action < 34:
            if hand[action] == 0 or (after_call and (action == forbid_a or action == forbid_b)) or \
                    (in_riichi and action != drawn):
                counters[CNT_ILLEGAL] += 1
                action = -1
        else:
            counters[CNT_ILLEGAL] += 1
            action = -1
        if action == -1:  # the default: the drawn tile, else the first legal kind
            if drawn >= 0 and not after_call:
                action = drawn
                drawn_copy = True
            else:
                for k in range(34):
                    if hand[k] > 0 and not (after_call and (k == forbid_a or k == forbid_b)):
                        action = k
                        break
        if not dark_face_down_ok(obs, cur, face_down, counters[CNT_ILLEGAL] == illegal_before and 0 <= action < 34,
                                 riichi_now):
            counters[CNT_ILLEGAL] += 1
            face_down = False
        if can_win and action != TSUMO:
            rec[cur, H_PASSED] += 1
            log_event(events, ev, EV_PASS, cur, drawn, best[RES_HAN], 1, 0)
            if in_riichi:  # a win let pass in riichi makes the seat furiten for the rest of the hand
                st[ST_FLAGS + cur, F_RIICHI_FURITEN] = 1

        # ---- tsumo
        if action == TSUMO:
            winners += 1
            if first_winner < 0:
                first_winner = cur
            if cur == dealer:
                dealer_won = True
            if topts[T.T_CHANT]:
                chant_apply(best, chant_bonus(streaks, cur), cur == dealer, True, sopts)
            if topts[T.T_FATE]:
                fate_scale(best, fate_multiplier(obs, cur))
            rec[cur, H_STRIKE_HAN] = ss_han
            settle_tsumo(obs, st, topts, sopts, rec, delta, cur, best, honba, winners, events, ev, drawn)
            if topts[T.T_DARKNESS]:
                dark_take_pot(obs, rec, delta, cur, events, ev)
            if not bloodbath:
                end = END_WIN
                break
            if anyone_below_zero(obs):
                end = END_BUST
                break
            if winners >= 3:
                end = END_THREE_WINS
                break
            if kans_abort:  # a replacement-draw win on a fourth kan by several players: settle, then abort
                end = END_KANS
                break
            _after_bloodbath_win(obs, st)
            if kan_draw and st[ST_MISC, MS_PENDING_DORA] > 0:  # S-12
                _flip_pending(obs, st, wall, events, ev)
            cur = _next_active(obs, cur)
            need_draw = True
            last_kan_seat = -1
            continue
        if action == NINE_TERMINALS:
            log_event(events, ev, EV_ABORT, cur, -1, END_NINE, 0, 0)
            end = END_NINE
            break

        # ---- kans
        if KAN <= action < KAN + 34:
            kind = action - KAN
            option = kan_opts[kind]
            _flip_pending(obs, st, wall, events, ev)
            # chankan: an added kan may be robbed; a closed kan only by thirteen orphans
            kan_red = 0
            if option == 2 and holds_red(st, cur, kind):
                kan_red = 1  # the added tile is the seat's only copy in hand, the red five
            # logged before any rob, so a robbed kan is in the log and is the win's target
            log_event(events, ev, EV_KAN, cur, kind, tiles.ANKAN if option == 1 else tiles.KAKAN, -1,
                      2 if holds_red(st, cur, kind) else 0)
            n_rob = 0
            for step in range(1, 4):
                p = (cur + step) % 4
                if obs[0, O_WON + p] == 1 or st[ST_WAITS + p, kind] == 0 or obs[p, O_FURITEN] == 1:
                    continue
                status = score_win(obs, st, wall, p, kind, kan_red, False, FLAG_CHANKAN if option == 2 else 0, dealer,
                                   round_wind, sopts, conc, melds8, ctx, res)
                if status != SCORED or (topts[T.T_FANTASY] and fl_ron_banned(obs, p, dealer)):  # FL 风纪
                    if option == 2:
                        _let_pass(obs, st, p)  # shape only
                    continue
                if option == 1 and not (has_yaku(res, KOKUSHI) or has_yaku(res, KOKUSHI_13)):
                    continue
                if topts[T.T_SOUL_STRIKE]:
                    strike_score(obs, topts, sopts, res, cur, False, p == dealer)
                view[:] = obs[p]
                view[O_DECISION] = D_ROB
                view[O_TILE] = kind
                view[O_FROM] = cur
                view[O_CAN_WIN] = 1
                view[O_WIN_HAN] = res[RES_HAN]
                view[O_WIN_FU] = res[RES_FU]
                view[O_WIN_POINTS] = res[RES_TOTAL]
                answer = _ask(hooks_rob[p], p, obs, view, params, tables)
                if answer == RON:
                    claimants[n_rob] = p
                    n_rob += 1
                else:
                    if answer != 0:
                        counters[CNT_ILLEGAL] += 1
                    _passed_ron(obs, st, rec, p, kind, res[RES_HAN], events, ev)
            if n_rob > 0:
                if topts[T.T_HEAD_BUMP]:
                    n_rob = head_bump(n_rob)
                for i in range(n_rob):
                    p = claimants[i]
                    score_win(obs, st, wall, p, kind, kan_red, False, FLAG_CHANKAN if option == 2 else 0, dealer,
                              round_wind, sopts, conc, melds8, ctx, res)
                    if topts[T.T_SOUL_STRIKE]:
                        rec[p, H_STRIKE_HAN] = strike_score(obs, topts, sopts, res, cur, False, p == dealer)
                    winners += 1
                    if p == dealer:
                        dealer_won = True
                    if topts[T.T_CHANT]:
                        chant_apply(res, chant_bonus(streaks, p), p == dealer, False, sopts)
                    if topts[T.T_FATE]:
                        fate_scale(res, fate_multiplier(obs, p))
                    settle_ron(obs, st, topts, sopts, rec, delta, p, cur, res, _honba_of(topts, honba, i), i == 0,
                               winners, events, ev, kind)
                    if topts[T.T_DARKNESS] and i == 0:
                        dark_take_pot(obs, rec, delta, p, events, ev)
                if first_winner < 0:
                    first_winner = claimants[0]
                if not bloodbath:
                    take_tile(obs, st, cur, kind, kan_red)  # the robbed tile goes to the winners
                    if topts[T.T_MIRROR]:
                        mirror_lose(obs, cur, kind, 1)
                    if topts[T.T_FATE]:
                        fate_after_loss(obs, cur, kind, called)
                    robbed_tiles += 1
                    end = END_WIN
                    break
                if anyone_below_zero(obs):
                    end = END_BUST
                    break
                if winners >= 3:
                    end = END_THREE_WINS
                    break
                _after_bloodbath_win(obs, st)
                # S-11: the kan stands, its indicator is flipped at once, the robbed player draws the replacement
            # ---- the kan itself
            if topts[T.T_MIRROR]:
                mirror_lose(obs, cur, kind, 4 if option == 1 else 1)
            if option == 1:
                take_for_meld(obs, st, cur, kind, 4)
                _add_meld(obs, cur, ANKAN_MELD, kind, 4)
            else:
                slot = _pon_slot(obs, cur, kind)
                take_for_meld(obs, st, cur, kind, 1)
                pub_set(obs, O_MELDS + 8 * cur + 2 * slot, KAKAN_MELD)
                pub_add(obs, O_MELD_TILES + 34 * cur + kind, 1)
            pub_add(obs, O_SEEN + kind, 4 if option == 1 else 1)
            rec[cur, H_KANS] += 1
            _after_kan(obs, st, cur)
            if option == 1 or n_rob > 0:
                flip_dora(obs, wall, events, ev)
            else:
                st[ST_MISC, MS_PENDING_DORA] += 1
            if topts[T.T_FANTASY]:  # FL 炒作
                fl_hype_flip(obs, topts, wall, cur, dealer, events, ev)
            if _four_kans_by_several(st):
                if n_rob > 0:  # S-11: settle the rob, then abort
                    end = END_KANS
                    break
                kans_abort = True
            update_waits(obs, st, cur, tables)
            drawn, pos = _rinshan(obs, st, wall, cur, events, ev, topts, pos, view, hooks_mode, params, tables,
                                  counters)
            kan_draw = True
            after_call = False
            last_kan_seat = cur
            continue

        # ---- discard
        tile = action
        drawn_copy = drawn_copy or (in_riichi and tile == drawn)  # in riichi only the drawn tile goes
        red = st[ST_MISC, MS_DRAWN_RED] if drawn_copy else plain_first(obs, st, cur, tile)
        take_tile(obs, st, cur, tile, red)
        tsumogiri = tile == drawn and not after_call and red == st[ST_MISC, MS_DRAWN_RED]  # the drawn copy left
        if topts[T.T_MIRROR]:
            clear = mirror_discard(obs, cur, tile, drawn_copy, st[ST_MISC, MS_DRAWN_CLEAR])
            tsumogiri = tsumogiri and clear == st[ST_MISC, MS_DRAWN_CLEAR]
        if topts[T.T_DRAGON_EYE]:
            eye_discard(obs, cur)
        if topts[T.T_FATE]:
            fate_after_loss(obs, cur, tile, called)
        if topts[T.T_CHANT]:
            chant_discard(obs, streaks, cur, tsumogiri)
            rec[cur, H_CHANT_HAN] = chant_bonus(streaks, cur)
        log_event(events, ev, EV_DISCARD, cur, tile, 1 if tsumogiri else 0, 1 if riichi_now else 0, red)
        st[ST_RIVER + cur, tile] += 1
        pub_add(obs, O_N_DISCARDS + cur, 1)
        hidden = False
        if face_down:
            hidden = dark_discard(obs, view, cur, tile, riichi_now, hooks_mode, params, tables, rec, delta, counters,
                                  events, ev)
        if not hidden:  # D: a tile still face down is in no public block, causes no furiten
            pub_add(obs, O_DISCARDED + 34 * cur + tile, 1)
            pub_add(obs, O_SEEN + tile, 1)
            pub_set(obs, O_SAFE + 34 * cur + tile, 1)
        rec[cur, H_DISC] += 1
        st[ST_FLAGS + cur, F_IPPATSU] = max(st[ST_FLAGS + cur, F_IPPATSU] - 1, 0)  # FL 三倍速: 3 discards
        st[ST_FLAGS + cur, F_TEMP_FURITEN] = 0
        if not _terminal_or_honor(tile) and not hidden:  # D: nagashi judges face-up discards only
            st[ST_FLAGS + cur, F_NAGASHI] = 0
        if first_turn and 27 <= tile <= 30 and not hidden:
            first_winds[cur] = tile
        riichi_kind = 0
        if riichi_now:
            riichi_kind = 2 if first_turn else 1
            log_event(events, ev, EV_RIICHI, cur, tile, riichi_kind, 0, 0)
            pub_set(obs, O_RIICHI + cur, riichi_kind)
            pub_set(obs, O_RIICHI_TILE + cur, obs[0, O_N_DISCARDS + cur] - 1)
        if last_kan_seat == cur:  # an open or added kan's indicator after the kan player's discard
            _flip_pending(obs, st, wall, events, ev)
            if topts[T.T_MIRROR]:
                mirror_dead(obs, st, wall)
        last_kan_seat = -1
        update_waits(obs, st, cur, tables)
        after_call = False
        kan_draw = False
        forbid_a = -1
        forbid_b = -1

        n_ron = 0
        caller = -1
        call = 0
        chi_seat = _next_active(obs, cur)
        for step in range(1, 4):
            p = (cur + step) % 4
            answers[p] = 0
            if obs[0, O_WON + p] == 1 or hidden:  # D: no call, no ron on a face-down tile
                continue
            phand = obs[p, O_HAND:O_HAND + 34]
            p_riichi = obs[0, O_RIICHI + p] > 0
            can_ron = False
            completes = st[ST_WAITS + p, tile] != 0
            if completes and obs[p, O_FURITEN] == 0:
                flags = FLAG_HOUTEI if wall_left == 0 else 0
                can_ron = score_win(obs, st, wall, p, tile, red, False, flags, dealer, round_wind, sopts, conc,
                                    melds8, ctx, res) == SCORED
                if can_ron and topts[T.T_FANTASY] and fl_ron_banned(obs, p, dealer):  # FL 风纪
                    can_ron = False
                if can_ron and topts[T.T_SOUL_STRIKE]:
                    strike_score(obs, topts, sopts, res, cur, riichi_now or strike_active(obs, cur), p == dealer)
            can_pon = (not p_riichi) and phand[tile] >= 2 and wall_left > 0
            if can_pon:
                phand[tile] -= 2
                can_pon = _legal_after_call(phand, tile, -1)
                phand[tile] += 2
            can_kan = (not p_riichi) and phand[tile] == 3 and kan_room > 0 and st[ST_MISC, MS_N_KANS] < T.MAX_KANS
            chi = 0
            if p == chi_seat and not p_riichi and wall_left > 0:
                chi = _chi_bits(phand, tile)
            if completes and not can_ron:
                _let_pass(obs, st, p)  # shape only, yaku or not
            if not (can_ron or can_pon or can_kan or chi):
                continue
            view[:] = obs[p]
            view[O_DECISION] = D_REACT
            view[O_TILE] = tile
            view[O_FROM] = cur
            view[O_CAN_PON] = 1 if can_pon else 0
            view[O_CAN_KAN] = 1 if can_kan else 0
            view[O_CAN_CHI] = chi
            if can_ron:
                view[O_CAN_WIN] = 1
                view[O_WIN_HAN] = res[RES_HAN]
                view[O_WIN_FU] = res[RES_FU]
                view[O_WIN_POINTS] = res[RES_TOTAL]
            answer = _ask(hooks_react[p], p, obs, view, params, tables)
            if answer == RON and can_ron:
                claimants[n_ron] = p
                n_ron += 1
                continue
            if can_ron:
                _passed_ron(obs, st, rec, p, tile, view[O_WIN_HAN], events, ev)
            if answer == PON and can_pon:
                if call != KAN_CALL and call != PON:
                    caller, call = p, PON
            elif answer == KAN_CALL and can_kan:
                caller, call = p, KAN_CALL
            elif (answer == CHI_LOW and chi & 1) or (answer == CHI_MID and chi & 2) or (answer == CHI_HIGH and chi & 4):
                if call == 0:
                    caller, call = p, answer
            elif answer != 0:
                counters[CNT_ILLEGAL] += 1

        if n_ron > 0 and topts[T.T_HEAD_BUMP]:
            n_ron = head_bump(n_ron)
        if n_ron > 0:
            if bloodbath:
                st[ST_FLAGS + cur, F_NAGASHI] = 0  # S-15
            for i in range(n_ron):
                p = claimants[i]
                if obs[p, O_FURITEN] == 1:
                    counters[CNT_FURITEN_RONS] += 1
                flags = FLAG_HOUTEI if wall_left == 0 else 0
                score_win(obs, st, wall, p, tile, red, False, flags, dealer, round_wind, sopts, conc, melds8, ctx,
                          res)
                if topts[T.T_SOUL_STRIKE]:
                    rec[p, H_STRIKE_HAN] = strike_score(obs, topts, sopts, res, cur,
                                                        riichi_now or strike_active(obs, cur), p == dealer)
                winners += 1
                if p == dealer:
                    dealer_won = True
                if topts[T.T_CHANT]:
                    chant_apply(res, chant_bonus(streaks, p), p == dealer, False, sopts)
                if topts[T.T_FATE]:
                    fate_scale(res, fate_multiplier(obs, p))
                settle_ron(obs, st, topts, sopts, rec, delta, p, cur, res, _honba_of(topts, honba, i), i == 0, winners,
                           events, ev, tile)
                if topts[T.T_DARKNESS] and i == 0:  # D: the pot goes with the sticks
                    dark_take_pot(obs, rec, delta, p, events, ev)
            if first_winner < 0:
                first_winner = claimants[0]
            if topts[T.T_SOUL_STRIKE]:
                strike_after_discard(obs, st, topts, rec, cur, riichi_now, True)
            if not bloodbath:
                end = END_WIN
                if riichi_now:  # a declaration tile dealt in: no riichi, no stick
                    pub_set(obs, O_RIICHI + cur, 0)
                    pub_set(obs, O_RIICHI_TILE + cur, -1)
                break
            if anyone_below_zero(obs):
                end = END_BUST
                break
            if riichi_now:  # S-10
                if obs[0, O_POINTS + cur] >= T.RIICHI_COST:
                    deposit_stick(obs, rec, delta, cur, events, ev)
                else:
                    pub_set(obs, O_RIICHI + cur, 0)
                    pub_set(obs, O_RIICHI_TILE + cur, -1)
            if winners >= 3:
                end = END_THREE_WINS
                break
            _after_bloodbath_win(obs, st)
            if _four_riichi(obs, topts):
                end = END_RIICHI
                break
            if kans_abort:
                end = END_KANS
                break
            cur = _next_active(obs, claimants[n_ron - 1])  # S-4: after the winner farthest from the discarder
            need_draw = True
            continue

        # nobody won on the discard
        for p in range(4):
            if p != cur and obs[0, O_RIICHI + p] > 0 and obs[0, O_WON + p] == 0 and not hidden:
                pub_set(obs, O_SAFE + 34 * p + tile, 1)
        if riichi_now:
            deposit_stick(obs, rec, delta, cur, events, ev)
            st[ST_FLAGS + cur, F_IPPATSU] = 1
            if topts[T.T_FANTASY]:  # FL 过度准备, 三倍速
                fl_riichi_extra(obs, delta, cur, events, ev)
                st[ST_FLAGS + cur, F_IPPATSU] = fl_ippatsu_turns(obs)
            if _four_riichi(obs, topts):
                log_event(events, ev, EV_ABORT, cur, -1, END_RIICHI, 0, 0)
                end = END_RIICHI
                break
        if first_turn and obs[0, O_TURN] == 4 and st[ST_MISC, MS_NO_CALL] == 1 and winners == 0:
            if first_winds[0] >= 0 and first_winds[0] == first_winds[1] == first_winds[2] == first_winds[3]:
                log_event(events, ev, EV_ABORT, cur, -1, END_WINDS, 0, 0)
                end = END_WINDS
                break
        if kans_abort:
            log_event(events, ev, EV_ABORT, cur, -1, END_KANS, 0, 0)
            end = END_KANS
            break
        if topts[T.T_SOUL_STRIKE]:
            strike_after_discard(obs, st, topts, rec, cur, riichi_now, call != 0)

        if call != 0 and topts[T.T_DRAGON_EYE]:
            eye_due(obs, eye_rng, topts, events, ev)
        if call == PON or call == KAN_CALL:
            copies = 2 if call == PON else 3
            if topts[T.T_MIRROR]:
                mirror_lose(obs, caller, tile, copies)
            hand_red = take_for_meld(obs, st, caller, tile, copies)
            called[caller, tile] += 1
            if red:
                st[ST_FLAGS + caller, F_RED_MELD] += 1
            st[ST_RIVER + cur, tile] -= 1
            st[ST_FLAGS + cur, F_NAGASHI] = 0
            pub_add(obs, O_SEEN + tile, copies)
            _add_meld(obs, caller, PON_MELD if call == PON else MINKAN_MELD, tile, copies + 1)
            rec[caller, H_CALLS] += 1
            _after_call(obs, st)
            if topts[T.T_PAO] and st[ST_FLAGS + caller, F_PAO] == 0 and tile >= 27 and \
                    _liable_after_call(obs, caller) == (1 if tile >= 31 else 2):
                st[ST_FLAGS + caller, F_PAO] = cur + 1
            if call == PON:
                log_event(events, ev, EV_PON, caller, tile, cur, 0, red + 2 * hand_red)
            else:
                log_event(events, ev, EV_KAN, caller, tile, tiles.MINKAN, cur, red + 2 * hand_red)
            if topts[T.T_FANTASY]:  # FL 暗中交易, 爱的代价, 炒作
                fl_after_call(obs, topts, wall, rec, delta, caller, cur, tile, red, True, dealer, events, ev)
            cur = caller
            if call == PON:
                after_call = True
                forbid_a = tile
                forbid_b = -1
                drawn = -1
                continue
            rec[caller, H_KANS] += 1
            _after_kan(obs, st, caller)
            st[ST_MISC, MS_PENDING_DORA] += 1
            if _four_kans_by_several(st):
                kans_abort = True
            update_waits(obs, st, caller, tables)
            drawn, pos = _rinshan(obs, st, wall, caller, events, ev, topts, pos, view, hooks_mode, params, tables,
                                  counters)
            kan_draw = True
            last_kan_seat = caller
            continue
        if call != 0:  # chi
            low = tile if call == CHI_LOW else (tile - 1 if call == CHI_MID else tile - 2)
            hand_red = 0
            for k in range(low, low + 3):
                if k != tile:
                    if topts[T.T_MIRROR]:
                        mirror_lose(obs, caller, k, 1)
                    hand_red += take_for_meld(obs, st, caller, k, 1)
                    pub_add(obs, O_SEEN + k, 1)
            if red:
                st[ST_FLAGS + caller, F_RED_MELD] += 1
            st[ST_RIVER + cur, tile] -= 1
            st[ST_FLAGS + cur, F_NAGASHI] = 0
            _add_meld(obs, caller, CHI_MELD, low, 3)
            called[caller, tile] += 1
            log_event(events, ev, EV_CHI, caller, low, tile, cur, red + 2 * hand_red)
            rec[caller, H_CALLS] += 1
            _after_call(obs, st)
            if topts[T.T_FANTASY]:  # FL 暗中交易, 爱的代价
                fl_after_call(obs, topts, wall, rec, delta, caller, cur, tile, red, False, dealer, events, ev)
            cur = caller
            after_call = True
            forbid_a = tile
            forbid_b = _chi_forbid(tile, call)
            drawn = -1
            continue
        cur = cur if topts[T.T_SOUL_STRIKE] and strike_active(obs, cur) else _next_active(obs, cur)  # SS
        need_draw = True

    if topts[T.T_FANTASY]:  # FL 没收
        fl_draw_sticks(obs, topts, end == END_EXHAUSTIVE, end != END_WIN and end != END_EXHAUSTIVE, dealer, rec,
                       delta, events, ev)
    # ---- exhaustive draw: nagashi mangan or noten payments (R-6, S-5, S-6)
    dealer_tenpai = False
    if end == END_EXHAUSTIVE:
        tenpai = np.zeros(4, np.bool_)
        nagashi = np.zeros(4, np.bool_)
        any_nagashi = False
        for s in range(4):
            if obs[0, O_WON + s]:
                continue
            tenpai[s] = tenpai_at_draw(obs[s, O_HAND:O_HAND + 34], obs[0, O_N_MELDS + s], suit_t, honor_t, mask)
            rec[s, H_TENPAI] = 1 if tenpai[s] else 0
            if st[ST_FLAGS + s, F_NAGASHI] == 1 and obs[0, O_N_DISCARDS + s] > 0:
                nagashi[s] = True
                any_nagashi = True
                rec[s, H_NAGASHI] = 1
        dealer_tenpai = tenpai[dealer]
        before = delta.copy()
        if any_nagashi:
            for s in range(4):
                if not nagashi[s]:
                    continue
                for p in range(4):
                    if p == s or obs[0, O_WON + p]:
                        continue
                    share = 4000 if (s == dealer or p == dealer) else 2000
                    pay(obs, p, s, share, delta, PAY_NAGASHI, events, ev)
        else:
            noten_payments(obs, topts, tenpai, delta, events, ev)
        if topts[T.T_FANTASY]:  # FL 夸大其词
            fl_exaggerate(obs, delta, before, any_nagashi, events, ev)
        for s in range(4):
            rec[s, H_NOTEN] = delta[s] - before[s]
        if anyone_below_zero(obs):
            end = END_BUST

    log_event(events, ev, EV_END, -1, -1, end, winners, 0)
    if _tiles_in_play(obs, st) + robbed_tiles + st[ST_MISC, MS_LIVE_END] - pos + T.DEAD_WALL + \
            obs[0, O_ASTROLOGY + A_N] != T.N_TILES:  # A: candidates in the pool
        counters[CNT_TILE_ERRORS] += 1
    if not bloodbath and end != END_BUST and anyone_below_zero(obs):
        end = END_BUST
    for s in range(4):
        rec[s, H_DELTA] = delta[s]
        rec[s, H_WINNERS] = winners
        rec[s, H_END] = end
        rec[s, H_WALL] = _wall_left(st, pos)
        rec[s, H_DIR] = direction + 1 if topts[T.T_EXCHANGE] else 0
        rec[s, H_RIICHI] = obs[0, O_RIICHI + s]
        rec[s, H_RIICHI_TURN] = obs[0, O_RIICHI_TILE + s]
    if topts[T.T_FANTASY]:
        fl_record(obs, rec)
    aborted = end == END_NINE or end == END_WINDS or end == END_RIICHI or end == END_KANS
    keeps = aborted or (topts[T.T_RENCHAN] == 1 and (dealer_won or (end == END_EXHAUSTIVE and dealer_tenpai)))
    return end, keeps


@nb.njit(cache=True)
def _four_riichi(obs, topts):
    """R-5 four riichi; S-8: four players in riichi at once, won ones not counting."""
    n = 0
    for s in range(4):
        if obs[0, O_RIICHI + s] > 0 and not (topts[T.T_FOUR_RIICHI_ACTIVE] and obs[0, O_WON + s]):
            n += 1
    return n == 4


@nb.njit(cache=True)
def _four_kans_by_several(st):
    if st[ST_MISC, MS_N_KANS] < 4:
        return False
    for s in range(4):
        if st[ST_FLAGS + s, F_KANS] == 4:
            return False
    return True


@nb.njit(cache=True)
def _honba_of(topts, honba, i):
    """R-3: on a multiple ron the honba bonus goes with the sticks to claimant 0, the winner first in turn order
    after the discarder (option honba_every_winner: to every winner)."""
    return honba if (i == 0 or topts[T.T_HONBA_EVERY_WINNER]) else 0


@nb.njit(cache=True)
def _passed_ron(obs, st, rec, seat, tile, han, events, ev):
    """R-4: passing a ron makes the seat temporarily furiten; in riichi, furiten for the rest of the hand."""
    rec[seat, H_PASSED] += 1
    log_event(events, ev, EV_PASS, seat, tile, han, 0, 0)
    _let_pass(obs, st, seat)


@nb.njit(cache=True)
def _let_pass(obs, st, seat):
    """R-4: a tile that completes the seat's shape went by (a ron passed, or a win without yaku): temporary
    furiten; in riichi, furiten for the rest of the hand. Furiten looks at the shape only."""
    st[ST_FLAGS + seat, F_TEMP_FURITEN] = 1
    if obs[0, O_RIICHI + seat] > 0:
        st[ST_FLAGS + seat, F_RIICHI_FURITEN] = 1
    refresh_furiten(obs, st, seat)


@nb.njit(cache=True)
def _after_call(obs, st):
    """Any call ends everyone's ippatsu and the first go-around (double riichi, chiihou, nine terminals)."""
    for s in range(4):
        st[ST_FLAGS + s, F_IPPATSU] = 0
    st[ST_MISC, MS_NO_CALL] = 0


@nb.njit(cache=True)
def _after_bloodbath_win(obs, st):
    """S-4: a win acts like a call for the other players."""
    _after_call(obs, st)


@nb.njit(cache=True)
def _after_kan(obs, st, seat):
    st[ST_MISC, MS_N_KANS] += 1
    st[ST_FLAGS + seat, F_KANS] += 1
    _after_call(obs, st)


@nb.njit(cache=True)
def _flip_pending(obs, st, wall, events, ev):
    while st[ST_MISC, MS_PENDING_DORA] > 0:
        flip_dora(obs, wall, events, ev)
        st[ST_MISC, MS_PENDING_DORA] -= 1


@nb.njit(cache=True)
def _rinshan(obs, st, wall, seat, events, ev, topts, pos, view, hooks_mode, params, tables, counters):
    """Replacement draw from the dead wall; the live wall gives its last tile to the dead wall (R-1), and the
    public wall count follows. A: the dead-wall tile joins the open pool and the seat picks a candidate.
    Returns (drawn kind, live-wall position)."""
    at = DEAD_START + st[ST_MISC, MS_RINSHAN]
    st[ST_MISC, MS_RINSHAN] += 1
    st[ST_MISC, MS_LIVE_END] -= 1
    if topts[T.T_ASTROLOGY] and astro_pool_open(obs):
        pos = astro_add_dead(obs, st, wall, at, pos, astro_floor(topts, T.T_ASTROLOGY), events, ev)
        drawn = astro_pick(obs, st, view, hooks_mode[seat], seat, params, tables, True, counters, CNT_ILLEGAL,
                           events, ev)
    else:
        drawn = _draw(obs, st, wall, at, seat, True, events, ev)
    pub_set(obs, O_WALL_LEFT, _wall_left(st, pos))
    if topts[T.T_MIRROR]:
        mirror_draw(obs, st, wall, seat, pos, True)
    return drawn, pos


# ----------------------------------------------------------------------------- whole matches
@nb.njit(cache=True)
def shuffled_wall(root_seed, match_id, hand_no, wall):
    """Fill `wall` with the 136 tile ids of hand `hand_no` (kind = id // 4; ids 16, 52, 88 are the red fives)
    and return the exchange direction (S-2: 0 next, 1 previous, 2 across); both depend only on the keys."""
    state = np.zeros(1, np.uint64)
    state[0] = rng.key_seed(root_seed, match_id, hand_no, STREAM_WALL)
    for i in range(T.N_TILES):
        wall[i] = i
    rng.shuffle(wall, state)
    state[0] = rng.key_seed(root_seed, match_id, hand_no, STREAM_DIRECTION)
    return rng.below(state, 3)


@nb.njit(cache=True)
def _reset_hand_state(obs, dealer, round_idx, honba, sticks):
    for s in range(4):
        points = obs[s, O_POINTS:O_POINTS + 4].copy()
        obs[s, :] = 0
        obs[s, O_POINTS:O_POINTS + 4] = points
        obs[s, O_SEAT] = s
        obs[s, O_DEALER] = dealer
        obs[s, O_ROUND] = round_idx
        obs[s, O_HONBA] = honba
        obs[s, O_STICKS] = sticks
        for i in range(5):
            obs[s, O_DORA + i] = -1


@nb.njit(cache=True)
def _someone_reached(obs, target):
    for s in range(4):
        if obs[0, O_POINTS + s] >= target:
            return True
    return False


_HOOKS = types.UniTuple(HOOK_TYPE, 4)
_SIG = types.int64(
    types.int64, types.int64[::1], _HOOKS, _HOOKS, _HOOKS, _HOOKS, _HOOKS, types.float64[:, ::1], types.int64[::1],
    types.int64[::1], types.uint8[:, ::1], types.int32[:, ::1], types.int32[:, ::1], types.int64[::1],
    types.int32[:, ::1],
)


@nb.njit(_SIG, cache=True)
def play_matches(root_seed, match_ids, hooks_ex, hooks_turn, hooks_react, hooks_rob, hooks_mode, params, topts, sopts,
                 tables, hand_rows, match_rows, counters, events):
    """Play every match in `match_ids`; returns the number of hand rows written (jit-compiled).

    hand_rows needs 4 × MAX_HANDS rows per match, match_rows 4. The wall, the exchange direction and the
    seats' random streams of hand h of match m depend only on (root_seed, m, h).
    """
    obs = np.zeros((4, R_OBS_SIZE), np.int32)
    view = np.zeros(R_OBS_SIZE, np.int32)
    st = np.zeros((N_ST, 34), np.int64)
    rec = np.zeros((4, N_HAND_COLS), np.int64)
    wall = np.empty(T.N_TILES, np.int64)
    seat_seeds = np.zeros(8, np.int64)  # per-hand keyed seeds: seats 0..3, then mode streams (4: DE eye)
    ev = np.zeros(3, np.int64)
    cards = np.zeros(3, np.int64)  # FL: the match's dealer, chance and fate card
    n_rows = 0
    n_base = topts[T.T_N_HANDS]
    for mi in range(match_ids.size):
        match_id = match_ids[mi]
        obs[:, :] = 0
        for s in range(4):
            obs[s, O_POINTS:O_POINTS + 4] = topts[T.T_START_POINTS]
        dealer = 0
        round_idx = 0
        honba = 0
        sticks = 0
        pot = 0  # D: the darkness pot, carried over hands like the sticks
        hands_played = 0
        busted = False
        if topts[T.T_FANTASY]:
            fl_draw_cards(root_seed, match_id, topts, cards)
        for hand_no in range(1, T.MAX_HANDS + 1):
            _reset_hand_state(obs, dealer, round_idx, honba, sticks)
            if topts[T.T_FANTASY]:
                fl_publish(obs, cards)
            if topts[T.T_DARKNESS]:
                dark_start(obs, pot)
            direction = shuffled_wall(root_seed, match_id, hand_no, wall)
            for s in range(4):
                seat_seeds[s] = np.int64(rng.key_seed(root_seed, match_id, hand_no, STREAM_SEAT + s) >> np.uint64(33))
            if topts[T.T_DRAGON_EYE]:
                seat_seeds[4] = eye_seed(root_seed, match_id, hand_no)
            points_before = obs[0, O_POINTS:O_POINTS + 4].copy()
            rec[:, :] = 0
            ev[1] = match_id
            ev[2] = hand_no
            end, keeps = _play_hand(obs, view, st, hooks_ex, hooks_turn, hooks_react, hooks_rob, hooks_mode, params,
                                    topts, sopts, tables, wall, direction, seat_seeds, rec, counters, events, ev)
            counters[CNT_HANDS] += 1
            sticks_after = obs[0, O_STICKS]
            pot_after = obs[0, O_DARKNESS + DK_POT]
            for s in range(4):
                rec[s, H_MATCH] = match_id
                rec[s, H_HAND] = hand_no
                rec[s, H_SEAT] = s
                rec[s, H_DEALER] = 1 if s == dealer else 0
                rec[s, H_ROUND] = round_idx
                rec[s, H_HONBA] = honba
                rec[s, H_STICKS0] = sticks
                rec[s, H_STICKS1] = sticks_after
                rec[s, H_BEFORE] = points_before[s]
                rec[s, H_MULTIPLIER] = fate_multiplier(obs, s)
                rec[s, H_POT0] = pot
                rec[s, H_POT1] = pot_after
                hand_rows[n_rows] = rec[s]
                n_rows += 1
            hands_played = hand_no
            sticks = sticks_after
            pot = pot_after
            if end == END_BUST:
                busted = True
                break
            played_round = round_idx
            aborted = end == END_NINE or end == END_WINDS or end == END_RIICHI or end == END_KANS
            if topts[T.T_HONBA] and (keeps or end == END_EXHAUSTIVE):
                honba += 1
            elif not keeps:
                honba = 0
            if topts[T.T_FANTASY]:  # FL 永夜
                honba = fl_honba(obs, topts, honba, keeps, aborted)
            if not keeps:
                dealer = (dealer + 1) % 4
                round_idx += 1
            # East only; all-last dealer stops when top with 30000; South extension in sudden death, but a
            # dealer who keeps the deal plays on unless then first with 30000 (the same agari-yame)
            if played_round >= n_base - 1:
                if keeps and not aborted and rank_of(obs, O_POINTS, obs[0, O_DEALER]) == 1 and \
                        obs[0, O_POINTS + obs[0, O_DEALER]] >= T.TARGET_POINTS:
                    break
                if not keeps:
                    if not topts[T.T_EXTENSION] or _someone_reached(obs, T.TARGET_POINTS) or round_idx >= 8:
                        break
        # unclaimed sticks (and the darkness pot, D) go to first place, then the final ranks
        for s in range(4):
            if rank_of(obs, O_POINTS, s) == 1:
                pub_add(obs, O_POINTS + s, 1000 * sticks + pot)
                break
        write_match_rows(obs, O_POINTS, match_rows, mi * 4, match_id, busted, hands_played)
    counters[CNT_EVENTS] = ev[0]
    return n_rows
