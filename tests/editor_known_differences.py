"""The known differences between tsumolab and the community replay editor (tests/test_editor_diff.py).

One entry per class of difference the differential test may meet: its id, the rule of /work/shared/RULES.md it
concerns, which side is wrong ("editor": an editor bug, with its file and line in the checkout of
Fat-pig-Cui/majsoul-replay-editor at commit a60b2a6; "question": a rule the sources leave open, tsumolab keeping
its default and the option; "tsumolab": a tsumolab bug still open), and what differs. `classify` names the class
of an observed difference from the hand's log; a difference it cannot name is unexplained and fails the test.
`expected_in_sample` is False for a class the slow sample is not expected to meet (with the reason in `note`).
"""

from __future__ import annotations

from typing import NamedTuple


class KnownDifference(NamedTuple):
    id: str
    rule: str
    side: str
    explanation: str
    expected_in_sample: bool = True
    note: str = ""


KNOWN_DIFFERENCES: tuple[KnownDifference, ...] = (
    KnownDifference(
        "chant-run-counter", "C", "editor",
        "src/core/utils.ts:326 (updateShoumoqie): after a run ends at j the scan sets i = j + 1 and the loop's own "
        "i++ skips entry j + 1, so a run starting right after another run loses its first discard: the editor "
        "undercounts tsumogiri and hand-discard runs and gives fewer bonus han than rule C."),
    KnownDifference(
        "chant-called-discards", "C", "question",
        "src/core/core.ts:658: the editor removes a discard that another player calls from its discarder's run "
        "record; tsumolab counts it by default (RULES.md C leaves it open; the option count_called=false drops it "
        "as the editor does, and the difference does not occur then)."),
    KnownDifference(
        "chant-dealer-first-discard", "C", "question",
        "The editor deals the dealer 14 tiles and records its first discard as a hand discard (core.ts qiepai: "
        "never tsumogiri right after RecordNewRound); tsumolab deals 13 and draws the 14th, so discarding that tile "
        "is a tsumogiri and can extend a tsumogiri run. Rule C says 'discarding the tile just drawn'.", False,
        "not met in the slow sample (281 chant hands): needs a dealer winner whose longest run starts there"),
    KnownDifference(
        "soul-strike-trigger-ron", "SS", "question",
        "The editor gives the +2 overload han to the ron that triggers the overload (a ron on the declaration "
        "tile or on a strike discard); tsumolab's default trigger_ron_bonus=false does not."),
    KnownDifference(
        "noten-fractions", "R-3", "editor",
        "At an exhaustive draw the editor splits the noten payments in fractions of 1000 (e.g. 333.33) when riichi "
        "players are tenpai; tsumolab pays 3000 split over the tenpai players in whole points."),
    KnownDifference(
        "fantasy-fuuki-inverted", "FL", "editor",
        "src/core/calcFan.ts:65: the 风纪 check forbids the closed dealer's ron when the dealer *is* in riichi "
        "(liqi !== 0), against its own comment and source 001; the editor turns a legal ron into a false win "
        "(诈和, 0 han, a mangan penalty)."),
    KnownDifference(
        "fantasy-golden-ura", "FL", "question",
        "src/core/calcFan.ts:211: under 金闪闪 the editor also counts ura indicators as ura dora; source 001 only "
        "says dora indicators are dora."),
    KnownDifference(
        "fantasy-confiscate-draw", "FL", "question",
        "没收 at an exhaustive draw: the sticks on the table go to the dealer in tsumolab (FL: 'at a draw all sticks "
        "on the table go to the dealer'); the editor's settlement pays them otherwise (src/core/core.ts huangpai). "
        "Sources 001/002 do not say how they combine with the noten payments."),
    KnownDifference(
        "darkness-face-down-furiten", "D", "editor",
        "The editor's furiten check scans the player's own face-down discards and turns a legal ron into a false "
        "win; source 002 says face-down tiles cause no furiten.", False, "met only outside the sample so far"),
    KnownDifference(
        "bloodshed-kan-one-payer", "B-14", "editor",
        "src/core/core.ts:833 and :853 (zimingpai, chuanma): the loop over the payers of a closed / added kan "
        "overwrites chuanma_gangs.not_over at each seat, so only the last seat still in the hand pays the kan "
        "money; B-14 has every player still in the hand pay."),
    KnownDifference(
        "bloodshed-draw-settlement-crash", "B-23", "editor",
        "src/core/calcFan.ts:1012 and :1020 (calcFanChuanma, 查大叫 branch): updateRet reads the outer `ret`, "
        "declared later (line 1028), so the exhaustive-draw settlement throws 'Cannot access ret before "
        "initialization' as soon as a tenpai player's maximum value is looked up; the editor cannot settle."),
    KnownDifference(
        "bloodshed-pig-without-tenpai", "B-22", "editor",
        "src/core/core.ts:1205 (huangpai): 查花猪 and 查大叫 sit inside `if (ting_cnt !== 0 && no_ting_cnt !== 0)`, "
        "so when no player still in the hand is tenpai the flower pigs pay nothing; B-22 has each flower pig pay "
        "every player who is not a flower pig."),
    KnownDifference(
        "bloodshed-robbed-kan", "B-17", "editor",
        "A robbed added kan stays a kan in the editor (and adds a 根 to the robbed hand's count); B-17 makes the "
        "robbed tile the winner's, the kan undone, and pays no kan money for it.", False,
        "one hand in 360 in the issue's exploration"),
    KnownDifference(
        "astrology-last-candidates", "A", "editor",
        "src/core/core.ts:266: the editor keeps refilling the candidates until the live wall is empty and counts "
        "haitei only then; source 002 and tsumolab stop refilling at 3 tiles, the last candidate being haitei.",
        False, "needs a win or a draw on the last candidates"),
)
BY_ID = {k.id: k for k in KNOWN_DIFFERENCES}

CHANT_TSUMOGIRI = ((12, 12), (9, 5), (7, 3), (5, 2), (3, 1))  # RULES.md C: run length → bonus han
CHANT_HAND = ((18, 12), (12, 5), (9, 3), (6, 2), (3, 1))


def _bonus(length: int, table) -> int:
    return next((han for at_least, han in table if length >= at_least), 0)


def _longest(flags: list[bool], want: bool, skip_after_run: bool) -> int:
    """Longest run of `want` in flags; `skip_after_run` models the editor's scan, which also skips the entry after
    the one that ended a run."""
    best, i = 0, 0
    while i < len(flags):
        if flags[i] == want:
            j = i + 1
            while j < len(flags) and flags[j] == want:
                j += 1
            best = max(best, j - i)
            i = j + 2 if skip_after_run else j  # j ends the run; the editor resumes past j + 1
        else:
            i += 1
    return best


def chant_bonus(discards: list[tuple[bool, bool, bool]], drop_called=False, first_as_hand=False, skip=False) -> int:
    """Rule C bonus han of a seat's discards (tsumogiri, called, the dealer's first discard), with the editor's
    choices switched on one by one."""
    flags = [(tg and not (first and first_as_hand)) for tg, called, first in discards if not (called and drop_called)]
    return (_bonus(_longest(flags, True, skip), CHANT_TSUMOGIRI)
            + _bonus(_longest([not f for f in flags], True, skip), CHANT_HAND))


def _discards(events: list[dict], seat: int, upto: int) -> list[tuple[bool, bool, bool]]:
    out = []
    dealer = events[0]["oya"]
    for i, e in enumerate(events[:upto]):
        if e["type"] == "dahai" and e["actor"] == seat:
            nxt = next((x for x in events[i + 1:upto + 1] if x["type"] not in ("payment", "reach_accepted")), {})
            called = nxt.get("type") in ("chi", "pon", "daiminkan") and nxt.get("target") == seat
            out.append((e["tsumogiri"], called, seat == dealer and not out))
    return out


def _chant_class(events: list[dict], win: dict, editor_han: int) -> str | None:
    """The editor's choices, switched on one by one from tsumolab's (count_called as the hand's start_kyoku says),
    that turn tsumolab's bonus into the editor's."""
    at = events.index(win)
    discards = _discards(events, win["actor"], at)
    opts: dict = {"drop_called": not events[0].get("rules", {}).get("count_called", True)}
    ours = chant_bonus(discards, **opts)
    wanted = ours + editor_han - win["han"]
    steps = [("chant-dealer-first-discard", {"first_as_hand": True}), ("chant-called-discards", {"drop_called": True}),
             ("chant-run-counter", {"skip": True})]
    changed = []
    for kind, opt in steps:
        before = chant_bonus(discards, **opts)
        opts.update(opt)
        if chant_bonus(discards, **opts) != before:
            changed.append(kind)
    if chant_bonus(discards, **opts) == wanted and changed:
        return changed[-1] if "chant-run-counter" in changed else changed[0]
    return None


def classify(mode: str, events: list[dict], ours: list[dict], theirs: list[dict], deltas: tuple) -> str | None:
    """The known class of one hand's differences, or None. `ours` are tsumolab's hora events, `theirs` the
    editor's wins ({seat, han, fu, false_win}), `deltas` (tsumolab's, the editor's)."""
    start = events[0]
    if mode == "bloodshed":
        return _bloodshed_class(events, deltas)
    if any(isinstance(d, float) and d != int(d) for d in deltas[1]):
        return "noten-fractions"
    cards = start.get("cards", {})
    end = events[-1]["end"]
    if mode == "fantasy" and cards.get("dealer") == "confiscate" and end != "win" and not ours:
        return "fantasy-confiscate-draw"
    if mode == "fantasy" and cards.get("chance") == "golden" and len(ours) == len(theirs) and all(
            t["han"] >= w["han"] for w, t in zip(sorted(ours, key=lambda w: w["actor"]),
                                                  sorted(theirs, key=lambda w: w["seat"]))) and \
            any(e["type"] == "reach" and e["actor"] in {w["actor"] for w in ours} for e in events):
        return "fantasy-golden-ura"  # a riichi winner: the editor's extra han are its ura indicators as dora
    if len(ours) == len(theirs):
        pairs = list(zip(sorted(ours, key=lambda w: w["actor"]), sorted(theirs, key=lambda w: w["seat"])))
        for win, theirs_win in pairs:
            if theirs_win["false_win"] and mode == "fantasy" and start.get("cards", {}).get("dealer") == "fuuki" \
                    and win["actor"] == start["oya"] and win["kind"] == "ron":
                return "fantasy-fuuki-inverted"
            if theirs_win["false_win"] and mode == "darkness" and win["kind"] == "ron":
                return "darkness-face-down-furiten"
            if mode == "chant" and theirs_win["han"] != win["han"]:
                return _chant_class(events, win, theirs_win["han"])
            if mode == "soul-strike" and theirs_win["han"] == win["han"] + 2 and win["kind"] == "ron" \
                    and any(e["type"] == "reach" and e["actor"] == win["target"] for e in events):
                return "soul-strike-trigger-ron"
    return None


def _bloodshed_class(events: list[dict], deltas: tuple) -> str | None:
    if deltas[1] is None:
        return "bloodshed-draw-settlement-crash"
    if any(e["type"] == "hora" and e["kind"] == "robbed_kan" for e in events):
        return "bloodshed-robbed-kan"
    pigs = any(e["type"] == "settlement" and e["flower_pig"] < 0 for e in events)
    if pigs and not any(e["type"] == "draw_state" and e["tenpai"] for e in events):
        return "bloodshed-pig-without-tenpai"
    kan_seats = {e["actor"] for e in events if e["type"] in ("ankan", "kakan")}
    # a closed / added kan's owner got different kan money from the editor (less at the kan; less refunded by a
    # noten owner at an exhaustive draw, B-21): only the kan money is off, the hand's wins agreed
    if kan_seats and any(ours != theirs for s, (ours, theirs) in enumerate(zip(*deltas)) if s in kan_seats) \
            and sum(deltas[1]) == 0:
        return "bloodshed-kan-one-payer"
    return None


def listed_kind(d) -> str | None:
    """The id of the known difference a tests.editor_bridge.Difference belongs to (None: unexplained)."""
    return d.known if d.known in BY_ID else None
