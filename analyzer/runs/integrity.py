"""Checking the chunk files of a run directory against its record (size and BLAKE2b checksum of each file).

This is the quick check that `--resume` makes before it trusts a chunk, and that readers make before they read
one; `analyzer.verify` adds the slower checks (schema, metadata, match-id coverage) on top of it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from tsumolab.analyzer.errors import DamagedError
from tsumolab.analyzer.runs.record import entry_key, has_checksums, read_run_record, record_spec
from tsumolab.analyzer.tables import TABLES, TEMP_SUFFIX, chunk_files, complete_chunks

HASH_BYTES = 32
_BLOCK = 1 << 20


def file_digest(path: Path | str) -> tuple[int, str]:
    """(size in bytes, BLAKE2b-256 hex digest) of a file."""
    digest = hashlib.blake2b(digest_size=HASH_BYTES)
    size = 0
    with open(path, "rb") as f:
        while block := f.read(_BLOCK):
            digest.update(block)
            size += len(block)
    return size, digest.hexdigest()


def file_entry(path: Path | str, rows: int) -> dict:
    """The record entry of a file just written: {"bytes", "blake2b", "rows"}."""
    size, digest = file_digest(path)
    return {"blake2b": digest, "bytes": size, "rows": int(rows)}


def entry_problem(path: Path, entry: dict) -> tuple[str, str] | None:
    """How the file at `path` differs from its record entry, as (kind, detail), or None when it matches.
    Kinds: missing, unreadable, truncated, grown, zeroed, altered."""
    try:
        size, digest = file_digest(path)
    except FileNotFoundError:
        return "missing", "recorded but not on disk"
    except OSError as exc:
        return "unreadable", exc.strerror or str(exc)
    if size < entry["bytes"]:
        return "truncated", f"{size:,} of {entry['bytes']:,} bytes"
    if size > entry["bytes"]:
        return "grown", f"{size:,} bytes where {entry['bytes']:,} were recorded"
    if digest == entry["blake2b"]:
        return None
    if _all_zero(path):
        return "zeroed", f"all {size:,} bytes are 0"
    return "altered", "same size, another checksum"


def describe(problem: tuple[str, str]) -> str:
    """("truncated", "1 of 2 bytes") → "is truncated (1 of 2 bytes)"."""
    kind, detail = problem
    return f"is {kind} ({detail})"


@dataclass
class ChunkCheck:
    """The chunks of a run directory as `--resume` sees them."""

    good: list[int] = field(default_factory=list)
    """chunks whose files match the record"""
    redo: dict[int, list[str]] = field(default_factory=dict)
    """chunk → why it is simulated again (empty list: never written)"""
    strays: dict[Path, str] = field(default_factory=dict)
    """Parquet files in hands/ or matches/ that are no chunk of the run → what they are"""

    def notes(self) -> list[str]:
        return [note for notes in self.redo.values() for note in notes]


def check_chunks(out: Path, record: dict) -> ChunkCheck:
    """Sort every chunk of the run into good (its files match the record) and redo, and find stray files."""
    spec = record_spec(record)
    files = record.get("files", {})
    check = ChunkCheck()
    present = {t: chunk_files(out, t) for t in TABLES}
    for i in range(spec.n_chunks):
        keys = [entry_key(t, i) for t in TABLES]
        recorded = [files.get(k) for k in keys]
        if all(recorded):
            notes = [f"{k} {describe(p)}" for k, e in zip(keys, recorded) if (p := entry_problem(out / k, e))]
        elif any(recorded):
            notes = [f"{k} is not in the run record" for k, e in zip(keys, recorded) if not e]
        else:
            notes = [f"{k} is not in the run record (an interrupted write)" for t, k in zip(TABLES, keys)
                     if i in present[t]]
        if all(recorded) and not notes:
            check.good.append(i)
        else:
            check.redo[i] = notes
    digests = {e["blake2b"]: k for k, e in files.items()}
    for table in TABLES:
        for path in stray_files(out, table, spec.n_chunks):
            check.strays[path] = stray_kind(path, digests)
    return check


def stray_files(out: Path, table: str, n_chunks: int) -> list[Path]:
    """Parquet files in OUT/table/ that are not a chunk file of a run of `n_chunks` chunks."""
    directory = out / table
    if not directory.is_dir():
        return []
    chunks = {p for i, p in chunk_files(out, table).items() if i < n_chunks}
    return sorted(p for p in directory.glob("*.parquet") if p not in chunks)


def stray_kind(path: Path, digests: dict[str, str]) -> str:
    """"a copy of <recorded file>" or "not a chunk of this run"."""
    try:
        _size, digest = file_digest(path)
    except OSError:
        return "not a chunk of this run"
    return f"a copy of {digests[digest]}" if digest in digests else "not a chunk of this run"


def temp_files(out: Path) -> list[Path]:
    return sorted(p for d in (out, *(out / t for t in TABLES)) if d.is_dir() for p in d.glob(f".*{TEMP_SUFFIX}"))


def verified_chunk_files(out_dir: Path | str, table: str, record: dict | None = None) -> list[Path]:
    """The committed chunk files of `table` in chunk order, each checked against the run record; DamagedError
    names the first file that is missing or differs. A run written before checksums (record format 1) or
    without run.json gives its complete chunks unchecked. `record`: the run record as read_run_record gave it,
    when the caller has read it already (to check both tables against one reading)."""
    out = Path(out_dir)
    if record is None:
        record = read_run_record(out)
    if record is None or not has_checksums(record):
        files = chunk_files(out, table)
        return [files[i] for i in complete_chunks(out)]
    spec = record_spec(record)
    committed = [i for i in range(spec.n_chunks) if all(entry_key(t, i) in record["files"] for t in TABLES)]
    paths = []
    for i in committed:
        key = entry_key(table, i)
        problem = entry_problem(out / key, record["files"][key])
        if problem:
            raise DamagedError(f"{out / key} {describe(problem)}; {repair_advice(out)}")
        paths.append(out / key)
    return paths


def read_chunks(paths: list[Path], out_dir: Path | str) -> pl.DataFrame:
    """The Parquet files concatenated; DamagedError names a file that cannot be read."""
    return pl.concat([read_frame(path, out_dir) for path in paths], how="vertical")


def read_frame(path: Path, out_dir: Path | str) -> pl.DataFrame:
    """One Parquet file as a polars frame. The bytes go through pyarrow first, which reports a malformed file as
    an error where polars may abort; DamagedError names the file."""
    table = read_arrow(path, out_dir)
    try:
        return pl.from_arrow(table)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # polars raises a PanicException (a BaseException) on some inputs
        raise DamagedError(f"{path} cannot be read as a table ({_first_line(exc)}); {repair_advice(out_dir)}") from None


def read_arrow(path: Path, out_dir: Path | str, columns: list[str] | None = None) -> pa.Table:
    """A Parquet file read by pyarrow, holding plain columns only (integers, booleans, strings); DamagedError
    names a file that cannot be read or holds anything else."""
    try:
        with pq.ParquetFile(path) as parquet:  # about half the time of pq.read_table on small files, same table
            table = parquet.read(columns=columns)
    except Exception as exc:  # pyarrow has many error types for malformed bytes (ArrowInvalid, OSError, …)
        raise DamagedError(f"{path} cannot be read as Parquet ({_first_line(exc)}); "
                           f"{repair_advice(out_dir)}") from None
    odd = [f.name for f in table.schema if not _plain(f.type)]
    if odd:
        raise DamagedError(f"{path} holds columns of unexpected types ({', '.join(odd[:3])}); "
                           f"{repair_advice(out_dir)}")
    return table


def _plain(kind: pa.DataType) -> bool:
    return (pa.types.is_integer(kind) or pa.types.is_boolean(kind) or pa.types.is_floating(kind)
            or pa.types.is_string(kind) or pa.types.is_large_string(kind))


def read_dataset(out_dir: Path | str, table: str, record: dict | None = None) -> pl.DataFrame:
    """All committed chunks of `table` ("hands" or "matches") of a run directory, checked against the run record
    (`record`, when already read) and concatenated in chunk order."""
    paths = verified_chunk_files(out_dir, table, record)
    if not paths:
        raise FileNotFoundError(f"no complete chunks of the {table!r} table in {out_dir}")
    return read_chunks(paths, out_dir)


def scan_dataset(out_dir: Path | str, table: str, record: dict | None = None) -> pl.LazyFrame:
    """A lazy scan of the committed chunk files of `table`, checked against the run record (`record`, when
    already read)."""
    paths = verified_chunk_files(out_dir, table, record)
    if not paths:
        raise FileNotFoundError(f"no complete chunks of the {table!r} table in {out_dir}")
    return pl.scan_parquet(paths)


def index_ranges(indices) -> str:
    """[1, 2, 3, 7] → "1-3, 7" (at most 8 ranges shown)."""
    keys = sorted(indices)
    spans, start = [], None
    for k, nxt in zip(keys, keys[1:] + [None]):
        start = k if start is None else start
        if nxt != k + 1:
            spans.append(str(start) if start == k else f"{start}-{k}")
            start = None
    return ", ".join(spans[:8]) + (f", … ({len(spans) - 8} more ranges)" if len(spans) > 8 else "")


def repair_advice(out_dir: Path | str) -> str:
    return (f"run `tsumolab verify {out_dir}` to see what is damaged, then repeat the command that wrote it "
            "with --resume to re-simulate it")


def _all_zero(path: Path) -> bool:
    with open(path, "rb") as f:
        while block := f.read(_BLOCK):
            if block.count(0) != len(block):
                return False
    return True


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


def parquet_info(path: Path) -> tuple[int, dict, dict] | str:
    """(rows, {column: arrow type name}, tsumolab metadata) of a Parquet file, or why it cannot be read."""
    try:
        rows = pq.read_metadata(path).num_rows
        arrow = pq.read_schema(path)
    except Exception as exc:  # pyarrow has many error types for malformed bytes
        text = str(exc).strip().splitlines()
        return f"not a readable Parquet file ({text[0][:160] if text else type(exc).__name__})"
    schema = {field.name: str(field.type) for field in arrow}
    meta = {k.decode(errors="replace"): v.decode(errors="replace") for k, v in (arrow.metadata or {}).items()
            if not k.startswith(b"ARROW:")}
    return rows, schema, meta
