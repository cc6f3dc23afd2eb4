"""Table rules of every riichi-based mode in one place (RULES.md R-1 … R-6, S-1 … S-16).

A mode is a set of option values of `RiichiRules` (`STANDARD` for `riichi`, `SHURA` for `shura`), never a
fork of the engine. The engine receives `to_array()` (indexed by the T_* constants) and, for the scorer,
`scoring_array()` (sims.riichi.scoring_rules.ScoringRules). Scoring options (kazoe yakuman, …) are fields here too,
so `--rule` reaches them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

from tsumolab.sims.riichi.fantasy_decks import FANTASY_DECKS, FANTASY_SLUGS, parse_fantasy_cards  # noqa: F401
from tsumolab.sims.riichi.scoring_rules import ScoringRules, reject_unknown_options
from tsumolab.sims.riichi.table_slots import (  # noqa: F401  re-exported: the engines read them as table.X
    DEAD_WALL, DEAL_SIZE, HONBA_RON, MAX_HANDS, MAX_KANS, N_TABLE, N_TILES, NOTEN_TOTAL, RIICHI_COST, START_POINTS,
    T_ASTROLOGY, T_BLOODBATH, T_CHANT, T_DARKNESS, T_DRAGON_EYE, T_EXCHANGE, T_EXTENSION, T_FANTASY, T_FATE,
    T_FOUR_RIICHI_ACTIVE, T_HEAD_BUMP, T_HONBA, T_HONBA_EVERY_WINNER, T_INITIAL_DORA, T_MIRROR, T_N_HANDS,
    T_NOTEN_EACH, T_OPEN_DEAL, T_PAO, T_RED_FIVES, T_RENCHAN, T_SOUL_STRIKE, T_START_POINTS, T_TSUMO_LOSS,
    TARGET_POINTS,
)

NOTEN_RULES = ("split", "each")
STRIKE_COUNTS = ("turns", "draws")
LOVE_POTS = ("sticks", "discarder")


@dataclass(frozen=True)
class RiichiRules:
    """Rule options of a riichi-based mode; defaults are standard Mahjong Soul East (R-1 … R-6)."""

    start_points: int = START_POINTS
    """Points of each seat at the start (R-2, S-1)."""
    n_hands: int = 4
    """Hands of the base match before any extension: 4 = East only (R-2, S-1)."""
    renchan: bool = True
    """The dealer keeps the deal on a win or when tenpai at an exhaustive draw (R-2); off: S-7."""
    honba: bool = True
    """Honba counters: 300 per count on a win (R-2); off: S-1."""
    honba_every_winner: bool = False
    """R-3: on a multiple ron the honba bonus goes, with the sticks, only to the winner first in turn order after
    the discarder (source 002); on: every winner gets it (tsumolab before issue 13)."""
    extension: bool = True
    """Extend into South until someone has 30000 (sudden death) or after S4 (R-2); off: S-1."""
    bloodbath: bool = False
    """S-3: the hand goes on after a win until 3 have won or the wall is exhausted (with S-4, S-10 … S-13, S-15)."""
    exchange_three: bool = False
    """S-2: every player passes any 3 tiles before the first dora is shown."""
    noten_rule: str = "split"
    """S-6 (bloodbath only): split = the noten players pay (non-won − 1) × 1000 in all, shared by the tenpai
    ones (sources 000/001); each = every noten player pays 1000 to each tenpai player (in-game text 002)."""
    pao: bool = True
    """Pao for 大三元 / 大四喜 (R-3); off: S-14."""
    four_riichi_active_only: bool = False
    """S-8: the four-riichi abort needs four players simultaneously in riichi who have not won."""
    tsumo_loss: bool = False
    """S-5: on a tsumo (and nagashi mangan) only non-won players pay their share; nothing is redistributed."""
    red_fives: bool = True
    """R-1: three red fives, each one dora (scored by R-3)."""
    initial_dora: int = 1
    """Dora indicators (and ura) shown at the start of a hand; kans add more up to 5 in all (R-1; DF: 3)."""
    open_deal: bool = False
    """OD: every seat's starting 13 tiles are shown to all (observation block ROBS.deal_shown)."""
    fate: bool = False
    """F: the first 4 deal tiles of each seat are open; a win pays its points × (1 + own open tiles held)."""
    chant: bool = False
    """C: bonus han (not a yaku, not on yakuman) for the longest runs of tsumogiri / hand discards of the hand."""
    count_called: bool = True
    """C: a discard another player calls (chi, pon, open kan) still counts in its discarder's runs (RULES.md C
    leaves it open); off: it leaves the runs as if it had not been made, as the community re-implementation does."""
    astrology: bool = False
    """A: every draw is a choice among a pool of 3 face-up candidates (sims.riichi.astrology_pool)."""
    astrology_floor: int = 3
    """A: with the live wall (candidates excluded) at or below this many tiles the pool is no longer refilled
    and nobody may kan (RULES.md A: 3). 0 = source 001's reading: refill while the wall has tiles."""
    darkness: bool = False
    """D: discards may be made face down for 1000; others may pay 2000 to open, the discarder 4000 to lock."""
    mirror: bool = False
    """M: 3 of the 4 copies of every kind are transparent (seen by all in hands and wall)."""
    head_bump: bool = False
    """M: on a multiple ron only the claimant first in turn order after the discarder wins."""
    soul_strike: bool = False
    """SS: riichi 2 han, then up to 6 own turns in a row; afterwards rons on the player's discards get +2 han."""
    strike_turns: int = 6
    """SS: own draw-discard turns right after the riichi declaration."""
    strike_count: str = "turns"
    """SS: turns = a closed kan's replacement draw belongs to its turn, a closed kan on the last strike draw adds
    one more turn (RULES.md SS); draws = every draw (replacement draws included) uses one of the strike draws,
    the replacement after a closed kan on the last one being the extra."""
    overload_han: int = 2
    """SS: han added to every ron on an overloaded player's discard (not a yaku, not on yakuman)."""
    strike_riichi_han: int = 2
    """SS: han of riichi in soul strike."""
    strike_double_riichi_han: int = 3
    """SS: han of double riichi in soul strike."""
    trigger_ron_bonus: bool = False
    """SS: the ron on a strike-turn discard (declaration included) that overloads the player gets the overload
    han too (default off: the discarder was not overloaded yet)."""
    ippatsu_ron_after_strike: bool = False
    """SS: the striker keeps ippatsu (for a ron) until its next discard after the strike turns (default off:
    ippatsu ends with the last strike discard; every tsumo in the strike turns is ippatsu)."""
    strike_ends_ippatsu: bool = False
    """SS: a strike turn ends the other riichi players' pending ippatsu (default off: R-4, only a call or their
    own discard ends it)."""
    fantasy: bool = False
    """FL: one dealer, chance and fate card apply for the whole match."""
    cards: str = ""
    """FL: the match's cards by name, comma-separated, any order, one per deck (slugs or Chinese names, see
    FANTASY_DECKS); a deck not named (or all three when empty) has its card drawn per match from the seed."""
    love_pot: str = "sticks"
    """FL 爱的代价: where the 2000 goes: sticks = the riichi-stick pile 供托 (source 001; the next winner takes
    it, unclaimed sticks go to first place at the end); discarder = to the player whose dora was called."""
    confiscate_abortive: bool = True
    """FL 没收: the dealer takes the sticks at abortive draws too (source 001 says 流局, which covers 途中流局);
    off: only at an exhaustive draw."""
    hype_max: int = 4
    """FL 炒作: extra indicators the dealer's pon/kan can flip in a hand (source 001: 上限不超过4); they share
    R-1's limit of 5 indicators in all (the dead wall has room for 5), so kan dora can leave fewer."""
    hourglass_floor: bool = True
    """FL 厄运沙漏: the cut never makes a payer pay less than 0 for the win (value + honba); off: a cut larger
    than the payment is paid back by the winner."""
    eternal_abortive: bool = False
    """FL 永夜: an abortive draw counts as dealer renchan (+5 honba); off (default): R-5's +1 (R-2 defines
    renchan as a dealer win or tenpai at an exhaustive draw)."""
    dragon_eye: bool = False
    """DE: the eye's holder wins and pays double against every other player."""
    eye_counter: int = 5
    """DE: discards by the holder before the eye moves."""
    eye_multiplier: int = 2
    """DE: factor on win payments between the holder and another player."""
    eye_other_seat: bool = False
    """DE: a new eye goes only to one of the other three seats (off: any of the four, the same one included)."""
    kazoe_yakuman: bool = True
    """R-3: 13 or more han score as a yakuman."""
    kiriage_mangan: bool = False
    """R-3: no kiriage mangan in Mahjong Soul."""
    open_tanyao: bool = True
    """R-3: tanyao counts on an open hand."""
    double_yakuman: bool = True
    """R-3: the four double yakuman."""
    yakuman_stacking: bool = True
    """R-3: yakuman add up."""

    def __post_init__(self):
        if self.noten_rule not in NOTEN_RULES:
            raise ValueError(f"noten_rule must be one of {', '.join(NOTEN_RULES)}, got {self.noten_rule!r}")
        if not 1 <= self.n_hands <= 8:
            raise ValueError("n_hands must be 1..8")
        if not 1 <= self.initial_dora <= 5:
            raise ValueError("initial_dora must be 1..5")
        if self.strike_count not in STRIKE_COUNTS:
            raise ValueError(f"strike_count must be one of {', '.join(STRIKE_COUNTS)}, got {self.strike_count!r}")
        if not all(0 <= v <= 255 for v in (self.strike_turns, self.overload_han, self.strike_riichi_han,
                                           self.strike_double_riichi_han)):
            raise ValueError("strike_turns, overload_han and the strike riichi han must be 0..255")
        if self.cards.strip() and not self.fantasy:
            raise ValueError("cards is an option of the fantasy (FL) mode; this mode has fantasy off")
        if not self.count_called and not self.chant:
            raise ValueError("count_called is an option of the chant (C) mode; this mode has chant off")
        parse_fantasy_cards(self.cards)
        if self.love_pot not in LOVE_POTS:
            raise ValueError(f"love_pot must be one of {', '.join(LOVE_POTS)}, got {self.love_pot!r}")
        if not 0 <= self.hype_max <= 4:
            raise ValueError("hype_max must be 0..4")
        if not 0 <= self.astrology_floor <= 60:
            raise ValueError("astrology_floor must be 0..60")
        if self.eye_counter < 1 or self.eye_multiplier < 1:
            raise ValueError("eye_counter and eye_multiplier must be at least 1")

    def to_array(self) -> np.ndarray:
        arr = np.zeros(N_TABLE, np.int64)
        arr[T_START_POINTS] = self.start_points
        arr[T_BLOODBATH] = int(self.bloodbath)
        arr[T_EXCHANGE] = int(self.exchange_three)
        arr[T_RENCHAN] = int(self.renchan)
        arr[T_HONBA] = int(self.honba)
        arr[T_HONBA_EVERY_WINNER] = int(self.honba_every_winner)
        arr[T_EXTENSION] = int(self.extension)
        arr[T_NOTEN_EACH] = int(self.noten_rule == "each")
        arr[T_PAO] = int(self.pao)
        arr[T_FOUR_RIICHI_ACTIVE] = int(self.four_riichi_active_only)
        arr[T_TSUMO_LOSS] = int(self.tsumo_loss)
        arr[T_N_HANDS] = self.n_hands
        arr[T_RED_FIVES] = int(self.red_fives)
        arr[T_INITIAL_DORA] = self.initial_dora
        arr[T_OPEN_DEAL] = int(self.open_deal)
        arr[T_FATE] = int(self.fate)
        # each mode packs its own options (and its kernel module unpacks them); imported here, as the kernel
        # modules load numba and the rules alone need only numpy
        from tsumolab.sims.riichi import (
            astrology_pool, chant_streaks, dragon_eye_holder, fantasy_cards, soul_strike_turns,
        )

        arr[T_CHANT] = chant_streaks.pack_options(self)
        arr[T_ASTROLOGY] = astrology_pool.pack_options(self)
        arr[T_DARKNESS] = int(self.darkness)
        arr[T_MIRROR] = int(self.mirror)
        arr[T_HEAD_BUMP] = int(self.head_bump)
        arr[T_SOUL_STRIKE] = soul_strike_turns.pack_options(
            self.soul_strike, self.strike_count, self.trigger_ron_bonus, self.ippatsu_ron_after_strike,
            self.strike_ends_ippatsu, self.strike_turns, self.overload_han, self.strike_riichi_han,
            self.strike_double_riichi_han)
        arr[T_FANTASY:T_FANTASY + 4] = fantasy_cards.pack_options(self)
        arr[T_DRAGON_EYE:T_DRAGON_EYE + 4] = dragon_eye_holder.pack_options(self)
        return arr

    def scoring(self) -> ScoringRules:
        """The scoring options (ScoringRules), each taken from the field of the same name here."""
        return ScoringRules(**{f.name: getattr(self, f.name) for f in fields(ScoringRules)})

    def scoring_array(self) -> np.ndarray:
        return self.scoring().to_array()

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, values: dict):
        reject_unknown_options(cls, values, "riichi mode rule")
        defaults = cls()
        for key, value in values.items():
            expected = type(getattr(defaults, key))
            if expected is int and isinstance(value, bool) or not isinstance(value, expected):
                raise ValueError(f"riichi mode rule option {key} must be {expected.__name__}, got {value!r}")
        return cls(**values)


@dataclass(frozen=True)
class ShuraRules(RiichiRules):
    """`shura` 修罗之战: R rules with S-1 … S-16 (defaults below)."""

    renchan: bool = False
    honba: bool = False
    extension: bool = False
    bloodbath: bool = True
    exchange_three: bool = True
    pao: bool = False
    four_riichi_active_only: bool = True
    tsumo_loss: bool = True


@dataclass(frozen=True)
class DoraFeverRules(RiichiRules):
    """`dora-fever` 宝牌狂热: R rules with 3 dora indicators from the start and no renchan (RULES.md DF)."""

    initial_dora: int = 3
    renchan: bool = False


@dataclass(frozen=True)
class OpenDealRules(RiichiRules):
    """`open-deal` 配牌明牌: standard riichi with every starting hand shown (RULES.md OD)."""

    open_deal: bool = True


STANDARD = RiichiRules()
SHURA = ShuraRules()


@dataclass(frozen=True)
class FateRules(RiichiRules):
    """`fate` 天命之战: R rules with 50000 start, open deal tiles, the win multiplier, no renchan (RULES.md F)."""

    start_points: int = 50_000
    renchan: bool = False
    fate: bool = True


@dataclass(frozen=True)
class ChantRules(RiichiRules):
    """`chant` 咏唱之战: R rules with bonus han for runs of tsumogiri and of hand discards (RULES.md C)."""

    chant: bool = True


@dataclass(frozen=True)
class AstrologyRules(RiichiRules):
    """`astrology` 占星之战: R rules with every draw chosen from 3 face-up candidates (RULES.md A)."""

    astrology: bool = True


@dataclass(frozen=True)
class DarknessRules(RiichiRules):
    """`darkness` 暗夜之战: R rules with face-down discards, paid opening and locking, and the pot (RULES.md D)."""

    darkness: bool = True


@dataclass(frozen=True)
class MirrorRules(RiichiRules):
    """`mirror` 明镜之战: R rules with 3 transparent copies of every kind, no red fives, no renchan (RULES.md M)."""

    mirror: bool = True
    head_bump: bool = True
    red_fives: bool = False
    renchan: bool = False


@dataclass(frozen=True)
class SoulStrikeRules(RiichiRules):
    """`soul-strike` 魂之一击: R rules with the 2-han riichi, the strike turns and overload (RULES.md SS)."""

    soul_strike: bool = True


@dataclass(frozen=True)
class FantasyRules(RiichiRules):
    """`fantasy` 幻境传说: R rules changed by one dealer, one chance and one fate card (RULES.md FL)."""

    fantasy: bool = True


@dataclass(frozen=True)
class DragonEyeRules(RiichiRules):
    """`dragon-eye` 龙之目玉: R rules with the eye doubling its holder's win payments, 40000 start, 3 dora
    indicators, no renchan (RULES.md DE)."""

    dragon_eye: bool = True
    start_points: int = 40_000
    initial_dora: int = 3
    renchan: bool = False
