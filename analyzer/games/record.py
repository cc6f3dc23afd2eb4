"""`GameRecord`: a real game as the readers (analyzer.games.mjai, .tenhou6, .tenhou_xml, .majsoul) give it to the
layers above.

A record holds every hand of the game as a list of mjai-style events in the words `tsumolab replay --json` writes
(analyzer.replay.riichi_events), every tile the log knows written out:

    start_kyoku  {bakaze: E|S|W|N, kyoku: 1..4, honba, kyotaku, oya, scores[4], dora_marker, tehais[4][13],
                  exchange_direction? (shura)}
    exchange     {actor, target, pais[3]}         (shura, S-2: the three tiles actor passes to target)
    tsumo        {actor, pai}                     (rinshan: true on a kan's replacement draw, when the log says so)
    dahai        {actor, pai, tsumogiri}
    chi | pon | daiminkan  {actor, target, pai, consumed}
    ankan        {actor, consumed[4]}             kakan {actor, pai, consumed[3]}
    reach        {actor}                          reach_accepted {actor}
    dora         {dora_marker}
    hora         {actor, target, pai, han?, fu?, deltas?[4], ura_markers?}
    ryukyoku     {reason?: exhaustive | nine_terminals | four_winds | four_riichi | four_kans | three_wins,
                  deltas?[4]}
    end_kyoku    {scores?[4], deltas?[4]}

The special modes keep what they show in the words of the position documents (analyzer.advise.riichi_position):
dragon-eye's `eye` {actor, counter}; fate's `fate_open` on start_kyoku and `open_tile` on dahai; fantasy's `cards`
(a rule option); mirror's `mirror_tehais` and `mirror_wall` on start_kyoku (M); astrology's `candidate` {pai,
dead_wall, pool, wall_index} events and `pick` on each tsumo from the pool (A); darkness's `"face_down": true` on
dahai, its `payment` {from, to: -1, amount, reason: face_down | dark_open | dark_lock, pai} events and start_kyoku's
`pot` (D).

Tiles are 1m..9m, 1p..9p, 1s..9s, 1z..7z with a red five written 5mr / 5pr / 5sr; "?" is a tile the log does
not show (an mjai log of one seat's view). Seats are the game's initial seats 0..3 (0 = the first dealer).

A Bloodshed record (variant "bloodshed", RULES.md B-…) keeps the words of analyzer.replay.bloodshed_events, number
tiles only (B-1), with every payment on what it pays for:

    start_kyoku  {hand (1..4), bakaze, kyoku, honba, oya, scores[4], exchange_direction: next | prev | across,
                  tehais[4][13]}               then the dealer's first tsumo
    exchange     {actor, target, pais[3]}     (B-6)      void {actor, suit: m | p | s} (B-7)
    tsumo {actor, pai, rinshan}   dahai {actor, pai}   pon {actor, target, pai, consumed[2]}
    daiminkan {actor, target, pai, consumed[3], deltas[4]}   ankan {actor, pai, consumed[4], deltas[4]}
    kakan        {actor, pai, drawn, deltas[4]}  (drawn: made with the tile just drawn, B-15; a robbed one is
                                                  followed by the robbers' hora, B-17)
    hora         {actor, target, pai, kind: ron | tsumo | robbed_kan, fan, deltas[4]}
    ryukyoku     {reason: exhaustive, deltas[4] (查花猪, 查大叫), refunds[4] (退税), tenpai[4]}
    end_kyoku    {end: three_wins | exhaustive | bust, winners, deltas[4] (the hand's), scores[4]}

A kan's deltas are its kan money (B-14, B-15), zeros when nobody paid.
A reader refuses what it cannot express with one line naming the event (GameError), never a partial record.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tsumolab.analyzer.errors import InputError

FORMATS = ("majsoul", "tenhou6", "mjai", "mjlog")


class GameError(InputError):
    """A log that cannot be read or breaks the rules; the message is one line naming the game, hand and event."""


@dataclass(frozen=True)
class GameRecord:
    """One real game: its mode, the players and every hand's events (see the module docstring)."""

    source: str                      # the format it was read from: one of FORMATS
    variant: str                     # the tsumolab mode, e.g. "riichi", "shura", "bloodshed"
    hands: tuple[tuple[dict, ...], ...]
    names: tuple[str, ...] = ("", "", "", "")
    rules: dict = field(default_factory=dict)   # rule options that differ from the mode's defaults
    length: str = "south"            # "east" (tonpuusen) or "south" (hanchan)
    title: str = ""                  # where the game comes from (a uuid, a ref, a file name)

    @property
    def n_hands(self) -> int:
        return len(self.hands)
