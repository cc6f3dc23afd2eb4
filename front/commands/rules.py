"""`tsumolab rules MODE`: the rules the engine applies for a mode, by id, with the option values in effect.

Rule texts: sims/RULES.md, the rules document shipped in the package, read by analyzer.rule_book (which also
holds the ids of each mode). Options: the mode's rules dataclass (analyzer.mode_options).
An option belongs to the rules its help text cites (e.g. `renchan`: "… (R-2); off: S-7" → R-2 and S-7); an option
citing none of the mode's rules is listed after them.
"""

from __future__ import annotations

import json
import textwrap

import click

from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError
from tsumolab.commands.variants import id_span, value_text


def mode_rules(mode: str, overrides: dict | None = None) -> dict:
    """The rules of `mode` with the options in effect (defaults, then `overrides`):
    {"mode", "title", "rules_class", "base", "own", "rules": [{"id", "text", "options": [...]}], "other_options"}.
    Each option is {name, type, value, default, help, rule_ids, set_by_rule (given in `overrides`), changed,
    mode_sets} where `changed` means the value differs from standard riichi (riichi-based modes, with
    `riichi_default`) or from the mode's default (bloodshed), and `mode_sets` that the mode's default differs
    from standard riichi. An option belongs to the rules its help cites, and a special mode's one rule (DF, F,
    …) also lists every option the mode sets; a rule's `changed_by` names its changed options."""
    from tsumolab.analyzer.mode_options import options, rules_class
    from tsumolab.analyzer.rule_book import MODE_RULES, RULE_TEXT

    try:
        cls = rules_class(mode)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    overrides = dict(overrides or {})
    try:
        cls.from_dict(overrides)  # the mode's own validation: unknown names, types, ranges
    except (ValueError, TypeError) as exc:
        raise InputError(f"--rule: {exc}") from None
    book = MODE_RULES.get(mode)
    if book is None:
        raise InputError(f"mode {mode!r} has no rule texts yet (add its ids to MODE_RULES in analyzer/rule_book.py)")
    entries = options(cls, overrides)
    for entry in entries:
        entry["set_by_rule"] = entry["name"] in overrides
        if "changed" not in entry:
            entry["changed"] = entry["value"] != entry["default"]
        # a special mode's one rule is what sets the options its defaults change from standard riichi
        entry["mode_sets"] = "riichi_default" in entry and entry["default"] != entry["riichi_default"]
    rules, placed = [], set()
    for rule_id in book.ids:
        attached = [e for e in entries if rule_id in e["rule_ids"]
                    or (len(book.own) == 1 and rule_id in book.own and e.get("mode_sets"))]
        placed.update(e["name"] for e in attached)
        rules.append({"id": rule_id, "text": RULE_TEXT[rule_id], "own": rule_id in book.own,
                      "changed_by": [e["name"] for e in attached if e["changed"]], "options": attached})
    return {"mode": mode, "title": book.title, "rules_class": f"{cls.__module__}.{cls.__qualname__}",
            "base": list(book.base), "own": list(book.own), "rules": rules,
            "other_options": [e for e in entries if e["name"] not in placed]}


def _option_text(entry: dict) -> str:
    text = f"{entry['name']} = {value_text(entry['value'])}"
    notes = []
    if entry["set_by_rule"]:
        notes.append(f"set by --rule; mode default {value_text(entry['default'])}")
    if entry["changed"]:
        if "riichi_default" in entry:
            notes.append(f"changed: standard riichi has {value_text(entry['riichi_default'])}")
        elif not entry["set_by_rule"]:
            notes.append("changed")
    return text + (f" ({'; '.join(notes)})" if notes else "")


def document_line() -> str:
    """Where the full rules document of every mode is: its path in the installed package."""
    from tsumolab.analyzer.rule_book import rules_document

    return f"All rules of every mode: {rules_document()} (sims/RULES.md in the package; see the README)"


def rules_text(described: dict, width: int = 110) -> str:
    """The rules as text: a header, then each rule id with its wrapped text and the options attached to it."""
    riichi = described["base"] and described["base"][0].startswith("R-")
    lines = [f"{described['mode']} — {described['title']}",
             f"rules: {id_span(described['base'])}"
             + (f" (standard riichi), then {id_span(described['own'])}" if described["own"] else "")
             + f"; options from {described['rules_class']}",
             "An option is listed under the rules its help cites; "
             + ("\"changed\" = differs from standard riichi." if riichi else "\"changed\" = differs from the "
                                                                             "mode's default."),
             document_line(),
             ""]
    for rule in described["rules"]:
        mark = f"  [changed by {', '.join(rule['changed_by'])}]" if rule["changed_by"] else ""
        wrapped = textwrap.wrap(f"{rule['id']} {rule['text']}", width, subsequent_indent="      ",
                                break_on_hyphens=False)
        lines += wrapped
        if mark:
            lines[-1] += mark
        for entry in rule["options"]:
            lines += textwrap.wrap("option " + _option_text(entry), width, initial_indent="    · ",
                                   subsequent_indent="      ", break_on_hyphens=False)
    if described["other_options"]:
        lines += ["", "Other options (their rules are not part of this mode):"]
        for entry in described["other_options"]:
            rules = f" [{', '.join(entry['rule_ids'])}]" if entry["rule_ids"] else ""
            lines += textwrap.wrap(_option_text(entry) + rules, width, initial_indent="    · ",
                                   subsequent_indent="      ", break_on_hyphens=False)
    return "\n".join(lines)


@cli.command("rules")
@click.argument("mode")
@click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE",
              help="Show the rules with this option set, as `run --rule` would play them (repeatable).")
@click.option("--json", "as_json", is_flag=True,
              help='Print one JSON object: {"mode", "title", "rules_class", "base", "own", "rules": [{"id", '
                   '"text", "own", "changed_by", "options"}], "other_options"}.')
def rules_command(mode: str, rules: tuple[str, ...], as_json: bool) -> None:
    """Print the rules the engine applies for MODE (see `tsumolab variants`): the base rules (B for bloodshed,
    R-1 … R-6 for the riichi modes) and the mode's own rules (S-1 … S-16 for shura; DF, A, D, M, F, C, SS, FL,
    DE or OD), each with its id and text, and under each rule the options in effect that belong to it,
    marked where they change it. The full rules document of every mode is sims/RULES.md in the installed
    package; the output names its path.

    \b
    Examples:
      tsumolab rules fate
      tsumolab rules shura --rule noten_rule=each
      tsumolab rules dora-fever --json
    """
    from tsumolab.analyzer.mode_options import rules_class
    from tsumolab.analyzer.runs.options import parse_rule_options

    try:
        cls = rules_class(mode)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    described = mode_rules(mode, parse_rule_options(cls, rules))
    click.echo(json.dumps(described, ensure_ascii=False, indent=2) if as_json else rules_text(described))
