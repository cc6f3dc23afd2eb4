"""Layering (PREAMBLE, issue 14): `policies` may import `sims`, never `analyzer` or `reports`; `sims` imports none
of `analyzer`, `reports` and `policies` — the engines take seats through sims.seating and define the decision
codes and observation layouts themselves (sims.decisions, sims.*.observation), which policies re-export."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"sims": {"analyzer", "reports", "policies"}, "policies": {"analyzer", "reports"}}


def imported_packages(path: Path) -> list[tuple[int, str]]:
    """(line, top-level package) of every import statement in a file, function-level imports included."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_only_the_layers_below_it(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert len(files) > 5
    wrong = [f"{path.relative_to(ROOT)}:{line} imports {name}" for path in files
             for line, name in imported_packages(path) if name in FORBIDDEN[package]]
    assert wrong == []


def test_the_scan_sees_function_level_imports(tmp_path):
    """The check above can fail: an import inside a function is found like one at the top."""
    source = tmp_path / "m.py"
    source.write_text("import numpy\n\ndef f():\n    from policies.registry import get\n")
    assert imported_packages(source) == [(1, "numpy"), (4, "policies")]


def test_importing_every_sims_module_loads_no_upper_layer():
    """At run time too: importing all of sims (every mode module included) leaves policies, analyzer and
    reports unloaded."""
    modules = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                     for p in (ROOT / "sims").rglob("*.py"))
    code = ("import importlib, sys\n"
            f"for name in {modules!r}:\n    importlib.import_module(name)\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'policies', 'analyzer', 'reports'}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stderr
