"""One direction between the layers, and no import cycle anywhere in tsumolab.

Layers, top to bottom, each a folder of the repository and a subpackage of `tsumolab`:
- front (front/ = `tsumolab`: the Python API, the click group, tsumolab.commands),
- reports (tsumolab.reports: read what the analysis writes),
- analyzer (tsumolab.analyzer: runs, claims, decisions, advise, search, regress, replay, bench),
- policies (tsumolab.policies: the bot policies),
- sims (tsumolab.sims: the engine families and the modes table; the engines take seats through sims.seating and
  define the decision codes and observation layouts themselves, which policies re-export).
A layer may import the layers after it, never one before it, and no module takes part in an import cycle.

Imports are read from the source with `ast`: module-level and function-level ones, and
`importlib.import_module("…")` / `importlib.util.find_spec("…")` with a literal name, which hide a dependency
from a plain grep of `import` lines.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

LAYERS = ("front", "reports", "analyzer", "policies", "sims")
"""top to bottom: a layer may import the layers after it, never one before it"""
LOWER_LAYERS = LAYERS[1:]
DYNAMIC_IMPORTERS = {"import_module", "find_spec"}


def package_modules() -> dict[str, Path]:
    """module name → source file of every module of tsumolab."""
    roots = {"tsumolab": Path(str(files("tsumolab")))}
    roots.update({f"tsumolab.{name}": Path(str(files(f"tsumolab.{name}"))) for name in LOWER_LAYERS})
    modules = {}
    for package, root in roots.items():
        for path in root.rglob("*.py"):
            parts = [package, *path.relative_to(root).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imported_names(module: str, path: Path) -> set[str]:
    """Every module name `module` imports, absolute, including lazy and literal importlib imports."""
    names = set()
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")[: len(module.split(".")) - node.level + is_package]
                base = ".".join([*parent, base] if base else parent)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", None)) in DYNAMIC_IMPORTERS):
            names.add(node.args[0].value)
    return names


def import_graph() -> dict[str, set[str]]:
    """module → the tsumolab modules it imports (a name resolves to its longest known prefix; importing a
    package's name alone counts as importing its __init__, which the package's own modules are not)."""
    modules = package_modules()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for module, path in modules.items():
        targets = {known(name) for name in imported_names(module, path)}
        graph[module] = {t for t in targets if t is not None and t != module and not module.startswith(f"{t}.")}
    return graph


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LOWER_LAYERS else "front"


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_folder_is_a_layer_and_every_module_is_seen():
    modules = package_modules()
    assert {layer(m) for m in modules} == set(LAYERS)
    assert len(modules) > 200 and "tsumolab.sims.modes" in modules and "tsumolab.cli" in modules


def test_no_layer_imports_a_layer_above_it():
    rank = {name: i for i, name in enumerate(LAYERS)}
    upward = sorted(f"{a} ({layer(a)}) imports {b} ({layer(b)})"
                    for a, targets in import_graph().items() for b in targets
                    if rank[layer(b)] < rank[layer(a)])
    assert upward == []


def test_no_import_cycle_in_any_package():
    """Every module of every layer, sims and policies included, lazy imports counted."""
    assert cycles(import_graph()) == []


def test_the_checker_sees_lazy_and_importlib_imports(tmp_path):
    """The check can fail: a lazy claims → reports.render hook (an importlib import) is a cycle it finds."""
    source = tmp_path / "study.py"
    source.write_text("import importlib\n\ndef hook():\n    from tsumolab.reports import render\n"
                      "    return importlib.import_module('tsumolab.reports.render')\n")
    assert {"tsumolab.reports", "tsumolab.reports.render", "importlib"} <= imported_names(
        "tsumolab.analyzer.claims.study", source)
    study, render, data = "tsumolab.analyzer.claims.study", "tsumolab.reports.render", "tsumolab.reports.data"
    graph = {study: {render}, render: {data}, data: {study}}
    assert cycles(graph) == [[study, data, render]]
    assert layer(study) == "analyzer" and layer("tsumolab.commands.run") == "front" and layer("tsumolab") == "front"


def test_importing_every_sims_module_loads_no_upper_layer():
    """At run time too: importing all of sims (the modes table included) leaves policies, analyzer, reports and
    the Python API unloaded."""
    modules = sorted(name for name in package_modules() if layer(name) == "sims")
    code = ("import importlib, sys\n"
            f"for name in {modules!r}:\n    importlib.import_module(name)\n"
            "print(sorted({'.'.join(m.split('.')[:2]) for m in sys.modules if m.startswith('tsumolab.')}"
            " - {'tsumolab.sims'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stderr


def test_nothing_imports_a_folder_by_its_bare_name():
    """Inside a checkout `import sims` would load a second copy of the engines beside tsumolab.sims: every module
    and test imports the installed names only."""
    folders = ("front", *LOWER_LAYERS)
    root = Path(__file__).resolve().parent.parent
    bare = sorted(f"{path.relative_to(root)}: {name}"
                  for path in [*root.joinpath("tests").glob("*.py"), *package_modules().values()]
                  for name in imported_names("tests.x", path) if name.split(".")[0] in folders)
    assert bare == []
