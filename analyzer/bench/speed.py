"""Whole-match simulation speed: hands per second per core of one mode and seat mix, after a warm-up."""

from __future__ import annotations

import time

import numpy as np


def _simulate_chunk(variant: str, seats, policy_paths, seed: int, first: int, count: int) -> int:
    from tsumolab.analyzer.search import play as search_play
    from tsumolab.policies.registry import load_path
    from tsumolab.sims.modes import get_mode

    for path in policy_paths:
        load_path(path)
    hand_rows, _ = search_play.simulate(get_mode(variant), seed, np.arange(first, first + count), seats)
    return len(hand_rows) // 4


def bench_variant(variant: str, seats_spec: str, matches: int, jobs: int, seed: int = 1,
                  policy_paths: tuple = ()) -> dict:
    """Time `matches` matches after a warm-up; returns hands/s per core and the raw figures."""
    from joblib import Parallel, delayed

    from tsumolab.analyzer.search import play as search_play
    from tsumolab.policies.registry import check_mode, parse_seats
    from tsumolab.sims.modes import get_mode
    from tsumolab.sims.prebuilt_kernels import status as kernel_status

    mode = get_mode(variant)
    seats = parse_seats(seats_spec, policy_paths)
    check_mode(seats, variant)
    t0 = time.perf_counter()
    search_play.warm_up(mode, seats)
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
        "kernels": kernel_status(),
    }
