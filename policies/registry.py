"""Policy registry: declarations, lookup by name, user policies from files and entry points, seat specs.

A policy module defines `POLICY = Policy(...)` (or `POLICIES = [...]`). Built-ins are the modules named in
BUILTIN_MODULES; a user's file is loaded with `load_path` (CLI `--policy-path`); installed packages can
register modules under the entry-point group `tsumolab.policies`. Hooks a policy leaves out are taken
from `baseline` (policies.api lists the hooks).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tsumolab.policies.api import compiled_hook
from tsumolab.sims.decisions import HOOK_NAMES, MAX_PARAMS, RIICHI_HOOK_NAMES

BUILTIN_MODULES = (
    "tsumolab.policies.baseline",
    "tsumolab.policies.random_play",
    "tsumolab.policies.majsoul_cpu",
    "tsumolab.policies.disconnected",
    "tsumolab.policies.pass_cheap_ron",
    "tsumolab.policies.always_kan",
    "tsumolab.policies.never_kan",
    "tsumolab.policies.keep_void",
    "tsumolab.policies.fold",
    "tsumolab.policies.pon_happy",
    "tsumolab.policies.closed",
    "tsumolab.policies.flush_seeker",
    "tsumolab.policies.stall_for_draw",
    "tsumolab.policies.recommended_exchange",
    "tsumolab.policies.shura_claims",
    "tsumolab.policies.dora_keeper",
    "tsumolab.policies.deal_reader",
    "tsumolab.policies.fate_keeper",
    "tsumolab.policies.chanter",
    "tsumolab.policies.strike_timer",
    "tsumolab.policies.card_reader",
    "tsumolab.policies.shadow_player",
    "tsumolab.policies.star_picker",
    "tsumolab.policies.mirror_reader",
    "tsumolab.policies.eye_pusher",
    "tsumolab.policies.expert",
    "tsumolab.policies.fast_expert",
    "tsumolab.policies.search",
)
ENTRY_POINT_GROUP = "tsumolab.policies"


class PolicyError(ValueError):
    """A seat spec or policy declaration that cannot be used."""


@dataclass(frozen=True)
class Param:
    """A policy parameter: name, type (int, float or bool), default and a one-line meaning."""

    name: str
    type: type
    default: float
    help: str

    def parse(self, text: str):
        try:
            if self.type is bool:
                if text.lower() in ("1", "true", "yes", "on"):
                    return True
                if text.lower() in ("0", "false", "no", "off"):
                    return False
                raise ValueError
            return self.type(text)
        except ValueError:
            raise PolicyError(f"parameter {self.name}: {text!r} is not a {self.type.__name__}") from None


@dataclass(frozen=True)
class Policy:
    """A named set of hooks (policies.api.HOOK_NAMES) with declared parameters and supported modes.

    `riichi_hooks` holds the hooks of the riichi-based modes (policies.riichi_api.RIICHI_HOOK_NAMES); one
    policy name can so serve both families."""

    name: str
    description: str
    hooks: dict
    params: tuple = ()
    modes: tuple = ("bloodshed",)
    claim: str = ""
    riichi_hooks: dict = field(default_factory=dict)
    driven: bool = False
    """True when the policy decides some answers outside its hooks (by searching): matches with it seated are
    played by analyzer.search.play, which stops the kernel at its decisions; its hooks alone play its base."""

    def defaults(self) -> dict:
        return {p.name: p.type(p.default) for p in self.params}


@dataclass(frozen=True)
class SeatPolicy:
    """One seat's policy with its parameter values."""

    name: str
    params: dict = field(default_factory=dict)

    def hooks(self, family: str = "bloodshed") -> tuple:
        """Compiled hooks in the engine's call order (sims.seating): HOOK_NAMES from `hooks`, or for family
        "riichi" RIICHI_HOOK_NAMES from `riichi_hooks`; hooks the policy leaves out come from baseline."""
        return tuple(compiled_hook(fn) for fn in self.hook_functions(family))

    def hook_functions(self, family: str = "bloodshed") -> tuple:
        """The functions of `hooks`, not yet compiled."""
        names, attr = (RIICHI_HOOK_NAMES, "riichi_hooks") if family == "riichi" else (HOOK_NAMES, "hooks")
        own, fallback = getattr(get(self.name), attr), getattr(get("baseline"), attr)
        return tuple(own.get(name, fallback[name]) for name in names)

    def param_values(self) -> list[float]:
        """Parameter values in the order the policy declares them."""
        return [float(self.params[param.name]) for param in get(self.name).params]

    @property
    def label(self) -> str:
        if not self.params:
            return self.name
        return f"{self.name}(" + ",".join(f"{k}={v}" for k, v in self.params.items()) + ")"

    @classmethod
    def from_label(cls, label: str) -> "SeatPolicy":
        """The SeatPolicy whose `label` is `label`, read without the registry (a stored label names every
        parameter, each value written by Python as an int, float or bool); PolicyError when it is no label."""
        match = _SEAT_RE.fullmatch(label)
        if not match:
            raise PolicyError(f"{label!r} is not a policy label")
        params = {}
        for item in filter(None, (match.group(2) or "").split(",")):
            key, _, text = item.partition("=")
            try:
                params[key] = _VALUES[text] if text in _VALUES else int(text) if text.lstrip("-").isdigit() \
                    else float(text)
            except ValueError:
                raise PolicyError(f"{label!r} is not a policy label ({item!r})") from None
        seat = cls(match.group(1), params)
        if seat.label != label:
            raise PolicyError(f"{label!r} is not a policy label as tsumolab writes them")
        return seat


_REGISTRY: dict[str, Policy] = {}
_LOADED_PATHS: set[str] = set()


def register(policy: Policy) -> Policy:
    unknown = set(policy.hooks) - set(HOOK_NAMES)
    if unknown:
        raise PolicyError(f"policy {policy.name}: unknown hook(s) {sorted(unknown)}; hooks are {HOOK_NAMES}")
    unknown = set(policy.riichi_hooks) - set(RIICHI_HOOK_NAMES)
    if unknown:
        raise PolicyError(f"policy {policy.name}: unknown riichi hook(s) {sorted(unknown)}; "
                          f"hooks are {RIICHI_HOOK_NAMES}")
    if len(policy.params) > MAX_PARAMS:
        raise PolicyError(f"policy {policy.name}: at most {MAX_PARAMS} parameters")
    _REGISTRY[policy.name] = policy
    return policy


def _register_module(module) -> list[Policy]:
    found = list(getattr(module, "POLICIES", ())) + ([module.POLICY] if hasattr(module, "POLICY") else [])
    if not found:
        raise PolicyError(f"{module.__name__} defines no POLICY or POLICIES")
    for policy in found:
        register(policy)
    return found


def _ensure_builtins() -> None:
    if "baseline" in _REGISTRY:
        return
    for name in BUILTIN_MODULES:
        _register_module(importlib.import_module(name))
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        _register_module(entry.load())


def load_path(path: str | Path) -> None:
    """Import a user's policy file (or dotted module name) and register what it declares."""
    _ensure_builtins()
    text = str(path)
    if text in _LOADED_PATHS:
        return
    file = Path(text)
    if file.suffix == ".py":
        if not file.is_file():
            raise PolicyError(f"policy file not found: {text}")
        module_name = "tsumolab_user_" + re.sub(r"\W", "_", file.stem)
        spec = importlib.util.spec_from_file_location(module_name, file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(text)
        except ImportError as exc:
            raise PolicyError(f"cannot import policy module {text!r}: {exc}") from None
    for policy in _register_module(module):
        for fn in (*policy.hooks.values(), *policy.riichi_hooks.values()):
            compiled_hook(fn)  # a user's hook that does not compile is refused when its file is loaded
    _LOADED_PATHS.add(text)


def all_policies() -> list[Policy]:
    _ensure_builtins()
    return sorted(_REGISTRY.values(), key=lambda p: p.name)


def get(name: str) -> Policy:
    _ensure_builtins()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise PolicyError(f"unknown policy {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None


_VALUES = {"True": True, "False": False}
_SEAT_RE = re.compile(r"([A-Za-z][\w-]*)(?:\((.*)\))?")


def parse_seat(text: str) -> SeatPolicy:
    """`"name"` or `"name(key=value,…)"` → SeatPolicy with every declared parameter filled in."""
    match = _SEAT_RE.fullmatch(text.strip())
    if not match:
        raise PolicyError(f"bad policy spec {text!r}; write name or name(key=value,...)")
    policy = get(match.group(1))
    declared = {p.name: p for p in policy.params}
    values = policy.defaults()
    for item in filter(None, (s.strip() for s in (match.group(2) or "").split(","))):
        key, sep, value = item.partition("=")
        if not sep or key.strip() not in declared:
            raise PolicyError(f"policy {policy.name}: unknown parameter {key.strip()!r}; "
                              f"parameters: {', '.join(declared) or 'none'}")
        values[key.strip()] = declared[key.strip()].parse(value.strip())
    return SeatPolicy(policy.name, values)


def parse_seats(spec: str, policy_paths=()) -> list[SeatPolicy]:
    """`"a,b(x=1),c,d"`, or one policy for all four seats → four SeatPolicy objects."""
    for path in policy_paths:
        load_path(path)
    parts = [p for p in re.split(r",(?![^()]*\))", spec) if p.strip()]
    if len(parts) == 1:
        parts *= 4
    if len(parts) != 4:
        raise PolicyError(f"--seats needs one policy or four, got {len(parts)} in {spec!r}")
    return [parse_seat(p) for p in parts]


def _plays_riichi_core(mode: str) -> bool:
    """Modes whose rules are options of the riichi core (sims.riichi.rules.RiichiRules subclasses)."""
    from tsumolab.sims.modes import get_mode
    from tsumolab.sims.riichi.rules import RiichiRules

    try:
        return issubclass(get_mode(mode).rules_class, RiichiRules)
    except ValueError:
        return False


def check_mode(seats: list[SeatPolicy], mode: str) -> None:
    """A policy plays the modes it lists; one listing `riichi` plays every mode of the riichi core too, unless
    it is driven (its driver plays only the modes it lists)."""
    for seat in seats:
        policy = get(seat.name)
        core = "riichi" in policy.modes and not policy.driven and _plays_riichi_core(mode)
        if mode not in policy.modes and not core:
            raise PolicyError(f"policy {policy.name} does not support mode {mode!r} "
                              f"(supports: {', '.join(policy.modes)})")
