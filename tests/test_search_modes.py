"""`search` (policies.search, analyzer.search.riichi) in every riichi-family mode `advise` analyses (issue 31): it
plays each of them, searches the modes' own decisions — astrology's pick (A), darkness's face-down discard, open
and lock (D) — and the determinizations of its rollouts keep the tiles the mode shows (sims.riichi.public_tiles:
F, OD, M, A) exactly as advise's do."""

from __future__ import annotations

import numpy as np
import pytest

from tsumolab.analyzer.advise.riichi_sampler import RiichiSampler
from tsumolab.analyzer.advise.riichi_view import VARIANTS
from tsumolab.analyzer.engines import advise_modes
from tsumolab.analyzer.search import play as search_play
from tsumolab.analyzer.search import riichi as search_riichi
from tsumolab.analyzer.search.table import SearchStats
from tsumolab.policies.registry import parse_seats
from tsumolab.policies.search import HIDE, OPEN_LOCK, PICK
from tsumolab.policies.search import POLICY as SEARCH
from tsumolab.sims.decisions import D_DARK_LOCK, D_DARK_OPEN, D_PICK, D_TURN
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi.determinize import determinize
from tsumolab.sims.riichi.hand_state import HS
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.positions import RiichiEngine
from tsumolab.sims.riichi.progress import UNIFORM
from tsumolab.sims.riichi.public_tiles import RED
from tsumolab.sims.riichi.tableau import ST_RED_HAND
from tsumolab.sims.shanten_tables import lookup_tables
from tests.darkness_policies import register_test_policies
from tests.sampling import assert_public_fields_kept

SEED = 3
TABLES = lookup_tables()
SHOWING = ("fate", "open-deal", "mirror", "astrology")  # modes that show some of the riichi view's hidden tiles
KEEPING = "search(rollouts=2,z=inf)"  # every searched decision rolled out, the base's answer kept


def _searched(slug: str, spec: str, monkeypatch, matches: int = 1):
    """(hand_rows, match_rows, stats, rollouts) of `matches` matches of the field `spec` played by search's
    driver; rollouts: (stopped state, seat, seed, count, public) of each decision search rolled out, as the
    rollout kernel received them."""
    rollouts = []
    real = search_riichi.paired_rollouts

    def spy(start, seat, answers, seed, first, count, to_end, seating, rules, progress, public, samples):
        rollouts.append(([a.copy() for a in start], seat, seed, count, public))
        return real(start, seat, answers, seed, first, count, to_end, seating, rules, progress, public, samples)

    monkeypatch.setattr(search_riichi, "paired_rollouts", spy)
    stats = SearchStats()
    hand_rows, match_rows = search_play.simulate(get_mode(slug), SEED, np.arange(matches), parse_seats(spec),
                                                 stats=stats)
    return hand_rows, match_rows, stats, rollouts


def test_search_plays_every_mode_advise_analyses():
    """Issue 31: the modes `search` plays are Bloodshed and every riichi-family mode advise analyses."""
    assert set(SEARCH.modes) == {"bloodshed", *VARIANTS} == set(advise_modes())


@pytest.mark.parametrize("slug", VARIANTS)
def test_search_determinizations_keep_the_tiles_each_mode_shows(slug, monkeypatch):
    """Issue 31 (R, S, DF, OD, F, C, A, D, M, SS, FL, DE): a search seat that keeps every base answer plays the
    base's match row for row in each mode (keeping the event log changes nothing); each decision it rolls out is
    the engine's own position, its rollouts keep exactly the tiles advise keeps there (sims.riichi.public_tiles:
    none in R, S and the modes that show none), and their determinizations move no public field, no shown tile
    in a hand and no shown wall slot. In fate some decision comes after an opponent melded an open tile, which
    the rollouts no longer keep concealed (the bound needs the hand's log, which the search loop keeps)."""
    hand_rows, match_rows, stats, rollouts = _searched(slug, f"{KEEPING},baseline,baseline,baseline", monkeypatch)
    base = get_mode(slug).simulate(SEED, np.arange(1), parse_seats("baseline"))
    assert np.array_equal(base[0], hand_rows) and np.array_equal(base[1], match_rows)
    assert stats.searched == len(rollouts) > 5 and stats.changed == 0
    rules = get_mode(slug).rules_class()
    engine = RiichiEngine(parse_seats("baseline"), rules, root_seed=SEED, keep_events=True)
    advise = RiichiSampler("baseline", slug)
    shown = melded_open = 0
    for (hs, obs, _view, st, wall, _rec, _ev), seat, seed, count, (kept, kept_wall) in rollouts:
        pos = engine.at_decision(0, int(hs[HS.hand_no]), int(hs[HS.n_decisions]))
        assert np.array_equal(pos.hs, hs) and np.array_equal(pos.obs, obs) and np.array_equal(pos.wall, wall)
        assert pos.seat == seat and np.array_equal(pos.st, st)
        advised = advise.public(pos, seat)
        assert np.array_equal(kept, advised[0]) and np.array_equal(kept_wall, advised[1])
        shown += int(kept.sum() + kept_wall[pos.hs[HS.pos]:].sum())
        fate_open = obs[0, ROBS.fate_open:ROBS.fate_open + 4 * 34].reshape(4, 34)
        melded_open += int(any((kept[p, :34] < fate_open[p]).any() for p in range(4) if p != seat))
        for j in range(count):
            d = pos.copy()
            assert determinize(d.hs, d.obs, d.st, d.wall, seat, seed, j, TABLES, UNIFORM, (kept, kept_wall)) >= 0
            assert_public_fields_kept(d, pos)
            assert np.array_equal(d.wall[kept_wall == 1], pos.wall[kept_wall == 1])
            for p in range(4):
                assert (d.obs[p, ROBS.hand:ROBS.hand + 34] >= kept[p, :34]).all()
                assert (d.st[ST_RED_HAND + p, :3] >= kept[p, RED:RED + 3]).all()
    assert (shown > 0) == (slug in SHOWING)
    assert (melded_open > 0) == (slug == "fate")


def test_search_takes_astrology_picks_by_rollouts(monkeypatch):
    """A: searching only the pick (kinds=128), the seat rolls out the candidates of the pool at its pick
    decisions and no other decision, takes another candidate than its base's somewhere (z=0), and so plays
    another match than the base's."""
    hand_rows, _, stats, rollouts = _searched("astrology", f"search(kinds={PICK},rollouts=4,z=0),baseline,"
                                                           "baseline,baseline", monkeypatch)
    assert set(stats.by_decision) == {D_PICK}
    searched, changed = stats.by_decision[D_PICK]
    assert searched > 10 and changed > 0
    assert not np.array_equal(get_mode("astrology").simulate(SEED, np.arange(1), parse_seats("baseline"))[0],
                              hand_rows)


def test_search_decides_darkness_face_down_open_and_lock(monkeypatch):
    """D: searching only the face-down discard and open/lock (kinds=768) among seats that discard face down
    (`shadow-player`, and test-dark-greedy of tests/darkness_policies, which also opens and locks whenever it
    can), the seat rolls out its turns face up and face down, the opening of others' face-down tiles and the
    locking of its own opened ones, and no other decision; it discards face down and opens somewhere (its base
    never hides, opens or locks)."""
    register_test_policies()
    _, _, stats, _ = _searched("darkness", f"search(kinds={HIDE | OPEN_LOCK},rollouts=4,z=0),shadow-player,"
                                           "test-dark-greedy,shadow-player", monkeypatch, matches=2)
    assert set(stats.by_decision) == {D_TURN, D_DARK_OPEN, D_DARK_LOCK}
    assert all(searched > 0 for searched, _ in stats.by_decision.values())
    assert stats.by_decision[D_TURN][1] > 0 and stats.by_decision[D_DARK_OPEN][1] > 0

