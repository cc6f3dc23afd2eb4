"""`tsumolab claims` and `tsumolab experiment run`: test strategy claims with the duplicate design."""

from __future__ import annotations

from pathlib import Path

import click

from tsumolab import api
from tsumolab.analyzer.claims.study import DEFAULT_CHUNK_SIZE, ClaimsResult, format_summary
from tsumolab.cli import cli
from tsumolab.analyzer.claims.experiment import load_experiment
from tsumolab.analyzer.claims.experiment_run import BACKENDS
from tsumolab.commands.report import lang_option
from tsumolab.analyzer.runs.runner import RunInterrupted


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
            lang_option,
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
    _run(lambda **run: api.claims(only, mode_name, extra=extra, **run), **options)


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
    if options["out_dir"] is None:
        options["out_dir"] = Path("out") / load_experiment(file).id
    _run(lambda **run: api.experiment(file, **run), **options)


def _run(study, *, matches, seed, jobs, out_dir, chunk_size, resume, overwrite, rules, backend, scheduler,
         no_report, quiet, langs) -> None:
    """Run `study` (api.claims or api.experiment with the command's options), print its verdicts, and render
    its report (reports read the tables and runs the study wrote)."""
    try:
        result: ClaimsResult = study(matches=matches, seed=seed, jobs=jobs, rules=rules, out=out_dir,
                                     chunk_size=chunk_size, resume=resume, overwrite=overwrite, backend=backend,
                                     scheduler=scheduler, progress=not quiet)
    except RunInterrupted as exc:
        click.echo(f"tsumolab: {exc}", err=True)
        click.get_current_context().exit(130)
    if not quiet:
        click.echo(format_summary(result))
    if not no_report:
        for where in api.reports(result.out_dir, langs):
            if not quiet:
                click.echo(f"report: {where}")
