"""Invariants of the compiled Bloodshed engine over ≥ 20,000 simulated hands (100,000+ in the slow suite),
RULES.md B-1 … B-23."""

import numpy as np
import polars as pl
import pytest

from tsumolab.sims.modes import get_mode
from tsumolab.policies.registry import parse_seats
from tsumolab.sims.bloodshed import engine
from tsumolab.sims.bloodshed.rules import START_POINTS
from tsumolab.sims.bloodshed.scoring import fan_value
from tsumolab.sims.bloodshed.columns import HAND_COLUMNS, MATCH_COLUMNS

bloodshed = get_mode("bloodshed")

SEAT_MIXES = (
    "baseline",
    "baseline,random,majsoul-cpu,disconnected",
    "random",
    "majsoul-cpu,baseline,baseline,random",
)
FAST_MATCHES = 1_600  # per mix: ≈ 4 mixes × 1,600 matches × 4 hands ≈ 25,000 hands (make test)
FULL_MATCHES = 6_500  # per mix: ≈ 100,000 hands (marked slow)
HANDS_AT_LEAST = {FAST_MATCHES: 20_000, FULL_MATCHES: 100_000}


def _frames(hand_rows, match_rows):
    hands = pl.DataFrame(hand_rows, schema=[c[0] for c in HAND_COLUMNS], orient="row")
    matches = pl.DataFrame(match_rows, schema=[c[0] for c in MATCH_COLUMNS], orient="row")
    return hands, matches


@pytest.fixture(scope="module", params=[pytest.param(FAST_MATCHES, id="fast"),
                                        pytest.param(FULL_MATCHES, id="full", marks=pytest.mark.slow)])
def runs(request):
    out = []
    for i, spec in enumerate(SEAT_MIXES):
        counters = np.zeros(engine.N_COUNTERS, np.int64)
        hand_rows, match_rows = bloodshed.simulate(100 + i, np.arange(request.param), parse_seats(spec),
                                                   counters=counters)
        out.append((spec, counters, *_frames(hand_rows, match_rows)))
    return out


@pytest.mark.slow
def test_enough_hands_simulated(runs):
    matches = runs[0][3]["match_id"].n_unique()
    assert sum(int(c[engine.CNT_HANDS]) for _, c, _, _ in runs) >= HANDS_AT_LEAST[matches]


def test_rule_b1_tiles_conserved_and_no_illegal_answers(runs):
    """B-1: 108 tiles in wall, hands, melds and rivers at every hand's end; built-ins never act illegally."""
    for spec, counters, _, _ in runs:
        assert counters[engine.CNT_TILE_ERRORS] == 0, spec
        assert counters[engine.CNT_ILLEGAL] == 0, spec


def test_rule_b7_b10_no_win_holds_a_void_tile(runs):
    for spec, counters, hands, _ in runs:
        assert counters[engine.CNT_VOID_WINS] == 0, spec
        assert hands["won"].sum() > 0


def test_points_conserved_every_hand(runs):
    for _, _, hands, _ in runs:
        sums = hands.group_by(["match_id", "hand"]).agg(pl.col("delta").sum())
        assert (sums["delta"] == 0).all()


def test_rule_b13_at_most_three_winners(runs):
    for _, _, hands, _ in runs:
        per_hand = hands.group_by(["match_id", "hand"]).agg(pl.col("won").sum(), pl.col("winners").first())
        assert (per_hand["won"] <= 3).all()
        assert (per_hand["won"] == per_hand["winners"]).all()
        ends = per_hand.join(hands.select("match_id", "hand", "hand_end").unique(), on=["match_id", "hand"])
        assert (ends.filter(pl.col("hand_end") == 0)["won"] == 3).all()
        assert ends.filter(pl.col("won") == 3)["hand_end"].is_in([0, 2]).all()


def test_rule_b19_win_payments_recomputable_from_fan(runs):
    """B-19: ron = value of the capped fan; tsumo = (value + 1000) from each non-won other seat."""
    for _, _, hands, _ in runs:
        wins = hands.filter(pl.col("won") == 1)
        assert (wins["fan"] == wins["raw_fan"].clip(upper_bound=6)).all()
        assert (wins["fan"] >= 1).all()
        values = np.array([fan_value(int(f)) for f in wins["fan"]])
        assert (wins["value"].to_numpy() == values).all()
        ron = wins["win_kind"].to_numpy() == 1
        assert (wins["win_points"].to_numpy()[ron] == values[ron]).all()
        payers = 4 - wins["win_order"].to_numpy()
        tsumo_points = (values + 1000) * payers
        assert (wins["win_points"].to_numpy()[~ron] == tsumo_points[~ron]).all()


def test_every_payment_accounted_for(runs):
    """Each seat's delta = its win + kan income + refund + draw settlement − what it paid for others' wins,
    and what was paid for wins adds up to what winners received (B-14 … B-23)."""
    for _, _, hands, _ in runs:
        paid = (hands["win_points"] + hands["kan_income"] + hands["refund"] + hands["draw_settlement"]
                - hands["delta"]).to_numpy()
        assert (paid >= 0).all()
        by_hand = hands.with_columns(paid=pl.Series(paid)).group_by(["match_id", "hand"]).agg(
            pl.col("paid").sum(), pl.col("win_points").sum(), pl.col("kan_income").sum(), pl.col("refund").sum(),
            pl.col("draw_settlement").sum(), (pl.col("win_kind") == 1).sum().alias("rons"), pl.col("dealt_in").sum())
        assert (by_hand["paid"] == by_hand["win_points"]).all()
        assert (by_hand["kan_income"] == 0).all()
        assert (by_hand["refund"] == 0).all()
        assert (by_hand["draw_settlement"] == 0).all()
        assert (by_hand["rons"] == by_hand["dealt_in"]).all()


def test_rule_b20_draw_settlement_only_at_exhaustive_draw(runs):
    for _, _, hands, _ in runs:
        not_drawn = hands.filter(pl.col("hand_end") == 0)
        assert (not_drawn["refund"] == 0).all() and (not_drawn["draw_settlement"] == 0).all()
        assert (not_drawn["tenpai_at_draw"] == 0).all() and (not_drawn["flower_pig"] == 0).all()
        drawn = hands.filter(pl.col("hand_end") == 1)
        assert (drawn.filter(pl.col("won") == 1)["draw_settlement"] == 0).all()
        assert (drawn.filter(pl.col("tenpai_at_draw") == 1)["max_value"] > 0).all()


def test_rule_b22_disconnected_seat_is_a_flower_pig(runs):
    """B-25 + B-22: a disconnected seat keeps its void tiles, so at exhaustive draws it is often a flower
    pig and pays; baseline throws void tiles first and almost never is."""
    spec, _, hands, _ = runs[1]
    drawn = hands.filter(pl.col("hand_end") == 1)
    disconnected = drawn.filter(pl.col("seat") == 3)
    baseline = drawn.filter(pl.col("seat") == 0)
    assert disconnected["flower_pig"].mean() > 0.5
    assert baseline["flower_pig"].mean() < 0.02
    pigs = disconnected.filter(pl.col("flower_pig") == 1)["draw_settlement"]
    assert (pigs <= 0).all() and pigs.mean() < 0  # two pigs pay each other 8000: net 0


def test_rule_b2_start_points_and_four_hands(runs):
    for _, _, hands, matches in runs:
        first = hands.filter(pl.col("hand") == 1)
        assert (first["points_before"] == START_POINTS).all()
        assert matches["hands_played"].max() == 4


def test_rule_b3_dealer_is_first_winner_of_previous_hand(runs):
    for _, _, hands, _ in runs:
        h = hands.sort(["match_id", "hand", "seat"])
        dealer = h.filter(pl.col("dealer") == 1).select("match_id", "hand", pl.col("seat").alias("dealer_seat"))
        assert dealer.group_by(["match_id", "hand"]).len()["len"].max() == 1
        first_winner = h.filter(pl.col("win_order") == 1).select("match_id", "hand", pl.col("seat").alias("first"))
        nxt = dealer.with_columns((pl.col("hand") - 1).alias("prev")).join(
            dealer.rename({"dealer_seat": "prev_dealer", "hand": "prev"}), on=["match_id", "prev"]).join(
            first_winner.rename({"hand": "prev"}), on=["match_id", "prev"], how="left")
        expected = nxt["first"].fill_null(nxt["prev_dealer"])
        assert (nxt["dealer_seat"] == expected).all()
        assert (dealer.filter(pl.col("hand") == 1)["dealer_seat"] == 0).all()


def test_rule_b4_ranks_and_bust(runs):
    """B-4: ranks by final points, ties by seat order; a bust ends the match at once."""
    for _, _, hands, matches in runs:
        m = matches.sort(["match_id", "seat"])
        pts = m["final_points"].to_numpy().reshape(-1, 4)
        ranks = m["rank"].to_numpy().reshape(-1, 4)
        for row in range(0, len(pts), 97):
            order = sorted(range(4), key=lambda s: (-pts[row, s], s))
            assert [order.index(s) + 1 for s in range(4)] == list(ranks[row])
        last = hands.group_by("match_id").agg(pl.col("hand").max().alias("last"))
        after = hands.with_columns(after=pl.col("points_before") + pl.col("delta"))
        negative = after.filter(pl.col("after") < 0).group_by("match_id").agg(pl.col("hand").min().alias("bust"))
        joined = negative.join(last, on="match_id")
        assert (joined["bust"] == joined["last"]).all()
        busted_matches = matches.filter(pl.col("busted") == 1)["match_id"].unique()
        assert set(busted_matches.to_list()) == set(joined["match_id"].to_list())
        final = hands.filter(pl.col("hand") == pl.col("hand").max().over("match_id")).sort(["match_id", "seat"])
        assert ((final["points_before"] + final["delta"]).to_numpy() == m["final_points"].to_numpy()).all()


def test_rule_b6_walls_keyed_by_seed_match_hand():
    """B-1/B-6: a wall is a permutation of the 108 tiles that depends only on (seed, match, hand)."""
    a = np.empty(108, np.int64)
    b = np.empty(108, np.int64)
    engine.shuffled_wall(5, 3, 2, a)
    engine.shuffled_wall(5, 3, 2, b)
    assert (a == b).all()
    assert (np.bincount(a, minlength=27) == 4).all()
    engine.shuffled_wall(5, 3, 3, b)
    assert (a != b).any()
    directions = {engine.shuffled_wall(5, m, 1, b) for m in range(60)}
    assert directions == {0, 1, 2}


def test_same_walls_for_different_policies():
    """Common random numbers: the exchange direction (drawn with the wall) does not depend on the seats."""
    a, _ = bloodshed.simulate(9, np.arange(50), parse_seats("baseline"))
    b, _ = bloodshed.simulate(9, np.arange(50), parse_seats("random"))
    col = [c[0] for c in HAND_COLUMNS].index("exchange_dir")
    first_hands_a = a[a[:, 1] == 1][:, col]
    first_hands_b = b[b[:, 1] == 1][:, col]
    assert (first_hands_a == first_hands_b).all()


def test_results_depend_only_on_seed_and_match_id():
    seats = parse_seats("baseline,random,majsoul-cpu,baseline")
    whole_h, whole_m = bloodshed.simulate(11, np.arange(40), seats)
    part_h, part_m = bloodshed.simulate(11, np.arange(20, 40), seats)
    assert (whole_h[whole_h[:, 0] >= 20] == part_h).all()
    assert (whole_m[whole_m[:, 0] >= 20] == part_m).all()


def test_baseline_beats_random_and_cpu_one_vs_three():
    """baseline in one seat (rotated through all four) against three random / majsoul-cpu seats."""
    for field in ("random", "majsoul-cpu"):
        gains = []
        for seat in range(4):
            spec = [field] * 4
            spec[seat] = "baseline"
            _, m = bloodshed.simulate(21, np.arange(400), parse_seats(",".join(spec)))
            gains.append(m.reshape(-1, 4, m.shape[1])[:, seat, 2] - START_POINTS)
        g = np.concatenate(gains)
        assert g.mean() - 3 * g.std() / np.sqrt(g.size) > 0, field


def test_rule_b14_b15_kan_payments_recomputable(runs):
    """B-14/B-15: kan income = 2000 per closed-kan payer + 1000 per added-kan payer + 2000 per open kan,
    minus what the seat paid; payments made equal payments received in every hand."""
    for _, _, hands, _ in runs:
        received = 2000 * hands["closed_kan_payers"] + 1000 * hands["added_kan_payers"] + 2000 * hands["open_kans"]
        assert (hands["kan_income"] == received.cast(pl.Int64) - hands["kan_paid"]).all()
        per_hand = hands.with_columns(received=received).group_by(["match_id", "hand"]).agg(
            pl.col("received").sum(), pl.col("kan_paid").sum())
        assert (per_hand["received"] == per_hand["kan_paid"]).all()
        assert (hands["open_kans"] + (hands["closed_kan_payers"] > 0).cast(pl.Int8) <= hands["kans"] + 3).all()
        assert hands["kans"].sum() > 0 and hands["open_kans"].sum() > 0 and hands["closed_kan_payers"].sum() > 0


def test_rule_b21_refund_returns_all_kan_income_of_noten_players(runs):
    """B-21: at an exhaustive draw every non-won, non-tenpai player returns all kan income received."""
    for _, _, hands, _ in runs:
        drawn = hands.filter(pl.col("hand_end") == 1)
        received = 2000 * drawn["closed_kan_payers"] + 1000 * drawn["added_kan_payers"] + 2000 * drawn["open_kans"]
        returns = ((drawn["won"] == 0) & (drawn["tenpai_at_draw"] == 0)).to_numpy()
        refund, received, paid = drawn["refund"].to_numpy(), received.to_numpy(), drawn["kan_paid"].to_numpy()
        got_back = np.where(returns, refund + received, refund)  # what others returned to this payer
        assert (got_back >= 0).all() and (got_back <= paid).all()
        assert (refund[returns & (received > 0)] < 0).any()


def test_rule_b22_b23_draw_settlement_recomputable(runs):
    """B-22/B-23 from the recorded tenpai, flower-pig and max-value columns of each drawn hand."""
    seen_tenpai = seen_pig = False
    for _, _, hands, _ in runs:
        drawn = hands.filter(pl.col("hand_end") == 1).sort(["match_id", "hand", "seat"])
        won = drawn["won"].to_numpy().reshape(-1, 4) == 1
        tenpai = drawn["tenpai_at_draw"].to_numpy().reshape(-1, 4) == 1
        pig = drawn["flower_pig"].to_numpy().reshape(-1, 4) == 1
        max_value = drawn["max_value"].to_numpy().reshape(-1, 4)
        expected = np.zeros_like(max_value)
        for a in range(4):
            for b in range(4):
                if a == b:
                    continue
                pays = pig[:, a] & ~won[:, b]
                amount = np.maximum(8000, max_value[:, b])
                expected[:, a] -= np.where(pays, amount, 0)
                expected[:, b] += np.where(pays, amount, 0)
                dajiao = ~won[:, a] & ~tenpai[:, a] & ~pig[:, a] & tenpai[:, b]
                expected[:, a] -= np.where(dajiao, max_value[:, b], 0)
                expected[:, b] += np.where(dajiao, max_value[:, b], 0)
        assert (drawn["draw_settlement"].to_numpy().reshape(-1, 4) == expected).all()
        seen_tenpai |= bool(tenpai.any())
        seen_pig |= bool(pig.any())
    assert seen_tenpai and seen_pig


def test_rule_b19_tsumo_bonus_fan_option_in_play():
    """With tsumo_bonus = "fan" every payer of a tsumo pays the value of one more fan (capped), not +1000."""
    hand_rows, _ = bloodshed.simulate(4, np.arange(400), parse_seats("baseline"),
                                      rules=bloodshed.rules_class(tsumo_bonus="fan"))
    hands, _ = _frames(hand_rows, np.zeros((0, len(MATCH_COLUMNS)), np.int32))
    tsumo = hands.filter(pl.col("win_kind") == 2)
    assert tsumo.height > 100
    each = np.array([fan_value(min(int(f) + 1, 6)) for f in tsumo["fan"]])
    assert (tsumo["win_points"].to_numpy() == each * (4 - tsumo["win_order"].to_numpy())).all()


def test_rule_b13_winners_to_end_option():
    """Option winners_to_end = 1: the hand ends at the first win (every claimant of that discard wins, B-11)."""
    hand_rows, _ = bloodshed.simulate(4, np.arange(300), parse_seats("baseline"),
                                      rules=bloodshed.rules_class(winners_to_end=1))
    hands, _ = _frames(hand_rows, np.zeros((0, len(MATCH_COLUMNS)), np.int32))
    per_hand = hands.group_by(["match_id", "hand"]).agg(pl.col("won").sum(), pl.col("win_kind").max(),
                                                        pl.col("hand_end").first())
    assert (per_hand.filter(pl.col("hand_end") == 0)["won"] >= 1).all()
    assert (per_hand.filter(pl.col("win_kind") == 2)["won"] == 1).all()  # a tsumo ends it alone
    assert per_hand["won"].max() >= 2 and per_hand["won"].mean() < 1.3
