"""Test-only glue: replay simulated tsumolab hands in the community replay editor (majsoul-replay-editor).

The editor is not part of tsumolab: its checkout is named by TSUMOLAB_EDITOR_DIR and driven by
tests/editor_bridge.js under Node. Each hand is translated from tsumolab's own `tsumolab replay --json` log
(analyzer.replay.match) into the editor's operations: the four starting hands (the dealer's with its first draw),
the wall after the deal in the editor's layout (live tiles from the front, replacement tiles from the back, dora
indicator i at len - 5 - 2i and its ura at len - 6 - 2i), then `mopai` / `qiepai` / `mingpai` / `zimingpai` /
`hupai` / `huangpai` / `liuju` in the log's order, with the mode's flags in `detail_rule`. The editor computes
every win's han and fu and every seat's delta; `compare_match` sets them against tsumolab's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tsumolab.sims.riichi.rules import FANTASY_SLUGS
from tsumolab.sims.tiles import tile_name
from tests.replay_reader import hands_of, tiles_of

BRIDGE_JS = Path(__file__).with_name("editor_bridge.js")
NODE = shutil.which("node") or "/usr/bin/node"

# tsumolab mode → the editor's detail_rule flags (the editor's own names)
MODE_FLAGS = {
    "riichi": {}, "fate": {"tianming_mode": True}, "chant": {"yongchang_mode": True},
    "soul-strike": {"hunzhiyiji_mode": True}, "dora-fever": {"dora3_mode": True},
    "open-deal": {"begin_open_mode": True}, "dragon-eye": {"muyu_mode": True}, "mirror": {"jiuchao_mode": True},
    "astrology": {"zhanxing": True}, "darkness": {"reveal_discard": True}, "shura": {"xuezhandaodi": True},
    "fantasy": {},
}
TABLE = -1  # the riichi-stick pile / darkness pot in tsumolab's payments
# payments the editor takes straight from the scores during the hand, not in its settlement's delta_scores
SET_ASIDE = {"riichi_stick", "face_down", "dark_open", "dark_lock", "fl_shady_deal", "fl_love_price"}
FALSE_WIN = 9000  # the editor's fan id of a false win (诈和)
# the editor's exchange types (huanpai) by (receiver - giver) % 4
EXCHANGE_TYPES = {1: 0, 2: 1, 3: 2}
# the editor's abortive-draw codes (liuju types) for tsumolab's hand ends
ABORT_TYPES = {"nine_terminals": 1, "four_winds": 2, "four_kans": 3, "four_riichi": 4, "three_wins": 5}


def editor_dir() -> Path | None:
    """The editor checkout, or None when TSUMOLAB_EDITOR_DIR is unset or holds no bundle (main.js)."""
    path = os.environ.get("TSUMOLAB_EDITOR_DIR")
    if not path or not (Path(path) / "main.js").is_file():
        return None
    return Path(path)


def skip_reason() -> str | None:
    if not os.environ.get("TSUMOLAB_EDITOR_DIR"):
        return "TSUMOLAB_EDITOR_DIR is unset (a checkout of Fat-pig-Cui/majsoul-replay-editor)"
    if editor_dir() is None:
        return f"no main.js in TSUMOLAB_EDITOR_DIR={os.environ['TSUMOLAB_EDITOR_DIR']}"
    if not Path(NODE).exists():
        return "node is not installed"
    return None


def editor_tile(name: str) -> str:
    """tsumolab's JSON tile name → the editor's (red fives 0m/0p/0s)."""
    return "0" + name[1] if name.endswith("r") else name


@dataclass
class HandJob:
    """One hand: the editor's input (`job`) and tsumolab's results to compare with."""
    seed: int
    match: int
    hand: int
    job: dict
    wins: list[dict]  # tsumolab's hora events
    deltas: list[int]  # per seat, riichi deposits left out (the editor shows them in the scores, not the deltas)
    end: str
    events: list[dict] = field(default_factory=list)  # the hand's JSON events


def hand_jobs(variant: str, seed: int, match: int, events: list[dict]) -> list[HandJob]:
    """The editor jobs of one match's JSON events (`tsumolab replay --json`)."""
    jobs = []
    table = 0  # points on the table (riichi sticks, darkness pot) at the hand's start: the editor's liqibang
    for hand in hands_of(events):
        jobs.append(_hand_job(variant, seed, match, hand, table))
        for e in hand:
            if e["type"] == "payment":
                table += (e["to"] == TABLE) * e["amount"] - (e["from"] == TABLE) * e["amount"]
    return jobs


class _Hands:
    """The seats' concealed tiles in the editor's names, for fate (F), where the first 4 tiles of each deal carry
    the editor's special-tile suffix `t`, and mirror (M), where every transparent copy carries it: which copy a
    discard or call gives up (tsumolab keeps fate's open copies as long as it holds other copies: a discard, a call
    or the exchange gives up a plain copy first; mirror gives up a transparent copy first)."""

    def __init__(self, begin: list[list[str]], marked_first: bool = False):
        self.held = [Counter(b) for b in begin]
        self.marked_first = marked_first

    def add(self, seat: int, tile: str) -> None:
        self.held[seat][tile] += 1

    def give(self, seat: int, tile: str, exact: str | None = None) -> str:
        """Give up a copy of `tile`: `exact` (M: the copy drawn, on a tsumogiri) when given, else by the rule."""
        order = (tile + "t", tile) if self.marked_first else (tile, tile + "t")
        name = exact or next((n for n in order if self.held[seat][n] > 0), tile)
        self.held[seat][name] -= 1
        return name


class _MirrorWall:
    """M: the hand's wall (136 tile ids) in the editor's names, each transparent copy (id % 4 ≠ 0) marked t, and
    which copy each draw takes (live draws from the dealer's first on, replacement draws from the dead wall)."""

    def __init__(self, ids: list[int]):
        self.names = [tile_name(i // 4) + ("t" if i % 4 else "") for i in ids]
        self.live, self.rinshan = 52, 122

    def draw(self, rinshan: bool) -> str:
        if rinshan:
            self.rinshan += 1
            return self.names[self.rinshan - 1]
        self.live += 1
        return self.names[self.live - 1]


def _hand_job(variant: str, seed: int, match: int, events: list[dict], table: int) -> HandJob:
    if variant == "bloodshed":
        return _bloodshed_job(seed, match, events)
    start = events[0]
    wall = next(e for e in events if e["type"] == "wall")
    dealer = start["oya"]
    first_draw = next(e for e in events if e["type"] == "tsumo")
    assert first_draw["actor"] == dealer
    fate = variant == "fate"
    mirror = _MirrorWall(wall["ids"]) if variant == "mirror" else None
    names = mirror.names if mirror else [editor_tile(t) for t in wall["deal"] + wall["live"] + wall["rinshan"]] + \
        [editor_tile(t) for pair in zip(wall["dora_markers"], wall["ura_markers"]) for t in pair]
    begin = [[] for _ in range(4)]
    for i in range(4):  # tsumolab deals 13 in a row to each seat from the dealer on
        for j in range(13):
            begin[(dealer + i) % 4].append(names[13 * i + j] + ("t" if fate and j < 4 else ""))
    begin[dealer].append(mirror.draw(False) if mirror else editor_tile(first_draw["pai"]))
    hands = _Hands(begin, marked_first=mirror is not None)
    last_drawn = [None] * 4   # M: each seat's latest draw, the copy a tsumogiri gives up
    last_drawn[dealer] = begin[dealer][-1]
    dead = [""] * 14
    for k in range(4):
        dead[13 - k] = names[122 + k]
    for i in range(5):
        dead[9 - 2 * i], dead[8 - 2 * i] = names[126 + 2 * i], names[127 + 2 * i]
    paishan = "".join(names[53:122]) + "".join(dead)  # the first live tile is the dealer's 14th
    ops: list[list] = []
    riichi_next = False
    wins: list[dict] = []
    ron_seats: list[int] = []
    pool: list[str] = []  # astrology (A): the candidates in the editor's order
    fresh = 0  # candidates revealed since the last draw
    exchange: list[str] = []
    eyes = ""  # dragon eye (DE): the seats the eye goes to, in order
    in_hand = [0] * 4  # points each seat paid during the hand outside the editor's settlement
    end = "win"
    deltas = [0] * 4
    for e in events[1:]:
        t = e["type"]
        if e is first_draw:
            continue
        if ron_seats and t not in ("hora", "payment"):  # a multiple ron is one hupai
            ops.append(["hupai", ron_seats])
            ron_seats = []
        if t == "tsumo":
            tile = mirror.draw(e["rinshan"]) if mirror else editor_tile(e["pai"])
            hands.add(e["actor"], tile)
            last_drawn[e["actor"]] = tile
            fresh = 0
            if pool:
                at = pool.index(e["pai"])
                ops.append(["mopai", e["actor"], [at]])
                del pool[at]
            else:
                ops.append(["mopai", e["actor"], tile])
        elif t == "exchange":  # shura (S-2): one `huanpai` with the four seats' tiles and the direction
            if not exchange:
                exchange = [""] * 4
                ops.append(["huanpai", exchange, EXCHANGE_TYPES[(e["target"] - e["actor"]) % 4]])
            exchange[e["actor"]] = "".join(hands.give(e["actor"], editor_tile(p)) for p in e["pais"])
            for p in e["pais"]:
                hands.add(e["target"], editor_tile(p))
        elif t == "candidate":  # the editor adds a replacement tile to the pool before refilling it (core.ts:264)
            pool.insert(len(pool) - fresh if e["dead_wall"] else len(pool), e["pai"])
            fresh += 1
        elif t == "eye":
            eyes += str(e["actor"])
        elif t == "reach":
            riichi_next = True
        elif t == "dahai":
            seat = e["actor"]
            tile = hands.give(seat, editor_tile(e["pai"]), last_drawn[seat] if mirror and e["tsumogiri"] else None)
            # the editor marks a discard tsumogiri only when it takes the last tile of the hand, the one drawn: so
            # a tsumogiri after a `mopai` names no tile (the dealer's 14th tile is dealt, not drawn, in the editor)
            drawn = ops and ops[-1][0] == "mopai" and ops[-1][1] == seat
            ops.append(["qiepai", seat, riichi_next] if e["tsumogiri"] and drawn
                       else ["qiepai", seat, tile, riichi_next])
            riichi_next = False
        elif t in ("chi", "pon", "daiminkan"):
            consumed = [hands.give(e["actor"], editor_tile(c)) for c in e["consumed"]]
            ops.append(["mingpai", e["actor"], "".join(consumed)])
        elif t in ("ankan", "kakan"):
            for c in e.get("consumed", [e["pai"]]):
                hands.give(e["actor"], editor_tile(c))
            ops.append(["zimingpai", e["actor"], editor_tile(e["pai"]), "angang" if t == "ankan" else "jiagang"])
        elif t == "hora":
            wins.append(e)
            if e["kind"] == "tsumo":
                ops.append(["hupai", e["actor"]])
            else:
                ron_seats.append(e["actor"])
        elif t == "ryukyoku":
            ops.append(["liuju", ABORT_TYPES[e["reason"]]] if e["abortive"] else ["huangpai"])
        elif t == "payment":
            _payment(e, ops, in_hand)
        elif t == "end_kyoku":
            end = e["end"]
            deltas = [d + s for d, s in zip(e["deltas"], in_hand)]
    if ron_seats:
        ops.append(["hupai", ron_seats])
    round_no = ["E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4"].index(start["round"])
    rule = dict(MODE_FLAGS[variant])
    if "cards" in start:
        codes = [FANTASY_SLUGS[i].index(start["cards"][deck]) + 1
                 for i, deck in enumerate(("dealer", "chance", "fate"))]
        rule["field_spell_mode"] = codes[0] + 100 * codes[1] + 10000 * codes[2]
    job = {"rule": rule, "round": [round_no // 4, dealer, start["honba"], table // 1000],
           "scores": start["scores"], "begin": ["".join(b) for b in begin], "paishan": paishan, "ops": ops}
    if eyes:
        job["muyu"] = eyes
    return HandJob(seed, match, start["hand"], job, wins, deltas, end, events)


def _bloodshed_job(seed: int, match: int, events: list[dict]) -> HandJob:
    """A Bloodshed hand for the editor's `chuanma` mode: the wall is the draws in order (no dead wall, B-1), the
    exchange one `huanpai`, the voids one `dingque`, and play goes on after each win (B-12); the win that ends the
    hand is a `hupai` with the editor's end flag."""
    start = events[0]
    dealer = start["oya"]
    begin = [tiles_of(t) for t in start["tehais"]]
    draws = [e["pai"] for e in events if e["type"] == "tsumo"]
    begin[dealer].append(draws[0])
    left = Counter({f"{n}{s}": 4 for s in "mps" for n in range(1, 10)})
    left.subtract(Counter(t for b in begin for t in b) + Counter(draws[1:]))
    paishan = "".join(draws[1:]) + "".join(left.elements())
    ops: list[list] = []
    voids = [""] * 4
    exchange: list[str] = []
    wins, ron_seats = [], []
    first = True
    deltas, end = [0] * 4, "win"
    for e in events[1:]:
        t = e["type"]
        if ron_seats and t not in ("hora", "payment"):  # a multiple ron is one hupai
            ops.append(["hupai", ron_seats])
            ron_seats = []
        if t == "tsumo":
            if first:
                first = False
                continue
            ops.append(["mopai", e["actor"], e["pai"]])
        elif t == "exchange":
            if not exchange:
                exchange = [""] * 4
                ops.append(["huanpai", exchange, EXCHANGE_TYPES[(e["target"] - e["actor"]) % 4]])
            exchange[e["actor"]] = "".join(e["pais"])
        elif t == "void":
            voids[e["actor"]] = e["suit"]
            if all(voids):
                ops.append(["dingque", "".join(voids)])
        elif t == "dahai":
            ops.append(["qiepai", e["actor"], e["pai"]])
        elif t in ("pon", "daiminkan"):
            ops.append(["mingpai", e["actor"], "".join(e["consumed"])])
        elif t in ("ankan", "kakan"):
            ops.append(["zimingpai", e["actor"], e["pai"], "angang" if t == "ankan" else "jiagang"])
        elif t == "hora":
            wins.append(dict(e, han=e["fan"], fu=0))
            if e["kind"] == "tsumo":
                ops.append(["hupai", e["actor"]])
            else:
                ron_seats.append(e["actor"])
        elif t == "draw_state" and not any(o[0] == "huangpai" for o in ops):
            ops.append(["huangpai"])
        elif t == "end_kyoku":
            deltas, end = e["deltas"], e["end"]
            if end == "exhaustive" and not any(o[0] == "huangpai" for o in ops):  # no draw_state: nobody tenpai or pig
                ops.append(["huangpai"])
    if ron_seats:
        ops.append(["hupai", ron_seats])
    if ops and ops[-1][0] == "hupai":  # the win that ends the hand: the editor's RecordHuleXueZhanEnd
        ops[-1].append(True)
    job = {"rule": {"chuanma": True}, "round": [0, dealer, 0, 0], "scores": start["scores"],
           "begin": ["".join(b) for b in begin], "paishan": paishan, "ops": ops}
    return HandJob(seed, match, start["hand"], job, wins, deltas, end, events)


def _payment(e: dict, ops: list[list], in_hand: list[int]) -> None:
    """A payment during the hand: darkness's face-down discard, opening and lock become the editor's `anpai`,
    `kaipai` and `kaipaiLock`; payments the editor makes outside its win / draw settlement are set aside."""
    reason = e["reason"]
    if reason == "face_down":
        ops[-1].append("anpai")
    elif reason == "dark_open":
        ops.append(["kaipai", e["from"]])
    elif reason == "dark_lock":
        ops[-1][0] = "kaipaiLock"
    if reason in SET_ASIDE and e["from"] != TABLE:
        in_hand[e["from"]] += e["amount"]
        if e["to"] != TABLE:
            in_hand[e["to"]] -= e["amount"]


def run_editor(jobs: list[HandJob]) -> list[dict]:
    """The editor's records of every job (one Node process for all of them)."""
    env = dict(os.environ)
    text = "".join(json.dumps(j.job) + "\n" for j in jobs)
    proc = subprocess.run([NODE, str(BRIDGE_JS)], input=text, capture_output=True, text=True, env=env, check=True)
    return [json.loads(line) for line in proc.stdout.splitlines()]


@dataclass
class Difference:
    kind: str
    mode: str
    seed: int
    match: int
    hand: int
    tsumolab: object
    editor: object
    known: str | None = None  # the class of tests/editor_known_differences.py, None when unexplained

    def where(self) -> str:
        return f"{self.mode} seed {self.seed} match {self.match} hand {self.hand}"


def editor_result(out: dict) -> tuple[list[dict], list[int]]:
    """(wins as {seat, han, fu, yakuman, false_win, tiles (the editor's names), doras (indicators)}, per-seat
    deltas) of the editor's records of one hand."""
    wins, deltas = [], [0] * 4
    for rec in out.get("records", []):
        data = rec["data"]
        for h in data.get("hules", []):
            false_win = any(f["id"] == FALSE_WIN for f in h.get("fans", []))
            tiles = h.get("hand", []) + [h.get("hu_tile", "")] + [
                t for m in h.get("ming", []) for t in m[m.find("(") + 1:m.rfind(")")].split(",")]
            wins.append({"seat": h["seat"], "han": h["count"] * 13 if h.get("yiman") else h["count"],
                         "fu": h["fu"], "yakuman": bool(h.get("yiman")), "false_win": false_win,
                         "tiles": tiles, "doras": h.get("doras", [])})
        for part in (data, data.get("gang_infos") or {}):  # Bloodshed's kan payments come as gang_infos
            if "delta_scores" in part:
                deltas = [d + x for d, x in zip(deltas, part["delta_scores"])]
        for s in data.get("scores", []) if isinstance(data.get("scores"), list) else []:
            if isinstance(s, dict) and "delta_scores" in s:
                deltas = [d + x for d, x in zip(deltas, s["delta_scores"])]
            if isinstance(s, dict) and s.get("taxes"):  # Bloodshed's refund of kan money at a draw (B-21)
                deltas = [d + x for d, x in zip(deltas, s["taxes"])]
    return wins, deltas


def compare_hand(mode: str, hj: HandJob, out: dict) -> list[Difference]:
    """The differences of one hand: the winners, each win's han and fu (fu only below yakuman), the deltas; all of
    a hand's differences get the known class `classify` finds for the hand."""
    from tests.editor_known_differences import classify

    def diff(kind, ours, theirs):
        return Difference(kind, mode, hj.seed, hj.match, hj.hand, ours, theirs)

    if "error" in out:
        op = hj.job["ops"][out["at"]] if 0 <= out["at"] < len(hj.job["ops"]) else "-"
        found = [diff("editor-error", None, f"{out['error']} at {out.get('where', '?')} (op {out['at']}: {op})")]
        if "updateRet" in out.get("where", "") and op == ["huangpai"]:
            found[0].known = classify(mode, hj.events, hj.wins, [], (hj.deltas, None))
        return found
    wins, deltas = editor_result(out)
    found = []
    ours = sorted((w["actor"], w["han"], w["fu"] if w["han"] < 13 else None) for w in hj.wins)
    theirs = sorted((w["seat"], w["han"], w["fu"] if w["han"] < 13 else None) for w in wins)
    if mode == "bloodshed":  # B: fan only (no fu)
        ours, theirs = [(s, h, None) for s, h, _ in ours], [(s, h, None) for s, h, _ in theirs]
    if [s for s, _, _ in ours] != [s for s, _, _ in theirs]:
        found.append(diff("winners", ours, theirs))
    elif ours != theirs:
        found.append(diff("han-fu", ours, theirs))
    if list(deltas) != list(hj.deltas):
        found.append(diff("deltas", hj.deltas, deltas))
    if found:
        known = classify(mode, hj.events, hj.wins, wins, (hj.deltas, deltas))
        for d in found:
            d.known = known
    return found


@dataclass
class Tally:
    hands: Counter = field(default_factory=Counter)
    agreeing: Counter = field(default_factory=Counter)
    differences: list[Difference] = field(default_factory=list)

    def add(self, mode: str, hj: HandJob, found: list[Difference]) -> None:
        self.hands[mode] += 1
        if not found:
            self.agreeing[mode] += 1
        self.differences += found


def compare_match(variant: str, seed: int, match_ids, seats: str, tally: Tally, rules=()) -> Tally:
    from tests.replayed import replayed

    jobs = []
    for m in match_ids:
        events, _, _, _ = replayed(variant, seed, m, seats, tuple(rules))
        jobs += hand_jobs(variant, seed, m, events)
    for hj, out in zip(jobs, run_editor(jobs)):
        tally.add(variant, hj, compare_hand(variant, hj, out))
    return tally
