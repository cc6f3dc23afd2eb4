"""The policy API of the riichi-based modes (every riichi-core mode): the observation layout and the answers.

Hooks have the same signature as in Bloodshed (policies.api.HOOK_SIG, decorate them with `policies.api.hook`):
`(obs int32[ROBS.SIZE], params float64[8], tables uint8[:, :]) -> int64`. The engine fills `obs` from
public information and the seat's own tiles only. Hook names of the riichi family: RIICHI_HOOK_NAMES.

Decision points (obs[ROBS.decision], the codes of policies.api) and their answers:
- D_EXCHANGE (shura, S-2): any three tiles of the hand → `pack_exchange(t0, t1, t2)` (kinds 0..33).
- D_TURN: own turn → a kind to discard; RIICHI + kind to declare riichi discarding that kind (legal when
  obs[ROBS.can_riichi] = 1 and the discard leaves the hand tenpai); KAN + kind (closed or added kan, legal
  where obs[ROBS.kan_options + kind] > 0); TSUMO (obs[ROBS.can_win] = 1); NINE_TERMINALS (abort the hand,
  obs[ROBS.can_nine] = 1). After a chi/pon (obs[ROBS.after_call] = 1) kinds obs[ROBS.forbid_a] / obs[ROBS.forbid_b]
  may not be discarded (swap-calling). A seat in riichi is asked only when it may tsumo or kan; any
  other answer then discards the drawn tile.
- D_REACT: another seat discarded obs[ROBS.tile] → PASS, RON, PON, KAN_CALL, or CHI_LOW / CHI_MID / CHI_HIGH
  (the discard is the lowest / middle / highest tile of the chi; legal where bit 1/2/4 of obs[ROBS.can_chi]).
- D_ROB: another seat makes an added kan (or, for thirteen orphans, a closed kan) of obs[ROBS.tile] → PASS
  or RON.
  darkness (D): FACE_DOWN + kind discards that kind face down (pays 1000; needs ≥ 1000 points),
  FACE_DOWN + RIICHI + kind declares riichi with a face-down tile (needs ≥ 2000); obs[ROBS.darkness + DK_ON]
  (sims.riichi.darkness_pot) is 1 where it is allowed; elsewhere it is an illegal answer.
- D_PICK, D_DARK_OPEN, D_DARK_LOCK: a mode's own decisions, asked through the "mode" hook (the mode
  modules say what they answer). darkness (D): D_DARK_OPEN = pay 2000 to open seat obs[ROBS.from_seat]'s face-down
  discard (kind unknown, obs[ROBS.tile] = -1)? D_DARK_LOCK = pay 4000 to lock one's own discard obs[ROBS.tile],
  just opened by seat obs[ROBS.from_seat], face down for good? Answer DARK_PAY (1) or DARK_DECLINE (0).
An illegal answer is replaced by a legal default and counted.

Which copy of a kind moves (R-1: the red five is one copy of its kind):
- A discard answered by a kind (kind, RIICHI + kind, FACE_DOWN + kind) gives up a plain copy while one is held,
  else the red five; TSUMOGIRI in place of the kind (TSUMOGIRI, RIICHI + TSUMOGIRI, FACE_DOWN + TSUMOGIRI,
  FACE_DOWN + RIICHI + TSUMOGIRI) gives up the very copy just drawn (obs[ROBS.tile]; illegal after a call). In
  riichi the discard is always the copy drawn (the forced tsumogiri, and a kind answer equal to the drawn kind),
  as is the engine's default for an illegal answer. A discard is a tsumogiri (chant C, the log) when the copy
  drawn is the copy that left. mirror (M): a kind answer gives up a transparent copy first, TSUMOGIRI the drawn
  copy (sims.riichi.mirror_tiles).
- Calls (chi, pon, open kan) and added / closed kans put the held red five into the meld first; the exchange
  (S-2) passes the plain copy unless only the red is held.
The event log says which copy moved: the red field of deals, draws, discards, calls and kans (sims.riichi.events).
"""

from __future__ import annotations

# The decision kinds, answers and the riichi observation live in sims (policies import sims, never the reverse);
# they are re-exported here, names and values unchanged.
from sims.decisions import (  # noqa: F401
    CHI_HIGH, CHI_LOW, CHI_MID, D_DARK_LOCK, D_DARK_OPEN, D_EXCHANGE, D_PICK, D_REACT, D_ROB, D_TURN, DARK_DECLINE,
    DARK_PAY, FACE_DOWN, KAN, KAN_CALL, NINE_TERMINALS, PASS, PON, RIICHI, RIICHI_HOOK_NAMES, RON, TSUMO, TSUMOGIRI,
)
from sims.riichi.observation import *  # noqa: F403
