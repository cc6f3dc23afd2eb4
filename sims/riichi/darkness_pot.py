"""`darkness` 暗夜之战 (RULES.md D): face-down discards, paid opening and locking, and the pot, as jit-compiled
helpers the riichi engine calls when the rule option `darkness` is on.

Rules as implemented (RULES.md D, with the in-game text of seed 002 and the wiki text of seed 001 where D is
silent):
- A seat answers FACE_DOWN + kind (or FACE_DOWN + RIICHI + kind) on its turn (policies.riichi_api) to pay 1000
  into the pot and discard that tile face down; it needs ≥ 1000 points, and ≥ 2000 for a riichi declaration
  made with a face-down tile (1000 for the face-down tile + the 1000 riichi stick).
- The other three seats are then asked at once (mode hook, decision D_DARK_OPEN, ROBS.tile = -1, ROBS.from_seat = the
  discarder; answer DARK_PAY or DARK_DECLINE of sims.decisions) whether to pay 2000 to open it; only seats
  with ≥ 2000 points are asked (seed 002 rule 8; a seat that has won (S-3) is not asked). If several say
  yes, the first in turn order after the discarder pays (the others pay nothing).
- When it is opened the discarder is asked (decision D_DARK_LOCK, ROBS.tile = the kind, ROBS.from_seat = the opener)
  whether to pay 4000 to lock it face down for good; only with ≥ 4000 points (seed 002 rule 10: below 4000
  no lock). The opener's 2000 stays in the pot either way.
- A tile still face down (not opened, or locked) is never callable or ronnable, causes no furiten for anyone
  (it is not in the discarder's ROBS.discarded), and does not count for nagashi mangan (only face-up discards
  are judged; all face-down qualifies) nor for the four-winds abort. Its kind is never shown: it enters
  neither ROBS.discarded, ROBS.seen nor ROBS.safe. An opened, unlocked tile is a normal discard from then on.
- A seat in riichi is asked on its turn only when it may tsumo or kan (policies.riichi_api); its other
  discards (the drawn tile) go face up.
- All payments go to the pot (points), separate from the riichi sticks. The next winner takes it (a multiple
  ron: the winner first in turn order after the discarder, who also takes the sticks, seed 002 rule 12); it
  carries over hands like riichi sticks; what is left at match end goes to first place (seed 002 rule 13).

Observation block obs[ROBS.darkness + DK_*] (public, in every seat's row): DK_ON (1 in this mode), DK_POT (points
in the pot), DK_HIDDEN + seat (that seat's discards face down now, locked ones included), DK_PENDING (1 +
discarder of the face-down tile under decision, 0 none), DK_OPENER (1 + the seat paying to open it during the
lock decision, 0 none), DK_OPENED + seat (its face-down discards that were opened and stayed open),
DK_LOCKED + seat (its discards locked), DK_RIICHI_HIDDEN + seat (1 if its riichi declaration tile is face
down now). A seat's own face-down kinds are in no slot (only the lock decision shows the tile, in ROBS.tile).

Events: every action is one EV_PAY row with a darkness reason (sims.riichi.events: PAY_FACE_DOWN,
PAY_DARK_OPEN, PAY_DARK_LOCK, PAY_POT) to or from seat -1 (the table); field c is the kind of the tile
concerned (0 for PAY_POT). So the log replays every payment and who paid for what.
"""

from __future__ import annotations

import numba as nb

from tsumolab.sims.decisions import D_DARK_LOCK, D_DARK_OPEN, DARK_DECLINE, DARK_PAY
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.events import EV_PAY, log_event
from tsumolab.sims.riichi.columns import H_DARK_LOCKS, H_DARK_OPENS, H_DARK_PAID, H_FACE_DOWN, H_POT_WON
from tsumolab.sims.riichi.events import PAY_DARK_LOCK, PAY_DARK_OPEN, PAY_FACE_DOWN, PAY_POT
from tsumolab.sims.table_state import pub_add, pub_set
from tsumolab.sims.jit import allocates

FACE_DOWN_COST = 1_000     # D: discard face down
FACE_DOWN_RIICHI_MIN = 2_000  # D: points needed for a riichi declared with a face-down tile
OPEN_COST = 2_000          # D: open another seat's face-down tile
LOCK_COST = 4_000          # D: lock one's opened tile face down for good

DK_ON = 0
DK_POT = 1
DK_HIDDEN = 2              # [4]
DK_PENDING = 6
DK_OPENER = 7
DK_OPENED = 8              # [4]
DK_LOCKED = 12             # [4]
DK_RIICHI_HIDDEN = 16      # [4]
DK_SIZE = 20
CNT_ILLEGAL = 0            # = sims.riichi.engine.CNT_ILLEGAL (other answers than DARK_DECLINE / DARK_PAY are counted)


@nb.njit(cache=True)
def dark_start(obs, pot):
    """D: at the start of a hand the block shows the mode and the pot carried over from earlier hands."""
    pub_set(obs, ROBS.darkness + DK_ON, 1)
    pub_set(obs, ROBS.darkness + DK_POT, pot)


@nb.njit(cache=True)
def dark_pay(obs, seat, amount, reason, kind, rec, delta, events, ev):
    """`seat` pays `amount` into the pot (one EV_PAY row to the table, c = kind)."""
    log_event(events, ev, EV_PAY, seat, -1, amount, reason, kind)
    pub_add(obs, ROBS.points + seat, -amount)
    delta[seat] -= amount
    pub_add(obs, ROBS.darkness + DK_POT, amount)
    rec[seat, H_DARK_PAID] += amount


@nb.njit(cache=True)
def dark_face_down_ok(obs, seat, face_down, legal, riichi_now):
    """D: is the face-down discard allowed? It needs a legal discard answer and ≥ 1000 points (≥ 2000 for a
    riichi declaration)."""
    if not face_down:
        return True
    if not legal:
        return False
    need = FACE_DOWN_RIICHI_MIN if riichi_now else FACE_DOWN_COST
    return obs[0, ROBS.points + seat] >= need


@allocates
def dark_discard(state, seating, rules, log, cur, tile, riichi_now, delta):
    """D: `cur` has discarded `tile` face down: it pays 1000, the others may pay 2000 to open it, the discarder
    may then pay 4000 to lock it. Returns True when the tile stays face down (not callable, not ronnable, not
    shown), False when it was opened and is a normal discard. The first four arguments are the engine's groups
    (sims.riichi.bundles)."""
    obs, view, rec, ev = state.obs, state.hook_input, state.rec, state.ev
    hooks_mode, params, tables = seating.mode, seating.params, rules.lookup
    counters, events = log.counters, log.events
    dark_pay(obs, cur, FACE_DOWN_COST, PAY_FACE_DOWN, tile, rec, delta, events, ev)
    rec[cur, H_FACE_DOWN] += 1
    pub_add(obs, ROBS.darkness + DK_HIDDEN + cur, 1)
    pub_set(obs, ROBS.darkness + DK_PENDING, cur + 1)
    opener = -1
    for step in range(1, 4):  # D: the three decide at once; none sees another's answer
        p = (cur + step) % 4
        if obs[0, ROBS.won + p] == 1 or obs[0, ROBS.points + p] < OPEN_COST:
            continue
        view[:] = obs[p]
        view[ROBS.decision] = D_DARK_OPEN
        view[ROBS.tile] = -1
        view[ROBS.from_seat] = cur
        answer = hooks_mode[p](view, params[p], tables)
        obs[p, ROBS.rng] = view[ROBS.rng]
        if answer != DARK_DECLINE and answer != DARK_PAY:
            counters[CNT_ILLEGAL] += 1
        if answer == DARK_PAY and opener < 0:
            opener = p  # the first in turn order after the discarder pays
    hidden = True
    if opener >= 0:
        dark_pay(obs, opener, OPEN_COST, PAY_DARK_OPEN, tile, rec, delta, events, ev)
        rec[opener, H_DARK_OPENS] += 1
        locked = False
        if obs[0, ROBS.points + cur] >= LOCK_COST:
            pub_set(obs, ROBS.darkness + DK_OPENER, opener + 1)
            view[:] = obs[cur]
            view[ROBS.decision] = D_DARK_LOCK
            view[ROBS.tile] = tile
            view[ROBS.from_seat] = opener
            answer = hooks_mode[cur](view, params[cur], tables)
            obs[cur, ROBS.rng] = view[ROBS.rng]
            if answer != DARK_DECLINE and answer != DARK_PAY:
                counters[CNT_ILLEGAL] += 1
            locked = answer == DARK_PAY
            pub_set(obs, ROBS.darkness + DK_OPENER, 0)
        if locked:
            dark_pay(obs, cur, LOCK_COST, PAY_DARK_LOCK, tile, rec, delta, events, ev)
            rec[cur, H_DARK_LOCKS] += 1
            pub_add(obs, ROBS.darkness + DK_LOCKED + cur, 1)
        else:
            hidden = False
            pub_add(obs, ROBS.darkness + DK_HIDDEN + cur, -1)
            pub_add(obs, ROBS.darkness + DK_OPENED + cur, 1)
    pub_set(obs, ROBS.darkness + DK_PENDING, 0)
    if hidden and riichi_now:
        pub_set(obs, ROBS.darkness + DK_RIICHI_HIDDEN + cur, 1)
    return hidden


@nb.njit(cache=True)
def dark_take_pot(obs, rec, delta, winner, events, ev):
    """D: the winner takes the whole pot (the first winner in turn order after the discarder on a multiple
    ron: the engine calls this for that one only)."""
    pot = obs[0, ROBS.darkness + DK_POT]
    if pot == 0:
        return
    log_event(events, ev, EV_PAY, -1, winner, pot, PAY_POT, 0)
    pub_add(obs, ROBS.points + winner, pot)
    delta[winner] += pot
    pub_set(obs, ROBS.darkness + DK_POT, 0)
    rec[winner, H_POT_WON] += pot
