"""`tsumolab verify` of a decisions study (`tsumolab decisions`, analyzer.decisions.study) in a directory.

Its record DIR/decisions.json says what was asked (the spec) and, once complete, how many situations and chunks
it holds. Checked: the record reads and is complete; every chunk DIR/chunks/chunk-NNNNN.parquet is there,
readable and of the recorded spec, and no chunk is extra; DIR/decisions.parquet is readable, of the recorded
spec, and has the recorded number of situations, as many as the chunks hold. The record keeps no checksums, so
bytes altered inside a readable file go unseen.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from tsumolab.analyzer.decisions.study import CHUNKS, RECORD, TABLE
from tsumolab.analyzer.runs.integrity import parquet_info

SPEC_KEY = "tsumolab_decisions_spec"


def has_decisions(directory: Path) -> bool:
    return (directory / RECORD).exists()


def decisions_problems(root: Path) -> tuple[list[tuple[str, str, str]], dict]:
    """(problems, facts) of the decisions study in `root`; a problem is (path, kind, detail) as
    analyzer.verify.Problem takes them."""
    shown = f"{root}/{RECORD}"
    try:
        record = json.loads((root / RECORD).read_text(encoding="utf-8"))
        spec_key = json.dumps(record["spec"], sort_keys=True)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return [(shown, "record", f"unreadable decisions record ({exc.__class__.__name__})")], {}
    facts = {"claims": ", ".join(record["spec"].get("claims", [])), "situations": record.get("situations", 0)}
    if record.get("status") != "complete":
        status = record.get("status")
        return [(shown, "incomplete", f"the decisions study did not finish (status {status})")], facts
    problems = []
    chunk_rows = 0
    expected = {f"chunk-{i:05d}.parquet" for i in range(record.get("chunks", 0))}
    present = {p.name for p in (root / CHUNKS).glob("*.parquet")} if (root / CHUNKS).is_dir() else set()
    for name in sorted(expected - present):
        problems.append((f"{root}/{CHUNKS}/{name}", "missing", "a chunk of the decisions study is missing"))
    for name in sorted(present - expected):
        problems.append((f"{root}/{CHUNKS}/{name}", "unrecorded", "the decisions record lists no such chunk"))
    for name in sorted(expected & present):
        rows, problem = _table_problem(root / CHUNKS / name, spec_key)
        chunk_rows += rows
        if problem:
            problems.append(problem)
    rows, problem = _table_problem(root / TABLE, spec_key)
    if problem:
        problems.append(problem)
    elif rows != record.get("situations"):
        problems.append((f"{root}/{TABLE}", "rows", f"{rows:,} situations, {record.get('situations'):,} "
                                                            "recorded"))
    elif not (expected - present) and rows != chunk_rows:
        problems.append((f"{root}/{TABLE}", "rows", f"{rows:,} situations, the chunks hold {chunk_rows:,}"))
    return problems, facts


def repair_command(root: Path) -> str:
    return (f"repeat the `tsumolab decisions` command that wrote it with --resume --out {shlex.quote(str(root))} "
            "(a damaged chunk is evaluated again)")


def _table_problem(path: Path, spec_key: str):
    """(rows, problem or None) of one decisions Parquet file."""
    if not path.exists():
        return 0, (str(path), "missing", "the decisions table is missing")
    info = parquet_info(path)
    if isinstance(info, str):
        return 0, (str(path), "unreadable", info)
    rows, _schema, meta = info
    if meta.get(SPEC_KEY) != spec_key:
        return rows, (str(path), "foreign", "written for other decisions options than the record's")
    return rows, None
