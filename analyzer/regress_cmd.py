"""`tsumolab regress`: rerun a small claim set on fresh walls and compare it statistically with a baseline."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from analyzer import regress
from analyzer.cli import cli
from analyzer.package_files import regress_baseline_path
from analyzer.run_options import parse_rule_options
from sims.modes import get_mode

DEFAULT_BASELINE = regress_baseline_path()


@cli.command("regress")
@click.option("--baseline", "baseline_path", type=click.Path(dir_okay=False, path_type=Path),
              default=DEFAULT_BASELINE, show_default="the package's analyzer/experiments/regress-baseline.json",
              help="Stored baseline (JSON) to compare with, or to write with --update.")
@click.option("--update", is_flag=True, help="Rewrite the baseline from this run instead of comparing.")
@click.option("--seed", type=int, default=None,
              help="Root seed of the rerun. Default: the baseline's seed + 1 (fresh walls).")
@click.option("--matches", type=int, default=regress.REGRESS_MATCHES, show_default=True,
              help="Matches per claim of the rerun (fewer: a quicker, less sensitive check).")
@click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE", help="Override a Bloodshed rule option.")
@click.option("--jobs", "-j", type=int, default=1, show_default=True, help="Worker processes (-1 = every core).")
@click.option("--out", "-o", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep the rerun's experiment directory here (default: a temporary directory).")
@click.option("--resume", is_flag=True, help="Reuse finished chunks in --out.")
@click.option("--verbose", "-v", is_flag=True, help="List every metric, not only those that differ.")
def regress_command(baseline_path: Path, update: bool, seed: int | None, matches: int, rules: tuple[str, ...],
                    jobs: int, out_dir: Path | None, resume: bool, verbose: bool) -> None:
    """Rerun claims B1, B4 and B5 (--matches each) with a fresh seed and exit 1 when a metric moved.

    A metric (paired effects, and each arm's per-match points, rank, wins, deal-ins, fan, kans, flower pigs)
    differs when it is more than 4 combined standard errors from the baseline. --update stores this run as
    the new baseline (and its seed, so the next check plays other walls again).
    """
    overrides = parse_rule_options(get_mode("bloodshed").RULES, rules)
    stored = None if update and not baseline_path.exists() else regress.read_baseline(baseline_path)
    if seed is None:
        seed = stored["seed"] + 1 if stored else regress.DEFAULT_SEED
    with tempfile.TemporaryDirectory(prefix="tsumolab-regress-") as temp:
        result = regress.run_regress(out_dir or Path(temp), seed, rule_overrides=overrides, jobs=jobs,
                                     resume=resume and out_dir is not None, progress=True,
                                     matches=matches)
        if update:
            regress.write_baseline(baseline_path, regress.baseline_document(result, seed, overrides))
            click.echo(f"baseline written: {baseline_path} ({len(regress.regress_metrics(result))} metrics, "
                       f"seed {seed})")
            return
        comparisons = regress.compare(stored["metrics"], regress.regress_metrics(result))
    failed = [c for c in comparisons if c.failed]
    shown = comparisons if verbose else failed
    if shown:
        click.echo(f"{'metric':<58} {'baseline':>12} {'now':>12} {'SEs':>7}")
        for c in sorted(shown, key=lambda c: -c.distance):
            click.echo(f"{c.key:<58} {c.stored:>12.4g} {c.new:>12.4g} {c.distance:>7.1f}"
                       + ("  DIFFERS" if c.failed else ""))
    click.echo(f"regress: {len(failed)} of {len(comparisons)} metrics differ by more than "
               f"{regress.THRESHOLD:g} combined standard errors (seed {seed} vs baseline seed {stored['seed']})")
    if failed:
        click.get_current_context().exit(1)
