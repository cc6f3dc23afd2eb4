"""Differential test of the `riichi` mode against riichienv, an independent engine (RULES.md R-1..R-6).

Simulated matches are replayed hand by hand in riichienv under the Mahjong Soul rule set, on tsumolab's own
walls (tests/riichienv_bridge.py). Every tsumolab decision must be legal in riichienv, every win must agree on
han, fu, yaku and points, every hand on its deltas and next-hand state; the classes of difference that occur
must be exactly those of tests/riichienv_known_differences.py. riichienv is a dev dependency: no skip.
"""

from __future__ import annotations

import numpy as np
import pytest
from riichienv import GameRule, RiichiEnv

from tsumolab.sims.riichi.engine import shuffled_wall
from tsumolab.sims.riichi.rules import DEAL_SIZE, N_TILES
from tsumolab.sims.riichi.tableau import dora_indicator
from tests.riichienv_bridge import Tally, compare, riichienv_wall
from tests.riichienv_known_differences import KNOWN_DIFFERENCES

FAST_RUNS = ((1, 40, "baseline"), (2, 30, "random,majsoul-cpu,baseline,random"))
SLOW_RUNS = ((1, 550, "baseline"), (2, 550, "baseline,random,majsoul-cpu,disconnected"),
             (3, 550, "random,majsoul-cpu,baseline,random"), (4, 550, "majsoul-cpu"))


def test_rule_r1_riichienv_deals_tsumolabs_wall():
    """R-1: riichienv, given the bridge's wall order, deals each seat tsumolab's 13 tiles, gives the dealer the
    first live tile and shows tsumolab's first dora indicator."""
    wall = np.empty(N_TILES, np.int64)
    for hand_no in (1, 2, 3):
        shuffled_wall(5, 7, hand_no, wall)
        dealer = hand_no % 4
        env = RiichiEnv(game_mode=0, rule=GameRule.default_mjsoul())
        env.reset(oya=dealer, wall=riichienv_wall(wall), round_wind=0, scores=[25000] * 4, honba=0, kyotaku=0)
        for i in range(4):
            deal = sorted(int(t) for t in wall[i * DEAL_SIZE:(i + 1) * DEAL_SIZE])
            hand = sorted(env.hands[(dealer + i) % 4])
            if i == 0:
                assert env.drawn_tile == wall[4 * DEAL_SIZE]
                hand.remove(env.drawn_tile)
            assert hand == deal
        assert [t // 4 for t in env.dora_indicators] == [dora_indicator(wall, 0)]


def _run(runs) -> Tally:
    tally = Tally()
    for seed, n_matches, seats in runs:
        tally.add(compare(seed, range(n_matches), seats))
    return tally


def _check(tally: Tally, min_matches: int) -> None:
    occurring = tally.kinds()
    examples = {d.kind: f"{d.where()}: {d.detail[:300]}" for d in reversed(tally.differences)}
    listed = {k.id for k in KNOWN_DIFFERENCES}
    assert set(occurring) - listed == set(), f"unlisted differences: {examples}"
    assert listed - set(occurring) == set(), f"listed differences that no longer occur: {listed - set(occurring)}"
    assert tally.matches >= min_matches
    assert tally.actions > 40 * tally.hands  # the decisions of every hand (passes included) went through riichienv
    assert tally.wins > tally.hands // 2
    if not listed:  # nothing known: 100% agreement on every action, win and hand
        assert tally.hands_compared == tally.hands
        assert tally.wins_agreed == tally.wins
        assert tally.hands_agreed == tally.hands


def test_rule_r2_r3_r4_riichienv_agrees_on_every_hand():
    """R-2, R-3, R-4: 70 matches over two seat mixes agree with riichienv apart from the listed differences."""
    _check(_run(FAST_RUNS), 70)


@pytest.mark.slow
def test_rule_r2_r3_r4_riichienv_agrees_on_every_hand_many_matches():
    """R-2, R-3, R-4: 2,200 matches over four seat mixes agree with riichienv apart from the listed differences."""
    _check(_run(SLOW_RUNS), 2000)
