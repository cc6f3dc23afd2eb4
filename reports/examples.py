"""One example hand per claim where the treatment's decision mattered, re-simulated with its event log.

The treatment and the control play the same walls in the same seat, so hand h of match m is dealt the same
tiles in both arms. A hand is a candidate when the treatment's typical decision shows in the treatment arm's
row (e.g. for pass-cheap-ron: a passed win, then a tsumo win) and the subject gained more points in that hand
than the control did on the same wall (in the claimed direction). The largest gain is shown.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from tsumolab.analyzer.i18n import N_
from tsumolab.reports.data import ClaimData

_JOIN = ["field", "subject_seat", "match_id", "hand"]
_COMPARED = ["delta", "won", "win_kind", "passed_wins", "kans", "flower_pig", "tenpai_at_draw", "pattern",
             "draw_settlement", "hand_end"]


@dataclass(frozen=True)
class Signature:
    description: str
    condition: pl.Expr
    """over the joined frame: treatment columns as they are, control columns suffixed `_control`"""


def _signature(experiment: dict) -> Signature:
    treatment = experiment["treatment"].split("(", 1)[0]
    control = experiment["control"].split("(", 1)[0]
    if treatment == "pass-cheap-ron" and control == "pass-cheap-ron":
        return Signature(N_("the treatment took a win the control passed"),
                         pl.col("won") & (pl.col("passed_wins_control") > pl.col("passed_wins")))
    if treatment == "pass-cheap-ron":
        return Signature(N_("the treatment passed a win and later won by tsumo"),
                         (pl.col("passed_wins") > 0) & pl.col("won") & (pl.col("win_kind") == "tsumo"))
    if treatment == "always-kan":
        return Signature(N_("the treatment declared more kans than the control"),
                         pl.col("kans") > pl.col("kans_control"))
    if control == "keep-void":
        return Signature(N_("the control ended the hand as a flower pig, the treatment did not"),
                         pl.col("flower_pig_control") & ~pl.col("flower_pig"))
    if control == "fold":
        return Signature(N_("the treatment won or was tenpai at the draw, the folding control was not"),
                         (pl.col("won") | pl.col("tenpai_at_draw"))
                         & ~(pl.col("won_control") | pl.col("tenpai_at_draw_control")))
    if treatment == "flush-seeker":
        return Signature(N_("the treatment won with a flush (清) pattern"),
                         pl.col("won") & pl.col("pattern").str.contains("清"))
    if treatment == "stall-for-draw":
        return Signature(N_("the treatment gained at the exhaustive-draw settlement (查花猪, 查大叫)"),
                         (pl.col("hand_end") == "exhaustive") & (pl.col("draw_settlement") > 0))
    return Signature(N_("the hand went differently for the treatment than for the control on the same wall"),
                     pl.col("delta") != pl.col("delta_control"))


@dataclass(frozen=True)
class ExampleHand:
    description: str
    """what the treatment did (the signature searched for)"""
    field: str
    subject_seat: int
    match_id: int
    hand: int
    seats: tuple[str, ...]
    treatment_delta: int
    control_delta: int
    control: dict
    """how the control fared in the same hand: won_control, win_kind_control, pattern_control,
    flower_pig_control, tenpai_at_draw_control, delta_control (reports.example_text words it)"""
    mode: str
    labels: tuple[str, ...]
    events: list[dict]
    """the hand's JSON events (analyzer.replay.bloodshed_events.to_json_events)"""
    key_events: list[dict]
    """the events with passes, wins, kans and settlements (the PDF shows these)"""

    @property
    def lines(self) -> list[str]:
        """the hand's replay text in English (reports.example_text gives it in the report's language)"""
        from tsumolab.reports.example_text import lines

        return lines(self)

    @property
    def key_lines(self) -> list[str]:
        from tsumolab.reports.example_text import key_lines

        return key_lines(self)

    @property
    def control_summary(self) -> str:
        from tsumolab.reports.example_text import control_summary

        return control_summary(self)


@dataclass(frozen=True)
class NoExample:
    description: str
    """what was searched for (an English message)"""
    reason: str = ""
    """why a hand that was found cannot be shown (no event log for the mode), else empty"""


def find_example(claim: ClaimData) -> ExampleHand | NoExample:
    """The example hand of a claim, replayed, or NoExample naming what was searched for."""
    signature = _signature(claim.experiment)
    hit = _best_hand(claim, signature)
    if hit is None:
        return NoExample(signature.description)
    from tsumolab.analyzer.errors import InputError

    try:
        return _replay(claim, signature, hit)
    except InputError as exc:  # a mode without an event log
        return NoExample(signature.description, str(exc))


def _best_hand(claim: ClaimData, signature: Signature) -> dict | None:
    hands = claim.hands
    present = [c for c in _COMPARED if c in hands.columns]
    treat = hands.filter(pl.col("arm") == "treatment").select(*_JOIN, *present)
    control = hands.filter(pl.col("arm") == "control").select(*_JOIN, *present)
    joined = treat.join(control, on=_JOIN, suffix="_control")
    sign = 1 if claim.experiment["direction"] == "greater" else -1
    joined = joined.with_columns((sign * (pl.col("delta") - pl.col("delta_control"))).alias("gain"))
    try:
        found = joined.filter(signature.condition & (pl.col("gain") > 0))
    except pl.exceptions.ColumnNotFoundError:
        return None
    if found.height == 0:
        return None
    field_order = {f["label"]: i for i, f in enumerate(claim.experiment["fields"])}
    found = found.with_columns(pl.col("field").replace_strict(field_order, return_dtype=pl.Int64).alias("_f"))
    return found.sort(["gain", "_f", "match_id", "hand", "subject_seat"],
                      descending=[True, False, False, False, False]).row(0, named=True)


def _replay(claim: ClaimData, signature: Signature, hit: dict) -> ExampleHand:
    from tsumolab.analyzer.replay.match import replay_match
    from tsumolab.analyzer.runs.record import read_run_record, record_spec

    cell = next(c for c in claim.cells if c.arm == "treatment" and c.field == hit["field"]
                and c.subject_seat == hit["subject_seat"])
    exp = claim.experiment
    spec = record_spec(read_run_record(cell.run_dir))
    events, labels, _hands, _matches = replay_match(spec, int(hit["match_id"]))
    hand_events = _hand_events(events, int(hit["hand"]))
    control = {k: hit.get(k) for k in ("won_control", "win_kind_control", "pattern_control", "flower_pig_control",
                                       "tenpai_at_draw_control", "delta_control")}
    return ExampleHand(
        description=signature.description, field=hit["field"], subject_seat=int(hit["subject_seat"]),
        match_id=int(hit["match_id"]), hand=int(hit["hand"]), seats=tuple(cell.seats),
        treatment_delta=int(hit["delta"]), control_delta=int(hit["delta_control"]), control=control,
        mode=exp["mode"], labels=tuple(labels), events=hand_events,
        key_events=[e for e in hand_events if _is_key_event(e, cell.subject_seat)])


_KEY_EVENTS = {"pass_win", "hora", "daiminkan", "ankan", "kakan", "reach", "draw_state", "settlement", "void"}


def _is_key_event(event: dict, seat: int) -> bool:
    """Events the PDF's short excerpt keeps: the hand's start, the subject's passes, kans, void and settlement,
    every win, and the hand's end."""
    kind = event["type"]
    if kind == "settlement" and not any(event[k] for k in ("refund", "flower_pig", "dajiao")):
        return False
    return (kind in ("start_kyoku", "end_kyoku", "hora")
            or kind in _KEY_EVENTS and event.get("actor") == seat)


def _hand_events(events: list[dict], hand: int) -> list[dict]:
    out, current = [], None
    for event in events:
        if event["type"] == "start_kyoku":
            current = event["hand"]
        if current == hand:
            out.append(event)
    return out
