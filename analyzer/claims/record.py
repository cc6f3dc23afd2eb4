"""`DIR/study.json`, the record of a claims study or experiment directory.

It lists the cell runs the study read (`runs`: run directory → spec) and, once the tables are written, the size
and checksum of each table file (`files`: claims.parquet, arms.parquet, ev.parquet), like a run's run.json does
for its chunks. It is written with status "running" before the cells are simulated and with status "complete"
after the tables, each time atomically.
"""

from __future__ import annotations

import json
from pathlib import Path

from tsumolab.analyzer.errors import DamagedError, InputError
from tsumolab.analyzer.runs.integrity import describe, entry_problem, file_entry, repair_advice
from tsumolab.analyzer.runs.record import RECORD_FORMAT, files_problem
from tsumolab.analyzer.runs.spec import RunSpec
from tsumolab.analyzer.tables import replacing

STUDY_FILE = "study.json"
STUDY_TABLES = ("claims", "arms", "ev")
STUDY_STATUSES = ("running", "complete")


def start_study_record(root: Path, experiments: list, runs: dict[str, RunSpec], version: str) -> dict:
    """The record of a study starting now (status running, no table yet), written to DIR/study.json."""
    record = {
        "record_format": RECORD_FORMAT, "kind": "study", "code_version": version, "status": "running",
        "experiments": [{"id": e.id, "mode": e.mode, "matches": e.matches, "seed": e.seed} for e in experiments],
        "runs": {key: spec.to_dict() for key, spec in sorted(runs.items())}, "files": {},
    }
    write_study_record(root, record)
    return record


def finish_study_record(root: Path, record: dict, rows: dict[str, int]) -> None:
    """Record the tables just written (rows per table name) and mark the study complete."""
    record["files"] = {f"{name}.parquet": file_entry(root / f"{name}.parquet", n) for name, n in rows.items()}
    record["status"] = "complete"
    write_study_record(root, record)


def write_study_record(root: Path, record: dict) -> None:
    with replacing(root / STUDY_FILE) as temp:
        temp.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")


def read_study_record(root: Path | str) -> dict | None:
    """The checked contents of DIR/study.json, or None when there is none; InputError when it is no study record."""
    path = Path(root) / STUDY_FILE
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError) as exc:
        raise InputError(f"{path} is not a study record ({type(exc).__name__}: {str(exc)[:120]}); "
                         "repeat the claims or experiment command with --resume to rewrite it") from None
    problem = study_record_problem(record)
    if problem:
        raise InputError(f"{path} is not a valid study record ({problem}); repeat the claims or experiment "
                         "command with --resume to rewrite it")
    return record


def study_record_problem(record: object) -> str | None:
    if not isinstance(record, dict):
        return "not a JSON object"
    fmt = record.get("record_format")
    if isinstance(fmt, bool) or not isinstance(fmt, int) or fmt < 2:
        return f"record_format {fmt!r} is not a format number"
    if fmt > RECORD_FORMAT:
        return f"record format {fmt}, written by a newer tsumolab"
    if record.get("kind") != "study" or record.get("status") not in STUDY_STATUSES:
        return "not a study's record (kind, status)"
    if not isinstance(record.get("code_version"), str):
        return "no code_version"
    experiments = record.get("experiments")
    if not isinstance(experiments, list) or not all(isinstance(e, dict) and isinstance(e.get("id"), str)
                                                     for e in experiments):
        return "experiments is not a list of experiments"
    runs = record.get("runs")
    if not isinstance(runs, dict):
        return "runs is not an object"
    for key, spec in runs.items():
        if not (isinstance(key, str) and key.startswith("runs/") and "/" not in key[5:] and key[5:] not in ("", ".",
                                                                                                           "..")):
            return f"runs names {key!r}, not a run directory of the study"
        try:
            RunSpec.from_record(spec)
        except (ValueError, TypeError) as exc:
            return f"the run {key}: {exc}"
    known = {f"{t}.parquet" for t in STUDY_TABLES}
    return files_problem(record.get("files"), known)


def verified_table(root: Path | str, name: str, record: dict | None = None) -> Path:
    """DIR/<name>.parquet, checked against DIR/study.json when there is one; DamagedError when it differs or
    the study did not finish. `record`: DIR/study.json as read_study_record gave it, when the caller has read it
    already (to check several tables against one reading)."""
    root = Path(root)
    path = root / f"{name}.parquet"
    if record is None:
        record = read_study_record(root)
    if record is None:
        return path
    if record["status"] != "complete":
        raise DamagedError(f"{root} holds an unfinished study (its record says {record['status']}); "
                           "repeat the claims or experiment command that wrote it with --resume")
    entry = record["files"].get(path.name)
    if entry is None:
        raise DamagedError(f"{path} is not in {root / STUDY_FILE}; {repair_advice(root)}")
    problem = entry_problem(path, entry)
    if problem:
        raise DamagedError(f"{path} {describe(problem)}; {repair_advice(root)}")
    return path
