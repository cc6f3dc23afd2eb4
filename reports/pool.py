"""Running the parts of a report (one HTML or PDF file each) in this process and in worker processes at once.

With `jobs` processes, this process renders parts itself and `jobs` − 1 loky worker processes render the others,
each taking the next part in order as soon as it is free. The workers can be started (and their imports done)
while this process still reads the data: see start_workers. The task (with the report's data it carries) is
pickled once for all its parts and unpickled once in each worker, not once per part.
"""

from __future__ import annotations

import itertools
import os
import pickle
import threading
from collections import deque
from collections.abc import Callable, Sequence


def worker_count(jobs: int, parts: int) -> int:
    """Worker processes used beside this one for `parts` parts with `jobs` processes (-1: every core)."""
    from joblib import effective_n_jobs

    return max(0, min(parts, effective_n_jobs(jobs)) - 1)


def _executor(workers: int):
    """joblib's reusable worker pool (loky's, with joblib's memmapping): the pool joblib.Parallel uses too. A pool
    taken from loky directly would be the same process-wide pool without joblib's parts, and a later Parallel in
    this process would fail on it."""
    from joblib.executor import get_memmapping_executor

    return get_memmapping_executor(workers)


def _import_renderers() -> None:
    """What every part needs: the HTML and PDF writers, matplotlib's backends and the CJK fonts."""
    import tsumolab.reports.html  # noqa: F401
    import tsumolab.reports.pdf  # noqa: F401
    from tsumolab.reports.fonts import cjk_family

    cjk_family()


def start_workers(jobs: int, parts: int) -> None:
    """Start the workers run_parts will use for `parts` parts, each importing the renderers, without waiting."""
    workers = worker_count(jobs, parts)
    if workers:
        executor = _executor(workers)
        for _ in range(workers):
            executor.submit(_import_renderers)


_tasks = itertools.count()
_unpickled: dict[str, Callable] = {}
"""the task of the run whose parts this worker process takes now, by its key (the last one only)"""


class _Pickled:
    """A task sent to the workers pickled once: every part sent with it carries the same bytes, unpickled only by
    the first part of the run that a worker takes."""

    def __init__(self, task: Callable):
        from joblib.externals.loky.backend.reduction import dumps  # loky's own pickler, closures too

        self.key = f"{os.getpid()}-{next(_tasks)}"
        self.payload = bytes(dumps(task, protocol=pickle.HIGHEST_PROTOCOL))

    def __reduce__(self):
        return _task_of, (self.key, self.payload)


def _task_of(key: str, payload: bytes) -> Callable:
    if key not in _unpickled:
        _unpickled.clear()
        _unpickled[key] = pickle.loads(payload)
    return _unpickled[key]


def _call(task: Callable, *part):
    return task(*part)


def stop_workers() -> None:
    """End the worker processes of the pool now (they are idle once the report is written) instead of waiting at
    the exit of this process for each to shut down."""
    from joblib.externals.loky import reusable_executor

    executor = reusable_executor._executor
    if executor is not None:
        executor.terminate(kill_workers=True)


def run_parts(task: Callable, parts: Sequence[tuple], jobs: int = 1) -> list:
    """`task(*part)` for every part, in this process and up to `jobs` − 1 worker processes (-1: every core),
    parts taken in order; returns their results in the order of `parts`. The first error of any part is raised
    once the running parts have ended."""
    queue = deque(enumerate(parts))
    results: list = [None] * len(queue)
    workers = worker_count(jobs, len(queue))
    if not workers:
        return [task(*part) for part in parts]
    executor = _executor(workers)
    lock = threading.Lock()
    futures = []
    pickled = _Pickled(task)

    def take() -> tuple | None:
        with lock:
            return queue.popleft() if queue else None

    def feed(_finished=None) -> None:
        # taking a part and registering its future happen under one lock, so that once the queue is seen empty
        # every part taken has its future in `futures`
        with lock:
            if not queue:
                return
            index, part = queue.popleft()
            future = executor.submit(_call, pickled, *part)
            futures.append((index, future))
        future.add_done_callback(feed)

    item = take()  # this process's first part is taken before any worker's, so it always renders some
    for _ in range(workers):
        feed()
    try:
        while item is not None:
            index, part = item
            results[index] = task(*part)
            item = take()
    except BaseException:
        with lock:
            queue.clear()
        raise
    finally:
        with lock:
            submitted = list(futures)
        for _index, future in submitted:
            future.exception()
    for index, future in submitted:
        results[index] = future.result()
    return results
