"""Regression tests of issue 13 (the riichi core against an independent engine): which copy of a five moves
(R-1, R-4 riichi tsumogiri), furiten on shape only (R-4), the robbed kan in the log (R-4 chankan), deposits of a
multiple ron (R-3) and the South extension after a dealer renchan (R-2). Each checks an invariant over many
simulated hands, plus the issue's reproduction seeds where they still reproduce."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import polars as pl
import pytest

from tests.replayed import replayed
from tsumolab.policies.registry import parse_seats
from tsumolab.sims import tiles
from tsumolab.sims.events import (
    EV_DEAL, EV_DISCARD, EV_DRAW, EV_END, EV_EXCHANGE, EV_KAN, EV_PAY, EV_PON, EV_START, EV_WIN,
)
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi.events import EV_CHI, EV_RIICHI, PAY_HONBA, PAY_STICKS
from tsumolab.sims.riichi.rules import RiichiRules
from tsumolab.sims.shanten import RIICHI_SHAPES, winning_tiles
from tsumolab.sims.shanten_tables import get_tables
from tests.riichi_runs import per_hand, run

MIXED = "random,majsoul-cpu,baseline,random"  # the issue's seat mix
RED_KINDS = (4, 13, 22)


def _slice(json_events, hand_no):
    """The JSON events of hand `hand_no` (from its start_kyoku to the next)."""
    out, inside = [], False
    for e in json_events:
        if e["type"] == "start_kyoku":
            inside = e["hand"] == hand_no
        if inside:
            out.append(e)
    return out


# ----------------------------------------------------------------------------- 1. red five copies
def _red_bookkeeping(events):
    """Follow every seat's red fives through the log (deal, exchange, draw, discard, calls, kans); assert each
    move is possible and return [(red drawn, red discarded)] for every discard by a seat in riichi after its
    declaration."""
    riichi_discards = []
    red = np.zeros((4, 3), bool)
    count = np.zeros((4, 34), np.int64)
    drawn = [(-1, False)] * 4
    in_riichi = [False] * 4

    def give(seat, kind, is_red):
        count[seat, kind] += 1
        if is_red:
            assert kind in RED_KINDS and not red[seat, kind // 9]
            red[seat, kind // 9] = True

    def take(seat, kind, is_red):
        assert count[seat, kind] > 0
        if is_red:
            assert red[seat, kind // 9], "a red five left a hand that does not hold it"
            red[seat, kind // 9] = False
        else:  # a plain copy left: the hand held one
            assert count[seat, kind] > (1 if kind in RED_KINDS and red[seat, kind // 9] else 0)
        count[seat, kind] -= 1

    for _m, _h, kind, seat, tile, a, b, c in events.tolist():
        if kind == EV_START:
            red[:] = False
            count[:] = 0
            in_riichi = [False] * 4
            exchanged = []
        elif kind == EV_DEAL:
            give(seat, tile, bool(a))
        elif kind == EV_EXCHANGE:
            for i, k in enumerate((tile, a, b)):
                take(seat, k, bool(c // 4 >> i & 1))
                exchanged.append((c % 4, k, bool(c // 4 >> i & 1)))
            if len(exchanged) == 12:
                for to, k, r in exchanged:
                    give(to, k, r)
        elif kind == EV_DRAW:
            give(seat, tile, bool(c & 2))
            drawn[seat] = (tile, bool(c & 2))
        elif kind == EV_DISCARD:
            if in_riichi[seat]:
                assert tile == drawn[seat][0]
                riichi_discards.append((drawn[seat][1], bool(c)))
            if a:  # a tsumogiri gives up the copy drawn
                assert (tile, bool(c)) == drawn[seat]
            take(seat, tile, bool(c))
            drawn[seat] = (-1, False)
        elif kind == EV_RIICHI:
            in_riichi[seat] = True
        elif kind in (EV_PON, EV_CHI) or (kind == EV_KAN and a == tiles.MINKAN):
            if kind == EV_CHI:
                used = [k for k in range(tile, tile + 3) if k != a]
            else:
                used = [tile] * (2 if kind == EV_PON else 3)
            five = [k for k in used if k in RED_KINDS]
            assert not (c & 2) or five
            for i, k in enumerate(used):
                take(seat, k, bool(c & 2) and k in RED_KINDS and i == used.index(k))
        elif kind == EV_KAN:
            n = 4 if a == tiles.ANKAN else 1
            for i in range(n):
                take(seat, tile, bool(c & 2) and i == 0)
    return riichi_discards


@pytest.mark.slow
def test_rule_r1_r4_riichi_tsumogiri_gives_up_the_drawn_copy():
    """R-4 (after riichi only the drawn tile may be discarded) with R-1's red fives: every discard of a seat in
    riichi is the copy it drew, red five or plain, and the log accounts for every red five in every move."""
    seen_red = 0
    for seed, spec in ((1, "baseline"), (5, MIXED)):
        _, _, events = get_mode("riichi").simulate_events(seed, np.arange(300), parse_seats(spec))
        pairs = _red_bookkeeping(events)
        assert all(d == r for d, r in pairs)
        seen_red += sum(d for d, _ in pairs)
    assert seen_red >= 5  # drawn red fives were tsumogiri'd in riichi


def test_rule_r1_red_five_copies_in_every_riichi_mode_log():
    """R-1: in every riichi-based mode the log's red fields follow each red five from the deal to the discard,
    calls and kans (a red five only leaves a hand that holds it; a plain copy only one that holds a plain)."""
    for slug in ("shura", "chant", "darkness", "astrology", "fate"):
        _, _, events = get_mode(slug).simulate_events(3, np.arange(40), parse_seats(MIXED))
        _red_bookkeeping(events)


def test_rule_r1_issue_seed_riichi_tsumogiri_of_a_drawn_red_five():
    """Issue 13, seed 1 match 11 hand 5: seat 1 in riichi draws the red 5p and discards it (the log says 5pr);
    seat 0's ron on it is 2 han (chun + aka), not 1."""
    events, *_ = replayed("riichi", 1, 11, "baseline")
    hand = _slice(events, 5)
    i = next(i for i, e in enumerate(hand) if e["type"] == "hora")
    assert hand[i]["han"] == 2 and hand[i]["pai"] == "5pr" and hand[i]["target"] == 1
    assert hand[i - 1] == {"type": "dahai", "actor": 1, "pai": "5pr", "tsumogiri": True}
    assert hand[i - 2]["type"] == "tsumo" and hand[i - 2]["pai"] == "5pr"


# ----------------------------------------------------------------------------- 2. furiten on shape
@pytest.mark.parametrize("seeds", [(3,), pytest.param((5, 14), marks=pytest.mark.slow)])
def test_rule_r4_passing_a_shape_completing_discard_is_furiten_even_without_yaku(seeds):
    """R-4: furiten looks at the shape only. Rebuild every seat's hand from the log: a seat that let a discard
    completing its shape pass (yaku or not) makes no ron before its own next discard, nor any ron after such a
    pass in riichi. Seeds 3, 5 and 14 hold the issue's matches 40, 246 and 27; the fast suite plays seed 3."""
    suit_t, honor_t = get_tables()
    mask = np.zeros(34, np.int64)
    rons = 0
    blocked = 0
    for seed in seeds:
        _, _, events = get_mode("riichi").simulate_events(seed, np.arange(300), parse_seats(MIXED))
        seed_rons, seed_blocked = _replay_furiten(events, suit_t, honor_t, mask)
        rons += seed_rons
        blocked += seed_blocked
    assert rons > 300 * len(seeds) and blocked > 300 * len(seeds)


def _replay_furiten(events, suit_t, honor_t, mask):
    """Rebuild each seat's hand from one log; assert no furiten ron; return (rons, passes that made furiten)."""
    rons = 0
    blocked = 0
    hand = np.zeros((4, 34), np.int64)
    melds = [0] * 4
    temp = [False] * 4
    riichi = [False] * 4
    riichi_furiten = [False] * 4
    pending = None  # (discarder, tile) of the latest discard, until the next move
    waits = [None] * 4  # each seat's waits, recomputed after its hand changed

    def commit():
        nonlocal pending, blocked
        if pending is None:
            return
        giver, tile = pending
        for p in range(4):
            if p == giver:
                continue
            if waits[p] is None:
                winning_tiles(hand[p], melds[p], RIICHI_SHAPES, hand[p], suit_t, honor_t, mask)
                waits[p] = mask.copy()
            if waits[p][tile]:
                temp[p] = True
                riichi_furiten[p] |= riichi[p]
                blocked += 1
        pending = None

    for _m, _h, kind, seat, tile, a, b, c in events.tolist():
        if kind in (EV_START, EV_DRAW, EV_DISCARD, EV_PON, EV_CHI, EV_KAN, EV_END):
            commit()
            waits = [None] * 4 if kind == EV_START else waits
            if kind != EV_END and seat >= 0:
                waits[seat] = None
        if kind == EV_START:
            hand[:] = 0
            melds = [0] * 4
            temp = [False] * 4
            riichi = [False] * 4
            riichi_furiten = [False] * 4
        elif kind in (EV_DEAL, EV_DRAW):
            hand[seat, tile] += 1
        elif kind == EV_DISCARD:
            hand[seat, tile] -= 1
            temp[seat] = False
            pending = (seat, tile)
        elif kind == EV_RIICHI:
            riichi[seat] = True
        elif kind == EV_PON:
            hand[seat, tile] -= 2
            melds[seat] += 1
        elif kind == EV_CHI:
            for k in range(tile, tile + 3):
                hand[seat, k] -= k != a
            melds[seat] += 1
        elif kind == EV_KAN:
            hand[seat, tile] -= {tiles.MINKAN: 3, tiles.ANKAN: 4, tiles.KAKAN: 1}[a]
            melds[seat] += a != tiles.KAKAN
        elif kind == EV_WIN and c == 1:
            rons += 1
            assert not temp[seat] and not riichi_furiten[seat], (_m, _h, seat)
    return rons, blocked


# ----------------------------------------------------------------------------- 3. robbed kan in the log
def test_rule_r4_robbed_added_kan_is_logged_before_the_win():
    """R-4 chankan: every ron's target is the seat whose discard or kan came just before it (payments and passes
    aside), so a robbed added kan shows as a kakan by the target; issue seeds 11/203 hand 2, 12/130 hand 6."""
    robbed = 0
    for seed, match_id in ((11, 203), (12, 130)):
        events, *_ = replayed("riichi", seed, match_id, MIXED)
        before = None
        for e in events:
            if e["type"] == "hora" and e["kind"] == "ron":
                assert before["type"] in ("dahai", "kakan", "ankan") and before["actor"] == e["target"], e
                robbed += before["type"] != "dahai"
            elif e["type"] not in ("payment", "pass_win", "reach_accepted", "dora"):
                before = e
    assert robbed >= 2


# ----------------------------------------------------------------------------- 4. multiple ron deposits
def _multiple_ron_honba(rules):
    """[(honba, seats paid honba, first winner after the discarder)] of every multiple ron with honba > 0."""
    out = []
    for seed, spec in ((1, "baseline"), (2, MIXED), (3, "random")):
        _, _, events = get_mode("riichi").simulate_events(seed, np.arange(500), parse_seats(spec), rules)
        hand_key = events[:, 0].astype(np.int64) * 1000 + events[:, 1]
        ron_keys, rons_per_hand = np.unique(hand_key[(events[:, 2] == EV_WIN) & (events[:, 7] == 1)],
                                            return_counts=True)
        hands = defaultdict(list)
        for row in events[np.isin(hand_key, ron_keys[rons_per_hand >= 2])].tolist():  # hands with 2+ rons
            hands[row[0], row[1]].append(row)
        for rows in hands.values():
            honba = rows[0][7]
            rons = [r for r in rows if r[2] == EV_WIN and r[7] == 1]
            if len(rons) < 2 or honba == 0:
                continue
            first_ron = rows.index(rons[0])
            discarder = [r for r in rows[:first_ron] if r[2] in (EV_DISCARD, EV_KAN)][-1][3]
            first = min((r[3] for r in rons), key=lambda s: (s - discarder) % 4)
            paid = [r[4] for r in rows if r[2] == EV_PAY and r[6] == PAY_HONBA]
            sticks = [r[4] for r in rows if r[2] == EV_PAY and r[6] == PAY_STICKS]
            out.append((honba, paid, sticks, first, len(rons)))
    return out


def test_rule_r3_multiple_ron_honba_and_sticks_go_to_the_first_winner_only():
    """R-3 (source 002): on a multiple ron the honba bonus and the riichi sticks go to the winner first in turn
    order after the discarder; the other winners get neither."""
    cases = _multiple_ron_honba(None)
    assert len(cases) >= 3
    for _honba, paid, sticks, first, _n in cases:
        assert paid == [first] and set(sticks) <= {first}


def test_rule_r3_option_honba_every_winner_pays_every_winner():
    """R-3 option honba_every_winner (the payout before issue 13): every ron winner gets the honba bonus; the
    sticks still go to the first winner only."""
    cases = _multiple_ron_honba(RiichiRules(honba_every_winner=True))
    assert len(cases) >= 3
    for _honba, paid, sticks, first, n in cases:
        assert len(paid) == n and first in paid and set(sticks) <= {first}


# ----------------------------------------------------------------------------- 5. South extension
def test_rule_r2_south_extension_keeps_the_dealer_renchan():
    """R-2: in the South extension the match ends after a hand when someone has 30000 and the deal passes; while
    the dealer keeps the deal it goes on unless the dealer is then first with 30000 (agari-yame)."""
    aborts = ("nine_terminals", "four_winds", "four_riichi", "four_kans")
    renchan_goes_on = 0
    for spec, _, hands, _ in run("riichi", 800):
        h = per_hand(hands).sort(["match_id", "hand"])
        after = hands.group_by(["match_id", "hand"]).agg(
            (pl.col("points_before") + pl.col("delta")).alias("points"), pl.col("seat"))
        points = {(r["match_id"], r["hand"]): dict(zip(r["seat"], r["points"])) for r in after.to_dicts()}
        for match_id, g in h.group_by("match_id"):
            rows = g.sort("hand").to_dicts()
            for i, a in enumerate(rows):
                if not a["round"].startswith("S") or a["hand_end"] == "bust":
                    continue
                pts = points[match_id[0], a["hand"]]
                keeps = a["hand_end"] in aborts or a["dealer_won"] or (a["hand_end"] == "exhaustive"
                                                                        and a["dealer_tenpai"])
                top = max(pts.values())
                dealer_first = pts[a["dealer_seat"]] == top and pts[a["dealer_seat"]] >= 30000 and \
                    all(pts[s] < top for s in range(a["dealer_seat"]))
                ended = i == len(rows) - 1
                if keeps and a["hand_end"] not in aborts:
                    assert ended == dealer_first, (spec, match_id, a["hand"])
                    renchan_goes_on += not ended and top >= 30000
                elif not keeps:
                    assert ended == (top >= 30000 or a["round"] == "S4"), (spec, match_id, a["hand"])
    assert renchan_goes_on >= 1  # a South dealer kept playing while someone else had 30000


def test_rule_r3_r2_issue_seeds():
    """Issue 13 seeds: seed 1 match 18 hand 4 (honba 1, double ron) pays one honba bonus, to the first winner
    after the discarder (R-3); seed 3 match 87: the South dealer's renchan in S1 is played on although seat 2
    has 33200, and the match ends when the deal passes with someone at 30000 (R-2)."""
    hand = _slice(replayed("riichi", 1, 18, "baseline")[0], 4)
    wins = [e for e in hand if e["type"] == "hora"]
    honba = [e for e in hand if e["type"] == "payment" and e["reason"] == "honba"]
    assert len(wins) == 2 and [(p["from"], p["to"], p["amount"]) for p in honba] == [(1, 2, 300)]
    starts = [e for e in replayed("riichi", 3, 87, "baseline")[0] if e["type"] == "start_kyoku"]
    assert [(e["hand"], e["round"], e["oya"]) for e in starts[-2:]] == [(6, "S1", 0), (7, "S1", 0)]
    assert max(starts[-1]["scores"]) >= 30000
