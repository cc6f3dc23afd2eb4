"""The numba cache directory follows the kernel sources, so an edited module never runs stale code."""

import os

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


def test_digest_changes_with_any_kernel_source(monkeypatch, tmp_path):
    before = compile_cache.source_digest()
    real_read = compile_cache.Path.read_bytes

    def edited(path):
        data = real_read(path)
        return data + b"\n# edit" if path.name == "shanten.py" else data

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
