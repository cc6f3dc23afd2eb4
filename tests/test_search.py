"""The `search` policy (policies.search) and its match driver (analyzer.search.play): records identical to the
kernel's when every searched decision keeps the base's answer, reproducible across jobs and chunks, and a
searched decision that follows the rollouts."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tsumolab.analyzer.search import play as search_play, table as search_table
from tsumolab.analyzer.runs.options import build_spec
from tsumolab.analyzer.runs.runner import combined_tables, execute
from tsumolab.policies.registry import PolicyError, parse_seats
from tsumolab.sims.modes import get_mode

SEED = 5
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "positions"


@pytest.mark.parametrize("slug", ["bloodshed", "shura"])
def test_search_switched_off_plays_the_base_policy_row_for_row(slug):
    """With no kind searched the driver stops at every decision and forces nothing: the rows are the kernel's."""
    mode = get_mode(slug)
    ids = np.arange(6)
    base = mode.simulate(SEED, ids, parse_seats("baseline,majsoul-cpu,baseline,random"))
    off = search_play.simulate(mode, SEED, ids, parse_seats("search(kinds=0),majsoul-cpu,baseline,random"))
    assert np.array_equal(base[0], off[0]) and np.array_equal(base[1], off[1])


@pytest.mark.parametrize("slug", ["bloodshed", "shura"])
@pytest.mark.slow
def test_search_that_keeps_every_base_answer_plays_the_base_policy_row_for_row(slug):
    """Every kind searched, rollouts played, but a margin no option reaches: the base answer stands at every
    searched decision, so the hands and matches equal the base policy's exactly (two search seats)."""
    mode = get_mode(slug)
    ids = np.arange(3)
    table_seats = parse_seats("search(rollouts=2,kinds=127,top_k=2,z=inf),baseline,search(rollouts=2,z=inf),random")
    stats = search_table.SearchStats()
    played = search_play.simulate(mode, SEED, ids, table_seats, stats=stats)
    base = mode.simulate(SEED, ids, parse_seats("baseline,baseline,baseline,random"))
    assert stats.searched > 10 and stats.changed == 0
    assert np.array_equal(base[0], played[0]) and np.array_equal(base[1], played[1])


@pytest.mark.slow
@pytest.mark.parametrize("slug, seed", [("bloodshed", SEED), ("shura", SEED), ("astrology", 3), ("darkness", 3)])
def test_search_changes_play_and_is_reproducible_across_jobs_and_chunks(slug, seed, tmp_path):
    """A searching seat plays other answers than its base, and the run's tables do not depend on --jobs or
    the chunk size (every search is keyed by seed, match, hand and decision). In astrology and darkness (A, D) the
    default kinds include the modes' own decisions."""
    seats = "search(rollouts=4,z=0),baseline,baseline,baseline"
    one = execute(build_spec(slug, seats, 4, seed, 4), tmp_path / "one", jobs=1, progress=False)
    two = execute(build_spec(slug, seats, 4, seed, 1), tmp_path / "two",
                  jobs=2, progress=False)
    assert (one.chunks, two.chunks) == (1, 4)
    hands_one, matches_one = combined_tables(tmp_path / "one")
    hands_two, matches_two = combined_tables(tmp_path / "two")
    assert hands_one.equals(hands_two) and matches_one.equals(matches_two)
    base = get_mode(slug).simulate(seed, np.arange(4), parse_seats("baseline"))
    assert not np.array_equal(base[1], search_play.simulate(get_mode(slug), seed, np.arange(4),
                                                            parse_seats(seats))[1])


def test_search_follows_the_rollouts_at_a_clear_decision():
    """examples/positions/b1-ron.json: baseline takes the cheap ron (2000), the rollouts find passing worth far
    more (README, advise example 1), so a search seat passes; searching only kans, it keeps the ron."""
    from tsumolab.analyzer.advise.bloodshed_position import state_of
    from tsumolab.analyzer.search.bloodshed import Decider
    from tsumolab.sims.decisions import PASS, RON

    S, seat = state_of(json.loads((EXAMPLES / "b1-ron.json").read_text()))
    for spec, expected in (("search(rollouts=64)", PASS), ("search(rollouts=64,kinds=2)", None)):
        seats = parse_seats(",".join(spec if s == seat else "baseline" for s in range(4)))
        table = search_table.SearchTable("bloodshed", seats, get_mode("bloodshed").rules_class())
        answer = Decider(table).answer(table.searchers[seat], S.copy(), seed=11)
        assert answer == expected and expected != RON, spec


def test_search_parameters_are_checked():
    """A rollout or base policy outside the named choices, or too few rollouts, is refused with a message, and
    so is a seat beside the search seat that does not play the mode."""
    with pytest.raises(PolicyError, match="rollout=7"):
        search_play.simulate(get_mode("bloodshed"), 0, np.arange(1), parse_seats("search(rollout=7)"))
    with pytest.raises(ValueError, match="rollouts must be at least 2"):
        search_play.simulate(get_mode("bloodshed"), 0, np.arange(1), parse_seats("search(rollouts=1)"))
    with pytest.raises(ValueError, match="deal must be 0"):
        search_play.simulate(get_mode("bloodshed"), 0, np.arange(1), parse_seats("search(deal=2)"))
    with pytest.raises(PolicyError, match="does not support mode"):
        search_play.simulate(get_mode("fate"), 0, np.arange(1), parse_seats("search,star-picker,baseline,baseline"))
