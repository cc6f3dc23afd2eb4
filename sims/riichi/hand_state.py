"""The riichi engine's resumable state block: everything a match and a hand in play hold besides the
observation `obs`, the private table block `st` (sims.riichi.tableau), the wall, the hand's record rows and
the event counter `ev`.

`hs` is one flat int64[HS.SIZE] array laid out by `HS` (sims.layout). Together with obs, view, st, wall, rec and
ev it is the whole state of play: a copy of these arrays is a saved position, and the engine's step function
(sims.riichi.engine.run_hand) continues from any copy. The field `phase` says what the step does next (PH_*);
phases marked "decision" wait for one seat's answer (seat `dec_seat`, the filled-in observation is `view`).
"""

from __future__ import annotations

from tsumolab.sims.layout import declare, describe  # noqa: F401  (describe: documentation of the layout)
from tsumolab.sims.riichi.scoring import N_RES

# What the step does next. Decision phases wait for an answer of hs[HS.dec_seat] to the question in `view`.
PH_DEAL = 0          # deal 13 tiles each, the dealer's first draw, the mode's start-of-hand rules
PH_EXCHANGE = 1      # decision (S-2): seat hs[ex_seat] chooses 3 tiles to pass
PH_AFTER_DEAL = 2    # dora indicators, waits, mirror's transparent tiles
PH_DRAW = 3          # seat hs[cur] draws (or the hand ends exhaustively)
PH_TURN = 4          # what seat hs[cur] may do on its turn (win, kan, riichi, nine terminals)
PH_TURN_ASK = 5      # decision: the own-turn answer (discard, riichi, kan, tsumo, nine terminals)
PH_ROB = 6           # the next seat that may rob the kan being declared
PH_ROB_ASK = 7       # decision: rob the kan (ron) or pass
PH_ROB_SETTLE = 8    # settle the robs, then the kan itself and its replacement draw
PH_REACT = 9         # the next seat that may ron or call the discard
PH_REACT_ASK = 10    # decision: ron, pon, open kan, chi or pass
PH_AFTER_REACT = 11  # rons, calls, aborts, or the next seat's draw
PH_END = 12          # exhaustive-draw payments and the hand's records
PH_DONE = 13         # the hand is over: hs[end], hs[keeps]
PH_TURN_AUTO = 14    # cur's turn has nothing to decide (in riichi: the drawn tile goes)
PH_PICK_ASK = 15     # decision (A): cur picks its draw among the candidates (a replacement draw when kan_draw)
PH_DARK_OPEN = 16    # decision (D): the next seat after cur (from hs[dark_step]) whether to open cur's face-down tile
PH_DARK_LOCK = 17    # decision (D): cur whether to lock its face-down tile just opened by hs[dark_opener]
DECISION_PHASES = (PH_EXCHANGE, PH_TURN_ASK, PH_ROB_ASK, PH_REACT_ASK, PH_PICK_ASK, PH_DARK_OPEN, PH_DARK_LOCK)

HS = declare("RiichiHandState", [
    # ---- the match (sims.riichi.engine.begin_match / close_hand)
    ("root_seed", 1, "root seed of the run (walls and streams are keyed by it)"),
    ("match_id", 1, "the match"),
    ("m_dealer", 1, "dealer seat of the current hand"),
    ("m_round", 1, "hand index in the match (0 = East 1)"),
    ("m_honba", 1, "honba counter at the start of the current hand"),
    ("m_sticks", 1, "riichi sticks on the table at the start of the current hand"),
    ("m_pot", 1, "D: the darkness pot at the start of the current hand"),
    ("hand_no", 1, "number of the current hand, from 1"),
    ("hands_played", 1, "hands finished in this match"),
    ("busted", 1, "1: the match ended by a seat below zero"),
    ("points_before", 4, "each seat's points at the start of the current hand"),
    ("cards", 3, "FL: the match's dealer, chance and fate card"),
    # ---- decisions
    ("stop_at", 1, "the step stops before asking decision number stop_at of the hand (-1: never)"),
    ("n_decisions", 1, "decisions answered so far in this hand (the automatic tsumogiri in riichi is none)"),
    ("forced", 1, "the answer to use for the pending decision when has_forced is 1"),
    ("has_forced", 1, "1: the pending decision takes `forced` (the seat's hook is still consulted, so its "
                      "random stream moves as in play)"),
    ("forced_seat", 1, "-1: `forced` answers the next decision asked; else only a decision of this seat "
                       "(rollouts that replay a round of reactions, sims.riichi.rollout)"),
    ("keeps_dama", 1, "1: a forced own-turn answer that declines an available riichi, staying ready with a yaku "
                      "for a ron, keeps its seat dama until a discard changes its hand (rollouts: such a dama is "
                      "meant)"),
    ("dec_seat", 1, "seat of the pending (or last) decision"),
    ("last_answer", 1, "the answer the last decision's hook gave (before any forcing)"),
    # ---- the hand: everything below is zeroed when a hand begins
    ("phase", 1, "what the step does next (PH_*)"),
    ("end", 1, "END_* code of the hand once it is over"),
    ("keeps", 1, "1: the dealer keeps the deal"),
    ("dama_seats", 1, "bits of the seats kept dama by keeps_dama: they may not declare riichi"),
    ("dealer", 1, "dealer seat of this hand"),
    ("round_wind", 1, "round wind (0 East)"),
    ("honba", 1, "honba counted in payments (0 when the table has none)"),
    ("direction", 1, "S-2 exchange direction: 0 next, 1 previous, 2 across"),
    ("seeds", 8, "keyed per-hand seeds: seats 0..3, then mode streams (4: DE eye)"),
    ("riichi_cost", 1, "points a riichi declaration costs (FL 过度准备 changes it)"),
    ("pos", 1, "next live-wall position to draw"),
    ("cur", 1, "seat whose turn it is"),
    ("drawn", 1, "kind just drawn by cur (-1: none, e.g. after a call)"),
    ("kan_draw", 1, "1: cur's tile is a replacement draw (at PH_PICK_ASK: the pick is one)"),
    ("after_call", 1, "1: cur called and must discard without drawing"),
    ("forbid_a", 1, "kind cur may not discard after its call (kuikae), -1 none"),
    ("forbid_b", 1, "second forbidden kind after a chi (the other end of the run), -1 none"),
    ("last_kan_seat", 1, "seat whose open/added kan's indicator flips after its discard, -1 none"),
    ("kans_abort", 1, "1: four kans by several seats: the hand aborts after the current discard or win"),
    ("winners", 1, "seats that have won this hand"),
    ("first_winner", 1, "first seat to win, -1 none"),
    ("robbed_tiles", 1, "tiles taken from play by a robbed kan (tile count check)"),
    ("dealer_won", 1, "1: the dealer won"),
    ("ss_han", 1, "SS: han the strike rules add to cur's tsumo"),
    # own turn (PH_TURN → PH_TURN_ASK)
    ("wall_left", 1, "draws left in the live wall (A: pool and refills) at cur's turn"),
    ("kan_room", 1, "draws left for a kan's replacement at cur's turn"),
    ("first_turn", 1, "1: cur's first discard with no call made yet"),
    ("can_win", 1, "1: cur may declare tsumo"),
    ("can_riichi", 1, "1: cur may declare riichi"),
    ("can_nine", 1, "1: cur may abort by nine terminals"),
    ("any_kan", 1, "1: cur may declare some kan"),
    ("kan_opts", 34, "per kind: 1 closed kan, 2 added kan possible"),
    ("best", N_RES, "scorer result of cur's tsumo"),
    # the discard in play (PH_REACT … PH_AFTER_REACT) and the kan being declared (PH_ROB …)
    ("tile", 1, "kind discarded, or kind of the kan being declared"),
    ("red", 1, "1: the discarded (or added) tile is a red five"),
    ("kan_option", 1, "1 closed kan, 2 added kan"),
    ("riichi_now", 1, "1: the discard declared riichi"),
    ("hidden", 1, "D: 1 when the discard stayed face down"),
    ("step", 1, "1..3: the seat after cur asked next"),
    ("n_claims", 1, "seats claiming ron (or robbing the kan)"),
    ("claimants", 3, "their seats, in turn order after cur"),
    ("caller", 1, "seat whose pon/open kan/chi takes the discard, -1 none"),
    ("call", 1, "its call: PON, KAN_CALL or CHI_LOW/MID/HIGH (0 none)"),
    ("opt_ron", 1, "the asked seat may ron"),
    ("opt_pon", 1, "the asked seat may pon"),
    ("opt_kan", 1, "the asked seat may call an open kan"),
    ("opt_chi", 1, "bits of the chi options of the asked seat (1 low, 2 mid, 4 high)"),
    ("opt_han", 1, "han of the win the asked seat may take"),
    # exchange (S-2)
    ("ex_seat", 1, "seat asked next for its 3 tiles"),
    ("given", 12, "the 3 kinds each seat passes"),
    # the hand's ledgers
    ("delta", 4, "each seat's point change in this hand"),
    ("first_winds", 4, "each seat's first discard when a wind, else -1 (four winds abort)"),
    ("called", 4 * 34, "F: tiles each seat took from others by chi/pon/open kan, per kind"),
    ("streaks", 20, "C: per seat, runs of tsumogiri / hand discards; then the last discarder's before its discard"),
    ("eye_rng", 1, "DE: the eye's keyed random stream (uint64 bits)"),
    # D: the face-down discard under decision (PH_DARK_OPEN, PH_DARK_LOCK) and the face-down tiles in the rivers
    ("dark_step", 1, "D: 1..3, the seat after cur asked next whether to open cur's face-down tile"),
    ("dark_opener", 1, "D: the first seat (in turn order after cur) that answered to pay for opening it, -1 none"),
    ("dark_river", 4 * 34, "D: per seat, its face-down discards whose kind is hidden from the others (not opened, "
                           "or locked, or still under decision), per kind"),
    ("dark_red", 4 * 3, "D: per seat, 1 when the red five of suit m, p, s is one of them"),
])

HAND_START = HS.phase  # fields from here on belong to one hand
