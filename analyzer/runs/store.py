"""A run directory opened for writing: its record, the chunks it keeps, and the chunks committed to it.

`RunStore.open` checks the directory against the requested run (a previous run needs resume or overwrite; a
different spec stays an error) and, on resume, verifies before it trusts: a chunk is kept only when both its
files match their record entries. Damaged, missing or unrecorded chunks are simulated again, Parquet files that
are no chunk of the run are removed, and one line on stderr says which. The caller holds the directory's lock.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from tsumolab.analyzer.errors import InputError, WriteError, os_error_text
from tsumolab.analyzer.runs.integrity import check_chunks, index_ranges, temp_files
from tsumolab.analyzer.runs.record import (
    RUN_FILE, damaged_record_reason, entry_key, has_checksums, new_record, read_run_record, write_run_record,
)
from tsumolab.analyzer.runs.spec import RunSpec
from tsumolab.analyzer.tables import TABLES, chunk_files, remove_temp_files

NOTES_SHOWN = 4


@dataclass
class RunStore:
    out: Path
    spec: RunSpec
    record: dict
    done: list[int]
    """chunks kept from earlier sessions"""
    repairs: list[str]
    """what this session found damaged and simulates again or removed (empty when nothing was)"""
    redone: list[int]
    """chunks simulated again because their files were damaged, missing or not in the record"""
    previous_version: str | None
    """code version of the run being continued (None for a new run)"""

    @property
    def todo(self) -> list[int]:
        kept = set(self.done)
        return [i for i in range(self.spec.n_chunks) if i not in kept]

    @classmethod
    def open(cls, out: Path, spec: RunSpec, version: str, *, resume: bool, overwrite: bool,
             rebuild_bad_record: bool = False) -> "RunStore":
        """Prepare `out` for a session of `spec` and write its record (status running).

        rebuild_bad_record: a run.json that is not a valid record is replaced and every chunk simulated again
        (experiment cells, whose directory name is the hash of their spec) instead of being an InputError."""
        try:
            return cls._open(out, spec, version, resume, overwrite, rebuild_bad_record)
        except OSError as exc:
            raise WriteError(f"cannot prepare {out}: {os_error_text(exc)}") from None

    @classmethod
    def _open(cls, out: Path, spec: RunSpec, version: str, resume: bool, overwrite: bool,
              rebuild_bad_record: bool) -> "RunStore":
        repairs: list[str] = []
        bad_record = damaged_record_reason(out) if rebuild_bad_record and resume else None
        if bad_record:
            repairs.append(f"{RUN_FILE} is damaged ({bad_record}), so every chunk is simulated again")
            remove_run(out)
        previous = prepare_out_dir(out, spec, resume, overwrite)
        done: list[int] = []
        redone: list[int] = []
        strays: dict = {}
        if previous is not None:
            check = check_chunks(out, previous)
            done, strays = check.good, check.strays
            redone = [i for i, notes in check.redo.items() if notes]
            if has_checksums(previous):
                repairs += check.notes()
            elif check.notes():
                repairs.append(f"{RUN_FILE} has no checksums (an older tsumolab), so its chunks are simulated again")
            repairs += [f"removed {path.relative_to(out)} ({kind})" for path, kind in strays.items()]
        kept_files = {entry_key(t, i): previous["files"][entry_key(t, i)] for i in done for t in TABLES}
        if bad_record:
            redone = list(range(spec.n_chunks))
        store = cls(out, spec, new_record(spec, version, previous, kept_files), done, repairs, redone,
                    None if previous is None else previous.get("code_version"))
        store.write()
        for path in strays:
            path.unlink(missing_ok=True)
        for i in store.todo:
            for table in TABLES:
                (out / entry_key(table, i)).unlink(missing_ok=True)
        return store

    def repair_line(self) -> str | None:
        """One line saying which chunks this session simulates again, why, and which files it removed; None when
        it repairs nothing."""
        return repair_line(str(self.out), [(self.redone, self.repairs)])

    def commit(self, files: dict) -> None:
        """Record the entries of a chunk whose files are in place (the record is rewritten atomically). When the
        record cannot be written, the chunk stays unrecorded, also in later writes of the record."""
        before = self.record["files"]
        self.record["files"] = dict(sorted({**before, **files}.items()))
        try:
            self.write()
        except WriteError:
            self.record["files"] = before
            raise

    def write(self) -> None:
        try:
            write_run_record(self.out, self.record)
        except OSError as exc:
            raise WriteError(f"cannot write {self.out / RUN_FILE}: {os_error_text(exc)}") from None

    def write_quietly(self) -> None:
        """Write the record if the disk allows it: used on the way out of a failed session."""
        try:
            self.write()
        except WriteError:
            pass


def prepare_out_dir(out: Path, spec: RunSpec, resume: bool, overwrite: bool) -> dict | None:
    """Check OUT against the options; returns the previous run record to continue (resume) or None."""
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} exists and is not a directory")
    if overwrite:
        remove_run(out)
        previous = None
    else:
        previous = read_run_record(out)
        has_chunks = any(chunk_files(out, t) for t in TABLES)
        if previous is None and not has_chunks:
            pass
        elif not resume:
            raise InputError(f"{out} already holds a run; add --resume to continue it or --overwrite to replace it")
        elif previous is None:
            raise InputError(f"{out} holds chunk files but no {RUN_FILE}; cannot resume it (use --overwrite)")
        else:
            check_same_spec(out, previous["spec"], spec)
    for table in TABLES:
        (out / table).mkdir(parents=True, exist_ok=True)
    for temp in temp_files(out):
        temp.unlink(missing_ok=True)
    return previous


def check_same_spec(out: Path, stored: dict, spec: RunSpec) -> None:
    wanted = spec.to_dict()
    if stored == wanted:
        return
    diffs = [
        f"{key}: {json.dumps(stored.get(key))} there, {json.dumps(wanted.get(key))} now"
        for key in sorted(set(stored) | set(wanted))
        if stored.get(key) != wanted.get(key)
    ]
    raise InputError(f"cannot resume: {out} holds a different run ({'; '.join(diffs)}); "
                     "repeat its options or use --overwrite")


def remove_run(out: Path) -> None:
    """Delete the run in `out`: its Parquet files in hands/ and matches/ and its run.json."""
    for table in TABLES:
        if (out / table).is_dir():
            for path in (out / table).glob("*.parquet"):
                if path.is_file():
                    path.unlink()
            remove_temp_files(out / table)
    (out / RUN_FILE).unlink(missing_ok=True)


def repair_line(where: str, repairs: list[tuple[list[int], list[str]]], names: list[str] | None = None) -> str | None:
    """"WHERE: --resume simulates chunks 1-3 again: <why>; …" for the (redone chunks, notes) of one or more
    run directories (`names` label them); None when there is nothing to say."""
    notes = [n for _chunks, ns in repairs for n in ns]
    if not notes:
        return None
    which = [f"{name + ' ' if name else ''}{'chunk' if len(chunks) == 1 else 'chunks'} {index_ranges(chunks)}"
             for name, (chunks, _ns) in zip(names or [""] * len(repairs), repairs) if chunks]
    head = f"--resume simulates {', '.join(which)} again" if which else "--resume repairs the run"
    more = f"; and {len(notes) - NOTES_SHOWN} more" if len(notes) > NOTES_SHOWN else ""
    return f"{where}: {head}: {'; '.join(notes[:NOTES_SHOWN])}{more}"


def report_repairs(line: str | None) -> None:
    if line:
        print(f"tsumolab: {line}", file=sys.stderr)
