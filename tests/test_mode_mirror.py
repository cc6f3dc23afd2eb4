"""`mirror` 明镜之战 (RULES.md M, on the R rules): 3 transparent copies of every kind (public in hands and wall),
1 normal; no red fives; no renchan; head bump on multiple ron (option `head_bump`).

The riichi-core invariants (R-1 … R-4) over ≥ 10,000 hands (100,000 in the slow test), plus the mode's own: the
public block obs[ROBS.mirror] equals the true locations of the transparent tiles replayed from the wall and the
event log at every decision of a seat, and never locates a normal copy; head bump against the same walls
without it.
"""

from collections import defaultdict

import numpy as np
import polars as pl
import pytest

from tsumolab.policies.api import compiled_hook, hook
from tsumolab.policies.registry import parse_seats
from tsumolab.policies.riichi_api import RIICHI, ROBS
from tsumolab.policies.riichi_baseline import riichi_turn
from tsumolab.sims import tiles as TL
from tsumolab.sims.events import EV_DEAL, EV_DISCARD, EV_DRAW, EV_KAN, EV_PON, EV_START, N_EVENT_COLS
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi.bundles import PlayLog, RuleArrays, Seating
from tsumolab.sims.riichi.columns import N_HAND_COLS, N_MATCH_COLS
from tsumolab.sims.riichi.events import EV_CHI, EV_DORA
from tsumolab.sims.riichi.mirror_tiles import (
    MIR_DEAD, MIR_HAND, MIR_NEXT, MIR_SIZE, MIR_WALL, N_DEAD, N_NEXT, transparent,
)
from tsumolab.sims.shanten_tables import lookup_tables
from tsumolab.sims.riichi.rules import STANDARD, MirrorRules
from tsumolab.sims.riichi.tableau import DEAD_START
from tsumolab.sims.seating import seat_hooks
from tests.riichi_runs import FAST_MATCHES, FULL_MATCHES, per_hand, run

SLUG = "mirror"
SIZES = [pytest.param(FAST_MATCHES, id="fast"), pytest.param(FULL_MATCHES, id="full", marks=pytest.mark.slow)]


def test_rule_m_rules_are_table_options():
    """M: mirror and head bump on, no red fives, no renchan, 25000 start; the standard table leaves them off."""
    rules = get_mode(SLUG).rules_class()
    assert isinstance(rules, MirrorRules)
    assert rules.mirror and rules.head_bump and not rules.red_fives and not rules.renchan
    assert rules.start_points == 25_000
    assert not STANDARD.mirror and not STANDARD.head_bump and STANDARD.red_fives


def test_rule_m_three_transparent_copies_per_kind():
    """M: of the 4 copies of each of the 34 kinds exactly 3 are transparent."""
    per_kind = defaultdict(int)
    for tid in range(136):
        per_kind[tid // 4] += bool(transparent(tid))
    assert len(per_kind) == 34 and set(per_kind.values()) == {3}


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.slow
def test_rule_m_riichi_core_invariants(n, riichi_checks):
    """M keeps R-1 (136 tiles, legal answers), R-2 (points + sticks conserved), R-3 (no yakuless win, values
    recomputable, at most 3 ron) and R-4 (situational yaku) over ≥10,000 hands (100,000 slow)."""
    riichi_checks.riichi_core_invariants(SLUG, n)


def test_rule_m_r4_no_furiten_ron(riichi_checks):
    """R-4 under M: no ron in furiten."""
    riichi_checks.r4_no_furiten_ron_in_the_event_log(SLUG)


def test_rule_m_no_red_fives():
    """M: no red fives: no discard is a red five and no win counts one (the red flag appears in `riichi`)."""
    seats = parse_seats("baseline,random,baseline,majsoul-cpu")
    red = {}
    for slug in (SLUG, "riichi"):
        _, _, events = get_mode(slug).simulate_events(4, np.arange(300), seats)
        discards = events[events[:, 2] == EV_DISCARD]
        red[slug] = int(discards[:, 7].sum())
    assert red[SLUG] == 0 and red["riichi"] > 0
    assert not MirrorRules().scoring().red_fives  # the scorer counts no aka dora either


@pytest.mark.parametrize("n", SIZES)
def test_rule_m_no_renchan(n):
    """M: the deal passes after every hand that is not an abortive draw."""
    for spec, _, hands, _ in run(SLUG, n):
        h = per_hand(hands).with_columns(pl.col("dealer_seat").shift(-1).over("match_id").alias("next_dealer"))
        ended = h.filter(pl.col("next_dealer").is_not_null() & pl.col("hand_end").is_in(["win", "exhaustive"]))
        assert ended.height > 0, spec
        assert (ended["next_dealer"] == (ended["dealer_seat"] + 1) % 4).all(), spec


# ---------------------------------------------------------------------------- the public block vs the truth
@hook
def _probe_turn(obs, params, tables):
    """Baseline's turn without riichi (so the seat is asked at every turn); accumulates two checksums of the
    mirror block in params[0], params[2], counts the calls in params[1] and block errors seen from inside in
    params[3] (a kind located more than 3 times, or own transparent copies above the copies held)."""
    c1 = 0.0
    c2 = 0.0
    for i in range(MIR_SIZE):
        v = obs[ROBS.mirror + i] + 2
        c1 += (i + 1) * v
        c2 += (i + 1) * (i + 1) * v
    params[0] += c1
    params[1] += 1.0
    params[2] += c2
    me = obs[ROBS.seat]
    located = np.zeros(34, np.int64)
    for k in range(34):
        for p in range(4):
            located[k] += obs[ROBS.mirror + MIR_HAND + 34 * p + k]
        located[k] += obs[ROBS.mirror + MIR_WALL + k]
        if obs[ROBS.mirror + MIR_HAND + 34 * me + k] > obs[ROBS.hand + k]:
            params[3] += 1.0
    for i in range(obs[ROBS.wall_left], N_NEXT):
        if obs[ROBS.mirror + MIR_NEXT + i] >= 0:
            located[obs[ROBS.mirror + MIR_NEXT + i]] += 1
    for i in range(N_DEAD):
        if obs[ROBS.mirror + MIR_DEAD + i] >= 0:
            located[obs[ROBS.mirror + MIR_DEAD + i]] += 1
    for k in range(34):
        if located[k] > 3:
            params[3] += 1.0
    action = riichi_turn(obs, tables, True, True)
    if RIICHI <= action < RIICHI + 34:
        return action - RIICHI
    return action


def _truth_block(hands, wall, pos, live_end, rinshan, n_dora):
    block = np.zeros(MIR_SIZE, np.int64)
    for seat in range(4):
        for tid in hands[seat]:
            if transparent(tid):
                block[MIR_HAND + 34 * seat + tid // 4] += 1
    for p in range(pos, live_end):
        if transparent(wall[p]):
            block[MIR_WALL + wall[p] // 4] += 1
    for i in range(N_NEXT):
        p = pos + i
        block[MIR_NEXT + i] = wall[p] // 4 if p < DEAD_START and transparent(wall[p]) else -1
    for i in range(N_DEAD):
        tid = wall[DEAD_START + i]
        face_down = (i >= 4 or i >= rinshan) and not (i >= 4 and (i - 4) % 2 == 0 and (i - 4) // 2 < n_dora)
        block[MIR_DEAD + i] = tid // 4 if transparent(tid) and face_down else -1
    return block


def _lose(hand, kind, copies):
    """The engine's rule: transparent copies leave first (the normal copy stays hidden)."""
    for _ in range(copies):
        ids = sorted((t for t in hand if t // 4 == kind), key=lambda t: not transparent(t))
        hand.remove(ids[0])


def _replayed_checksums(events, root_seed):
    """Per seat: the sums of both checksums of the true block at each of the seat's turns, and the turn count."""
    weights1 = np.arange(1, MIR_SIZE + 1, dtype=np.float64)
    weights2 = weights1 ** 2
    sums = np.zeros((4, 3))
    wall = np.empty(136, np.int64)
    pending = None
    state = {}

    def flush():
        nonlocal pending
        if pending is not None:
            block = _truth_block(state["hands"], wall, state["pos"], state["live_end"], state["rinshan"],
                                 state["n_dora"]) + 2
            sums[pending] += (weights1 @ block, 1.0, weights2 @ block)
            pending = None

    for match_id, hand_no, kind, seat, tile, a, b, c in events.tolist():
        if kind != EV_DORA:
            flush()
        if kind == EV_START:
            engine.shuffled_wall(root_seed, match_id, hand_no, wall)
            state = {"hands": [[], [], [], []], "pos": 0, "live_end": DEAD_START, "rinshan": 0, "n_dora": 0}
        elif kind == EV_DEAL:
            assert wall[state["pos"]] // 4 == tile
            state["hands"][seat].append(int(wall[state["pos"]]))
            state["pos"] += 1
        elif kind == EV_DRAW:
            if a == 0:
                at = state["pos"]
                state["pos"] += 1
            else:
                at = DEAD_START + state["rinshan"]
                state["rinshan"] += 1
                state["live_end"] -= 1
            assert wall[at] // 4 == tile
            state["hands"][seat].append(int(wall[at]))
            pending = seat
        elif kind == EV_DORA:
            state["n_dora"] = a
        elif kind == EV_DISCARD:
            _lose(state["hands"][seat], tile, 1)
        elif kind == EV_PON:
            _lose(state["hands"][seat], tile, 2)
            pending = seat
        elif kind == EV_CHI:
            for k in range(tile, tile + 3):
                if k != a:
                    _lose(state["hands"][seat], k, 1)
            pending = seat
        elif kind == EV_KAN:
            _lose(state["hands"][seat], tile, {TL.MINKAN: 3, TL.ANKAN: 4, TL.KAKAN: 1}[a])
    flush()
    return sums


def test_rule_m_obs_block_is_the_true_location_of_transparent_tiles():
    """M: at every turn of every seat, obs[ROBS.mirror] (transparent tiles per seat's hand, per kind in the live
    wall, the kinds of the next wall positions and of the face-down dead wall) equals the truth replayed from the
    keyed wall and the event log (deal, draws, replacement draws, discards, chi, pon, kans, indicators); from
    inside, no kind is ever located more than 3 times (the normal copy never shows)."""
    rules = MirrorRules()
    root_seed = 21
    match_ids = np.arange(40, dtype=np.int64)
    seats = parse_seats("baseline,majsoul-cpu,baseline,majsoul-cpu")
    hooks, params = seat_hooks(seats, "riichi")
    hooks = list(hooks)
    hooks[1] = (compiled_hook(_probe_turn),) * 4
    events = np.zeros((4000 * match_ids.size, N_EVENT_COLS), np.int32)
    hand_rows = np.zeros((4 * 32 * match_ids.size, N_HAND_COLS), np.int32)
    match_rows = np.zeros((4 * match_ids.size, N_MATCH_COLS), np.int32)
    counters = np.zeros(engine.N_COUNTERS, np.int64)
    engine.play_matches(root_seed, match_ids, Seating.of(hooks, params), RuleArrays.of(rules), hand_rows,
                        match_rows, PlayLog(counters, events))
    events = events[:counters[engine.CNT_EVENTS]]
    assert counters[engine.CNT_ILLEGAL] == 0 and counters[engine.CNT_TILE_ERRORS] == 0
    kinds = set(events[:, 2].tolist())
    assert {EV_PON, EV_CHI, EV_KAN} <= kinds
    expected = _replayed_checksums(events, root_seed)
    assert (params[:, 3] == 0).all()
    assert (params[:, 1] == expected[:, 1]).all() and params[:, 1].min() > 200
    assert (params[:, 0] == expected[:, 0]).all()
    assert (params[:, 2] == expected[:, 2]).all()


def test_rule_m_block_is_public_and_zero_in_other_modes():
    """M: the block is the same in every seat's row (public); `riichi` leaves it all zero."""
    from tsumolab.sims.riichi.mirror_tiles import mirror_gain

    obs = np.zeros((4, ROBS.SIZE), np.int32)
    mirror_gain(obs, 2, 4 * 7 + 1)
    mirror_gain(obs, 2, 4 * 7 + 0)  # the normal copy: not shown
    assert (obs[:, ROBS.mirror + MIR_HAND + 34 * 2 + 7] == 1).all()
    assert obs[:, ROBS.mirror:ROBS.mirror + MIR_SIZE].sum() == 4


# ---------------------------------------------------------------------------- head bump
def _hand_outcomes(hands):
    out = {}
    for (m, h), g in hands.group_by(["match_id", "hand"]):
        winners = sorted(g.filter(pl.col("won"))["seat"].to_list())
        dealt = g.filter(pl.col("dealt_in") > 0)["seat"].to_list()
        out[(m, h)] = (winners, dealt[0] if dealt else None)
    return out


@pytest.mark.slow  # the fast suite has this rule's scripted hand
def test_rule_m_head_bump_first_claimant_after_the_discarder_wins():
    """M head bump: on the same walls and policies, every hand that had several ron winners without head bump has
    exactly one winner with it: the claimant first in turn order after the discarder (play is identical up to
    that hand). Without head bump up to three win on one discard."""
    from tsumolab.analyzer.tables import hand_table

    mode = get_mode(SLUG)
    seats = parse_seats("baseline")
    tables = {}
    for bump in (True, False):
        hand_rows, _ = mode.simulate(5, np.arange(2500), seats, rules=MirrorRules(head_bump=bump))
        tables[bump] = _hand_outcomes(hand_table(hand_rows, seats, mode))
    multi = 0
    firsts = defaultdict(lambda: None)
    for (m, h), (winners, discarder) in sorted(tables[False].items()):
        if firsts[m] is not None:
            continue  # the matches diverge after their first multiple ron
        assert len(winners) <= 3
        if len(winners) >= 2:
            firsts[m] = h
            multi += 1
            first = min(winners, key=lambda s: (s - discarder) % 4)
            assert tables[True][(m, h)] == ([first], discarder), (m, h)
    assert multi >= 5
    assert all(len(w) <= 1 for w, _ in tables[True].values())


# ---------------------------------------------------------------------------- the policy's reading
def test_rule_m_mirror_reader_rules_out_waits_from_visible_holdings():
    """mirror-reader: against a riichi seat whose concealed tiles are all transparent, exactly its waits are
    dangerous; with one hidden tile, a kind no pair or run can reach from its holdings is safe."""
    from tsumolab.policies.mirror_reader import mirror_safety, possible_wait, unlocated_normal

    tables = lookup_tables()
    obs = np.zeros(ROBS.SIZE, np.int32)
    obs[ROBS.seat] = 0
    obs[ROBS.riichi + 1] = 1
    # seat 1: 123m 456m 789p 11s 34s, all transparent → waits 2s 5s
    held = [0, 1, 2, 3, 4, 5, 15, 16, 17, 18, 18, 20, 21]
    for k in held:
        obs[ROBS.mirror + MIR_HAND + 34 * 1 + k] += 1
    obs[ROBS.hand + 30] = 1
    obs[ROBS.wall_left] = 30
    normal = unlocated_normal(obs)
    mask = 1 << 1
    safe = [k for k in range(34) if mirror_safety(obs, k, mask, normal, tables) == 3]
    assert 19 not in safe and 22 not in safe
    assert 8 in safe and 33 in safe and 27 in safe
    # one tile hidden: drop the 1s pair's second copy from view → 1s (pair) and 2s/5s may be waits; 9p is not
    obs[ROBS.mirror + MIR_HAND + 34 * 1 + 18] -= 1
    normal = unlocated_normal(obs)
    assert possible_wait(obs, 1, 18, normal, 1) and possible_wait(obs, 1, 19, normal, 1)
    assert possible_wait(obs, 1, 33, normal, 1)  # the hidden tile may be the normal white dragon (tanki)
    obs[ROBS.seen + 33] = 1  # ... unless that normal copy is located elsewhere
    obs[ROBS.mirror + MIR_WALL + 33] = 3
    normal = unlocated_normal(obs)
    assert not possible_wait(obs, 1, 33, normal, 1)
    assert mirror_safety(obs, 33, mask, normal, tables) == 3
    assert obs[ROBS.n_melds + 1] == 0


@pytest.mark.parametrize("head_bump", [True, False])
def test_rule_m_scripted_double_ron_head_bump(head_bump, build_wall, default_answer, events_of):
    """M head bump, a scripted hand: the dealer's 4p completes seat 1 (23p) and seat 2 (56p), both with tanyao +
    pinfu, 2 han 30 fu = 2000 each (R-3; no red fives in mirror). With head bump (the default) only seat 1, first
    after the discarder, wins: the dealer pays 2000. Without it both win: the dealer pays 4000."""
    from tsumolab.policies.riichi_api import D_REACT, RON
    from tsumolab.sims.events import EV_WIN
    from tsumolab.sims.riichi.columns import H_DELTA
    from tsumolab.sims.riichi.positions import RiichiEngine

    hands = {0: "4p11z22z33z44z567z9m", 1: "23p234m678m678s22s", 2: "56p234s678p345m88m", 3: "23p456m345s678m77p"}
    wall = build_wall(hands, "9s", at={126: 31})  # dora indicator 5z: dora 6z, held by no winner
    table = RiichiEngine(parse_seats("baseline"), MirrorRules(head_bump=head_bump), keep_events=True)
    pos = table.start(wall=wall)

    def choose(pos):
        if pos.decision == D_REACT and pos.seat in (1, 2) and pos.view[ROBS.can_win]:
            return RON
        if pos.decision == D_REACT:
            return default_answer(pos)
        return 12 if pos.seat == 0 and pos.view[ROBS.hand + 12] else default_answer(pos)

    table.play_scripted(pos, choose)
    winners = sorted(events_of(pos, EV_WIN)[:, 3].tolist())
    assert winners == ([1] if head_bump else [1, 2])
    assert pos.rec[:, H_DELTA].tolist() == ([-2000, 2000, 0, 0] if head_bump else [-4000, 2000, 2000, 0])
