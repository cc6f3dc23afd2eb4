"""`tsumolab realism`: how human-like a riichi field plays, beside reference figures for strong human play."""

from __future__ import annotations

import json
from pathlib import Path

import click

from tsumolab import api
from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.realism import MEASURES, MODE, REFERENCE, REFERENCE_SOURCE, realism_table, realism_text
from tsumolab.analyzer.runs.runner import combined_tables, read_run_record


@cli.command("realism")
@click.option("--seats", default="baseline", show_default=True, metavar="SPEC",
              help="One policy for all four seats, or four (as for `run --seats`); each policy gets its own column.")
@click.option("--matches", "-n", type=int, default=2000, show_default=True, help="Riichi matches to simulate.")
@click.option("--seed", type=int, default=0, show_default=True, help="Root seed of the simulated matches.")
@click.option("--jobs", "-j", type=int, default=1, show_default=True, help="Worker processes (-1 = every core).")
@click.option("--run", "run_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Read the tables of this riichi run directory (`tsumolab run --variant riichi --out …`) instead "
                   "of simulating.")
@click.option("--policy-path", "policy_paths", multiple=True, help="Python file (or module) defining policies.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def realism_command(seats, matches, seed, jobs, run_dir, policy_paths, as_json, quiet):
    """Win, deal-in, riichi and call rates, the exhaustive-draw share and the average win and deal-in points per
    player and hand of a `riichi` field, beside the figures of strong human play (Tenhou's top room, 2016).

    \b
    Examples:
      tsumolab realism --seats baseline --matches 4000
      tsumolab realism --seats expert,baseline,baseline,baseline --json
      tsumolab realism --run runs/riichi-example
    """
    if run_dir is not None:
        record = read_run_record(run_dir)
        if record is None:
            raise InputError(f"no run.json in {run_dir}")
        if record["spec"]["variant"] != MODE:
            raise InputError(f"--run {run_dir} is a {record['spec']['variant']} run; the realism figures are for "
                             f"{MODE}")
        hands, _ = combined_tables(run_dir)
    else:
        hands, _ = api.run(MODE, seats, matches=matches, seed=seed, jobs=jobs, policy_paths=policy_paths,
                           progress=not quiet and not as_json)
    table = realism_table(hands)
    if as_json:
        click.echo(json.dumps({"reference": REFERENCE, "reference_source": REFERENCE_SOURCE,
                               "measures": {key: meaning for key, _, meaning in MEASURES},
                               "policies": table.to_dicts()}, indent=1))
    else:
        click.echo(realism_text(table))
