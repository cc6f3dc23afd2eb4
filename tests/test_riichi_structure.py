"""How the riichi engine is put together: the special modes act only through sims.riichi.mode_phases, the
state block is documented field by field, no function is a wall of code, each mode packs its own options."""

from __future__ import annotations

import ast
import importlib.resources
import pathlib
import re

from tsumolab.sims.layout import describe
from tsumolab.sims.riichi import rules as T
from tsumolab.sims.riichi.hand_state import HS


SPECIAL_MODES = ("FATE", "OPEN_DEAL", "CHANT", "ASTROLOGY", "DARKNESS", "MIRROR", "HEAD_BUMP", "SOUL_STRIKE",
                 "FANTASY", "DRAGON_EYE")
MODE_MODULES = ("astrology_pool", "chant_streaks", "darkness_pot", "deal_shown", "dragon_eye_holder", "fantasy_cards",
                "fate_tiles", "mirror_tiles", "soul_strike_turns")
# rule options of every riichi table (not modes) that the engine may still read: the red fives and the initial
# indicators, honba and renchan, the number of hands and the extension, the start points,
# pao, the four-riichi abort and honba rules (R-6 / S-16), Shura's bloodbath and exchange (S-*)
ENGINE_TABLE_OPTIONS = {"START_POINTS", "BLOODBATH", "EXCHANGE", "RENCHAN", "HONBA", "EXTENSION", "PAO",
                        "FOUR_RIICHI_ACTIVE", "N_HANDS", "RED_FIVES", "INITIAL_DORA", "HONBA_EVERY_WINNER"}


def _source(module: str) -> str:
    return importlib.resources.files("tsumolab.sims.riichi").joinpath(f"{module}.py").read_text()


def test_engine_names_no_special_mode():
    """Every special mode (A, C, D, DE, F, FL, M, OD, SS) acts through sims.riichi.mode_phases: the engine
    body tests no mode option and imports no mode module; the dispatch points run uncounted (`step`) or
    become part of their caller (`inline`)."""
    engine = _source("engine")
    named = re.findall(r"T\.T_(" + "|".join(SPECIAL_MODES) + r")\b", engine)
    assert named == []
    assert set(re.findall(r"T\.T_([A-Z_0-9]+)", engine)) <= ENGINE_TABLE_OPTIONS
    for module in MODE_MODULES:
        assert f"tsumolab.sims.riichi.{module}" not in engine, module
    phases = _source("mode_phases")
    for module in MODE_MODULES:
        assert f"tsumolab.sims.riichi.{module}" in phases, module
    tree = ast.parse(phases)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            decorators = {ast.unparse(d) for d in node.decorator_list}
            assert decorators in ({"step"}, {"inline"}), (node.name, decorators)


def test_engine_functions_stay_short():
    """No function of the engine is longer than 150 lines (the whole hand was one 718-line function)."""
    tree = ast.parse(_source("engine"))
    lengths = {node.name: node.end_lineno - node.lineno + 1 for node in ast.walk(tree)
               if isinstance(node, ast.FunctionDef)}
    assert max(lengths.values()) <= 150, max(lengths.items(), key=lambda item: item[1])


def test_hand_state_fields_are_documented_and_laid_end_to_end():
    fields = describe(HS)
    assert all(doc.strip() for _, _, _, doc in fields)
    assert [offset for _, offset, _, _ in fields] == [sum(w for _, _, w, _ in fields[:i]) for i in range(len(fields))]
    assert HS.SIZE == sum(w for _, _, w, _ in fields)


def test_modes_pack_their_own_options():
    """FL and DE write their table slots themselves (sims.riichi.fantasy_cards / dragon_eye_holder), in the
    layout their kernels read."""
    from tsumolab.sims.riichi import fantasy_cards as F

    arr = T.FantasyRules(cards="hype,golden,hourglass", love_pot="discarder", hype_max=2,
                         confiscate_abortive=False).to_array()
    flags = arr[T.T_FANTASY]
    assert flags & F.FLB_ON and flags & F.FLB_LOVE_DISCARDER and not flags & F.FLB_CONFISCATE_ABORTIVE
    assert flags >> F.FLB_HYPE_SHIFT == 2
    assert list(arr[T.T_FANTASY + 1:T.T_FANTASY + 4]) == list(T.parse_fantasy_cards("hype,golden,hourglass"))
    assert list(T.STANDARD.to_array()[T.T_FANTASY:T.T_FANTASY + 4]) == [0, 0, 0, 0]
    eye = T.DragonEyeRules(eye_counter=3, eye_multiplier=4, eye_other_seat=True).to_array()
    assert list(eye[T.T_DRAGON_EYE:T.T_DRAGON_EYE + 4]) == [1, 3, 4, 1]
    assert T.AstrologyRules(astrology_floor=0).to_array()[T.T_ASTROLOGY] == 1
    assert T.STANDARD.to_array()[T.T_ASTROLOGY] == 0


def _sims_modules():
    """module → (its functions: name → (decorator names, node), its imported names: local → (module, name))."""
    root = pathlib.Path(str(importlib.resources.files("tsumolab.sims"))).parent
    modules = {}
    for path in sorted(root.joinpath("sims").rglob("*.py")):
        name = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        tree = ast.parse(path.read_text())
        functions = {node.name: ({ast.unparse(d).split("(")[0] for d in node.decorator_list}, node)
                     for node in tree.body if isinstance(node, ast.FunctionDef)}
        imported = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tsumolab.sims"):
                for alias in node.names:
                    imported[alias.asname or alias.name] = (node.module, alias.name)
        modules[name] = (functions, imported)
    return modules


def _resolve(modules, module, name, depth=0):
    """(module, function) that `name` names in `module`, following imports; None outside sims."""
    if module not in modules or depth > 5:
        return None
    functions, imported = modules[module]
    if name in functions:
        return module, name
    if name in imported:
        source, original = imported[name]
        if f"{source}.{original}" in modules:
            return None  # a module, not a function
        return _resolve(modules, source, original, depth + 1)
    return None


def _allocates(node) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            name = ast.unparse(sub.func)
            if name in ("np.zeros", "np.empty", "np.ones", "np.full", "np.array", "np.arange",
                        "np.concatenate") or name.endswith(".copy"):
                return True
        if isinstance(sub, ast.Assign) and isinstance(sub.targets[0], ast.Subscript) and \
                isinstance(sub.targets[0].slice, ast.Slice) and isinstance(sub.value, (ast.Subscript, ast.Name)):
            return True  # a slice assigned from an array needs a counted temporary
    return False


def _returns_view(node) -> bool:
    return any(isinstance(sub, ast.Return) and sub.value is not None and (
        (isinstance(sub.value, ast.Subscript) and isinstance(sub.value.slice, ast.Slice)) or
        (isinstance(sub.value, ast.Call) and ast.unparse(sub.value.func).split(".")[-1] in ("reshape", "view")))
        for sub in ast.walk(node))


def test_uncounted_steps_reach_only_safe_functions():
    """sims.jit: whatever an engine `step` calls (directly or not) either allocates nothing or is declared
    `allocates`, and returns no view unless it is `inline`; otherwise numba's reference counts would depend
    on which caller compiled a function first."""
    modules = _sims_modules()
    todo = [(module, name) for module, (functions, _) in modules.items()
            for name, (decorators, _) in functions.items() if "step" in decorators]
    assert len(todo) >= 10
    seen = set()
    problems = []
    while todo:
        key = todo.pop()
        if key in seen:
            continue
        seen.add(key)
        module, name = key
        decorators, node = modules[module][0][name]
        if "allocates" in decorators:
            continue
        if _allocates(node):
            problems.append(f"{module}.{name} allocates but is not declared `allocates`")
        if _returns_view(node) and "inline" not in decorators:
            problems.append(f"{module}.{name} returns a view but is not `inline`")
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                func = sub.func
                if isinstance(func, ast.Name):
                    target = _resolve(modules, module, func.id)
                elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                    alias = modules[module][1].get(func.value.id)
                    target = _resolve(modules, f"{alias[0]}.{alias[1]}", func.attr) if alias else None
                else:
                    target = None
                if target:
                    todo.append(target)
    assert len(seen) > 40
    assert not problems, problems
