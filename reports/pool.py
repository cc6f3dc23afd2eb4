"""Running the parts of a report (one HTML or PDF file each) in this process and in worker processes at once.

With `jobs` processes, this process renders parts itself and `jobs` − 1 loky worker processes render the others,
each taking the next part in order as soon as it is free. The workers can be started (and their imports done)
while this process still reads the data: see start_workers. While this process prepares what some parts need
(the example hands), the workers take the parts that do not need it. The task (with the report's data it
carries) is pickled once for all its parts and unpickled once in each worker, not once per part.
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


WORKER_GROWTH = 2 * 10**9
"""bytes a worker may grow past its size after its first task (the imports of start_workers) before loky takes it
for a leaking one and replaces it (loky's own limit is 300 MB): its text caches and the garbage drawing leaves while
the collector is paused (reports.render.without_cyclic_gc) outgrow that over a report in three languages, and a
new worker would import everything and measure every text again"""


def _import_renderers() -> None:
    """What every part needs: the HTML and PDF writers, matplotlib's backends and the CJK fonts; and the worker's
    growth allowed (WORKER_GROWTH)."""
    from joblib.externals.loky import process_executor

    process_executor._MAX_MEMORY_LEAK_SIZE = max(process_executor._MAX_MEMORY_LEAK_SIZE, WORKER_GROWTH)
    import tsumolab.reports.html  # noqa: F401
    import tsumolab.reports.pdf  # noqa: F401
    from tsumolab.reports.fonts import cjk_family

    cjk_family()


_starting: list = []
"""the futures of the imports start_workers asked of the workers"""


def start_workers(jobs: int, parts: int) -> None:
    """Start the workers run_parts will use for `parts` parts, each importing the renderers, without waiting."""
    workers = worker_count(jobs, parts)
    if workers:
        executor = _executor(workers)
        _starting[:] = [future for future in _starting if not future.done()]
        _starting.extend(executor.submit(_import_renderers) for _ in range(workers))


_pickles = itertools.count()
_KEPT = 4
_unpickled: dict[str, object] = {}
"""what this worker process unpickled last (a run's task, what its preparation gave), by key"""


class _Pickled:
    """An object sent to the workers pickled once (a run's task with the report's data, the result of its
    preparation): every part sent with it carries the same bytes, unpickled by a worker for the first of them."""

    def __init__(self, value: object):
        from joblib.externals.loky.backend.reduction import dumps  # loky's own pickler, closures too

        self.key = f"{os.getpid()}-{next(_pickles)}"
        self.payload = bytes(dumps(value, protocol=pickle.HIGHEST_PROTOCOL))

    def __reduce__(self):
        return _unpickled_value, (self.key, self.payload)


def _unpickled_value(key: str, payload: bytes) -> object:
    if key not in _unpickled:
        while len(_unpickled) >= _KEPT:
            del _unpickled[next(iter(_unpickled))]
        _unpickled[key] = pickle.loads(payload)
    return _unpickled[key]


def _call(task: Callable, *arguments):
    return task(*arguments)


STOP_WAIT = 10.0
"""seconds stop_workers waits for the imports start_workers asked for"""


def stop_workers() -> None:
    """End the worker processes of the pool now (they are idle once the report is written) instead of waiting at
    the exit of this process for each to shut down. The imports start_workers asked for are waited for first
    (loky's manager fails on work still pending when its workers are killed); if they do not end (their pool was
    replaced meanwhile), the workers are left to the pool's own shutdown."""
    from concurrent.futures import wait

    from joblib.externals.loky import reusable_executor

    _done, pending = wait(_starting, timeout=STOP_WAIT)
    _starting.clear()
    executor = reusable_executor._executor
    if executor is not None and not pending:
        executor.terminate(kill_workers=True)


_WAITING = object()


def run_parts(task: Callable, parts: Sequence[tuple], jobs: int = 1, prepare: Callable[[], object] | None = None,
              needs: Callable[[tuple], bool] = lambda part: False) -> list:
    """`task(*part)` for every part, in this process and up to `jobs` − 1 worker processes (-1: every core),
    parts taken in order; returns their results in the order of `parts`. The first error of any part is raised
    once the running parts have ended.

    `prepare()`, when given, runs here first, while the workers take the parts that do not need its result; a part
    for which `needs(part)` is true waits for it and is called as `task(*part, prepared)`."""
    queue = deque(enumerate(parts))
    results: list = [None] * len(queue)
    workers = worker_count(jobs, len(queue))
    if not workers:
        prepared = prepare() if prepare is not None else None
        return [task(*part, prepared) if needs(part) else task(*part) for part in parts]
    executor = _executor(workers)
    lock = threading.Lock()
    futures = []
    pickled_task = _Pickled(task)
    state = {"prepared": _WAITING if prepare is not None else None, "pickled": None, "idle": 0}

    def take() -> tuple | None:
        """The next part in order that can run now (under the lock)."""
        for position, (index, part) in enumerate(queue):
            if state["prepared"] is not _WAITING or not needs(part):
                del queue[position]
                return index, part
        return None

    def feed(_finished=None) -> None:
        # taking a part and registering its future happen under one lock, so that once the queue is seen empty
        # every part taken has its future in `futures`
        with lock:
            item = take()
            if item is None:
                state["idle"] += 1  # a worker with nothing it can take yet
                return
            index, part = item
            arguments = (*part, state["pickled"]) if needs(part) else part
            future = executor.submit(_call, pickled_task, *arguments)
            futures.append((index, future))
        future.add_done_callback(feed)

    for _ in range(workers):
        feed()
    try:
        if prepare is not None:
            prepared = prepare()
            with lock:
                state["prepared"], state["pickled"] = prepared, _Pickled(prepared)
                idle, state["idle"] = state["idle"], 0
            for _ in range(idle):
                feed()
        while True:
            with lock:
                item = take()
            if item is None:
                break
            index, part = item
            results[index] = task(*part, state["prepared"]) if needs(part) else task(*part)
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
