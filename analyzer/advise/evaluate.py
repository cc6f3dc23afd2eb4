"""Monte Carlo decision analysis: every option of a stopped position, by paired rollouts.

For determinizations k = 0, 1, … (sims.bloodshed.determinize, sims.riichi.determinize; keyed by (seed, k))
each option is played out with the same resampled hidden tiles and the same random streams
(sims.bloodshed.rollout, sims.riichi.rollout), so the options are compared sample by sample. Value: the
deciding seat's point change from the decision to the end of the hand (horizon `hand`), or its final points
(horizon `match`, with the mean final rank).

Statistics per option over n determinizations: the mean value with a 95% interval (mean ± 1.96 s/√n),
the paired difference to the best option (mean of the per-sample differences, same interval), and the
seat's win, deal-in and exhaustive-draw rates after the decision.

Stopping rule: determinizations run in batches of BATCH. From MIN_SAMPLES on, after each batch, the
analysis stops when the option with the best mean is *clearly best*: for every other option the paired
difference is above zero by more than STOP_Z standard errors (STOP_Z = 3 rather than 1.96 keeps the
chance of stopping on a fluke low although the rule is checked after every batch). Otherwise it runs to
the budget. An option with exactly the same outcome as the best in every sample (differences all zero)
is a tie and never blocks stopping.

An engine plugs in with a sampler: `rollouts(S0, seat, answers, seed, first, count, to_match_end)` →
(values, ranks, outcome bits)[option, sample], `pending_view(S0)` and `recipe()` (how a worker process builds
the same sampler). analyzer.advise.bloodshed_sampler.Sampler serves Bloodshed,
analyzer.advise.riichi_sampler.RiichiSampler the riichi modes; `advise`, the statistics and the stopping rule
are engine-free.
"""

from __future__ import annotations

import math

import numpy as np

from tsumolab.analyzer.advise.bloodshed_position import DECISION_NAMES
from tsumolab.sims.bloodshed.rollout import DEALT_IN, EXHAUSTIVE, WON

BATCH = 50
MIN_SAMPLES = 200
STOP_Z = 3.0
Z95 = 1.96


def rollout_arrays(n_options: int, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Zeroed (values, ranks, outcome bits)[option, sample] that a sampler's rollouts fill."""
    return (np.zeros((n_options, count), np.float64), np.zeros((n_options, count), np.int32),
            np.zeros((n_options, count), np.int32))


_WORKER_SAMPLERS: dict = {}


def _worker_rollouts(recipe, S0, seat, answers, seed, first, count, to_match_end):
    key = repr(recipe)
    sampler = _WORKER_SAMPLERS.get(key)
    if sampler is None:
        make, args = recipe
        sampler = _WORKER_SAMPLERS[key] = make(*args)
    return sampler.rollouts(S0, seat, answers, seed, first, count, to_match_end)


def advise(S0, seat: int, options: list[tuple[str, int]], sampler, rollouts: int = 1000,
           horizon: str = "hand", seed: int = 0, jobs: int = 1, progress=None, parallel=None,
           stop_early: bool = True) -> dict:
    """Paired-rollout statistics of each option (see the module doc); rows sorted best first.

    `progress(done, total)` is called after every batch; `parallel` is a joblib.Parallel for jobs > 1."""
    to_match_end = horizon == "match"
    answers = [a for _, a in options]
    n_opt = len(options)
    values = np.zeros((n_opt, 0))
    ranks = np.zeros((n_opt, 0), np.int32)
    outcomes = np.zeros((n_opt, 0), np.int32)
    done = 0
    stopped_early = False
    while done < rollouts:
        count = min(BATCH * max(1, jobs), rollouts - done)
        if jobs > 1 and parallel is not None:
            from joblib import delayed

            per = -(-count // jobs)
            parts = parallel(delayed(_worker_rollouts)(sampler.recipe(), S0, seat, answers, seed, done + j * per,
                                                       min(per, count - j * per), to_match_end)
                             for j in range(jobs) if j * per < count)
        else:
            parts = [sampler.rollouts(S0, seat, answers, seed, done, count, to_match_end)]
        values = np.concatenate([values] + [p[0] for p in parts], axis=1)
        ranks = np.concatenate([ranks] + [p[1] for p in parts], axis=1)
        outcomes = np.concatenate([outcomes] + [p[2] for p in parts], axis=1)
        done += count
        if progress is not None:
            progress(done, rollouts)
        if stop_early and done >= MIN_SAMPLES and clearly_best(values):
            stopped_early = done < rollouts
            break
    return summarize(options, values, ranks, outcomes, horizon, stopped_early)


def clearly_best(values: np.ndarray) -> bool:
    """The stopping rule: the best mean beats every other option by more than STOP_Z paired standard errors."""
    if values.shape[0] < 2:
        return True
    best = int(np.argmax(values.mean(axis=1)))
    n = values.shape[1]
    for o in range(values.shape[0]):
        if o == best:
            continue
        d = values[best] - values[o]
        sd = d.std(ddof=1)
        if sd == 0 and d.mean() == 0:
            continue  # identical outcomes: a tie, not a contender
        if d.mean() - STOP_Z * sd / math.sqrt(n) <= 0:
            return False
    return True


def summarize(options, values, ranks, outcomes, horizon, stopped_early) -> dict:
    """Per-option statistics, best first."""
    n = values.shape[1]
    means = values.mean(axis=1)
    best = int(np.argmax(means))
    rows = []
    for o, (label, answer) in enumerate(options):
        sd = values[o].std(ddof=1) if n > 1 else 0.0
        d = values[o] - values[best]
        dsd = d.std(ddof=1) if n > 1 else 0.0
        row = {
            "option": label,
            "answer": int(answer),
            "mean": round(float(means[o]), 1),
            "ci95": round(float(Z95 * sd / math.sqrt(n)), 1),
            "diff_to_best": round(float(d.mean()), 1),
            "diff_ci95": round(float(Z95 * dsd / math.sqrt(n)), 1),
            "win_rate": round(float(((outcomes[o] & WON) > 0).mean()), 4),
            "deal_in_rate": round(float(((outcomes[o] & DEALT_IN) > 0).mean()), 4),
            "exhaustive_draw_rate": round(float(((outcomes[o] & EXHAUSTIVE) > 0).mean()), 4),
            "rollouts": int(n),
        }
        if horizon == "match":
            row["mean_rank"] = round(float(ranks[o].mean()), 3)
        rows.append(row)
    rows.sort(key=lambda r: -r["mean"])
    return {"horizon": horizon, "value": "final points" if horizon == "match" else "point change to hand end",
            "determinizations": int(n), "stopped_early": bool(stopped_early), "recommended": rows[0]["option"],
            "options": rows}


def decision_name(code: int) -> str:
    return DECISION_NAMES.get(code, "none")
