"""`tsumolab verify DIR`: check a run, experiment, claims or decisions directory against its record
(analyzer.verify, analyzer.decisions.verify)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.verify import verify_directory


@cli.command("verify")
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="One JSON object (directory, kind, status, problems, facts, "
              "repair) instead of text.")
def verify_command(directory: Path, as_json: bool) -> None:
    """Check DIRECTORY, written by `tsumolab run`, `claims`, `experiment run` or `decisions`, against its record: every
    file present with its recorded size and checksum (missing, truncated, zeroed, altered, duplicate and foreign
    files), row counts, every match id exactly once, schema and metadata (code version, rules, seeds). A
    decisions study (`tsumolab decisions`) in the directory is checked too: its record, chunks and table.

    Prints one line per problem and a summary with the command that repairs the directory (the same command
    with --resume simulates the damaged chunks again). Exit code 0: clean; 1: damaged; 2: not a run or study
    directory, or its record is unusable.

    \b
    Example:
      tsumolab verify out/b1 && tsumolab report out/b1
    """
    try:
        result = verify_directory(directory)
    except InputError as exc:
        if not as_json:
            raise
        click.echo(json.dumps({"directory": str(directory), "status": "unusable", "error": str(exc)}))
        click.get_current_context().exit(2)
    if as_json:
        click.echo(json.dumps({
            "directory": str(result.directory), "kind": result.kind,
            "status": "clean" if result.clean else "damaged",
            "problems": [{"path": p.path, "kind": p.kind, "detail": p.detail} for p in result.problems],
            "facts": result.facts, "repair": None if result.clean else result.repair,
        }, ensure_ascii=False))
    else:
        for problem in result.problems:
            click.echo(problem.line())
        click.echo(result.summary())
    if not result.clean:
        click.get_current_context().exit(1)
