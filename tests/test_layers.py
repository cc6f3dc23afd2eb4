"""One direction between the layers: the import graph of analyzer, reports, policies and sims has no cycle
between layers, and no module-level cycle in the analyzer or reports layers.

Layers, top to bottom: the front end (the `tsumolab` commands, the click group and analyzer.api) → reports
(which read what the analyzer writes) → analyzer (simulation runs, experiments, tables) → policies → sims (the
engines take seats through sims.seating and define the decision codes and observation layouts themselves,
which policies re-export).

Imports are read from the source with `ast`: module-level and function-level ones, and
`importlib.import_module("…")` / `importlib.util.find_spec("…")` with a literal name, which hide a
dependency from a plain grep of `import` lines.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

PACKAGES = ("analyzer", "reports", "policies", "sims")
LAYERS = ("front", "reports", "analyzer", "policies", "sims")
"""top to bottom: a layer may import the layers after it, never one before it"""
DYNAMIC_IMPORTERS = {"import_module", "find_spec"}


def package_modules() -> dict[str, Path]:
    """module name → source file of every module of the four packages."""
    modules = {}
    for package in PACKAGES:
        root = Path(str(files(package)))
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
    """module → the modules of the four packages it imports (a name resolves to its longest known prefix)."""
    modules = package_modules()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for module, path in modules.items():
        targets = {known(name) for name in imported_names(module, path)}
        graph[module] = {t for t in targets if t is not None and t != module}
    return graph


def layer(module: str) -> str:
    package, _, rest = module.partition(".")
    if package == "analyzer" and (rest in ("api", "cli", "__main__") or rest.endswith("_cmd")):
        return "front"
    return package


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

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_layer_imports_a_layer_above_it():
    rank = {name: i for i, name in enumerate(LAYERS)}
    upward = sorted(f"{a} ({layer(a)}) imports {b} ({layer(b)})"
                    for a, targets in import_graph().items() for b in targets
                    if rank[layer(b)] < rank[layer(a)])
    assert upward == []


def test_no_import_cycle_in_the_analyzer_and_reports_layers():
    graph = import_graph()
    ours = [c for c in cycles(graph) if any(layer(m) in ("front", "reports", "analyzer") for m in c)]
    assert ours == []


def test_the_checker_sees_lazy_and_importlib_imports(tmp_path):
    """The check can fail: the old claims → reports.render hook (an importlib import) is a cycle it finds."""
    source = tmp_path / "claims.py"
    source.write_text("import importlib\n\ndef hook():\n    from reports import render\n"
                      "    return importlib.import_module('reports.render')\n")
    assert {"reports", "reports.render", "importlib"} <= imported_names("analyzer.claims", source)
    graph = {"analyzer.claims": {"reports.render"}, "reports.render": {"reports.data"},
             "reports.data": {"analyzer.claims"}}
    assert cycles(graph) == [["analyzer.claims", "reports.data", "reports.render"]]


def test_importing_every_sims_module_loads_no_upper_layer():
    """At run time too: importing all of sims (every mode module included) leaves policies, analyzer and
    reports unloaded."""
    modules = sorted(name for name in package_modules() if name.startswith("sims"))
    code = ("import importlib, sys\n"
            f"for name in {modules!r}:\n    importlib.import_module(name)\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'policies', 'analyzer', 'reports'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stderr
