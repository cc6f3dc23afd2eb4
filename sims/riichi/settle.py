"""Settling riichi wins and draws (RULES.md R-2, R-3, R-6, S-5, S-6, S-13, S-14): who pays whom, honba,
riichi sticks, pao, noten payments, and the win's record columns. All functions are jit-compiled and work on
the engine's state (`obs`, the `st` block of sims.riichi.tableau, the hand's record rows `rec`).
"""

from __future__ import annotations

import numba as nb

from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.events import EV_WIN, PAY_RON, PAY_TSUMO, log_event
from tsumolab.sims.riichi import rules as T
from tsumolab.sims.riichi.dragon_eye_holder import eye_factor
from tsumolab.sims.riichi.columns import (
    H_DEALT, H_DORA, H_FU, H_HAN, H_KIND, H_ORDER, H_PAO, H_STICKS_WON, H_VALUE, H_WINPTS, H_WON, H_YAKU,
    H_YAKU_EXT, H_YAKUMAN,
)
from tsumolab.sims.riichi.fantasy_cards import fl_win_adjust
from tsumolab.sims.riichi.events import PAY_HONBA, PAY_NOTEN, PAY_PAO, PAY_RIICHI, PAY_STICKS
from tsumolab.sims.riichi.scoring import (
    RES_FU, RES_HAN, RES_N_YAKU, RES_RON, RES_TOTAL, RES_TSUMO_DEALER, RES_TSUMO_OTHER, RES_YAKU, RES_YAKUMAN,
    payments,
)
from tsumolab.sims.riichi.tableau import F_PAO, ST_FLAGS, pay
from tsumolab.sims.shanten import RIICHI_SHAPES, winning_tiles
from tsumolab.sims.table_state import pub_add, pub_set
from tsumolab.sims.riichi.yaku import AKA_DORA, DAISANGEN, DAISUUSHII, DORA, URA_DORA

WIN_RON, WIN_TSUMO = 1, 2


@nb.njit(cache=True)
def record_win(obs, rec, seat, res, kind, order, received, events, ev, win_tile):
    log_event(events, ev, EV_WIN, seat, win_tile, res[RES_HAN], res[RES_FU], kind)
    rec[seat, H_WON] = 1
    rec[seat, H_ORDER] = order
    rec[seat, H_KIND] = kind
    rec[seat, H_HAN] = res[RES_HAN]
    rec[seat, H_FU] = res[RES_FU]
    rec[seat, H_YAKUMAN] = res[RES_YAKUMAN]
    rec[seat, H_VALUE] = res[RES_TOTAL]
    rec[seat, H_WINPTS] = received
    dora = 0
    lo = 0
    hi = 0
    for i in range(res[RES_N_YAKU]):
        y = res[RES_YAKU + 2 * i]
        if y == DORA or y == AKA_DORA or y == URA_DORA:
            dora += res[RES_YAKU + 2 * i + 1]
        elif y < 31:
            lo |= 1 << y
        else:
            hi |= 1 << (y - 31)
    rec[seat, H_DORA] = dora
    rec[seat, H_YAKU] = lo
    rec[seat, H_YAKU_EXT] = hi
    pub_set(obs, ROBS.won + seat, 1)
    pub_add(obs, ROBS.n_winners, 1)


@nb.njit(cache=True)
def has_yaku(res, yaku):
    for i in range(res[RES_N_YAKU]):
        if res[RES_YAKU + 2 * i] == yaku:
            return True
    return False


@nb.njit(cache=True)
def _pao_mult(res, sopts):
    """Yakuman multiplier of the liable yakuman (大三元 1, 大四喜 2 with double yakuman on, R-3)."""
    if has_yaku(res, DAISANGEN):
        return 1
    if has_yaku(res, DAISUUSHII):
        return 2 if sopts[3] else 1
    return 0


@nb.njit(cache=True)
def settle_ron(obs, st, topts, sopts, rec, delta, winner, discarder, res, honba, take_sticks, order, events, ev,
                win_tile):
    """The discarder pays the ron (R-3, pao split), honba (R-2) and the winner takes the sticks if asked."""
    value = res[RES_RON]
    honba_pay = T.HONBA_RON * honba
    liable = st[ST_FLAGS + winner, F_PAO] - 1
    received = honba_pay
    if topts[T.T_PAO] and liable >= 0 and liable != discarder:
        mult = _pao_mult(res, sopts)
        if mult > 0:
            pao_value = payments(8000 * mult, winner == obs[0, ROBS.dealer], False)[1]
            half = pao_value // 2
            liable_pays = half * eye_factor(obs, topts, liable, winner)  # DE: × multiplier with the eye's holder
            pay(obs, liable, winner, liable_pays, delta, PAY_RON, events, ev)
            rec[liable, H_PAO] += liable_pays
            received += liable_pays
            value -= half
    value *= eye_factor(obs, topts, discarder, winner)  # DE (1 otherwise)
    pay(obs, discarder, winner, value, delta, PAY_RON, events, ev)
    pay(obs, discarder, winner, honba_pay, delta, PAY_HONBA, events, ev)
    received += value
    if take_sticks:
        sticks = obs[0, ROBS.sticks]
        pay(obs, -1, winner, 1000 * sticks, delta, PAY_STICKS, events, ev)
        pub_set(obs, ROBS.sticks, 0)
        received += 1000 * sticks
        rec[winner, H_STICKS_WON] = sticks
    rec[discarder, H_DEALT] += 1
    record_win(obs, rec, winner, res, WIN_RON, order, received, events, ev, win_tile)
    if topts[T.T_FANTASY]:  # FL 赠品, 厄运沙漏
        fl_win_adjust(obs, topts, rec, delta, winner, discarder, res, honba, events, ev)


@nb.njit(cache=True)
def settle_tsumo(obs, st, topts, sopts, rec, delta, winner, res, honba, order, events, ev, win_tile):
    """Every other (non-won, with S-5 tsumo loss) seat pays its share, 100 × honba each; the winner takes the
    sticks. A liable player (R-3 pao) pays the liable yakuman in full."""
    dealer = obs[0, ROBS.dealer]
    liable = st[ST_FLAGS + winner, F_PAO] - 1
    is_dealer = winner == dealer
    mult = _pao_mult(res, sopts) if (topts[T.T_PAO] and liable >= 0) else 0
    received = 0
    if mult > 0:
        pao_total = payments(8000 * mult, is_dealer, False)[1]
        rest = res[RES_YAKUMAN] - mult
        pao_total *= eye_factor(obs, topts, liable, winner)  # DE (1 otherwise)
        pay(obs, liable, winner, pao_total + 100 * 3 * honba, delta, PAY_PAO, events, ev)
        rec[liable, H_PAO] += pao_total
        received += pao_total + 300 * honba
        if rest > 0:
            _, _, share_dealer, share_other = payments(8000 * rest, is_dealer, True)
            for p in range(4):
                if p != winner and not (topts[T.T_TSUMO_LOSS] and obs[0, ROBS.won + p]):
                    share = share_dealer if (p == dealer and not is_dealer) else share_other
                    share *= eye_factor(obs, topts, p, winner)
                    pay(obs, p, winner, share, delta, PAY_TSUMO, events, ev)
                    received += share
    else:
        for p in range(4):
            if p == winner or (topts[T.T_TSUMO_LOSS] and obs[0, ROBS.won + p]):
                continue
            share = res[RES_TSUMO_DEALER] if (p == dealer and not is_dealer) else res[RES_TSUMO_OTHER]
            share *= eye_factor(obs, topts, p, winner)  # DE: × multiplier with the eye's holder (1 otherwise)
            pay(obs, p, winner, share, delta, PAY_TSUMO, events, ev)
            pay(obs, p, winner, 100 * honba, delta, PAY_HONBA, events, ev)
            received += share + 100 * honba
    sticks = obs[0, ROBS.sticks]
    pay(obs, -1, winner, 1000 * sticks, delta, PAY_STICKS, events, ev)
    pub_set(obs, ROBS.sticks, 0)
    received += 1000 * sticks
    rec[winner, H_STICKS_WON] = sticks
    record_win(obs, rec, winner, res, WIN_TSUMO, order, received, events, ev, win_tile)
    if topts[T.T_FANTASY]:  # FL 厄运沙漏
        fl_win_adjust(obs, topts, rec, delta, winner, -1, res, honba, events, ev)


@nb.njit(cache=True)
def tenpai_at_draw(hand, n_melds, suit_t, honor_t, mask):
    """R-6: tenpai at the exhaustive draw: some tile completes the concealed hand, unless that hand holds all
    four copies of it; copies in the seat's own melds (a kan of the waited tile) leave the hand tenpai, as in
    Mahjong Soul."""
    return winning_tiles(hand, n_melds, RIICHI_SHAPES, hand, suit_t, honor_t, mask) > 0


@nb.njit(cache=True)
def noten_payments(obs, topts, tenpai, delta, events, ev):
    """R-6: 3000 split between noten and tenpai players; S-6 among non-won players (split or each)."""
    n_active = 0
    n_tenpai = 0
    for s in range(4):
        if obs[0, ROBS.won + s] == 0:
            n_active += 1
            if tenpai[s]:
                n_tenpai += 1
    n_noten = n_active - n_tenpai
    if n_tenpai == 0 or n_noten == 0:
        return
    if topts[T.T_BLOODBATH] and topts[T.T_NOTEN_EACH]:
        for p in range(4):
            if obs[0, ROBS.won + p] or tenpai[p]:
                continue
            for s in range(4):
                if tenpai[s] and obs[0, ROBS.won + s] == 0:
                    pay(obs, p, s, 1000, delta, PAY_NOTEN, events, ev)
        return
    total = T.NOTEN_TOTAL if not topts[T.T_BLOODBATH] else 1000 * (n_active - 1)
    for p in range(4):
        if obs[0, ROBS.won + p] == 0 and not tenpai[p]:
            pay(obs, p, -1, total // n_noten, delta, PAY_NOTEN, events, ev)
    for s in range(4):
        if obs[0, ROBS.won + s] == 0 and tenpai[s]:
            pay(obs, -1, s, total // n_tenpai, delta, PAY_NOTEN, events, ev)


@nb.njit(cache=True)
def deposit_stick(obs, rec, delta, seat, events, ev):
    pay(obs, seat, -1, T.RIICHI_COST, delta, PAY_RIICHI, events, ev)
    pub_add(obs, ROBS.sticks, 1)
