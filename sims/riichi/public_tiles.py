"""What each riichi-family mode shows of the tiles the riichi view hides: the one place that says which hidden
tiles a determinization (sims.riichi.determinize) must leave where they are.

In riichi the other seats' concealed tiles and the wall's face-down tiles are all hidden. Some modes make part of
them public:
- `fate` (F): the first four tiles of each deal are open; obs[ROBS.fate_open] counts those a seat still holds,
  concealed or in its melds. At least fate_open − (the seat's own tiles of that kind in its melds) of them are
  concealed, and the red five too while it is open (ROBS.fate_red) and not in the seat's melds.
- `open-deal` (OD): every starting hand is open (ROBS.deal_shown). Each hand discard (not a tsumogiri) and each
  tile the seat puts into a meld from its hand may be a starting tile, so at least deal − those copies of each
  kind are still concealed; the red five too while the seat was dealt it and has neither discarded it nor
  melded it.
- `mirror` (M): three copies of every kind are transparent wherever they lie (ROBS.mirror): in a hand, counted by
  kind, and in the wall, in their very slots. Only the normal copies are hidden.
- `astrology` (A): the candidates lie face up (ROBS.astrology), each in its wall slot (a live-wall slot the draw
  position has passed, or a replacement slot already counted as drawn): those slots stay. Every draw once the pool
  is open is the pick of a candidate, seen by all, so the tiles a seat picked are in its hand until it gives up
  tiles of that kind: at least (picks − discards − tiles melded from the hand) of each kind, counted in order of
  play, stay concealed, the red five too from its pick until the seat discards or melds it.
Everything else the special modes add is public state outside the tiles and is kept as it is:
the dora-fever indicators, chant's runs, soul strike's turns, fantasy's cards, the dragon eye's holder and
counter. Random streams of the rules (the dragon eye's next placements) are hidden and keyed again per sample.
`darkness` (D) works the other way: it hides more than riichi, the kinds of the other seats' face-down discards
(not opened, or locked), which the determinization deals again from the hand state (HS dark_river), not here.

`public_tiles(pos, seat, topts)` returns them as two arrays the compiled determinization reads:
    kept[p, kind]       concealed tiles of seat p that stay in its hand (kinds 0..33; columns 34..36: 1 when its
                        red five of suit m, p, s is one of them)
    kept_wall[i]        1 when wall slot i stays as it is
The fate, open-deal and astrology bounds need the hand's event log (a position kept with its events, as every
position read from a document is): fate's to leave out the open tiles a seat has melded.
"""

from __future__ import annotations

import numpy as np

from tsumolab.sims import tiles
from tsumolab.sims.events import EV_DEAL, EV_DISCARD, EV_DRAW, EV_KAN, EV_PON
from tsumolab.sims.riichi import rules as T
from tsumolab.sims.riichi.events import EV_CHI, EV_POOL
from tsumolab.sims.riichi.mirror_tiles import MIR_HAND
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.tableau import F_OWN_RED_MELD, ST_FLAGS

KEPT_COLUMNS = 37        # 34 kinds, then the red five of each suit
RED = 34
FIVES = (4, 13, 22)
NONE_KEPT = np.zeros((4, KEPT_COLUMNS), np.int64)


def no_public_tiles(n_tiles: int = T.N_TILES) -> tuple[np.ndarray, np.ndarray]:
    """(kept, kept_wall) of a mode that shows no hidden tile."""
    return NONE_KEPT.copy(), np.zeros(n_tiles, np.int64)


def public_tiles(pos, seat: int, topts) -> tuple[np.ndarray, np.ndarray]:
    """(kept, kept_wall) of the stopped position `pos` (sims.riichi.positions.Position) as `seat` sees it."""
    kept, kept_wall = no_public_tiles(pos.wall.size)
    if topts[T.T_FATE]:
        _fate(pos, kept, own_melded(_logged(pos, "a fate")))
    if topts[T.T_OPEN_DEAL]:
        _open_deal(pos, kept)
    if topts[T.T_MIRROR]:
        _mirror(pos, kept, kept_wall)
    if topts[T.T_ASTROLOGY]:
        _astrology(_logged(pos, "an astrology"), kept, kept_wall)
    kept[seat] = 0
    return kept, kept_wall


def own_melded(rows: np.ndarray) -> np.ndarray:
    """[4, 34] copies of each kind each seat moved from its own hand into its melds in the hand's events."""
    out = np.zeros((4, 34), np.int64)
    for kind, seat, tile, a, _b, _c in rows[:, 2:8].tolist():
        if kind == EV_CHI:
            for k in (tile, tile + 1, tile + 2):
                out[seat, k] += k != a
        elif kind == EV_PON:
            out[seat, tile] += 2
        elif kind == EV_KAN:
            out[seat, tile] += {tiles.MINKAN: 3, tiles.ANKAN: 4, tiles.KAKAN: 1}[a]
    return out


def _fate(pos, kept, melded):
    """F: open deal tiles that must still be concealed."""
    for p in range(4):
        for k in range(34):
            kept[p, k] = max(0, pos.obs[0, ROBS.fate_open + 34 * p + k] - melded[p, k])
        for suit, k in enumerate(FIVES):
            if pos.obs[0, ROBS.fate_red + 3 * p + suit] and not pos.st[ST_FLAGS + p, F_OWN_RED_MELD + suit]:
                kept[p, RED + suit] = 1
                kept[p, k] = max(kept[p, k], 1)


def _logged(pos, which: str) -> np.ndarray:
    """The hand's event rows of `pos`; ValueError when it keeps none."""
    rows = pos.logged()
    if rows.shape[0] == 0:
        raise ValueError(f"{which} position needs its event log (RiichiEngine(..., keep_events=True))")
    return rows


def _open_deal(pos, kept):
    """OD: starting tiles that must still be concealed."""
    rows = _logged(pos, "an open-deal")
    out = own_melded(rows)
    dealt_red = np.zeros((4, 3), np.int64)
    gave_red = np.zeros((4, 3), np.int64)
    for kind, seat, tile, a, _b, c in rows[:, 2:8].tolist():
        if kind == EV_DEAL and a == 1:
            dealt_red[seat, tile // 9] = 1
        elif kind == EV_DISCARD:
            out[seat, tile] += a == 0
            if c == 1:
                gave_red[seat, tile // 9] = 1
    for p in range(4):
        for k in range(34):
            kept[p, k] = max(0, pos.obs[0, ROBS.deal_shown + 34 * p + k] - out[p, k])
        for suit, k in enumerate(FIVES):
            if dealt_red[p, suit] and not gave_red[p, suit] and not pos.st[ST_FLAGS + p, F_OWN_RED_MELD + suit]:
                kept[p, RED + suit] = 1
                kept[p, k] = max(kept[p, k], 1)


def _mirror(pos, kept, kept_wall):
    """M: transparent copies in the hands (by kind) and in the wall (every slot holding one)."""
    for p in range(4):
        kept[p, :34] = pos.obs[0, ROBS.mirror + MIR_HAND + 34 * p:ROBS.mirror + MIR_HAND + 34 * p + 34]
    kept_wall[:] = pos.wall % 4 != 0


def _astrology(rows, kept, kept_wall):
    """A: the candidates' wall slots, and each seat's picks it must still hold (module doc)."""
    slots: list[int] = []
    held = np.zeros((4, 34), np.int64)
    red = np.zeros((4, 3), bool)
    for kind, seat, tile, a, b, c in rows[:, 2:8].tolist():
        if kind == EV_POOL:
            slots.append(b)
        elif kind == EV_DRAW and b > 0:  # a pick: b = the candidate's index + 1, c = dead + 2 × red
            del slots[b - 1]
            held[seat, tile] += 1
            if c & 2:
                red[seat, tile // 9] = True
        elif kind == EV_DISCARD:
            held[seat, tile] = max(0, held[seat, tile] - 1)
            if c:
                red[seat, tile // 9] = False
        elif kind in (EV_CHI, EV_PON, EV_KAN):
            _melded_from_hand(held, red, seat, kind, tile, a, c)
    kept_wall[slots] = 1
    for p in range(4):
        kept[p, :34] = held[p]
        for suit, k in enumerate(FIVES):
            if red[p, suit]:
                kept[p, RED + suit] = 1
                kept[p, k] = max(kept[p, k], 1)


def _melded_from_hand(held, red, seat, kind, tile, a, c):
    """A: the tiles a call or kan moved from the seat's hand leave its picks' bound (c & 2: a red five among
    them)."""
    if kind == EV_CHI:
        moved = [(k, 1) for k in (tile, tile + 1, tile + 2) if k != a]
    elif kind == EV_PON:
        moved = [(tile, 2)]
    else:
        moved = [(tile, {tiles.MINKAN: 3, tiles.ANKAN: 4, tiles.KAKAN: 1}[a])]
    for k, n in moved:
        held[seat, k] = max(0, held[seat, k] - n)
        if c & 2 and k in FIVES:
            red[seat, k // 9] = False
