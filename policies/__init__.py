"""Plug-in bot policies: one small module per policy (see policies/api.py and policies/registry.py)."""

import tsumolab.sims  # noqa: F401  (configures the compiled-kernel cache before numba loads)
