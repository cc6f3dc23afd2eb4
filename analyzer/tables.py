"""The `hands` and `matches` tables: typed polars frames from the engines' int32 rows, atomic Parquet I/O.

Column layout and meanings are a property of the mode's engine family (sims.family: `hand_columns`,
`match_columns`); `mode` arguments take a sims.modes.Mode or slug and default to sims.modes.DEFAULT_MODE.
This module adds one column of its own, `policy` (the seat's policy label), right after `seat`.
A run directory holds one Parquet file per chunk and table: `OUT/hands/chunk-000000.parquet`,
`OUT/matches/chunk-000000.parquet`, …
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq

from tsumolab.sims.modes import DEFAULT_MODE, get_mode

TABLES = ("hands", "matches")
POLICY_COLUMN = ("policy", "Utf8", "policy of the seat: name, or name(param=value,…) with its parameters", None)
CHUNK_GLOB = "chunk-*.parquet"
CHUNK_PATTERN = re.compile(r"chunk-(\d{6,})\.parquet")
TEMP_SUFFIX = ".tmp"

_DTYPES = {
    "Int8": pl.Int8,
    "Int16": pl.Int16,
    "Int32": pl.Int32,
    "Int64": pl.Int64,
    "Boolean": pl.Boolean,
    "Utf8": pl.Utf8,
}


def mode_columns(mode, table: str) -> list[tuple]:
    """Record columns of `table` for `mode` (a sims.modes.Mode, a slug, or None for DEFAULT_MODE)."""
    _check_table(table)
    if mode is None or isinstance(mode, str):
        mode = get_mode(mode or DEFAULT_MODE)
    return mode.family.hand_columns if table == "hands" else mode.family.match_columns


def table_columns(table: str, mode=None) -> list[tuple]:
    """Columns of `table` in output order: (name, polars dtype name, meaning, labels or None)."""
    columns = list(_record_columns(table, mode))
    at = [c[0] for c in columns].index("seat") + 1
    return columns[:at] + [POLICY_COLUMN] + columns[at:]


def hand_table(hand_rows: np.ndarray, seats: Sequence, mode=None) -> pl.DataFrame:
    """int32[n, N_HAND_COLS] rows → the typed `hands` frame; `seats` are SeatPolicy objects (or labels)."""
    return _typed_frame("hands", hand_rows, seats, mode)


def match_table(match_rows: np.ndarray, seats: Sequence, mode=None) -> pl.DataFrame:
    """int32[m, N_MATCH_COLS] rows → the typed `matches` frame; `seats` are SeatPolicy objects (or labels)."""
    return _typed_frame("matches", match_rows, seats, mode)


def chunk_name(index: int) -> str:
    return f"chunk-{index:06d}.parquet"


def chunk_path(out_dir: Path | str, table: str, index: int) -> Path:
    return Path(out_dir) / _check_table(table) / chunk_name(index)


def chunk_index(path: Path) -> int | None:
    """`chunk-000012.parquet` → 12; None for any other name (`chunk-12.parquet`, `chunk-000012 (1).parquet`)."""
    match = CHUNK_PATTERN.fullmatch(path.name)
    if match is None or path.name != chunk_name(int(match.group(1))):
        return None
    return int(match.group(1))


@contextmanager
def replacing(path: Path | str) -> Iterator[Path]:
    """Yield a temporary path beside `path`; on success it replaces `path` atomically, on any error it is removed.

    Readers therefore only ever see the old file or the complete new one, never a partial write. (Nothing is
    fsync'ed: after a crash of the machine itself, `tsumolab verify` finds any file the disk lost and --resume
    simulates it again.)
    """
    path = Path(path)
    temp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}{TEMP_SUFFIX}")
    try:
        yield temp
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def remove_temp_files(directory: Path | str) -> int:
    """Delete temporaries left by `replacing` in `directory` (e.g. after a killed process); returns how many."""
    directory = Path(directory)
    if not directory.is_dir():
        return 0
    stale = list(directory.glob(f".*{TEMP_SUFFIX}"))
    for temp in stale:
        temp.unlink(missing_ok=True)
    return len(stale)


def write_parquet_atomic(df: pl.DataFrame, path: Path | str, metadata: Mapping[str, object]) -> None:
    """Write `df` to `path` as Parquet (zstd) with file-level key/value `metadata`, via a temp file + os.replace.

    Non-string metadata values are stored as JSON. The bytes depend only on `df` and `metadata`.
    """
    with replacing(path) as temp:
        write_parquet(df, temp, metadata)


def write_parquet(df: pl.DataFrame, path: Path | str, metadata: Mapping[str, object]) -> None:
    """Write `df` to `path` as Parquet (zstd) with file-level key/value `metadata` (not atomic: see above)."""
    table = df.to_arrow()
    kv = {str(k): v if isinstance(v, str) else json.dumps(v, sort_keys=True) for k, v in metadata.items()}
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), **kv})
    pq.write_table(table, path, compression="zstd")


def read_file_metadata(path: Path | str) -> dict[str, str]:
    """The key/value metadata written by `write_parquet_atomic` (pyarrow's own keys left out)."""
    raw = pq.read_schema(path).metadata or {}
    return {k.decode(): v.decode() for k, v in raw.items() if not k.startswith(b"ARROW:")}


def chunk_files(out_dir: Path | str, table: str) -> dict[int, Path]:
    """Chunk index → Parquet file of `table` present in the run directory."""
    directory = Path(out_dir) / _check_table(table)
    found = {}
    for path in sorted(directory.glob(CHUNK_GLOB)):
        index = chunk_index(path)
        if index is not None and path.is_file():
            found[index] = path
    return found


def complete_chunks(out_dir: Path | str) -> list[int]:
    """Indices of the chunks whose files exist in every table (a chunk is complete only then)."""
    present = [set(chunk_files(out_dir, t)) for t in TABLES]
    return sorted(set.intersection(*present))


def columns_markdown(mode=None) -> str:
    """Markdown reference of both tables' columns (name, type, meaning), for the README."""
    parts = []
    for table in TABLES:
        parts.append(f"**`{table}`**\n")
        parts.append("| column | type | meaning |")
        parts.append("| --- | --- | --- |")
        for name, dtype, meaning, _labels in table_columns(table, mode):
            parts.append(f"| `{name}` | {dtype} | {_escape_cell(meaning)} |")
        parts.append("")
    return "\n".join(parts)


def _escape_cell(text: str) -> str:
    return text.replace("|", "\\|")


def _record_columns(table: str, mode=None) -> list[tuple]:
    return mode_columns(mode, table)


def _check_table(table: str) -> str:
    if table not in TABLES:
        raise ValueError(f"unknown table {table!r}; tables: {', '.join(TABLES)}")
    return table


def _seat_labels(seats: Sequence) -> list[str]:
    return [s if isinstance(s, str) else s.label for s in seats]


def _typed_frame(table: str, rows: np.ndarray, seats: Sequence, mode=None) -> pl.DataFrame:
    record_columns = _record_columns(table, mode)
    rows = np.asarray(rows)
    if rows.ndim != 2 or rows.shape[1] != len(record_columns):
        raise ValueError(f"{table} rows must have shape (n, {len(record_columns)}), got {rows.shape}")
    index = {c[0]: i for i, c in enumerate(record_columns)}
    series = {}
    for i, (name, dtype, _meaning, labels) in enumerate(record_columns):
        if callable(labels):  # a decoder over the whole row block (e.g. a set spanning two columns)
            series[name] = pl.Series(name, labels(rows, index), dtype=_DTYPES[dtype])
            continue
        series[name] = _typed_series(name, dtype, labels, rows[:, i])
    series[POLICY_COLUMN[0]] = _decode(POLICY_COLUMN[0], rows[:, [c[0] for c in record_columns].index("seat")],
                                      _seat_labels(seats))
    return pl.DataFrame([series[name] for name, *_ in table_columns(table, mode)])


def _typed_series(name: str, dtype: str, labels, codes: np.ndarray) -> pl.Series:
    if labels is not None:
        return _decode(name, codes, labels)
    if dtype == "Boolean":
        return pl.Series(name, codes != 0, dtype=pl.Boolean)
    # strict cast: a code that does not fit the column type is an engine bug, not something to wrap around
    return pl.Series(name, codes.astype(np.int64)).cast(_DTYPES[dtype], strict=True)


def _decode(name: str, codes: np.ndarray, labels: Sequence[str]) -> pl.Series:
    if codes.size and (codes.min() < 0 or codes.max() >= len(labels)):
        raise ValueError(f"column {name!r} holds codes outside 0..{len(labels) - 1}")
    return pl.Series(name, np.asarray(labels, dtype=object)[codes], dtype=pl.Utf8)
