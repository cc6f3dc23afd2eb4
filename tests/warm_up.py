"""Compile (or load from numba's cache) every kernel once, in one process, before the test workers start.

`make test` runs `python -m tests.warm_up` and then pytest with two workers: without this step both workers
would compile the same engines side by side while collecting the tests (the engines have explicit signatures,
so they compile when their module is imported) and the same policy hooks as their tests first play them; after
it they only load machine code. The two engines, the largest kernels, compile in two processes at once (one
per core), while this process builds the fonts the reports use; then one process loads everything and calls the
kernels compiled on first call. Prints the wall and CPU seconds of each step, which is where a cold `make test`
spends its compile time.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import tsumolab.sims  # noqa: F401  (points numba at the cache directory of these sources before numba compiles)
from tsumolab.analyzer import prebuild


def _cpu() -> float:
    times = os.times()
    return times.user + times.system


def _step(name: str, action) -> None:
    wall, cpu = time.perf_counter(), _cpu()
    action()
    print(f"  {time.perf_counter() - wall:7.1f} s wall {_cpu() - cpu:7.1f} s CPU  {name}", flush=True)


def _compile_in_parallel() -> None:
    """The two halves of analyzer.prebuild.compile_group, one process each (110–170 s each on a cold cache,
    depending on the host), the riichi half with the test suite's own riichi policy hooks. Meanwhile this process
    builds the report fonts' caches, which the first report test would otherwise build in each test worker that
    renders one."""
    with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
        halves = pool.map(_compile_group, prebuild.GROUPS)
        _step("report fonts: matplotlib's font list, the Chinese glyph shapes (this process)", _build_fonts)
        for line in halves:
            print(line, flush=True)


def _build_fonts() -> None:
    from tsumolab.reports.fonts import cjk_family, sc_font_path

    cjk_family()
    sc_font_path()


def _compile_group(group: str) -> str:
    wall, cpu = time.perf_counter(), _cpu()
    prebuild.compile_group(group)
    if group == "riichi":
        prebuild.compile_hooks(("tests.darkness_policies", "tests.test_mode_mirror"))
    return f"  {time.perf_counter() - wall:7.1f} s wall {_cpu() - cpu:7.1f} s CPU  {group} engine (own process)"


def main() -> None:
    wall = time.perf_counter()
    print("warm-up: compiling or loading every kernel once", flush=True)
    _step("both engines, policy hooks, shanten tables (two processes)", _compile_in_parallel)
    _step("every module, one match of every mode, hand analysis", prebuild.compile_rest)
    print(f"warm-up: {time.perf_counter() - wall:.1f} s wall", flush=True)


if __name__ == "__main__":
    main()
