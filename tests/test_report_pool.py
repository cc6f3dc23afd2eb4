"""reports.pool: a report's parts rendered by this process and worker processes at once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tsumolab.reports.pool import run_parts


def _recorder(directory: Path):
    """A part task writing the id of the process that ran it to DIR/<part>; fails on the part "bad"."""
    def task(name: str) -> None:
        if name == "bad":
            raise ValueError("bad part")
        (directory / name).write_text(str(os.getpid()))

    return task


def test_one_job_runs_every_part_here_in_order(tmp_path):
    order = []
    run_parts(order.append, [("a",), ("b",), ("c",)], jobs=1)
    assert order == ["a", "b", "c"]


def test_this_process_renders_beside_its_workers(tmp_path):
    names = [f"part{i}" for i in range(4)]
    run_parts(_recorder(tmp_path), [(name,) for name in names], jobs=2)
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
