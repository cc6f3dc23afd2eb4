"""Claim policies (CLAIMS.md B1–B9, X1), the `tsumolab policies` listing, the user-policy example, and what
a hook can see (RULES.md B-8 no furiten, B-22 查花猪, B-24 recommendations)."""

from __future__ import annotations

import inspect
import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

import tsumolab.commands.policies  # noqa: F401  (registers `policies` on the group)
import tsumolab.commands.run  # noqa: F401  (registers `run` on the group)
import tsumolab.policies.api as api
from tsumolab.sims.modes import get_mode
from tsumolab.cli import cli
from tsumolab.analyzer.runs.runner import combined_tables
from tsumolab.policies.registry import all_policies, parse_seats
from tsumolab.sims.bloodshed import engine
from tsumolab.sims.bloodshed.columns import HAND_COLUMNS, PATTERN_LABELS

bloodshed = get_mode("bloodshed")

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "my_policy.py"
MATCHES = 400
SEED = 31
CLAIM_POLICIES = {  # name: claim id
    "pass-cheap-ron": "B1", "always-kan": "B4", "never-kan": "B4", "keep-void": "B5", "fold": "B6",
    "pon-happy": "B7", "closed": "B7", "flush-seeker": "B8", "stall-for-draw": "B9", "recommended-exchange": "X1",
}


@lru_cache(maxsize=None)
def hands(spec: str, seed: int = SEED, matches: int = MATCHES) -> pl.DataFrame:
    counters = np.zeros(engine.N_COUNTERS, np.int64)
    rows, _ = bloodshed.simulate(seed, np.arange(matches), parse_seats(spec), counters=counters)
    assert counters[engine.CNT_ILLEGAL] == 0, spec
    return pl.DataFrame(rows, schema=[c[0] for c in HAND_COLUMNS], orient="row")


def seat0(spec: str) -> pl.DataFrame:
    return hands(spec).filter(pl.col("seat") == 0)


def one_vs_three(policy: str) -> str:
    return f"{policy},baseline,baseline,baseline"


def table_calls(frame: pl.DataFrame) -> int:
    """Pons + open kans of a whole table, recovered from the records.

    Every live-wall draw ends in a discard, a tsumo or a closed/added kan; every pon adds a discard without a
    draw, and the dealer's first discard has no draw. So discards − draws + tsumos + kans − 1 per hand
    counts the pons plus the open kans (whose replacement draw and discard cancel, but which sit in `kans`).
    """
    per_hand = frame.group_by(["match_id", "hand"]).agg(
        pl.col("discards").sum(), pl.col("wall_left").first(), (pl.col("win_kind") == 2).sum().alias("tsumos"),
        pl.col("kans").sum())
    draws = 108 - 53 - per_hand["wall_left"]
    return int((per_hand["discards"] - draws + per_hand["tsumos"] + per_hand["kans"] - 1).sum())


def same_records(spec_a: str, spec_b: str) -> bool:
    return hands(spec_a).equals(hands(spec_b))


# ------------------------------------------------------------------------------ (a) the user example
def test_example_policy_runs_through_the_cli(tmp_path):
    """examples/my_policy.py (a user's file) is loaded with --policy-path and labels its seat in the tables."""
    assert len(EXAMPLE.read_text().splitlines()) < 40
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, [
        "run", "--policy-path", str(EXAMPLE), "--seats", "tsumo-only,baseline,baseline,baseline",
        "--matches", "20", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (out / "matches").glob("*.parquet"))
    hand_table, match_table = combined_tables(out)
    assert match_table.filter(pl.col("seat") == 0)["policy"].unique().to_list() == ["tsumo-only"]
    assert set(match_table.filter(pl.col("seat") != 0)["policy"]) == {"baseline"}
    mine = hand_table.filter(pl.col("seat") == 0)
    assert (mine.filter(pl.col("won"))["win_kind"] == "tsumo").all()  # it never takes a ron
    assert mine["passed_wins"].sum() > 0


# ------------------------------------------------------------------------------ (b) the listing
def test_policies_json_lists_every_policy_with_parameters():
    result = CliRunner().invoke(cli, ["policies", "--json"])
    assert result.exit_code == 0, result.output
    listing = {entry["name"]: entry for entry in json.loads(result.output)}
    for name in ("baseline", "random", "majsoul-cpu", "disconnected", *CLAIM_POLICIES):
        assert name in listing, name
        assert set(listing[name]) == {"name", "description", "parameters", "modes", "claim"}
        assert "bloodshed" in listing[name]["modes"]
        assert listing[name]["description"] and "\n" not in listing[name]["description"]
    for name, claim in CLAIM_POLICIES.items():
        assert listing[name]["claim"] == claim, name
    for entry in listing.values():
        for param in entry["parameters"]:
            assert set(param) == {"name", "type", "default", "help"} and param["help"]
            assert param["type"] in ("int", "float", "bool")
    defaults = {p["name"]: p["default"] for p in listing["pass-cheap-ron"]["parameters"]}
    assert defaults == {"max_fan": 3, "until_winners": 2, "escape": 0}  # the values the brief for B1 names
    assert [p["name"] for p in listing["flush-seeker"]["parameters"]] == ["min_tiles"]
    assert [p["name"] for p in listing["disconnected"]["parameters"]] == ["take_wins"]
    assert {"fold", "stall-for-draw", "closed"} <= {n for n, e in listing.items() if e["parameters"]}


def test_policies_text_and_user_file():
    result = CliRunner().invoke(cli, ["policies", "--policy-path", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    assert "tsumo-only" in result.output and "max_fan (int, default 3)" in result.output


# ------------------------------------------------------------------------------ (c) claim behaviour
def test_claim_b1_pass_cheap_ron_waits_for_tsumo():
    """B1: with fewer than 2 winners, a ron worth ≤ 3 fan is passed; tsumo is still taken."""
    mine, base = seat0(one_vs_three("pass-cheap-ron")), seat0("baseline")
    assert mine["passed_wins"].sum() > 0
    assert (mine["win_kind"] == 1).sum() < (base["win_kind"] == 1).sum()
    assert (mine["win_kind"] == 2).sum() > 0
    # a ron won as 1st or 2nd winner of the hand was offered with at most 1 earlier winner: it must be ≥ 4 fan
    early_rons = mine.filter((pl.col("win_kind") == 1) & (pl.col("win_order") <= 2))
    assert early_rons.height > 0 and (early_rons["fan"] >= 4).all()


def test_claim_b2_pass_only_one_fan_rons():
    """B2: max_fan=1 passes only 1-fan rons (early rons of 2+ fan are taken)."""
    mine = seat0(one_vs_three("pass-cheap-ron(max_fan=1)"))
    early_rons = mine.filter((pl.col("win_kind") == 1) & (pl.col("win_order") <= 2))
    assert (early_rons["fan"] >= 2).all() and (early_rons["fan"] <= 3).any()
    assert 0 < mine["passed_wins"].sum() < seat0(one_vs_three("pass-cheap-ron"))["passed_wins"].sum()


def test_claim_b3_escape_takes_cheap_rons_against_a_threat():
    """B3: with escape=1 some cheap early rons are taken (an opponent showed a flush look)."""
    plain, escape = seat0(one_vs_three("pass-cheap-ron")), seat0(one_vs_three("pass-cheap-ron(escape=1)"))
    cheap = (pl.col("win_kind") == 1) & (pl.col("win_order") <= 2) & (pl.col("fan") <= 3)
    assert escape.filter(cheap).height > 0
    assert escape["passed_wins"].sum() < plain["passed_wins"].sum()


def test_claim_b1_thresholds_that_pass_nothing_give_baseline():
    """B1 knobs: max_fan=0 or until_winners=0 never pass, so every record equals baseline's."""
    assert same_records(one_vs_three("pass-cheap-ron(max_fan=0)"), "baseline")
    assert same_records(one_vs_three("pass-cheap-ron(until_winners=0)"), "baseline")
    assert not same_records(one_vs_three("pass-cheap-ron"), "baseline")


def test_claim_b4_always_kan_declares_more_kans_and_never_kan_none():
    """B4 (B-14, B-15): always-kan makes every legal kan, never-kan none."""
    assert hands("always-kan")["kans"].sum() > hands("baseline")["kans"].sum()
    assert seat0(one_vs_three("always-kan"))["kans"].sum() > seat0("baseline")["kans"].sum()
    assert hands("never-kan")["kans"].sum() == 0
    assert hands("baseline")["kans"].sum() > 0


def test_claim_b5_keep_void_is_a_flower_pig_more_often():
    """B5 (B-22): without void-first the seat more often still holds void tiles at the exhaustive draw."""
    def pig_rate(frame):
        drawn = frame.filter(pl.col("hand_end") == 1)
        return drawn["flower_pig"].mean()

    assert pig_rate(seat0(one_vs_three("keep-void"))) > pig_rate(seat0("baseline")) + 0.1
    assert seat0(one_vs_three("keep-void"))["draw_settlement"].sum() < seat0("baseline")["draw_settlement"].sum()


def test_claim_b6_fold_deals_in_less_and_wins_less():
    """B6 control: folding against threats deals in less (per hand) but also wins less than full attack."""
    fold, base = hands("fold"), hands("baseline")
    assert fold["dealt_in"].sum() < base["dealt_in"].sum()
    assert fold["won"].sum() < base["won"].sum()
    assert (fold["hand_end"] == 1).sum() > (base["hand_end"] == 1).sum()
    assert same_records(one_vs_three("fold(threat_melds=99,late_wall=0)"), "baseline")  # never folds


def test_claim_b7_pon_happy_calls_more_and_closed_less():
    """B7: pon-happy pons every pon-able tile; closed refuses calls while aiming at seven pairs."""
    assert table_calls(hands("majsoul-cpu")) == 0  # the count is exact for a table that never calls
    assert table_calls(hands("pon-happy")) > table_calls(hands("baseline")) > table_calls(hands("closed"))
    seven_pairs = [PATTERN_LABELS.index(name) for name in ("七对子", "龙七对", "清七对", "清龙七对")]

    def seven_pair_wins(frame):
        return frame.filter(pl.col("pattern").is_in(seven_pairs)).height

    assert seven_pair_wins(hands("closed")) > seven_pair_wins(hands("baseline")) > seven_pair_wins(hands("pon-happy"))


def test_claim_b8_flush_seeker_wins_more_one_suit_hands():
    """B8 (B-19a): flush-seeking raises the share of one-suit (清…) patterns and the mean fan of its wins."""
    one_suit = [i for i, name in enumerate(PATTERN_LABELS) if name.startswith("清")]

    def wins(frame):
        return frame.filter(pl.col("won") == 1)

    mine, base = wins(seat0(one_vs_three("flush-seeker"))), wins(seat0("baseline"))
    assert mine["pattern"].is_in(one_suit).mean() > base["pattern"].is_in(one_suit).mean() + 0.2
    assert mine["fan"].mean() > base["fan"].mean()


def test_claim_b9_stall_for_draw_plays_for_the_draw():
    """B9 (B-22): a stalling seat stops calling and plays safe late, so more hands reach the exhaustive draw,
    and it still throws its void tiles (never a flower pig itself)."""
    field = "disconnected,baseline,baseline"
    assert same_records(f"stall-for-draw(wall_below=0),{field}", f"baseline,{field}")
    assert not same_records(f"stall-for-draw,{field}", f"baseline,{field}")
    eager = seat0(f"stall-for-draw(wall_below=56,weak_shanten=1),{field}")
    base = seat0(f"baseline,{field}")
    assert (eager["hand_end"] == 1).sum() > (base["hand_end"] == 1).sum()
    assert eager["won"].sum() < base["won"].sum()
    assert eager.filter(pl.col("hand_end") == 1)["flower_pig"].sum() == 0


def test_claim_x1_recommended_exchange_uses_b24_void():
    """X1 (B-24): same exchange and void as the game's CPU, which differ from baseline's value-based ones."""
    mine = seat0(one_vs_three("recommended-exchange")).filter(pl.col("hand") == 1)
    cpu = seat0(one_vs_three("majsoul-cpu")).filter(pl.col("hand") == 1)
    base = seat0("baseline").filter(pl.col("hand") == 1)
    assert (mine["void_suit"] == cpu["void_suit"]).all()
    assert (mine["void_suit"] != base["void_suit"]).any()


# ------------------------------------------------------------------------------ (d) hidden information
def test_hooks_receive_only_the_observation():
    """Every hook of every policy is compiled for (obs, params, tables) and nothing else."""
    expected = api.HOOK_SIG.args
    for policy in all_policies():
        for name, fn in policy.hooks.items():
            assert list(inspect.signature(fn.py_func).parameters) == ["obs", "params", "tables"], (policy.name, name)
            assert api.compiled_hook(fn).nopython_signatures == [api.HOOK_SIG], (policy.name, name)
            assert fn.nopython_signatures[0].args == expected


def test_observation_has_no_slot_for_other_concealed_hands():
    """BOBS: one 34-slot block of concealed tiles (the seat's own); the per-seat 4×34 blocks are the public
    melds and rivers. So two game states that differ only in other seats' concealed tiles (or the wall) give
    the same observation. (That the fields tile the array: tests/test_observation_layouts.py.)"""
    from tsumolab.sims.layout import describe

    fields = describe(api.BOBS)
    assert [name for name, _, width, _ in fields if width == 4 * 34] == ["melds", "river"]
    assert [name for name, _, width, _ in fields if width == 34] == ["hand", "seen", "kan_options"]


def _mid_game_observation() -> np.ndarray:
    """Seat 1's view of a mid-game state: own hand, rivers, one opponent pon, void declarations."""
    obs = np.zeros(api.BOBS.SIZE, np.int32)
    own = [0, 1, 2, 4, 4, 10, 11, 12, 13, 15, 15, 16, 17]  # 123m 55m 2345p 77p 89p; void s (none held)
    for k in own:
        obs[api.BOBS.hand + k] += 1
    obs[api.BOBS.seat], obs[api.BOBS.dealer], obs[api.BOBS.hand_no] = 1, 0, 1
    obs[api.BOBS.wall_left], obs[api.BOBS.turn] = 30, 25
    obs[api.BOBS.points:api.BOBS.points + 4] = 50000
    obs[api.BOBS.void:api.BOBS.void + 4] = [1, 2, 0, 2]
    for seat, river in ((0, [9, 14, 20, 21]), (1, [18, 19, 26]), (2, [1, 3, 8]), (3, [22, 24, 25, 5])):
        for k in river:
            obs[api.BOBS.river + 34 * seat + k] += 1
            obs[api.BOBS.n_discards + seat] += 1
            obs[api.BOBS.seen + k] += 1
    obs[api.BOBS.melds + 34 * 0 + 6] = 2  # seat 0 ponned 7m (meld code PON + 1)
    obs[api.BOBS.n_melds + 0] = 1
    obs[api.BOBS.seen + 6] += 3
    assert (obs[api.BOBS.hand:api.BOBS.hand + 34] + obs[api.BOBS.seen:api.BOBS.seen + 34] <= 4).all()
    obs[api.BOBS.rng] = 12345
    return obs


@pytest.mark.parametrize("policy", sorted(CLAIM_POLICIES))
def test_hooks_answer_from_the_observation_alone(policy):
    """A hook called outside the engine on a hand-built observation gives a legal answer, and the same answer
    for the same observation: nothing else reaches it (B-8: no furiten state to consult either)."""
    from tsumolab.policies.registry import get
    from tsumolab.sims.shanten_tables import lookup_tables

    hooks = {name: api.compiled_hook(fn) for name, fn in {**get("baseline").hooks, **get(policy).hooks}.items()}
    params = np.zeros(8, np.float64)
    params[:len(get(policy).params)] = [p.default for p in get(policy).params]
    tables = lookup_tables()

    turn = _mid_game_observation()
    turn[api.BOBS.decision], turn[api.BOBS.tile] = api.D_TURN, 17
    turn[api.BOBS.hand + 17] += 1
    first = hooks["turn"](turn.copy(), params, tables)
    assert first == hooks["turn"](turn.copy(), params, tables)
    assert 0 <= first < 34 and turn[api.BOBS.hand + first] > 0

    react = _mid_game_observation()
    react[api.BOBS.decision], react[api.BOBS.tile] = api.D_REACT, 4
    react[api.BOBS.from_seat], react[api.BOBS.can_pon] = 0, 1
    answer = hooks["react"](react.copy(), params, tables)
    assert answer in (api.PASS, api.PON) and answer == hooks["react"](react.copy(), params, tables)


def test_random_riichi_seats_draw_from_the_riichi_random_slot():
    """`random` in the riichi layout: its answers follow the seat's random state at riichi_api.ROBS.rng (and
    advance it), not a slot of the Bloodshed layout, so the same observation gives varied discards."""
    import tsumolab.policies.riichi_api as rapi
    from tsumolab.policies.riichi_builtin import random_turn
    from tsumolab.sims.shanten_tables import lookup_tables

    obs = np.zeros(rapi.ROBS.SIZE, np.int32)
    obs[rapi.ROBS.hand:rapi.ROBS.hand + 14] = 1  # 1m … 5p, one each
    obs[rapi.ROBS.tile] = 13
    obs[rapi.ROBS.decision] = api.D_TURN
    answers = set()
    for seed in range(1, 40):
        view = obs.copy()
        view[rapi.ROBS.rng] = seed * 7919
        answers.add(int(api.compiled_hook(random_turn)(view, np.zeros(8), lookup_tables())))
        assert view[rapi.ROBS.rng] != seed * 7919
    assert len(answers) >= 5
