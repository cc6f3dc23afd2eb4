"""Rules engines and scoring: the Bloodshed and riichi engine families (sims.family) and the modes table
(sims.modes) of rules classes over them; the rules themselves are sims/RULES.md."""

import os

from tsumolab.sims import compile_cache, prebuilt_kernels

if prebuilt_kernels.usable():
    compile_cache.configure(f"-{prebuilt_kernels.PORTABLE_CPU}")
    prebuilt_kernels.use(os.environ.get("NUMBA_CACHE_DIR", ""))
else:
    compile_cache.configure()
compile_cache.locate_by_package()
compile_cache.compile_once()
