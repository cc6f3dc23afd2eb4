"""Every real game log kept in tests/data is read and every decision of every seat reviewed: the player's choice
is always one of advise's options, and the only refusals are tests/real_game_known_differences.py, exactly.
Also: the stored logs carry their licence and no player's name or account id."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from tests.real_game_known_differences import KNOWN_DIFFERENCES
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.games.read import read_game
from tsumolab.analyzer.review.game_review import ReviewSpec, review_hand

DATA = Path(__file__).parent / "data"
LOGS = sorted([p for folder in ("tenhou6", "majsoul") for p in (DATA / folder).glob("*.json")]
              + list((DATA / "mjai").glob("riichienv_*.jsonl")))
"""the public logs (tests/data/mjai also holds a match tsumolab simulated, which is not one of them)"""


def test_each_stored_log_has_its_source_and_licence_and_no_player_names():
    for folder in {p.parent for p in LOGS}:
        source = (folder / "SOURCE.md").read_text(encoding="utf-8")
        assert "licen" in source.lower() and "commit" in source.lower()
    for path in LOGS:
        record = read_game(path)
        assert set(record.names) <= {"A", "B", "C", "D", "", "0", "1", "2", "3"}, path.name
        if path.parent.name == "majsoul":
            head = json.loads(path.read_text(encoding="utf-8"))["head"]
            assert {a.get("account_id", 0) for a in head.get("accounts", [])} <= {0}


@pytest.mark.slow
def test_every_real_game_is_reviewed_except_the_known_differences(capsys):
    """Numbers of the closing note: games, hands and decisions reviewed (every seat, 4 rollouts each)."""
    refused, games, hands, decisions = set(), 0, 0, 0
    for path in LOGS:
        record = read_game(path)
        games += 1
        for hand in range(1, record.n_hands + 1):
            hands += 1
            for seat in range(4):
                try:
                    table = review_hand(record, ReviewSpec(seat=seat, rollouts=4), hand)
                except InputError as exc:
                    refused.add((f"{path.parent.name}/{path.name}", hand, seat, str(exc)))
                    continue
                chosen = table.group_by("decision").agg(pl.col("chosen").sum())["chosen"]
                assert (chosen == 1).all(), (path.name, hand, seat)
                decisions += chosen.len()
    known = {(k.file, k.hand, k.seat): k.refusal for k in KNOWN_DIFFERENCES}
    assert {r[:3] for r in refused} == set(known)
    for file, hand, seat, message in refused:
        assert known[file, hand, seat] in message
    with capsys.disabled():
        print(f"\nreal games reviewed: {games} games, {hands} hands, {decisions} decisions, {len(refused)} refused")
    assert games >= 23 and decisions >= 1800
