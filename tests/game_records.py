"""Checks of a GameRecord's hands that the reader tests share (tests/test_games_*.py)."""

from collections import Counter
from pathlib import Path

DATA = Path(__file__).parent / "data"


def replay_hand(events: list[dict]) -> None:
    """Replays one hand's events, asserting that every seat holds 13 tiles between turns (a meld counting 3),
    that each discarded, called or kanned tile was held and that calls take the tile just given."""
    start = events[0]
    assert start["type"] == "start_kyoku"
    hands = [Counter(h) for h in start["tehais"]]
    melds = [0] * 4
    given = None  # (seat, tile) of the latest discard or added kan

    def size(seat):
        return sum(hands[seat].values()) + 3 * melds[seat]

    def take(seat, tiles, what):
        for t in tiles:
            assert hands[seat][t] > 0, f"{what}: seat {seat} does not hold {t}"
            hands[seat][t] -= 1

    assert all(size(s) == 13 for s in range(4))
    for n, e in enumerate(events[1:], 1):
        kind, actor = e["type"], e.get("actor")
        what = f"event {n} {e}"
        if kind == "tsumo":
            hands[actor][e["pai"]] += 1
            assert size(actor) == 14, what
        elif kind == "dahai":
            take(actor, [e["pai"]], what)
            assert size(actor) == 13, what
            given = (actor, e["pai"])
        elif kind in ("chi", "pon", "daiminkan"):
            assert given == (e["target"], e["pai"]), what
            take(actor, e["consumed"], what)
            melds[actor] += 1
            assert size(actor) == (13 if kind == "daiminkan" else 14), what
        elif kind == "ankan":
            take(actor, e["consumed"], what)
            melds[actor] += 1
            assert size(actor) == 13, what
        elif kind == "kakan":
            take(actor, [e["pai"]], what)
            assert size(actor) == 13, what
            given = (actor, e["pai"])
        elif kind == "hora" and e["actor"] != e["target"]:
            assert given == (e["target"], e["pai"]), what
        elif kind == "hora":
            assert events[n - 1]["type"] == "tsumo" and events[n - 1]["pai"] == e["pai"], what


def score_chain(record) -> list[list[int]]:
    """Per hand: the start scores + the result deltas - 1000 per riichi deposit, checked against the hand's
    end_kyoku and the next hand's start; returns every hand's scores after it."""
    after = []
    for i, hand in enumerate(record.hands):
        scores = list(hand[0]["scores"])
        for e in hand:
            if e["type"] in ("hora", "ryukyoku") and "deltas" in e:
                scores = [s + d for s, d in zip(scores, e["deltas"])]
            if e["type"] == "reach_accepted":
                scores[e["actor"]] -= 1000
        assert hand[-1]["type"] == "end_kyoku" and hand[-1]["scores"] == scores, f"hand {i + 1}"
        if i + 1 < len(record.hands):
            assert record.hands[i + 1][0]["scores"] == scores, f"hand {i + 2} start"
        after.append(scores)
    return after
