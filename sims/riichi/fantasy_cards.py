"""`fantasy` 幻境传说 (RULES.md FL): the match's three cards and their effects, as jit-compiled helpers the riichi
engine (and sims.riichi.settle) calls when the rule option `fantasy` is on.

Cards: one per deck, drawn before the match from the keyed stream (root seed, match, 0, STREAM_FANTASY), or
fixed by the rule option `cards` (topts[T_FANTASY + 1 + deck] = card index, -1 = drawn). Codes are index + 1
in the order of sims.riichi.fantasy_decks.FANTASY_DECKS:
    dealer  1 风纪 fuuki, 2 永夜 eternal-night, 3 没收 confiscate, 4 炒作 hype, 5 赠品 giveaway
    chance  1 里世界 otherworld, 2 三倍速 triple-speed, 3 金闪闪 golden, 4 超断幺 super-tanyao, 5 胜负手 showdown
    fate    1 夸大其词 exaggeration, 2 过度准备 over-prepared, 3 厄运沙漏 hourglass, 4 暗中交易 shady-deal,
            5 爱的代价 love-price
The han changes of the chance cards (超断幺, 胜负手, 金闪闪, 里世界) are applied by the scorer itself
(sims.riichi.scoring.chance_han / chance_dora, ctx[CTX_CHANCE] = the chance card); 三倍速 by the engine's
ippatsu counter (st F_IPPATSU counts the seat's discards left with ippatsu: 3 under 三倍速, else 1).

Public observation block ROBS.fantasy (policies.riichi_api), the same for every hand of the match:
    +FL_DEALER / +FL_CHANCE / +FL_FATE  the three card codes
    +FL_IPPATSU_TURNS  own discards after riichi during which ippatsu lasts (3 under 三倍速, else 1)
    +FL_RIICHI_COST    points a riichi costs (2000 under 过度准备, else 1000)
    +FL_HYPE_FLIPS     extra indicators 炒作 has flipped in this hand

Choices where RULES.md and source 001 are silent (rule options where disputed, see RiichiRules):
- 风纪: a closed non-riichi dealer may not ron (robbing a kan included); tsumo is unaffected; the blocked ron
  causes no temporary furiten (as a yakuless ron in the engine).
- 永夜: on dealer renchan (win, tenpai at exhaustive draw) honba +5 instead of +1; a non-renchan exhaustive draw
  +1 (as R-2); an abortive draw +1 (R-5) unless `eternal_abortive`.
- 没收: the sticks go to the dealer at an exhaustive draw and, with `confiscate_abortive` (default), at an
  abortive draw; after the noten payments.
- 炒作: the extra indicator is flipped at once when the dealer pons or kans (any kan, in addition to the kan's
  own indicator, R-1 timing); at most `hype_max` (4) extra per hand, and never beyond R-1's 5 indicators.
- 赠品: +1000 per dora of the win (face-up, red and ura) on a dealer ron (robbing a kan included), paid by the
  discarder on top of the ron.
- 夸大其词: the exhaustive-draw settlement (noten payments or nagashi mangan) is paid twice.
- 过度准备: riichi needs 2000 points and puts 2 sticks (2000) on the table.
- 厄运沙漏: cut = 300 × the winner's discards after the riichi tile (the declaration tile not counted), paid back
  by the winner: on ron by the discarder's payment, on tsumo 100 × discards from each payer (as honba is
  split); with `hourglass_floor` no payer's win payment (value + honba + 赠品) goes below 0. Sticks untouched.
- 暗中交易: each chi, pon and open kan off a discard pays 500 to the discarder (an added kan does not: its pon
  paid already); paid even when it takes the caller below 0 (then the match ends after the hand, R-2).
- 爱的代价: a chi/pon/open kan of a discarded dora (by the face-up indicators, or a red five) costs 2000, put on
  the riichi-stick pile 供托 (2 sticks; the next winner takes it) or, with love_pot = discarder, paid to the
  discarder.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims import rng
from tsumolab.sims.jit import allocates
from tsumolab.sims.riichi import table_slots as T
from tsumolab.sims.riichi.fantasy_decks import parse_fantasy_cards
from tsumolab.sims.riichi.columns import H_CARD_CHANCE, H_CARD_DEALER, H_CARD_FATE, H_CARD_POINTS, H_WINPTS
from tsumolab.sims.riichi.events import (
    PAY_CONFISCATE, PAY_GIVEAWAY, PAY_HOURGLASS, PAY_LOVE_PRICE, PAY_NAGASHI, PAY_NOTEN, PAY_RIICHI, PAY_SHADY_DEAL,
)
from tsumolab.sims.riichi.streams import STREAM_FANTASY
from tsumolab.sims.riichi.scoring import (
    CHANCE_TRIPLE_SPEED, RES_N_YAKU, RES_RON, RES_TSUMO_DEALER, RES_TSUMO_OTHER, RES_YAKU, dora_of,
)
from tsumolab.sims.riichi.tableau import flip_dora, pay
from tsumolab.sims.riichi.yaku import AKA_DORA, DORA, URA_DORA
from tsumolab.sims.table_state import pub_add, pub_set

N_CARDS = 5               # cards per deck

FL_DEALER, FL_CHANCE, FL_FATE, FL_IPPATSU_TURNS, FL_RIICHI_COST, FL_HYPE_FLIPS = 0, 1, 2, 3, 4, 5
N_FL = 16

DEALER_FUUKI, DEALER_ETERNAL, DEALER_CONFISCATE, DEALER_HYPE, DEALER_GIVEAWAY = 1, 2, 3, 4, 5
FATE_EXAGGERATION, FATE_OVER_PREPARED, FATE_HOURGLASS, FATE_SHADY_DEAL, FATE_LOVE_PRICE = 1, 2, 3, 4, 5

# bits of topts[T_FANTASY] (sims.riichi.rules.RiichiRules.to_array)
FLB_ON, FLB_CONFISCATE_ABORTIVE, FLB_HOURGLASS_FLOOR, FLB_LOVE_DISCARDER, FLB_ETERNAL_ABORTIVE = 1, 2, 4, 8, 16
FLB_HYPE_SHIFT = 5


def pack_options(table) -> list[int]:
    """FL's 4 table slots from the rules dataclass (sims.riichi.rules): the FLB_* bit flags with hype_max above
    FLB_HYPE_SHIFT, then the dealer, chance and fate card index (-1 = drawn per match); all 0 when off."""
    if not table.fantasy:
        return [0, 0, 0, 0]
    flags = (FLB_ON | FLB_CONFISCATE_ABORTIVE * int(table.confiscate_abortive)
             | FLB_HOURGLASS_FLOOR * int(table.hourglass_floor)
             | FLB_LOVE_DISCARDER * int(table.love_pot == "discarder")
             | FLB_ETERNAL_ABORTIVE * int(table.eternal_abortive) | table.hype_max << FLB_HYPE_SHIFT)
    return [flags, *parse_fantasy_cards(table.cards)]

GIVEAWAY_PER_DORA = 1000
HOURGLASS_CUT = 300
SHADY_DEAL_FEE = 500
LOVE_PRICE = 2000
ETERNAL_RENCHAN_HONBA = 5


@allocates
def fl_draw_cards(root_seed, match_id, topts, cards):
    """FL: the match's (dealer, chance, fate) card codes into `cards`: a card fixed by the rule options, else
    drawn uniformly from its deck. All three draws are always made from the keyed stream (root seed, match, 0,
    STREAM_FANTASY), so a fixed deck never changes another deck's draw, and play never changes the draw."""
    state = np.zeros(1, np.uint64)
    state[0] = rng.key_seed(root_seed, match_id, 0, STREAM_FANTASY)
    for d in range(3):
        drawn = rng.below(state, N_CARDS)
        fixed = topts[T.T_FANTASY + 1 + d]
        cards[d] = (fixed if fixed >= 0 else drawn) + 1


@nb.njit(cache=True)
def fl_publish(obs, cards):
    """FL: write the match's cards and their static numbers into the public block (after each hand's reset)."""
    for d in range(3):
        pub_set(obs, ROBS.fantasy + d, cards[d])
    pub_set(obs, ROBS.fantasy + FL_IPPATSU_TURNS, 3 if cards[1] == CHANCE_TRIPLE_SPEED else 1)
    pub_set(obs, ROBS.fantasy + FL_RIICHI_COST, 2 * T.RIICHI_COST if cards[2] == FATE_OVER_PREPARED else T.RIICHI_COST)
    pub_set(obs, ROBS.fantasy + FL_HYPE_FLIPS, 0)


@nb.njit(cache=True)
def fl_riichi_cost(obs):
    """FL 过度准备: points a riichi costs (and needs)."""
    return obs[0, ROBS.fantasy + FL_RIICHI_COST]


@nb.njit(cache=True)
def fl_ippatsu_turns(obs):
    """FL 三倍速: own discards after the riichi tile during which ippatsu lasts (3; 1 without the card)."""
    return obs[0, ROBS.fantasy + FL_IPPATSU_TURNS]


@nb.njit(cache=True)
def fl_ron_banned(obs, seat, dealer):
    """FL 风纪: the dealer may ron only in riichi or with an open hand (a closed kan keeps the hand closed)."""
    return obs[0, ROBS.fantasy + FL_DEALER] == DEALER_FUUKI and seat == dealer and obs[0, ROBS.riichi + seat] == 0 \
        and obs[0, ROBS.open + seat] == 0


@nb.njit(cache=True)
def fl_riichi_extra(obs, delta, seat, events, ev):
    """FL 过度准备: the second 1000 stick of a 2000 riichi (the engine deposits the first)."""
    if obs[0, ROBS.fantasy + FL_FATE] == FATE_OVER_PREPARED:
        pay(obs, seat, -1, T.RIICHI_COST, delta, PAY_RIICHI, events, ev)
        pub_add(obs, ROBS.sticks, 1)


@nb.njit(cache=True)
def fl_hype_flip(obs, topts, wall, seat, dealer, events, ev):
    """FL 炒作: a dealer pon/kan flips one extra indicator at once (at most hype_max per hand, 5 in all)."""
    if obs[0, ROBS.fantasy + FL_DEALER] != DEALER_HYPE or seat != dealer:
        return
    if obs[0, ROBS.fantasy + FL_HYPE_FLIPS] >= (topts[T.T_FANTASY] >> FLB_HYPE_SHIFT) or obs[0, ROBS.n_dora] >= 5:
        return
    flip_dora(obs, wall, events, ev)
    pub_add(obs, ROBS.fantasy + FL_HYPE_FLIPS, 1)


@nb.njit(cache=True)
def _is_face_up_dora(obs, kind):
    for i in range(obs[0, ROBS.n_dora]):
        if dora_of(obs[0, ROBS.dora + i]) == kind:
            return True
    return False


@nb.njit(cache=True)
def fl_after_call(state, rules, log, delta, caller, discarder, tile, red, pon_or_kan, dealer):
    """FL after a chi / pon / open kan of `discarder`'s tile: 暗中交易 500 to the discarder, 爱的代价 2000 for
    a dora (face-up indicator or red five) to the sticks or the discarder, 炒作 for a dealer pon/kan. The first
    three arguments are the engine's groups (sims.riichi.bundles)."""
    obs, wall, rec, ev = state.obs, state.wall, state.rec, state.ev
    topts = rules.topts
    events = log.events
    fate = obs[0, ROBS.fantasy + FL_FATE]
    if fate == FATE_SHADY_DEAL:
        pay(obs, caller, discarder, SHADY_DEAL_FEE, delta, PAY_SHADY_DEAL, events, ev)
        rec[caller, H_CARD_POINTS] -= SHADY_DEAL_FEE
        rec[discarder, H_CARD_POINTS] += SHADY_DEAL_FEE
    elif fate == FATE_LOVE_PRICE and (red != 0 or _is_face_up_dora(obs, tile)):
        rec[caller, H_CARD_POINTS] -= LOVE_PRICE
        if topts[T.T_FANTASY] & FLB_LOVE_DISCARDER:
            pay(obs, caller, discarder, LOVE_PRICE, delta, PAY_LOVE_PRICE, events, ev)
            rec[discarder, H_CARD_POINTS] += LOVE_PRICE
        else:
            pay(obs, caller, -1, LOVE_PRICE, delta, PAY_LOVE_PRICE, events, ev)
            pub_add(obs, ROBS.sticks, LOVE_PRICE // 1000)
    if pon_or_kan:
        fl_hype_flip(obs, topts, wall, caller, dealer, events, ev)


@nb.njit(cache=True)
def _dora_of_win(res):
    n = 0
    for i in range(res[RES_N_YAKU]):
        y = res[RES_YAKU + 2 * i]
        if y == DORA or y == AKA_DORA or y == URA_DORA:
            n += res[RES_YAKU + 2 * i + 1]
    return n


@nb.njit(cache=True)
def fl_hourglass_discards(obs, seat):
    """FL 厄运沙漏: the seat's discards after its riichi tile (0 without riichi)."""
    if obs[0, ROBS.riichi + seat] == 0:
        return 0
    return obs[0, ROBS.n_discards + seat] - obs[0, ROBS.riichi_tile + seat] - 1


@nb.njit(cache=True)
def fl_win_adjust(obs, topts, rec, delta, winner, discarder, res, honba, events, ev):
    """FL after a win is settled (discarder -1 = tsumo): 赠品 +1000 per dora on a dealer ron, 厄运沙漏 the cut
    of 300 per discard after riichi. Both show in the winner's `win_points` and in `card_points`."""
    dealer = obs[0, ROBS.dealer]
    bonus = 0
    if discarder >= 0 and winner == dealer and obs[0, ROBS.fantasy + FL_DEALER] == DEALER_GIVEAWAY:
        bonus = GIVEAWAY_PER_DORA * _dora_of_win(res)
        pay(obs, discarder, winner, bonus, delta, PAY_GIVEAWAY, events, ev)
        rec[discarder, H_CARD_POINTS] -= bonus
    cut_total = 0
    if obs[0, ROBS.fantasy + FL_FATE] == FATE_HOURGLASS:
        n = fl_hourglass_discards(obs, winner)
        floor = (topts[T.T_FANTASY] & FLB_HOURGLASS_FLOOR) != 0
        for p in range(4):
            if p == winner or (discarder >= 0 and p != discarder):
                continue
            if discarder >= 0:
                cut = HOURGLASS_CUT * n
                owed = res[RES_RON] + T.HONBA_RON * honba + bonus
            else:
                cut = HOURGLASS_CUT // 3 * n
                share = res[RES_TSUMO_DEALER] if (p == dealer and winner != dealer) else res[RES_TSUMO_OTHER]
                owed = share + T.HONBA_RON // 3 * honba
            if floor and cut > owed:
                cut = owed
            pay(obs, winner, p, cut, delta, PAY_HOURGLASS, events, ev)
            rec[p, H_CARD_POINTS] += cut
            cut_total += cut
    rec[winner, H_CARD_POINTS] += bonus - cut_total
    rec[winner, H_WINPTS] += bonus - cut_total


@nb.njit(cache=True)
def fl_draw_sticks(obs, topts, exhaustive, aborted, dealer, rec, delta, events, ev):
    """FL 没收: at a draw (exhaustive; abortive too with confiscate_abortive) every stick on the table goes to
    the dealer."""
    if obs[0, ROBS.fantasy + FL_DEALER] != DEALER_CONFISCATE:
        return
    if not (exhaustive or (aborted and topts[T.T_FANTASY] & FLB_CONFISCATE_ABORTIVE)):
        return
    amount = 1000 * obs[0, ROBS.sticks]
    pay(obs, -1, dealer, amount, delta, PAY_CONFISCATE, events, ev)
    pub_set(obs, ROBS.sticks, 0)
    rec[dealer, H_CARD_POINTS] += amount


@allocates
def fl_exaggerate(obs, delta, before, nagashi, events, ev):
    """FL 夸大其词: the exhaustive-draw settlement (noten payments or nagashi mangan, delta - before) is paid a
    second time, through the table as the noten payments are."""
    if obs[0, ROBS.fantasy + FL_FATE] != FATE_EXAGGERATION:
        return
    reason = PAY_NAGASHI if nagashi else PAY_NOTEN
    net = delta - before
    for s in range(4):
        if net[s] < 0:
            pay(obs, s, -1, -net[s], delta, reason, events, ev)
    for s in range(4):
        if net[s] > 0:
            pay(obs, -1, s, net[s], delta, reason, events, ev)


@nb.njit(cache=True)
def fl_honba(obs, topts, honba, keeps, aborted):
    """FL 永夜: the honba after a hand, given R-2's update: dealer renchan adds 5 in all (an abortive draw only
    with eternal_abortive); a non-renchan exhaustive draw keeps R-2's +1."""
    if obs[0, ROBS.fantasy + FL_DEALER] == DEALER_ETERNAL and topts[T.T_HONBA] and keeps and \
            (not aborted or topts[T.T_FANTASY] & FLB_ETERNAL_ABORTIVE):
        return honba + ETERNAL_RENCHAN_HONBA - 1
    return honba


@nb.njit(cache=True)
def fl_record(obs, rec):
    """FL: the match's card codes in every seat's hand row."""
    for s in range(4):
        rec[s, H_CARD_DEALER] = obs[0, ROBS.fantasy + FL_DEALER]
        rec[s, H_CARD_CHANCE] = obs[0, ROBS.fantasy + FL_CHANCE]
        rec[s, H_CARD_FATE] = obs[0, ROBS.fantasy + FL_FATE]
