"""`tsumolab decisions`: test the decision claims decision by decision (paired rollouts at sampled situations)."""

from __future__ import annotations

from pathlib import Path

import click

from tsumolab.cli import cli
from tsumolab.analyzer.decisions.claims import CLAIMS
from tsumolab.analyzer.decisions.situations import RESAMPLE
from tsumolab.analyzer.decisions.study import (
    DEFAULT_CHUNK_SIZE, DEFAULT_FIELDS, DEFAULT_ROLLOUTS, DEFAULT_SEED, DEFAULT_SITUATIONS, make_spec, run_decisions,
)
from tsumolab.analyzer.claims.experiment_run import BACKENDS
from tsumolab.commands.report import lang_option


def claims_text() -> str:
    """The decision claims in words for the help: those from the sources, then the questions beyond them."""
    from tsumolab.analyzer.decisions.study import default_claims

    sources = default_claims()
    extra = [c for c in CLAIMS if c not in sources]
    return f"{', '.join(sources)}; with --extra also {', '.join(extra)}"


DOC = """Test each decision claim ({claims}) decision by decision.

    Situations where the claim applies (its treatment and control policies would answer differently, plus the
    claim's own condition) are sampled from simulated play of each field; at each, the claim's action and the
    alternative are played out to the end of the match on the same samples of what is not known yet (paired
    rollouts). The claims beyond the sources (the special modes' own questions, analyzer/experiments/extra/)
    run the same way, each under its experiment file's rules.
    Writes OUT/decisions.parquet (one row per situation) and prints, per claim, the share of situations where
    the claim's action is better, the mean difference in final points and rank, and the conditions under which
    it is better. The report (OUT/decisions.html, .pdf; and the claims report when OUT holds a claims study)
    shows the breakdown by the claim's features.

    \b
    Examples:
      tsumolab decisions --jobs 2
      tsumolab decisions --only B1,B3 --situations 100 --rollouts 100 --field baseline --out out/b1
      tsumolab decisions --only C1,F1 --situations 20 --rollouts 40 --field baseline --out out/c1
    """


@cli.command("decisions", help=DOC.format(claims=claims_text()))
@click.option("--only", default=None, metavar="IDS",
              help="Comma-separated decision claims to run, any of the claims above (default: those from the "
                   "sources).")
@click.option("--extra", is_flag=True,
              help="Without --only: also the claims beyond the sources (the special modes' own questions).")
@click.option("--field", "fields", multiple=True, metavar="SEATS",
              help="A field the situations are sampled from and the rollouts are played by: one policy for all "
                   "four seats or four comma-separated (repeatable; default: "
                   f"{', '.join(DEFAULT_FIELDS)}).")
@click.option("--situations", "-n", type=int, default=None,
              help=f"Situations per claim and field (default {DEFAULT_SITUATIONS}: every claim in about 12 minutes on "
                   "2 idle cores).")
@click.option("--rollouts", type=int, default=None,
              help=f"Rollouts per option and situation, played to the end of the match (default {DEFAULT_ROLLOUTS}).")
@click.option("--resample", type=click.Choice(RESAMPLE), default="unseen", show_default=True,
              help="What each rollout resamples: unseen = only what no seat knows yet (the wall's order, the "
                   "policies' streams, later hands), keeping the other hands as play built them; hidden = "
                   "everything the deciding seat cannot see, the other hands dealt uniformly at random; progress "
                   "= the same, each Bloodshed hand dealt to a progress (void tiles held, shanten) drawn from the "
                   "baseline field's play, as `tsumolab advise` and `search` do (riichi modes: as hidden).")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True,
              help="Root seed of the sampled matches and of the rollouts.")
@click.option("--jobs", "-j", type=int, default=1, show_default=True,
              help="Worker processes (-1 = every core). Does not change the results.")
@click.option("--out", "-o", "out_dir", type=click.Path(file_okay=False, path_type=Path), default="out/claims",
              show_default=True, help="Directory of decisions.parquet (a claims study's directory adds the "
                                      "decision-level sections to its report).")
@click.option("--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE, show_default=True,
              help="Situations per chunk (the unit of parallel work and of resuming).")
@click.option("--resume", is_flag=True, help="Keep the finished chunks in --out and evaluate the rest.")
@click.option("--overwrite", is_flag=True, help="Replace the decisions study already in --out.")
@click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE",
              help="Override a rule option (repeatable; needs --only with claims of one mode).")
@click.option("--backend", type=click.Choice(BACKENDS), default="loky", show_default=True,
              help="loky: local processes; dask: a Dask cluster (needs --scheduler and a file system the workers "
                   "share with this machine).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Dask scheduler address, with --backend dask.")
@click.option("--no-report", is_flag=True, help="Do not render the report after writing the table.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary.")
@lang_option
def decisions_command(only, extra, fields, situations, rollouts, resample, seed, jobs, out_dir, chunk_size, resume,
                      overwrite, rules, backend, scheduler, no_report, quiet, langs) -> None:
    from tsumolab.analyzer.decisions.stats import format_summary

    from tsumolab.analyzer.runs.runner import RunInterrupted

    spec = make_spec(only, fields, seed, situations, rollouts, rules, resample, extra)
    try:
        result = run_decisions(spec, out_dir, jobs=jobs, chunk_size=chunk_size, resume=resume, overwrite=overwrite,
                               backend=backend, scheduler=scheduler, progress=not quiet)
    except RunInterrupted as exc:
        click.echo(f"tsumolab: {exc}", err=True)
        click.get_current_context().exit(130)
    if not quiet:
        click.echo(format_summary(result.table))
        click.echo(f"decisions: {result.table.height} situations in {result.seconds:.0f} s "
                   f"({result.resumed_chunks} chunks kept, {result.evaluated_chunks} evaluated): "
                   f"{Path(out_dir) / 'decisions.parquet'}")
    if not no_report:
        from tsumolab import api

        for where in api.decision_reports(out_dir, langs):
            if not quiet:
                click.echo(f"report: {where}")
