"""`fantasy` 幻境传说 (RULES.md FL, on the R rules): one dealer, chance and fate card for the whole match.

The riichi-core invariants (R-1 … R-4) over ≥ 10,000 hands (100,000 in the slow test) with the cards drawn per
match; every win's payment recomputed from the records with the cards (赠品, 厄运沙漏); each of the 15 cards with
a test that recomputes its effect from the event log or the records (against a run without the card, where the
same check must fail), or drives the scorer on hand-built hands; the draw depends only on (seed, match).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import polars as pl
import pytest

from tsumolab.analyzer.tables import hand_table
from tsumolab.policies.registry import parse_seats
from tsumolab.sims import tiles as TL
from tsumolab.sims.events import EV_DISCARD, EV_KAN, EV_PAY, EV_PON, EV_WIN
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi import engine
from tsumolab.sims.riichi.events import (
    EV_CHI, EV_DORA, EV_RIICHI, PAY_GIVEAWAY, PAY_LOVE_PRICE, PAY_RIICHI, PAY_SHADY_DEAL,
)
from tsumolab.sims.riichi.scoring_rules import ScoringRules
from tsumolab.sims.riichi.scoring import (
    CHANCE_GOLDEN, CHANCE_OTHERWORLD, CHANCE_SHOWDOWN, CHANCE_SUPER_TANYAO, RES_HAN, RES_N_YAKU, RES_YAKU, SCORED,
    dora_of, new_context, new_result, score_hand,
)
from tsumolab.sims.riichi.rules import (
    STANDARD, FANTASY_SLUGS, FantasyRules, RiichiRules, T_FANTASY, parse_fantasy_cards,
)
from tsumolab.sims.riichi.yaku import AKA_DORA, DORA, URA_DORA, YAKU_NAMES
from tsumolab.sims.tiles import parse_tiles
from tests.riichi_runs import FAST_MATCHES, per_hand, run

SLUG = "fantasy"
SLOW_MATCHES = 6_500  # per seat mix → > 100,000 hands
MIX = "baseline,random,card-reader,majsoul-cpu"


def _sizes():
    return [pytest.param(FAST_MATCHES, id="fast"), pytest.param(SLOW_MATCHES, id="full", marks=pytest.mark.slow)]


def _play(cards: str, n: int = 400, seed: int = 5, spec: str = MIX):
    """(hands frame, event rows as a list of tuples) of `n` matches with `cards` fixed."""
    mode = get_mode(SLUG)
    seats = parse_seats(spec)
    counters = np.zeros(engine.N_COUNTERS, np.int64)
    hand_rows, _, events = mode.simulate_events(seed, np.arange(n), seats, FantasyRules(cards=cards))
    hands = hand_table(hand_rows, seats, mode).sort(["match_id", "hand", "seat"])
    return hands, [tuple(r) for r in events.tolist()], counters


def _by_hand(events):
    out = defaultdict(list)
    for row in events:
        out[row[0], row[1]].append(row)
    return out


# ----------------------------------------------------------------------------------------- options and draw

def test_rule_fl_rules_are_table_options_and_cards_are_validated():
    """FL: fantasy is a rule option (off in `riichi`); `cards` accepts slugs, simplified and traditional names in
    any order, one per deck, unnamed decks drawn (-1); unknown names, two cards of a deck and cards outside
    fantasy are clear errors."""
    rules = get_mode(SLUG).rules_class()
    assert isinstance(rules, FantasyRules) and rules.fantasy and rules.renchan and not STANDARD.fantasy
    assert parse_fantasy_cards("") == (-1, -1, -1)
    assert parse_fantasy_cards("fuuki,showdown,hourglass") == (0, 4, 2)
    assert parse_fantasy_cards("厄运沙漏, 胜负手 ,风纪") == (0, 4, 2)
    assert parse_fantasy_cards("風紀,勝負手,厄運沙漏") == (0, 4, 2)
    assert parse_fantasy_cards("love-price") == (-1, -1, 4)
    arr = FantasyRules(cards="giveaway,golden").to_array()
    assert arr[T_FANTASY] & 1 and list(arr[T_FANTASY + 1:T_FANTASY + 4]) == [4, 2, -1]
    assert STANDARD.to_array()[T_FANTASY] == 0
    with pytest.raises(ValueError, match="unknown fantasy card 'nope'"):
        FantasyRules(cards="fuuki,nope")
    with pytest.raises(ValueError, match="one card per deck"):
        FantasyRules(cards="fuuki,hype")
    with pytest.raises(ValueError, match="fantasy"):
        RiichiRules(cards="fuuki")
    with pytest.raises(ValueError, match="love_pot"):
        FantasyRules(love_pot="nowhere")
    assert all(len(deck) == 5 for deck in FANTASY_SLUGS)


def test_rule_fl_card_draw_depends_only_on_seed_and_match():
    """FL: the cards of match m depend only on (seed, m): the same under other seats, other match batches and
    other fixed decks; every card of every deck is drawn."""
    mode = get_mode(SLUG)

    def cards_of(seed, ids, spec="baseline", rules=None):
        rows, _ = mode.simulate(seed, np.asarray(ids), parse_seats(spec), rules)
        frame = hand_table(rows, parse_seats(spec), mode)
        return {m: (d, c, f) for m, d, c, f in frame.filter(pl.col("hand") == 1).select(
            "match_id", "card_dealer", "card_chance", "card_fate").unique().iter_rows()}

    a = cards_of(3, range(0, 120))
    b = cards_of(3, range(60, 180), "random")
    assert all(a[m] == b[m] for m in range(60, 120))
    fixed = cards_of(3, range(0, 120), rules=FantasyRules(cards="hype"))
    assert all(fixed[m] == ("hype", a[m][1], a[m][2]) for m in a)
    other_seed = cards_of(4, range(0, 120))
    assert any(other_seed[m] != a[m] for m in a)
    for deck, slugs in enumerate(FANTASY_SLUGS):
        assert {v[deck] for v in a.values()} == set(slugs)


# ------------------------------------------------------------------------------------------- riichi core

@pytest.mark.parametrize("n", _sizes())
@pytest.mark.slow
def test_rule_fl_riichi_core_invariants(n, riichi_checks):
    """R-1 … R-4 in fantasy with the cards drawn per match: tiles and points+sticks conserved, legal answers,
    every win has a yaku and its value follows from han/fu (the chance cards' han included)."""
    riichi_checks.riichi_core_invariants(SLUG, n)


@pytest.mark.parametrize("n", _sizes())
def test_rule_fl_win_points_recomputed_with_the_cards(n, win_value):
    """FL 赠品 / 厄运沙漏 + R-2: every winner receives value + honba + sticks, + 1000 per dora on a dealer ron
    under 赠品, − 300 per own discard after the riichi tile under 厄运沙漏 (ron: from the discarder's payment;
    tsumo: 100 per discard from each payer's share + honba; never below 0)."""
    bonus_seen = cut_seen = 0
    for spec, _, hands, _ in run(SLUG, n):
        wins = hands.filter(pl.col("won"))
        cols = ("han", "fu", "yakuman", "dealer", "win_kind", "value", "win_points", "honba", "sticks_won", "dora",
                "card_dealer", "card_fate", "riichi", "riichi_turn", "discards", "win_order")
        for row in wins.select(cols).iter_rows(named=True):
            tsumo = row["win_kind"] == "tsumo"
            if row["win_order"] != 1:  # on a multiple ron the honba bonus goes to the first winner only
                row["honba"] = 0
            expected = row["value"] + 300 * row["honba"] + 1000 * row["sticks_won"]
            bonus = 0
            if row["card_dealer"] == "giveaway" and row["dealer"] and not tsumo:
                bonus = 1000 * row["dora"]
                bonus_seen += bonus > 0
            cut = 0
            if row["card_fate"] == "hourglass" and row["riichi"] != "none":
                after = row["discards"] - row["riichi_turn"] - 1
                if tsumo:
                    _, _, share_dealer, share_other = win_value(row["han"], row["fu"], row["yakuman"],
                                                                 row["dealer"], True)
                    shares = [share_other] * 3 if row["dealer"] else [share_dealer, share_other, share_other]
                    cut = sum(min(100 * after, s + 100 * row["honba"]) for s in shares)
                else:
                    cut = min(300 * after, row["value"] + 300 * row["honba"] + bonus)
                cut_seen += cut > 0
            assert row["win_points"] == expected + bonus - cut, (spec, row)
    assert bonus_seen > 0 and cut_seen > 0


# ------------------------------------------------------------------------------------------- dealer cards

def _closed_dama_dealer_rons(hands):
    return hands.filter(pl.col("won") & pl.col("dealer") & (pl.col("win_kind") == "ron")
                        & (pl.col("riichi") == "none") & (pl.col("calls") == 0)).height


@pytest.mark.slow
def test_rule_fl_fuuki_dealer_rons_only_in_riichi_or_open():
    """FL 风纪: no dealer ron with a closed hand outside riichi (closed kans keep the hand closed); under another
    dealer card such rons happen on the same walls."""
    hands, _, _ = _play("fuuki,golden", 500, spec="random,majsoul-cpu,baseline,random")
    other, _, _ = _play("hype,golden", 500, spec="random,majsoul-cpu,baseline,random")
    assert _closed_dama_dealer_rons(hands) == 0
    assert _closed_dama_dealer_rons(other) > 0
    assert hands.filter(pl.col("won") & pl.col("dealer") & (pl.col("win_kind") == "ron")).height > 0


def _honba_steps(hands):
    h = per_hand(hands).with_columns(pl.col("honba").shift(-1).over("match_id").alias("next_honba"))
    return h.filter(pl.col("next_honba").is_not_null())


def test_rule_fl_eternal_night_honba():
    """FL 永夜 + R-2/R-5: dealer renchan (win, tenpai at exhaustive draw) adds 5 honba; a non-renchan exhaustive
    draw adds 1; an abortive draw adds 1 (option eternal_abortive off); a non-dealer win resets to 0."""
    hands, _, _ = _play("eternal-night", 400)
    steps = _honba_steps(hands)
    kinds = defaultdict(int)
    for row in steps.iter_rows(named=True):
        end, honba, nxt = row["hand_end"], row["honba"], row["next_honba"]
        if end == "win":
            expected = honba + 5 if row["dealer_won"] else 0
            kinds["renchan_win" if row["dealer_won"] else "win"] += 1
        elif end == "exhaustive":
            expected = honba + (5 if row["dealer_tenpai"] else 1)
            kinds["tenpai" if row["dealer_tenpai"] else "noten"] += 1
        else:
            expected = honba + 1
            kinds["abort"] += 1
        assert nxt == expected, row
    assert kinds["renchan_win"] > 0 and kinds["tenpai"] > 0 and kinds["noten"] > 0 and kinds["win"] > 0


@pytest.mark.slow
def test_rule_fl_confiscate_sticks_go_to_the_dealer_at_a_draw():
    """FL 没收: at an exhaustive (and, by default, abortive) draw every stick on the table — those carried in
    and those put down in the hand — goes to the dealer; other cards leave them on the table."""
    hands, _, _ = _play("confiscate,exaggeration", 500)
    draws = per_hand(hands).filter(pl.col("winners") == 0)
    assert draws.height > 0
    assert (draws["sticks_after"] == 0).all()
    dealer_card = hands.filter(pl.col("dealer")).select("match_id", "hand", "card_points")
    d = draws.join(dealer_card, on=["match_id", "hand"])
    assert (d["card_points"] == 1000 * (d["sticks_before"] + d["n_riichi"])).all()
    assert (d["card_points"] > 0).any()
    other, _, _ = _play("eternal-night,exaggeration", 500)
    assert (per_hand(other).filter(pl.col("winners") == 0)["sticks_after"] > 0).any()


def _hype_check(events, hype):
    """Replay: right after a dealer pon / kan (and its own closed-kan indicator) comes one extra indicator
    while fewer than 5 are shown and the card has flipped fewer than 4 this hand. Returns the extra flips."""
    flips = 0
    for _key, rows in _by_hand(events).items():
        rows = [r for r in rows if r[2] != EV_PAY]
        dealer = rows[0][3]
        shown = 0
        extra = 0
        i = 0
        while i < len(rows):
            kind, seat = rows[i][2], rows[i][3]
            if kind == EV_DORA:
                shown += 1
            if kind in (EV_PON, EV_KAN) and seat == dealer:
                j = i + 1
                if kind == EV_KAN and rows[i][5] == TL.ANKAN and shown < 5:
                    assert rows[j][2] == EV_DORA  # the closed kan's own indicator
                    shown += 1
                    j += 1
                expect = hype and shown < 5 and extra < 4
                got = j < len(rows) and rows[j][2] == EV_DORA
                assert got == expect, rows[i:j + 2]
                if got:
                    shown += 1
                    extra += 1
                    flips += 1
                i = j + (1 if got else 0)
                continue
            i += 1
    return flips


def test_rule_fl_hype_dealer_pon_or_kan_flips_an_extra_indicator():
    """FL 炒作 + R-1: each dealer pon or kan flips one more dora indicator at once, at most 4 extra per hand and
    never beyond 5 indicators; without the card a dealer pon flips none."""
    _, events, _ = _play("hype", 400, spec="random,baseline,random,baseline")
    assert _hype_check(events, True) > 20
    _, events, _ = _play("fuuki", 100, spec="random,baseline,random,baseline")
    _hype_check(events, False)


def test_rule_fl_giveaway_dealer_ron_pays_1000_per_dora():
    """FL 赠品: a dealer ron gets +1000 per dora of the win (indicators, red fives, ura), paid by the discarder;
    no bonus on a tsumo or for a non-dealer."""
    hands, events, _ = _play("giveaway", 500)
    paid = defaultdict(int)
    for m, h, kind, seat, tile, a, b, _c in events:
        if kind == EV_PAY and b == PAY_GIVEAWAY:
            paid[m, h, tile] += a
    seen = 0
    for row in hands.filter(pl.col("won")).iter_rows(named=True):
        expected = 1000 * row["dora"] if (row["dealer"] and row["win_kind"] == "ron") else 0
        assert paid.get((row["match_id"], row["hand"], row["seat"]), 0) == expected, row
        seen += expected > 0
    assert seen > 0


# ------------------------------------------------------------------------------------------- chance cards

OPTS = ScoringRules().to_array()


def _score(text: str, win: str, chance: int = 0, melds=(), **kw):
    counts, reds = parse_tiles(text)
    win_kind = TL.parse_tile(win)[0]
    conc = counts.astype(np.int8)
    melds_arr = np.zeros((4, 2), np.int8)
    for i, (mtype, low) in enumerate(melds):
        melds_arr[i] = (mtype, low)
    ctx = new_context(win=win_kind, red=int(reds.sum()), chance=chance, **kw)
    out = new_result()
    assert score_hand(conc, melds_arr, len(melds), ctx, OPTS, out) == SCORED
    yaku = {YAKU_NAMES[out[RES_YAKU + 2 * i]] if out[RES_YAKU + 2 * i] < len(YAKU_NAMES) else out[RES_YAKU + 2 * i]:
            int(out[RES_YAKU + 2 * i + 1]) for i in range(out[RES_N_YAKU])}
    dora = {y: int(out[RES_YAKU + 2 * i + 1]) for i in range(out[RES_N_YAKU])
            for y in [out[RES_YAKU + 2 * i]] if y in (DORA, AKA_DORA, URA_DORA)}
    return int(out[RES_HAN]), yaku, dora


def test_rule_fl_super_tanyao_is_3_han_closed_and_open():
    """FL 超断幺: tanyao scores 3 han (closed and open) through the scorer; other hands are unchanged."""
    closed = "234m567m345p66p678s"
    base, _, _ = _score(closed, "2m")
    card, yaku, _ = _score(closed, "2m", CHANCE_SUPER_TANYAO)
    assert yaku["Tanyao"] == 3 and card == base + 2
    # open: chi 3-4-5s called, ron on 6p
    base, _, _ = _score("234m567m66p678p", "6p", melds=[(TL.CHI, 20)])
    card, _, _ = _score("234m567m66p678p", "6p", CHANCE_SUPER_TANYAO, melds=[(TL.CHI, 20)])
    assert card == base + 2 == 3
    plain = "123m567m345p66p678s"
    assert _score(plain, "1m", CHANCE_SUPER_TANYAO, riichi=1)[0] == _score(plain, "1m", riichi=1)[0]


def test_rule_fl_showdown_riichi_2_ippatsu_2_double_4():
    """FL 胜负手: riichi 2 han, ippatsu 2 han, double riichi 4 han (through the scorer)."""
    hand = "123m567m345p66p789s"
    assert _score(hand, "1m", CHANCE_SHOWDOWN, riichi=1)[0] == _score(hand, "1m", riichi=1)[0] + 1
    han, yaku, _ = _score(hand, "1m", CHANCE_SHOWDOWN, riichi=1, ippatsu=True)
    assert yaku["Riichi"] == 2 and yaku["Ippatsu"] == 2 and han == _score(hand, "1m", riichi=1, ippatsu=True)[0] + 2
    han, yaku, _ = _score(hand, "1m", CHANCE_SHOWDOWN, riichi=2)
    assert yaku["Double Riichi"] == 4 and han == _score(hand, "1m", riichi=2)[0] + 2
    assert _score(hand, "1m", CHANCE_SHOWDOWN, tsumo=True)[0] == _score(hand, "1m", tsumo=True)[0]


def test_rule_fl_golden_indicators_are_dora_too():
    """FL 金闪闪: every face-up indicator kind counts as a dora as well as the kind it shows."""
    hand = "123m567m345p66p789s"  # indicator 2m → dora 3m (1 held); indicator 2m itself held once
    _, _, base = _score(hand, "1m", riichi=1, dora=(1,))
    _, _, card = _score(hand, "1m", CHANCE_GOLDEN, riichi=1, dora=(1,))
    assert base[DORA] == 1 and card[DORA] == 2
    _, _, card = _score(hand, "1m", CHANCE_GOLDEN, riichi=1, dora=(1, 14))  # + indicator 6p (two held)
    assert card[DORA] == 1 + 1 + 2 + 0


def test_rule_fl_otherworld_riichi_ignores_face_up_dora_and_doubles_ura():
    """FL 里世界: a riichi win counts no face-up dora (red fives still count) and every ura dora twice; a
    win without riichi is unchanged."""
    hand = "123m567m340p66p789s"
    kw = dict(dora=(0,), ura=(4 + 9,))  # dora 2m (held once); ura indicator 5p → 6p (held twice)
    base_han, _, base = _score(hand, "1m", riichi=1, **kw)
    card_han, _, card = _score(hand, "1m", CHANCE_OTHERWORLD, riichi=1, **kw)
    assert base[DORA] == 1 and base[AKA_DORA] == 1 and base[URA_DORA] == 2
    assert DORA not in card and card[AKA_DORA] == 1 and card[URA_DORA] == 4
    assert card_han == base_han - 1 + 2
    assert _score(hand, "1m", CHANCE_OTHERWORLD, tsumo=True, **kw)[0] == _score(hand, "1m", tsumo=True, **kw)[0]


@pytest.mark.slow
def test_rule_fl_chance_cards_reach_the_recorded_han():
    """FL 超断幺 / 胜负手 in play: every tanyao win has ≥ 3 han, every riichi win ≥ 2 han (and a double riichi
    ≥ 4); without the card cheaper such wins occur on the same walls."""
    hands, _, _ = _play("super-tanyao", 400)
    tanyao = hands.filter(pl.col("won") & pl.col("yaku").str.contains("Tanyao"))
    assert tanyao.height > 0 and (tanyao["han"] >= 3).all()
    hands, _, _ = _play("showdown", 400)
    riichi = hands.filter(pl.col("won") & (pl.col("riichi") != "none") & (pl.col("yakuman") == 0))
    assert riichi.height > 0 and (riichi["han"] >= 2).all()
    assert (riichi.filter(pl.col("riichi") == "double")["han"] >= 4).all()
    other, _, _ = _play("golden", 400)
    won = other.filter(pl.col("won") & (pl.col("yakuman") == 0))
    assert (won.filter(pl.col("yaku").str.contains("Tanyao"))["han"] < 3).any()


def _is_yakuman(yaku_names):
    """A yakuman lists only yakuman (no riichi, no ippatsu)."""
    return not any(name in ("Riichi", "Double Riichi") for name in yaku_names)


def _ippatsu_expected(events, hands, turns):
    """Replay: a riichi win carries ippatsu iff no chi/pon/kan happened since the declaration and the winner
    made fewer than `turns` discards after its riichi tile. Returns (checked wins, wins with ippatsu after ≥1
    own discard)."""
    yaku = {(r["match_id"], r["hand"], r["seat"]): r["yaku"].split(",")
            for r in hands.filter(pl.col("won")).iter_rows(named=True)}
    checked = late = 0
    for (m, h), rows in _by_hand(events).items():
        riichi_at = {}
        after = defaultdict(int)
        called = set()
        for _m, _h, kind, seat, tile, a, b, c in rows:
            if kind == EV_RIICHI:
                riichi_at[seat] = True
            elif kind == EV_DISCARD and seat in riichi_at and not b:
                after[seat] += 1
            elif kind in (EV_CHI, EV_PON, EV_KAN):
                called |= set(riichi_at)
            elif kind == EV_WIN and seat in riichi_at and not _is_yakuman(yaku[m, h, seat]):
                expected = seat not in called and after[seat] < turns
                assert ("Ippatsu" in yaku[m, h, seat]) == expected, (m, h, seat, after[seat])
                checked += 1
                late += expected and after[seat] > 0
    return checked, late


@pytest.mark.slow
def test_rule_fl_triple_speed_ippatsu_lasts_three_go_arounds():
    """FL 三倍速 + R-4: ippatsu holds until the riichi player's 3rd discard after the riichi tile (no call in
    between); under another chance card only until the 1st."""
    hands, events, _ = _play("triple-speed", 500)
    checked, late = _ippatsu_expected(events, hands, 3)
    assert checked > 50 and late > 0
    hands, events, _ = _play("golden", 300)
    checked, late = _ippatsu_expected(events, hands, 1)
    assert checked > 20 and late == 0


# --------------------------------------------------------------------------------------------- fate cards

def test_rule_fl_exaggeration_doubles_noten_payments():
    """FL 夸大其词 + R-6: the noten payments are 6000 split (noten pay 6000 / noten count, tenpai receive
    6000 / tenpai count); nagashi mangan pays double (a non-dealer's from each: 4000, the dealer's 8000)."""
    hands, _, _ = _play("eternal-night,exaggeration", 500)
    ex = per_hand(hands).filter(pl.col("hand_end") == "exhaustive").select("match_id", "hand")
    rows = hands.join(ex, on=["match_id", "hand"])
    checked = 0
    for (_m, _h), grp in rows.group_by(["match_id", "hand"]):
        if grp["nagashi"].any():
            continue
        t = int(grp["tenpai_at_draw"].sum())
        for r in grp.iter_rows(named=True):
            if t in (0, 4):
                expected = 0
            else:
                expected = 6000 // t if r["tenpai_at_draw"] else -6000 // (4 - t)
            assert r["noten_payment"] == expected, r
            checked += t not in (0, 4)
    assert checked > 0


def test_rule_fl_over_prepared_riichi_costs_2000():
    """FL 过度准备: a riichi needs ≥ 2000 points (replayed from the payments) and every riichi that stands puts
    2000 (two 1000 sticks) on the table: per hand, sticks after − before = stick payments / 1000 − sticks won."""
    hands, events, _ = _play("eternal-night,over-prepared", 400)
    points = {(r["match_id"], r["hand"], r["seat"]): r["points_before"] for r in hands.iter_rows(named=True)}
    riichis = 0
    paid = defaultdict(int)
    for (m, h), rows in _by_hand(events).items():
        pts = [points[m, h, s] for s in range(4)]
        for _m, _h, kind, seat, tile, a, b, c in rows:
            if kind == EV_PAY:
                if seat >= 0:
                    pts[seat] -= a
                if tile >= 0:
                    pts[tile] += a
                if b == PAY_RIICHI:
                    paid[m, h] += a
            elif kind == EV_RIICHI:
                riichis += 1
                assert pts[seat] >= 2000
    assert riichis > 100
    won_sticks = hands.group_by(["match_id", "hand"]).agg(pl.col("sticks_won").sum())
    stood = 0
    for r in per_hand(hands).join(won_sticks, on=["match_id", "hand"]).iter_rows(named=True):
        key = (r["match_id"], r["hand"])
        assert paid[key] % 2000 == 0, r
        assert r["sticks_after"] - r["sticks_before"] == paid[key] // 1000 - r["sticks_won"], r
        stood += paid[key] // 2000
    assert stood > 100


def test_rule_fl_shady_deal_each_call_pays_500_to_the_discarder():
    """FL 暗中交易: every chi, pon and open kan off a discard is followed by a 500 payment from the caller to the
    discarder (added and closed kans pay nothing)."""
    _, events, _ = _play("shady-deal", 300, spec="random,baseline,random,baseline")
    expected = []
    got = []
    for m, h, kind, seat, tile, a, b, c in events:
        if kind == EV_CHI:
            expected.append((m, h, seat, b))
        elif kind == EV_PON:
            expected.append((m, h, seat, a))
        elif kind == EV_KAN and a == TL.MINKAN:
            expected.append((m, h, seat, b))
        elif kind == EV_PAY and b == PAY_SHADY_DEAL:
            assert a == 500
            got.append((m, h, seat, tile))
    assert len(expected) > 100 and sorted(got) == sorted(expected)


def test_rule_fl_love_price_calling_a_dora_costs_2000_to_the_sticks():
    """FL 爱的代价: a chi/pon/open kan whose called tile is a dora (face-up indicators so far, or a red five)
    costs the caller 2000, put on the stick pile (option love_pot = sticks)."""
    _, events, _ = _play("love-price", 400, spec="random,baseline,random,baseline")
    expected = []
    got = []
    for (m, h), rows in _by_hand(events).items():
        dora = set()
        last_red = 0
        for _m, _h, kind, seat, tile, a, b, c in rows:
            if kind == EV_DORA:
                dora.add(int(dora_of(tile)))
            elif kind == EV_DISCARD:
                last_red = c
            elif kind in (EV_CHI, EV_PON) or (kind == EV_KAN and a == TL.MINKAN):
                called = a if kind == EV_CHI else tile
                if called in dora or last_red:
                    expected.append((m, h, seat))
            elif kind == EV_PAY and b == PAY_LOVE_PRICE:
                assert a == 2000 and tile == -1
                got.append((m, h, seat))
    assert len(expected) > 20 and sorted(got) == sorted(expected)


# ------------------------------------------------------------------------------------------------- policy

def test_rule_fl_card_reader_reads_the_cards():
    """FL policy `card-reader`: legal answers only; under 厄运沙漏 its seat declares riichi less often than
    `baseline` would in that seat, and under 暗中交易 it calls less."""
    mode = get_mode(SLUG)
    rate = {}
    for cards in ("hourglass", "shady-deal"):
        for spec in ("card-reader,baseline,baseline,baseline", "baseline"):
            counters = np.zeros(engine.N_COUNTERS, np.int64)
            rows, _ = mode.simulate(9, np.arange(300), parse_seats(spec), FantasyRules(cards=cards),
                                    counters=counters)
            assert counters[engine.CNT_ILLEGAL] == 0, spec
            frame = hand_table(rows, parse_seats(spec), mode).filter(pl.col("seat") == 0)
            rate[cards, spec] = ((frame["riichi"] != "none").mean(), frame["calls"].mean())
    assert rate["hourglass", "card-reader,baseline,baseline,baseline"][0] < rate["hourglass", "baseline"][0]
    assert rate["shady-deal", "card-reader,baseline,baseline,baseline"][1] < rate["shady-deal", "baseline"][1]


def test_rule_fl_cards_flag_of_tsumolab_run(tmp_path):
    """FL: `tsumolab run --cards` sets the cards (as --rule cards=…); unknown cards and non-fantasy modes are
    one-line errors."""
    from click.testing import CliRunner

    import tsumolab.commands.run  # noqa: F401
    from tsumolab.cli import cli
    from tsumolab.analyzer.runs.runner import read_run_record

    out = tmp_path / "ok"
    res = CliRunner().invoke(cli, ["run", "--variant", SLUG, "-n", "2", "--cards", "风纪,showdown", "-q",
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert read_run_record(out)["spec"]["rules"]["cards"] == "风纪,showdown"
    res = CliRunner().invoke(cli, ["run", "--variant", SLUG, "-n", "2", "--cards", "nope", "--out",
                                   str(tmp_path / "a")])
    assert res.exit_code == 2 and "unknown fantasy card 'nope'" in res.output
    res = CliRunner().invoke(cli, ["run", "--variant", "riichi", "-n", "2", "--cards", "fuuki", "--out",
                                   str(tmp_path / "b")])
    assert res.exit_code == 2 and "--variant fantasy" in res.output


def _nine_terminals_by_seat_1(rules, build_wall, default_answer):
    """A scripted fantasy hand (1 honba, 2 sticks on the table) in which seat 1 declares nine terminals (R-5) on
    its first draw; every other decision is the scripted default."""
    from tsumolab.policies.riichi_api import D_TURN, NINE_TERMINALS, ROBS
    from tsumolab.sims.riichi.positions import HandContext, RiichiEngine

    hands = {0: "2345678m2345p88p", 1: "19m19p19s1234z567m", 2: "3456789s3456m77p", 3: "2233445566778s"}
    table = RiichiEngine(parse_seats("baseline"), rules, keep_events=True)
    pos = table.start(wall=build_wall(hands, "8p5z"),
                      context=HandContext(honba=1, sticks=2, points=(25_000, 24_000, 25_000, 24_000)))

    def choose(pos):
        if pos.decision == D_TURN and pos.seat == 1 and pos.view[ROBS.can_nine]:
            return NINE_TERMINALS
        return default_answer(pos)

    return table.play_scripted(pos, choose)


@pytest.mark.parametrize("abortive", [True, False])
def test_rule_fl_r5_scripted_confiscate_takes_the_sticks_at_nine_terminals(abortive, build_wall, default_answer,
                                                                          next_hand):
    """FL 没收 with R-5, a scripted hand (cards confiscate, golden, exaggeration; 1 honba, 2 sticks on the table):
    seat 1 aborts with nine terminals on its first draw. With confiscate_abortive (the default: source 001's
    流局 covers abortive draws) the dealer takes the 2 sticks, +2000, and none are left for the next hand; with
    the option off nothing moves and the sticks stay. Either way the dealer keeps the deal, honba 1 → 2 (R-5)."""
    from tsumolab.sims.riichi.columns import H_CARD_POINTS, H_DELTA, H_END, HAND_ENDS

    pos = _nine_terminals_by_seat_1(FantasyRules(cards="confiscate,golden,exaggeration", confiscate_abortive=abortive),
                                    build_wall, default_answer)
    assert (pos.rec[:, H_END] == HAND_ENDS.index("nine_terminals")).all()
    taken = 2000 if abortive else 0
    assert pos.rec[:, H_DELTA].tolist() == [taken, 0, 0, 0]
    assert pos.rec[0, H_CARD_POINTS] == taken
    assert next_hand(pos) == {"dealer": 0, "round": 0, "honba": 2, "sticks": 0 if abortive else 2}


@pytest.mark.parametrize("renchan, honba", [(False, 2), (True, 6)])
def test_rule_fl_r5_scripted_eternal_night_honba_after_nine_terminals(renchan, honba, build_wall, default_answer,
                                                                      next_hand):
    """FL 永夜 with R-5, a scripted hand (cards eternal-night, golden, exaggeration; 1 honba): seat 1 aborts with
    nine terminals. By default (eternal_abortive off) the abortive draw adds R-5's 1 honba: 2; with the option on
    it counts as a dealer renchan, which 永夜 makes +5: 6. No points move, the sticks stay, the dealer keeps."""
    from tsumolab.sims.riichi.columns import H_DELTA

    pos = _nine_terminals_by_seat_1(FantasyRules(cards="eternal-night,golden,exaggeration", eternal_abortive=renchan),
                                    build_wall, default_answer)
    assert pos.rec[:, H_DELTA].tolist() == [0, 0, 0, 0]
    assert next_hand(pos) == {"dealer": 0, "round": 0, "honba": honba, "sticks": 2}
