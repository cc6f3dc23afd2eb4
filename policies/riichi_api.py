"""The policy API of the riichi-based modes (every riichi-core mode): the observation layout and the answers.

Hooks have the same signature as in Bloodshed (policies.api.HOOK_SIG, decorate them with `policies.api.hook`):
`(obs int32[R_OBS_SIZE], params float64[8], tables uint8[:, :]) -> int64`. The engine fills `obs` from
public information and the seat's own tiles only. Hook names of the riichi family: RIICHI_HOOK_NAMES.

Decision points (obs[O_DECISION], the codes of policies.api) and their answers:
- D_EXCHANGE (shura, S-2): any three tiles of the hand → `pack_exchange(t0, t1, t2)` (kinds 0..33).
- D_TURN: own turn → a kind to discard; RIICHI + kind to declare riichi discarding that kind (legal when
  obs[O_CAN_RIICHI] = 1 and the discard leaves the hand tenpai); KAN + kind (closed or added kan, legal
  where obs[O_KAN_OPTIONS + kind] > 0); TSUMO (obs[O_CAN_WIN] = 1); NINE_TERMINALS (abort the hand,
  obs[O_CAN_NINE] = 1). After a chi/pon (obs[O_AFTER_CALL] = 1) kinds obs[O_FORBID_A] / obs[O_FORBID_B]
  may not be discarded (swap-calling). A seat in riichi is asked only when it may tsumo or kan; any
  other answer then discards the drawn tile.
- D_REACT: another seat discarded obs[O_TILE] → PASS, RON, PON, KAN_CALL, or CHI_LOW / CHI_MID / CHI_HIGH
  (the discard is the lowest / middle / highest tile of the chi; legal where bit 1/2/4 of obs[O_CAN_CHI]).
- D_ROB: another seat makes an added kan (or, for thirteen orphans, a closed kan) of obs[O_TILE] → PASS
  or RON.
  darkness (D): FACE_DOWN + kind discards that kind face down (pays 1000; needs ≥ 1000 points),
  FACE_DOWN + RIICHI + kind declares riichi with a face-down tile (needs ≥ 2000); obs[O_DARKNESS + DK_ON]
  (sims.riichi.darkness_pot) is 1 where it is allowed; elsewhere it is an illegal answer.
- D_PICK, D_DARK_OPEN, D_DARK_LOCK: a mode's own decisions, asked through the "mode" hook (the mode
  modules say what they answer). darkness (D): D_DARK_OPEN = pay 2000 to open seat obs[O_FROM]'s face-down
  discard (kind unknown, obs[O_TILE] = -1)? D_DARK_LOCK = pay 4000 to lock one's own discard obs[O_TILE],
  just opened by seat obs[O_FROM], face down for good? Answer 1 = pay, 0 = no.
An illegal answer is replaced by a legal default and counted.

Which copy of a kind moves (R-1: the red five is one copy of its kind):
- A discard answered by a kind (kind, RIICHI + kind, FACE_DOWN + kind) gives up a plain copy while one is held,
  else the red five; TSUMOGIRI in place of the kind (TSUMOGIRI, RIICHI + TSUMOGIRI, FACE_DOWN + TSUMOGIRI,
  FACE_DOWN + RIICHI + TSUMOGIRI) gives up the very copy just drawn (obs[O_TILE]; illegal after a call). In
  riichi the discard is always the copy drawn (the forced tsumogiri, and a kind answer equal to the drawn kind),
  as is the engine's default for an illegal answer. A discard is a tsumogiri (chant C, the log) when the copy
  drawn is the copy that left. mirror (M): a kind answer gives up a transparent copy first, TSUMOGIRI the drawn
  copy (sims.riichi.mirror_tiles).
- Calls (chi, pon, open kan) and added / closed kans put the held red five into the meld first; the exchange
  (S-2) passes the plain copy unless only the red is held.
The event log says which copy moved: the red field of deals, draws, discards, calls and kans (sims.riichi.events).
"""

from __future__ import annotations

from policies.api import D_EXCHANGE, D_REACT, D_ROB, D_TURN, KAN, KAN_CALL, PASS, PON, RON, TSUMO  # noqa: F401

RIICHI_HOOK_NAMES = ("exchange", "turn", "react", "rob", "mode")

D_PICK = 5            # astrology (A): which candidate of the pool to draw
D_DARK_OPEN = 6       # darkness (D): pay to open another seat's face-down discard?
D_DARK_LOCK = 7       # darkness (D): pay to lock one's own opened discard face down?

CHI_LOW, CHI_MID, CHI_HIGH = 4, 5, 6
RIICHI = 256          # own turn: RIICHI + kind
NINE_TERMINALS = 512  # own turn: abortive draw on nine terminals
FACE_DOWN = 1024      # own turn, darkness (D): FACE_DOWN + kind, FACE_DOWN + RIICHI + kind
TSUMOGIRI = 2048      # own turn: discard the copy just drawn (RIICHI + TSUMOGIRI, FACE_DOWN + … likewise)

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
