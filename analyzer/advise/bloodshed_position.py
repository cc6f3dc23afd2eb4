"""Bloodshed positions as JSON: one seat's view of a hand stopped at its decision, and its legal options.

Format (`"format": "tsumolab-position/1"`; tiles in mpsz notation, seats 0..3, lists indexed by seat):

    {"format": "tsumolab-position/1", "variant": "bloodshed",
     "seat": 2,                       deciding seat
     "hand_no": 1, "dealer": 0,       hand of the match (1..4) and its dealer
     "points": [50000, 50000, 50000, 50000],
     "wall": 40,                      tiles left in the live wall
     "hand": "1134m5678p22s",         the deciding seat's concealed tiles
     "melds": [["pon 5m"], [], ["kan 9s"], []]     pon / kan (open) / ankan (closed) / kakan (added)
     "rivers": ["19m", "", "3p", "4s"],            discards still in each river (claimed tiles left it;
                                                   a discard under reaction is its seat's last one)
     "voids": ["m", "p", "s", "p"],   declared void suits (null before the void declaration)
     "winners": [{"seat": 1, "kind": "ron"}],      wins so far this hand, in order (kind ron or tsumo)
     "decision": {"kind": "turn", "drawn": "3p"}   see below
     optional: "hand_sizes" (concealed tiles per seat; default 13 - 3 × melds, +1 for the seat on turn and
               for tsumo winners, 14 for the dealer before play starts), "draws" (per seat, default
               discards + kans - pons, +1 on turn), "discards" (per seat, default the river length),
               "kan_income" (4 × 4, receiver × payer, default zeros), "robbed" (tiles robbed from added kans,
               default none),
               "options" (restrict the analysis to these option labels)}

Decision kinds: `exchange` (choose three tiles of one suit, B-6; before the exchange, the direction is
unknown), `void` (B-7), `turn` ({"drawn": tile, or null after the seat's own pon and on the dealer's first turn
after the voids — its 14th tile may have been passed on —, "after_call": bool,
"kan_draw": bool}), `react` ({"tile", "from", "after_kan": the discarder just made a kan}), `rob`
({"tile", "from", "with_drawn_tile": the added tile is the one just drawn}).

Option labels: `exchange 1m2m3m`, `void p`, `discard 5m`, `kan 5m`, `tsumo`, `ron`, `pon`, `kan`, `pass`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from tsumolab.policies.api import (
    BOBS, D_EXCHANGE, D_REACT, D_ROB, D_TURN, D_VOID, KAN, KAN_CALL, PASS, PON, RON, TSUMO, pack_exchange,
)
from tsumolab.analyzer.advise.position_errors import NoDecision, PositionError  # noqa: F401 (re-exported)
from tsumolab.sims.bloodshed.engine import ANKAN_MELD, END_EXHAUSTIVE, KAKAN_MELD, MINKAN_MELD, PON_MELD
from tsumolab.sims.bloodshed.state import PH_EXCHANGE, PH_REACT, PH_ROB, PH_TURN, PH_VOID, ST
from tsumolab.sims.bloodshed.columns import HC, N_HAND_COLS
from tsumolab.sims.tiles import TileError, format_tiles, parse_tile, parse_tiles, tile_name

FORMAT = "tsumolab-position/1"
SUIT_LETTERS = "mps"
DECISIONS = {"exchange": D_EXCHANGE, "void": D_VOID, "turn": D_TURN, "react": D_REACT, "rob": D_ROB}
PHASES = {D_EXCHANGE: PH_EXCHANGE, D_VOID: PH_VOID, D_TURN: PH_TURN, D_REACT: PH_REACT, D_ROB: PH_ROB}
MELD_CODES = {"pon": PON_MELD, "kan": MINKAN_MELD, "ankan": ANKAN_MELD, "kakan": KAKAN_MELD}
MELD_WORDS = {v: k for k, v in MELD_CODES.items()}
N_WALL = 108


# ----------------------------------------------------------------------------- state → position
def position_of(S: np.ndarray, view: np.ndarray, variant: str = "bloodshed") -> dict:
    """The pending seat's view of the stopped state S as a position dict (`view`: resume.pending_view)."""
    seat = int(S[ST.pend_seat])
    obs = S[ST.obs:ST.obs + 4 * BOBS.SIZE].reshape(4, BOBS.SIZE)
    row = obs[seat]
    decision = int(S[ST.phase])
    kind = {PH_EXCHANGE: "exchange", PH_VOID: "void", PH_TURN: "turn", PH_REACT: "react", PH_ROB: "rob"}[decision]
    dec: dict = {"kind": kind}
    if kind == "turn":
        dec.update(drawn=None if S[ST.after_call] else _name(S[ST.drawn]), after_call=bool(S[ST.after_call]),
                   kan_draw=bool(S[ST.kan_draw]))
    elif kind == "react":
        dec.update(tile=_name(S[ST.tile]), **{"from": int(S[ST.cur])}, after_kan=bool(S[ST.kan_discard]))
    elif kind == "rob":
        dec.update(tile=_name(S[ST.tile]), **{"from": int(S[ST.cur])}, with_drawn_tile=bool(S[ST.drawn] == S[ST.tile]))
    sizes = [int(obs[p, BOBS.hand:BOBS.hand + 34].sum()) for p in range(4)]
    winners = [int(s) for s in _win_order(S)]
    position = {
        "format": FORMAT, "variant": variant, "seat": seat,
        "hand_no": int(row[BOBS.hand_no]), "dealer": int(row[BOBS.dealer]),
        "points": [int(row[BOBS.points + p]) for p in range(4)],
        "wall": int(row[BOBS.wall_left]),
        "hand": _tiles(row[BOBS.hand:BOBS.hand + 27]),
        "melds": [[f"{MELD_WORDS[int(row[BOBS.melds + 34 * p + k])]} {tile_name(k)}" for k in range(27)
                   if row[BOBS.melds + 34 * p + k] > 0] for p in range(4)],
        "rivers": [_tiles(row[BOBS.river + 34 * p:BOBS.river + 34 * p + 27]) for p in range(4)],
        "voids": [SUIT_LETTERS[row[BOBS.void + p]] if row[BOBS.void + p] >= 0 else None for p in range(4)],
        "winners": [{"seat": s, "kind": "tsumo" if _won_by_tsumo(S, s) else "ron"} for s in winners],
        "decision": dec,
        "hand_sizes": sizes,
        "draws": [int(S[ST.draws + p]) for p in range(4)],
        "discards": [int(row[BOBS.n_discards + p]) for p in range(4)],
        "kan_income": [[int(S[ST.kan_ledger + 4 * r + p]) for p in range(4)] for r in range(4)],
        "robbed": [tile_name(int(S[ST.robbed_kind + i])) for i in range(int(S[ST.robbed_tiles]))],
    }
    return position


def _win_order(S):
    rec = S[ST.rec:ST.rec + 4 * N_HAND_COLS].reshape(4, N_HAND_COLS)
    won = [p for p in range(4) if rec[p, HC["won"]] == 1]
    return sorted(won, key=lambda p: rec[p, HC["win_order"]])


def _won_by_tsumo(S, seat):
    rec = S[ST.rec:ST.rec + 4 * N_HAND_COLS].reshape(4, N_HAND_COLS)
    return rec[seat, HC["win_kind"]] == 2


def _name(kind) -> str | None:
    return None if kind < 0 else tile_name(int(kind))


def _tiles(counts) -> str:
    full = np.zeros(34, np.int64)
    full[:27] = counts
    return format_tiles(full)


# ----------------------------------------------------------------------------- position → state
@dataclass
class _Parsed:
    """A position's content, checked: what `_pack` writes into a state block."""
    seat: int
    decision: int
    dealer: int
    hand_no: int
    points: list[int]
    wall: int
    hand: np.ndarray        # the deciding seat's concealed counts (27 kinds)
    melds: np.ndarray       # 4 × 27 meld codes
    n_melds: np.ndarray
    rivers: np.ndarray      # 4 × 27 counts
    voids: np.ndarray       # void suit per seat, -1 = none yet
    winners: list[tuple[int, str]]
    won: np.ndarray
    robbed: list[int]
    cur: int
    drawn: int
    tile: int
    after_call: int
    kan_draw: int
    kan_discard: int
    sizes: list[int]        # concealed tiles per seat
    visible: np.ndarray     # copies of each kind the deciding seat sees
    discards: list[int]
    draws: list[int]
    kan_ledger: np.ndarray  # 16 entries, receiver × payer


def state_of(position: dict) -> tuple[np.ndarray, int]:
    """(state block stopped at the position's decision, deciding seat). Hidden slots (other hands, the wall)
    are filled in a fixed order from the unseen tiles; determinization resamples them. Raises PositionError."""
    parsed = _parse(position)
    return _pack(parsed), parsed.seat


def _parse(position: dict) -> _Parsed:
    """Read and check every field of a position (PositionError on the first that is wrong)."""
    p = _Reader(position)
    variant = position.get("variant", "bloodshed")
    if variant != "bloodshed":
        raise PositionError(f"advise supports variant 'bloodshed' only for now, not {variant!r}")
    if position.get("format", FORMAT) != FORMAT:
        raise PositionError(f"unknown position format {position.get('format')!r} (expected {FORMAT!r})")
    seat = p.seat("seat")
    dec = p.obj("decision")
    kind = dec.get("kind")
    if not isinstance(kind, str) or kind not in DECISIONS:
        raise PositionError(f"decision.kind must be one of {', '.join(DECISIONS)}, got {kind!r}")
    decision = DECISIONS[kind]
    dealer = p.seat("dealer")
    hand_no = p.int_in("hand_no", 1, 4)
    points = p.ints("points", 4, bound=10**9)
    wall = p.int_in("wall", 0, N_WALL - 53)
    hand = p.tiles("hand")
    melds, n_melds, pons, kans = _melds_of(p)
    rivers = np.zeros((4, 27), np.int64)
    for s, text in enumerate(p.list_of("rivers", 4, [""] * 4)):
        rivers[s] = _counts(text, f"rivers[{s}]")
    voids = _voids_of(p, decision, kind)
    winners, won = _winners_of(p, seat)
    robbed = [_kind(t) for t in p.list_of("robbed", None, [])]
    cur, drawn, tile, after_call, kan_draw, kan_discard = _decision_of(dec, decision, seat, hand, melds, rivers, won)
    on_turn = cur if decision == D_TURN and not after_call else -1
    sizes = _hand_sizes(p, decision, seat, dealer, cur, wall, hand, n_melds, winners)
    if any(voids[s] >= 0 and (melds[s, voids[s] * 9:voids[s] * 9 + 9] > 0).any() and won[s] for s in range(4)):
        raise PositionError("a winner cannot have melds of its void suit (B-10)")
    visible = _visible(sizes, seat, wall, hand, melds, rivers, robbed)
    discards = p.ints("discards", 4, [int(rivers[s].sum()) for s in range(4)], low=0, bound=N_WALL)
    if decision in (D_EXCHANGE, D_VOID):
        default_draws = [int(s == dealer) for s in range(4)]
    else:
        default_draws = [discards[s] + int(kans[s]) - int(pons[s]) + (s == on_turn) for s in range(4)]
    draws = p.ints("draws", 4, default_draws, bound=N_WALL)
    ledger = np.array(p.list_of("kan_income", 4, [[0] * 4] * 4), dtype=object)
    try:
        kan_ledger = np.array(ledger.tolist(), np.int64).reshape(16)
    except (ValueError, TypeError):
        raise PositionError("kan_income must be 4 lists of 4 integers (receiver × payer)") from None
    return _Parsed(seat, decision, dealer, hand_no, points, wall, hand, melds, n_melds, rivers, voids, winners, won,
                   robbed, cur, drawn, tile, after_call, kan_draw, kan_discard, sizes, visible, discards, draws,
                   kan_ledger)


def _melds_of(p: _Reader) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(4 × 27 meld codes, melds, pons and kans per seat)."""
    melds = np.zeros((4, 27), np.int64)
    n_melds = np.zeros(4, np.int64)
    pons = np.zeros(4, np.int64)
    kans = np.zeros(4, np.int64)
    for s, seat_melds in enumerate(p.list_of("melds", 4, [[]] * 4)):
        if not isinstance(seat_melds, list):
            raise PositionError(f"melds[{s}] must be a list of melds such as \"pon 5m\"")
        for text in seat_melds:
            word, _, tile = str(text).partition(" ")
            if word not in MELD_CODES:
                raise PositionError(f"meld {text!r}: use pon, kan, ankan or kakan followed by a tile")
            k = _kind(tile)
            if melds[s, k]:
                raise PositionError(f"seat {s} has two melds of {tile}")
            melds[s, k] = MELD_CODES[word]
            n_melds[s] += 1
            pons[s] += word == "pon"
            kans[s] += word != "pon"
    return melds, n_melds, pons, kans


def _voids_of(p: _Reader, decision: int, kind: str) -> np.ndarray:
    """Void suit per seat (-1 = none), all declared after the void decision and none before."""
    voids = np.full(4, -1, np.int64)
    for s, v in enumerate(p.list_of("voids", 4, [None] * 4)):
        if v is not None:
            if not isinstance(v, str) or len(v) != 1 or v not in SUIT_LETTERS:
                raise PositionError(f"voids[{s}] must be m, p, s or null, got {v!r}")
            voids[s] = SUIT_LETTERS.index(v)
    declared = voids >= 0
    if decision in (D_EXCHANGE, D_VOID) and declared.any():
        raise PositionError(f"a {kind} decision comes before the void declarations; voids must all be null")
    if decision not in (D_EXCHANGE, D_VOID) and not declared.all():
        raise PositionError("after the void declarations every seat has a void suit (B-7)")
    return voids


def _winners_of(p: _Reader, seat: int) -> tuple[list[tuple[int, str]], np.ndarray]:
    """([(seat, "ron" or "tsumo")] in order of winning, won flag per seat)."""
    winners = []
    for w in p.list_of("winners", None, []):
        ws = w.get("seat") if isinstance(w, dict) else None
        if (not isinstance(ws, int) or isinstance(ws, bool) or not 0 <= ws <= 3 or ws in [x for x, _ in winners]
                or w.get("kind") not in ("ron", "tsumo")):
            raise PositionError('winners: each entry is {"seat": 0..3, "kind": "ron" or "tsumo"}, once per seat; '
                                f"got {w!r}")
        winners.append((ws, w["kind"]))
    if len(winners) >= 3:
        raise PositionError("the hand is over after three wins (B-13)")
    won = np.zeros(4, np.int64)
    for ws, _ in winners:
        won[ws] = 1
    if won[seat]:
        raise PositionError(f"seat {seat} has won and takes no further part in the hand (B-12)")
    return winners, won


def _decision_of(dec, decision, seat, hand, melds, rivers, won) -> tuple[int, int, int, int, int, int]:
    """(seat on turn, drawn tile, tile under reaction, after_call, kan_draw, kan_discard) of the decision."""
    cur, drawn, tile, after_call, kan_draw, kan_discard = seat, -1, -1, 0, 0, 0
    if decision == D_TURN:
        after_call = int(bool(dec.get("after_call", False)))
        kan_draw = int(bool(dec.get("kan_draw", False)))
        first_turn = not rivers.any() and not melds.any()   # the dealer's, after the voids: no tile drawn in it
        if not after_call and (dec.get("drawn") is not None or not first_turn):
            if dec.get("drawn") is None:
                raise PositionError("a turn decision needs decision.drawn (or after_call true; null only on the "
                                    "dealer's first turn)")
            drawn = _kind(dec["drawn"])
            if hand[drawn] == 0:
                raise PositionError(f"decision.drawn {dec['drawn']} is not in the hand")
    elif decision in (D_REACT, D_ROB):
        cur = dec.get("from")
        if not isinstance(cur, int) or isinstance(cur, bool) or not 0 <= cur <= 3 or cur == seat or won[cur]:
            raise PositionError("decision.from must be another seat still playing")
        tile = _kind(dec.get("tile"))
        if decision == D_REACT:
            kan_discard = int(bool(dec.get("after_kan", False)))
            if rivers[cur, tile] == 0:
                raise PositionError(f"the discard {tile_name(tile)} must be in seat {cur}'s river")
        else:
            if melds[cur, tile] != PON_MELD:
                raise PositionError(f"seat {cur} needs a pon of {tile_name(tile)} to add a kan")
            drawn = tile if dec.get("with_drawn_tile", False) else -1
    return cur, drawn, tile, after_call, kan_draw, kan_discard


def _hand_sizes(p, decision, seat, dealer, cur, wall, hand, n_melds, winners) -> list[int]:
    """Concealed tiles per seat, checked against the deciding seat's hand and the phase of the hand."""
    if decision in (D_EXCHANGE, D_VOID):
        if wall != N_WALL - 53:
            raise PositionError(f"before play starts the wall holds {N_WALL - 53} tiles, got {wall}")
        default_sizes = [14 if s == dealer else 13 for s in range(4)]
    else:
        default_sizes = [13 - 3 * int(n_melds[s]) + (decision == D_TURN and s == seat)
                         + (dict(winners).get(s) == "tsumo") for s in range(4)]
        if decision == D_ROB:
            default_sizes[cur] += 1  # holds the tile being added
    sizes = p.ints("hand_sizes", 4, default_sizes, low=0, bound=14)
    if sizes[seat] != int(hand.sum()):
        raise PositionError(f"hand has {int(hand.sum())} tiles but hand_sizes[{seat}] is {sizes[seat]}")
    if (decision == D_TURN) and int(hand.sum()) + 3 * int(n_melds[seat]) != 14:
        raise PositionError(f"on its turn the seat holds 14 tiles counting melds as 3, got "
                            f"{int(hand.sum()) + 3 * int(n_melds[seat])}")
    if decision in (D_REACT, D_ROB) and int(hand.sum()) + 3 * int(n_melds[seat]) != 13:
        raise PositionError(f"when reacting the seat holds 13 tiles counting melds as 3, got "
                            f"{int(hand.sum()) + 3 * int(n_melds[seat])}")
    if decision in (D_EXCHANGE, D_VOID) and int(hand.sum()) != (14 if seat == dealer else 13):
        raise PositionError("before play starts the dealer holds 14 tiles and the others 13 (B-5)")
    return sizes


def _visible(sizes, seat, wall, hand, melds, rivers, robbed) -> np.ndarray:
    """Copies of each kind the deciding seat sees, checked: at most four, and the rest fill the hidden places."""
    visible = hand + rivers.sum(0) + np.where(melds == PON_MELD, 3, np.where(melds > 0, 4, 0)).sum(0)
    for k in robbed:
        visible[k] += 1
    if (visible > 4).any():
        k = int(np.argmax(visible > 4))
        raise PositionError(f"more than four copies of {tile_name(k)} are visible")
    hidden_slots = sum(sizes[s] for s in range(4) if s != seat) + wall
    unseen = int((4 - visible).sum())
    if unseen != hidden_slots:
        raise PositionError(f"tile counts do not add up to 108: {unseen} unseen tiles but {hidden_slots} hidden "
                            f"places (other hands {sum(sizes) - sizes[seat]} + wall {wall})")
    return visible


def _pack(q: _Parsed) -> np.ndarray:
    """The state block of a parsed position, stopped at its decision."""
    S = np.zeros(ST.SIZE, np.int32)
    obs = S[ST.obs:ST.obs + 4 * BOBS.SIZE].reshape(4, BOBS.SIZE)
    for s in range(4):
        obs[s, BOBS.seat] = s
        obs[s, BOBS.dealer] = q.dealer
        obs[s, BOBS.hand_no] = q.hand_no
        obs[s, BOBS.wall_left] = q.wall
        obs[s, BOBS.n_winners] = len(q.winners)
        obs[s, BOBS.turn] = sum(q.draws)
        for t in range(4):
            obs[s, BOBS.won + t] = q.won[t]
            obs[s, BOBS.points + t] = q.points[t]
            obs[s, BOBS.void + t] = q.voids[t]
            obs[s, BOBS.n_melds + t] = q.n_melds[t]
            obs[s, BOBS.n_discards + t] = q.discards[t]
            obs[s, BOBS.melds + 34 * t:BOBS.melds + 34 * t + 27] = q.melds[t]
            obs[s, BOBS.river + 34 * t:BOBS.river + 34 * t + 27] = q.rivers[t]
        obs[s, BOBS.seen:BOBS.seen + 27] = q.visible - q.hand - np.bincount(q.robbed, minlength=27)[:27]
    obs[q.seat, BOBS.hand:BOBS.hand + 27] = q.hand
    unseen_kinds = np.repeat(np.arange(27), 4 - q.visible)
    i = 0
    for s in range(4):
        if s == q.seat:
            continue
        n = q.sizes[s]
        if q.decision == D_ROB and s == q.cur:
            obs[s, BOBS.hand + q.tile] += 1  # the tile being added
            unseen_kinds = np.delete(unseen_kinds, np.nonzero(unseen_kinds == q.tile)[0][:1])
            n -= 1
        for k in unseen_kinds[i:i + n]:
            obs[s, BOBS.hand + k] += 1
        i += n
    S[ST.wall + N_WALL - q.wall:ST.wall + N_WALL] = unseen_kinds[i:]
    S[ST.pos] = N_WALL - q.wall
    S[ST.phase] = PHASES[q.decision]
    S[ST.cur] = q.cur if q.decision != D_EXCHANGE and q.decision != D_VOID else q.dealer
    S[ST.drawn] = q.drawn
    S[ST.tile] = q.tile
    S[ST.after_call] = q.after_call
    S[ST.kan_draw] = q.kan_draw
    S[ST.kan_discard] = q.kan_discard
    S[ST.last_kan_seat] = q.seat if q.kan_draw else -1
    S[ST.any_call] = int(q.n_melds.sum() > 0 or len(q.robbed) > 0)
    S[ST.winners] = len(q.winners)
    S[ST.first_winner] = q.winners[0][0] if q.winners else -1
    S[ST.robbed_tiles] = len(q.robbed)
    for j, k in enumerate(q.robbed[:3]):
        S[ST.robbed_kind + j] = k
    S[ST.end] = END_EXHAUSTIVE
    S[ST.draws:ST.draws + 4] = q.draws
    S[ST.kan_ledger:ST.kan_ledger + 16] = q.kan_ledger
    rec = S[ST.rec:ST.rec + 4 * N_HAND_COLS].reshape(4, N_HAND_COLS)
    for order, (ws, wkind) in enumerate(q.winners, 1):
        rec[ws, HC["won"]] = 1
        rec[ws, HC["win_order"]] = order
        rec[ws, HC["win_kind"]] = 2 if wkind == "tsumo" else 1
    S[ST.pend_seat] = q.seat
    S[ST.force_seat] = -1
    S[ST.watch_seat] = -1
    return S


def _kind(text) -> int:
    if not isinstance(text, str):
        raise PositionError(f"expected a tile such as 5m, got {text!r}")
    try:
        k, _ = parse_tile(text, allow_red=False, allow_honors=False)
    except TileError as exc:
        raise PositionError(str(exc)) from None
    return k


def _counts(text, where) -> np.ndarray:
    if not isinstance(text, str):
        raise PositionError(f"{where} must be a tile string such as 19m3p")
    try:
        counts, _ = parse_tiles(text, allow_red=False, allow_honors=False)
    except TileError as exc:
        raise PositionError(f"{where}: {exc}") from None
    return counts[:27].astype(np.int64)


class _Reader:
    def __init__(self, position):
        if not isinstance(position, dict):
            raise PositionError("a position is a JSON object")
        self.d = position

    def get(self, key, default=None):
        if key not in self.d:
            if default is None:
                raise PositionError(f"position lacks {key!r}")
            return default
        return self.d[key]

    def seat(self, key):
        return self.int_in(key, 0, 3)

    def int_in(self, key, lo, hi):
        v = self.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise PositionError(f"{key} must be an integer in {lo}..{hi}, got {v!r}")
        return v

    def ints(self, key, n, default=None, low=None, bound=2**31 - 1):
        """A list of `n` integers in low..bound (low defaults to -bound)."""
        v = self.get(key, default)
        low = -bound if low is None else low
        if not isinstance(v, list) or len(v) != n or not all(isinstance(x, int) and not isinstance(x, bool)
                                                             and low <= x <= bound for x in v):
            raise PositionError(f"{key} must be a list of {n} integers in {low}..{bound}")
        return list(v)

    def obj(self, key):
        v = self.get(key)
        if not isinstance(v, dict):
            raise PositionError(f"{key} must be an object")
        return v

    def list_of(self, key, n, default):
        v = self.get(key, default)
        if not isinstance(v, list) or (n is not None and len(v) != n):
            raise PositionError(f"{key} must be a list" + (f" of {n} entries" if n else ""))
        return v

    def tiles(self, key):
        return _counts(self.get(key), key)


# ----------------------------------------------------------------------------- options
def options_of(view: np.ndarray, decision: int) -> list[tuple[str, int]]:
    """(label, engine answer) of every legal option of the decision whose hook input is `view`."""
    hand = view[BOBS.hand:BOBS.hand + 27]
    if decision == D_EXCHANGE:
        out = []
        for suit in range(3):
            copies = [k for k in range(suit * 9, suit * 9 + 9) for _ in range(int(hand[k]))]
            for triple in sorted(set(itertools.combinations(copies, 3))):
                out.append(("exchange " + "".join(tile_name(k) for k in triple), int(pack_exchange(*triple))))
        return out
    if decision == D_VOID:
        return [(f"void {SUIT_LETTERS[s]}", s) for s in range(3)]
    if decision == D_TURN:
        out = [("tsumo", TSUMO)] if view[BOBS.can_win] else []
        out += [(f"kan {tile_name(k)}", KAN + k) for k in range(27) if view[BOBS.kan_options + k] > 0]
        out += [(f"discard {tile_name(k)}", k) for k in range(27) if hand[k] > 0]
        return out
    if decision == D_REACT:
        out = [("ron", RON)] if view[BOBS.can_win] else []
        out += [("pon", PON)] if view[BOBS.can_pon] else []
        out += [("kan", KAN_CALL)] if view[BOBS.can_kan] else []
        return out + [("pass", PASS)]
    if decision == D_ROB:
        return [("ron", RON), ("pass", PASS)]
    raise PositionError(f"no decision pending (code {decision})")
