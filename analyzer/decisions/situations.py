"""Situations where a decision claim applies, found in simulated play, and their paired-rollout evaluation.

Scanning (analyzer.decisions.scan, through the engine family's tools): the four seats of a field play matches
exactly as `tsumolab run` plays them, every decision is stopped at, and at most one situation per claim and hand
is kept where the claim applies.

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
from functools import lru_cache
from pathlib import Path

import numpy as np

from tsumolab.analyzer.claims.tables import GIFT_BOX
from tsumolab.analyzer.decisions.claims import CLAIMS
from tsumolab.analyzer.decisions.scan import ClaimArms, Situation
from tsumolab.analyzer.engines import tools_for
from tsumolab.analyzer.stats import mean_estimate


def seats_with(field: str, seat: int, policy: str) -> str:
    """The seat spec of a field (one policy for the four seats, or four) with `policy` in `seat`."""
    from tsumolab.policies.registry import parse_seats

    seats = [s.label for s in parse_seats(field)]
    seats[seat] = policy
    return ",".join(seats)


def scan_matches(mode: str, field: str, arms: list[ClaimArms], seed: int, matches: range,
                 rules: dict | None = None) -> list[Situation]:
    """The situations of every claim in `arms` (all of mode `mode`) in the given matches of `field`, in
    (match, hand) order: at most one per claim and hand. `rules` default to the arms' own (which must agree)."""
    if rules is None:
        kinds = {json.dumps(a.rules, sort_keys=True) for a in arms}
        if len(kinds) > 1:
            raise ValueError("claims under different rules are scanned apart")
        rules = arms[0].rules if arms else {}
    return tools_for(mode).scan_decisions(mode, field, arms, seed, matches, rules)


# ----------------------------------------------------------------------------- evaluation


def rollout_seed(seed: int, s: Situation) -> int:
    return zlib.crc32(f"{seed}/{s.claim}/{s.field}/{s.match}/{s.hand}/{s.decision}".encode())


RESAMPLE = ("unseen", "hidden", "progress")
"""what a rollout resamples: what no seat knows yet (analyzer.decisions.rollouts, the default), or everything the
deciding seat cannot see, the other hands dealt uniformly (`hidden`) or, in Bloodshed, each to a progress drawn
from the baseline field's play (`progress`, the determinization of `tsumolab advise`; riichi modes deal as
`hidden`)"""


def evaluate(mode: str, arm: ClaimArms, s: Situation, seed: int, rollouts: int, rules: dict | None = None,
             resample: str = "unseen") -> dict:
    """Both options of `s` played out `rollouts` times to the match end under `rules` (default: the claim's
    own, ClaimArms.rules); the row of decisions.parquet."""
    rules = arm.rules if rules is None else rules
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


def claim_arms(ids, rule_overrides: dict | None = None) -> list[ClaimArms]:
    """The arms of decision claims `ids` from their experiment files, `rule_overrides` (--rule) applied."""
    from tsumolab.analyzer.claims.experiment import load_experiment

    out = []
    for cid in ids:
        exp = load_experiment(experiment_path(cid), rule_overrides)
        out.append(ClaimArms(CLAIMS[cid], exp.treatment, exp.control, exp.rules, exp.beyond_sources))
    return out


def experiment_path(claim_id: str) -> Path:
    """The experiment file whose id is `claim_id` (analyzer/experiments/*.toml, then extra/*.toml)."""
    paths = _experiment_paths()
    if claim_id not in paths:
        raise KeyError(f"no experiment file has the id {claim_id!r}")
    return paths[claim_id]


@lru_cache(maxsize=1)
def _experiment_paths() -> dict[str, Path]:
    from tsumolab.analyzer.claims.experiment import EXPERIMENTS_DIR, EXTRA_DIR_NAME, read_toml

    paths = {}
    for path in [*sorted(EXPERIMENTS_DIR.glob("*.toml")), *sorted((EXPERIMENTS_DIR / EXTRA_DIR_NAME).glob("*.toml"))]:
        paths.setdefault(str(read_toml(path).get("id", "")), path)
    return paths
