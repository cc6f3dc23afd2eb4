"""`tsumolab bench --agreement` (issue 30): advise's recommendations against real players' choices."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import tsumolab.commands.bench  # noqa: F401  (registers `bench` on the group)
from tsumolab.analyzer.bench.agreement import candidates, choice_kind, run_agreement, shanten_of, summarize
from tsumolab.analyzer.games.read import read_game
from tsumolab.analyzer.advise.riichi_sampler import _shanten
from tsumolab.analyzer.review.game_review import ReviewSpec
from tsumolab.sims.decisions import D_REACT, D_TURN
from tsumolab.sims.tiles import parse_tiles

from tests.cli_run import run_cli

DATA = Path(__file__).resolve().parent / "data"
GAME = str(DATA / "tenhou6" / "ranked_game.json")


def test_choice_kinds_and_shanten():
    assert [choice_kind(c) for c in ("discard 5m", "riichi 3p", "ron", "chi low", "nine terminals")] == \
        ["discard", "riichi", "ron", "chi", "nine terminals"]
    assert shanten_of("123m456p789s11223z") == 0           # 14 tiles: ready after discarding 3z
    assert shanten_of("123m456p789s1122z") == 0            # 13 tiles waiting on 1z / 2z
    assert shanten_of("123m456p789s1z") == 0               # 10 tiles (a meld): waiting on 1z
    assert shanten_of("19m19p19s1234567z") == 0            # thirteen orphans, ready on all thirteen
    assert shanten_of("1357m2468p13579s") >= 3


def test_every_decision_of_every_seat_is_a_candidate():
    record = read_game(GAME)
    pool = candidates([record])
    assert {c.seat for c in pool} == {0, 1, 2, 3}
    assert {c.hand for c in pool} == set(range(1, record.n_hands + 1))
    assert sum(c.decision.kind == "turn" for c in pool) > 100


@pytest.mark.slow
def test_agreement_rows_follow_the_review_verdicts_and_do_not_depend_on_jobs():
    spec = ReviewSpec(0, None, 60, "hand", "baseline", 3)
    one = run_agreement([GAME], spec, sample=8, jobs=1)
    two = run_agreement([GAME], spec, sample=8, jobs=2)
    assert 1 <= one.height <= 8
    assert one.drop("seconds").equals(two.drop("seconds"))
    judged = one.filter(pl.col("refused") == "")
    for r in judged.iter_rows(named=True):
        assert r["top1"] == (r["recommended_option"] == r["choice"])
        assert r["top1"] <= r["within"]
        assert not (r["flagged"] and r["within"])
        assert r["options"] >= 2 and r["rollouts"] >= 1
    s = summarize(one)
    assert s["decisions"] == judged.height == sum(k["decisions"] for k in s["by_kind"])
    assert s["refused"] == one.height - judged.height
    assert s["top1"] == pytest.approx(judged["top1"].mean(), abs=1e-4)
    policy_agrees = [r["policy_choice"] == r["choice"] for r in judged.iter_rows(named=True)]
    assert s["policy_top1"] == pytest.approx(sum(policy_agrees) / len(policy_agrees), abs=1e-4)


def test_bench_agreement_command_prints_json_and_writes_the_rows(tmp_path, capsys):
    out = tmp_path / "rows.parquet"
    code, text, _ = run_cli(["bench", "--agreement", GAME, "--sample", "4", "--rollouts", "40", "--out", str(out),
                             "--json"], capsys)
    result = json.loads(text)
    assert code == 0 and result["logs"] == 1 and result["decisions"] == pl.read_parquet(out).height
    code, _, err = run_cli(["bench", "--agreement", str(tmp_path / "missing.json")], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "missing.parquet").exists()


def _view(hand: str, **fields):
    from tsumolab.sims.riichi.observation import ROBS
    from tsumolab.sims.tiles import parse_tiles

    view = np.zeros(ROBS.SIZE, np.int32)
    view[ROBS.hand:ROBS.hand + 34] = parse_tiles(hand)[0]
    view[ROBS.decision] = fields.pop("decision", D_TURN)
    for name, value in fields.items():
        base, _, at = name.partition("__")
        view[getattr(ROBS, base) + int(at or 0)] = value
    return view


def _discard_options(hand: str):
    from tsumolab.sims.tiles import parse_tiles, tile_name

    counts = parse_tiles(hand)[0]
    return [(f"discard {tile_name(k)}", k) for k in range(34) if counts[k]]


def test_planted_blunders_are_the_obviously_bad_options():
    """analyzer.bench.planted: a ready hand with live waits broken early, a fresh middle tile off the suji of the
    dealer's river pushed into its riichi from far, a late mangan ron passed; nothing planted where none
    applies."""
    from tsumolab.analyzer.bench.planted import planted_choice
    from tsumolab.sims.shanten_tables import lookup_tables

    tables = lookup_tables()
    ready = "123m456p789s11223z"
    plant, label = planted_choice(_view(ready, wall_left=40), _discard_options(ready), tables)
    assert plant == "break-ready"
    kind = [k for name, k in _discard_options(ready) if name == label][0]
    counts = parse_tiles(ready)[0]
    counts[kind] -= 1
    assert _shanten(counts, 0, tables) >= 1
    assert planted_choice(_view(ready, wall_left=10), _discard_options(ready), tables) is None
    # waiting on 1z and 2z: four unseen with none in sight, three once a 1z is seen
    assert planted_choice(_view(ready, wall_left=40, seen__27=1), _discard_options(ready), tables) is None

    far = "159m2468p13579s12z"
    view = _view(far, wall_left=30, dealer=1, riichi__1=1, safe__38=1)   # 5m (kind 4) is safe against seat 1
    assert planted_choice(view, _discard_options(far), tables) == ("push-into-riichi", "discard 5s")
    suji = _view(far, wall_left=30, dealer=1, riichi__1=1, safe__38=1, safe__53=1)  # and 2s: 5s is suji
    assert planted_choice(suji, _discard_options(far), tables) == ("push-into-riichi", "discard 4p")

    react = _view("123m456p789s1122z", decision=D_REACT, can_win=1, win_points=8_000, wall_left=3)
    assert planted_choice(react, [("ron", 0), ("pass", 1)], tables) == ("pass-mangan", "pass")
    assert planted_choice(_view("123m456p789s1122z", decision=D_REACT, can_win=1, win_points=3_900, wall_left=3),
                          [("ron", 0), ("pass", 1)], tables) is None


@pytest.mark.slow
def test_the_cheap_planted_check_keeps_every_place_a_blunder_is_planted(monkeypatch):
    """planted.may_plant, read from the events alone, only skips decisions where planting finds nothing: the same
    blunders at the same decisions with the check as when every position is built (a whole ranked game and the
    mjlog games of tests/data; slow: every position of three games is built)."""
    from tsumolab.analyzer.bench import planted
    from tsumolab.analyzer.bench.agreement import _planted

    records = [read_game(GAME)] + [read_game(path) for path in sorted((DATA / "tenhou_xml").glob("*.mjlog"))]
    pool = candidates(records)
    checked = _planted(records, pool)
    monkeypatch.setattr(planted, "may_plant", lambda *_args: True)
    everywhere = _planted(records, pool)
    assert len(checked) >= 10 and {c.plant for c in checked} >= {"break-ready", "push-into-riichi"}
    assert checked == everywhere
