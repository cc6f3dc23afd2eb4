"""`tsumolab settle`: exhaustive-draw settlement of one hand (bloodshed: RULES.md B-20 … B-23).

Input (FILE or '-' for stdin) is one JSON object as read by `sims.bloodshed.calculator.settle_request`:
``{"players": [four objects in seat order: "hand", "melds", "void", "won", "kan_income"]}``.
Output: ``{"deltas": [...], "tenpai": [...], "flower_pig": [...], "max_value": [...], "breakdown": {...}}``.
"""

from __future__ import annotations

import json

import click

from tsumolab import api
from tsumolab.api import SETTLE_VARIANTS
from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.json_input import read_json


def _read_request(source: str) -> object:
    return read_json(source)


@cli.command("settle")
@click.option("--variant", type=click.Choice(SETTLE_VARIANTS), help="Rule variant (required).")
@click.argument("source", metavar="FILE")
def settle_command(variant: str | None, source: str) -> None:
    """Settle an exhaustive draw described in FILE ('-' = stdin): points per seat, tenpai, flower pigs."""
    if variant is None:
        raise InputError(f"missing option --variant (available: {', '.join(SETTLE_VARIANTS)})")
    result = api.settle(_read_request(source), variant)
    click.echo(json.dumps(result, ensure_ascii=False))
