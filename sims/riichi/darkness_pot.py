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
  yes, the first in turn order after the discarder pays (the others pay nothing). They are asked one after the
  other in turn order, each seeing only its own question.
- When it is opened the discarder is asked (decision D_DARK_LOCK, ROBS.tile = the kind, ROBS.from_seat = the opener)
  whether to pay 4000 to lock it face down for good; only with ≥ 4000 points (seed 002 rule 10: below 4000
  no lock). The opener's 2000 stays in the pot either way.
- Both are decisions of the engine's own (phases PH_DARK_OPEN and PH_DARK_LOCK of sims.riichi.hand_state): a
  position may stop at them and resume with a forced answer (sims.riichi.positions). The engine steps through
  them with the functions below: dark_face_down (the payment, then PH_DARK_OPEN), dark_open_seat and
  dark_open_answer per seat, dark_opened (the opener pays; PH_DARK_LOCK when the discarder may lock),
  dark_lock_view and dark_lock_answer, then dark_settled and the rest of the discard.
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

Hand state (sims.riichi.hand_state HS, private): dark_step and dark_opener for the open decisions; dark_river and
dark_red, the kinds (and red fives) of each seat's face-down discards hidden from the others (not opened, locked,
or under decision). They lie in the river (tableau ST_RIVER) like every discard; the determinization
(sims.riichi.determinize) deals those of the other seats again.

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
from tsumolab.sims.riichi.hand_state import HS
from tsumolab.sims.table_state import pub_add, pub_set
from tsumolab.sims.jit import copy_row

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


@nb.njit(cache=True)
def dark_face_down(state, log, cur, tile, red, delta):
    """D: `cur` has discarded `tile` (the red five when `red`) face down: it pays 1000 and the tile lies hidden in
    its river (hs dark_river, dark_red); the other seats are asked next whether to open it (PH_DARK_OPEN, from
    hs[dark_step] = 1). The engine's groups: sims.riichi.bundles."""
    hs, obs, rec = state.hs, state.obs, state.rec
    dark_pay(obs, cur, FACE_DOWN_COST, PAY_FACE_DOWN, tile, rec, delta, log.events, state.ev)
    rec[cur, H_FACE_DOWN] += 1
    pub_add(obs, ROBS.darkness + DK_HIDDEN + cur, 1)
    pub_set(obs, ROBS.darkness + DK_PENDING, cur + 1)
    hs[HS.dark_river + 34 * cur + tile] += 1
    if red:
        hs[HS.dark_red + 3 * cur + tile // 9] = 1
    hs[HS.hidden] = 1
    hs[HS.dark_step] = 1
    hs[HS.dark_opener] = -1


@nb.njit(cache=True)
def dark_open_seat(hs, obs, view):
    """D: the next seat after cur, from hs[dark_step], asked whether to pay 2000 to open cur's face-down tile (one
    that has not won and holds ≥ 2000 points), its question in `view` (the kind unknown: tile -1); -1 when every
    seat has been asked. The three are asked at once: none sees another's answer (hs[dark_opener] is not in
    `view`)."""
    cur = hs[HS.cur]
    while hs[HS.dark_step] <= 3:
        p = (cur + hs[HS.dark_step]) % 4
        if obs[0, ROBS.won + p] == 1 or obs[0, ROBS.points + p] < OPEN_COST:
            hs[HS.dark_step] += 1
            continue
        copy_row(view, obs[p])
        view[ROBS.decision] = D_DARK_OPEN
        view[ROBS.tile] = -1
        view[ROBS.from_seat] = cur
        return p
    return -1


@nb.njit(cache=True)
def dark_open_answer(hs, counters, p, answer):
    """D: seat p's answer to the opening; the first in turn order after the discarder that pays is the opener."""
    if answer != DARK_DECLINE and answer != DARK_PAY:
        counters[CNT_ILLEGAL] += 1
    if answer == DARK_PAY and hs[HS.dark_opener] < 0:
        hs[HS.dark_opener] = p
    hs[HS.dark_step] += 1


@nb.njit(cache=True)
def dark_opened(state, log, delta):
    """D: every seat has answered. The opener, if any, pays 2000; then cur is asked to lock the tile (True: the
    lock decision follows, PH_DARK_LOCK) when it holds ≥ 4000 points, else the tile is face up."""
    hs, obs, rec = state.hs, state.obs, state.rec
    opener = hs[HS.dark_opener]
    if opener < 0:
        return False
    cur = hs[HS.cur]
    dark_pay(obs, opener, OPEN_COST, PAY_DARK_OPEN, hs[HS.tile], rec, delta, log.events, state.ev)
    rec[opener, H_DARK_OPENS] += 1
    if obs[0, ROBS.points + cur] >= LOCK_COST:
        pub_set(obs, ROBS.darkness + DK_OPENER, opener + 1)
        return True
    _dark_reveal(hs, obs, cur)
    return False


@nb.njit(cache=True)
def dark_lock_view(hs, obs, view):
    """D: cur's question whether to pay 4000 to lock its tile hs[tile], opened by hs[dark_opener], into `view`."""
    cur = hs[HS.cur]
    copy_row(view, obs[cur])
    view[ROBS.decision] = D_DARK_LOCK
    view[ROBS.tile] = hs[HS.tile]
    view[ROBS.from_seat] = hs[HS.dark_opener]


@nb.njit(cache=True)
def dark_lock_answer(state, log, delta, answer):
    """D: cur's answer to the lock: DARK_PAY pays 4000 and the tile stays face down for good; else it is face
    up."""
    hs, obs, rec = state.hs, state.obs, state.rec
    cur = hs[HS.cur]
    if answer != DARK_DECLINE and answer != DARK_PAY:
        log.counters[CNT_ILLEGAL] += 1
    pub_set(obs, ROBS.darkness + DK_OPENER, 0)
    if answer == DARK_PAY:
        dark_pay(obs, cur, LOCK_COST, PAY_DARK_LOCK, hs[HS.tile], rec, delta, log.events, state.ev)
        rec[cur, H_DARK_LOCKS] += 1
        pub_add(obs, ROBS.darkness + DK_LOCKED + cur, 1)
    else:
        _dark_reveal(hs, obs, cur)


@nb.njit(cache=True)
def _dark_reveal(hs, obs, cur):
    """D: cur's face-down tile hs[tile] was opened and not locked: an ordinary discard from now on."""
    hs[HS.hidden] = 0
    pub_add(obs, ROBS.darkness + DK_HIDDEN + cur, -1)
    pub_add(obs, ROBS.darkness + DK_OPENED + cur, 1)
    tile = hs[HS.tile]
    hs[HS.dark_river + 34 * cur + tile] -= 1
    if hs[HS.red]:
        hs[HS.dark_red + 3 * cur + tile // 9] = 0


@nb.njit(cache=True)
def dark_settled(hs, obs):
    """D: the face-down tile's decisions are over (hs[hidden]: it stays face down); a face-down riichi
    declaration tile is marked."""
    pub_set(obs, ROBS.darkness + DK_PENDING, 0)
    if hs[HS.hidden] == 1 and hs[HS.riichi_now] == 1:
        pub_set(obs, ROBS.darkness + DK_RIICHI_HIDDEN + hs[HS.cur], 1)


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
