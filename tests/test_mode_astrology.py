"""`astrology` 占星之战 (RULES.md A, on the R rules): every draw is a pick among up to 3 face-up candidates.

Invariants of the riichi core (R-1 … R-4) over ≥ 10,000 hands (100,000 in the slow test), plus the mode's own,
recomputed from the event log and the walls (sims.riichi.engine.shuffled_wall): the pool never holds more
than 3, is refilled from the live wall in wall order (a replacement draw adds the next dead-wall tile), every
drawn tile was a candidate, no refill and no kan while the live wall holds ≤ 3, the exhaustive draw comes
when a draw is due and the pool is empty, haitei / houtei / rinshan follow the candidates, tiles are conserved
with the pool.
"""

from collections import Counter

import numpy as np
import polars as pl
import pytest

from tsumolab.analyzer.tables import hand_table
from tsumolab.policies.registry import parse_seats
from tsumolab.policies.astrology_pick import efficient_pick
from tsumolab.policies.riichi_api import ROBS
from tsumolab.policies.star_picker import star_pick
from tsumolab.sims.events import EV_DISCARD, EV_DRAW, EV_END, EV_KAN, EV_WIN
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi.astrology_pool import (
    A_DEAD, A_DRAWS_LEFT, A_KIND, A_N, A_OPEN, A_REFILL, astro_add_dead, astro_refill, astro_reset,
)
from tsumolab.sims.riichi.events import EV_POOL, EV_RIICHI
from tsumolab.sims.riichi.rules import STANDARD, T_ASTROLOGY, AstrologyRules
from tsumolab.sims.shanten_tables import lookup_tables
from tsumolab.sims.shanten import RIICHI_SHAPES, shanten
from tsumolab.sims.shanten_tables import SUIT_ROWS
from tsumolab.sims.riichi.tableau import DEAD_START, MS_LIVE_END, N_ST, ST_MISC
from tests.riichi_runs import FAST_MATCHES, FULL_MATCHES

SLUG = "astrology"
FLOOR = 3          # A: no refill and no kan with 3 live tiles or fewer
FIRST_LIVE = 53    # 4 × 13 dealt + the dealer's 14th
EVENT_SEATS = "star-picker,random,baseline,majsoul-cpu"


def _sizes():
    return [pytest.param(FAST_MATCHES, id="fast"), pytest.param(FULL_MATCHES, id="full", marks=pytest.mark.slow)]


def test_rule_a_rules_are_table_options():
    """A: a rule option of the riichi core (floor 3 as written); the standard table leaves it off."""
    rules = get_mode(SLUG).rules_class()
    assert isinstance(rules, AstrologyRules) and rules.astrology and rules.astrology_floor == FLOOR
    assert rules.to_array()[T_ASTROLOGY] == 1 + FLOOR
    assert STANDARD.to_array()[T_ASTROLOGY] == 0
    assert AstrologyRules(astrology_floor=0).to_array()[T_ASTROLOGY] == 1


@pytest.mark.parametrize("n", _sizes())
@pytest.mark.slow
def test_rule_a_riichi_core_invariants(n, riichi_checks):
    """R-1 … R-4 in astrology (tiles conserved with the pool, points and sticks conserved, every win has a
    yaku and a recomputable value, legal answers of every built-in including random picks)."""
    riichi_checks.riichi_core_invariants(SLUG, n)


def test_rule_a_pool_helpers_public_wall_order_and_floor():
    """A: the pool block is identical in all four seats' rows; refills take live-wall tiles in order up to 3
    and stop with ≤ 3 live tiles; a replacement adds the dead-wall tile; draws left = pool + refills."""
    obs = np.zeros((4, ROBS.SIZE), np.int32)
    st = np.zeros((N_ST, 34), np.int64)
    st[ST_MISC, MS_LIVE_END] = DEAD_START
    wall = np.arange(136, dtype=np.int64)[::-1].copy()
    ev = np.zeros(3, np.int64)
    events = np.zeros((0, 8), np.int32)
    astro_reset(obs)
    pos = astro_refill(obs, st, wall, FIRST_LIVE, FLOOR, events, ev)
    assert pos == FIRST_LIVE + 3
    assert (obs == obs[0]).all()
    assert obs[0, ROBS.astrology + A_N] == 3 and obs[0, ROBS.astrology + A_OPEN] == 1
    assert list(obs[0, ROBS.astrology + A_KIND:ROBS.astrology + A_KIND + 3]) == [wall[p] // 4 for p in range(53, 56)]
    assert obs[0, ROBS.astrology + A_DRAWS_LEFT] == 3 + (DEAD_START - pos - FLOOR)
    # a full pool is not refilled; near the end of the wall nothing is refilled below the floor
    assert astro_refill(obs, st, wall, pos, FLOOR, events, ev) == pos
    obs[:, ROBS.astrology + A_N] = 1
    pos = astro_refill(obs, st, wall, DEAD_START - 4, FLOOR, events, ev)
    assert pos == DEAD_START - 3 and obs[0, ROBS.astrology + A_N] == 2
    assert obs[0, ROBS.astrology + A_REFILL] == 0 and obs[0, ROBS.astrology + A_DRAWS_LEFT] == 2
    # a replacement draw: the dead-wall tile joins the pool, marked as such
    st[ST_MISC, MS_LIVE_END] -= 1
    pos = astro_add_dead(obs, st, wall, DEAD_START, pos, FLOOR, events, ev)
    assert obs[0, ROBS.astrology + A_N] == 3 and obs[0, ROBS.astrology + A_DEAD + 2] == 1
    assert obs[0, ROBS.astrology + A_KIND + 2] == wall[DEAD_START] // 4
    assert (obs == obs[0]).all()


def test_rule_a_open_kan_on_the_dealers_first_discard_opens_a_pool_of_three():
    """A: if the first draw after the dealer's first discard is a replacement draw, the pool opens with 2
    live-wall tiles and the dead-wall tile (never more than 3)."""
    obs = np.zeros((4, ROBS.SIZE), np.int32)
    st = np.zeros((N_ST, 34), np.int64)
    st[ST_MISC, MS_LIVE_END] = DEAD_START - 1
    obs[:, ROBS.dealer] = 2
    obs[:, ROBS.n_discards + 2] = 1
    wall = np.arange(136, dtype=np.int64)
    ev = np.zeros(3, np.int64)
    astro_reset(obs)
    pos = astro_add_dead(obs, st, wall, DEAD_START, FIRST_LIVE, FLOOR, np.zeros((0, 8), np.int32), ev)
    assert pos == FIRST_LIVE + 2 and obs[0, ROBS.astrology + A_N] == 3
    assert list(obs[0, ROBS.astrology + A_DEAD:ROBS.astrology + A_DEAD + 3]) == [0, 0, 1]


def _replay(seed, n_matches, seats=EVENT_SEATS, rules=None, floor=FLOOR):
    """Walk the event log hand by hand against the recomputed walls; returns per-hand facts for the checks
    and asserts the pool rules on the way."""
    mode = get_mode(SLUG)
    hand_rows, _, events = mode.simulate_events(seed, np.arange(n_matches), parse_seats(seats), rules)
    hands = hand_table(hand_rows, parse_seats(seats), mode)
    wall = np.empty(136, np.int64)
    facts = {"picks": 0, "non_first_picks": 0, "dead_picks": 0, "kans": 0, "riichi": 0, "exhaustive": 0,
             "haitei_tsumo": set(), "houtei_ron": set(), "rinshan_tsumo": set(), "rinshan_other_candidate": 0,
             "last_pick_wins": 0}
    key = None
    for m, h, kind, seat, tile, a, b, c in events.tolist():
        if key != (m, h):
            key = (m, h)
            engine.shuffled_wall(seed, m, h, wall)
            pool = []            # (kind, from dead wall)
            next_live, live_end, rinshan = FIRST_LIVE, DEAD_START, 0
            discarded = opened = False
            draws = 0
            last_draw = None     # (seat, replacement, took the last candidate, dead candidate)
            after_haitei_discard = False
        live = live_end - next_live
        if kind == EV_POOL:
            assert discarded, key  # A: opens after the dealer's first discard
            opened = True
            if a == 0:
                assert b == next_live and live > floor, key  # refilled from the wall, in order, above the floor
                next_live += 1
            else:
                assert b == DEAD_START + rinshan - 1, key  # the dead-wall tile of this replacement draw
            assert wall[b] // 4 == tile, key
            pool.append((tile, a))
            assert len(pool) == c and len(pool) <= 3, key
        elif kind == EV_DRAW:
            draws += 1
            if not opened:
                assert b == 0, key  # the dealer's own draws before the pool opens
                if a == 1:  # the dealer's replacement before its first discard: straight from the dead wall
                    assert wall[DEAD_START + rinshan - 1] // 4 == tile, key
                last_draw = (seat, a, False, 0)
                continue
            if a == 0:  # A: refilled to 3 before a normal draw, unless the live wall is at the floor
                assert len(pool) == 3 or live <= floor, key
            assert 1 <= b <= len(pool), key
            assert pool[b - 1] == (tile, c & 1), key  # the drawn tile is the candidate picked (c: 2 × red + dead)
            pool.pop(b - 1)
            facts["picks"] += 1
            facts["non_first_picks"] += b > 1
            facts["dead_picks"] += c & 1
            last = not pool and live <= floor
            last_draw = (seat, a, last, c & 1)
        elif kind == EV_DISCARD:
            discarded = True
            after_haitei_discard = last_draw is not None and last_draw[2]
        elif kind == EV_RIICHI:
            assert live >= 4, key  # R-4 with the wall counted as A counts it (candidates excluded)
            facts["riichi"] += 1
        elif kind == EV_KAN:
            assert live > floor, key  # A: no kan with ≤ 3 live tiles
            facts["kans"] += 1
            live_end -= 1
            rinshan += 1
        elif kind == EV_WIN:
            wkey = (m, h, seat)
            if c == 2 and last_draw is not None and last_draw[0] == seat:
                if last_draw[2]:
                    facts["haitei_tsumo"].add(wkey)
                if last_draw[1] == 1:
                    facts["rinshan_tsumo"].add(wkey)
                    facts["rinshan_other_candidate"] += opened and last_draw[3] == 0
            if c == 1 and after_haitei_discard:
                facts["houtei_ron"].add(wkey)
        elif kind == EV_END:
            if a == 1:  # exhaustive: a draw was due and the pool was empty
                assert opened and not pool and live <= floor, key
                facts["exhaustive"] += 1
    return hands, facts


def _yaku_sets(hands, name):
    wins = hands.filter(pl.col("won") & pl.col("yaku").str.contains(name, literal=True))
    return {(m, h, s) for m, h, s in wins.select("match_id", "hand", "seat").iter_rows()}


def _yakuman_wins(hands):
    wins = hands.filter(pl.col("won") & (pl.col("yakuman") > 0))
    return {(m, h, s) for m, h, s in wins.select("match_id", "hand", "seat").iter_rows()}


def test_rule_a_pool_rules_recomputed_from_the_event_log():
    """A: pool ≤ 3, opened after the dealer's first discard, refilled from the wall in wall order to 3 before
    each normal draw while the live wall holds > 3, a replacement adds the next dead-wall tile, every draw is
    one of the candidates, no kan and no refill at ≤ 3 live tiles, riichi with ≥ 4 live tiles, exhaustive
    draw exactly when a draw is due and the pool is empty (the live wall then holds 3 tiles)."""
    hands, facts = _replay(5, 400)
    assert facts["picks"] > 10_000 and facts["non_first_picks"] > 1_000
    assert facts["kans"] > 0 and facts["riichi"] > 0 and facts["exhaustive"] > 0
    exhaustive = hands.filter(pl.col("hand_end") == "exhaustive")
    assert exhaustive.height > 0 and (exhaustive["wall_left"] == FLOOR).all()


def test_rule_a_haitei_houtei_rinshan_follow_the_candidates():
    """A: a tsumo on the last candidate taken is haitei (whatever its wall position), a ron on the discard
    after it houtei; every candidate picked on a replacement draw counts for rinshan (source 002 item 8), and
    these yaku appear nowhere else."""
    hands, facts = _replay(7, 600, seats="baseline,disconnected,baseline,disconnected")  # many exhaustive draws
    skip = _yakuman_wins(hands)  # a yakuman lists no situational yaku
    assert _yaku_sets(hands, "Haitei") - skip == facts["haitei_tsumo"] - skip and facts["haitei_tsumo"]
    assert _yaku_sets(hands, "Houtei") - skip == facts["houtei_ron"] - skip
    assert _yaku_sets(hands, "Rinshan") - skip == facts["rinshan_tsumo"] - skip


def test_rule_a_floor_option_zero_refills_to_the_end_of_the_wall():
    """A option astrology_floor = 0 (source 001's reading): refills go on while the wall has tiles, the
    exhaustive draw leaves no live tile."""
    hands, facts = _replay(3, 150, rules=AstrologyRules(astrology_floor=0), floor=0)
    exhaustive = hands.filter(pl.col("hand_end") == "exhaustive")
    assert exhaustive.height > 0 and (exhaustive["wall_left"] == 0).all()


def test_rule_a_tiles_conserved_with_the_pool_from_the_log():
    """A / R-1: deal + tiles revealed into the pool + pre-pool draws = tiles drawn + candidates left, per hand;
    and the engine's own 136-tile check (pool included) never fails."""
    mode = get_mode(SLUG)
    counters = np.zeros(engine.N_COUNTERS, np.int64)
    _, _, events = mode.simulate_events(2, np.arange(200), parse_seats(EVENT_SEATS))
    mode.simulate(2, np.arange(200), parse_seats(EVENT_SEATS), counters=counters)
    assert counters[engine.CNT_TILE_ERRORS] == 0
    revealed, picks, size = Counter(), Counter(), {}
    for m, h, kind, seat, tile, a, b, c in events.tolist():
        if kind == EV_POOL:
            revealed[(m, h)] += 1
            size[(m, h)] = c
        elif kind == EV_DRAW and b > 0:
            picks[(m, h)] += 1
            size[(m, h)] -= 1
    assert revealed and all(revealed[k] == picks[k] + size[k] for k in revealed)
    assert all(0 <= v <= 3 for v in size.values())


def test_rule_a_star_picker_and_random_picks_are_legal():
    """A policies: star-picker's and random's picks are legal answers (no illegal counter, tiles conserved)."""
    mode = get_mode(SLUG)
    for spec in ("star-picker", "star-picker,random,baseline,random"):
        counters = np.zeros(engine.N_COUNTERS, np.int64)
        mode.simulate(4, np.arange(100), parse_seats(spec), counters=counters)
        assert counters[engine.CNT_ILLEGAL] == 0, spec
        assert counters[engine.CNT_TILE_ERRORS] == 0, spec


def _obs(hand_kinds, pool_kinds, seat=0):
    obs = np.zeros(ROBS.SIZE, np.int32)
    for k in hand_kinds:
        obs[ROBS.hand + k] += 1
    obs[ROBS.seat] = seat
    obs[ROBS.dora:ROBS.dora + 5] = -1
    obs[ROBS.astrology + A_N] = len(pool_kinds)
    obs[ROBS.astrology + A_KIND:ROBS.astrology + A_KIND + 3] = -1
    for i, k in enumerate(pool_kinds):
        obs[ROBS.astrology + A_KIND + i] = k
    return obs


TENPAI_5P = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13]  # 123m 456m 789m 123p 5p: waits on 5p


def test_rule_a_baseline_pick_takes_the_win_then_the_lower_shanten():
    """A baseline pick: a completing candidate first; otherwise the candidate lowering shanten."""
    tables = lookup_tables()
    assert efficient_pick(_obs(TENPAI_5P, [26, 27, 13]), tables) == 2
    suit_t, honor_t = tables[:SUIT_ROWS], tables[SUIT_ROWS:]
    rng = np.random.default_rng(3)
    for _ in range(300):  # random hands and pools: the pick reaches the lowest shanten among the candidates
        tiles = rng.permutation(136)[:16] // 4
        obs = _obs(list(tiles[:13]), list(tiles[13:]))
        after = []
        for k in tiles[13:]:
            hand = obs[ROBS.hand:ROBS.hand + 34].copy()
            hand[k] += 1
            after.append(shanten(hand, 0, RIICHI_SHAPES, suit_t, honor_t))
        assert after[efficient_pick(obs, tables)] == min(after)


def test_rule_a_star_picker_safe_in_riichi_and_denies_while_folding():
    """A star-picker: in riichi the pick is the next discard, so it takes the candidate that is genbutsu
    against the other riichi seat (baseline takes the first); folding with safe tiles in hand, it takes the
    candidate most dangerous to the riichi seat and keeps it out of that seat's reach."""
    tables = lookup_tables()
    obs = _obs(TENPAI_5P, [22, 30])  # 5s (not safe), 4z
    obs[ROBS.riichi + 0] = 1
    obs[ROBS.riichi + 2] = 1
    obs[ROBS.safe + 34 * 2 + 30] = 1
    assert efficient_pick(obs, tables) == 0
    assert star_pick(obs, tables, 1.0, 1.0, 2) == 1
    far = [0, 4, 8, 9, 13, 17, 18, 22, 27, 28, 29, 30, 31]  # far from tenpai; 1z 2z 3z genbutsu below
    obs = _obs(far, [30, 23])  # 4z genbutsu, 6s dangerous
    obs[ROBS.riichi + 1] = 1
    for k in (27, 28, 29, 30):
        obs[ROBS.safe + 34 * 1 + k] = 1
    assert star_pick(obs, tables, 1.0, 1.0, 2) == 1
    assert star_pick(obs, tables, 1.0, 1.0, 99) == 0  # too few safe tiles: the safe candidate


def test_rule_a_scripted_draw_is_a_pick_from_three_face_up_candidates(build_wall, default_answer, events_of):
    """A, a scripted hand: after the dealer's first discard the pool opens with the next 3 wall tiles (5z 6z 2s)
    face up. Seat 1, one away from tenpai (23p 234m 678m 678s 2s 1z), takes the third candidate 2s (its seat
    policy picks the candidate that lowers its shanten), not the next wall tile; 5z and 6z stay face up in the
    pool. It discards 1z, and rons the dealer's 4p on the next go-around with tanyao + pinfu: 2 han 30 fu =
    2000 (R-3)."""
    from tsumolab.policies.riichi_api import D_REACT, D_TURN, RON
    from tsumolab.sims.riichi.columns import H_DELTA
    from tsumolab.sims.riichi.positions import RiichiEngine

    hands = {0: "4p111m999p111s9s55z", 1: "23p234m678m678s2s1z", 2: "3456789s3456m77p", 3: "2233445566778s"}
    # the dealer's draw 7z; the pool 5z 6z 2s, refilled with 7z 7z 3z 3z … (nothing anyone can use)
    wall = build_wall(hands, "7z" + "5z6z2s" + "7z7z3z3z3z4z4z4z", at={126: 30})
    table = RiichiEngine(parse_seats("baseline"), AstrologyRules(), keep_events=True)
    pos = table.start(wall=wall)
    pools = []

    def choose(pos):
        view = pos.view
        if pos.decision == D_TURN and pos.seat == 1 and not pools:
            pools.append((int(view[ROBS.astrology + A_N]), [int(view[ROBS.astrology + A_KIND + i]) for i in range(2)]))
            return 27
        if pos.decision == D_TURN and pos.seat == 0 and events_of(pos, EV_DISCARD, 0).shape[0] == 1:
            return 12  # the dealer's second discard: its 4p
        if pos.decision == D_REACT and pos.seat == 1 and view[ROBS.can_win]:
            return RON
        return default_answer(pos)

    table.play_scripted(pos, choose)
    assert events_of(pos, EV_DRAW, 1)[0, 4] == 19  # seat 1 drew the 2s, the third candidate
    assert pools == [(2, [31, 32])]
    assert events_of(pos, EV_WIN)[:, 3].tolist() == [1]
    assert pos.rec[:, H_DELTA].tolist() == [-2000, 2000, 0, 0]
