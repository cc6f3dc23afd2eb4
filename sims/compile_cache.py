"""How numba compiles and keeps the kernels: a cache directory keyed by the source of every kernel module, and
one specialization per kernel instead of one per constant argument.

numba's own cache only notices edits to a function's own file, so a kernel calling an edited function in
another module would keep stale machine code. Keying the directory by a hash of all sources of `sims` and
`policies` makes any edit start a fresh cache. An explicit NUMBA_CACHE_DIR is respected.

numba types a constant argument of a call between kernels by its value (`Literal[int](-1)`) and compiles the
callee again for each value: `pay` was compiled 21 times and `_play_out`, which holds the whole riichi engine,
4 times. It also compiles a callee once per integer width of its scalar arguments (an int32 read from an engine
array, an int64 counter): the riichi scorer three times, the Bloodshed one twice. `compile_once` has tsumolab's
kernels compiled for the plain types of their arguments first, integer scalars widened to int64 (numba computes
in int64 anyway), and for the literal types only when the plain ones cannot be typed.

Within the directory a tsumolab kernel's cache files sit under its package's name (`tsumolab.sims.riichi/`), not
under a hash of where its source file is, and numba keys each entry by a hash of the source's content: a cache
built in another checkout or virtualenv (the kernels shipped in a wheel: sims.prebuilt_kernels) is found and
trusted exactly when the sources are the same.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

KEEP = 3  # newest cache directories kept, so checkouts sharing a machine do not thrash


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "tsumolab"


def kernel_sources() -> dict[str, Path]:
    """Every Python source of `sims` and `policies` by its path in the installed package ("tsumolab/sims/rng.py"),
    in a fixed order, found without importing `policies`; then their .npz files, whose arrays kernels may compile
    in as constants (policies.discard_prior)."""
    sources = {}
    for suffix in ("*.py", "*.npz"):
        for package in ("tsumolab.sims", "tsumolab.policies"):
            root = Path(find_spec(package).submodule_search_locations[0])
            prefix = package.replace(".", "/")
            sources.update({f"{prefix}/{path.relative_to(root).as_posix()}": path
                            for path in sorted(root.rglob(suffix))})
    return sources


def source_digest() -> str:
    """A hash of kernel_sources: their names and contents."""
    digest = hashlib.sha256()
    for name, path in kernel_sources().items():
        digest.update(name.replace("/", ".", 1).encode())  # "tsumolab.sims/rng.py", as the digest always named it
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def package_locator():
    """A numba cache locator class for tsumolab's kernels: cache files under `<cache dir>/<package name>`, each
    entry valid for the source file's content (what numba 0.68 does too; older versions stamp the file's time)."""
    from numba.core import caching, config

    user_provided = _numba_class(caching, "UserProvidedCacheLocator")

    class PackageCacheLocator(user_provided):
        def __init__(self, py_func, py_file):
            super().__init__(py_func, py_file)
            self._cache_path = os.path.join(config.CACHE_DIR, py_func.__module__.rpartition(".")[0])

        def get_source_stamp(self):
            return _content_hash(self._py_file)

        @classmethod
        def from_function(cls, py_func, py_file):
            if not py_func.__module__.startswith("tsumolab."):
                return None
            return super().from_function(py_func, py_file)

    return PackageCacheLocator


def _numba_class(module, name: str):
    """A class of numba's caching module, by its name since numba 0.68 or its earlier private name."""
    return getattr(module, name, None) or getattr(module, f"_{name}")


@lru_cache(maxsize=None)
def _content_hash(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def locate_by_package() -> None:
    """Have numba look tsumolab's kernels up with package_locator first (idempotent)."""
    from numba.core import caching

    locators = _numba_class(caching, "CacheImpl")._locator_classes
    if not getattr(locators[0], "tsumolab", False):
        locator = package_locator()
        locator.tsumolab = True
        locators.insert(0, locator)


def compile_once() -> None:
    """Patch numba's dispatcher so that a call from one tsumolab kernel to another compiles the callee for the
    argument types without their literal values and with int64 for any narrower integer scalar (idempotent; other
    packages' kernels are left as they are)."""
    from numba.core import errors, types
    from numba.core.dispatcher import Dispatcher

    plain_call = Dispatcher.get_call_template
    if getattr(plain_call, "tsumolab", False):
        return

    def plain(t):  # the type a tsumolab callee is compiled for
        t = types.unliteral(t)
        if isinstance(t, types.Integer) and t.bitwidth < 64:
            return types.int64
        return t

    def get_call_template(self, args, kws):
        if self.py_func.__module__.startswith("tsumolab."):
            plain_args = tuple(plain(a) for a in args)
            plain_kws = {k: plain(v) for k, v in kws.items()}
            if plain_args != tuple(args) or plain_kws != kws:
                try:
                    return plain_call(self, plain_args, plain_kws)
                except errors.TypingError:
                    pass
        return plain_call(self, args, kws)

    get_call_template.tsumolab = True
    Dispatcher.get_call_template = get_call_template


def configure(kind: str = "") -> None:
    """Point numba at the cache directory of the current sources (`kind`: a suffix of its name, e.g. the CPU
    target of prebuilt kernels, which keep a directory of their own).

    numba reads NUMBA_CACHE_DIR when it is imported. When something imported it first (pytest does, to resolve
    the warning filter in pyproject.toml; a notebook may), its config is set as well, or numba would write its
    cache beside the sources, keyed by each function's own file only."""
    if "NUMBA_CACHE_DIR" not in os.environ:
        root = cache_root()
        target = root / f"numba-{source_digest()}{kind}"
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
