"""Hidden hands for rebuilt riichi positions (analyzer.advise.riichi_hidden): random complete hands around the tiles a
seat must hold, and the value the engine's scorer gives a hidden winner's hand, made up to the logged han and
fu with red fives and ura indicators."""

from __future__ import annotations

import numpy as np

def shape_tables():
    """The engine's shanten tables (suit rows, honor rows)."""
    from tsumolab.sims.shanten_tables import get_tables

    return get_tables()


SIMPLES = np.array([k < 27 and 1 <= k % 9 <= 7 for k in range(34)])
STYLES = ("any", "any", "simples", "flush")  # drawn at random per candidate; a flush is one suit with honors


def _style_mask(style: str, rng) -> np.ndarray | None:
    if style == "simples":
        return SIMPLES
    if style == "flush":
        suit = int(rng.integers(3))
        return np.array([k >= 27 or k // 9 == suit for k in range(34)])
    return None


def complete_hand(rng, required: np.ndarray, n_sets: int, room: np.ndarray, closed: bool,
                  style: str = "any") -> np.ndarray | None:
    """Kind counts of a complete hand (n_sets sets and a pair, or seven pairs when closed) that holds `required`
    and takes its other tiles within `room` (copies available per kind); None when this random try fails."""
    mask = _style_mask(style, rng)
    if mask is not None:
        if (required[~mask] > 0).any():
            return None
        room = np.where(mask, room, 0)
    if required.sum() > 3 * n_sets + 2:
        return None
    if closed and n_sets == 4 and rng.random() < 0.1:
        return _seven_pairs(rng, required, room)
    need = required.astype(np.int64).copy()
    left = room.astype(np.int64).copy()
    counts = np.zeros(34, np.int64)
    pair, sets = False, 0
    while need.any():
        wanted = np.nonzero(need)[0]
        k = int(wanted[rng.integers(wanted.size)])
        groups = [(k, k)] if not pair else []
        if sets < n_sets:
            groups.append((k, k, k))
            if k < 27:
                low = k - k % 9
                groups += [(s, s + 1, s + 2) for s in (k - 2, k - 1, k) if low <= s <= low + 6]
        order = rng.permutation(len(groups))
        for g in order:
            if _take_group(groups[g], need, left, counts):
                if len(groups[g]) == 2:
                    pair = True
                else:
                    sets += 1
                break
        else:
            return None
    while sets < n_sets:
        if not _random_group(rng, 3, left, counts):
            return None
        sets += 1
    if not pair and not _random_group(rng, 2, left, counts):
        return None
    return counts


def _take_group(group, need, left, counts) -> bool:
    use_need = np.zeros(34, np.int64)
    use_left = np.zeros(34, np.int64)
    for t in group:
        if need[t] - use_need[t] > 0:
            use_need[t] += 1
        elif left[t] - use_left[t] > 0:
            use_left[t] += 1
        else:
            return False
    need -= use_need
    left -= use_left
    for t in group:
        counts[t] += 1
    return True


def _random_group(rng, size: int, left, counts) -> bool:
    if size == 2 or rng.random() < 0.25:
        n = 2 if size == 2 else 3
        kinds = np.nonzero(left >= n)[0]
        if kinds.size == 0:
            return False
        k = int(kinds[rng.integers(kinds.size)])
        left[k] -= n
        counts[k] += n
        return True
    starts = [s for s in range(27) if s % 9 <= 6 and left[s] > 0 and left[s + 1] > 0 and left[s + 2] > 0]
    if not starts:
        return False
    s = starts[int(rng.integers(len(starts)))]
    for t in (s, s + 1, s + 2):
        left[t] -= 1
        counts[t] += 1
    return True


def _seven_pairs(rng, required, room) -> np.ndarray | None:
    if (required > 2).any():
        return None
    kinds = [int(k) for k in np.nonzero(required)[0]]
    if len(kinds) > 7 or any(room[k] < 2 - required[k] for k in kinds):
        return None
    others = [k for k in range(34) if required[k] == 0 and room[k] >= 2]
    if len(others) < 7 - len(kinds):
        return None
    kinds += [int(k) for k in rng.choice(others, 7 - len(kinds), replace=False)]
    counts = np.zeros(34, np.int64)
    counts[kinds] = 2
    return counts


def tenpai_fills(rng, fixed: np.ndarray, n_free: int, room: np.ndarray, n_melds: int, budget: list[int]):
    """Every way (kind counts) to give `n_free` unknown tiles within `room` so that `fixed` plus them is a tenpai
    hand of 13 - 3 n_melds tiles, each once, searched in a random order: the complete hands around `fixed` are
    enumerated kind by kind (sets, a pair, seven pairs when closed), and each gives up one of its unknown tiles
    as the wait. The wait need not be left anywhere, so the complete hand may take one copy more than `room` of
    the kind it then leaves out. `budget` ([nodes]) is spent as the search goes; the search stops when it runs
    out. The exhaustive counterpart of complete_hand, for hands whose room is too tight for random tries (M:
    one normal copy per kind)."""
    lo = fixed.astype(np.int64)
    cap = lo + np.maximum(room, 0)                 # copies within room
    hi = np.minimum(cap + 1, 4)                     # one more for the wait
    n_sets = 4 - n_melds
    total = 3 * n_sets + 2
    if lo.sum() + n_free + 1 != total:
        return
    after = np.concatenate([np.cumsum(lo[::-1])[::-1], [0]])  # known tiles from kind k on
    hand = np.zeros(34, np.int64)
    seen: set[tuple] = set()

    def fills(complete: np.ndarray):
        over = np.nonzero(complete > cap)[0]
        waits = over.tolist() if over.size else np.nonzero(complete > lo)[0].tolist()
        for w in rng.permutation(waits).tolist() if waits else ():
            extra = complete - lo
            extra[w] -= 1
            key = tuple(extra.tolist())
            if key not in seen:
                seen.add(key)
                yield extra

    def hands(k: int, started1: int, started2: int, sets: int, pair: int, used: int, over: int):
        budget[0] -= 1
        if budget[0] < 0 or used + after[k] > total or used - (after[0] - after[k]) > n_free + 1:
            return
        if k == 34:
            if sets == n_sets and pair and used == total:
                yield hand.copy()
            return
        runs = n_sets - sets if k < 27 and k % 9 <= 6 else 0
        options = [(s, p, q) for s in range(runs + 1) for p in (0, 1) for q in ((0,) if pair else (0, 1))
                   if sets + s + p <= n_sets]
        for s, p, q in (options[i] for i in rng.permutation(len(options))):
            c = started1 + started2 + s + 3 * p + 2 * q
            extra_over = max(0, c - int(cap[k]))
            if not lo[k] <= c <= hi[k] or over + extra_over > 1:
                continue
            hand[k] = c
            yield from hands(k + 1, s, started1, sets + s + p, pair + q, used + c, over + extra_over)
        hand[k] = 0

    def seven_pairs():
        if n_melds or (lo > 2).any():
            return
        must = np.nonzero(lo > 0)[0].tolist()
        may = [k for k in rng.permutation(34).tolist() if lo[k] == 0 and hi[k] >= 2]
        if len(must) > 7:
            return
        from itertools import combinations

        for others in combinations(may, 7 - len(must)):
            budget[0] -= 1
            if budget[0] < 0:
                return
            complete = np.zeros(34, np.int64)
            complete[must + list(others)] = 2
            if (complete > hi).any() or (complete > cap).sum() > 1:
                continue
            yield complete

    for complete in hands(0, 0, 0, 0, 0, 0, 0):
        yield from fills(complete)
    for complete in seven_pairs():
        yield from fills(complete)


def keeps_waits(hand13: np.ndarray, n_melds: int, kind: int) -> bool:
    """Does a closed kan of `kind` in riichi leave the waits of this 13 - 3 n_melds tile hand (three of them
    `kind`) as they are? The engine allows it only then (sims.riichi.engine, own turn)."""
    from tsumolab.sims.shanten import RIICHI_SHAPES, winning_tiles

    suit_t, honor_t = shape_tables()
    before, after = np.zeros(34, np.int8), np.zeros(34, np.int8)
    hand = hand13.astype(np.int8)
    if hand[kind] < 3:
        return False
    winning_tiles(hand, n_melds, RIICHI_SHAPES, hand, suit_t, honor_t, before)
    hand[kind] -= 3
    winning_tiles(hand, n_melds + 1, RIICHI_SHAPES, hand, suit_t, honor_t, after)
    return bool(before.any()) and np.array_equal(before, after)


class WinValue:
    """The engine scorer's value of candidate hands for one hidden win (analyzer.advise.riichi_hidden.Win)."""

    def __init__(self, plan, win, fixed_reds: int):
        from tsumolab.sims.riichi.scoring import N_RES

        self.plan = plan
        self.win = win
        self.fixed_reds = fixed_reds
        self.melds = np.zeros((4, 2), np.int8)
        for i, (mtype, low) in enumerate(win.melds):
            self.melds[i] = (mtype, low)
        self.out = np.zeros(N_RES, np.int64)
        self.seat_wind = (win.seat - plan.dealer) % 4
        self.waits = np.zeros(34, np.int8)
        self.ura_slots = [127 + 2 * i for i in range(len(win.dora))] if win.riichi else []

    def style(self, rng) -> str:
        return STYLES[int(rng.integers(len(STYLES)))]

    def room(self, room: np.ndarray, rng) -> np.ndarray:
        """The tiles a candidate may take beyond the required ones: half of the candidates of a win with a
        logged value take no dora and no five whose only copy left is the red one (han are easy to add with
        ura and red fives, impossible to take away)."""
        from tsumolab.sims.riichi.scoring import dora_of

        if self.win.han is None or rng.random() < 0.5:
            return room
        lean = room.copy()
        for indicator in self.win.dora:
            lean[dora_of(indicator)] = 0
        for k in (4, 13, 22):
            if self.plan.pool[(k, False)] == 0:
                lean[k] = 0
        return lean

    def _score(self, counts: np.ndarray, reds: int, ura: list[int]) -> tuple[int, int, int, int]:
        """(status, han, fu, base points) of the hand `counts` (the winning tile included)."""
        from tsumolab.sims.riichi.scoring import RES_BASE, RES_FU, RES_HAN, new_context, score_hand

        win = self.win
        ctx = new_context(win=win.tile[0], tsumo=win.tsumo, seat_wind=self.seat_wind,
                          round_wind=self.plan.round // 4, dealer=win.seat == self.plan.dealer, riichi=win.riichi,
                          ippatsu=win.ippatsu, flags=win.flags, red=reds, dora=tuple(win.dora), ura=tuple(ura))
        status = score_hand(counts.astype(np.int8), self.melds, len(win.melds), ctx, self.plan.sopts, self.out)
        return status, int(self.out[RES_HAN]), int(self.out[RES_FU]), int(self.out[RES_BASE])

    def _target_base(self) -> int:
        from tsumolab.sims.riichi.scoring import base_points

        han, fu = self.win.han, self.win.fu or 0
        return int(base_points(han, fu, han // 13 if han >= 13 else 0, self.plan.sopts)[0])

    def _accepts(self, han: int, fu: int, base: int, exact: bool) -> bool:
        """Exactly the logged han (and fu below mangan), or, when not `exact`, the same base points."""
        target = self.win
        if han == target.han and (target.han >= 5 or target.fu is None or fu == target.fu):
            return True
        return not exact and base == self._target_base()

    def fit(self, counts: np.ndarray, extra: np.ndarray, free: list[int], exact: bool):
        """(placed tiles, ura tiles) that give the candidate `counts` the logged value, or None."""
        from tsumolab.sims.riichi.scoring import SCORED, dora_of

        plan, win = self.plan, self.win
        if not win.tsumo and win.avoid and self._furiten(counts):
            return None
        if win.riichi_kans:
            hand = counts.copy()
            hand[win.tile[0]] -= 1
            n_melds = len(win.melds) - 1
            if not all(keeps_waits(hand + 3 * (np.arange(34) == k), n_melds, k) for k in win.riichi_kans):
                return None
        placed = plan.place(extra, free)
        if placed is None:
            return None
        reds = win.meld_reds + self.fixed_reds + sum(t[1] for _, t in placed) + (0 if win.tsumo else win.tile[1])
        fixed_ura = [plan.value[at][0] for at in self.ura_slots if plan.value[at] is not None]
        status, han, fu, base = self._score(counts, reds, fixed_ura)
        if status != SCORED:
            return None
        if win.han is None:
            return placed, []
        full = counts + win.meld_counts
        # red fives that could be the red copy instead of a plain one: +1 han each
        pool = dict(plan.pool)
        for _, t in placed:
            pool[t] -= 1
        upgrades, kinds = [], set()
        for i, (at, t) in enumerate(placed):
            red = (t[0], True)
            if not t[1] and pool.get(red, 0) > 0 and red not in plan.forbid[at] and t[0] not in kinds:
                upgrades.append(i)
                kinds.add(t[0])
        open_slots = [at for at in self.ura_slots if plan.value[at] is None]
        by_gain: dict[int, list[int]] = {}
        for ind in range(34):
            if pool[(ind, False)] + pool.get((ind, True), 0) > plan.reserved[ind]:
                by_gain.setdefault(int(full[dora_of(ind)]), []).append(ind)
        target = win.han
        if exact and (han > target or (target < 5 and win.fu is not None and fu != win.fu)):
            return None
        for n_red in range(len(upgrades) + 1):
            for combo in _sums(sorted(by_gain), len(open_slots)):
                expect = han + n_red + sum(combo)
                if exact and expect != target:
                    continue
                if not exact and _base(expect, fu, plan.sopts) != self._target_base():
                    continue
                ura_kinds, ura_tiles = self._ura(open_slots, combo, by_gain, pool)
                if ura_kinds is None:
                    continue
                new = list(placed)
                for i in upgrades[:n_red]:
                    new[i] = (new[i][0], (new[i][1][0], True))
                all_ura = [plan.value[at][0] if plan.value[at] is not None else ura_kinds[at] for at in self.ura_slots]
                status2, han2, fu2, base2 = self._score(counts, reds + n_red, all_ura)
                if status2 == SCORED and self._accepts(han2, fu2, base2, exact):
                    return new, ura_tiles
        return None

    def _furiten(self, counts: np.ndarray) -> bool:
        """Would the seat be furiten for this ron (R-4): a wait it discarded, or let pass since its last discard
        (since its riichi when in riichi)?"""
        from tsumolab.sims.shanten import RIICHI_SHAPES, winning_tiles

        hand = counts.astype(np.int8)
        hand[self.win.tile[0]] -= 1
        suit_t, honor_t = shape_tables()
        winning_tiles(hand, len(self.win.melds), RIICHI_SHAPES, hand, suit_t, honor_t, self.waits)
        return any(self.waits[k] for k in self.win.avoid)

    def _ura(self, slots, combo, by_gain, pool):
        kinds, out = {}, []
        pool = dict(pool)
        for at, gain in zip(slots, combo):
            choices = [k for k in by_gain.get(gain, [])
                       if pool[(k, False)] + pool.get((k, True), 0) > self.plan.reserved[k]]
            if not choices:
                return None, None
            k = choices[int(self.plan.rng.integers(len(choices)))]
            tile = (k, False) if pool[(k, False)] > 0 else (k, True)
            pool[tile] -= 1
            kinds[at] = k
            out.append((at, tile))
        return kinds, out


def _base(han: int, fu: int, sopts) -> int:
    from tsumolab.sims.riichi.scoring import base_points

    return int(base_points(han, fu, 0, sopts)[0])


def _sums(gains: list[int], n: int):
    """Every non-decreasing choice of n gains (ura contributions), fewest han first."""
    if n == 0:
        yield ()
        return
    combos = [()]
    for _ in range(n):
        combos = [c + (g,) for c in combos for g in gains if not c or g >= c[-1]]
    yield from sorted(combos, key=sum)
