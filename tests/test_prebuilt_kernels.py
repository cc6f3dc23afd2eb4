"""Issue 32: the kernels shipped in a wheel (sims.prebuilt_kernels, built by analyzer.prebuild) are used only where
they are exactly right, and a wheel carrying them is a valid wheel."""

import base64
import hashlib
import json
import os
import sys
import zipfile
from types import SimpleNamespace

import pytest

from tsumolab.analyzer import prebuild
from tsumolab.sims import prebuilt_kernels as pk

EVERY_FEATURE = {name: True for name in pk.PORTABLE_FEATURES}


def test_a_manifest_of_this_installation_matches_and_any_other_part_is_named():
    here = pk.this_installation("0123456789abcdef")
    assert pk.mismatch(dict(here), here, EVERY_FEATURE) is None
    other = {"source_digest": "fedcba9876543210", "numba": "0.0.1", "python": "cp39", "machine": "aarch64",
             "cpu": "generic"}
    words = {"source_digest": "kernel sources", "numba": "numba", "python": "Python", "machine": "machine",
             "cpu": "CPU target"}
    for key, value in other.items():
        reason = pk.mismatch({**here, key: value}, here, EVERY_FEATURE)
        assert reason == f"built for {words[key]} {value}, here {here[key]}"
    assert pk.mismatch(dict(here), here, {**EVERY_FEATURE, "avx2": False, "fma": False}) == "this CPU lacks avx2, fma"


def test_the_portable_features_are_names_llvm_knows():
    """A misspelt feature would never be found on any CPU (the shipped kernels never used) or, worse, a check
    could pass for a feature LLVM does not call that way: every name must be in LLVM's map of this CPU."""
    import llvmlite.binding as llvm

    known = dict(llvm.get_host_cpu_features())
    assert [name for name in pk.PORTABLE_FEATURES if name not in known] == []


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """A shipped kernels folder for this installation (as of source digest "d1"), one cache file in it. numba's
    settings are a stand-in and the environment is put back as it was, so this process (and the workers it starts
    later) never compiles for the portable target."""
    folder = tmp_path / "kernels"
    (folder / pk.CACHE / "tsumolab.sims").mkdir(parents=True)
    (folder / pk.CACHE / "tsumolab.sims" / "rng.key_seed-1.py311.nbi").write_bytes(b"index")
    (folder / pk.MANIFEST).write_text(json.dumps(pk.this_installation("d1")))
    monkeypatch.setattr(pk, "shipped", lambda: folder)
    monkeypatch.setattr(pk, "host_features", lambda: EVERY_FEATURE)
    monkeypatch.setitem(sys.modules, "numba.core.config", SimpleNamespace(CPU_NAME=None, CPU_FEATURES=None))
    names = ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES", "TSUMOLAB_KERNELS")
    saved = {name: os.environ.pop(name, None) for name in names}
    yield folder
    for name, value in saved.items():
        os.environ.pop(name, None)
        if value is not None:
            os.environ[name] = value


def test_matching_kernels_are_copied_into_the_cache_and_compiled_for_their_target(shipped, tmp_path):
    config = sys.modules["numba.core.config"]
    cache = tmp_path / "cache"
    assert pk.status("d1") == "prebuilt for x86-64-v3"
    assert pk.use(str(cache), "d1")
    assert (cache / "tsumolab.sims" / "rng.key_seed-1.py311.nbi").read_bytes() == b"index"
    assert (os.environ["NUMBA_CPU_NAME"], os.environ["NUMBA_CPU_FEATURES"]) == ("x86-64-v3", "")
    assert (config.CPU_NAME, config.CPU_FEATURES) == ("x86-64-v3", "")
    assert [p.name for p in cache.rglob("*.part")] == []


def test_an_entry_already_in_the_cache_is_kept(shipped, tmp_path):
    kept = tmp_path / "cache" / "tsumolab.sims" / "rng.key_seed-1.py311.nbi"
    kept.parent.mkdir(parents=True)
    kept.write_bytes(b"grown since")
    assert pk.use(str(tmp_path / "cache"), "d1")
    assert kept.read_bytes() == b"grown since"


@pytest.mark.parametrize(("change", "reason"), [
    ("other sources", "built for kernel sources d1, here d2"),
    ("old CPU", "this CPU lacks avx2"),
    ("TSUMOLAB_KERNELS=host", "TSUMOLAB_KERNELS=host"),
    ("own NUMBA_CPU_NAME", "NUMBA_CPU_NAME=znver3"),
    ("damaged manifest", "unreadable manifest"),
])
def test_foreign_kernels_are_never_used(shipped, tmp_path, monkeypatch, change, reason):
    """A stale (other sources) or foreign (other CPU) shipped cache, or one turned off, copies nothing and leaves
    numba compiling for this machine; `status` says why."""
    digest = "d2" if change == "other sources" else "d1"
    if change == "old CPU":
        monkeypatch.setattr(pk, "host_features", lambda: {**EVERY_FEATURE, "avx2": False})
    elif change == "TSUMOLAB_KERNELS=host":
        os.environ["TSUMOLAB_KERNELS"] = "host"  # the fixture puts the environment back
    elif change == "own NUMBA_CPU_NAME":
        os.environ["NUMBA_CPU_NAME"] = "znver3"
    elif change == "damaged manifest":
        (shipped / pk.MANIFEST).write_text("{")
    assert not pk.use(str(tmp_path / "cache"), digest)
    assert not (tmp_path / "cache").exists()
    assert os.environ.get("NUMBA_CPU_FEATURES") is None
    assert pk.status(digest) == f"compiled on this machine (not prebuilt: {reason})"


def _plain_wheel(path, files: dict[str, bytes]):
    dist_info = "tsumolab-0.1.0.dist-info"
    files = {**files, f"{dist_info}/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
             f"{dist_info}/RECORD": b"stale"}
    with zipfile.ZipFile(path, "w") as out:
        for name, data in files.items():
            out.writestr(name, data)
    return path


def test_a_wheel_with_kernels_is_tagged_for_this_python_and_records_every_file(tmp_path):
    wheel = _plain_wheel(tmp_path / "tsumolab-0.1.0-py3-none-any.whl", {"tsumolab/__init__.py": b"x = 1\n"})
    built = prebuild.add_kernels(wheel, {"tsumolab/kernels/manifest.json": b"{}"}, tmp_path)
    tag = f"{pk.python_tag()}-{pk.python_tag()}-{prebuild.platform_tag()}"
    assert built.name == f"tsumolab-0.1.0-{tag}.whl"
    with zipfile.ZipFile(built) as made:
        files = {name: made.read(name) for name in made.namelist()}
    assert files["tsumolab-0.1.0.dist-info/WHEEL"].decode().splitlines()[-1] == f"Tag: {tag}"
    assert "py3-none-any" not in files["tsumolab-0.1.0.dist-info/WHEEL"].decode()
    record = dict(line.split(",", 1) for line in files.pop("tsumolab-0.1.0.dist-info/RECORD").decode().splitlines())
    assert record.pop("tsumolab-0.1.0.dist-info/RECORD") == ","
    assert record.keys() == files.keys()
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert record[name] == f"sha256={digest},{len(data)}"


def test_kernels_are_prebuilt_only_for_a_wheel_of_these_sources(tmp_path):
    from importlib.resources import files

    rng = (files("tsumolab.sims") / "rng.py").read_bytes()
    wheel = _plain_wheel(tmp_path / "tsumolab-0.1.0-py3-none-any.whl",
                         {"tsumolab/sims/rng.py": rng + b"\n# edited\n", "tsumolab/sims/extra.py": b""})
    differ = prebuild.kernel_sources_differ(wheel)
    assert "tsumolab/sims/rng.py" in differ and "tsumolab/sims/extra.py" in differ
    assert "tsumolab/sims/compile_cache.py" in differ  # missing from that wheel
