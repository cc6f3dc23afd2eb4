"""Features and conditions of the decision claims of the riichi-family modes, read from the deciding seat's view
(the hook input, sims.riichi.observation.ROBS) and the two answers (sims.decisions codes).

Every function here has the signature of a claims.Feature value, (view, treatment, control, tables) → number,
or of a claims.DecisionClaim condition, (view, treatment, control, tables) → bool. What a mode shows is read
from its public block of the view (ROBS.chant, fate_open, deal_shown, dragon_eye, soul_strike, fantasy), and
where a claim's policy decides by a compiled rule, that very rule is asked (dora_keeper.dora_cost,
fate_keeper.loses_open_tile, deal_reader.deal_danger, eye_pusher.holder_in_riichi, card_reader.has_own_yaku),
so that a condition says what the policy's rule says. The mode names themselves are in claims.py only.
"""

from __future__ import annotations

import numpy as np

from tsumolab.sims.decisions import (
    CHI_HIGH, CHI_LOW, CHI_MID, D_REACT, D_TURN, KAN_CALL, PASS, PON, RIICHI, RON, TSUMOGIRI,
)
from tsumolab.sims.riichi.observation import ROBS

CALLS = (PON, KAN_CALL, CHI_LOW, CHI_MID, CHI_HIGH)
"""D_REACT answers that call the discard"""
CHOICE_RIICHI, CHOICE_CALL, CHOICE_DISCARD, CHOICE_OTHER = 0, 1, 2, 3
"""codes of the `choice` feature: what the two answers disagree on"""
EYE_HELD, EYE_RIICHI, EYE_ELSEWHERE = 0, 1, 2
"""codes of the `eye_role` feature: the seat holds the dragon eye, the holder (another seat) is in riichi, else"""
DEALER_DECK, CHANCE_DECK, FATE_DECK = 0, 1, 2
"""offsets of the three fantasy cards in ROBS.fantasy (sims.riichi.fantasy_cards FL_DEALER, FL_CHANCE, FL_FATE)"""


# ----------------------------------------------------------------------------- answers
def seat_of(view) -> int:
    return int(view[ROBS.seat])


def declares_riichi(answer: int) -> bool:
    """A turn answer that declares riichi with its discard (RIICHI + kind, RIICHI + TSUMOGIRI)."""
    return RIICHI <= answer < RIICHI + 34 or answer == RIICHI + TSUMOGIRI


def discard_of(view, answer: int) -> int:
    """The kind a turn answer discards (the drawn kind for TSUMOGIRI), -1 when it discards nothing."""
    base = answer - RIICHI if declares_riichi(answer) else answer
    if base == TSUMOGIRI:
        return int(view[ROBS.tile])
    return base if 0 <= base < 34 else -1


def both_discard(view, treatment: int, control: int) -> bool:
    """Both answers of an own turn are discards, with riichi declared by both or by neither."""
    return (int(view[ROBS.decision]) == D_TURN and discard_of(view, treatment) >= 0
            and discard_of(view, control) >= 0 and declares_riichi(treatment) == declares_riichi(control))


def is_call(answer: int) -> bool:
    return answer in CALLS


def is_tsumogiri(view, answer: int) -> bool:
    """Whether a turn answer throws the very copy just drawn (rule C's tsumogiri): TSUMOGIRI, or the drawn kind
    when no other copy could go instead. A drawn five while the seat also holds its red five and a second copy
    is ambiguous on the view (the kind answer gives up a plain copy, the drawn one or not): counted as a hand
    discard."""
    base = answer - RIICHI if declares_riichi(answer) else answer
    if base == TSUMOGIRI:
        return True
    drawn = int(view[ROBS.tile])
    if view[ROBS.after_call] or drawn < 0 or base != drawn:
        return False
    return not (drawn in (4, 13, 22) and view[ROBS.hand + drawn] > 1 and view[ROBS.red + drawn // 9])


def choice(view, treatment, control, _tables=None) -> int:
    """What the two answers disagree on: CHOICE_RIICHI (the same turn with and without riichi), CHOICE_CALL (call
    a discard or not, or call it otherwise), CHOICE_DISCARD (which tile goes), CHOICE_OTHER (a win, a kan …)."""
    decision = int(view[ROBS.decision])
    if decision == D_REACT and RON not in (treatment, control) and (is_call(treatment) or is_call(control)):
        return CHOICE_CALL
    if decision == D_TURN and discard_of(view, treatment) >= 0 and discard_of(view, control) >= 0:
        return CHOICE_RIICHI if declares_riichi(treatment) != declares_riichi(control) else CHOICE_DISCARD
    return CHOICE_OTHER


# ----------------------------------------------------------------------------- hand measures
def _tables(tables):
    from tsumolab.sims.shanten_tables import lookup_tables

    return lookup_tables() if tables is None else tables


def _obs(view) -> np.ndarray:
    """The view as a policy's compiled rules take it (a contiguous int32 copy)."""
    return np.ascontiguousarray(view, np.int32).copy()


def hand_shanten(view, _t=None, _c=None, tables=None) -> int:
    """Shanten of the concealed hand as it is (after the draw on a turn: that of the best discard)."""
    from tsumolab.analyzer.advise.riichi_sampler import _shanten

    return _shanten(view[ROBS.hand:ROBS.hand + 34], int(view[ROBS.n_melds + seat_of(view)]), _tables(tables))


def shanten_after(view, kind: int, tables) -> int:
    """Shanten of the concealed hand once one tile of `kind` is discarded."""
    from tsumolab.analyzer.advise.riichi_sampler import _shanten

    hand = np.array(view[ROBS.hand:ROBS.hand + 34], np.int32)
    hand[kind] -= 1
    return _shanten(hand, int(view[ROBS.n_melds + seat_of(view)]), _tables(tables))


def shanten_ties(view, treatment, control, tables) -> bool:
    """Both answers are discards (riichi alike) that leave the hand at the same shanten."""
    return both_discard(view, treatment, control) and \
        shanten_after(view, discard_of(view, treatment), tables) == shanten_after(view, discard_of(view, control),
                                                                                  tables)


def acceptance_lost(view, treatment, control, tables) -> int:
    """Unseen tiles the control's discard accepts (draws that lower its shanten) minus those the treatment's
    accepts: what keeping costs in acceptance (policies.chanter.acceptance, as the keeping policies weigh it)."""
    from tsumolab.policies.chanter import acceptance

    tables = _tables(tables)
    obs = _obs(view)
    hand = obs[ROBS.hand:ROBS.hand + 34].copy()
    target = shanten_after(view, discard_of(view, control), tables)
    return int(acceptance(obs, tables, hand.copy(), discard_of(view, control), target)) - \
        int(acceptance(obs, tables, hand.copy(), discard_of(view, treatment), target))


def live_waits(view, treatment, control, tables) -> int:
    """Unseen winning tiles after the riichi discard of whichever answer declares riichi (the policies' own
    count, policies.riichi_common.live_waits_after); 0 when neither declares it."""
    from tsumolab.policies.riichi_common import live_waits_after

    answer = treatment if declares_riichi(treatment) else control if declares_riichi(control) else -1
    if answer < 0:
        return 0
    return int(live_waits_after(_obs(view), _tables(tables), discard_of(view, answer), np.zeros(34, np.int64)))


def riichi_opponents(view, *_) -> int:
    """Opponents in riichi who have not won (policies.riichi_common.threats)."""
    from tsumolab.policies.riichi_common import threats

    return bin(int(threats(_obs(view)))).count("1")


def own_melds(view, *_) -> int:
    return int(view[ROBS.n_melds + seat_of(view)])


# ----------------------------------------------------------------------------- chant (C)
def tsumogiri_run(view, *_) -> int:
    """The seat's current run of tsumogiri discards (ROBS.chant)."""
    return int(view[ROBS.chant + 2 * seat_of(view)])


def hand_run(view, *_) -> int:
    """The seat's current run of discards from the hand (ROBS.chant)."""
    return int(view[ROBS.chant + 2 * seat_of(view) + 1])


def _keeps_tsumogiri_run(view) -> bool:
    """The longer current run is the tsumogiri one (ties too, as policies.chanter decides)."""
    return tsumogiri_run(view) >= hand_run(view)


def extends_longer_run(view, answer: int) -> bool:
    return is_tsumogiri(view, answer) == _keeps_tsumogiri_run(view)


def to_bonus(view, *_) -> int:
    """Discards the longer current run still needs, after this one, to reach its next bonus threshold of rule C
    (0: this discard reaches it, or no threshold is left)."""
    from tsumolab.sims.riichi.chant_streaks import HAND_RUNS, TSUMOGIRI_RUNS

    tsumogiri = _keeps_tsumogiri_run(view)
    run = (tsumogiri_run(view) if tsumogiri else hand_run(view)) + 1
    ahead = [int(t) for t in (TSUMOGIRI_RUNS if tsumogiri else HAND_RUNS) if t >= run]
    return ahead[0] - run if ahead else 0


def run_kept(view, treatment, control, tables) -> bool:
    """C1: the shanten ties, the treatment's discard extends the seat's longer current run and the control's
    does not."""
    return (tsumogiri_run(view) + hand_run(view) > 0 and shanten_ties(view, treatment, control, tables)
            and extends_longer_run(view, treatment) and not extends_longer_run(view, control))


# ----------------------------------------------------------------------------- dora fever (DF)
def _dora_cost(view) -> np.ndarray:
    """Per held kind, the dora its discard gives up (policies.dora_keeper.dora_cost)."""
    from tsumolab.policies.dora_keeper import dora_cost

    return dora_cost(_obs(view))


def dora_held(view, *_) -> int:
    """Dora in the concealed hand: each tile counts once per indicator pointing at its kind, a red five once more."""
    from tsumolab.sims.riichi.scoring import dora_of

    hand = view[ROBS.hand:ROBS.hand + 34]
    pointed = [dora_of(int(view[ROBS.dora + i])) for i in range(int(view[ROBS.n_dora]))]
    return int(sum(int(hand[k]) for k in pointed) + view[ROBS.red:ROBS.red + 3].sum())


def indicators(view, *_) -> int:
    return int(view[ROBS.n_dora])


def dora_saved(view, treatment, control, _tables=None) -> int:
    """Dora the control's discard gives up minus those the treatment's gives up."""
    cost = _dora_cost(view)
    return int(cost[discard_of(view, control)] - cost[discard_of(view, treatment)])


def dora_kept(view, treatment, control, tables) -> bool:
    """DF1: the shanten ties and the treatment's discard gives up fewer dora than the control's."""
    return shanten_ties(view, treatment, control, tables) and dora_saved(view, treatment, control) > 0


# ----------------------------------------------------------------------------- fate (F)
def open_held(view, *_) -> int:
    """The seat's open deal tiles it still holds (its win multiplier is 1 + this, rule F)."""
    seat = seat_of(view)
    return int(view[ROBS.fate_open + 34 * seat:ROBS.fate_open + 34 * seat + 34].sum())


def top_opponent_multiplier(view, *_) -> int:
    """The largest win multiplier among the other seats (1 + their open deal tiles held)."""
    seat = seat_of(view)
    return max(1 + int(view[ROBS.fate_open + 34 * p:ROBS.fate_open + 34 * p + 34].sum()) for p in range(4)
               if p != seat)


def loses_open_tile(view, answer: int) -> bool:
    """The answer's discard gives up one of the seat's open deal tiles (policies.fate_keeper.loses_open_tile)."""
    from tsumolab.policies.fate_keeper import loses_open_tile as rule

    return bool(rule(_obs(view), discard_of(view, answer)))


def open_tile_kept(view, treatment, control, tables) -> bool:
    """F1: the shanten ties, the control's discard gives up an open deal tile and the treatment's does not."""
    return (shanten_ties(view, treatment, control, tables) and loses_open_tile(view, control)
            and not loses_open_tile(view, treatment))


# ----------------------------------------------------------------------------- open deal (OD)
def shown_danger(view, _t, control, _tables=None) -> int:
    """Shapes of the riichi opponents' shown starting hands the control's discard completes (2 a pair, 1 a
    sequence shape, summed over opponents; policies.deal_reader.deal_danger)."""
    from tsumolab.policies.deal_reader import deal_danger

    return int(deal_danger(_obs(view))[discard_of(view, control)])


def shape_avoided(view, treatment, control, tables) -> bool:
    """OD1: an opponent is in riichi, the shanten ties, and the control's discard completes more of the riichi
    opponents' shown shapes than the treatment's."""
    from tsumolab.policies.deal_reader import deal_danger

    if not shanten_ties(view, treatment, control, tables):
        return False
    danger = deal_danger(_obs(view))
    return int(danger[discard_of(view, control)]) > int(danger[discard_of(view, treatment)])


# ----------------------------------------------------------------------------- dragon eye (DE)
def eye_role(view, *_) -> int:
    """EYE_HELD, EYE_RIICHI (the holder is another seat, in riichi) or EYE_ELSEWHERE."""
    from tsumolab.policies.eye_pusher import holder_in_riichi, holder_of

    obs = _obs(view)
    if int(holder_of(obs)) == seat_of(view):
        return EYE_HELD
    return EYE_RIICHI if holder_in_riichi(obs) else EYE_ELSEWHERE


def eye_counter(view, *_) -> int:
    """Discards the eye's holder may still make before the eye moves."""
    from tsumolab.sims.riichi.dragon_eye_holder import EYE_COUNTER

    return int(view[ROBS.dragon_eye + EYE_COUNTER])


def eye_decision(view, treatment, control, _tables=None) -> bool:
    """DE1: the seat holds the eye, or faces the holder's riichi."""
    return eye_role(view) != EYE_ELSEWHERE


# ----------------------------------------------------------------------------- soul strike (SS)
def _strike(view, part: int, seat: int) -> int:
    return int(view[ROBS.soul_strike + part + seat])


def strike_left(view, *_) -> int:
    """Strike turns the discarder has left while it strikes (a call decision); 0 on the seat's own turn."""
    from tsumolab.sims.riichi.soul_strike_turns import SS_ACTIVE, SS_LEFT

    if int(view[ROBS.decision]) != D_REACT:
        return 0
    striker = int(view[ROBS.from_seat])
    return _strike(view, SS_LEFT, striker) if _strike(view, SS_ACTIVE, striker) else 0


def overloaded(view, *_) -> int:
    """Other seats that are overloaded (a ron on their discards gets the overload han, rule SS)."""
    from tsumolab.sims.riichi.soul_strike_turns import SS_OVER

    return sum(_strike(view, SS_OVER, p) for p in range(4) if p != seat_of(view))


def strike_decision(view, treatment, control, _tables=None) -> bool:
    """SS1: riichi or dama on the same discard, or a call of a striking seat's discard the control lets pass."""
    if choice(view, treatment, control) == CHOICE_RIICHI:
        return True
    return strike_left(view) > 0 and is_call(treatment) and control == PASS


# ----------------------------------------------------------------------------- fantasy (FL)
def _card(deck: int):
    def card(view, *_) -> int:
        """The match's card of the deck, 0-based in sims.riichi.fantasy_decks order (-1 outside fantasy)."""
        return int(view[ROBS.fantasy + deck]) - 1
    return card


dealer_card, chance_card, fate_card = _card(DEALER_DECK), _card(CHANCE_DECK), _card(FATE_DECK)


def own_yaku(view, treatment, control, _tables=None) -> int:
    """1 when the closed hand has a yaku besides riichi after the riichi discard (all simples or a yakuhai
    triplet: policies.card_reader.has_own_yaku), else 0."""
    from tsumolab.policies.card_reader import has_own_yaku

    answer = treatment if declares_riichi(treatment) else control
    return int(bool(has_own_yaku(_obs(view), discard_of(view, answer))))


def dora_discard(view, *_) -> int:
    """1 when the discard to call is a dora by the face-up indicators (policies.riichi_common.is_dora), else 0."""
    from tsumolab.policies.riichi_common import is_dora

    return int(bool(is_dora(_obs(view), int(view[ROBS.tile]))))


def simples_held(view, *_) -> int:
    """Simple tiles (2–8) in the concealed hand."""
    hand = view[ROBS.hand:ROBS.hand + 27]
    return int(sum(int(hand[k]) for k in range(27) if 0 < k % 9 < 8))


def riichi_or_dama(view, treatment, control, _tables=None) -> bool:
    """The same discard with riichi or without (FL-hourglass, FL-over-prepared)."""
    return choice(view, treatment, control) == CHOICE_RIICHI


def call_passed(view, treatment, control, _tables=None) -> bool:
    """The control calls the discard and the treatment lets it pass (FL-love-price, FL-shady-deal,
    FL-showdown)."""
    return int(view[ROBS.decision]) == D_REACT and is_call(control) and treatment == PASS


def toward_tanyao(view, treatment, control, _tables=None) -> bool:
    """FL-super-tanyao: the treatment discards a terminal or honor where the control discards a simple, or calls
    a simple the control lets pass."""
    if int(view[ROBS.decision]) == D_REACT:
        tile = int(view[ROBS.tile])
        return is_call(treatment) and control == PASS and tile < 27 and 0 < tile % 9 < 8
    if choice(view, treatment, control) != CHOICE_DISCARD:
        return False
    t, c = discard_of(view, treatment), discard_of(view, control)
    return (t >= 27 or t % 9 in (0, 8)) and c < 27 and 0 < c % 9 < 8


def darkness_pot(view, *_) -> int:
    """D: points in the pot (sims.riichi.darkness_pot DK_POT)."""
    from tsumolab.sims.riichi.darkness_pot import DK_POT

    return int(view[ROBS.darkness + DK_POT])
