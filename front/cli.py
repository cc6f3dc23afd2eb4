"""`tsumolab` command line: one click group, one module per subcommand.

Every failure caused by the user's input (a damaged run directory included) prints one line `tsumolab: error: …`
and exits with code 2; a failed write (disk full) prints one line too and exits with code 1.
"""

from __future__ import annotations

import gc
import importlib
import sys

import click

from tsumolab.analyzer.errors import InputError, WriteError
from tsumolab.analyzer.version import code_version


COMMANDS = {name: name for name in ("hand", "settle", "run", "bench", "demo", "policies", "replay", "claims",
                                    "decisions", "regress", "report", "variants", "rules", "advise", "review",
                                    "verify", "realism", "prior")} | {"experiment": "claims"}
"""Subcommand → the module tsumolab.commands.<module> that adds it to `cli` on import."""


class _InputFailure(click.ClickException):
    """An InputError raised inside a subcommand, shown by click as one line with exit code 2."""

    exit_code = 2


class _WriteFailure(click.ClickException):
    """A WriteError raised inside a subcommand: one line, exit code 1."""

    exit_code = 1


class _Group(click.Group):
    """The click group turning the library's InputError and WriteError into click's own failures (also under
    CliRunner)."""

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx, name):
        # A subcommand's module is imported only when that subcommand runs (or --help lists them all), so that
        # `tsumolab hand` does not load the simulator's analysis layers.
        if name not in self.commands and name in COMMANDS:
            importlib.import_module(f"tsumolab.commands.{COMMANDS[name]}")
        return super().get_command(ctx, name)

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


class _NotRaised(Exception):
    """Raised by nothing: _tile_error's answer before the simulator is loaded."""


def _tile_error() -> type[Exception]:
    """sims.tiles.TileError once a command has loaded the simulator (a tile error can only come from it), without
    loading it (and numba) for a command that does not."""
    tiles = sys.modules.get("tsumolab.sims.tiles")
    return _NotRaised if tiles is None else tiles.TileError


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the group, turning input errors into one line and exit code 2."""
    try:
        # obj["console"]: this is the console process, which ends when the command does (not a call from Python)
        code = cli.main(args=argv, prog_name="tsumolab", standalone_mode=False, obj={"console": argv is None})
    except click.exceptions.Abort:
        click.echo("tsumolab: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"tsumolab: error: {' '.join(exc.format_message().split())}", err=True)
        sys.exit(2 if isinstance(exc, click.UsageError) else exc.exit_code)
    except (InputError, _tile_error(), FileNotFoundError, IsADirectoryError) as exc:
        click.echo(f"tsumolab: error: {exc}", err=True)
        sys.exit(2)
    if argv is None:
        # This process ends now: its objects are left out of the collection the interpreter runs on the way out,
        # which would walk every one of them (a third of a second after a report).
        gc.freeze()
    sys.exit(code if isinstance(code, int) else 0)

