"""reports.pool: a report's parts rendered by this process and worker processes at once."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tsumolab.reports.pool import run_parts, stop_workers


def _recorder(directory: Path, seconds: float = 0.0):
    """A part task writing the id of the process that ran it to DIR/<part> after `seconds`; fails on the part
    "bad"."""
    def task(name: str) -> None:
        if name == "bad":
            raise ValueError("bad part")
        time.sleep(seconds)
        (directory / name).write_text(str(os.getpid()))

    return task


def test_one_job_runs_every_part_here_in_order(tmp_path):
    order = []
    run_parts(order.append, [("a",), ("b",), ("c",)], jobs=1)
    assert order == ["a", "b", "c"]


def test_this_process_renders_beside_its_workers(tmp_path):
    """Parts that take a while (as a figure does): an instant part lets a warm worker finish every part before this
    process, starved of the CPU on a busy machine, gets to take one (seen in CI)."""
    names = [f"part{i}" for i in range(4)]
    run_parts(_recorder(tmp_path, seconds=0.3), [(name,) for name in names], jobs=2)
    pids = {name: int((tmp_path / name).read_text()) for name in names}
    assert os.getpid() in pids.values(), "this process takes parts too"
    assert set(pids.values()) - {os.getpid()}, "and a worker the others"


def test_an_error_in_a_worker_part_is_raised(tmp_path):
    with pytest.raises(ValueError, match="bad part"):
        run_parts(_recorder(tmp_path), [("bad",), ("ok",)], jobs=2)


def test_joblib_parallel_still_works_after_the_pool(tmp_path):
    """The pool is joblib's own: a joblib.Parallel later in the same process (review, demo, the Python API) runs
    on it instead of failing on a bare loky pool."""
    from joblib import Parallel, delayed

    run_parts(_recorder(tmp_path), [(f"part{i}",) for i in range(3)], jobs=2)
    assert Parallel(n_jobs=2)(delayed(abs)(x) for x in (-1, -2)) == [1, 2]


def _square(x: int) -> int:
    return x * x


@pytest.mark.parametrize("jobs", [1, 2])
def test_results_come_back_in_the_order_of_the_parts(jobs):
    """render_reports fills each language's figure slots from the figure parts' results, wherever they ran."""
    assert run_parts(_square, [(x,) for x in range(7)], jobs=jobs) == [x * x for x in range(7)]


@pytest.mark.parametrize("enabled", [True, False])
def test_a_part_renders_with_the_cyclic_collector_paused_and_restored_after(enabled):
    """reports.render.without_cyclic_gc: no collection inside, the collector's state as it was after, and the
    cycles made inside collected on the way out."""
    import gc
    import weakref

    from tsumolab.reports.render import without_cyclic_gc

    class Node:
        pass

    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with without_cyclic_gc():
            assert not gc.isenabled()
            node = Node()
            node.self = node
            alive = weakref.ref(node)
            del node
        assert gc.isenabled() == enabled
        assert alive() is None
    finally:
        (gc.enable if was else gc.disable)()


_unpicklings = 0
"""how many times this process has unpickled a _Counted task"""


def _counted_task(factor: int) -> "_Counted":
    global _unpicklings
    _unpicklings += 1
    return _Counted(factor)


class _Counted:
    """A task answering (its factor × x, this process, how many tasks this process has unpickled so far)."""

    def __init__(self, factor: int):
        self.factor = factor

    def __reduce__(self):
        return _counted_task, (self.factor,)

    def __call__(self, x: int) -> tuple[int, int, int]:
        time.sleep(0.05)  # long enough for each process to take several parts
        return self.factor * x, os.getpid(), _unpicklings


def test_a_worker_unpickles_the_task_once_for_all_the_parts_it_takes():
    """The task carries the report's data: sent pickled once, and unpickled by a worker once per run."""
    for factor in (2, 3):  # a second run's task is its own, not the first run's kept by the worker
        results = run_parts(_Counted(factor), [(x,) for x in range(12)], jobs=2)
        assert [value for value, _pid, _count in results] == [factor * x for x in range(12)]
        in_workers = [(pid, count) for _value, pid, count in results if pid != os.getpid()]
        assert len(in_workers) > 1
        assert len(set(in_workers)) == len({pid for pid, _count in in_workers}), "one unpickling per worker"


def test_stopped_workers_are_gone_and_a_later_run_starts_new_ones():
    from joblib.externals.loky import reusable_executor

    first = {pid for _value, pid, _count in run_parts(_Counted(1), [(x,) for x in range(6)], jobs=2)}
    processes = list(reusable_executor._executor._processes.values())
    assert processes and all(process.is_alive() for process in processes)
    stop_workers()
    assert not any(process.is_alive() for process in processes)
    second = {pid for _value, pid, _count in run_parts(_Counted(1), [(x,) for x in range(6)], jobs=2)}
    assert (second - {os.getpid()}) and not (second - {os.getpid()}) & (first - {os.getpid()})


def test_a_part_of_a_process_that_ends_with_the_report_leaves_the_collector_paused_and_the_garbage_kept():
    """reports.render.without_cyclic_gc(keep_garbage=True), for the command line: nothing is collected on the way
    out, and the collector stays paused for the rest of the process."""
    import gc
    import weakref

    from tsumolab.reports.render import without_cyclic_gc

    class Node:
        pass

    was = gc.isenabled()
    gc.enable()
    try:
        with without_cyclic_gc(keep_garbage=True):
            node = Node()
            node.self = node
            alive = weakref.ref(node)
            del node
        assert not gc.isenabled()
        assert alive() is not None
    finally:
        (gc.enable if was else gc.disable)()
        gc.collect()
    assert alive() is None


def _timed(name: str, prepared: float | None = None) -> tuple[str, int, float, float | None]:
    """(name, process, when it started, what the preparation gave it)."""
    started = time.time()
    time.sleep(0.05)
    return name, os.getpid(), started, prepared


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_parts_that_need_the_preparation_get_its_result_and_wait_for_it_and_the_others_do_not(jobs):
    """run_parts(prepare=…): this process prepares (render_reports replays the example hands) while the workers
    take the parts that do not need it (figures); the others are called with its result, once it is there."""
    ready = []

    def prepare() -> float:
        time.sleep(0.4)
        ready.append(time.time())
        return 7.0

    parts = [("pdf",), ("html",), *[(f"figures{k}",) for k in range(6)]]
    results = run_parts(_timed, parts, jobs, prepare=prepare, needs=lambda part: not part[0].startswith("figures"))
    assert [name for name, _pid, _started, _prepared in results] == [part[0] for part in parts]
    for name, _pid, started, prepared in results:
        if name.startswith("figures"):
            assert prepared is None
        else:
            assert prepared == 7.0 and started >= ready[0]
    early = [name for name, pid, started, _prepared in results if started < ready[0]]
    if jobs == 1:
        assert not early, "one process prepares first"
    else:
        assert early and all(name.startswith("figures") for name in early), "a worker draws figures meanwhile"


def test_a_failed_preparation_is_raised_after_the_running_parts_end():
    def prepare():
        raise ValueError("no examples")

    with pytest.raises(ValueError, match="no examples"):
        run_parts(_timed, [("pdf",), ("figures",), ("figures2",)], jobs=2, prepare=prepare,
                  needs=lambda part: part[0] == "pdf")
