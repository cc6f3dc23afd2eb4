"""The policy API of the riichi-based modes (every riichi-core mode): the observation layout and the answers.

Hooks have the same signature as in Bloodshed (policies.api.HOOK_SIG, decorate them with `policies.api.hook`):
`(obs int32[ROBS.SIZE], params float64[8], tables uint8[:, :]) -> int64`. The engine fills `obs` from
public information and the seat's own tiles only. Hook names of the riichi family: RIICHI_HOOK_NAMES.

Reading the observation: the accessors below (the names policies.api has for Bloodshed, where the meaning is
the same), or any field of ROBS directly (`obs[ROBS.furiten]`, `obs[ROBS.open + seat]`;
`sims.layout.describe(ROBS)` lists every field with its offset, width and meaning; the special modes' public
blocks, e.g. obs[ROBS.darkness + DK_ON], are laid out in their sims.riichi modules). A seat is 0..3 in turn
order, a kind 0..33 (0-8 man, 9-17 pin, 18-26 sou, 27-33 honors).
- this decision: decision(obs) (a D_* kind below), tile(obs), from_seat(obs), can_win(obs), win_han(obs),
  win_points(obs), can_pon(obs), can_kan(obs), can_chi(obs), can_riichi(obs), can_nine(obs), kan_options(obs)
  (34 kinds), after_call(obs);
- the seat: own_seat(obs), own_hand(obs) (34 counts of its concealed tiles), red_fives(obs) (3: m, p, s);
- the table: wall_left(obs), seen(obs) (34 counts of copies everyone can see), dora_indicators(obs) (the
  indicator kinds shown), and per seat points(obs, seat), has_won(obs, seat), riichi_of(obs, seat),
  n_melds(obs, seat), melds_of(obs, seat) (4 melds × (sims.tiles meld type + 1, lowest kind); 0 none),
  meld_tiles(obs, seat) (34 counts), discarded(obs, seat) (34 counts of every tile it discarded this hand,
  claimed ones included), safe_against(obs, seat) (34 kinds: 1 if known safe against that seat).
Array accessors return views of `obs` (no copy: copy before changing one). They are `inline` (sims.jit): a
hook that calls them compiles to the same code as one that slices `obs` itself. Hooks may call any
`@nb.njit` function as in Bloodshed (policies.api).

Decision points (decision(obs), the codes of policies.api) and their answers:
- D_EXCHANGE (shura, S-2): any three tiles of the hand → `pack_exchange(t0, t1, t2)` (policies.api; kinds 0..33).
- D_TURN: own turn; tile(obs) is the drawn tile (-1 after a call) → a kind to discard; RIICHI + kind to declare
  riichi discarding that kind (legal when can_riichi(obs) = 1 and the discard leaves the hand tenpai); KAN + kind
  (closed or added kan, legal where kan_options(obs)[kind] > 0); TSUMO (can_win(obs) = 1); NINE_TERMINALS
  (abort the hand, can_nine(obs) = 1). After a chi/pon (after_call(obs) = 1) the kinds obs[ROBS.forbid_a] /
  obs[ROBS.forbid_b] may not be discarded (swap-calling). A seat in riichi is asked only when it may tsumo or
  kan; any other answer then discards the drawn tile.
  darkness (D): FACE_DOWN + kind discards that kind face down (pays 1000; needs ≥ 1000 points),
  FACE_DOWN + RIICHI + kind declares riichi with a face-down tile (needs ≥ 2000); obs[ROBS.darkness + DK_ON]
  (sims.riichi.darkness_pot) is 1 where it is allowed; elsewhere it is an illegal answer.
- D_REACT: seat from_seat(obs) discarded tile(obs) → PASS, RON (can_win(obs)), PON (can_pon(obs)), KAN_CALL
  (can_kan(obs)), or CHI_LOW / CHI_MID / CHI_HIGH (the discard is the lowest / middle / highest tile of the
  chi; legal where bit 1/2/4 of can_chi(obs) is set).
- D_ROB: seat from_seat(obs) makes an added kan (or, for thirteen orphans, a closed kan) of tile(obs) → PASS
  or RON (can_win(obs)).
- D_PICK, D_DARK_OPEN, D_DARK_LOCK: a mode's own decisions, asked through the "mode" hook (the mode
  modules say what they answer). darkness (D): D_DARK_OPEN = pay 2000 to open seat from_seat(obs)'s face-down
  discard (kind unknown, tile(obs) = -1)? D_DARK_LOCK = pay 4000 to lock one's own discard tile(obs), just
  opened by seat from_seat(obs), face down for good? Answer DARK_PAY (1) or DARK_DECLINE (0).
An illegal answer is replaced by a legal default and counted.

Which copy of a kind moves (R-1: the red five is one copy of its kind):
- A discard answered by a kind (kind, RIICHI + kind, FACE_DOWN + kind) gives up a plain copy while one is held,
  else the red five; TSUMOGIRI in place of the kind (TSUMOGIRI, RIICHI + TSUMOGIRI, FACE_DOWN + TSUMOGIRI,
  FACE_DOWN + RIICHI + TSUMOGIRI) gives up the very copy just drawn (tile(obs); illegal after a call). In
  riichi the discard is always the copy drawn (the forced tsumogiri, and a kind answer equal to the drawn kind),
  as is the engine's default for an illegal answer. A discard is a tsumogiri (chant C, the log) when the copy
  drawn is the copy that left. mirror (M): a kind answer gives up a transparent copy first, TSUMOGIRI the drawn
  copy (sims.riichi.mirror_tiles).
- Calls (chi, pon, open kan) and added / closed kans put the held red five into the meld first; the exchange
  (S-2) passes the plain copy unless only the red is held.
The event log says which copy moved: the red field of deals, draws, discards, calls and kans (sims.riichi.events).
"""

from __future__ import annotations

# The decision kinds, answers and the riichi observation live in sims (policies import sims, never the reverse);
# they are re-exported here, names and values unchanged.
from tsumolab.sims.decisions import (  # noqa: F401
    CHI_HIGH, CHI_LOW, CHI_MID, D_DARK_LOCK, D_DARK_OPEN, D_EXCHANGE, D_PICK, D_REACT, D_ROB, D_TURN, DARK_DECLINE,
    DARK_PAY, FACE_DOWN, KAN, KAN_CALL, NINE_TERMINALS, PASS, PON, RIICHI, RIICHI_HOOK_NAMES, RON, TSUMO, TSUMOGIRI,
)
from tsumolab.sims.jit import inline
from tsumolab.sims.riichi.observation import ROBS

# The names of this module that read the riichi observation (a Bloodshed-only policy must not use them; see
# tests/test_observation_layouts.py).
OBSERVATION_NAMES = (
    "ROBS", "decision", "own_seat", "own_hand", "tile", "from_seat", "can_win", "win_han", "win_points", "can_pon",
    "can_kan", "can_chi", "can_riichi", "can_nine", "kan_options", "after_call", "red_fives", "wall_left", "seen",
    "dora_indicators", "points", "has_won", "riichi_of", "n_melds", "melds_of", "meld_tiles", "discarded",
    "safe_against",
)


# ---------------------------------------------------------------- this decision

@inline
def decision(obs):
    """D_* kind of this decision."""
    return obs[ROBS.decision]


@inline
def tile(obs):
    """The drawn tile (D_TURN; -1 after a call), the discard (D_REACT), the kan tile (D_ROB), the discard in
    question (darkness D_DARK_LOCK; -1 for D_DARK_OPEN)."""
    return obs[ROBS.tile]


@inline
def from_seat(obs):
    """Seat that discarded tile(obs) (D_REACT) or makes the kan (D_ROB); the darkness decisions' other seat."""
    return obs[ROBS.from_seat]


@inline
def can_win(obs):
    """1 if this decision may declare a win: TSUMO on D_TURN, RON on D_REACT and D_ROB."""
    return obs[ROBS.can_win]


@inline
def win_han(obs):
    """Han of that win (13 per yakuman)."""
    return obs[ROBS.win_han]


@inline
def win_points(obs):
    """Points that win collects (honba and sticks excluded)."""
    return obs[ROBS.win_points]


@inline
def can_pon(obs):
    """1 if this decision (D_REACT) may pon the discard."""
    return obs[ROBS.can_pon]


@inline
def can_kan(obs):
    """1 if this decision (D_REACT) may call an open kan (KAN_CALL) on the discard."""
    return obs[ROBS.can_kan]


@inline
def can_chi(obs):
    """Chi options of this decision (D_REACT): bit 1 CHI_LOW, 2 CHI_MID, 4 CHI_HIGH; 0 none."""
    return obs[ROBS.can_chi]


@inline
def can_riichi(obs):
    """1 if this turn may declare riichi (RIICHI + kind; the discard must leave the hand tenpai)."""
    return obs[ROBS.can_riichi]


@inline
def can_nine(obs):
    """1 if this turn may abort the hand by nine terminals (NINE_TERMINALS)."""
    return obs[ROBS.can_nine]


@inline
def kan_options(obs):
    """Own turn, per kind (view of 34): 1 a closed kan, 2 an added kan is possible (answer KAN + kind)."""
    return obs[ROBS.kan_options:ROBS.kan_options + 34]


@inline
def after_call(obs):
    """1 when this turn follows the seat's own chi / pon (no draw, no kan, no tsumo; obs[ROBS.forbid_a] and
    obs[ROBS.forbid_b] may not be discarded)."""
    return obs[ROBS.after_call]


# ---------------------------------------------------------------- the seat and the table

@inline
def own_seat(obs):
    """The observing seat, 0..3."""
    return obs[ROBS.seat]


@inline
def own_hand(obs):
    """The seat's concealed tiles, copies per kind (view of 34; a red five counts as a copy of its kind)."""
    return obs[ROBS.hand:ROBS.hand + 34]


@inline
def red_fives(obs):
    """1 per suit (m, p, s: view of 3) if the seat holds that red five among its concealed tiles."""
    return obs[ROBS.red:ROBS.red + 3]


@inline
def wall_left(obs):
    """Tiles left in the live wall."""
    return obs[ROBS.wall_left]


@inline
def seen(obs):
    """Copies of each kind visible to everyone: rivers, melds, dora indicators (view of 34)."""
    return obs[ROBS.seen:ROBS.seen + 34]


@inline
def dora_indicators(obs):
    """Kinds of the dora indicators shown so far (view of obs[ROBS.n_dora] entries)."""
    return obs[ROBS.dora:ROBS.dora + obs[ROBS.n_dora]]


@inline
def points(obs, seat):
    """Points of `seat`."""
    return obs[ROBS.points + seat]


@inline
def has_won(obs, seat):
    """1 if `seat` has won this hand (shura)."""
    return obs[ROBS.won + seat]


@inline
def riichi_of(obs, seat):
    """0 if `seat` has not declared riichi, 1 riichi, 2 double riichi."""
    return obs[ROBS.riichi + seat]


@inline
def n_melds(obs, seat):
    """Melds `seat` has made (closed kans included)."""
    return obs[ROBS.n_melds + seat]


@inline
def melds_of(obs, seat):
    """`seat`'s melds (view of 8): meld i at [2 * i] is its sims.tiles meld type + 1 (0 no meld), at [2 * i + 1]
    its lowest kind."""
    return obs[ROBS.melds + 8 * seat:ROBS.melds + 8 * seat + 8]


@inline
def meld_tiles(obs, seat):
    """Tiles in `seat`'s melds per kind (view of 34)."""
    return obs[ROBS.meld_tiles + 34 * seat:ROBS.meld_tiles + 34 * seat + 34]


@inline
def discarded(obs, seat):
    """Tiles `seat` has discarded this hand per kind (view of 34), claimed ones included."""
    return obs[ROBS.discarded + 34 * seat:ROBS.discarded + 34 * seat + 34]


@inline
def safe_against(obs, seat):
    """Per kind (view of 34): 1 if the kind is known safe against `seat` (its own discards, and any discard it let
    pass since its riichi)."""
    return obs[ROBS.safe + 34 * seat:ROBS.safe + 34 * seat + 34]
