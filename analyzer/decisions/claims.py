"""Which decisions each claim is about, and what describes such a situation (issue 16, decision-level verdicts).

A claim applies at a decision when its treatment policy and its control policy (from the claim's experiment file)
would answer differently on the deciding seat's view, both answers are legal there, and the claim's own condition
holds (`condition`, e.g. B1: fewer than 2 winners and a ron under 4 fan). The two options are then the
treatment's answer (the claim's action) and the control's answer (the alternative). `features` describe the
situation with the quantities the claim's wording names; every feature is a number (a kind is a small code,
`FEATURE_CODES` names its values) so that thresholds can split on it; on a `CATEGORICAL` feature (codes in no
order: which card, which part of a claim) conditions ask "is" or "is not" instead of ≤ and ≥.

This table is the one place naming the modes: every other part of the study reaches a mode's engine through
its family (analyzer.engines.tools_for). A claim's treatment, control and rules come from the experiment file
with its id (analyzer/experiments/*.toml, or extra/*.toml for the questions beyond the sources), so adding a
claim is adding its entry here.

Views are the hook inputs: sims.bloodshed.observation.BOBS in Bloodshed, sims.riichi.observation.ROBS in the
riichi family (the features and conditions of its extra claims: analyzer.decisions.riichi_features).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from tsumolab.analyzer.decisions import riichi_features as rf
from tsumolab.analyzer.i18n import N_
from tsumolab.policies.api import BOBS
from tsumolab.sims.decisions import (
    D_DARK_LOCK, D_DARK_OPEN, D_EXCHANGE, D_PICK, D_REACT, D_ROB, D_TURN, D_VOID, KAN, KAN_CALL, PON, RIICHI,
    TSUMO, TSUMOGIRI,
)
from tsumolab.sims.riichi.observation import ROBS


@dataclass(frozen=True)
class Feature:
    name: str
    """column of decisions.parquet (prefixed `f_`)"""
    words: str
    """how the conditions sentence names it"""
    value: Callable
    """(view, treatment answer, control answer, tables) → number"""


@dataclass(frozen=True)
class DecisionClaim:
    id: str
    mode: str
    kinds: tuple[int, ...]
    """decision kinds (sims.decisions D_*) where the claim can apply"""
    action: str
    """the treatment's answer in words ("pass the ron")"""
    alternative: str
    """the control's answer in words ("take the ron")"""
    features: tuple[Feature, ...]
    condition: Callable | None = None
    """(view, treatment answer, control answer, tables) → whether the claim's own condition holds"""


# ----------------------------------------------------------------------------- Bloodshed view features
def _seat(view):
    return int(view[BOBS.seat])


def own_points(view, *_):
    return int(view[BOBS.points + _seat(view)])


def own_rank(view, *_):
    """Rank 1..4 by the points before the decision (ties share the better rank)."""
    points = view[BOBS.points:BOBS.points + 4]
    return 1 + int((points > points[_seat(view)]).sum())


def wall_left(view, *_):
    return int(view[BOBS.wall_left])


def winners(view, *_):
    return int(view[BOBS.n_winners])


def hand_no(view, *_):
    return int(view[BOBS.hand_no])


def ron_fan(view, *_):
    return int(view[BOBS.win_fan])


def own_shanten(view, _t, _c, tables):
    from tsumolab.policies.common import hand_shanten

    return int(hand_shanten(view, tables))


def flush_threats(view, *_):
    """Opponents still in the hand that show a flush look (policies.threats.collected_suit)."""
    from tsumolab.policies.threats import collected_suit, is_opponent

    return sum(1 for p in range(4) if is_opponent(view, p) and collected_suit(view, p) >= 0)


def meld_threats(view, *_):
    """Opponents still in the hand with 2 or more melds (the `fold` policy's threat)."""
    from tsumolab.policies.threats import is_opponent

    return sum(1 for p in range(4) if is_opponent(view, p) and view[BOBS.n_melds + p] >= 2)


def void_held(view, *_):
    void = int(view[BOBS.void + _seat(view)])
    return int(view[BOBS.hand + 9 * void:BOBS.hand + 9 * void + 9].sum()) if void >= 0 else 0


def kan_kind(view, treatment, control, _tables):
    """0 closed, 1 added, 2 open (the kan one of the two answers makes)."""
    answer = treatment if _is_kan(view, treatment) else control
    if int(view[BOBS.decision]) == D_REACT:
        return 2
    return 0 if view[BOBS.kan_options + answer - KAN] == 1 else 1


def pairs_held(view, *_):
    return int((view[BOBS.hand:BOBS.hand + 27] >= 2).sum())


def own_melds(view, *_):
    return int(view[BOBS.n_melds + _seat(view)])


def suit_tiles(view, *_):
    """Tiles (concealed, plus 3 per meld) of the seat's longest non-void suit."""
    seat, void = _seat(view), int(view[BOBS.void + _seat(view)])
    best = 0
    for s in range(3):
        if s == void:
            continue
        n = int(view[BOBS.hand + 9 * s:BOBS.hand + 9 * s + 9].sum())
        n += 3 * int((view[BOBS.melds + 34 * seat + 9 * s:BOBS.melds + 34 * seat + 9 * s + 9] > 0).sum())
        best = max(best, n)
    return best


def shortest_suit(view, *_):
    return int(min(view[BOBS.hand + 9 * s:BOBS.hand + 9 * s + 9].sum() for s in range(3)))


def longest_suit(view, *_):
    return int(max(view[BOBS.hand + 9 * s:BOBS.hand + 9 * s + 9].sum() for s in range(3)))


def _is_kan(view, answer):
    decision = int(view[BOBS.decision])
    return (decision == D_TURN and KAN <= answer < TSUMO) or (decision == D_REACT and answer == KAN_CALL)


# ----------------------------------------------------------------------------- shura (riichi view) features
def r_points(view, *_):
    return int(view[ROBS.points + int(view[ROBS.seat])])


def r_rank(view, *_):
    points = view[ROBS.points:ROBS.points + 4]
    return 1 + int((points > points[int(view[ROBS.seat])]).sum())


def r_wall(view, *_):
    return int(view[ROBS.wall_left])


def r_winners(view, *_):
    return int(view[ROBS.n_winners])


def r_hand_no(view, *_):
    """Hand of the match as its round: 1..8 = East 1 … South 4."""
    return int(view[ROBS.round]) + 1


def waits_left(view, treatment, control, tables):
    """Unseen copies of the tiles the hand waits on after the riichi discard (the wait quality)."""
    from tsumolab.analyzer.advise.riichi_sampler import _shanten

    answer = treatment if treatment >= RIICHI else control
    seat = int(view[ROBS.seat])
    hand = np.array(view[ROBS.hand:ROBS.hand + 34], np.int32)
    kind = int(view[ROBS.tile]) if answer - RIICHI == TSUMOGIRI else answer - RIICHI
    hand[kind] -= 1
    n_melds = int(view[ROBS.n_melds + seat])
    left = 0
    for k in range(34):
        if hand[k] >= 4:
            continue
        hand[k] += 1
        if _shanten(hand, n_melds, tables) < 0:
            left += max(0, 4 - int(hand[k]) + 1 - int(view[ROBS.seen + k]))
        hand[k] -= 1
    return left


def honors_held(view, *_):
    return int(view[ROBS.hand + 27:ROBS.hand + 34].sum())


def r_shortest_suit(view, *_):
    return int(min(view[ROBS.hand + 9 * s:ROBS.hand + 9 * s + 9].sum() for s in range(3)))


# ----------------------------------------------------------------------------- conditions
def _cheap_ron(max_fan, max_winners):
    def condition(view, treatment, control, _tables=None):
        return (int(view[BOBS.decision]) in (D_REACT, D_ROB) and view[BOBS.can_win] == 1
                and view[BOBS.win_fan] <= max_fan and view[BOBS.n_winners] <= max_winners)
    return condition


def _b3(view, treatment, control, _tables=None):
    return _cheap_ron(3, 1)(view, treatment, control) and flush_threats(view) > 0


def _one_is(view, treatment, control, test):
    return test(view, treatment) != test(view, control)


def _kan_or_not(view, treatment, control, _tables=None):
    return _one_is(view, treatment, control, _is_kan)


def _pon_or_not(view, treatment, control, _tables=None):
    return int(view[BOBS.decision]) == D_REACT and _one_is(view, treatment, control, lambda v, a: a == PON)


def _void_first(view, treatment, control, _tables=None):
    return void_held(view) > 0


def _riichi_after_win(view, treatment, control, _tables=None):
    return view[ROBS.n_winners] >= 1 and (treatment >= RIICHI) != (control >= RIICHI)


def _f(name, words, value):
    return Feature(name, words, value)


STANDING = (_f("hand_no", N_("the hand number"), hand_no),
            _f("wall", N_("tiles left in the wall"), wall_left),
            _f("winners", N_("winners so far"), winners), _f("rank", N_("the seat's rank"), own_rank),
            _f("points", N_("the seat's points"), own_points))
RIICHI_STANDING = (_f("hand_no", N_("the hand (1 = East 1)"), r_hand_no),
                   _f("wall", N_("tiles left in the wall"), r_wall),
                   _f("winners", N_("winners so far"), r_winners), _f("rank", N_("the seat's rank"), r_rank),
                   _f("points", N_("the seat's points"), r_points))
FAN = _f("fan", N_("the ron's fan"), ron_fan)
SHANTEN = _f("shanten", N_("the hand's shanten"), own_shanten)
R_SHANTEN = _f("shanten", N_("the hand's shanten"), rf.hand_shanten)
R_MELDS = _f("melds", N_("melds made"), rf.own_melds)
ACCEPTANCE_LOST = _f("acceptance_lost", N_("tiles of acceptance the claim's discard gives up"), rf.acceptance_lost)
WAITS_LEFT = _f("waits_left", N_("waiting tiles left"), rf.live_waits)
OWN_YAKU = _f("own_yaku", N_("a yaku besides riichi (0 no, 1 yes)"), rf.own_yaku)
CHOICE = _f("choice", N_("the choice"), rf.choice)
CARDS = (_f("card_dealer", N_("the dealer card"), rf.dealer_card),
         _f("card_chance", N_("the chance card"), rf.chance_card),
         _f("card_fate", N_("the fate card"), rf.fate_card))
"""the match's three fantasy cards (rule FL), one per deck in rf.DEALER_DECK, CHANCE_DECK, FATE_DECK order"""


def _other_cards(fixed_deck: int) -> tuple[Feature, ...]:
    """The card features of the two decks a fantasy claim with one card fixed leaves to the draw."""
    return tuple(f for deck, f in enumerate(CARDS) if deck != fixed_deck)

CLAIMS = {c.id: c for c in (
    DecisionClaim("B1", "bloodshed", (D_REACT, D_ROB), N_("pass the ron"), N_("take the ron"), (FAN, *STANDING),
                  _cheap_ron(3, 1)),
    DecisionClaim("B2", "bloodshed", (D_REACT, D_ROB), N_("pass the 1-fan ron"), N_("take the ron"), (FAN, *STANDING),
                  _cheap_ron(1, 2)),
    DecisionClaim("B3", "bloodshed", (D_REACT, D_ROB), N_("take the ron (escape)"), N_("pass it (plain B1)"),
                  (FAN, _f("threats", N_("opponents showing a flush look"), flush_threats), *STANDING), _b3),
    DecisionClaim("B4", "bloodshed", (D_TURN, D_REACT), N_("kan"), N_("no kan"),
                  (_f("kan_kind", N_("the kan kind (0 closed, 1 added, 2 open)"), kan_kind), SHANTEN, *STANDING),
                  _kan_or_not),
    DecisionClaim("B5", "bloodshed", (D_TURN,), N_("discard a void tile first"), N_("discard by efficiency"),
                  (_f("void_held", N_("void tiles held"), void_held), SHANTEN, *STANDING), _void_first),
    DecisionClaim("B6", "bloodshed", (D_TURN, D_REACT), N_("push"), N_("fold"),
                  (_f("threats", N_("opponents with 2+ melds"), meld_threats), SHANTEN, *STANDING)),
    DecisionClaim("B7", "bloodshed", (D_REACT,), N_("pon"), N_("stay closed"),
                  (SHANTEN, _f("pairs", N_("pairs held"), pairs_held), _f("melds", N_("melds made"), own_melds),
                   *STANDING), _pon_or_not),
    DecisionClaim("B8", "bloodshed", (D_TURN, D_REACT), N_("steer to the flush"), N_("play by efficiency"),
                  (_f("suit_tiles", N_("tiles of the longest suit"), suit_tiles), SHANTEN, *STANDING)),
    DecisionClaim("S2", "shura", (D_TURN,), N_("dama"), N_("riichi"),
                  (_f("waits_left", N_("waiting tiles left"), waits_left), *RIICHI_STANDING), _riichi_after_win),
    DecisionClaim("S3", "shura", (D_EXCHANGE,), N_("recommended exchange"), N_("efficiency exchange"),
                  (_f("shanten", N_("the hand's shanten"), rf.hand_shanten),
                   _f("honors", N_("honor tiles held"), honors_held),
                   _f("shortest_suit", N_("tiles of the shortest suit"), r_shortest_suit), *RIICHI_STANDING)),
    DecisionClaim("X1", "bloodshed", (D_EXCHANGE, D_VOID), N_("recommended exchange / void"),
                  N_("value-based exchange / void"),
                  (_f("kind", N_("the decision (0 exchange, 1 void)"), lambda v, *_: int(v[BOBS.decision])),
                   _f("shortest_suit", N_("tiles of the shortest suit"), shortest_suit),
                   _f("longest_suit", N_("tiles of the longest suit"), longest_suit), *STANDING[:1], *STANDING[3:])),
    # the riichi-family modes' own questions (analyzer/experiments/extra/)
    DecisionClaim("C1", "chant", (D_TURN,), N_("keep the longer discard run"), N_("discard by efficiency"),
                  (_f("tsumogiri_run", N_("the current tsumogiri run"), rf.tsumogiri_run),
                   _f("hand_run", N_("the current hand-discard run"), rf.hand_run),
                   _f("to_bonus", N_("discards the run still needs for its next bonus"), rf.to_bonus),
                   ACCEPTANCE_LOST, R_SHANTEN, *RIICHI_STANDING), rf.run_kept),
    DecisionClaim("DF1", "dora-fever", (D_TURN,), N_("keep the dora"), N_("discard by efficiency"),
                  (_f("dora_held", N_("dora in the hand"), rf.dora_held),
                   _f("dora_saved", N_("dora the alternative's discard gives up"), rf.dora_saved),
                   _f("indicators", N_("dora indicators shown"), rf.indicators),
                   ACCEPTANCE_LOST, R_SHANTEN, *RIICHI_STANDING), rf.dora_kept),
    DecisionClaim("F1", "fate", (D_TURN,), N_("keep the open deal tile"), N_("discard by efficiency"),
                  (_f("multiplier", N_("the seat's win multiplier"), lambda v, *_: 1 + rf.open_held(v)),
                   _f("opponent_multiplier", N_("the largest opponent multiplier"), rf.top_opponent_multiplier),
                   ACCEPTANCE_LOST, R_SHANTEN, *RIICHI_STANDING), rf.open_tile_kept),
    DecisionClaim("OD1", "open-deal", (D_TURN,), N_("avoid the shown shapes"), N_("discard by efficiency"),
                  (_f("riichi_opponents", N_("opponents in riichi"), rf.riichi_opponents),
                   _f("danger", N_("shown shapes the alternative's discard completes"), rf.shown_danger),
                   ACCEPTANCE_LOST, R_SHANTEN, *RIICHI_STANDING), rf.shape_avoided),
    DecisionClaim("DE1", "dragon-eye", (D_TURN, D_REACT), N_("push with the eye, fold against its riichi"),
                  N_("play blind to the eye"),
                  (_f("eye_role", N_("the eye"), rf.eye_role),
                   _f("eye_counter", N_("discards left on the eye's counter"), rf.eye_counter), CHOICE,
                   _f("riichi_opponents", N_("opponents in riichi"), rf.riichi_opponents), R_SHANTEN,
                   *RIICHI_STANDING), rf.eye_decision),
    DecisionClaim("SS1", "soul-strike", (D_TURN, D_REACT), N_("dama on a weak wait, or break the strike"),
                  N_("riichi, or let the strike run"),
                  (CHOICE, _f("strike_left", N_("strike turns the striker has left"), rf.strike_left),
                   _f("overloaded", N_("overloaded opponents"), rf.overloaded), WAITS_LEFT, R_SHANTEN,
                   *RIICHI_STANDING), rf.strike_decision),
    DecisionClaim("FL1", "fantasy", (D_TURN, D_REACT), N_("play by the cards"), N_("play blind to the cards"),
                  (CHOICE, *CARDS, R_SHANTEN, *RIICHI_STANDING)),
    DecisionClaim("FL-hourglass", "fantasy", (D_TURN,), N_("dama with a yaku"), N_("riichi"),
                  (WAITS_LEFT, OWN_YAKU, *_other_cards(rf.FATE_DECK), *RIICHI_STANDING), rf.riichi_or_dama),
    DecisionClaim("FL-love-price", "fantasy", (D_REACT,), N_("pass the call"), N_("call"),
                  (_f("dora_discard", N_("the discard is a dora (0 no, 1 yes)"), rf.dora_discard), R_SHANTEN,
                   R_MELDS, *_other_cards(rf.FATE_DECK), *RIICHI_STANDING), rf.call_passed),
    DecisionClaim("FL-over-prepared", "fantasy", (D_TURN,), N_("dama on a weak wait with a yaku"), N_("riichi"),
                  (WAITS_LEFT, OWN_YAKU, *_other_cards(rf.FATE_DECK), *RIICHI_STANDING), rf.riichi_or_dama),
    DecisionClaim("FL-shady-deal", "fantasy", (D_REACT,), N_("pass the call"), N_("call"),
                  (R_SHANTEN, R_MELDS, *_other_cards(rf.FATE_DECK), *RIICHI_STANDING), rf.call_passed),
    DecisionClaim("FL-showdown", "fantasy", (D_REACT,), N_("stay closed"), N_("call"),
                  (R_SHANTEN, *_other_cards(rf.CHANCE_DECK), *RIICHI_STANDING), rf.call_passed),
    DecisionClaim("FL-super-tanyao", "fantasy", (D_TURN, D_REACT), N_("play toward tanyao"),
                  N_("play by efficiency"),
                  (CHOICE, _f("simples", N_("simple tiles held"), rf.simples_held), R_SHANTEN,
                   *_other_cards(rf.CHANCE_DECK), *RIICHI_STANDING), rf.toward_tanyao),
    DecisionClaim("A1", "astrology", (D_PICK,), N_("pick for value and safety"), N_("pick by efficiency"),
                  (_f("riichi_opponents", N_("opponents in riichi"), rf.riichi_opponents), R_SHANTEN,
                   *RIICHI_STANDING)),
    DecisionClaim("D1", "darkness", (D_TURN, D_DARK_OPEN, D_DARK_LOCK), N_("hide, open and lock by the stakes"),
                  N_("never pay to hide, open or lock"),
                  (_f("decision", N_("the decision (turn, open or lock)"), lambda v, *_: int(v[ROBS.decision])),
                   _f("pot", N_("points in the pot"), rf.darkness_pot),
                   _f("riichi_opponents", N_("opponents in riichi"), rf.riichi_opponents), R_SHANTEN,
                   *RIICHI_STANDING)),
    DecisionClaim("M1", "mirror", (D_TURN, D_REACT), N_("read the transparent tiles"),
                  N_("play blind to the transparent tiles"),
                  (CHOICE, _f("riichi_opponents", N_("opponents in riichi"), rf.riichi_opponents), R_SHANTEN,
                   *RIICHI_STANDING)),
)}
"""every decision claim, by id"""

FEATURE_CODES = {"kan_kind": (N_("closed kan"), N_("added kan"), N_("open kan")),
                 "kind": (N_("exchange"), N_("void choice")),
                 "choice": (N_("riichi or dama"), N_("call or pass"), N_("which tile to discard"),
                            N_("another decision")),
                 "eye_role": (N_("held by the seat"), N_("held by an opponent in riichi"),
                              N_("held by an opponent not in riichi")),
                 "card_dealer": (N_("风纪"), N_("永夜"), N_("没收"), N_("炒作"), N_("赠品")),
                 "card_chance": (N_("里世界"), N_("三倍速"), N_("金闪闪"), N_("超断幺"), N_("胜负手")),
                 "card_fate": (N_("夸大其词"), N_("过度准备"), N_("厄运沙漏"), N_("暗中交易"), N_("爱的代价"))}
"""names of the values of the features that are codes (the value is the index)"""
CATEGORICAL = frozenset({"choice", "eye_role", "card_dealer", "card_chance", "card_fate"})
"""coded features whose values have no order: conditions test them with “is” and “is not”"""
ALL_FEATURES = tuple(dict.fromkeys(f.name for c in CLAIMS.values() for f in c.features))
"""every feature column of decisions.parquet, in a fixed order"""


def applies(claim: DecisionClaim, view, treatment: int, control: int, legal: set[int], tables=None) -> bool:
    """Whether `claim` applies at this view with these two answers (see the module doc)."""
    if treatment == control or treatment not in legal or control not in legal:
        return False
    return claim.condition is None or bool(claim.condition(view, treatment, control, tables))


def features_of(claim: DecisionClaim, view, treatment: int, control: int, tables) -> dict[str, float]:
    return {f.name: float(f.value(view, treatment, control, tables)) for f in claim.features}
