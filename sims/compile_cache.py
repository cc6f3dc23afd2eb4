"""Where numba keeps compiled kernels: a cache directory keyed by the source of every kernel module.

numba's own cache only notices edits to a function's own file, so a kernel calling an edited function in
another module would keep stale machine code. Keying the directory by a hash of all sources of `sims` and
`policies` makes any edit start a fresh cache. An explicit NUMBA_CACHE_DIR is respected.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from importlib.resources import files
from pathlib import Path

KEEP = 3  # newest cache directories kept, so checkouts sharing a machine do not thrash


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "tsumolab"


def source_digest() -> str:
    digest = hashlib.sha256()
    for package in ("tsumolab.sims", "tsumolab.policies"):
        root = Path(str(files(package)))
        for path in sorted(root.rglob("*.py")):
            digest.update(f"{package}/{path.relative_to(root).as_posix()}".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def configure() -> None:
    """Point numba at the cache directory of the current sources.

    numba reads NUMBA_CACHE_DIR when it is imported. When something imported it first (pytest does, to resolve
    the warning filter in pyproject.toml; a notebook may), its config is set as well, or numba would write its
    cache beside the sources, keyed by each function's own file only."""
    if "NUMBA_CACHE_DIR" not in os.environ:
        root = cache_root()
        target = root / f"numba-{source_digest()}"
        try:
            target.mkdir(parents=True, exist_ok=True)
            os.utime(target)
            old = sorted(root.glob("numba-*"), key=lambda p: p.stat().st_mtime, reverse=True)[KEEP:]
            for path in old:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            return  # unwritable cache: numba falls back to its default location
        os.environ["NUMBA_CACHE_DIR"] = str(target)
    config = sys.modules.get("numba.core.config")
    if config is not None and not config.CACHE_DIR:
        config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
