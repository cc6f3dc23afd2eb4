"""Data files that ship inside the installed package, found through importlib.resources.

The CLI reads experiment files, the regress baseline, the reports' message catalogs (gettext .po files,
compiled on first use by analyzer.po) and the rules document sims/RULES.md (analyzer.rule_book) at run time.
They are package data (pyproject.toml `[tool.setuptools.package-data]`), so they sit beside the modules wherever
tsumolab is installed: in a wheel installed into any virtualenv as well as in a checkout. No path here is
relative to a checkout.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

PACKAGE = "tsumolab.analyzer"
EXPERIMENTS = "experiments"
REGRESS_BASELINE = "regress-{mode}.json"
"""one baseline per mode: regress-bloodshed.json, regress-riichi.json, …"""
LOCALE = "locale"
CATALOG_DOMAIN = "tsumolab"
DATA_GLOBS = ("tsumolab/analyzer/experiments/*.toml", "tsumolab/analyzer/experiments/extra/*.toml",
              "tsumolab/analyzer/experiments/*.json", "tsumolab/analyzer/locale/*/LC_MESSAGES/*.po",
              "tsumolab/sims/RULES.md", "tsumolab/sims/bloodshed/progress-*.npy", "tsumolab/sims/riichi/progress-*.npy",
              "tsumolab/policies/human-discards.npz")
"""every data file of the packages as installed, as pyproject.toml lists them under package-data"""


def package_path(*parts: str) -> Path:
    """File system path of a data file or folder of the installed `tsumolab.analyzer` package.

    tsumolab is installed as plain files (numba's compiled-kernel cache needs them too), so the resource is a
    real path; a zipped installation is refused with a clear message rather than half working."""
    resource = files(PACKAGE).joinpath(*parts)
    if not isinstance(resource, Path):
        raise RuntimeError(f"tsumolab must be installed as files, not zipped: {resource} is not on the file system")
    return resource


def experiments_dir() -> Path:
    """The folder of the experiment files (one TOML file per claim; `extra/` holds the beyond-the-sources ones)."""
    return package_path(EXPERIMENTS)


def regress_baseline_path(mode: str = "bloodshed") -> Path:
    """The stored baseline of `tsumolab regress` for one mode."""
    return package_path(EXPERIMENTS, REGRESS_BASELINE.format(mode=mode))


def catalog_path(lang: str) -> Path:
    """The gettext catalog (.po) of a report language: locale/<lang>/LC_MESSAGES/tsumolab.po."""
    return package_path(LOCALE, lang, "LC_MESSAGES", f"{CATALOG_DOMAIN}.po")
