"""Simulate the cells of many experiments as one pool of chunks (joblib locally, or a Dask cluster).

Each distinct cell run (variant, seats, wall seeds, seed, rules, chunk size) lives in its own run directory
`DIR/runs/<hash of its RunSpec>/` laid out like `tsumolab run` (hands/, matches/, run.json), so cells shared
by several claims (e.g. four baseline seats on the same walls) are simulated once, and --resume keeps every
chunk whose files match its cell's record (a damaged one, or a cell whose run.json is damaged, is simulated
again). Chunks are written and committed by analyzer.runs.runner; the data depend only on the specs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import joblib
from joblib import Parallel, delayed
from tqdm import tqdm

from tsumolab.analyzer.runs import runner
from tsumolab.analyzer.errors import InputError, WriteError
from tsumolab.analyzer.runs.record import RUN_FILE
from tsumolab.analyzer.runs.store import RunStore, repair_line, report_repairs
from tsumolab.analyzer.runs.runner import RunInterrupted, RunSpec
from tsumolab.analyzer.tables import TABLES, chunk_files, remove_temp_files
from tsumolab.analyzer.version import code_version

RUNS_DIR = "runs"
BACKENDS = ("loky", "dask")


@dataclass(frozen=True)
class ExecutionSummary:
    cell_runs: int
    chunks: int
    resumed_chunks: int
    simulated_matches: int
    seconds: float
    warm_up_seconds: float
    jobs: int
    backend: str

    @property
    def matches_per_s(self) -> float:
        return self.simulated_matches / self.seconds if self.seconds > 0 else float("inf")


def spec_key(spec: RunSpec) -> str:
    """Canonical JSON of a spec (the key of its run directory)."""
    return json.dumps(spec.to_dict(), sort_keys=True)


def cell_dir(root: Path | str, spec: RunSpec) -> Path:
    """Run directory of one cell: named by a hash of its spec, so equal specs share it."""
    digest = hashlib.sha256(spec_key(spec).encode()).hexdigest()[:16]
    return Path(root) / RUNS_DIR / digest


def execute_cells(specs: list[RunSpec], root: Path | str, *, jobs: int = 1, resume: bool = False,
                  overwrite: bool = False, progress: bool = True, backend: str = "loky",
                  scheduler: str | None = None, client=None) -> ExecutionSummary:
    """Simulate every spec (duplicates once) into `root`/runs/…; complete chunks are kept with `resume`.

    backend "loky": `jobs` local worker processes (1 = this process). backend "dask": the chunks go to the
    Dask cluster at `scheduler` (or the given distributed `client`) through joblib's Dask backend; the workers
    must see `root` (shared file system). Ctrl-C raises runner.RunInterrupted after keeping finished chunks.
    """
    n_jobs, unique = check_cells(specs, root, jobs=jobs, resume=resume, overwrite=overwrite, backend=backend,
                                 scheduler=scheduler, client=client)
    root = Path(root)
    version = code_version()
    tasks, stores, done_chunks, total_matches, done_matches, older, repairs = [], {}, 0, 0, 0, set(), []
    for spec in unique:
        out = cell_dir(root, spec)
        store = RunStore.open(out, spec, version, resume=resume, overwrite=overwrite, rebuild_bad_record=True)
        stores[str(out)] = store
        if store.previous_version not in (None, version):
            older.add(store.previous_version)
        if store.repairs:
            name = str(out.relative_to(root))
            repairs.append((name, store.redone, [f"{name}/{note}" for note in store.repairs]))
        metadata = {runner.META_SPEC: json.dumps(spec.to_dict(), sort_keys=True), runner.META_CODE: version}
        for i in range(spec.n_chunks):
            size = len(spec.chunk_match_ids(i))
            total_matches += size
            if i in set(store.done):
                done_chunks += 1
                done_matches += size
            else:
                tasks.append(runner._ChunkTask(spec, (), i, str(out), metadata, os.getpid()))
    report_repairs(repair_line(str(root), [(chunks, notes) for _name, chunks, notes in repairs],
                               [name for name, _chunks, _notes in repairs]))
    if older:
        print(f"tsumolab: warning: resuming runs started with code version {', '.join(sorted(map(str, older)))}"
              f" under {version}", file=sys.stderr)
    simulated = 0
    try:  # a Ctrl-C while compiling also marks the runs interrupted
        start = time.perf_counter()
        if tasks:
            runner.compile_for(list({spec_key(t.spec): t.spec for t in tasks}.values()), min(n_jobs, len(tasks)),
                               backend, progress=progress)
        warm_up = time.perf_counter() - start
        start = time.perf_counter()
        with tqdm(total=total_matches, initial=done_matches, unit=" matches", unit_scale=True, desc="simulating",
                  file=sys.stderr, delay=1.0, dynamic_ncols=True,
                  disable=not progress or not sys.stderr.isatty()) as bar:
            for result in parallel_results(runner._simulate_chunk, tasks, n_jobs, backend, scheduler, client):
                stores[result.out_dir].commit(result.files)
                simulated += result.matches
                bar.update(result.matches)
    except KeyboardInterrupt:
        finished = sum(len(s.record["files"]) // len(TABLES) for s in stores.values())
        _close(stores, "interrupted")
        raise RunInterrupted(root, finished, sum(s.n_chunks for s in unique)) from None
    except (WriteError, OSError) as exc:
        finished = sum(len(s.record["files"]) // len(TABLES) for s in stores.values())
        _close(stores, "failed")
        raise runner.write_failure(exc, finished, sum(s.n_chunks for s in unique)) from None
    except BaseException:
        _close(stores, "failed")
        raise
    seconds = time.perf_counter() - start
    _clean(root, unique)
    for store in stores.values():
        store.record["status"] = "complete"
        store.write()
    return ExecutionSummary(
        cell_runs=len(unique), chunks=sum(s.n_chunks for s in unique), resumed_chunks=done_chunks,
        simulated_matches=simulated, seconds=seconds, warm_up_seconds=warm_up, jobs=n_jobs, backend=backend,
    )


def _close(stores: dict, status: str) -> None:
    """Record how the session ended in every cell's run.json, as far as the disk allows; remove temporaries."""
    for store in stores.values():
        remove_temp_files(store.out)
        for table in TABLES:
            remove_temp_files(store.out / table)
        store.record["status"] = status
        store.write_quietly()


def check_execution(*, jobs: int, resume: bool, overwrite: bool, backend: str, scheduler: str | None,
                    client) -> int:
    """InputError for a backend, scheduler, --resume/--overwrite combination that cannot run; else the number of
    workers --jobs asks for."""
    if backend not in BACKENDS:
        raise InputError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "dask" and scheduler is None and client is None:
        raise InputError("--backend dask needs --scheduler tcp://HOST:PORT")
    if backend != "dask" and scheduler is not None:
        raise InputError("--scheduler only applies with --backend dask")
    if resume and overwrite:
        raise InputError("--resume and --overwrite exclude each other")
    return runner._resolve_jobs(jobs)


def check_cells(specs: list[RunSpec], root: Path | str, *, jobs: int, resume: bool, overwrite: bool, backend: str,
                scheduler: str | None, client) -> tuple[int, list[RunSpec]]:
    """InputError for options execute_cells cannot run with; else (worker count, the distinct specs)."""
    n_jobs = check_execution(jobs=jobs, resume=resume, overwrite=overwrite, backend=backend, scheduler=scheduler,
                             client=client)
    unique = list({spec_key(s): s for s in specs}.values())
    if not resume and not overwrite:
        _refuse_existing_runs(Path(root), unique)
    return n_jobs, unique


def parallel_results(work, tasks: list, n_jobs: int, backend: str, scheduler: str | None, client,
                     ordered: bool = False):
    """`work(task)` for every task: in this process (1 job), in `n_jobs` local processes (loky) or on the Dask
    cluster at `scheduler` (or `client`); in the tasks' order when `ordered`, else as they finish."""
    order = "generator" if ordered else "generator_unordered"
    if backend == "dask":
        yield from _run_dask(work, tasks, scheduler, client, order)
        return
    if n_jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield work(task)
        return
    parallel = Parallel(n_jobs=min(n_jobs, len(tasks)), backend=backend, return_as=order, batch_size=1)
    yield from parallel(delayed(work)(task) for task in tasks)


def _run_dask(work, tasks: list, scheduler: str | None, client, order: str):
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--backend dask needs the cluster extra: pip install 'tsumolab[cluster]'") from None
    with contextlib.ExitStack() as stack:
        if client is None:
            try:
                client = stack.enter_context(Client(scheduler, timeout=30))
            except (OSError, TimeoutError, ValueError) as exc:
                raise InputError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
        stack.enter_context(joblib.parallel_config(backend="dask"))
        with client.as_current():
            parallel = Parallel(n_jobs=-1, return_as=order, batch_size=1)
            yield from parallel(delayed(work)(task) for task in tasks)


def _refuse_existing_runs(root: Path, specs: list[RunSpec]) -> None:
    """InputError before anything is written when a cell of this invocation already has a run in `root`."""
    taken = [s for s in specs if (cell_dir(root, s) / RUN_FILE).exists()
             or any(chunk_files(cell_dir(root, s), t) for t in TABLES)]
    if taken:
        raise InputError(f"{root} already holds {len(taken)} of these {len(specs)} runs; "
                         "add --resume to continue them or --overwrite to replace them")


def _clean(root: Path, specs: list[RunSpec]) -> None:
    for spec in specs:
        for table in TABLES:
            remove_temp_files(cell_dir(root, spec) / table)
