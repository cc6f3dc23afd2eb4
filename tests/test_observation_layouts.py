"""The two observation layouts (issue 14): declared once with sims.layout, distinct names, named accessors.

- BOBS (sims.bloodshed.observation) and ROBS (sims.riichi.observation) tile their arrays field by field, every
  field documented; no module keeps a hand-written offset constant (O_*, *OBS_SIZE).
- policies.api reads BOBS only and policies.riichi_api ROBS only; their accessors have one name per meaning
  in both, return the declared slots, and those returning a view are `inline` (sims.jit).
- Every built-in policy reads the layout of the engine(s) it plays, checked from the source: a module whose
  policies play only Bloodshed imports nothing of the riichi observation, one whose policies play only
  riichi-based modes nothing of the Bloodshed observation, and every hook reaches (through the policy functions
  it calls) only its own engine's layout.
"""

from __future__ import annotations

import ast
import importlib
from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest

from tsumolab.policies import api, riichi_api
from tsumolab.policies.registry import BUILTIN_MODULES
from tsumolab.sims.bloodshed import observation as bloodshed_observation
from tsumolab.sims.layout import describe
from tsumolab.sims.modes import MODES
from tsumolab.sims.riichi import observation as riichi_observation

LAYOUTS = {"BOBS": bloodshed_observation.BOBS, "ROBS": riichi_observation.ROBS}
FAMILY = {"BOBS": "bloodshed", "ROBS": "riichi"}
API = {"BOBS": api, "ROBS": riichi_api}
# the modules a layout (or its accessors) can be imported from
LAYOUT_MODULES = {"tsumolab.policies.api": "BOBS", "tsumolab.sims.bloodshed.observation": "BOBS",
                  "tsumolab.policies.riichi_api": "ROBS", "tsumolab.sims.riichi.observation": "ROBS"}
SHARED_ACCESSORS = ("decision", "tile", "from_seat", "can_win", "win_points", "can_pon", "can_kan", "kan_options",
                    "after_call", "own_seat", "own_hand", "wall_left", "seen", "points", "has_won", "n_melds",
                    "melds_of")


def _family_of_mode(slug: str) -> str:
    return MODES[slug].family.name


# ----------------------------------------------------------------------------- the layouts
@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_layout_fields_tile_the_array_and_are_documented(name):
    """describe(): fields laid end to end from 0 (none overlaps another, none is left out) up to SIZE."""
    layout = LAYOUTS[name]
    fields = describe(layout)
    at = 0
    for field, offset, width, doc in fields:
        assert offset == at, f"{name}.{field} starts at {offset}, the previous field ends at {at}"
        assert width >= 1 and doc.strip(), f"{name}.{field}"
        assert getattr(layout, field) == offset
        at += width
    assert at == layout.SIZE
    assert len({field for field, _, _, _ in fields}) == len(fields)


def test_no_module_keeps_hand_written_observation_offsets():
    """The old constants are gone everywhere (they had the same names at different offsets in the two
    engines); each API module exports its own engine's layout and not the other."""
    for module in (bloodshed_observation, riichi_observation, api, riichi_api):
        old = [n for n in vars(module) if n.startswith("O_") or n.endswith("OBS_SIZE")]
        assert old == [], (module.__name__, old)
    assert api.BOBS is LAYOUTS["BOBS"] and not hasattr(api, "ROBS")
    assert riichi_api.ROBS is LAYOUTS["ROBS"] and not hasattr(riichi_api, "BOBS")
    assert type(LAYOUTS["BOBS"]).__name__ != type(LAYOUTS["ROBS"]).__name__


# ----------------------------------------------------------------------------- the accessors
def _module_functions(module) -> tuple[dict[str, set[str]], ast.Module]:
    """Top-level function name → its decorator names, from the module's source."""
    tree = ast.parse(Path(module.__file__).read_text())
    return {node.name: {ast.unparse(d).split("(")[0] for d in node.decorator_list}
            for node in tree.body if isinstance(node, ast.FunctionDef)}, tree


def _returns_view(node) -> bool:
    return any(isinstance(sub, ast.Return) and isinstance(sub.value, ast.Subscript)
               and isinstance(sub.value.slice, ast.Slice) for sub in ast.walk(node))


@pytest.mark.parametrize("name", sorted(API))
def test_accessors_are_inline_and_listed(name):
    """Every accessor is `inline` (sims.jit: a view returned by a function that is not inlined would cost a
    call and reference counting in every hook); OBSERVATION_NAMES lists the layout and exactly the accessors."""
    module = API[name]
    functions, tree = _module_functions(module)
    accessors = {fn for fn, decorators in functions.items() if "inline" in decorators}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and _returns_view(node):
            assert node.name in accessors, f"{module.__name__}.{node.name} returns a view but is not inline"
    assert set(module.OBSERVATION_NAMES) == accessors | {name}
    assert set(SHARED_ACCESSORS) <= accessors


def _filled(name):
    layout = LAYOUTS[name]
    obs = (np.arange(layout.SIZE, dtype=np.int32) * 7) % 1000 + 1
    obs[layout.seat] = 2
    return obs


@pytest.mark.parametrize("name", sorted(API))
def test_accessors_read_their_fields(name):
    """Each accessor returns its field of the layout: a scalar slot, or a view (no copy) of the block."""
    layout, module = LAYOUTS[name], API[name]
    obs = _filled(name)
    scalars = {"decision": "decision", "tile": "tile", "from_seat": "from_seat", "can_win": "can_win",
               "win_points": "win_points", "can_pon": "can_pon", "can_kan": "can_kan", "after_call": "after_call",
               "own_seat": "seat", "wall_left": "wall_left"}
    scalars.update({"win_fan": "win_fan"} if name == "BOBS" else
                   {"win_han": "win_han", "can_chi": "can_chi", "can_riichi": "can_riichi", "can_nine": "can_nine"})
    for accessor, field in scalars.items():
        assert getattr(module, accessor)(obs) == obs[getattr(layout, field)], accessor
    blocks = {"own_hand": ("hand", 34), "kan_options": ("kan_options", 34), "seen": ("seen", 34)}
    if name == "ROBS":
        blocks["red_fives"] = ("red", 3)
    for accessor, (field, width) in blocks.items():
        view = getattr(module, accessor)(obs)
        start = getattr(layout, field)
        np.testing.assert_array_equal(view, obs[start:start + width], err_msg=accessor)
        assert np.shares_memory(view, obs), accessor
    per_seat = {"points": "points", "has_won": "won", "n_melds": "n_melds"}
    per_seat.update({"void_of": "void"} if name == "BOBS" else {"riichi_of": "riichi"})
    seat_blocks = {"melds_of": ("melds", 34 if name == "BOBS" else 8)}
    seat_blocks.update({"river": ("river", 34)} if name == "BOBS" else
                       {"meld_tiles": ("meld_tiles", 34), "discarded": ("discarded", 34), "safe_against": ("safe", 34)})
    for seat in range(4):
        for accessor, field in per_seat.items():
            assert getattr(module, accessor)(obs, seat) == obs[getattr(layout, field) + seat], accessor
        for accessor, (field, width) in seat_blocks.items():
            view = getattr(module, accessor)(obs, seat)
            start = getattr(layout, field) + width * seat
            np.testing.assert_array_equal(view, obs[start:start + width], err_msg=accessor)
            assert np.shares_memory(view, obs), accessor
    if name == "ROBS":
        obs[layout.n_dora] = 2
        np.testing.assert_array_equal(module.dora_indicators(obs), obs[layout.dora:layout.dora + 2])


# ----------------------------------------------------------------------------- the built-in policies
def _policy_sources() -> dict[str, ast.Module]:
    root = Path(str(files("tsumolab.policies")))
    return {f"tsumolab.policies.{path.stem}": ast.parse(path.read_text()) for path in root.glob("*.py")
            if path.stem != "__init__"}


def _imports(tree) -> list[tuple[str, str, str]]:
    """(module, name, local name) of every `from … import …` (any scope); (module, "", local) for a module."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                found.append((node.module, alias.name, alias.asname or alias.name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                found.append((alias.name, "", alias.asname or alias.name.split(".")[0]))
    return found


def _layouts_named(module: str, name: str) -> set[str]:
    """The layouts an imported name reads: a layout itself, an accessor, or a whole observation module."""
    layout = LAYOUT_MODULES.get(module)
    if layout is None and module == "tsumolab.policies" and f"tsumolab.policies.{name}" in LAYOUT_MODULES:
        return {LAYOUT_MODULES[f"tsumolab.policies.{name}"]}  # `from policies import riichi_api`
    if layout is None:
        return set()
    if name in ("", "*") or name in ("BOBS", "ROBS") or module.startswith("sims."):
        return {layout}
    return {layout} if name in API[layout].OBSERVATION_NAMES else set()


def _module_families() -> dict[str, set[str]]:
    """Built-in policy module → the engine families its registered policies play."""
    families = {}
    for name in BUILTIN_MODULES:
        module = importlib.import_module(name)
        policies = list(getattr(module, "POLICIES", ())) + ([module.POLICY] if hasattr(module, "POLICY") else [])
        families[name] = {_family_of_mode(slug) for policy in policies for slug in policy.modes}
    return families


def test_policy_modules_import_only_the_layout_of_the_engines_they_play():
    """A module registered only for Bloodshed imports neither ROBS nor policies.riichi_api (nor the riichi
    observation module), and one registered only for riichi-based modes neither BOBS nor a Bloodshed accessor."""
    sources = _policy_sources()
    problems = []
    for name, families in _module_families().items():
        for module, imported, _ in _imports(sources[name]):
            riichi_import = (module in ("tsumolab.policies.riichi_api", "tsumolab.sims.riichi.observation")
                             or imported == "ROBS" or (module == "tsumolab.policies" and imported == "riichi_api"))
            if "riichi" not in families and (riichi_import or "ROBS" in _layouts_named(module, imported)):
                problems.append(f"{name} (Bloodshed only) imports {imported or module} from {module}")
            if "bloodshed" not in families and "BOBS" in _layouts_named(module, imported):
                problems.append(f"{name} (riichi only) imports {imported or module} from {module}")
    assert not problems, problems


def _layout_reach() -> dict[tuple[str, str], set[str]]:
    """(module, top-level function or constant) of the policies package → the layouts it reads, following the
    calls and names it takes from other policy modules."""
    sources = _policy_sources()
    direct, edges = {}, {}
    for module, tree in sources.items():
        local = {}  # local name → ("layout", layouts) | ("ref", (module, name)) | ("module", module)
        for source, imported, as_name in _imports(tree):
            layouts = _layouts_named(source, imported)
            if layouts:
                local[as_name] = ("layout", layouts)
            elif source in sources and imported:
                local[as_name] = ("ref", (source, imported))
            elif source == "tsumolab.policies" and f"tsumolab.policies.{imported}" in sources:
                local[as_name] = ("module", f"tsumolab.policies.{imported}")
        defined = {}
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                defined[node.name] = node
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        defined[target.id] = node
        for name, node in defined.items():
            key = (module, name)
            direct[key], edges[key] = set(), set()
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name):
                    kind, value = local.get(sub.id, (None, None))
                    if kind == "layout":
                        direct[key] |= value
                    elif kind == "ref":
                        edges[key].add(value)
                    elif sub.id in defined and sub.id != name:
                        edges[key].add((module, sub.id))
                elif isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
                    kind, value = local.get(sub.value.id, (None, None))
                    if kind == "module":
                        edges[key].add((value, sub.attr))
                    elif kind == "layout" and sub.value.id not in ("BOBS", "ROBS"):
                        direct[key] |= value  # riichi_api.ROBS, api.own_hand …
    reach = {}

    def visit(key, stack=()):
        if key in reach:
            return reach[key]
        if key in stack or key not in direct:
            return set()
        found = set(direct[key])
        for nxt in edges[key]:
            found |= visit(nxt, stack + (key,))
        reach[key] = found
        return found

    for key in direct:
        visit(key)
    return reach


def test_every_hook_reaches_only_its_engines_layout():
    """Bloodshed hooks (a policy's `hooks`) read BOBS only, riichi hooks (`riichi_hooks`) ROBS only, through
    every policy function they call."""
    reach = _layout_reach()
    problems, checked = [], 0
    for name in BUILTIN_MODULES:
        module = importlib.import_module(name)
        for policy in list(getattr(module, "POLICIES", ())) + ([module.POLICY] if hasattr(module, "POLICY") else []):
            for hooks, layout in ((policy.hooks, "BOBS"), (policy.riichi_hooks, "ROBS")):
                for hook_name, fn in hooks.items():
                    key = (fn.py_func.__module__, fn.py_func.__name__)
                    assert key in reach, key
                    checked += 1
                    if reach[key] - {layout}:
                        problems.append(f"{policy.name} {FAMILY[layout]} hook {hook_name} ({key[0]}.{key[1]}) "
                                        f"reads {sorted(reach[key])}")
    assert checked > 40
    assert not problems, problems


def test_the_reach_check_sees_a_wrong_layout():
    """The check above would catch a riichi hook that reads the Bloodshed layout through a helper."""
    reach = _layout_reach()
    assert reach[("tsumolab.policies.common", "own_void")] == {"BOBS"}
    assert reach[("tsumolab.policies.riichi_common", "n_melds_of")] == {"ROBS"}
    assert reach[("tsumolab.policies.baseline", "play_turn")] == {"BOBS"}  # through policies.common
    assert reach[("tsumolab.policies.riichi_baseline", "riichi_turn")] == {"ROBS"}


def test_mode_blocks_fit_their_fields():
    """The special modes lay out their public blocks in their own modules (module-local offsets, e.g.
    sims.riichi.darkness_pot DK_*); each fits the width ROBS declares for it."""
    from tsumolab.sims.riichi import astrology_pool, darkness_pot, dragon_eye_holder, mirror_tiles, soul_strike_turns

    rob = {name: width for name, _, width, _ in describe(LAYOUTS["ROBS"])}
    assert astrology_pool.A_REFILL + 1 <= rob["astrology"]
    assert darkness_pot.DK_SIZE <= rob["darkness"]
    assert mirror_tiles.MIR_SIZE <= rob["mirror"]
    assert soul_strike_turns.SS_KAN + 4 <= rob["soul_strike"]
    assert dragon_eye_holder.EYE_PLACED + 1 <= rob["dragon_eye"]
