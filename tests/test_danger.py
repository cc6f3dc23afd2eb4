"""The danger estimate of policies.danger on views written by hand: genbutsu, suji, kabe, one-chance, honors by
copies seen, which seats threaten and what a discard costs against them.

A riichi seat cannot ron a kind it discarded, nor a two-sided wait through one (furiten, R-4): those are the
genbutsu and suji the estimate reads.
"""

from __future__ import annotations

import numpy as np

from tests.riichi_views import declare_riichi, discard, kind, pon, show, view
from tsumolab.policies.danger import discard_costs, threat_weight, wait_danger
from tsumolab.policies.riichi_api import ROBS


def _danger(hand: str, river: str, tile: str, shown: str = "") -> int:
    obs = view(hand)
    declare_riichi(obs, 2, river)
    if shown:
        show(obs, shown)
    return int(wait_danger(obs, kind(tile), 2))


def test_genbutsu_is_safe_and_suji_is_safer_than_a_fresh_tile():
    """R-4: the riichi seat's own discard is 0; 5m with 2m and 8m discarded (suji on both sides) is safer than 5m
    with one of them (half suji), itself safer than a fresh 5m."""
    hand = "19m19p19s1234567z"
    assert _danger(hand, "5m1z", "5m") == 0
    both, half, fresh = (_danger(hand, river, "5m") for river in ("2m8m", "2m1z", "1z2z"))
    assert 0 < both < half < fresh


def test_inner_tiles_are_more_dangerous_than_outer_ones():
    """With nothing discarded near them, 1m < 2m < 3m < 5m: inner kinds complete more two-sided waits."""
    dangers = [_danger("19p19s1234567z5p", "1z2z", t) for t in ("1m", "2m", "3m", "5m")]
    assert dangers == sorted(set(dangers))


def test_kabe_and_one_chance_cut_the_two_sided_waits():
    """9m waits two-sided only on 78m: with all four 8m visible (kabe) it is as safe as its pair waits, with three
    visible (one-chance) it is between that and a 9m with no 8m visible."""
    hand = "19p19s1234567z"
    open_9m = _danger(hand, "1z", "9m")
    one_chance = _danger(hand, "1z", "9m", shown="888m")
    kabe = _danger(hand, "1z", "9m", shown="8888m")
    assert kabe < one_chance < open_9m
    assert kabe == _danger(hand, "1z", "9m", shown="8888m7777m")


def test_honors_get_safer_with_each_copy_seen():
    """A honor completes only pair waits: 0, 1, 2 copies visible are ever safer, three visible leaves a single
    wait (still above 0), genbutsu is 0."""
    hand = "19m19p19s123456z"
    dangers = [_danger(hand, "1m", "7z", shown=shown) for shown in ("", "7z", "77z", "777z")]
    assert dangers[0] > dangers[1] > dangers[2] > dangers[3] > 0
    assert _danger(hand, "7z", "7z") == 0


def test_threats_are_riichi_seats_and_open_hands_that_look_ready():
    """Riichi: 1000; a closed seat, one meld, or a seat that has won: 0; two melds with a dragon pon more than
    two plain ones; three melds more still."""
    obs = view("19m19p19s1234567z")
    declare_riichi(obs, 1, "1z")
    assert threat_weight(obs, 1) == 1000 and threat_weight(obs, 0) == 0
    pon(obs, 2, "4p")
    assert threat_weight(obs, 2) == 0
    pon(obs, 2, "6s")
    plain = threat_weight(obs, 2)
    pon(obs, 3, "4m")
    pon(obs, 3, "5z")
    assert plain > 0 and threat_weight(obs, 3) > plain
    pon(obs, 2, "7p")
    assert threat_weight(obs, 2) > plain
    obs[ROBS.won + 1] = 1
    assert threat_weight(obs, 1) == 0


def test_a_discard_costs_more_against_the_dealer_and_less_outside_a_flush_look():
    """discard_costs: 0 with no threat; the same riichi costs half as much again when its seat deals; against
    an open hand whose melds are all pin, a man tile counts a fifth: the 5m costs less than half the 5p."""
    hand = "5m5p19s123456z"
    costs = np.zeros(34, np.int64)
    quiet = view(hand)
    assert discard_costs(quiet, costs) == 0 and costs.sum() == 0
    child, dealer = view(hand, dealer=3), view(hand, dealer=2)
    for obs in (child, dealer):
        declare_riichi(obs, 2, "1z")
    discard_costs(child, costs)
    child_cost = int(costs[kind("5m")])
    discard_costs(dealer, costs)
    assert child_cost > 0 and abs(2 * int(costs[kind("5m")]) - 3 * child_cost) <= 3
    flush = view(hand)
    for tile in ("2p", "7p", "9p"):
        pon(flush, 1, tile)
    discard(flush, 1, "1z")
    discard_costs(flush, costs)
    assert 0 < costs[kind("5m")] * 2 < costs[kind("5p")]
