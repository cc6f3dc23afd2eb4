"""`tsumolab bench`: simulation speed (hands per second per core) and kernel costs."""

from __future__ import annotations

import json
import os

import click

from tsumolab.analyzer.bench.speed import bench_variant
from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError

ALL = "all"
REFERENCE = "riichi"
SLOW_RATIO = 0.5
"""a mode below this fraction of riichi's hands/s per core is flagged slow"""


def bench_all(seats_spec: str, matches: int, jobs: int, seed: int = 1, policy_paths: tuple = (),
              modes: list[str] | None = None) -> dict:
    """bench_variant for every mode of sims.modes (riichi first: the reference), each with its ratio to riichi's
    hands/s per core and `slow` when below SLOW_RATIO of it. Riichi is timed again after the others and its
    figure is the mean of both timings (`riichi_timings`), so a load change during the run biases the ratios
    less. A mode that cannot run (e.g. a seat's policy does not play it) gets an `error` instead of figures."""
    from tsumolab.sims.modes import MODES

    order = [REFERENCE] + [m for m in (modes or list(MODES)) if m != REFERENCE]
    results = []
    for mode in order:
        try:
            results.append(bench_variant(mode, seats_spec, matches, jobs, seed, policy_paths))
        except Exception as exc:  # one broken mode must not hide the others' figures
            if mode == REFERENCE:
                raise
            results.append({"variant": mode, "error": f"{type(exc).__name__}: {exc}"})
    again = bench_variant(REFERENCE, seats_spec, matches, jobs, seed, policy_paths)
    timings = [results[0]["hands_per_sec_per_core"], again["hands_per_sec_per_core"]]
    results[0]["riichi_timings"] = timings
    results[0]["hands_per_sec_per_core"] = round(sum(timings) / 2, 1)
    reference = results[0]["hands_per_sec_per_core"]
    for r in results:
        if "error" not in r:
            r["ratio_to_riichi"] = round(r["hands_per_sec_per_core"] / reference, 3) if reference else None
            r["slow"] = r["ratio_to_riichi"] is not None and r["ratio_to_riichi"] < SLOW_RATIO
    return {"reference": REFERENCE, "slow_ratio": SLOW_RATIO, "matches": matches, "jobs": jobs,
            "seats": seats_spec, "modes": results}


def all_modes_text(result: dict) -> str:
    """One line per mode: hands/s per core, ratio to riichi, hands, seconds, warm-up; SLOW flags."""
    lines = [f"{'mode':<12} {'hands/s/core':>12} {'vs riichi':>9} {'hands':>8} {'seconds':>8} {'warm-up s':>9}"]
    for r in result["modes"]:
        if "error" in r:
            lines.append(f"{r['variant']:<12} error: {r['error']}")
            continue
        flag = f"  SLOW: below {result['slow_ratio']:.0%} of riichi" if r["slow"] else ""
        if "riichi_timings" in r:
            flag += "  (mean of {:,.0f} first and {:,.0f} last)".format(*r["riichi_timings"])
        lines.append(f"{r['variant']:<12} {r['hands_per_sec_per_core']:>12,.0f} {r['ratio_to_riichi']:>9.2f} "
                     f"{r['hands']:>8,} {r['seconds']:>8.2f} {r['warm_up_seconds']:>9.1f}{flag}")
    slow = [r["variant"] for r in result["modes"] if r.get("slow")]
    lines.append(f"{result['matches']:,} matches per mode, jobs={result['jobs']}, seats {result['seats']}; "
                 + (f"slow: {', '.join(slow)}" if slow else "no mode below half of riichi's speed"))
    return "\n".join(lines)


@cli.command("bench")
@click.option("--variant", default="bloodshed", show_default=True,
              help="Mode to simulate, or `all`: every mode, one line each with its ratio to riichi.")
@click.option("--seats", default="baseline", show_default=True,
              help="One policy for all seats, or four separated by commas.")
@click.option("--matches", type=int, default=5000, show_default=True, help="Matches to time.")
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes (-1 = all cores).")
@click.option("--seed", type=int, default=1, show_default=True, help="Root seed.")
@click.option("--policy-path", "policy_paths", multiple=True,
              help="Python file or module with extra policies (repeatable).")
@click.option("--kernel", type=click.Choice(["shanten"]), default=None,
              help="Benchmark a compiled kernel instead of whole matches.")
@click.option("--advise", "advise_speed", is_flag=True,
              help="Benchmark `tsumolab advise` (--variant bloodshed, riichi or shura): rest-of-hand rollouts/s per "
                   "core from mid-hand positions, and the time of a whole own-turn analysis with 1,000 "
                   "determinizations on --jobs.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def bench(variant, seats, matches, jobs, seed, policy_paths, kernel, advise_speed, as_json):
    """Measure simulation speed in hands per second per core (compile time excluded and reported apart).

    \b
    Examples:
      tsumolab bench --variant bloodshed --seats baseline
      tsumolab bench --variant all --matches 2000
      tsumolab bench --kernel shanten --json
      tsumolab bench --advise --jobs 2
    """
    if advise_speed:
        from tsumolab.analyzer.bench.kernels import bench_advise

        from tsumolab.analyzer.engines import advise_modes

        if variant not in advise_modes():
            raise InputError(f"--advise supports --variant {', '.join(advise_modes())}, not {variant!r}")
        result = bench_advise(seats, max(1, os.cpu_count() if jobs == -1 else jobs), seed, variant=variant)
    elif kernel == "shanten":
        from tsumolab.analyzer.bench.kernels import bench_shanten

        result = bench_shanten()
    else:
        if matches < 1:
            raise InputError("--matches must be at least 1")
        jobs = os.cpu_count() if jobs == -1 else jobs
        if jobs < 1:
            raise InputError("--jobs must be at least 1 (or -1 for all cores)")
        try:
            if variant == ALL:
                result = bench_all(seats, matches, jobs, seed, policy_paths)
            else:
                result = bench_variant(variant, seats, matches, jobs, seed, policy_paths)
        except ValueError as exc:
            raise InputError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(result))
    elif kernel is None and variant == ALL and not advise_speed:
        click.echo(all_modes_text(result))
    else:
        for key, value in result.items():
            click.echo(f"{key:>24}: {value}")
