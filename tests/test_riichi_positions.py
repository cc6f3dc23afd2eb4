"""The resumable riichi engine (sims.riichi.positions): scripted hands from a given wall and given decisions,
and stopping real runs at random decisions then resuming them with the answers the policies gave.

The scripted-hand helpers (build_wall, default_answer, events_of) are fixtures of tests/conftest.py; the abortive
draws and the triple ron are in tests/test_riichi_scenarios.py."""

from __future__ import annotations

import numpy as np
import pytest

from tsumolab.policies.registry import parse_seats
from tsumolab.policies.riichi_api import CHI_LOW, D_PICK, D_REACT, D_ROB, D_TURN, KAN, PON, ROBS, RON
from tsumolab.sims import tiles
from tsumolab.sims.events import EV_DISCARD, EV_DRAW, EV_KAN, EV_WIN
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi.astrology_pool import A_N
from tsumolab.sims.riichi.columns import H_DELTA, H_END, H_HAND, H_MATCH, H_WON
from tsumolab.sims.riichi.events import EV_CHI
from tsumolab.sims.riichi.positions import RiichiEngine
from tsumolab.sims.riichi.rules import STANDARD

EV_SEAT, EV_TILE, EV_A, EV_B = 3, 4, 5, 6  # columns of an event row (sims.events.log_event)
JUNK = [9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]  # 1p 9p 1s 9s and the honors


def test_kuikae_swap_call_after_chi_is_replaced(build_wall, default_answer, events_of):
    """Swap-calling ban (kuikae) after a chi: seat 1 chis 3m with 4m5m, may then discard neither 3m nor 6m
    (the other end of the run); its 6m answer is illegal and replaced by the first legal kind."""
    m3, m4, m5, m6 = 2, 3, 4, 5
    wall = build_wall({0: [m3, 10] + JUNK, 1: [m4, m5, m6, 11, 12, 13, 23, 24, 25, 19, 19, 15, 16],
                       2: [0, 0, 1, 1, 6, 6, 7, 7, 8, 8, 14, 14, 20],
                       3: [0, 1, 6, 7, 8, 14, 20, 20, 21, 21, 22, 22, 34 - 1]},
                      draws=[0])
    table = RiichiEngine(parse_seats("baseline"), STANDARD, keep_events=True)
    pos = table.start(wall=wall)
    seen = {}

    def choose(pos):
        view = pos.view
        if pos.decision == D_TURN and pos.seat == 0 and view[ROBS.hand + m3] > 0:
            return m3
        if pos.decision == D_REACT and pos.seat == 1 and view[ROBS.tile] == m3:
            seen["chi"] = int(view[ROBS.can_chi])
            return CHI_LOW
        if pos.decision == D_TURN and pos.seat == 1 and view[ROBS.after_call] == 1 and "forbid" not in seen:
            seen["forbid"] = (int(view[ROBS.forbid_a]), int(view[ROBS.forbid_b]))
            return m6
        return default_answer(pos)

    illegal = table.counters[engine.CNT_ILLEGAL]
    table.play_scripted(pos, choose)
    assert seen["chi"] & 1
    assert seen["forbid"] == (m3, m6)
    chi = events_of(pos, EV_CHI, 1)
    assert chi.shape[0] >= 1 and chi[0, EV_TILE] == m3
    first_discard = events_of(pos, EV_DISCARD, 1)[0]
    assert first_discard[EV_TILE] not in (m3, m6)
    assert table.counters[engine.CNT_ILLEGAL] == illegal + 1


def test_rule_r4_robbed_added_kan_chankan(build_wall, default_answer, events_of):
    """R-4 chankan: seat 1 pons 7s, draws the fourth 7s and adds it; seat 2, waiting on 7s (kanchan 6s8s),
    robs it. The added kan is logged, then robbed: it does not happen (no replacement draw), seat 1 pays, the
    hand ends with seat 2's win on 7s."""
    s6, s7, s8 = 23, 24, 25
    wall = build_wall({0: [s7, 0] + JUNK, 1: [s7, s7, 0, 0, 8, 8, 16, 16, 5, 5, 6, 6, 7],
                       2: [s6, s8, 1, 2, 3, 11, 12, 13, 13, 14, 15, 10, 10],
                       3: [9, 9, 17, 17, 18, 18, 26, 26, 27, 27, 28, 28, 29]},
                      draws=[20, 30, 31, 32, s7])
    table = RiichiEngine(parse_seats("baseline"), STANDARD, keep_events=True)
    pos = table.start(wall=wall)
    seen = {}

    def choose(pos):
        view = pos.view
        if pos.decision == D_TURN and pos.seat == 0 and view[ROBS.hand + s7] > 0:
            return s7
        if pos.decision == D_REACT and pos.seat == 1 and view[ROBS.tile] == s7:
            return PON
        if pos.decision == D_TURN and pos.seat == 1 and view[ROBS.kan_options + s7] == 2:
            seen["kan"] = True
            return KAN + s7
        if pos.decision == D_ROB:
            seen["rob"] = (pos.seat, int(view[ROBS.tile]))
            return RON
        return default_answer(pos)

    table.play_scripted(pos, choose)
    assert seen["kan"] and seen["rob"] == (2, s7)
    wins = events_of(pos, EV_WIN)
    assert wins.shape[0] == 1 and wins[0, EV_SEAT] == 2 and wins[0, EV_TILE] == s7
    kans = events_of(pos, EV_KAN, 1)  # logged before the rob, so the log shows what was robbed
    assert kans.shape[0] == 1 and kans[0, EV_TILE] == s7 and kans[0, EV_A] == tiles.KAKAN
    draws = events_of(pos, EV_DRAW, 1)
    assert not (draws[:, EV_A] == 1).any()  # no replacement draw: the kan did not happen
    assert pos.obs[1, ROBS.hand + s7] == 0  # the robbed tile went to the winner
    assert pos.rec[2, H_WON] == 1 and pos.rec[1, H_DELTA] < 0 and pos.rec[2, H_DELTA] == -pos.rec[1, H_DELTA]
    assert pos.rec[0, H_DELTA] == 0 and pos.rec[3, H_DELTA] == 0
    assert pos.rec[0, H_END] == engine.END_WIN


def test_rule_r3_multiple_ron_both_claimants_win(build_wall, default_answer, events_of):
    """R-3 multiple ron: the dealer's 3m completes seat 1 (4m5m) and seat 2 (33m shanpon); both ron, the
    discarder pays both, the hand ends."""
    m3 = 2
    wall = build_wall({0: [m3, 0] + JUNK, 1: [3, 4, 10, 11, 12, 13, 14, 15, 20, 21, 22, 25, 25],
                       2: [m3, m3, 13, 13, 19, 20, 21, 23, 24, 25, 14, 15, 16],
                       3: [9, 9, 17, 17, 18, 18, 26, 26, 27, 27, 28, 28, 29]}, draws=[30])
    table = RiichiEngine(parse_seats("baseline"), STANDARD, keep_events=True)
    pos = table.start(wall=wall)
    asked = []

    def choose(pos):
        view = pos.view
        if pos.decision == D_TURN and pos.seat == 0 and view[ROBS.hand + m3] > 0:
            return m3
        if pos.decision == D_REACT and view[ROBS.can_win]:
            asked.append(pos.seat)
            return RON
        return default_answer(pos)

    table.play_scripted(pos, choose)
    assert asked == [1, 2]
    wins = events_of(pos, EV_WIN)
    assert sorted(wins[:, EV_SEAT].tolist()) == [1, 2]
    assert pos.rec[1, H_WON] == 1 and pos.rec[2, H_WON] == 1
    assert pos.rec[0, H_DELTA] == -(pos.rec[1, H_DELTA] + pos.rec[2, H_DELTA]) < 0
    assert pos.rec[3, H_DELTA] == 0


def _turn_alternative(pos, answer):
    """Another legal discard than `answer` at an own-turn decision outside riichi, or None."""
    view = pos.view
    if pos.decision != D_TURN or not 0 <= answer < 34 or view[ROBS.after_call]:
        return None
    for k in range(34):
        if k != answer and view[ROBS.hand + k] > 0:
            return k
    return None


MIXES = [("riichi", "baseline,random,majsoul-cpu,disconnected"), ("shura", "baseline,majsoul-cpu,random,baseline")]
SPECIALISTS = {"dora-fever": "dora-keeper", "chant": "chanter", "soul-strike": "strike-timer", "fate": "fate-keeper",
               "open-deal": "deal-reader", "mirror": "mirror-reader", "dragon-eye": "eye-pusher",
               "fantasy": "card-reader", "astrology": "star-picker", "darkness": "shadow-player"}


@pytest.mark.parametrize("slug, spec", MIXES)
def test_resume_at_random_decisions_reproduces_the_run(slug, spec):
    """Stop real runs at random decisions, resume with the answer the policy gave: the hand's record rows equal
    the uninterrupted run's (play_matches) and its event log equals the hand played without stopping. A
    different discard forced instead changes the hand in some cases (the forced answer is really used)."""
    checked = _resume_at_random_decisions(slug, spec, seed=5, n_matches=14)
    assert checked >= 150


@pytest.mark.slow
@pytest.mark.parametrize("slug, spec", MIXES)
def test_resume_reproduces_the_run_at_a_thousand_decisions(slug, spec):
    """Issue 15's consistency check at scale: 1,000+ decisions per mode over two seeds."""
    checked = sum(_resume_at_random_decisions(slug, spec, seed=seed, n_matches=40) for seed in (6, 7))
    assert checked >= 1_000


@pytest.mark.slow
@pytest.mark.parametrize("slug", sorted(SPECIALISTS))
def test_resume_reproduces_every_modes_run_at_a_thousand_decisions(slug):
    """Issue 31 (DF, C, SS, F, OD, M, DE, FL, A, D): the same check in every other riichi-family mode, the mode's
    own policy seated with baseline, random and majsoul-cpu: 1,000+ decisions each."""
    spec = f"{SPECIALISTS[slug]},baseline,random,majsoul-cpu"
    assert _resume_at_random_decisions(slug, spec, seed=8, n_matches=80) >= 1_000


def _resume_at_random_decisions(slug, spec, seed, n_matches):
    mode = get_mode(slug)
    seats = parse_seats(spec)
    hand_rows, _ = mode.simulate(seed, np.arange(n_matches), seats)
    table = RiichiEngine(seats, mode.rules_class(), root_seed=seed, keep_events=True)
    pick = np.random.default_rng(3)
    checked = changed = alternatives = 0
    for match_id in range(n_matches):
        rows_m = hand_rows[hand_rows[:, H_MATCH] == match_id]
        for hand_no in range(1, int(rows_m[:, H_HAND].max()) + 1):
            ref = rows_m[rows_m[:, H_HAND] == hand_no]
            full = table.play_hand(match_id, hand_no)
            assert full is not None and full.over
            n = full.n_decisions
            for k in pick.choice(n, size=min(n, 4), replace=False):
                pos = table.at_decision(match_id, hand_no, int(k))
                assert pos is not None and pos.pending and pos.n_decisions == k
                probe = pos.copy()
                table.advance(probe, None, int(k) + 1)
                answer = probe.last_answer
                other = _turn_alternative(pos, answer)
                forced = pos.copy()
                out = table.resume(pos, answer)
                np.testing.assert_array_equal(out.hand_rows[:4], ref)
                np.testing.assert_array_equal(pos.logged(), full.logged())
                checked += 1
                if other is not None:
                    alternatives += 1
                    alt = table.resume(forced, other)
                    changed += int(not np.array_equal(alt.hand_rows[:4], ref))
    assert alternatives > 20 and changed > 0
    return checked


@pytest.mark.slow
def test_resume_at_pick_decisions_reproduces_the_run():
    """A: the pick among the candidates is a decision of its own (PH_PICK_ASK, D_PICK), picks of replacement
    draws included. Every replacement pick and every third other pick of real astrology runs (star-picker,
    baseline, random and majsoul-cpu seated), resumed with the policy's own pick: the hand's record rows equal the
    uninterrupted run's and its event log the hand played without stopping; another candidate forced instead is
    the one the seat draws (the pick's logged index), and it changes some hands."""
    slug, spec, seed, n_matches = "astrology", "star-picker,baseline,random,majsoul-cpu", 12, 14
    mode = get_mode(slug)
    seats = parse_seats(spec)
    hand_rows, _ = mode.simulate(seed, np.arange(n_matches), seats)
    table = RiichiEngine(seats, mode.rules_class(), root_seed=seed, keep_events=True)
    counts = {"checked": 0, "forced": 0, "changed": 0, "replacements": 0}
    for match_id in range(n_matches):
        rows_m = hand_rows[hand_rows[:, H_MATCH] == match_id]
        for hand_no in range(1, int(rows_m[:, H_HAND].max()) + 1):
            ref = rows_m[rows_m[:, H_HAND] == hand_no]
            full = table.play_hand(match_id, hand_no)
            pos = table.at_decision(match_id, hand_no, 0)
            picks = 0
            while pos is not None and pos.pending:
                if pos.decision == D_PICK:
                    replacement = bool(pos.view[ROBS.kan_draw])
                    if replacement or picks % 3 == 0:
                        _check_pick(table, pos.copy(), ref, full.logged(), counts)
                        counts["replacements"] += replacement
                    picks += 1
                if not table.advance(pos, None, pos.n_decisions + 1):
                    break
    assert counts["checked"] >= 150 and counts["forced"] >= 100 and counts["changed"] > 0
    assert counts["replacements"] > 0


def _check_pick(table, pos, ref, events, counts):
    """Resume a stopped pick with the policy's own answer (the run again) and with the next candidate."""
    probe = pos.copy()
    table.advance(probe, None, pos.n_decisions + 1)
    answer, seat = probe.last_answer, pos.seat
    other = (answer + 1) % int(pos.view[ROBS.astrology + A_N])
    alternative = pos.copy()
    out = table.resume(pos, answer)
    np.testing.assert_array_equal(out.hand_rows[:4], ref)
    np.testing.assert_array_equal(pos.logged(), events)
    counts["checked"] += 1
    if other != answer:
        before = int(alternative.ev[0])
        alt = table.resume(alternative, other)
        draw = next(r for r in alternative.logged()[before:] if r[2] == EV_DRAW)
        assert (draw[EV_SEAT], draw[EV_B]) == (seat, other + 1)  # the candidate picked, + 1
        counts["forced"] += 1
        counts["changed"] += int(not np.array_equal(alt.hand_rows[:4], ref))


def test_resume_to_match_end_matches_the_run():
    """Horizon match: resuming hand 2's first decision with the policy's answer gives the run's match rows."""
    mode = get_mode("riichi")
    seats = parse_seats("baseline,random,baseline,majsoul-cpu")
    hand_rows, match_rows = mode.simulate(9, np.arange(3), seats)
    table = RiichiEngine(seats, mode.rules_class(), root_seed=9)
    for match_id in range(3):
        pos = table.at_decision(match_id, 2, 0)
        if pos is None:
            continue
        out = table.resume(pos, None, horizon="match")
        np.testing.assert_array_equal(out.match_rows, match_rows[4 * match_id:4 * match_id + 4])
        later = hand_rows[(hand_rows[:, H_MATCH] == match_id) & (hand_rows[:, H_HAND] >= 2)]
        np.testing.assert_array_equal(out.hand_rows, later)


def test_keyed_streams_are_named_and_distinct():
    """Every keyed random stream has its own fixed number (sims.riichi.streams); the modes use those names."""
    from tsumolab.sims.riichi import dragon_eye_holder, fantasy_cards, streams

    numbers = list(streams.STREAMS.values())
    assert len(set(numbers)) == len(numbers)
    assert (streams.STREAM_WALL, streams.STREAM_DIRECTION, streams.STREAM_SEAT) == (0, 1, 2)
    assert (fantasy_cards.STREAM_FANTASY, dragon_eye_holder.STREAM_EYE) == (21, 41)


def _dark_decisions(table, match_id, hand_no):
    """The numbers of the open and lock decisions (D) of a hand played without stopping."""
    from tsumolab.sims.decisions import D_DARK_LOCK, D_DARK_OPEN

    full = table.play_hand(match_id, hand_no)
    if full is None:
        return None, []
    out = []
    for k in range(full.n_decisions):
        pos = table.at_decision(match_id, hand_no, k)
        if pos.decision in (D_DARK_OPEN, D_DARK_LOCK):
            out.append(k)
    return full, out


@pytest.mark.slow
def test_resume_at_darkness_open_and_lock_decisions_reproduces_the_run():
    """D: opening another seat's face-down tile and locking one's own opened tile are stopping points. Stopped at
    every such decision of `shadow-player` darkness hands and resumed with the policy's own answer, the hand's
    record rows equal the uninterrupted run's (play_matches) and its event log the hand played without stopping;
    the opposite answer forced instead is really used (the payments change)."""
    from tsumolab.sims.decisions import D_DARK_LOCK, D_DARK_OPEN, DARK_DECLINE, DARK_PAY

    seed, n_matches, spec = 4, 6, "shadow-player,shadow-player,baseline,shadow-player"
    mode = get_mode("darkness")
    seats = parse_seats(spec)
    hand_rows, _ = mode.simulate(seed, np.arange(n_matches), seats)
    table = RiichiEngine(seats, mode.rules_class(), root_seed=seed, keep_events=True)
    checked = {D_DARK_OPEN: 0, D_DARK_LOCK: 0}
    changed = 0
    for match_id in range(n_matches):
        rows_m = hand_rows[hand_rows[:, H_MATCH] == match_id]
        for hand_no in range(1, int(rows_m[:, H_HAND].max()) + 1):
            ref = rows_m[rows_m[:, H_HAND] == hand_no]
            full, ks = _dark_decisions(table, match_id, hand_no)
            for k in ks:
                pos = table.at_decision(match_id, hand_no, k)
                assert pos.pending and pos.view[ROBS.decision] == pos.decision
                probe = pos.copy()
                table.advance(probe, None, k + 1)
                answer = probe.last_answer
                forced = pos.copy()
                checked[pos.decision] += 1
                out = table.resume(pos, answer)
                np.testing.assert_array_equal(out.hand_rows[:4], ref)
                np.testing.assert_array_equal(pos.logged(), full.logged())
                other = DARK_DECLINE if answer == DARK_PAY else DARK_PAY
                table.resume(forced, other)
                changed += int(not np.array_equal(forced.logged(), full.logged()))
    assert checked[D_DARK_OPEN] >= 20 and checked[D_DARK_LOCK] >= 2, checked
    assert changed >= checked[D_DARK_OPEN] // 2


@pytest.mark.slow
def test_darkness_open_decisions_are_taken_at_once():
    """D: the other seats decide "at once": a seat asked whether to open a face-down tile sees the same question
    whether a seat asked before it answered to pay or to decline (the answers stay in the private hand state), and
    when both pay, the first in turn order after the discarder is the one who pays."""
    from tsumolab.sims.decisions import D_DARK_OPEN, DARK_DECLINE, DARK_PAY
    from tsumolab.sims.events import EV_PAY
    from tsumolab.sims.riichi.events import PAY_DARK_OPEN
    from tsumolab.sims.riichi.hand_state import HS

    mode = get_mode("darkness")
    table = RiichiEngine(parse_seats("shadow-player"), mode.rules_class(), root_seed=4, keep_events=True)
    pairs = 0
    for match_id in range(4):
        for hand_no in range(1, 9):
            full, ks = _dark_decisions(table, match_id, hand_no)
            if full is None:
                break
            for k in ks:
                first = table.at_decision(match_id, hand_no, k)
                second = table.at_decision(match_id, hand_no, k + 1)
                if first.decision != D_DARK_OPEN or second is None or second.decision != D_DARK_OPEN or \
                        first.hs[HS.dark_opener] >= 0:  # nobody before `first` offered to pay
                    continue
                views = []
                for answer in (DARK_PAY, DARK_DECLINE):
                    pos = first.copy()
                    assert table.advance(pos, answer, k + 1)
                    views.append(pos.view.copy())
                    if answer == DARK_PAY:
                        table.resume(pos, DARK_PAY)
                        rows = pos.logged()[first.logged().shape[0]:]
                        opens = rows[(rows[:, 2] == EV_PAY) & (rows[:, 6] == PAY_DARK_OPEN)]
                        assert opens[0, EV_SEAT] == first.seat
                np.testing.assert_array_equal(views[0], views[1])
                assert views[0][ROBS.tile] == -1 and views[0][ROBS.seat] == second.seat
                pairs += 1
    assert pairs >= 5
