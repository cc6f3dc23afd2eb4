"""The numba cache directory follows the kernel sources, so an edited module never runs stale code."""

import os

import pytest

from tsumolab.sims import compile_cache


def test_explicit_numba_cache_dir_is_kept(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    compile_cache.configure()
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "mine")


def test_directory_named_by_source_digest_and_old_ones_pruned(monkeypatch, tmp_path):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    root = tmp_path / "tsumolab"
    for i in range(5):
        (root / f"numba-old{i}").mkdir(parents=True)
        os.utime(root / f"numba-old{i}", (i, i))
    compile_cache.configure()
    expected = root / f"numba-{compile_cache.source_digest()}"
    assert os.environ["NUMBA_CACHE_DIR"] == str(expected) and expected.is_dir()
    kept = sorted(p.name for p in root.glob("numba-*"))
    assert len(kept) == compile_cache.KEEP and expected.name in kept and "numba-old4" in kept


@pytest.mark.parametrize("name", ["shanten.py", "human-discards.npz"])
def test_digest_changes_with_any_kernel_source(monkeypatch, tmp_path, name):
    """A source, or the discard prior's weights that policies.discard_prior compiles in as constants."""
    before = compile_cache.source_digest()
    real_read = compile_cache.Path.read_bytes

    def edited(path):
        data = real_read(path)
        return data + b"\n# edit" if path.name == name else data

    monkeypatch.setattr(compile_cache.Path, "read_bytes", edited)
    assert compile_cache.source_digest() != before


def test_numba_imported_first_still_caches_in_the_keyed_directory(monkeypatch, tmp_path):
    """pytest imports numba before conftest (pyproject's warning filter names a numba class), so numba has
    already read its environment: configure() must set its config too, or kernels cache beside the sources."""
    from numba.core import config

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(config, "CACHE_DIR", "")
    compile_cache.configure()
    assert config.CACHE_DIR == os.environ["NUMBA_CACHE_DIR"]
    assert config.CACHE_DIR.startswith(str(tmp_path / "tsumolab" / "numba-"))


def _kernel(source: str, name: str, module: str):
    """A fresh jit-compiled function `name` defined by `source`, as if it lived in `module` (never cached)."""
    import numba as nb
    scope: dict = {}
    exec(source, {"nb": nb}, scope)
    function = scope[name]
    function.__module__ = module
    return nb.njit(function)


def test_a_tsumolab_kernel_is_compiled_once_for_constant_arguments_of_any_value():
    """compile_once: calls with the constants 1, 2 and True compile the callee for int64 and bool only; a callee
    outside tsumolab keeps numba's own literal specializations; one that needs a literal still gets it."""
    import numba as nb
    from numba.core import types

    def caller_of(callee):
        @nb.njit
        def caller():
            return callee(1, True) + callee(2, True) + callee(3, False)
        return caller

    ours = _kernel("def add(x, flag):\n    return x + 1 if flag else x", "add", "tsumolab.sims.probe")
    theirs = _kernel("def add(x, flag):\n    return x + 1 if flag else x", "add", "elsewhere.probe")
    assert caller_of(ours)() == caller_of(theirs)() == 2 + 3 + 3
    assert ours.signatures == [(types.int64, types.boolean)]
    assert len(theirs.signatures) == 3 and any(isinstance(t, types.Literal) for s in theirs.signatures for t in s)

    pick = _kernel("def pick(t, i):\n    return t[i]", "pick", "tsumolab.sims.probe")

    @nb.njit
    def mixed():
        return pick((1, 2.5), 1)   # a heterogeneous tuple is indexed by a literal only
    assert mixed() == 2.5


def test_a_tsumolab_kernel_is_compiled_once_for_integers_of_any_width():
    """compile_once: int8, int32 and int64 scalars reach a tsumolab callee as int64 (one specialization, the same
    sums); a callee outside tsumolab is compiled for each width."""
    import numba as nb
    import numpy as np
    from numba.core import types

    def caller_of(callee):
        @nb.njit
        def caller(a, b, c):
            return callee(a[0]) + callee(b[0]) + callee(c[0])
        return caller

    narrow = (np.array([-7], np.int8), np.array([2**31 - 1], np.int32), np.array([2**40], np.int64))
    ours = _kernel("def twice(x):\n    return x * 2", "twice", "tsumolab.sims.probe")
    theirs = _kernel("def twice(x):\n    return x * 2", "twice", "elsewhere.probe")
    assert caller_of(ours)(*narrow) == caller_of(theirs)(*narrow) == 2 * (-7 + 2**31 - 1 + 2**40)
    assert ours.signatures == [(types.int64,)]
    assert sorted(str(s[0]) for s in theirs.signatures) == ["int32", "int64", "int8"]


LOAD_KERNEL = """
import json, sys
if sys.argv[1] == "other-numba":
    import numba
    numba.__version__ = "0.0.0+other"      # as if another numba had written the cache
from tsumolab.sims import rng               # key_seed has an explicit signature: compiled or loaded on import
stats = rng.key_seed.stats
print(json.dumps([sum(stats.cache_hits.values()), sum(stats.cache_misses.values()), stats.cache_path]))
"""


def _load_kernel(how: str, cache_home, **env) -> tuple[int, int, str]:
    """(cache hits, cache misses, cache path) of one kernel loaded in a fresh process under `how`."""
    import json
    import subprocess
    import sys

    environment = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    environment.update(XDG_CACHE_HOME=str(cache_home), **env)
    done = subprocess.run([sys.executable, "-c", LOAD_KERNEL, how], capture_output=True, text=True, env=environment,
                          timeout=300, check=True)
    return tuple(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.slow
def test_a_foreign_cache_is_never_loaded(tmp_path):
    """Issue 32: a kernel compiled into the cache loads from it in the next process, but not in a process of
    another numba version or for another CPU (numba keys each entry by its version, the target triple, the CPU
    name and its features); another source gets another directory (source_digest, above)."""
    runs = [("first", {}), ("again", {}), ("other-cpu", {"NUMBA_CPU_NAME": "generic"}), ("again", {}),
            ("other-numba", {})]
    seen = [_load_kernel(how, tmp_path, **env) for how, env in runs]
    assert seen[0][2].startswith(str(tmp_path / "tsumolab" / "numba-")), seen[0]
    assert [s[:2] for s in seen] == [(0, 1), (1, 0), (0, 1), (1, 0), (0, 1)], seen


@pytest.mark.slow
def test_no_command_loads_an_engine_before_it_runs():
    """Issue 32: importing a subcommand's module loads neither engine (whose entry points compile when their
    module is imported), so a cold `tsumolab run --variant riichi` or `review` compiles no Bloodshed engine and a
    Bloodshed command no riichi engine, and a riichi run not the riichi entry points for positions. The check can
    fail: importing the Bloodshed position reader loads one."""
    import subprocess
    import sys

    from tsumolab.cli import COMMANDS

    probe = ("import importlib, sys\nfor m in sys.argv[1:]:\n    importlib.import_module(m)\n"
             "print(sorted(m for m in sys.modules if m in ('tsumolab.sims.bloodshed.engine', "
             "'tsumolab.sims.riichi.engine')))")

    def engines(*modules: str) -> str:
        return subprocess.run([sys.executable, "-c", probe, *modules], capture_output=True, text=True, check=True,
                              timeout=120).stdout.strip()

    assert engines(*(f"tsumolab.commands.{m}" for m in sorted(set(COMMANDS.values())))) == "[]"
    assert engines("tsumolab.analyzer.advise.bloodshed_position") == "['tsumolab.sims.bloodshed.engine']"
    # advise's engine-free evaluation and the riichi sampler: a riichi position loads no Bloodshed kernel
    assert engines("tsumolab.analyzer.advise.evaluate", "tsumolab.analyzer.advise.riichi_sampler") == "[]"
    # a riichi run's modules and engine leave the entry points for positions (sims.riichi.resume) uncompiled
    entries = ("import gc, tsumolab.analyzer.runs.runner, tsumolab.analyzer.search.play, tsumolab.sims.riichi.engine, "
               "tsumolab.sims.riichi.positions\nfrom numba.core.registry import CPUDispatcher\n"
               "print(sorted({d.py_func.__name__ for d in gc.get_objects() if isinstance(d, CPUDispatcher) "
               "and d.overloads} & {'play_to_decision', 'resume'}))")
    assert subprocess.run([sys.executable, "-c", entries], capture_output=True, text=True, check=True,
                          timeout=300).stdout.strip() == "[]"


RELOCATED_LOAD = """
import json, sys
import tsumolab
from tsumolab.sims import rng
stats = rng.key_seed.stats
print(json.dumps([tsumolab.__file__, sum(stats.cache_hits.values()), sum(stats.cache_misses.values())]))
"""


def _relocated_copy(root) -> None:
    """The tsumolab package laid out as installed (front/ is tsumolab itself) under `root`."""
    import shutil
    from pathlib import Path

    checkout = Path(__file__).resolve().parents[1]
    shutil.copytree(checkout / "front", root / "tsumolab")
    for layer in ("analyzer", "sims", "policies", "reports"):
        shutil.copytree(checkout / layer, root / "tsumolab" / layer)


@pytest.mark.slow
def test_a_cache_built_from_the_same_sources_elsewhere_is_loaded_and_an_edited_source_is_not(tmp_path):
    """Issue 32: tsumolab's cache files are found by package name and trusted by the source's content, so the
    cache of a wheel build (another directory, other file times) loads in an installation of the same sources,
    and an edited source makes its kernel compile again."""
    import json
    import subprocess
    import sys

    def load(*path_first) -> list:
        environment = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
        environment.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=os.pathsep.join(map(str, path_first)))
        done = subprocess.run([sys.executable, "-c", RELOCATED_LOAD], capture_output=True, text=True,
                              env=environment, timeout=300, check=True, cwd=tmp_path)
        return json.loads(done.stdout.strip().splitlines()[-1])

    here = load()
    assert here[1:] == [0, 1], here
    _relocated_copy(tmp_path / "elsewhere")
    there = load(tmp_path / "elsewhere")
    assert there[0] == str(tmp_path / "elsewhere" / "tsumolab" / "__init__.py") != here[0]
    assert (tmp_path / "cache" / "tsumolab.sims").is_dir()
    assert there[1:] == [1, 0], there  # loaded, nothing compiled
    rng_source = tmp_path / "elsewhere" / "tsumolab" / "sims" / "rng.py"
    rng_source.write_text(rng_source.read_text() + "\n# edited\n")
    assert load(tmp_path / "elsewhere")[1:] == [0, 1]
