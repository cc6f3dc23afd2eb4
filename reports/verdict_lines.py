"""The sentences that say what a claim's rows mean together (analyzer.claims.verdicts): the claim's first line — its
verdict on the headline objective, and what both objectives say — and its robustness across fields and
variants. Plain strings in the report's language for the HTML and the PDF."""

from __future__ import annotations

from tsumolab.analyzer.i18n import N_, Translator
from tsumolab.reports.content import EN, field_name, is_measure, verdict_word
from tsumolab.reports.data import ClaimData

OBJECTIVE_WORDS = {"points": N_("final points"), "placement": N_("placement")}
POINTS_SIDE = {1: N_("more points"), -1: N_("fewer points"), 0: N_("no clear effect on points")}
PLACEMENT_SIDE = {1: N_("better placement"), -1: N_("worse placement"), 0: N_("no clear effect on placement")}
ROBUSTNESS = {
    "holds": N_("Holds in every field tested ({fields})."),
    "fails": N_("Fails in every field tested ({fields})."),
    "unsettled": N_("Inconclusive in every field tested ({fields})."),
}


def objective_word(objective: str, tr: Translator = EN) -> str:
    return tr(OBJECTIVE_WORDS.get(objective, objective))


def objectives_text(row: dict, tr: Translator = EN) -> str:
    """"more points, worse placement": what the row's Holm intervals show on each objective."""
    return tr("{points}, {placement}", points=tr(POINTS_SIDE[int(row.get("points_side") or 0)]),
              placement=tr(PLACEMENT_SIDE[int(row.get("placement_side") or 0)]))


def first_line(claim: ClaimData, tr: Translator = EN) -> str:
    """The claim's verdict on its headline objective over every variant tested, then both objectives at the
    headline row, flagged when they disagree."""
    row = claim.headline
    if is_measure(claim):
        return tr("{verdict}: a measured fact.", verdict=verdict_word(row["verdict"], tr))
    verdict = row.get("claim_verdict") or row["verdict"]
    text = tr("{verdict} on {objective} (the claim's headline objective), {field} field: {objectives}.",
              verdict=verdict_word(verdict, tr), objective=objective_word(row.get("objective", "points"), tr),
              field=field_name(row["field"], tr), objectives=objectives_text(row, tr))
    if row.get("objectives_disagree"):
        text = tr("The objectives disagree. {text}", text=text)
    return text


def robustness_line(claim: ClaimData, tr: Translator = EN) -> str:
    """Across the fields: holds / fails / inconclusive in every field, or depends on the field (which)."""
    rows = list(claim.rows.iter_rows(named=True))
    fields = tr(", ").join(field_name(r["field"], tr) for r in rows)
    kind = rows[0].get("robustness", "depends")
    if kind in ROBUSTNESS:
        return tr(ROBUSTNESS[kind], fields=fields)
    each = tr("; ").join(tr("{verdict} against {field}", verdict=verdict_word(r["verdict"], tr),
                            field=field_name(r["field"], tr)) for r in rows)
    return tr("Depends on the field: {each}.", each=each)


def sweep_line(claim: ClaimData, tr: Translator = EN) -> str:
    """Which variants were tested and which did best; empty without a sweep."""
    if not claim.swept:
        return ""
    row = claim.headline
    variants = claim.experiment["variants"]
    best = claim.all_rows.filter((claim.all_rows["variant"] == row["best_variant"])
                                 & (claim.all_rows["field"] == row["field"])).row(0, named=True)
    return tr("{count} variants tested ({labels}); best at the {field} field: {best} ({verdict}). The claim counts "
              "as refuted only when every tested variant is refuted.", count=tr.number(len(variants)),
              labels=tr(", ").join(v["label"] for v in variants), field=field_name(row["field"], tr),
              best=row["best_variant"], verdict=verdict_word(best["verdict"], tr))
