"""`tsumolab run`: options, summary, and one-line input errors with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import tsumolab.api
import tsumolab.commands.run  # noqa: F401  (registers `run` on the group)
from tsumolab.analyzer.runs import runner
from tsumolab.cli import cli, main
from tsumolab.analyzer.runs.runner import RunInterrupted, combined_tables, read_run_record

REPO = Path(__file__).resolve().parent.parent


def invoke(*args: str):
    return CliRunner().invoke(cli, ["run", *args])


def main_exit(capsys, *args: str) -> tuple[int, str]:
    """Run the console entry point in-process; returns (exit code, stderr)."""
    with pytest.raises(SystemExit) as info:
        main(["run", *args])
    return info.value.code, capsys.readouterr().err


def test_run_writes_tables_and_prints_summary(tmp_path):
    out = tmp_path / "run"
    result = invoke("--matches", "12", "--seed", "5", "--chunk-size", "5", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "simulated 12 matches" in result.output and "matches/s" in result.output
    assert str(out / "hands") in result.output
    hands, matches = combined_tables(out)
    assert matches.height == 48 and hands["match_id"].n_unique() == 12
    assert read_run_record(out)["spec"]["seed"] == 5


def test_one_policy_names_all_four_seats(tmp_path):
    result = invoke("-n", "3", "--seats", "baseline", "--out", str(tmp_path), "--quiet")
    assert result.exit_code == 0, result.output
    assert result.output == ""
    spec = read_run_record(tmp_path)["spec"]
    assert len(spec["seats"]) == 4 and len(set(spec["seats"])) == 1


def test_run_rule_option_reaches_the_spec(tmp_path):
    """--rule stack_known_bugs=true (the B-19c option) is typed and stored with the run."""
    result = invoke("-n", "3", "--rule", "stack_known_bugs=true", "--out", str(tmp_path), "-q")
    assert result.exit_code == 0, result.output
    assert read_run_record(tmp_path)["spec"]["rules"]["stack_known_bugs"] is True


def test_resume_through_the_cli_gives_the_same_tables(tmp_path):
    full, cut = tmp_path / "full", tmp_path / "cut"
    args = ["-n", "10", "--seed", "9", "--chunk-size", "3", "-q"]
    assert invoke(*args, "--out", str(full)).exit_code == 0
    assert invoke(*args, "--out", str(cut)).exit_code == 0
    (cut / "matches" / "chunk-000001.parquet").unlink()
    result = invoke(*args, "--out", str(cut), "--resume")
    assert result.exit_code == 0, result.output
    for a, b in zip(combined_tables(full), combined_tables(cut)):
        assert a.equals(b)


def test_interrupt_exits_130_and_points_to_resume(tmp_path, monkeypatch):
    def interrupted(*args, **kwargs):
        raise RunInterrupted(tmp_path, 3, 8)

    monkeypatch.setattr(tsumolab.api, "execute", interrupted)  # the command runs through tsumolab.api
    result = CliRunner().invoke(cli, ["run", "-n", "5", "--out", str(tmp_path)])
    assert result.exit_code == 130
    assert "3 of 8 chunks" in result.output and "--resume" in result.output


def test_help_explains_every_option_with_an_example():
    result = invoke("--help")
    assert result.exit_code == 0
    for option in ("--variant", "--seats", "--matches", "--seed", "--jobs", "--out", "--chunk-size",
                   "--resume", "--overwrite", "--rule", "--policy-path", "--quiet"):
        assert option in result.output
    assert "Example" in result.output and "tsumolab run" in result.output


BAD_INPUTS = {
    "unknown variant": ["--variant", "nope", "-n", "5"],
    "zero matches": ["-n", "0"],
    "negative matches": ["-n", "-3"],
    "non-numeric matches": ["-n", "many"],
    "three seats": ["-n", "5", "--seats", "baseline,baseline,baseline"],
    "unknown policy": ["-n", "5", "--seats", "no-such-policy"],
    "zero jobs": ["-n", "5", "--jobs", "0"],
    "jobs below -1": ["-n", "5", "--jobs", "-2"],
    "zero chunk size": ["-n", "5", "--chunk-size", "0"],
    "negative seed": ["-n", "5", "--seed", "-1"],
    "unknown rule": ["-n", "5", "--rule", "no_such_rule=1"],
    "rule without value": ["-n", "5", "--rule", "stack_known_bugs"],
    "bad rule value": ["-n", "5", "--rule", "stack_known_bugs=maybe"],
}


@pytest.mark.parametrize("args", BAD_INPUTS.values(), ids=BAD_INPUTS.keys())
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, args):
    code, err = main_exit(capsys, *args, "--out", str(tmp_path / "out"))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tsumolab: error: "), err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args", [BAD_INPUTS["unknown variant"], BAD_INPUTS["zero matches"],
                                  BAD_INPUTS["three seats"]])
def test_bad_input_exit_2_through_click_runner(tmp_path, args):
    result = invoke(*args, "--out", str(tmp_path))
    assert result.exit_code == 2
    assert "Error:" in result.output


def test_existing_run_needs_resume_or_overwrite(capsys, tmp_path):
    assert invoke("-n", "3", "--out", str(tmp_path), "-q").exit_code == 0
    code, err = main_exit(capsys, "-n", "3", "--out", str(tmp_path))
    assert code == 2 and "--resume" in err and "--overwrite" in err
    code, err = main_exit(capsys, "-n", "4", "--out", str(tmp_path), "--resume")
    assert code == 2 and "matches: 3 there, 4 now" in err
    assert invoke("-n", "4", "--out", str(tmp_path), "-q", "--overwrite").exit_code == 0
    assert read_run_record(tmp_path)["spec"]["matches"] == 4


def test_console_entry_point_in_a_subprocess(tmp_path):
    """The real process: exit code 2 and one line on stderr for a bad variant."""
    proc = subprocess.run(
        [sys.executable, "-c", "from tsumolab.cli import main; main()", "run", "--variant", "nope", "-n", "5",
         "--out", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]
    assert "unknown mode 'nope'" in proc.stderr


def test_run_json_is_valid_after_every_command(tmp_path):
    assert invoke("-n", "2", "--out", str(tmp_path), "-q").exit_code == 0
    json.loads((tmp_path / "run.json").read_text())
    assert runner.read_run_record(tmp_path)["status"] == "complete"


def test_policy_column_follows_the_seats(tmp_path):
    result = invoke("-n", "3", "--seats", "baseline,random,majsoul-cpu,disconnected", "--out", str(tmp_path), "-q")
    assert result.exit_code == 0, result.output
    labels = read_run_record(tmp_path)["spec"]["seats"]
    assert [label.split("(")[0] for label in labels] == ["baseline", "random", "majsoul-cpu", "disconnected"]
    hands, matches = combined_tables(tmp_path)
    for table in (hands, matches):
        pairs = table.select(["seat", "policy"]).unique().sort("seat")
        assert pairs["policy"].to_list() == labels




def test_every_subcommand_the_readme_uses_is_found_by_the_module_that_adds_it():
    """A subcommand's module is imported on demand (tsumolab.cli.COMMANDS): each `tsumolab NAME` the README
    shows must be added to the group by the module COMMANDS names for it (`experiment` by the claims module)."""
    import importlib
    import re

    from tsumolab.cli import COMMANDS
    blocks = "\n".join(re.findall(r"^```[a-z]*\n(.*?)^```", (REPO / "README.md").read_text(), re.S | re.M))
    names = set(re.findall(r"^\s*(?:\S*/)?tsumolab ([a-z]+)\b", blocks, re.MULTILINE))
    assert {"experiment", "run", "review"} <= names
    for name in sorted(names):
        assert name in COMMANDS, f"tsumolab {name} is not a known subcommand"
        importlib.import_module(f"tsumolab.commands.{COMMANDS[name]}")
        assert name in cli.commands, f"tsumolab.commands.{COMMANDS[name]} does not add {name}"
