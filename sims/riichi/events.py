"""Event log of the riichi-based modes: the rows of sims.events (same layout, same `log_event`), with the
riichi meaning of the fields and four more kinds (chi, riichi, dora, abort)."""

from tsumolab.sims.events import (
    EV_DEAL, EV_DISCARD, EV_DRAW, EV_DRAW_STATE, EV_END, EV_EXCHANGE, EV_KAN, EV_PASS, EV_PAY, EV_PON, EV_SETTLE,
    EV_START, EV_VOID, EV_WIN, PAY_RON, PAY_TSUMO,
)

EV_CHI, EV_RIICHI, EV_DORA, EV_ABORT = 14, 15, 16, 17
EV_POOL = 18  # astrology (A): a candidate revealed (sims.riichi.astrology_pool)
EV_EYE = 19  # dragon eye (DE)
PAY_RIICHI, PAY_HONBA, PAY_STICKS, PAY_NOTEN, PAY_NAGASHI, PAY_PAO = 6, 7, 8, 9, 10, 11
PAY_FACE_DOWN, PAY_DARK_OPEN, PAY_DARK_LOCK, PAY_POT = 12, 13, 14, 15  # darkness (D), sims.riichi.darkness_pot
PAY_REASONS = {PAY_RON: "ron", PAY_TSUMO: "tsumo", PAY_RIICHI: "riichi_stick", PAY_HONBA: "honba",
               PAY_STICKS: "sticks", PAY_NOTEN: "noten", PAY_NAGASHI: "nagashi", PAY_PAO: "pao",
               PAY_FACE_DOWN: "face_down", PAY_DARK_OPEN: "dark_open", PAY_DARK_LOCK: "dark_lock", PAY_POT: "pot"}
# fantasy (FL) card payments (sims.riichi.fantasy_cards)
PAY_GIVEAWAY, PAY_HOURGLASS, PAY_SHADY_DEAL, PAY_LOVE_PRICE, PAY_CONFISCATE = 20, 21, 22, 23, 24
PAY_REASONS.update({PAY_GIVEAWAY: "fl_giveaway", PAY_HOURGLASS: "fl_hourglass", PAY_SHADY_DEAL: "fl_shady_deal",
                    PAY_LOVE_PRICE: "fl_love_price", PAY_CONFISCATE: "fl_confiscate"})

EVENT_FIELDS = {
    EV_START: ("start", "seat = dealer, a = exchange direction (0 next, 1 prev, 2 across; shura), b = round "
                        "(0..7 = E1..S4), c = honba"),
    EV_DEAL: ("deal", "seat receives tile in the deal; a = 1 red five"),
    EV_EXCHANGE: ("exchange", "seat gives tiles tile, a, b to seat c % 4 (S-2); bit i of c // 4: tile i is the red "
                              "five"),
    EV_VOID: ("void", "unused in riichi modes"),
    EV_DRAW: ("draw", "seat draws tile; a = 1 for a kan replacement draw; c = 2 × (1 red five) + (astrology, A: "
                      "1 if it was the dead-wall candidate); astrology: b = 1 + index of the candidate picked"),
    EV_DISCARD: ("discard", "seat discards tile; a = 1 tsumogiri (the copy drawn left), b = 1 riichi declaration, "
                            "c = 1 red five"),
    EV_PON: ("pon", "seat pons tile discarded by seat a; c = 1 (the called tile is the red five) + 2 (a copy from "
                    "the hand is)"),
    EV_KAN: ("kan", "seat makes a kan of tile; a = meld type (sims.tiles MINKAN/ANKAN/KAKAN), b = discarder or -1; "
                    "c = 1 (the called tile is the red five) + 2 (a copy from the hand is: the added tile of a "
                    "KAKAN)"),
    EV_PASS: ("pass_win", "seat passes a win on tile worth a han; b = 1 for tsumo"),
    EV_WIN: ("win", "seat wins on tile with a han and b fu, c = 1 ron, 2 tsumo"),
    EV_PAY: ("pay", "seat pays a points to seat tile (-1 = the table: riichi stick pile, darkness pot); b = reason "
                    "(PAY_REASONS); c = the tile kind of a face_down / dark_open / dark_lock payment (D)"),
    EV_DRAW_STATE: ("draw_state", "unused in riichi modes"),
    EV_SETTLE: ("settle", "unused in riichi modes"),
    EV_END: ("end", "hand ends: a = end code (sims.riichi.columns.HAND_ENDS), b = winners"),
    EV_CHI: ("chi", "seat chis the run starting at tile with the discard a of seat b; c as for pon"),
    EV_RIICHI: ("riichi", "seat declares riichi with tile; a = 1 riichi, 2 double riichi"),
    EV_DORA: ("dora", "a dora indicator tile is shown; a = indicators shown"),
    EV_ABORT: ("abort", "abortive draw declared by or on the turn of seat; a = end code"),
    EV_POOL: ("pool", "astrology (A): tile is revealed as a candidate; a = 1 from the dead wall, b = its wall "
                      "index (sims.riichi.engine.shuffled_wall), c = pool size after"),
    EV_EYE: ("eye", "dragon eye (DE): a new eye is placed on seat with counter a; b = eyes placed in the hand so far, "
                    "c = 0 at the hand's start, 1 moved after the counter ran out"),
}
