"""The known differences between tsumolab and the community replay editor (tests/test_editor_diff.py).

One entry per class of difference the differential test may meet: its id, the rule of sims/RULES.md it
concerns, which side is wrong ("editor": an editor bug, with its file and line in the checkout of
Fat-pig-Cui/majsoul-replay-editor at commit a60b2a6; "question": a rule the sources leave open, tsumolab keeping
its default and the option; "tsumolab": a tsumolab bug or omission still open; "harness": the tests' own driving of
the editor), and what differs. CHUANMA_RECORDS lists how the two programs' Mahjong Soul chuanma records of the same
play differ, field by field (CHUANMA_RECORD_FIELDS). `classify` names the class
of an observed difference from the hand's log; a difference it cannot name is unexplained and fails the test.
`expected_in_sample` is False for a class the slow sample is not expected to meet (with the reason in `note`).
"""

from __future__ import annotations

from typing import NamedTuple

from tests.editor_bridge import editor_tile


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
        "fantasy-love-price-red-five", "FL", "editor",
        "src/core/utils.ts:283-285 (isDora): the tile is simplified (0m → 5m) before the red-five test, so the test "
        "never holds; 爱的代价 (core.ts:628) then charges nothing for calling a red five that the indicators do not "
        "make a dora, and the next winner takes 2000 less from the table. FL: calling another's dora costs 2000; "
        "a red five is a dora (R-3), as the editor's own dead test intends."),
    KnownDifference(
        "fantasy-giveaway-dora", "FL", "editor",
        "src/core/calcFan.ts:217-218: 赠品's count is every face-up, red and ura dora of the hand as computed before "
        "the card and riichi checks: ura dora count for a dealer who is not in riichi (a hand without riichi has "
        "no ura dora, R-1), and under 里世界 (FL: riichi wins ignore face-up dora) the ignored face-up dora still "
        "count. FL: +1000 per dora of the win."),
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
    KnownDifference(
        "astrology-dealer-kan-opens-pool", "A", "editor",
        "main.js:6385-6391 (mopai; a replacement draw pushes the dead-wall tile, then the refill): the "
        "editor fills the pool on every draw, so a closed kan the dealer declares before its first discard opens "
        "the pool with its replacement tile and two live-wall tiles; rule A opens the pool only once the dealer "
        "has discarded, so tsumolab draws that replacement tile straight from the dead wall.", False,
        "not met in the samples: a dealer's closed kan before its first discard"),
    KnownDifference(
        "astrology-replacement-candidate-order", "A", "question",
        "main.js:6388-6391 (mopai): on a replacement draw the editor puts the dead-wall tile into the pool before "
        "the live-wall refill; tsumolab reveals the refill first and the dead-wall tile last "
        "(sims.riichi.astrology_pool). The order only differs when an open kan on the dealer's first discard opens "
        "the pool with both (source 002 does not say); RecordFillAwaitingTiles then lists the pool in another "
        "order and tile_index counts in it, and analyzer.games.majsoul reads the last tile a replacement draw adds "
        "as the dead-wall one.", False,
        "not met in the samples: an open kan on the dealer's first discard"),
)
# Record fields (issue 29): where tsumolab's own chuanma record of a simulated match and the editor's record of the
# same play differ, checked by tests/test_editor_records.py (not met by the differential test, which compares wins
# and points).
RECORD_NOTE = "a field of the chuanma records (tests/test_editor_records.py), not a difference of wins or points"
CHUANMA_RECORDS: tuple[KnownDifference, ...] = (
    KnownDifference(
        "chuanma-record-fan-details", "B-19", "tsumolab",
        "Each hule of tsumolab's chuanma records (and the hand's hules_history) gives the fan count (`count`) with "
        "empty `fans` (no fan ids), fu 0 and no title_id: Bloodshed counts fan only (B-19); the editor lists its fan "
        "ids and writes fu 30.", False, RECORD_NOTE),
    KnownDifference(
        "chuanma-record-tsumogiri", "B-8", "question",
        "`moqie` on RecordDiscardTile: tsumolab marks a discard of the kind just drawn as tsumogiri; the editor marks "
        "it only when no other copy of that kind is in the hand (main.js qiepai: indexOf finds the first copy). Number "
        "tiles have no red fives in Bloodshed (B-1), so which copy went is not in either log.", False, RECORD_NOTE),
    KnownDifference(
        "chuanma-record-dealer-draw", "B-5", "question",
        "RecordNewRound's dealer tiles: tsumolab writes its 14th tile (the first draw) last, the editor sorts all 14; "
        "tsumolab's reader takes the last one as the first draw, which changes no position (the dealer's first turn "
        "has no drawn tile).", False, RECORD_NOTE),
    KnownDifference(
        "chuanma-record-no-wall", "B-1", "tsumolab",
        "tsumolab's records write no wall (RecordNewRound's paishan and its sha256): the review never needs it.",
        False, RECORD_NOTE),
    KnownDifference(
        "chuanma-record-waits", "B-20", "tsumolab",
        "tsumolab writes none of the client's hint fields the editor computes (tingpai, tingpais, is_kailiqi, "
        "tile_states of a kan); the review does not read them.", False, RECORD_NOTE),
    KnownDifference(
        "chuanma-record-hand-count", "B-2", "harness",
        "RecordNewRound's ju_count (the hand's index in the match): the bridge plays each hand in a fresh editor "
        "project, whose count restarts at 0; tsumolab writes 0..3. The reader numbers hands by their order.", False,
        RECORD_NOTE),
)
# (record, field) → the class its difference belongs to; `hules.fans` is a field of each hule
CHUANMA_RECORD_FIELDS = {
    **{(r, f): "bloodshed-kan-one-payer" for r, f in (
        ("RecordGangResult", "gang_infos"), ("RecordChiPengGang", "scores"), ("RecordHuleXueZhanMid", "old_scores"),
        ("RecordHuleXueZhanMid", "scores"), ("RecordHuleXueZhanEnd", "old_scores"), ("RecordHuleXueZhanEnd", "scores"),
        ("RecordNoTile", "scores"))},
    **{(r, f"{h}.{f}"): "chuanma-record-fan-details" for r in ("RecordHuleXueZhanMid", "RecordHuleXueZhanEnd")
       for h in ("hules", "hules_history") for f in ("fans", "fu", "title_id")},
    ("RecordDiscardTile", "moqie"): "chuanma-record-tsumogiri",
    **{("RecordNewRound", f"tiles{s}"): "chuanma-record-dealer-draw" for s in range(4)},
    ("RecordNewRound", "paishan"): "chuanma-record-no-wall", ("RecordNewRound", "sha256"): "chuanma-record-no-wall",
    **{(r, f): "chuanma-record-waits" for r, f in (
        ("RecordSelectGap", "tingpai"), ("RecordDiscardTile", "tingpais"), ("RecordDiscardTile", "is_kailiqi"),
        ("RecordChiPengGang", "tingpais"), ("RecordChiPengGang", "tile_states"), ("RecordAnGangAddGang", "tingpais"),
        ("RecordAnGangAddGang", "tile_states"))},
    ("RecordNewRound", "ju_count"): "chuanma-record-hand-count",
}
BY_ID = {k.id: k for k in KNOWN_DIFFERENCES + CHUANMA_RECORDS}

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
    if mode == "fantasy" and cards.get("chance") == "golden" and _golden_ura(events, ours, theirs):
        return "fantasy-golden-ura"
    if mode == "fantasy" and cards.get("fate") == "love-price" and _love_price_red_fives(events, deltas):
        return "fantasy-love-price-red-five"
    if mode == "fantasy" and cards.get("dealer") == "giveaway" and _giveaway_dora(events, ours, theirs, deltas):
        return "fantasy-giveaway-dora"
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


def _next_kind(tile: str) -> str:
    """The dora a tile indicates (R-1), in the editor's names (red fives 0m/0p/0s read as fives)."""
    n, suit = int(tile[0]) or 5, tile[1]
    if suit != "z":
        return f"{n % 9 + 1}{suit}"
    return f"{n % 4 + 1}z" if n <= 4 else f"{(n - 4) % 3 + 5}z"


def _kind(tile: str) -> str:
    return ("5" + tile[1]) if tile[0] == "0" else tile[:2]


def _deltas_moved(deltas: tuple, moves: dict) -> bool:
    """The editor's deltas are tsumolab's plus `moves` (seat → points), and nothing else differs."""
    return list(deltas[1]) == [d + moves.get(s, 0) for s, d in enumerate(deltas[0])] and any(moves.values())


def _love_price_red_fives(events: list[dict], deltas: tuple) -> bool:
    """FL 爱的代价 (fantasy-love-price-red-five): each call of a red five that the face-up indicators do not make a
    dora puts 2000 less on the editor's table, so the hand's stick taker gets 2000 less per such call."""
    wall = next(e for e in events if e["type"] == "wall")
    shown, missed = 1, 0
    for e in events:
        if e["type"] == "dora":
            shown = e["shown"]
        elif e["type"] in ("chi", "pon", "daiminkan") and e["pai"].endswith("r"):
            missed += all(_next_kind(editor_tile(m)) != e["pai"][:2] for m in wall["dora_markers"][:shown])
    takers = [e["to"] for e in events if e["type"] == "payment" and e["from"] == -1 and e["to"] >= 0]
    return missed > 0 and len(takers) == 1 and _deltas_moved(deltas, {takers[0]: -2000 * missed})


def _giveaway_dora(events: list[dict], ours: list[dict], theirs: list[dict], deltas: tuple) -> bool:
    """FL 赠品 (fantasy-giveaway-dora): the editor pays the dealer's ron +1000 per face-up dora (counted even
    under 里世界), red five and ura dora (counted without riichi), as calcFan.ts:217 counts them."""
    start, wall = events[0], next(e for e in events if e["type"] == "wall")
    golden = start["cards"]["chance"] == "golden"
    moves: dict = {}
    for win in ours:
        if win["actor"] != start["oya"] or win["kind"] == "tsumo":
            continue
        theirs_win = next((t for t in theirs if t["seat"] == win["actor"]), None)
        if theirs_win is None or theirs_win["han"] != win["han"]:
            return False
        kinds = [_kind(t) for t in theirs_win["tiles"] if t]
        indicators = theirs_win["doras"] + [editor_tile(u) for u in wall["ura_markers"][:len(theirs_win["doras"])]]
        count = sum(t[0] == "0" for t in theirs_win["tiles"] if t) + sum(
            kinds.count(_next_kind(i)) + golden * kinds.count(_kind(i)) for i in indicators)
        paid = sum(e["amount"] for e in events if e["type"] == "payment" and e["reason"] == "fl_giveaway"
                   and e["to"] == win["actor"])
        moves[win["actor"]] = moves.get(win["actor"], 0) + 1000 * count - paid
        moves[win["target"]] = moves.get(win["target"], 0) - 1000 * count + paid
    return _deltas_moved(deltas, moves)


def _golden_ura(events: list[dict], ours: list[dict], theirs: list[dict]) -> bool:
    """FL 金闪闪 (fantasy-golden-ura): every win's han in the editor is tsumolab's plus, for a riichi winner, one
    per tile of the hand matching an ura indicator (the editor's extra ura dora); at least one such han."""
    wall = next(e for e in events if e["type"] == "wall")
    riichi = {e["actor"] for e in events if e["type"] == "reach_accepted"}
    if sorted(w["actor"] for w in ours) != sorted(t["seat"] for t in theirs):
        return False
    extra_total = 0
    for win in ours:
        theirs_win = next(t for t in theirs if t["seat"] == win["actor"])
        kinds = [_kind(t) for t in theirs_win["tiles"] if t]
        extra = 0 if win["actor"] not in riichi else sum(
            kinds.count(_kind(editor_tile(u))) for u in wall["ura_markers"][:len(theirs_win["doras"])])
        if win["han"] >= 13 or theirs_win["han"] != win["han"] + extra:
            return False
        extra_total += extra
    return extra_total > 0


def _bloodshed_class(events: list[dict], deltas: tuple) -> str | None:
    if deltas[1] is None:
        return "bloodshed-draw-settlement-crash"
    if any(e["type"] == "hora" and e["kind"] == "robbed_kan" for e in events):
        return "bloodshed-robbed-kan"
    editor_kans = _editor_kan_money(events, deltas[0])
    if editor_kans == list(deltas[1]):
        return "bloodshed-kan-one-payer"
    if not any(e["type"] == "draw_state" and e["tenpai"] for e in events):  # the editor skips 查花猪 (core.ts:1205)
        no_pigs = [d - sum(e["flower_pig"] for e in events if e["type"] == "settlement" and e["actor"] == s)
                   for s, d in enumerate(editor_kans)]
        if no_pigs == list(deltas[1]):
            return "bloodshed-pig-without-tenpai"
    return None


def _editor_kan_money(events: list[dict], ours: list[int]) -> list[int]:
    """tsumolab's deltas with each closed / added kan paid as the editor pays it (core.ts:833, :853): only by the
    highest-numbered seat among the payers; a kan owner who refunds at the exhaustive draw (B-21, noten) refunds
    only that payment."""
    out = list(ours)
    won = {e["actor"] for e in events if e["type"] == "hora"}
    tenpai = {e["actor"] for e in events if e["type"] == "draw_state" and e["tenpai"]}
    refunds = set(range(4)) - won - tenpai if events[-1]["end"] == "exhaustive" else set()
    for i, e in enumerate(events):
        if e["type"] not in ("ankan", "kakan"):
            continue
        paid = []
        for p in events[i + 1:]:
            if p["type"] != "payment":
                break
            if p["reason"] in ("closed_kan", "added_kan"):
                paid.append(p)
        for p in sorted(paid, key=lambda p: p["from"])[:-1]:  # every payer but the highest-numbered one
            back = 0 if e["actor"] in refunds else p["amount"]
            out[p["from"]] += back
            out[e["actor"]] -= back
    return out


def listed_kind(d) -> str | None:
    """The id of the known difference a tests.editor_bridge.Difference belongs to (None: unexplained)."""
    return d.known if d.known in BY_ID else None
