"""`open-deal` (RULES.md OD): the jit-compiled helper the riichi engine calls when the rule option `open_deal`
is on: every seat's starting hand becomes public in obs[ROBS.deal_shown + 34 * seat + kind]."""

from __future__ import annotations

import numba as nb

from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.rules import DEAL_SIZE
from tsumolab.sims.table_state import pub_add


@nb.njit(cache=True)
def show_deal(obs, wall, dealer):
    """OD: every seat's 13 dealt tiles (wall positions 13·i …, seat dealer + i) become public, per kind."""
    for i in range(4):
        seat = (dealer + i) % 4
        for j in range(DEAL_SIZE):
            pub_add(obs, ROBS.deal_shown + 34 * seat + wall[DEAL_SIZE * i + j] // 4, 1)
