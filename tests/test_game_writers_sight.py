"""Records of the three modes of what the table sees (issues 29, 31): mirror (M, transparent copies), astrology (A,
the pool of candidates) and darkness (D, face-down discards), written by `replay --format majsoul|mjai`
(analyzer.games.writers.majsoul_sight) and read back (analyzer.games.majsoul_sight): the Mahjong Soul record
carries the client's fields for them, read back they are the position words the simulator writes (both formats
alike), the review finds each mode's own decisions, and what a seat could not see never reaches its positions.
Every decision of three whole matches per mode is checked against the engine by tests/test_game_writers_modes.py."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tests.darkness_policies import register_test_policies
from tests.test_game_writers import simulated
from tsumolab.analyzer.games.read import read_game
from tsumolab.analyzer.games.record import GameError
from tsumolab.analyzer.games.writers import game_log, write_game
from tsumolab.analyzer.games.writers.match_log import match_log
from tsumolab.analyzer.review.seat_decisions import position_at, seat_decisions

FIELD = "baseline,majsoul-cpu,dora-keeper,baseline"
SEATS = {"mirror": FIELD, "astrology": FIELD,
         "darkness": "test-dark-greedy,shadow-player,test-dark-greedy,baseline"}   # D: seats 0 and 2 open and lock
MATCH = (3, 0)
POT_MATCH = (6, 2, "test-dark-greedy,baseline,shadow-player,majsoul-cpu")   # D: hands that start with a pot


@pytest.fixture(scope="module")
def matches():
    register_test_policies()
    return {v: simulated(v, *MATCH, seats) for v, seats in SEATS.items()}


@pytest.fixture(scope="module")
def pot_match():
    register_test_policies()
    return simulated("darkness", *POT_MATCH)


def _written(match, fmt: str = "majsoul") -> str:
    return write_game(fmt, game_log(*match[:2], *match[3:]))


def _records(text: str) -> list[tuple[str, dict]]:
    return [(a["result"]["name"][4:], a["result"]["data"]) for a in json.loads(text)["data"]["data"]["actions"]]


def _hands(match) -> list[list[dict]]:
    """The simulated hands in the writers' words (analyzer.games.writers.match_log), start_kyoku first."""
    return [[h.start, *h.events] for h in match_log(match[3], match[4], match[0].variant).hands]


def _walls(match) -> list[list[int]]:
    return [e["ids"] for e in match[3] if e["type"] == "wall"]


# ----------------------------------------------------------------------------- mirror
def test_mirror_marks_every_transparent_copy_and_shows_the_wall(matches):
    """M: RecordNewRound's `paishan` is the whole wall with its 102 transparent copies marked t (3 of each kind),
    the dealt tiles and every draw are marked exactly when the wall's copy is transparent (id % 4 ≠ 0), and read
    back start_kyoku's mirror_tehais and mirror_wall are those of the simulated hand, in both formats."""
    match = matches["mirror"]
    records = _records(_written(match))
    walls = _walls(match)
    starts = [d for n, d in records if n == "RecordNewRound"]
    for data, ids in zip(starts, walls):
        from tsumolab.analyzer.games.majsoul_sight import split_tiles

        paishan = split_tiles(data["paishan"])
        marked = Counter(t[:2] for t in paishan if t.endswith("t"))
        assert len(paishan) == 136 and len(marked) == 34 and set(marked.values()) == {3}
        dealer = data["ju"]
        for s in range(4):
            dealt = ids[13 * ((s - dealer) % 4):13 * ((s - dealer) % 4) + 13]
            assert sum(t.endswith("t") for t in data[f"tiles{s}"][:13]) == sum(i % 4 != 0 for i in dealt)
    draws = [(d["tile"], d["seat"]) for n, d in records if n == "RecordDealTile"]
    assert draws and any(t.endswith("t") for t, _ in draws) and not all(t.endswith("t") for t, _ in draws)
    simulated_starts = [h[0] for h in _hands(match)]
    for fmt in ("majsoul", "mjai"):
        read = read_game(_written(match, fmt).encode())
        assert [(h[0]["mirror_tehais"], h[0]["mirror_wall"]) for h in read.hands] == \
            [(s["mirror_tehais"], s["mirror_wall"]) for s in simulated_starts]


def test_mirror_review_sees_transparent_draws_only(matches):
    """M: in a seat's view another seat's draw shows its tile exactly when mirror_wall names a transparent copy at
    that wall position; every other draw of another seat stays "?"."""
    hand = read_game(_written(matches["mirror"]).encode()).hands[0]
    wall = hand[0]["mirror_wall"]
    view = position_at("mirror", hand, 0, seat_decisions(hand, 0, "mirror")[-1])["events"]
    live = 0
    shown = hidden = 0
    for e in view:
        if e["type"] != "tsumo":
            continue
        expected = wall["live"][live] if not e.get("rinshan") else None
        live += not e.get("rinshan")
        if e["actor"] != 0 and expected is not None:
            assert e["pai"] == ("?" if expected == "?" else expected)
            shown += e["pai"] != "?"
            hidden += e["pai"] == "?"
    assert shown > 3 and hidden > 0


def test_mirror_positions_ignore_the_normal_copies_a_seat_cannot_see(matches):
    """M: exchanging two normal copies (unmarked) of the live wall that nobody draws, and two other seats'
    unplayed normal start tiles, leaves every position of seat 0 identical: only transparent copies are public."""
    from tests.test_review import _swap_unplayed_tiles
    from tsumolab.analyzer.games.majsoul_sight import split_tiles

    text = _written(matches["mirror"])
    record = read_game(text.encode())
    doc = _swap_unplayed_tiles(json.loads(text), record, 0)
    first = doc["data"]["data"]["actions"][0]["result"]["data"]
    wall = split_tiles(first["paishan"])
    draws = sum(e["type"] == "tsumo" and not e.get("rinshan") for e in record.hands[0])
    free = [i for i in range(52 + draws, 122 - 4) if not wall[i].endswith("t")]
    a, b = next((i, j) for i in free for j in free if wall[i] != wall[j])
    wall[a], wall[b] = wall[b], wall[a]
    first["paishan"] = "".join(wall)
    changed = read_game(json.dumps(doc).encode())
    assert changed.hands[0] != record.hands[0]
    decisions = seat_decisions(record.hands[0], 0, "mirror")
    assert decisions == seat_decisions(changed.hands[0], 0, "mirror") and len(decisions) >= 5
    assert all(position_at("mirror", record.hands[0], 0, d) == position_at("mirror", changed.hands[0], 0, d)
               for d in decisions)


# ----------------------------------------------------------------------------- astrology
def test_astrology_shows_the_pool_before_each_pick(matches):
    """A: every draw from the pool is a RecordFillAwaitingTiles of the drawing seat, whose awaiting_tiles hold the
    pool after its refill, then a RecordDealTile whose tile_index names the tile drawn there; read back, the
    candidates and the picks are the simulated ones (wall positions, dead-wall flags and pool sizes too), in both
    formats."""
    match = matches["astrology"]
    records = _records(_written(match))
    fills = 0
    for (name, data), (after, drawn) in zip(records, records[1:]):
        if name == "RecordFillAwaitingTiles":
            fills += 1
            assert after == "RecordDealTile" and drawn["seat"] == data["operation"]["seat"]
            assert data["awaiting_tiles"][drawn["tile_index"]] == drawn["tile"]
            assert 1 <= len(data["awaiting_tiles"]) <= 3
    assert fills >= 100 and fills == sum(n == "RecordDealTile" and "tile_index" in d for n, d in records)
    pool = [[(e["pai"], e["dead_wall"], e["pool"], e["wall_index"]) if e["type"] == "candidate" else e.get("pick")
             for e in hand if e["type"] in ("candidate", "tsumo")] for hand in _hands(match)]
    for fmt in ("majsoul", "mjai"):
        read = read_game(_written(match, fmt).encode())
        assert [[(e["pai"], e["dead_wall"], e["pool"], e["wall_index"]) if e["type"] == "candidate" else e.get("pick")
                 for e in hand if e["type"] in ("candidate", "tsumo")] for hand in read.hands] == pool


def test_astrology_picks_are_reviewed(matches):
    """A: each seat's pick is a decision of its own (`take 9m`, the tile it drew), made with the pool refilled:
    its position ends with the candidates revealed for it, and the review of a hand evaluates it among the
    candidates."""
    import polars as pl

    from tsumolab.analyzer.review.game_review import ReviewSpec, review_hand

    record = read_game(_written(matches["astrology"]).encode())
    hand = record.hands[0]
    picks = [d for d in seat_decisions(hand, 1, "astrology") if d.kind == "pick"]
    drawn = [e["pai"] for e in hand if e["type"] == "tsumo" and e["actor"] == 1 and "pick" in e]
    assert len(picks) >= 5 and [d.choice.split()[1] for d in picks] == drawn
    assert all(position_at("astrology", hand, 1, d)["events"][-1]["type"] in ("candidate", "dahai") for d in picks)
    table = review_hand(record, ReviewSpec(seat=1, rollouts=8), 1)
    chosen = table.filter(pl.col("kind") == "pick").group_by("decision").agg(pl.col("chosen").sum(),
                                                                              pl.col("choice").first())
    assert chosen.height == len(picks) and chosen["chosen"].to_list() == [1] * chosen.height
    assert all(c.startswith("take ") for c in chosen["choice"].to_list())


def test_astrology_refill_that_drops_a_candidate_is_refused(matches):
    """A: a pool that does not keep the candidates left, or a pick of a tile the pool does not hold there, is
    refused in one line."""
    text = _written(matches["astrology"])
    for edit, words in ((lambda d: d["awaiting_tiles"].reverse(), "do not keep the candidates left"),
                        (None, "of the pool is")):
        doc = json.loads(text)
        actions = [a["result"] for a in doc["data"]["data"]["actions"]]
        at = next(i for i, r in enumerate(actions) if r["name"].endswith("RecordFillAwaitingTiles")
                  and len(set(r["data"]["awaiting_tiles"])) == 3 and i > 20)
        if edit is not None:
            edit(actions[at]["data"])
        else:
            deal, pool = actions[at + 1]["data"], actions[at]["data"]["awaiting_tiles"]
            deal["tile_index"] = next(i for i, t in enumerate(pool) if t != deal["tile"])
        with pytest.raises(GameError) as err:
            read_game(json.dumps(doc).encode())
        assert words in str(err.value) and "(A)" in str(err.value) and "\n" not in str(err.value)


# ----------------------------------------------------------------------------- darkness
def test_darkness_face_down_tiles_are_reveal_unveil_and_lock_records(matches):
    """D: a face-down discard is a RecordRevealTile, its opening a RecordUnveilTile by the opener, and a
    RecordLockTile says how it ends (1 locked with no tile, 0 face up with its tile, 2 nobody opened it); the pile
    (liqibang) holds the pot with the riichi sticks; read back, the face-down discards, their payments and the pot
    carried into each hand are the simulated ones, in both formats."""
    match = matches["darkness"]
    records = _records(_written(match))
    names = [n for n, _ in records]
    reveals = [i for i, n in enumerate(names) if n == "RecordRevealTile"]
    assert len(reveals) >= 5
    states = Counter()
    for i in reveals:
        if names[i + 1] == "RecordUnveilTile":
            lock = records[i + 2][1]
            states[lock["lock_state"]] += 1
            assert names[i + 2] == "RecordLockTile" and (lock["tile"] == "") == (lock["lock_state"] == 1)
            assert records[i + 1][1]["liqibang"] == records[i][1]["liqibang"] + 2
        else:
            assert names[i + 1] == "RecordLockTile" and records[i + 1][1]["lock_state"] == 2
            states[2] += 1
    assert states[1] >= 2 and states[0] + states[2] >= 1
    kept = [[e for e in hand if e["type"] == "payment" or e.get("face_down") or e["type"] == "start_kyoku"]
            for hand in _hands(match)]
    for fmt in ("majsoul", "mjai"):
        read = read_game(_written(match, fmt).encode())
        assert [[(e.get("pot"), e.get("kyotaku")) if e["type"] == "start_kyoku" else e for e in hand
                 if e["type"] == "payment" or e.get("face_down") or e["type"] == "start_kyoku"]
                for hand in read.hands] == \
            [[(e.get("pot"), e.get("kyotaku")) if e["type"] == "start_kyoku" else e for e in hand] for hand in kept]


@pytest.mark.slow
def test_darkness_decisions_are_reviewed(matches):
    """D: the review finds a seat's face-down discards (`discard 3m face down`), its openings (`open`, or `decline`
    when asked before the seat that opened it; a seat asked after the opener answered unseen and is left out) and
    its locks (`lock`); the review of the hand evaluates each with advise."""
    import polars as pl

    from tsumolab.analyzer.review.game_review import ReviewSpec, review_hand

    record = read_game(_written(matches["darkness"]).encode())
    hand = record.hands[0]
    choices = Counter((d.kind, d.choice.split()[0] if d.kind == "turn" else d.choice)
                      for s in range(4) for d in seat_decisions(hand, s, "darkness")
                      if d.kind in ("open", "lock") or d.choice.endswith("face down"))
    assert choices[("open", "open")] >= 2 and choices[("open", "decline")] >= 2 and choices[("lock", "lock")] >= 2
    assert choices[("turn", "discard")] >= 2
    openers = sum(e["type"] == "payment" and e["reason"] == "dark_open" for e in hand)
    assert choices[("open", "open")] == openers
    table = review_hand(record, ReviewSpec(seat=0, rollouts=8), 1)
    reviewed = table.group_by("decision").agg(pl.col("kind").first(), pl.col("choice").first(), pl.col("chosen").sum())
    assert reviewed["chosen"].to_list() == [1] * reviewed.height
    kinds = set(zip(reviewed["kind"].to_list(), [c.split()[-1] for c in reviewed["choice"].to_list()]))
    assert {("open", "open"), ("lock", "lock"), ("turn", "down")} <= kinds


def test_darkness_lock_declined_and_openings_after_the_opener(matches):
    """D: an opened tile its discarder did not lock is a `lock` / `decline` decision, and the tile lies face up
    for the other seats to react to; of the seats asked to open, those before the opener in turn order declined,
    those after it are not reviewed."""
    hand = list(read_game(_written(matches["darkness"]).encode()).hands[0])
    at = next(i for i, e in enumerate(hand) if e["type"] == "payment" and e["reason"] == "dark_lock")
    discarder = hand[at]["from"]
    opener = hand[at - 1]["from"]
    unlocked = hand[:at] + hand[at + 1:]
    decisions = seat_decisions(unlocked, discarder, "darkness")
    assert any(d.at == at - 1 and (d.kind, d.choice) == ("lock", "decline") for d in decisions)
    assert not any(d.at == at - 1 and d.kind == "lock" for d in seat_decisions(unlocked, opener, "darkness"))
    asked = [(discarder + k) % 4 for k in (1, 2, 3)]
    face_down = at - 2
    for seat in asked:
        opens = [d.choice for d in seat_decisions(hand, seat, "darkness") if d.at == face_down and d.kind == "open"]
        position = asked.index(seat) - asked.index(opener)
        assert opens == (["decline"] if position < 0 else ["open"] if position == 0 else [])


def test_darkness_positions_ignore_another_seat_face_down_tile(matches):
    """D: changing the kind of another seat's face-down tile that stays hidden (locked, or never opened) leaves
    every position of seat 1 identical, while its discarder's own positions see the change."""
    text = _written(matches["darkness"])
    record = read_game(text.encode())
    hand = record.hands[0]
    hidden = {i for i, e in enumerate(hand) if e.get("face_down") and e["actor"] != 1}
    for i, e in enumerate(hand):
        if e["type"] == "payment" and e["reason"] == "dark_open" and hand[i + 1:i + 2] and \
                hand[i + 1].get("reason") != "dark_lock":
            hidden.discard(i - 2)
    played = {e.get("pai") for e in hand if e.get("actor") is not None}
    doc = json.loads(text)
    actions = [a["result"] for a in doc["data"]["data"]["actions"]]
    reveals = [r["data"] for r in actions if r["name"].endswith("RecordRevealTile")]
    dahais = [i for i, e in enumerate(hand) if e.get("face_down")]
    start = actions[0]["data"]
    for n, i in enumerate(dahais):
        if i not in hidden or hand[i]["tsumogiri"]:
            continue
        seat = hand[i]["actor"]
        spare = next((t for t in start[f"tiles{seat}"] if t not in played and t != reveals[n]["tile"]), None)
        if spare is not None:
            reveals[n]["tile"] = spare
            break
    else:
        pytest.fail("no hidden face-down tile of another seat could be changed")
    changed = read_game(json.dumps(doc).encode())
    other = changed.hands[0]
    assert other != hand
    ours = seat_decisions(hand, 1, "darkness")
    assert ours == seat_decisions(other, 1, "darkness") and len(ours) >= 5
    assert all(position_at("darkness", hand, 1, d) == position_at("darkness", other, 1, d) for d in ours)
    theirs = seat_decisions(hand, seat, "darkness")
    assert any(position_at("darkness", hand, seat, d) != position_at("darkness", other, seat, d) for d in theirs)


@pytest.mark.parametrize("variant, edit, words", [
    ("mirror", lambda d: d.pop("paishan"), "RecordNewRound needs the whole wall (paishan, 136 tiles)"),
    ("darkness", lambda d: None, "a face-down discard outside darkness (D)"),
    ("astrology", lambda d: None, "a pool of candidates (RecordFillAwaitingTiles) outside astrology (A)"),
])
def test_sight_records_in_the_wrong_mode_are_refused_in_one_line(matches, variant, edit, words):
    """M, A, D: a mirror record without its wall, and the records of face-down tiles or of the pool under another
    mode's rules, are refused in one line."""
    doc = json.loads(_written(matches[variant]))
    rule = doc["head"]["config"]["mode"]["detail_rule"]
    if variant == "mirror":
        edit(doc["data"]["data"]["actions"][0]["result"]["data"])
    else:
        rule.pop({"darkness": "reveal_discard", "astrology": "zhanxing"}[variant])
    with pytest.raises(GameError) as err:
        read_game(json.dumps(doc).encode())
    assert words in str(err.value) and "\n" not in str(err.value)


def test_the_pile_is_split_into_riichi_sticks_and_pot(pot_match):
    """D: the record's pile (liqibang) is riichi sticks and pot together; from the record's first hand on the pot
    is followed (paid into it, taken by a winner), so each start_kyoku splits the pile as the simulation did."""
    hands = _hands(pot_match)
    records = _records(_written(pot_match))
    piles = [d["liqibang"] for n, d in records if n == "RecordNewRound"]
    assert piles == [h[0]["kyotaku"] + h[0]["pot"] // 1000 for h in hands]
    assert any(h[0]["pot"] > 0 for h in hands)
    read = read_game(_written(pot_match).encode())
    assert [(h[0]["kyotaku"], h[0]["pot"]) for h in read.hands] == [(h[0]["kyotaku"], h[0]["pot"]) for h in hands]


def test_the_written_records_copy_nothing_hidden_into_the_events(matches):
    """M, A, D: a record read back holds no word the position documents do not know, so that every position the
    review builds from it is one the simulator could write."""
    from tsumolab.analyzer.advise.riichi_view import KNOWN_TYPES

    for variant, match in matches.items():
        for fmt in ("majsoul", "mjai"):
            kinds = {e["type"] for h in read_game(_written(match, fmt).encode()).hands for e in h}
            assert kinds - set(KNOWN_TYPES) <= {"start_kyoku", "ryukyoku", "end_kyoku"}, (variant, fmt)
