"""`fate` 天命之战 (RULES.md F): the open deal tiles and the win multiplier, as jit-compiled helpers the riichi
engine calls when the table option `fate` is on.

Tiles are tracked by kind: obs[ROBS.fate_open + 34 * seat + kind] (public) counts the seat's open deal tiles of
that kind it still holds (concealed or in its own melds). A seat that loses a copy of a kind keeps its open
copies as long as it holds as many other copies (it chooses which copy to discard), so the count only drops
to the copies left in the hand plus the seat's own tiles in its melds (tiles called from others excluded).
"""

from __future__ import annotations

import numba as nb

from sims.riichi.observation import ROBS
from sims.riichi.scoring import RES_RON, RES_TOTAL, RES_TSUMO_DEALER, RES_TSUMO_OTHER
from sims.table_state import pub_add, pub_set

OPEN_DEAL_TILES = 4  # F: the first 4 tiles of each player's deal are open


@nb.njit(cache=True)
def fate_open_deal(obs, wall, dealer):
    """F: mark the first 4 tiles of each seat's deal (wall positions 13·i … 13·i + 3, seat dealer + i) as open."""
    for i in range(4):
        seat = (dealer + i) % 4
        for j in range(OPEN_DEAL_TILES):
            pub_add(obs, ROBS.fate_open + 34 * seat + wall[13 * i + j] // 4, 1)


@nb.njit(cache=True)
def fate_after_loss(obs, seat, kind, called):
    """The seat gave up a tile of `kind` (discard, robbed kan tile): its open copies of that kind drop to the
    copies it still holds of its own (concealed + own tiles in melds; `called[seat, kind]` came from others)."""
    held = obs[seat, ROBS.hand + kind] + obs[0, ROBS.meld_tiles + 34 * seat + kind] - called[seat, kind]
    if obs[0, ROBS.fate_open + 34 * seat + kind] > held:
        pub_set(obs, ROBS.fate_open + 34 * seat + kind, held)


@nb.njit(cache=True)
def fate_multiplier(obs, seat):
    """F: 1 + the seat's open deal tiles still held (1 in every other mode: nothing is marked open)."""
    m = 1
    for k in range(34):
        m += obs[0, ROBS.fate_open + 34 * seat + k]
    return m


@nb.njit(cache=True)
def fate_scale(res, mult):
    """F: the win pays its normal points × mult (honba and sticks are added unscaled by the settlement)."""
    res[RES_RON] *= mult
    res[RES_TSUMO_DEALER] *= mult
    res[RES_TSUMO_OTHER] *= mult
    res[RES_TOTAL] *= mult
