"""`OUT/run.json`, the record of a run directory: what it holds and how to check it.

The record holds the spec, the code version(s), the status and sessions of the run and, since record format 2,
one entry per committed chunk file: `files["hands/chunk-000003.parquet"] = {"bytes", "blake2b", "rows"}`. A
chunk's entries are added only after both its files are in place, and the record is always replaced
atomically, so an entry always describes a complete file. A record without `record_format` was written
before the entries existed (format 1): its chunks carry no checksums.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.runs.spec import RunSpec
from tsumolab.analyzer.tables import TABLES, chunk_name, replacing

RUN_FILE = "run.json"
RECORD_FORMAT = 2
STATUSES = ("running", "complete", "interrupted", "failed")
ENTRY_KEYS = ("blake2b", "bytes", "rows")
_HEX = re.compile(r"[0-9a-f]{64}")


def entry_key(table: str, index: int) -> str:
    """Key of a chunk file in the record's `files`: its path relative to the run directory."""
    return f"{table}/{chunk_name(index)}"


def read_run_record(out_dir: Path | str) -> dict | None:
    """The checked contents of OUT/run.json, or None when there is none; InputError when it is not a run record."""
    path = Path(out_dir) / RUN_FILE
    if not path.exists():
        return None
    record, problem = _parse(path)
    if problem:
        raise InputError(f"{path} is not a valid run record ({problem}); {_advice(out_dir)}")
    return record


def damaged_record_reason(out_dir: Path | str) -> str | None:
    """Why OUT/run.json is not a valid run record, or None (also when there is no run.json)."""
    path = Path(out_dir) / RUN_FILE
    return _parse(path)[1] if path.exists() else None


def _parse(path: Path) -> tuple[object, str | None]:
    try:
        record = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError) as exc:
        return None, _reason(exc)
    return record, record_problem(record)


def record_problem(record: object) -> str | None:
    """What makes `record` unusable as a run record, or None."""
    if not isinstance(record, dict):
        return "not a JSON object"
    fmt = record.get("record_format", 1)
    if isinstance(fmt, bool) or not isinstance(fmt, int) or fmt < 2 and "record_format" in record:
        return f"record_format {fmt!r} is not a format number"
    if fmt > RECORD_FORMAT:
        return f"record format {fmt}, written by a newer tsumolab (this one reads up to {RECORD_FORMAT})"
    try:
        spec = RunSpec.from_record(record.get("spec"))
    except (ValueError, TypeError) as exc:
        return str(exc)
    if not isinstance(record.get("code_version"), str):
        return "no code_version"
    versions = record.get("code_versions", [])
    if not isinstance(versions, list) or not all(isinstance(v, (str, type(None))) for v in versions):
        return "code_versions is not a list of versions"
    if record.get("status") not in STATUSES:
        return f"status {record.get('status')!r} is none of {', '.join(STATUSES)}"
    if record.get("chunks", spec.n_chunks) != spec.n_chunks:
        return f"chunks {record.get('chunks')!r} does not fit the spec ({spec.n_chunks})"
    if not isinstance(record.get("sessions", []), list):
        return "sessions is not a list"
    if fmt >= 2:
        return _files_problem(record.get("files"), spec)
    return None


def record_spec(record: dict) -> RunSpec:
    """The RunSpec of a record checked by record_problem."""
    return RunSpec.from_record(record["spec"])


def has_checksums(record: dict) -> bool:
    return record.get("record_format", 1) >= 2


def recorded_entry(record: dict, table: str, index: int) -> dict | None:
    return record.get("files", {}).get(entry_key(table, index))


def code_versions(record: dict) -> set[str]:
    """Every code version that wrote chunks of the run."""
    return {v for v in [record["code_version"], *record.get("code_versions", [])] if v is not None}


def new_record(spec: RunSpec, version: str, previous: dict | None, kept_files: dict) -> dict:
    """The record of a session starting now: `previous` continued (resume) or a new one; `kept_files` are the
    entries of the chunks the session keeps."""
    if previous is None:
        record = {"spec": spec.to_dict(), "code_version": version, "chunks": spec.n_chunks, "sessions": []}
    else:
        record = {**previous, "sessions": list(previous.get("sessions", []))}
        if record.get("code_version") != version:
            record["code_versions"] = [*record.get("code_versions", [record.get("code_version")]), version]
            record["code_version"] = version
    record.update(record_format=RECORD_FORMAT, status="running", files=dict(sorted(kept_files.items())))
    return record


def write_run_record(out_dir: Path | str, record: dict) -> None:
    """Replace OUT/run.json atomically (readers see the old record or the new one, never a mix)."""
    with replacing(Path(out_dir) / RUN_FILE) as temp:
        temp.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")


def _files_problem(files: object, spec: RunSpec) -> str | None:
    return files_problem(files, {entry_key(t, i) for t in TABLES for i in range(spec.n_chunks)})


def files_problem(files: object, known: set[str]) -> str | None:
    """What is wrong with a record's `files` (file → entry), whose keys must be among `known`; None if nothing."""
    if not isinstance(files, dict):
        return "files is not an object"
    for key, entry in files.items():
        if key not in known:
            return f"files names {key!r}, not a chunk of this run"
        if not isinstance(entry, dict) or sorted(entry) != sorted(ENTRY_KEYS):
            return f"the entry of {key} is not {{{', '.join(ENTRY_KEYS)}}}"
        if not isinstance(entry["blake2b"], str) or not _HEX.fullmatch(entry["blake2b"]):
            return f"the checksum of {key} is not 64 hex digits"
        if any(isinstance(entry[k], bool) or not isinstance(entry[k], int) or entry[k] < 0 for k in ("bytes", "rows")):
            return f"the sizes of {key} are not counts"
    return None


def _reason(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON: {exc.msg}"
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return getattr(exc, "strerror", None) or str(exc)


def _advice(out_dir: Path | str) -> str:
    return f"check it with `tsumolab verify {out_dir}`, or start the run again with --overwrite"
