"""Checks shared by the modes' hand calculators on the JSON objects they are given."""

from __future__ import annotations

from typing import Any


def check_keys(obj: Any, allowed: set[str], where: str) -> None:
    """Raise ValueError unless `obj` is a dict whose keys are all in `allowed`."""
    if not isinstance(obj, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    unknown = set(obj) - allowed
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                         f"(allowed: {', '.join(sorted(allowed))})")


def check_variant(obj: dict, variant: str, where: str) -> None:
    """Raise ValueError when `obj` names a variant other than `variant` (a missing one is `variant`)."""
    named = obj.get("variant", variant)
    if named != variant:
        raise ValueError(f"{where}: variant {named!r} is not {variant!r}")
