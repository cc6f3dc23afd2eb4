"""Hand analysis at the Python edge: one request object in, shanten, waits and (if complete) the win out.

A request is a dict (one JSON object of `tsumolab hand --batch`):

    {"variant": "bloodshed" | "riichi",      # default: the caller's default variant ("riichi" on the CLI)
     "hand": "123m456p789s1122z",            # concealed tiles, the winning tile included if any
     "melds": ["pon 555p", "ankan 1111s"],   # optional; kans count as 3 tiles toward the hand size
     "win_tile": "2z",                        # optional; must be in `hand`, needs a 14-tile hand
     "tsumo": false, "dealer": false,         # optional win context, passed to the scorer
     "void": "m",                             # bloodshed only: declared void suit (B-7)
     "flags": ["kan_draw"],                   # situational flags for the scorer (each variant its own names)
     "rules": {"stack_known_bugs": true},     # rule options for the variant's scorer
     "round_wind": "E", "seat_wind": "S",     # riichi only, with "riichi", "double_riichi", "ippatsu",
     "dora_indicators": "3m", "honba": 0}     # "ura_indicators", "sticks" (see sims.riichi.calculator)

Result: ``{"shanten": int, "waits": [tile names], "win": null | {...}}`` and, when a complete bloodshed
hand holds a void-suit tile, ``"reason": "void"`` next to ``"win": null``.

- Hand size: concealed tiles + 3 × melds must be 13 or 14.
- 13 tiles: shanten of the 13 tiles and the kinds that complete them.
- 14 tiles: shanten of all 14 (−1 = complete). `waits` are those of the 13 tiles left after taking out
  `win_tile`; without `win_tile` they are ``[]`` (which tile to take out is not ours to guess).
- Waits never list a kind the waiting hand already holds all four of, counting melds (B-20).
- `shanten` and `waits` describe the shape only: a void-suit tile does not change them, it only voids the win.
- A complete 14-tile hand: bloodshed → the scorer's result (`sims.bloodshed.calculator.score_request`),
  or ``"win": null, "reason": "void"`` when a tile of the void suit is held. Without "void" the hand is
  scored as if it had declared a suit it does not hold; a hand touching all three suits holds a void
  tile whatever it declares, so it gets ``"reason": "void"``. Riichi → ``{"complete": true}`` until
  riichi scoring exists.
- Bloodshed uses B-10 shapes (seven pairs may repeat a pair, no thirteen orphans), no honors, no red
  fives, no chi; riichi uses seven distinct pairs and thirteen orphans.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tsumolab.sims.tiles import N_KINDS, TileError, parse_meld, parse_tile, parse_tiles, tile_name

VARIANTS = ("bloodshed", "riichi")
RIICHI_KEYS = frozenset({"round_wind", "seat_wind", "riichi", "double_riichi", "ippatsu", "dora_indicators",
                         "ura_indicators", "honba", "sticks"})
REQUEST_KEYS = (frozenset({"variant", "hand", "melds", "win_tile", "tsumo", "dealer", "void", "flags", "rules"})
                | RIICHI_KEYS)
VOID_SUITS = "mps"
TILE_NAMES = tuple(tile_name(k) for k in range(N_KINDS))


@dataclass
class PreparedHand:
    """A validated request: concealed counts, the counts the waits are computed for, and what scoring needs."""

    variant: str
    concealed: np.ndarray            # int8[34], winning tile included
    n_melds: int
    n_tiles: int                     # concealed + 3 × melds: 13 or 14
    held: list[int]                  # per kind, concealed + melds
    waiting: np.ndarray | None       # int8[34] 13-tile concealed part whose waits are reported, or None
    waiting_held: np.ndarray | None  # int8[34] waiting + melds: kinds held four times are no wait
    request: dict                    # the request with its variant filled in (for the scorer)


_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
_DIGIT = {str(d): d for d in range(10)}


def _quick_parse(text: str, allow: bool) -> tuple[list[int], list[int]] | None:
    """(counts, reds) as lists for a well-formed `mpsz` string; None when anything is off, so that the caller
    lets `parse_tiles` raise its precise error. `allow` = red fives and honors allowed."""
    counts = [0] * N_KINDS
    reds = [0, 0, 0]
    pending: list[int] = []
    for ch in text:
        digit = _DIGIT.get(ch)
        if digit is not None:
            pending.append(digit)
            continue
        base = _SUIT_BASE.get(ch)
        if base is None:
            if ch == " ":
                continue
            return None
        if not pending:
            return None
        for digit in pending:
            if digit == 0:
                if base == 27 or not allow:
                    return None
                reds[base // 9] += 1
                digit = 5
            elif base == 27 and (digit > 7 or not allow):
                return None
            counts[base + digit - 1] += 1
        pending = []
    if pending or max(counts) > 4 or max(reds) > 1:
        return None
    return counts, reds


def _parse_counts(text: str, allow: bool) -> tuple[list[int], list[int]]:
    parsed = _quick_parse(text, allow)
    if parsed is None:
        counts, reds = parse_tiles(text, allow_red=allow, allow_honors=allow)  # raises the precise TileError
        parsed = counts.tolist(), reds.tolist()
    return parsed


_ONE_TILE = ({tile_name(k): (k, False) for k in range(N_KINDS)}
             | {f"0{s}": (9 * i + 4, True) for i, s in enumerate("mps")})
_ONE_SUITED_TILE = {name: kind for name, kind in _ONE_TILE.items() if not kind[1] and kind[0] < 27}


def _parse_one(text: str, allow: bool) -> tuple[int, bool]:
    """(kind, is_red) of exactly one tile."""
    found = (_ONE_TILE if allow else _ONE_SUITED_TILE).get(text)
    if found is None:
        return parse_tile(text, allow_red=allow, allow_honors=allow)  # raises the precise TileError
    return found


def _expect(obj: dict, key: str, kind: type, what: str) -> Any:
    value = obj[key]
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise ValueError(f"{key!r} must be {what}, got {value!r}")
    return value


def prepare(obj: dict, default_variant: str = "riichi") -> PreparedHand:
    """Validate one request and turn it into count arrays. Raises TileError or ValueError with a clear message."""
    if not isinstance(obj, dict):
        raise ValueError(f"a request must be a JSON object, got {type(obj).__name__}")
    if not obj.keys() <= REQUEST_KEYS:
        unknown = ", ".join(sorted(map(repr, obj.keys() - REQUEST_KEYS)))
        raise ValueError(f"unknown key(s) {unknown}; known: {', '.join(sorted(REQUEST_KEYS))}")
    variant = obj.get("variant", default_variant)
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; available: {', '.join(VARIANTS)}")
    if "hand" not in obj:
        raise ValueError("missing key 'hand' (the concealed tiles, e.g. '123m456p789s1122z')")
    hand = _expect(obj, "hand", str, "a string of tiles")
    melds = _expect(obj, "melds", list, "a list of meld strings") if "melds" in obj else ()
    for key in ("tsumo", "dealer"):
        if key in obj:
            _expect(obj, key, bool, "true or false")
    if "flags" in obj:
        flags = _expect(obj, "flags", list, "a list of strings")
        if not all(isinstance(f, str) for f in flags):
            raise ValueError(f"'flags' must be a list of strings, got {flags!r}")

    bloodshed = variant == "bloodshed"
    allow = not bloodshed  # bloodshed: no red fives, no honors, no chi (B-1, B-8)
    counts, reds = _parse_counts(hand, allow)
    held = counts
    n_melds = len(melds)
    if n_melds:
        held, held_reds = counts[:], reds[:]
        for text in melds:
            if not isinstance(text, str):
                raise ValueError(f"a meld must be a string like 'pon 555p', got {text!r}")
            meld = parse_meld(text, allow_red=allow, allow_honors=allow, allow_chi=allow)
            for k in np.flatnonzero(meld.counts).tolist():
                held[k] += int(meld.counts[k])
            for suit in range(3):
                held_reds[suit] += int(meld.reds[suit])
        if n_melds > 4:
            raise TileError(f"{n_melds} melds: a hand has at most 4")
        if max(held) > 4:
            kind = next(k for k, n in enumerate(held) if n > 4)
            raise TileError(f"more than four copies of {TILE_NAMES[kind]} in hand and melds")
        if max(held_reds) > 1:
            raise TileError("more than one red five of a suit in hand and melds")
    n_concealed = sum(counts)
    n_tiles = n_concealed + 3 * n_melds
    if n_tiles != 13 and n_tiles != 14:
        raise TileError(
            f"hand has {n_concealed} concealed tile(s) and {n_melds} meld(s) = {n_tiles} tiles; "
            "concealed + 3 × melds must be 13 or 14 (a kan counts as 3)"
        )

    if bloodshed:
        riichi_keys = obj.keys() & RIICHI_KEYS
        if riichi_keys:
            raise ValueError(f"{', '.join(sorted(map(repr, riichi_keys)))}: riichi key(s), not for variant 'bloodshed'")
    else:
        from tsumolab.sims.riichi import calculator as riichi_calculator

        if "flags" in obj:
            riichi_calculator.check_flag_names(obj["flags"], "flags")
        if "rules" in obj:
            riichi_calculator.parse_rules(obj, where="rules")
    if "void" in obj:
        void = obj["void"]
        if not bloodshed:
            raise ValueError(f"'void' is a bloodshed rule (B-7); variant {variant!r} has no void suit")
        if not isinstance(void, str) or len(void) != 1 or void not in VOID_SUITS:
            raise ValueError(f"'void' must be one of 'm', 'p', 's', got {void!r}")

    concealed = np.array(counts, np.int8)
    waiting = waiting_held = None
    if "win_tile" in obj:
        win_text = _expect(obj, "win_tile", str, "one tile, e.g. '5p'")
        if n_tiles == 13:
            raise TileError(
                f"win_tile {win_text!r} given with a 13-tile hand; the hand must include the winning tile (14 tiles)"
            )
        kind, red = _parse_one(win_text, allow)
        copies = counts[kind]
        if kind < 27 and kind % 9 == 4:  # a five: red and plain copies are different tiles
            copies = reds[kind // 9] if red else copies - reds[kind // 9]
        if copies == 0:
            raise TileError(f"win_tile {win_text!r} is not in the hand {hand!r}")
        waiting = concealed.copy()
        waiting[kind] -= 1
        waiting_held = np.array(held, np.int8)
        waiting_held[kind] -= 1
    elif n_tiles == 13:
        waiting = concealed
        waiting_held = concealed if held is counts else np.array(held, np.int8)

    request = dict(obj)
    request["variant"] = variant
    return PreparedHand(variant, concealed, n_melds, n_tiles, held, waiting, waiting_held, request)


def _win(prep: PreparedHand) -> dict:
    """The `win` part of a complete 14-tile hand (plus `reason` when it cannot win)."""
    if prep.variant == "riichi":
        from tsumolab.sims.riichi import calculator as riichi_calculator

        scored = riichi_calculator.score_request(prep.request)
        return scored if "win" in scored else {"win": scored}
    from tsumolab.sims.bloodshed import calculator

    request = prep.request
    void = request.get("void")
    if void is None:
        # No declared void: any suit the hand does not touch will do; if it touches all three,
        # every void is held and the hand cannot win (B-7).
        free = [suit for i, suit in enumerate(VOID_SUITS) if not any(prep.held[9 * i:9 * i + 9])]
        if not free:
            return {"win": None, "reason": "void"}
        request = {**request, "void": free[0]}
    elif "flags" not in request and "rules" not in request:
        # Nothing left for the scorer to validate: answer a held void tile (B-7) without its cost.
        suit = VOID_SUITS.index(void)
        if any(prep.held[9 * suit:9 * suit + 9]):
            return {"win": None, "reason": "void"}
    scored = calculator.score_request(request)
    if "win" in scored:  # {"win": None, "reason": ...}
        return scored
    return {"win": scored}


def finish(prep: PreparedHand, shanten: int, waits: list[str]) -> dict:
    """Result object of a prepared hand once its shanten and waits (tile names, in kind order) are known."""
    result: dict = {"shanten": shanten, "waits": waits, "win": None}
    if shanten < 0 and prep.n_tiles == 14:
        result.update(_win(prep))
    return result


class _Shapes:
    """Shanten and waits of prepared hands through the compiled kernels of `sims.shanten` (tables fetched once)."""

    def __init__(self) -> None:
        from tsumolab.sims import shanten as kernels

        self._shanten = kernels.shanten
        self._winning_tiles = kernels.winning_tiles
        self._tables = kernels.get_tables()
        self._hand_flags = {"bloodshed": kernels.BLOODSHED_SHAPES, "riichi": kernels.RIICHI_SHAPES}
        self._mask = np.zeros(N_KINDS, np.int8)

    def __call__(self, prep: PreparedHand) -> tuple[int, list[str]]:
        suit_t, honor_t = self._tables
        flags = self._hand_flags[prep.variant]
        shanten = int(self._shanten(prep.concealed, prep.n_melds, flags, suit_t, honor_t))
        if prep.waiting is None:
            return shanten, []
        mask = self._mask
        if not self._winning_tiles(prep.waiting, prep.n_melds, flags, prep.waiting_held, suit_t, honor_t, mask):
            return shanten, []
        return shanten, [TILE_NAMES[k] for k in np.flatnonzero(mask).tolist()]


_SHAPES: _Shapes | None = None


def _shapes() -> _Shapes:
    global _SHAPES
    if _SHAPES is None:
        _SHAPES = _Shapes()
    return _SHAPES


def analyze(obj: dict, default_variant: str = "riichi") -> dict:
    """Analyze one request object (see the module docstring). Raises TileError or ValueError on bad input."""
    prep = prepare(obj, default_variant)
    return finish(prep, *_shapes()(prep))


def analyze_batch(requests: list, default_variant: str = "riichi") -> list[dict]:
    """Analyze many requests; an item that is an Exception (e.g. a JSON error) or fails validation gives
    ``{"error": message}`` in its place. The output has one dict per request, in order."""
    results: list[dict] = []
    append = results.append
    shapes = _shapes()
    for obj in requests:
        if isinstance(obj, Exception):
            append({"error": str(obj)})
            continue
        try:
            prep = prepare(obj, default_variant)
            append(finish(prep, *shapes(prep)))
        except ValueError as exc:  # TileError is a ValueError
            append({"error": str(exc)})
    return results
