"""Rules engines and scoring: the Bloodshed and riichi engine families (sims.family) and the modes table
(sims.modes) of rules classes over them; the rules themselves are sims/RULES.md."""

from tsumolab.sims import compile_cache

compile_cache.configure()
compile_cache.compile_once()
