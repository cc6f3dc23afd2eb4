"""`expert` (policies.expert) in Bloodshed: its decisions on hands written as strings (the riichi modes:
tests/test_expert_riichi.py).

Each test builds one seat's observation by hand and calls the compiled hook, so it checks the rule of the
module docstring (policies.expert_bloodshed) and not an outcome of play. That the
policy plays every mode legally and deterministically: tests/test_conformance.py (every registered policy).
"""

from __future__ import annotations

import numpy as np
import pytest

import tsumolab.policies.api as api
from tsumolab.policies.registry import get, parse_seat
from tsumolab.sims.tiles import parse_tiles


def _hook(policy: str, name: str):
    """The Bloodshed hook as the engines play it (compiled for HOOK_SIG once per process, loaded from the cache)."""
    return api.compiled_hook(get(policy).hooks[name])


def _params(spec: str = "expert") -> np.ndarray:
    params = np.zeros(8, np.float64)
    values = parse_seat(spec).param_values()
    params[:len(values)] = values
    return params


@pytest.fixture(scope="module")
def bloodshed_tables():
    from tsumolab.sims.shanten_tables import lookup_tables

    return lookup_tables()


def _bloodshed_obs(hand: str, decision: int, tile: int = -1, wall: int = 50, winners: int = 0,
                   voids=(2, 1, 0, 2), melds=None, rivers=None) -> np.ndarray:
    """Seat 0's view: `hand` (mpsz), void suits per seat, `melds` {seat: [pon kinds]}, `rivers` {seat: mpsz}."""
    B = api.BOBS
    obs = np.zeros(B.SIZE, np.int32)
    obs[B.hand:B.hand + 34] = parse_tiles(hand, allow_honors=False)[0]
    obs[B.seat], obs[B.hand_no], obs[B.wall_left], obs[B.n_winners] = 0, 1, wall, winners
    obs[B.decision], obs[B.tile], obs[B.from_seat] = decision, tile, 3
    obs[B.points:B.points + 4] = 50000
    obs[B.void:B.void + 4] = voids
    for seat, kinds in (melds or {}).items():
        for k in kinds:
            obs[B.melds + 34 * seat + k] = 2  # PON + 1
            obs[B.n_melds + seat] += 1
            obs[B.seen + k] += 3
    for seat, text in (rivers or {}).items():
        counts = parse_tiles(text, allow_honors=False)[0]
        obs[B.river + 34 * seat:B.river + 34 * seat + 34] += counts
        obs[B.seen:B.seen + 34] += counts
    return obs


def _react(hand, tile_text, **kwargs):
    tile = int(np.flatnonzero(parse_tiles(tile_text)[0])[0])
    obs = _bloodshed_obs(hand, api.D_REACT, tile, **kwargs)
    obs[api.BOBS.seen + tile] += 1  # the discard lies in the discarder's river
    obs[api.BOBS.river + 34 * 3 + tile] += 1
    return obs


def _ron_answer(obs, fan, tables, spec="expert"):
    obs[api.BOBS.can_win], obs[api.BOBS.win_fan] = 1, fan
    return _hook("expert", "react")(obs, _params(spec), tables)


def test_expert_passes_a_cheap_early_ron_on_a_wide_wait(bloodshed_tables):
    """A 1-fan ron with nobody out, 50 wall tiles and waits 2p 5p 8p (8 unseen copies) is passed for the tsumo."""
    hand = "123456m234p5678p"  # void s
    assert _ron_answer(_react(hand, "5p"), 1, bloodshed_tables) == api.PASS


@pytest.mark.parametrize(("change", "fan"), [
    ({"winners": 1}, 1),   # somebody has won: a tsumo pays less and the hand ends sooner
    ({"wall": 30}, 1),     # a short wall leaves little time to draw it
    ({}, 3),               # worth more than pass_fan
    ({"melds": {2: [20, 23]}}, 1),  # an opponent with two melds (all sou: also a flush look) is a threat
])
def test_expert_takes_the_ron_otherwise(bloodshed_tables, change, fan):
    hand = "123456m234p5678p"
    assert _ron_answer(_react(hand, "5p", **change), fan, bloodshed_tables) == api.RON


def test_expert_takes_a_ron_on_a_thin_wait_and_with_pass_fan_0(bloodshed_tables):
    """A single wait with 2 unseen copies is taken; `pass_fan=0` takes every ron, as baseline does."""
    assert _ron_answer(_react("111222m345p567p9p", "9p"), 1, bloodshed_tables) == api.RON
    assert _ron_answer(_react("123456m234p5678p", "5p"), 1, bloodshed_tables, "expert(pass_fan=0)") == api.RON


def test_expert_folds_a_slow_hand_against_a_flush_look(bloodshed_tables):
    """A 3-shanten hand facing two sou pons (seat 2, void m) gives up a man tile, safe against that void, where
    baseline's efficiency discards the 9p; with `fold_shanten=99` it keeps attacking."""
    obs = _bloodshed_obs("24578m113344679p", api.D_TURN, tile=17, melds={2: [20, 23]})
    expert = _hook("expert", "turn")(obs.copy(), _params(), bloodshed_tables)
    baseline = _hook("baseline", "turn")(obs.copy(), _params("baseline"), bloodshed_tables)
    assert expert // 9 == 0 and baseline == 17
    assert _hook("expert", "turn")(obs.copy(), _params("expert(fold_shanten=99)"), bloodshed_tables) // 9 == 1


def test_expert_steers_to_a_flush_with_ten_tiles_of_a_suit(bloodshed_tables):
    """Ten pin tiles and a connected 45m pair-free pair of man (void s): the man tiles go, though keeping them
    is as fast; baseline keeps the man shape."""
    obs = _bloodshed_obs("45m12345p6789p19p", api.D_TURN, tile=17)
    expert = _hook("expert", "turn")(obs.copy(), _params(), bloodshed_tables)
    baseline = _hook("baseline", "turn")(obs.copy(), _params("baseline"), bloodshed_tables)
    assert expert in (3, 4) and baseline not in (3, 4)
    assert _hook("expert", "turn")(obs.copy(), _params("expert(flush_tiles=99)"), bloodshed_tables) not in (3, 4)


def test_expert_stays_closed_for_seven_pairs(bloodshed_tables):
    """With five pairs and no meld, a pon (which baseline makes) would give up the seven-pairs route."""
    obs = _react("115566m2299p47p8p", "6m")
    obs[api.BOBS.can_pon] = 1
    assert _hook("baseline", "react")(obs.copy(), _params("baseline"), bloodshed_tables) == api.PON
    assert _hook("expert", "react")(obs.copy(), _params(), bloodshed_tables) == api.PASS
