"""tsumolab.api: the Python API is the command line's code path (same tables, same one-line errors), writes
nothing unless asked, and the README's example runs as printed."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import polars as pl
import pytest

from tsumolab import api
from tsumolab.cli import main
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.runs.runner import combined_tables, read_run_record
from tests.test_settle_cmd import WORKED_EXAMPLE

README = Path(__file__).resolve().parent.parent / "README.md"


def cli_error(capsys, *args: str) -> str:
    """The message `tsumolab ARGS` prints after `tsumolab: error: ` (exit code 2)."""
    with pytest.raises(SystemExit) as info:
        main(list(args))
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("tsumolab: error: ") and "\n" not in err
    return err.removeprefix("tsumolab: error: ")


def test_run_returns_the_tables_the_command_writes(tmp_path, capsys):
    """Same seed and seats: api.run's DataFrames equal the Parquet tables of `tsumolab run` (B-1 walls)."""
    with pytest.raises(SystemExit) as info:
        main(["run", "--matches", "12", "--seed", "5", "--seats", "baseline,random,baseline,baseline",
              "--rule", "stack_known_bugs=true", "--out", str(tmp_path / "cli"), "--quiet"])
    assert info.value.code == 0
    cli_hands, cli_matches = combined_tables(tmp_path / "cli")
    hands, matches = api.run("bloodshed", ["baseline", "random", "baseline", "baseline"], 12, seed=5,
                             rules={"stack_known_bugs": True})
    assert hands.equals(cli_hands) and matches.equals(cli_matches)
    assert matches.height == 48


def test_run_writes_nothing_without_out_and_a_run_directory_with_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    hands, matches = api.run("riichi", "baseline", 3, seed=2, jobs=1)
    assert os.listdir(tmp_path) == []
    assert matches["match_id"].n_unique() == 3 and hands.height > 0
    again_hands, again_matches = api.run("riichi", "baseline", 3, seed=2, jobs=1, out="kept", chunk_size=2)
    assert again_matches.equals(matches) and again_hands.equals(hands)
    assert read_run_record(tmp_path / "kept")["spec"]["chunk_size"] == 2


@pytest.mark.parametrize(("call", "args"), [
    (lambda: api.run("bloodshed", "baseline", 0), ["run", "--matches", "0"]),
    (lambda: api.run("bloodshed", "baseline", 5, seed=-1), ["run", "--matches", "5", "--seed", "-1"]),
    (lambda: api.run("no-such-mode", "baseline", 5), ["run", "--variant", "no-such-mode", "--matches", "5"]),
    (lambda: api.run("bloodshed", "nobody", 5), ["run", "--seats", "nobody", "--matches", "5"]),
    (lambda: api.run("bloodshed", "baseline", 5, rules=["no_such_rule=1"]),
     ["run", "--matches", "5", "--rule", "no_such_rule=1"]),
    (lambda: api.run("bloodshed", "baseline", 5, rules={"stack_known_bugs": "maybe"}),
     ["run", "--matches", "5", "--rule", "stack_known_bugs=maybe"]),
    (lambda: api.run("bloodshed", "baseline", 5, jobs=0), ["run", "--matches", "5", "--jobs", "0"]),
    (lambda: api.claims(only="B99", matches=10), ["claims", "--only", "B99", "--matches", "10"]),
    (lambda: api.claims(only="B4", matches=0), ["claims", "--only", "B4", "--matches", "0"]),
    (lambda: api.claims(rules=["x=1"]), ["claims", "--rule", "x=1"]),
    (lambda: api.hand("123m456p789s1122"), ["hand", "123m456p789s1122"]),
], ids=["matches", "seed", "mode", "policy", "rule-key", "rule-value", "jobs", "claim-id", "claim-matches",
        "rule-without-mode", "hand"])
def test_api_errors_are_the_command_line_messages(call, args, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError) as info:
        call()
    assert str(info.value) == cli_error(capsys, *args)
    assert os.listdir(tmp_path) == []


def test_api_rejects_what_the_command_line_parser_would():
    with pytest.raises(InputError, match="--matches must be a whole number, got '10'"):
        api.run("bloodshed", "baseline", "10")
    with pytest.raises(InputError, match="--variant must be one of"):
        api.hand("123m456p789s1122z", variant="mahjong")
    with pytest.raises(InputError, match="must be a JSON object"):
        api.settle(["not", "an", "object"])


def test_hand_and_settle_answer_as_the_commands(capsys, tmp_path):
    """B-7 void, B-20 … B-23 draw settlement: the API returns what the commands print as JSON."""
    with pytest.raises(SystemExit):
        main(["hand", "--variant", "bloodshed", "--void", "m", "--tsumo", "11223344556677s"])
    assert json.loads(capsys.readouterr().out) == api.hand("11223344556677s", "bloodshed", void="m", tsumo=True)
    request = WORKED_EXAMPLE
    path = tmp_path / "draw.json"
    path.write_text(json.dumps(request))
    with pytest.raises(SystemExit):
        main(["settle", "--variant", "bloodshed", str(path)])
    printed = capsys.readouterr()
    assert json.loads(printed.out) == api.settle(request), printed.err


def test_claims_table_equals_the_command_s(tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        main(["claims", "--only", "B4", "--matches", "48", "--seed", "9", "--out", str(tmp_path / "cli"),
              "--quiet", "--no-report"])
    assert info.value.code == 0
    study = api.claims(only=["B4"], matches=48, seed=9)
    assert study.out_dir is None
    assert study.claims.equals(pl.read_parquet(tmp_path / "cli" / "claims.parquet"))


def test_readme_python_example_runs_as_printed(tmp_path, monkeypatch, capsys):
    """The README's API example (its ```python block), run as is; the hand comments are its real output."""
    text = README.read_text()
    block = re.search(r"### From Python.*?```python\n(.*?)```", text, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "{'shanten': 0, 'waits': ['1z', '2z'], 'win': None}" in out
    assert "--matches must be at least 1, got 0" in out
    assert "B4" in out and os.listdir(tmp_path) == []
