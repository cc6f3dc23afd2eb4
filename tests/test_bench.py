"""`tsumolab bench`: one mode as before, and `--variant all`: hands/s per core of every mode with its ratio to
riichi."""

from __future__ import annotations

import json

import pytest

from click.testing import CliRunner

import tsumolab.commands.bench  # noqa: F401  (registers `bench`)
from tsumolab.commands.bench import SLOW_RATIO, all_modes_text
from tsumolab.cli import cli
from tsumolab.sims.modes import MODES


def invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, ["bench", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_bench_all_reports_every_mode_against_riichi():
    result = json.loads(invoke("--variant", "all", "--matches", "2", "--json"))
    modes = result["modes"]
    assert [m["variant"] for m in modes] == ["riichi"] + [m for m in MODES if m != "riichi"]
    reference = modes[0]["hands_per_sec_per_core"]
    for m in modes:
        assert "error" not in m, m
        assert m["matches"] == 2 and m["hands"] >= 2 and m["hands_per_sec_per_core"] > 0
        assert abs(m["ratio_to_riichi"] - m["hands_per_sec_per_core"] / reference) < 1e-3
        assert m["slow"] == (m["ratio_to_riichi"] < SLOW_RATIO)
    assert modes[0]["ratio_to_riichi"] == 1.0
    assert reference == pytest.approx(sum(modes[0]["riichi_timings"]) / 2, abs=0.1)  # timed first and last


def test_bench_all_text_has_one_line_per_mode_and_flags_slow_ones():
    fake = {"reference": "riichi", "slow_ratio": SLOW_RATIO, "matches": 10, "jobs": 1, "seats": "baseline", "modes": [
        {"variant": "riichi", "hands_per_sec_per_core": 8000.0, "ratio_to_riichi": 1.0, "slow": False, "hands": 80,
         "seconds": 0.01, "warm_up_seconds": 1.0},
        {"variant": "darkness", "hands_per_sec_per_core": 3000.0, "ratio_to_riichi": 0.375, "slow": True,
         "hands": 70, "seconds": 0.02, "warm_up_seconds": 0.1},
        {"variant": "mirror", "error": "ValueError: broken"}]}
    lines = all_modes_text(fake).splitlines()
    assert lines[0].split()[:3] == ["mode", "hands/s/core", "vs"]
    assert lines[1].startswith("riichi") and "8,000" in lines[1] and "SLOW" not in lines[1]
    assert lines[2].startswith("darkness") and "0.38" in lines[2] and "SLOW: below 50% of riichi" in lines[2]
    assert lines[3] == "mirror       error: ValueError: broken"
    assert lines[-1].endswith("slow: darkness")


def test_bench_one_mode_keeps_its_output():
    result = json.loads(invoke("--variant", "fate", "--matches", "2", "--json"))
    assert result["variant"] == "fate" and result["hands_per_sec_per_core"] > 0
    text = invoke("--variant", "riichi", "--matches", "2")
    assert "hands_per_sec_per_core:" in text
