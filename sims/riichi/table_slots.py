"""The numbers of a riichi table: its fixed constants (R-1, R-2, R-6) and the slots of the int64 array
`RiichiRules.to_array()` hands the engine (sims.riichi.rules); a leaf the mode kernels read them from."""

START_POINTS = 25_000          # R-2, S-1
N_TILES = 136
DEAD_WALL = 14
DEAL_SIZE = 13
MAX_KANS = 4
TARGET_POINTS = 30_000         # extension until someone has this much
RIICHI_COST = 1_000
NOTEN_TOTAL = 3_000
HONBA_RON = 300
MAX_HANDS = 32                 # safety bound on hands per match (renchan chains); the match ends there

T_START_POINTS = 0
T_BLOODBATH = 1
T_EXCHANGE = 2
T_RENCHAN = 3
T_HONBA = 4
T_EXTENSION = 5
T_NOTEN_EACH = 6
T_PAO = 7
T_FOUR_RIICHI_ACTIVE = 8
T_TSUMO_LOSS = 9
T_N_HANDS = 10
T_RED_FIVES = 11
T_INITIAL_DORA = 12
T_FATE = 13
T_OPEN_DEAL = 14
T_CHANT = 15               # C: 0 off, 1 on, 2 on with called discards dropped from the runs
T_ASTROLOGY = 16
T_DARKNESS = 17
T_MIRROR = 18
T_HEAD_BUMP = 19
T_SOUL_STRIKE = 20         # SS: 0 off, else the options packed by sims.riichi.soul_strike_turns.pack_options
T_FANTASY = 21             # 21..24: fantasy (FL) cards, laid out by sims.riichi.fantasy_cards
T_DRAGON_EYE = 25          # 25..29: dragon eye (DE), laid out by sims.riichi.dragon_eye_holder
T_HONBA_EVERY_WINNER = 30
N_TABLE = 32
