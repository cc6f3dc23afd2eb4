"""One seat's riichi observation written by hand for policy tests: seat 0's hand, other seats' rivers, riichi and
melds, so a test calls a compiled hook or helper on exactly the view it describes (policies.riichi_api)."""

from __future__ import annotations

import numpy as np

import tsumolab.policies.riichi_api as rapi
from tsumolab.sims.tiles import PON, parse_tiles

R = rapi.ROBS


def kind(text: str) -> int:
    """The kind of one tile in mpsz notation: kind("5m") == 4."""
    return int(np.flatnonzero(parse_tiles(text)[0])[0])


def view(hand: str, decision: int = rapi.D_TURN, tile: str | None = None, wall: int = 40, dora: str = "",
         dealer: int = 3) -> np.ndarray:
    """Seat 0 (South of an East round; seat `dealer` deals) holding `hand`; on its turn the drawn tile is the last
    kind of `hand` (or `tile`), on D_REACT `tile` is seat 3's discard. `dora`: the dora indicators."""
    obs = np.zeros(R.SIZE, np.int32)
    counts, reds = parse_tiles(hand)
    obs[R.hand:R.hand + 34] = counts
    obs[R.red:R.red + 3] = reds
    drawn = kind(tile) if tile else int(np.flatnonzero(counts)[-1])
    obs[R.decision], obs[R.tile], obs[R.wall_left], obs[R.from_seat] = decision, drawn, wall, 3
    obs[R.dealer], obs[R.seat_wind], obs[R.round_wind] = dealer, (0 - dealer) % 4, 0
    obs[R.forbid_a], obs[R.forbid_b] = -1, -1
    obs[R.points:R.points + 4] = 25000
    indicators = np.flatnonzero(parse_tiles(dora)[0]) if dora else []
    obs[R.dora:R.dora + 5] = -1
    obs[R.n_dora] = len(indicators)
    obs[R.dora:R.dora + len(indicators)] = indicators
    obs[R.seen:R.seen + 34] += parse_tiles(dora)[0] if dora else 0
    if decision == rapi.D_TURN:
        obs[R.can_riichi] = 1
    else:
        obs[R.seen + drawn] += 1
        discard(obs, 3, tile)
    return obs


def discard(obs: np.ndarray, seat: int, tiles: str) -> None:
    """Seat `seat` has discarded `tiles` (genbutsu against it); the copies become visible."""
    counts = parse_tiles(tiles)[0]
    obs[R.discarded + 34 * seat:R.discarded + 34 * seat + 34] += counts
    obs[R.safe + 34 * seat:R.safe + 34 * seat + 34] |= (counts > 0)
    obs[R.n_discards + seat] += int(counts.sum())


def show(obs: np.ndarray, tiles: str) -> None:
    """`tiles` are visible on the table (another river, say) without being anyone's genbutsu."""
    obs[R.seen:R.seen + 34] += parse_tiles(tiles)[0]


def declare_riichi(obs: np.ndarray, seat: int, river: str) -> None:
    """Seat `seat` is in riichi after discarding `river` (all of it visible)."""
    obs[R.riichi + seat] = 1
    discard(obs, seat, river)
    show(obs, river)


def pon(obs: np.ndarray, seat: int, tile: str) -> None:
    """Seat `seat` has an open pon of `tile` (seat 0: its own meld)."""
    k = kind(tile)
    i = obs[R.n_melds + seat]
    obs[R.melds + 8 * seat + 2 * i], obs[R.melds + 8 * seat + 2 * i + 1] = PON + 1, k
    obs[R.meld_tiles + 34 * seat + k] += 3
    obs[R.n_melds + seat] += 1
    obs[R.open + seat] = 1
    obs[R.seen + k] += 3


def tables() -> np.ndarray:
    from tsumolab.sims.shanten_tables import lookup_tables

    return lookup_tables()


def expert_params(spec: str = "expert") -> np.ndarray:
    from tsumolab.policies.registry import parse_seat

    params = np.zeros(8, np.float64)
    values = parse_seat(spec).param_values()
    params[:len(values)] = values
    return params
