"""Every message the English reports can show, as gettext keys (msgid, or context EOT msgid; plurals as
(singular, plural)): what tests/test_i18n.py requires of each catalog.

Two sources. In the code, like xgettext: the literal arguments of `tr(…)`, `tr.p(…)`, `tr.n(…)` and `N_(…)` in
reports/ and in the analyzer modules that word report text. In the data the code translates at run time: every
experiment file's claim text, every built-in policy's description, the verdict, arm, unit, win-kind and
event-log words, and the source of the questions beyond the sources.
"""

from __future__ import annotations

import ast
import tomllib
from importlib.resources import files
from pathlib import Path

CONTEXT_SEPARATOR = "\x04"
MODULES = [("tsumolab.reports", path.name) for path in Path(str(files("tsumolab.reports"))).glob("*.py")] + [
    ("tsumolab.analyzer.replay", "bloodshed_events.py"), ("tsumolab.analyzer.replay", "riichi_events.py"),
    ("tsumolab.analyzer.decisions", "claims.py"), ("tsumolab.analyzer.decisions", "stats.py")]
TRANSLATING = {"tr", "N_"}


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def code_messages() -> tuple[set[str], set[tuple[str, str]]]:
    """(singular keys, plural pairs) of the translated literals in the code."""
    singular, plural = set(), set()
    for package, name in MODULES:
        path = Path(str(files(package))) / name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id in TRANSLATING:
                text = _literal(node.args[0])
                if text is not None:
                    singular.add(text)
            elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "tr":
                args = [_literal(a) for a in node.args]
                if func.attr == "p" and len(args) >= 2 and args[0] is not None and args[1] is not None:
                    singular.add(args[0] + CONTEXT_SEPARATOR + args[1])
                elif func.attr == "n" and len(args) >= 2 and args[0] is not None and args[1] is not None:
                    plural.add((args[0], args[1]))
    return singular, plural


def claim_texts() -> set[str]:
    from tsumolab.analyzer.package_files import experiments_dir

    return {tomllib.loads(path.read_text(encoding="utf-8"))["claim"] for path in experiments_dir().rglob("*.toml")}


def policy_descriptions() -> set[str]:
    """Descriptions of the built-in policies (a user's own policy, registered by another test of the same worker,
    brings its own words)."""
    import importlib

    from tsumolab.policies.registry import BUILTIN_MODULES

    found = set()
    for name in BUILTIN_MODULES:
        module = importlib.import_module(name)
        policies = list(getattr(module, "POLICIES", ())) + ([module.POLICY] if hasattr(module, "POLICY") else [])
        found |= {policy.description for policy in policies}
    return found


def context_words() -> set[str]:
    """The words translated with a context: verdicts, arms, units, win kinds and event-log tokens."""
    from tsumolab.analyzer.replay.bloodshed_events import KAN_WORDS as BLOODSHED_KANS
    from tsumolab.analyzer.replay.bloodshed_events import WIN_WORDS
    from tsumolab.analyzer.replay.riichi_events import KAN_WORDS as RIICHI_KANS
    from tsumolab.reports.content import ARMS, VERDICTS
    from tsumolab.sims.events import PAY_REASONS as BLOODSHED_PAYMENTS
    from tsumolab.sims.bloodshed.columns import EXCHANGE_DIRECTIONS, HAND_ENDS
    from tsumolab.sims.riichi.columns import HAND_ENDS as RIICHI_ENDS
    from tsumolab.sims.riichi.events import PAY_REASONS as RIICHI_PAYMENTS

    words = {("verdict", v) for v in VERDICTS} | {("arm", a) for a in ARMS}
    words |= {("unit", "fan"), ("unit", "han"), ("win", "tsumo"), ("win", "ron")}
    log = (set(BLOODSHED_PAYMENTS.values()) | set(RIICHI_PAYMENTS.values()) | set(EXCHANGE_DIRECTIONS)
           | set(HAND_ENDS) | set(RIICHI_ENDS) | set(WIN_WORDS.values()) | set(BLOODSHED_KANS.values())
           | set(RIICHI_KANS.values()) | {"tsumo", "ron"})
    words |= {("log", w) for w in log}
    return {f"{context}{CONTEXT_SEPARATOR}{word}" for context, word in words}


def report_messages() -> tuple[set[str], set[tuple[str, str]]]:
    """(singular keys, plural pairs) every catalog must translate."""
    from tsumolab.analyzer.claims.experiment import BEYOND_SOURCES

    singular, plural = code_messages()
    singular |= claim_texts() | policy_descriptions() | context_words() | {BEYOND_SOURCES}
    return singular, plural
