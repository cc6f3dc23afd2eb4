"""`tsumolab run`: simulate many matches into Parquet tables (chunked, parallel, resumable)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from tsumolab import api
from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError, WriteError, os_error_text
from tsumolab.analyzer.runs.runner import DEFAULT_CHUNK_SIZE, RunInterrupted, RunSpec, RunSummary
from tsumolab.sims.modes import MODES


@cli.command("run")
@click.option("--variant", default="bloodshed", show_default=True, metavar="MODE",
              help=f"Mode to simulate: {', '.join(sorted(MODES))}.")
@click.option("--seats", default="baseline", show_default=True, metavar="SPEC",
              help="Policies of seats 0..3, comma-separated (e.g. 'baseline,random,baseline,majsoul-cpu'), "
                   "or one policy for all four seats. Parameters go in brackets: 'baseline(x=1)'.")
@click.option("--matches", "-n", type=int, required=True, help="Number of matches to simulate (at least 1).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Root seed. Match i depends only on (seed, i), so the same seed gives the same tables.")
@click.option("--jobs", "-j", type=int, default=1, show_default=True,
              help="Worker processes; -1 uses every core. 1 runs in this process. Does not change the results.")
@click.option("--out", "-o", "out_dir", type=click.Path(file_okay=False, path_type=Path), default="out",
              show_default=True, help="Run directory: receives hands/, matches/ and run.json.")
@click.option("--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE, show_default=True,
              help="Matches per chunk (one Parquet file per chunk and table; the unit of resuming).")
@click.option("--resume", is_flag=True,
              help="Continue an interrupted run in --out: complete chunks are kept, the rest simulated. "
                   "The options must be the same as the first time.")
@click.option("--overwrite", is_flag=True,
              help="Delete the run already in --out (its chunk files and run.json) and start again. "
                   "Without --resume or --overwrite, a previous run in --out is an error.")
@click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE",
              help="Set a rule option of the mode (repeatable), e.g. --rule stack_known_bugs=true.")
@click.option("--cards", default=None, metavar="CARDS",
              help="fantasy (FL) only: the match's cards, comma-separated, one per deck (e.g. "
                   "'fuuki,showdown,hourglass' or '风纪,胜负手,厄运沙漏'); decks not named are drawn per match. "
                   "Shorthand for --rule cards=CARDS.")
@click.option("--policy-path", "policy_paths", multiple=True,
              type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="Python file defining extra policies for --seats (repeatable).")
@click.option("--record-events", type=int, default=0, metavar="N",
              help="Also keep the event logs of the first N matches in OUT/events.parquet (see tsumolab replay).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary.")
def run_command(variant: str, seats: str, matches: int, seed: int, jobs: int, out_dir: Path,
                chunk_size: int, resume: bool, overwrite: bool, rules: tuple[str, ...], cards: str | None,
                policy_paths: tuple[str, ...], record_events: int, quiet: bool) -> None:
    """Simulate --matches matches and write the `hands` and `matches` tables as Parquet.

    The run directory gets hands/chunk-000000.parquet, matches/chunk-000000.parquet, … (one pair per
    chunk) and run.json (options, code version, timings). The tables are identical for any --jobs,
    --chunk-size or number of resumes. A progress bar with matches/s and ETA shows on a terminal.
    Ctrl-C keeps the finished chunks; the same command with --resume continues.

    \b
    Example:
      tsumolab run --variant bloodshed --seats baseline --matches 100000 --seed 1 --jobs -1 --out out/b1
    """
    spec = api.run_spec(variant, seats, matches, seed, rules, cards=cards, chunk_size=chunk_size,
                        policy_paths=policy_paths)
    if not 0 <= record_events <= matches:
        raise InputError(f"--record-events must be in 0..{matches}, got {record_events}")
    try:
        summary = api.simulate(spec, out_dir, jobs=jobs, resume=resume, progress=not quiet,
                               overwrite=overwrite, policy_paths=policy_paths)
    except RunInterrupted as exc:
        click.echo(f"tsumolab: {exc}", err=True)
        click.get_current_context().exit(130)
    if record_events:
        try:
            write_event_log(spec, out_dir, record_events)
        except OSError as exc:
            raise WriteError(f"cannot write {out_dir / 'events.parquet'}: {os_error_text(exc)}") from None
    if not quiet:
        click.echo(summary_text(summary))


def write_event_log(spec: RunSpec, out_dir: Path, n_matches: int) -> Path:
    """Re-simulate the first `n_matches` matches of the run with their event logs into OUT/events.parquet."""
    import numpy as np
    import polars as pl

    from tsumolab.analyzer.tables import write_parquet_atomic
    from tsumolab.analyzer.version import code_version

    event_fields = spec.mode.family.event_fields
    _, _, events = spec.mode.simulate_events(spec.seed, np.arange(n_matches), spec.seats, spec.rules)
    names = ["match_id", "hand", "kind", "seat", "tile", "a", "b", "c"]
    frame = pl.DataFrame(events, schema=names, orient="row").with_columns(
        pl.col("match_id").cast(pl.Int64),
        pl.col("kind").replace_strict({k: v[0] for k, v in event_fields.items()}, return_dtype=pl.Utf8).alias("event"),
        pl.int_range(pl.len()).over(["match_id", "hand"]).alias("seq"),
    ).select("match_id", "hand", "seq", "event", "seat", "tile", "a", "b", "c")
    path = Path(out_dir) / "events.parquet"
    write_parquet_atomic(frame, path, {"tsumolab.run_spec": json.dumps(spec.to_dict()),
                                       "tsumolab.code_version": code_version(),
                                       "tsumolab.event_fields": json.dumps({v[0]: v[1] for v in event_fields.values()},
                                                                           ensure_ascii=False)})
    return path


def summary_text(summary: RunSummary) -> str:
    """Short end-of-run report: what was simulated, how fast, where the tables are."""
    out = summary.out_dir
    lines = []
    if summary.simulated_matches:
        lines.append(
            f"simulated {summary.simulated_matches:,} matches ({summary.simulated_hands:,} hands) "
            f"in {summary.seconds:.2f} s: {summary.matches_per_s:,.0f} matches/s, "
            f"{summary.hands_per_s:,.0f} hands/s, jobs={summary.jobs}"
        )
    if summary.resumed_chunks:
        lines.append(
            f"resumed: {summary.resumed_chunks} of {summary.chunks} chunks were already complete; "
            f"the run holds {summary.matches:,} matches ({summary.hands:,} hands)"
        )
    lines.append(f"tables: {out / 'hands'}/ and {out / 'matches'}/ (Parquet, one file per chunk); "
                 f"run record: {out / 'run.json'}")
    return "\n".join(lines)
