"""`tsumolab regress`: rerun each mode on fresh walls and compare it statistically with its stored baseline."""

from __future__ import annotations

import re
import time
from pathlib import Path

import click

from tsumolab.analyzer.regress import check as regress
from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.package_files import regress_baseline_path
from tsumolab.analyzer.runs.options import parse_rule_options
from tsumolab.sims.modes import MODES, get_mode


def default_baseline(mode: str, policy: str | None) -> Path:
    """The package's baseline of a mode; with --policy, regress-baselines/<mode>.<policy>.json here."""
    if not policy:
        return regress_baseline_path(mode)
    slug = re.sub(r"[^A-Za-z0-9_.=-]+", "_", policy).strip("_")
    return Path("regress-baselines") / f"{mode}.{slug}.json"


def mode_rules(modes: list[str], rules: tuple[str, ...], explicit: bool) -> dict[str, dict]:
    """{mode: typed rule options} for the modes to check. With --mode all, a rule applies to the modes that
    have the option and the others are skipped; an option no chosen mode has is an InputError."""
    keys = [pair.partition("=")[0].strip() for pair in rules]
    chosen = {}
    for mode in modes:
        known = regress.rule_keys(mode)
        unknown = [k for k in keys if k not in known]
        if unknown and explicit:
            raise InputError(f"--rule {unknown[0]} is not an option of {mode} "
                             f"(see tsumolab variants {mode} --full)")
        if unknown:
            continue
        overrides = parse_rule_options(get_mode(mode).rules_class, rules)
        try:
            get_mode(mode).rules_class.from_dict(overrides)
        except (ValueError, TypeError) as exc:
            raise InputError(f"--rule for {mode}: {exc}") from None
        chosen[mode] = overrides
    if not chosen:
        raise InputError(f"--rule {', '.join(keys)}: no mode has this option (see tsumolab variants --full)")
    return chosen


@cli.command("regress")
@click.option("--mode", "-m", "mode", default="all", show_default=True, metavar="MODE|all",
              help=f"Mode to check: {', '.join(MODES)}, or all.")
@click.option("--baseline", "baseline_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Stored baseline (JSON) of one --mode to compare with, or to write with --update. Default: the "
                   "package's analyzer/experiments/regress-MODE.json; with --policy, "
                   "regress-baselines/MODE.POLICY.json in the current directory.")
@click.option("--update", is_flag=True, help="Rewrite the baseline(s) from this run instead of comparing.")
@click.option("--reason", default=None, metavar="TEXT",
              help="Why the baseline changes (required with --update; recorded in the baseline file's history).")
@click.option("--seed", type=int, default=None,
              help="Root seed of the rerun. Default: the baseline's seed + 1 (fresh walls).")
@click.option("--matches", type=int, default=None,
              help="Matches per mode (default: the mode's regress size, README Regression; fewer: a quicker, "
                   "less sensitive check).")
@click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE",
              help="Override a rule option of the mode (any mode's, see tsumolab variants --full). With --mode "
                   "all, only the modes that have the option are checked.")
@click.option("--policy", default=None, metavar="SPEC",
              help="Check this policy at seat 0 against three baseline seats, against its own stored numbers "
                   "(create them once with --update).")
@click.option("--policy-path", "policy_paths", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="Python file defining a policy (as tsumolab run --policy-path).")
@click.option("--threshold", type=float, default=regress.THRESHOLD, show_default=True,
              help="Combined standard errors beyond which a metric differs.")
@click.option("--jobs", "-j", type=int, default=1, show_default=True, help="Worker processes (-1 = every core).")
@click.option("--out", "-o", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep the rerun's run directories here (default: a temporary directory).")
@click.option("--verbose", "-v", is_flag=True, help="List every metric, not only those that differ.")
@click.option("--sensitivity", is_flag=True,
              help="Instead of one check: measure how often regress flags each rule option change (observed k of "
                   "--repeats seeds, and P(detect) from the most-moved metric's mean shift, also scaled to the "
                   "check's size) and how often it fails at the defaults (README: Measured power).")
@click.option("--repeats", type=int, default=20, show_default=True, help="--sensitivity: seeds per change.")
@click.option("--null-repeats", type=int, default=200, show_default=True,
              help="--sensitivity: reruns at the defaults for the false-alarm rate.")
@click.option("--null-matches", type=int, default=None,
              help="--sensitivity: matches per check of the false-alarm pairs (default: --matches).")
@click.option("--option", "only_options", multiple=True, metavar="NAME",
              help="--sensitivity: only these rule options (default: every option of the mode).")
@click.option("--table", "table_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="--sensitivity: write the Markdown table here too.")
def regress_command(mode: str, baseline_path: Path | None, update: bool, reason: str | None, seed: int | None,
                    matches: int | None, rules: tuple[str, ...], policy: str | None, policy_paths: tuple[str, ...],
                    threshold: float, jobs: int, out_dir: Path | None, verbose: bool, sensitivity: bool,
                    repeats: int, null_repeats: int, null_matches: int | None,
                    only_options: tuple[str, ...], table_path: Path | None) -> None:
    """Rerun each mode on fresh walls and exit 1 when a metric moved beyond --threshold standard errors.

    A mode's check simulates four baseline seats (or --policy at seat 0) and compares about 130 economy
    metrics (points per ron and per tsumo, per (han, fu) cell and per order of winning, deal-in cost, spread
    of hand deltas, busts, draw settlements, noten payments, kans, riichi sticks, the special modes' own
    columns, placement) with the mode's committed baseline; bloodshed adds claims B1, B4, B5. Standard
    errors are per match (each match is its own walls). Exit 0: no metric moved; 1: some moved (listed, with
    the command that updates the baseline deliberately); 2: bad input.

    \b
    Examples:
      tsumolab regress --jobs 2                         # every mode
      tsumolab regress --mode bloodshed --rule tsumo_bonus=fan
      tsumolab regress --mode riichi --policy my-bot --policy-path bot.py --update --reason "bot v1"
      tsumolab regress --mode riichi --policy my-bot --policy-path bot.py
      tsumolab regress --sensitivity --mode riichi --repeats 10 --null-repeats 200 --matches 1000
    """
    if sensitivity:
        from tsumolab.analyzer.regress.sensitivity import sensitivity_command

        sensitivity_command(mode, matches, repeats, null_repeats, threshold, jobs, table_path, null_matches,
                            only_options)
        return
    explicit = mode != "all"
    modes = regress.modes_for(mode)
    if baseline_path is not None and len(modes) != 1:
        raise InputError("--baseline names one mode's file: add --mode MODE")
    if update and not (reason and reason.strip()):
        raise InputError("--update needs --reason TEXT (why the baseline changes; it is recorded in the file)")
    chosen = mode_rules(modes, rules, explicit) if rules else {m: {} for m in modes}
    if rules and not explicit and len(chosen) < len(modes):
        click.echo(f"regress: --rule applies to {', '.join(chosen)}; the other modes are not checked")
    failed_modes = []
    total_failed = total = 0
    start = time.monotonic()
    for name, overrides in chosen.items():
        path = baseline_path or default_baseline(name, policy)
        stored = None if update and not path.exists() else regress.read_baseline(path)
        if stored is not None and stored["mode"] != name:
            raise InputError(f"{path} is the baseline of {stored['mode']}, not of {name}")
        run_seed = seed if seed is not None else (stored["seed"] + 1 if stored else regress.DEFAULT_SEED)
        n = matches if matches is not None else (stored["matches"] if stored else regress.mode_matches(name))
        began = time.monotonic()
        metrics = regress.run_mode(name, run_seed, matches=n, rules=overrides, policy=policy,
                                   policy_paths=policy_paths, jobs=jobs, out_dir=out_dir)
        seconds = time.monotonic() - began
        if update:
            regress.write_baseline(path, regress.baseline_document(name, metrics, run_seed, n, overrides, policy,
                                                                   reason.strip(), stored))
            click.echo(f"{name}: baseline written: {path} ({len(metrics)} metrics, {n} matches, seed {run_seed}, "
                       f"{seconds:.0f} s)")
            continue
        comparisons = regress.compare(stored["metrics"], metrics, threshold)
        failed = [c for c in comparisons if c.failed]
        total += len(comparisons)
        total_failed += len(failed)
        shown = comparisons if verbose else failed
        if shown:
            click.echo(f"{name}: {'metric':<52} {'baseline':>12} {'now':>12} {'SEs':>7}")
            for c in sorted(shown, key=lambda c: -c.distance):
                click.echo(f"{name}: {c.key:<52} {c.stored:>12.4g} {c.new:>12.4g} {c.distance:>7.1f}"
                           + ("  DIFFERS" if c.failed else ""))
        click.echo(f"{name}: {len(failed)} of {len(comparisons)} metrics differ by more than {threshold:g} combined "
                   f"standard errors ({n} matches, seed {run_seed} vs baseline seed {stored['seed']}, "
                   f"{seconds:.0f} s)")
        if failed:
            failed_modes.append((name, path))
    if update:
        return
    click.echo(f"regress: {total_failed} of {total} metrics differ in {len(failed_modes)} of {len(chosen)} "
               f"mode(s) ({time.monotonic() - start:.0f} s)")
    if failed_modes:
        for name, path in failed_modes:
            extra = "".join(f" --rule {r}" for r in rules) if rules else ""
            pol = f" --policy '{policy}'" if policy else ""
            click.echo(f"regress: if the change in {name} is intended, store it deliberately: tsumolab regress "
                       f"--mode {name}{pol}{extra} --update --reason 'WHY' (writes {path})")
        click.get_current_context().exit(1)
