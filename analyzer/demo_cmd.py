"""`tsumolab demo`: the main job on built-in defaults — a small Bloodshed study and its report."""

from __future__ import annotations

import json
from pathlib import Path

import click

from analyzer.cli import cli

EXAMPLE_HANDS = (
    {"variant": "bloodshed", "hand": "11223344556677s", "void": "m", "tsumo": True},
    {"variant": "bloodshed", "hand": "1112345678999p", "void": "s"},
    {"variant": "riichi", "hand": "123m456p789s1122z"},
)


@cli.command("demo")
@click.option("--matches", type=int, default=2000, show_default=True, help="Matches per seat arrangement.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default="demo-out",
              show_default=True, help="Directory for the run tables and the report.")
@click.option("--jobs", type=int, default=-1, show_default=True, help="Worker processes (-1 = all cores).")
def demo(matches, out_dir, jobs):
    """Analyze example hands, then run baseline against the game's CPU in Bloodshed (baseline in each
    seat in turn) and write an EV report to OUT/report.md."""
    from analyzer.ev import ev_table, format_table
    from analyzer.runner import RunSpec, combined_tables, execute
    from sims.analysis import analyze
    from sims.bloodshed.rules import START_POINTS, BloodshedRules

    click.echo("Example hands (tsumolab hand):")
    for request in EXAMPLE_HANDS:
        click.echo(f"  {json.dumps(request, ensure_ascii=False)}\n    → {json.dumps(analyze(request), ensure_ascii=False)}")

    hands, tables = [], []
    for seat in range(4):
        seats = ["majsoul-cpu"] * 4
        seats[seat] = "baseline"
        spec = RunSpec(variant="bloodshed", seats=tuple(seats), matches=matches, seed=2026,
                       rules=BloodshedRules().as_dict())
        run_dir = out_dir / f"baseline-seat{seat}"
        execute(spec, run_dir, jobs=jobs, overwrite=True, progress=True)
        h, m = combined_tables(run_dir)
        hands.append(h)
        tables.append(m)
    import polars as pl

    ev = ev_table(pl.concat(hands), pl.concat(tables), START_POINTS)
    text = format_table(ev)
    report = out_dir / "report.md"
    report.write_text(
        "# tsumolab demo: baseline vs the game's CPU in Bloodshed Skirmish\n\n"
        f"{matches} matches with baseline in each seat in turn (same walls for every seat arrangement).\n\n"
        f"```\n{text}\n```\n", encoding="utf-8")
    click.echo("\nBloodshed EV by policy (points = final points − 50000 per match):")
    click.echo(text)
    click.echo(f"\nReport written to {report.resolve()}")
