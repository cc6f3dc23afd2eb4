"""Test session set-up: configure the compiled-kernel cache before any test module imports numba."""

import sims  # noqa: F401
