"""The compiled Bloodshed Skirmish kernel (RULES.md B-1 … B-23): a hand is a loop of phases over one state block.

`play_matches` plays whole matches and writes one record row per (match, hand, seat) and per
(match, seat). Seats decide through policy hooks (policies.api): five tuples of four first-class
function values, so one compiled engine serves every combination of policies.

All hand state lives in the int32 block `S` laid out by sims.bloodshed.state.ST: the four observation rows
(each seat's own concealed tiles and a copy of all public information, kept current as events happen;
a hook receives a private copy of its seat's row), the wall, the kan ledger, the record rows and the
turn bookkeeping. `run_hand` advances S phase by phase (deal, exchange, void, draw, turn, react, rob,
end) and can stop before the phase that asks a given decision, so a copy of S is a position that
`run_hand` resumes (sims.bloodshed.resume).
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import types

from tsumolab.sims.decisions import (
    D_EXCHANGE, D_REACT, D_ROB, D_TURN, D_VOID, HOOK_TYPE, KAN, KAN_CALL, PON, RON, TSUMO,
)
from tsumolab.sims.bloodshed.observation import BOBS
from tsumolab.sims import rng
from tsumolab.sims.jit import allocates, copy_row, step
from tsumolab.sims.events import (
    EV_DEAL, EV_DISCARD, EV_DRAW, EV_DRAW_STATE, EV_END, EV_EXCHANGE, EV_KAN, EV_PASS, EV_PAY, EV_PON, EV_SETTLE,
    EV_START, EV_VOID, EV_WIN, PAY_ADDED_KAN, PAY_CLOSED_KAN, PAY_OPEN_KAN, PAY_RON, PAY_TSUMO, log_event,
)
from tsumolab.sims.bloodshed import rules as R
from tsumolab.sims.bloodshed.state import (
    PH_DEAL, PH_DONE, PH_DRAW, PH_END, PH_EXCHANGE, PH_REACT, PH_ROB, PH_TURN, PH_VOID, ST, obs_of, rec_of,
)
from tsumolab.sims.bloodshed.scoring import (
    FIRST_DRAW, KAN_DISCARD, KAN_DRAW, LAST_TILE, ROBBED_KAN, fan_value, has_void_tile, score_win, tsumo_payment,
    unpack_fan,
    unpack_pattern, unpack_raw_fan,
)
from tsumolab.sims.bloodshed.settlement import ROW_DAJIAO, ROW_PIG, ROW_REFUND, settle_exhaustive_draw
from tsumolab.sims.bloodshed.columns import HC
from tsumolab.sims.shanten import BLOODSHED_SHAPES, is_complete
from tsumolab.sims.table_state import next_active, pub_add, pub_set, write_match_rows
from tsumolab.sims.shanten_tables import SUIT_ROWS
from tsumolab.sims import tiles

# meld_type codes stored per kind: 0 = none, else the sims.tiles meld constant + 1
PON_MELD, MINKAN_MELD, ANKAN_MELD, KAKAN_MELD = tiles.PON + 1, tiles.MINKAN + 1, tiles.ANKAN + 1, tiles.KAKAN + 1
WALL_SIZE = R.N_TILES
DEAD_END = -1
END_THREE_WINS, END_EXHAUSTIVE, END_BUST = 0, 1, 2
WIN_RON, WIN_TSUMO, WIN_ROBBED = 1, 2, 3  # WIN_ROBBED is recorded as ron in the tables
STREAM_WALL, STREAM_DIRECTION, STREAM_SEAT = 0, 1, 2

# counters[] slots
CNT_ILLEGAL = 0        # illegal policy answers replaced by a default
CNT_HANDS = 1
CNT_TILE_ERRORS = 2    # hands whose tiles did not add up to 108 at the end (must stay 0)
CNT_VOID_WINS = 3      # wins whose hand held a void-suit tile, checked by the scorer (must stay 0)
CNT_EVENTS = 4         # events written to the event log
N_COUNTERS = 5

# record columns as plain ints for compiled code
_C = {name: i for name, i in HC.items()}
H_MATCH, H_HAND, H_SEAT, H_DEALER = _C["match_id"], _C["hand"], _C["seat"], _C["dealer"]
H_BEFORE, H_DELTA, H_WON, H_ORDER = _C["points_before"], _C["delta"], _C["won"], _C["win_order"]
H_KIND, H_FAN, H_RAW, H_PATTERN = _C["win_kind"], _C["fan"], _C["raw_fan"], _C["pattern"]
H_VALUE, H_WINPTS, H_DEALT, H_PASSED = _C["value"], _C["win_points"], _C["dealt_in"], _C["passed_wins"]
H_KANS, H_KANINC, H_REFUND, H_DRAWSET = _C["kans"], _C["kan_income"], _C["refund"], _C["draw_settlement"]
H_TENPAI, H_MAXV, H_PIG, H_VOID = _C["tenpai_at_draw"], _C["max_value"], _C["flower_pig"], _C["void_suit"]
H_DISC, H_DIR, H_WINNERS, H_END = _C["discards"], _C["exchange_dir"], _C["winners"], _C["hand_end"]
H_WALL = _C["wall_left"]
H_OPEN_KANS, H_CLOSED_PAYERS = _C["open_kans"], _C["closed_kan_payers"]
H_ADDED_PAYERS, H_KAN_PAID = _C["added_kan_payers"], _C["kan_paid"]


# ----------------------------------------------------------------------------- public state helpers
@step
def _pay(obs, payer, receiver, amount, delta_rec, reason, events, ev):
    """Move points between seats (public)."""
    log_event(events, ev, EV_PAY, payer, receiver, amount, reason, 0)
    pub_add(obs, BOBS.points + payer, -amount)
    pub_add(obs, BOBS.points + receiver, amount)
    delta_rec[payer] -= amount
    delta_rec[receiver] += amount


@step
def _pay_kan(obs, payer, receiver, amount, delta_rec, kan_ledger, rec, reason, events, ev):
    """A kan payment (B-14, B-15), entered in the ledger the refund reads (B-18, B-21)."""
    _pay(obs, payer, receiver, amount, delta_rec, reason, events, ev)
    kan_ledger[receiver, payer] += amount
    rec[payer, H_KAN_PAID] += amount


@step
def _anyone_bust(obs):
    for s in range(4):
        if obs[0, BOBS.points + s] < 0:
            return True
    return False


@step
def _holds_void(obs, seat, extra_tile):
    """Whether the seat holds a void-suit tile in hand or melds, counting `extra_tile` (-1 = none)."""
    suit = obs[0, BOBS.void + seat]
    if suit < 0:
        return False
    if extra_tile >= 0 and extra_tile // 9 == suit:
        return True
    base = suit * 9
    for k in range(base, base + 9):
        if obs[seat, BOBS.hand + k] > 0 or obs[0, BOBS.melds + 34 * seat + k] > 0:
            return True
    return False


@step
def _win_check(obs, seat, extra_tile, tables):
    """Whether the seat's hand (plus `extra_tile`, or as it is for -1) is a legal win (B-10)."""
    if _holds_void(obs, seat, extra_tile):
        return False
    hand = obs[seat, BOBS.hand:BOBS.hand + 34]
    if extra_tile >= 0:
        hand[extra_tile] += 1
    ok = is_complete(hand, obs[0, BOBS.n_melds + seat], BLOODSHED_SHAPES, tables[:SUIT_ROWS], tables[SUIT_ROWS:])
    if extra_tile >= 0:
        hand[extra_tile] -= 1
    return ok


@step
def _score(obs, seat, extra_tile, tsumo, flags, rules):
    """Packed score (sims.bloodshed.scoring) of the seat's complete hand plus `extra_tile`."""
    hand = obs[seat, BOBS.hand:BOBS.hand + 34]
    if extra_tile >= 0:
        hand[extra_tile] += 1
    packed = score_win(hand, obs[0, BOBS.melds + 34 * seat:BOBS.melds + 34 * seat + 34],
                       obs[0, BOBS.dealer] == seat, tsumo, flags, rules)
    if extra_tile >= 0:
        hand[extra_tile] -= 1
    return packed


@step
def _n_payers(obs, winner):
    n = 0
    for s in range(4):
        if s != winner and obs[0, BOBS.won + s] == 0:
            n += 1
    return n


@allocates
def _record_win(obs, seat, extra_tile, win_tile, packed, kind, points, rec, order, counters, events, ev):
    hand = obs[seat, BOBS.hand:BOBS.hand + 34].copy()
    if extra_tile >= 0:
        hand[extra_tile] += 1
    if has_void_tile(hand, obs[0, BOBS.melds + 34 * seat:BOBS.melds + 34 * seat + 34], obs[0, BOBS.void + seat]):
        counters[CNT_VOID_WINS] += 1
    log_event(events, ev, EV_WIN, seat, win_tile, unpack_fan(packed), unpack_pattern(packed) + 1, kind)
    rec[seat, H_WON] = 1
    rec[seat, H_ORDER] = order
    rec[seat, H_KIND] = WIN_RON if kind == WIN_ROBBED else kind
    rec[seat, H_FAN] = unpack_fan(packed)
    rec[seat, H_RAW] = unpack_raw_fan(packed)
    rec[seat, H_PATTERN] = unpack_pattern(packed) + 1  # 0 = none (sims.bloodshed.columns.PATTERN_LABELS)
    rec[seat, H_VALUE] = fan_value(unpack_fan(packed))
    rec[seat, H_WINPTS] = points
    pub_set(obs, BOBS.won + seat, 1)
    pub_add(obs, BOBS.n_winners, 1)


@nb.njit(cache=True)
def _tiles_in_play(obs):
    """Tiles in hands, melds and rivers (the tile conservation check, B-1)."""
    n = 0
    for s in range(4):
        for k in range(34):
            n += obs[s, BOBS.hand + k] + obs[0, BOBS.river + 34 * s + k]
            meld = obs[0, BOBS.melds + 34 * s + k]
            if meld == PON_MELD:
                n += 3
            elif meld > 0:
                n += 4
    return n


@step
def _settle_rons(obs, discarder, claimants, n, tile, flags, rules, delta, rec, winners, counters, events, ev):
    """Every claimant (in turn order from the discarder) wins on `tile`, paid by the discarder (B-11,
    B-19); returns the number of winners of the hand so far."""
    for i in range(n):
        p = claimants[i]
        packed = _score(obs, p, tile, False, flags, rules)
        value = fan_value(unpack_fan(packed))
        winners += 1
        _record_win(obs, p, tile, tile, packed, WIN_ROBBED if flags & ROBBED_KAN else WIN_RON, value, rec, winners,
                    counters, events, ev)
        _pay(obs, discarder, p, value, delta, PAY_RON, events, ev)
        rec[discarder, H_DEALT] += 1
    return winners


# ----------------------------------------------------------------------------- moving tiles, asking seats
@nb.njit(cache=True, inline="always")
def _meld_slot(seat, kind):
    return BOBS.melds + 34 * seat + kind


@step
def _draw(S, obs, seat, replacement, events, ev):
    """`seat` draws the next live-wall tile (a kan replacement draw when `replacement`, B-16)."""
    pos = S[ST.pos]
    tile = S[ST.wall + pos]
    log_event(events, ev, EV_DRAW, seat, tile, 1 if replacement else 0, 0, 0)
    obs[seat, BOBS.hand + tile] += 1
    pub_add(obs, BOBS.wall_left, -1)
    pub_add(obs, BOBS.turn, 1)
    S[ST.pos] = pos + 1
    S[ST.draws + seat] += 1
    S[ST.drawn] = tile
    return tile


@step
def _ask(hook, seat, S, obs, view, params, tables):
    """Call a seat's hook on its prepared view; the seat's random stream is the only state kept back.
    A forced answer (ST.force_seat) replaces the hook's answer once, after the hook ran."""
    answer = hook(view, params[seat], tables)
    obs[seat, BOBS.rng] = view[BOBS.rng]
    S[ST.n_decisions] += 1
    if S[ST.force_seat] == seat:
        S[ST.force_seat] = -1
        return np.int64(S[ST.force_answer])
    return answer


@step
def _stop_before(S, stop_at, n_asks, seat_of_first):
    """Whether the decision numbered `stop_at` lies in the phase about to ask `n_asks` seats; if so, record
    its seat (`seat_of_first` + index for the fixed-order phases) in ST.pend_seat."""
    if stop_at < 0 or S[ST.n_decisions] + n_asks <= stop_at:
        return False
    S[ST.pend_seat] = seat_of_first + stop_at - S[ST.n_decisions]
    return True


@step
def prepare_simple_view(obs, seat, decision, view):
    """The view of an exchange or void decision: the seat's row and the decision kind."""
    copy_row(view, obs[seat])
    view[BOBS.decision] = decision


# ----------------------------------------------------------------------------- the exchange (B-6, B-7)
@allocates
def _fallback_exchange(hand):
    for suit in range(3):
        n = 0
        for k in range(suit * 9, suit * 9 + 9):
            n += hand[k]
        if n >= 3:
            out = np.empty(3, np.int64)
            i = 0
            for k in range(suit * 9, suit * 9 + 9):
                for _ in range(hand[k]):
                    if i < 3:
                        out[i] = k
                        i += 1
            return out
    return np.full(3, -1, np.int64)


@allocates
def legal_exchange(hand, packed):
    """(legal, the three kinds) of a packed D_EXCHANGE answer for `hand` (B-6)."""
    tiles = np.empty(3, np.int64)
    for i in range(3):
        tiles[i] = (packed >> (8 * i)) & 0xFF
        if tiles[i] >= 27:
            return False, tiles
    suit = tiles[0] // 9
    for i in range(3):
        if tiles[i] // 9 != suit:
            return False, tiles
    for i in range(3):
        need = 0
        for j in range(3):
            if tiles[j] == tiles[i]:
                need += 1
        if hand[tiles[i]] < need:
            return False, tiles
    return True, tiles


@nb.njit(cache=True)
def _exchange(S, obs, view, ex_hooks, params, tables, counters, events, ev, stop_at):
    if _stop_before(S, stop_at, 4, 0):
        return True
    for s in range(4):
        prepare_simple_view(obs, s, D_EXCHANGE, view)
        answer = _ask(ex_hooks[s], s, S, obs, view, params, tables)
        ok, tiles = legal_exchange(obs[s, BOBS.hand:BOBS.hand + 34], answer)
        if not ok:
            counters[CNT_ILLEGAL] += 1
            tiles = _fallback_exchange(obs[s, BOBS.hand:BOBS.hand + 34])
        for i in range(3):
            S[ST.given + 3 * s + i] = tiles[i]
    direction = S[ST.direction]
    shift = 1 if direction == 0 else (3 if direction == 1 else 2)
    for s in range(4):
        g = ST.given + 3 * s
        log_event(events, ev, EV_EXCHANGE, s, S[g], S[g + 1], S[g + 2], (s + shift) % 4)
        for i in range(3):
            obs[s, BOBS.hand + S[g + i]] -= 1
            obs[(s + shift) % 4, BOBS.hand + S[g + i]] += 1
    S[ST.phase] = PH_VOID
    return False


@nb.njit(cache=True)
def _choose_voids(S, obs, rec, view, void_hooks, params, tables, counters, events, ev, stop_at):
    if _stop_before(S, stop_at, 4, 0):
        return True
    for s in range(4):  # declared simultaneously: nobody sees another's choice first
        prepare_simple_view(obs, s, D_VOID, view)
        suit = _ask(void_hooks[s], s, S, obs, view, params, tables)
        if suit < 0 or suit > 2:
            counters[CNT_ILLEGAL] += 1
            suit = 0
        S[ST.choices + s] = suit
    for s in range(4):
        log_event(events, ev, EV_VOID, s, -1, S[ST.choices + s], 0, 0)
        pub_set(obs, BOBS.void + s, S[ST.choices + s])
        rec[s, H_VOID] = S[ST.choices + s]
    S[ST.drawn] = -1  # the dealer's 14th tile may have been passed on
    S[ST.cur] = obs[0, BOBS.dealer]
    S[ST.need_draw] = 0
    S[ST.phase] = PH_DRAW
    return False


# ----------------------------------------------------------------------------- the deal and the draw
@nb.njit(cache=True)
def _deal(S, obs, events, ev):
    dealer = obs[0, BOBS.dealer]
    log_event(events, ev, EV_START, dealer, -1, S[ST.direction], 0, 0)
    pos = 0
    for i in range(4):
        seat = (dealer + i) % 4
        for _ in range(R.DEAL_SIZE):
            tile = S[ST.wall + pos]
            log_event(events, ev, EV_DEAL, seat, tile, 0, 0, 0)
            obs[seat, BOBS.hand + tile] += 1
            pos += 1
    S[ST.pos] = pos
    pub_set(obs, BOBS.wall_left, WALL_SIZE - pos)
    _draw(S, obs, dealer, False, events, ev)
    S[ST.phase] = PH_EXCHANGE


@step
def _after_win(S, obs, rules, next_after):
    """The hand ends on a bust (B-4) or the last allowed winner (B-13), else the next non-won seat after
    `next_after` draws (B-12)."""
    if _anyone_bust(obs):
        S[ST.end] = END_BUST
        S[ST.phase] = PH_END
    elif S[ST.winners] >= rules[R.OPT_WINNERS_TO_END]:
        S[ST.end] = END_THREE_WINS
        S[ST.phase] = PH_END
    else:
        S[ST.cur] = next_active(obs, BOBS.won, next_after)
        S[ST.need_draw] = 1
        S[ST.phase] = PH_DRAW


# ----------------------------------------------------------------------------- own turn
@step
def prepare_turn_view(S, obs, view, rules, tables):
    """Fill `view` for `cur`'s own-turn decision; returns the packed tsumo score (0 when it cannot win)."""
    cur = S[ST.cur]
    after_call = S[ST.after_call] == 1
    kan_draw = S[ST.kan_draw] == 1
    wall_left = WALL_SIZE - S[ST.pos]
    copy_row(view, obs[cur])
    view[BOBS.decision] = D_TURN
    view[BOBS.tile] = -1 if after_call else S[ST.drawn]
    view[BOBS.after_call] = 1 if after_call else 0
    view[BOBS.kan_draw] = 1 if kan_draw else 0
    can_win = (not after_call) and _win_check(obs, cur, -1, tables)
    packed = 0
    if can_win:
        flags = 0
        if kan_draw:
            flags |= KAN_DRAW
        if wall_left == 0:
            flags |= LAST_TILE
        if S[ST.draws + cur] == 1 and S[ST.any_call] == 0 and not kan_draw:
            flags |= FIRST_DRAW
        packed = _score(obs, cur, -1, True, flags, rules)
        view[BOBS.can_win] = 1
        view[BOBS.win_fan] = unpack_fan(packed)
        view[BOBS.win_points] = tsumo_payment(unpack_fan(packed), rules) * _n_payers(obs, cur)
    else:
        view[BOBS.can_win] = 0
        view[BOBS.win_fan] = 0
        view[BOBS.win_points] = 0
    for k in range(27):
        opt = 0
        if wall_left >= 1 and not after_call:
            if obs[cur, BOBS.hand + k] == 4:
                opt = 1
            elif obs[0, _meld_slot(cur, k)] == PON_MELD and obs[cur, BOBS.hand + k] >= 1:
                opt = 2
        view[BOBS.kan_options + k] = opt
    return packed


@step
def _kan_made(S, obs, rec, cur, events, ev):
    """After a kan: the record, the bust check (B-4), then the replacement draw (B-16)."""
    rec[cur, H_KANS] += 1
    S[ST.any_call] = 1
    S[ST.last_kan_seat] = cur
    if _anyone_bust(obs):
        S[ST.end] = END_BUST
        S[ST.phase] = PH_END
        return
    _draw(S, obs, cur, True, events, ev)
    S[ST.kan_draw] = 1
    S[ST.after_call] = 0
    S[ST.phase] = PH_TURN


# ----------------------------------------------------------------------------- robbing an added kan (B-17)
@step
def can_rob(S, obs, p, tables):
    """Whether seat `p` may rob the added kan pending in PH_ROB."""
    return p != S[ST.cur] and obs[0, BOBS.won + p] == 0 and _win_check(obs, p, S[ST.tile], tables)


@step
def prepare_rob_view(S, obs, p, view, rules):
    """Fill `view` for seat `p`'s D_ROB decision (p must be able to rob)."""
    kind = S[ST.tile]
    rob_packed = _score(obs, p, kind, False, ROBBED_KAN, rules)
    copy_row(view, obs[p])
    view[BOBS.decision] = D_ROB
    view[BOBS.tile] = kind
    view[BOBS.from_seat] = S[ST.cur]
    view[BOBS.can_win] = 1
    view[BOBS.win_fan] = unpack_fan(rob_packed)
    view[BOBS.win_points] = fan_value(unpack_fan(rob_packed))


@step
def _stop_in_calls(S, obs, tables, stop_at, rob):
    """_stop_before for the react and rob phases, whose askers are the eligible seats in turn order."""
    if stop_at < 0:
        return False
    n = S[ST.n_decisions]
    cur = S[ST.cur]
    wall_left = WALL_SIZE - S[ST.pos]
    for k in range(1, 4):
        p = (cur + k) % 4
        if rob:
            ok = can_rob(S, obs, p, tables)
        else:
            can_ron, can_pon, can_kan = react_options(obs, p, S[ST.tile], wall_left, tables)
            ok = can_ron or can_pon or can_kan
        if ok:
            if n == stop_at:
                S[ST.pend_seat] = p
                return True
            n += 1
    return False


# ----------------------------------------------------------------------------- reactions to a discard
@step
def react_options(obs, p, tile, wall_left, tables):
    """(can ron, can pon, can open kan) of seat `p` on the discard `tile` (B-8, B-9)."""
    if obs[0, BOBS.won + p] == 1:
        return False, False, False
    held = obs[p, BOBS.hand + tile]
    can_ron = _win_check(obs, p, tile, tables)
    return can_ron, held >= 2 and wall_left > 0, held == 3 and wall_left >= 1


@step
def prepare_react_view(S, obs, p, view, can_ron, can_pon, can_kan, rules):
    """Fill `view` for seat `p`'s D_REACT decision; returns the packed ron score (0 when it cannot ron)."""
    tile = S[ST.tile]
    copy_row(view, obs[p])
    view[BOBS.decision] = D_REACT
    view[BOBS.tile] = tile
    view[BOBS.from_seat] = S[ST.cur]
    view[BOBS.can_pon] = 1 if can_pon else 0
    view[BOBS.can_kan] = 1 if can_kan else 0
    ron_packed = 0
    if can_ron:
        ron_packed = _score(obs, p, tile, False, _ron_flags(S), rules)
        view[BOBS.can_win] = 1
        view[BOBS.win_fan] = unpack_fan(ron_packed)
        view[BOBS.win_points] = fan_value(unpack_fan(ron_packed))
    else:
        view[BOBS.can_win] = 0
        view[BOBS.win_fan] = 0
        view[BOBS.win_points] = 0
    return ron_packed


@nb.njit(cache=True, inline="always")
def _ron_flags(S):
    return (KAN_DISCARD if S[ST.kan_discard] == 1 else 0) | (LAST_TILE if S[ST.pos] >= WALL_SIZE else 0)


# ----------------------------------------------------------------------------- the hot loop
LEFT, STOPPED, SETTLED = 0, 1, 2


@step
def _pay_kan_by_others(S, obs, rec, receiver, amount, reason, payers_col, events, ev):
    """Every other seat still playing pays `receiver` a kan payment (B-14, B-15); rec[receiver, payers_col]
    counts the payers."""
    delta = S[ST.delta:ST.delta + 4]
    ledger = S[ST.kan_ledger:ST.kan_ledger + 16].reshape((4, 4))
    for p in range(4):
        if p != receiver and obs[0, BOBS.won + p] == 0:
            _pay_kan(obs, p, receiver, amount, delta, ledger, rec, reason, events, ev)
            rec[receiver, payers_col] += 1


@step
def _legal_turn_action(obs, cur, view, action, can_win, drawn, counters):
    """`action` when legal, else (counted as illegal) the drawn tile, else the first tile in hand."""
    legal = (action == TSUMO and can_win) or \
        (KAN <= action < KAN + 27 and view[BOBS.kan_options + action - KAN] > 0) or \
        (0 <= action < 34 and obs[cur, BOBS.hand + action] > 0)
    if legal:
        return action
    counters[CNT_ILLEGAL] += 1
    if drawn >= 0 and obs[cur, BOBS.hand + drawn] > 0:
        return drawn
    for k in range(34):
        if obs[cur, BOBS.hand + k] > 0:
            return k
    return -1


@step
def _tsumo(S, obs, rec, cur, drawn, packed, rules, counters, events, ev):
    """cur wins on the tile it drew (B-19: every other non-won player pays value + 1000)."""
    delta = S[ST.delta:ST.delta + 4]
    each = tsumo_payment(unpack_fan(packed), rules)
    S[ST.winners] += 1
    _record_win(obs, cur, -1, drawn, packed, WIN_TSUMO, each * _n_payers(obs, cur), rec, S[ST.winners],
                counters, events, ev)
    for p in range(4):
        if p != cur and obs[0, BOBS.won + p] == 0:
            _pay(obs, p, cur, each, delta, PAY_TSUMO, events, ev)
    if S[ST.first_winner] < 0:
        S[ST.first_winner] = cur
    S[ST.last_kan_seat] = -1
    _after_win(S, obs, rules, cur)


@step
def _closed_kan(S, obs, rec, cur, kind, events, ev):
    """B-14: four concealed tiles of `kind` become a closed kan; each other player still playing pays."""
    obs[cur, BOBS.hand + kind] -= 4
    log_event(events, ev, EV_KAN, cur, kind, tiles.ANKAN, -1, 0)
    pub_set(obs, _meld_slot(cur, kind), ANKAN_MELD)
    pub_add(obs, BOBS.n_melds + cur, 1)
    pub_add(obs, BOBS.seen + kind, 4)
    _pay_kan_by_others(S, obs, rec, cur, R.CLOSED_KAN_PAY, PAY_CLOSED_KAN, H_CLOSED_PAYERS, events, ev)
    _kan_made(S, obs, rec, cur, events, ev)


@step
def _discard(S, obs, rec, cur, tile, events, ev):
    """cur discards `tile`; the others react next (PH_REACT)."""
    log_event(events, ev, EV_DISCARD, cur, tile, 0, 0, 0)
    obs[cur, BOBS.hand + tile] -= 1
    pub_add(obs, BOBS.river + 34 * cur + tile, 1)
    pub_add(obs, BOBS.n_discards + cur, 1)
    pub_add(obs, BOBS.seen + tile, 1)
    rec[cur, H_DISC] += 1
    S[ST.kan_discard] = 1 if S[ST.last_kan_seat] == cur else 0
    S[ST.last_kan_seat] = -1
    S[ST.after_call] = 0
    S[ST.kan_draw] = 0
    S[ST.tile] = tile
    S[ST.phase] = PH_REACT


@step
def _turn(S, obs, rec, view, hooks_turn, params, rules, tables, counters, events, ev):
    """PH_TURN: cur's tsumo, kan (an added one goes to PH_ROB first) or discard."""
    cur = S[ST.cur]
    packed = prepare_turn_view(S, obs, view, rules, tables)
    can_win = view[BOBS.can_win] == 1
    drawn = S[ST.drawn]
    action = _ask(hooks_turn[cur], cur, S, obs, view, params, tables)
    action = _legal_turn_action(obs, cur, view, action, can_win, drawn, counters)
    if can_win and action != TSUMO:
        rec[cur, H_PASSED] += 1
        log_event(events, ev, EV_PASS, cur, drawn, unpack_fan(packed), 1, 0)
    if action == TSUMO:
        _tsumo(S, obs, rec, cur, drawn, packed, rules, counters, events, ev)
    elif action >= KAN:
        kind = action - KAN
        if view[BOBS.kan_options + kind] == 2:  # added kan: others may rob it first (B-17)
            S[ST.tile] = kind
            S[ST.phase] = PH_ROB
        else:
            _closed_kan(S, obs, rec, cur, kind, events, ev)
    else:
        _discard(S, obs, rec, cur, action, events, ev)


@step
def _ask_reactions(S, obs, rec, view, hooks_react, params, rules, tables, counters, events, ev):
    """Ask the seats after cur in turn order about the discard; returns (rons, caller, PON or KAN_CALL or 0)
    with the ron claimants in S[ST.claimants:]."""
    cur = S[ST.cur]
    tile = S[ST.tile]
    wall_left = WALL_SIZE - S[ST.pos]
    n_ron = 0
    caller = -1
    call = 0
    for k in range(1, 4):
        p = (cur + k) % 4
        can_ron, can_pon, can_kan = react_options(obs, p, tile, wall_left, tables)
        if not (can_ron or can_pon or can_kan):
            continue
        prepare_react_view(S, obs, p, view, can_ron, can_pon, can_kan, rules)
        answer = _ask(hooks_react[p], p, S, obs, view, params, tables)
        if answer == RON and can_ron:
            S[ST.claimants + n_ron] = p
            n_ron += 1
            continue
        if can_ron:
            rec[p, H_PASSED] += 1
            log_event(events, ev, EV_PASS, p, tile, view[BOBS.win_fan], 0, 0)
        if answer == PON and can_pon:
            caller, call = p, PON
        elif answer == KAN_CALL and can_kan:
            caller, call = p, KAN_CALL
        elif answer != 0:
            counters[CNT_ILLEGAL] += 1
    return n_ron, caller, call


@step
def _pon(S, obs, caller, events, ev):
    """`caller` pons the discard and takes the turn without a draw."""
    cur = S[ST.cur]
    tile = S[ST.tile]
    log_event(events, ev, EV_PON, caller, tile, cur, 0, 0)
    obs[caller, BOBS.hand + tile] -= 2
    pub_add(obs, BOBS.river + 34 * cur + tile, -1)
    pub_set(obs, _meld_slot(caller, tile), PON_MELD)
    pub_add(obs, BOBS.n_melds + caller, 1)
    pub_add(obs, BOBS.seen + tile, 2)
    S[ST.any_call] = 1
    S[ST.cur] = caller
    S[ST.after_call] = 1
    S[ST.drawn] = -1
    S[ST.phase] = PH_TURN


@step
def _open_kan(S, obs, rec, caller, events, ev):
    """Open kan on the discard: the discarder pays 2000 (B-15), then a replacement draw (B-16)."""
    cur = S[ST.cur]
    tile = S[ST.tile]
    obs[caller, BOBS.hand + tile] -= 3
    pub_add(obs, BOBS.river + 34 * cur + tile, -1)
    pub_set(obs, _meld_slot(caller, tile), MINKAN_MELD)
    pub_add(obs, BOBS.n_melds + caller, 1)
    pub_add(obs, BOBS.seen + tile, 3)
    log_event(events, ev, EV_KAN, caller, tile, tiles.MINKAN, cur, 0)
    delta = S[ST.delta:ST.delta + 4]
    ledger = S[ST.kan_ledger:ST.kan_ledger + 16].reshape((4, 4))
    _pay_kan(obs, cur, caller, R.OPEN_KAN_PAY, delta, ledger, rec, PAY_OPEN_KAN, events, ev)
    rec[caller, H_OPEN_KANS] += 1
    S[ST.cur] = caller
    _kan_made(S, obs, rec, caller, events, ev)


@step
def _react(S, obs, rec, view, hooks_react, params, rules, tables, counters, events, ev):
    """PH_REACT: rons on the discard (B-11: every claimant wins; B-9: ron beats pon and kan), else a pon or
    an open kan, else the next seat draws."""
    cur = S[ST.cur]
    n_ron, caller, call = _ask_reactions(S, obs, rec, view, hooks_react, params, rules, tables, counters, events, ev)
    if n_ron > 0:
        delta = S[ST.delta:ST.delta + 4]
        S[ST.winners] = _settle_rons(obs, cur, S[ST.claimants:ST.claimants + 3], n_ron, S[ST.tile], _ron_flags(S),
                                     rules, delta, rec, S[ST.winners], counters, events, ev)
        if S[ST.first_winner] < 0:
            S[ST.first_winner] = S[ST.claimants]
        _after_win(S, obs, rules, S[ST.claimants + n_ron - 1])  # after the winner farthest from the discarder
    elif call == PON:
        _pon(S, obs, caller, events, ev)
    elif call == KAN_CALL:
        _open_kan(S, obs, rec, caller, events, ev)
    else:
        S[ST.cur] = next_active(obs, BOBS.won, cur)
        S[ST.need_draw] = 1
        S[ST.phase] = PH_DRAW


@step
def _rob(S, obs, rec, view, hooks_rob, params, rules, tables, counters, events, ev):
    """PH_ROB: the seats that can rob the added kan are asked (B-17); else the kan stands, paid by each other
    player still playing only when made with the tile just drawn (B-15)."""
    cur = S[ST.cur]
    kind = S[ST.tile]
    n_rob = 0
    for k in range(1, 4):
        p = (cur + k) % 4
        if not can_rob(S, obs, p, tables):
            continue
        prepare_rob_view(S, obs, p, view, rules)
        answer = _ask(hooks_rob[p], p, S, obs, view, params, tables)
        if answer == RON:
            S[ST.claimants + n_rob] = p
            n_rob += 1
        else:
            rec[p, H_PASSED] += 1
            log_event(events, ev, EV_PASS, p, kind, view[BOBS.win_fan], 0, 0)
            if answer != 0:
                counters[CNT_ILLEGAL] += 1
    if n_rob > 0:
        obs[cur, BOBS.hand + kind] -= 1  # the robbed tile goes to the winners; the pon stays
        S[ST.robbed_kind + S[ST.robbed_tiles]] = kind
        S[ST.robbed_tiles] += 1
        delta = S[ST.delta:ST.delta + 4]
        S[ST.winners] = _settle_rons(obs, cur, S[ST.claimants:ST.claimants + 3], n_rob, kind, ROBBED_KAN, rules,
                                     delta, rec, S[ST.winners], counters, events, ev)
        if S[ST.first_winner] < 0:
            S[ST.first_winner] = S[ST.claimants]
        S[ST.last_kan_seat] = -1
        _after_win(S, obs, rules, cur)
        return
    obs[cur, BOBS.hand + kind] -= 1
    log_event(events, ev, EV_KAN, cur, kind, tiles.KAKAN, -1, 0)
    pub_set(obs, _meld_slot(cur, kind), KAKAN_MELD)
    pub_add(obs, BOBS.seen + kind, 1)
    if kind == S[ST.drawn] and S[ST.after_call] == 0:
        _pay_kan_by_others(S, obs, rec, cur, R.ADDED_KAN_PAY, PAY_ADDED_KAN, H_ADDED_PAYERS, events, ev)
    _kan_made(S, obs, rec, cur, events, ev)


@step
def _play_turns(S, obs, rec, view, hooks_turn, hooks_react, hooks_rob, params, rules, tables, counters, events, ev,
                stop_at):
    """The draw, turn, react and rob phases in one compiled loop (the hot path: no array copies per step).
    Returns STOPPED before the decision `stop_at`, SETTLED once ST.watch_seat's points are final, else LEFT
    when play moves to another phase (the end of the hand)."""
    while True:
        if S[ST.watch_seat] >= 0 and _settled_winner(S, obs, S[ST.watch_seat]):
            return SETTLED
        phase = S[ST.phase]
        if phase == PH_DRAW:
            if S[ST.need_draw]:
                if S[ST.pos] >= WALL_SIZE:
                    S[ST.end] = END_EXHAUSTIVE
                    S[ST.phase] = PH_END
                    continue
                _draw(S, obs, S[ST.cur], False, events, ev)
                S[ST.kan_draw] = 0
                S[ST.after_call] = 0
                S[ST.need_draw] = 0
            S[ST.phase] = PH_TURN
        elif phase == PH_TURN:
            if _stop_before(S, stop_at, 1, S[ST.cur]):
                return STOPPED
            _turn(S, obs, rec, view, hooks_turn, params, rules, tables, counters, events, ev)
        elif phase == PH_REACT:
            if _stop_in_calls(S, obs, tables, stop_at, False):
                return STOPPED
            _react(S, obs, rec, view, hooks_react, params, rules, tables, counters, events, ev)
        elif phase == PH_ROB:
            if _stop_in_calls(S, obs, tables, stop_at, True):
                return STOPPED
            _rob(S, obs, rec, view, hooks_rob, params, rules, tables, counters, events, ev)
        else:
            return LEFT


# ----------------------------------------------------------------------------- the end of a hand
@allocates
def _end_hand(S, obs, rec, rules, counters, events, ev):
    """Kan income during play, then the exhaustive-draw settlement (B-20 … B-23) and the hand's record."""
    end = S[ST.end]
    delta = S[ST.delta:ST.delta + 4]
    kan_ledger = S[ST.kan_ledger:ST.kan_ledger + 16].reshape((4, 4))
    for s in range(4):
        income = 0
        for p in range(4):
            income += kan_ledger[s, p] - kan_ledger[p, s]
        rec[s, H_KANINC] = income
    if end == END_EXHAUSTIVE:
        hands = np.empty((4, 34), np.int32)
        melds = np.empty((4, 34), np.int32)
        voids = np.empty(4, np.int64)
        won = np.empty(4, np.bool_)
        for s in range(4):
            hands[s] = obs[s, BOBS.hand:BOBS.hand + 34]
            melds[s] = obs[0, BOBS.melds + 34 * s:BOBS.melds + 34 * s + 34]
            voids[s] = obs[0, BOBS.void + s]
            won[s] = obs[0, BOBS.won + s] == 1
        deltas = np.zeros(4, np.int64)
        tenpai = np.zeros(4, np.bool_)
        pig = np.zeros(4, np.bool_)
        max_value = np.zeros(4, np.int64)
        breakdown = np.zeros((3, 4), np.int64)
        settle_exhaustive_draw(hands, melds, voids, won, kan_ledger, rules, deltas, tenpai, pig, max_value, breakdown)
        for s in range(4):
            if tenpai[s] or pig[s]:
                log_event(events, ev, EV_DRAW_STATE, s, 1 if tenpai[s] else 2, max_value[s], 0, 0)
        for s in range(4):
            log_event(events, ev, EV_SETTLE, s, -1, breakdown[ROW_REFUND, s], breakdown[ROW_PIG, s],
                      breakdown[ROW_DAJIAO, s])
            if deltas[s] != 0:
                pub_add(obs, BOBS.points + s, deltas[s])
                delta[s] += deltas[s]
            rec[s, H_REFUND] = breakdown[ROW_REFUND, s]
            rec[s, H_DRAWSET] = deltas[s] - breakdown[ROW_REFUND, s]
            rec[s, H_TENPAI] = 1 if tenpai[s] else 0
            rec[s, H_PIG] = 1 if pig[s] else 0
            rec[s, H_MAXV] = max_value[s]
        if _anyone_bust(obs):
            end = END_BUST
            S[ST.end] = end

    pos = S[ST.pos]
    log_event(events, ev, EV_END, -1, -1, end, S[ST.winners], 0)
    if _tiles_in_play(obs) + S[ST.robbed_tiles] + WALL_SIZE - pos != WALL_SIZE:
        counters[CNT_TILE_ERRORS] += 1
    for s in range(4):
        rec[s, H_DELTA] = delta[s]
        rec[s, H_WINNERS] = S[ST.winners]
        rec[s, H_END] = end
        rec[s, H_WALL] = WALL_SIZE - pos
        rec[s, H_DIR] = S[ST.direction]
    S[ST.phase] = PH_DONE


# ----------------------------------------------------------------------------- the step loop
@step
def _settled_winner(S, obs, seat):
    """Whether `seat` has won and paid no kan money this hand: its points cannot change any more (B-12, B-21)."""
    if obs[0, BOBS.won + seat] == 0:
        return False
    for r in range(4):
        if S[ST.kan_ledger + 4 * r + seat] != 0:
            return False
    return True


@step
def run_hand(S, view, hooks_ex, hooks_void, hooks_turn, hooks_react, hooks_rob, params, rules, tables, counters,
             events, ev, stop_at):
    """Play the hand in state block `S` from its phase until it is over (returns False) or, when
    `stop_at` ≥ 0, until the phase that asks the hand's decision number `stop_at` (0-based, counting
    every seat's decisions; returns True, S left at that phase's start with ST.pend_seat set). With
    ST.watch_seat set, it also returns (False) as soon as that seat's points are final for the hand."""
    obs = obs_of(S)
    rec = rec_of(S)
    while True:
        if S[ST.watch_seat] >= 0 and _settled_winner(S, obs, S[ST.watch_seat]):
            return False
        phase = S[ST.phase]
        if phase == PH_DRAW or phase == PH_TURN or phase == PH_REACT or phase == PH_ROB:
            left = _play_turns(S, obs, rec, view, hooks_turn, hooks_react, hooks_rob, params, rules, tables,
                               counters, events, ev, stop_at)
            if left == STOPPED:
                return True
            if left == SETTLED:
                return False
        elif phase == PH_DEAL:
            _deal(S, obs, events, ev)
        elif phase == PH_EXCHANGE:
            if _exchange(S, obs, view, hooks_ex, params, tables, counters, events, ev, stop_at):
                return True
        elif phase == PH_VOID:
            if _choose_voids(S, obs, rec, view, hooks_void, params, tables, counters, events, ev, stop_at):
                return True
        elif phase == PH_END:
            _end_hand(S, obs, rec, rules, counters, events, ev)
        else:
            return False


# ----------------------------------------------------------------------------- whole matches
@nb.njit(cache=True)
def shuffled_wall(root_seed, match_id, hand_no, wall):
    """Fill `wall` with the 108 tiles of hand `hand_no` (B-1) and return its exchange direction (B-6):
    0 next, 1 previous, 2 across. Both depend only on (root_seed, match_id, hand_no)."""
    state = np.zeros(1, np.uint64)
    state[0] = rng.key_seed(root_seed, match_id, hand_no, STREAM_WALL)
    for i in range(WALL_SIZE):
        wall[i] = i // 4
    rng.shuffle(wall, state)
    state[0] = rng.key_seed(root_seed, match_id, hand_no, STREAM_DIRECTION)
    return rng.below(state, 3)


@nb.njit(cache=True)
def seat_seed(root_seed, match_id, hand_no, seat):
    """Initial random stream of a seat's policy in a hand (common random numbers across policies)."""
    return np.int64(rng.key_seed(root_seed, match_id, hand_no, STREAM_SEAT + seat) >> np.uint64(33))


@nb.njit(cache=True)
def start_hand(S, root_seed, match_id, hand_no, dealer):
    """Reset S for hand `hand_no` (the points carry over): the wall and exchange direction keyed by
    (root_seed, match_id, hand_no), the seats' random streams, phase PH_DEAL."""
    obs = obs_of(S)
    points = obs[0, BOBS.points:BOBS.points + 4].copy()
    S[:] = 0
    for s in range(4):
        obs[s, BOBS.points:BOBS.points + 4] = points
        obs[s, BOBS.seat] = s
        obs[s, BOBS.dealer] = dealer
        obs[s, BOBS.hand_no] = hand_no
        for p in range(4):
            obs[s, BOBS.void + p] = -1
    S[ST.direction] = shuffled_wall(root_seed, match_id, hand_no, S[ST.wall:ST.wall + WALL_SIZE])
    for s in range(4):
        obs[s, BOBS.rng] = seat_seed(root_seed, match_id, hand_no, s)
    S[ST.drawn] = -1
    S[ST.last_kan_seat] = -1
    S[ST.first_winner] = -1
    S[ST.end] = END_EXHAUSTIVE
    S[ST.pend_seat] = -1
    S[ST.force_seat] = -1
    S[ST.watch_seat] = -1
    S[ST.phase] = PH_DEAL


@nb.njit(cache=True)
def start_match(S):
    """Reset S for a new match: everything zero, every seat at the start points (B-2)."""
    S[:] = 0
    obs = obs_of(S)
    for s in range(4):
        obs[s, BOBS.points:BOBS.points + 4] = R.START_POINTS


@nb.njit(cache=True)
def next_dealer(S):
    """Dealer of the next hand (B-3): the first winner of this one, else the same dealer."""
    return S[ST.first_winner] if S[ST.first_winner] >= 0 else obs_of(S)[0, BOBS.dealer]


_HOOKS = types.UniTuple(HOOK_TYPE, 4)
_SIG = types.int64(
    types.int64, types.int64[::1], _HOOKS, _HOOKS, _HOOKS, _HOOKS, _HOOKS, types.float64[:, ::1],
    types.int64[::1], types.uint8[:, ::1], types.int32[:, ::1], types.int32[:, ::1], types.int64[::1],
    types.int32[:, ::1],
)


@nb.njit(_SIG, cache=True)
def play_matches(root_seed, match_ids, hooks_ex, hooks_void, hooks_turn, hooks_react, hooks_rob, params,
                 rules, tables, hand_rows, match_rows, counters, events):
    """Play every match in `match_ids`; returns the number of hand rows written (jit-compiled).

    hand_rows needs 16 rows per match, match_rows 4. `events` receives the event log (sims.events) while it
    has room; give it zero rows to record nothing. counters[CNT_EVENTS] counts the events written. The wall,
    the exchange direction and the seats' random streams of hand h of match m depend only on (root_seed, m, h)
    (common random numbers).
    """
    S = np.zeros(ST.SIZE, np.int32)
    view = np.zeros(BOBS.SIZE, np.int32)
    obs = obs_of(S)
    rec = rec_of(S)
    ev = np.zeros(3, np.int64)  # [events written, match id, hand number]
    n_rows = 0
    for mi in range(match_ids.size):
        match_id = match_ids[mi]
        start_match(S)
        dealer = 0
        hands_played = 0
        busted = False
        for hand_no in range(1, R.HANDS_PER_MATCH + 1):
            points_before = obs[0, BOBS.points:BOBS.points + 4].copy()
            start_hand(S, root_seed, match_id, hand_no, dealer)
            ev[1] = match_id
            ev[2] = hand_no
            run_hand(S, view, hooks_ex, hooks_void, hooks_turn, hooks_react, hooks_rob, params, rules, tables,
                     counters, events, ev, -1)
            counters[CNT_HANDS] += 1
            for s in range(4):
                rec[s, H_MATCH] = match_id
                rec[s, H_HAND] = hand_no
                rec[s, H_SEAT] = s
                rec[s, H_DEALER] = 1 if s == dealer else 0
                rec[s, H_BEFORE] = points_before[s]
                hand_rows[n_rows] = rec[s]
                n_rows += 1
            hands_played = hand_no
            if S[ST.end] == END_BUST:
                busted = True
                break
            dealer = next_dealer(S)  # B-3
        write_match_rows(obs, BOBS.points, match_rows, mi * 4, match_id, busted, hands_played)  # B-4 ranks
    counters[CNT_EVENTS] = ev[0]
    return n_rows
