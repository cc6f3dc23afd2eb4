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
