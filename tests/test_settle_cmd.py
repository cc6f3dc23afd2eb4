"""`tsumolab settle --variant bloodshed`: exhaustive-draw settlement through the CLI (B-20 … B-23)."""

from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner

import tsumolab.commands.settle  # noqa: F401  (registers `settle` on the group)
from tsumolab.cli import cli, main

# RULES.md B-23 worked example, with real hands:
#   A: 11 22 33 55 77 99 m + 4m, 清七对 waiting on 4m only: 5 fan = 16000 (no 根).
#   B: 123456789p + 1234p, 清一色 waiting on 1p or 4p: 3 fan = 4000 either way.
#   C: scattered odd tiles of m and s, far from tenpai, no void tile.
#   D: 22 44 66 88 s + 66 88 p + 9s, seven-pairs tenpai on 9s, but void is s: a flower pig.
WORKED_EXAMPLE = {
    "players": [
        {"hand": "1122335577994m", "void": "p"},
        {"hand": "1234p123456789p", "void": "m"},
        {"hand": "13579m13579s135s", "void": "p"},
        {"hand": "224466889s6688p", "void": "s"},
    ]
}


def settle(request: dict, *extra: str):
    return CliRunner().invoke(cli, ["settle", "--variant", "bloodshed", *extra, "-"], input=json.dumps(request))


def settle_json(request: dict) -> dict:
    res = settle(request)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_worked_example_b22_b23():
    """B-23 example: C pays A 16000 and B 4000; D (flower pig, B-22) pays A 16000, B 8000, C 8000."""
    out = settle_json(WORKED_EXAMPLE)
    assert out["deltas"] == [32000, 12000, -12000, -32000]
    assert out["tenpai"] == [True, True, False, False]
    assert out["flower_pig"] == [False, False, False, True]
    assert out["max_value"] == [16000, 4000, 0, 0]
    assert sum(out["deltas"]) == 0


def test_noten_player_refunds_kan_income_b21():
    """B-21: C, not tenpai, returns the 2000 of kan income A paid; tenpai B keeps the 2000 C paid."""
    request = copy.deepcopy(WORKED_EXAMPLE)
    request["players"][2]["kan_income"] = [{"from": 0, "amount": 2000}]
    request["players"][1]["kan_income"] = [{"from": 2, "amount": 2000}]
    out = settle_json(request)
    assert out["deltas"] == [32000 + 2000, 12000, -12000 - 2000, -32000]


def test_won_player_takes_no_part_b20():
    """B-20: a won player neither pays nor receives; D (flower pig) then pays only B and C."""
    request = copy.deepcopy(WORKED_EXAMPLE)
    request["players"][0] = {"won": True}
    out = settle_json(request)
    # C pays B 4000; D pays B max(8000, 4000) and C 8000, so C ends +4000.
    assert out["deltas"] == [0, 12000, 4000, -16000]
    assert out["tenpai"][0] is False and out["flower_pig"][0] is False


def test_file_argument(tmp_path):
    path = tmp_path / "draw.json"
    path.write_text(json.dumps(WORKED_EXAMPLE))
    res = CliRunner().invoke(cli, ["settle", "--variant", "bloodshed", str(path)])
    assert res.exit_code == 0
    assert json.loads(res.output)["deltas"] == [32000, 12000, -12000, -32000]


def _three_players() -> dict:
    return {"players": WORKED_EXAMPLE["players"][:3]}


def _five_copies() -> dict:
    request = copy.deepcopy(WORKED_EXAMPLE)
    request["players"][2]["hand"] = "11113m13579s135s"  # A already holds two 1m
    return request


def _twelve_tiles() -> dict:
    request = copy.deepcopy(WORKED_EXAMPLE)
    request["players"][2]["hand"] = "13579m13579s13s"
    return request


def _honor_tile() -> dict:
    request = copy.deepcopy(WORKED_EXAMPLE)
    request["players"][2]["hand"] = "13579m13579s13s1z"
    return request


@pytest.mark.parametrize(
    "stdin, extra, message",
    [
        ("{not json", [], "invalid JSON"),
        ("[1, 2, 3]", [], "JSON object"),
        (json.dumps(_three_players()), [], "exactly 4"),
        (json.dumps(_five_copies()), [], "1m"),
        (json.dumps(_twelve_tiles()), [], "13 tiles"),
        (json.dumps(_honor_tile()), [], "honor"),
        (json.dumps({**WORKED_EXAMPLE, "variant": "riichi"}), [], "variant"),
        (json.dumps({**WORKED_EXAMPLE, "colour": 1}), [], "unknown key"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(stdin, extra, message, capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    with pytest.raises(SystemExit) as stop:
        main(["settle", "--variant", "bloodshed", *extra, "-"])
    out, err = capsys.readouterr()
    assert stop.value.code == 2
    assert out == ""
    assert err.startswith("tsumolab: error: ") and err.count("\n") == 1, err
    assert message in err


@pytest.mark.parametrize(
    "args, message",
    [
        (["settle", "--variant", "riichi", "-"], "riichi"),      # no settle for that variant yet
        (["settle", "-"], "--variant"),                          # variant is required
        (["settle", "--variant", "bloodshed", "/no/such/file.json"], "cannot read"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(args, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(args)
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == ""
    assert err.startswith("tsumolab: error: ") and err.count("\n") == 1, err
    assert message in err
