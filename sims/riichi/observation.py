"""What a seat of the riichi-based modes sees: the int32 observation array the engine fills before each decision.

Public information and the seat's own tiles only. The array is laid out by `ROBS` (sims.layout):
`obs[ROBS.can_win]`, `obs[ROBS.discarded + 34 * seat + kind]`, `ROBS.SIZE`; the Bloodshed engine's layout is a
different one, sims.bloodshed.observation.BOBS. The decision kinds and answers are sims.decisions; policy
authors read both, and named accessors (own_hand(obs), discarded(obs, seat), …), through policies.riichi_api.
"""

from tsumolab.sims.layout import declare, describe  # noqa: F401  (describe: documentation of the layout)

# observation layout (offsets into the int32 array); per-seat blocks are [4], [4 * 34] … indexed by seat
ROBS = declare("RiichiObs", [
    ("hand", 34, "own concealed tile counts"),
    ("seat", 1, "own seat 0..3"),
    ("dealer", 1, "dealer seat of this hand"),
    ("round", 1, "0..3 East 1-4, 4..7 South 1-4"),
    ("honba", 1, "honba counter of this hand"),
    ("sticks", 1, "riichi sticks on the table"),
    ("wall_left", 1, "tiles left in the live wall"),
    ("n_winners", 1, "winners so far in this hand (shura)"),
    ("decision", 1, "D_* kind of this decision"),
    ("turn", 1, "draws made so far in the hand, all seats together"),
    ("rng", 1, "per-seat random state (policies.common.rand_below)"),
    ("seat_wind", 1, "0..3 = E S W N"),
    ("round_wind", 1, "0..3 = E S W N"),
    ("furiten", 1, "1 if the seat is furiten now (any kind: discards, temporary, riichi)"),
    ("n_dora", 1, "dora indicators shown"),
    ("dora", 5, "indicator kinds (-1 unused)"),
    ("won", 4, "1 if that seat has won this hand"),
    ("points", 4, "points of each seat"),
    ("riichi", 4, "0 none, 1 riichi, 2 double riichi"),
    ("n_melds", 4, "melds per seat (closed kans included)"),
    ("n_discards", 4, "discards made by each seat this hand"),
    ("open", 4, "1 if the seat has an open meld"),
    ("melds", 4 * 4 * 2, "per seat, per meld: (sims.tiles meld type + 1, lowest kind); 0 = none"),
    ("meld_tiles", 4 * 34, "tiles in each seat's melds per kind"),
    ("discarded", 4 * 34, "tiles each seat has discarded this hand (claimed ones included)"),
    ("safe", 4 * 34, "1 if kind is known safe against that seat (its discards, and any discard it let pass since its "
                     "riichi)"),
    ("seen", 34, "copies visible to everyone: rivers, melds, dora indicators"),
    ("red", 3, "own red fives (m, p, s) among the concealed tiles"),
    ("tile", 1, "drawn tile (D_TURN, -1 after a call), the discard (D_REACT), the kan tile (D_ROB)"),
    ("from_seat", 1, "discarder / kan player"),
    ("can_win", 1, "1 if this decision may declare a win (tsumo on D_TURN, ron on D_REACT / D_ROB)"),
    ("win_han", 1, "han of that win (13 per yakuman)"),
    ("win_fu", 1, "fu of that win"),
    ("win_points", 1, "points the win collects (honba and sticks excluded)"),
    ("can_pon", 1, "1 if this decision (D_REACT) may pon the discard"),
    ("can_kan", 1, "1 if this decision (D_REACT) may call an open kan on the discard"),
    ("can_chi", 1, "bits: 1 low, 2 middle, 4 high"),
    ("can_riichi", 1, "1 if this turn may declare riichi (closed hand, enough points and wall, tenpai after some "
                      "discard; the riichi discard itself must leave the hand tenpai)"),
    ("can_nine", 1, "1 if this turn may abort the hand by nine terminals"),
    ("kan_options", 34, "own turn: 1 closed kan, 2 added kan"),
    ("after_call", 1, "1 when this turn follows the seat's own chi / pon (no draw, no kan, no tsumo)"),
    ("kan_draw", 1, "1 when this turn's tile is a kan replacement draw"),
    ("forbid_a", 1, "a kind that may not be discarded right after a call (swap-calling), -1 none"),
    ("forbid_b", 1, "the second such kind after a chi (the other end of the run), -1 none"),
    ("riichi_tile", 4, "number of discards the seat had made before its riichi tile (-1 no riichi)"),
    ("reserved", 1, "unused, always 0 (the mode blocks start at 608 as before the layout was declared)"),
    ("fate_open", 4 * 34, "fate (F): each seat's open deal tiles it still holds, per kind (0 in other modes)"),
    ("deal_shown", 4 * 34, "open-deal (OD): each seat's starting 13 tiles per kind (0 in other modes)"),
    ("chant", 4 * 2, "chant (C): each seat's current run of tsumogiri, of hand discards (0 in other modes)"),
    # blocks of the modes below are laid out in each mode's own module; 0 in other modes
    ("astrology", 16, "astrology (A): the candidate pool (sims.riichi.astrology_pool): +0 size, +1 [3] kinds (-1 "
                      "empty), +4 [3] red fives, +7 [3] from the dead wall, +10 open, +11 draws left (pool + "
                      "refills), +12 refills (and kans) still possible"),
    ("darkness", 64, "darkness (D): face-down discards, the pot (sims.riichi.darkness_pot DK_*: mode on, pot, per "
                     "seat face-down / opened / locked discards, the tile under decision)"),
    ("mirror", 256, "mirror (M): transparent tiles in hands and wall (sims.riichi.mirror_tiles)"),
    ("soul_strike", 16, "soul strike (SS): strike turns, overloaded seats (sims.riichi.soul_strike_turns)"),
    ("fantasy", 16, "fantasy (FL): the match's cards (sims.riichi.fantasy_cards)"),
    ("dragon_eye", 8, "dragon eye (DE): holder and counter (sims.riichi.dragon_eye_holder)"),
    ("fate_red", 4 * 3, "fate (F): per seat and suit (m, p, s), 1 while the red five is one of the seat's open deal "
                        "tiles it still holds (counted in fate_open too; 0 in other modes)"),
])
