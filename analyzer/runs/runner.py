"""Chunked, parallel, resumable simulation runs written as Parquet.

Matches 0..N-1 are cut into chunks of `chunk_size` consecutive match ids; chunk i holds the ids
[i*chunk_size, (i+1)*chunk_size). Each chunk is simulated on its own (in-process, or in a joblib worker)
and written as `OUT/hands/chunk-<i>.parquet` and `OUT/matches/chunk-<i>.parquet`: both files are written in
full before either is renamed into place, then the chunk is committed by adding their sizes and checksums to
`OUT/run.json` (analyzer.runs.record), which also records the spec, the code version and the timings of each
session. Since every match depends only on (root seed, match id), the dataset is the same whatever the number
of jobs, the chunk size, or how often the run was resumed; `--resume` keeps only the chunks whose files match
the record (analyzer.runs.store). A run holds the directory's lock (analyzer.runs.dir_lock) while it writes.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
import warnings
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import polars as pl
from joblib import Parallel, delayed
from tqdm import tqdm

from tsumolab.analyzer.runs.dir_lock import locked
from tsumolab.analyzer.errors import InputError, WriteError, os_error_text
from tsumolab.analyzer.runs.integrity import file_entry, read_dataset
from tsumolab.analyzer.runs.record import RUN_FILE, entry_key, read_run_record
from tsumolab.analyzer.runs.spec import DEFAULT_CHUNK_SIZE, MAX_SEED, RunSpec
from tsumolab.analyzer.runs.store import RunStore, report_repairs
from tsumolab.analyzer.tables import TABLES, chunk_path, hand_table, match_table, mode_columns, replacing, write_parquet
from tsumolab.analyzer.version import code_version
from tsumolab.policies import registry as policy_registry

META_SPEC = "tsumolab.run_spec"
META_CODE = "tsumolab.code_version"
META_CHUNK = "tsumolab.chunk"
__all__ = ["DEFAULT_CHUNK_SIZE", "MAX_SEED", "RUN_FILE", "RunInterrupted", "RunSpec", "RunSummary",
           "combined_tables", "execute", "read_run_record"]


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
    out_dir: str = ""
    files: dict | None = None
    """record entries of the chunk's two files"""


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

    jobs: worker processes (-1 = all cores); 1 runs in this process. resume: keep the chunks of the same run
    whose files match the run record and simulate the others (a different spec in `out_dir` is an InputError).
    overwrite: delete a previous run first. Without either, a previous run in `out_dir` is an InputError.
    Another process writing `out_dir` is an InputError naming it. Ctrl-C raises RunInterrupted; a failed write
    (disk full) raises WriteError, keeping the complete chunks for --resume.
    """
    out = Path(out_dir)
    # workers may run in another directory: give them absolute paths
    policy_paths = tuple(str(Path(p).resolve()) if Path(p).is_file() else str(p) for p in policy_paths)
    n_jobs = _resolve_jobs(jobs)
    if resume and overwrite:
        raise InputError("--resume and --overwrite exclude each other")
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} exists and is not a directory")
    with locked(out):
        return _execute_locked(spec, out, n_jobs, resume, overwrite, policy_paths, progress, backend)


def _execute_locked(spec: RunSpec, out: Path, n_jobs: int, resume: bool, overwrite: bool,
                    policy_paths: tuple[str, ...], progress: bool, backend: str) -> RunSummary:
    version = code_version()
    store = RunStore.open(out, spec, version, resume=resume, overwrite=overwrite)
    report_repairs(store.repair_line())
    if store.previous_version not in (None, version):
        print(f"tsumolab: warning: resuming a run started with code version {store.previous_version}"
              f" under {version}", file=sys.stderr)
    done, todo = store.done, store.todo
    record = store.record
    session = {"started": _now(), "jobs": n_jobs, "resumed_chunks": len(done), "status": "running"}
    record["sessions"].append(session)
    store.write()

    file_metadata = {META_SPEC: json.dumps(spec.to_dict(), sort_keys=True), META_CODE: version}
    tasks = [_ChunkTask(spec, policy_paths, i, str(out), file_metadata, os.getpid()) for i in todo]
    todo_matches = sum(len(spec.chunk_match_ids(i)) for i in todo)
    results: list[_ChunkResult] = []
    start = time.perf_counter()
    try:
        if tasks:
            compile_for([spec], min(n_jobs, len(tasks)), backend, policy_paths, progress)
        session["warm_up_seconds"] = round(time.perf_counter() - start, 3)
        start = time.perf_counter()
        with tqdm(
            total=spec.matches, initial=spec.matches - todo_matches, unit=" matches", unit_scale=True,
            desc="simulating", file=sys.stderr, delay=1.0, dynamic_ncols=True,
            disable=not progress or not sys.stderr.isatty(),
        ) as bar:
            for result in _run_tasks(tasks, min(n_jobs, len(tasks)), backend):
                store.commit(result.files)
                results.append(result)
                bar.update(result.matches)
    except KeyboardInterrupt:
        _finish_session(store, session, "interrupted", start, results)
        raise RunInterrupted(out, len(done) + len(results), spec.n_chunks) from None
    except (WriteError, OSError) as exc:
        _finish_session(store, session, "failed", start, results)
        raise write_failure(exc, len(done) + len(results), spec.n_chunks) from None
    except BaseException:
        _finish_session(store, session, "failed", start, results)
        raise
    seconds = _finish_session(store, session, "complete", start, results, write=False)

    totals = [_result_from_record(store.record, spec, i) for i in done] + results
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
    try:
        store.write()
    except WriteError as exc:
        raise write_failure(exc, spec.n_chunks, spec.n_chunks) from None
    return summary


def write_failure(exc: Exception, done_chunks: int, total_chunks: int) -> WriteError:
    """The one-line WriteError for a write that failed during a run (a chunk's files, or run.json)."""
    reason = str(exc) if isinstance(exc, WriteError) else f"cannot write: {os_error_text(exc)}"
    return WriteError(f"{reason}; {done_chunks} of {total_chunks} chunks are complete and no partial chunk was "
                      "kept; once the problem is fixed (e.g. disk space freed), run the same command with --resume")


def combined_tables(out_dir: Path | str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(hands, matches) of a run directory, sorted by (match_id, hand, seat) and (match_id, seat)."""
    hands = read_dataset(out_dir, "hands").sort(["match_id", "hand", "seat"])
    matches = read_dataset(out_dir, "matches").sort(["match_id", "seat"])
    return hands, matches


def _resolve_jobs(jobs: int) -> int:
    if jobs == -1:
        return os.cpu_count() or 1
    if jobs < 1:
        raise InputError(f"--jobs must be at least 1, or -1 for all cores; got {jobs}")
    return jobs


def check_policies_support(seats: list, variant: str) -> None:
    """PolicyError (a ValueError) when a seat's policy does not declare support for the mode."""
    check_mode = getattr(policy_registry, "check_mode", None)  # absent from the placeholder registry
    if check_mode is not None:
        check_mode(seats, variant)


def _simulate_chunk(task: _ChunkTask) -> _ChunkResult:
    """Simulate one chunk and write its two Parquet files (hands first, then matches)."""
    if os.getpid() != task.parent_pid:
        # Ctrl-C reaches the whole process group: the parent handles it and stops the workers.
        # (Dask workers run tasks in threads, where signal handlers cannot be set; they need none.)
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        _quiet_engine_warnings()
    for path in task.policy_paths:  # a worker process registers the user's policy files itself
        policy_registry.load_path(path)
    from tsumolab.analyzer.search import play as search_play

    spec = task.spec
    match_ids = spec.chunk_match_ids(task.index)
    hand_rows, match_rows = search_play.simulate(spec.mode, spec.seed, match_ids, spec.seats, spec.rules)
    _check_rows(match_ids, hand_rows, match_rows, spec.mode)
    hands = hand_table(hand_rows, spec.seats, spec.mode).sort(["match_id", "hand", "seat"])
    matches = match_table(match_rows, spec.seats, spec.mode).sort(["match_id", "seat"])
    result = _ChunkResult(task.index, len(match_ids), int((hands["seat"] == 0).sum()), hands.height)

    chunk_info = {"index": task.index, "first_match": int(match_ids[0]), "matches": result.matches,
                  "hands": result.hands}
    files = {}
    target = None
    try:
        with contextlib.ExitStack() as stack:  # both files are written before either replaces its path
            for table, df in (("hands", hands), ("matches", matches)):
                target = chunk_path(task.out_dir, table, task.index)
                temp = stack.enter_context(replacing(target))
                write_parquet(df, temp, {**task.metadata, META_CHUNK: chunk_info, "tsumolab.table": table})
                files[entry_key(table, task.index)] = file_entry(temp, df.height)
    except OSError as exc:
        raise WriteError(f"cannot write {target}: {os_error_text(exc)}") from None
    return replace(result, out_dir=task.out_dir, files=files)


def _quiet_engine_warnings() -> None:
    # numba warns about first-class functions (the policy hooks) in every process that loads the engine
    warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


def _check_rows(match_ids: np.ndarray, hand_rows: np.ndarray, match_rows: np.ndarray, mode=None) -> None:
    hc = {c[0]: i for i, c in enumerate(mode_columns(mode, "hands"))}
    mc = {c[0]: i for i, c in enumerate(mode_columns(mode, "matches"))}
    expected = np.repeat(match_ids, 4)
    got = np.sort(np.asarray(match_rows)[:, mc["match_id"]].astype(np.int64))
    if not np.array_equal(got, expected):
        raise RuntimeError("simulate returned match rows that are not 4 per requested match id")
    if not np.isin(np.asarray(hand_rows)[:, hc["match_id"]], match_ids).all():
        raise RuntimeError("simulate returned hand rows for match ids it was not asked for")


def compile_for(specs: list[RunSpec], n_workers: int, backend: str = "loky",
                policy_paths: tuple[str, ...] = (), progress: bool = False) -> None:
    """Compile (or load) what the chunks of `specs` run, once, before the `n_workers` workers fan out: a spec
    with a searching seat by playing one match of it here (analyzer.search.play.warm_up), the others by
    compile_kernels on the workers (here with one worker or the Dask backend, whose workers are elsewhere)."""
    from tsumolab.analyzer.search import play as search_play

    _quiet_engine_warnings()
    plain = []
    for spec in specs:
        if search_play.driven(spec.seats):
            search_play.warm_up(spec.mode, spec.seats)
        else:
            plain.append(spec)
    if plain:
        local = backend != "dask"
        compile_kernels(plain, n_workers if local else 1, backend if local else "loky", policy_paths,
                        progress=progress)


def compile_kernels(specs: list[RunSpec], n_workers: int, backend: str = "loky",
                    policy_paths: tuple[str, ...] = (), extra: tuple = (), progress: bool = False) -> None:
    """Compile (or load from the kernel cache) what the matches of `specs` run, each piece once and side by side
    on the `n_workers` local workers that simulate them next (loky keeps them for the next Parallel of as many
    workers): first the engine of each family the specs play (the longest pieces), then the module-level
    functions `extra`, then each distinct policy hook their seats play, which fill in beside the engines. On a
    cold cache one process compiled all of it before, the others waiting; a hook is compiled when a seat first
    plays it (policies.api.hook). `progress`: a bar of the pieces on a terminal, when they take over a second."""
    engines, hooks = {}, {}
    for spec in specs:
        family = spec.mode.family.name
        engines.setdefault(family, delayed(_compile_engine)(spec.mode.slug))
        for seat in spec.seats:
            for index, fn in enumerate(seat.hook_functions(family)):
                hooks.setdefault(id(fn), delayed(_compile_hook)(seat, family, index, policy_paths))
    pieces = [*engines.values(), *(delayed(fn)() for fn in extra), *hooks.values()]
    with tqdm(total=len(pieces), unit=" pieces", desc="compiling", file=sys.stderr, delay=1.0,
              dynamic_ncols=True, disable=not progress or not sys.stderr.isatty()) as bar:
        for _ in Parallel(n_jobs=n_workers, backend=backend, batch_size=1, return_as="generator_unordered")(pieces):
            bar.update()


def _compile_engine(slug: str) -> None:
    from tsumolab.sims.modes import get_mode

    _quiet_engine_warnings()
    get_mode(slug).family.compile()


def _compile_hook(seat, family: str, index: int, policy_paths: tuple[str, ...]) -> None:
    from tsumolab.policies.api import compiled_hook

    for path in policy_paths:
        policy_registry.load_path(path)
    compiled_hook(seat.hook_functions(family)[index])


def _run_tasks(tasks: list[_ChunkTask], n_jobs: int, backend: str):
    if n_jobs <= 1:
        for task in tasks:
            yield _simulate_chunk(task)
        return
    parallel = Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered", batch_size=1)
    yield from parallel(delayed(_simulate_chunk)(task) for task in tasks)


def _result_from_record(record: dict, spec: RunSpec, index: int) -> _ChunkResult:
    """Counts of a chunk kept from an earlier session, from its record entries."""
    hand_rows = record["files"][entry_key("hands", index)]["rows"]
    return _ChunkResult(index, len(spec.chunk_match_ids(index)), hand_rows // 4, hand_rows)


def _finish_session(store: RunStore, session: dict, status: str, start: float, results: list[_ChunkResult],
                    write: bool = True) -> float:
    """Record the end of this session in run.json (if the disk still allows it); also removes temporaries a
    killed worker left."""
    seconds = time.perf_counter() - start
    for table in TABLES:
        for temp in (store.out / table).glob(".*.tmp"):
            temp.unlink(missing_ok=True)
    session.update(
        status=status,
        seconds=round(seconds, 3),
        simulated_chunks=len(results),
        simulated_matches=sum(r.matches for r in results),
        simulated_hands=sum(r.hands for r in results),
        matches_per_s=round(sum(r.matches for r in results) / seconds, 1) if seconds > 0 else None,
    )
    store.record["status"] = status
    if write:
        store.write_quietly()
    return seconds


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
