"""`tsumolab bench`: simulation speed (hands per second per core) and kernel costs."""

from __future__ import annotations

import json
import os
import time

import click
import numpy as np

from analyzer.cli import InputError, cli


def _simulate_chunk(variant: str, seats, policy_paths, seed: int, first: int, count: int) -> int:
    from policies.registry import load_path
    from sims.modes import get_mode

    for path in policy_paths:
        load_path(path)
    hand_rows, _ = get_mode(variant).simulate(seed, np.arange(first, first + count), seats)
    return len(hand_rows) // 4


def bench_variant(variant: str, seats_spec: str, matches: int, jobs: int, seed: int = 1,
                  policy_paths: tuple = ()) -> dict:
    """Time `matches` matches after a warm-up; returns hands/s per core and the raw figures."""
    from joblib import Parallel, delayed

    from policies.registry import check_mode, parse_seats
    from sims.modes import get_mode

    mode = get_mode(variant)
    seats = parse_seats(seats_spec, policy_paths)
    check_mode(seats, variant)
    t0 = time.perf_counter()
    mode.warm_up(seats)
    warm_up = time.perf_counter() - t0
    per_job = -(-matches // jobs)
    t0 = time.perf_counter()
    if jobs == 1:
        hands = _simulate_chunk(variant, seats, policy_paths, seed, 0, matches)
    else:
        counts = Parallel(n_jobs=jobs)(
            delayed(_simulate_chunk)(variant, seats, policy_paths, seed, j * per_job,
                                     max(0, min(per_job, matches - j * per_job)))
            for j in range(jobs))
        hands = sum(counts)
    seconds = time.perf_counter() - t0
    return {
        "variant": variant,
        "seats": [s.label for s in seats],
        "matches": matches,
        "hands": hands,
        "seconds": round(seconds, 4),
        "jobs": jobs,
        "hands_per_sec": round(hands / seconds, 1),
        "hands_per_sec_per_core": round(hands / seconds / jobs, 1),
        "warm_up_seconds": round(warm_up, 3),
    }


@cli.command("bench")
@click.option("--variant", default="bloodshed", show_default=True, help="Mode to simulate.")
@click.option("--seats", default="baseline", show_default=True,
              help="One policy for all seats, or four separated by commas.")
@click.option("--matches", type=int, default=5000, show_default=True, help="Matches to time.")
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes (-1 = all cores).")
@click.option("--seed", type=int, default=1, show_default=True, help="Root seed.")
@click.option("--policy-path", "policy_paths", multiple=True, help="Python file or module with extra policies (repeatable).")
@click.option("--kernel", type=click.Choice(["shanten"]), default=None,
              help="Benchmark a compiled kernel instead of whole matches.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def bench(variant, seats, matches, jobs, seed, policy_paths, kernel, as_json):
    """Measure simulation speed in hands per second per core (compile time excluded and reported apart).

    \b
    Examples:
      tsumolab bench --variant bloodshed --seats baseline
      tsumolab bench --kernel shanten --json
    """
    if kernel == "shanten":
        from analyzer.bench_kernels import bench_shanten

        result = bench_shanten()
    else:
        if matches < 1:
            raise InputError("--matches must be at least 1")
        jobs = os.cpu_count() if jobs == -1 else jobs
        if jobs < 1:
            raise InputError("--jobs must be at least 1 (or -1 for all cores)")
        try:
            result = bench_variant(variant, seats, matches, jobs, seed, policy_paths)
        except ValueError as exc:
            raise InputError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(result))
    else:
        for key, value in result.items():
            click.echo(f"{key:>24}: {value}")
