"""The baseline answer to each mode's own decisions (the "mode" hook of policies.riichi_api): mode-unaware
play. Each mode module of policies says what its decision means; this hook only dispatches."""

from tsumolab.policies.api import hook
from tsumolab.policies.astrology_pick import efficient_pick
from tsumolab.policies.darkness_choice import never_open, never_lock
from tsumolab.policies.riichi_api import D_DARK_LOCK, D_DARK_OPEN, D_PICK, ROBS


@hook
def mode_default(obs, params, tables):
    decision = obs[ROBS.decision]
    if decision == D_PICK:
        return efficient_pick(obs, tables)
    if decision == D_DARK_OPEN:
        return never_open(obs, tables)
    if decision == D_DARK_LOCK:
        return never_lock(obs, tables)
    return 0
