"""`fast-expert` (policies.fast_expert), advise's rollout player in the riichi modes: push or fold by its rules,
riichi or dama, the yaku an open hand keeps, on views written by hand (tests.riichi_views). Its calls are
expert's (tests/test_expert_riichi.py).

Each test calls the compiled hook on one seat's observation, so it checks a rule of the module docstring and not
an outcome of play.
"""

from __future__ import annotations

import pytest

import tsumolab.policies.riichi_api as rapi
from tests.riichi_views import declare_riichi, expert_params, kind, pon, tables, view
from tsumolab.policies.registry import get

R = rapi.ROBS


@pytest.fixture(scope="module")
def shanten_tables():
    return tables()


def _turn(obs, shanten_tables, spec="fast-expert"):
    return int(get("fast-expert").riichi_hooks["turn"](obs, expert_params(spec), shanten_tables))


def test_a_slow_hand_folds_to_genbutsu_against_riichi(shanten_tables):
    """R-4: a 3-shanten hand facing a riichi gives up the 5m the riichi seat discarded, out of its 456m run."""
    obs = view("456m19p19s12345z7p3s")
    obs[R.can_riichi] = 0
    declare_riichi(obs, 2, "5m")
    assert _turn(obs, shanten_tables) == kind("5m")


def test_a_ready_hand_with_a_wide_wait_pushes_a_fresh_tile(shanten_tables):
    """Ready on 2m-5m after giving up the drawn 5p, a tile the riichi seat never discarded: the default pushes it
    and declares riichi (a 1,000-point pinfu does not stay dama); with push=0 the hand folds instead."""
    obs = view("123m456p789s34m55s5p")
    declare_riichi(obs, 2, "1z2z3z")
    assert _turn(obs.copy(), shanten_tables) == rapi.RIICHI + kind("5p")
    folded = _turn(obs.copy(), shanten_tables, "fast-expert(push=0)")
    assert folded < rapi.RIICHI and folded != kind("5p")


def test_dama_on_a_mangan_tanyao_riichi_on_a_cheap_one(shanten_tables):
    """R-3: ready on 5s/7s (shanpon) after the 9p, tanyao with three dora 5s and the red one is a mangan or more
    without riichi: dama. The same shape without dora declares riichi."""
    big = view("234m567p340s5577s9p", dora="4s")
    assert _turn(big, shanten_tables) == kind("9p")
    plain = view("234m567p345s5577s9p")
    assert _turn(plain, shanten_tables) == rapi.RIICHI + kind("9p")


def test_no_riichi_on_a_thin_wait_late(shanten_tables):
    """A kanchan on 5m with 2 live copies: no riichi with 10 wall tiles left (late_wall 12), riichi with 30."""
    hand = "123m456p789s11z46m9m"
    late, early = view(hand, wall=10), view(hand, wall=30)
    for obs in (late, early):
        obs[R.seen + kind("5m")] = 2
    assert _turn(late, shanten_tables) == kind("9m")
    assert _turn(early, shanten_tables) == rapi.RIICHI + kind("9m")


def test_an_open_tanyao_hand_gives_up_its_terminal_first(shanten_tables):
    """R-3 (a hand needs a yaku): with a pon of 5p and no yakuhai, the hand keeps tanyao by giving up the 9m out
    of its 789m run, though keeping the run would leave it nearer ready."""
    obs = view("789m234s23p55s6s")
    obs[R.can_riichi] = 0
    pon(obs, 0, "5p")
    assert _turn(obs, shanten_tables) == kind("9m")
