"""`astrology` 占星之战 (RULES.md A): the pool of face-up candidates, as jit-compiled helpers the riichi engine
calls when the rule option `astrology` is on (topts[T_ASTROLOGY] = 1 + the live-wall floor, 0 = off).

Rule A as implemented:
- The pool opens at the first draw after the dealer's first discard: the next 3 live-wall tiles are revealed.
  (A closed kan by the dealer before that discard draws its replacement straight from the dead wall; an open
  kan on that discard opens the pool with 2 live-wall tiles and the dead-wall tile, so it never exceeds 3.)
- Every draw first refills the pool to 3 from the live wall, in wall order, while the live wall (candidates
  excluded) holds more than `floor` tiles (A: 3); a replacement draw instead adds the next dead-wall tile to
  the pool. Then the drawer picks one candidate through its "mode" hook (decision D_PICK, answer = the
  candidate's index 0 .. size - 1; anything else → candidate 0, counted illegal). The pick is a decision of
  its own (sims.riichi.hand_state.PH_PICK_ASK): the engine stops there like at any other decision, the pool
  refilled (or the dead-wall tile added) and the question in `view` (astro_pick_view), and takes the answer
  with astro_take.
- The chosen tile counts as drawn from the wall, or from the dead wall for every candidate of a replacement
  draw (source 002 item 8: rinshan with any of the candidates, not only the dead-wall tile itself); tenhou,
  chiho and ippatsu are unchanged (the pick is the draw).
- With the live wall at or below the floor nobody may kan; the draws left are the candidates still in the
  pool: the last one taken is haitei, the discard after it houtei (no call on it), and a draw due with an
  empty pool ends the hand in an exhaustive draw.
- obs[ROBS.wall_left] is the live wall without the candidates; riichi needs ≥ 4 there (R-4 counted as rule A
  counts the wall).

Public block obs[ROBS.astrology + …] (identical in every seat's row, pub_set/pub_add):
A_N pool size; A_KIND [3] candidate kinds in pool order (oldest first, -1 empty); A_RED [3] 1 for a red
five; A_DEAD [3] 1 for the dead-wall candidate of a replacement draw; A_OPEN 1 once the pool is open;
A_DRAWS_LEFT draws still possible in the hand (pool + refills); A_REFILL 1 while the pool is still refilled
(and kans allowed). Candidates do not count in ROBS.seen (they are in this block until drawn).
"""

from __future__ import annotations

import numba as nb

from tsumolab.sims.decisions import D_PICK
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.events import EV_DRAW, log_event
from tsumolab.sims.riichi.events import EV_POOL
from tsumolab.sims.riichi.tableau import F_DRAWS, MS_DRAWN_RED, MS_LIVE_END, ST_FLAGS, ST_MISC, give_tile, is_red
from tsumolab.sims.table_state import pub_add, pub_set
from tsumolab.sims.jit import copy_row, step

POOL = 3                 # A: three candidates
A_N = 0
A_KIND = 1
A_RED = 4
A_DEAD = 7
A_OPEN = 10
A_DRAWS_LEFT = 11
A_REFILL = 12


def pack_options(table) -> int:
    """A's table slot from the rules dataclass (sims.riichi.rules): 0 off, else 1 + astrology_floor."""
    return 1 + table.astrology_floor if table.astrology else 0


@nb.njit(cache=True)
def astro_floor(topts, t_index):
    """The live-wall floor of rule A (topts[T_ASTROLOGY] - 1)."""
    return topts[t_index] - 1


@nb.njit(cache=True)
def _publish_left(obs, live, floor):
    room = live - floor
    if room < 0:
        room = 0
    pub_set(obs, ROBS.astrology + A_DRAWS_LEFT, obs[0, ROBS.astrology + A_N] + room)
    pub_set(obs, ROBS.astrology + A_REFILL, 1 if live > floor else 0)


@nb.njit(cache=True)
def _add(obs, tile_id, dead, where, events, ev):
    n = obs[0, ROBS.astrology + A_N]
    pub_set(obs, ROBS.astrology + A_KIND + n, tile_id // 4)
    pub_set(obs, ROBS.astrology + A_RED + n, 1 if is_red(tile_id) else 0)
    pub_set(obs, ROBS.astrology + A_DEAD + n, 1 if dead else 0)
    pub_add(obs, ROBS.astrology + A_N, 1)
    log_event(events, ev, EV_POOL, -1, tile_id // 4, 1 if dead else 0, where, n + 1)


@nb.njit(cache=True)
def astro_refill(obs, st, wall, pos, floor, events, ev):
    """A: before a normal draw, open the pool (first time) and refill it to 3 from the live wall in wall order
    while the live wall holds more than `floor` tiles. Returns the new wall position (jit-compiled)."""
    pub_set(obs, ROBS.astrology + A_OPEN, 1)
    while obs[0, ROBS.astrology + A_N] < POOL and st[ST_MISC, MS_LIVE_END] - pos > floor:
        _add(obs, wall[pos], False, pos, events, ev)
        pos += 1
    _publish_left(obs, st[ST_MISC, MS_LIVE_END] - pos, floor)
    return pos


@nb.njit(cache=True)
def astro_pool_open(obs):
    """The pool is open, or about to open: the dealer has made its first discard."""
    return obs[0, ROBS.astrology + A_OPEN] == 1 or obs[0, ROBS.n_discards + obs[0, ROBS.dealer]] > 0


@nb.njit(cache=True)
def astro_add_dead(obs, st, wall, at, pos, floor, events, ev):
    """A: a replacement draw adds the dead-wall tile at `at` to the pool. When this is the first draw after the
    dealer's first discard (an open kan on it), the pool opens with 2 live-wall tiles and the dead-wall tile.
    Returns the new wall position (jit-compiled)."""
    if obs[0, ROBS.astrology + A_OPEN] == 0:
        pub_set(obs, ROBS.astrology + A_OPEN, 1)
        while obs[0, ROBS.astrology + A_N] < POOL - 1 and st[ST_MISC, MS_LIVE_END] - pos > floor:
            _add(obs, wall[pos], False, pos, events, ev)
            pos += 1
    _add(obs, wall[at], True, at, events, ev)
    _publish_left(obs, st[ST_MISC, MS_LIVE_END] - pos, floor)
    return pos


@nb.njit(cache=True)
def astro_left(obs, live, floor):
    """(draws left: pool + refills, room for kans: live tiles above the floor) for the engine's checks."""
    room = live - floor
    if room < 0:
        room = 0
    return obs[0, ROBS.astrology + A_N] + room, room


@step
def astro_pick_view(obs, view, seat, replacement):
    """A: the question of the pick (decision D_PICK) into `view`: the seat's observation, the pool in its public
    block; ROBS.kan_draw is 1 for a replacement draw (jit-compiled)."""
    copy_row(view, obs[seat])
    view[ROBS.decision] = D_PICK
    view[ROBS.tile] = -1
    view[ROBS.kan_draw] = 1 if replacement else 0


@step
def astro_take(state, log, seat, i, replacement, cnt_illegal):
    """A: the seat takes candidate `i` of the pool (its answer to D_PICK; anything but 0 .. size - 1 is candidate
    0, counted illegal); the tile joins its hand as a draw. Returns the drawn kind (jit-compiled). The arguments
    are the engine's groups (sims.riichi.bundles)."""
    obs, st, ev = state.obs, state.st, state.ev
    counters, events = log.counters, log.events
    n = obs[0, ROBS.astrology + A_N]
    if i < 0 or i >= n:
        counters[cnt_illegal] += 1
        i = 0
    kind = obs[0, ROBS.astrology + A_KIND + i]
    red = obs[0, ROBS.astrology + A_RED + i]
    dead = obs[0, ROBS.astrology + A_DEAD + i]
    for j in range(i, n - 1):
        pub_set(obs, ROBS.astrology + A_KIND + j, obs[0, ROBS.astrology + A_KIND + j + 1])
        pub_set(obs, ROBS.astrology + A_RED + j, obs[0, ROBS.astrology + A_RED + j + 1])
        pub_set(obs, ROBS.astrology + A_DEAD + j, obs[0, ROBS.astrology + A_DEAD + j + 1])
    pub_set(obs, ROBS.astrology + A_KIND + n - 1, -1)
    pub_set(obs, ROBS.astrology + A_RED + n - 1, 0)
    pub_set(obs, ROBS.astrology + A_DEAD + n - 1, 0)
    pub_add(obs, ROBS.astrology + A_N, -1)
    pub_add(obs, ROBS.astrology + A_DRAWS_LEFT, -1)
    log_event(events, ev, EV_DRAW, seat, kind, 1 if replacement else 0, i + 1, dead + 2 * red)
    give_tile(obs, st, seat, kind, red == 1)
    st[ST_MISC, MS_DRAWN_RED] = red
    pub_add(obs, ROBS.turn, 1)
    st[ST_FLAGS + seat, F_DRAWS] += 1
    return kind


@nb.njit(cache=True)
def astro_reset(obs):
    """Empty pool at the start of a hand (kinds -1)."""
    for i in range(POOL):
        pub_set(obs, ROBS.astrology + A_KIND + i, -1)
