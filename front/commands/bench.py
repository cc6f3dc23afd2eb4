"""`tsumolab bench`: simulation speed (hands per second per core) and kernel costs."""

from __future__ import annotations

import json
import os
import sys
import time

from pathlib import Path

import click

from tsumolab.analyzer.advise.objectives import OBJECTIVES, horizon_for
from tsumolab.commands.advise import DEALS, PRIOR
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


def agreement_bench(logs: list[str], seats: str | None, sample: int, rollouts: int, objective: str, seed: int,
                    jobs: int, out: Path | None, choices: tuple[str, ...] = (), planted: bool = False,
                    deal: str = "progress", prior: bool = True) -> dict:
    """analyzer.bench.agreement over `logs` with a progress bar; the summary (and the rows in `out`)."""
    from tsumolab.analyzer.bench.agreement import CHOICE_KINDS, load_records, run_agreement, summarize
    from tsumolab.analyzer.review.game_review import ReviewSpec
    from tsumolab.analyzer.tables import write_parquet_atomic

    if rollouts < 1 or jobs < 1 or sample < 0:
        raise InputError("--rollouts and --jobs must be at least 1, --sample at least 0")
    unknown = sorted(set(choices) - set(CHOICE_KINDS))
    if unknown:
        raise InputError(f"--choice: unknown kind {unknown[0]!r} (kinds: {', '.join(CHOICE_KINDS)})")
    spec = ReviewSpec(0, None, rollouts, horizon_for(objective), seats, seed, objective, deal, prior)
    records = load_records(logs)  # a bad log is refused before the progress bar shows
    started = time.perf_counter()
    with click.progressbar(length=1, label="decisions", file=sys.stderr) as bar:
        def progress(done, total):
            bar.length = total
            bar.update(done - bar.pos)

        rows = run_agreement(logs, spec, sample, jobs, progress, choices, planted, records)
    if out is not None:
        write_parquet_atomic(rows, out, {"format": "tsumolab-agreement-1", "spec": spec.as_dict(), "logs": logs})
    return {"logs": len(logs), "choices": list(choices), "planted": planted, "rollouts": rollouts,
            "value": objective, "deal": deal, "seats": seats or "default", "seed": seed, "jobs": jobs,
            "wall_seconds": round(time.perf_counter() - started, 1), **summarize(rows)}


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


def agreement_text(result: dict) -> str:
    """The agreement benchmark as a few lines and one table per grouping."""
    lines = [f"{result['decisions']} decisions of {result['logs']} logs ({result['refused']} refused), "
             f"{result['rollouts']} rollouts, value {result['value']}, deal {result['deal']}, "
             f"{result['wall_seconds']} s on {result['jobs']} job(s)",
             f"top-1 {_pct(result['top1'])}, within the interval of the best {_pct(result['within'])}, "
             f"flagged {_pct(result['flagged'])}; the seat's own answer alone: top-1 {_pct(result['policy_top1'])}",
             f"own-turn discards: {result['own_turn_discards']}, top-1 {_pct(result['own_turn_top1'])} (the answer "
             f"alone {_pct(result['own_turn_policy_top1'])}); wins taken: {result['wins_taken']}, recommended "
             f"{_pct(result['wins_recommended'])}"]
    for title, key, col in (("by decision", "by_kind", "kind"), ("by choice", "by_choice", "choice_kind"),
                            ("own turns by shanten (3 = 3 or more)", "own_turn_by_shanten", "shanten"),
                            ("planted blunders (flagged = caught)", "by_plant", "plant")):
        if not result[key]:
            continue
        lines.append(f"{title}:")
        lines.append(f"  {'':16s} {'n':>5s} {'top-1':>7s} {'within':>7s} {'flagged':>7s} {'s/dec':>6s}")
        for r in result[key]:
            lines.append(f"  {str(r[col]):16s} {r['decisions']:5d} {_pct(r['top1']):>7s} {_pct(r['within']):>7s} "
                         f"{_pct(r['flagged']):>7s} {r['seconds']:6.2f}")
    return "\n".join(lines)


@cli.command("bench")
@click.option("--variant", default="bloodshed", show_default=True,
              help="Mode to simulate, or `all`: every mode, one line each with its ratio to riichi.")
@click.option("--seats", default=None,
              help="One policy for all seats, or four separated by commas (default: baseline; with --agreement, the "
                   "rollout field advise uses by default: fast-expert in the riichi modes, baseline in bloodshed).")
@click.option("--matches", type=int, default=5000, show_default=True, help="Matches to time.")
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes (-1 = all cores).")
@click.option("--seed", type=int, default=1, show_default=True, help="Root seed.")
@click.option("--policy-path", "policy_paths", multiple=True,
              help="Python file or module with extra policies (repeatable).")
@click.option("--kernel", type=click.Choice(["shanten"]), default=None,
              help="Benchmark a compiled kernel instead of whole matches.")
@click.option("--advise", "advise_speed", is_flag=True,
              help="Benchmark `tsumolab advise` (--variant: a mode advise supports): rest-of-hand rollouts/s per "
                   "core from mid-hand positions, and the time of a whole own-turn analysis with 1,000 "
                   "determinizations on --jobs.")
@click.option("--agreement", "agreement_logs", multiple=True, metavar="LOG",
              help="Agreement benchmark on real games (repeatable; tenhou.net/6, Tenhou mjlog XML, mjai or Mahjong "
                   "Soul records, plain or gzip): how often advise recommends the players' choices, by decision "
                   "kind, choice and shanten.")
@click.option("--sample", type=int, default=200, show_default=True,
              help="--agreement: decisions drawn from the logs with --seed (0 = all).")
@click.option("--rollouts", type=int, default=1000, show_default=True,
              help="--agreement: advise's budget per decision.")
@click.option("--choice", "choices", default=None, metavar="KINDS",
              help="--agreement: only decisions where the player chose one of these, e.g. tsumo,ron (discard, "
                   "riichi, tsumo, ron, pon, chi, kan, pass, exchange).")
@click.option("--planted", is_flag=True,
              help="--agreement: judge planted blunders instead of the players' choices (breaking a ready hand, "
                   "pushing a fresh tile into the dealer's riichi from far, passing a late mangan ron); the share "
                   "flagged is the share caught.")
@click.option("--value", "objective", type=click.Choice(OBJECTIVES), default="points", show_default=True,
              help="--agreement: what an outcome is worth (as for `tsumolab advise --value`).")
@click.option("--deal", type=click.Choice(DEALS), default="progress", show_default=True,
              help="--agreement: how the hidden hands are dealt (as for `tsumolab advise --deal`).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="--agreement: also write one row per decision to this Parquet file.")
@PRIOR
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def bench(variant, seats, matches, jobs, seed, policy_paths, kernel, advise_speed, agreement_logs, sample, rollouts,
          choices, planted, objective, deal, out, prior, as_json):
    """Measure simulation speed in hands per second per core (compile time excluded and reported apart).

    \b
    Examples:
      tsumolab bench --variant bloodshed --seats baseline
      tsumolab bench --variant all --matches 2000
      tsumolab bench --kernel shanten --json
      tsumolab bench --advise --jobs 2
      tsumolab bench --agreement game1.json --agreement game2.json.gz --sample 100 --jobs 2
    """
    if agreement_logs:
        jobs = os.cpu_count() if jobs == -1 else jobs
        kinds = tuple(c.strip() for c in choices.split(",")) if choices else ()
        result = agreement_bench(list(agreement_logs), seats, sample, rollouts, objective, seed, jobs, out, kinds,
                                 planted, deal, prior)
        click.echo(json.dumps(result) if as_json else agreement_text(result))
        return
    seats = seats or "baseline"
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
