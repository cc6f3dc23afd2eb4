"""Test-only glue: replay simulated tsumolab `riichi` matches hand by hand in riichienv (an independent engine).

Every hand is dealt to `riichienv.RiichiEnv` (Mahjong Soul rule set) from tsumolab's own shuffled wall
(sims.riichi.engine.shuffled_wall, keyed by seed, match and hand), so both engines draw the same tile ids; the
hand's start state (dealer, round wind, honba, sticks, points) comes from tsumolab. tsumolab's decisions are read
from its event log and stepped one by one through riichienv, which must list each of them among its legal
actions. At the end of a hand the wins (han, fu, yaku, points), the per-seat deltas and the next-hand state
(dealer, round, honba, sticks, points, match end) are compared.

Two environments run in lockstep: a single-hand one (game mode 0) keeps its win results after the hand, and an
East-match one (game mode 1) decides the next hand's state and the match end. riichienv's MjaiReplay route is
not used (it has bugs of its own).

A difference is reported as a `Difference` whose `kind` names its class; `classify` turns the raw disagreement
into the classes of tests/riichienv_known_differences.py when the context shows which one it is.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import riichienv
from riichienv import ActionType, GameRule, Phase, RiichiEnv

from tsumolab.analyzer.tables import hand_table
from tsumolab.policies.registry import parse_seats
from tsumolab.sims import tiles
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi.columns import HAND_ENDS, ROUNDS
from tsumolab.sims.riichi.engine import shuffled_wall
from tsumolab.sims.riichi.events import (
    EV_ABORT, EV_CHI, EV_DISCARD, EV_DORA, EV_DRAW, EV_END, EV_KAN, EV_PASS, EV_PAY, EV_PON, EV_RIICHI,
    EV_START, EV_WIN,
)
from tsumolab.sims.riichi.rules import DEAL_SIZE, N_TILES
from tsumolab.sims.riichi.tableau import DEAD_START

RED_IDS = frozenset((16, 52, 88))  # the red fives, in tsumolab's tile ids and in riichienv's alike
SINGLE_HAND, EAST_MATCH = 0, 1  # riichienv game modes
NINE_TERMINALS = HAND_ENDS.index("nine_terminals")
RON, TSUMO = 1, 2  # EV_WIN c
SILENT = (EV_PAY, EV_RIICHI, EV_PASS, EV_DORA)  # events that carry no decision of their own

# riichienv's English yaku names that differ from tsumolab's (sims.riichi.yaku); dora kinds are compared as han
_YAKU_RENAME = {
    "Dai Sangen": "Daisangen", "Su Ankou": "Suu Ankou", "Su Ankou Tanki": "Suu Ankou Tanki",
    "Tsuu iisou": "Tsuu Iisou", "Ryuu iisou": "Ryuuiisou", "Sho Suusi": "Shousuushii", "Dai Suusi": "Dai Suushii",
    "Su Kantsu": "Suu Kantsu", "Junsei Chuuren Poutou": "Daburu Chuuren Poutou",
    "Kokushi Musou 13-men": "Kokushi Musou Juusanmen Matchi",
}
_DORA_NAMES = {"Dora", "Aka Dora", "Ura Dora", "Nuki Dora"}
RIICHIENV_YAKU = {y.id: _YAKU_RENAME.get(y.name_en, y.name_en) for y in riichienv.get_all_yaku()}


def riichienv_wall(wall: np.ndarray) -> list[int]:
    """riichienv's wall order for tsumolab's shuffled wall: riichienv deals 4-4-4-1 from the front of its list
    and draws on from there, takes replacement tiles from the back (135, 134, ...) and shows indicator i at
    131 - 2i with its ura at 130 - 2i; tsumolab deals 13 in a row per seat, draws from 52, takes replacement
    tiles from DEAD_START (122, 123, ...) and shows indicator i at 126 + 2i with its ura at 127 + 2i."""
    out = [-1] * N_TILES
    for seat in range(4):  # seats counted from the dealer
        deal = wall[seat * DEAL_SIZE:(seat + 1) * DEAL_SIZE]
        slots = [16 * block + 4 * seat + j for block in range(3) for j in range(4)] + [48 + seat]
        for slot, tile in zip(slots, deal):
            out[slot] = int(tile)
    out[4 * DEAL_SIZE:DEAD_START] = [int(t) for t in wall[4 * DEAL_SIZE:DEAD_START]]
    for k in range(4):
        out[N_TILES - 1 - k] = int(wall[DEAD_START + k])
    for i in range(5):
        out[131 - 2 * i] = int(wall[DEAD_START + 4 + 2 * i])
        out[130 - 2 * i] = int(wall[DEAD_START + 5 + 2 * i])
    assert sorted(out) == list(range(N_TILES))
    return out


@dataclass
class Difference:
    kind: str
    match: int
    hand: int
    seat: int
    detail: str

    def where(self) -> str:
        return f"match {self.match} hand {self.hand} seat {self.seat}"


@dataclass
class Tally:
    matches: int = 0
    hands: int = 0
    hands_compared: int = 0  # hands replayed to their end without an illegal action
    actions: int = 0  # legal actions stepped: tsumolab's decisions and the passes of the other seats asked
    wins: int = 0
    wins_agreed: int = 0
    hands_agreed: int = 0
    differences: list[Difference] = field(default_factory=list)

    def kinds(self) -> Counter:
        return Counter(d.kind for d in self.differences)

    def add(self, other: "Tally") -> None:
        for name in ("matches", "hands", "hands_compared", "actions", "wins", "wins_agreed", "hands_agreed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.differences += other.differences


class IllegalAction(Exception):
    def __init__(self, kind: str, seat: int, detail: str):
        super().__init__(detail)
        self.kind, self.seat, self.detail = kind, seat, detail


def _kinds(action) -> list[int]:
    return sorted(t // 4 for t in action.consume_tiles)


def _has_red(action) -> bool:
    return any(t in RED_IDS for t in action.consume_tiles)


class HandReplay:
    """One hand stepped through riichienv: `run(events)` raises IllegalAction at the first tsumolab decision that
    riichienv does not allow."""

    def __init__(self, rule, start: dict, wall_ids: list[int]):
        self.envs = [RiichiEnv(game_mode=mode, rule=rule) for mode in (SINGLE_HAND, EAST_MATCH)]
        self.obs = {}
        for env in self.envs:
            self.obs = env.reset(oya=start["dealer"], wall=wall_ids, round_wind=start["round"] // 4,
                                 scores=list(start["points"]), honba=start["honba"], kyotaku=start["sticks"])
        self.env = self.envs[0]
        self.actions = 0

    def _legal(self, seat: int) -> list:
        if seat not in self.obs:
            return []
        return self.obs[seat].legal_actions()

    def _step(self, chosen: dict) -> None:
        for seat in self.obs:
            if seat not in chosen:  # every other seat asked to respond passes
                passes = [a for a in self._legal(seat) if a.action_type == ActionType.Pass]
                chosen[seat] = passes[0]
        self.actions += len(chosen)
        obs = None
        for env in self.envs:
            obs = env.step(chosen)
        self.obs = obs

    def _pick(self, seat: int, what: str, options: list):
        if not options:
            raise IllegalAction(f"illegal:{what}", seat, f"{what} not among {self._legal(seat)}")
        return options[0]

    def _turn_action(self, seat: int, what: str, wanted, order=None) -> None:
        if self.env.phase != Phase.WaitAct or self.env.current_player != seat:
            raise IllegalAction(f"illegal:{what}", seat, f"{what} by seat {seat} while riichienv waits for "
                                f"{self.env.phase} of {list(self.obs)}")
        options = sorted((a for a in self._legal(seat) if wanted(a)), key=order or (lambda a: 0))
        self._step({seat: self._pick(seat, what, options)})

    def run(self, events: list[tuple]) -> None:
        done = set()
        for i, (_m, _h, kind, seat, tile, a, b, c) in enumerate(events):
            if kind == EV_DORA:
                shown = self.env.dora_indicators
                if len(shown) >= a and shown[a - 1] // 4 != tile:
                    raise IllegalAction("sync:dora", -1, f"indicator {a}: tsumolab {tiles.tile_name(tile)}, "
                                        f"riichienv {shown}")
                continue
            if i in done or kind in SILENT or kind == EV_START or kind == EV_END:
                continue
            if kind == EV_DRAW:
                drawn = self.env.drawn_tile
                if self.env.current_player != seat or drawn is None or drawn // 4 != tile or \
                        (drawn in RED_IDS) != bool(c & 2):
                    raise IllegalAction("sync:draw", seat, f"tsumolab draws {tiles.tile_name(tile)}, riichienv "
                                        f"{drawn} for seat {self.env.current_player}")
                continue
            if kind == EV_DISCARD:
                if b:
                    self._turn_action(seat, "riichi", lambda x: x.action_type == ActionType.Riichi)
                drawn = self.env.drawn_tile
                self._turn_action(seat, "dahai", lambda x, tile=tile, c=c: x.action_type == ActionType.Discard and
                                  x.tile // 4 == tile and (x.tile in RED_IDS) == bool(c),
                                  lambda x, drawn=drawn, a=a: (x.tile == drawn) != bool(a))  # drawn copy first
            elif kind == EV_KAN and a in (tiles.ANKAN, tiles.KAKAN):
                want = ActionType.Ankan if a == tiles.ANKAN else ActionType.Kakan
                self._turn_action(seat, "ankan" if a == tiles.ANKAN else "kakan",
                                  lambda x, want=want, tile=tile: x.action_type == want and
                                  (x.tile // 4 == tile if x.tile is not None else tile in _kinds(x)))
            elif kind == EV_WIN and c == TSUMO:
                self._turn_action(seat, "tsumo", lambda x: x.action_type == ActionType.Tsumo)
            elif kind == EV_ABORT and a == NINE_TERMINALS:
                self._turn_action(seat, "nine_terminals", lambda x: x.action_type == ActionType.KyushuKyuhai)
            elif kind == EV_ABORT:
                continue  # four winds, four riichi, four kans: riichienv ends the hand by itself
            elif kind in (EV_CHI, EV_PON, EV_KAN, EV_WIN):
                raise IllegalAction(f"illegal:{_call_word(kind, a, c)}", seat,
                                    f"{_call_word(kind, a, c)} on {tiles.tile_name(tile)} with no discard or kan "
                                    f"to answer (riichienv: {self.env.phase} of {list(self.obs)})")
            if self.env.phase == Phase.WaitResponse and not self.env.is_done:
                done |= self._respond(events, i + 1)

    def _respond(self, events: list[tuple], start: int) -> set[int]:
        """Answer riichienv's call for responses with what tsumolab did next; returns the events used."""
        used: set[int] = set()
        chosen: dict = {}
        for j in range(start, len(events)):
            _m, _h, kind, seat, tile, a, b, c = events[j]
            if kind in SILENT:
                continue
            if kind == EV_WIN and c == RON:
                ron = self._pick(seat, "ron", [x for x in self._legal(seat) if x.action_type == ActionType.Ron])
                chosen[seat] = ron
                used.add(j)
                continue
            if chosen:
                break
            if kind == EV_CHI:
                run = [tile, tile + 1, tile + 2]
                run.remove(a)
                options = [x for x in self._legal(seat) if x.action_type == ActionType.Chi and _kinds(x) == run]
            elif kind == EV_PON:
                options = [x for x in self._legal(seat) if x.action_type == ActionType.Pon]
            elif kind == EV_KAN and a == tiles.MINKAN:
                options = [x for x in self._legal(seat) if x.action_type == ActionType.Daiminkan]
            else:
                break
            options = [x for x in options if _has_red(x) == bool(c & 2)]  # c & 2: a red five from the hand
            chosen[seat] = self._pick(seat, _call_word(kind, a, 0), options)
            used.add(j)
            break
        self._step(chosen)
        return used


def _call_word(kind: int, a: int, c: int) -> str:
    if kind == EV_KAN:
        return {tiles.MINKAN: "daiminkan", tiles.ANKAN: "ankan", tiles.KAKAN: "kakan"}[a]
    if kind == EV_WIN:
        return "ron" if c == RON else "tsumo"
    return {EV_CHI: "chi", EV_PON: "pon"}[kind]


def _tsumolab_yaku(names: str) -> set[str]:
    out = set()
    for name in filter(None, names.split(",")):
        if name.startswith("Yakuhai (seat wind"):
            name = "Yakuhai (seat wind)"
        elif name.startswith("Yakuhai (round wind"):
            name = "Yakuhai (round wind)"
        out.add(name)
    return out


def _riichienv_win(result, dealer_won: bool) -> dict:
    yaku = {RIICHIENV_YAKU.get(y, f"id{y}") for y in result.yaku} - _DORA_NAMES
    if result.ron_agari:
        value = result.ron_agari
    elif dealer_won:
        value = 3 * result.tsumo_agari_ko
    else:
        value = result.tsumo_agari_oya + 2 * result.tsumo_agari_ko
    return {"han": result.han, "fu": result.fu, "yaku": yaku, "value": value, "yakuman": result.yakuman}


def compare_wins(replay: HandReplay, rows: list[dict], diff) -> tuple[int, int]:
    """Compare every win of the hand; returns (wins, wins agreed)."""
    results = replay.env.win_results
    winners = [r for r in rows if r["won"]]
    if sorted(results) != sorted(r["seat"] for r in winners):
        diff("win:winners", -1, f"tsumolab winners {[r['seat'] for r in winners]}, riichienv {sorted(results)}")
        return len(winners), 0
    agreed = 0
    for r in winners:
        theirs = _riichienv_win(results[r["seat"]], r["dealer"])
        # riichienv's values include the honba bonus the winner receives, as win_points does (sticks aside)
        ours = {"han": r["han"], "fu": r["fu"], "yaku": _tsumolab_yaku(r["yaku"] or ""),
                "value": r["win_points"] - 1000 * r["sticks_won"]}
        wrong = [k for k in ("yaku", "value") if ours[k] != theirs[k]]
        if not r["yakuman"]:  # a yakuman's han and fu are conventions; its yaku and value are compared
            wrong = [k for k in ("han", "fu") if ours[k] != theirs[k]] + wrong
        if wrong:
            diff("win:" + wrong[0], r["seat"], f"tsumolab {ours}, riichienv {theirs}")
        else:
            agreed += 1
    return len(winners), agreed


def simulate(seed: int, match_ids, seats_spec: str):
    """tsumolab's hands table and event rows of the riichi matches."""
    mode = get_mode("riichi")
    seats = parse_seats(seats_spec)
    hand_rows, _match_rows, events = mode.simulate_events(seed, np.asarray(match_ids, np.int64), seats)
    return hand_table(hand_rows, seats, mode), events


def compare(seed: int, match_ids, seats_spec: str) -> Tally:
    """Replay every hand of the matches in riichienv and tally agreements and differences."""
    hands, events = simulate(seed, match_ids, seats_spec)
    rule = GameRule.default_mjsoul()
    by_hand: dict[tuple[int, int], list[tuple]] = {}
    for row in events.tolist():
        by_hand.setdefault((row[0], row[1]), []).append(tuple(row))
    rows_of: dict[tuple[int, int], list[dict]] = {}
    for r in hands.sort(["match_id", "hand", "seat"]).iter_rows(named=True):
        rows_of.setdefault((r["match_id"], r["hand"]), []).append(r)
    tally = Tally()
    wall = np.empty(N_TILES, np.int64)
    n_hands: dict[int, int] = Counter(m for (m, _h) in rows_of)
    for match_id in match_ids:
        tally.matches += 1
        for hand_no in range(1, n_hands[int(match_id)] + 1):
            tally.add(compare_hand(rule, seed, int(match_id), hand_no, rows_of, by_hand[match_id, hand_no], wall))
    return tally


def _start_state(rows: list[dict]) -> dict:
    dealer = next(r["seat"] for r in rows if r["dealer"])
    return {"dealer": dealer, "round": ROUNDS.index(rows[0]["round"]),
            "honba": rows[0]["honba"], "sticks": rows[0]["sticks_before"],
            "points": [r["points_before"] for r in rows]}


def compare_hand(rule, seed: int, match_id: int, hand_no: int, rows_of: dict, events: list[tuple],
                 wall: np.ndarray) -> Tally:
    tally = Tally(hands=1)
    rows = rows_of[match_id, hand_no]
    start = _start_state(rows)

    def diff(kind: str, seat: int, detail: str) -> None:
        tally.differences.append(classify(Difference(kind, match_id, hand_no, seat, detail), replay, rows, events))

    shuffled_wall(seed, match_id, hand_no, wall)
    replay = HandReplay(rule, start, riichienv_wall(wall))
    try:
        replay.run(events)
    except IllegalAction as e:
        tally.actions = replay.actions
        diff(e.kind, e.seat, e.detail)
        return tally
    tally.actions = replay.actions
    tally.hands_compared = 1
    n_before = len(tally.differences)
    single, east = replay.envs
    if not single.is_done:
        diff("hand:not_ended", -1, f"riichienv still plays (phase {single.phase}, active {list(replay.obs)})")
        return tally
    tally.wins, tally.wins_agreed = compare_wins(replay, rows, diff)
    ours_after = [r["points_before"] + r["delta"] for r in rows]
    deltas = [p - q for p, q in zip(single.scores(), start["points"])]
    if deltas != [r["delta"] for r in rows]:
        diff("hand:deltas", -1, f"tsumolab {[r['delta'] for r in rows]}, riichienv {deltas}")
    elif single.riichi_sticks != rows[0]["sticks_after"]:
        diff("hand:sticks", -1, f"tsumolab {rows[0]['sticks_after']}, riichienv {single.riichi_sticks}")
    nxt = rows_of.get((match_id, hand_no + 1))
    if (nxt is None) != bool(east.is_done):
        diff("hand:match_end", -1, f"tsumolab {'ends' if nxt is None else 'goes on'}, riichienv "
             f"{'ends' if east.is_done else 'goes on'} (points {ours_after})")
    elif nxt is not None:
        ours = _start_state(nxt)
        theirs = {"dealer": east.oya, "round": 4 * east.round_wind + east.oya, "honba": east.honba,
                  "sticks": east.riichi_sticks, "points": list(east.scores())}
        if len(tally.differences) > n_before:  # the points already differ: the rest of the state is compared
            theirs["points"] = ours["points"]
        if ours != theirs:
            diff("hand:next_state", -1, f"tsumolab {ours}, riichienv {theirs}")
    if len(tally.differences) == n_before:
        tally.hands_agreed = 1
    tally.differences[n_before:] = classify_hand(tally.differences[n_before:], rows)
    return tally


def classify(d: Difference, replay: "HandReplay", rows: list[dict], events: list[tuple]) -> Difference:
    """Name the class of a raw difference when its context shows it (tests/riichienv_known_differences.py)."""
    env = replay.env
    if d.kind == "illegal:dahai" and env.riichi_declared[d.seat] and env.drawn_tile in RED_IDS:
        d.kind = "red-five-after-riichi"
    elif d.kind == "illegal:ron" and env.phase == Phase.WaitAct:
        if any(a.action_type in (ActionType.Kakan, ActionType.Ankan) for a in replay._legal(env.current_player)):
            d.kind = "robbed-kan-not-logged"
    elif d.kind == "illegal:ron" and env.missed_agari_doujun[d.seat]:
        d.kind = "yakuless-furiten"
    elif d.kind == "hand:deltas" and rows[0]["hand_end"] == "exhaustive" and not any(r["won"] for r in rows):
        d.kind = "tenpai-at-draw"  # the two engines disagree on who is tenpai
    elif d.kind == "hand:match_end" and rows[0]["round"].startswith("S"):
        d.kind = "extension-renchan"
    return d


def classify_hand(diffs: list[Difference], rows: list[dict]) -> list[Difference]:
    """One difference for a multiple ron whose winners' points differ only by where the deposits went (R-3):
    a winner's value, the deltas, the next hand's points (and a bust that follows) are one cause."""
    rons = [r for r in rows if r["won"] and r["win_kind"] == "ron"]
    consequences = {"win:value", "hand:deltas", "hand:next_state", "hand:match_end"}
    if len(rons) >= 2 and diffs and {d.kind for d in diffs} <= consequences:
        detail = "; ".join(f"{d.kind} {d.detail}" for d in diffs)
        return [Difference("multiple-ron-deposits", diffs[0].match, diffs[0].hand, -1, detail)]
    return diffs
