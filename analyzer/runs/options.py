"""Validating the options of a simulation run (mode, seats, matches, seed, rule options) into a RunSpec.

Shared by the command line (`tsumolab run`, `claims`, `rules`, `replay`) and the Python API (tsumolab.api), so
both reject bad input with the same one-line InputError messages.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Mapping, Sequence

from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.runs.runner import MAX_SEED, RunSpec, check_policies_support
from tsumolab.policies.registry import parse_seats
from tsumolab.sims.modes import MODES, get_mode

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}

RuleOptions = Mapping[str, object] | Sequence[str] | None
"""rule options as {key: value} (values typed or as text) or as the command line's ["key=value", …]"""


def cards_rule(variant: str, cards: str, rules: RuleOptions) -> dict:
    """The rule options with `--cards CARDS` added as `cards=CARDS` (FL fantasy only); unknown cards are an
    InputError."""
    from tsumolab.sims.riichi.rules import parse_fantasy_cards

    if variant not in MODES:
        raise InputError(f"unknown mode {variant!r} (known: {', '.join(sorted(MODES))})")
    if not get_mode(variant).rules_class().as_dict().get("fantasy"):
        raise InputError(f"--cards is an option of --variant fantasy (幻境传说), not of {variant!r}")
    options = parse_rule_options(get_mode(variant).rules_class, rules)
    if "cards" in options:
        raise InputError("give the cards once: --cards or --rule cards=…, not both")
    try:
        parse_fantasy_cards(cards)
    except ValueError as exc:
        raise InputError(f"--cards: {exc}") from None
    return {**options, "cards": cards}


def build_spec(variant: str, seats: str | Sequence[str], matches: int, seed: int, chunk_size: int,
               rules: RuleOptions = None, policy_paths: Sequence[str] = ()) -> RunSpec:
    """Validate the options of a run into a RunSpec; every problem is an InputError. `seats`: one policy
    for all four seats, or four, comma-separated or as a list."""
    for name, value in (("--matches", matches), ("--seed", seed), ("--chunk-size", chunk_size)):
        require_whole_number(name, value)
    if matches < 1:
        raise InputError(f"--matches must be at least 1, got {matches}")
    if chunk_size < 1:
        raise InputError(f"--chunk-size must be at least 1, got {chunk_size}")
    if not 0 <= seed <= MAX_SEED:
        raise InputError(f"--seed must be in 0..{MAX_SEED}, got {seed}")
    try:
        mode = get_mode(variant)
        seat_policies = parse_seats(seats if isinstance(seats, str) else ",".join(seats), tuple(policy_paths))
        check_policies_support(seat_policies, variant)
        options = mode.rules_class.from_dict(parse_rule_options(mode.rules_class, rules))
        return RunSpec(mode=mode, seats=tuple(seat_policies), matches=matches, seed=seed, rules=options,
                       chunk_size=chunk_size)
    except (ValueError, TypeError) as exc:
        raise InputError(str(exc)) from None


def parse_rule_options(rules_cls: type, rules: RuleOptions) -> dict:
    """Rule options ({key: value} or ["key=value", …]) → {key: value}, text typed after the fields of the
    rule-options dataclass `rules_cls` (unknown keys are left for RULES.from_dict to report)."""
    if not rules:
        return {}
    if isinstance(rules, Mapping):
        pairs = [(str(key), value) for key, value in rules.items()]
    else:
        pairs = []
        for pair in [rules] if isinstance(rules, str) else rules:
            key, sep, text = str(pair).partition("=")
            if not sep or not key.strip():
                raise InputError(f"--rule needs KEY=VALUE, got {pair!r}")
            pairs.append((key.strip(), text.strip()))
    types = typing.get_type_hints(rules_cls)
    return {key: _typed_value(key, value.strip(), types.get(key)) if isinstance(value, str) else value
            for key, value in pairs}


def _typed_value(key: str, text: str, kind) -> object:
    if kind is bool:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise InputError(f"rule {key} takes true or false, got {text!r}")
    if kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            raise InputError(f"rule {key} takes a number ({kind.__name__}), got {text!r}") from None
    if kind is str or kind is None:
        return text  # unknown keys are reported by RULES.from_dict
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def require_whole_number(name: str, value: object) -> None:
    """InputError unless `value` is an int (the command line parses it; the Python API may be handed anything)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{name} must be a whole number, got {value!r}")
