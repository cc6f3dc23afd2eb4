"""The words around a claim's example hand (reports.examples: an ExampleHand or a NoExample) in the report's
language: what was searched for, where the hand is, how the control fared on the same wall, and the hand's event
log. (reports.examples imports this module, not the other way round.)"""

from __future__ import annotations

from tsumolab.analyzer.game_names import pattern_name
from tsumolab.analyzer.i18n import Translator, translator

EN = translator("en")
ANY_DECISION = "a hand where the treatment's decision mattered"


def _field(field: str, tr: Translator) -> str:
    from tsumolab.reports.content import field_name

    return field_name(field, tr)


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def no_example(example, tr: Translator = EN) -> str:
    """The sentence shown when the data hold no example hand (or one that cannot be replayed)."""
    what = tr(example.description) if example is not None else tr(ANY_DECISION)
    if example is not None and example.reason:
        what = tr("{what} (found, but it cannot be replayed: {reason})", what=what, reason=example.reason)
    return tr("No hand in this data where {what} and the treatment gained on the same wall.", what=what)


def control_summary(example, tr: Translator = EN) -> str:
    """How the control did in the same hand on the same wall and seat."""
    from tsumolab.analyzer.replay.bloodshed_events import log_word

    c = example.control
    if c.get("won_control"):
        kind = log_word(c["win_kind_control"], tr)
        what = (tr("won by {kind} ({pattern})", kind=kind, pattern=pattern_name(c["pattern_control"], tr.lang))
                if c.get("pattern_control") else tr("won by {kind}", kind=kind))
    elif c.get("flower_pig_control"):
        what = tr("ended as a flower pig")
    elif c.get("tenpai_at_draw_control"):
        what = tr("was tenpai at the draw")
    else:
        what = tr("did not win")
    return tr("the control on the same wall and seat {what}: {delta} points in the hand", what=what,
              delta=tr.signed(c["delta_control"]))


def summary(example, tr: Translator = EN) -> str:
    """The HTML's sentence introducing the example hand."""
    return tr("{what}: match {match}, hand {hand}, subject in seat S{seat}, {field} field. The treatment made {delta} "
              "points in the hand; {control}.", what=_upper_first(tr(example.description)), match=example.match_id,
              hand=example.hand, seat=example.subject_seat, field=_field(example.field, tr),
              delta=tr.signed(example.treatment_delta), control=control_summary(example, tr))


def short_summary(example, tr: Translator = EN) -> str:
    """The PDF's shorter sentence before the key events."""
    return tr("{what}: match {match}, hand {hand}, seat S{seat}, {field} field. Treatment {delta} points; {control}. "
              "Key events (full log in the HTML):", what=_upper_first(tr(example.description)),
              match=example.match_id, hand=example.hand, seat=example.subject_seat, field=_field(example.field, tr),
              delta=tr.signed(example.treatment_delta), control=control_summary(example, tr))


def key_events_note(tr: Translator = EN) -> str:
    return tr("Key events (the subject's passes, kans, riichi, void and settlement where the mode has them; every "
              "win):")


def lines(example, tr: Translator = EN) -> list[str]:
    """The hand's whole event log as text in the report's language."""
    from tsumolab.analyzer.replay.match import decoder_for

    return decoder_for(example.mode).to_text(example.events, list(example.labels), tr=tr)


def key_lines(example, tr: Translator = EN) -> list[str]:
    from tsumolab.analyzer.replay.match import decoder_for

    return decoder_for(example.mode).to_text(example.key_events, list(example.labels), tr=tr)
