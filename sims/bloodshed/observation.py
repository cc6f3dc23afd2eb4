"""What a Bloodshed seat sees: the int32 observation array the engine fills before each decision.

Public information and the seat's own tiles only, so a hook cannot see other hands or the wall. The decision
kinds and answers are sims.decisions; policy authors read both through policies.api.
"""

# observation layout (int32 offsets)
O_HAND = 0                 # [34] own concealed tile counts
O_SEAT = 34                # own seat 0..3
O_DEALER = 35              # dealer seat of this hand
O_HAND_NO = 36             # hand number 1..4
O_WALL_LEFT = 37           # tiles left in the live wall
O_N_WINNERS = 38           # winners so far in this hand
O_DECISION = 39            # D_* kind of this decision
O_WON = 40                 # [4] 1 if that seat has won this hand
O_POINTS = 44              # [4] points of each seat
O_VOID = 48                # [4] declared void suit per seat (-1 before the declaration)
O_N_MELDS = 52             # [4] number of melds per seat
O_N_DISCARDS = 56          # [4] discards made by each seat this hand
O_MELDS = 60               # [4 * 34] meld type per seat and kind (0 none, 1 + PON/MINKAN/ANKAN/KAKAN)
O_RIVER = 196              # [4 * 34] tiles in each seat's river (claimed tiles leave it)
O_SEEN = 332               # [34] copies visible to everyone: all rivers and melds
O_TILE = 366               # the drawn tile (D_TURN, -1 after a pon), the discard (D_REACT), the added tile (D_ROB)
O_FROM = 367               # seat that discarded / adds the kan
O_CAN_WIN = 368            # 1 if this decision may declare a win
O_WIN_FAN = 369            # capped fan of that win, bonuses included
O_WIN_POINTS = 370         # points that win would collect now
O_CAN_PON = 371
O_CAN_KAN = 372
O_KAN_OPTIONS = 373        # [34] own turn: 1 = closed kan possible, 2 = added kan possible
O_AFTER_CALL = 407         # 1 when this turn follows the seat's own pon (no draw, no kan, no tsumo)
O_RNG = 408                # per-seat random state for randomized policies (see policies.common.rand_below)
O_TURN = 409               # draws made so far in the hand, all seats together
O_KAN_DRAW = 410           # 1 when this turn's tile is a kan replacement draw
OBS_SIZE = 416
