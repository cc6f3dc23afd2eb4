"""The version of tsumolab, from one place: the installed package's metadata (pyproject.toml's `version`).

`tsumolab --version`, run records (run.json, Parquet metadata), claims tables, regress baselines and reports
all show this same string.
"""

from __future__ import annotations

from importlib import metadata

DISTRIBUTION = "tsumolab"


def code_version() -> str:
    """The installed tsumolab's version, e.g. `0.1.0`; `unknown` when the package is not installed (the
    sources were put on sys.path by hand), so that no record ever claims a version it cannot know."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"
