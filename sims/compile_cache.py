"""Where numba keeps compiled kernels: a cache directory keyed by the source of every kernel module.

numba's own cache only notices edits to a function's own file, so a kernel calling an edited function in
another module would keep stale machine code. Keying the directory by a hash of all sources of `sims` and
`policies` makes any edit start a fresh cache. An explicit NUMBA_CACHE_DIR is respected.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

KEEP = 3  # newest cache directories kept, so checkouts sharing a machine do not thrash


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "tsumolab"


def source_digest() -> str:
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in ("sims", "policies"):
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def configure() -> None:
    """Point numba at the cache directory of the current sources (call before numba is imported)."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return
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
