"""Every mode's rule options, read from its rules dataclass at run time: name, type, default, help, the rule ids
the help cites, and (riichi-based modes) the standard riichi default beside it.

Help texts are the attribute docstrings of the dataclass fields (the string literal right after a field), read
from the source with `ast` along the class's MRO, so a subclass that only changes a default keeps its base
class's help. New fields and new modes (sims.modes) appear without any change here.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import typing
from functools import cache

from tsumolab.analyzer.rule_book import MODE_RULES, cited_ids


@cache
def _class_docstrings(module_file: str, class_name: str) -> dict[str, str]:
    """field → attribute docstring of the class `class_name` defined at the top level of `module_file`."""
    with open(module_file, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), filename=module_file)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            docs = {}
            for stmt, after in zip(node.body, node.body[1:]):
                if (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                        and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                        and isinstance(after.value.value, str)):
                    docs[stmt.target.id] = " ".join(inspect.cleandoc(after.value.value).split())
            return docs
    return {}


def option_help(cls: type) -> dict[str, str]:
    """field → help of every field of the dataclass `cls`: its nearest attribute docstring along the MRO."""
    helps: dict[str, str] = {}
    for klass in cls.__mro__:
        if not dataclasses.is_dataclass(klass) or klass is object:
            continue
        try:
            source = inspect.getsourcefile(klass)
        except TypeError:
            continue
        if source is None:
            continue
        for name, doc in _class_docstrings(source, klass.__name__).items():
            helps.setdefault(name, doc)
    return helps


def rules_class(slug: str) -> type:
    """The rules dataclass of a mode (ValueError for an unknown slug, naming the known ones)."""
    from tsumolab.sims.modes import get_mode

    return get_mode(slug).rules_class


def is_riichi_based(cls: type) -> bool:
    from tsumolab.sims.riichi.rules import RiichiRules

    return issubclass(cls, RiichiRules)


def riichi_defaults() -> dict:
    """Option values of standard riichi (`riichi`), the reference of every riichi-based mode."""
    return rules_class("riichi")().as_dict()


def options(cls: type, values: dict | None = None) -> list[dict]:
    """One dict per field of `cls` in declaration order: name, type, default, value (= `values`' or the
    default), help, rule_ids cited by the help; for riichi-based modes also riichi_default and changed
    (value differs from standard riichi)."""
    hints = typing.get_type_hints(cls)
    defaults = cls().as_dict()
    values = {**defaults, **(values or {})}
    helps = option_help(cls)
    reference = riichi_defaults() if is_riichi_based(cls) else None
    out = []
    for f in dataclasses.fields(cls):
        kind = hints.get(f.name, f.type)
        entry = {"name": f.name, "type": getattr(kind, "__name__", str(kind)), "default": defaults[f.name],
                 "value": values[f.name], "help": helps.get(f.name, ""), "rule_ids": cited_ids(helps.get(f.name, ""))}
        if reference is not None:
            entry["riichi_default"] = reference.get(f.name)
            entry["changed"] = f.name not in reference or values[f.name] != reference[f.name]
        out.append(entry)
    return out


def mode_listing(slugs: list[str] | None = None) -> list[dict]:
    """One dict per mode (every mode of sims.modes unless `slugs`): name, title, engine, rules_class, rule_ids,
    options (list of {name, type, default, help, rule_ids[, riichi_default, changed]}) and, for riichi-based
    modes, changed_from_riichi (names of the options whose default differs from standard riichi), and advise
    (whether `tsumolab advise` analyses its decisions)."""
    from tsumolab.analyzer.engines import advise_modes
    from tsumolab.sims.modes import MODES, get_mode

    listing = []
    for slug in slugs or list(MODES):
        cls = rules_class(slug)
        opts = options(cls)
        for entry in opts:
            entry.pop("value")
        riichi = is_riichi_based(cls)
        book = MODE_RULES.get(slug)
        listing.append({
            "name": slug,
            "title": book.title if book else (inspect.getdoc(cls) or "").split("\n")[0],
            "engine": get_mode(slug).family.name,
            "rules_class": f"{cls.__module__}.{cls.__qualname__}",
            "rule_ids": list(book.ids) if book else [],
            "options": opts,
            "changed_from_riichi": [o["name"] for o in opts if o["changed"]] if riichi else None,
            "advise": slug in advise_modes(),
        })
    return listing
