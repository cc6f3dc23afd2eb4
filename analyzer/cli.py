"""`tsumolab` command line: one click group, one module per subcommand.

Every failure caused by the user's input prints one line `tsumolab: error: …` and exits with code 2.
"""

from __future__ import annotations

import sys

import click

from analyzer.version import code_version
from sims.tiles import TileError


class InputError(click.ClickException):
    """Bad input from the user: printed as one line, exit code 2."""

    exit_code = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=code_version(), prog_name="tsumolab")
def cli() -> None:
    """tsumolab: simulate Mahjong Soul special modes and test strategy claims with numbers."""


def _register_commands() -> None:
    # Each subcommand lives in its own module and adds itself to `cli` on import.
    import importlib

    for name in ("hand_cmd", "settle_cmd", "run_cmd", "bench_cmd", "demo_cmd", "policies_cmd", "replay_cmd", "claims_cmd", "regress_cmd", "report_cmd",
                 "variants_cmd", "rules_cmd"):
        try:
            importlib.import_module(f"analyzer.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"analyzer.{name}":
                raise


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the group, turning input errors into one line and exit code 2."""
    _register_commands()
    try:
        code = cli.main(args=argv, prog_name="tsumolab", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("tsumolab: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"tsumolab: error: {' '.join(exc.format_message().split())}", err=True)
        sys.exit(2 if isinstance(exc, click.UsageError) else exc.exit_code)
    except (TileError, FileNotFoundError, IsADirectoryError) as exc:
        click.echo(f"tsumolab: error: {exc}", err=True)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)

