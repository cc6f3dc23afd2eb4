"""`fate` 天命之战 (RULES.md F): the open deal tiles and the win multiplier, as jit-compiled helpers the riichi
engine calls when the rule option `fate` is on.

Tiles are tracked by kind and, for the fives, by copy: obs[ROBS.fate_open + 34 * seat + kind] (public) counts
the seat's open deal tiles of that kind it still holds (concealed or in its own melds), and
obs[ROBS.fate_red + 3 * seat + suit] (public) is 1 while the red five of that suit is one of them. Plain copies of
a kind are alike: a seat that gives up a plain copy keeps its open plain copies as long as it holds as many
other plain copies of its own (it chooses which one goes), so their count only drops to the plain copies left
in the hand plus the seat's own plain copies in its melds (tiles called from others excluded). The red five is
one copy: giving it up drops it if it was open, and never keeps an open plain copy in its place.
"""

from __future__ import annotations

import numba as nb

from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.scoring import RES_RON, RES_TOTAL, RES_TSUMO_DEALER, RES_TSUMO_OTHER
from tsumolab.sims.riichi.tableau import F_OWN_RED_MELD, ST_FLAGS, holds_red, is_red
from tsumolab.sims.table_state import pub_add, pub_set

OPEN_DEAL_TILES = 4  # F: the first 4 tiles of each player's deal are open


@nb.njit(cache=True)
def fate_open_deal(obs, wall, dealer, red_fives):
    """F: mark the first 4 tiles of each seat's deal (wall positions 13·i … 13·i + 3, seat dealer + i) as open;
    with red fives on (R-1), an open tile id of a red five marks that copy."""
    for i in range(4):
        seat = (dealer + i) % 4
        for j in range(OPEN_DEAL_TILES):
            tile_id = wall[13 * i + j]
            pub_add(obs, ROBS.fate_open + 34 * seat + tile_id // 4, 1)
            if red_fives and is_red(tile_id):
                pub_set(obs, ROBS.fate_red + 3 * seat + tile_id // 4 // 9, 1)


@nb.njit(cache=True)
def fate_after_loss(obs, st, seat, kind, red, called):
    """The seat gave up one tile of `kind` (discard, robbed kan tile), the red five when `red`: an open red five
    drops; open plain copies drop to the plain copies the seat still holds of its own (concealed + own tiles in
    melds, the red five excluded; `called[seat, kind]` came from others)."""
    at = ROBS.fate_open + 34 * seat + kind
    red_open = 0
    if kind == 4 or kind == 13 or kind == 22:
        suit = kind // 9
        red_at = ROBS.fate_red + 3 * seat + suit
        red_open = obs[0, red_at]
        if red:
            if red_open:
                pub_set(obs, red_at, 0)
                pub_add(obs, at, -1)
            return
        own_red = 1 if holds_red(st, seat, kind) or st[ST_FLAGS + seat, F_OWN_RED_MELD + suit] > 0 else 0
    else:
        own_red = 0
    plain_held = obs[seat, ROBS.hand + kind] + obs[0, ROBS.meld_tiles + 34 * seat + kind] - called[seat, kind] \
        - own_red
    if obs[0, at] - red_open > plain_held:
        pub_set(obs, at, plain_held + red_open)


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
