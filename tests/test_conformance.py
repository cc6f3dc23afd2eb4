"""Conformance of every mode × every registered policy that plays it (sims.modes × policies.registry).

Each cell plays two seatings, the policy in all four seats and the policy against baseline and random, and
requires what every built-in policy claims and every engine promises:
- no illegal answer: the engine never had to replace an answer by its default (CNT_ILLEGAL = 0);
- tiles conserved: every hand's 108 (Bloodshed, B-1) or 136 (riichi core, R-1) tiles add up (CNT_TILE_ERRORS = 0);
- determinism: results depend only on (root seed, match id) — the same seed gives the same rows, and playing
  the matches in two chunks gives the rows of playing them at once; another seed gives other rows (mixed
  seating).
A driven policy (`search`) plays through analyzer.search.play, as `tsumolab run` plays it, searching every kind
of decision with few rollouts (its searched answers must be legal too), on DRIVEN_MATCHES matches in the slow
suite only (tests/test_search.py checks the driver in the fast suite).
The runner level adds, for every mode, that `--jobs 2` with other chunk sizes writes the same tables.
The fast suite plays a few matches per cell; the slow suite the same grid at 1,000 matches per seating for
legality and tile conservation (determinism is checked on the first few of them).
"""

from __future__ import annotations

import numpy as np
import pytest

from tsumolab.analyzer.runs.options import build_spec
from tsumolab.analyzer.runs.runner import combined_tables, execute
from tsumolab.analyzer.search.play import simulate
from tsumolab.policies.registry import PolicyError, all_policies, check_mode, get, parse_seats
from tsumolab.sims.modes import MODES, get_mode

FAST_MATCHES = 12
FULL_MATCHES = 1_000     # about 8,000 (Bloodshed) to 12,000 (riichi core) hands per cell over the two seatings
SEED = 3
MIXED_SEATS = "baseline,random,majsoul-cpu,disconnected"   # policies that play every mode
DRIVEN_PARAMS = "rollouts=2,kinds=1023,top_k=2,z=0"  # a driven policy (search) searches every kind, cheaply
DRIVEN_MATCHES = FAST_MATCHES


def _engine(mode):
    """The compiled engine module of a mode, whose counters the simulate call fills."""
    from tsumolab.sims.riichi.rules import RiichiRules

    if issubclass(mode.rules_class, RiichiRules):
        from tsumolab.sims.riichi import engine
    else:
        from tsumolab.sims.bloodshed import engine
    return engine


def _plays(policy: str, slug: str) -> bool:
    try:
        check_mode(parse_seats(policy), slug)
    except PolicyError:
        return False
    return True


POLICIES = [policy.name for policy in all_policies()]   # registered when this module is collected
CELLS = [(slug, name) for slug in MODES for name in POLICIES if _plays(name, slug)]


def _grid(n_matches: int, size: str, marks=()):
    return [pytest.param(slug, name, n_matches, id=f"{slug}-{name}-{size}", marks=marks) for slug, name in CELLS
            if marks or not get(name).driven]


def test_every_mode_has_cells_and_every_policy_plays_somewhere():
    """The grid is not empty where it matters: each mode is played by several policies, each policy by a mode."""
    assert {slug for slug, _ in CELLS} == set(MODES)
    assert {name for _, name in CELLS} == set(POLICIES)
    assert all(sum(slug == s for s, _ in CELLS) >= 4 for slug in MODES)


@pytest.mark.parametrize(("slug", "name", "n_matches"),
                         _grid(FAST_MATCHES, "fast") + _grid(FULL_MATCHES, "full", marks=pytest.mark.slow))
def test_policy_is_legal_conserves_tiles_and_is_deterministic(slug, name, n_matches):
    """B-1 / R-1 (tiles conserved), legal answers, and results that depend only on (seed, match id)."""
    mode = get_mode(slug)
    engine = _engine(mode)
    ids = np.arange(n_matches if not get(name).driven else min(n_matches, DRIVEN_MATCHES))
    replay = ids[:FAST_MATCHES]   # determinism is checked on these, at every size
    half = FAST_MATCHES // 2
    spec_of = f"{name}({DRIVEN_PARAMS})" if get(name).driven else name
    for spec in (spec_of, f"{spec_of},baseline,{spec_of},random"):
        seats = parse_seats(spec)
        counters = np.zeros(engine.N_COUNTERS, np.int64)
        hand_rows, match_rows = simulate(mode, SEED, ids, seats, counters=counters)
        assert counters[engine.CNT_ILLEGAL] == 0, spec
        assert counters[engine.CNT_TILE_ERRORS] == 0, spec
        assert counters[engine.CNT_HANDS] >= ids.size and match_rows.shape[0] == 4 * ids.size, spec
        replay_hands = hand_rows[np.isin(hand_rows[:, 0], replay)]
        replay_matches = match_rows[np.isin(match_rows[:, 0], replay)]
        again_hands, again_matches = simulate(mode, SEED, replay, seats)
        assert np.array_equal(replay_hands, again_hands) and np.array_equal(replay_matches, again_matches), spec
        first, second = simulate(mode, SEED, replay[:half], seats), simulate(mode, SEED, replay[half:], seats)
        assert np.array_equal(np.concatenate([first[0], second[0]]), replay_hands), spec
        assert np.array_equal(np.concatenate([first[1], second[1]]), replay_matches), spec
    # the seed matters (checked on the mixed seating: four `disconnected` seats play every wall alike)
    other_hands, _ = simulate(mode, SEED + 1, replay, seats)
    assert not np.array_equal(other_hands, replay_hands), spec


@pytest.mark.parametrize("slug", list(MODES))
@pytest.mark.slow
def test_jobs_and_chunk_size_do_not_change_the_tables(slug, tmp_path):
    """A run in one process and one chunk, and the same run on 2 worker processes in chunks of 3, write the
    same hands and matches tables."""
    one = execute(build_spec(slug, MIXED_SEATS, 8, SEED, 8), tmp_path / "one", jobs=1, progress=False)
    two = execute(build_spec(slug, MIXED_SEATS, 8, SEED, 3), tmp_path / "two",
                  jobs=2, progress=False)
    assert (one.chunks, two.chunks, two.jobs) == (1, 3, 2)
    hands_one, matches_one = combined_tables(tmp_path / "one")
    hands_two, matches_two = combined_tables(tmp_path / "two")
    assert hands_one.height > 0 and hands_one.equals(hands_two) and matches_one.equals(matches_two)
