"""`tsumolab variants`: every mode with its rule options, defaults and what differs from standard riichi."""

from __future__ import annotations

import json
import textwrap

import click

from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError


def value_text(value) -> str:
    """An option value as `--rule` and the TOML files write it: true, 25000, "split"."""
    return json.dumps(value, ensure_ascii=False)


def id_span(ids) -> str:
    """Rule ids compactly: "R-1 … R-6, S-1 … S-16", "B-1 … B-25", "R-1 … R-6, DF"."""
    groups: list[list[str]] = []
    for rule_id in ids:
        prefix = rule_id.split("-")[0] if "-" in rule_id else rule_id
        if groups and "-" in rule_id and groups[-1][0].split("-")[0] == prefix and "-" in groups[-1][0]:
            groups[-1].append(rule_id)
        else:
            groups.append([rule_id])
    return ", ".join(g[0] if len(g) == 1 else f"{g[0]} … {g[-1]}" for g in groups)


def _option_line(entry: dict, width: int, compare: bool) -> list[str]:
    extra = ""
    if compare and entry.get("changed"):
        extra = f"; riichi {value_text(entry['riichi_default'])}"
    head = f"    {entry['name']} ({entry['type']}, default {value_text(entry['default'])}{extra})"
    body = textwrap.wrap(entry["help"] or "(no help text)", width - 8)
    return [head] + [f"        {line}" for line in body]


def listing_text(listing: list[dict], full: bool = False, width: int = 110) -> str:
    """Per mode: title, rule ids, rules class, then its options. Riichi-based modes other than `riichi` show
    the options whose default differs from standard riichi and the options of their own rule (help citing the
    mode's id); `full` lists every option of every mode."""
    lines = []
    for mode in listing:
        lines.append(f"{mode['name']} — {mode['title']}")
        lines.append(f"  rules {id_span(mode['rule_ids'])}; options from {mode['rules_class']}; advise: "
                     f"{'yes' if mode['advise'] else 'not yet'}")
        options = mode["options"]
        changed = mode["changed_from_riichi"]
        if not changed or full:
            if changed:
                lines.append("  differs from riichi: " + ", ".join(changed))
            lines.append("  options:")
            for entry in options:
                lines += _option_line(entry, width, compare=changed is not None)
        else:
            own = [i for i in mode["rule_ids"] if not i.startswith("R-")]
            shown = [o for o in options if o["changed"] or set(o["rule_ids"]) & set(own)]
            lines.append("  differs from riichi: " + (", ".join(f"{o['name']} = {value_text(o['default'])}"
                                                               for o in options if o["changed"]) or "nothing"))
            lines.append(f"  options that differ from riichi or belong to {id_span(own)}:")
            for entry in shown:
                lines += _option_line(entry, width, compare=True)
            rest = len(options) - len(shown)
            lines.append(f"  the other {rest} options as riichi (--full lists them)")
        lines.append("")
    return "\n".join(lines).rstrip()


@cli.command("variants")
@click.argument("modes", nargs=-1)
@click.option("--full", is_flag=True, help="List every option of every mode (default: riichi-based modes show "
                                           "only what differs from riichi and their own options).")
@click.option("--json", "as_json", is_flag=True,
              help='Print a JSON list of {"name", "title", "engine", "rules_class", "rule_ids", "options", '
                   '"changed_from_riichi"}; options = list of {"name", "type", "default", "help", "rule_ids"} '
                   '(riichi-based modes add "riichi_default" and "changed").')
def variants_command(modes: tuple[str, ...], full: bool, as_json: bool) -> None:
    """List every mode (or the MODES named) with its rule options: type, default, meaning, and for the
    riichi-based modes what differs from standard riichi. Set an option with --rule KEY=VALUE.

    \b
    Examples:
      tsumolab variants
      tsumolab variants fate chant --full
      tsumolab variants --json
    """
    from tsumolab.analyzer.mode_options import mode_listing

    try:
        listing = mode_listing(list(modes) or None)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    click.echo(json.dumps(listing, ensure_ascii=False, indent=2) if as_json else listing_text(listing, full))
