"""Bloodshed (RULES.md B-…) as Mahjong Soul chuanma records (issue 29): a simulated match written by `tsumolab replay
--variant bloodshed --format majsoul` and read back gives the match's own events, and at every decision of every
seat the review finds the decision the engine asked (kind and choice) and builds from the record exactly the
position document the engine writes there; a record the reader cannot express is refused in one line."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest
from click.testing import CliRunner

import tsumolab.commands.replay  # noqa: F401  (registers `replay`)
from tests.bloodshed_decisions import EngineHands
from tests.replayed import replayed
from tsumolab.analyzer.advise.position_advice import read_position
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.games.read import read_game
from tsumolab.analyzer.games.record import GameError
from tsumolab.analyzer.games.writers import game_log, write_game
from tsumolab.analyzer.games.writers.bloodshed_log import bloodshed_match_log
from tsumolab.analyzer.review.bloodshed_decisions import bloodshed_decisions, bloodshed_position_at
from tsumolab.analyzer.runs.options import build_spec
from tsumolab.cli import cli

SEATS = "baseline,majsoul-cpu,random,baseline"
# (seed, match): a plain match; a double ron (B-11); a robbed added kan (B-17); kan money that busts a player (B-4)
MATCHES = ((3, 0), (11, 1), (11, 234), (11, 2904))
MIN_DECISIONS = 200


def written(seed: int, match_id: int, seats: str = SEATS, fmt: str = "majsoul") -> tuple:
    """(the match written in `fmt`: a Mahjong Soul document or mjai events, the MatchLog it was written from)."""
    events, labels, _, _ = replayed("bloodshed", seed, match_id, seats)
    log = game_log(build_spec("bloodshed", seats, match_id + 1, seed, 1, ()), match_id, events, labels)
    text = write_game(fmt, log)
    return (json.loads(text) if fmt == "majsoul" else [json.loads(line) for line in text.splitlines()]), log


@pytest.fixture(scope="module")
def matches():
    """Per (seed, match): the Mahjong Soul document, its MatchLog and the record read back."""
    out = []
    for seed, m in MATCHES:
        doc, log = written(seed, m)
        out.append((doc, log, read_game(json.dumps(doc).encode())))
    return out


@pytest.fixture(scope="module")
def mjai_log():
    """Match (11, 1) as the events of its Bloodshed mjai log."""
    return written(11, 1, fmt="mjai")[0]


@pytest.fixture(scope="module")
def mjai_records(matches):
    """The same matches written as Bloodshed mjai logs and read back."""
    return [read_game(json.dumps(written(seed, m, fmt="mjai")[0]).encode()) for seed, m in MATCHES]


def check_round_trip(record, engine: EngineHands, hands: int | None = None, choices: bool = True) -> tuple[dict, list]:
    """({decision kind: count} checked, failures) of every seat's decisions in the record's first `hands` hands
    (`choices`: each choice checked against the engine's answer too)."""
    counts: dict[str, int] = {}
    failures = []
    for h, (events, asked) in enumerate(list(zip(record.hands, engine.hands))[:hands], 1):
        for seat in range(4):
            read = bloodshed_decisions(events, seat)
            ours = [d for d in asked if d.seat == seat]
            where = f"hand {h} seat {seat}"
            kinds = [d.kind for d in read], [d.position["decision"]["kind"] for d in ours]
            if kinds[0] != kinds[1]:
                failures.append(f"{where}: read {kinds[0]}, the engine asked {kinds[1]}")
                continue
            for n, (d, e) in enumerate(zip(read, ours)):
                position = bloodshed_position_at(events, seat, d)
                if position != e.position:
                    diff = {k: (position.get(k), e.position[k]) for k in e.position if position.get(k) != e.position[k]}
                    failures.append(f"{where} decision {n} ({d.kind}): {diff}")
                elif choices and not engine.chose(e, d.choice):
                    failures.append(f"{where} decision {n} ({d.kind}): the engine did not choose {d.choice!r}")
                counts[d.kind] = counts.get(d.kind, 0) + 1
    return counts, failures


def test_a_written_record_reads_back_as_the_match_events(matches, mjai_records):
    """The reader gives back the events the writer wrote from (B-6 exchange, B-7 voids, kan money B-14/B-15 on
    the kans, wins B-11/B-12 with their payments, the draw's settlement B-20 … B-23), and the records the client
    uses for this mode are there."""
    names = set()
    for (doc, log, record), mjai in zip(matches, mjai_records):
        assert (record.source, record.variant, record.n_hands) == ("majsoul", "bloodshed", len(log.hands))
        assert record.hands == tuple((hand.start, *hand.events) for hand in log.hands) == mjai.hands
        assert mjai.source == "mjai" and mjai.variant == "bloodshed"
        assert doc["head"]["config"]["mode"]["detail_rule"]["chuanma"]
        names |= {a["result"]["name"].removeprefix(".lq.") for a in doc["data"]["data"]["actions"]}
    assert names == {"RecordNewRound", "RecordChangeTile", "RecordSelectGap", "RecordDealTile", "RecordDiscardTile",
                     "RecordChiPengGang", "RecordAnGangAddGang", "RecordGangResult", "RecordGangResultEnd",
                     "RecordHuleXueZhanMid", "RecordHuleXueZhanEnd", "RecordNoTile"}, names
    wins = [len(r["data"]["hules"]) for doc, *_ in matches for r in _actions(doc) if "hules" in r["data"]]
    robbed = [e for *_, record in matches for h in record.hands for e in h if e.get("kind") == "robbed_kan"]
    assert max(wins) == 2 and len(robbed) == 1


def test_the_first_hand_rebuilds_every_decision(matches, mjai_records):
    """Issue 29, the quick check: every decision of every seat in the first hand of one match is the engine's, with
    the engine's position (B-6 exchange, B-7 void, turns, reactions B-8/B-9), from the record and the mjai log."""
    record, engine = matches[0][2], EngineHands(SEATS, *MATCHES[0], hands=1)
    counts, failures = check_round_trip(record, engine, hands=1)
    failures += check_round_trip(mjai_records[0], engine, hands=1, choices=False)[1]
    assert not failures, failures[:5]
    assert counts.get("exchange") == 4 and counts.get("void") == 4 and counts.get("turn", 0) >= 20, counts


@pytest.mark.slow
def test_written_records_rebuild_every_decision(matches, mjai_records):
    """Issue 29: every decision of every seat of four whole matches (1,079 now: exchange B-6, void B-7, turns,
    reactions B-8/B-9, a rob B-17, wins mid-hand B-12, at least 200 asked), from the Mahjong Soul records and from the
    mjai logs: the log read back gives the decisions the engine asked, each with exactly the engine's position
    document, each choice the engine's answer, and advise reads every position."""
    total: dict[str, int] = {}
    failures = []
    for (_, _, record), mjai, (seed, m) in zip(matches, mjai_records, MATCHES):
        engine = EngineHands(SEATS, seed, m)
        counts, failed = check_round_trip(record, engine)
        failures += failed + check_round_trip(mjai, engine, choices=False)[1]
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
        for events in record.hands:
            for d in bloodshed_decisions(events, 1):
                read_position(bloodshed_position_at(events, 1, d))
    assert not failures, failures[:5]
    assert sum(total.values()) >= MIN_DECISIONS and set(total) == {"exchange", "void", "turn", "react", "rob"}, total


def _hide_otherwise(events, seat: int, rng: random.Random) -> tuple[dict, ...]:
    """The hand with every tile `seat` never sees changed: the other seats' dealt tiles and draws, and the tiles
    passed between two other seats (the hand no longer adds up for them, which the seat cannot notice either)."""
    names = [f"{r}{s}" for s in "mps" for r in range(1, 10)]
    out = []
    for e in events:
        e = copy.deepcopy(e)
        if e["type"] == "start_kyoku":
            e["tehais"] = [h if s == seat else [rng.choice(names) for _ in h] for s, h in enumerate(e["tehais"])]
        elif e["type"] == "tsumo" and e["actor"] != seat:
            e["pai"] = rng.choice(names)
        elif e["type"] == "exchange" and seat not in (e["actor"], e["target"]):
            e["pais"] = [rng.choice(names) for _ in e["pais"]]
        out.append(e)
    return tuple(out)


def test_positions_use_only_what_the_seat_saw(matches):
    """Hidden information: changing everything seat 2 could not see (the other hands, their draws — the wall —
    and the exchanges it took no part in, B-6) leaves its decisions and every position of them identical."""
    record = matches[1][2]
    for events in record.hands:
        other = _hide_otherwise(events, 2, random.Random(7))
        assert other != events
        ours, theirs = bloodshed_decisions(events, 2), bloodshed_decisions(other, 2)
        assert ours == theirs
        assert [bloodshed_position_at(events, 2, d) for d in ours] == \
            [bloodshed_position_at(other, 2, d) for d in theirs]


def test_a_seat_own_mjai_log_gives_the_same_positions(matches):
    """A log of seat 3's own view (other hands, draws and exchanges hidden as "?") written as mjai and read back
    gives its decisions and positions exactly as the full record does."""
    from tsumolab.analyzer.review.bloodshed_decisions import bloodshed_seat_view

    record = matches[2][2]
    lines = [{"type": "start_game", "variant": "bloodshed"}] + [e for h in record.hands
                                                               for e in bloodshed_seat_view(h, 3)]
    own = read_game("\n".join(json.dumps(e) for e in lines).encode())
    assert own.n_hands == record.n_hands and "?" in json.dumps(own.hands[0][0])
    for full, seen in zip(record.hands, own.hands):
        ours = bloodshed_decisions(full, 3)
        assert [(d.kind, d.choice) for d in bloodshed_decisions(seen, 3)] == [(d.kind, d.choice) for d in ours]
        assert [bloodshed_position_at(seen, 3, d) for d in bloodshed_decisions(seen, 3)] == \
            [bloodshed_position_at(full, 3, d) for d in ours]


def _replay(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["replay", "--seed", "3", "--match", "0", *args])
    return result.exit_code, result.output


def test_replay_writes_a_chuanma_record_and_refuses_other_formats_in_one_line():
    """`replay --variant bloodshed --format majsoul|mjai` prints the log read_game reads; tenhou.net/6 is refused in
    one line; so is a rule option the logs do not hold (B-13's winners_to_end)."""
    code, text = _replay("--format", "majsoul")
    assert code == 0, text
    record = read_game(text.encode())
    assert record.variant == "bloodshed" and 1 <= record.n_hands <= 4
    code, text = _replay("--format", "mjai")
    assert code == 0 and read_game(text.encode()).hands == record.hands
    code, text = _replay("--format", "majsoul", "--hand", "2")
    assert code == 0 and read_game(text.encode()).n_hands == 1
    for args, message in ((["--format", "tenhou6"], "cannot hold Bloodshed's exchange"),
                          (["--format", "mjai", "--rule", "winners_to_end=1"], "winners_to_end=1"),
                          (["--format", "majsoul", "--rule", "winners_to_end=1"], "winners_to_end=1")):
        code, output = _replay(*args)
        assert code == 2 and message in output and output.count("\n") == 1, output


def _actions(doc: dict) -> list[dict]:
    return [a["result"] for a in doc["data"]["data"]["actions"]]


def _edited(doc: dict, edit) -> bytes:
    doc = copy.deepcopy(doc)
    edit(doc)
    return json.dumps(doc).encode()


def _first(doc: dict, name: str) -> dict:
    return next(r["data"] for r in _actions(doc) if r["name"].endswith(name))


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["head"]["config"]["mode"]["detail_rule"].update(init_point=25000), "Bloodshed starts at 50000"),
    (lambda d: d["head"]["config"]["mode"]["detail_rule"].update(xuezhandaodi=True), "together are not read"),
    (lambda d: _first(d, "RecordNewRound")["tiles0"].__setitem__(0, "1z"), "no honors and no red fives (B-1)"),
    (lambda d: _first(d, "RecordSelectGap").update(gap_types=[0, 1, 2, 3]), "gap_types 0 (p), 1 (m) or 2 (s)"),
    (lambda d: _first(d, "RecordChangeTile").update(change_type=5), "change_type 0..2"),
    (lambda d: _first(d, "RecordChiPengGang").update(type=0), "Bloodshed has no chi (B-8)"),
    (lambda d: d["data"]["data"]["actions"][-1].update(result={"name": ".lq.RecordLiuJu", "data": {"type": 1}}),
     "has none (B-13)"),
    (lambda d: d["data"]["data"]["actions"].append(d["data"]["data"]["actions"][0]), "a fifth hand"),
])
def test_records_bloodshed_cannot_express_are_refused_in_one_line(matches, edit, message):
    """A chuanma record breaking B-1 … B-13, or with a rule tsumolab's Bloodshed lacks, is refused with one
    GameError line naming it."""
    doc = matches[0][0]
    if message == "a fifth hand":
        doc = matches[1][0]
        assert len(matches[1][2].hands) == 4
    with pytest.raises(GameError, match=re.escape(message)) as caught:
        read_game(_edited(doc, edit))
    assert "\n" not in str(caught.value)


def test_the_match_log_folds_payments_onto_what_they_pay_for():
    """B-14, B-15: a kan's money on the kan; B-19: a win's payments on the win; every hand's sum of them is its
    end_kyoku deltas (with the draw's settlement, B-20 … B-23)."""
    events, labels, _, _ = replayed("bloodshed", 5, 2, SEATS)
    log = bloodshed_match_log(events, labels)
    for hand in log.hands:
        paid = [0] * 4
        for e in hand.events:
            for key in ("deltas", "refunds"):
                if key in e and e["type"] != "end_kyoku":
                    paid = [p + d for p, d in zip(paid, e[key])]
        assert paid == hand.events[-1]["deltas"]


@pytest.mark.parametrize("edit, message", [
    (lambda events: events[2].update(pai="1z"), "Bloodshed has the number tiles 1m..9s only (B-1)"),
    (lambda events: events[3].pop("target"), "lacks target"),
    (lambda events: next(e for e in events if e["type"] == "void").update(suit="z"), "suit must be one of m, p, s"),
    (lambda events: events[1].update(tehais=[["1m"] * 13] * 3), "tehais must be 4 lists of the 13 dealt tiles"),
    (lambda events: events.extend([e for e in events if e["type"] != "start_game"]), "a Bloodshed match has 4"),
])
def test_mjai_logs_bloodshed_cannot_express_are_refused_in_one_line(mjai_log, edit, message):
    """A Bloodshed mjai log with a tile, event or hand count B-1 … B-7 do not allow is refused with one GameError
    line naming it."""
    events = copy.deepcopy(mjai_log)
    assert [e["type"] for e in events[1:4]] == ["start_kyoku", "tsumo", "exchange"]
    edit(events)
    with pytest.raises(GameError, match=re.escape(message)) as caught:
        read_game(json.dumps(events).encode())
    assert "\n" not in str(caught.value)


def test_the_dealer_first_turn_has_no_drawn_tile(matches):
    """B-5, B-6: the dealer's first turn comes after the voids and its 14th tile may have been passed on, so its
    position names no drawn tile; advise reads it, and refuses a later turn without one."""
    events = matches[0][2].hands[0]
    dealer = events[0]["oya"]
    first = next(d for d in bloodshed_decisions(events, dealer) if d.kind == "turn")
    position = bloodshed_position_at(events, dealer, first)
    assert position["decision"] == {"kind": "turn", "drawn": None, "after_call": False, "kan_draw": False}
    read_position(position)
    later = next(d for d in bloodshed_decisions(events, dealer)[3:] if d.kind == "turn")
    position = bloodshed_position_at(events, dealer, later)
    position["decision"]["drawn"] = None
    with pytest.raises(InputError, match="null only on the dealer's first turn"):
        read_position(position)
