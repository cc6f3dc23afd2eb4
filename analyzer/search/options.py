"""The candidate answers `search` rolls out at one decision, from the deciding seat's view (its hook input).

`candidates(view, base, kinds, top_k, tables)` returns the base policy's answer first, then the alternatives
of every searched kind (policies.search bits) present at the decision, each once and all legal; one answer
means there is nothing to search. Per kind:

- ron/pass: ron and pass (robbing a kan too); at an own-turn win, tsumo and discarding the drawn tile.
- kan: every closed or added kan on the own turn; the open kan and pass on a discard.
- calls: pon (and in riichi each chi) and pass.
- push/fold: on an own turn facing a visible threat, the safest discard. Bloodshed: an opponent still in the
  hand with 2 or more melds or a flush look, or every opponent once the wall has fewer than 20 tiles
  (policies.threats, the `fold` policy's defaults); riichi: an opponent in riichi (policies.riichi_common).
- riichi: the base's discard with and without the riichi declaration.
- exchange: the EXCHANGE_CAP triples that leave the lowest shanten; void: the three suits.
- `top_k` > 0: the k discards that leave the lowest shanten, then accept the most unseen tiles.
- pick (astrology, A): every candidate of the pool (identical candidates once).
- hide (darkness, D): each discard or riichi among the turn's candidates (the base's answer first) also face
  down, or face up when it is face down, where the seat's points allow it.
- open/lock (darkness, D): pay and decline, at the opening of another seat's face-down discard and at the
  locking of one's own opened one.
"""

from __future__ import annotations

import numpy as np

from tsumolab.analyzer.advise.riichi_sampler import exchange_options, riichi_options
from tsumolab.analyzer.advise.bloodshed_position import options_of
from tsumolab.policies.search import CALLS, EXCHANGE, HIDE, KAN, OPEN_LOCK, PICK, PUSH_FOLD, RIICHI, RON, VOID
from tsumolab.sims.decisions import (
    CHI_HIGH, CHI_LOW, CHI_MID, D_DARK_LOCK, D_DARK_OPEN, D_EXCHANGE, D_PICK, D_REACT, D_ROB, D_TURN, D_VOID,
    DARK_DECLINE, DARK_PAY, FACE_DOWN, KAN_CALL, PASS, PON, TSUMO, TSUMOGIRI,
)
from tsumolab.sims.decisions import KAN as KAN_ANSWER
from tsumolab.sims.decisions import RIICHI as RIICHI_ANSWER
from tsumolab.sims.decisions import RON as RON_ANSWER
from tsumolab.sims.riichi.darkness_pot import DK_ON

EXCHANGE_CAP = 8
THREAT_MELDS, LATE_WALL = 2, 20


def _unique(answers) -> list[int]:
    out = []
    for a in answers:
        if int(a) not in out:
            out.append(int(a))
    return out


def bloodshed_candidates(view, decision: int, base: int, kinds: int, top_k: int, tables) -> list[int]:
    """Candidates at a Bloodshed decision (policies.api.BOBS view)."""
    from tsumolab.policies.api import BOBS

    out = [base]
    if decision == D_EXCHANGE and kinds & EXCHANGE:
        triples = [a for _, a in options_of(view, decision)]
        out += _by_shanten_left(view[BOBS.hand:BOBS.hand + 34], triples, tables, _bloodshed_shanten)[:EXCHANGE_CAP]
    elif decision == D_VOID and kinds & VOID:
        out += [0, 1, 2]
    elif decision == D_REACT:
        if kinds & RON and view[BOBS.can_win]:
            out += [RON_ANSWER, PASS]
        if kinds & CALLS and view[BOBS.can_pon]:
            out += [PON, PASS]
        if kinds & KAN and view[BOBS.can_kan]:
            out += [KAN_CALL, PASS]
    elif decision == D_ROB and kinds & RON:
        out += [RON_ANSWER, PASS]
    elif decision == D_TURN:
        hand = view[BOBS.hand:BOBS.hand + 34]
        if kinds & RON and view[BOBS.can_win]:
            drawn = int(view[BOBS.tile])
            out += [TSUMO, drawn if drawn >= 0 else _efficient_discards(view, hand, tables, True, 1)[0]]
        if kinds & KAN:
            out += [KAN_ANSWER + k for k in range(27) if view[BOBS.kan_options + k] > 0]
        discarding = 0 <= base < 27 and base // 9 != view[BOBS.void + view[BOBS.seat]]
        if kinds & PUSH_FOLD and discarding:
            mask = _bloodshed_threats(view)
            if mask:
                from tsumolab.policies.threats import safest_discard

                out.append(int(safest_discard(view, mask)))
        if top_k > 0 and discarding:
            out += _efficient_discards(view, hand, tables, True, top_k)
    return _unique(out)


def _bloodshed_threats(view) -> int:
    from tsumolab.policies.api import BOBS
    from tsumolab.policies.threats import all_opponents, collected_suit, is_opponent, meld_threats

    mask = int(meld_threats(view, THREAT_MELDS))
    for p in range(4):
        if is_opponent(view, p) and collected_suit(view, p) >= 0:
            mask |= 1 << p
    if view[BOBS.wall_left] < LATE_WALL:
        mask |= int(all_opponents(view))
    return mask


def riichi_candidates(view, base: int, kinds: int, top_k: int, tables) -> list[int]:
    """Candidates at a decision of the riichi engine (policies.riichi_api.ROBS view)."""
    from tsumolab.policies.riichi_api import ROBS

    decision = int(view[ROBS.decision])
    out = [base]
    if decision == D_EXCHANGE and kinds & EXCHANGE:
        hand = view[ROBS.hand:ROBS.hand + 34]
        triples = [a for _, a in exchange_options(hand, int(view[ROBS.n_melds + view[ROBS.seat]]), tables)]
        out += _by_shanten_left(hand, triples, tables, _riichi_shanten)[:EXCHANGE_CAP]
    elif decision == D_REACT:
        if kinds & RON and view[ROBS.can_win]:
            out += [RON_ANSWER, PASS]
        if kinds & CALLS and view[ROBS.can_pon]:
            out += [PON, PASS]
        if kinds & CALLS and view[ROBS.can_chi]:
            out += [a for bit, a in ((1, CHI_LOW), (2, CHI_MID), (4, CHI_HIGH)) if view[ROBS.can_chi] & bit] + [PASS]
        if kinds & KAN and view[ROBS.can_kan]:
            out += [KAN_CALL, PASS]
    elif decision == D_ROB and kinds & RON:
        out += [RON_ANSWER, PASS]
    elif decision == D_TURN:
        out += _riichi_turn(view, base, kinds, top_k, tables)
    elif decision == D_PICK and kinds & PICK:
        from tsumolab.analyzer.advise.riichi_pool import pick_options

        out += [a for _, a in pick_options(view)]
    elif decision in (D_DARK_OPEN, D_DARK_LOCK) and kinds & OPEN_LOCK:
        out += [DARK_PAY, DARK_DECLINE]
    if len(out) == 1:
        return out
    legal = {a for _, a in riichi_options(view, tables)} if decision == D_TURN else None
    return _unique(a for a in out if legal is None or a in legal or a == base)


def _riichi_turn(view, base: int, kinds: int, top_k: int, tables) -> list[int]:
    from tsumolab.policies.riichi_api import ROBS

    out = []
    in_riichi = view[ROBS.riichi + view[ROBS.seat]] > 0
    if kinds & RON and view[ROBS.can_win]:
        out += [TSUMO, TSUMOGIRI]
    if kinds & KAN:
        out += [KAN_ANSWER + k for k in range(34) if view[ROBS.kan_options + k] > 0]
    if not in_riichi:
        out += _riichi_discards(view, base, kinds, top_k, tables)
    if kinds & HIDE and view[ROBS.darkness + DK_ON]:
        out += [turned for turned in map(_turned_over, (base, *out)) if turned is not None]
    return out


def _riichi_discards(view, base: int, kinds: int, top_k: int, tables) -> list[int]:
    """The turn's discard candidates of a seat not in riichi: riichi or dama, the fold discard, the top_k."""
    from tsumolab.policies.riichi_api import ROBS

    out = []
    declared = base - RIICHI_ANSWER
    plain = declared if declared == TSUMOGIRI or 0 <= declared < 34 else base
    if kinds & RIICHI and view[ROBS.can_riichi] and (plain < 34 or plain == TSUMOGIRI):
        out += [plain, RIICHI_ANSWER + plain]
    discarding = base < 34 or base == TSUMOGIRI
    if kinds & PUSH_FOLD and discarding:
        from tsumolab.policies.riichi_common import fold_discard, threats

        if threats(view):
            out.append(int(fold_discard(view, view[ROBS.forbid_a], view[ROBS.forbid_b])))
    if top_k > 0 and discarding:
        out += _efficient_discards(view, view[ROBS.hand:ROBS.hand + 34], tables, False, top_k)
    return out


def _is_discard(answer: int) -> bool:
    """A face-up discard or riichi answer of the riichi engine (a kind or the drawn copy, declared or not)."""
    plain = answer - RIICHI_ANSWER if RIICHI_ANSWER <= answer < RIICHI_ANSWER + 34 or \
        answer == RIICHI_ANSWER + TSUMOGIRI else answer
    return 0 <= plain < 34 or plain == TSUMOGIRI


def _turned_over(answer: int) -> int | None:
    """D: a discard or riichi answer face down, or face up when it is face down; None for another answer."""
    if _is_discard(answer - FACE_DOWN):
        return answer - FACE_DOWN
    return FACE_DOWN + answer if _is_discard(answer) else None


def _bloodshed_shanten(hand, n_melds, tables) -> int:
    from tsumolab.sims.shanten import BLOODSHED_SHAPES, shanten
    from tsumolab.sims.shanten_tables import SUIT_ROWS

    return int(shanten(hand, n_melds, BLOODSHED_SHAPES, tables[:SUIT_ROWS], tables[SUIT_ROWS:]))


def _riichi_shanten(hand, n_melds, tables) -> int:
    from tsumolab.sims.shanten import RIICHI_SHAPES, shanten
    from tsumolab.sims.shanten_tables import SUIT_ROWS

    return int(shanten(hand, n_melds, RIICHI_SHAPES, tables[:SUIT_ROWS], tables[SUIT_ROWS:]))


def _by_shanten_left(hand, triples: list[int], tables, shanten_of) -> list[int]:
    """Exchange answers sorted by the shanten of the 11 (or 10) tiles kept, stable."""
    def left(answer):
        rest = np.array(hand[:34], np.int32)
        for k in (answer & 0xFF, (answer >> 8) & 0xFF, (answer >> 16) & 0xFF):  # policies.api.pack_exchange
            rest[k] -= 1
        return shanten_of(rest, 0, tables)

    return sorted(triples, key=left)


def _efficient_discards(view, hand, tables, bloodshed: bool, k: int) -> list[int]:
    """The k held kinds whose discard leaves the lowest shanten, then accepts the most unseen copies."""
    shanten_of = _bloodshed_shanten if bloodshed else _riichi_shanten
    from tsumolab.policies.api import BOBS
    from tsumolab.policies.riichi_api import ROBS

    layout = BOBS if bloodshed else ROBS
    n_melds = int(view[layout.n_melds + view[layout.seat]])
    unseen = np.maximum(0, 4 - view[layout.hand:layout.hand + 34] - view[layout.seen:layout.seen + 34])
    counts = np.array(hand[:34], np.int32)
    keys = []
    for kind in range(34):
        if counts[kind] == 0:
            continue
        counts[kind] -= 1
        after = shanten_of(counts, n_melds, tables)
        accept = 0
        for draw in range(34):
            if unseen[draw] > 0:
                counts[draw] += 1
                if shanten_of(counts, n_melds, tables) < after:
                    accept += int(unseen[draw])
                counts[draw] -= 1
        counts[kind] += 1
        keys.append((after, -accept, kind))
    return [kind for _, _, kind in sorted(keys)[:k]]
