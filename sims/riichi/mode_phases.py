"""Where the special modes act on the riichi engine: one jit-compiled dispatch function per moment of play, and
the only place that names the modes (RULES.md A, C, D, DE, F, FL, M, OD, SS).

The engine (sims.riichi.engine) calls these at fixed points of its phases and never tests a mode option itself;
each function asks the rule options which modes are on and calls their rules, which live in one module each
(sims.riichi.astrology_pool, chant_streaks, darkness_pot, dragon_eye_holder, fate_tiles, fantasy_cards,
mirror_tiles, deal_shown, soul_strike_turns) with their own slice of the observation or of the hand state. A new
mode adds its module, its options (sims.riichi.rules) and its calls here; the engine body stays as it is.

Moments, in the order of a hand: match start, hand start (before and after the deal, after the dealer's
first draw and the exchange), draw (A replaces it), the pick (A), turn start, turn answer (D), kan, discard (D: a
face-down discard's open and lock decisions), call, scoring of a win, win adjustment, after a win, riichi, after a
discard, next turn, exhaustive draw, hand records, next hand's honba.

The dispatch points that ask a hook or write the log (draws, discards, calls) take the engine's argument groups
(sims.riichi.bundles: state, seating, rules, log); the others take the few arrays they read.
"""

from __future__ import annotations

from tsumolab.sims.decisions import FACE_DOWN, RIICHI, TSUMOGIRI
from tsumolab.sims.jit import inline, step
from tsumolab.sims.riichi import rules as T
from tsumolab.sims.riichi.astrology_pool import (
    A_N, astro_add_dead, astro_floor, astro_left, astro_pick_view, astro_pool_open, astro_refill, astro_reset,
    astro_take,
)
from tsumolab.sims.riichi.chant_streaks import chant_apply, chant_bonus, chant_called, chant_discard
from tsumolab.sims.riichi.columns import H_CHANT_HAN, H_MULTIPLIER
from tsumolab.sims.riichi.darkness_pot import (
    DK_POT, dark_face_down, dark_face_down_ok, dark_lock_answer, dark_lock_view, dark_open_answer, dark_open_seat,
    dark_opened, dark_settled, dark_start, dark_take_pot,
)
from tsumolab.sims.riichi.deal_shown import show_deal
from tsumolab.sims.riichi.dragon_eye_holder import eye_discard, eye_due, eye_seed, eye_start
from tsumolab.sims.riichi.fantasy_cards import (
    fl_after_call, fl_draw_cards, fl_draw_sticks, fl_exaggerate, fl_honba, fl_hype_flip, fl_ippatsu_turns, fl_publish,
    fl_record, fl_riichi_cost, fl_riichi_extra, fl_ron_banned,
)
from tsumolab.sims.riichi.fate_tiles import fate_after_loss, fate_multiplier, fate_open_deal, fate_scale
from tsumolab.sims.riichi.mirror_tiles import (  # noqa: F401  (transparent: M's copies, re-exported for the engine's draw)
    head_bump, mirror_dead, mirror_deal, mirror_discard, mirror_draw, mirror_lose, transparent,
)
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.soul_strike_turns import strike_active, strike_after_discard, strike_score, strike_turn
from tsumolab.sims.riichi.tableau import F_IPPATSU, ST_FLAGS


# ----------------------------------------------------------------------------- match and hand
@step
def modes_begin_match(root_seed, match_id, topts, cards):
    """FL: the match's dealer, chance and fate card."""
    if topts[T.T_FANTASY]:
        fl_draw_cards(root_seed, match_id, topts, cards)


@step
def modes_begin_hand(obs, topts, cards, pot, seeds, root_seed, match_id, hand_no):
    """After the hand's public reset: FL's cards shown, D's pot carried over, DE's keyed seed (seeds[4])."""
    if topts[T.T_FANTASY]:
        fl_publish(obs, cards)
    if topts[T.T_DARKNESS]:
        dark_start(obs, pot)
    if topts[T.T_DRAGON_EYE]:
        seeds[4] = eye_seed(root_seed, match_id, hand_no)


@inline
def modes_pot(obs):
    """D: the pot on the table (0 in every other mode), carried to the next hand like the sticks."""
    return obs[0, ROBS.darkness + DK_POT]


@inline
def modes_riichi_cost(obs, topts):
    """Points a riichi costs and needs (FL 过度准备: 2000)."""
    return fl_riichi_cost(obs) if topts[T.T_FANTASY] else T.RIICHI_COST


@step
def modes_before_deal(obs, topts, eye_rng, seeds, events, ev):
    """DE: the hand's first eye."""
    if topts[T.T_DRAGON_EYE]:
        eye_start(obs, eye_rng, seeds[4], topts, events, ev)


@step
def modes_after_deal(obs, topts, wall, dealer):
    """Once the 13 tiles are dealt: F's open deal tiles, OD's shown hands, A's empty pool."""
    if topts[T.T_FATE]:
        fate_open_deal(obs, wall, dealer, topts[T.T_RED_FIVES])
    if topts[T.T_OPEN_DEAL]:
        show_deal(obs, wall, dealer)
    if topts[T.T_ASTROLOGY]:
        astro_reset(obs)


@step
def modes_play_starts(obs, st, topts, wall, dealer, pos):
    """After the exchange, the first indicators and the waits: M's transparent tiles are shown."""
    if topts[T.T_MIRROR]:
        mirror_deal(obs, st, wall, dealer, pos)


# ----------------------------------------------------------------------------- drawing
@inline
def modes_draw(state, rules, log, pos):
    """A draw from the live wall, replaced by the mode's own (A: refill the pool; the seat then picks a candidate,
    PH_PICK_ASK) → (replaced, live-wall position, something to draw: False ends the hand)."""
    topts = rules.topts
    if topts[T.T_ASTROLOGY]:
        obs = state.obs
        pos = astro_refill(obs, state.st, state.wall, pos, astro_floor(topts, T.T_ASTROLOGY), log.events, state.ev)
        return True, pos, obs[0, ROBS.astrology + A_N] > 0
    return False, pos, True


@inline
def modes_replacement_draw(state, rules, log, at, pos):
    """A kan's replacement draw from dead-wall position `at`, replaced by the mode's own (A: the tile joins the
    open pool; the seat then picks a candidate, PH_PICK_ASK) → (replaced, live-wall position)."""
    topts = rules.topts
    if topts[T.T_ASTROLOGY] and astro_pool_open(state.obs):
        pos = astro_add_dead(state.obs, state.st, state.wall, at, pos, astro_floor(topts, T.T_ASTROLOGY), log.events,
                             state.ev)
        return True, pos
    return False, pos


@inline
def modes_pick_view(state, seat, replacement):
    """PH_PICK_ASK: the question of the mode's pick into the view (A: which candidate, D_PICK)."""
    astro_pick_view(state.obs, state.hook_input, seat, replacement)


@inline
def modes_pick(state, log, seat, answer, replacement, cnt_illegal):
    """PH_PICK_ASK answered: the seat draws the candidate it chose (A) → the drawn kind."""
    return astro_take(state, log, seat, answer, replacement, cnt_illegal)


@step
def modes_before_draw_or_call(obs, topts, eye_rng, events, ev):
    """Right before a draw from the live wall or a chi / pon / open kan: DE's due eye moves."""
    if topts[T.T_DRAGON_EYE]:
        eye_due(obs, eye_rng, topts, events, ev)


@step
def modes_after_draw(obs, st, wall, topts, seat, pos, replacement):
    """A tile drawn from the wall: M's transparent copies update."""
    if topts[T.T_MIRROR]:
        mirror_draw(obs, st, wall, seat, pos, replacement)


@step
def modes_draws_left(obs, topts, wall_left):
    """(draws left, draws left for a kan's replacement): A counts the pool and refills, no kan at the floor."""
    if topts[T.T_ASTROLOGY]:
        return astro_left(obs, wall_left, astro_floor(topts, T.T_ASTROLOGY))
    return wall_left, wall_left


@inline
def modes_tiles_aside(obs):
    """Tiles out of the wall, hands, melds and rivers (A: the candidates in the pool), for the tile count."""
    return obs[0, ROBS.astrology + A_N]


# ----------------------------------------------------------------------------- the own turn
@step
def modes_turn_start(obs, st, topts, seat, kan_draw):
    """A seat's turn on a fresh draw: SS's strike turns count down."""
    if topts[T.T_SOUL_STRIKE]:
        strike_turn(obs, st, topts, seat, kan_draw)


@inline
def modes_turn_answer(topts, action):
    """D: a face-down discard answer → (the plain answer, face_down)."""
    if topts[T.T_DARKNESS] == 1 and (FACE_DOWN <= action < FACE_DOWN + 34 or
                                     FACE_DOWN + RIICHI <= action < FACE_DOWN + RIICHI + 34 or
                                     action == FACE_DOWN + TSUMOGIRI or action == FACE_DOWN + RIICHI + TSUMOGIRI):
        return action - FACE_DOWN, True
    return action, False


@inline
def modes_face_down_ok(obs, seat, face_down, legal, riichi_now):
    """D: may the seat discard face down now (points, a legal discard)? False when not face down."""
    return dark_face_down_ok(obs, seat, face_down, legal, riichi_now)


@step
def modes_kan(obs, topts, wall, seat, dealer, events, ev):
    """A kan stands: FL 炒作 flips extra indicators for the dealer."""
    if topts[T.T_FANTASY]:
        fl_hype_flip(obs, topts, wall, seat, dealer, events, ev)


@step
def modes_lose(obs, topts, seat, kind, copies):
    """Copies of `kind` leave the seat's hand into a meld or to a robbing winner: M's transparent count."""
    if topts[T.T_MIRROR]:
        mirror_lose(obs, seat, kind, copies)


@inline
def modes_discard(state, rules, seat, tile, red, drawn_copy, drawn_clear, tsumogiri, called, streaks):
    """The seat discarded `tile` (the red five when `red`): M (which copy went; a tsumogiri is the drawn copy),
    DE's counter, F's open tiles, C's runs. Returns whether the discard counts as tsumogiri."""
    obs, st, rec = state.obs, state.st, state.rec
    topts = rules.topts
    if topts[T.T_MIRROR]:
        clear = mirror_discard(obs, seat, tile, drawn_copy, drawn_clear)
        tsumogiri = tsumogiri and clear == drawn_clear
    if topts[T.T_DRAGON_EYE]:
        eye_discard(obs, seat)
    if topts[T.T_FATE]:
        fate_after_loss(obs, st, seat, tile, red, called)
    if topts[T.T_CHANT]:
        chant_discard(obs, streaks, seat, tsumogiri)
        rec[seat, H_CHANT_HAN] = chant_bonus(streaks, seat)
    return tsumogiri


# D's decisions about a face-down discard (the engine's phases PH_DARK_OPEN and PH_DARK_LOCK, reached only when a
# seat discarded face down, which modes_turn_answer allows in darkness alone)
@inline
def modes_face_down(state, log, seat, tile, red, delta):
    """D: the seat discarded `tile` face down: it pays, the tile lies hidden; the open decisions follow."""
    dark_face_down(state, log, seat, tile, red, delta)


@inline
def modes_dark_open_seat(hs, obs, view):
    """D: the next seat asked whether to open the face-down tile (its question in `view`), -1 when all were."""
    return dark_open_seat(hs, obs, view)


@inline
def modes_dark_open_answer(hs, counters, seat, answer):
    """D: the seat's answer to the opening."""
    dark_open_answer(hs, counters, seat, answer)


@inline
def modes_dark_opened(state, log, delta):
    """D: every seat answered: the opener pays; True when the discarder is asked to lock next."""
    return dark_opened(state, log, delta)


@inline
def modes_dark_lock_view(hs, obs, view):
    """D: the discarder's question whether to lock its opened tile, into `view`."""
    dark_lock_view(hs, obs, view)


@inline
def modes_dark_lock_answer(state, log, delta, answer):
    """D: the discarder's answer to the lock."""
    dark_lock_answer(state, log, delta, answer)


@inline
def modes_dark_settled(hs, obs):
    """D: the face-down tile's decisions are over (hs[hidden]: it stays face down)."""
    dark_settled(hs, obs)


@step
def modes_robbed(obs, st, topts, seat, kind, red, called):
    """The robbed kan tile (the red five when `red`) left the seat for the winners: M's transparent count, F's
    open tiles."""
    if topts[T.T_MIRROR]:
        mirror_lose(obs, seat, kind, 1)
    if topts[T.T_FATE]:
        fate_after_loss(obs, st, seat, kind, red, called)


@step
def modes_indicator_after_discard(obs, st, wall, topts):
    """An open or added kan's indicator was flipped after the kan player's discard: M's dead wall."""
    if topts[T.T_MIRROR]:
        mirror_dead(obs, st, wall)


# ----------------------------------------------------------------------------- wins
@inline
def modes_ron_allowed(obs, topts, seat, dealer):
    """FL 风纪: may the seat ron (or rob a kan) at all?"""
    return not (topts[T.T_FANTASY] and fl_ron_banned(obs, seat, dealer))


@step
def modes_score(obs, topts, sopts, res, discarder, strike_discard, is_dealer):
    """A scored win (res) repriced by the mode: SS's riichi han and overload han. Returns the han added."""
    if topts[T.T_SOUL_STRIKE]:
        return strike_score(obs, topts, sopts, res, discarder, strike_discard, is_dealer)
    return 0


@inline
def modes_strike_discard(obs, topts, seat, riichi_now):
    """SS: is the seat's discard a strike discard (a declaration or a strike turn)?"""
    return riichi_now or (topts[T.T_SOUL_STRIKE] != 0 and strike_active(obs, seat))


@inline
def modes_claimants(topts, n):
    """How many of the n claimants of a multiple ron win (M head bump: only the first)."""
    if n > 0 and topts[T.T_HEAD_BUMP]:
        return head_bump(n)
    return n


@step
def modes_adjust_win(obs, topts, sopts, res, streaks, winner, is_dealer, tsumo):
    """The win's value before payment: C's bonus han, F's multiplier."""
    if topts[T.T_CHANT]:
        chant_apply(res, chant_bonus(streaks, winner), is_dealer, tsumo, sopts)
    if topts[T.T_FATE]:
        fate_scale(res, fate_multiplier(obs, winner))


@step
def modes_after_win(obs, rec, delta, topts, winner, take_sticks, events, ev):
    """After a win's payments: D's pot goes with the sticks."""
    if topts[T.T_DARKNESS] and take_sticks:
        dark_take_pot(obs, rec, delta, winner, events, ev)


# ----------------------------------------------------------------------------- after the discard
@step
def modes_riichi_declared(obs, st, topts, delta, seat, events, ev):
    """A riichi stick was deposited: FL 过度准备's extra 1000, 三倍速's ippatsu over 3 discards."""
    if topts[T.T_FANTASY]:
        fl_riichi_extra(obs, delta, seat, events, ev)
        st[ST_FLAGS + seat, F_IPPATSU] = fl_ippatsu_turns(obs)


@step
def modes_after_discard(obs, st, topts, rec, seat, riichi_now, taken):
    """The seat's discard went through (`taken`: called or ronned): SS's strike turns and overload."""
    if topts[T.T_SOUL_STRIKE]:
        strike_after_discard(obs, st, topts, rec, seat, riichi_now, taken)


@inline
def modes_keeps_turn(obs, topts, seat):
    """SS: a striker keeps the turn after its discard."""
    return topts[T.T_SOUL_STRIKE] != 0 and strike_active(obs, seat)


@inline
def modes_call(state, rules, log, delta, streaks, caller, discarder, tile, red, pon_or_kan, dealer):
    """A chi, pon or open kan took the discard: C's runs (option count_called), FL 暗中交易, 爱的代价, 炒作."""
    topts = rules.topts
    if topts[T.T_CHANT]:
        chant_called(state.obs, streaks, discarder, topts[T.T_CHANT])
        state.rec[discarder, H_CHANT_HAN] = chant_bonus(streaks, discarder)
    if topts[T.T_FANTASY]:
        fl_after_call(state, rules, log, delta, caller, discarder, tile, red, pon_or_kan, dealer)


# ----------------------------------------------------------------------------- hand end
@step
def modes_hand_end(obs, topts, end_exhaustive, aborted, dealer, rec, delta, events, ev):
    """The hand is over, before any exhaustive-draw payment: FL 没收 (the dealer takes the sticks)."""
    if topts[T.T_FANTASY]:
        fl_draw_sticks(obs, topts, end_exhaustive, aborted, dealer, rec, delta, events, ev)


@step
def modes_exhaustive(obs, topts, delta, before, nagashi, events, ev):
    """After the exhaustive-draw payments: FL 夸大其词."""
    if topts[T.T_FANTASY]:
        fl_exaggerate(obs, delta, before, nagashi, events, ev)


@step
def modes_record(obs, topts, rec):
    """The modes' columns of the hand's record rows: FL's cards, F's multiplier."""
    if topts[T.T_FANTASY]:
        fl_record(obs, rec)
    for s in range(4):
        rec[s, H_MULTIPLIER] = fate_multiplier(obs, s)


@step
def modes_next_honba(obs, topts, honba, keeps, aborted):
    """The next hand's honba (FL 永夜)."""
    if topts[T.T_FANTASY]:
        return fl_honba(obs, topts, honba, keeps, aborted)
    return honba
