"""Damaged run directories (issue 17): `tsumolab verify` reports each fault, `--resume` repairs it so that the
tables equal an undisturbed run byte for byte, and the readers fail in one line naming the damaged file.

Every fault is real: bytes cut, zeroed, flipped, files deleted, copied over or beside others, run records
edited, on copies of a real run.
"""

from __future__ import annotations

import json
import os
import shutil
import socket

import pytest

from tsumolab import api
from tsumolab.analyzer.runs.dir_lock import LOCK_FILE, locked
from tsumolab.analyzer.errors import DamagedError, InputError
from tsumolab.analyzer.runs.integrity import read_dataset
from tsumolab.analyzer.runs.runner import combined_tables
from tests.cli_run import run_cli

HANDS_1, MATCHES_2 = "hands/chunk-000001.parquet", "matches/chunk-000002.parquet"


def truncate(path, keep=0.5):
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


def zero(path):
    path.write_bytes(bytes(path.stat().st_size))


def flip_bit(path, at=0.5):
    data = bytearray(path.read_bytes())
    data[int(len(data) * at)] ^= 0x04
    path.write_bytes(bytes(data))


def other_run(tmp_path, seed=6):
    out = tmp_path / f"other-{seed}"
    if not out.exists():
        api.simulate(api.run_spec(matches=40, seed=seed, chunk_size=10), out)
    return out


def unrecord(out, chunk):
    record = json.loads((out / "run.json").read_text())
    for table in ("hands", "matches"):
        del record["files"][f"{table}/chunk-{chunk:06d}.parquet"]
    (out / "run.json").write_text(json.dumps(record))


# fault → (damage(run dir, tmp_path), file verify names, kind it reports)
FAULTS = {
    "truncated": (lambda d, t: truncate(d / HANDS_1), HANDS_1, "truncated"),
    "emptied": (lambda d, t: truncate(d / MATCHES_2, 0), MATCHES_2, "truncated"),
    "zeroed": (lambda d, t: zero(d / MATCHES_2), MATCHES_2, "zeroed"),
    "bit-flip": (lambda d, t: flip_bit(d / HANDS_1), HANDS_1, "altered"),
    "bit-flip-in-footer": (lambda d, t: flip_bit(d / MATCHES_2, 0.97), MATCHES_2, "altered"),
    "grown": (lambda d, t: (d / HANDS_1).write_bytes((d / HANDS_1).read_bytes() + b"\0" * 7), HANDS_1, "grown"),
    "deleted": (lambda d, t: (d / MATCHES_2).unlink(), MATCHES_2, "missing"),
    "deleted-both": (lambda d, t: [(d / f"{x}/chunk-000003.parquet").unlink() for x in ("hands", "matches")],
                     "hands/chunk-000003.parquet", "missing"),
    "duplicate-beside": (lambda d, t: shutil.copy(d / HANDS_1, d / "hands" / "chunk-000001 (1).parquet"),
                         "hands/chunk-000001 (1).parquet", "duplicate"),
    "duplicate-over": (lambda d, t: shutil.copy(d / "matches/chunk-000000.parquet", d / MATCHES_2), MATCHES_2,
                       "duplicate"),
    "foreign-over": (lambda d, t: shutil.copy(other_run(t) / HANDS_1, d / HANDS_1), HANDS_1, "foreign"),
    "foreign-beside": (lambda d, t: shutil.copy(other_run(t) / HANDS_1, d / "hands" / "chunk-000007.parquet"),
                       "hands/chunk-000007.parquet", "foreign"),
    "unrecorded": (lambda d, t: unrecord(d, 2), MATCHES_2, "unrecorded"),
    "temp-left": (lambda d, t: (d / "hands" / ".chunk-000001.parquet.77-abcd.tmp").write_bytes(b"PAR1"),
                  "hands/.chunk-000001.parquet.77-abcd.tmp", "temp"),
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_verify_reports_the_fault_and_resume_repairs_it(fault, tiny_run, tmp_path, capsys):
    out = tiny_run.copy(tmp_path / "run")
    damage, name, kind = FAULTS[fault]
    damage(out, tmp_path)

    code, text, err = run_cli(["verify", str(out)], capsys)
    assert code == 1 and err == ""
    *problems, summary = text.splitlines()
    assert f"{out}/{name}: {kind}: " in "\n".join(problems)
    assert all(line.startswith(f"{out}/") for line in problems)
    assert summary.startswith(f"{out}: damaged: ") and "tsumolab run --variant bloodshed" in summary
    assert summary.endswith(f"--out {out} --resume")

    code, text, err = run_cli(["run", *tiny_run.args, "--out", str(out), "--resume", "-q"], capsys)
    assert code == 0, err
    if kind != "temp":  # a leftover temporary is removed quietly, as before
        (line,) = err.splitlines()
        assert line.startswith(f"tsumolab: {out}: --resume ") and name in line
    assert run_cli(["verify", str(out)], capsys)[0] == 0
    tiny_run.assert_same(out)


def test_every_fault_at_once_is_listed_and_repaired(tiny_run, tmp_path, capsys):
    out = tiny_run.copy(tmp_path / "run")
    truncate(out / "hands/chunk-000000.parquet")
    zero(out / "matches/chunk-000001.parquet")
    flip_bit(out / "hands/chunk-000002.parquet")
    (out / "matches/chunk-000003.parquet").unlink()
    shutil.copy(out / "hands/chunk-000003.parquet", out / "hands/chunk-000003 (1).parquet")
    code, text, _ = run_cli(["verify", "--json", str(out)], capsys)
    report = json.loads(text)
    assert code == 1 and report["status"] == "damaged" and report["kind"] == "run"
    kinds = {(p["path"].removeprefix(f"{out}/"), p["kind"]) for p in report["problems"]}
    assert {("hands/chunk-000000.parquet", "truncated"), ("matches/chunk-000001.parquet", "zeroed"),
            ("hands/chunk-000002.parquet", "altered"), ("matches/chunk-000003.parquet", "missing"),
            ("hands/chunk-000003 (1).parquet", "duplicate"), ("matches", "coverage")} <= kinds
    assert report["repair"].endswith("--resume") and report["facts"]["matches"] == 40

    code, _, err = run_cli(["run", *tiny_run.args, "--out", str(out), "--resume", "-q"], capsys)
    assert code == 0 and "--resume simulates chunks 0-3 again" in err and len(err.splitlines()) == 1
    tiny_run.assert_same(out)


def test_clean_run_verifies_in_one_line(tiny_run, capsys):
    code, text, _ = run_cli(["verify", str(tiny_run.reference)], capsys)
    assert code == 0
    assert text == (f"{tiny_run.reference}: clean: a run of 40 matches in 4 chunks (bloodshed, seed 5, code version "
                    f"{json.loads((tiny_run.reference / 'run.json').read_text())['code_version']}), 8 files verified\n")
    report = json.loads(run_cli(["verify", "--json", str(tiny_run.reference)], capsys)[1])
    assert report["status"] == "clean" and report["problems"] == [] and report["repair"] is None


def test_verify_checks_rows_schema_and_metadata_behind_matching_checksums(tiny_run, tmp_path, capsys):
    """A chunk rewritten with a column dropped and the record updated to match (as a bug could): the checksum
    agrees, the deeper checks do not."""
    import polars as pl

    from tsumolab.analyzer.runs.integrity import file_entry
    from tsumolab.analyzer.tables import read_file_metadata, write_parquet_atomic

    out = tiny_run.copy(tmp_path / "run")
    path = out / MATCHES_2
    meta = read_file_metadata(path)
    meta["tsumolab.chunk"] = json.dumps({"index": 1})
    write_parquet_atomic(pl.read_parquet(path).drop("rank").head(30), path, meta)
    record = json.loads((out / "run.json").read_text())
    record["files"][MATCHES_2] = {**file_entry(path, 30), "rows": 40}
    (out / "run.json").write_text(json.dumps(record))
    code, text, _ = run_cli(["verify", str(out)], capsys)
    assert code == 1
    for kind in ("rows", "schema", "metadata", "coverage"):
        assert f"{out}/{MATCHES_2}: {kind}: " in text, kind
    assert "lacks rank" in text and "says it is chunk 1, not 2" in text


def test_readers_name_the_damaged_file_and_suggest_verify(tiny_run, tmp_path, capsys):
    out = tiny_run.copy(tmp_path / "run")
    truncate(out / HANDS_1)
    code, text, err = run_cli(["report", str(out)], capsys)
    assert code == 2 and text == ""
    (line,) = err.splitlines()
    assert line.startswith(f"tsumolab: error: {out / HANDS_1} is truncated (")
    assert f"tsumolab verify {out}" in line and "--resume" in line
    assert not (out / "report.html").exists() and not (out / "report.pdf").exists()
    for read in (lambda: combined_tables(out), lambda: read_dataset(out, "hands")):
        with pytest.raises(DamagedError, match=r"hands/chunk-000001.parquet is truncated .*tsumolab verify"):
            read()
    assert issubclass(DamagedError, InputError)  # the API's one error type for bad input
    code, _, err = run_cli(["replay", "--run", str(out), "--match", "3"], capsys)
    assert code == 0  # replay needs only run.json, which is intact


def test_a_damaged_record_is_one_line_for_every_reader(tiny_run, tmp_path, capsys):
    out = tiny_run.copy(tmp_path / "run")
    (out / "run.json").write_text('{"spec": {"variant": "bloodshed"}, "status": "complete"')
    for args in (["verify", str(out)], ["report", str(out)], ["replay", "--run", str(out), "--match", "0"],
                 ["run", *tiny_run.args, "--out", str(out), "--resume"]):
        code, text, err = run_cli(args, capsys)
        assert code == 2 and text == "", args
        (line,) = err.splitlines()
        assert line.startswith(f"tsumolab: error: {out / 'run.json'} is not a") and "tsumolab verify" in line
    assert run_cli(["run", *tiny_run.args, "--out", str(out), "--overwrite", "-q"], capsys)[0] == 0
    tiny_run.assert_same(out)


def test_resume_of_a_damaged_run_with_other_options_stays_an_error(tiny_run, tmp_path, capsys):
    out = tiny_run.copy(tmp_path / "run")
    zero(out / HANDS_1)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    args = ["run", "--matches", "40", "--chunk-size", "10", "--seed", "6", "--out", str(out), "--resume"]
    code, _, err = run_cli(args, capsys)
    assert code == 2 and "cannot resume" in err and "seed: 5 there, 6 now" in err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_verify_of_unusable_input_exits_2(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    (tmp_path / "chunks-only" / "hands").mkdir(parents=True)
    for target, message in ((tmp_path / "nowhere", "is not a directory"), (tmp_path / "empty", "holds neither"),
                            (tmp_path / "chunks-only", "no run.json")):
        code, text, err = run_cli(["verify", str(target)], capsys)
        assert code == 2 and text == "" and message in err and len(err.splitlines()) == 1
        code, text, _ = run_cli(["verify", "--json", str(target)], capsys)
        assert code == 2 and json.loads(text)["status"] == "unusable"


def test_verify_waits_for_a_live_writer(tiny_run, tmp_path, capsys):
    out = tiny_run.copy(tmp_path / "run")
    with locked(out):
        code, _, err = run_cli(["verify", str(out)], capsys)
    assert code == 2 and f"pid {os.getpid()} on host {socket.gethostname()}" in err
    assert not (out / LOCK_FILE).exists()


def test_a_record_without_checksums_is_reported_and_resume_records_them(tiny_run, tmp_path, capsys):
    """A run written before record format 2: readable as before; verify says so; --resume simulates its
    chunks again (nothing vouches for them) and records their checksums."""
    out = tiny_run.copy(tmp_path / "run")
    record = json.loads((out / "run.json").read_text())
    del record["record_format"], record["files"]
    (out / "run.json").write_text(json.dumps(record))
    assert combined_tables(out)[1].height == 160
    code, text, _ = run_cli(["verify", str(out)], capsys)
    assert code == 1 and f"{out}/run.json: record: written by an older tsumolab" in text
    code, _, err = run_cli(["run", *tiny_run.args, "--out", str(out), "--resume", "-q"], capsys)
    assert code == 0 and "has no checksums" in err
    tiny_run.assert_same(out)


# --- claims and experiment directories ---------------------------------------------------------------------

STUDY = ["--only", "B1", "--matches", "16", "--chunk-size", "1", "--no-report", "-q"]


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    out = tmp_path_factory.mktemp("study") / "b1"
    assert main_exit(["claims", *STUDY, "--out", str(out)]) == 0
    return out


def main_exit(args):
    from tsumolab.cli import main

    try:
        main(args)
    except SystemExit as exc:
        return exc.code
    return None


def study_bytes(out):
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.parquet"))}


@pytest.mark.slow
def test_claims_directory_verifies_and_resume_repairs_cells_and_tables(study, tmp_path, capsys):
    out = tmp_path / "b1"
    shutil.copytree(study, out)
    cell = sorted((out / "runs").iterdir())[3]
    truncate(cell / "hands" / "chunk-000000.parquet")
    flip_bit(out / "claims.parquet")
    (sorted((out / "runs").iterdir())[5] / "run.json").write_text("{")
    code, text, _ = run_cli(["verify", str(out)], capsys)
    assert code == 1
    assert f"{out}/claims.parquet: altered: " in text
    assert f"{cell}/hands/chunk-000000.parquet: truncated: " in text
    assert "/run.json: record: " in text
    assert text.splitlines()[-1].startswith(f"{out}: damaged: 3 problems in a study of claims B1")

    code, _, err = run_cli(["report", str(out)], capsys)
    assert code == 2 and f"{out / 'claims.parquet'} is altered" in err and len(err.splitlines()) == 1

    code, _, err = run_cli(["claims", *STUDY, "--out", str(out), "--resume"], capsys)
    assert code == 0, err
    (line,) = err.splitlines()
    assert line.startswith(f"tsumolab: {out}: --resume simulates ") and "run.json is damaged" in line
    assert run_cli(["verify", str(out)], capsys)[0] == 0
    assert study_bytes(out) == study_bytes(study)


def test_experiment_directory_resume_repairs_a_deleted_cell_chunk(tmp_path, capsys):
    from tsumolab.analyzer.claims.experiment import EXPERIMENTS_DIR

    out = tmp_path / "exp"
    args = ["experiment", "run", str(EXPERIMENTS_DIR / "b4.toml"), "--matches", "16", "--no-report", "-q",
            "--out", str(out)]
    assert run_cli(args, capsys)[0] == 0
    before = study_bytes(out)
    victim = sorted((out / "runs").glob("*/matches/chunk-000000.parquet"))[0]
    victim.unlink()
    code, text, _ = run_cli(["verify", str(out)], capsys)
    assert code == 1 and f"{victim}: missing: " in text
    code, _, err = run_cli([*args, "--resume"], capsys)
    assert code == 0 and "--resume simulates" in err and victim.name in err
    assert study_bytes(out) == before
    assert run_cli(["verify", str(out)], capsys)[0] == 0
