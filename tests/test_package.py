"""tsumolab works as an installed wheel, outside the repository.

The wheel is built the way a user builds it (`pip wheel . --no-deps`, from a copy of the packaged sources so
the checkout stays clean). The fast test checks its file list against the data files the code reads through
importlib.resources; the slow one installs it into a fresh virtualenv and runs the main commands from another
directory, where no path into the checkout can help.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from importlib.resources import files
from pathlib import Path

import pytest

from tsumolab.analyzer import package_files
from tsumolab.analyzer.version import code_version

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"front": "tsumolab", "analyzer": "tsumolab/analyzer", "sims": "tsumolab/sims",
           "policies": "tsumolab/policies", "reports": "tsumolab/reports"}
"""repository folder → where it installs (pyproject.toml [tool.setuptools.package-dir])"""
PROJECT_FILES = ("pyproject.toml", "README.md")
QUICK = {"timeout": 1800, "capture_output": True, "text": True}  # a cold compile on a busy machine


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in PROJECT_FILES:
        shutil.copy(ROOT / name, source / name)
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--quiet",
                            "--wheel-dir", str(out)], **QUICK)
    assert built.returncode == 0, built.stderr[-3000:]
    (path,) = out.glob("tsumolab-*.whl")
    return path


def _data_files(folder: str) -> list[Path]:
    """The files under a repository folder of the packages that are not Python source: package data."""
    return [path for path in (ROOT / folder).rglob("*")
            if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts]


def test_wheel_ships_every_data_file_the_code_reads(wheel):
    """Every file under the packages that is not Python source is package data the code opens; each one, and
    each name the code asks importlib.resources for, is in the wheel."""
    names = set(zipfile.ZipFile(wheel).namelist())
    data_files = {f"{installed}/{path.relative_to(ROOT / folder).as_posix()}" for folder, installed in FOLDERS.items()
                  for path in _data_files(folder)}
    assert data_files, "the packages hold data files (experiment TOML files, the regress baseline)"
    assert sorted(data_files - names) == []
    opened = [package_files.regress_baseline_path(), package_files.catalog_path("zh"), package_files.catalog_path("ja"),
              *package_files.experiments_dir().glob("*.toml"),
              *package_files.experiments_dir().joinpath("extra").glob("*.toml")]
    root = Path(str(files(package_files.PACKAGE)))
    shipped = [f"tsumolab/analyzer/{p.relative_to(root).as_posix()}" for p in opened]
    assert sorted(set(shipped) - names) == []
    globbed = {n for n in names for pattern in package_files.DATA_GLOBS
               if fnmatch.fnmatch(n, pattern)}
    assert globbed == {n for n in names if not n.endswith(".py") and ".dist-info/" not in n}


def test_the_wheel_installs_one_top_level_name(wheel):
    """`pip install tsumolab` adds `tsumolab` (and its metadata) to site-packages and no other name."""
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert tops == {"tsumolab", f"tsumolab-{code_version()}.dist-info"}


def test_pyproject_lists_every_package_folder():
    """The packages pyproject.toml installs are exactly the folders holding an __init__.py or package data, each
    under the installed name its folder maps to."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join([FOLDERS[folder].replace("/", "."), *path.parent.relative_to(ROOT / folder).parts])
             for folder in FOLDERS for path in [*(ROOT / folder).rglob("__init__.py"), *_data_files(folder)]}
    assert listed == found


def test_wheel_metadata_version_is_the_code_version(wheel):
    """One version: the wheel's metadata, `tsumolab --version` and what run records store."""
    metadata = zipfile.ZipFile(wheel).read(f"tsumolab-{code_version()}.dist-info/METADATA").decode()
    assert f"\nVersion: {code_version()}\n" in metadata
    assert "Requires-Python: <3.14,>=3.11" in metadata or "Requires-Python: >=3.11,<3.14" in metadata


@pytest.fixture(scope="session")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh virtualenv holding only the wheel; its dependencies come from this interpreter's site-packages
    (appended to sys.path by a .pth file, so no index is needed). Returns the venv's bin directory."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    bin_dir = venv / "bin"
    site = Path(subprocess.run([bin_dir / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, **{k: v for k, v in QUICK.items() if k != "timeout"}).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), "install",
                           "--no-deps", "--no-index", "--quiet", str(wheel)], **QUICK)
    assert done.returncode == 0, done.stderr[-3000:]
    return bin_dir


def _tsumolab(bin_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run([str(bin_dir / "tsumolab"), *args], cwd=cwd, env=env, **QUICK)


@pytest.mark.slow
def test_installed_wheel_runs_demo_claims_regress_and_report(installed, tmp_path):
    """From a directory outside the checkout: the modules load from the wheel, and demo, claims --only B4,
    regress and report find their data files (the failures of issue 18 before the files shipped)."""
    probe = "import tsumolab.analyzer, tsumolab.sims; print(tsumolab.analyzer.__file__, tsumolab.sims.__file__)"
    where = subprocess.run([installed / "python", "-c", probe],
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert str(ROOT) not in where and str(installed.parent) in where

    version = _tsumolab(installed, tmp_path, "--version")
    assert version.returncode == 0 and version.stdout.strip().endswith(code_version())

    demo = _tsumolab(installed, tmp_path, "demo", "--matches", "80", "--only", "B4", "--jobs", "1", "--out", "demo")
    assert demo.returncode == 0, demo.stderr[-3000:]
    assert "Claims study: 1 claims" in demo.stdout and (tmp_path / "demo" / "report.html").is_file()
    last = demo.stdout.strip().splitlines()[-1]   # issue 32: where the first run's time went
    parts = ("start-up", "compile or load", "example hands", "simulation", "reports")
    assert last.startswith("Time: ") and all(f"{part} " in last for part in parts), last
    assert last.endswith("; kernels compiled on this machine"), last  # a plain wheel ships none

    claims = _tsumolab(installed, tmp_path, "claims", "--only", "B4", "--matches", "200", "--out", "b4",
                       "--no-report")
    assert claims.returncode == 0, claims.stderr[-3000:]
    assert any(line.startswith("B4 ") for line in claims.stdout.splitlines())

    regress = _tsumolab(installed, tmp_path, "regress", "--matches", "200")
    assert regress.returncode == 0, regress.stdout[-3000:] + regress.stderr[-3000:]
    assert "metrics differ" in regress.stdout

    report = _tsumolab(installed, tmp_path, "report", "b4", "--lang", "en,zh,ja")
    assert report.returncode == 0, report.stderr[-3000:]
    assert (tmp_path / "b4" / "report.html").is_file() and (tmp_path / "b4" / "report.pdf").is_file()
    # the catalogs ship in the wheel: the Chinese and Japanese reports are translated outside the checkout
    assert "赤羽之战" in (tmp_path / "b4" / "report.zh.html").read_text(encoding="utf-8")
    assert "赤血の戦" in (tmp_path / "b4" / "report.ja.html").read_text(encoding="utf-8")
    assert not (ROOT / "demo").exists() and not (ROOT / "b4").exists()
