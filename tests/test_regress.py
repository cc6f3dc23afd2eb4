"""`tsumolab regress`: a fresh-seed rerun passes against the committed baseline and fails when metrics move."""

from __future__ import annotations

import json

import pytest

import analyzer.regress_cmd  # noqa: F401  (registers `regress`)
from analyzer import regress
from analyzer.cli import main
from analyzer.regress_cmd import DEFAULT_BASELINE


def main_exit(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(["regress", *args])
    captured = capsys.readouterr()
    return info.value.code, captured.out, captured.err


def test_compare_flags_only_metrics_beyond_four_combined_standard_errors():
    stored = {"a": {"value": 10.0, "se": 3.0}, "b": {"value": 0.0, "se": 0.3}}
    new = {"a": {"value": 29.0, "se": 4.0}, "b": {"value": 2.0, "se": 0.4}}   # a: 19/5 = 3.8, b: 2/0.5 = 4
    result = {c.key: c for c in regress.compare(stored, new)}
    assert result["a"].distance == pytest.approx(3.8) and not result["a"].failed
    new["b"]["value"] = 2.1
    assert [c.key for c in regress.compare(stored, new) if c.failed] == ["b"]


def test_committed_baseline_passes_and_a_perturbed_one_fails(tmp_path, capsys):
    out = tmp_path / "rerun"
    code, stdout, _ = main_exit(capsys, "--jobs", "2", "--out", str(out))
    stored = json.loads(DEFAULT_BASELINE.read_text())
    assert code == 0, stdout
    assert f"seed {stored['seed'] + 1}" in stdout  # fresh walls, not the baseline's own

    # a baseline whose B4 kan effect moved by 20 standard errors (about 14 combined ones) must fail, naming that metric
    key = "B4/baseline/effect"
    stored["metrics"][key]["value"] += 20 * stored["metrics"][key]["se"]
    perturbed = tmp_path / "perturbed.json"
    perturbed.write_text(json.dumps(stored))
    code, stdout, _ = main_exit(capsys, "--baseline", str(perturbed), "--jobs", "2", "--out", str(out),
                                "--resume")
    assert code == 1
    assert key in stdout and "DIFFERS" in stdout


def test_a_flipped_rule_option_fails(tmp_path, capsys):
    """B-13: rerunning with the hand ending at the first win instead of the bloodbath must be caught."""
    code, stdout, _ = main_exit(capsys, "--jobs", "2", "--out", str(tmp_path / "flipped"),
                                "--rule", "winners_to_end=1")
    assert code == 1 and "DIFFERS" in stdout


def test_update_writes_a_baseline_that_the_same_seed_reproduces(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(regress, "REGRESS_CLAIMS", ("B4",))
    monkeypatch.setattr(regress, "REGRESS_MATCHES", 160)
    path = tmp_path / "base.json"
    code, stdout, _ = main_exit(capsys, "--baseline", str(path), "--update", "--seed", "3")
    assert code is None or code == 0
    document = json.loads(path.read_text())
    assert document["seed"] == 3 and document["claims"] == ["B4"]
    code, stdout, _ = main_exit(capsys, "--baseline", str(path), "--seed", "3")
    assert code == 0 and "0 of" in stdout


def test_missing_baseline_is_an_input_error(tmp_path, capsys):
    code, _, err = main_exit(capsys, "--baseline", str(tmp_path / "none.json"))
    assert code == 2 and "--update" in err
