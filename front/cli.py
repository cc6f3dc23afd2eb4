"""`tsumolab` command line: one click group, one module per subcommand.

Every failure caused by the user's input (a damaged run directory included) prints one line `tsumolab: error: …`
and exits with code 2; a failed write (disk full) prints one line too and exits with code 1.
"""

from __future__ import annotations

import sys

import click

from tsumolab.analyzer.errors import InputError, WriteError
from tsumolab.analyzer.version import code_version
from tsumolab.sims.tiles import TileError


class _InputFailure(click.ClickException):
    """An InputError raised inside a subcommand, shown by click as one line with exit code 2."""

    exit_code = 2


class _WriteFailure(click.ClickException):
    """A WriteError raised inside a subcommand: one line, exit code 1."""

    exit_code = 1


class _Group(click.Group):
    """The click group turning the library's InputError and WriteError into click's own failures (also under
    CliRunner)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except InputError as exc:
            raise _InputFailure(str(exc)) from exc
        except WriteError as exc:
            raise _WriteFailure(str(exc)) from exc


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=code_version(), prog_name="tsumolab")
def cli() -> None:
    """tsumolab: simulate Mahjong Soul special modes and test strategy claims with numbers."""


def _register_commands() -> None:
    # Each subcommand lives in its own module and adds itself to `cli` on import.
    import importlib

    for name in ("hand", "settle", "run", "bench", "demo", "policies", "replay", "claims", "decisions", "regress",
                 "report", "variants", "rules", "advise", "verify", "realism"):
        importlib.import_module(f"tsumolab.commands.{name}")


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
    except (InputError, TileError, FileNotFoundError, IsADirectoryError) as exc:
        click.echo(f"tsumolab: error: {exc}", err=True)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)

