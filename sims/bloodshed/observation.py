"""What a Bloodshed seat sees: the int32 observation array the engine fills before each decision.

Public information and the seat's own tiles only, so a hook cannot see other hands or the wall. The array is
laid out by `BOBS` (sims.layout): `obs[BOBS.can_win]`, `obs[BOBS.river + 34 * seat + kind]`, `BOBS.SIZE`; the
riichi engine's layout is a different one, sims.riichi.observation.ROBS. The decision kinds and answers are
sims.decisions; policy authors read both, and named accessors (own_hand(obs), river(obs, seat), …), through
policies.api.
"""

from tsumolab.sims.layout import declare, describe  # noqa: F401  (describe: documentation of the layout)

# observation layout (offsets into the int32 array); per-seat blocks are [4] or [4 * 34] indexed by seat
BOBS = declare("BloodshedObs", [
    ("hand", 34, "own concealed tile counts"),
    ("seat", 1, "own seat 0..3"),
    ("dealer", 1, "dealer seat of this hand"),
    ("hand_no", 1, "hand number 1..4"),
    ("wall_left", 1, "tiles left in the live wall"),
    ("n_winners", 1, "winners so far in this hand"),
    ("decision", 1, "D_* kind of this decision"),
    ("won", 4, "1 if that seat has won this hand"),
    ("points", 4, "points of each seat"),
    ("void", 4, "declared void suit per seat (-1 before the declaration)"),
    ("n_melds", 4, "number of melds per seat"),
    ("n_discards", 4, "discards made by each seat this hand"),
    ("melds", 4 * 34, "meld type per seat and kind (0 none, 1 + PON/MINKAN/ANKAN/KAKAN)"),
    ("river", 4 * 34, "tiles in each seat's river (claimed tiles leave it)"),
    ("seen", 34, "copies visible to everyone: all rivers and melds"),
    ("tile", 1, "the drawn tile (D_TURN, -1 after a pon), the discard (D_REACT), the added tile (D_ROB)"),
    ("from_seat", 1, "seat that discarded / adds the kan"),
    ("can_win", 1, "1 if this decision may declare a win"),
    ("win_fan", 1, "capped fan of that win, bonuses included"),
    ("win_points", 1, "points that win would collect now"),
    ("can_pon", 1, "1 if this decision (D_REACT) may pon the discard"),
    ("can_kan", 1, "1 if this decision (D_REACT) may call an open kan on the discard"),
    ("kan_options", 34, "own turn: 1 = closed kan possible, 2 = added kan possible"),
    ("after_call", 1, "1 when this turn follows the seat's own pon (no draw, no kan, no tsumo)"),
    ("rng", 1, "per-seat random state for randomized policies (see policies.common.rand_below)"),
    ("turn", 1, "draws made so far in the hand, all seats together"),
    ("kan_draw", 1, "1 when this turn's tile is a kan replacement draw"),
    ("reserved", 5, "unused, always 0 (the array was 416 wide before the layout was declared)"),
])
