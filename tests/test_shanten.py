"""Shanten, completeness and waits kernels (sims/shanten.py, sims/shanten_tables.py).

References: the `mahjong` package for riichi shapes (regular, seven distinct pairs, thirteen orphans),
brute-force enumeration of target patterns for the per-suit tables, and for the bloodshed seven pairs
of RULES.md B-10 (four of a kind = two pairs) the definition "every kind held an even number of times"
plus the draw/discard recursions that determine shanten from completeness. B-20: a kind of which all
four copies are held (hand and melds) is never a winning tile.
"""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

from tsumolab.sims import shanten_tables
from tsumolab.sims.shanten import (BLOODSHED_SHAPES, IDENTICAL_PAIRS, NOT_APPLICABLE, POW5, RIICHI_SHAPES,
                          SHAPE_ORPHANS, SHAPE_PAIRS, discard_shanten, draw_shanten, draw_shanten_among,
                          hand_shanten, hand_waits, is_complete, shanten, shanten_from_indices, shanten_orphans,
                          shanten_pairs, shanten_regular, suit_index, ukeire, winning_tiles)
from tsumolab.sims.tiles import parse_tiles

Shanten = pytest.importorskip("mahjong.shanten").Shanten

SUIT_T, HONOR_T = shanten_tables.get_tables()
ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
RIICHI_FLAG_CHOICES = (0, SHAPE_PAIRS, SHAPE_ORPHANS, RIICHI_SHAPES)


def counts_of(text: str) -> np.ndarray:
    return parse_tiles(text)[0]


def pkg_shanten(counts: np.ndarray, flags: int) -> int:
    return Shanten.calculate_shanten(counts.tolist(), use_chiitoitsu=bool(flags & SHAPE_PAIRS),
                                     use_kokushi=bool(flags & SHAPE_ORPHANS))


def pkg_waits(counts: np.ndarray, flags: int) -> list[int]:
    waits = []
    for k in range(34):
        if counts[k] < 4:
            counts[k] += 1
            if pkg_shanten(counts, flags) == -1:
                waits.append(k)
            counts[k] -= 1
    return waits


def kernel_waits(counts: np.ndarray, n_melds: int, flags: int, held: np.ndarray | None = None) -> list[int]:
    mask = np.zeros(34, np.int8)
    n = winning_tiles(counts, n_melds, flags, counts if held is None else held, SUIT_T, HONOR_T, mask)
    waits = [int(k) for k in np.nonzero(mask)[0]]
    assert n == len(waits)
    return waits


# ------------------------------------------------------------------------------------ hand generators
# Each returns int8[34] counts of `n_tiles` concealed tiles, never more than 4 of a kind.

def _add_tiles(rng, counts, n, kinds):
    while n:
        k = kinds[rng.integers(len(kinds))]
        if counts[k] < 4:
            counts[k] += 1
            n -= 1


def _perturb(rng, counts, n_swaps, kinds):
    """Replace n_swaps random tiles of the hand by random tiles of `kinds`."""
    for _ in range(n_swaps):
        held = np.repeat(np.arange(34), counts)
        counts[held[rng.integers(len(held))]] -= 1
        _add_tiles(rng, counts, 1, kinds)


def _drop(rng, counts, n_tiles):
    while counts.sum() > n_tiles:
        held = np.repeat(np.arange(34), counts)
        counts[held[rng.integers(len(held))]] -= 1


def uniform_hand(rng, n_tiles, kinds=range(34)):
    counts = np.zeros(34, np.int8)
    _add_tiles(rng, counts, n_tiles, list(kinds))
    return counts


def near_regular_hand(rng, n_tiles, kinds=range(34)):
    """(4 - melds) random sets and a pair, a few tiles swapped, then trimmed to n_tiles."""
    kinds = list(kinds)
    n_sets = (n_tiles - 1) // 3 if n_tiles % 3 == 1 else (n_tiles - 2) // 3
    while True:
        counts = np.zeros(34, np.int8)
        for _ in range(n_sets):
            k = kinds[rng.integers(len(kinds))]
            if k < 27 and k % 9 < 7 and rng.random() < 0.6:
                counts[k:k + 3] += 1
            else:
                counts[k] += 3
        counts[kinds[rng.integers(len(kinds))]] += 2
        if counts.max() <= 4:
            break
    _perturb(rng, counts, int(rng.integers(0, 4)), kinds)
    _drop(rng, counts, n_tiles)
    return counts


def one_suit_hand(rng, n_tiles, kinds=None):
    """All tiles from one suit: many kinds held 3 or 4 times, long overlapping shapes."""
    suit = int(rng.integers(3))
    return uniform_hand(rng, n_tiles, range(9 * suit, 9 * suit + 9))


def near_pairs_hand(rng, n_tiles, kinds=range(34)):
    """Seven pairs (a kind may be paired twice), a few tiles swapped, trimmed to n_tiles."""
    kinds = list(kinds)
    while True:
        counts = np.zeros(34, np.int8)
        for k in rng.choice(kinds, 7):
            counts[k] += 2
        if counts.max() <= 4:
            break
    _perturb(rng, counts, int(rng.integers(0, 4)), kinds)
    _drop(rng, counts, n_tiles)
    return counts


def near_orphans_hand(rng, n_tiles, kinds=range(34)):
    """Terminals and honors, a few tiles swapped for any kind, trimmed to n_tiles."""
    counts = np.zeros(34, np.int8)
    counts[ORPHANS] = 1
    _add_tiles(rng, counts, 1, ORPHANS)
    _perturb(rng, counts, int(rng.integers(0, 5)), list(kinds))
    _drop(rng, counts, n_tiles)
    return counts


TILE_COUNTS = [14 - 3 * k for k in range(5)] + [13 - 3 * k for k in range(5)]

# (generator, tile kinds, number of hands): 200,000 hands in all, a fifth of them in the fast suite.
SHANTEN_CASES = {
    "uniform-136": (uniform_hand, range(34), 40_000),
    "uniform-108": (uniform_hand, range(27), 30_000),
    "near-regular-136": (near_regular_hand, range(34), 40_000),
    "near-regular-108": (near_regular_hand, range(27), 20_000),
    "one-suit": (one_suit_hand, None, 30_000),
    "near-pairs": (near_pairs_hand, range(34), 20_000),
    "near-orphans": (near_orphans_hand, range(34), 20_000),
}


def _hands(case: str, n: int, seed: int):
    """(counts, n_melds) pairs; tile counts cycle through 14-3k and 13-3k, closed hands weighted up."""
    generator, kinds, _ = SHANTEN_CASES[case]
    rng = np.random.default_rng(seed)
    for i in range(n):
        n_tiles = TILE_COUNTS[i % 10] if i % 3 == 0 else (14 if i % 2 else 13)
        if generator in (near_pairs_hand, near_orphans_hand):
            n_tiles = 14 if i % 2 else 13
        counts = generator(rng, n_tiles) if kinds is None else generator(rng, n_tiles, kinds)
        yield counts, (14 - n_tiles) // 3


# ------------------------------------------------------------------------------- mahjong package agreement

SAMPLE = [pytest.param(5, id="fifth"), pytest.param(1, id="all", marks=pytest.mark.slow)]
"""the share of a case's hands compared: a fifth in the fast suite, all of them in the slow one"""


@pytest.mark.parametrize("share", SAMPLE)
@pytest.mark.parametrize("case", list(SHANTEN_CASES))
def test_shanten_matches_mahjong_package(case, share):
    """Regular, seven-pairs and thirteen-orphans shanten agree with the `mahjong` package, 0-4 melds."""
    n = SHANTEN_CASES[case][2] // share
    flags_rng = np.random.default_rng(1000 + len(case))
    mismatches = []
    for counts, n_melds in _hands(case, n, seed=len(case)):
        flags = RIICHI_FLAG_CHOICES[flags_rng.integers(4)]
        ours = shanten(counts, n_melds, flags, SUIT_T, HONOR_T)
        if ours != pkg_shanten(counts, flags):
            mismatches.append((counts.tolist(), n_melds, flags, ours, pkg_shanten(counts, flags)))
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[:3]}"


@pytest.mark.parametrize("case,n_hands", [("near-regular-136", 12_000), ("near-regular-108", 5_000),
                                          ("one-suit", 3_000), ("near-pairs", 4_000),
                                          ("near-orphans", 4_000), ("uniform-136", 4_000)])
@pytest.mark.parametrize("share", SAMPLE)
def test_waits_match_mahjong_package(case, n_hands, share):
    """Waits of 13-3k tile hands equal the kinds (count < 4) whose addition the package calls complete."""
    n_hands //= share
    flags_rng = np.random.default_rng(7)
    n_tenpai = 0
    mismatches = []
    for counts, n_melds in _hands(case, 2 * n_hands, seed=100 + len(case)):
        if counts.sum() % 3 != 1:
            continue
        flags = RIICHI_FLAG_CHOICES[flags_rng.integers(4)]
        expected = pkg_waits(counts, flags) if pkg_shanten(counts, flags) == 0 else []
        n_tenpai += bool(expected)
        ours = kernel_waits(counts, n_melds, flags)
        if ours != expected:
            mismatches.append((counts.tolist(), n_melds, flags, ours, expected))
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[:3]}"
    if case != "uniform-136":
        assert n_tenpai > n_hands // 20  # the sample does exercise tenpai hands


# ------------------------------------------------------------------------------ tables vs brute force

def _patterns(n_kinds: int, sequences: bool, n_sets: int, n_pairs: int) -> np.ndarray:
    """Every multiset of n_sets sets and n_pairs pairs within one group, at most 4 copies per kind."""
    unit = np.eye(n_kinds, dtype=np.int8)
    sets = [3 * unit[i] for i in range(n_kinds)]
    if sequences:
        sets += [unit[i] + unit[i + 1] + unit[i + 2] for i in range(n_kinds - 2)]
    pairs = [2 * unit[i] for i in range(n_kinds)]
    out = []
    for chosen in itertools.combinations_with_replacement(range(len(sets)), n_sets):
        base = sum((sets[j] for j in chosen), np.zeros(n_kinds, np.int8))
        for pair in (pairs if n_pairs else [np.zeros(n_kinds, np.int8)]):
            target = base + pair
            if target.max() <= 4:
                out.append(target)
    return np.array(out, np.int8)


def _brute_force_rows(hands: np.ndarray, sequences: bool) -> np.ndarray:
    n_kinds = hands.shape[1]
    rows = np.zeros((len(hands), 10), np.int64)
    for m in range(5):
        for p in range(2):
            targets = _patterns(n_kinds, sequences, m, p).astype(np.int16)
            for start in range(0, len(hands), 200):
                chunk = hands[start:start + 200, None, :].astype(np.int16)
                missing = np.maximum(0, targets[None] - chunk).sum(-1).min(1)
                rows[start:start + 200, 2 * m + p] = missing
    return rows


def _index(hands: np.ndarray) -> np.ndarray:
    return (hands.astype(np.int64) * 5 ** np.arange(hands.shape[1])).sum(1)


def test_suit_table_matches_brute_force_enumeration():
    """D[h, m, p] = min over target patterns of tiles missing, no 5th copy; random and small suit hands."""
    rng = np.random.default_rng(3)
    every_count = rng.integers(0, 5, (600, 9))
    small = np.array([uniform_hand(rng, int(rng.integers(0, 15)), range(9))[:9] for _ in range(900)])
    hands = np.concatenate([every_count, small]).astype(np.int8)
    np.testing.assert_array_equal(SUIT_T[_index(hands)], _brute_force_rows(hands, sequences=True))


def test_honor_table_matches_brute_force_enumeration():
    """Honors make triplets and pairs only: no sequence ever helps."""
    rng = np.random.default_rng(4)
    hands = rng.integers(0, 5, (3000, 7)).astype(np.int8)
    np.testing.assert_array_equal(HONOR_T[_index(hands)], _brute_force_rows(hands, sequences=False))


def test_table_never_uses_a_fifth_copy():
    """1111 (one suit) needs 2 more tiles for a set and a pair: 111 + 11 would need a fifth 1."""
    four_ones = np.zeros(9, np.int8)
    four_ones[0] = 4
    assert SUIT_T[_index(four_ones[None])[0], 2 * 1 + 1] == 2
    assert HONOR_T[4, 2 * 1 + 1] == 2


# ------------------------------------------------------------------------------ held four times (B-20)

def test_four_held_in_hand_is_not_a_wait_for_the_fifth_copy():
    """1111m 234p 567p 789s: 111m + lone 1m would pair only with a fifth 1m, so the hand is 1-shanten."""
    counts = counts_of("1111m234p567p789s")
    assert hand_shanten(counts) == 1 == pkg_shanten(counts, RIICHI_SHAPES)
    assert hand_waits(counts) == []


def test_rule_b20_kind_held_four_times_with_a_meld_is_not_a_winning_tile():
    """B-20: pon 555s + 234p567p789s5s waits on 5s only, and all four 5s are held: no winning tile."""
    counts = counts_of("234p567p789s5s")
    held = counts_of("234p567p789s5555s")
    five_sou = 22
    assert hand_waits(counts, 1, BLOODSHED_SHAPES) == [five_sou]
    assert hand_waits(counts, 1, BLOODSHED_SHAPES, held=held) == []
    assert shanten(counts, 1, BLOODSHED_SHAPES, SUIT_T, HONOR_T) == 0


def test_four_of_a_kind_in_riichi_seven_pairs_is_one_pair():
    """Riichi seven pairs need seven distinct kinds: 1111m + five pairs is 1-shanten, as in the package."""
    counts = counts_of("1111335577m2244p")
    assert hand_shanten(counts, 0, RIICHI_SHAPES) == 1 == pkg_shanten(counts, RIICHI_SHAPES)
    assert not is_complete(counts, 0, RIICHI_SHAPES, SUIT_T, HONOR_T)


# ----------------------------------------------------------------------------- B-10 identical pairs

def test_rule_b10_four_of_a_kind_counts_as_two_pairs():
    """B-10: 1111m 33m 55m 77m 22p 44p is a seven-pairs win in bloodshed, not in riichi."""
    counts = counts_of("1111335577m2244p")
    assert is_complete(counts, 0, BLOODSHED_SHAPES, SUIT_T, HONOR_T)
    assert hand_shanten(counts, 0, BLOODSHED_SHAPES) == -1
    assert not is_complete(counts, 0, 0, SUIT_T, HONOR_T)  # not a regular shape either


def test_rule_b10_waits_include_the_fourth_copy():
    """B-10: 111m 33m 55m 77m 22p 44p waits on the fourth 1m (two pairs of 1m) in bloodshed only."""
    counts = counts_of("111335577m2244p")
    assert hand_waits(counts, 0, BLOODSHED_SHAPES) == [0]
    assert hand_waits(counts, 0, RIICHI_SHAPES) == []
    assert shanten_pairs(counts, True) == 0
    assert shanten_pairs(counts, False) == 1


def test_rule_b10_eight_pair_halves_is_still_complete():
    """B-10: 1111m 2222m 33m 44m 55m: sum(c // 2) = 7, complete by seven pairs."""
    counts = counts_of("11112222334455m")
    assert shanten_pairs(counts, True) == -1
    assert shanten_pairs(counts, False) == 3  # riichi: 5 distinct kinds


def _all_even(counts: np.ndarray) -> bool:
    return counts.sum() == 14 and not (counts & 1).any()


@pytest.mark.parametrize("generator", [near_pairs_hand, near_regular_hand, uniform_hand])
@pytest.mark.slow
def test_rule_b10_bloodshed_shapes_against_definition(generator):
    """B-10 on 108-tile closed hands: complete <=> regular shape (package) or every kind held an even
    number of times; waits likewise; shanten satisfies s14 = min over discards of s13 and
    s13 = 1 + min over draws of s14 (with -1 exactly for complete hands), which fixes it uniquely."""
    rng = np.random.default_rng(11)
    suited = range(27)
    out = np.zeros(34, np.int64)
    for _ in range(1_500):
        hand = generator(rng, 14, suited)
        complete = pkg_shanten(hand, 0) == -1 or _all_even(hand)
        assert is_complete(hand, 0, BLOODSHED_SHAPES, SUIT_T, HONOR_T) == complete, hand.tolist()
        s14 = shanten(hand, 0, BLOODSHED_SHAPES, SUIT_T, HONOR_T)
        held = np.nonzero(hand)[0]
        discards = {}
        for k in held:
            hand[k] -= 1
            discards[k] = shanten(hand, 0, BLOODSHED_SHAPES, SUIT_T, HONOR_T)
            hand[k] += 1
        assert s14 == (-1 if complete else min(discards.values())), hand.tolist()
        discard_shanten(hand, 0, BLOODSHED_SHAPES, SUIT_T, HONOR_T, out)
        assert {k: out[k] for k in held} == discards

        hand[held[rng.integers(len(held))]] -= 1  # a 13-tile hand: draw recursion and waits
        draws, expected_waits = [], []
        for x in range(27):
            if hand[x] < 4:
                hand[x] += 1
                draws.append(shanten(hand, 0, BLOODSHED_SHAPES, SUIT_T, HONOR_T))
                if pkg_shanten(hand, 0) == -1 or _all_even(hand):
                    expected_waits.append(x)
                hand[x] -= 1
        assert shanten(hand, 0, BLOODSHED_SHAPES, SUIT_T, HONOR_T) == 1 + min(draws), hand.tolist()
        assert kernel_waits(hand, 0, BLOODSHED_SHAPES) == expected_waits, hand.tolist()


# --------------------------------------------------------------------------- incremental kernels agree

@pytest.mark.parametrize("flags", [0, RIICHI_SHAPES, BLOODSHED_SHAPES])
def test_discard_draw_and_ukeire_agree_with_full_shanten(flags):
    """discard_shanten / draw_shanten / draw_shanten_among / ukeire (one group row updated) equal full `shanten`
    recomputation; kinds nobody can draw are skipped without changing the acceptance."""
    rng = np.random.default_rng(21 + flags)
    out = np.zeros(34, np.int64)
    for i in range(1_500):
        n_melds = i % 5 if i % 2 else 0
        hand = (near_regular_hand if i % 3 else uniform_hand)(rng, 14 - 3 * n_melds)
        best = discard_shanten(hand, n_melds, flags, SUIT_T, HONOR_T, out)
        for k in range(34):
            if hand[k]:
                hand[k] -= 1
                assert out[k] == shanten(hand, n_melds, flags, SUIT_T, HONOR_T)
                hand[k] += 1
            else:
                assert out[k] == NOT_APPLICABLE
        assert best == out.min()
        hand[np.nonzero(hand)[0][rng.integers(np.count_nonzero(hand))]] -= 1  # now 13 - 3 * n_melds tiles
        unseen = (4 - hand).astype(np.int8)
        unseen[rng.integers(34)] = 0
        unseen[9 * rng.integers(4):][:9 * (i % 2)] = 0   # every other hand: a whole group out of sight
        draw_shanten(hand, n_melds, flags, SUIT_T, HONOR_T, out)
        among = np.zeros(34, np.int64)
        draw_shanten_among(hand, n_melds, flags, unseen, SUIT_T, HONOR_T, among)
        assert np.array_equal(among, np.where(unseen > 0, out, NOT_APPLICABLE))
        base = shanten(hand, n_melds, flags, SUIT_T, HONOR_T)
        expected_ukeire = 0
        for k in range(34):
            if hand[k] < 4:
                hand[k] += 1
                after = shanten(hand, n_melds, flags, SUIT_T, HONOR_T)
                hand[k] -= 1
                assert out[k] == after
                expected_ukeire += int(unseen[k]) if after < base else 0
            else:
                assert out[k] == NOT_APPLICABLE
        assert ukeire(hand, n_melds, flags, unseen, SUIT_T, HONOR_T) == expected_ukeire


def test_indices_and_regular_shanten_helpers():
    """suit_index is base 5 over the group's kinds; shanten_from_indices equals shanten_regular."""
    counts = counts_of("1199m2p345s77z")
    assert suit_index(counts, 0) == 2 * POW5[0] + 2 * POW5[8]
    assert suit_index(counts, 1) == POW5[1]
    assert suit_index(counts, 3) == 2 * POW5[6]
    indices = [suit_index(counts, g) for g in range(4)]
    assert shanten_from_indices(*indices, 0, SUIT_T, HONOR_T) == shanten_regular(counts, 0, SUIT_T, HONOR_T)


def test_special_shapes_need_a_closed_13_or_14_tile_hand():
    counts = counts_of("19m19p19s1234567z")
    assert shanten_orphans(counts) == 0
    assert shanten(counts, 0, SHAPE_ORPHANS, SUIT_T, HONOR_T) == 0
    counts[0] = 0
    assert shanten_orphans(counts) == NOT_APPLICABLE
    assert shanten_pairs(counts, False) == NOT_APPLICABLE
    pairs_10 = counts_of("1122334455m")
    assert shanten(pairs_10, 1, RIICHI_SHAPES | IDENTICAL_PAIRS, SUIT_T, HONOR_T) == \
        shanten(pairs_10, 1, 0, SUIT_T, HONOR_T)


# ------------------------------------------------------------------------------------- disk cache

def test_cache_dir_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert shanten_tables.cache_dir() == tmp_path / "tsumolab"


def test_disk_cache_written_then_reused(tmp_path):
    suit, honor = shanten_tables.load_or_build_tables(tmp_path)
    path = tmp_path / shanten_tables.CACHE_FILE
    assert path.is_file()
    assert [p.name for p in tmp_path.iterdir()] == [shanten_tables.CACHE_FILE]  # no temp file left
    mtime = path.stat().st_mtime_ns
    again = shanten_tables.load_or_build_tables(tmp_path)
    assert path.stat().st_mtime_ns == mtime
    np.testing.assert_array_equal(again[0], suit)
    np.testing.assert_array_equal(again[1], honor)
    np.testing.assert_array_equal(suit, SUIT_T)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "wrong-shape", "wrong-dtype", "missing-array"])
def test_corrupt_cache_is_rebuilt(tmp_path, damage):
    path = tmp_path / shanten_tables.CACHE_FILE
    shanten_tables.load_or_build_tables(tmp_path)
    if damage == "garbage":
        path.write_bytes(b"not a table" * 100)
    elif damage == "truncated":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    elif damage == "wrong-shape":
        np.savez(path, suit=SUIT_T[:100], honor=HONOR_T)
    elif damage == "wrong-dtype":
        np.savez(path, suit=SUIT_T.astype(np.int16), honor=HONOR_T)
    else:
        np.savez(path, suit=SUIT_T)
    os.utime(path)
    suit, honor = shanten_tables.load_or_build_tables(tmp_path)
    np.testing.assert_array_equal(suit, SUIT_T)
    np.testing.assert_array_equal(honor, HONOR_T)
    with np.load(path) as data:  # the file was rewritten whole
        np.testing.assert_array_equal(data["suit"], SUIT_T)
        assert data["honor"].shape == HONOR_T.shape


def test_flipped_byte_in_cache_is_detected(tmp_path):
    """A flipped byte inside the stored table fails the zip CRC check and triggers a rebuild."""
    path = tmp_path / shanten_tables.CACHE_FILE
    shanten_tables.load_or_build_tables(tmp_path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    suit, _ = shanten_tables.load_or_build_tables(tmp_path)
    np.testing.assert_array_equal(suit, SUIT_T)
