"""Rules engines and scoring, one subpackage per mode over shared compiled kernels."""

from sims import compile_cache

compile_cache.configure()
