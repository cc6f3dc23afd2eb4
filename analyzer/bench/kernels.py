"""Micro-benchmarks of the compiled shanten kernels, timed from compiled loops over a preallocated batch.

`bench_shanten()` returns mean nanoseconds per call; `tsumolab bench --kernel shanten` prints it.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from tsumolab.sims import shanten_tables
from tsumolab.sims.shanten import RIICHI_SHAPES, discard_shanten, shanten
from tsumolab.sims.tiles import N_KINDS


def random_hands(n_hands: int, n_tiles: int = 14, seed: int = 0) -> np.ndarray:
    """int8[n_hands, 34] count arrays, each n_tiles drawn without replacement from the 136-tile set."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n_hands, 4 * N_KINDS))
    picks = np.argsort(keys, axis=1)[:, :n_tiles] // 4
    hands = np.zeros((n_hands, N_KINDS), np.int8)
    np.add.at(hands, (np.repeat(np.arange(n_hands), n_tiles), picks.ravel()), 1)
    return hands


@njit(cache=True)
def _shanten_loop(hands, hand_flags, suit_t, honor_t, repeats):
    total = 0
    for _ in range(repeats):
        for i in range(hands.shape[0]):
            total += shanten(hands[i], 0, hand_flags, suit_t, honor_t)
    return total


@njit(cache=True)
def _discard_loop(hands, hand_flags, suit_t, honor_t, repeats):
    """All discards of each 14-tile hand with one `discard_shanten` call (one row update per kind)."""
    out = np.empty(N_KINDS, np.int64)
    total = 0
    for _ in range(repeats):
        for i in range(hands.shape[0]):
            total += discard_shanten(hands[i], 0, hand_flags, suit_t, honor_t, out)
    return total


@njit(cache=True)
def _discard_loop_naive(hands, hand_flags, suit_t, honor_t, repeats):
    """All 14 discards of each hand as 14 full `shanten` calls on the 13-tile remainder."""
    work = np.empty(N_KINDS, np.int8)
    total = 0
    for _ in range(repeats):
        for i in range(hands.shape[0]):
            work[:] = hands[i]
            for k in range(N_KINDS):
                for _copy in range(hands[i, k]):
                    work[k] -= 1
                    total += shanten(work, 0, hand_flags, suit_t, honor_t)
                    work[k] += 1
    return total


def _ns_per_call(loop, hands, hand_flags, suit_t, honor_t, min_seconds: float, rounds: int = 3) -> float:
    """Mean ns per hand of `loop`: best of `rounds` timings, each over enough repeats to last min_seconds."""
    loop(hands[:2], hand_flags, suit_t, honor_t, 1)  # compile or load from the numba cache
    repeats = 1
    while True:
        start = time.perf_counter()
        loop(hands, hand_flags, suit_t, honor_t, repeats)
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds or repeats >= 1 << 20:
            break
        repeats *= 2
    for _ in range(rounds - 1):
        start = time.perf_counter()
        loop(hands, hand_flags, suit_t, honor_t, repeats)
        elapsed = min(elapsed, time.perf_counter() - start)
    return elapsed * 1e9 / (repeats * hands.shape[0])


def _mahjong_pkg_ns(hands: np.ndarray) -> float | None:
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        return None
    lists = [h.tolist() for h in hands]
    start = time.perf_counter()
    for tiles in lists:
        Shanten.calculate_shanten(tiles, use_chiitoitsu=True, use_kokushi=True)
    return (time.perf_counter() - start) * 1e9 / len(lists)


def bench_shanten(n_hands: int = 100_000, seed: int = 0, hand_flags: int = RIICHI_SHAPES,
                  n_pkg_hands: int = 5_000, min_seconds: float = 0.3) -> dict:
    """Mean cost of the shanten kernels on random 14-tile hands (136-tile set, closed); timings are the
    best of 3 rounds, so other load on the machine inflates them less.

    Keys: `shanten_ns` (one 14-tile `shanten` call), `discard_eval_ns` (shanten after every discard of a
    14-tile hand, via `discard_shanten`), `discard_eval_naive_ns` (the same as 14 `shanten` calls),
    `mahjong_pkg_ns` (one `mahjong` package call, None if not installed), `tables_seconds` (building
    the tables in this process), `tables_load_seconds` (get_tables: disk cache or build),
    `first_call_seconds` (first `shanten` call: numba cache load or compile), plus the sample sizes.
    """
    start = time.perf_counter()
    suit_t, honor_t = shanten_tables.get_tables()
    tables_load_seconds = time.perf_counter() - start

    hands = random_hands(n_hands, 14, seed)
    start = time.perf_counter()
    shanten(hands[0], 0, hand_flags, suit_t, honor_t)
    first_call_seconds = time.perf_counter() - start

    start = time.perf_counter()
    shanten_tables.build_tables()
    tables_seconds = time.perf_counter() - start

    return {
        "shanten_ns": _ns_per_call(_shanten_loop, hands, hand_flags, suit_t, honor_t, min_seconds),
        "discard_eval_ns": _ns_per_call(_discard_loop, hands, hand_flags, suit_t, honor_t, min_seconds),
        "discard_eval_naive_ns": _ns_per_call(_discard_loop_naive, hands, hand_flags, suit_t, honor_t,
                                              min_seconds),
        "mahjong_pkg_ns": _mahjong_pkg_ns(hands[:n_pkg_hands]),
        "tables_seconds": tables_seconds,
        "tables_load_seconds": tables_load_seconds,
        "first_call_seconds": first_call_seconds,
        "n_hands": n_hands,
        "n_pkg_hands": min(n_pkg_hands, n_hands),
        "hand_flags": hand_flags,
    }


def bench_advise(seats_spec: str = "baseline", jobs: int = 2, seed: int = 1, positions: int = 40,
                 per_position: int = 40, decision_rollouts: int = 1000, variant: str = "bloodshed") -> dict:
    """Speed of `tsumolab advise`: rest-of-hand rollouts per second on one core from mid-hand positions of
    simulated matches (own turns and reactions with 25..45 tiles left in the wall), next to whole hands per
    second measured in the same process (the ratio is what survives a busy machine), and the time of one
    whole analysis (every option of the own-turn decision with the most options, the full budget of
    determinizations without early stop) on `jobs` processes, warm, and of the same analysis with racing (the
    default of advise: `raced_decision_seconds`, `raced_option_rollouts`)."""
    import time

    from joblib import Parallel

    from tsumolab.analyzer.advise.evaluate import BATCH, advise, play_on_workers
    from tsumolab.analyzer.bench.speed import bench_variant

    sampler, found = _positions(seats_spec, variant, seed, positions)
    S, seat, options, _ = found[0]
    sampler.rollouts(S, seat, [a for _, a in options], seed, 0, 2, False)  # warm
    hands_per_sec = bench_variant(variant, seats_spec, 300, 1, seed)["hands_per_sec_per_core"]
    t0 = time.perf_counter()
    n = 0
    for S, seat, options, _ in found:
        sampler.rollouts(S, seat, [a for _, a in options], seed, 0, per_position, False)
        n += per_position * len(options)
    seconds = time.perf_counter() - t0
    S, seat, options, _ = max((f for f in found if f[3]), key=lambda f: len(f[2]))
    parallel = Parallel(n_jobs=jobs) if jobs > 1 else None
    with parallel or _null():
        advise(S, seat, options, sampler, 2 * jobs * BATCH, seed=seed, jobs=jobs, parallel=parallel)  # warm
        if parallel is not None:  # the workers started, as for every decision after a command's first
            play_on_workers(parallel, sampler.recipe(), S, seat, [a for _, a in options], seed,
                            [BATCH * k for k in range(jobs)], 1, False)
        t1 = time.perf_counter()
        advise(S, seat, options, sampler, decision_rollouts, seed=seed, jobs=jobs, parallel=parallel,
               stop_early=False)
        decision_seconds = time.perf_counter() - t1
        t1 = time.perf_counter()
        raced = advise(S, seat, options, sampler, decision_rollouts, seed=seed, jobs=jobs, parallel=parallel)
        raced_seconds = time.perf_counter() - t1
    return {
        "variant": variant, "positions": len(found), "rollouts": n, "seconds": round(seconds, 3),
        "rollouts_per_sec_per_core": round(n / seconds, 1),
        "full_hands_per_sec_per_core": hands_per_sec,
        "rollouts_per_full_hand": round(n / seconds / hands_per_sec, 2),
        "decision_options": len(options), "decision_determinizations": decision_rollouts, "jobs": jobs,
        "decision_seconds": round(decision_seconds, 3), "raced_decision_seconds": round(raced_seconds, 3),
        "raced_option_rollouts": raced["option_rollouts"], "seats": seats_spec,
    }


def _positions(seats_spec, variant, seed, positions):
    """The sampler and (state, seat, options, is an own turn) of mid-hand decisions (own turns and reactions with
    25..45 tiles left in the wall) of the first hands of simulated matches."""
    from tsumolab.analyzer.engines import tools_for
    from tsumolab.sims.decisions import D_REACT, D_TURN

    tools = tools_for(variant)
    sampler = tools.sampler(seats_spec, variant, {})
    found = []
    match_id = 0
    while len(found) < positions:
        match_id += 1
        for decision in range(12, 120, 7):
            state = tools.stopped_state(variant, seats_spec, seed, {}, match_id, 1, decision)
            if state is None:
                break
            seat, kind, wall = tools.pending(sampler, state)
            if kind in (D_TURN, D_REACT) and 25 <= wall <= 45:
                found.append((state, seat, tools.options(sampler, state), kind == D_TURN))
    return sampler, found


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
