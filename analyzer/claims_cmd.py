"""`tsumolab claims` and `tsumolab experiment run`: test strategy claims with the duplicate design."""

from __future__ import annotations

from pathlib import Path

import click

from analyzer.claims import (
    DEFAULT_CHUNK_SIZE,
    format_summary,
    render_report_if_available,
    run_experiments,
    with_overrides,
)
from analyzer.cli import cli
from analyzer.errors import InputError
from analyzer.experiment import extra_experiment_ids, load_experiment, mode_experiments, select
from analyzer.experiment_run import BACKENDS
from analyzer.run_cmd import parse_rule_options
from analyzer.runner import RunInterrupted
from sims.modes import get_mode


def experiment_options(default_out: str | None):
    """Options shared by `claims` and `experiment run`."""
    def decorate(command):
        for option in reversed([
            click.option("--matches", "-n", type=int, default=None,
                         help="Matches per claim, counting both arms, the 4 seat rotations and every field "
                              "(wall seeds per field = matches / (8 × fields), rounded up). Default: each file's."),
            click.option("--seed", type=int, default=None, help="Root seed for every claim. Default: each file's."),
            click.option("--jobs", "-j", type=int, default=1, show_default=True,
                         help="Worker processes (-1 = every core). Does not change the results."),
            click.option("--out", "-o", "out_dir", type=click.Path(file_okay=False, path_type=Path),
                         default=default_out, show_default=default_out is not None,
                         help="Experiment directory: claims.parquet, arms.parquet, ev.parquet and runs/."),
            click.option("--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE, show_default=True,
                         help="Wall seeds per chunk (the unit of parallel work and of resuming)."),
            click.option("--resume", is_flag=True, help="Keep the finished chunks in --out and simulate the rest."),
            click.option("--overwrite", is_flag=True, help="Replace the runs already in --out."),
            click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE",
                         help="Override a rule option in every experiment (repeatable)."),
            click.option("--backend", type=click.Choice(BACKENDS), default="loky", show_default=True,
                         help="loky: local processes; dask: a Dask cluster (needs --scheduler and a file system "
                              "the workers share with this machine)."),
            click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                         help="Dask scheduler address, with --backend dask."),
            click.option("--no-report", is_flag=True, help="Do not render the report after writing the tables."),
            click.option("--quiet", "-q", is_flag=True, help="No progress bar and no table."),
        ]):
            command = option(command)
        return command
    return decorate


@cli.command("claims")
@click.option("--only", default=None, metavar="IDS", help="Comma-separated claim ids to run, e.g. B1,B4.")
@click.option("--mode", "mode_name", default=None,
              help="Run only the claims of this mode (bloodshed, shura, …). Default: every mode's claims.")
@click.option("--extra", is_flag=True,
              help="Also run the \"beyond the sources\" experiments (analyzer/experiments/extra/: tsumolab's own "
                   "questions, one per special mode), reported apart from the sources' claims.")
@experiment_options(default_out="out/claims")
def claims_command(only: str | None, mode_name: str | None, extra: bool, **options) -> None:
    """Run every experiment file (analyzer/experiments/) of every mode, or of --mode, and print the verdict
    per claim. With --extra, also the "beyond the sources" files (analyzer/experiments/extra/), which form
    their own Holm family and their own report section.

    Each claim: treatment vs control on the same walls and seats, the treatment rotated through all four
    seats, against each field; a `measure` (S1) measures a fact on one field. Verdicts use Holm-adjusted 95%
    intervals across all rows run together. --rule options belong to one mode, so they need --mode.

    \b
    Example:
      tsumolab claims --matches 20000 --jobs -1 --only B1,B4
      tsumolab claims --mode shura --matches 2000
      tsumolab claims --extra --mode fate
    """
    rules = options.pop("rules")
    if rules and mode_name is None:
        raise InputError("--rule sets an option of one mode's rules; add --mode (e.g. --mode bloodshed)")
    overrides = _rule_overrides(mode_name, rules) if mode_name is not None else {}
    if mode_name is not None:
        try:
            get_mode(mode_name)
        except ValueError as exc:
            raise InputError(str(exc)) from None
    extras = [] if extra else extra_experiment_ids(mode_name)
    if only and not extra:
        wanted = {s.strip() for s in only.split(",")}
        if wanted & set(extras):
            named = sorted(wanted & set(extras))
            raise InputError(f"--only: {', '.join(named)} {'is' if len(named) == 1 else 'are'} beyond the "
                             "sources (analyzer/experiments/extra/); add --extra")
    experiments = select(mode_experiments(mode_name, rule_overrides=overrides, extra=extra), only)
    if not experiments:
        hint = f" (its beyond-the-sources claims {', '.join(extras)} run with --extra)" if extras else ""
        raise InputError(f"no experiment files for mode {mode_name!r}{hint}")
    _run(experiments, **options)


@cli.group("experiment")
def experiment_group() -> None:
    """Run one experiment file."""


@experiment_group.command("run")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@experiment_options(default_out=None)
def experiment_run_command(file: Path, **options) -> None:
    """Run the experiment FILE (TOML, see README "Experiments and claims") and print its verdicts.

    --out defaults to out/<experiment id>.
    """
    import tomllib

    try:
        mode_name = tomllib.loads(file.read_text()).get("mode", "bloodshed")
    except (OSError, tomllib.TOMLDecodeError):
        mode_name = "bloodshed"  # load_experiment reports the problem
    overrides = _rule_overrides(str(mode_name), options.pop("rules"))
    experiment = load_experiment(file, overrides)
    if options["out_dir"] is None:
        options["out_dir"] = Path("out") / experiment.id
    _run([experiment], **options)


def _rule_overrides(mode_name: str, pairs: tuple[str, ...]) -> dict:
    if not pairs:
        return {}
    try:
        rules_cls = get_mode(mode_name).RULES
    except ValueError as exc:
        raise InputError(str(exc)) from None
    return parse_rule_options(rules_cls, pairs)


def _run(experiments, *, matches, seed, jobs, out_dir, chunk_size, resume, overwrite, backend, scheduler,
         no_report, quiet) -> None:
    experiments = with_overrides(experiments, matches, seed)
    try:
        result = run_experiments(experiments, out_dir, jobs=jobs, chunk_size=chunk_size, resume=resume,
                                 overwrite=overwrite, progress=not quiet, backend=backend, scheduler=scheduler)
    except RunInterrupted as exc:
        click.echo(f"tsumolab: {exc}", err=True)
        click.get_current_context().exit(130)
    if not quiet:
        click.echo(format_summary(result))
    if not no_report:
        where = render_report_if_available(result.out_dir)
        if where is not None and not quiet:
            click.echo(f"report: {where}")
