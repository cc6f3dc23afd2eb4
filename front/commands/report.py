"""`tsumolab report DIR`: render DIR/report.html and DIR/report.pdf from a claims study, experiment or run."""

from __future__ import annotations

from pathlib import Path

import click

from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.i18n import parse_languages


LANG_HELP = ("Report language: en (English, default), zh (中文) or ja (日本語); a comma-separated list such as "
             "en,zh,ja writes each. English is DIR/report.html and .pdf, the others DIR/report.<lang>.html and .pdf.")


def _languages(_ctx, _param, value: str) -> tuple[str, ...]:
    try:
        return parse_languages(value)
    except InputError as exc:
        raise click.BadParameter(str(exc)) from None


def lang_option(command):
    """The --lang option of every command that renders a report."""
    return click.option("--lang", "langs", default="en", show_default=True, metavar="LANG[,LANG…]",
                        callback=_languages, help=LANG_HELP)(command)


@cli.command("report")
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--jobs", type=int, default=-1, show_default=True,
              help="Processes rendering the HTML and PDF files at once (-1 = all cores).")
@lang_option
def report_command(directory: Path, langs: tuple[str, ...], jobs: int) -> None:
    """Render the report of DIRECTORY: a `tsumolab claims` / `experiment run` output (claims.parquet, …,
    runs/) or a `tsumolab run` directory. Writes DIRECTORY/report.html (one self-contained file, readable
    offline and on a phone) and DIRECTORY/report.pdf (summary pages, then one page per claim); with --lang zh
    or ja, report.zh.html / report.ja.html and their PDFs, every word in that language.

    \b
    Example:
      tsumolab claims --only B1,B4 --matches 2000 --out out/b14 --no-report
      tsumolab report out/b14
      tsumolab report out/b14 --lang zh,ja
    """
    from tsumolab.reports.pool import start_workers, stop_workers

    if (jobs == -1 or jobs > 1) and directory.is_dir():  # other values are refused (or need no worker) below
        # the workers import the renderers while this process imports them and reads the data
        start_workers(jobs, len(langs) * 3)
    from tsumolab import api

    # the console process ends with the report, and its workers are stopped then: no garbage worth collecting
    ends_after = bool((click.get_current_context().obj or {}).get("console"))
    written = api.reports(directory, langs, jobs, keep_garbage=ends_after)
    stop_workers()  # after a failure they are left to the pool (and a next report in this process reuses them)
    for html_path, pdf_path in written:
        click.echo(f"report: {html_path}")
        click.echo(f"report: {pdf_path}")
