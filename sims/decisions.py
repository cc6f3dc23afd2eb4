"""How the engines ask a seat: the hook signature, the hook order, the decision kinds and the answer codes.

The engines call a seat's policy through compiled hooks of one signature, `HOOK_SIG`:
`(obs int32[::1], params float64[::1], tables uint8[:, ::1]) -> int64`. The observation layouts are
sims.bloodshed.observation.BOBS and sims.riichi.observation.ROBS; obs[BOBS.decision] (Bloodshed) or
obs[ROBS.decision] (riichi) holds one of the D_* kinds below and the hook answers with a code of that
decision. Policy authors read these names through policies.api (Bloodshed) and policies.riichi_api (riichi),
which re-export them.

Answers per decision (an illegal answer is replaced by a legal default and counted by the engine):
- D_EXCHANGE: three tiles packed as t0 | t1 << 8 | t2 << 16 (policies.api.pack_exchange).
- D_VOID (Bloodshed): the void suit, VOID_MAN, VOID_PIN or VOID_SOU.
- D_TURN: a kind to discard, KAN + kind, TSUMO; riichi family also RIICHI + kind, NINE_TERMINALS,
  FACE_DOWN + kind and FACE_DOWN + RIICHI + kind (darkness).
- D_REACT: PASS, RON, PON, KAN_CALL; riichi family also CHI_LOW, CHI_MID, CHI_HIGH.
- D_ROB: PASS or RON.
- D_PICK (astrology): the index of the chosen candidate.
- D_DARK_OPEN, D_DARK_LOCK (darkness): DARK_PAY or DARK_DECLINE.
"""

from __future__ import annotations

import warnings

from numba import types
from numba.core.errors import NumbaExperimentalFeatureWarning

# One compiled engine calls every policy through first-class function values (numba marks them experimental).
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

HOOK_SIG = types.int64(types.int32[::1], types.float64[::1], types.uint8[:, ::1])
HOOK_TYPE = types.FunctionType(HOOK_SIG)
HOOK_NAMES = ("exchange", "void", "turn", "react", "rob")          # Bloodshed engine's hooks, in call order
RIICHI_HOOK_NAMES = ("exchange", "turn", "react", "rob", "mode")   # riichi engine's hooks, in call order
MAX_PARAMS = 8                                                     # width of each seat's params row

# decision kinds (obs[BOBS.decision], obs[ROBS.decision])
D_EXCHANGE, D_VOID, D_TURN, D_REACT, D_ROB = 0, 1, 2, 3, 4
D_PICK = 5            # astrology (A): which candidate of the pool to draw
D_DARK_OPEN = 6       # darkness (D): pay to open another seat's face-down discard?
D_DARK_LOCK = 7       # darkness (D): pay to lock one's own opened discard face down?

# D_REACT / D_ROB answers
PASS, RON, PON, KAN_CALL = 0, 1, 2, 3
CHI_LOW, CHI_MID, CHI_HIGH = 4, 5, 6   # riichi family: the discard is the lowest / middle / highest tile

# D_TURN answers (added to a kind where noted)
KAN = 64              # KAN + kind: closed or added kan
TSUMO = 128           # declare the win
RIICHI = 256          # riichi family: RIICHI + kind
NINE_TERMINALS = 512  # riichi family: abortive draw on nine terminals
FACE_DOWN = 1024      # darkness (D): FACE_DOWN + kind, FACE_DOWN + RIICHI + kind
TSUMOGIRI = 2048      # riichi family: discard the copy just drawn (also RIICHI + / FACE_DOWN + TSUMOGIRI)

# D_VOID answers (Bloodshed, B-7)
VOID_MAN, VOID_PIN, VOID_SOU = 0, 1, 2

# D_DARK_OPEN / D_DARK_LOCK answers (darkness, D)
DARK_DECLINE, DARK_PAY = 0, 1
