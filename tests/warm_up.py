"""Compile (or load from numba's cache) every kernel once, in one process, before the test workers start.

`make test` runs `python -m tests.warm_up` and then pytest with two workers: without this step both workers
would compile the same engines side by side while collecting the tests (the engines have explicit signatures,
so they compile when their module is imported) and the same policy hooks as their tests first play them; after
it they only load machine code. The two engines, the largest kernels, compile in two processes at once (one
per core); then one process loads everything and calls the kernels compiled on first call. Prints the wall and
CPU seconds of each step, which is where a cold `make test` spends its compile time.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import numpy as np

import tsumolab.sims  # noqa: F401  (points numba at the cache directory of these sources before numba compiles)


def _cpu() -> float:
    times = os.times()
    return times.user + times.system


def _step(name: str, action) -> None:
    wall, cpu = time.perf_counter(), _cpu()
    action()
    print(f"  {time.perf_counter() - wall:7.1f} s wall {_cpu() - cpu:7.1f} s CPU  {name}", flush=True)


def _import_all(package: str, skip: str = "") -> None:
    """Every module of `package` (but those under `skip`): kernels with an explicit signature (the engines)
    compile or load when their module is imported."""
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(root.__path__, f"{package}."):
        if not (skip and info.name.startswith(skip)):
            importlib.import_module(info.name)


def _simulate_every_mode() -> None:
    """The kernels compiled on first call: one match of every mode, with and without its event log."""
    from tsumolab.policies.registry import parse_seats
    from tsumolab.sims.modes import MODES, get_mode

    seats = parse_seats("baseline,random,majsoul-cpu,disconnected")
    for slug in sorted(MODES):
        mode = get_mode(slug)
        mode.warm_up(seats)
        if hasattr(mode, "simulate_events"):
            mode.simulate_events(0, np.zeros(1, np.int64), seats)


def _analyze_hands() -> None:
    from tsumolab.sims.analysis import analyze

    analyze({"variant": "riichi", "hand": "123m456p789s11222z", "win_tile": "2z", "tsumo": True})
    analyze({"variant": "bloodshed", "hand": "11223344556677s", "void": "m", "tsumo": True})


def _search_riichi() -> None:
    """The riichi rollout kernels compiled on first call (`search` seats, `advise` of a riichi position): one
    shura match with a searching seat."""
    from tsumolab.analyzer.search import play as search_play
    from tsumolab.policies.registry import parse_seats
    from tsumolab.sims.modes import get_mode

    seats = parse_seats("search(rollouts=2,z=inf),baseline,baseline,random")
    search_play.simulate(get_mode("shura"), 0, np.arange(1), seats)


def _bloodshed_decisions() -> None:
    """The kernels of `tsumolab decisions` on Bloodshed compiled on first call: one situation of claim B1 played
    out from its true state."""
    from tsumolab.analyzer.decisions.situations import claim_arms, evaluate, scan_matches

    arms = claim_arms(["B1"])
    situation = scan_matches("bloodshed", "baseline", arms, 3, range(0, 6))[0]
    evaluate("bloodshed", arms[0], situation, 3, 2)


def _compile_hooks(modules: tuple[str, ...] = ()) -> None:
    """Every registered policy's hooks, both families, and the hooks defined in `modules` (policies.api.hook
    compiles a hook when a seat first plays it, which both test workers would otherwise do side by side)."""
    from inspect import signature

    from numba.core.dispatcher import Dispatcher

    from tsumolab.policies.api import compiled_hook
    from tsumolab.policies.registry import all_policies

    hooks = [fn for policy in all_policies() for fn in (*policy.hooks.values(), *policy.riichi_hooks.values())]
    for name in modules:
        hooks += [value for value in vars(importlib.import_module(name)).values() if isinstance(value, Dispatcher)
                  and list(signature(value.py_func).parameters) == ["obs", "params", "tables"]]
    for fn in hooks:
        compiled_hook(fn)


def _import_test_hooks() -> None:
    """The test suite's own riichi policy hooks."""
    _compile_hooks(("tests.darkness_policies", "tests.test_mode_mirror"))


def _compile_in_parallel() -> None:
    """The riichi engine, the riichi modules, the hand analysis, the riichi rollouts, the tests' riichi hooks and
    last the Bloodshed decisions rollouts (the Bloodshed engine is in the cache by then) in one process; the
    Bloodshed engine, the policy hooks, the shanten tables and the other modules in another: about 100 s each on a
    cold cache."""
    with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
        for line in pool.map(_compile_group, ("riichi", "bloodshed")):
            print(line, flush=True)


def _compile_group(group: str) -> str:
    wall, cpu = time.perf_counter(), _cpu()
    if group == "riichi":
        importlib.import_module("tsumolab.sims.riichi.engine")
        _import_all("tsumolab.sims.riichi")
        _analyze_hands()
        _search_riichi()
        _import_test_hooks()
        _bloodshed_decisions()
    else:
        importlib.import_module("tsumolab.sims.shanten_tables").load_or_build_tables()
        importlib.import_module("tsumolab.sims.bloodshed.engine")
        _import_all("tsumolab.policies")
        _compile_hooks()
        _import_all("tsumolab.sims", skip="tsumolab.sims.riichi")
    return f"  {time.perf_counter() - wall:7.1f} s wall {_cpu() - cpu:7.1f} s CPU  {group} engine (own process)"


def main() -> None:
    wall = time.perf_counter()
    print("warm-up: compiling or loading every kernel once", flush=True)
    _step("both engines, policy hooks, shanten tables (two processes)", _compile_in_parallel)
    _step("every module of sims and policies", lambda: (_import_all("tsumolab.sims"), _import_all("tsumolab.policies")))
    _step("one match of every mode", _simulate_every_mode)
    _step("hand analysis", _analyze_hands)
    print(f"warm-up: {time.perf_counter() - wall:.1f} s wall", flush=True)


if __name__ == "__main__":
    main()
