"""What a seat of the riichi-based modes sees: the int32 observation array the engine fills before each decision.

Public information and the seat's own tiles only. The decision kinds and answers are sims.decisions; policy
authors read both through policies.riichi_api.
"""

# observation layout (int32 offsets)
O_HAND = 0                 # [34] own concealed tile counts
O_SEAT = 34                # own seat 0..3
O_DEALER = 35              # dealer seat of this hand
O_ROUND = 36               # 0..3 East 1-4, 4..7 South 1-4
O_HONBA = 37
O_STICKS = 38              # riichi sticks on the table
O_WALL_LEFT = 39           # tiles left in the live wall
O_N_WINNERS = 40           # winners so far in this hand (shura)
O_DECISION = 41
O_TURN = 42                # draws made so far in the hand, all seats together
O_RNG = 43                 # per-seat random state (policies.common.rand_below)
O_SEAT_WIND = 44           # 0..3 = E S W N
O_ROUND_WIND = 45
O_FURITEN = 46             # 1 if the seat is furiten now (any kind: discards, temporary, riichi)
O_N_DORA = 47              # dora indicators shown
O_DORA = 48                # [5] indicator kinds (-1 unused)
O_WON = 53                 # [4] 1 if that seat has won this hand
O_POINTS = 57              # [4]
O_RIICHI = 61              # [4] 0 none, 1 riichi, 2 double riichi
O_N_MELDS = 65             # [4] melds per seat (closed kans included)
O_N_DISCARDS = 69          # [4]
O_OPEN = 73                # [4] 1 if the seat has an open meld
O_MELDS = 77               # [4 * 4 * 2] per seat, per meld: (sims.tiles meld type + 1, lowest kind); 0 = none
O_MELD_TILES = 109         # [4 * 34] tiles in each seat's melds per kind
O_DISCARDED = 245          # [4 * 34] tiles each seat has discarded this hand (claimed ones included)
O_SAFE = 381               # [4 * 34] 1 if kind is known safe against that seat (its discards, and any discard
                           # it let pass since its riichi)
O_SEEN = 517               # [34] copies visible to everyone: rivers, melds, dora indicators
O_RED = 551                # [3] own red fives (m, p, s) among the concealed tiles
O_TILE = 554               # drawn tile (D_TURN, -1 after a call), the discard (D_REACT), the kan tile (D_ROB)
O_FROM = 555               # discarder / kan player
O_CAN_WIN = 556
O_WIN_HAN = 557            # han of that win (13 per yakuman)
O_WIN_FU = 558
O_WIN_POINTS = 559         # points the win collects (honba and sticks excluded)
O_CAN_PON = 560
O_CAN_KAN = 561
O_CAN_CHI = 562            # bits: 1 low, 2 middle, 4 high
O_CAN_RIICHI = 563
O_CAN_NINE = 564
O_KAN_OPTIONS = 565        # [34] own turn: 1 closed kan, 2 added kan
O_AFTER_CALL = 599
O_KAN_DRAW = 600
O_FORBID_A = 601           # kinds that may not be discarded right after a call (-1 none)
O_FORBID_B = 602
O_RIICHI_TILE = 603        # [4] number of discards the seat had made before its riichi tile (-1 no riichi)
O_FATE_OPEN = 608          # [4 * 34] fate (F): each seat's open deal tiles it still holds, per kind (0 in other
                           # modes)
O_DEAL_SHOWN = 744         # [4 * 34] open-deal (OD): each seat's starting 13 tiles per kind (0 in other modes)
O_CHANT = 880              # [4 * 2] chant (C): each seat's current run of tsumogiri, of hand discards (0 in
                           # other modes)
# blocks of the modes below are laid out in each mode's own module; 0 in other modes
O_ASTROLOGY = 888          # [16] astrology (A): the candidate pool (sims.riichi.astrology_pool): +0 size,
                           # +1 [3] kinds (-1 empty), +4 [3] red fives, +7 [3] from the dead wall, +10 open,
                           # +11 draws left (pool + refills), +12 refills (and kans) still possible
O_DARKNESS = 904           # [64] darkness (D): face-down discards, the pot (sims.riichi.darkness_pot DK_*: mode
                           # on, pot, per seat face-down / opened / locked discards, the tile under decision)
O_MIRROR = 968             # [256] mirror (M): transparent tiles in hands and wall (sims.riichi.mirror_tiles)
O_SOUL_STRIKE = 1224       # [16] soul strike (SS): strike turns, overloaded seats (sims.riichi.soul_strike_turns)
O_FANTASY = 1240           # [16] fantasy (FL): the match's cards (sims.riichi.fantasy_cards)
O_DRAGON_EYE = 1256        # [8] dragon eye (DE): holder and counter (sims.riichi.dragon_eye_holder)
R_OBS_SIZE = 1264
