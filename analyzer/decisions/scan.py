"""Finding the situations of decision claims in simulated play, per engine family (analyzer.engines'
scan_decisions calls these; this module imports no engine tools, so that engines may import it).

The four seats of a field play matches (root seed, match id) exactly as `tsumolab run` plays them; every
decision of every hand is stopped at, the deciding seat's view is rebuilt, and each claim of the mode asks its
treatment and control hooks for their answers on that view (analyzer.decisions.claims.applies). Of the
decisions of one hand where a claim applies, one is kept, drawn with a generator keyed by (seed, match, hand,
claim), so consecutive decisions of one hand (a flush steered turn after turn) do not crowd the sample.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from dataclasses import field as dataclass_field

import numpy as np

from tsumolab.analyzer.decisions.claims import DecisionClaim, applies, features_of


@dataclass(frozen=True)
class ClaimArms:
    """A decision claim with its two policies and its mode's rules (from its experiment file)."""

    claim: DecisionClaim
    treatment: str
    control: str
    rules: dict = dataclass_field(default_factory=dict)
    """the rule options of the claim's mode: the file's [rules] (FL-hourglass fixes a card) with the study's
    --rule overrides on top, every option explicit"""
    beyond_sources: bool = False
    """a question beyond the sources (analyzer/experiments/extra/), run with `decisions --extra` or --only"""


@dataclass(frozen=True)
class Situation:
    claim: str
    field: str
    match: int
    hand: int
    decision: int
    seat: int
    kind: int
    treatment: int
    control: int
    treatment_label: str
    control_label: str
    features: tuple[tuple[str, float], ...]


class _Hooks:
    """A policy's compiled hooks and parameter row, callable on a view from Python."""

    def __init__(self, spec: str, family: str):
        from tsumolab.policies.registry import parse_seat
        from tsumolab.sims.decisions import MAX_PARAMS

        seat = parse_seat(spec)
        self.hooks = seat.hooks(family)
        self.params = np.zeros(MAX_PARAMS, np.float64)
        values = seat.param_values()
        self.params[:len(values)] = values

    def answer(self, index: int, view, tables) -> int:
        return int(self.hooks[index](view.copy(), self.params, tables))


def _keyed_pick(seed: int, match: int, hand: int, claim: str, n: int) -> int:
    rng = np.random.default_rng([seed & 0x7FFF_FFFF, match, hand, zlib.crc32(claim.encode())])
    return int(rng.integers(n))


def _pick(found: dict, seed: int, match: int, hand: int) -> list[Situation]:
    out = []
    for claim_id, candidates in found.items():
        if candidates:
            out.append(candidates[_keyed_pick(seed, match, hand, claim_id, len(candidates))])
    return out


def _situation(arm: ClaimArms, field, match, hand, n, seat, kind, t, c, labels, view, tables) -> Situation:
    feats = features_of(arm.claim, view, t, c, tables)
    return Situation(arm.claim.id, field, match, hand, n, seat, kind, t, c, labels.get(t, str(t)),
                     labels.get(c, str(c)), tuple(feats.items()))


def scan_bloodshed(mode, field, arms, seed, matches, rules) -> list[Situation]:
    """The Bloodshed family's scan (analyzer.engines.BloodshedTools.scan_decisions)."""
    from tsumolab.analyzer.advise.bloodshed_sampler import Sampler, match_hands
    from tsumolab.analyzer.advise.bloodshed_position import options_of
    from tsumolab.sims.bloodshed.engine import N_COUNTERS
    from tsumolab.sims.bloodshed.resume import pending_decision, stop_at_decision
    from tsumolab.sims.bloodshed.state import ST
    from tsumolab.sims.events import N_EVENT_COLS

    from tsumolab.sims.riichi.positions import _direct

    stop_at_decision = _direct(stop_at_decision)  # no per-call typing of the 20 hooks (most of a short step)
    sampler = Sampler(field, rules)
    hooks = [(arm, _Hooks(arm.treatment, "bloodshed"), _Hooks(arm.control, "bloodshed")) for arm in arms]
    play = sampler.play_args()
    counters = np.zeros(N_COUNTERS, np.int64)
    events = np.zeros((0, N_EVENT_COLS), np.int32)
    ev = np.zeros(3, np.int64)
    out = []
    for match in matches:
        S = np.zeros(ST.SIZE, np.int32)
        for hand in match_hands(S, seed, match):
            found = {arm.claim.id: [] for arm in arms}
            n = 0
            while stop_at_decision(S, n, *play, counters, events, ev):
                kind = int(pending_decision(S))
                wanted = [h for h in hooks if kind in h[0].claim.kinds]
                if wanted:
                    view = sampler.pending_view(S)
                    labels = {a: label for label, a in options_of(view, kind)}
                    for arm, treat, ctrl in wanted:
                        t, c = treat.answer(kind, view, sampler.tables), ctrl.answer(kind, view, sampler.tables)
                        if applies(arm.claim, view, t, c, set(labels), sampler.tables):
                            found[arm.claim.id].append(_situation(arm, field, match, hand, n, int(S[ST.pend_seat]),
                                                                  kind, t, c, labels, view, sampler.tables))
                n += 1
            out += _pick(found, seed, match, hand)
    return out


def _riichi_hook_index(kind: int) -> int:
    """The riichi hook asked at a decision of `kind`: a mode's own decisions (the astrology pick, darkness's
    opening and locking) go to the "mode" hook (policies.riichi_api)."""
    from tsumolab.sims.decisions import (
        D_DARK_LOCK, D_DARK_OPEN, D_EXCHANGE, D_PICK, D_REACT, D_ROB, D_TURN, RIICHI_HOOK_NAMES,
    )

    names = {D_EXCHANGE: "exchange", D_TURN: "turn", D_REACT: "react", D_ROB: "rob", D_PICK: "mode",
             D_DARK_OPEN: "mode", D_DARK_LOCK: "mode"}
    return RIICHI_HOOK_NAMES.index(names[kind])


def scan_riichi(table, field, arms, seed, matches) -> list[Situation]:
    """The riichi family's scan (analyzer.engines.RiichiTools.scan_decisions) on `table`, the field's riichi
    engine under the claims' rules (analyzer.engines.riichi_engine)."""
    from tsumolab.analyzer.advise.riichi_sampler import riichi_options

    hooks = [(arm, _Hooks(arm.treatment, "riichi"), _Hooks(arm.control, "riichi")) for arm in arms]
    out = []
    for match in matches:
        hand = 1
        while True:
            pos = table.at_decision(match, hand, 0)
            if pos is None:
                if table.play_hand(match, hand) is None:
                    break  # the match ended before this hand
                hand += 1
                continue
            found = {arm.claim.id: [] for arm in arms}
            stopped = True
            while stopped:
                kind = pos.decision
                wanted = [h for h in hooks if kind in h[0].claim.kinds]
                if wanted:
                    view = pos.view
                    labels = {a: label for label, a in riichi_options(view, table.tables)}
                    index = _riichi_hook_index(kind)
                    for arm, treat, ctrl in wanted:
                        t = listed_answer(view, treat.answer(index, view, table.tables), labels)
                        c = listed_answer(view, ctrl.answer(index, view, table.tables), labels)
                        if applies(arm.claim, view, t, c, set(labels), table.tables):
                            found[arm.claim.id].append(_situation(arm, field, match, hand, pos.n_decisions,
                                                                  pos.seat, kind, t, c, labels, view,
                                                                  table.tables))
                stopped = table.advance(pos, None, pos.n_decisions + 1)
            out += _pick(found, seed, match, hand)
            hand += 1
    return out


def listed_answer(view, answer: int, options: dict) -> int:
    """A riichi turn answer as riichi_options lists it: TSUMOGIRI (plain or with riichi) is the drawn kind
    unless the options list the drawn copy apart (a drawn five beside the red one); every other answer as
    given."""
    from tsumolab.sims.decisions import D_TURN, RIICHI, TSUMOGIRI
    from tsumolab.sims.riichi.observation import ROBS

    base = answer - RIICHI if answer == RIICHI + TSUMOGIRI else answer
    drawn = int(view[ROBS.tile])
    if int(view[ROBS.decision]) != D_TURN or base != TSUMOGIRI or drawn < 0 or answer in options:
        return answer
    return answer - TSUMOGIRI + drawn
