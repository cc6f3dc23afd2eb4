"""The compiled riichi match kernel shared by every riichi-based mode (RULES.md R-1 … R-6, S-1 … S-16, and
DF, A, D, M, F, C, SS, FL, DE, OD).

`play_matches` plays whole matches under the rule options of sims.riichi.rules (standard East game, Battle
of Shura's bloodbath with exchange and tsumo loss, or any other special mode, whose rules live in one small
kernel module each and act only through the dispatch points of sims.riichi.mode_phases) and writes one record
row per (match, hand, seat) and per (match, seat) in the layout of sims.riichi.columns. Seats decide through five
tuples of four hooks (policies.riichi_api), so one compiled engine serves every combination of policies.

Public state and each seat's own tiles live in `obs[4, ROBS.SIZE]`; hidden state is the wall and the
`st` block of sims.riichi.tableau (waits, rivers, red fives, per-seat flags); everything else a match and a
hand in play hold is the `hs` block of sims.riichi.hand_state. Payments: sims.riichi.settle.

Play is resumable: `run_hand` advances a hand phase by phase (hs[phase], PH_*) and stops before any decision
numbered hs[stop_at]; the arrays are then a position that sims.riichi.resume continues from, with a forced answer
or the seat's own. `play_matches` is the loop begin_match → (begin_hand → run_hand → close_hand)* → finish_match;
the entry points for positions (`play_to_decision`, `resume`) live in sims.riichi.resume, compiled only by the
commands that analyse positions (Python edge: sims.riichi.positions).

Arguments travel in the four groups of sims.riichi.bundles: `state` (PlayState: hs, obs, view, st, wall, rec,
ev), `seating` (Seating: the five hook tuples and params), `rules` (RuleArrays: topts, sopts, the lookup rows)
and `log` (PlayLog: counters, events). The entry points and every step that used to take 12 or more arrays take
the groups and unpack them in their first lines; smaller helpers still take the few arrays they use.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import types

from tsumolab.sims.decisions import (
    CHI_HIGH, CHI_LOW, CHI_MID, D_EXCHANGE, D_REACT, D_ROB, D_TURN, KAN, KAN_CALL, NINE_TERMINALS,
    PON, RIICHI, RON, TSUMO, TSUMOGIRI,
)
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims import rng, tiles
from tsumolab.sims.jit import copy_row, inline, step
from tsumolab.sims.events import EV_DEAL, EV_DISCARD, EV_DRAW, EV_END, EV_EXCHANGE, EV_KAN, EV_PASS, EV_PON, EV_START, \
    log_event
from tsumolab.sims.riichi import rules as T
from tsumolab.sims.riichi.columns import (
    H_BEFORE, H_CALLS, H_DEALER, H_DELTA, H_DIR, H_DISC, H_END, H_HAND, H_HONBA, H_KANS, H_MATCH,
    H_NAGASHI, H_NOTEN, H_PASSED, H_POT0, H_POT1, H_RIICHI, H_RIICHI_TURN, H_ROUND, H_SEAT, H_STICKS0,
    H_STICKS1, H_STRIKE_HAN, H_TENPAI, H_WALL, H_WINNERS, N_HAND_COLS,
)
from tsumolab.sims.riichi.bundles import (
    PLAY_LOG_TYPE, RULE_ARRAYS_TYPE, SEATING_TYPE, PlayState,
)
from tsumolab.sims.riichi.events import PAY_NAGASHI
from tsumolab.sims.riichi.hand_state import (
    HAND_START, HS, PH_AFTER_DEAL, PH_AFTER_REACT, PH_DARK_LOCK, PH_DARK_OPEN, PH_DEAL, PH_DONE, PH_DRAW, PH_END,
    PH_EXCHANGE, PH_PICK_ASK, PH_REACT, PH_REACT_ASK, PH_ROB, PH_ROB_ASK, PH_ROB_SETTLE, PH_TURN, PH_TURN_ASK,
    PH_TURN_AUTO,
)
from tsumolab.sims.riichi.settle import (  # noqa: F401  (settle_tsumo, noten_payments, WIN_* re-exported for tests)
    WIN_RON, WIN_TSUMO, deposit_stick, has_yaku, noten_payments, settle_ron, settle_tsumo, tenpai_at_draw,
)
from tsumolab.sims.riichi.streams import STREAM_DIRECTION, STREAM_SEAT, STREAM_WALL
from tsumolab.sims.riichi.scoring import (
    FLAG_CHANKAN, FLAG_CHIIHOU, FLAG_HAITEI, FLAG_HOUTEI, FLAG_RINSHAN, FLAG_TENHOU, N_CTX, N_RES, RES_FU,
    RES_HAN, RES_TOTAL, SCORED,
)
from tsumolab.sims.riichi.tableau import (
    DEAD_START, EV_ABORT, EV_CHI, EV_RIICHI, F_DRAWS, F_IPPATSU, F_KANS, F_NAGASHI, F_PAO,
    F_RED_MELD, F_RIICHI_FURITEN, F_TEMP_FURITEN, MS_DRAWN_CLEAR, MS_DRAWN_RED, MS_LIVE_END, MS_N_KANS, MS_NO_CALL,
    MS_NO_RED, MS_PENDING_DORA, MS_RINSHAN, N_ST, ST_FLAGS, ST_MISC, ST_RIVER, ST_WAITS, anyone_below_zero,
    flip_dora, give_tile, holds_red, is_red, pay, plain_first, refresh_furiten, score_win, take_for_meld, take_tile,
    update_waits,
)
from tsumolab.sims.riichi.yaku import KOKUSHI, KOKUSHI_13
from tsumolab.sims.shanten import RIICHI_SHAPES, is_complete, shanten, winning_tiles
from tsumolab.sims.shanten_tables import SUIT_ROWS
from tsumolab.sims.table_state import next_active, pub_add, pub_set, rank_of, write_match_rows
from tsumolab.sims.riichi.mode_phases import (  # every special mode acts through these (and nowhere else here)
    modes_adjust_win, modes_after_deal, modes_after_discard, modes_after_draw, modes_after_win, modes_before_deal,
    modes_before_draw_or_call, modes_begin_hand, modes_begin_match, modes_call, modes_claimants, modes_dark_lock_answer,
    modes_dark_lock_view, modes_dark_open_answer, modes_dark_open_seat, modes_dark_opened, modes_dark_settled,
    modes_discard, modes_draw, modes_draws_left, modes_exhaustive, modes_face_down, modes_face_down_ok,
    modes_hand_end, modes_indicator_after_discard, modes_keeps_turn, modes_kan, modes_lose, modes_next_honba,
    modes_pick, modes_pick_view, modes_play_starts, modes_pot, modes_record, modes_replacement_draw,
    modes_riichi_cost, modes_riichi_declared, modes_robbed, modes_ron_allowed, modes_score, modes_strike_discard,
    modes_tiles_aside, modes_turn_answer, modes_turn_start, transparent,
)

CHI_MELD, PON_MELD, MINKAN_MELD, ANKAN_MELD, KAKAN_MELD = (tiles.CHI + 1, tiles.PON + 1, tiles.MINKAN + 1,
                                                           tiles.ANKAN + 1, tiles.KAKAN + 1)
END_WIN, END_EXHAUSTIVE, END_NINE, END_WINDS, END_RIICHI, END_KANS, END_BUST, END_THREE_WINS = range(8)

CNT_ILLEGAL = 0        # illegal policy answers replaced by a default
CNT_HANDS = 1
CNT_TILE_ERRORS = 2    # hands whose 136 tiles did not add up at the end (must stay 0)
CNT_EVENTS = 3
CNT_FURITEN_RONS = 4   # rons by a seat the engine holds furiten (must stay 0)
N_COUNTERS = 5



# ----------------------------------------------------------------------------- small helpers


@nb.njit(cache=True)
def _ask(hook, seat, obs, view, params, tables):
    answer = hook(view, params[seat], tables)
    obs[seat, ROBS.rng] = view[ROBS.rng]
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
    n = obs[0, ROBS.n_melds + seat]
    pub_set(obs, ROBS.melds + 8 * seat + 2 * n, mtype)
    pub_set(obs, ROBS.melds + 8 * seat + 2 * n + 1, kind)
    pub_add(obs, ROBS.n_melds + seat, 1)
    if mtype == CHI_MELD:
        for d in range(3):
            pub_add(obs, ROBS.meld_tiles + 34 * seat + kind + d, 1)
    else:
        pub_add(obs, ROBS.meld_tiles + 34 * seat + kind, 4 if mtype != PON_MELD else 3)
    if mtype != ANKAN_MELD:
        pub_set(obs, ROBS.open + seat, 1)


@nb.njit(cache=True)
def _pon_slot(obs, seat, kind):
    for i in range(obs[0, ROBS.n_melds + seat]):
        if obs[0, ROBS.melds + 8 * seat + 2 * i] == PON_MELD and obs[0, ROBS.melds + 8 * seat + 2 * i + 1] == kind:
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
    for i in range(obs[0, ROBS.n_melds + seat]):
        mtype = obs[0, ROBS.melds + 8 * seat + 2 * i]
        kind = obs[0, ROBS.melds + 8 * seat + 2 * i + 1]
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
            n += obs[s, ROBS.hand + k] + st[ST_RIVER + s, k] + obs[0, ROBS.meld_tiles + 34 * s + k]
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
    pub_add(obs, ROBS.turn, 1)
    st[ST_FLAGS + seat, F_DRAWS] += 1
    return kind


@nb.njit(cache=True)
def _wall_left(st, pos):
    return st[ST_MISC, MS_LIVE_END] - pos




# ----------------------------------------------------------------------------- decisions
@step
def _decide(hs, hook, seat, obs, view, params, tables):
    """Ask `seat` the question in `view` → (stopped, answer). Stops instead when this is decision number
    hs[stop_at] and no answer is forced; a forced answer replaces the hook's (which is still asked, so the
    seat's random stream moves exactly as in uninterrupted play)."""
    hs[HS.dec_seat] = seat
    forced = hs[HS.has_forced] == 1 and (hs[HS.forced_seat] < 0 or hs[HS.forced_seat] == seat)
    if hs[HS.n_decisions] == hs[HS.stop_at] and not forced:
        return True, 0
    answer = _ask(hook, seat, obs, view, params, tables)
    hs[HS.last_answer] = answer
    if forced:
        answer = hs[HS.forced]
        hs[HS.has_forced] = 0
    hs[HS.n_decisions] += 1
    return False, answer


@inline
def _eye_rng(hs):
    return hs[HS.eye_rng:HS.eye_rng + 1].view(np.uint64)


@inline
def _called(hs):
    return hs[HS.called:HS.called + 4 * 34].reshape((4, 34))


@inline
def _streaks(hs):
    return hs[HS.streaks:HS.streaks + 20].reshape((5, 4))


@nb.njit(cache=True)
def _end_hand(hs, end):
    hs[HS.end] = end
    hs[HS.phase] = PH_END


# ----------------------------------------------------------------------------- settling wins
@nb.njit(cache=True)
def _settle_win(state, rules, log, winner, discarder, res, take_sticks, win_tile):
    """One win, by tsumo (discarder -1), ron or robbed kan: the modes' win adjustments (C bonus han, F
    multiplier), the payments (sims.riichi.settle), then the darkness pot with the sticks (D)."""
    hs, obs, st, rec, ev = state.hs, state.obs, state.st, state.rec, state.ev
    topts, sopts = rules.topts, rules.sopts
    events = log.events
    hs[HS.winners] += 1
    if hs[HS.first_winner] < 0:
        hs[HS.first_winner] = winner
    dealer = hs[HS.dealer]
    if winner == dealer:
        hs[HS.dealer_won] = 1
    modes_adjust_win(obs, topts, sopts, res, _streaks(hs), winner, winner == dealer, discarder < 0)
    delta = hs[HS.delta:HS.delta + 4]
    if discarder < 0:
        settle_tsumo(obs, st, topts, sopts, rec, delta, winner, res, hs[HS.honba], hs[HS.winners], events, ev,
                     win_tile)
    else:
        settle_ron(obs, st, topts, sopts, rec, delta, winner, discarder, res,
                   _honba_of(topts, hs[HS.honba], 0 if take_sticks else 1), take_sticks, hs[HS.winners], events, ev,
                   win_tile)
    modes_after_win(obs, rec, delta, topts, winner, take_sticks, events, ev)


# ----------------------------------------------------------------------------- phases of a hand
@nb.njit(cache=True)
def _deal(hs, obs, st, wall, topts, events, ev):
    """PH_DEAL: 13 tiles each from the wall, the dealer's 14th, the modes' start-of-hand rules."""
    dealer = obs[0, ROBS.dealer]
    hs[HS.dealer] = dealer
    hs[HS.round_wind] = obs[0, ROBS.round] // 4
    honba = obs[0, ROBS.honba] if topts[T.T_HONBA] else 0
    hs[HS.honba] = honba
    hs[HS.riichi_cost] = modes_riichi_cost(obs, topts)
    st[:, :] = 0
    st[ST_MISC, MS_NO_RED] = 1 - topts[T.T_RED_FIVES]
    st[ST_MISC, MS_LIVE_END] = DEAD_START
    st[ST_MISC, MS_NO_CALL] = 1
    for s in range(4):
        obs[s, ROBS.rng] = hs[HS.seeds + s]
        st[ST_FLAGS + s, F_NAGASHI] = 1
        pub_set(obs, ROBS.riichi_tile + s, -1)
        obs[s, ROBS.seat_wind] = (s - dealer) % 4
        obs[s, ROBS.round_wind] = hs[HS.round_wind]
        hs[HS.first_winds + s] = -1
    log_event(events, ev, EV_START, dealer, -1, hs[HS.direction], obs[0, ROBS.round], honba)
    modes_before_deal(obs, topts, _eye_rng(hs), hs[HS.seeds:HS.seeds + 8], events, ev)
    pos = 0
    for i in range(4):
        seat = (dealer + i) % 4
        for _ in range(T.DEAL_SIZE):
            red = is_red(wall[pos]) and topts[T.T_RED_FIVES] == 1
            log_event(events, ev, EV_DEAL, seat, wall[pos] // 4, 1 if red else 0, 0, 0)
            give_tile(obs, st, seat, wall[pos] // 4, red)
            pos += 1
    modes_after_deal(obs, topts, wall, dealer)
    hs[HS.drawn] = _draw(obs, st, wall, pos, dealer, False, events, ev)
    pos += 1
    pub_set(obs, ROBS.wall_left, _wall_left(st, pos))
    hs[HS.pos] = pos
    hs[HS.cur] = dealer
    hs[HS.forbid_a] = -1
    hs[HS.forbid_b] = -1
    hs[HS.last_kan_seat] = -1
    hs[HS.first_winner] = -1
    hs[HS.end] = END_EXHAUSTIVE
    hs[HS.caller] = -1
    hs[HS.phase] = PH_EXCHANGE if topts[T.T_EXCHANGE] else PH_AFTER_DEAL


@nb.njit(cache=True)
def _exchange_ask(hs, obs, view, st, hooks_ex, params, tables, counters, events, ev):
    """PH_EXCHANGE (S-2): each seat in turn names any 3 tiles (none sees another's choice); after the fourth,
    all pass at once. A five passed is the plain one unless only the red is held (the log's c is the receiving
    seat + 4 × (bit i: tile i is the red five)). True when stopped."""
    s = hs[HS.ex_seat]
    view[:] = obs[s]
    view[ROBS.decision] = D_EXCHANGE
    stopped, answer = _decide(hs, hooks_ex[s], s, obs, view, params, tables)
    if stopped:
        return True
    given = hs[HS.given + 3 * s:HS.given + 3 * s + 3]
    ok = True
    for i in range(3):
        k = (answer >> (8 * i)) & 0xFF
        if k >= 34:
            ok = False
        given[i] = k if k < 34 else 0
    if ok:
        for i in range(3):
            need = 0
            for j in range(3):
                if given[j] == given[i]:
                    need += 1
            if obs[s, ROBS.hand + given[i]] < need:
                ok = False
    if not ok:
        counters[CNT_ILLEGAL] += 1
        i = 0
        for k in range(33, -1, -1):
            for _ in range(obs[s, ROBS.hand + k]):
                if i < 3:
                    given[i] = k
                    i += 1
    hs[HS.ex_seat] = s + 1
    if s < 3:
        return False
    reds = np.zeros((4, 3), np.int64)
    for p in range(4):
        for i in range(3):
            reds[p, i] = plain_first(obs, st, p, hs[HS.given + 3 * p + i])
            take_tile(obs, st, p, hs[HS.given + 3 * p + i], reds[p, i])
    direction = hs[HS.direction]
    shift = 1 if direction == 0 else (3 if direction == 1 else 2)
    for p in range(4):
        to = (p + shift) % 4
        g = HS.given + 3 * p
        log_event(events, ev, EV_EXCHANGE, p, hs[g], hs[g + 1], hs[g + 2],
                  to + 4 * (reds[p, 0] + 2 * reds[p, 1] + 4 * reds[p, 2]))
        for i in range(3):
            give_tile(obs, st, to, hs[g + i], reds[p, i] == 1)
    hs[HS.drawn] = -1  # the dealer's 14th tile may have been passed on
    hs[HS.phase] = PH_AFTER_DEAL
    return False


@nb.njit(cache=True)
def _after_deal(hs, obs, st, wall, topts, tables, events, ev):
    """PH_AFTER_DEAL: the first indicators (after the exchange, S-2; DF: several), everyone's waits, M's
    transparent tiles; then the dealer's turn."""
    for _ in range(topts[T.T_INITIAL_DORA]):
        flip_dora(obs, wall, events, ev)
    dealer = hs[HS.dealer]
    for s in range(4):
        if s != dealer:
            update_waits(obs, st, s, tables)
    modes_play_starts(obs, st, topts, wall, dealer, hs[HS.pos])
    hs[HS.phase] = PH_TURN


@step
def _draw_phase(state, seating, rules, log):
    """PH_DRAW: cur draws from the live wall, or the hand ends exhaustively (A: the pool is refilled and cur's
    pick follows, PH_PICK_ASK)."""
    hs, obs, view, st, wall, rec, ev = state
    topts = rules.topts
    events = log.events
    cur = hs[HS.cur]
    pos = hs[HS.pos]
    replaced, pos, can_draw = modes_draw(state, rules, log, pos)
    if replaced:
        hs[HS.pos] = pos
        if not can_draw:
            _end_hand(hs, END_EXHAUSTIVE)
            return
        hs[HS.drawn] = -1
        hs[HS.kan_draw] = 0
        hs[HS.after_call] = 0
        hs[HS.phase] = PH_PICK_ASK
        return
    if pos >= st[ST_MISC, MS_LIVE_END]:
        _end_hand(hs, END_EXHAUSTIVE)
        return
    modes_before_draw_or_call(obs, topts, _eye_rng(hs), events, ev)
    drawn = _draw(obs, st, wall, pos, cur, False, events, ev)
    pos += 1
    modes_after_draw(obs, st, wall, topts, cur, pos, False)
    pub_set(obs, ROBS.wall_left, _wall_left(st, pos))
    hs[HS.pos] = pos
    hs[HS.drawn] = drawn
    hs[HS.kan_draw] = 0
    hs[HS.after_call] = 0
    hs[HS.phase] = PH_TURN


@step
def _pick_ask(state, seating, rules, log):
    """PH_PICK_ASK (A): cur takes one candidate of the pool as its draw (a replacement draw when hs[kan_draw]);
    its turn follows. True when stopped before the pick."""
    hs, obs, view, st, wall = state.hs, state.obs, state.hook_input, state.st, state.wall
    cur = hs[HS.cur]
    replacement = hs[HS.kan_draw] == 1
    modes_pick_view(state, cur, replacement)
    stopped, answer = _decide(hs, seating.mode[cur], cur, obs, view, seating.params, rules.lookup)
    if stopped:
        return True
    hs[HS.drawn] = modes_pick(state, log, cur, answer, replacement, CNT_ILLEGAL)
    pos = hs[HS.pos]
    pub_set(obs, ROBS.wall_left, _wall_left(st, pos))
    if replacement:
        modes_after_draw(obs, st, wall, rules.topts, cur, pos, True)
    hs[HS.phase] = PH_TURN
    return False


@inline
def _drawn_win_flags(kan_draw, last_tile, first_turn, is_dealer):
    """The scorer's flags of a win on a drawn tile: rinshan, haitei, tenhou or chiihou (R-3)."""
    flags = 0
    if kan_draw:
        flags |= FLAG_RINSHAN
    elif last_tile:
        flags |= FLAG_HAITEI
    if first_turn and not kan_draw:
        flags |= FLAG_TENHOU if is_dealer else FLAG_CHIIHOU
    return flags


@step
def _turn_options(state, rules, conc, melds8, ctx, res, mask):
    """PH_TURN: what cur may do (tsumo, kans, riichi, nine terminals), into hs and `view`. True when there is
    nothing to decide (in riichi without a win or kan: the drawn tile goes)."""
    hs, obs, view, st, wall, rec, ev = state
    topts, sopts, tables = rules
    suit_t = tables[:SUIT_ROWS]
    honor_t = tables[SUIT_ROWS:]
    cur = hs[HS.cur]
    drawn = hs[HS.drawn]
    kan_draw = hs[HS.kan_draw] == 1
    after_call = hs[HS.after_call] == 1
    dealer = hs[HS.dealer]
    wall_left, kan_room = modes_draws_left(obs, topts, _wall_left(st, hs[HS.pos]))
    hand = obs[cur, ROBS.hand:ROBS.hand + 34]
    n_melds = obs[0, ROBS.n_melds + cur]
    in_riichi = obs[0, ROBS.riichi + cur] > 0
    first_turn = st[ST_MISC, MS_NO_CALL] == 1 and obs[0, ROBS.n_discards + cur] == 0
    if not after_call:
        modes_turn_start(obs, st, topts, cur, kan_draw)

    can_win = False
    complete = False
    if not after_call:
        if drawn >= 0 and (kan_draw or obs[0, ROBS.n_discards + cur] > 0):
            complete = st[ST_WAITS + cur, drawn] != 0  # the waits of the 13 tiles before this draw
        else:
            complete = is_complete(hand, n_melds, RIICHI_SHAPES, suit_t, honor_t)
    if complete:
        flags = _drawn_win_flags(kan_draw, wall_left == 0, first_turn, cur == dealer)
        win_kind = drawn if drawn >= 0 else -1
        status = score_win(obs, st, wall, cur, win_kind, 0, True, flags, dealer, hs[HS.round_wind], sopts, conc,
                           melds8, ctx, res)
        can_win = status == SCORED
        if can_win:
            hs[HS.ss_han] = modes_score(obs, topts, sopts, res, -1, False, cur == dealer)
    copy_row(view, obs[cur])
    view[ROBS.decision] = D_TURN
    view[ROBS.tile] = -1 if after_call else drawn
    view[ROBS.after_call] = 1 if after_call else 0
    view[ROBS.kan_draw] = 1 if kan_draw else 0
    view[ROBS.forbid_a] = hs[HS.forbid_a] if after_call else -1
    view[ROBS.forbid_b] = hs[HS.forbid_b] if after_call else -1
    any_kan = False
    kan_opts = hs[HS.kan_opts:HS.kan_opts + 34]
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
                view[ROBS.kan_options + k] = 1
                any_kan = True
            elif hand[k] >= 1 and not in_riichi and _pon_slot(obs, cur, k) >= 0:
                kan_opts[k] = 2
                view[ROBS.kan_options + k] = 2
                any_kan = True
    can_riichi = False
    if (not in_riichi and not after_call and obs[0, ROBS.open + cur] == 0 and (hs[HS.dama_seats] >> cur) & 1 == 0
            and obs[0, ROBS.points + cur] >= hs[HS.riichi_cost] and obs[0, ROBS.wall_left] >= 4):
        can_riichi = shanten(hand, n_melds, RIICHI_SHAPES, suit_t, honor_t) <= 0  # tenpai after some discard
    can_nine = first_turn and not after_call and not kan_draw and _orphan_kinds(hand) >= 9
    if can_win:
        view[ROBS.can_win] = 1
        view[ROBS.win_han] = res[RES_HAN]
        view[ROBS.win_fu] = res[RES_FU]
        view[ROBS.win_points] = res[RES_TOTAL]
        copy_row(hs[HS.best:HS.best + N_RES], res)
    view[ROBS.can_riichi] = 1 if can_riichi else 0
    view[ROBS.can_nine] = 1 if can_nine else 0
    hs[HS.wall_left] = wall_left
    hs[HS.kan_room] = kan_room
    hs[HS.first_turn] = 1 if first_turn else 0
    hs[HS.can_win] = 1 if can_win else 0
    hs[HS.can_riichi] = 1 if can_riichi else 0
    hs[HS.can_nine] = 1 if can_nine else 0
    hs[HS.any_kan] = 1 if any_kan else 0
    return in_riichi and not can_win and not any_kan


@nb.njit(cache=True)
def rescore_turn_win(hs, obs, st, wall, rules):
    """The win pending at a stopped turn (PH_TURN_ASK with a tsumo possible) scored again on the arrays as they
    are now. A determinization deals the ura indicators anew, and the tsumo settles with the value scored here
    (hs[best]), not with the one scored on the wall the position was stopped on."""
    if hs[HS.phase] != PH_TURN_ASK or hs[HS.can_win] != 1:
        return
    topts, sopts, tables = rules
    cur = hs[HS.cur]
    dealer = hs[HS.dealer]
    kan_draw = hs[HS.kan_draw] == 1
    flags = _drawn_win_flags(kan_draw, hs[HS.wall_left] == 0, hs[HS.first_turn] == 1, cur == dealer)
    res = np.zeros(N_RES, np.int64)
    status = score_win(obs, st, wall, cur, hs[HS.drawn], 0, True, flags, dealer, hs[HS.round_wind], sopts,
                       np.zeros(34, np.int8), np.zeros((4, 2), np.int8), np.zeros(N_CTX, np.int64), res)
    if status == SCORED:
        hs[HS.ss_han] = modes_score(obs, topts, sopts, res, -1, False, cur == dealer)
        copy_row(hs[HS.best:HS.best + N_RES], res)


@step
def _checked_turn_action(hs, obs, action, counters, tables, mask):
    """cur's turn `action` made legal: an illegal one (counted) becomes the drawn tile, else the first legal kind.
    Returns (action: a kind to discard, TSUMO, NINE_TERMINALS or KAN + kind; riichi declared with the discard;
    the discard is the copy just drawn, R-1: the red five or not, as drawn)."""
    cur = hs[HS.cur]
    drawn = hs[HS.drawn]
    after_call = hs[HS.after_call] == 1
    forbid_a = hs[HS.forbid_a]
    forbid_b = hs[HS.forbid_b]
    hand = obs[cur, ROBS.hand:ROBS.hand + 34]
    in_riichi = obs[0, ROBS.riichi + cur] > 0
    riichi_now = False
    drawn_copy = False
    if action == TSUMOGIRI or action == RIICHI + TSUMOGIRI:
        if drawn >= 0 and not after_call:
            drawn_copy = True
            action += drawn - TSUMOGIRI
        else:
            counters[CNT_ILLEGAL] += 1
            action = -1
    if action == TSUMO:
        if hs[HS.can_win] != 1:
            counters[CNT_ILLEGAL] += 1
            action = -1
    elif action == NINE_TERMINALS:
        if hs[HS.can_nine] == 0:
            counters[CNT_ILLEGAL] += 1
            action = -1
    elif KAN <= action < KAN + 34:
        if hs[HS.kan_opts + action - KAN] == 0:
            counters[CNT_ILLEGAL] += 1
            action = -1
    elif RIICHI <= action < RIICHI + 34:
        k = action - RIICHI
        ok = hs[HS.can_riichi] == 1 and hand[k] > 0
        if ok:
            hand[k] -= 1
            ok = winning_tiles(hand, obs[0, ROBS.n_melds + cur], RIICHI_SHAPES, hand, tables[:SUIT_ROWS],
                               tables[SUIT_ROWS:], mask) > 0
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
    return action, riichi_now, drawn_copy


@step
def _tsumo(state, rules, log, cur, drawn):
    """cur wins on its draw; the hand ends, or under bloodbath play goes on with the next seat (S-3)."""
    hs, obs, view, st, wall, rec, ev = state
    topts = rules.topts
    events = log.events
    rec[cur, H_STRIKE_HAN] = hs[HS.ss_han]
    _settle_win(state, rules, log, cur, -1, hs[HS.best:HS.best + N_RES], True, drawn)
    if topts[T.T_BLOODBATH] != 1:
        _end_hand(hs, END_WIN)
    elif anyone_below_zero(obs):
        _end_hand(hs, END_BUST)
    elif hs[HS.winners] >= 3:
        _end_hand(hs, END_THREE_WINS)
    elif hs[HS.kans_abort]:  # a replacement-draw win on a fourth kan by several players: settle, then abort
        _end_hand(hs, END_KANS)
    else:
        _after_bloodbath_win(obs, st)
        if hs[HS.kan_draw] and st[ST_MISC, MS_PENDING_DORA] > 0:  # S-12
            _flip_pending(obs, st, wall, events, ev)
        hs[HS.cur] = next_active(obs, ROBS.won, cur)
        hs[HS.last_kan_seat] = -1
        hs[HS.phase] = PH_DRAW


@step
def _declare_kan(hs, obs, st, wall, cur, kind, events, ev):
    """cur declares a closed or added kan of `kind`; the other seats may rob it first (PH_ROB)."""
    option = hs[HS.kan_opts + kind]
    _flip_pending(obs, st, wall, events, ev)
    # chankan: an added kan may be robbed; a closed kan only by thirteen orphans
    kan_red = 0
    if option == 2 and holds_red(st, cur, kind):
        kan_red = 1  # the added tile is the seat's only copy in hand, the red five
    # logged before any rob, so a robbed kan is in the log and is the win's target
    log_event(events, ev, EV_KAN, cur, kind, tiles.ANKAN if option == 1 else tiles.KAKAN, -1,
              2 if holds_red(st, cur, kind) else 0)
    hs[HS.tile] = kind
    hs[HS.kan_option] = option
    hs[HS.red] = kan_red
    hs[HS.step] = 1
    hs[HS.n_claims] = 0
    hs[HS.phase] = PH_ROB


@step
def _turn_action(state, seating, rules, log, action, mask):
    """PH_TURN_ASK answered: validate cur's action (an illegal one becomes the drawn tile, else the first legal
    kind), then tsumo, nine terminals, a kan (robbing first) or the discard."""
    hs, obs, view, st, wall, rec, ev = state
    topts, sopts, tables = rules
    counters, events = log
    cur = hs[HS.cur]
    drawn = hs[HS.drawn]
    can_win = hs[HS.can_win] == 1
    in_riichi = obs[0, ROBS.riichi + cur] > 0
    action, face_down = modes_turn_answer(topts, action)
    illegal_before = counters[CNT_ILLEGAL]
    action, riichi_now, drawn_copy = _checked_turn_action(hs, obs, action, counters, tables, mask)
    if not modes_face_down_ok(obs, cur, face_down, counters[CNT_ILLEGAL] == illegal_before and 0 <= action < 34,
                             riichi_now):
        counters[CNT_ILLEGAL] += 1
        face_down = False
    if can_win and action != TSUMO:
        rec[cur, H_PASSED] += 1
        log_event(events, ev, EV_PASS, cur, drawn, hs[HS.best + RES_HAN], 1, 0)
        if in_riichi:  # a win let pass in riichi makes the seat furiten for the rest of the hand
            st[ST_FLAGS + cur, F_RIICHI_FURITEN] = 1

    if action == TSUMO:
        _tsumo(state, rules, log, cur, drawn)
    elif action == NINE_TERMINALS:
        log_event(events, ev, EV_ABORT, cur, -1, END_NINE, 0, 0)
        _end_hand(hs, END_NINE)
    elif KAN <= action < KAN + 34:
        _declare_kan(hs, obs, st, wall, cur, action - KAN, events, ev)
    else:
        _discard(state, seating, rules, log, action, riichi_now, face_down,
                 drawn_copy or (in_riichi and action == drawn))  # in riichi the drawn tile


@step
def _declines_riichi(state, rules, cur, answer, conc, melds8, ctx, res, mask):
    """True when `answer`, forced on cur's turn with keeps_dama set, discards without the riichi it could declare
    and leaves the hand ready with a yaku for a ron on some winning tile: a dama that can ron is meant as dama (a
    wait without a yaku is kept dama only to change it)."""
    hs, obs, view, st, wall, rec, ev = state
    topts, sopts, tables = rules
    if hs[HS.keeps_dama] == 0 or hs[HS.can_riichi] == 0:
        return False
    kind = hs[HS.drawn] if answer == TSUMOGIRI else answer
    hand = obs[cur, ROBS.hand:ROBS.hand + 34]
    if not 0 <= kind < 34 or hand[kind] == 0:
        return False
    hand[kind] -= 1
    ron = False
    if winning_tiles(hand, obs[0, ROBS.n_melds + cur], RIICHI_SHAPES, hand, tables[:SUIT_ROWS], tables[SUIT_ROWS:],
                     mask) > 0:
        for w in range(34):
            if mask[w] and not ron:
                ron = score_win(obs, st, wall, cur, w, 0, False, 0, hs[HS.dealer], hs[HS.round_wind], sopts, conc,
                                melds8, ctx, res) == SCORED
    hand[kind] += 1
    return ron


@step
def _discard(state, seating, rules, log, tile, riichi_now, face_down, drawn_copy):
    """cur discards `tile` (declaring riichi with it when riichi_now; D: face down when face_down; the copy
    just drawn when drawn_copy, else a plain five before the red); the other seats are asked next (PH_REACT), or
    first (D) whether to open a face-down tile (PH_DARK_OPEN)."""
    hs, obs, view, st, wall, rec, ev = state
    events = log.events
    cur = hs[HS.cur]
    red = st[ST_MISC, MS_DRAWN_RED] if drawn_copy else plain_first(obs, st, cur, tile)
    take_tile(obs, st, cur, tile, red)
    tsumogiri = tile == hs[HS.drawn] and hs[HS.after_call] == 0 and red == st[ST_MISC, MS_DRAWN_RED]  # drawn copy
    if tile != hs[HS.drawn]:  # the hand changed: a seat kept dama may declare riichi again
        hs[HS.dama_seats] &= ~(1 << cur)
    tsumogiri = modes_discard(state, rules, cur, tile, red, drawn_copy, st[ST_MISC, MS_DRAWN_CLEAR], tsumogiri,
                              _called(hs), _streaks(hs))
    log_event(events, ev, EV_DISCARD, cur, tile, 1 if tsumogiri else 0, 1 if riichi_now else 0, red)
    st[ST_RIVER + cur, tile] += 1
    pub_add(obs, ROBS.n_discards + cur, 1)
    hs[HS.tile] = tile
    hs[HS.red] = red
    hs[HS.riichi_now] = 1 if riichi_now else 0
    hs[HS.hidden] = 0
    if face_down:  # D: paid for and hidden; the others decide whether to open it
        modes_face_down(state, log, cur, tile, red, hs[HS.delta:HS.delta + 4])
        hs[HS.phase] = PH_DARK_OPEN
        return
    _discard_shown(state, rules, log)


@inline
def _discard_shown(state, rules, log):
    """The rest of cur's discard hs[tile] once everyone may see it, or (D) once it stays face down (hs[hidden]):
    the public blocks, furiten, nagashi, the riichi declaration, a pending kan indicator, the waits; then the
    other seats are asked (PH_REACT)."""
    hs, obs, view, st, wall, rec, ev = state
    topts, sopts, tables = rules
    events = log.events
    cur = hs[HS.cur]
    tile = hs[HS.tile]
    riichi_now = hs[HS.riichi_now] == 1
    hidden = hs[HS.hidden] == 1
    first_turn = hs[HS.first_turn] == 1
    if not hidden:  # D: a tile still face down is in no public block, causes no furiten
        pub_add(obs, ROBS.discarded + 34 * cur + tile, 1)
        pub_add(obs, ROBS.seen + tile, 1)
        pub_set(obs, ROBS.safe + 34 * cur + tile, 1)
    rec[cur, H_DISC] += 1
    st[ST_FLAGS + cur, F_IPPATSU] = max(st[ST_FLAGS + cur, F_IPPATSU] - 1, 0)  # FL 三倍速: 3 discards
    st[ST_FLAGS + cur, F_TEMP_FURITEN] = 0
    if not _terminal_or_honor(tile) and not hidden:  # D: nagashi judges face-up discards only
        st[ST_FLAGS + cur, F_NAGASHI] = 0
    if first_turn and 27 <= tile <= 30 and not hidden:
        hs[HS.first_winds + cur] = tile
    if riichi_now:
        riichi_kind = 2 if first_turn else 1
        log_event(events, ev, EV_RIICHI, cur, tile, riichi_kind, 0, 0)
        pub_set(obs, ROBS.riichi + cur, riichi_kind)
        pub_set(obs, ROBS.riichi_tile + cur, obs[0, ROBS.n_discards + cur] - 1)
    if hs[HS.last_kan_seat] == cur:  # an open or added kan's indicator after the kan player's discard
        _flip_pending(obs, st, wall, events, ev)
        modes_indicator_after_discard(obs, st, wall, topts)
    hs[HS.last_kan_seat] = -1
    update_waits(obs, st, cur, tables)
    hs[HS.after_call] = 0
    hs[HS.kan_draw] = 0
    hs[HS.forbid_a] = -1
    hs[HS.forbid_b] = -1
    hs[HS.step] = 1
    hs[HS.n_claims] = 0
    hs[HS.caller] = -1
    hs[HS.call] = 0
    hs[HS.phase] = PH_REACT


@step
def _dark_open_ask(state, seating, rules, log):
    """PH_DARK_OPEN (D): each other seat in turn order after cur, from hs[dark_step], whether to pay to open cur's
    face-down tile (none sees another's answer); then the opening and the lock decision (PH_DARK_LOCK), or the
    rest of the discard. True when stopped before a seat's answer."""
    hs, obs, view = state.hs, state.obs, state.hook_input
    while True:
        p = modes_dark_open_seat(hs, obs, view)
        if p < 0:
            break
        stopped, answer = _decide(hs, seating.mode[p], p, obs, view, seating.params, rules.lookup)
        if stopped:
            return True
        modes_dark_open_answer(hs, log.counters, p, answer)
    if modes_dark_opened(state, log, hs[HS.delta:HS.delta + 4]):
        hs[HS.phase] = PH_DARK_LOCK
        return False
    modes_dark_settled(hs, obs)
    _discard_shown(state, rules, log)
    return False


@step
def _dark_lock_ask(state, seating, rules, log):
    """PH_DARK_LOCK (D): cur whether to pay to lock its face-down tile just opened; then the rest of the discard.
    True when stopped before its answer."""
    hs, obs, view = state.hs, state.obs, state.hook_input
    cur = hs[HS.cur]
    modes_dark_lock_view(hs, obs, view)
    stopped, answer = _decide(hs, seating.mode[cur], cur, obs, view, seating.params, rules.lookup)
    if stopped:
        return True
    modes_dark_lock_answer(state, log, hs[HS.delta:HS.delta + 4], answer)
    modes_dark_settled(hs, obs)
    _discard_shown(state, rules, log)
    return False


@step
def _rob_options(hs, obs, view, st, wall, topts, sopts, conc, melds8, ctx, res):
    """PH_ROB: the next seat after cur (from hs[step]) that may rob the kan; its question into `view`."""
    cur = hs[HS.cur]
    kind = hs[HS.tile]
    option = hs[HS.kan_option]
    dealer = hs[HS.dealer]
    while hs[HS.step] <= 3:
        p = (cur + hs[HS.step]) % 4
        if obs[0, ROBS.won + p] == 1 or st[ST_WAITS + p, kind] == 0 or obs[p, ROBS.furiten] == 1:
            hs[HS.step] += 1
            continue
        status = score_win(obs, st, wall, p, kind, hs[HS.red], False, FLAG_CHANKAN if option == 2 else 0, dealer,
                           hs[HS.round_wind], sopts, conc, melds8, ctx, res)
        if status != SCORED or not modes_ron_allowed(obs, topts, p, dealer):
            if option == 2:
                _let_pass(obs, st, p)  # shape only
            hs[HS.step] += 1
            continue
        if option == 1 and not (has_yaku(res, KOKUSHI) or has_yaku(res, KOKUSHI_13)):
            hs[HS.step] += 1
            continue
        modes_score(obs, topts, sopts, res, cur, False, p == dealer)
        copy_row(view, obs[p])
        view[ROBS.decision] = D_ROB
        view[ROBS.tile] = kind
        view[ROBS.from_seat] = cur
        view[ROBS.can_win] = 1
        view[ROBS.win_han] = res[RES_HAN]
        view[ROBS.win_fu] = res[RES_FU]
        view[ROBS.win_points] = res[RES_TOTAL]
        hs[HS.opt_han] = res[RES_HAN]
        hs[HS.phase] = PH_ROB_ASK
        return
    hs[HS.phase] = PH_ROB_SETTLE


@step
def _rob_answer(hs, obs, st, rec, counters, events, ev, answer):
    """PH_ROB_ASK answered: RON joins the claimants; anything else passes (R-4 furiten)."""
    p = (hs[HS.cur] + hs[HS.step]) % 4
    if answer == RON:
        hs[HS.claimants + hs[HS.n_claims]] = p
        hs[HS.n_claims] += 1
    else:
        if answer != 0:
            counters[CNT_ILLEGAL] += 1
        _passed_ron(obs, st, rec, p, hs[HS.tile], hs[HS.opt_han], events, ev)
    hs[HS.step] += 1
    hs[HS.phase] = PH_ROB


@nb.njit(cache=True)
def _rob_settle(state, seating, rules, log, conc, melds8, ctx, res):
    """PH_ROB_SETTLE: pay the robs (chankan, R-4; S-11 in bloodbath the kan then stands), then the kan itself,
    its indicator and cur's replacement draw."""
    hs, obs, st, wall, rec, ev = state.hs, state.obs, state.st, state.wall, state.rec, state.ev
    topts, sopts = rules.topts, rules.sopts
    events = log.events
    cur = hs[HS.cur]
    kind = hs[HS.tile]
    option = hs[HS.kan_option]
    kan_red = hs[HS.red]
    dealer = hs[HS.dealer]
    n_rob = hs[HS.n_claims]
    if n_rob > 0:
        n_rob = modes_claimants(topts, n_rob)
        for i in range(n_rob):
            p = hs[HS.claimants + i]
            score_win(obs, st, wall, p, kind, kan_red, False, FLAG_CHANKAN if option == 2 else 0, dealer,
                      hs[HS.round_wind], sopts, conc, melds8, ctx, res)
            rec[p, H_STRIKE_HAN] = modes_score(obs, topts, sopts, res, cur, False, p == dealer)
            _settle_win(state, rules, log, p, cur, res, i == 0, kind)
        if topts[T.T_BLOODBATH] != 1:
            take_tile(obs, st, cur, kind, kan_red)  # the robbed tile goes to the winners
            modes_robbed(obs, st, topts, cur, kind, kan_red, _called(hs))
            hs[HS.robbed_tiles] += 1
            _end_hand(hs, END_WIN)
            return
        if anyone_below_zero(obs):
            _end_hand(hs, END_BUST)
            return
        if hs[HS.winners] >= 3:
            _end_hand(hs, END_THREE_WINS)
            return
        _after_bloodbath_win(obs, st)
        # S-11: the kan stands, its indicator is flipped at once, the robbed player draws the replacement
    modes_lose(obs, topts, cur, kind, 4 if option == 1 else 1)
    if option == 1:
        take_for_meld(obs, st, cur, kind, 4)
        _add_meld(obs, cur, ANKAN_MELD, kind, 4)
    else:
        slot = _pon_slot(obs, cur, kind)
        take_for_meld(obs, st, cur, kind, 1)
        pub_set(obs, ROBS.melds + 8 * cur + 2 * slot, KAKAN_MELD)
        pub_add(obs, ROBS.meld_tiles + 34 * cur + kind, 1)
    pub_add(obs, ROBS.seen + kind, 4 if option == 1 else 1)
    rec[cur, H_KANS] += 1
    _after_kan(obs, st, cur)
    if option == 1 or n_rob > 0:
        flip_dora(obs, wall, events, ev)
    else:
        st[ST_MISC, MS_PENDING_DORA] += 1
    modes_kan(obs, topts, wall, cur, dealer, events, ev)
    if _four_kans_by_several(st):
        if n_rob > 0:  # S-11: settle the rob, then abort
            _end_hand(hs, END_KANS)
            return
        hs[HS.kans_abort] = 1
    update_waits(obs, st, cur, rules.lookup)
    hs[HS.drawn], hs[HS.pos] = _rinshan(state, rules, log, cur, hs[HS.pos])
    hs[HS.kan_draw] = 1
    hs[HS.after_call] = 0
    hs[HS.last_kan_seat] = cur
    hs[HS.phase] = PH_TURN if hs[HS.drawn] >= 0 else PH_PICK_ASK


@step
def _react_options(hs, obs, view, st, wall, topts, sopts, conc, melds8, ctx, res):
    """PH_REACT: the next seat after cur (from hs[step]) that may ron, pon, kan or chi the discard; its
    question into `view`."""
    cur = hs[HS.cur]
    tile = hs[HS.tile]
    wall_left = hs[HS.wall_left]
    dealer = hs[HS.dealer]
    chi_seat = next_active(obs, ROBS.won, cur)
    while hs[HS.step] <= 3:
        p = (cur + hs[HS.step]) % 4
        if obs[0, ROBS.won + p] == 1 or hs[HS.hidden]:  # D: no call, no ron on a face-down tile
            hs[HS.step] += 1
            continue
        phand = obs[p, ROBS.hand:ROBS.hand + 34]
        p_riichi = obs[0, ROBS.riichi + p] > 0
        can_ron = False
        completes = st[ST_WAITS + p, tile] != 0
        if completes and obs[p, ROBS.furiten] == 0:
            flags = FLAG_HOUTEI if wall_left == 0 else 0
            can_ron = score_win(obs, st, wall, p, tile, hs[HS.red], False, flags, dealer, hs[HS.round_wind], sopts,
                                conc, melds8, ctx, res) == SCORED
            if can_ron and not modes_ron_allowed(obs, topts, p, dealer):
                can_ron = False
            if can_ron:
                modes_score(obs, topts, sopts, res, cur, modes_strike_discard(obs, topts, cur, hs[HS.riichi_now] == 1),
                            p == dealer)
        can_pon = (not p_riichi) and phand[tile] >= 2 and wall_left > 0
        if can_pon:
            phand[tile] -= 2
            can_pon = _legal_after_call(phand, tile, -1)
            phand[tile] += 2
        can_kan = (not p_riichi) and phand[tile] == 3 and hs[HS.kan_room] > 0 and st[ST_MISC, MS_N_KANS] < T.MAX_KANS
        chi = 0
        if p == chi_seat and not p_riichi and wall_left > 0:
            chi = _chi_bits(phand, tile)
        if completes and not can_ron:
            _let_pass(obs, st, p)  # shape only, yaku or not
        if not (can_ron or can_pon or can_kan or chi):
            hs[HS.step] += 1
            continue
        copy_row(view, obs[p])
        view[ROBS.decision] = D_REACT
        view[ROBS.tile] = tile
        view[ROBS.from_seat] = cur
        view[ROBS.can_pon] = 1 if can_pon else 0
        view[ROBS.can_kan] = 1 if can_kan else 0
        view[ROBS.can_chi] = chi
        if can_ron:
            view[ROBS.can_win] = 1
            view[ROBS.win_han] = res[RES_HAN]
            view[ROBS.win_fu] = res[RES_FU]
            view[ROBS.win_points] = res[RES_TOTAL]
        hs[HS.opt_ron] = 1 if can_ron else 0
        hs[HS.opt_pon] = 1 if can_pon else 0
        hs[HS.opt_kan] = 1 if can_kan else 0
        hs[HS.opt_chi] = chi
        hs[HS.phase] = PH_REACT_ASK
        return
    hs[HS.phase] = PH_AFTER_REACT


@step
def _react_answer(hs, obs, view, st, rec, counters, events, ev, answer):
    """PH_REACT_ASK answered: a ron joins the claimants; a pon or open kan outranks a chi; passing a possible
    ron is furiten (R-4)."""
    p = (hs[HS.cur] + hs[HS.step]) % 4
    can_ron = hs[HS.opt_ron] == 1
    chi = hs[HS.opt_chi]
    call = hs[HS.call]
    hs[HS.step] += 1
    hs[HS.phase] = PH_REACT
    if answer == RON and can_ron:
        hs[HS.claimants + hs[HS.n_claims]] = p
        hs[HS.n_claims] += 1
        return
    if can_ron:
        _passed_ron(obs, st, rec, p, hs[HS.tile], view[ROBS.win_han], events, ev)
    if answer == PON and hs[HS.opt_pon]:
        if call != KAN_CALL and call != PON:
            hs[HS.caller] = p
            hs[HS.call] = PON
    elif answer == KAN_CALL and hs[HS.opt_kan]:
        hs[HS.caller] = p
        hs[HS.call] = KAN_CALL
    elif (answer == CHI_LOW and chi & 1) or (answer == CHI_MID and chi & 2) or (answer == CHI_HIGH and chi & 4):
        if call == 0:
            hs[HS.caller] = p
            hs[HS.call] = answer
    elif answer != 0:
        counters[CNT_ILLEGAL] += 1


@step
def _after_react(state, seating, rules, log, conc, melds8, ctx, res):
    """PH_AFTER_REACT: settle the rons on the discard (S-4, S-10, S-15 in bloodbath); else the riichi stick,
    the abortive draws, and the call that takes the discard or the next seat's draw."""
    hs, obs, view, st, wall, rec, ev = state
    topts, sopts, tables = rules
    counters, events = log
    cur = hs[HS.cur]
    tile = hs[HS.tile]
    red = hs[HS.red]
    riichi_now = hs[HS.riichi_now] == 1
    dealer = hs[HS.dealer]
    n_ron = modes_claimants(topts, hs[HS.n_claims])
    if n_ron > 0:
        if topts[T.T_BLOODBATH] == 1:
            st[ST_FLAGS + cur, F_NAGASHI] = 0  # S-15
        for i in range(n_ron):
            p = hs[HS.claimants + i]
            if obs[p, ROBS.furiten] == 1:
                counters[CNT_FURITEN_RONS] += 1
            flags = FLAG_HOUTEI if hs[HS.wall_left] == 0 else 0
            score_win(obs, st, wall, p, tile, red, False, flags, dealer, hs[HS.round_wind], sopts, conc, melds8, ctx,
                      res)
            rec[p, H_STRIKE_HAN] = modes_score(obs, topts, sopts, res, cur,
                                               modes_strike_discard(obs, topts, cur, riichi_now), p == dealer)
            _settle_win(state, rules, log, p, cur, res, i == 0, tile)
        modes_after_discard(obs, st, topts, rec, cur, riichi_now, True)
        if topts[T.T_BLOODBATH] != 1:
            if riichi_now:  # a declaration tile dealt in: no riichi, no stick
                pub_set(obs, ROBS.riichi + cur, 0)
                pub_set(obs, ROBS.riichi_tile + cur, -1)
            _end_hand(hs, END_WIN)
            return
        if anyone_below_zero(obs):
            _end_hand(hs, END_BUST)
            return
        if riichi_now:  # S-10
            if obs[0, ROBS.points + cur] >= T.RIICHI_COST:
                deposit_stick(obs, rec, hs[HS.delta:HS.delta + 4], cur, events, ev)
            else:
                pub_set(obs, ROBS.riichi + cur, 0)
                pub_set(obs, ROBS.riichi_tile + cur, -1)
        if hs[HS.winners] >= 3:
            _end_hand(hs, END_THREE_WINS)
            return
        _after_bloodbath_win(obs, st)
        if _four_riichi(obs, topts):
            _end_hand(hs, END_RIICHI)
            return
        if hs[HS.kans_abort]:
            _end_hand(hs, END_KANS)
            return
        hs[HS.cur] = next_active(obs, ROBS.won, hs[HS.claimants + n_ron - 1])  # S-4: after the winner farthest from cur
        hs[HS.phase] = PH_DRAW
        return

    # nobody won on the discard
    hidden = hs[HS.hidden] == 1
    for p in range(4):
        if p != cur and obs[0, ROBS.riichi + p] > 0 and obs[0, ROBS.won + p] == 0 and not hidden:
            pub_set(obs, ROBS.safe + 34 * p + tile, 1)
    if riichi_now:
        deposit_stick(obs, rec, hs[HS.delta:HS.delta + 4], cur, events, ev)
        st[ST_FLAGS + cur, F_IPPATSU] = 1
        modes_riichi_declared(obs, st, topts, hs[HS.delta:HS.delta + 4], cur, events, ev)
        if _four_riichi(obs, topts):
            log_event(events, ev, EV_ABORT, cur, -1, END_RIICHI, 0, 0)
            _end_hand(hs, END_RIICHI)
            return
    if hs[HS.first_turn] == 1 and obs[0, ROBS.turn] == 4 and st[ST_MISC, MS_NO_CALL] == 1 and hs[HS.winners] == 0:
        w = HS.first_winds
        if hs[w] >= 0 and hs[w] == hs[w + 1] == hs[w + 2] == hs[w + 3]:
            log_event(events, ev, EV_ABORT, cur, -1, END_WINDS, 0, 0)
            _end_hand(hs, END_WINDS)
            return
    if hs[HS.kans_abort]:
        log_event(events, ev, EV_ABORT, cur, -1, END_KANS, 0, 0)
        _end_hand(hs, END_KANS)
        return
    call = hs[HS.call]
    caller = hs[HS.caller]
    modes_after_discard(obs, st, topts, rec, cur, riichi_now, call != 0)
    if call != 0:
        modes_before_draw_or_call(obs, topts, _eye_rng(hs), events, ev)
    if call == 0:
        hs[HS.cur] = cur if modes_keeps_turn(obs, topts, cur) else next_active(obs, ROBS.won, cur)
        hs[HS.phase] = PH_DRAW
        return
    _take_discard(state, seating, rules, log, caller, call)


@step
def _take_discard(state, seating, rules, log, caller, call):
    """The caller's pon, open kan (then its replacement draw) or chi takes cur's discard; its turn follows."""
    hs, obs, view, st, wall, rec, ev = state
    topts, sopts, tables = rules
    events = log.events
    cur = hs[HS.cur]
    tile = hs[HS.tile]
    red = hs[HS.red]
    delta = hs[HS.delta:HS.delta + 4]
    called = _called(hs)
    if call == PON or call == KAN_CALL:
        copies = 2 if call == PON else 3
        modes_lose(obs, topts, caller, tile, copies)
        hand_red = take_for_meld(obs, st, caller, tile, copies)
        called[caller, tile] += 1
        if red:
            st[ST_FLAGS + caller, F_RED_MELD] += 1
        st[ST_RIVER + cur, tile] -= 1
        st[ST_FLAGS + cur, F_NAGASHI] = 0
        pub_add(obs, ROBS.seen + tile, copies)
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
        modes_call(state, rules, log, delta, _streaks(hs), caller, cur, tile, red, True, hs[HS.dealer])
        hs[HS.cur] = caller
        hs[HS.phase] = PH_TURN
        if call == PON:
            hs[HS.after_call] = 1
            hs[HS.forbid_a] = tile
            hs[HS.forbid_b] = -1
            hs[HS.drawn] = -1
            return
        rec[caller, H_KANS] += 1
        _after_kan(obs, st, caller)
        st[ST_MISC, MS_PENDING_DORA] += 1
        if _four_kans_by_several(st):
            hs[HS.kans_abort] = 1
        update_waits(obs, st, caller, tables)
        hs[HS.drawn], hs[HS.pos] = _rinshan(state, rules, log, caller, hs[HS.pos])
        hs[HS.kan_draw] = 1
        hs[HS.last_kan_seat] = caller
        if hs[HS.drawn] < 0:
            hs[HS.phase] = PH_PICK_ASK
        return
    low = tile if call == CHI_LOW else (tile - 1 if call == CHI_MID else tile - 2)
    hand_red = 0
    for k in range(low, low + 3):
        if k != tile:
            modes_lose(obs, topts, caller, k, 1)
            hand_red += take_for_meld(obs, st, caller, k, 1)
            pub_add(obs, ROBS.seen + k, 1)
    if red:
        st[ST_FLAGS + caller, F_RED_MELD] += 1
    st[ST_RIVER + cur, tile] -= 1
    st[ST_FLAGS + cur, F_NAGASHI] = 0
    _add_meld(obs, caller, CHI_MELD, low, 3)
    called[caller, tile] += 1
    log_event(events, ev, EV_CHI, caller, low, tile, cur, red + 2 * hand_red)
    rec[caller, H_CALLS] += 1
    _after_call(obs, st)
    modes_call(state, rules, log, delta, _streaks(hs), caller, cur, tile, red, False, hs[HS.dealer])
    hs[HS.cur] = caller
    hs[HS.after_call] = 1
    hs[HS.forbid_a] = tile
    hs[HS.forbid_b] = _chi_forbid(tile, call)
    hs[HS.drawn] = -1
    hs[HS.phase] = PH_TURN


@nb.njit(cache=True)
def _hand_end(hs, obs, st, rec, topts, tables, counters, events, ev, mask):
    """PH_END: FL 没收; at an exhaustive draw nagashi mangan or noten payments (R-6, S-5, S-6); the hand's
    record rows; whether the dealer keeps the deal."""
    suit_t = tables[:SUIT_ROWS]
    honor_t = tables[SUIT_ROWS:]
    end = hs[HS.end]
    dealer = hs[HS.dealer]
    pos = hs[HS.pos]
    delta = hs[HS.delta:HS.delta + 4]
    modes_hand_end(obs, topts, end == END_EXHAUSTIVE, end != END_WIN and end != END_EXHAUSTIVE, dealer, rec, delta,
                   events, ev)
    dealer_tenpai = False
    if end == END_EXHAUSTIVE:
        tenpai = np.zeros(4, np.bool_)
        nagashi = np.zeros(4, np.bool_)
        any_nagashi = False
        for s in range(4):
            if obs[0, ROBS.won + s]:
                continue
            tenpai[s] = tenpai_at_draw(obs[s, ROBS.hand:ROBS.hand + 34], obs[0, ROBS.n_melds + s], suit_t, honor_t,
                                       mask)
            rec[s, H_TENPAI] = 1 if tenpai[s] else 0
            if st[ST_FLAGS + s, F_NAGASHI] == 1 and obs[0, ROBS.n_discards + s] > 0:
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
                    if p == s or obs[0, ROBS.won + p]:
                        continue
                    share = 4000 if (s == dealer or p == dealer) else 2000
                    pay(obs, p, s, share, delta, PAY_NAGASHI, events, ev)
        else:
            noten_payments(obs, topts, tenpai, delta, events, ev)
        modes_exhaustive(obs, topts, delta, before, any_nagashi, events, ev)
        for s in range(4):
            rec[s, H_NOTEN] = delta[s] - before[s]
        if anyone_below_zero(obs):
            end = END_BUST

    log_event(events, ev, EV_END, -1, -1, end, hs[HS.winners], 0)
    if _tiles_in_play(obs, st) + hs[HS.robbed_tiles] + st[ST_MISC, MS_LIVE_END] - pos + T.DEAD_WALL + \
            modes_tiles_aside(obs) != T.N_TILES:
        counters[CNT_TILE_ERRORS] += 1
    if topts[T.T_BLOODBATH] != 1 and end != END_BUST and anyone_below_zero(obs):
        end = END_BUST
    for s in range(4):
        rec[s, H_DELTA] = delta[s]
        rec[s, H_WINNERS] = hs[HS.winners]
        rec[s, H_END] = end
        rec[s, H_WALL] = _wall_left(st, pos)
        rec[s, H_DIR] = hs[HS.direction] + 1 if topts[T.T_EXCHANGE] else 0
        rec[s, H_RIICHI] = obs[0, ROBS.riichi + s]
        rec[s, H_RIICHI_TURN] = obs[0, ROBS.riichi_tile + s]
    modes_record(obs, topts, rec)
    aborted = end == END_NINE or end == END_WINDS or end == END_RIICHI or end == END_KANS
    dealer_keeps = hs[HS.dealer_won] == 1 or (end == END_EXHAUSTIVE and dealer_tenpai)
    keeps = aborted or (topts[T.T_RENCHAN] == 1 and dealer_keeps)
    hs[HS.end] = end
    hs[HS.keeps] = 1 if keeps else 0
    hs[HS.phase] = PH_DONE


@nb.njit(cache=True)
def run_hand(state, seating, rules, log):
    """Play the hand from the phase in hs[phase] on; True when it is over (PH_DONE: hs[end], hs[keeps], rec),
    False when decision number hs[stop_at] is pending (the arrays are then a position to save and resume)."""
    hs, obs, view, st, wall, rec, ev = state
    params = seating.params
    topts, sopts, tables = rules
    counters, events = log
    conc = np.zeros(34, np.int8)
    melds8 = np.zeros((4, 2), np.int8)
    ctx = np.zeros(N_CTX, np.int64)
    res = np.zeros(N_RES, np.int64)
    mask = np.zeros(34, np.int64)
    while True:
        phase = hs[HS.phase]
        if phase == PH_DRAW:
            _draw_phase(state, seating, rules, log)
        elif phase == PH_TURN:
            automatic = _turn_options(state, rules, conc, melds8, ctx, res, mask)
            hs[HS.phase] = PH_TURN_AUTO if automatic else PH_TURN_ASK
        elif phase == PH_TURN_ASK or phase == PH_TURN_AUTO:
            answer = hs[HS.drawn]
            cur = hs[HS.cur]
            declines = False
            if phase == PH_TURN_ASK:
                forced = hs[HS.has_forced] == 1
                stopped, answer = _decide(hs, seating.turn[cur], cur, obs, view, params, tables)
                if stopped:
                    return False
                declines = forced and hs[HS.has_forced] == 0 and \
                    _declines_riichi(state, rules, cur, answer, conc, melds8, ctx, res, mask)
            _turn_action(state, seating, rules, log, answer, mask)
            if declines:
                hs[HS.dama_seats] |= 1 << cur
        elif phase == PH_REACT:
            _react_options(hs, obs, view, st, wall, topts, sopts, conc, melds8, ctx, res)
        elif phase == PH_REACT_ASK:
            p = (hs[HS.cur] + hs[HS.step]) % 4
            stopped, answer = _decide(hs, seating.react[p], p, obs, view, params, tables)
            if stopped:
                return False
            _react_answer(hs, obs, view, st, rec, counters, events, ev, answer)
        elif phase == PH_AFTER_REACT:
            _after_react(state, seating, rules, log, conc, melds8, ctx, res)
        elif phase == PH_ROB:
            _rob_options(hs, obs, view, st, wall, topts, sopts, conc, melds8, ctx, res)
        elif phase == PH_ROB_ASK:
            p = (hs[HS.cur] + hs[HS.step]) % 4
            stopped, answer = _decide(hs, seating.rob[p], p, obs, view, params, tables)
            if stopped:
                return False
            _rob_answer(hs, obs, st, rec, counters, events, ev, answer)
        elif phase == PH_ROB_SETTLE:
            _rob_settle(state, seating, rules, log, conc, melds8, ctx, res)
        elif phase == PH_DEAL:
            _deal(hs, obs, st, wall, topts, events, ev)
        elif phase == PH_EXCHANGE:
            if _exchange_ask(hs, obs, view, st, seating.ex, params, tables, counters, events, ev):
                return False
        elif phase == PH_AFTER_DEAL:
            _after_deal(hs, obs, st, wall, topts, tables, events, ev)
        elif phase == PH_END:
            _hand_end(hs, obs, st, rec, topts, tables, counters, events, ev, mask)
        elif phase == PH_PICK_ASK:
            if _pick_ask(state, seating, rules, log):
                return False
        elif phase == PH_DARK_OPEN:
            if _dark_open_ask(state, seating, rules, log):
                return False
        elif phase == PH_DARK_LOCK:
            if _dark_lock_ask(state, seating, rules, log):
                return False
        else:
            return True


@nb.njit(cache=True)
def _four_riichi(obs, topts):
    """R-5 four riichi; S-8: four players in riichi at once, won ones not counting."""
    n = 0
    for s in range(4):
        if obs[0, ROBS.riichi + s] > 0 and not (topts[T.T_FOUR_RIICHI_ACTIVE] and obs[0, ROBS.won + s]):
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
    if obs[0, ROBS.riichi + seat] > 0:
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
def _rinshan(state, rules, log, seat, pos):
    """Replacement draw from the dead wall; the live wall gives its last tile to the dead wall (R-1), and the
    public wall count follows. A: the dead-wall tile joins the open pool and the seat's pick follows
    (PH_PICK_ASK, which sets the wall count). Returns (drawn kind, or -1 when the pick follows; live-wall
    position)."""
    obs, st, wall, ev = state.obs, state.st, state.wall, state.ev
    topts = rules.topts
    events = log.events
    at = DEAD_START + st[ST_MISC, MS_RINSHAN]
    st[ST_MISC, MS_RINSHAN] += 1
    st[ST_MISC, MS_LIVE_END] -= 1
    replaced, pos = modes_replacement_draw(state, rules, log, at, pos)
    if replaced:
        return -1, pos
    drawn = _draw(obs, st, wall, at, seat, True, events, ev)
    pub_set(obs, ROBS.wall_left, _wall_left(st, pos))
    modes_after_draw(obs, st, wall, topts, seat, pos, True)
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
        points = obs[s, ROBS.points:ROBS.points + 4].copy()
        obs[s, :] = 0
        obs[s, ROBS.points:ROBS.points + 4] = points
        obs[s, ROBS.seat] = s
        obs[s, ROBS.dealer] = dealer
        obs[s, ROBS.round] = round_idx
        obs[s, ROBS.honba] = honba
        obs[s, ROBS.sticks] = sticks
        for i in range(5):
            obs[s, ROBS.dora + i] = -1


@nb.njit(cache=True)
def _someone_reached(obs, target):
    for s in range(4):
        if obs[0, ROBS.points + s] >= target:
            return True
    return False


@nb.njit(cache=True)
def begin_match(hs, obs, root_seed, match_id, topts):
    """A new match: start points, East 1, no sticks (FL: the match's cards are drawn)."""
    hs[:] = 0
    hs[HS.root_seed] = root_seed
    hs[HS.match_id] = match_id
    hs[HS.stop_at] = -1
    hs[HS.forced_seat] = -1
    obs[:, :] = 0
    for s in range(4):
        obs[s, ROBS.points:ROBS.points + 4] = topts[T.T_START_POINTS]
    modes_begin_match(root_seed, match_id, topts, hs[HS.cards:HS.cards + 3])


@nb.njit(cache=True)
def begin_hand(hs, obs, wall, rec, ev, topts):
    """The match's next hand, ready to deal (PH_DEAL): its wall, exchange direction and keyed seeds."""
    hand_no = hs[HS.hand_no] + 1
    root_seed = hs[HS.root_seed]
    match_id = hs[HS.match_id]
    hs[HS.hand_no] = hand_no
    hs[HAND_START:] = 0
    hs[HS.n_decisions] = 0
    hs[HS.has_forced] = 0
    _reset_hand_state(obs, hs[HS.m_dealer], hs[HS.m_round], hs[HS.m_honba], hs[HS.m_sticks])
    hs[HS.direction] = shuffled_wall(root_seed, match_id, hand_no, wall)
    for s in range(4):
        hs[HS.seeds + s] = np.int64(rng.key_seed(root_seed, match_id, hand_no, STREAM_SEAT + s) >> np.uint64(33))
    modes_begin_hand(obs, topts, hs[HS.cards:HS.cards + 3], hs[HS.m_pot], hs[HS.seeds:HS.seeds + 8], root_seed,
                     match_id, hand_no)
    for s in range(4):
        hs[HS.points_before + s] = obs[0, ROBS.points + s]
    rec[:, :] = 0
    ev[1] = match_id
    ev[2] = hand_no
    hs[HS.phase] = PH_DEAL


@nb.njit(cache=True)
def close_hand(hs, obs, rec, topts):
    """After PH_DONE: the match columns of the hand's rows, then the next dealer, honba and sticks (R-2, S-1;
    FL 永夜). True when the match is over (a bust, the end of the last round, or MAX_HANDS hands)."""
    end = hs[HS.end]
    keeps = hs[HS.keeps] == 1
    hand_no = hs[HS.hand_no]
    sticks_after = obs[0, ROBS.sticks]
    pot_after = modes_pot(obs)
    for s in range(4):
        rec[s, H_MATCH] = hs[HS.match_id]
        rec[s, H_HAND] = hand_no
        rec[s, H_SEAT] = s
        rec[s, H_DEALER] = 1 if s == hs[HS.m_dealer] else 0
        rec[s, H_ROUND] = hs[HS.m_round]
        rec[s, H_HONBA] = hs[HS.m_honba]
        rec[s, H_STICKS0] = hs[HS.m_sticks]
        rec[s, H_STICKS1] = sticks_after
        rec[s, H_BEFORE] = hs[HS.points_before + s]
        rec[s, H_POT0] = hs[HS.m_pot]
        rec[s, H_POT1] = pot_after
    hs[HS.hands_played] = hand_no
    hs[HS.m_sticks] = sticks_after
    hs[HS.m_pot] = pot_after
    if end == END_BUST:
        hs[HS.busted] = 1
        return True
    played_round = hs[HS.m_round]
    aborted = end == END_NINE or end == END_WINDS or end == END_RIICHI or end == END_KANS
    honba = hs[HS.m_honba]
    if topts[T.T_HONBA] and (keeps or end == END_EXHAUSTIVE):
        honba += 1
    elif not keeps:
        honba = 0
    honba = modes_next_honba(obs, topts, honba, keeps, aborted)
    hs[HS.m_honba] = honba
    if not keeps:
        hs[HS.m_dealer] = (hs[HS.m_dealer] + 1) % 4
        hs[HS.m_round] += 1
    # East only; all-last dealer stops when top with 30000; South extension in sudden death, but a
    # dealer who keeps the deal plays on unless then first with 30000 (the same agari-yame)
    n_base = topts[T.T_N_HANDS]
    if played_round >= n_base - 1:
        if keeps and not aborted and rank_of(obs, ROBS.points, obs[0, ROBS.dealer]) == 1 and \
                obs[0, ROBS.points + obs[0, ROBS.dealer]] >= T.TARGET_POINTS:
            return True
        if not keeps:
            if not topts[T.T_EXTENSION] or _someone_reached(obs, T.TARGET_POINTS) or hs[HS.m_round] >= 8:
                return True
    return hand_no >= T.MAX_HANDS


@nb.njit(cache=True)
def finish_match(hs, obs, match_rows, row):
    """Unclaimed sticks (and the darkness pot, D) go to first place (R-2), then the final ranks into match_rows."""
    for s in range(4):
        if rank_of(obs, ROBS.points, s) == 1:
            pub_add(obs, ROBS.points + s, 1000 * hs[HS.m_sticks] + hs[HS.m_pot])
            break
    write_match_rows(obs, ROBS.points, match_rows, row, hs[HS.match_id], hs[HS.busted] == 1, hs[HS.hands_played])


@nb.njit(cache=True)
def _play_out(state, seating, rules, log, to_match_end, hand_rows, first_row, match_rows, match_row):
    """Continue from the state to the end of the hand (or of the match), writing each finished hand's 4 rows
    into hand_rows from first_row on (and the match's into match_rows at match_row). Returns the hand rows
    written, or -1 when decision number hs[stop_at] became pending first (later hands never stop)."""
    hs, obs, wall, rec, ev = state.hs, state.obs, state.wall, state.rec, state.ev
    topts = rules.topts
    n_rows = first_row
    while True:
        if not run_hand(state, seating, rules, log):
            return -1
        log.counters[CNT_HANDS] += 1
        over = close_hand(hs, obs, rec, topts)
        for s in range(4):
            hand_rows[n_rows] = rec[s]
            n_rows += 1
        if not to_match_end:
            return n_rows - first_row
        if over:
            finish_match(hs, obs, match_rows, match_row)
            return n_rows - first_row
        begin_hand(hs, obs, wall, rec, ev, topts)
        hs[HS.stop_at] = -1


_ROWS = types.int32[:, ::1]
_SIG = types.int64(types.int64, types.int64[::1], SEATING_TYPE, RULE_ARRAYS_TYPE, _ROWS, _ROWS, PLAY_LOG_TYPE)


@nb.njit(_SIG, cache=True)
def play_matches(root_seed, match_ids, seating, rules, hand_rows, match_rows, log):
    """Play every match in `match_ids`; returns the number of hand rows written (jit-compiled).

    hand_rows needs 4 × MAX_HANDS rows per match, match_rows 4. The wall, the exchange direction and the
    seats' random streams of hand h of match m depend only on (root_seed, m, h).
    """
    hs = np.zeros(HS.SIZE, np.int64)
    obs = np.zeros((4, ROBS.SIZE), np.int32)
    view = np.zeros(ROBS.SIZE, np.int32)
    st = np.zeros((N_ST, 34), np.int64)
    rec = np.zeros((4, N_HAND_COLS), np.int64)
    wall = np.empty(T.N_TILES, np.int64)
    ev = np.zeros(3, np.int64)
    state = PlayState(hs, obs, view, st, wall, rec, ev)
    topts = rules.topts
    n_rows = 0
    for mi in range(match_ids.size):
        begin_match(hs, obs, root_seed, match_ids[mi], topts)
        begin_hand(hs, obs, wall, rec, ev, topts)
        n_rows += _play_out(state, seating, rules, log, True, hand_rows, n_rows, match_rows, mi * 4)
    log.counters[CNT_EVENTS] = ev[0]
    return n_rows
