"""Rules engines and scoring: the Bloodshed and riichi engine families (sims.family) and the modes table
(sims.modes) of rules classes over them; the rules themselves are sims/RULES.md."""

import os

from tsumolab.sims import compile_cache, prebuilt_kernels

_digest = compile_cache.source_digest()
compile_cache.configure(f"-{prebuilt_kernels.PORTABLE_CPU}" if prebuilt_kernels.usable(_digest) else "")
if "NUMBA_CACHE_DIR" in os.environ:
    prebuilt_kernels.use(_digest, os.environ["NUMBA_CACHE_DIR"])
compile_cache.locate_by_package()
compile_cache.compile_once()
