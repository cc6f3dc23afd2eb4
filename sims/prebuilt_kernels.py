"""Kernels compiled when the wheel was built, so that a fresh install runs at once instead of compiling.

A wheel made by `make wheel` (analyzer.prebuild) carries numba's cache of every shipped kernel in
`tsumolab/kernels/`, compiled for a portable CPU target (x86-64-v3: AVX2, BMI2, FMA; about 3–10% slower than
code compiled for the machine itself) and described by `manifest.json`. At import (sims/__init__.py), when they
are usable, they get a kernel cache directory of their own (numba-<digest>-x86-64-v3): `use()` copies those cache
files into it and has numba compile for that same target. They are usable only when every part of the manifest
matches this installation: the kernel sources (their digest), the numba version, the Python
version, the machine architecture, and a CPU with every feature the target needs. Otherwise nothing is copied and
numba compiles for this machine as it would without them; numba itself also refuses any cache entry of another
source content, numba version or CPU target (sims.compile_cache).

TSUMOLAB_KERNELS=host ignores the shipped kernels (compile for this machine's CPU, for the last few percent of
speed in long runs), and so does a NUMBA_CPU_NAME of one's own.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
from importlib.resources import files
from pathlib import Path

PORTABLE_CPU = "x86-64-v3"
PORTABLE_FEATURES = ("cx16", "sahf", "popcnt", "sse3", "ssse3", "sse4.1", "sse4.2",  # x86-64-v2
                     "avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave")  # and v3
"""the CPU features (LLVM's names) the x86-64-v3 target assumes; a CPU lacking one cannot run its code"""
MANIFEST = "manifest.json"
CACHE = "numba"
"""the folder of kernels/ holding numba's cache files, by package name"""


def python_tag() -> str:
    return f"cp{sys.version_info[0]}{sys.version_info[1]}"


def this_installation(source_digest: str) -> dict:
    """The manifest a shipped cache must have to be used here (and the one analyzer.prebuild writes)."""
    import numba

    return {"source_digest": source_digest, "numba": numba.__version__, "python": python_tag(),
            "machine": platform.machine(), "cpu": PORTABLE_CPU}


def host_features() -> dict[str, bool]:
    """This CPU's features by LLVM's names."""
    import llvmlite.binding as llvm

    return dict(llvm.get_host_cpu_features())


def missing_features(host_features: dict[str, bool]) -> list[str]:
    """The portable target's CPU features that `host_features` (llvmlite's map, name → present) lacks."""
    return [name for name in PORTABLE_FEATURES if not host_features.get(name, False)]


def mismatch(manifest: dict, here: dict, host_features: dict[str, bool]) -> str | None:
    """Why a shipped cache described by `manifest` cannot be used in the installation `here` (this_installation)
    on a CPU with `host_features`, in words; None when it can."""
    names = {"source_digest": "kernel sources", "numba": "numba", "python": "Python", "machine": "machine",
             "cpu": "CPU target"}
    for key, name in names.items():
        if manifest.get(key) != here[key]:
            return f"built for {name} {manifest.get(key)}, here {here[key]}"
    lacking = missing_features(host_features)
    if lacking:
        return f"this CPU lacks {', '.join(lacking)}"
    return None


def shipped() -> Path | None:
    """The kernels/ folder of this installation (a wheel from `make wheel`), or None."""
    folder = files("tsumolab").joinpath("kernels")
    return Path(str(folder)) if folder.joinpath(MANIFEST).is_file() else None


def status(source_digest: str | None = None) -> str:
    """How this installation gets its kernels, in words (for `tsumolab bench` and the demo's timing line);
    `source_digest` defaults to that of the installed sources."""
    folder = shipped()
    if folder is None:
        return "compiled on this machine"
    reason = _reason(folder, source_digest)
    return f"prebuilt for {PORTABLE_CPU}" if reason is None else f"compiled on this machine (not prebuilt: {reason})"


def _reason(folder: Path, source_digest: str | None) -> str | None:
    """mismatch() of the shipped kernels in `folder` (with the installed sources' digest by default), or the
    setting that turns them off."""
    from tsumolab.sims.compile_cache import source_digest as installed_digest

    if os.environ.get("TSUMOLAB_KERNELS") == "host":
        return "TSUMOLAB_KERNELS=host"
    if os.environ.get("NUMBA_CPU_NAME") not in (None, PORTABLE_CPU):
        return f"NUMBA_CPU_NAME={os.environ['NUMBA_CPU_NAME']}"
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "unreadable manifest"
    return mismatch(manifest, this_installation(source_digest or installed_digest()), host_features())


def usable(source_digest: str | None = None) -> bool:
    """Whether this installation ships kernels that match it (module docstring); `source_digest` defaults to
    that of the installed sources, computed only when kernels are shipped."""
    folder = shipped()
    return folder is not None and _reason(folder, source_digest) is None


def use(cache_dir: str, source_digest: str | None = None) -> bool:
    """Copy the shipped kernels into `cache_dir` (files it lacks) and compile for their CPU target when they
    are usable; True when they are used."""
    if not cache_dir or not usable(source_digest):
        return False
    source = shipped() / CACHE
    try:
        for path in sorted(source.rglob("*")):
            target = Path(cache_dir) / path.relative_to(source)
            if path.is_dir():
                target.mkdir(parents=True, exist_ok=True)
            elif not target.exists():
                partial = target.with_name(f".{target.name}.{os.getpid()}.part")
                shutil.copyfile(path, partial)
                partial.replace(target)  # another process starting at once may copy the same file: same bytes
    except OSError:
        return False
    os.environ["NUMBA_CPU_NAME"] = PORTABLE_CPU
    os.environ["NUMBA_CPU_FEATURES"] = ""
    config = sys.modules.get("numba.core.config")
    if config is not None:
        config.CPU_NAME, config.CPU_FEATURES = PORTABLE_CPU, ""
    return True
