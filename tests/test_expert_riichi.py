"""`expert` in the riichi modes (policies.expert_riichi, policies.discard_prior, policies.expert_calls) and
`fast-expert`, the rule-based player it was (policies.fast_expert): expert's turn is the discard prior's choice,
compiled, on real players' turns; push or fold, riichi or dama, the yaku an open hand keeps, and their calls (the
same code), on views written by hand (tests.riichi_views).

Each test calls the compiled hook on one seat's observation, so it checks a rule of the module docstrings and not
an outcome of play.
"""

from __future__ import annotations

import numpy as np
import pytest

import tsumolab.policies.riichi_api as rapi
from tests.riichi_views import declare_riichi, expert_params, kind, pon, tables, view
from tsumolab.policies.api import compiled_hook
from tsumolab.policies.registry import get
from tsumolab.policies.riichi_baseline import riichi_turn_before_discard

R = rapi.ROBS


@pytest.fixture(scope="module")
def shanten_tables():
    return tables()


PLAYERS = ("expert", "fast-expert", "fast-expert(judge_riichi=1)")


def _turn(obs, shanten_tables, spec="expert"):
    return int(compiled_hook(get(spec.split("(")[0]).riichi_hooks["turn"])(obs, expert_params(spec), shanten_tables))


def _react(obs, shanten_tables, spec="expert"):
    return int(compiled_hook(get("expert").riichi_hooks["react"])(obs, expert_params(spec), shanten_tables))


def test_expert_discards_and_declares_riichi_as_the_shipped_prior(shanten_tables):
    """R-4: on every own turn of a closed hand in a real game (tests/data) expert's answer is the discard the
    shipped prior (analyzer.prior, numpy) ranks first, with riichi exactly where its judgement declares: the
    compiled network (its standardization folded into the weights) and judgement are the same model."""
    from tsumolab.analyzer.games.read import read_game
    from tsumolab.analyzer.prior.extract import game_discards
    from tsumolab.analyzer.prior.model import shipped_prior

    prior = shipped_prior()
    compared = declared = 0
    for seen in game_discards(read_game("tests/data/tenhou_xml/2016052515gm-00a9-0000-c4d72066.mjlog")).views:
        obs = np.zeros(R.SIZE, np.int32)
        obs[:len(seen)] = seen
        if obs[R.open + obs[R.seat]] or riichi_turn_before_discard(obs, shanten_tables) >= 0:
            continue
        choice = prior.choose(obs, shanten_tables)
        riichi = prior.declares(obs, shanten_tables, choice)
        assert _turn(obs, shanten_tables) == (rapi.RIICHI if riichi else 0) + choice
        compared += 1
        declared += riichi
    assert compared > 200 and declared > 0


@pytest.mark.parametrize("player", PLAYERS)
def test_a_slow_hand_folds_to_genbutsu_against_riichi(shanten_tables, player):
    """R-4: a 3-shanten hand facing a riichi gives up the 5m the riichi seat discarded, out of its 456m run."""
    obs = view("456m19p19s12345z7p3s")
    obs[R.can_riichi] = 0
    declare_riichi(obs, 2, "5m")
    assert _turn(obs, shanten_tables, player) == kind("5m")


@pytest.mark.parametrize("player", PLAYERS)
def test_a_ready_hand_with_a_wide_wait_pushes_a_fresh_tile(shanten_tables, player):
    """Ready on 2m-5m after giving up the drawn 5p, a tile the riichi seat never discarded: both push it and
    declare riichi (a 1,000-point pinfu does not stay dama)."""
    obs = view("123m456p789s34m55s5p")
    declare_riichi(obs, 2, "1z2z3z")
    assert _turn(obs.copy(), shanten_tables, player) == rapi.RIICHI + kind("5p")


@pytest.mark.parametrize("player", PLAYERS)
def test_dama_on_a_mangan_tanyao_riichi_on_a_cheap_one(shanten_tables, player):
    """R-3: ready on 5s/7s (shanpon) after the 9p, tanyao with three dora 5s and the red one is a mangan or more
    without riichi: dama. The same shape without dora declares riichi."""
    big = view("234m567p340s5577s9p", dora="4s")
    assert _turn(big, shanten_tables, player) == kind("9p")
    plain = view("234m567p345s5577s9p")
    assert _turn(plain, shanten_tables, player) == rapi.RIICHI + kind("9p")


@pytest.mark.parametrize("player", PLAYERS)
def test_no_riichi_on_a_thin_wait_late(shanten_tables, player):
    """R-4: a kanchan on 5m with 2 live copies and 10 wall tiles left stays dama; the two-sided 3m-6m wait of
    the same hand with 30 wall tiles left declares riichi."""
    late = view("123m456p789s11z46m9m", wall=10)
    late[R.seen + kind("5m")] = 2
    assert _turn(late, shanten_tables, player) == kind("9m")
    assert _turn(view("123m456p789s11z45m9m", wall=30), shanten_tables, player) == rapi.RIICHI + kind("9m")


def test_fast_expert_folds_with_push_0(shanten_tables):
    """fast-expert's `push` parameter: at 0 the ready hand above folds instead of pushing the fresh 5p."""
    obs = view("123m456p789s34m55s5p")
    declare_riichi(obs, 2, "1z2z3z")
    folded = _turn(obs, shanten_tables, "fast-expert(push=0)")
    assert folded < rapi.RIICHI and folded != kind("5p")


def test_fast_expert_judges_riichi_by_its_rules_or_by_the_prior(shanten_tables):
    """R-4, fast-expert's `late_wall` (12) and `judge_riichi`: the kanchan on 5m with 2 live copies that stays dama
    with 10 wall tiles left declares riichi with 30; judged by the prior (`judge_riichi=1`) it stays dama there,
    as expert does."""
    early = view("123m456p789s11z46m9m", wall=30)
    early[R.seen + kind("5m")] = 2
    assert _turn(early, shanten_tables, "fast-expert") == rapi.RIICHI + kind("9m")
    assert _turn(early, shanten_tables, "fast-expert(judge_riichi=1)") == _turn(early, shanten_tables, "expert") \
        == kind("9m")


@pytest.mark.parametrize("player", PLAYERS)
def test_an_open_tanyao_hand_gives_up_its_terminal_first(shanten_tables, player):
    """R-3 (a hand needs a yaku): with a pon of 5p and no yakuhai, the hand keeps tanyao by giving up the 9m out
    of its 789m run, though keeping the run would leave it nearer ready."""
    obs = view("789m234s23p55s6s")
    obs[R.can_riichi] = 0
    pon(obs, 0, "5p")
    assert _turn(obs, shanten_tables, player) == kind("9m")


def test_a_yakuhai_pair_is_ponned(shanten_tables):
    """A pair of red dragons: the discarded third one is ponned (the yaku comes with the meld)."""
    obs = view("234m68p13s5579s77z", decision=rapi.D_REACT, tile="7z")
    obs[R.can_pon] = 1
    assert _react(obs, shanten_tables) == rapi.PON


def test_a_tanyao_chi_needs_its_terminals_to_be_dead_weight(shanten_tables):
    """Chi of 2m onto 34m leaves the hand ready on the 7p kanchan once the isolated 9s goes: made. The same chi
    in a hand whose terminals are two pairs (9p, 1s) would throw its shape away for tanyao: passed."""
    good = view("34m678p234s55s68p9s", decision=rapi.D_REACT, tile="2m")
    good[R.can_chi] = 1
    assert _react(good, shanten_tables) == rapi.CHI_LOW
    pairs = view("34m678p234s5s99p11s", decision=rapi.D_REACT, tile="2m")
    pairs[R.can_chi] = 1
    assert _react(pairs, shanten_tables) == rapi.PASS


def test_facing_riichi_only_a_call_to_ready_is_made(shanten_tables):
    """The yakuhai pon of the test above, facing a riichi: passed (the hand would stay 1-shanten)."""
    obs = view("234m68p13s5579s77z", decision=rapi.D_REACT, tile="7z")
    obs[R.can_pon] = 1
    declare_riichi(obs, 1, "1z")
    assert _react(obs, shanten_tables) == rapi.PASS


def test_late_a_call_to_ready_is_made_without_a_yaku(shanten_tables):
    """R-6 (a ready hand is paid at the exhaustive draw): the chi of 4s onto 23s makes a hand without a yaku
    ready (shanpon on West / North, neither a yakuhai here): made with 12 wall tiles left, passed with 40."""
    hand = "789m456p23s3344z8p"
    late = view(hand, decision=rapi.D_REACT, tile="4s", wall=12)
    early = view(hand, decision=rapi.D_REACT, tile="4s", wall=40)
    for obs in (late, early):
        obs[R.can_chi] = 4
    assert _react(late, shanten_tables) == rapi.CHI_HIGH
    assert _react(early, shanten_tables) == rapi.PASS
