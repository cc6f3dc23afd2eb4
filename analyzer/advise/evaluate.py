"""Monte Carlo decision analysis: every option of a stopped position, by paired rollouts.

For determinizations k = 0, 1, … (sims.bloodshed.determinize, sims.riichi.determinize; keyed by (seed, k))
each option is played out with the same resampled hidden tiles and the same random streams
(sims.bloodshed.rollout, sims.riichi.rollout), so the options are compared sample by sample. Value: the
deciding seat's point change from the decision to the end of the hand (horizon `hand`), or its final points
(horizon `match`, with the mean final rank).

Statistics per option over n determinizations: the mean value with a 95% interval (mean ± 1.96 s/√n),
the paired difference to the best option (mean of the per-sample differences, same interval), and the
seat's win, deal-in and exhaustive-draw rates after the decision.

Racing (the rollouts go to the options that can still be best): determinizations run in batches of BATCH.
From MIN_SAMPLES on, after each batch, every option whose paired difference to the best mean is below zero by
more than STOP_Z standard errors (STOP_Z = 3 rather than 1.96 keeps the chance of dropping on a fluke low
although the rule is checked after every batch) is dropped: it keeps the samples it has, and the options left
are played on. An option with exactly the same outcome as the best in every sample (differences all zero) is a
tie and is dropped too. The budget is `rollouts` determinizations per option; a dropped option's unplayed share
goes to the options left, each up to MAX_SHARE · `rollouts` determinizations, so close options are separated
by many more samples than the budget alone. The analysis stops when one option is left (`stopped_early`) or
the budget is spent. Without racing (`stop_early=False`) every option is played on exactly `rollouts`
determinizations; `clearly_below` is the rule that drops an option.

Recommendation: the first of the sampler's preferred answers at the position whose paired interval reaches the
best mean, i.e. that the rollouts cannot tell from the best; otherwise the best mean. Where options are that
close, the best mean is a coin toss between them, and the policy the rollouts play is the better judge. The
preference is the rollout policy's own answer (the deciding seat's policy of the rollout field; `policy_choice` in
the result: that answer's option, if it is one); in the riichi modes, with the discard prior, strong players'
order (a win first, then every discard the prior may make, the likeliest first). A first preferred answer the race
puts outside the interval is measured again (`confirm_first_choice`).

Confirmation (`confirm`): an option's shortfall against another measured again on fresh determinizations,
every one played for both, without racing. The race picks the best as the largest of many noisy means and drops
an option at the batch where its shortfall first looks clear, so its own difference to the best overstates the
shortfall; review's verdicts (analyzer.review.game_review) use the confirmation's.

An engine plugs in with a sampler: `rollouts(S0, seat, answers, seed, first, count, to_match_end)` →
(values, ranks, outcome bits)[option, sample], `pending_view(S0)`, `policy_answers(S0, seat, seed, prior)`
(answers in preference order: the one the seat's rollout policy gives there, its random draws keyed by the seed;
with `prior`, in the riichi modes, strong players' order) and `recipe()` (how a worker process builds the same
sampler).
analyzer.advise.bloodshed_sampler.Sampler serves Bloodshed,
analyzer.advise.riichi_sampler.RiichiSampler the riichi modes; `advise`, the statistics and the stopping rule
are engine-free.
"""

from __future__ import annotations

import math
import time
import weakref

import numpy as np

from tsumolab.analyzer.advise.objectives import check_objective, value_function
from tsumolab.sims.family import DEALT_IN, EXHAUSTIVE, WON

VALUE_NAMES = {("points", "hand"): "point change to hand end", ("points", "match"): "final points",
               ("uma", "match"): "final points and uma (thousands)", ("rank-points", "match"): "ranked rank points",
               ("tenhou-dan", "match"): "Tenhou Phoenix dan points"}
BATCH = 50
MIN_SAMPLES = 200
SERIAL_SECONDS = 1.0
"""the batches run in this process until they have taken this long, unless the `parallel` given has played for an
earlier decision (a caller passing one pool to many decisions; its workers are running): a decision that short is
done before worker processes would have started (about 2.5 s on 2 cores); only which process plays a batch
changes, not the result"""
TASK_ROLLOUTS = 500
"""option-rollouts a worker plays in one call at least (consecutive batches): fewer options left, more batches per
call, so that a round of the race is not mostly the cost of sending work to the workers"""
_WARM_POOLS: weakref.WeakSet = weakref.WeakSet()
"""the joblib.Parallel objects that have played batches of a decision"""
MAX_SHARE = 10
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


def play_on_workers(parallel, recipe, S0, seat, answers, seed, firsts, per_task, to_match_end) -> list:
    """The batches starting at `firsts` (consecutive), `per_task` of them played by one worker in one call; the
    results split back into batches. Marks `parallel` warm."""
    from joblib import delayed

    tasks = [firsts[i:i + per_task] for i in range(0, len(firsts), per_task)]
    played = parallel(delayed(_worker_rollouts)(recipe, S0, seat, answers, seed, task[0], BATCH * len(task),
                                                to_match_end) for task in tasks)
    _WARM_POOLS.add(parallel)
    return [tuple(a[:, j * BATCH:(j + 1) * BATCH] for a in part)
            for part, task in zip(played, tasks) for j in range(len(task))]


def advise(S0, seat: int, options: list[tuple[str, int]], sampler, rollouts: int = 1000,
           horizon: str = "hand", seed: int = 0, jobs: int = 1, progress=None, parallel=None,
           stop_early: bool = True, objective: str = "points", prior: bool = True) -> dict:
    """Paired-rollout statistics of each option (see the module doc); rows sorted best first. The value is
    `objective` (analyzer.advise.objectives) of the rollouts' outcomes. With `stop_early` options race (module
    doc); without, every option is played on exactly `rollouts` determinizations.

    `progress(done, total)` is called after every batch; `parallel` is a joblib.Parallel for jobs > 1. The
    batches and the racing decisions are the same for every `jobs`: only how many batches run at once changes."""
    check_objective(objective, horizon)
    value_of = value_function(objective, sampler.start_points, sampler.south)
    to_match_end = horizon == "match"
    n_opt = len(options)
    answers = np.array([a for _, a in options], np.int64)
    race = Race(n_opt, rollouts, stop_early)
    started = time.perf_counter()
    while not race.over():
        todo = [int(a) for a in answers[race.active]]
        here = jobs < 2 or parallel is None or (
            parallel not in _WARM_POOLS and time.perf_counter() - started < SERIAL_SECONDS)
        per_task = max(1, TASK_ROLLOUTS // (BATCH * len(todo)))
        firsts = race.next_batches(1 if here else jobs * per_task)
        if len(firsts) > 1:
            parts = play_on_workers(parallel, sampler.recipe(), S0, seat, todo, seed, firsts, per_task, to_match_end)
        else:
            parts = [sampler.rollouts(S0, seat, todo, seed, f, BATCH, to_match_end) for f in firsts]
        for part in parts:
            values, ranks, outcomes = part
            if value_of is not None:
                values = value_of(values, ranks)
            if not race.add(values, ranks, outcomes):
                break
        if progress is not None:
            progress(min(rollouts, race.spent // n_opt), rollouts)
    result = summarize(options, *race.samples(), horizon, race.stopped_early, objective, race.dropped)
    return recommend(result, sampler.policy_answers(S0, seat, seed, prior))


def recommend(result: dict, preference: tuple[int, ...]) -> dict:
    """`result` with its recommendation (module doc) and `policy_choice`, the option of the first answer of
    `preference` (None when that answer is no option)."""
    rows = {r["answer"]: r for r in result["options"]}
    first = rows.get(preference[0])
    result["policy_choice"] = first["option"] if first else None
    for row in filter(None, map(rows.get, preference)):
        if row["diff_to_best"] + row["diff_ci95"] >= 0:
            result["recommended"] = row["option"]
            break
    return result


def confirm_first_choice(result: dict, measure) -> dict:
    """`result` with the first preferred answer (`policy_choice`) recommended after all when the race put it outside
    the interval of the best mean but its shortfall against the best, measured again on fresh determinizations
    (`measure(choice, reference)`: `confirm`'s result), reaches zero: the race overstates shortfalls (module doc,
    confirmation). The measurement is kept as `first_choice_confirmation`."""
    first, best = result["policy_choice"], result["options"][0]["option"]
    if first is not None and first != result["recommended"]:
        result["first_choice_confirmation"] = check = measure(first, best)
        if check["loss"] - check["ci95"] <= 0:
            result["recommended"] = first
    return result


def confirm(S0, seat: int, reference: tuple[str, int], other: tuple[str, int], sampler, rollouts: int,
            horizon: str, seed: int, objective: str = "points") -> dict:
    """`other`'s shortfall against `reference` (module doc, confirmation): reference mean − other mean over
    `rollouts` fresh determinizations keyed by `seed` (pass another seed than the race's), with the 95% interval of
    the paired difference."""
    result = advise(S0, seat, [reference, other], sampler, rollouts, horizon, seed, stop_early=False,
                    objective=objective)
    rows = {r["option"]: r for r in result["options"]}
    ref, oth = rows[reference[0]], rows[other[0]]  # one of the two is the best: its difference and interval are 0
    return {"loss": round(ref["diff_to_best"] - oth["diff_to_best"], 1 if objective == "points" else 3),
            "ci95": max(ref["diff_ci95"], oth["diff_ci95"]), "rollouts": oth["rollouts"]}


class Race:
    """Which options are still rolled out, batch by batch (module doc, racing); the samples gathered so far.

    The budget is `rollouts` determinizations for each of the n options (n · rollouts option-rollouts); racing
    gives the share of a dropped option to those left, up to MAX_SHARE · rollouts determinizations each."""

    def __init__(self, n_options: int, rollouts: int, racing: bool):
        self.budget = n_options * rollouts
        self.cap = rollouts * (MAX_SHARE if racing else 1)
        self.racing = racing
        self.active = list(range(n_options))
        self.dropped: list[int] = []      # in the order they were dropped
        self.values = [[] for _ in range(n_options)]
        self.ranks = [[] for _ in range(n_options)]
        self.outcomes = [[] for _ in range(n_options)]
        self.done = 0                     # determinizations played by the options still active
        self.spent = 0                    # option-rollouts played
        self.stopped_early = False
        self._pending: list[int] = []     # the options each batch of the current chunk was played for

    def _size(self) -> int:
        """Determinizations of the next batch (BATCH, less at the end of the budget or the cap)."""
        left = (self.budget - self.spent) // len(self.active)
        return max(0, min(BATCH, self.cap - self.done, left))

    def over(self) -> bool:
        return self.stopped_early or not self.active or self._size() == 0

    def next_batches(self, at_most: int) -> list[int]:
        """The first determinization of each batch to play next (at most `at_most`, each of BATCH samples;
        `add` keeps only what the sequential race would have played)."""
        firsts = []
        first = self.done
        while len(firsts) < at_most and first < self.cap:
            firsts.append(first)
            first += BATCH
        self._pending = list(self.active)
        return firsts

    def add(self, values, ranks, outcomes) -> bool:
        """One batch played for the options of `next_batches`; False when the race is over (later batches of the
        chunk are then dropped)."""
        if self.over():
            return False
        count = self._size()
        rows = {o: i for i, o in enumerate(self._pending)}
        for o in self.active:
            i = rows[o]
            self.values[o].append(values[i, :count])
            self.ranks[o].append(ranks[i, :count])
            self.outcomes[o].append(outcomes[i, :count])
        self.done += count
        self.spent += count * len(self.active)
        if self.done >= MIN_SAMPLES and self.racing:
            self._drop_the_clearly_worse()
        return not self.over()

    def _drop_the_clearly_worse(self) -> None:
        if len(self.active) < 2:
            return
        values = np.vstack([np.concatenate(self.values[o]) for o in self.active])
        best = int(np.argmax(values.mean(axis=1)))
        keep = [o for i, o in enumerate(self.active) if i == best or not clearly_below(values[best], values[i])]
        self.dropped += [o for o in self.active if o not in keep]
        self.active = keep
        if len(keep) == 1:
            self.stopped_early = self.done < self.cap and self.spent < self.budget

    def samples(self):
        """(values, ranks, outcomes) per option: lists of 1-d arrays, an option's length its samples."""
        return ([_joined(v, np.float64) for v in self.values], [_joined(r, np.int32) for r in self.ranks],
                [_joined(x, np.int32) for x in self.outcomes])


def _joined(parts: list, dtype) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype)


def clearly_below(best: np.ndarray, other: np.ndarray) -> bool:
    """The racing rule: `other` below `best` by more than STOP_Z paired standard errors, or the same in every
    sample (a tie)."""
    d = best - other
    sd = d.std(ddof=1)
    if sd == 0:
        return d.mean() >= 0
    return d.mean() - STOP_Z * sd / math.sqrt(d.size) > 0


def summarize(options, values, ranks, outcomes, horizon, stopped_early, objective="points", dropped=()) -> dict:
    """Per-option statistics, best first: the options played to the end by mean, then those the race dropped
    (latest first, then by mean). values, ranks, outcomes: per option a 1-d array of its samples (an option
    dropped by the race has a prefix of the samples of those left); the best is the best mean of those played to
    the end, and each option's difference to it is paired over the option's own samples."""
    n_max = max(v.size for v in values)
    finalists = [o for o in range(len(options)) if o not in dropped]
    best = max(finalists, key=lambda o: values[o].mean())
    digits = 1 if objective == "points" else 3
    rows = []
    for o, (label, answer) in enumerate(options):
        n = values[o].size
        sd = values[o].std(ddof=1) if n > 1 else 0.0
        d = values[o] - values[best][:n]
        dsd = d.std(ddof=1) if n > 1 else 0.0
        row = {
            "option": label,
            "answer": int(answer),
            "mean": round(float(values[o].mean()), digits),
            "ci95": round(float(Z95 * sd / math.sqrt(n)), digits),
            "diff_to_best": round(float(d.mean()), digits),
            "diff_ci95": round(float(Z95 * dsd / math.sqrt(n)), digits),
            "win_rate": round(float(((outcomes[o] & WON) > 0).mean()), 4),
            "deal_in_rate": round(float(((outcomes[o] & DEALT_IN) > 0).mean()), 4),
            "exhaustive_draw_rate": round(float(((outcomes[o] & EXHAUSTIVE) > 0).mean()), 4),
            "rollouts": int(n),
        }
        if horizon == "match":
            row["mean_rank"] = round(float(ranks[o].mean()), 3)
        rows.append(row)
    order = sorted(finalists, key=lambda o: (o != best, -values[o].mean())) + \
        sorted(dropped, key=lambda o: (-values[o].size, -values[o].mean()))
    rows = [rows[o] for o in order]
    return {"horizon": horizon, "objective": objective, "value": VALUE_NAMES[objective, horizon],
            "determinizations": int(n_max), "option_rollouts": int(sum(v.size for v in values)),
            "stopped_early": bool(stopped_early), "recommended": rows[0]["option"], "options": rows}


def decision_name(code: int) -> str:
    """The word of a decision kind (sims.decisions D_*): the hook's name for the kinds D_EXCHANGE to D_ROB, which
    count the hooks in HOOK_NAMES order, astrology's pick (A) and darkness's open and lock (D)."""
    from tsumolab.sims.decisions import D_DARK_LOCK, D_DARK_OPEN, D_PICK, HOOK_NAMES

    return {**dict(enumerate(HOOK_NAMES)), D_PICK: "pick", D_DARK_OPEN: "open", D_DARK_LOCK: "lock"}.get(code, "none")
