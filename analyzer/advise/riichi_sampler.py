"""Decision analysis for the riichi-family modes (analyzer.advise.riichi_view.VARIANTS): the sampler
analyzer.advise.evaluate drives, and the options of a stopped position.

A position is a sims.riichi.positions.Position stopped before one seat's decision; the sampler resamples the
hidden tiles, leaving in place those the mode shows (sims.riichi.determinize, sims.riichi.public_tiles), and
plays every option out on the same samples (sims.riichi.rollout).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from tsumolab.sims.decisions import (
    CHI_HIGH, CHI_LOW, CHI_MID, D_DARK_LOCK, D_DARK_OPEN, D_EXCHANGE, D_PICK, D_REACT, D_ROB, D_TURN, DARK_DECLINE,
    DARK_PAY, FACE_DOWN, KAN, KAN_CALL, NINE_TERMINALS, PASS, PON, RIICHI, RON, TSUMO, TSUMOGIRI,
)
from tsumolab.sims.riichi.darkness_pot import DK_ON, FACE_DOWN_COST, FACE_DOWN_RIICHI_MIN
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.tiles import tile_name

EXCHANGE_CAP = 40  # exchange triples rolled out at most; more are pre-screened by the shanten they leave


@dataclass
class RiichiSampler:
    """The compiled riichi engine with four seats' policies and one mode's rules, ready to roll positions out."""

    seats_spec: str
    variant: str = "riichi"
    rule_values: dict = field(default_factory=dict)
    deal: str = "progress"
    """how the other hands are dealt: to a shanten drawn from the field's play (sims.riichi.progress), or
    uniformly"""
    hooks: tuple = field(init=False)
    params: np.ndarray = field(init=False)
    start_points: int = field(init=False)
    south: bool = field(init=False)
    """a South match (two rounds) rather than East only: the rank points' table (analyzer.advise.objectives)"""
    progress: np.ndarray = field(init=False)

    def __post_init__(self):
        from tsumolab.policies.registry import check_mode, parse_seats
        from tsumolab.sims.modes import get_mode
        from tsumolab.sims.shanten_tables import lookup_tables
        from tsumolab.sims.riichi.bundles import RuleArrays, Seating
        from tsumolab.sims.riichi.progress import UNIFORM, field_progress
        from tsumolab.sims.seating import seat_hooks

        seats = parse_seats(self.seats_spec)
        check_mode(seats, self.variant)
        self.hooks, self.params = seat_hooks(seats, "riichi")
        rules = get_mode(self.variant).rules_class.from_dict(self.rule_values)
        self.start_points = rules.start_points
        self.south = rules.n_hands > 4
        self.topts = rules.to_array()
        self.sopts = rules.scoring_array()
        self.tables = lookup_tables()
        self.seating = Seating.of(self.hooks, self.params)
        self.rule_arrays = RuleArrays(self.topts, self.sopts, self.tables)
        if self.deal == "uniform":
            self.progress = UNIFORM
        elif self.deal == "progress":
            self.progress = field_progress(self.variant)
        else:
            raise ValueError(f"deal must be progress or uniform, got {self.deal!r}")

    def recipe(self):
        """How a worker process builds the same sampler."""
        return RiichiSampler, (self.seats_spec, self.variant, self.rule_values, self.deal)

    def rollouts(self, pos, seat, answers, seed, first, count, to_match_end):
        from tsumolab.analyzer.advise.evaluate import rollout_arrays
        from tsumolab.sims.riichi.rollout import paired_rollouts

        values, ranks, outcomes = rollout_arrays(len(answers), count)
        status = paired_rollouts(pos.play_state(), seat, np.asarray(answers, np.int64), seed, first, count,
                                 to_match_end, self.seating, self.rule_arrays, self.progress, self.public(pos, seat),
                                 (values, ranks, outcomes))
        if status < 0:
            raise ValueError("the position's tile counts are impossible")
        return values, ranks, outcomes

    def public(self, pos, seat):
        """(kept, kept_wall): the hidden tiles the mode shows `seat` at `pos` (sims.riichi.public_tiles)."""
        from tsumolab.sims.riichi.public_tiles import public_tiles

        return public_tiles(pos, seat, self.topts)

    def pending_view(self, pos):
        return pos.view

    def policy_answers(self, pos, seat, seed, prior=True):
        """The answer `seat`'s policy gives at the position: its hook of the decision's kind asked on a copy of
        the view (astrology's pick and darkness's open and lock are the mode hook's, as in the engine), its random
        stream started from `seed`; with `prior`, it gives way to strong players' order: a win first, then on a
        turn the discard prior's (analyzer.advise.policy_answer)."""
        from tsumolab.analyzer.advise.policy_answer import in_option_order, policy_stream, strong_players_order

        view = pos.view.copy()
        view[ROBS.rng] = policy_stream(seed)
        decision = int(view[ROBS.decision])
        hooks = {D_EXCHANGE: self.seating.ex, D_TURN: self.seating.turn, D_REACT: self.seating.react,
                 D_ROB: self.seating.rob}.get(decision, self.seating.mode)
        answer = in_option_order(decision, int(hooks[seat](view, self.params[seat], self.tables)))
        return strong_players_order(view, self.tables, answer) if prior else (answer,)


def riichi_options(view: np.ndarray, tables: np.ndarray | None = None) -> list[tuple[str, int]]:
    """(label, engine answer) of every legal option of the decision whose hook input is `view`. In darkness (D)
    every discard and riichi also goes face down where the seat's points allow (labels ending "face down"), and
    the open and lock decisions are "open" / "lock" or "decline"."""
    decision = int(view[ROBS.decision])
    hand = view[ROBS.hand:ROBS.hand + 34]
    if decision == D_TURN:
        out = [("tsumo", TSUMO)] if view[ROBS.can_win] else []
        if view[ROBS.can_nine]:
            out.append(("nine terminals", NINE_TERMINALS))
        out += [(f"kan {tile_name(k)}", KAN + k) for k in range(34) if view[ROBS.kan_options + k] > 0]
        drawn = int(view[ROBS.tile])
        if view[ROBS.riichi + int(view[ROBS.seat])] > 0:
            return out + _face_down_too(view, [(f"discard {tile_name(drawn)}", TSUMOGIRI)])
        forbidden = (int(view[ROBS.forbid_a]), int(view[ROBS.forbid_b])) if view[ROBS.after_call] else ()
        kinds = [k for k in range(34) if hand[k] > 0 and k not in forbidden]
        discards = [(f"discard {tile_name(k)}", k) for k in kinds]
        if drawn >= 0 and drawn in (4, 13, 22) and hand[drawn] > 1 and view[ROBS.red + drawn // 9]:
            discards.append((f"discard {tile_name(drawn)} (drawn copy)", TSUMOGIRI))
        if view[ROBS.can_riichi]:
            discards += [(f"riichi {tile_name(k)}", RIICHI + k) for k in kinds
                         if _tenpai_without(hand, view, k, tables)]
        return out + _face_down_too(view, discards)
    if decision == D_DARK_OPEN:
        return [("open", DARK_PAY), ("decline", DARK_DECLINE)]
    if decision == D_DARK_LOCK:
        return [("lock", DARK_PAY), ("decline", DARK_DECLINE)]
    if decision == D_REACT:
        out = [("ron", RON)] if view[ROBS.can_win] else []
        out += [("pon", PON)] if view[ROBS.can_pon] else []
        out += [("kan", KAN_CALL)] if view[ROBS.can_kan] else []
        for bit, answer, name in ((1, CHI_LOW, "chi low"), (2, CHI_MID, "chi middle"), (4, CHI_HIGH, "chi high")):
            if view[ROBS.can_chi] & bit:
                out.append((name, answer))
        return out + [("pass", PASS)]
    if decision == D_ROB:
        return [("ron", RON), ("pass", PASS)]
    if decision == D_EXCHANGE:
        return exchange_options(hand, int(view[ROBS.n_melds + int(view[ROBS.seat])]), tables)
    if decision == D_PICK:
        from tsumolab.analyzer.advise.riichi_pool import pick_options

        return pick_options(view)
    raise ValueError(f"no decision of a riichi mode pending (code {decision})")


def _face_down_too(view: np.ndarray, discards: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """`discards` (discard and riichi options), each followed in darkness (D) by the same made face down (answer
    FACE_DOWN + it) when the seat holds ≥ 1000 points (≥ 2000 for a riichi)."""
    if not view[ROBS.darkness + DK_ON]:
        return discards
    points = int(view[ROBS.points + int(view[ROBS.seat])])
    out = []
    for label, answer in discards:
        out.append((label, answer))
        riichi = RIICHI <= answer < RIICHI + 34 or answer == RIICHI + TSUMOGIRI
        if points >= (FACE_DOWN_RIICHI_MIN if riichi else FACE_DOWN_COST):
            out.append((f"{label} face down", FACE_DOWN + answer))
    return out


def _tables(tables):
    if tables is None:
        from tsumolab.sims.shanten_tables import lookup_tables

        tables = lookup_tables()
    return tables


def _shanten(hand, n_melds, tables) -> int:
    from tsumolab.sims.shanten import RIICHI_SHAPES, shanten
    from tsumolab.sims.shanten_tables import SUIT_ROWS

    tables = _tables(tables)
    return int(shanten(np.ascontiguousarray(hand, np.int32), n_melds, RIICHI_SHAPES, tables[:SUIT_ROWS],
                       tables[SUIT_ROWS:]))


def _tenpai_without(hand, view, kind, tables) -> bool:
    rest = np.array(hand, np.int32)
    rest[kind] -= 1
    return _shanten(rest, int(view[ROBS.n_melds + int(view[ROBS.seat])]), tables) <= 0


def exchange_options(hand, n_melds, tables=None) -> list[tuple[str, int]]:
    """Every distinct triple of held kinds (S-2), at most EXCHANGE_CAP of them: those leaving the lowest
    shanten first (ties in a fixed order)."""
    from tsumolab.policies.api import pack_exchange

    copies = [k for k in range(34) for _ in range(int(hand[k]))]
    triples = sorted(set(itertools.combinations(copies, 3)))
    if len(triples) > EXCHANGE_CAP:
        def left(triple):
            rest = np.array(hand, np.int32)
            for k in triple:
                rest[k] -= 1
            return _shanten(rest, n_melds, tables)

        triples = sorted(triples, key=left)[:EXCHANGE_CAP]
    return [("exchange " + " ".join(tile_name(k) for k in t), int(pack_exchange(*t))) for t in triples]
