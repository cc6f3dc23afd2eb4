"""Positions of the riichi modes from one seat's view (analyzer.advise.riichi_position): a simulated decision written
as the seat's mjai events and rebuilt through the engine gives the seat the same observation (riichi, shura, fate,
open-deal and mirror with what they show, astrology with its pool, dragon-eye with its eyes, fantasy with its
cards, darkness with what it hides), raw mjai logs are read, bad documents are refused with one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tsumolab.analyzer.advise.bloodshed_position import PositionError
from tsumolab.analyzer.advise.riichi_position import (
    build_position, match_cards, position_document, read_document, seat_view_events,
)
from tsumolab.policies.registry import parse_seats
from tsumolab.sims.modes import get_mode
from tsumolab.sims.layout import describe
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.positions import HandContext, RiichiEngine
from tests.cli_run import run_cli

SPANS = [(name, offset, offset + width) for name, offset, width, _ in describe(ROBS)]
HIDDEN_FIELDS = {
    "rng": "the seat policy's random stream: keyed by the run's seed and hand, not game information",
}
RIICHI_WIN_FIELDS = {
    "win_han": "a seat in riichi is offered a win whose han counts the ura indicators, which are hidden",
    "win_points": "the points of that win, likewise",
}
MIXES = {"riichi": ("baseline,random,majsoul-cpu,disconnected", "majsoul-cpu,baseline,dora-keeper,random"),
         "shura": ("baseline,majsoul-cpu,random,disconnected", "dama-after-win,baseline,shura-recommended-exchange,"
                                                               "majsoul-cpu")}
SHOWN_MIXES = {"fate": ("baseline,random,majsoul-cpu,disconnected", "majsoul-cpu,baseline,dora-keeper,random"),
               "open-deal": ("majsoul-cpu,random,baseline,disconnected", "dora-keeper,baseline,random,majsoul-cpu")}
CARD_AND_EYE_MIXES = {
    "dragon-eye": ("baseline,random,majsoul-cpu,disconnected", "majsoul-cpu,baseline,dora-keeper,random"),
    "fantasy": ("baseline,random,majsoul-cpu,disconnected", "dora-keeper,majsoul-cpu,baseline,random"),
}


def compared_fields(row: np.ndarray) -> list[tuple[str, int, int]]:
    """The observation fields compared for the seat of `row`: every field but the hidden ones."""
    seat = int(row[ROBS.seat])
    skip = set(HIDDEN_FIELDS) | (set(RIICHI_WIN_FIELDS) if row[ROBS.riichi + seat] > 0 else set())
    return [span for span in SPANS if span[0] not in skip]


def view_difference(original, rebuilt) -> str | None:
    """The first observation field in which the rebuilt position's seat sees something else, or None."""
    seat = original.seat
    if rebuilt.seat != seat or rebuilt.decision != original.decision:
        return f"decision {rebuilt.seat}/{rebuilt.decision} instead of {seat}/{original.decision}"
    for label, a, b in (("view", original.view, rebuilt.view), ("obs", original.obs[seat], rebuilt.obs[seat])):
        for name, lo, hi in compared_fields(a):
            if not np.array_equal(a[lo:hi], b[lo:hi]):
                return f"{label} {name}: {a[lo:hi].tolist()[:12]} != {b[lo:hi].tolist()[:12]}"
    return None


def sampled_positions(variant: str, spec: str, seed: int, n_matches: int, per_hand: int, rules: dict | None = None):
    """(position, document) at `per_hand` random decisions of every hand of the first `n_matches` matches, played
    under the mode's rules changed by `rules` (which the documents carry, as simulated_document writes them)."""
    table = RiichiEngine(parse_seats(spec), get_mode(variant).rules_class.from_dict(rules or {}), root_seed=seed,
                         keep_events=True)
    pick = np.random.default_rng(seed)
    for match_id in range(n_matches):
        hand_no = 1
        while (full := table.play_hand(match_id, hand_no)) is not None:
            n = full.n_decisions
            for k in sorted(pick.choice(n, size=min(n, per_hand), replace=False).tolist()):
                pos = table.at_decision(match_id, hand_no, k)
                document = position_document(variant, pos, f"{variant} seed {seed} match {match_id} hand {hand_no}")
                if rules:
                    document["rules"] = {**rules, **document.get("rules", {})}
                yield pos, document
            hand_no += 1


def check_round_trips(variant: str, spec: str, seed: int, n_matches: int, per_hand: int, rules: dict | None = None,
                      seen: list | None = None) -> tuple[int, int]:
    """(decisions checked, of which after another seat's win, whose hidden hand had to be rebuilt); each
    (position, document) checked is appended to `seen` when given."""
    failures, n, after_win = [], 0, 0
    for pos, document in sampled_positions(variant, spec, seed, n_matches, per_hand, rules):
        if seen is not None:
            seen.append((pos, document))
        _, seat, _, rebuilt = build_position(json.loads(json.dumps(document)))
        assert seat == pos.seat
        difference = view_difference(pos, rebuilt)
        if difference is not None:
            failures.append(f"{document['note']} decision {pos.n_decisions}: {difference}")
        n += 1
        after_win += any(e["type"] == "hora" and e["actor"] != seat for e in document["events"])
    assert not failures, failures[:5]
    return n, after_win


SECOND_MIX = pytest.mark.slow   # the other seat mix repeats a check the fast suite makes on the first (and the
                                # slow suite's thousand decisions make on both)


@pytest.mark.parametrize("variant, mix, seed", [("riichi", 0, 3), ("shura", 0, 4),
                                                pytest.param("riichi", 1, 5, marks=SECOND_MIX),
                                                pytest.param("shura", 1, 6, marks=SECOND_MIX)])
@pytest.mark.slow
def test_rebuilt_position_shows_the_seat_what_it_saw(variant, mix, seed):
    """About 200 decisions of simulated riichi and shura matches: the document of the seat's view, rebuilt
    through the engine, gives that seat the same observation field by field (HIDDEN_FIELDS aside) and the same
    decision. In shura some of them come after other seats' wins, whose hidden hands are rebuilt at their value."""
    n, after_win = check_round_trips(variant, MIXES[variant][mix], seed, n_matches=4, per_hand=3)
    assert n >= 45
    assert after_win >= (8 if variant == "shura" else 0)


def _kept_and_given_up(document: dict) -> tuple[int, int]:
    """The other seats' discards from the hand of a tile among their open tiles not given up yet (F): (those that
    keep the open copy, those marked open_tile, which give it up)."""
    seat = document["seat"]
    still_open = [list(tiles) for tiles in document["events"][0]["fate_open"]]
    kept = given_up = 0
    for e in document["events"]:
        if e["type"] != "dahai" or e["actor"] == seat or e["tsumogiri"] or e["pai"] not in still_open[e["actor"]]:
            continue
        if e.get("open_tile"):
            given_up += 1
            still_open[e["actor"]].remove(e["pai"])
        else:
            kept += 1
    return kept, given_up


@pytest.mark.parametrize("mix, seed", [(0, 3), pytest.param(1, 5, marks=SECOND_MIX)])
def test_fate_position_shows_the_open_tiles(mix, seed):
    """F: the first 4 tiles dealt to each seat are open. The document lists them (start_kyoku fate_open) and marks
    the discards that give one up (open_tile); rebuilt, the hand gives the seat the same observation, the other
    seats' open tiles still held (fate_open, fate_red) included, though whether a hidden seat kept its open copy
    depends on its hidden tiles: at least 45 decisions, with open copies kept and given up by other seats."""
    seen: list = []
    n, _ = check_round_trips("fate", SHOWN_MIXES["fate"][mix], seed, n_matches=5, per_hand=3, seen=seen)
    assert n >= 45
    start = seen[0][1]["events"][0]
    assert all(len(h) == 4 for h in start["fate_open"])
    assert [all(t == "?" for t in h) for h in start["tehais"]] == [s != seen[0][1]["seat"] for s in range(4)]
    kept, given_up = np.sum([_kept_and_given_up(d) for _, d in seen], axis=0)
    assert kept >= 5 and given_up >= 5
    others_open = [pos.view[ROBS.fate_open + 34 * s:ROBS.fate_open + 34 * s + 34].sum() for pos, _ in seen
                   for s in range(4) if s != pos.seat]
    assert max(others_open) == 4 and min(others_open) < 4


@pytest.mark.parametrize("mix, seed", [(0, 3), pytest.param(1, 5, marks=SECOND_MIX)])
@pytest.mark.slow
def test_open_deal_position_shows_every_starting_hand(mix, seed):
    """OD: every seat's 13 starting tiles are public. The document shows all four tehais and only the other seats'
    draws stay hidden; rebuilt, the hand gives the seat the same observation, deal_shown included: at least 45
    decisions."""
    seen: list = []
    n, _ = check_round_trips("open-deal", SHOWN_MIXES["open-deal"][mix], seed, n_matches=4, per_hand=3, seen=seen)
    assert n >= 45
    for pos, document in seen:
        assert all("?" not in hand for hand in document["events"][0]["tehais"])
        assert pos.view[ROBS.deal_shown:ROBS.deal_shown + 4 * 34].sum() == 52


def _swap_out_first_discard(document: dict) -> dict:
    """The open-deal document with another seat's first discard from its hand (made before it drew twice) taken
    out of its shown tehai: every copy swapped with a tile of another kind from a third seat's tehai."""
    bad = json.loads(json.dumps(document))
    tehais = bad["events"][0]["tehais"]
    draws = [0] * 4
    for e in bad["events"]:
        if e["type"] == "tsumo":
            draws[e["actor"]] += 1
        elif e["type"] == "dahai" and e["actor"] != bad["seat"] and not e["tsumogiri"] and draws[e["actor"]] == 1:
            q, pai = e["actor"], e["pai"]
            break
    else:
        raise AssertionError("no first hand discard by another seat")
    r = next(r for r in range(4) if r not in (q, bad["seat"]))
    used_by_r = {t[:2] for e in bad["events"] if e.get("actor") == r
                 for t in [e.get("pai", ""), *e.get("consumed", [])]}
    for i, tile in enumerate(tehais[q]):
        if tile[:2] == pai[:2]:
            j = next(j for j, other in enumerate(tehais[r]) if other[:2] not in (pai[:2], *used_by_r))
            tehais[q][i], tehais[r][j] = tehais[r][j], tile
    return bad


def test_contradictory_public_deals_are_refused_with_one_line():
    """OD: a shown tehai that does not hold the tile its seat then discards from its hand, or a hidden tehai; F:
    an open tile not in the seat's own tehai, an open_tile mark on a kind the seat never had open, fate_open in
    another mode or missing: PositionError with a one-line message."""
    _, document = _first("open-deal", SHOWN_MIXES["open-deal"][0], 8,
                         lambda p, d: d["decision"] == "react" and len(d["events"]) > 20)
    assert build_position(document)[1] == document["seat"]
    assert "does not hold" in _refused(_swap_out_first_discard(document))
    bad = json.loads(json.dumps(document))
    other = (bad["seat"] + 1) % 4
    bad["events"][0]["tehais"][other] = ["?"] * 13
    assert f"hides seat {other}'s tehai" in _refused(bad)

    _, document = _first("fate", SHOWN_MIXES["fate"][0], 8,
                         lambda p, d: d["decision"] == "react" and len(d["events"]) > 20)
    seat = document["seat"]
    bad = json.loads(json.dumps(document))
    start = bad["events"][0]
    start["fate_open"][seat][0] = next(t for t in ("1z", "2z", "3z", "4z", "5z", "6z", "7z", "1m", "9m")
                                       if t not in start["tehais"][seat])
    assert "is not in its tehai" in _refused(bad)
    bad = json.loads(json.dumps(document))
    start = bad["events"][0]
    i = next(i for i, e in enumerate(bad["events"]) if e["type"] == "dahai" and e["actor"] != seat
             and not e["tsumogiri"] and e["pai"][:2] not in {t[:2] for t in start["fate_open"][e["actor"]]})
    bad["events"][i]["open_tile"] = True
    assert "no open" in _refused(bad)
    assert "belong to fate positions" in _refused(dict(document, variant="riichi"))
    bad = json.loads(json.dumps(document))
    del bad["events"][0]["fate_open"]
    assert "fate_open" in _refused(bad)


def test_raw_mjai_logs_of_fate_and_open_deal():
    """A plain mjai log cannot list fate's open tiles (F): read as fate, it is refused with one line; with
    fate_open in its start_kyoku it is read as fate. A raw open-deal log (OD) shows every tehai, so the seat must
    be given."""
    pos, document = _first("fate", SHOWN_MIXES["fate"][1], 9, lambda p, d: d["decision"] == "react")
    plain = [_as_mjai({k: v for k, v in e.items() if k not in ("fate_open", "open_tile")})
             for e in document["events"] if e["type"] not in ("payment", "pass_win")]
    with pytest.raises(PositionError) as info:
        build_position(plain, variant="fate")
    assert "plain mjai log has no such field" in str(info.value) and "\n" not in str(info.value)
    variant, seat, _, rebuilt = build_position(document["events"])
    assert (variant, seat) == ("fate", pos.seat) and view_difference(pos, rebuilt) is None

    pos, document = _first("open-deal", SHOWN_MIXES["open-deal"][1], 9, lambda p, d: d["decision"] == "react")
    with pytest.raises(PositionError) as info:
        build_position(document["events"], variant="open-deal")
    assert "give the seat" in str(info.value)
    _, seat, _, rebuilt = build_position(document["events"], variant="open-deal", seat=pos.seat)
    assert seat == pos.seat and view_difference(pos, rebuilt) is None


MIRROR_MIXES = ("mirror-reader,baseline,majsoul-cpu,random", "baseline,random,mirror-reader,mirror-reader")


def _clear_layout(wall: np.ndarray) -> tuple[list, list]:
    """Where a wall's transparent copies lie (M): per seat the kinds of its 13 dealt ones (deal order within a
    seat is not shown), then the kind at each wall position from the dealer's first draw on (-1: normal copy)."""
    kinds = np.where(wall % 4 != 0, wall // 4, -1)
    return [sorted(k for k in kinds[13 * i:13 * i + 13] if k >= 0) for i in range(4)], kinds[52:].tolist()


@pytest.mark.parametrize("mix, seed", [(0, 3), pytest.param(1, 5, marks=SECOND_MIX)])
@pytest.mark.slow
def test_mirror_position_shows_the_transparent_tiles(mix, seed):
    """M: three copies of every kind are transparent wherever they lie. The document lists each seat's transparent
    starting tiles (mirror_tehais) and the wall's by position (mirror_wall, "?" for a normal copy), and another
    seat's draw of a transparent copy shows its tile; rebuilt, the wall holds its transparent copies exactly where
    the original did, and the seat gets the same observation, the mirror block (every hand's transparent tiles,
    the live wall's in draw order, the dead wall's) included: at least 45 decisions."""
    seen: list = []
    n, _ = check_round_trips("mirror", MIRROR_MIXES[mix], seed, n_matches=5, per_hand=3, seen=seen)
    assert n >= 45
    shown_draws = hidden_draws = 0
    for pos, document in seen[::4]:
        seat = document["seat"]
        start = document["events"][0]
        assert [all(t == "?" for t in h) for h in start["tehais"]] == [s != seat for s in range(4)]
        assert sum(len(h) for h in start["mirror_tehais"]) + sum(
            t != "?" for part in start["mirror_wall"].values() for t in part) == 102
        others = [e for e in document["events"] if e["type"] == "tsumo" and e["actor"] != seat]
        shown_draws += sum(e["pai"] != "?" for e in others)
        hidden_draws += sum(e["pai"] == "?" for e in others)
        _, _, _, rebuilt = build_position(document)
        assert _clear_layout(rebuilt.wall) == _clear_layout(pos.wall)
    assert shown_draws > 2 * hidden_draws > 0  # three copies in four are transparent


def _other_draw(document: dict) -> int:
    """The index of the last event in which another seat draws a transparent copy and discards it at once."""
    events = document["events"]
    return max(i for i, (e, f) in enumerate(zip(events, events[1:])) if e["type"] == "tsumo"
               and e["actor"] != document["seat"] and e["pai"] != "?" and f["type"] == "dahai" and f["tsumogiri"])


def test_contradictory_mirror_documents_are_refused_with_one_line():
    """M: a mirror document without its transparent tiles (a plain mjai log), or with them in another mode, a red
    five, another seat's tehai shown, a seat's transparent tile missing from its own tehai, a fourth transparent
    copy, a draw that mirror_wall says is another transparent tile, a hand discard of the kind of a transparent
    copy just drawn (the engine calls it a tsumogiri): PositionError with a one-line message."""
    pos, document = _first("mirror", MIRROR_MIXES[0], 8,
                           lambda p, d: d["decision"] == "react" and len(d["events"]) > 30)
    assert build_position(document)[1] == document["seat"]
    seat = document["seat"]
    plain = [{k: v for k, v in e.items() if k not in ("mirror_tehais", "mirror_wall")} for e in document["events"]]
    assert "plain mjai log has no such fields" in _refused(dict(document, events=plain))
    assert "belongs to mirror positions" in _refused(dict(document, variant="riichi"))
    variant, _, _, rebuilt = build_position(document["events"])  # a raw log with the fields is read as mirror
    assert variant == "mirror" and view_difference(pos, rebuilt) is None

    bad = json.loads(json.dumps(document))
    start = bad["events"][0]
    five = next(i for i, t in enumerate(start["tehais"][seat]) if t not in start["mirror_tehais"][seat])
    start["tehais"][seat][five] = "5pr"
    assert "no red fives" in _refused(bad)

    bad = json.loads(json.dumps(document))
    other = (seat + 1) % 4
    bad["events"][0]["tehais"][other] = ["1z"] * 13
    assert f"shows seat {other}'s tehai" in _refused(bad)

    bad = json.loads(json.dumps(document))
    start = bad["events"][0]
    missing = next(t for t in ("1z", "2z", "3z", "4z", "5z", "6z", "7z", "1m", "9m") if t not in start["tehais"][seat])
    start["mirror_tehais"][seat][0] = missing
    assert "is not in its tehai" in _refused(bad)

    bad = json.loads(json.dumps(document))
    live = bad["events"][0]["mirror_wall"]["live"]
    i = live.index("?")
    live[i] = next(t for t in live if t != "?")
    assert "but mirror has 3 of each kind" in _refused(bad)

    bad = json.loads(json.dumps(document))
    events = bad["events"]
    draw = _other_draw(bad)
    live = events[0]["mirror_wall"]["live"]
    at = sum(e["type"] == "tsumo" and not e.get("rinshan") for e in events[:draw])  # its place in the live wall
    swap = next(j for j in range(len(live)) if live[j] not in ("?", live[at]))
    live[at], live[swap] = live[swap], live[at]
    assert "mirror_wall has a transparent" in _refused(bad)

    bad = json.loads(json.dumps(document))
    bad["events"][_other_draw(bad) + 1]["tsumogiri"] = False
    assert "calls a tsumogiri" in _refused(bad)


def _mutated_mirror(document: dict, rnd) -> dict:
    """The mirror document with one random change to what mirror shows: a field replaced by a (possibly bad)
    value, one of its tiles changed, two wall tiles swapped, or a shown draw hidden or changed."""
    bad = json.loads(json.dumps(document))
    start = bad["events"][0]
    change = rnd.randrange(5)
    if change == 0:
        start[rnd.choice(["mirror_tehais", "mirror_wall"])] = rnd.choice([None, "x", [[]] * 4, {}, [["?"]] * 4,
                                                                          {"live": []}])
    elif change == 1:
        hand = rnd.choice([h for h in start["mirror_tehais"] if h])
        hand[rnd.randrange(len(hand))] = rnd.choice(["?", "1m", "5sr", "7z"])
    elif change == 2:
        part = start["mirror_wall"][rnd.choice(["live", "rinshan", "dora_markers", "ura_markers"])]
        part[rnd.randrange(len(part))] = rnd.choice(["?", "1m", "9p", "7z", "5mr"])
    elif change == 3:
        live = start["mirror_wall"]["live"]
        i, j = rnd.randrange(len(live)), rnd.randrange(len(live))
        live[i], live[j] = live[j], live[i]
    else:
        rnd.choice([e for e in bad["events"] if e["type"] == "tsumo"])["pai"] = rnd.choice(["?", "1m", "6s", "3z"])
    return bad


def test_damaged_mirror_documents_raise_only_position_errors():
    """Random damage to mirror (M) documents, to their transparent tiles or anywhere: each either still describes
    a possible hand or is refused with a one-line PositionError, never another exception."""
    import random

    rnd = random.Random(4)
    documents = [d for _, d in sampled_positions("mirror", MIRROR_MIXES[0], 14, 1, 4)]

    def damaged():
        for k in range(80):
            document = rnd.choice(documents)
            yield _mutated_mirror(document, rnd) if k % 2 else _mutated(document, rnd)

    assert _refusals(damaged()) >= 40


@pytest.mark.slow
@pytest.mark.parametrize("variant, mix, seed", [(v, m, s) for v in MIXES for m in (0, 1) for s in (11, 12)])
def test_rebuilt_positions_over_a_thousand_decisions(variant, mix, seed):
    """1,000+ decisions in all (eight runs of at least 110, 1,164 now): riichi and shura, two seat mixes, two
    seeds each."""
    assert check_round_trips(variant, MIXES[variant][mix], seed, n_matches=5, per_hand=6)[0] >= 110


def _eyes(document: dict) -> list[dict]:
    return [e for e in document["events"] if e["type"] == "eye"]


@pytest.mark.parametrize("mix, seed, rules", [(0, 3, None), (1, 5, {"eye_counter": 2, "eye_other_seat": True})])
@pytest.mark.slow
def test_dragon_eye_positions_rebuild_the_logged_eyes(mix, seed, rules):
    """DE: every placement of the eye is random (the hand's keyed stream), and the document shows each one; the
    rebuilt hand places the same eyes at the same moments (the observation's eye block, the doubled payments and
    the events are compared), under the default counter of 5 and under a counter of 2 with eye_other_seat, where a
    hand has many eyes, each on another seat than the one before."""
    seen: list = []
    n, _ = check_round_trips("dragon-eye", CARD_AND_EYE_MIXES["dragon-eye"][mix], seed, n_matches=4, per_hand=4,
                             rules=rules, seen=seen)
    documents = [d for _, d in seen]
    assert n >= 45
    assert all(_eyes(d) and d["events"][1]["type"] == "eye" for d in documents)
    moved = [d for d in documents if len(_eyes(d)) >= 3]
    assert len(moved) >= 10
    if rules:
        assert max(len(_eyes(d)) for d in documents) >= 8
        assert all(a["actor"] != b["actor"] for d in documents for a, b in zip(_eyes(d), _eyes(d)[1:]))


@pytest.mark.parametrize("mix, seed, rules", [(0, 3, None), (1, 5, {"cards": "over-prepared"})])
@pytest.mark.slow
def test_fantasy_positions_carry_the_matchs_cards(mix, seed, rules):
    """FL: the match's three cards, drawn per match or fixed by the rule option `cards`, are written into the
    document's rules (no event shows them) and the rebuilt hand plays under them: the observation's card block,
    the riichi cost (过度准备 puts down two sticks, each logged as a payment) and every card payment match."""
    seen: list = []
    n, _ = check_round_trips("fantasy", CARD_AND_EYE_MIXES["fantasy"][mix], seed, n_matches=4, per_hand=4,
                             rules=rules, seen=seen)
    documents = [d for _, d in seen]
    assert n >= 45
    cards = {d["rules"]["cards"] for d in documents}
    assert all(len(c.split(",")) == 3 for c in cards)
    if rules:
        assert all(c.endswith(",over-prepared") for c in cards)
        assert any(e["type"] == "reach" for d in documents for e in d["events"])
    else:
        assert len(cards) >= 2  # each match draws its own cards


def _dragon_eye_document(rules: dict | None = None) -> dict:
    """A dragon-eye react decision with at least three eyes in its log."""
    return next(d for _, d in sampled_positions("dragon-eye", "baseline,random,majsoul-cpu,baseline", 21, 6, 6, rules)
                if d["decision"] == "react" and len(_eyes(d)) >= 3)


def _damaged_eye(document: dict, k: int, **changes) -> dict:
    """The document with its k-th eye event changed (a value None drops the key); k = None drops every eye."""
    bad = json.loads(json.dumps(document))
    at = [i for i, e in enumerate(bad["events"]) if e["type"] == "eye"]
    if k is None:
        bad["events"] = [e for e in bad["events"] if e["type"] != "eye"]
        return bad
    event = bad["events"][at[k]]
    for key, value in changes.items():
        if value is None:
            event.pop(key)
        else:
            event[key] = value
    return bad


def test_damaged_eye_events_are_refused_with_one_line():
    """DE: an eye with a wrong counter, a seat outside 0..3, a missing counter, an eye dropped from the middle of
    the hand, an eye logged one event too late, a log without its eyes, an eye in a riichi hand, and an eye on the
    same seat again under eye_other_seat: each is refused with a one-line PositionError."""
    document = _dragon_eye_document()
    _, seat, _, rebuilt = build_position(document)
    assert seat == document["seat"]

    assert "counter 4" in _refused(_damaged_eye(document, 1, counter=4))
    assert "actor must be a seat" in _refused(_damaged_eye(document, 0, actor=4))
    assert "counter must be a positive integer" in _refused(_damaged_eye(document, 2, counter=None))

    dropped = json.loads(json.dumps(document))
    dropped["events"].remove(_eyes(document)[1])
    assert "eye" in _refused(dropped)

    late = json.loads(json.dumps(document))
    i = late["events"].index(_eyes(document)[1])
    assert late["events"][i + 1]["type"] in ("tsumo", "chi", "pon", "daiminkan")  # the eye moves right before it
    late["events"][i], late["events"][i + 1] = late["events"][i + 1], late["events"][i]
    assert "the engine places it before action" in _refused(late)

    assert "must be its eye event" in _refused(_damaged_eye(document, None))

    riichi = _document()
    riichi["events"].insert(1, {"type": "eye", "actor": 0, "counter": 5})
    assert "only dragon-eye hands" in _refused(riichi)

    other = _dragon_eye_document({"eye_other_seat": True})
    build_position(other)
    eyes = _eyes(other)
    assert "no draw of the eye stream" in _refused(_damaged_eye(other, 1, actor=eyes[0]["actor"]))


def test_raw_logs_with_eyes_read_as_dragon_eye_and_fantasy_needs_its_cards():
    """A raw mjai log (no document wrapper, no mode) with eye events is a dragon-eye hand (DE) and rebuilds to the
    same view; a fantasy position without its three cards (FL) — a raw log, a document whose rules name none or
    only some — is refused with one line."""
    pos, document = next((p, d) for p, d in sampled_positions("dragon-eye", "baseline,random,majsoul-cpu,baseline",
                                                               21, 6, 6) if len(_eyes(d)) >= 2)
    raw = [e for e in document["events"] if e["type"] != "pass_win"]
    assert read_document(json.dumps(raw)).variant == "dragon-eye"
    variant, _, _, rebuilt = build_position(raw)
    assert variant == "dragon-eye" and view_difference(pos, rebuilt) is None

    _, fantasy = next(sampled_positions("fantasy", "baseline,random,majsoul-cpu,baseline", 22, 1, 4))
    assert "three cards" in _refused({k: v for k, v in fantasy.items() if k != "rules"})
    assert "three cards" in _refused(dict(fantasy, rules={"cards": "golden"}))
    assert "unknown fantasy card" in _refused(dict(fantasy, rules={"cards": "golden,joker"}))
    with pytest.raises(PositionError) as info:
        build_position(fantasy["events"], variant="fantasy")
    assert "three cards" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.slow
@pytest.mark.parametrize("variant, mix, seed",
                         [(v, m, s) for v in CARD_AND_EYE_MIXES for m in (0, 1) for s in (11, 12)])
def test_rebuilt_dragon_eye_and_fantasy_positions_over_many_decisions(variant, mix, seed):
    """Dragon-eye (DE) and fantasy (FL), two seat mixes, two seeds each: at least 110 decisions per run."""
    assert check_round_trips(variant, CARD_AND_EYE_MIXES[variant][mix], seed, n_matches=6, per_hand=8)[0] >= 110


def _first(variant: str, spec: str, seed: int, wanted) -> tuple:
    for pos, document in sampled_positions(variant, spec, seed, 6, 6):
        if wanted(pos, document):
            return pos, document
    raise AssertionError("no such decision in the sample")


def _mjai_name(name: str) -> str:
    return "ESWNPFC"[int(name[0]) - 1] if len(name) == 2 and name[1] == "z" else name


EXTENSIONS = {"rinshan", "match", "hand", "round", "exchange_direction"}  # keys plain mjai does not have


def _as_mjai(event: dict) -> dict:
    """The event in plain mjai spelling: honors E S W N P F C, without this project's extra keys."""
    out = {}
    for key, value in event.items():
        if key in EXTENSIONS:
            continue
        if isinstance(value, str) and key in ("pai", "dora_marker"):
            value = _mjai_name(value)
        elif isinstance(value, list) and key in ("consumed", "pais", "tehais"):
            value = [[_mjai_name(v) for v in h] if isinstance(h, list) else _mjai_name(h) for h in value]
        out[key] = value
    return out


def test_raw_mjai_log_is_read_as_the_document():
    """A raw mjai log of the seat's view in plain mjai (JSON lines, honors as E S W N P F C, no payment events,
    no rinshan flag on the replacement draw after a kan, no position wrapper) and the same events as a JSON
    array rebuild the same position as the document; seat, mode and decision are inferred."""
    pos, document = _first("riichi", "baseline,random,majsoul-cpu,baseline", 8,
                           lambda p, d: d["decision"] == "react" and any(e["type"] in ("ankan", "daiminkan", "kakan")
                                                                       for e in d["events"]))
    plain = [_as_mjai(e) for e in document["events"] if e["type"] not in ("payment", "pass_win")]
    lines = "\n".join(json.dumps(e) for e in [{"type": "start_game"}, *plain])
    log = read_document(lines)
    assert (log.variant, log.seat, log.decision) == ("riichi", pos.seat, "react")
    for source in (lines, json.dumps(plain)):
        variant, seat, _, rebuilt = build_position(source)
        assert (variant, seat) == ("riichi", pos.seat)
        assert view_difference(pos, rebuilt) is None


def test_decision_is_inferred_from_the_last_event():
    """turn after the seat's draw, exchange at a shura hand's start (the dealer's draw before it), rob on another
    seat's added kan."""
    for variant, kind in (("riichi", "turn"), ("shura", "exchange"), ("shura", "turn")):
        pos, document = _first(variant, "baseline,majsoul-cpu,random,baseline", 9,
                               lambda p, d, k=kind: d["decision"] == k)
        assert read_document(document["events"], variant=variant).decision == kind


def test_red_fives_survive_the_round_trip():
    """A red five in the seat's hand and one in a river: the rebuilt seat holds its red five and the river
    shows the red discard."""
    def wanted(pos, document):
        rivers = [e for e in document["events"] if e["type"] == "dahai" and e["pai"].endswith("r")]
        return pos.view[ROBS.red:ROBS.red + 3].any() and rivers

    pos, document = _first("shura", "baseline,random,majsoul-cpu,baseline", 10, wanted)
    _, seat, _, rebuilt = build_position(document)
    assert view_difference(pos, rebuilt) is None
    np.testing.assert_array_equal(rebuilt.view[ROBS.red:ROBS.red + 3], pos.view[ROBS.red:ROBS.red + 3])
    red_discards = [e for e in seat_view_events(rebuilt, seat) if e["type"] == "dahai" and e["pai"].endswith("r")]
    assert red_discards == [e for e in document["events"] if e["type"] == "dahai" and e["pai"].endswith("r")]


def test_hand_context_sets_the_hands_place_in_the_match():
    """RiichiEngine.start(context=...) deals the hand with the given dealer, round, honba, sticks and points."""

    table = RiichiEngine(parse_seats("baseline"), get_mode("riichi").rules_class(), keep_events=True)
    pos = table.start(context=HandContext(dealer=2, round=6, honba=3, sticks=2, points=(20000, 31000, 24000, 23000),
                                          hand_no=9))
    assert table.advance(pos, None, 0)
    view = pos.view
    assert (view[ROBS.dealer], view[ROBS.round], view[ROBS.honba], view[ROBS.sticks],
            view[ROBS.round_wind]) == (2, 6, 3, 2, 1)
    assert view[ROBS.points:ROBS.points + 4].tolist() == [20000, 31000, 24000, 23000]
    assert pos.seat == 2 and view[ROBS.seat_wind] == 0
    start = seat_view_events(pos)[0]
    assert (start["bakaze"], start["kyoku"], start["honba"], start["kyotaku"], start["oya"]) == ("S", 3, 3, 2, 2)


def _document(variant="riichi", seed=8) -> dict:
    return _first(variant, "baseline,random,majsoul-cpu,baseline", seed,
                  lambda p, d: d["decision"] == "react" and len(d["events"]) > 30)[1]


def _refused(document) -> str:
    with pytest.raises(PositionError) as info:
        build_position(document)
    message = str(info.value)
    assert "\n" not in message and message
    return message


def test_bad_documents_are_refused_with_one_line():
    """Unknown tiles, impossible tile counts, an action the rules forbid, another mode, a log that does not end
    at a decision of the seat: PositionError with a one-line message."""
    document = _document()
    seat = document["seat"]
    events = document["events"]
    first = next(i for i, e in enumerate(events) if e["type"] == "dahai" and e["actor"] == seat)

    bad = json.loads(json.dumps(document))
    bad["events"][first]["pai"] = "9x"
    assert "unknown tile" in _refused(bad)

    bad = json.loads(json.dumps(document))
    bad["events"][0]["tehais"][seat] = ["1m"] * 5 + bad["events"][0]["tehais"][seat][5:]
    assert "copies" in _refused(bad)

    bad = json.loads(json.dumps(document))
    held = set(bad["events"][0]["tehais"][seat])
    missing = next(t for t in ("1z", "2z", "3z", "4z", "5z", "6z", "7z", "9m", "1p") if t not in held)
    bad["events"][first] = dict(bad["events"][first], pai=missing, tsumogiri=False)
    assert "does not hold" in _refused(bad)

    assert "modes riichi and shura" in _refused(dict(document, variant="bloodshed"))

    bad = json.loads(json.dumps(document))
    bad["events"] = bad["events"][:first + 1]  # ends with the seat's own discard
    assert "does not end at a decision" in _refused(bad)

    bad = json.loads(json.dumps(document))
    bad["events"].append({"type": "ryukyoku", "reason": "exhaustive"})
    assert "hand is over" in _refused(bad)

    assert "format" in _refused(dict(document, format="other/9"))


def _mutated(document: dict, rnd) -> dict:
    """The document with one random change: an event dropped, moved or duplicated, a tile, seat or field
    replaced by a (possibly bad) value."""
    bad = json.loads(json.dumps(document))
    events = bad["events"]
    i = rnd.randrange(1, len(events))
    event = events[i]
    change = rnd.randrange(6)
    if change == 0:
        del events[i]
    elif change == 1:
        events.insert(rnd.randrange(1, len(events)), events.pop(i))
    elif change == 2:
        events.insert(i, dict(events[rnd.randrange(1, len(events))]))
    elif change == 3:
        key = next((k for k in ("pai", "dora_marker", "consumed", "pais") if k in event), "pai")
        event[key] = rnd.choice(["1m", "5mr", "9x", "E", "?", 3, None, ["1m"], []])
    elif change == 4:
        key = next((k for k in ("actor", "target", "from") if k in event), "actor")
        event[key] = rnd.choice([0, 1, 2, 3, 4, -1, "1"])
    else:
        key = rnd.choice(["scores", "honba", "kyotaku", "oya", "bakaze", "kyoku", "tehais"])
        events[0][key] = rnd.choice([None, -1, [1, 2], "E", 9, [[]] * 4])
    return bad


@pytest.mark.slow
def test_damaged_documents_raise_only_position_errors():
    """Random damage to real documents: each either still describes a possible hand or is refused with a
    one-line PositionError, never another exception."""
    import random

    rnd = random.Random(15)
    documents = [d for variant in MIXES for _, d in sampled_positions(variant, MIXES[variant][0], 14, 1, 4)]
    assert _refusals(_mutated(rnd.choice(documents), rnd) for _ in range(80)) >= 40


def _refusals(damaged) -> int:
    """How many of the `damaged` documents are refused; each is either a possible hand or refused with a
    one-line PositionError, never another exception."""
    refused = 0
    for document in damaged:
        try:
            build_position(document)
        except PositionError as exc:
            assert "\n" not in str(exc)
            refused += 1
    return refused


def _mutated_deal(document: dict, rnd) -> dict:
    """The fate or open-deal document with one random change to what these modes show: fate_open replaced or one
    of its tiles changed, an open_tile mark set to some (possibly bad) value, one tile of a tehai changed."""
    bad = json.loads(json.dumps(document))
    events = bad["events"]
    change = rnd.randrange(4)
    if change == 0:
        events[0]["fate_open"] = rnd.choice([None, "x", [[]] * 4, [["1m"] * 4] * 4, [["?"] * 4] * 4,
                                             [[1, 2, 3, 4]] * 4])
    elif change == 1 and "fate_open" in events[0]:
        events[0]["fate_open"][rnd.randrange(4)][rnd.randrange(4)] = rnd.choice(["5mr", "1z", "9s", "5p"])
    elif change == 2:
        rnd.choice([e for e in events if e["type"] == "dahai"])["open_tile"] = rnd.choice([True, False, 1, None])
    else:
        events[0]["tehais"][rnd.randrange(4)][rnd.randrange(13)] = rnd.choice(["?", "1m", "5sr", "7z"])
    return bad


def test_damaged_fate_and_open_deal_documents_raise_only_position_errors():
    """Random damage to fate (F) and open-deal (OD) documents, to their shown tiles or anywhere: each either still
    describes a possible hand or is refused with a one-line PositionError, never another exception."""
    import random

    rnd = random.Random(3)
    documents = [d for variant in SHOWN_MIXES for _, d in sampled_positions(variant, SHOWN_MIXES[variant][0], 14, 1, 4)]

    def damaged():
        for k in range(80):
            document = rnd.choice(documents)
            yield _mutated_deal(document, rnd) if k % 2 else _mutated(document, rnd)

    assert _refusals(damaged()) >= 40


def _mutated_eye(document: dict, rnd) -> dict:
    """The dragon-eye document with one eye event damaged at random: its seat or counter replaced by a (possibly
    bad) value, the event dropped or moved."""
    bad = json.loads(json.dumps(document))
    events = bad["events"]
    i = rnd.choice([i for i, e in enumerate(events) if e["type"] == "eye"])
    change = rnd.randrange(4)
    if change == 0:
        events[i]["actor"] = rnd.choice([0, 1, 2, 3, 4, -1, "1", None])
    elif change == 1:
        events[i]["counter"] = rnd.choice([0, 1, 4, 5, 6, True, "5", None])
    elif change == 2:
        del events[i]
    else:
        events.insert(rnd.randrange(1, len(events)), events.pop(i))
    return bad


@pytest.mark.slow
def test_damaged_dragon_eye_and_fantasy_documents_raise_only_position_errors():
    """Random damage to dragon-eye (DE) and fantasy (FL) documents, to their eye events too: each either still
    describes a possible hand or is refused with a one-line PositionError, never another exception."""
    import random

    rnd = random.Random(16)
    documents = [d for variant, mixes in CARD_AND_EYE_MIXES.items()
                 for _, d in sampled_positions(variant, mixes[0], 14, 1, 4)]

    def damaged():
        for _ in range(120):
            document = rnd.choice(documents)
            eye = document["variant"] == "dragon-eye" and rnd.random() < 0.5
            yield _mutated_eye(document, rnd) if eye else _mutated(document, rnd)

    assert _refusals(damaged()) >= 80


def test_an_illegal_own_action_is_refused():
    """The seat declares riichi with a hand that is not tenpai: the engine does not allow it."""
    document = _document("riichi", 13)
    seat = document["seat"]
    i = next(i for i, e in enumerate(document["events"]) if e["type"] == "dahai" and e["actor"] == seat)
    bad = json.loads(json.dumps(document))
    bad["events"].insert(i, {"type": "reach", "actor": seat})
    assert "not allowed" in _refused(bad) or "cannot be replayed" in _refused(bad)


@pytest.mark.parametrize("variant", ["riichi", "shura", "fate", "open-deal", "dragon-eye", "fantasy", "mirror"])
def test_replay_advise_prints_the_seats_position(variant, capsys):
    """`tsumolab replay --advise N` turns a simulated riichi, shura, fate (F), open-deal (OD), dragon-eye, fantasy
    or mirror decision into the seat's position document (with what F, OD and M show, its eyes, DE, or the match's
    cards, FL), which rebuilds to the same decision."""
    code, out, err = run_cli(["replay", "--variant", variant, "--seed", "3", "--match", "0", "--hand", "1",
                              "--advise", "12"], capsys)
    assert code == 0, err
    document = json.loads(out)
    assert document["format"] == "tsumolab-position/1" and document["variant"] == variant
    assert document["source"] == {"seed": 3, "match": 0, "hand": 1, "decision": 12, "seats": ["baseline"] * 4}
    table = RiichiEngine(parse_seats("baseline"), get_mode(variant).rules_class(), root_seed=3, keep_events=True)
    original = table.at_decision(0, 1, 12)
    _, _, _, rebuilt = build_position(document)
    assert view_difference(original, rebuilt) is None
    assert (variant == "dragon-eye") == bool(_eyes(document))
    assert document.get("rules", {}).get("cards", "") == match_cards(original)
    assert (variant == "fantasy") == bool(match_cards(original))
    assert (variant == "mirror") == ("mirror_wall" in document["events"][0])


def test_replay_advise_refuses_a_missing_decision_with_one_line(capsys):
    code, out, err = run_cli(["replay", "--variant", "shura", "--seed", "3", "--match", "0", "--hand", "1",
                              "--advise", "5000"], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "fewer than 5001 decisions" in err


ASTROLOGY_MIXES = ("star-picker,random,baseline,majsoul-cpu", "majsoul-cpu,baseline,star-picker,random")


def _candidate_tile(pos, at: int) -> str:
    """The name of the tile in wall position `at` of a position, a red five written red."""
    from tsumolab.analyzer.advise.riichi_tiles import tile_text
    from tsumolab.sims.riichi.tableau import is_red

    return tile_text((int(pos.wall[at]) // 4, bool(is_red(int(pos.wall[at])))))


@pytest.mark.parametrize("mix, seed", [(0, 3), pytest.param(1, 5, marks=SECOND_MIX)])
def test_astrology_positions_show_the_pool_and_the_picks(mix, seed):
    """A: the candidates lie face up and every draw from the pool is a pick all seats see. The document shows each
    candidate (its tile from its wall position, red fives red) and every seat's pick with its tile and index, the
    draws before the pool opens hidden; rebuilt, the hand gives the seat the same observation (the pool block
    included) at 45+ decisions, 10+ of them picks (decision `pick`), and holds the candidates in their wall
    positions."""
    seen: list = []
    n, _ = check_round_trips("astrology", ASTROLOGY_MIXES[mix], seed, n_matches=3, per_hand=4, seen=seen)
    assert n >= 45
    picks = [(pos, d) for pos, d in seen if d["decision"] == "pick"]
    assert len(picks) >= 10
    for pos, document in seen:
        opened = False
        for e in document["events"]:
            if e["type"] == "candidate":
                opened = True
                assert e["pai"] == _candidate_tile(pos, e["wall_index"])
            elif e["type"] == "tsumo" and e["actor"] != document["seat"]:
                assert (e["pai"] != "?") == opened == ("pick" in e)
    assert any(e["type"] == "candidate" and e["pai"].endswith("r") for _, d in seen for e in d["events"])
    for pos, document in picks[:5]:
        _, _, _, rebuilt = build_position(document)
        slots = [e["wall_index"] for e in document["events"] if e["type"] == "candidate"]
        assert [_candidate_tile(rebuilt, at) for at in slots] == [_candidate_tile(pos, at) for at in slots]


@pytest.mark.slow
@pytest.mark.parametrize("mix, seed", [(m, s) for m in (0, 1) for s in (11, 12)])
def test_rebuilt_astrology_positions_over_many_decisions(mix, seed):
    """A, two seat mixes, two seeds each: at least 200 decisions per run (992 in all now, 459 of them picks)."""
    assert check_round_trips("astrology", ASTROLOGY_MIXES[mix], seed, n_matches=6, per_hand=8)[0] >= 200


def _astrology_pick_document() -> dict:
    """A pick decision of an astrology hand in which other seats have picked and the seat's turn came before."""
    return _first("astrology", ASTROLOGY_MIXES[0], 7,
                  lambda p, d: d["decision"] == "pick" and sum(e.get("pick") is not None for e in d["events"]) >= 6)[1]


def _changed(document: dict, test, **changes) -> dict:
    """The document with `changes` applied to its first event that passes `test`."""
    bad = json.loads(json.dumps(document))
    event = next(e for e in bad["events"] if test(e))
    event.update(changes)
    return bad


def test_bad_astrology_documents_are_refused_with_one_line():
    """A: a hidden pick, a pick of a tile not in the pool or of another candidate than its index, a candidate out
    of wall order or with a pool size that does not add up, a candidate in a riichi log, and `pick` where the seat
    is not to draw are refused with one line."""
    document = _astrology_pick_document()
    seat = document["seat"]

    def their_pick(e):
        return e["type"] == "tsumo" and e["actor"] != seat and "pick" in e

    def first_candidate(e):
        return e["type"] == "candidate"

    assert "face-up candidate" in _refused(_changed(document, their_pick, pai="?"))
    outside = next(name for name in ("1m", "9m", "1p", "9p", "1s", "9s", "1z", "7z")
                   if not any(e["type"] == "candidate" and e["pai"] == name for e in document["events"]))
    assert "not a candidate" in _refused(_without_pick_index(_changed(document, their_pick, pai=outside)))
    assert "the pool's candidate" in _refused(_changed(document, their_pick, pai=outside))
    assert "wall position" in _refused(_changed(document, first_candidate, wall_index=60))
    assert "pool then holds" in _refused(_changed(document, first_candidate, pool=2))
    riichi = _document("riichi")
    riichi["events"].append({"type": "candidate", "pai": "3p", "dead_wall": False, "pool": 1, "wall_index": 90})
    assert "only astrology" in _refused(riichi)
    react = _first("astrology", ASTROLOGY_MIXES[0], 7,
                   lambda p, d: d["decision"] == "react" and (_last_play(d)["actor"] + 1) % 4 != d["seat"])[1]
    assert "says 'pick'" in _refused(dict(react, decision="pick"))
    assert "says 'react'" in _refused(dict(document, decision="react"))


def _last_play(document: dict) -> dict:
    return [e for e in document["events"] if e["type"] not in ("dora", "payment", "pass_win")][-1]


def test_astrology_pick_at_the_floor_needs_the_documents_decision():
    """A: once the live wall is down to the floor nothing is refilled, so a pick follows the previous seat's discard
    with no candidate revealed: the document's `decision: pick` tells it from a reaction and rebuilds the seat's
    view; without it the log reads as a reaction, which the engine refuses in one line (the seat is to pick)."""
    table = RiichiEngine(parse_seats("random"), get_mode("astrology").rules_class(), root_seed=2, keep_events=True)
    pos = table.at_decision(0, 1, 154)
    document = position_document("astrology", pos)
    assert document["decision"] == "pick" and _last_play(document)["type"] == "dahai"
    _, _, _, rebuilt = build_position(document)
    assert view_difference(pos, rebuilt) is None
    message = _refused({key: value for key, value in document.items() if key != "decision"})
    assert "no react decision" in message and "to pick" in message


def test_raw_mjai_log_of_astrology_reads_as_a_pick():
    """A: a raw mjai log with candidates is read as astrology, and one ending with the candidates revealed for the
    seat's draw as its pick; it rebuilds the same position as the document."""
    document = _astrology_pick_document()
    plain = [_as_mjai(e) for e in document["events"] if e["type"] not in ("payment", "pass_win")]
    log = read_document(plain)
    assert (log.variant, log.seat, log.decision) == ("astrology", document["seat"], "pick")
    pos = _first("astrology", ASTROLOGY_MIXES[0], 7, lambda p, d: d == document)[0]
    variant, seat, _, rebuilt = build_position(json.dumps(plain))
    assert (variant, seat) == ("astrology", document["seat"])
    assert view_difference(pos, rebuilt) is None


def _without_pick_index(document: dict) -> dict:
    """The document as a log that names no pick's index (each pick then takes the first candidate of its tile)."""
    for e in document["events"]:
        e.pop("pick", None)
    return document


DARK_SPEC = ("shadow-player(hide_danger=2,hide_riichi=1),shadow-player(lock=0,hide_danger=2),"
             "shadow-player(open_factor=100,reserve=0),shadow-player")  # face down, open, lock, or not (D)


def dark_positions(seed: int, n_matches: int, others: int = 1):
    """(position, document) of darkness hands (D) played by DARK_SPEC: every open and lock decision, and `others`
    random other decisions per hand taken after another seat's face-down tile whose kind the seat did not see."""
    table = RiichiEngine(parse_seats(DARK_SPEC), get_mode("darkness").rules_class(), root_seed=seed, keep_events=True)
    pick = np.random.default_rng(seed)
    for match_id in range(n_matches):
        hand_no = 1
        while (full := table.play_hand(match_id, hand_no)) is not None:
            later = []
            for k in range(full.n_decisions):
                pos = table.at_decision(match_id, hand_no, k)
                document = position_document("darkness", pos, f"darkness seed {seed} match {match_id} hand {hand_no}")
                if document["decision"] in ("open", "lock"):
                    yield pos, document
                elif _hidden_face_downs(document):
                    later.append((pos, document))
            for i in sorted(pick.choice(len(later), size=min(len(later), others), replace=False).tolist()):
                yield later[i]
            hand_no += 1


def _hidden_face_downs(document: dict) -> int:
    """D: the other seats' face-down discards whose kind the document hides ("?")."""
    return sum(e["type"] == "dahai" and e.get("face_down", False) and e["pai"] == "?" for e in document["events"])


@pytest.mark.slow
def test_darkness_positions_hide_the_other_seats_face_down_tiles():
    """D: a face-down tile's kind is known to its discarder only, unless opened and not locked. At every open and
    lock decision of simulated darkness hands, and at decisions after other seats' face-down discards, the seat's
    document writes those kinds "?" (on the dahai and on its payments), its own face-down tiles and the opened ones
    with their kind; rebuilt through the engine, the position gives the seat the same observation (the darkness
    block, the pot carried into the hand, the question at the open and lock decisions) and the same decision: at
    least 45 decisions, with open and lock decisions and face-down tiles seen by others among them."""
    kinds = {"open": 0, "lock": 0, "hidden": 0, "own": 0, "opened": 0, "pot": 0}
    failures, n = [], 0
    for pos, document in dark_positions(seed=3, n_matches=3, others=2):
        seat = document["seat"]
        events = document["events"]
        kinds[document["decision"]] = kinds.get(document["decision"], 0) + 1
        kinds["hidden"] += _hidden_face_downs(document) > 0
        kinds["pot"] += events[0]["pot"] > 0
        for i, e in enumerate(events):
            if e["type"] == "dahai" and e.get("face_down"):
                payments = [p for p in events[i + 1:i + 4] if p["type"] == "payment" and "pai" in p]
                assert {p["pai"] for p in payments[:1]} == {e["pai"].rstrip("r")}  # payments name the kind
                if e["actor"] == seat:
                    kinds["own"] += 1
                    assert e["pai"] != "?"
                elif e["pai"] != "?":
                    kinds["opened"] += 1
                    assert [p["reason"] for p in payments][:2] == ["face_down", "dark_open"]
        _, rebuilt_seat, _, rebuilt = build_position(json.loads(json.dumps(document)))
        assert rebuilt_seat == seat
        difference = view_difference(pos, rebuilt)
        if difference is not None:
            failures.append(f"{document['note']} decision {pos.n_decisions}: {difference}")
        n += 1
    assert not failures, failures[:5]
    assert n >= 45, kinds
    assert kinds["open"] >= 10 and kinds["lock"] >= 1 and kinds["hidden"] >= 20, kinds
    assert kinds["own"] > 0 and kinds["opened"] > 0 and kinds["pot"] > 0, kinds


def test_darkness_documents_that_show_too_much_are_refused_with_one_line():
    """D: a raw log with face-down discards reads as darkness; a document showing another seat's face-down kind it
    never saw, hiding the seat's own, a face-down mark without its payment or the reverse, or face-down discards in
    another mode: PositionError, one line."""
    pos, document = next((p, d) for p, d in dark_positions(seed=3, n_matches=2) if d["decision"] == "open")
    assert build_position(document)[3].decision == pos.decision
    variant, seat, _, raw = build_position(document["events"])  # a raw log: face-down discards make it darkness
    assert (variant, seat, raw.decision) == ("darkness", document["seat"], pos.decision)
    events = document["events"]
    discarder = events[-2]["actor"]
    assert events[-2]["pai"] == "?" and discarder != document["seat"]
    bad = json.loads(json.dumps(document))
    bad["events"][-2]["pai"] = "1z"
    assert "stays hidden from seat" in _refused(bad)
    bad = json.loads(json.dumps(document))
    del bad["events"][-2]["face_down"]
    assert "cannot be hidden" in _refused(bad)
    bad = json.loads(json.dumps(document))
    bad["events"].pop()
    assert "followed by its face_down payment" in _refused(bad)
    assert "belong to darkness positions" in _refused(dict(document, variant="riichi"))
    own = next((d for p, d in dark_positions(seed=3, n_matches=2) if d["decision"] == "lock"), None)
    assert own is not None
    bad = json.loads(json.dumps(own))
    bad["events"][-3]["pai"] = "?"
    assert "cannot be \"?\"" in _refused(bad)
    bad = json.loads(json.dumps(own))
    del bad["events"][-3]["face_down"]
    assert "needs \"face_down\": true" in _refused(bad)
