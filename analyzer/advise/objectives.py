"""What a rollout is worth to the deciding seat: the value that `advise` and `review` maximize.

- `points`: the seat's point change to the end of the hand (horizon `hand`) or its final points (horizon
  `match`). Answers "which option wins the most points on average", blind to placement: an option that gains
  a little often and loses a lot rarely can come out ahead while it costs places.
- `uma`: at the end of the match, (final points − start points) / 1000 plus a plain uma of +15 / +5 / −5 / −15 by
  final rank (Mahjong Soul's uma, no oka). Answers "which option is best for a player scored by points and
  placement together", as most leagues score.
- `rank-points`: the rank points a Mahjong Soul ranked Throne room match awards: the uma above plus the room's
  bonus by rank (East +60 / +30 / 0, South +120 / +60 / 0) and, in fourth place, the penalty of a Saint 3
  (East −130, South −240), rounded up to a whole point as the game does. Answers "which option climbs the
  ladder fastest" for a player at the top of it: fourth place weighs most.
- `tenhou-dan`: the dan points a Tenhou Phoenix room game moves for a 7-dan player, the room's lowest dan: by final
  rank only, +90 / +45 / 0 / −135 in a hanchan, two thirds of that in an East-only game (+60 / +30 / 0 / −90); the
  points themselves count for nothing. Answers "which option a Tenhou top-room player should choose": what the
  public Phoenix games of the agreement benchmark were played for.

`uma`, `rank-points` and `tenhou-dan` need the rest of the match played out (horizon `match`, with the renchan and
every remaining hand). Figures: the Mahjong Soul page of riichi.wiki (uma, room bonus and fourth-place penalty
tables); Tenhou's dan point tables (by room, dan and length) as Japanese guides print them.
"""

from __future__ import annotations

import numpy as np

OBJECTIVES = ("points", "uma", "rank-points", "tenhou-dan")
UMA = np.array([15.0, 5.0, -5.0, -15.0])
THRONE_EAST = np.array([60.0, 30.0, 0.0, -130.0])
THRONE_SOUTH = np.array([120.0, 60.0, 0.0, -240.0])
PHOENIX_SOUTH = np.array([90.0, 45.0, 0.0, -135.0])
PHOENIX_EAST = PHOENIX_SOUTH * 2 / 3
UNIT = {"points": 1.0, "uma": 1000.0, "rank-points": 1000.0, "tenhou-dan": 100.0}
"""points of the table per unit of each objective (review's mistake floor and rating are given in table points; a
dan point is taken as 100, so that the 135 between third and fourth place weigh about a mangan and a half)"""


def check_objective(objective: str, horizon: str) -> None:
    """ValueError in one line when the objective is unknown or needs the match played out."""
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown value {objective!r} (values: {', '.join(OBJECTIVES)})")
    if objective != "points" and horizon != "match":
        raise ValueError(f"value {objective} is decided at the end of the match: use horizon match")


def horizon_for(objective: str, horizon: str | None = None) -> str:
    """The horizon an objective is played to: `horizon` when given (checked), else hand for points and match for
    the rank-based values."""
    horizon = horizon or ("hand" if objective == "points" else "match")
    check_objective(objective, horizon)
    return horizon


def value_function(objective: str, start_points: int, south: bool):
    """f(final points, final ranks 1..4) → the objective's values (arrays of one shape); None for `points`."""
    if objective == "points":
        return None
    if objective == "tenhou-dan":
        dan = PHOENIX_SOUTH if south else PHOENIX_EAST
        return lambda points, ranks: dan[ranks - 1]
    bonus = (THRONE_SOUTH if south else THRONE_EAST) if objective == "rank-points" else np.zeros(4)

    def value(points: np.ndarray, ranks: np.ndarray) -> np.ndarray:
        score = (points - start_points) / 1000.0 + UMA[ranks - 1] + bonus[ranks - 1]
        return np.ceil(score - 1e-9) if objective == "rank-points" else score

    return value
