"""`tsumolab review` of a Bloodshed game (issue 29, RULES.md B-…): a simulated match read back from its Mahjong Soul
record, each decision of the seat evaluated with advise's Bloodshed evaluator from the seat's view only."""

from __future__ import annotations

import json
import random

import polars as pl
import pytest
from click.testing import CliRunner

import tsumolab.commands.review  # noqa: F401  (registers `review`)
from tests.test_bloodshed_records import SEATS, _hide_otherwise, written
from tsumolab.analyzer.games.read import read_game
from tsumolab.analyzer.review.game_review import ReviewSpec, review_hand
from tsumolab.cli import cli

ROLLOUTS = 8


@pytest.fixture(scope="module")
def game():
    doc, _ = written(3, 0)
    return read_game(json.dumps(doc).encode())


def test_every_choice_is_one_of_advise_options(game):
    """The exchange (B-6), the void (B-7), turns and reactions of seat 0 in hand 1 are reviewed; each decision has
    the player's choice among its options, and the exchange's options are triples of one suit."""
    table = review_hand(game, ReviewSpec(seat=0, rollouts=ROLLOUTS), 1)
    per_decision = table.group_by("decision", maintain_order=True).agg(pl.first("kind"), pl.col("chosen").sum())
    assert per_decision["chosen"].to_list() == [1] * per_decision.height
    assert per_decision["kind"].to_list()[:2] == ["exchange", "void"]
    assert {"turn"} <= set(per_decision["kind"].to_list())
    exchange = table.filter(pl.col("kind") == "exchange")["option"].to_list()
    assert all(len({o[-1], o[-3], o[-5]}) == 1 for o in exchange)


@pytest.mark.slow
def test_the_review_uses_only_what_the_seat_saw(game):
    """Hidden information: the review of seat 2 is the same when every tile it could not see changes."""
    hands = tuple(_hide_otherwise(h, 2, random.Random(3)) for h in game.hands)
    other = type(game)(game.source, game.variant, hands, game.names, game.rules, game.length, game.title)
    spec = ReviewSpec(seat=2, rollouts=ROLLOUTS)
    assert review_hand(game, spec, 1).equals(review_hand(other, spec, 1))


def test_the_command_reviews_a_chuanma_record(tmp_path):
    """`tsumolab review GAME --seat N` of a Bloodshed record writes the table and the summary."""
    doc, _ = written(3, 0, SEATS)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["review", str(path), "--seat", "1", "--kyoku", "E1", "--rollouts", str(ROLLOUTS),
                                   "--out", str(out), "--no-report", "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output.strip().splitlines()[-1])
    assert summary["decisions"] >= 10 and summary["judged"] == summary["decisions"]
    assert pl.read_parquet(out / "review.parquet")["kind"].is_in(["exchange", "void", "turn", "react", "rob"]).all()
