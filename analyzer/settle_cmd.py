"""`tsumolab settle`: exhaustive-draw settlement of one hand (bloodshed: RULES.md B-20 … B-23).

Input (FILE or '-' for stdin) is one JSON object as read by `sims.bloodshed.calculator.settle_request`:
``{"players": [four objects in seat order: "hand", "melds", "void", "won", "kan_income"]}``.
Output: ``{"deltas": [...], "tenpai": [...], "flower_pig": [...], "max_value": [...], "breakdown": {...}}``.
"""

from __future__ import annotations

import json
import sys

import click

from analyzer import api
from analyzer.api import SETTLE_VARIANTS
from analyzer.cli import cli
from analyzer.errors import InputError



def _read_request(source: str) -> object:
    try:
        if source == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(source, "rb") as f:
                text = f.read()
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror or exc}") from None
    try:
        request = json.loads(text)
    except ValueError as exc:
        name = "stdin" if source == "-" else source
        raise InputError(f"{name}: invalid JSON: {exc}") from None
    return request


@cli.command("settle")
@click.option("--variant", type=click.Choice(SETTLE_VARIANTS), help="Rule variant (required).")
@click.argument("source", metavar="FILE")
def settle_command(variant: str | None, source: str) -> None:
    """Settle an exhaustive draw described in FILE ('-' = stdin): points per seat, tenpai, flower pigs."""
    if variant is None:
        raise InputError(f"missing option --variant (available: {', '.join(SETTLE_VARIANTS)})")
    result = api.settle(_read_request(source), variant)
    click.echo(json.dumps(result, ensure_ascii=False))
