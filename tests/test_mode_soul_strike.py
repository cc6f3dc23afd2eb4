"""`soul-strike` 魂之一击 (RULES.md SS, on the R rules): riichi 2 han / double riichi 3 han, up to 6 own draw-discard
turns right after the declaration (tsumo in them ippatsu, a closed kan on the 6th draw adds a turn), then
overload: every ron on an overloaded player's discard gets +2 han (not a yaku), tsumo unaffected.

The riichi-core invariants (R-1 … R-4) over ≥ 10,000 hands (100,000 in the slow test) with the mode's han in the
recomputed win values, plus the mode's own rules replayed from the event log: who draws during the strike turns,
when the overload starts, and the han every win must carry.
"""

from collections import defaultdict

import numpy as np
import polars as pl
import pytest

from tsumolab.policies.registry import parse_seats
from tsumolab.policies.riichi_api import ROBS
from tsumolab.sims import tiles as TL
from tsumolab.sims.events import EV_DISCARD, EV_DRAW, EV_END, EV_KAN, EV_PON, EV_WIN
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi.columns import HC, N_HAND_COLS
from tsumolab.sims.riichi.events import EV_CHI
from tsumolab.sims.riichi.play import play
from tsumolab.sims.riichi.scoring_rules import ScoringRules
from tsumolab.sims.riichi.tableau import F_IPPATSU, N_ST, ST_FLAGS
from tsumolab.sims.riichi.scoring import RES_HAN, RES_TOTAL, RES_YAKUMAN, SCORED, new_context, new_result, score_hand
from tsumolab.sims.riichi.soul_strike_turns import (
    SS_ACTIVE, SS_LEFT, SS_OVER, strike_after_discard, strike_score, strike_turn,
)
from tsumolab.sims.riichi.rules import STANDARD, SoulStrikeRules
from tsumolab.sims.riichi.yaku import YAKU_NAMES
from tests.riichi_runs import FAST_MATCHES, FULL_MATCHES, per_hand, run

SLUG = "soul-strike"
OPTS = ScoringRules().to_array()
LOG_MATCHES = 1_500  # matches per seat mix replayed from the event log


def _sizes():
    return [pytest.param(FAST_MATCHES, id="fast"), pytest.param(FULL_MATCHES, id="full", marks=pytest.mark.slow)]


def test_rule_ss_rules_are_table_options():
    """SS on R: soul strike on with 6 strike turns, +2 overload han, riichi 2 / double riichi 3; renchan as R-2;
    the standard table leaves it off (topts slot 0)."""
    rules = get_mode(SLUG).rules_class()
    assert isinstance(rules, SoulStrikeRules) and rules.soul_strike and rules.renchan
    assert (rules.strike_turns, rules.overload_han, rules.strike_riichi_han, rules.strike_double_riichi_han) == \
        (6, 2, 2, 3)
    assert not STANDARD.soul_strike
    from tsumolab.sims.riichi.rules import T_SOUL_STRIKE

    assert STANDARD.to_array()[T_SOUL_STRIKE] == 0 and rules.to_array()[T_SOUL_STRIKE] != 0
    with pytest.raises(ValueError):
        SoulStrikeRules(strike_count="sometimes")


# ------------------------------------------------------------------------------------------ the mode's han
_PINFU = np.zeros(34, np.int8)
for _k in (1, 2, 3, 4, 5, 6, 11, 12, 13, 23, 24, 25, 17, 17):  # 234m 567m 345p 678s 99p, won on 2m
    _PINFU[_k] += 1


def _scored(riichi, tsumo, overloaded_discarder, topts, dealer=False):
    """(plain scorer han, SS han, SS value, han added) of the pinfu hand won on 2m."""
    ctx = new_context(win=1, tsumo=tsumo, seat_wind=0 if dealer else 1, riichi=riichi)
    res = new_result()
    assert score_hand(_PINFU.copy(), np.zeros((4, 2), np.int8), 0, ctx, OPTS, res) == SCORED
    plain = int(res[RES_HAN])
    obs = np.zeros((4, ROBS.SIZE), np.int32)
    discarder = -1 if tsumo else 2
    if overloaded_discarder:
        obs[:, ROBS.soul_strike + SS_OVER + 2] = 1
    added = strike_score(obs, topts, OPTS, res, discarder, False, dealer)
    return plain, int(res[RES_HAN]), int(res[RES_TOTAL]), added


def test_rule_ss_riichi_two_han_double_riichi_three_han_priced_by_the_scorer(win_value):
    """SS: riichi is 2 han and double riichi 3 han (the scorer's 1 / 2 replaced) on tsumo and ron; the value is
    the R-3 price of the new han (recomputed with base_points/payments of the R-3 tests)."""
    topts = SoulStrikeRules().to_array()
    none, _, _, _ = _scored(0, False, False, topts)
    for riichi, ss_riichi_han in ((1, 2), (2, 3)):
        for tsumo in (False, True):
            plain, han, value, added = _scored(riichi, tsumo, False, topts)
            no_riichi, _, _, _ = _scored(0, tsumo, False, topts)
            assert han == no_riichi + ss_riichi_han, (riichi, tsumo)
            assert added == han - plain == 1
            assert value == win_value(han, 30 if not tsumo else 20, 0, False, tsumo)[0]
    assert none == 1  # pinfu alone: no riichi, nothing added
    assert _scored(0, False, False, topts)[3] == 0


def test_rule_ss_overload_adds_two_han_to_a_ron_never_to_a_tsumo(win_value):
    """SS: a ron on an overloaded discarder gets +2 han (pinfu 1 → 3, with riichi 3 → 5 = mangan); a tsumo
    against the same table state gets nothing; the standard table changes nothing."""
    topts = SoulStrikeRules().to_array()
    assert _scored(0, False, True, topts)[1:] == (3, win_value(3, 30, 0, False, False)[0], 2)
    assert _scored(1, False, True, topts)[1:] == (5, 8000, 3)
    assert _scored(0, True, True, topts)[3] == 0
    assert _scored(1, True, True, topts)[1:] == (4, win_value(4, 20, 0, False, True)[0], 1)  # riichi 2 + pinfu + tsumo
    assert _scored(0, False, True, SoulStrikeRules(overload_han=0).to_array())[3] == 0


def test_rule_ss_bonus_never_touches_a_yakuman():
    """SS: neither the riichi han nor the overload han change a yakuman (kokushi ron on an overloaded player)."""
    hand = np.zeros(34, np.int8)
    for k in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33):
        hand[k] += 1
    hand[0] += 1
    res = new_result()
    assert score_hand(hand, np.zeros((4, 2), np.int8), 0, new_context(win=0, riichi=1, seat_wind=1), OPTS,
                      res) == SCORED
    assert res[RES_YAKUMAN] >= 1
    before = res.copy()
    obs = np.zeros((4, ROBS.SIZE), np.int32)
    obs[:, ROBS.soul_strike + SS_OVER + 2] = 1
    assert strike_score(obs, SoulStrikeRules().to_array(), OPTS, res, 2, False, False) == 0
    assert (res == before).all()


def test_rule_ss_option_trigger_ron_bonus():
    """SS option `trigger_ron_bonus`: the ron on a strike discard that overloads the discarder gets the +2 han
    too (default: only rons on a player already overloaded)."""
    plain = new_result()
    score_hand(_PINFU.copy(), np.zeros((4, 2), np.int8), 0, new_context(win=1, seat_wind=1), OPTS, plain)
    for option, expected in ((False, 0), (True, 2)):
        res = plain.copy()
        obs = np.zeros((4, ROBS.SIZE), np.int32)  # the discarder (seat 2) is striking, not yet overloaded
        added = strike_score(obs, SoulStrikeRules(trigger_ron_bonus=option).to_array(), OPTS, res, 2, True, False)
        assert added == expected and res[RES_HAN] == plain[RES_HAN] + expected, option


def _striker(left):
    """Seat 1 striking with `left` strike turns; every seat's ippatsu flag set."""
    obs = np.zeros((4, ROBS.SIZE), np.int32)
    obs[:, ROBS.soul_strike + SS_ACTIVE + 1] = 1
    obs[:, ROBS.soul_strike + SS_LEFT + 1] = left
    st = np.zeros((N_ST, 34), np.int64)
    st[ST_FLAGS:ST_FLAGS + 4, F_IPPATSU] = 1
    return obs, st


def test_rule_ss_option_ippatsu_ron_after_strike():
    """SS option `ippatsu_ron_after_strike`: after the last strike discard the striker keeps ippatsu for one
    go-around (a ron); by default the engine's discard rule has already ended it."""
    for option in (False, True):
        obs, st = _striker(1)
        st[ST_FLAGS + 1, F_IPPATSU] = 0  # the engine clears it on the discard
        rec = np.zeros((4, N_HAND_COLS), np.int64)
        strike_after_discard(obs, st, SoulStrikeRules(ippatsu_ron_after_strike=option).to_array(), rec, 1, False,
                             False)
        assert obs[0, ROBS.soul_strike + SS_OVER + 1] == 1 and rec[1, HC["overloaded"]] == 1
        assert st[ST_FLAGS + 1, F_IPPATSU] == int(option), option


def test_rule_ss_option_strike_ends_ippatsu():
    """SS option `strike_ends_ippatsu`: a strike turn ends the other players' ippatsu; by default (R-4) only a
    call or their own discard does. The striker's own tsumo is ippatsu either way."""
    for option in (False, True):
        obs, st = _striker(4)
        strike_turn(obs, st, SoulStrikeRules(strike_ends_ippatsu=option).to_array(), 1, False)
        assert st[ST_FLAGS + 1, F_IPPATSU] == 1
        others = [st[ST_FLAGS + p, F_IPPATSU] for p in (0, 2, 3)]
        assert others == ([0, 0, 0] if option else [1, 1, 1]), option


# ------------------------------------------------------------------------------------------ the riichi core
@pytest.mark.parametrize("n", _sizes())
@pytest.mark.slow
def test_rule_ss_riichi_core_invariants(n, riichi_checks):
    """R-1 … R-4 in soul strike: hands, 136 tiles, legal answers, points + sticks conserved, every win has a
    yaku and its recorded value is the R-3 price of its han (the mode's han included)."""
    riichi_checks.riichi_core_invariants(SLUG, n)


@pytest.mark.parametrize("n", _sizes())
def test_rule_ss_mode_han_is_not_a_yaku_and_is_priced(n, win_value):
    """SS: every win has a yaku without the mode's han (han − strike_han > dora, so a yakuless hand never rons
    an overloaded player); strike_han is 0 … 3 (riichi +1, overload +2) and 0 on yakuman; value = R-3 price."""
    overload_rons = 0
    for spec, _, hands, _ in run(SLUG, n):
        wins = hands.filter(pl.col("won"))
        assert (wins["han"] - wins["strike_han"] > wins["dora"]).filter(wins["yakuman"] == 0).all(), spec
        assert (wins.filter(pl.col("yakuman") > 0)["strike_han"] == 0).all(), spec
        assert wins["strike_han"].min() >= 0 and wins["strike_han"].max() <= 3, spec
        assert (hands.filter(~pl.col("won"))["strike_han"] == 0).all(), spec
        for han, fu, yakuman, dealer, kind, value in wins.select(
                "han", "fu", "yakuman", "dealer", "win_kind", "value").iter_rows():
            assert win_value(han, fu, yakuman, dealer, kind == "tsumo")[0] == value, spec
        overload_rons += wins.filter(pl.col("strike_han") >= 2).height
    assert overload_rons > 0


@pytest.mark.parametrize("n", _sizes())
def test_rule_ss_renchan_as_r2(n):
    """SS keeps R-2 renchan: after a dealer win the same seat deals again."""
    for spec, _, hands, _ in run(SLUG, n):
        h = per_hand(hands).with_columns(pl.col("dealer_seat").shift(-1).over("match_id").alias("next_dealer"))
        kept = h.filter(pl.col("dealer_won") & pl.col("next_dealer").is_not_null())
        assert kept.height > 0 and (kept["next_dealer"] == kept["dealer_seat"]).all(), spec


# ------------------------------------------------------------------------------------------ the event log
def _replay(events, hand_rows, count_draws=False, turns=6):
    """Replay SS from the event log, written out from the rule text, and check every hand against it:
    - after a riichi declaration nobody but the declarer draws until it is overloaded; each of its strike turns
      starts with a normal draw ("turns"; with count_draws every draw counts), at most `turns`, one more after
      a closed kan on the last one;
    - a strike discard (declaration included) that is called (chi, pon, open kan) or ronned overloads at once;
      the last strike discard overloads after the others had their chance to ron it;
    - every tsumo in the strike turns has Ippatsu, a riichi tsumo outside them has none;
    - each win's strike_han = riichi +1 (riichi / double riichi) + 2 on a ron against an overloaded discarder,
      0 on yakuman; the recorded overloaded flags agree.
    Returns counts of what was seen."""
    rows = {(int(r[HC["match_id"]]), int(r[HC["hand"]]), int(r[HC["seat"]])): r for r in hand_rows}
    seen = defaultdict(int)
    yaku_bits = {name: i for i, name in enumerate(YAKU_NAMES)}
    ippatsu_bit = yaku_bits["Ippatsu"]
    state = None
    for m, h, kind, seat, tile, a, b, c in events.tolist():
        if state is None or state["key"] != (m, h):
            state = dict(key=(m, h), striker=-1, done=0, limit=turns, kan_bonus=False, over=set(), deferred=-1,
                         last_from=-1, last_strike=False)
        s = state
        if kind in (EV_DRAW, EV_PON, EV_CHI, EV_KAN, EV_END) and s["deferred"] >= 0:
            s["over"].add(s["deferred"])
            s["deferred"] = -1
        if kind == EV_DRAW:
            s["last_from"] = seat  # a ron right after a draw robs that seat's kan (chankan)
            s["last_strike"] = False
            if s["striker"] >= 0:
                assert seat == s["striker"], ("another seat drew during a strike", m, h)
                if a == 0 or count_draws:
                    if s["done"] < s["limit"]:
                        s["done"] += 1
                        seen["strike_draws"] += 1
                    else:
                        assert count_draws and a == 1, ("strike draw beyond the limit", m, h)
                        seen["extra_kan_draw"] += 1
            elif s.get("just_ended") is not None:
                assert seat == (s["just_ended"] + 1) % 4, ("the striker kept drawing after its strike", m, h)
            s["just_ended"] = None
        elif kind == EV_KAN and tile >= 0 and a == TL.ANKAN and seat == s["striker"]:
            s["last_from"] = seat
            s["last_strike"] = False
            if not count_draws and s["done"] == turns and not s["kan_bonus"]:
                s["limit"] += 1
                s["kan_bonus"] = True
                seen["kan_on_last_draw"] += 1
        elif kind == EV_KAN and a == TL.KAKAN:
            s["last_from"] = seat
            s["last_strike"] = False
        elif kind == EV_DISCARD:
            s["last_from"] = seat
            s["last_strike"] = b == 1 or seat == s["striker"]
            if b == 1:  # the declaration: the strike turns start unless the tile is taken
                s.update(striker=seat, done=0, limit=turns, kan_bonus=False)
                seen["declarations"] += 1
            elif seat == s["striker"] and s["done"] >= s["limit"]:
                s["deferred"] = seat
                s["just_ended"] = seat
                s["striker"] = -1
                seen["full_strikes"] += 1
        elif kind in (EV_PON, EV_CHI) or (kind == EV_KAN and a == TL.MINKAN):
            discarder = a if kind == EV_PON else b
            s["just_ended"] = None
            if discarder == s["striker"]:
                s["over"].add(discarder)
                s["striker"] = -1
                seen["called_strikes"] += 1
        elif kind == EV_WIN:
            row = rows[(m, h, seat)]
            yakuman = int(row[HC["yakuman"]])
            riichi = int(row[HC["riichi"]])
            expected = 0
            if yakuman == 0:
                expected += 1 if riichi > 0 else 0
                if c == 1 and s["last_from"] in s["over"]:
                    expected += 2
                    seen["overload_rons"] += 1
            assert row[HC["strike_han"]] == expected, ("strike_han", m, h, seat)
            ippatsu = bool(int(row[HC["yaku"]]) >> ippatsu_bit & 1) if ippatsu_bit < 31 else None
            if c == 2 and yakuman == 0 and riichi > 0:
                if seat == s["striker"]:
                    assert ippatsu, ("tsumo in strike turns without ippatsu", m, h)
                    seen["strike_tsumo"] += 1
                else:
                    assert not ippatsu, ("ippatsu tsumo outside the strike turns", m, h)
            if c == 1 and s["last_strike"]:
                s["deferred"] = s["last_from"]  # a ronned strike discard overloads, after every ron on it
                seen["ronned_strikes"] += 1
        if kind == EV_END:
            for p in range(4):
                rec = int(rows[(m, h, p)][HC["overloaded"]])
                assert rec == (1 if p in s["over"] else 0), ("overloaded flag", m, h, p)
    return seen


def _log(seats, n, rules=None, seed=5):
    counters = np.zeros(engine.N_COUNTERS, np.int64)
    hand_rows, _, events = play(seed, np.arange(n), parse_seats(seats), rules or SoulStrikeRules(), counters, True)
    assert counters[engine.CNT_ILLEGAL] == 0 and counters[engine.CNT_TILE_ERRORS] == 0
    return hand_rows, events


@pytest.mark.slow  # the fast suite has this rule's scripted hand
def test_rule_ss_strike_turns_overload_and_mode_han_replayed_from_the_event_log():
    """SS from the event log: the declarer's next (up to 6) draws are consecutive, nobody else draws in between;
    the 6th strike discard or a called / ronned strike discard overloads; tsumo in strike turns is ippatsu; every
    win carries riichi 2 / double riichi 3 and +2 on rons against overloaded discarders; the recorded
    overloaded flags agree. Kan-happy seats make closed kans on the 6th draw (one more turn) appear."""
    total = defaultdict(int)
    for seats in ("baseline", "always-kan,baseline,random,majsoul-cpu", "always-kan"):
        hand_rows, events = _log(seats, LOG_MATCHES)
        for key, value in _replay(events, hand_rows).items():
            total[key] += value
    for key in ("declarations", "full_strikes", "called_strikes", "ronned_strikes", "strike_tsumo",
                "overload_rons", "kan_on_last_draw"):
        assert total[key] > 0, (key, dict(total))


@pytest.mark.slow
def test_rule_ss_strike_counted_in_draws_option():
    """SS option strike_count = "draws": every draw of the striker, kan replacement draws included, uses one of
    the 6; only the replacement after a closed kan on the 6th draw is extra (replayed from the event log)."""
    rules = SoulStrikeRules(strike_count="draws")
    seen = defaultdict(int)
    for seats in ("always-kan", "baseline"):
        hand_rows, events = _log(seats, 600, rules)
        for key, value in _replay(events, hand_rows, count_draws=True).items():
            seen[key] += value
    assert seen["full_strikes"] > 0 and seen["declarations"] > 0


def test_rule_ss_is_a_table_option_riichi_unchanged():
    """SS off (`riichi`): no overload, no strike han anywhere."""
    hand_rows, _ = get_mode("riichi").simulate(1, np.arange(100), parse_seats("baseline"))
    assert (hand_rows[:, HC["overloaded"]] == 0).all() and (hand_rows[:, HC["strike_han"]] == 0).all()


def test_rule_ss_strike_timer_is_legal_and_riichis_less_than_baseline():
    """SS policy `strike-timer`: legal answers; over the same walls its seat declares riichi less often than
    baseline in that seat (dama on weak waits) and breaks strikes by calls."""
    mode = get_mode(SLUG)
    riichi_rate = {}
    for spec in ("strike-timer,baseline,baseline,baseline", "baseline"):
        counters = np.zeros(engine.N_COUNTERS, np.int64)
        hand_rows, _ = mode.simulate(9, np.arange(500), parse_seats(spec), counters=counters)
        assert counters[engine.CNT_ILLEGAL] == 0, spec
        seat0 = hand_rows[hand_rows[:, HC["seat"]] == 0]
        riichi_rate[spec] = (seat0[:, HC["riichi"]] > 0).mean()
    assert riichi_rate["strike-timer,baseline,baseline,baseline"] < riichi_rate["baseline"]


def test_rule_ss_scripted_six_strike_turns_then_overloaded_ron_gets_two_han(build_wall, default_answer, events_of):
    """SS, a scripted hand: the dealer declares (double) riichi on its first discard and then draws and discards
    6 times in a row (nobody else draws in between); after those strike turns it is overloaded. When the others
    have drawn once each, the dealer's next draw, 4p, goes out and seat 1 rons it with tanyao + pinfu:
    2 han + 2 overload han = 4 han 30 fu = 7700 for a non-dealer (R-3, no kiriage), plus the dealer's stick."""
    from tsumolab.policies.riichi_api import D_REACT, D_TURN, RIICHI, RON
    from tsumolab.sims.riichi.columns import H_DELTA, H_HAN, H_OVERLOADED, H_STRIKE_HAN
    from tsumolab.sims.riichi.positions import RiichiEngine

    hands = {0: "111z222z777z99m99p", 1: "23p234m678m678s22s", 2: "3456789s3456m77p", 3: "2233445566778s"}
    # the dealer: 5z (riichi tile), 6 strike draws; then seat 1, 2, 3 draw a North each; the dealer draws 4p
    wall = build_wall(hands, "5z" + "6z6z6z6z3z3z" + "4z4z4z" + "4p", at={126: 30})
    table = RiichiEngine(parse_seats("baseline"), SoulStrikeRules(), keep_events=True)
    pos = table.start(wall=wall)

    def choose(pos):
        view = pos.view
        if pos.decision == D_TURN and pos.seat == 0 and view[ROBS.can_riichi]:
            return RIICHI + 31
        if pos.decision == D_REACT and pos.seat == 1 and view[ROBS.can_win]:
            return RON
        return default_answer(pos)

    table.play_scripted(pos, choose)
    draws = events_of(pos, EV_DRAW)[:, 3].tolist()
    assert draws == [0] * 7 + [1, 2, 3, 0]  # the dealer's own draw, its 6 strike draws, then the others
    assert events_of(pos, EV_WIN)[:, 3].tolist() == [1]
    assert pos.rec[0, H_OVERLOADED] == 1
    assert pos.rec[1, H_HAN] == 4 and pos.rec[1, H_STRIKE_HAN] == 2
    assert pos.rec[:, H_DELTA].tolist() == [-7700 - 1000, 7700 + 1000, 0, 0]
