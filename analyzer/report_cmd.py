"""`tsumolab report DIR`: render DIR/report.html and DIR/report.pdf from a claims study, experiment or run."""

from __future__ import annotations

from pathlib import Path

import click

from analyzer import api
from analyzer.cli import cli


@cli.command("report")
@click.argument("directory", type=click.Path(path_type=Path))
def report_command(directory: Path) -> None:
    """Render the report of DIRECTORY: a `tsumolab claims` / `experiment run` output (claims.parquet, …,
    runs/) or a `tsumolab run` directory. Writes DIRECTORY/report.html (one self-contained file, readable
    offline and on a phone) and DIRECTORY/report.pdf (summary pages, then one page per claim).

    \b
    Example:
      tsumolab claims --only B1,B4 --matches 2000 --out out/b14 --no-report
      tsumolab report out/b14
    """
    html_path, pdf_path = api.report(directory)
    click.echo(f"report: {html_path}")
    click.echo(f"report: {pdf_path}")
