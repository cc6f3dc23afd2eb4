"""Chunked, parallel, resumable simulation runs written as Parquet.

Matches 0..N-1 are cut into chunks of `chunk_size` consecutive match ids; chunk i holds the ids
[i*chunk_size, (i+1)*chunk_size). Each chunk is simulated on its own (in-process, or in a joblib worker)
and written as `OUT/hands/chunk-<i>.parquet` then `OUT/matches/chunk-<i>.parquet`, each atomically; a
chunk is complete when both files exist. Since every match depends only on (root seed, match id), the
dataset is the same whatever the number of jobs, the chunk size, or how often the run was resumed.
`OUT/run.json` records the spec, the code version and the timings of each session of the run.
"""

from __future__ import annotations

import json
import math
import os
import signal
import sys
import threading
import time
import warnings
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq
from joblib import Parallel, delayed
from tqdm import tqdm

from analyzer.errors import InputError
from analyzer.tables import (
    TABLES,
    chunk_files,
    chunk_path,
    complete_chunks,
    hand_table,
    match_table,
    read_dataset,
    read_file_metadata,
    remove_temp_files,
    replacing,
    write_parquet_atomic,
)
from analyzer.version import code_version
from policies import registry as policy_registry
from policies.registry import parse_seats
from sims.modes import get_mode
from sims.records import HC, MC

DEFAULT_CHUNK_SIZE = 1000
RUN_FILE = "run.json"
META_SPEC = "tsumolab.run_spec"
META_CODE = "tsumolab.code_version"
META_CHUNK = "tsumolab.chunk"
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's dataset (and its file layout)."""

    variant: str
    seats: tuple[str, ...]
    matches: int
    seed: int
    rules: dict = field(default_factory=dict)
    """Full rule options of the variant, `RULES.as_dict()` (defaults included)."""
    chunk_size: int = DEFAULT_CHUNK_SIZE

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        if len(self.seats) != 4:
            raise ValueError(f"a run needs 4 seat labels, got {len(self.seats)}")
        if self.matches < 1:
            raise ValueError(f"matches must be at least 1, got {self.matches}")
        if self.chunk_size < 1:
            raise ValueError(f"chunk size must be at least 1, got {self.chunk_size}")
        if not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"seed must be in 0..{MAX_SEED}, got {self.seed}")

    @property
    def n_chunks(self) -> int:
        return math.ceil(self.matches / self.chunk_size)

    def chunk_match_ids(self, index: int) -> np.ndarray:
        lo = index * self.chunk_size
        return np.arange(lo, min(lo + self.chunk_size, self.matches), dtype=np.int64)

    def to_dict(self) -> dict:
        """JSON-ready form; equal dicts mean the same dataset."""
        return json.loads(json.dumps(asdict(self), sort_keys=True))

    @classmethod
    def from_dict(cls, values: dict) -> "RunSpec":
        return cls(**values)


@dataclass(frozen=True)
class RunSummary:
    out_dir: Path
    matches: int
    """matches in the dataset (including chunks completed by an earlier session)"""
    hands: int
    """hands played in the dataset (a `hands` row is one seat in one hand)"""
    hand_rows: int
    simulated_matches: int
    """matches simulated by this call (fewer than `matches` after --resume)"""
    simulated_hands: int
    seconds: float
    chunks: int
    resumed_chunks: int
    """chunks already complete and skipped"""
    jobs: int

    @property
    def matches_per_s(self) -> float:
        return self.simulated_matches / self.seconds if self.seconds > 0 else float("inf")

    @property
    def hands_per_s(self) -> float:
        return self.simulated_hands / self.seconds if self.seconds > 0 else float("inf")


class RunInterrupted(Exception):
    """Ctrl-C during a run: complete chunks are kept, partial files removed; --resume continues."""

    def __init__(self, out_dir: Path, done_chunks: int, total_chunks: int):
        self.out_dir, self.done_chunks, self.total_chunks = out_dir, done_chunks, total_chunks
        super().__init__(
            f"interrupted with {done_chunks} of {total_chunks} chunks complete in {out_dir}; "
            "run the same command with --resume to continue"
        )


@dataclass(frozen=True)
class _ChunkTask:
    spec: RunSpec
    policy_paths: tuple[str, ...]
    index: int
    out_dir: str
    metadata: dict
    parent_pid: int


@dataclass(frozen=True)
class _ChunkResult:
    index: int
    matches: int
    hands: int
    hand_rows: int


def execute(
    spec: RunSpec,
    out_dir: Path | str,
    jobs: int = 1,
    resume: bool = False,
    progress: bool = True,
    backend: str = "loky",
    *,
    overwrite: bool = False,
    policy_paths: tuple[str, ...] | list[str] = (),
) -> RunSummary:
    """Simulate the run `spec` into `out_dir`; see the module docstring for the layout.

    jobs: worker processes (-1 = all cores); 1 runs in this process. resume: skip complete chunks of the
    same run (a different spec in `out_dir` is an InputError). overwrite: delete a previous run first.
    Without either, a previous run in `out_dir` is an InputError. Ctrl-C raises RunInterrupted.
    """
    out = Path(out_dir)
    # workers may run in another directory: give them absolute paths
    policy_paths = tuple(str(Path(p).resolve()) if Path(p).is_file() else str(p) for p in policy_paths)
    n_jobs = _resolve_jobs(jobs)
    if resume and overwrite:
        raise InputError("--resume and --overwrite exclude each other")
    mode, seats, rules = _load(spec, policy_paths)
    spec = replace(spec, rules=rules.as_dict())  # defaults made explicit, so equal runs compare equal

    previous = _prepare_out_dir(out, spec, resume, overwrite)
    done = [i for i in complete_chunks(out) if i < spec.n_chunks] if resume else []
    todo = [i for i in range(spec.n_chunks) if i not in set(done)]
    version = code_version()
    record = _new_record(spec, version, previous)
    session = {"started": _now(), "jobs": n_jobs, "resumed_chunks": len(done), "status": "running"}
    record["sessions"].append(session)
    _write_record(out, record)

    file_metadata = {META_SPEC: json.dumps(spec.to_dict(), sort_keys=True), META_CODE: version}
    tasks = [_ChunkTask(spec, policy_paths, i, str(out), file_metadata, os.getpid()) for i in todo]
    todo_matches = sum(len(spec.chunk_match_ids(i)) for i in todo)
    results: list[_ChunkResult] = []
    start = time.perf_counter()
    try:
        if tasks:
            _quiet_engine_warnings()
            mode.warm_up(seats)  # compile or load the kernels once, before workers fan out
        session["warm_up_seconds"] = round(time.perf_counter() - start, 3)
        start = time.perf_counter()
        with tqdm(
            total=spec.matches, initial=spec.matches - todo_matches, unit=" matches", unit_scale=True,
            desc="simulating", file=sys.stderr, delay=1.0, dynamic_ncols=True,
            disable=not progress or not sys.stderr.isatty(),
        ) as bar:
            for result in _run_tasks(tasks, min(n_jobs, len(tasks)), backend):
                results.append(result)
                bar.update(result.matches)
    except KeyboardInterrupt:
        _finish_session(out, record, session, "interrupted", start, results)
        finished = [i for i in complete_chunks(out) if i < spec.n_chunks]
        raise RunInterrupted(out, len(finished), spec.n_chunks) from None
    except BaseException:
        _finish_session(out, record, session, "failed", start, results)
        raise
    seconds = _finish_session(out, record, session, "complete", start, results, write=False)

    totals = [_result_from_files(out, i) for i in done] + results
    summary = RunSummary(
        out_dir=out,
        matches=sum(r.matches for r in totals),
        hands=sum(r.hands for r in totals),
        hand_rows=sum(r.hand_rows for r in totals),
        simulated_matches=sum(r.matches for r in results),
        simulated_hands=sum(r.hands for r in results),
        seconds=seconds,
        chunks=spec.n_chunks,
        resumed_chunks=len(done),
        jobs=n_jobs,
    )
    record["status"] = "complete"
    record["totals"] = {"matches": summary.matches, "hands": summary.hands, "hand_rows": summary.hand_rows}
    _write_record(out, record)
    return summary


def combined_tables(out_dir: Path | str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(hands, matches) of a run directory, sorted by (match_id, hand, seat) and (match_id, seat)."""
    hands = read_dataset(out_dir, "hands").sort(["match_id", "hand", "seat"])
    matches = read_dataset(out_dir, "matches").sort(["match_id", "seat"])
    return hands, matches


def read_run_record(out_dir: Path | str) -> dict | None:
    """Contents of OUT/run.json, or None when there is none."""
    path = Path(out_dir) / RUN_FILE
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise InputError(f"{path} is not valid JSON ({exc.msg}); use --overwrite to replace the run") from None


def _resolve_jobs(jobs: int) -> int:
    if jobs == -1:
        return os.cpu_count() or 1
    if jobs < 1:
        raise InputError(f"--jobs must be at least 1, or -1 for all cores; got {jobs}")
    return jobs


def _load(spec: RunSpec, policy_paths: tuple[str, ...]):
    """(mode module, seat policies, rule options) of a spec; bad names are InputErrors."""
    try:
        mode = get_mode(spec.variant)
        seats = parse_seats(",".join(spec.seats), policy_paths)
        check_policies_support(seats, spec.variant)
        rules = mode.RULES.from_dict(spec.rules)
    except (ValueError, TypeError) as exc:
        raise InputError(str(exc)) from None
    labels = tuple(seat.label for seat in seats)
    if labels != spec.seats:
        raise RuntimeError(f"seat labels {spec.seats} parse back as {labels}; the spec must hold SeatPolicy labels")
    return mode, seats, rules


def check_policies_support(seats: list, variant: str) -> None:
    """PolicyError (a ValueError) when a seat's policy does not declare support for the mode."""
    check_mode = getattr(policy_registry, "check_mode", None)  # absent from the placeholder registry
    if check_mode is not None:
        check_mode(seats, variant)


_WORKER_CACHE: dict = {}


def _simulate_chunk(task: _ChunkTask) -> _ChunkResult:
    """Simulate one chunk and write its two Parquet files (hands first, then matches)."""
    if os.getpid() != task.parent_pid:
        # Ctrl-C reaches the whole process group: the parent handles it and stops the workers.
        # (Dask workers run tasks in threads, where signal handlers cannot be set; they need none.)
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        _quiet_engine_warnings()
    key = (task.spec.variant, task.spec.seats, json.dumps(task.spec.rules, sort_keys=True), task.policy_paths)
    if key not in _WORKER_CACHE:
        _WORKER_CACHE[key] = _load(task.spec, task.policy_paths)
    mode, seats, rules = _WORKER_CACHE[key]

    match_ids = task.spec.chunk_match_ids(task.index)
    hand_rows, match_rows = mode.simulate(task.spec.seed, match_ids, seats, rules)
    _check_rows(match_ids, hand_rows, match_rows, mode)
    hands = hand_table(hand_rows, seats, mode).sort(["match_id", "hand", "seat"])
    matches = match_table(match_rows, seats, mode).sort(["match_id", "seat"])
    result = _ChunkResult(task.index, len(match_ids), int((hands["seat"] == 0).sum()), hands.height)

    chunk_info = {"index": task.index, "first_match": int(match_ids[0]), "matches": result.matches,
                  "hands": result.hands}
    for table, df in (("hands", hands), ("matches", matches)):
        meta = {**task.metadata, META_CHUNK: chunk_info, "tsumolab.table": table}
        write_parquet_atomic(df, chunk_path(task.out_dir, table, task.index), meta)
    return result


def _quiet_engine_warnings() -> None:
    # numba warns about first-class functions (the policy hooks) in every process that loads the engine
    warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


def _check_rows(match_ids: np.ndarray, hand_rows: np.ndarray, match_rows: np.ndarray, mode=None) -> None:
    hc = {c[0]: i for i, c in enumerate(getattr(mode, "HAND_COLUMNS", ()))} or HC
    mc = {c[0]: i for i, c in enumerate(getattr(mode, "MATCH_COLUMNS", ()))} or MC
    expected = np.repeat(match_ids, 4)
    got = np.sort(np.asarray(match_rows)[:, mc["match_id"]].astype(np.int64))
    if not np.array_equal(got, expected):
        raise RuntimeError("simulate returned match rows that are not 4 per requested match id")
    if not np.isin(np.asarray(hand_rows)[:, hc["match_id"]], match_ids).all():
        raise RuntimeError("simulate returned hand rows for match ids it was not asked for")


def _run_tasks(tasks: list[_ChunkTask], n_jobs: int, backend: str):
    if n_jobs <= 1:
        for task in tasks:
            yield _simulate_chunk(task)
        return
    parallel = Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered", batch_size=1)
    yield from parallel(delayed(_simulate_chunk)(task) for task in tasks)


def _result_from_files(out: Path, index: int) -> _ChunkResult:
    hands_file = chunk_path(out, "hands", index)
    info = json.loads(read_file_metadata(hands_file).get(META_CHUNK, "{}"))
    rows = pq.read_metadata(hands_file).num_rows
    matches = info.get("matches", pq.read_metadata(chunk_path(out, "matches", index)).num_rows // 4)
    return _ChunkResult(index, matches, info.get("hands", rows // 4), rows)


def _prepare_out_dir(out: Path, spec: RunSpec, resume: bool, overwrite: bool) -> dict | None:
    """Check OUT against the options; returns the previous run record to continue (resume) or None."""
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} exists and is not a directory")
    previous = read_run_record(out)
    has_chunks = any(chunk_files(out, t) for t in TABLES)
    if previous is None and not has_chunks:
        pass
    elif overwrite:
        _remove_run(out)
        previous = None
    elif not resume:
        raise InputError(
            f"{out} already holds a run; add --resume to continue it or --overwrite to replace it"
        )
    elif previous is None:
        raise InputError(f"{out} holds chunk files but no {RUN_FILE}; cannot resume it (use --overwrite)")
    else:
        _check_same_spec(out, previous.get("spec", {}), spec)
    for table in TABLES:
        (out / table).mkdir(parents=True, exist_ok=True)
        remove_temp_files(out / table)
    remove_temp_files(out)
    return previous


def _check_same_spec(out: Path, stored: dict, spec: RunSpec) -> None:
    wanted = spec.to_dict()
    if stored == wanted:
        return
    diffs = [
        f"{key}: {json.dumps(stored.get(key))} there, {json.dumps(wanted.get(key))} now"
        for key in sorted(set(stored) | set(wanted))
        if stored.get(key) != wanted.get(key)
    ]
    raise InputError(
        f"cannot resume: {out} holds a different run ({'; '.join(diffs)}); "
        "repeat its options or use --overwrite"
    )


def _remove_run(out: Path) -> None:
    for table in TABLES:
        for path in chunk_files(out, table).values():
            path.unlink()
    (out / RUN_FILE).unlink(missing_ok=True)


def _new_record(spec: RunSpec, version: str, previous: dict | None) -> dict:
    if previous is not None:
        record = dict(previous)
        record.setdefault("sessions", [])
        if record.get("code_version") != version:
            record.setdefault("code_versions", [record.get("code_version")]).append(version)
            print(
                f"tsumolab: warning: resuming a run started with code version {record.get('code_version')}"
                f" under {version}",
                file=sys.stderr,
            )
        record["code_version"] = version
        record["status"] = "running"
        return record
    return {"spec": spec.to_dict(), "code_version": version, "status": "running", "chunks": spec.n_chunks,
            "sessions": []}


def _finish_session(out: Path, record: dict, session: dict, status: str, start: float,
                    results: list[_ChunkResult], write: bool = True) -> float:
    """Record the end of this session in run.json; also removes temporaries a killed worker left."""
    seconds = time.perf_counter() - start
    for table in TABLES:
        remove_temp_files(out / table)
    session.update(
        status=status,
        seconds=round(seconds, 3),
        simulated_chunks=len(results),
        simulated_matches=sum(r.matches for r in results),
        simulated_hands=sum(r.hands for r in results),
        matches_per_s=round(sum(r.matches for r in results) / seconds, 1) if seconds > 0 else None,
    )
    record["status"] = status
    if write:
        _write_record(out, record)
    return seconds


def _write_record(out: Path, record: dict) -> None:
    with replacing(out / RUN_FILE) as temp:
        temp.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
