"""The rules the engines apply, by rule id, and which ids make up each mode: the text `tsumolab rules MODE` prints.

The texts follow /work/shared/RULES.md (the project's specification; tests cite the same ids). `MODE_RULES` lists
per mode slug (sims.modes) its base rules (B for bloodshed, R for every riichi-based mode) and its own rules
(S for shura, one id for each other special mode). The module lives in analyzer/, not sims/, because
sims.compile_cache keys the numba cache by every source under sims/ and policies/: editing a rule text here
never recompiles a kernel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from analyzer.game_names import mode_name


@dataclass(frozen=True)
class ModeRules:
    title: str
    """the mode's name in the game and in English"""
    base: tuple[str, ...]
    """rule ids the mode takes over from its base (B or R rules)"""
    own: tuple[str, ...]
    """the mode's own rule ids (S-1 … S-16 for shura; one id such as DF for the other special modes)"""

    @property
    def ids(self) -> tuple[str, ...]:
        return self.base + self.own


BLOODSHED_IDS = ("B-1", "B-2", "B-3", "B-4", "B-5", "B-6", "B-7", "B-8", "B-9", "B-10", "B-11", "B-12", "B-13",
                 "B-14", "B-15", "B-16", "B-17", "B-18", "B-19", "B-19a", "B-19b", "B-19c", "B-20", "B-21", "B-22",
                 "B-23", "B-24", "B-25")
RIICHI_IDS = tuple(f"R-{k}" for k in range(1, 7))
SHURA_IDS = tuple(f"S-{k}" for k in range(1, 17))

_OWN_RULES = {"bloodshed": (BLOODSHED_IDS, ()), "riichi": (RIICHI_IDS, ()), "shura": (RIICHI_IDS, SHURA_IDS),
              "dora-fever": (RIICHI_IDS, ("DF",)), "open-deal": (RIICHI_IDS, ("OD",)), "fate": (RIICHI_IDS, ("F",)),
              "chant": (RIICHI_IDS, ("C",)), "astrology": (RIICHI_IDS, ("A",)), "darkness": (RIICHI_IDS, ("D",)),
              "mirror": (RIICHI_IDS, ("M",)), "soul-strike": (RIICHI_IDS, ("SS",)), "fantasy": (RIICHI_IDS, ("FL",)),
              "dragon-eye": (RIICHI_IDS, ("DE",))}
_TITLE_NOTES = {"bloodshed": " (Sichuan bloodbath, 血战到底)", "shura": " (riichi bloodbath)"}


def _title(mode: str) -> str:
    """`tsumolab rules` title of a mode: its Chinese and English names (analyzer.game_names) and a note."""
    if mode == "riichi":
        return "standard Mahjong Soul 4-player East game (the control of the riichi modes)"
    return f"{mode_name(mode, 'zh')} {mode_name(mode, 'en')}{_TITLE_NOTES.get(mode, '')}"


MODE_RULES = {mode: ModeRules(_title(mode), base, own) for mode, (base, own) in _OWN_RULES.items()}
"""mode slug → its title and rule ids, in the order `tsumolab rules` prints them"""

MODE_IDS = ("DF", "A", "D", "M", "F", "C", "SS", "FL", "DE", "OD")
"""the ids of the special riichi modes' own rules (one rule each)"""

_ID = re.compile(r"(?<![\w-])((?:B|R|S)-\d+[a-c]?)(?![\w-])|(?<![\w-])(DF|OD|SS|FL|DE|A|D|M|F|C)(?=[:;,)])")


def cited_ids(text: str) -> list[str]:
    """Rule ids cited in a text such as an option's docstring, in order, each once: hyphenated ids (R-2, S-7,
    B-19c) anywhere, a special mode's id (DF, A, …) when followed by ':', ';', ',' or ')' as in "(R-1; DF: 3)"."""
    found = [a or b for a, b in _ID.findall(text)]
    return list(dict.fromkeys(found))


# One rule per paragraph: the id, a space, the text; continuation lines are indented.
_TEXT = """
B-1 Tiles: 108 suited tiles (1-9 m/p/s, four each). No honors, no red fives, no dora, no dead wall (王牌).
B-2 Four players, 50000 points each. A match is 4 hands, no renchan, no honba.
B-3 Dealer of hand 1 is seat 0. Dealer of the next hand is the first player to win in this hand. If the first
    win of the hand was a multiple ron, it is the winner nearest to the discarder in turn order. If nobody won,
    the dealer stays.
B-4 The match ends after hand 4, or at once when any player's points go below 0 after any settlement (win, kan
    payment, draw settlement). Final ranks by points; ties broken by seat order at match start (seat 0 first).
B-5 Deal 13 tiles each, dealer draws a 14th. Draws come from one live wall; kan replacement draws come from the
    same wall in normal order (B-16).
B-6 Exchange three (换三张): each player chooses 3 tiles of one suit (a suit with fewer than 3 tiles cannot be
    chosen). Direction is random per hand, uniform over: to the next player, to the previous player, across. All
    players pass simultaneously.
B-7 Void suit (定缺): after the exchange each player declares one suit. A player cannot win while any tile of that
    suit is in their hand or melds. Discarding void tiles is not forced.
B-8 No chi, no riichi, no furiten: a player may ron any discard, including after passing one, and after
    discarding a winning tile.
B-9 Pon and kan (closed kan 暗杠, open kan 大明杠 off a discard, added kan 加杠) are allowed. Kan needs at least one
    tile left in the wall. Pon of the last discard of the hand (wall empty) is not allowed. A pon/kan and a ron
    on the same discard: ron wins.
B-10 A win needs 4 melds + a pair, or seven pairs (identical pairs allowed: four of a kind in the hand counts as
    two pairs, also for shanten and waits — unlike riichi), with no void-suit tile (B-7). No minimum fan: every
    complete hand wins at least 1 fan.
B-11 Multiple ron (一炮多响) on one discard: every claimant wins and is paid by the discarder.
B-12 After a win the winner's hand is closed and hidden; the winner takes no further part in the hand (no draws,
    discards, payments or receipts). After a ron, play continues with the next non-won player after the winner
    (after a multiple ron: after the winner farthest from the discarder). After a tsumo, with the next non-won
    player after the winner. After a robbed kan (B-17): with the next non-won player after the robbed player.
B-13 The hand ends when 3 players have won, or when a draw is due and the wall is empty (exhaustive draw, B-20).
    There are no abortive draws.
B-14 Closed kan: every other non-won player pays the kan player 2000 at once.
B-15 Open kan off a discard: the discarder pays 2000. Added kan with the tile just drawn: every other non-won
    player pays 1000. Added kan with a tile that was already in the hand before this draw: no payment.
B-16 After any kan the kan player draws the next tile of the live wall; that draw counts as a replacement draw
    (杠上花), and the kan player's next discard counts for 杠上炮.
B-17 Robbing an added kan (抢杠): ron on the added tile. The kan does not happen and no kan payment is made; the
    robbed player's meld stays a pon (a triplet, no 根 from it), the robbed tile stays in place.
B-18 Payments are real-time; the ledger of kan income per (receiver, payer) is kept for the refund B-21.
B-19 Fan to points: 1→1000, 2→2000, 3→4000, 4→8000, 5→16000, 6→32000; 6 fan is the cap. Ron: the discarder pays
    the value. Tsumo: every other non-won player pays value + 1000.
B-19a Patterns. Exactly one base pattern counts: the first that applies in this priority order (fan in
    brackets): 地和 [6] non-dealer tsumo on their first draw with no pon/kan by anyone before it (another player's
    win does NOT break it, unlike shura); 天和 [6] dealer wins on the initial 14 tiles; 清十八罗汉 [6]; 十八罗汉 [6] four
    kans; 清龙七对 [6]; 清幺九 [5] one-suit 带幺九; 清金钩钓 [5]; 清七对 [5]; 龙七对 [4] seven pairs containing four identical
    tiles; 将对 [4] 对对和 with every tile a 2, 5 or 8; 清对 [4] one-suit 对对和; 金钩钓 [3] four melds (pon or any kan) and
    the pair; 带幺九 [3] every meld and the pair contain a 1 or 9; 七对子 [3] seven pairs (identical pairs allowed);
    清一色 [3] one suit; 对对和 [2] all triplets/kans; otherwise 底和 [1]. When several decompositions of the hand
    exist, the one with the highest total value counts.
B-19b Bonuses, +1 each, added to the base pattern before the cap: 根 = for every tile kind, ⌊(copies held in hand
    and melds) / 4⌋, wherever the copies sit (kans, pon + fourth tile, spread over sequences), minus 1 for
    龙七对/清龙七对 and minus 4 for 十八罗汉/清十八罗汉; 杠上花 tsumo on a kan replacement draw; 杠上炮 ron on the discard a player
    makes right after their own kan; 抢杠 B-17; 海底捞月 a win when the wall is empty (tsumo of the last tile, or ron
    of the discard after it).
B-19c Option `stack_known_bugs` (default off): source 001 lists as known game bugs that 带幺九 stacks with 清幺九
    and 对对和 with 将对. Off: B-19a as written (single pattern, which is also what the community re-implementation
    does). On: those pairs add up.
B-20 Exhaustive draw settlement. Tenpai means the hand would win on some tile (B-10); a tile of which the
    player already holds all four copies (hand and melds) is not a winning tile; a hand holding a void-suit tile
    is never tenpai. A tenpai player's max value is the highest points over their winning tiles, scored as a
    ron with base pattern and 根 but no situational bonus (no 杠上花/杠上炮/抢杠/海底/天和/地和). Won players neither pay nor
    receive in B-22/B-23.
B-21 退税 refund: every non-won player who is not tenpai (flower pigs included) returns all kan income received
    this hand to the original payers, even to payers who have since won.
B-22 查花猪 flower pig: every non-won player still holding a void-suit tile pays every other non-won player
    max(8000, that player's max value if tenpai), whether or not anyone is tenpai. Two flower pigs pay each
    other 8000. A flower pig takes no part in 查大叫.
B-23 查大叫: every non-tenpai non-won player who is not a flower pig pays every tenpai non-won player that player's
    max value. Worked example (source 001): A tenpai for 16000, B tenpai for 4000, C not tenpai, D shaped tenpai
    but holds a void tile. C pays A 16000 and B 4000; D pays A 16000, B 8000, C 8000. Net: A +32000, B +12000, C
    −12000, D −32000.
B-24 Recommended exchange: the suit with the fewest tiles among suits with at least 3; if exactly 3, those 3; if
    more, avoid giving pairs, sequences or triplets, then prefer edge tiles over middle tiles. Recommended void:
    the suit with the fewest tiles.
B-25 A disconnected player uses B-24, never calls, and discards the drawn tile (keeping void tiles). The game's
    CPU uses B-24, never pons or open-kans but does closed kans, discards void tiles first, and never passes a
    win.
R-1 136 tiles with three red fives (0m 0p 0s), 14-tile dead wall, dora indicator + ura, kan dora (closed kan:
    flipped at once; open/added kan: flipped after the kan player's discard), at most 5 indicators.
R-2 4 players, 25000 start; East-only match (东风战): hands E1-E4 with renchan when the dealer wins or is tenpai at
    exhaustive draw, honba 300 per count (100 from each payer on tsumo), riichi stick 1000. If nobody has 30000
    after E4, the match extends into South hands, ending as soon as someone reaches 30000 (sudden death) or
    after S4. A player below 0 ends the match (bust). Unclaimed riichi sticks at the end go to first place. Ties
    broken by seat order.
R-3 Yaku, fu and limits as in Mahjong Soul ranked play: open tanyao, red fives, kazoe yakuman at 13 han, no
    kiriage mangan, double yakuman for 四暗刻单骑, 国士无双十三面, 纯正九莲宝灯, 大四喜; yakuman stack; red fives count as dora only
    on a hand that has a yaku; pao for 大三元/大四喜; nagashi mangan; multiple ron allowed (up to 3; 3 ron is not an
    abortive draw in Mahjong Soul).
R-4 Furiten (permanent, temporary and riichi furiten), riichi needs ≥1000 points and ≥4 tiles left in the wall,
    ippatsu, double riichi, haitei/houtei, rinshan, chankan (kokushi may rob a closed kan).
R-5 Abortive draws: nine terminals (player's choice), four winds, four riichi, four kans by more than one
    player. Dealer keeps the deal, honba +1.
R-6 Exhaustive draw: noten penalty 3000 split (1000/1500/3000), nagashi mangan paid as a mangan tsumo.
S-1 East-only, exactly 4 hands plus replays of abortive draws; no renchan, no honba, no extension. 25000 start.
S-2 Exchange three: each player chooses any 3 tiles; direction random as in B-6. The first dora indicator is
    revealed after the exchange.
S-3 Bloodbath: after a win the winner's hand is hidden and points settle at once; the hand continues until 3
    players have won or the wall is exhausted. A won player takes no further part (no draws, discards, payments,
    receipts). A bust ends the match at once.
S-4 A win acts like a call: it cancels other players' ippatsu, double riichi chance, 地和 (chiho) and
    nine-terminals chance (with a multiple ron, each winner's own ippatsu still counts). After a ron, play
    continues with the next non-won player after the winner (multiple ron: after the winner farthest from the
    discarder); after a robbed kan, with the next non-won player after the robbed player.
S-5 Tsumo loss (自摸损): on a tsumo (and on nagashi mangan), only non-won players pay their normal share; shares of
    won players are not paid and not redistributed. Example: non-dealer yakuman tsumo with the dealer already
    won and two others not: 32000 − 16000 = 16000. Ron pays in full.
S-6 Exhaustive draw with fewer than 3 winners: among non-won players, the noten ones pay a total of (number of
    non-won players − 1) × 1000, split equally among them, and that total is split equally among the tenpai
    non-won players (sources 000 and 001; the in-game text 002 says "1000 to each tenpai player" — option
    `noten_rule = split|each`, default `split`). Nothing is paid if all or none are tenpai. Nagashi mangan
    settles by S-5.
S-7 No renchan: after 3 wins or an exhaustive draw the next hand starts with the next dealer, 0 honba. An
    abortive draw (R-5) replays the same hand number with the same dealer; payments made before it stand.
S-8 Four-riichi abortion needs four players simultaneously in riichi; a riichi player who has won no longer
    counts.
S-9 Riichi still needs ≥4 tiles left in the wall, whatever the number of winners.
S-10 Riichi declaration tile dealt in: after paying, if the declarer has ≥1000 points the riichi stands (stick
    paid; no ippatsu for it; double riichi stays double riichi); if below 1000 but not below 0 the riichi fails,
    the tile counts as a normal discard and the player may keep changing their hand; if below 0 the match ends.
S-11 Robbing a kan: after the ron settles, the kan stands, a new dora indicator is flipped, and the robbed
    player takes the replacement draw. Rob on the fourth kan that would abort the hand (four kans): settle the
    rob, then abort and replay if fewer than 3 have won.
S-12 An open-kan rinshan tsumo: after it settles, if fewer than 3 have won, flip a new kan dora indicator, then
    the winner's next player draws.
S-13 Riichi sticks on the table go to the next winner; with a multiple ron, to the winner nearest the discarder.
S-14 No pao for 大三元 / 大四喜.
S-15 A ron on any discard of a player who is on course for nagashi mangan cancels it.
S-16 Recommended exchange (used by `majsoul-cpu` and `disconnected`): isolated tiles before partial sets before
    pairs/triplets; among isolated tiles: guest winds > dragons > terminals > seat/round winds > middle tiles;
    when partial sets must be broken: 13/79 kanchan > edge waits > other kanchan > two-sided.
DF 3 dora indicators (and 3 ura) at the start; kans add indicators up to 5 in all, then none. No renchan.
    Starting points: option `start_points`, default 25000 (source 001 says "otherwise like the usual no-renchan
    East game"; the community re-implementation uses 35000).
A From the first draw after the dealer's first discard, the next 3 wall tiles are revealed face up as
    candidates, visible to all. Every draw (normal or replacement) is a choice of 1 of the candidates after
    refilling the pool to 3 from the wall (a replacement draw adds the dead-wall tile to the pool). The chosen
    tile counts as drawn from the wall or the dead wall for every yaku (tenhou/chiho, ippatsu, rinshan; the last
    candidate taken counts as haitei). When the live wall (excluding candidates) holds 3 tiles or fewer, the
    pool is no longer refilled and no one may kan; the hand ends in exhaustive draw when a draw is due and the
    pool is empty. Renchan as R-2.
D When discarding, a player with ≥1000 points may pay 1000 to discard face down (暗牌); riichi with a face-down
    declaration tile needs ≥2000. A face-down tile cannot be called or ronned and causes no furiten for anyone.
    The other three each decide at once whether to pay 2000 to open it; if several do, the first in turn order
    after the discarder pays. An opened tile is a normal discard (callable, ronnable, furiten). When a tile is
    opened the discarder may pay 4000 to lock it face down for good. All these payments go to the pot, which the
    next winner takes (multiple ron: the winner first in turn order after the discarder); unclaimed pot goes to
    first place at match end. Nagashi mangan looks only at face-up discards; all face-down qualifies. Renchan as
    R-2.
M Of each of the 34 tile kinds, 3 copies are transparent (everyone sees where they are: in hands and in the
    wall) and 1 is normal; no red fives. No renchan. Option `head_bump` (default on, as the community
    re-implementation does): on a multiple ron only the claimant first in turn order after the discarder wins.
F 50000 start. The first 4 tiles of each player's deal are open (visible to all). A player's multiplier is 1 +
    the number of open tiles (their own, from the deal) still in their hand or melds; on a ron the winning tile
    and tiles taken by calls from others do not count. Every win pays (normal points × multiplier) + sticks. No
    renchan.
C Over the hand, the longest run of consecutive tsumogiri discards (discarding the tile just drawn) of
    3/5/7/9/12 gives 1/2/3/5/12 bonus han, and the longest run of consecutive hand discards of 3/6/9/12/18 gives
    1/2/3/5/12 bonus han; both bonuses add. Bonus han are not a yaku (a yakuless hand still cannot win) and do
    not apply to yakuman. Renchan as R-2.
SS Riichi is 2 han, double riichi 3 han. Right after declaring riichi the player takes up to 6 consecutive
    draw-discard turns of their own (the others do not draw in between but may ron or call each discard; fewer
    if the wall runs out); every tsumo in them counts as ippatsu, and a closed kan on the 6th draw adds one more
    turn. After the 6 turns, or at once if one of those discards (the declaration tile included) is called or
    ronned, the player is overloaded: every ron on an overloaded player's discard gives each winner +2 han
    (not a yaku: a yakuless hand cannot ron them). Tsumo by others is unaffected. Renchan as R-2.
FL Before the match one card is drawn from each deck and applies for the whole match. Dealer cards: 风纪 dealer
    may ron only in riichi or with an open hand; 永夜 dealer renchan adds 5 honba, a non-renchan exhaustive draw
    adds 1; 没收 at a draw all sticks on the table go to the dealer; 炒作 each dealer pon/kan flips an extra dora
    indicator (at most 4 extra); 赠品 dealer ron gets +1000 per dora. Chance cards: 里世界 riichi wins ignore face-up
    dora (red fives still count) and double ura dora; 三倍速 ippatsu lasts 3 go-arounds; 金闪闪 dora indicators are
    dora too; 超断幺 tanyao is 3 han; 胜负手 riichi 2 han, ippatsu 2 han, double riichi 4 han. Fate cards: 夸大其词 noten
    penalty and nagashi mangan doubled; 过度准备 riichi costs 2000; 厄运沙漏 each discard after riichi cuts 300 from
    that player's win; 暗中交易 each chi/pon/open kan pays 500 to the discarder; 爱的代价 calling another's dora costs
    2000 to the pot. Renchan as R-2 (modified by the cards). Fantasy card details that differ between sources
    follow source 001 (e.g. 风纪 forbids a closed non-riichi dealer ron; 永夜 adds 5 honba on dealer renchan and 1
    on a non-renchan draw).
DE At the start of each hand an "eye" is placed on a random seat with a counter of 5; each discard by the holder
    lowers it by 1; at 0 a new eye goes to a random seat at the next draw or call. Every win payment between the
    holder and another player is doubled (the holder wins ×2 or pays ×2); honba, sticks, noten and nagashi
    payments are not. 40000 start and 3 dora indicators from the start (re-implementation defaults). No renchan.
    Wareme-style: source 001 gives only the name, so this follows the community re-implementation and every
    number is an option.
OD Standard riichi with the option that players' starting hands are shown (the game's 配牌明牌 mode).
"""


def _parse(text: str) -> dict[str, str]:
    rules, current = {}, None
    for line in text.splitlines():
        if not line.strip():
            continue
        if line[0].isspace():
            rules[current] += " " + line.strip()
        else:
            current, _, body = line.partition(" ")
            rules[current] = body.strip()
    return rules


RULE_TEXT: dict[str, str] = _parse(_TEXT)
"""rule id → its text"""
