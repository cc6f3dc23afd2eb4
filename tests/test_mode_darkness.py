"""`darkness` 暗夜之战 (RULES.md D, on the R rules): face-down discards for 1000, opening for 2000, locking for
4000, and the pot.

Invariants of the riichi core (R-1 … R-4, tests/test_riichi_engine.check_riichi_core) over ≥ 10,000 hands
(100,000 in the slow test), the same invariants with `shadow-player` seats (which do discard face down, open and
lock) with points + sticks + pot conserved, and the mode's own rules recomputed from the event log: every
payment into the pot and out of it, who opens when several would, the thresholds, no call / ron / furiten on a
face-down tile, nagashi mangan on face-up discards only, the pot at match end.
"""

from collections import defaultdict

import numpy as np
import polars as pl
import pytest

from tsumolab.analyzer.tables import hand_table, match_table
from tsumolab.policies.registry import parse_seats
from tsumolab.sims import tiles
from tsumolab.sims.events import EV_DISCARD, EV_END, EV_KAN, EV_PAY, EV_PON, EV_START, EV_WIN
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi.columns import HAND_ENDS, HC
from tsumolab.sims.riichi.events import (
    EV_CHI, EV_RIICHI, PAY_DARK_LOCK, PAY_DARK_OPEN, PAY_FACE_DOWN, PAY_NAGASHI, PAY_POT,
)
from tsumolab.sims.riichi.rules import START_POINTS, STANDARD, DarknessRules
from tests.darkness_policies import register_test_policies
from tests.riichi_runs import FAST_MATCHES, FULL_MATCHES, per_hand

SLUG = "darkness"
# shadow-player variants that use the dark actions often (its defaults are sparing)
OPENER = "shadow-player(reserve=0,open_factor=100,hide_danger=2,hide_riichi=1,hide_tenpai=2)"
HIDER = "shadow-player(reserve=0,hide_danger=2,hide_riichi=1)"
SHADOW_MIXES = (
    "shadow-player(hide_danger=2,hide_riichi=1,hide_tenpai=2)",
    "shadow-player,baseline,shadow-player(open_factor=50),random",
    f"baseline,{OPENER},majsoul-cpu,{HIDER}",
)
SHADOW_FULL = 7_000  # per mix: ≈ 5 hands per match → > 100,000 hands


def _sizes():
    return [pytest.param(FAST_MATCHES, id="fast"), pytest.param(FULL_MATCHES, id="full", marks=pytest.mark.slow)]


def _shadow_sizes():
    return [pytest.param(FAST_MATCHES, id="fast"), pytest.param(SHADOW_FULL, id="full", marks=pytest.mark.slow)]


_RUNS = {}


def _shadow_run(n):
    """[(spec, counters, hands, matches)] for the seat mixes with shadow-player seats."""
    if n not in _RUNS:
        mode = get_mode(SLUG)
        out = []
        for i, spec in enumerate(SHADOW_MIXES):
            seats = parse_seats(spec)
            counters = np.zeros(engine.N_COUNTERS, np.int64)
            hand_rows, match_rows = mode.simulate(21 + i, np.arange(n), seats, counters=counters)
            hands = hand_table(hand_rows, seats, mode).sort(["match_id", "hand", "seat"])
            matches = match_table(match_rows, seats, mode).sort(["match_id", "seat"])
            out.append((spec, counters, hands, matches))
        _RUNS[n] = out
    return _RUNS[n]


def test_rule_d_rules_are_table_options():
    """D on R: darkness on, renchan as R-2, 25000 start; the standard table leaves it off."""
    rules = get_mode(SLUG).rules_class()
    assert isinstance(rules, DarknessRules) and rules.darkness and rules.renchan
    assert rules.start_points == START_POINTS
    assert not STANDARD.darkness
    from tsumolab.sims.riichi import darkness_pot as dp

    assert dp.CNT_ILLEGAL == engine.CNT_ILLEGAL
    assert (dp.FACE_DOWN_COST, dp.FACE_DOWN_RIICHI_MIN, dp.OPEN_COST, dp.LOCK_COST) == (1000, 2000, 2000, 4000)


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.slow
def test_rule_d_riichi_core_invariants(n, riichi_checks):
    """R-1 … R-4 in darkness with the standard seat mixes (built-ins never pay: the pot stays empty)."""
    riichi_checks.riichi_core_invariants(SLUG, n)


@pytest.mark.parametrize("n", _shadow_sizes())
@pytest.mark.slow
def test_rule_d_core_invariants_with_dark_actions_points_sticks_pot_conserved(n, win_value):
    """R-1 … R-3 + D with shadow-player seats: ≥ 10,000 (100,000) hands, 136 tiles, legal answers; in every hand
    Σ delta + 1000 × Δsticks + Δpot = 0, the pot carries over hands, and every match ends with 4 × 25000 points
    (the pot and sticks left go to first place); wins have a yaku and their R-3 value; the dark actions happen."""
    out = _shadow_run(n)
    assert sum(int(c[engine.CNT_HANDS]) for _, c, _, _ in out) >= (100_000 if n == SHADOW_FULL else 10_000)
    totals = defaultdict(int)
    for spec, counters, hands, matches in out:
        assert counters[engine.CNT_TILE_ERRORS] == 0, spec
        assert counters[engine.CNT_ILLEGAL] == 0, spec
        h = hands.group_by(["match_id", "hand"], maintain_order=True).agg(
            pl.col("delta").sum().alias("delta_sum"), pl.col("sticks_before").first().cast(pl.Int64),
            pl.col("sticks_after").first().cast(pl.Int64), pl.col("pot_before").first().cast(pl.Int64),
            pl.col("pot_after").first().cast(pl.Int64), pl.col("dark_paid").sum().alias("paid"),
            pl.col("pot_won").sum().alias("won_pot"), pl.col("won").sum().alias("n_won"))
        assert (h["delta_sum"] + 1000 * (h["sticks_after"] - h["sticks_before"]) + h["pot_after"] - h["pot_before"]
                == 0).all(), spec
        assert (h["pot_after"] == h["pot_before"] + h["paid"] - h["won_pot"]).all(), spec
        carried = h.with_columns(pl.col("pot_after").shift(1).over("match_id").alias("prev"))
        nxt = carried.filter(pl.col("prev").is_not_null())
        assert (nxt["pot_before"] == nxt["prev"]).all(), spec
        assert (h.filter(pl.col("n_won") > 0)["pot_after"] == 0).all(), spec  # D: the winner takes the pot
        assert (matches.group_by("match_id").agg(pl.col("final_points").sum())["final_points"]
                == 4 * START_POINTS).all(), spec
        wins = hands.filter(pl.col("won"))
        assert (wins["yaku"].str.len_chars() > 0).all() and (wins["han"] > wins["dora"]).all(), spec
        for han, fu, yakuman, dealer, kind, value in wins.select("han", "fu", "yakuman", "dealer", "win_kind",
                                                                  "value").iter_rows():
            assert win_value(han, fu, yakuman, dealer, kind == "tsumo")[0] == value, spec
        per = per_hand(hands)
        assert (per["n_won"] == per["winners"]).all() and (per["n_won"] <= 3).all(), spec
        for col in ("face_down", "dark_opens", "dark_locks", "pot_won"):
            totals[col] += int(hands[col].sum())
    assert totals["face_down"] > 1000 and totals["dark_opens"] > 20 and totals["dark_locks"] > 5
    assert totals["pot_won"] > 0


def _replay(hand_rows, match_rows, events):
    """Walk the event log of darkness matches and check D: returns counts of what was seen.

    Tracks points from `points_before` and every EV_PAY, and the pot from the dark payments; checks each
    payment's amount, payer and threshold, the pot's winner, and that a tile still face down is never called
    or ronned."""
    before = {(int(r[HC["match_id"]]), int(r[HC["hand"]]), int(r[HC["seat"]])): r for r in hand_rows}
    seen = defaultdict(int)
    pot = 0
    state = None
    prev = None
    for m, h, kind, seat, tile, a, b, c in events.tolist():
        last_event, prev = prev, (kind, seat)
        if kind == EV_START:
            row = [before[m, h, s] for s in range(4)]
            pts = [int(r[HC["points_before"]]) for r in row]
            pot = int(row[0][HC["pot_before"]])
            state = {"last": None, "hidden": False, "discarder": -1, "riichi_tile": False, "opened": False,
                     "ron_seats": [], "pot_taker": None}
            continue
        if kind == EV_DISCARD:
            state.update(last="discard", hidden=False, discarder=seat, tile=tile, riichi_tile=b == 1, opened=False,
                         ron_seats=[], pot_taker=None, face_down=False)
            state["pts_at_discard"] = list(pts)
        elif kind == EV_KAN:
            state["last"] = "kan"
            if a == tiles.MINKAN and b >= 0 and state["hidden"]:
                raise AssertionError("open kan on a face-down tile")
        elif kind == EV_PON and state["hidden"]:
            raise AssertionError("pon on a face-down tile")
        elif kind == EV_CHI and state["hidden"]:
            raise AssertionError("chi on a face-down tile")
        elif kind == EV_WIN and c == engine.WIN_RON and state["last"] == "discard":
            assert not state["hidden"], "ron on a face-down tile"
            state["ron_seats"].append(seat)
            seen["rons"] += 1
            if state["opened"]:
                seen["rons_on_opened"] += 1
        elif kind == EV_PAY:
            if b == PAY_FACE_DOWN:
                assert state["last"] == "discard" and seat == state["discarder"] and c == state["tile"]
                assert a == 1000 and tile == -1
                need = 2000 if state["riichi_tile"] else 1000  # D: riichi with a face-down tile needs 2000
                assert pts[seat] >= need, (m, h, seat, pts[seat])
                state.update(hidden=True, face_down=True)
                seen["face_down"] += 1
                seen["face_down_riichi"] += state["riichi_tile"]
                pot += a
            elif b == PAY_DARK_OPEN:
                assert state["face_down"] and a == 2000 and seat != state["discarder"] and c == state["tile"]
                assert pts[seat] >= 2000
                state.update(hidden=False, opened=True, opener=seat)
                seen["opens"] += 1
                pot += a
            elif b == PAY_DARK_LOCK:
                assert state["opened"] and a == 4000 and seat == state["discarder"] and c == state["tile"]
                assert pts[seat] >= 4000
                state.update(hidden=True, opened=False)
                seen["locks"] += 1
                pot += a
            elif b == PAY_POT:
                assert a == pot and pot > 0 and seat == -1
                assert last_event == (EV_WIN, tile)  # right after the win (and its sticks) of the taker
                if state["last"] == "discard" and state["ron_seats"]:
                    d = state["discarder"]  # D: multiple ron: the first winner after the discarder takes it
                    assert tile == min(state["ron_seats"], key=lambda s: (s - d) % 4)
                    seen["multi_ron_pots"] += len(state["ron_seats"]) > 1
                pot = 0
                seen["pots"] += 1
            if seat >= 0:
                pts[seat] -= a
            if tile >= 0:
                pts[tile] += a
        elif kind == EV_END:
            if b > 0:
                assert pot == 0, "a hand with a winner leaves no pot"
            for s in range(4):
                r = before[m, h, s]
                assert pts[s] == int(r[HC["points_before"]]) + int(r[HC["delta"]])
                assert int(r[HC["pot_after"]]) == pot
    return seen


def _greedy_events(spec, n=120, seed=4):
    register_test_policies()
    hand_rows, match_rows, events = get_mode(SLUG).simulate_events(seed, np.arange(n), parse_seats(spec))
    return hand_rows, match_rows, events


@pytest.mark.slow
def test_rule_d_payments_thresholds_and_no_call_on_face_down_from_the_event_log():
    """D from the event log, with shadow-player and an always-paying test seat: each face-down discard costs
    1000 (≥ 1000 points, ≥ 2000 for a riichi declaration tile), each opening 2000 by another seat with ≥ 2000,
    each lock 4000 by the discarder with ≥ 4000 after an opening; the pot is the sum of these, taken whole by the
    next winner (on a multiple ron by the winner first after the discarder); a tile still face down is never
    called or ronned; an opened one can be."""
    total = defaultdict(int)
    for spec in ("test-dark-greedy,baseline,shadow-player,baseline",
                 f"shadow-player(open_factor=100,reserve=0,hide_danger=2),test-dark-greedy,random,{HIDER}",
                 f"baseline,{OPENER},baseline,{HIDER}"):
        hand_rows, match_rows, events = _greedy_events(spec, n=300)
        for key, v in _replay(hand_rows, match_rows, events).items():
            total[key] += v
    assert total["face_down"] > 500 and total["opens"] > 50 and total["locks"] > 20 and total["pots"] > 100
    assert total["face_down_riichi"] > 0 and total["rons_on_opened"] > 0


def test_rule_d_engine_refuses_face_down_below_the_thresholds_and_first_opener_pays():
    """D: four always-face-down / always-open / always-lock seats. A turn answer FACE_DOWN + kind is refused
    (counted illegal, the tile goes face up) exactly when the seat has < 1000 points (< 2000 for a riichi
    declaration); each face-down tile is opened by the first seat after the discarder that has ≥ 2000 (all of
    them say yes), and locked exactly when the discarder then has ≥ 4000."""
    hand_rows, match_rows, events = _greedy_events("test-dark-greedy", n=200, seed=6)
    before = {(int(r[HC["match_id"]]), int(r[HC["hand"]]), int(r[HC["seat"]])): int(r[HC["points_before"]])
              for r in hand_rows}
    rows = events.tolist()
    checked = refused = opened = locked = 0
    in_riichi = set()
    for i, (m, h, kind, seat, tile, a, b, c) in enumerate(rows):
        if kind == EV_START:
            pts = [before[m, h, s] for s in range(4)]
            in_riichi = set()
            won = set()
        elif kind == EV_RIICHI:
            in_riichi.add(seat)
        elif kind == EV_WIN:
            won.add(seat)
        elif kind == EV_PAY:
            if seat >= 0:
                pts[seat] -= a
            if tile >= 0:
                pts[tile] += a
        elif kind == EV_DISCARD and seat not in in_riichi:
            nxt = rows[i + 1] if i + 1 < len(rows) else None
            down = nxt is not None and nxt[2] == EV_PAY and nxt[6] == PAY_FACE_DOWN
            need = 2000 if b == 1 else 1000
            assert down == (pts[seat] >= need), (m, h, seat, pts[seat], b)
            checked += 1
            refused += not down
            if not down:
                continue
            after = list(pts)
            after[seat] -= 1000
            eligible = [(seat + k) % 4 for k in (1, 2, 3) if after[(seat + k) % 4] >= 2000]
            nxt2 = rows[i + 2]
            if eligible:
                assert nxt2[2] == EV_PAY and nxt2[6] == PAY_DARK_OPEN and nxt2[3] == eligible[0], rows[i:i + 4]
                opened += 1
                can_lock = after[seat] >= 4000
                nxt3 = rows[i + 3]
                assert (nxt3[2] == EV_PAY and nxt3[6] == PAY_DARK_LOCK) == can_lock, rows[i:i + 5]
                locked += can_lock
            else:
                assert not (nxt2[2] == EV_PAY and nxt2[6] == PAY_DARK_OPEN)
    assert checked > 1000 and refused > 20 and opened > 100 and locked > 50
    _replay(hand_rows, match_rows, events)


def test_rule_d_face_down_tiles_stay_out_of_public_blocks():
    """D: a tile still face down never shows in ROBS.discarded / ROBS.seen: the test-dark-spy seats check the public
    counts at every decision and answer illegally on a breach; with seats that pay only when they may, no
    illegal answer may occur."""
    register_test_policies()
    counters = np.zeros(engine.N_COUNTERS, np.int64)
    hand_rows, _ = get_mode(SLUG).simulate(5, np.arange(300), parse_seats(
        f"test-dark-spy,{OPENER},{HIDER},test-dark-spy"),
        counters=counters)
    assert counters[engine.CNT_ILLEGAL] == 0
    assert hand_rows[:, HC["face_down"]].sum() > 300 and hand_rows[:, HC["dark_locks"]].sum() > 0


def test_rule_d_no_furiten_from_face_down_and_nagashi_on_face_up_discards_only():
    """D: a face-down tile makes nobody furiten — a ron is never on a kind the winner discarded face up (or had
    opened) earlier, while rons on kinds it discarded only face down occur; nagashi mangan at an exhaustive
    draw is recorded exactly for seats whose face-up discards (opened ones included) are all terminals or
    honors and were never called, with at least one discard (all face down qualifies)."""
    register_test_policies()
    face_down_kind_rons = 0
    nagashi_all_dark = 0
    for spec, seed in ((f"test-dark-greedy,baseline,{HIDER},baseline", 7),
                       (f"{HIDER},baseline,{HIDER},baseline", 8)):
        hand_rows, _, events = get_mode(SLUG).simulate_events(seed, np.arange(300), parse_seats(spec))
        rec = {(int(r[HC["match_id"]]), int(r[HC["hand"]]), int(r[HC["seat"]])): r for r in hand_rows}
        rows = events.tolist()
        for i, (m, h, kind, seat, tile, a, b, c) in enumerate(rows):
            if kind == EV_START:
                face_up = defaultdict(set)
                dark_only = defaultdict(set)
                simple_up = defaultdict(bool)
                called_from = defaultdict(bool)
                n_disc = defaultdict(int)
                pending = None
            elif kind == EV_DISCARD:
                n_disc[seat] += 1
                pending = (seat, tile)
                j = i + 1
                hidden = False
                while j < len(rows) and rows[j][2] == EV_PAY and rows[j][6] in (PAY_FACE_DOWN, PAY_DARK_OPEN,
                                                                                  PAY_DARK_LOCK):
                    hidden = rows[j][6] in (PAY_FACE_DOWN, PAY_DARK_LOCK)
                    j += 1
                if hidden:
                    dark_only[seat].add(tile)
                else:
                    face_up[seat].add(tile)
                    if not (tile >= 27 or tile % 9 in (0, 8)):
                        simple_up[seat] = True
            elif kind in (EV_PON, EV_CHI) or (kind == EV_KAN and a == tiles.MINKAN):
                called_from[pending[0]] = True
            elif kind == EV_WIN and c == engine.WIN_RON:
                assert tile not in face_up[seat], (m, h, seat, tile)
                face_down_kind_rons += tile in dark_only[seat]
            elif kind == EV_END and HAND_ENDS[a] == "exhaustive":
                for s in range(4):
                    expect = n_disc[s] > 0 and not simple_up[s] and not called_from[s]
                    assert bool(rec[m, h, s][HC["nagashi"]]) == expect, (m, h, s)
                    if expect and dark_only[s] and any(not (t >= 27 or t % 9 in (0, 8)) for t in dark_only[s]):
                        nagashi_all_dark += 1
    assert face_down_kind_rons > 0
    assert nagashi_all_dark > 0


def test_rule_d_pot_left_at_match_end_goes_to_first_place():
    """D: at match end the pot left (and the sticks) go to the seat ranked first by points (ties: seat order);
    checked against the last hand's records for every match that ends with a pot."""
    register_test_policies()
    hand_rows, match_rows, _ = _greedy_events(f"test-dark-greedy,{HIDER},baseline,random", n=300,
                                              seed=9)
    from tsumolab.sims.riichi.columns import MC

    ended_with_pot = 0
    for m in range(300):
        rows = hand_rows[hand_rows[:, HC["match_id"]] == m]
        last = rows[rows[:, HC["hand"]] == rows[:, HC["hand"]].max()]
        last = last[np.argsort(last[:, HC["seat"]])]
        pts = (last[:, HC["points_before"]] + last[:, HC["delta"]]).astype(np.int64)
        extra = 1000 * int(last[0, HC["sticks_after"]]) + int(last[0, HC["pot_after"]])
        first = min(range(4), key=lambda s: (-pts[s], s))
        pts[first] += extra
        final = match_rows[4 * m:4 * m + 4]
        final = final[np.argsort(final[:, MC["seat"]])]
        assert (final[:, MC["final_points"]] == pts).all(), m
        ended_with_pot += last[0, HC["pot_after"]] > 0
    assert ended_with_pot > 0


def test_rule_d_nagashi_payments_use_face_up_discards():
    """D: nagashi mangan payments happen in darkness (all-face-down rivers qualify), paid as in R-6."""
    register_test_policies()
    hand_rows, _, events = _greedy_events("test-dark-greedy,baseline,baseline,baseline", n=300, seed=10)
    pays = events[(events[:, 2] == EV_PAY) & (events[:, 6] == PAY_NAGASHI)]
    assert len(pays) > 0
    assert set(np.unique(pays[:, 5]).tolist()) <= {2000, 4000}


def test_rule_d_other_modes_are_untouched():
    """D is a rule option: `riichi` records empty pots and no dark actions, and refuses a FACE_DOWN answer."""
    register_test_policies()
    counters = np.zeros(engine.N_COUNTERS, np.int64)
    hand_rows, _ = get_mode("riichi").simulate(1, np.arange(30), parse_seats("test-dark-greedy"), counters=counters)
    for col in ("pot_before", "pot_after", "dark_paid", "pot_won", "face_down", "dark_opens", "dark_locks"):
        assert (hand_rows[:, HC[col]] == 0).all(), col
    assert counters[engine.CNT_ILLEGAL] > 0
    counters = np.zeros(engine.N_COUNTERS, np.int64)
    get_mode("riichi").simulate(1, np.arange(30), parse_seats("shadow-player"), counters=counters)
    assert counters[engine.CNT_ILLEGAL] == 0  # shadow-player plays baseline outside darkness


@pytest.mark.parametrize("opener", ["test-dark-greedy", "baseline"], ids=["opened", "left-face-down"])
def test_rule_d_scripted_face_down_discard_opened_then_ronned_takes_the_pot(opener, build_wall, default_answer,
                                                                           events_of):
    """D, a scripted hand: the dealer discards its 4p face down (pays 1000 to the pot). Seat 1 (baseline, never
    opens) passes the chance to open; seat 2 pays 2000 to open it (the first in turn order after the discarder
    who wants to); the dealer does not lock it. Opened, it is a normal discard: seat 1 rons it with tanyao +
    pinfu, 2 han 30 fu = 2000 (R-3), and takes the pot, 3000. When nobody opens (seat 2 baseline too), the tile
    stays face down: seat 1 is not offered the ron on it, and the dealer's 1000 stays in the pot."""
    from tsumolab.policies.riichi_api import D_REACT, D_TURN, FACE_DOWN, ROBS, RON
    from tsumolab.sims.riichi.columns import H_DARK_PAID, H_DELTA, H_POT1, H_POT_WON
    from tsumolab.sims.riichi.positions import RiichiEngine

    register_test_policies()
    hands = {0: "4p111m999p111s9s55z", 1: "23p234m678m678s22s", 2: "3456789s3456m77p", 3: "2233445566778s"}
    wall = build_wall(hands, "7z7z6z6z", at={126: 30})
    table = RiichiEngine(parse_seats(f"baseline,baseline,{opener},baseline"), DarknessRules(), keep_events=True)
    pos = table.start(wall=wall)
    offers = []

    def choose(pos):
        view = pos.view
        if pos.decision == D_TURN and pos.seat == 0 and view[ROBS.hand + 12] and not offers:
            offers.append("discard")
            return FACE_DOWN + 12
        if pos.decision == D_REACT and pos.seat == 1 and events_of(pos, EV_DISCARD).shape[0] == 1:
            offers.append(int(view[ROBS.can_win]))
            if view[ROBS.can_win]:
                return RON
        return default_answer(pos)

    table.play_scripted(pos, choose)
    if opener == "baseline":
        assert offers == ["discard"]  # no reaction asked of seat 1 on the face-down tile
        assert events_of(pos, EV_WIN).shape[0] == 0  # the scripted seats never win later: the pot is not taken
        assert pos.rec[:, H_DARK_PAID].tolist() == [1000, 0, 0, 0] and pos.rec[0, H_POT1] == 1000
        return
    assert offers == ["discard", 1]
    assert events_of(pos, EV_WIN)[:, 3].tolist() == [1]
    assert pos.rec[:, H_DARK_PAID].tolist() == [1000, 0, 2000, 0]
    assert pos.rec[1, H_POT_WON] == 3000
    assert pos.rec[:, H_DELTA].tolist() == [-1000 - 2000, 2000 + 3000, -2000, 0]
