"""`tsumolab replay --json` determines every hand, in every mode (issue 21): a minimal reader that knows only the
log (tests/replay_reader.py, no engine code) re-plays each hand and reaches the end state the engine reached —
every tile accounted for, each draw the next tile of the logged wall, every call and win possible, the winners
and the hand sizes the engine's hand rows record."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.replayed import replayed
from tsumolab.analyzer.tables import mode_columns
from tsumolab.sims.modes import MODES, get_mode
from tests.replay_reader import LogError, hands_of, read_hand

RIICHI_MODES = sorted(m for m in MODES if m != "bloodshed")


def _check_match(variant: str, seed: int, match: int, seats: str = "baseline") -> int:
    events, _, hand_rows, _ = replayed(variant, seed, match, seats)
    col = {c[0]: i for i, c in enumerate(mode_columns(get_mode(variant), "hands"))}
    hands = hands_of(events)
    assert len(hands) == int(hand_rows[:, col["hand"]].max())
    sticks = {int(r[col["hand"]]): int(r[col["sticks_before"]]) for r in hand_rows}
    for hand in hands:
        state = read_hand(hand)
        assert hand[0]["kyotaku"] == sticks[hand[0]["hand"]]
        end = hand[-1]
        assert end["type"] == "end_kyoku"
        assert len(state["winners"]) == end["winners"]
        wall = next((e for e in hand if e["type"] == "wall"), None)
        if wall is not None:
            every = Counter(wall["ids"])
            assert len(every) == 136 and set(every.values()) == {1}
            held = sum(sum(h.values()) for h in state["hands"]) + sum(len(m) for ms in state["melds"] for m in ms)
            shown = sum(len(r) for r in state["rivers"])
            # every tile taken from the wall is in a hand, a meld, a river or the astrology pool
            assert held + shown + len(state["pool"]) == 52 + state["live_used"] + state["rinshan_used"]
            if end["end"] == "exhaustive" and variant != "astrology":
                assert state["live_used"] + state["rinshan_used"] == 70
    return len(hands)


@pytest.mark.parametrize("variant", RIICHI_MODES)
def test_issue21_replay_log_of_every_riichi_mode_replays_from_the_log_alone(variant):
    """Issue 21 / R-1: the log's deal, wall, draws, calls and wins replay without the engine in every
    riichi-based mode, and reach the engine's winners; start_kyoku's kyotaku is the engine's sticks (R-3)."""
    assert _check_match(variant, 21, 0) >= 4


def test_issue21_bloodshed_log_names_consumed_tiles_and_ron_targets():
    """Issue 21 / B-1, B-12: Bloodshed's log gives the dealer's first draw, the consumed tiles of pon and open kan,
    and each ron's discarder (mjai `target`), so the reader replays every hand to the logged winners."""
    events, _, _, _ = replayed("bloodshed", 21, 0, "baseline")
    hands = hands_of(events)
    assert hands
    for hand in hands:
        read_hand(hand)
    calls = [e for e in events if e["type"] in ("pon", "daiminkan")]
    wins = [e for e in events if e["type"] == "hora"]
    assert calls and all(len(e["consumed"]) in (2, 3) for e in calls)
    assert wins and all("target" in e for e in wins)


def test_issue21_reader_refuses_an_impossible_log():
    """The reader is a real check: a draw that is not the next wall tile fails it."""
    events, _, _, _ = replayed("riichi", 21, 0, "baseline")
    hand = hands_of(events)[0]
    draw = next(i for i, e in enumerate(hand) if e["type"] == "tsumo" and i > 3)
    wrong = dict(hand[draw], pai="1z" if hand[draw]["pai"] != "1z" else "2z")
    with pytest.raises(LogError):
        read_hand(hand[:draw] + [wrong] + hand[draw + 1:])
