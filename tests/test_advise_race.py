"""Racing in advise (analyzer.advise.evaluate, issue 30): rollouts go to the options that can still be best; the
batches and the drops do not depend on --jobs. A sampler with known option values stands in for an engine."""

from __future__ import annotations

import numpy as np
from joblib import Parallel

from tsumolab.analyzer.advise.evaluate import (
    BATCH, MAX_SHARE, MIN_SAMPLES, advise, confirm, confirm_first_choice, play_on_workers,
)


class KnownSampler:
    """Option a is worth MEANS[a] + noise; sample k's noise (shared by the options, as paired rollouts share a
    determinization) and each option's own noise are keyed by (seed, k)."""

    start_points, south = 25_000, False

    def __init__(self, means=(0.0, 100.0, 2_000.0, -3_000.0, 90.0), own=300.0, policy=None):
        """`policy`: the answer the seat's policy prefers, or several in order of preference."""
        self.means, self.own, self.policy = tuple(means), own, policy

    def recipe(self):
        return KnownSampler, (self.means, self.own, self.policy)

    def policy_answers(self, S0, seat, seed, prior=True):
        return tuple(self.policy) if isinstance(self.policy, tuple) else (self.policy,)

    def rollouts(self, S0, seat, answers, seed, first, count, to_match_end):
        values = np.zeros((len(answers), count))
        for j in range(count):
            rng = np.random.default_rng([seed, first + j])
            common, noise = rng.normal(0, 1_000), rng.normal(0, self.own, len(self.means))
            for i, a in enumerate(answers):
                values[i, j] = self.means[a] + common + noise[a]
        return values, np.ones_like(values, np.int32), np.zeros_like(values, np.int32)


OPTIONS = [(f"option {a}", a) for a in range(5)]


def _rows(result):
    return {r["option"]: r for r in result["options"]}


def test_race_drops_the_clearly_worse_and_gives_their_share_to_the_close_ones():
    result = advise(None, 0, OPTIONS, KnownSampler(means=(0.0, 100.0, -2_000.0, -3_000.0, 90.0)), rollouts=300)
    rows = _rows(result)
    assert result["recommended"] in ("option 1", "option 4")
    assert rows["option 2"]["rollouts"] == rows["option 3"]["rollouts"] == MIN_SAMPLES
    close = [rows[f"option {a}"]["rollouts"] for a in (0, 1, 4)]
    assert max(close) > 300                              # more samples than the budget alone gives
    assert result["option_rollouts"] <= 5 * 300
    assert result["determinizations"] <= MAX_SHARE * 300
    assert [r["option"] for r in result["options"]][-2:] in (["option 2", "option 3"], ["option 3", "option 2"])


def test_one_clearly_best_option_stops_at_the_first_check():
    result = advise(None, 0, OPTIONS[:3], KnownSampler(means=(0.0, 5_000.0, -5_000.0, 0.0, 0.0)), rollouts=1000)
    assert result["stopped_early"] and result["recommended"] == "option 1"
    assert result["determinizations"] == MIN_SAMPLES


def test_an_exact_tie_is_dropped_and_keeps_its_statistics():
    sampler = KnownSampler(means=(0.0, 500.0, 500.0, 0.0, 0.0), own=0.0)
    result = advise(None, 0, OPTIONS[:3], sampler, rollouts=400)
    rows = _rows(result)
    assert result["stopped_early"] and rows["option 2"]["diff_to_best"] == 0 == rows["option 2"]["diff_ci95"]


def test_without_racing_every_option_gets_exactly_the_budget():
    result = advise(None, 0, OPTIONS, KnownSampler(), rollouts=260, stop_early=False)
    assert {r["rollouts"] for r in result["options"]} == {260}
    assert not result["stopped_early"] and result["option_rollouts"] == 5 * 260


def test_the_race_does_not_depend_on_jobs(monkeypatch):
    """Batches of BATCH determinizations are decided on in the same order however many run at once (the worker
    processes used from the first batch on)."""
    import tsumolab.analyzer.advise.evaluate as evaluate

    monkeypatch.setattr(evaluate, "SERIAL_SECONDS", 0.0)
    sampler = KnownSampler(means=(0.0, 60.0, -900.0, -1_500.0, 40.0))
    one = advise(None, 0, OPTIONS, sampler, rollouts=2 * BATCH + 300, seed=4)
    with Parallel(n_jobs=3) as parallel:
        three = advise(None, 0, OPTIONS, sampler, rollouts=2 * BATCH + 300, seed=4, jobs=3, parallel=parallel)
    assert one == three


def test_a_short_decision_starts_no_worker_processes():
    """Batches run in this process until they have taken SERIAL_SECONDS: a decision done sooner never calls the
    workers (which take longer to start than it takes), and gives what the workers would have given."""

    def no_workers(*_):
        raise AssertionError("worker processes asked for a short decision")

    sampler = KnownSampler(means=(0.0, 60.0, -900.0, -1_500.0, 40.0))
    alone = advise(None, 0, OPTIONS, sampler, rollouts=300, seed=4)
    assert advise(None, 0, OPTIONS, sampler, rollouts=300, seed=4, jobs=2, parallel=no_workers) == alone


def test_a_pool_that_has_played_takes_the_next_decision_from_its_first_batch():
    """SERIAL_SECONDS holds for a pool's first decision only: once its workers run (bench --advise passes one pool
    to every decision), every round goes to them, several batches per call when few options are left, with the same
    result."""
    sampler = KnownSampler(means=(0.0, 60.0, -900.0, -1_500.0, 40.0))
    alone = advise(None, 0, OPTIONS, sampler, rollouts=300, seed=4)
    here = []
    played_here = sampler.rollouts
    with Parallel(n_jobs=2) as parallel:
        play_on_workers(parallel, sampler.recipe(), None, 0, [0, 1], 4, [0, BATCH], 1, False)
        sampler.rollouts = lambda *args: here.append(args[4]) or played_here(*args)
        warm = advise(None, 0, OPTIONS, sampler, rollouts=300, seed=4, jobs=2, parallel=parallel)
    assert warm == alone
    assert 0 not in here and len(here) < warm["option_rollouts"] / BATCH / len(OPTIONS)


def test_the_rollout_policy_choice_is_recommended_when_the_rollouts_cannot_tell_it_from_the_best():
    """Options 1 and 4 are 10 points apart: the rollouts cannot separate them, so the policy's own choice (4) is
    recommended; the table still lists the best mean first."""
    result = advise(None, 0, OPTIONS, KnownSampler(means=(0.0, 100.0, -2_000.0, -3_000.0, 90.0), policy=4),
                    rollouts=300, seed=2)
    assert result["policy_choice"] == result["recommended"] == "option 4"
    rows = _rows(result)
    assert rows["option 4"]["diff_to_best"] + rows["option 4"]["diff_ci95"] >= 0


def test_a_policy_choice_the_rollouts_find_clearly_worse_is_not_recommended():
    result = advise(None, 0, OPTIONS, KnownSampler(means=(0.0, 100.0, -2_000.0, -3_000.0, 90.0), policy=2),
                    rollouts=300, seed=2)
    assert result["policy_choice"] == "option 2"
    assert result["recommended"] == result["options"][0]["option"] in ("option 1", "option 4")


def test_the_next_preferred_answer_is_recommended_when_the_first_is_clearly_worse():
    """A preference (the discard prior's order, analyzer.advise.policy_answer): the first answer (2) is clearly
    worse, the second (4) the rollouts cannot tell from the best, so 4 is recommended; `policy_choice` stays the
    first. An answer that is no option (7) is passed over."""
    sampler = KnownSampler(means=(0.0, 100.0, -2_000.0, -3_000.0, 90.0), policy=(2, 7, 4, 1))
    result = advise(None, 0, OPTIONS, sampler, rollouts=300, seed=2)
    assert result["policy_choice"] == "option 2"
    assert result["recommended"] == "option 4" != result["options"][0]["option"]


def _measured(sampler, rollouts, seed):
    """advise_position's measurement for confirm_first_choice: `choice`'s shortfall against `reference`."""
    def measure(choice, reference):
        return confirm(None, 0, (reference, int(reference[-1])), (choice, int(choice[-1])), sampler, rollouts,
                       "hand", seed=seed)
    return measure


def test_a_first_choice_the_race_put_outside_the_interval_is_measured_again():
    """Five options of equal value: the race puts the policy's option 2 outside the interval of the best in some
    seeds (the best of five noisy means lies high); measured again on fresh samples it is recommended in almost
    every seed. A clearly worse policy option stays unrecommended after its confirmation."""
    tied = KnownSampler(means=(0.0,) * 5, own=400.0, policy=2)
    raced, after = 0, 0
    for seed in range(200):
        result = advise(None, 0, OPTIONS, tied, rollouts=60, seed=seed, stop_early=False)
        kept = result["recommended"] == "option 2"
        confirm_first_choice(result, _measured(tied, 60, seed=1000 + seed))
        assert ("first_choice_confirmation" in result) != kept
        raced, after = raced + kept, after + (result["recommended"] == "option 2")
    assert raced <= 195 and after - raced >= 0.8 * (200 - raced)
    worse = KnownSampler(means=(0.0, 100.0, -2_000.0, -3_000.0, 90.0), policy=2)
    result = advise(None, 0, OPTIONS, worse, rollouts=300, seed=2)
    confirm_first_choice(result, _measured(worse, 300, seed=7))
    assert result["recommended"] != "option 2" and result["first_choice_confirmation"]["loss"] > 1_000


def test_a_policy_answer_that_is_no_option_leaves_the_best_mean_recommended():
    result = advise(None, 0, OPTIONS[:3], KnownSampler(means=(0.0, 100.0, 90.0), policy=7), rollouts=200)
    assert result["policy_choice"] is None and result["recommended"] == result["options"][0]["option"]


def test_confirmation_measures_the_shortfall_on_fresh_samples_without_racing():
    sampler = KnownSampler(means=(0.0, 500.0), own=300.0)
    c = confirm(None, 0, ("option 1", 1), ("option 0", 0), sampler, 400, "hand", seed=9)
    assert c["rollouts"] == 400 and abs(c["loss"] - 500.0) <= c["ci95"] and c["ci95"] > 0
    assert confirm(None, 0, ("option 0", 0), ("option 1", 1), sampler, 400, "hand", seed=9)["loss"] == -c["loss"]


def test_the_race_overstates_a_tied_choice_shortfall_and_the_confirmation_does_not():
    """Five options of equal value: the best of five noisy means lies above a given option's (the race's
    shortfall is never below zero and positive on average); measured again on fresh samples it is centred on
    zero."""
    sampler = KnownSampler(means=(0.0,) * 5, own=400.0)
    raced, confirmed = [], []
    for seed in range(16):
        result = advise(None, 0, OPTIONS, sampler, rollouts=60, seed=seed, stop_early=False)
        raced.append(-_rows(result)["option 0"]["diff_to_best"])
        best = result["options"][0]["option"]
        if best != "option 0":
            confirmed.append(confirm(None, 0, (best, int(best[-1])), ("option 0", 0), sampler, 60, "hand",
                                     seed=1000 + seed)["loss"])
    assert min(raced) >= 0 and np.mean(raced) > 2 * np.std(raced) / np.sqrt(len(raced))
    assert abs(np.mean(confirmed)) < 3 * np.std(confirmed, ddof=1) / np.sqrt(len(confirmed))
