"""Test session set-up and the helpers test files share (as fixtures, so no test file imports another).

Importing `sims` first configures the compiled-kernel cache before any test module imports numba.
"""

import pytest

import sims  # noqa: F401


@pytest.fixture(scope="session")
def riichi_checks():
    """The riichi-core checks (tests/riichi_checks.py), each taking a mode's slug, that every riichi-based
    mode's tests run on their own mode."""
    import tests.riichi_checks as checks

    return checks


@pytest.fixture(scope="session")
def win_value(riichi_checks):
    """(total, ron, tsumo_dealer, tsumo_other) payments of a win (han, fu, yakuman, dealer, tsumo) under the
    standard riichi rules (R-3)."""
    return riichi_checks.win_value


@pytest.fixture(scope="session")
def report_page():
    """Parse a rendered HTML report (tests/report_html.py): report_page(path) → its tags and section texts."""
    from tests.report_html import parse

    return parse


class TinyRun:
    """An undisturbed `tsumolab run` (Bloodshed, the kernels that load fastest) to damage copies of and compare
    repaired runs with, byte for byte."""

    def __init__(self, reference, args):
        self.reference, self.args = reference, list(args)

    def copy(self, where):
        import shutil

        shutil.copytree(self.reference, where)
        return where

    def assert_same(self, out) -> None:
        """The chunk files of `out` are those of the reference, byte for byte, and its record lists them alike."""
        import json

        def chunk_files(root):
            return sorted(p.relative_to(root).as_posix() for t in ("hands", "matches") for p in (root / t).iterdir())

        assert chunk_files(out) == chunk_files(self.reference)
        for name in chunk_files(out):
            assert (out / name).read_bytes() == (self.reference / name).read_bytes(), name
        record, expected = (json.loads((d / "run.json").read_text()) for d in (out, self.reference))
        assert record["files"] == expected["files"] and record["status"] == "complete"
        assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in self.reference.iterdir())


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    """A 40-match run in 4 chunks of 10 (tiny_run.args are its `tsumolab run` options, without --out)."""
    from analyzer import api

    args = ["--matches", "40", "--chunk-size", "10", "--seed", "5"]
    reference = tmp_path_factory.mktemp("tiny") / "reference"
    api.simulate(api.run_spec(matches=40, seed=5, chunk_size=10), reference)
    return TinyRun(reference, args)
