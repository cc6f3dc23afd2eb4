"""`tsumolab advise` on Bloodshed positions (issue 15): worked README examples, positions from simulated
hands, hidden-information invariance, and the one-line error contract."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import tsumolab.commands.advise  # noqa: F401  (registers `advise` on the group)
import tsumolab.commands.replay  # noqa: F401
from tsumolab.analyzer.advise.bloodshed_sampler import Sampler, legal_options, stopped_state
from tsumolab.analyzer.advise.evaluate import advise, clearly_below
from tsumolab.commands.advise import run_advice
from tsumolab.cli import main
from tsumolab.analyzer.advise.bloodshed_position import position_of, state_of
from tsumolab.sims.bloodshed.determinize import determinize
from tsumolab.sims.bloodshed.scoring import fan_value
from tsumolab.sims.bloodshed.state import ST
from tsumolab.policies.api import BOBS
from tsumolab.sims.decisions import D_EXCHANGE, D_TURN, D_VOID

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ROOT / "examples" / "positions"


def load(name: str) -> dict:
    return json.loads((POSITIONS / f"{name}.json").read_text())


def rows(result: dict) -> dict:
    return {r["option"]: r for r in result["options"]}


def clearly_worse(row: dict) -> bool:
    return row["diff_to_best"] + row["diff_ci95"] < 0


# ----------------------------------------------------------------------------- README worked examples
def test_readme_b1_cheap_ron_with_no_winner_yet():
    """README "advise" example 1 (claim B1's situation): with a 2-fan 对对和 ron offered and nobody out
    yet, passing is clearly better than taking 2000 (B-19); the ron itself is worth exactly 2000."""
    result = run_advice(load("b1-ron"), 1000, "hand", "baseline", 0, 1)
    by = rows(result)
    assert result["recommended"] == "pass"
    assert by["ron"]["mean"] == fan_value(2) and by["ron"]["ci95"] == 0 and by["ron"]["win_rate"] == 1.0
    assert clearly_worse(by["ron"]) and clearly_worse(by["pon"])


def test_readme_exchange_decision():
    """README example 2: the 15 distinct triples are offered (B-6); passing the lone m tiles is best, and
    every triple from the s suit (the longest suit) is clearly worse."""
    result = run_advice(load("exchange"), 1000, "hand", "baseline", 0, 1)
    by = rows(result)
    assert len(by) == 15
    assert result["recommended"] == "exchange 1m2m5m"
    assert all(clearly_worse(r) for label, r in by.items() if label.endswith("s"))
    # racing: the s triples were dropped early, and their share went to the close options
    dropped = max(r["rollouts"] for label, r in by.items() if label.endswith("s"))
    assert dropped < 1000 < by["exchange 1m2m5m"]["rollouts"]
    assert result["option_rollouts"] <= 15 * 1000


def test_readme_void_decision():
    """README example 3: voiding p (the suit with the fewest tiles, as B-24 recommends) is clearly best."""
    result = run_advice(load("void"), 1000, "hand", "baseline", 0, 1)
    by = rows(result)
    assert result["recommended"] == "void p"
    assert clearly_worse(by["void m"]) and clearly_worse(by["void s"])


def test_readme_shows_the_examples():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("b1-ron", "exchange", "void"):
        assert f"examples/positions/{name}.json" in text


# ----------------------------------------------------------------------------- positions from simulations
@pytest.fixture(scope="module")
def sampler():
    return Sampler("baseline,majsoul-cpu,random,baseline")


def _sim_states(sampler, count):
    out = []
    for match_id in range(count):
        for n in (1, 5, 9, 14, 22, 31, 40):
            S = stopped_state(sampler, 4, match_id, 1 + match_id % 3, n)
            if S is not None:
                out.append(S)
    return out


@pytest.mark.slow
def test_position_round_trip_gives_the_same_advice(sampler):
    """A simulated decision written as a position (replay --advise) and read back gives exactly the advice
    of the simulated state itself: the position carries everything the seat sees, and nothing else."""
    kinds = set()
    for S in _sim_states(sampler, 4):
        seat = int(S[ST.pend_seat])
        options = legal_options(sampler, S)
        position = json.loads(json.dumps(position_of(S, sampler.pending_view(S))))
        S2, seat2 = state_of(position)
        assert seat2 == seat and legal_options(sampler, S2) == options
        a = advise(S, seat, options, sampler, 20, seed=3)
        b = advise(S2, seat, options, sampler, 20, seed=3)
        assert a == b
        kinds.add(position["decision"]["kind"])
    assert {"exchange", "void", "turn"} <= kinds


def test_the_rollout_policy_answer_is_one_of_the_options(sampler):
    """advise's recommendation falls back on the deciding seat's rollout policy: its hook of the pending decision
    kind answers with one of the legal options (exchange, void, turn, react), whatever seed starts its stream."""
    kinds = set()
    for S in _sim_states(sampler, 3):
        seat = int(S[ST.pend_seat])
        answers = {a for _, a in legal_options(sampler, S)}
        for seed in (0, 5):
            preference = sampler.policy_answers(S, seat, seed)
            assert len(preference) == 1 and preference[0] in answers
        kinds.add(int(sampler.pending_view(S)[BOBS.decision]))
    assert {D_EXCHANGE, D_VOID, D_TURN} <= kinds


def test_advice_ignores_the_true_hidden_tiles(sampler):
    """Hidden information: rearranging the other hands and the wall consistently with the view leaves the
    advice unchanged (same seed → identical)."""
    for S in _sim_states(sampler, 2):
        seat = int(S[ST.pend_seat])
        rearranged = np.empty_like(S)
        assert determinize(S, seat, 777, 5, rearranged)
        options = legal_options(sampler, S)
        assert advise(S, seat, options, sampler, 30, seed=1) == advise(rearranged, seat, options, sampler, 30, seed=1)


def test_match_horizon_reports_final_points_and_rank(sampler):
    S = _sim_states(sampler, 1)[3]
    seat = int(S[ST.pend_seat])
    result = advise(S, seat, legal_options(sampler, S), sampler, 20, horizon="match", seed=2)
    for r in result["options"]:
        assert 1 <= r["mean_rank"] <= 4
        assert r["mean"] > -50000  # final points, not a hand delta of the order of a few thousand
    assert result["value"] == "final points"


def test_racing_rule():
    rng = np.random.default_rng(0)
    base = rng.normal(0, 1000, 400)
    assert clearly_below(base + 500, base)                       # paired: the shift is obvious
    assert not clearly_below(base + rng.normal(0, 1000, 400), base)
    assert clearly_below(base + 500, base + 500)                 # an exact tie is dropped too


def test_jobs_do_not_change_results():
    position = load("void")
    one = run_advice(position, 100, "hand", "baseline", 5, 1)
    two = run_advice(position, 100, "hand", "baseline", 5, 2)
    assert one == two


# ----------------------------------------------------------------------------- the command line
def main_exit(args, capsys):
    with pytest.raises(SystemExit) as stop:
        main(args)
    out, err = capsys.readouterr()
    return stop.value.code, out, err


def test_cli_json_output(capsys, tmp_path):
    code, out, err = main_exit(["advise", str(POSITIONS / "void.json"), "--rollouts", "60", "--json"], capsys)
    assert code == 0, err
    result = json.loads(out)
    assert {r["option"] for r in result["options"]} == {"void m", "void p", "void s"}
    if result["recommended"] != result["options"][0]["option"]:  # the policy's void, not told from the best
        assert result["recommended"] == result["policy_choice"]
        check = result["first_choice_confirmation"]
        assert check["rollouts"] == 60 and check["loss"] - check["ci95"] <= 0


def test_replay_advise_writes_a_position_advise_reads(capsys, tmp_path):
    code, out, err = main_exit(["replay", "--seed", "7", "--match", "0", "--hand", "1", "--advise", "20"], capsys)
    assert code == 0, err
    position = json.loads(out)
    assert position["source"]["decision"] == 20 and position["decision"]["kind"] in ("turn", "react", "rob")
    path = tmp_path / "p.json"
    path.write_text(out)
    code, out, err = main_exit(["advise", str(path), "--rollouts", "20", "--json"], capsys)
    assert code == 0, err


def _bad(position_edit, capsys, tmp_path, extra=()):
    position = load("b1-ron")
    position_edit(position)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(position))
    code, out, err = main_exit(["advise", str(path), "--rollouts", "10", *extra], capsys)
    assert code == 2 and out == ""
    assert err.startswith("tsumolab: error: ") and err.count("\n") == 1
    return err


def test_error_impossible_tile_counts(capsys, tmp_path):
    err = _bad(lambda p: p.update(rivers=["9m2m8m1s", "1p2p9s7p7p", "1s9s2s", "4m9m6m"]), capsys, tmp_path)
    assert "more than four copies of 7p" in err or "add up" in err
    err = _bad(lambda p: p.update(wall=30), capsys, tmp_path)
    assert "108" in err


def test_error_illegal_option(capsys, tmp_path):
    err = _bad(lambda p: p.update(options=["ron", "kan"]), capsys, tmp_path)
    assert "illegal option 'kan'" in err


def test_error_empty_option_list(capsys, tmp_path):
    """An empty `options` list (found by the position fuzzer) is refused in one line, not an IndexError."""
    err = _bad(lambda p: p.update(options=[]), capsys, tmp_path)
    assert "options must be a non-empty list" in err


def test_error_unknown_mode(capsys, tmp_path):
    err = _bad(lambda p: p.update(variant="sanma"), capsys, tmp_path)
    assert "unknown mode 'sanma'" in err
    err = _bad(lambda p: None, capsys, tmp_path, ("--variant", "sanma"))
    assert "sanma" in err


def test_a_bloodshed_position_read_as_another_mode_is_refused(capsys, tmp_path):
    """A Bloodshed position given another mode's name is refused with one line, not misread."""
    err = _bad(lambda p: p.update(variant="fantasy"), capsys, tmp_path)
    assert "bad position" in err


def test_error_winner_deciding(capsys, tmp_path):
    err = _bad(lambda p: p.update(winners=[{"seat": 2, "kind": "ron"}]), capsys, tmp_path)
    assert "B-12" in err


def test_bench_advise_reports_its_figures():
    """`tsumolab bench --advise` (a benchmark, not a timed test): it runs and reports positive figures."""
    from tsumolab.analyzer.bench.kernels import bench_advise

    result = bench_advise(jobs=1, positions=3, per_position=2, decision_rollouts=20)
    assert result["positions"] == 3 and result["rollouts"] > 0
    assert result["rollouts_per_sec_per_core"] > 0 and result["decision_seconds"] > 0
    assert result["decision_options"] >= 2
