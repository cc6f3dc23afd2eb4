"""`dragon-eye` 龙之目玉 (RULES.md DE, on the R rules): an eye on a random seat with a counter of 5, lowered by each
of the holder's discards, moving at 0 at the next draw or call; win payments between the holder and another
seat ×2 (honba, sticks, noten, nagashi not); 40000 start; 3 dora indicators from the start; no renchan.

The riichi-core invariants (R-1 … R-4) over ≥ 10,000 hands (100,000 in the slow test; `value` is the R-3 value,
the doubling is in the payments), plus the mode's own, recomputed from the event log and the keyed streams.
"""

from collections import defaultdict

import numpy as np
import polars as pl
import pytest

from tsumolab.policies.registry import parse_seats
from tsumolab.sims import rng
from tsumolab.sims.events import EV_DISCARD, EV_DRAW, EV_KAN, EV_PAY, EV_PON, EV_START, EV_WIN, PAY_RON, PAY_TSUMO
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi.columns import HC
from tsumolab.sims.riichi.dragon_eye_holder import STREAM_EYE
from tsumolab.sims.riichi.events import EV_CHI, EV_DORA, EV_EYE, PAY_HONBA, PAY_NAGASHI, PAY_NOTEN, PAY_PAO, PAY_STICKS
from tsumolab.sims.riichi.scoring_rules import ScoringRules
from tsumolab.sims.riichi.scoring import base_points, payments
from tsumolab.sims.riichi.rules import STANDARD, DragonEyeRules
from tsumolab.sims import tiles as TL
from tests.riichi_runs import FAST_MATCHES, FULL_MATCHES, per_hand, run

SLUG = "dragon-eye"
SIZES = [pytest.param(FAST_MATCHES, id="fast"), pytest.param(FULL_MATCHES, id="full", marks=pytest.mark.slow)]
SEED = 7
OPTS = ScoringRules().to_array()


def test_rule_de_rules_are_table_options():
    """DE: eye on, counter 5, ×2, 40000 start, 3 indicators, no renchan; the standard table leaves it off."""
    rules = get_mode(SLUG).rules_class()
    assert isinstance(rules, DragonEyeRules)
    assert (rules.dragon_eye, rules.eye_counter, rules.eye_multiplier) == (True, 5, 2)
    assert (rules.start_points, rules.initial_dora, rules.renchan) == (40_000, 3, False)
    assert not STANDARD.dragon_eye
    with pytest.raises(ValueError):
        DragonEyeRules(eye_counter=0)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.slow
def test_rule_de_riichi_core_invariants(n, riichi_checks):
    """DE keeps R-1 (136 tiles, legal answers), R-2 (points + sticks conserved from 40000), R-3 (no yakuless win,
    the recorded R-3 value recomputable, at most 3 ron) and R-4 over ≥10,000 hands (100,000 slow)."""
    riichi_checks.riichi_core_invariants(SLUG, n)


def test_rule_de_r4_no_furiten_ron(riichi_checks):
    """R-4 under DE: no ron in furiten."""
    riichi_checks.r4_no_furiten_ron_in_the_event_log(SLUG)


@pytest.mark.parametrize("n", SIZES)
def test_rule_de_40000_start_and_no_renchan(n):
    """DE: every match starts at 40000 a seat; the deal passes after every hand that is not an abortive draw."""
    for spec, _, hands, _ in run(SLUG, n):
        assert (hands.filter(pl.col("hand") == 1)["points_before"] == 40_000).all(), spec
        h = per_hand(hands).with_columns(pl.col("dealer_seat").shift(-1).over("match_id").alias("next_dealer"))
        ended = h.filter(pl.col("next_dealer").is_not_null() & pl.col("hand_end").is_in(["win", "exhaustive"]))
        assert ended.height > 0, spec
        assert (ended["next_dealer"] == (ended["dealer_seat"] + 1) % 4).all(), spec


def _events(spec, matches=300, rules=None):
    seats = parse_seats(spec)
    hand_rows, _, events = get_mode(SLUG).simulate_events(SEED, np.arange(matches), seats, rules=rules)
    return hand_rows, events


def test_rule_de_three_indicators_from_the_start():
    """DE: 3 dora indicators are shown before the first discard or kan of every hand."""
    _, events = _events("baseline,random,baseline,majsoul-cpu", 200)
    shown = {}
    at_first = {}
    for m, h, kind, seat, tile, a, b, c in events.tolist():
        if kind == EV_START:
            shown[(m, h)] = 0
        elif kind == EV_DORA:
            shown[(m, h)] = a
        elif kind in (EV_DISCARD, EV_KAN):
            at_first.setdefault((m, h), shown[(m, h)])
    assert len(at_first) > 500 and set(at_first.values()) == {3}


def _eye_seats_from_keys(match_id, hand_no, n, other_seat=False):
    """The first n eye seats of a hand, drawn from key_seed(root, match, hand, STREAM_EYE) like RULES DE says."""
    state = np.zeros(1, np.uint64)
    state[0] = np.uint64(int(rng.key_seed(SEED, match_id, hand_no, STREAM_EYE)) >> 1)
    seats = []
    for i in range(n):
        if other_seat and i > 0:
            seats.append((seats[-1] + 1 + int(rng.below(state, 3))) % 4)
        else:
            seats.append(int(rng.below(state, 4)))
    return seats


def _eye_log(events):
    out = defaultdict(list)
    for m, h, kind, seat, tile, a, b, c in events.tolist():
        if kind == EV_EYE:
            out[(m, h)].append(seat)
    return out


@pytest.mark.parametrize("other_seat", [False, True])
def test_rule_de_eye_seats_depend_only_on_the_keys(other_seat):
    """DE: the k-th eye of a hand sits on the seat drawn from the keyed stream, whoever plays (two different seat
    mixes agree wherever both have a k-th eye); option eye_other_seat: a new eye never stays on its seat."""
    rules = DragonEyeRules(eye_other_seat=other_seat)
    logs = [_eye_log(_events(spec, 150, rules)[1])
            for spec in ("baseline", "random,majsoul-cpu,eye-pusher,disconnected")]
    checked = stays = 0
    for log in logs:
        for (m, h), seats in log.items():
            assert seats == _eye_seats_from_keys(m, h, len(seats), other_seat), (m, h)
            checked += len(seats)
            stays += sum(a == b for a, b in zip(seats, seats[1:]))
    common = set(logs[0]) & set(logs[1])
    assert len(common) > 100
    assert all(logs[0][k][:len(logs[1][k])] == logs[1][k][:len(logs[0][k])] for k in common)
    assert checked > 1000
    assert (stays == 0) if other_seat else (stays > 0)


def test_rule_de_counter_five_per_eye_and_moves_at_the_next_draw_or_call():
    """DE: each eye starts with counter 5; each discard by its holder lowers it; at 0 the next eye is placed right
    before the next live-wall draw or chi / pon / open kan, and at no other time."""
    _, events = _events("baseline,random,majsoul-cpu,eye-pusher", 300)
    holder = counter = None
    due = False
    moves = 0
    for m, h, kind, seat, tile, a, b, c in events.tolist():
        if kind == EV_START:
            holder, due = None, False
        elif kind == EV_EYE:
            assert a == 5
            if c == 1:
                assert due and holder is not None, (m, h)
                moves += 1
            else:
                assert holder is None
            holder, counter, due = seat, 5, False
        elif kind == EV_DISCARD and seat == holder:
            assert not due
            counter -= 1
            due = counter == 0
        elif (kind == EV_DRAW and a == 0) or kind in (EV_PON, EV_CHI) or (kind == EV_KAN and a == TL.MINKAN):
            assert not due, (m, h, kind)
    assert moves > 300


def _share(han, fu, yakuman, winner_dealer, payer_dealer, tsumo):
    base, _ = base_points(int(han), int(fu), int(yakuman), OPTS)
    ron, _total, share_dealer, share_other = payments(base, bool(winner_dealer), bool(tsumo))
    if not tsumo:
        return ron
    return share_dealer if (payer_dealer and not winner_dealer) else share_other


@pytest.mark.slow
def test_rule_de_win_payments_with_the_holder_doubled_others_not():
    """DE: every ron and tsumo payment between the eye's holder (replayed from the eye events) and another seat
    is exactly 2 × its R-3 amount, every other one 1 ×; honba (300 / 100 per count), riichi sticks (1000 each),
    noten (3000 split) and nagashi (2000 / 4000) payments are never doubled."""
    hand_rows, events = _events("baseline,random,majsoul-cpu,eye-pusher", 600)
    win_of = {(int(r[HC["match_id"]]), int(r[HC["hand"]]), int(r[HC["seat"]])):
              (r[HC["han"]], r[HC["fu"]], r[HC["yakuman"]], r[HC["pao_paid"]]) for r in hand_rows}
    pao_hands = {(m, h) for (m, h, _s), v in win_of.items() if v[3] > 0}
    holder = dealer = honba = None
    pays = []
    doubled = single = other = 0
    for m, h, kind, seat, tile, a, b, c in events.tolist():
        if kind == EV_START:
            dealer, honba, pays = seat, c, []
        elif kind == EV_EYE:
            holder = seat
        elif kind == EV_PAY:
            pays.append((seat, tile, a, b))
        elif kind == EV_WIN:
            if (m, h) in pao_hands:
                pays = []
                continue
            han, fu, yakuman, _ = win_of[(m, h, seat)]
            tsumo = c == 2
            for payer, receiver, amount, reason in pays:
                if reason in (PAY_RON, PAY_TSUMO):
                    assert receiver == seat
                    factor = 2 if holder in (payer, receiver) else 1
                    expected = factor * _share(han, fu, yakuman, seat == dealer, payer == dealer, tsumo)
                    assert amount == expected, (m, h, payer, receiver, amount, expected)
                    doubled += factor == 2
                    single += factor == 1
                elif reason == PAY_HONBA:
                    assert amount == (100 if tsumo else 300) * honba
                    other += 1
                elif reason == PAY_STICKS:
                    assert amount % 1000 == 0
                    other += 1
            pays = []
        elif kind == EV_DISCARD:
            pays = [p for p in pays if p[3] not in (PAY_RON, PAY_TSUMO)]
    for m, h, kind, seat, tile, a, b, c in events.tolist():
        if kind == EV_PAY and b == PAY_NOTEN:
            assert a in (1000, 1500, 3000)
            other += 1
        elif kind == EV_PAY and b == PAY_NAGASHI:
            assert a in (2000, 4000)
        elif kind == EV_PAY and b == PAY_PAO:
            pass
    assert doubled > 100 and single > 100 and other > 50


@pytest.mark.parametrize("n", SIZES)
def test_rule_de_win_points_are_the_doubled_payments(n):
    """DE: win_points = the win's payments (×2 for the ones with the holder, between ×1 and ×2 of the R-3 value
    in all) + honba + sticks; the holder's wins receive exactly 2 × value."""
    for spec, _, hands, _ in run(SLUG, n):
        wins = hands.filter(pl.col("won") & (pl.col("pao_paid") == 0))
        honba = wins["honba"].cast(pl.Int64) * (wins["win_order"] == 1).cast(pl.Int64)  # first winner only
        paid = wins["win_points"] - 300 * honba - 1000 * wins["sticks_won"].cast(pl.Int64)
        value = wins["value"].cast(pl.Int64)
        assert ((paid >= value) & (paid <= 2 * value)).all(), spec
        assert (paid == 2 * value).sum() > 0 and (paid == value).sum() > 0, spec


def test_rule_de_eye_pusher_pushes_while_holding():
    """eye-pusher: legal answers, and over the same deals its seat calls more than baseline in that seat."""
    mode = get_mode(SLUG)
    calls = {}
    for spec in ("eye-pusher,baseline,baseline,baseline", "baseline"):
        counters = np.zeros(engine.N_COUNTERS, np.int64)
        hand_rows, _ = mode.simulate(9, np.arange(600), parse_seats(spec), counters=counters)
        assert counters[engine.CNT_ILLEGAL] == 0, spec
        seat0 = hand_rows[hand_rows[:, HC["seat"]] == 0]
        calls[spec] = seat0[:, HC["calls"]].mean()
    assert calls["eye-pusher,baseline,baseline,baseline"] > calls["baseline"]


@pytest.mark.parametrize("holder, factor", [(0, 2), (1, 2), (2, 1)], ids=["discarder", "winner", "bystander"])
def test_rule_de_scripted_ron_with_the_eye_holder_pays_double(holder, factor, build_wall, default_answer):
    """DE, a scripted hand (1 honba, 1 stick on the table; the 3 starting indicators 4z 5z 6z make no dora for the
    winner): seat 1 rons the dealer's 4p with tanyao + pinfu, 2 han 30 fu = 2000 (R-3). With the eye on the
    dealer (who pays) or on seat 1 (who wins) the win payment doubles to 4000; with the eye on seat 2 it stays
    2000. Honba (300) and the stick (1000) are never doubled. The eye's seat comes from the keyed stream: the
    test takes the first root seed that puts it on `holder`."""
    from tsumolab.policies.riichi_api import D_REACT, ROBS, RON
    from tsumolab.sims.riichi.columns import H_DELTA
    from tsumolab.sims.riichi.dragon_eye_holder import EYE_HOLDER
    from tsumolab.sims.riichi.positions import HandContext, RiichiEngine

    hands = {0: "111m999p111s9s555z", 1: "23p234m678m678s22s", 2: "3456789s3456m77p", 3: "2233445566778s"}
    wall = build_wall(hands, "4p", at={126: 30, 128: 31, 130: 32})
    context = HandContext(honba=1, sticks=1)
    for seed in range(64):
        table = RiichiEngine(parse_seats("baseline"), DragonEyeRules(), root_seed=seed, keep_events=True)
        pos = table.start(wall=wall, context=context)
        table.advance(pos, None, 0)
        if pos.obs[0, ROBS.dragon_eye + EYE_HOLDER] == holder:
            break
    else:
        raise AssertionError(f"no root seed below 64 puts the eye on seat {holder}")

    def choose(pos):
        if pos.decision == D_REACT and pos.seat == 1 and pos.view[ROBS.can_win]:
            return RON
        return default_answer(pos)

    table.play_scripted(pos, choose)
    assert pos.obs[0, ROBS.dragon_eye + EYE_HOLDER] == holder
    win = 2000 * factor
    assert pos.rec[:, H_DELTA].tolist() == [-(win + 300), win + 300 + 1000, 0, 0]
