"""`tsumolab policies`: list every registered policy with its parameters, modes and claim."""

from __future__ import annotations

import json

import click

from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError


def policy_listing(policy_paths: tuple[str, ...] = ()) -> list[dict]:
    """One dict per registered policy (built-ins, entry points and the given policy files), by name."""
    from tsumolab.policies.registry import all_policies, load_path

    for path in policy_paths:
        load_path(path)
    return [
        {
            "name": p.name,
            "description": p.description,
            "parameters": [
                {"name": q.name, "type": q.type.__name__, "default": q.type(q.default), "help": q.help}
                for q in p.params
            ],
            "modes": list(p.modes),
            "claim": p.claim,
        }
        for p in all_policies()
    ]


def listing_text(listing: list[dict]) -> str:
    lines = []
    for entry in listing:
        claim = f"  [claim {entry['claim']}]" if entry["claim"] else ""
        lines.append(f"{entry['name']}  (modes: {', '.join(entry['modes'])}){claim}")
        lines.append(f"    {entry['description']}")
        for param in entry["parameters"]:
            lines.append(f"    - {param['name']} ({param['type']}, default {param['default']}): {param['help']}")
        lines.append("")
    return "\n".join(lines).rstrip()


@cli.command("policies")
@click.option("--policy-path", "policy_paths", multiple=True, type=click.Path(exists=True, dir_okay=False),
              metavar="FILE", help="Python file defining extra policies to list as well (repeatable).")
@click.option("--json", "as_json", is_flag=True,
              help='Print a JSON list of {"name", "description", "parameters", "modes", "claim"}.')
def policies_command(policy_paths: tuple[str, ...], as_json: bool) -> None:
    """List the policies usable in --seats: name, description, parameters (type, default, meaning), modes.

    \b
    Examples:
      tsumolab policies
      tsumolab policies --json --policy-path examples/my_policy.py
    """
    try:
        listing = policy_listing(policy_paths)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    click.echo(json.dumps(listing, ensure_ascii=False, indent=2) if as_json else listing_text(listing))
