"""`expert` (policies.expert): its decisions on hands written as strings, Bloodshed and riichi.

Each test builds one seat's observation by hand and calls the compiled hook, so it checks the rule of the
module docstrings (policies.expert_bloodshed, policies.expert_riichi) and not an outcome of play. That the
policy plays every mode legally and deterministically: tests/test_conformance.py (every registered policy).
"""

from __future__ import annotations

import numpy as np
import pytest

import tsumolab.policies.api as api
import tsumolab.policies.riichi_api as rapi
from tsumolab.policies.registry import get, parse_seat
from tsumolab.sims.tiles import parse_tiles


def _params(spec: str = "expert") -> np.ndarray:
    params = np.zeros(8, np.float64)
    values = parse_seat(spec).param_values()
    params[:len(values)] = values
    return params


@pytest.fixture(scope="module")
def bloodshed_tables():
    from tsumolab.sims.shanten_tables import lookup_tables

    return lookup_tables()


@pytest.fixture(scope="module")
def riichi_tables():
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
    return get("expert").hooks["react"](obs, _params(spec), tables)


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
    expert = get("expert").hooks["turn"](obs.copy(), _params(), bloodshed_tables)
    baseline = get("baseline").hooks["turn"](obs.copy(), _params("baseline"), bloodshed_tables)
    assert expert // 9 == 0 and baseline == 17
    assert get("expert").hooks["turn"](obs.copy(), _params("expert(fold_shanten=99)"), bloodshed_tables) // 9 == 1


def test_expert_steers_to_a_flush_with_ten_tiles_of_a_suit(bloodshed_tables):
    """Ten pin tiles and a connected 45m pair-free pair of man (void s): the man tiles go, though keeping them
    is as fast; baseline keeps the man shape."""
    obs = _bloodshed_obs("45m12345p6789p19p", api.D_TURN, tile=17)
    expert = get("expert").hooks["turn"](obs.copy(), _params(), bloodshed_tables)
    baseline = get("baseline").hooks["turn"](obs.copy(), _params("baseline"), bloodshed_tables)
    assert expert in (3, 4) and baseline not in (3, 4)
    assert get("expert").hooks["turn"](obs.copy(), _params("expert(flush_tiles=99)"), bloodshed_tables) not in (3, 4)


def test_expert_stays_closed_for_seven_pairs(bloodshed_tables):
    """With five pairs and no meld, a pon (which baseline makes) would give up the seven-pairs route."""
    obs = _react("115566m2299p47p8p", "6m")
    obs[api.BOBS.can_pon] = 1
    assert get("baseline").hooks["react"](obs.copy(), _params("baseline"), bloodshed_tables) == api.PON
    assert get("expert").hooks["react"](obs.copy(), _params(), bloodshed_tables) == api.PASS


# ------------------------------------------------------------------------------------------------ riichi modes
def _riichi_obs(hand: str, wall: int = 40, dora=(), riichi_seat: int = -1, safe: str = "") -> np.ndarray:
    """Seat 0's own turn with 14 tiles (the last kind of `hand` just drawn); optionally a seat in riichi whose
    known safe tiles are `safe`."""
    R = rapi.ROBS
    obs = np.zeros(R.SIZE, np.int32)
    counts, reds = parse_tiles(hand)
    obs[R.hand:R.hand + 34] = counts
    obs[R.red:R.red + 3] = reds
    obs[R.decision], obs[R.tile], obs[R.wall_left] = rapi.D_TURN, int(np.flatnonzero(counts)[-1]), wall
    obs[R.seat_wind], obs[R.round_wind], obs[R.forbid_a], obs[R.forbid_b] = 1, 0, -1, -1
    obs[R.points:R.points + 4] = 25000
    obs[R.n_dora] = len(dora)
    obs[R.dora:R.dora + 5] = -1
    obs[R.dora:R.dora + len(dora)] = dora
    obs[R.can_riichi] = 1
    if riichi_seat >= 0:
        obs[R.riichi + riichi_seat] = 1
        safe_counts = parse_tiles(safe)[0]
        obs[R.safe + 34 * riichi_seat:R.safe + 34 * riichi_seat + 34] = safe_counts > 0
        obs[R.discarded + 34 * riichi_seat:R.discarded + 34 * riichi_seat + 34] = safe_counts
        obs[R.seen:R.seen + 34] += safe_counts
    return obs


def _riichi_turn(obs, tables, spec="expert"):
    return get(parse_seat(spec).name).riichi_hooks["turn"](obs, _params(spec), tables) if spec != "baseline" \
        else get("baseline").riichi_hooks["turn"](obs, _params(spec), tables)


def test_expert_folds_a_slow_hand_against_riichi(riichi_tables):
    """A 3-shanten hand facing a riichi gives up the genbutsu 5m out of its 456m run."""
    obs = _riichi_obs("456m19p19s1234z7p3s", riichi_seat=2, safe="5m")
    obs[rapi.ROBS.can_riichi] = 0
    assert _riichi_turn(obs.copy(), riichi_tables) == 4


def test_expert_weighs_a_one_shanten_hand_by_value_with_riichi_fold_1(riichi_tables):
    """With `riichi_fold=1` a cheap 1-shanten hand folds against a riichi (breaking its East pair, the only
    genbutsu), where baseline and the default expert keep attacking; with a dora (6s) and a red five it pushes."""
    cheap = _riichi_obs("123m456p68s11z239s5p", riichi_seat=2, safe="1z")
    cheap[rapi.ROBS.can_riichi] = 0
    assert _riichi_turn(cheap.copy(), riichi_tables, "expert(riichi_fold=1)") == 27
    assert _riichi_turn(cheap.copy(), riichi_tables) != 27
    assert _riichi_turn(cheap.copy(), riichi_tables, "baseline") != 27
    valuable = _riichi_obs("123m406p68s11z239s5p", dora=[22], riichi_seat=2, safe="1z")  # indicator 5s: 6s is dora
    valuable[rapi.ROBS.can_riichi] = 0
    assert _riichi_turn(valuable.copy(), riichi_tables, "expert(riichi_fold=1)") != 27


def test_expert_stays_dama_with_a_big_tanyao_hand(riichi_tables):
    """Tenpai tanyao (shanpon 5s/7s after the 9p) with three dora 5s and the red one: dama, riichi adds little;
    the same shape without dora or red five declares riichi."""
    big = _riichi_obs("234m567p340s5577s9p", dora=[21])  # indicator 4s: 5s is dora
    assert _riichi_turn(big.copy(), riichi_tables) == 17
    plain = _riichi_obs("234m567p345s5577s9p")
    assert _riichi_turn(plain.copy(), riichi_tables) == rapi.RIICHI + 17


def test_expert_skips_riichi_on_a_thin_late_wait(riichi_tables):
    """A kanchan wait with 2 live tiles and 10 wall tiles left: no riichi; with 30 tiles left: riichi."""
    hand = "123m456p789s1z1z46m9m"  # discard 9m: 46m waits 5m (kanchan)
    late = _riichi_obs(hand, wall=10)
    late[rapi.ROBS.seen + 4] = 2
    early = _riichi_obs(hand, wall=30)
    early[rapi.ROBS.seen + 4] = 2
    assert _riichi_turn(late.copy(), riichi_tables) == 8
    assert _riichi_turn(early.copy(), riichi_tables) == rapi.RIICHI + 8
