"""tsumolab: Monte Carlo strategy analyzer for the special rule modes of Mahjong Soul.

`import tsumolab` is the Python API (tsumolab.api): `tsumolab.run(...)`, `tsumolab.claims(...)`, … The layers
below it are subpackages, each importing only the ones after it: tsumolab.commands (the command line),
tsumolab.reports, tsumolab.analyzer, tsumolab.policies, tsumolab.sims. The API is loaded on first use, so that
importing an engine module does not load the layers above it.
"""

from __future__ import annotations

import importlib
import time

_API = "tsumolab.api"
IMPORTED_AT = time.perf_counter()
"""When tsumolab was first imported: `tsumolab demo` counts its start-up (imports, kernels compiled as their
modules load) from here."""


def __getattr__(name: str):
    api = importlib.import_module(_API)
    if name == "api":
        return api
    if name in api.__all__:
        return getattr(api, name)
    raise AttributeError(f"module 'tsumolab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), "api", *importlib.import_module(_API).__all__])
