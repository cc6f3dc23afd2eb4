"""The resumable Bloodshed kernel and the determinizer (issues 14 and 15).

- Consistency: a hand stopped at any decision and resumed with the answer the simulator gave reproduces
  the uninterrupted hand exactly (state block, event log, record row).
- Determinization: samples depend only on the seat's view (rearranging the hidden tiles changes
  nothing), keep every public count, respect the void consequence for winners (B-7, B-10), and are
  uniform over the consistent arrangements (chi-square on small hand-built positions).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from tsumolab.analyzer.advise.bloodshed_sampler import Sampler
from tsumolab.analyzer.advise.bloodshed_position import state_of
from tsumolab.policies.registry import parse_seats
from tsumolab.policies.api import BOBS, D_EXCHANGE, D_REACT, D_ROB, D_TURN, D_VOID
from tsumolab.sims.modes import get_mode
from tsumolab.sims.bloodshed.determinize import determinize, hidden_pool
from tsumolab.sims.bloodshed.engine import N_COUNTERS, next_dealer, start_hand, start_match
from tsumolab.sims.bloodshed.resume import pending_decision, pending_view, resume_hand, stop_at_decision
from tsumolab.sims.bloodshed.state import ST
from tsumolab.sims.events import EVENTS_PER_MATCH, N_EVENT_COLS
from tsumolab.sims.bloodshed.columns import HC, N_HAND_COLS

simulate = get_mode("bloodshed").simulate

SEATS = "baseline,majsoul-cpu,random,disconnected"
HOOK_INDEX = {D_EXCHANGE: 0, D_VOID: 1, D_TURN: 2, D_REACT: 3, D_ROB: 4}


class Run:
    """Hands of real matches, played whole and stopped at chosen decisions, with event logs."""

    def __init__(self, seats=SEATS, seed=11):
        self.sampler = Sampler(seats)
        self.seed = seed

    def buffers(self):
        return (np.zeros(N_COUNTERS, np.int64), np.zeros((EVENTS_PER_MATCH, N_EVENT_COLS), np.int32),
                np.zeros(3, np.int64))

    def hand_start(self, match_id, hand_no):
        """State at the start of hand `hand_no` of the match (None if the match ended before)."""
        S = np.zeros(ST.SIZE, np.int32)
        start_match(S)
        dealer = 0
        for h in range(1, hand_no):
            start_hand(S, self.seed, match_id, h, dealer)
            stop_at_decision(S, -1, *self.sampler.play_args(), *self.buffers())
            if S[ST.end] == 2:
                return None
            dealer = next_dealer(S)
        start_hand(S, self.seed, match_id, hand_no, dealer)
        return S

    def play(self, S, stop_at):
        counters, events, ev = self.buffers()
        stopped = stop_at_decision(S, stop_at, *self.sampler.play_args(), counters, events, ev)
        return stopped, events[:ev[0]].copy(), ev

    def simulator_answer(self, S):
        """What the pending seat's own hook answers (the hook runs on a copy; S is not changed)."""
        view = np.zeros(BOBS.SIZE, np.int32)
        pending_view(S, self.sampler.rules, self.sampler.tables, view)
        seat = int(S[ST.pend_seat])
        hook = self.sampler.hooks[HOOK_INDEX[int(pending_decision(S))]][seat]
        return int(hook(view, self.sampler.params[seat], self.sampler.tables)), seat


def _check_consistency(n_decisions: int, seed: int):
    run = Run(seed=seed)
    rng = np.random.default_rng(seed)
    checked = Counter()
    match_id = 0
    while sum(checked.values()) < n_decisions:
        match_id += 1
        hand_no = int(rng.integers(1, 5))
        S0 = run.hand_start(match_id, hand_no)
        if S0 is None:
            continue
        full = S0.copy()
        stopped, _, _ = run.play(full, -1)
        assert not stopped
        total = int(full[ST.n_decisions])
        rows, _ = simulate(seed, np.array([match_id]), parse_seats(SEATS))
        row_of = {int(r[HC["seat"]]): r for r in rows if r[HC["hand"]] == hand_no}
        for n in sorted(set(rng.integers(0, total, size=6).tolist())):
            S = S0.copy()
            stopped, _, ev = run.play(S, n)
            assert stopped and S[ST.pend_seat] >= 0
            kind = int(pending_decision(S))
            answer, seat = run.simulator_answer(S)
            counters, more, _ = run.buffers()
            resume_hand(S, seat, answer, *run.sampler.play_args(), counters, more, ev)
            assert counters[0] == 0  # no illegal answer
            same = np.ones(ST.SIZE, bool)
            same[ST.force_answer] = False
            assert np.array_equal(S[same], full[same]), (match_id, hand_no, n)
            rec = S[ST.rec:ST.rec + 4 * N_HAND_COLS].reshape(4, N_HAND_COLS)
            for s in range(4):
                for col in ("delta", "won", "win_order", "fan", "dealt_in", "passed_wins", "kans", "refund",
                            "discards", "hand_end", "wall_left"):
                    assert rec[s, HC[col]] == row_of[s][HC[col]], (match_id, hand_no, n, col)
            checked[kind] += 1
    return checked


def _resumed_events_match(run, S0, n):
    """The event log of stop + resume equals the uninterrupted hand's."""
    full = S0.copy()
    _, full_events, _ = run.play(full, -1)
    S = S0.copy()
    counters, events, ev = run.buffers()
    stop_at_decision(S, n, *run.sampler.play_args(), counters, events, ev)
    answer, seat = run.simulator_answer(S)
    resume_hand(S, seat, answer, *run.sampler.play_args(), counters, events, ev)
    return np.array_equal(events[:ev[0]], full_events)


def test_resume_reproduces_hands_fast():
    """Consistency, 300+ decisions sampled from real runs (the slow suite runs 1,500+)."""
    checked = _check_consistency(300, seed=5)
    assert sum(checked.values()) >= 300
    assert {D_EXCHANGE, D_VOID, D_TURN, D_REACT} <= set(checked)


@pytest.mark.slow
def test_resume_reproduces_hands_slow():
    """Consistency over 1,500+ decisions of real runs of every decision kind."""
    checked = _check_consistency(1500, seed=6)
    assert sum(checked.values()) >= 1500


@pytest.mark.slow
def test_resume_reproduces_event_log_for_every_decision_kind():
    run = Run(seed=3)
    seen = set()
    for match_id in range(1, 40):
        S0 = run.hand_start(match_id, 1)
        full = S0.copy()
        run.play(full, -1)
        total = int(full[ST.n_decisions])
        for n in range(0, total, 3):
            S = S0.copy()
            run.play(S, n)
            seen.add(int(pending_decision(S)))
            assert _resumed_events_match(run, S0, n), (match_id, n)
        if seen >= {D_EXCHANGE, D_VOID, D_TURN, D_REACT, D_ROB}:
            break
    assert {D_EXCHANGE, D_VOID, D_TURN, D_REACT} <= seen


# ----------------------------------------------------------------------------- determinization
def _stopped_states(count, seed=21, seats=SEATS):
    run = Run(seats, seed=seed)
    out = []
    rng = np.random.default_rng(seed)
    match_id = 0
    while len(out) < count:
        match_id += 1
        S0 = run.hand_start(match_id, 1)
        full = S0.copy()
        run.play(full, -1)
        n = int(rng.integers(0, int(full[ST.n_decisions])))
        S = S0.copy()
        run.play(S, n)
        out.append(S)
    return out


def _obs(S):
    return S[ST.obs:ST.obs + 4 * BOBS.SIZE].reshape(4, BOBS.SIZE)


def assert_view_kept(S, out, seat):
    """B-1: a determinization `out` of S keeps every hand's size and all the seat sees, and deals back exactly
    the hidden pool."""
    o, o0 = _obs(out), _obs(S)
    for p in range(4):
        assert o[p, BOBS.hand:BOBS.hand + 34].sum() == o0[p, BOBS.hand:BOBS.hand + 34].sum()
    own = np.ones(BOBS.SIZE, bool)
    own[BOBS.rng] = False
    assert np.array_equal(o[seat, own], o0[seat, own])
    hidden = sum(o[p, BOBS.hand:BOBS.hand + 27] for p in range(4) if p != seat) + np.bincount(
        out[ST.wall + out[ST.pos]:ST.wall + 108], minlength=27)
    assert np.array_equal(hidden, hidden_pool(S, seat))


def test_determinization_keeps_the_view_and_counts():
    """B-1: 108 tiles; each seat keeps its hand size; the deciding seat's row and all public fields stay."""
    for S in _stopped_states(60):
        seat = int(S[ST.pend_seat])
        out = np.empty_like(S)
        for k in range(5):
            assert determinize(S, seat, 9, k, out)
            assert_view_kept(S, out, seat)


def test_determinization_depends_only_on_the_view():
    """Rearranging the hidden tiles of the source state (consistently with the view) changes no sample."""
    for S in _stopped_states(30, seed=22):
        seat = int(S[ST.pend_seat])
        rearranged = np.empty_like(S)
        assert determinize(S, seat, 12345, 0, rearranged)
        rearranged[ST.force_seat] = S[ST.force_seat]
        a, b = np.empty_like(S), np.empty_like(S)
        for k in range(4):
            determinize(S, seat, 7, k, a)
            determinize(rearranged, seat, 7, k, b)
            assert np.array_equal(a, b)


def _chi_square_p(observed, expected):
    """Upper-tail p-value of Pearson's statistic (Wilson-Hilferty approximation)."""
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected))
    df = len(observed) - 1
    z = ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def tiny_position(hidden, winner_void=None):
    """A react decision late in a hand where 5 tiles are hidden: seats 1 and 2 hold 1 tile each, seat 3
    holds 2 (a tsumo winner when winner_void is given, void suit winner_void) and the wall 1.
    Every seat has four pons; all other copies lie in the rivers."""
    pons = {s: list(range(4 * s, 4 * s + 4)) for s in range(4)}
    own = 20  # 3s
    counts = np.full(27, 4)
    for s in pons:
        counts[pons[s]] -= 3
    counts[own] -= 1
    for k in hidden:
        counts[k] -= 1
    rivers = [""] * 4
    for k in range(27):
        rivers[k % 3] += "".join(f"{k % 9 + 1}{'mps'[k // 9]}" for _ in range(counts[k]))
    # the discard under reaction: seat 1's last discard (1 of its river tiles)
    tile = next(k for k in range(27) if counts[k] > 0 and k % 3 == 1)
    name = f"{tile % 9 + 1}{'mps'[tile // 9]}"
    position = {
        "seat": 0, "hand_no": 2, "dealer": 1, "points": [50000] * 4, "wall": 1, "hand": "3s",
        "melds": [[f"pon {k % 9 + 1}{'mps'[k // 9]}" for k in pons[s]] for s in range(4)],
        "rivers": rivers, "voids": ["s", "s", "s", winner_void or "s"],
        "winners": [{"seat": 3, "kind": "tsumo"}] if winner_void else [],
        "decision": {"kind": "react", "tile": name, "from": 1},
        "hand_sizes": [1, 1, 1, 2],
    }
    return position


def _arrangement(out):
    o = _obs(out)
    hands = tuple(tuple(np.repeat(np.arange(27), o[p, BOBS.hand:BOBS.hand + 27]).tolist()) for p in (1, 2, 3))
    return hands + (int(out[ST.wall + 107]),)


@pytest.mark.parametrize("winner_void", [None, "m"])
def test_determinization_is_uniform_chi_square(winner_void):
    """Samples are uniform over the arrangements of the hidden copies consistent with the view; with a
    tsumo winner of void m, exactly those giving it no m tile (B-7, B-10)."""
    hidden = [0, 1, 16, 16, 17]  # 1m 2m 8p 8p 9p
    S, seat = state_of(tiny_position(hidden, winner_void))
    expected = Counter()
    for perm in itertools.permutations(range(5)):
        copies = [hidden[i] for i in perm]
        key = ((copies[0],), (copies[1],), tuple(sorted(copies[2:4])), copies[4])
        if winner_void == "m" and min(key[2]) < 9:
            continue
        expected[key] += 1
    n = 6000
    out = np.empty_like(S)
    seen = Counter()
    for k in range(n):
        assert determinize(S, seat, 99, k, out)
        seen[_arrangement(out)] += 1
    assert set(seen) <= set(expected)  # never an inconsistent arrangement
    total = sum(expected.values())
    keys = sorted(expected)
    p = _chi_square_p([seen[k] for k in keys], [n * expected[k] / total for k in keys])
    assert p > 0.001, p


# --------------------------------------------------------------------------- scripted Bloodshed hands
def _scripted_wall(hands: dict, draws: list, seed: int = 0) -> np.ndarray:
    """A 108-tile Bloodshed wall of kinds (0..26): hands[seat] (13 kinds, seat 0 dealt first) then `draws`
    from position 52, the unused tiles after them in a fixed random order."""
    free = Counter({k: 4 for k in range(27)})
    wall = []
    for seat in range(4):
        assert len(hands[seat]) == 13
        wall += hands[seat]
    wall += draws
    free.subtract(wall)
    assert min(free.values()) >= 0, free
    rest = [k for k in range(27) for _ in range(free[k])]
    return np.array(wall + list(np.random.default_rng(seed).permutation(rest)), np.int32)


def _play_scripted(S, sampler, choose, until=None):
    """Play the hand in S deciding by `choose(decision, seat, view)` (None: the seat's own hook answers); stop
    before the first decision for which `until(decision, seat)` is true (returns True) or at the hand's end.
    The exchange and void phases ask all four seats at once, and the kernel keeps one forced answer: there at
    most one seat's answer may be forced (the scripted tests let the seats' own B-24 hooks answer)."""
    counters, events, ev = np.zeros(N_COUNTERS, np.int64), np.zeros((2000, N_EVENT_COLS), np.int32), \
        np.zeros(3, np.int64)
    view = np.zeros(BOBS.SIZE, np.int32)
    n = int(S[ST.n_decisions])
    while stop_at_decision(S, n, *sampler.play_args(), counters, events, ev):
        decision, seat = int(pending_decision(S)), int(S[ST.pend_seat])
        if until is not None and until(decision, seat):
            return True
        pending_view(S, sampler.rules, sampler.tables, view)
        answer = choose(decision, seat, view)
        S[ST.pend_seat] = -1
        if answer is not None:
            S[ST.force_seat] = seat
            S[ST.force_answer] = answer
        n += 1
    assert counters[0] == 0  # no illegal answer
    return False


def test_rule_b12_b14_scripted_ron_then_play_goes_on_and_closed_kan_pays_2000(tile_kinds):
    """B-6, B-7, B-12, B-14, B-19, a scripted hand (exchange to the next player; `disconnected` seats, whose
    exchange and void follow B-24): the dealer passes 112p to seat 1 and gets 456p from seat 3; seat 1 passes its
    three sou and, void in sou, waits on 1p / 4p with 123456789m 11p 23p. The dealer discards 4p: seat 1 rons,
    a plain 底和 of 1 fan = 1000 (B-19). Play goes on with seat 2, the next player after the winner (B-12): it
    draws the fourth 7p and makes a closed kan; the two other players still in the hand pay it 2000 each, the
    winner nothing (B-14). Points before seat 2's next decision: 47000, 51000, 54000, 48000."""
    from tsumolab.sims.bloodshed.state import obs_of
    from tsumolab.sims.decisions import KAN, RON

    hands = {0: tile_kinds("112p2345678m999m"), 1: tile_kinds("123456789m3p123s"),
             2: tile_kinds("777889p6789s567m"), 3: tile_kinds("456p1122334455s")}
    sampler = Sampler("disconnected")
    S = np.zeros(ST.SIZE, np.int32)
    start_match(S)
    start_hand(S, 0, 0, 1, 0)
    S[ST.wall:ST.wall + 108] = _scripted_wall(hands, tile_kinds("1m7p"))
    S[ST.direction] = 0
    seen = {}

    def choose(decision, seat, view):
        if decision == D_TURN and seat == 0:
            seen["voids"] = [int(view[BOBS.void + s]) for s in range(4)]
            seen["dealer"] = [k for k in range(27) for _ in range(view[BOBS.hand + k])]
            return 12  # 4p
        if decision == D_REACT and seat == 1:
            return RON
        if decision == D_TURN and seat == 2:
            seen["kan"] = True
            return KAN + 15  # the closed kan of 7p
        return None

    # stop at seat 2's decision after its kan's replacement draw
    assert _play_scripted(S, sampler, choose, until=lambda decision, seat: seat == 2 and "kan" in seen)
    assert seen["dealer"] == sorted(tile_kinds("2345678m999m1m456p"))
    assert seen["voids"] == [2, 2, 0, 1]  # sou, sou, man, pin (B-7: the suit each holds none of)
    assert obs_of(S)[0, BOBS.points:BOBS.points + 4].tolist() == [47_000, 51_000, 54_000, 48_000]
