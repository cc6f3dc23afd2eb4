"""Situations where a decision claim applies, found in simulated play, and their paired-rollout evaluation.

Scanning: the four seats of a field play matches (root seed, match id) exactly as `tsumolab run` plays them;
every decision of every hand is stopped at, the deciding seat's view is rebuilt, and each claim of the mode asks
its treatment and control hooks for their answers on that view (analyzer.decisions.claims.applies). Of the
decisions of one hand where a claim applies, one is kept, drawn with a generator keyed by (seed, match, hand,
claim), so consecutive decisions of one hand (a flush steered turn after turn) do not crowd the sample.

Evaluating: the hand is stopped at the situation's decision again and both answers are played out to the end
of the match (final points and rank) on the same samples and random streams (common random numbers). A sample
resamples only what no seat knows yet, keeping the other hands as play built them (analyzer.decisions.rollouts),
or, with resample "hidden", everything the deciding seat cannot see, as `tsumolab advise` does. After its forced
answer the deciding seat plays on with the policy that gave it (treatment or control); the other seats play the
field. The rollout seed is keyed by the situation, so a situation's numbers depend only on (seed, claim, field,
match, hand, decision), the rollout count and what is resampled.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass

import numpy as np

from tsumolab.analyzer.claims.tables import GIFT_BOX
from tsumolab.analyzer.decisions.claims import CLAIMS, DecisionClaim, applies, features_of
from tsumolab.analyzer.engines import riichi_engine, tools_for
from tsumolab.analyzer.stats import mean_estimate
from tsumolab.sims.modes import get_mode

@dataclass(frozen=True)
class ClaimArms:
    """A decision claim with its two policies (from its experiment file)."""

    claim: DecisionClaim
    treatment: str
    control: str


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


def seats_with(field: str, seat: int, policy: str) -> str:
    """The seat spec of a field (one policy for the four seats, or four) with `policy` in `seat`."""
    from tsumolab.policies.registry import parse_seats

    seats = [s.label for s in parse_seats(field)]
    seats[seat] = policy
    return ",".join(seats)


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


def scan_matches(mode: str, field: str, arms: list[ClaimArms], seed: int, matches: range,
                 rules: dict | None = None) -> list[Situation]:
    """The situations of every claim in `arms` (all of mode `mode`) in the given matches of `field`, in
    (match, hand) order: at most one per claim and hand."""
    scan = _SCANS[get_mode(mode).family.name]
    return scan(mode, field, arms, seed, matches, rules or {})


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


def _scan_bloodshed(mode, field, arms, seed, matches, rules) -> list[Situation]:
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
                        if applies(arm.claim, view, t, c, set(labels)):
                            found[arm.claim.id].append(_situation(arm, field, match, hand, n, int(S[ST.pend_seat]),
                                                                  kind, t, c, labels, view, sampler.tables))
                n += 1
            out += _pick(found, seed, match, hand)
    return out


def _riichi_hook_index(kind: int) -> int:
    from tsumolab.sims.decisions import D_EXCHANGE, D_REACT, D_ROB, D_TURN, RIICHI_HOOK_NAMES

    names = {D_EXCHANGE: "exchange", D_TURN: "turn", D_REACT: "react", D_ROB: "rob"}
    return RIICHI_HOOK_NAMES.index(names[kind])


def _scan_riichi(mode, field, arms, seed, matches, rules) -> list[Situation]:
    from tsumolab.analyzer.advise.riichi_sampler import riichi_options

    table = riichi_engine(mode, field, seed, json.dumps(rules, sort_keys=True))
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
                        t, c = treat.answer(index, view, table.tables), ctrl.answer(index, view, table.tables)
                        if applies(arm.claim, view, t, c, set(labels)):
                            found[arm.claim.id].append(_situation(arm, field, match, hand, pos.n_decisions,
                                                                  pos.seat, kind, t, c, labels, view,
                                                                  table.tables))
                stopped = table.advance(pos, None, pos.n_decisions + 1)
            out += _pick(found, seed, match, hand)
            hand += 1
    return out


# ----------------------------------------------------------------------------- evaluation
_SCANS = {"bloodshed": _scan_bloodshed, "riichi": _scan_riichi}
"""the situation scan of each engine family (sims.family), by the family's name"""


def rollout_seed(seed: int, s: Situation) -> int:
    return zlib.crc32(f"{seed}/{s.claim}/{s.field}/{s.match}/{s.hand}/{s.decision}".encode())


RESAMPLE = ("unseen", "hidden", "progress")
"""what a rollout resamples: what no seat knows yet (analyzer.decisions.rollouts, the default), or everything the
deciding seat cannot see, the other hands dealt uniformly (`hidden`) or, in Bloodshed, each to a progress drawn
from the baseline field's play (`progress`, the determinization of `tsumolab advise`; riichi modes deal as
`hidden`)"""


def evaluate(mode: str, arm: ClaimArms, s: Situation, seed: int, rollouts: int, rules: dict | None = None,
             resample: str = "unseen") -> dict:
    """Both options of `s` played out `rollouts` times to the match end; the row of decisions.parquet."""
    rules = rules or {}
    rseed = rollout_seed(seed, s)
    tools = tools_for(mode)
    state = tools.stopped_state(mode, s.field, seed, rules, s.match, s.hand, s.decision)
    deal = "progress" if resample == "progress" else "uniform"

    def sampler(policy):
        return tools.sampler(seats_with(s.field, s.seat, policy), mode, rules, deal)
    if state is None:
        raise RuntimeError(f"situation {s} is not reached again")  # the scan and the replay disagree: a bug
    if resample == "unseen":
        vt, rt = _state_rollouts(tools, sampler(arm.treatment), state, s.seat, s.treatment, rseed, rollouts)
        vc, rc = _state_rollouts(tools, sampler(arm.control), state, s.seat, s.control, rseed, rollouts)
    else:
        vt, rt, _ = sampler(arm.treatment).rollouts(state, s.seat, [s.treatment], rseed, 0, rollouts, True)
        vc, rc, _ = sampler(arm.control).rollouts(state, s.seat, [s.control], rseed, 0, rollouts, True)
    return situation_row(mode, seed, s, vt[0], rt[0], vc[0], rc[0])


def _state_rollouts(tools, sampler, state, seat: int, answer: int, seed: int, count: int):
    """(values, ranks)[1, sample] of `count` samples of one answer from the true `state`, hidden tiles kept."""
    values = np.zeros((1, count), np.float64)
    ranks = np.zeros((1, count), np.int32)
    tools.state_rollouts(sampler, state, seat, np.array([answer], np.int64), seed, values, ranks)
    return values, ranks


def _mean_ci(x: np.ndarray) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval."""
    e = mean_estimate(x)
    low, high = e.interval()
    return e.mean, (high - low) / 2


def situation_row(mode, seed, s: Situation, vt, rt, vc, rc) -> dict:
    gift = np.array([0.0, *(GIFT_BOX[r] for r in range(1, 5))])
    row = {"claim": s.claim, "mode": mode, "field": s.field, "seed": int(seed), "match": s.match, "hand": s.hand,
           "decision": s.decision, "seat": s.seat, "kind": s.kind, "treatment_answer": s.treatment_label,
           "control_answer": s.control_label}
    row.update({f"f_{name}": value for name, value in s.features})
    for name, (a, b) in {"points": (vt, vc), "rank": (rt.astype(float), rc.astype(float)),
                         "gift": (gift[rt], gift[rc])}.items():
        row[f"treatment_{name}"], row[f"treatment_{name}_ci"] = _mean_ci(a)
        row[f"control_{name}"], row[f"control_{name}_ci"] = _mean_ci(b)
        row[f"diff_{name}"], row[f"diff_{name}_ci"] = _mean_ci(a - b)
    row["rollouts"] = int(vt.size)
    return row


def claim_arms(ids, rules_by_mode=None) -> list[ClaimArms]:
    """The arms of decision claims `ids` from their experiment files."""
    from tsumolab.analyzer.claims.experiment import EXPERIMENTS_DIR, load_experiment

    out = []
    for cid in ids:
        exp = load_experiment(EXPERIMENTS_DIR / f"{cid.lower()}.toml")
        out.append(ClaimArms(CLAIMS[cid], exp.treatment, exp.control))
    return out
