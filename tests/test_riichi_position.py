"""Positions of the riichi modes from one seat's view (analyzer.advise.riichi_position): a simulated decision written as
the seat's mjai events and rebuilt through the engine gives the seat the same observation, raw mjai logs are read,
bad documents are refused with one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tsumolab.analyzer.advise.bloodshed_position import PositionError
from tsumolab.analyzer.advise.riichi_position import build_position, position_document, read_document, seat_view_events
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


def sampled_positions(variant: str, spec: str, seed: int, n_matches: int, per_hand: int):
    """(position, document) at `per_hand` random decisions of every hand of the first `n_matches` matches."""
    table = RiichiEngine(parse_seats(spec), get_mode(variant).rules_class(), root_seed=seed, keep_events=True)
    pick = np.random.default_rng(seed)
    for match_id in range(n_matches):
        hand_no = 1
        while (full := table.play_hand(match_id, hand_no)) is not None:
            n = full.n_decisions
            for k in sorted(pick.choice(n, size=min(n, per_hand), replace=False).tolist()):
                pos = table.at_decision(match_id, hand_no, k)
                yield pos, position_document(variant, pos, f"{variant} seed {seed} match {match_id} hand {hand_no}")
            hand_no += 1


def check_round_trips(variant: str, spec: str, seed: int, n_matches: int, per_hand: int,
                      seen: list | None = None) -> tuple[int, int]:
    """(decisions checked, of which after another seat's win, whose hidden hand had to be rebuilt); each
    (position, document) checked is appended to `seen` when given."""
    failures, n, after_win = [], 0, 0
    for pos, document in sampled_positions(variant, spec, seed, n_matches, per_hand):
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


@pytest.mark.parametrize("variant, mix, seed", [("riichi", 0, 3), ("shura", 0, 4), ("riichi", 1, 5),
                                                ("shura", 1, 6)])
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


@pytest.mark.parametrize("mix, seed", [(0, 3), (1, 5)])
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


@pytest.mark.parametrize("mix, seed", [(0, 3), (1, 5)])
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


@pytest.mark.slow
@pytest.mark.parametrize("variant, mix, seed", [(v, m, s) for v in MIXES for m in (0, 1) for s in (11, 12)])
def test_rebuilt_positions_over_a_thousand_decisions(variant, mix, seed):
    """1,000+ decisions in all (eight runs of at least 110, 1,164 now): riichi and shura, two seat mixes, two
    seeds each."""
    assert check_round_trips(variant, MIXES[variant][mix], seed, n_matches=5, per_hand=6)[0] >= 110


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


def test_damaged_documents_raise_only_position_errors():
    """Random damage to real documents: each either still describes a possible hand or is refused with a
    one-line PositionError, never another exception."""
    import random

    rnd = random.Random(15)
    documents = [d for variant in MIXES for _, d in sampled_positions(variant, MIXES[variant][0], 14, 1, 4)]
    refused = 0
    for _ in range(80):
        try:
            build_position(_mutated(rnd.choice(documents), rnd))
        except PositionError as exc:
            assert "\n" not in str(exc)
            refused += 1
    assert refused >= 40


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
    refused = 0
    for k in range(80):
        document = rnd.choice(documents)
        try:
            build_position(_mutated_deal(document, rnd) if k % 2 else _mutated(document, rnd))
        except PositionError as exc:
            assert "\n" not in str(exc)
            refused += 1
    assert refused >= 40


def test_an_illegal_own_action_is_refused():
    """The seat declares riichi with a hand that is not tenpai: the engine does not allow it."""
    document = _document("riichi", 13)
    seat = document["seat"]
    i = next(i for i, e in enumerate(document["events"]) if e["type"] == "dahai" and e["actor"] == seat)
    bad = json.loads(json.dumps(document))
    bad["events"].insert(i, {"type": "reach", "actor": seat})
    assert "not allowed" in _refused(bad) or "cannot be replayed" in _refused(bad)


@pytest.mark.parametrize("variant", ["riichi", "shura", "fate", "open-deal"])
def test_replay_advise_prints_the_seats_position(variant, capsys):
    """`tsumolab replay --advise N` turns a simulated decision (riichi, shura, fate F, open-deal OD) into the
    seat's position document, which rebuilds to the same decision."""
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


def test_replay_advise_refuses_a_missing_decision_with_one_line(capsys):
    code, out, err = run_cli(["replay", "--variant", "shura", "--seed", "3", "--match", "0", "--hand", "1",
                              "--advise", "5000"], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "fewer than 5001 decisions" in err
