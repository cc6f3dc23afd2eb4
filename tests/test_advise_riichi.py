"""Decision analysis in the riichi modes: determinization (sims.riichi.determinize), paired rollouts
(sims.riichi.rollout) and the sampler analyzer.advise.evaluate drives (analyzer.advise.riichi_sampler)."""

from __future__ import annotations


import numpy as np
import pytest

from tsumolab.analyzer.advise.evaluate import advise
from tsumolab.analyzer.advise.riichi_sampler import RiichiSampler, riichi_options
from tsumolab.policies.registry import parse_seats
from tsumolab.sims.decisions import D_DARK_OPEN, D_EXCHANGE, D_PICK, D_REACT, D_TURN, RIICHI, TSUMO
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi.determinize import determinize, hidden_tiles
from tsumolab.sims.riichi.hand_state import HS
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.public_tiles import no_public_tiles
from tsumolab.sims.riichi.progress import UNIFORM, field_progress
from tsumolab.sims.shanten_tables import lookup_tables
from tsumolab.sims.riichi.positions import RiichiEngine
from tsumolab.sims.riichi.tableau import ST_RED_HAND, is_red
from tsumolab.sims.shanten import RIICHI_SHAPES, shanten
from tsumolab.sims.shanten_tables import SUIT_ROWS
from tests.sampling import assert_follows_the_pool, positions

TABLES = lookup_tables()
NO_PUBLIC = no_public_tiles()


def _copy_arrays(pos):
    return pos.hs.copy(), pos.obs.copy(), pos.st.copy(), pos.wall.copy()


def _red_total(obs, st, wall, hs, seat):
    """Red fives among the other seats' hands and the hidden wall slots."""
    ids = hidden_tiles(hs, obs, st, wall, seat, NO_PUBLIC)
    return int(sum(is_red(i) for i in ids))


@pytest.mark.parametrize("slug, spec", [("riichi", "baseline,random,majsoul-cpu,baseline"),
                                        ("shura", "baseline,majsoul-cpu,random,baseline")])
@pytest.mark.parametrize("deal", ["uniform", "progress"])
def test_determinize_keeps_the_view_and_the_tiles(slug, spec, deal):
    """R-1: a determinization changes only what the seat cannot see: its own hand and every public count stay,
    each other seat keeps its hand size, the 136 tiles and the red fives add up, riichi seats are tenpai; with
    the uniform and with the progress deal."""
    table = UNIFORM if deal == "uniform" else field_progress(slug)
    checked = riichi_seen = 0
    for _, pos in positions(slug, seed=11, n_matches=6, spec=spec):
        seat = pos.seat
        hs, obs, st, wall = _copy_arrays(pos)
        before = sorted(hidden_tiles(pos.hs, pos.obs, pos.st, pos.wall, seat, NO_PUBLIC) // 4)
        assert determinize(hs, obs, st, wall, seat, 7, checked, TABLES, table, NO_PUBLIC) == 0
        np.testing.assert_array_equal(obs[seat, :ROBS.hand + 34], pos.obs[seat, :ROBS.hand + 34])
        np.testing.assert_array_equal(obs[seat, ROBS.red:ROBS.red + 3], pos.obs[seat, ROBS.red:ROBS.red + 3])
        for p in range(4):
            assert obs[p, ROBS.hand:ROBS.hand + 34].sum() == pos.obs[p, ROBS.hand:ROBS.hand + 34].sum()
            in_riichi = obs[0, ROBS.riichi + p] and not obs[0, ROBS.won + p]
            if p != seat and in_riichi and obs[p, ROBS.hand:ROBS.hand + 34].sum() % 3 == 1:
                riichi_seen += 1
                assert shanten(obs[p, ROBS.hand:ROBS.hand + 34], obs[0, ROBS.n_melds + p], RIICHI_SHAPES,
                               TABLES[:SUIT_ROWS], TABLES[SUIT_ROWS:]) <= 0
        assert sorted(hidden_tiles(hs, obs, st, wall, seat, NO_PUBLIC) // 4) == before
        assert _red_total(obs, st, wall, hs, seat) == _red_total(pos.obs, pos.st, pos.wall, pos.hs, seat)
        for p in range(4):
            for suit in range(3):
                assert st[ST_RED_HAND + p, suit] == obs[p, ROBS.red + suit]
        checked += 1
    assert checked >= 50 and riichi_seen > 0


def _other_riichi_declarers():
    """(position, seat p) for each seat other than the deciding one that is in riichi, has not won and holds 13
    tiles, at random decisions of 12 simulated riichi matches of baseline seats (seed 11)."""
    for _, pos in positions("riichi", seed=11, n_matches=12, spec="baseline"):
        for p in range(4):
            if p != pos.seat and pos.obs[0, ROBS.riichi + p] and not pos.obs[0, ROBS.won + p] and \
                    pos.obs[p, ROBS.hand:ROBS.hand + 34].sum() % 3 == 1:
                yield pos, p


def test_a_riichi_seat_is_dealt_waits_out_of_its_river():
    """Issue 30, R-4: a determinized riichi declarer waits on no kind it discarded or let pass since its riichi
    (a furiten riichi could never ron, which made pushing into a riichi look cheap), as in the simulated games
    themselves; a hand that stays furiten after every remix is kept (at most 1 in 100 here; a third of them
    before the remixes)."""
    from tsumolab.sims.riichi.tableau import ST_WAITS

    table = field_progress("riichi")
    dealt = furiten = 0
    for pos, p in _other_riichi_declarers():
        river = (pos.obs[0, ROBS.discarded + 34 * p:ROBS.discarded + 34 * p + 34] > 0) | \
                (pos.obs[0, ROBS.safe + 34 * p:ROBS.safe + 34 * p + 34] > 0)
        assert not (pos.st[ST_WAITS + p] > 0)[river].any()  # the simulated declarer itself
        for sample in range(5):
            hs, obs, st, wall = _copy_arrays(pos)
            assert determinize(hs, obs, st, wall, pos.seat, 3, sample, TABLES, table, NO_PUBLIC) == 0
            waits = st[ST_WAITS + p] > 0
            assert waits.any()
            furiten += bool(waits[river].any())
            dealt += 1
    assert dealt >= 200 and furiten <= dealt // 100


def test_riichi_waits_are_two_sided_as_often_as_real_ones():
    """Issue 30, R-4: the tenpai hands dealt to a riichi declarer wait two-sided (two kinds of a suit three
    apart) about as often as the riichi declarations of real games do (REAL_TWO_SIDED), not as seldom as the
    tenpai hands taken uniformly (about one in four), which made a fresh middle tile look too safe. Counted
    soon after the declaration (at most three kinds let pass since), as the real share is: each kind let pass
    without a win makes a two-sided wait less likely, at a real table as in the deal."""
    from tsumolab.sims.riichi.determinize import REAL_TWO_SIDED, two_sided
    from tsumolab.sims.riichi.tableau import ST_WAITS

    table = field_progress("riichi")
    dealt = wide = 0
    for pos, p in _other_riichi_declarers():
        passed = (pos.obs[0, ROBS.safe + 34 * p:ROBS.safe + 34 * p + 34] > 0) & \
                 (pos.obs[0, ROBS.discarded + 34 * p:ROBS.discarded + 34 * p + 34] == 0)
        if passed.sum() > 3:
            continue
        for sample in range(5):
            hs, obs, st, wall = _copy_arrays(pos)
            assert determinize(hs, obs, st, wall, pos.seat, 5, sample, TABLES, table, NO_PUBLIC) == 0
            wide += two_sided(st[ST_WAITS + p])
            dealt += 1
    assert dealt >= 200 and abs(wide / dealt - REAL_TWO_SIDED) < 0.06, (wide, dealt)


@pytest.mark.slow
def test_advice_ignores_how_the_hidden_tiles_lie():
    """Issue 15: rearranging the hidden tiles of the source state consistently with the view (here: by a
    determinization with another seed) leaves every rollout value identical for the same seed."""
    sampler = RiichiSampler("baseline", "shura")
    compared = 0
    for _, pos in positions("shura", seed=4, n_matches=3, per_hand=1,
                             want=lambda p: p.decision in (D_TURN, D_REACT)):
        options = riichi_options(pos.view, TABLES)
        answers = [a for _, a in options][:4]
        moved = pos.copy()
        assert determinize(moved.hs, moved.obs, moved.st, moved.wall, pos.seat, 99, 0, TABLES, UNIFORM,
                           NO_PUBLIC) >= 0
        moved.hs[:] = pos.hs  # the rearranged tiles only: phase, seeds and streams as in the source
        moved.obs[:, ROBS.rng] = pos.obs[:, ROBS.rng]
        a = sampler.rollouts(pos, pos.seat, answers, 5, 0, 12, False)
        b = sampler.rollouts(moved, pos.seat, answers, 5, 0, 12, False)
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
        compared += 1
    assert compared >= 5


def test_determinized_wall_is_uniform():
    """The first live-wall tile of a determinization is each hidden kind with probability proportional to its
    hidden copies (chi-square, 6,000 samples, p > 0.001) on a late position of a hand without riichi."""
    table = RiichiEngine(parse_seats("baseline"), get_mode("riichi").rules_class(), root_seed=2)
    pos = None
    for match_id in range(20):
        full = table.play_hand(match_id, 1)
        cand = table.at_decision(match_id, 1, max(full.n_decisions - 12, 0))
        if cand is not None and cand.obs[0, ROBS.riichi:ROBS.riichi + 4].sum() == 0:
            pos = cand
            break
    assert pos is not None
    seat = pos.seat
    pool = np.bincount(hidden_tiles(pos.hs, pos.obs, pos.st, pos.wall, seat, NO_PUBLIC) // 4, minlength=34)
    n = 6_000
    first = np.zeros(34, np.int64)
    at = int(pos.hs[HS.pos])
    for k in range(n):
        hs, obs, st, wall = _copy_arrays(pos)
        determinize(hs, obs, st, wall, seat, 1, k, TABLES, UNIFORM, NO_PUBLIC)
        first[wall[at] // 4] += 1
    assert_follows_the_pool(first, pool)


def _first_decision(table, want, n_matches):
    """The first decision of simulated play (every decision of every hand, in order) that `want` accepts."""
    for match_id in range(n_matches):
        for hand_no in range(1, 9):
            pos = table.at_decision(match_id, hand_no, 0)
            if pos is None:
                break
            while pos.pending:
                if want(pos):
                    return pos
                table.advance(pos, None, pos.n_decisions + 1)
    return None


def riichi_after_a_win(pos):
    return pos.decision == D_TURN and pos.view[ROBS.can_riichi] == 1 and pos.obs[0, ROBS.n_winners] >= 1


def test_shura_riichi_or_dama_after_the_first_win():
    """S-3 bloodbath, claim S2 situation: a tenpai seat after the first win may declare riichi or stay dama; the
    analysis rolls both out on the same samples and reports them with intervals."""
    table = RiichiEngine(parse_seats("baseline"), get_mode("shura").rules_class(), root_seed=21)
    pos = _first_decision(table, riichi_after_a_win, n_matches=20)
    assert pos is not None, "no riichi-or-dama decision after a first win in 20 shura matches"
    riichi = [o for o in riichi_options(pos.view, TABLES) if o[1] >= RIICHI]
    dama = [o for o in riichi_options(pos.view, TABLES) if o[0] == "discard " + riichi[0][0].split()[1]]
    result = advise(pos, pos.seat, riichi[:1] + dama, RiichiSampler("baseline", "shura"), rollouts=200, seed=3)
    assert {r["option"] for r in result["options"]} == {riichi[0][0], dama[0][0]}
    assert result["determinizations"] >= 200 or result["stopped_early"]
    assert all(r["ci95"] > 0 for r in result["options"])


def test_readme_shura_riichi_or_dama_example():
    """README worked example 4 (S-3, claim S2's situation): riichi 8s beats dama 8s beyond the paired interval;
    the opponents dealt as the field builds them (issue 30) win and deal in far more often than uniform hands."""
    import json
    from pathlib import Path

    from tsumolab.commands.advise import run_advice

    example = Path(__file__).resolve().parent.parent / "examples" / "positions" / "shura-riichi.json"
    position = json.loads(example.read_text())
    result = run_advice(position, rollouts=1000, horizon="hand", seat_policies="baseline", seed=0, jobs=1)
    best, other = result["options"]
    assert (best["option"], other["option"]) == ("riichi 8s", "discard 8s")
    assert other["diff_to_best"] + other["diff_ci95"] < 0
    uniform = run_advice(position, rollouts=1000, horizon="hand", seat_policies="baseline", seed=0, jobs=1,
                         deal="uniform")
    assert uniform["options"][0]["option"] == "riichi 8s"
    assert best["deal_in_rate"] > uniform["options"][0]["deal_in_rate"] + 0.05
    assert best["exhaustive_draw_rate"] < uniform["options"][0]["exhaustive_draw_rate"] - 0.05


def _ura_dora(hs, obs, wall, seat):
    """Dora the seat's concealed tiles get from the ura indicators under the indicators shown (R-3)."""
    from tsumolab.sims.riichi.scoring import dora_of

    hand = obs[seat, ROBS.hand:ROBS.hand + 34]
    return sum(int(hand[dora_of(int(wall[127 + 2 * i]) // 4)]) for i in range(int(obs[0, ROBS.n_dora])))


def _riichi_tsumo_positions(n_wanted, n_matches):
    """Turns of a seat in riichi (no melds) that has drawn its winning tile."""
    table = RiichiEngine(parse_seats("baseline"), get_mode("riichi").rules_class(), root_seed=8)
    found = []
    for match_id in range(n_matches):
        for hand_no in range(1, 9):
            pos = table.at_decision(match_id, hand_no, 0)
            if pos is None:
                break
            while pos.pending and len(found) < n_wanted:
                seat = pos.seat
                if (pos.decision == D_TURN and pos.view[ROBS.can_win] == 1 and pos.obs[0, ROBS.riichi + seat] > 0
                        and pos.obs[0, ROBS.n_melds + seat] == 0):
                    found.append(pos.copy())
                table.advance(pos, None, pos.n_decisions + 1)
            if len(found) == n_wanted:
                return found
    return found


def test_riichi_tsumo_is_scored_with_the_determinized_ura():
    """Issue 30, R-3 ura dora: a seat in riichi that has drawn its winning tile is paid with the ura indicators
    of each determinization, not those of the wall the position was stopped on. Per sample the tsumo's value
    follows the ura dora the seat gets there (the same count, the same value; more, not less), and it varies."""
    sampler = RiichiSampler("baseline", "riichi")
    tsumo_positions = _riichi_tsumo_positions(4, n_matches=40)
    assert len(tsumo_positions) == 4
    varied = 0
    for pos in tsumo_positions:
        seat = pos.seat
        count = 60
        values, _, _ = sampler.rollouts(pos, seat, [TSUMO], 7, 0, count, False)
        by_ura = {}
        for j in range(count):
            hs, obs, st, wall = _copy_arrays(pos)
            assert determinize(hs, obs, st, wall, seat, 7, j, TABLES, sampler.progress, NO_PUBLIC) >= 0
            by_ura.setdefault(_ura_dora(hs, obs, wall, seat), set()).add(float(values[0, j]))
        assert all(len(v) == 1 for v in by_ura.values()), by_ura
        paid = [next(iter(by_ura[u])) for u in sorted(by_ura)]
        assert paid == sorted(paid), by_ura
        varied += len(set(paid)) > 1
    assert varied >= 2


@pytest.mark.parametrize("slug, game, kinds", [("riichi", "baseline", {D_TURN, D_REACT}),
                                               ("shura", "baseline", {D_EXCHANGE, D_TURN, D_REACT}),
                                               ("astrology", "baseline", {D_TURN, D_REACT, D_PICK}),
                                               ("darkness", "shadow-player", {D_TURN, D_REACT, D_DARK_OPEN})])
def test_the_rollout_policy_answer_is_one_of_the_options(slug, game, kinds):
    """advise's recommendation falls back on the answer of the deciding seat's rollout policy: asked through the
    hook of the decision's kind (the mode hook for astrology's pick, A, and darkness's open, D), it is one of the
    options, for baseline and expert, at every kind of decision of simulated games of `game` (an exchange, S-2:
    three held tiles, lowest kind first, as the options pack them; the options list only EXCHANGE_CAP of them);
    so is every discard without riichi that the discard prior's preference then lists."""
    samplers = [RiichiSampler(spec, slug) for spec in ("baseline", "expert")]
    seen = set()
    for _, pos in positions(slug, seed=5, n_matches=3, per_hand=4, spec=game):
        answers = {a for _, a in riichi_options(pos.view, TABLES)}
        for sampler in samplers:
            preference = sampler.policy_answers(pos, pos.seat, 3)
            answer = preference[0]
            if pos.decision == D_EXCHANGE:
                kinds_given = [(answer >> shift) & 0xFF for shift in (0, 8, 16)]
                hand = pos.view[ROBS.hand:ROBS.hand + 34]
                assert kinds_given == sorted(kinds_given)
                assert all(hand[k] >= kinds_given.count(k) for k in kinds_given)
            else:
                assert answer in answers
                assert {a for a in preference if a < RIICHI} <= answers  # the prior's discards, without riichi
        seen.add(int(pos.decision))
    assert kinds <= seen


def test_the_default_rollout_field_is_fast_expert_in_the_riichi_modes_and_baseline_in_bloodshed():
    """Without --seat-policies, advise rolls riichi-family positions out with `fast-expert` (it folds and judges,
    at four times `expert`'s speed) and Bloodshed positions with `baseline`; the result names the field it used."""
    import json
    from pathlib import Path

    from tsumolab.commands.advise import run_advice

    examples = Path(__file__).resolve().parent.parent / "examples" / "positions"
    shura = run_advice(json.loads((examples / "shura-riichi.json").read_text()), rollouts=20, horizon="hand",
                       seat_policies=None, seed=0, jobs=1)
    named = run_advice(json.loads((examples / "shura-riichi.json").read_text()), rollouts=20, horizon="hand",
                       seat_policies="fast-expert", seed=0, jobs=1)
    assert shura["seat_policies"] == "fast-expert" and shura == named
    bloodshed = run_advice(json.loads((examples / "b1-ron.json").read_text()), rollouts=20, horizon="hand",
                           seat_policies=None, seed=0, jobs=1)
    assert bloodshed["seat_policies"] == "baseline"


def _ready_dama_turns(n_wanted, n_matches):
    """Own turns of simulated riichi play (baseline seats, events kept) where the seat may declare riichi, each with
    a plain discard that keeps the hand ready (baseline declares there), by whether a ron on some winning tile
    would have a yaku without riichi ({True: [...], False: [...]}; the latter only when every winning kind is
    live, so that none is left unscored)."""
    from tsumolab.policies.riichi_common import live_waits_after, unseen
    from tsumolab.policies.win_value import ready_value

    table = RiichiEngine(parse_seats("baseline"), get_mode("riichi").rules_class(), root_seed=4, keep_events=True)
    found = {True: [], False: []}
    for match_id in range(n_matches):
        for hand_no in range(1, 9):
            pos = table.at_decision(match_id, hand_no, 0)
            if pos is None:
                break
            while pos.pending and min(len(v) for v in found.values()) < n_wanted:
                if pos.decision == D_TURN and pos.view[ROBS.can_riichi] == 1:
                    kind = next(a - RIICHI for _, a in riichi_options(pos.view, TABLES) if RIICHI <= a < RIICHI + 34)
                    waits = np.zeros(34, np.int64)
                    live_waits_after(pos.view, TABLES, kind, waits)
                    hand = pos.view[ROBS.hand:ROBS.hand + 34].copy()
                    hand[kind] -= 1
                    _, with_yaku, _ = ready_value(pos.view, hand, waits, 0)
                    all_live = all(unseen(pos.view)[w] > 0 for w in np.flatnonzero(waits))
                    if with_yaku > 0 or all_live:
                        found[with_yaku > 0].append((pos.copy(), kind))
                table.advance(pos, None, pos.n_decisions + 1)
    return table, {k: v[:n_wanted] for k, v in found.items()}


def _riichi_while_unchanged(events, seat):
    """Whether `seat`, after the discard that kept dama (the first of `events`), declared riichi while its hand
    stayed the one it kept (only drawn tiles let go)."""
    from tsumolab.sims.events import EV_DISCARD, EV_DRAW

    drawn = -1
    discards = 0
    for row in events:
        if row[3] != seat:
            continue
        if row[2] == EV_DRAW:
            drawn = row[4]
        elif row[2] == EV_DISCARD:
            discards += 1
            if discards > 1 and row[6] == 1:
                return True
            if discards > 1 and row[4] != drawn:
                return False
    return False


def test_a_declined_riichi_stays_dama_in_the_rollouts():
    """Issue 30, R-4: an option that discards without the riichi the seat could declare, keeping the hand ready
    with a yaku for a ron, is played on as dama (keeps_dama, set by the rollouts): the seat declares no riichi
    until a discard changes its hand. Without it the rollout policy (baseline) declares at its next turn, so such a
    dama was valued as a riichi one turn late. A ready hand without a yaku is not held: its dama can only tsumo,
    and players keep it to change it, so it plays on exactly as without keeps_dama."""
    table, turns = _ready_dama_turns(8, n_matches=60)
    assert len(turns[True]) == 8 and len(turns[False]) == 8
    late_riichi = {}
    for yaku, group in turns.items():
        for pos, kind in group:
            logs = []
            for keeps in (0, 1):
                play = pos.copy()
                play.hs[HS.keeps_dama] = keeps
                start = int(play.ev[0])
                table.resume(play, kind)
                logs.append(play.logged()[start:])
                late_riichi[yaku, keeps] = late_riichi.get((yaku, keeps), 0) + \
                    _riichi_while_unchanged(logs[-1], pos.seat)
            if not yaku:
                assert np.array_equal(logs[0], logs[1])
    assert late_riichi[True, 1] == 0 and late_riichi[True, 0] >= 4, late_riichi
    assert late_riichi[False, 0] >= 4, late_riichi
