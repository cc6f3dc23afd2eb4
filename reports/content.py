"""What the HTML and the PDF both show, as plain strings and figure builders: tables, sentences, run details.

Intervals: `ci_low`/`ci_high` of claims.parquet are Holm-adjusted (the verdict's), `ci95_low`/`ci95_high` are
the unadjusted 95% ones (README, "Experiments and claims").

Every function takes the report's Translator `tr` (analyzer.i18n; English by default): each text is an English
message template looked up in the language's catalog, each number goes through `tr`'s number format, and the
game's own names (modes, patterns) come from analyzer.game_names.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import polars as pl
from matplotlib.figure import Figure

from tsumolab.analyzer.game_names import mode_name
from tsumolab.analyzer.i18n import N_, Translator, translator
from tsumolab.reports import figures
from tsumolab.reports.data import ClaimData, ReportData
from tsumolab.reports.plot_data import PlotNumbers

EN = translator("en")
VERDICTS = ("supported", "refuted", "inconclusive")
BEYOND_TITLE = N_("Beyond the sources")
BEYOND_TEXT = N_("tsumolab's own questions, not claims from the sources: for a special mode, does its mode-aware "
               "policy score more than baseline play (analyzer/experiments/extra/, run by tsumolab claims "
               "--extra)? Same design, tables and figures as the claims; their verdicts are Holm-adjusted within "
               "this group only, so they do not change the verdicts on the sources' claims.")
ARMS = ("treatment", "control")


class Verdict(str):
    """A verdict word in the report's language that knows its verdict (`key`: supported, refuted,
    inconclusive), so the HTML draws a badge and the PDF a coloured cell."""

    key: str

    def __new__(cls, key: str, tr: Translator = EN):
        word = super().__new__(cls, verdict_word(key, tr))
        word.key = key
        return word


def verdict_word(verdict: str, tr: Translator = EN) -> str:
    return tr.p("verdict", verdict) if verdict in VERDICTS else verdict


def arm_word(arm: str, tr: Translator = EN) -> str:
    """"treatment" / "control" in the report's language."""
    return tr.p("arm", arm) if arm in ARMS else arm


def field_name(field: str, tr: Translator = EN) -> str:
    """A field's label from the experiment file, shown in the report's language: the word "treatment" (the
    opponents play the treatment's policy), alone or in a list of three seats, is translated; a policy spec is
    an identifier and stays."""
    return ",".join(tr("treatment policy") if part == "treatment" else part for part in field.split(","))


def field_label(field: str, tr: Translator = EN) -> str:
    """A field (the three opponents' policy) as the report names it: "baseline field"."""
    return tr("{field} field", field=field_name(field, tr))


def mode_label(data: ReportData, tr: Translator = EN) -> str:
    """The study's or run's mode(s) as the game names them in the report's language."""
    return tr(", ").join(mode_name(slug.strip(), tr.lang) for slug in data.mode.split(","))


@dataclass(frozen=True)
class FigureSpec:
    """A figure of the report: its key (e.g. "ranks"), its caption and its title (its first Axes' title) in the
    language of `tr`, and `draw(tr)` drawing it with the texts of any language."""

    key: str
    caption: str
    title: str
    draw: Callable[[Translator], Figure]
    tr: Translator = EN

    def build(self, tr: Translator | None = None) -> Figure:
        """The figure with the texts of `tr` (default: the caption's language)."""
        return self.draw(tr or self.tr)


@dataclass(frozen=True)
class Table:
    columns: list[str]
    rows: list[list[str]]


# --- numbers ----------------------------------------------------------------------------------------------

def points(x: float, tr: Translator = EN) -> str:
    return tr("n/a") if x is None or math.isnan(x) else tr.signed(x)


def interval(lo: float, hi: float, fmt: Callable[[float], str] | None = None, tr: Translator = EN) -> str:
    fmt = fmt or (lambda x: points(x, tr))
    return f"[{fmt(lo)}, {fmt(hi)}]"


def pct_points(x: float, tr: Translator = EN) -> str:
    """A difference of two rates in percentage points (the unit is in the row's label)."""
    return tr("n/a") if math.isnan(x) else tr.signed(100 * x, 1)


def signed(x: float, digits: int = 3, tr: Translator = EN) -> str:
    return tr("n/a") if math.isnan(x) else tr.signed(x, digits)


def p_text(p: float, tr: Translator = EN) -> str:
    return "<" + tr.number(0.0001, 4) if p < 1e-4 else tr.number(p, 4)


def vr_text(v: float, tr: Translator = EN) -> str:
    return tr("n/a") if math.isnan(v) else ("∞" if math.isinf(v) else tr.number(v, 1) + "×")


# --- series -----------------------------------------------------------------------------------------------

def series_label(arm: str, field: str, tr: Translator = EN) -> str:
    return f"{arm_word(arm, tr)} · {field_label(field, tr)}"


def series_names(numbers: PlotNumbers, tr: Translator = EN) -> dict[tuple[str, ...], str]:
    """Each series of a claim's or a run's PlotNumbers by its name in the report's language: "treatment ·
    baseline field" for a claim's (arm, field), the policy for a run's (policy,)."""
    return {key: series_label(*key, tr) if len(key) == 2 else key[0] for key in numbers.colours}


def field_colours(numbers: PlotNumbers) -> dict[str, str]:
    """The convergence figure's colour of each field (blues, in the experiment's field order)."""
    return figures.series_colours(list(numbers.diffs), {name: "treatment" for name in numbers.diffs})


# --- figures -----------------------------------------------------------------------------------------------

def is_measure(claim: ClaimData) -> bool:
    """A measured fact (experiment kind "measure", e.g. S1): no treatment/control comparison."""
    return claim.measure


def claim_figures(claim: ClaimData, tr: Translator = EN) -> list[FigureSpec]:
    numbers = claim.plot_numbers
    if is_measure(claim):
        # both arms are the same run of the field's policy: only the measured win values mean something
        return [FigureSpec("win-value", tr("Left: mean points received for a win by its han. Right: mean points "
                                           "received by tsumo and by ron, by how many players had won earlier in "
                                           "the hand (every seat of the measured run)."),
                           figures.win_value_title(numbers, tr), partial(_win_value_figure, numbers), tr)]
    fan = figures.fan_word(numbers.fan, tr)
    convergence = FigureSpec(
        "convergence", tr("Running mean of the paired difference (treatment − control final points, mean over the "
                          "4 seats of one wall seed) with its 95% band, as wall seeds accumulate."),
        figures.convergence_title(tr), partial(_convergence_figure, numbers), tr)
    return [convergence, *_outcome_figures(
        numbers, tr,
        ranks=tr("Final-rank distribution of the subject seat, by arm and field (dotted: 25%)."),
        points=tr("Distribution of the subject's final points minus the starting points."),
        win_value=tr("Left: mean points received for a win by its {fan}. Right: mean points received by tsumo and "
                     "by ron, by how many players had won earlier in the hand (subject seat, both arms).", fan=fan),
        rates=tr("Per-hand {rates} of the subject seat.", rates=_rates_text(numbers, tr)))]


def _outcome_figures(numbers: PlotNumbers, tr: Translator, *, ranks: str, points: str, win_value: str,
                     rates: str) -> list[FigureSpec]:
    """The ranks, points, win-value and rates figures of a set of series, with their captions."""
    return [
        FigureSpec("ranks", ranks, figures.ranks_title(tr),
                   partial(_single_figure, figures.draw_rank_distribution, numbers), tr),
        FigureSpec("points", points, figures.points_title(tr),
                   partial(_single_figure, figures.draw_points_distribution, numbers), tr),
        FigureSpec("win-value", win_value, figures.win_value_title(numbers, tr), partial(_win_value_figure, numbers),
                   tr),
        FigureSpec("rates", rates, figures.rates_title(numbers, tr),
                   partial(_single_figure, figures.draw_rates, numbers), tr),
    ]


def _single_figure(draw: Callable, numbers: PlotNumbers, tr: Translator) -> Figure:
    return figures.single_figure(draw, numbers, series_names(numbers, tr), tr)


def _win_value_figure(numbers: PlotNumbers, tr: Translator) -> Figure:
    return figures.win_value_figure(numbers, series_names(numbers, tr), tr)


def _convergence_figure(numbers: PlotNumbers, tr: Translator) -> Figure:
    return figures.single_figure(figures.draw_convergence, numbers.diffs, field_colours(numbers), tr)


def _rates_text(numbers: PlotNumbers, tr: Translator) -> str:
    return (tr("win, deal-in and flower-pig rates") if "flower pig" in numbers.rate_names
            else tr("win and deal-in rates"))


def run_figures(data: ReportData, tr: Translator = EN) -> list[FigureSpec]:
    numbers = data.plot_numbers
    fan = figures.fan_word(numbers.fan, tr)
    return _outcome_figures(
        numbers, tr,
        ranks=tr("Final-rank distribution by policy (dotted: 25%)."),
        points=tr("Distribution of final points minus the starting points, by policy."),
        win_value=tr("Left: mean points received for a win by its {fan}, by policy. Right: mean points received "
                     "by tsumo and by ron, by how many players had won earlier in the hand.", fan=fan),
        rates=tr("Per-hand {rates} by policy.", rates=_rates_text(numbers, tr)))


def summary_figures(data: ReportData, beyond: bool = False, tr: Translator = EN) -> list[FigureSpec]:
    """The forest plot of the sources' claims, or with `beyond` of the questions beyond the sources."""
    if data.kind != "study":
        return []
    compared = _compared_rows(group_rows(data.claims_table, beyond))
    if compared.height == 0:
        return []
    caption = (tr("Each question's effect on final points per match (dot), its Holm-adjusted interval (thick, "
                  "coloured by verdict) and its unadjusted 95% interval (thin). Measured facts (other units) are "
                  "left out.") if beyond else
               tr("Each claim's effect on final points per match (dot), its Holm-adjusted interval (thick, "
                  "coloured by verdict) and its unadjusted 95% interval (thin). Measured facts (other units) are "
                  "left out."))
    return [FigureSpec("forest", caption, forest_title(beyond, tr), partial(_forest_figure, compared, beyond), tr)]


def _forest_figure(rows: pl.DataFrame, beyond: bool, tr: Translator) -> Figure:
    return figures.forest_figure(rows, forest_title(beyond, tr), tr)


def forest_title(beyond: bool, tr: Translator = EN) -> str:
    return tr("Beyond the sources: effect of each question") if beyond else tr("Effect of each claim, with intervals")


def beyond_figures(data: ReportData, tr: Translator = EN) -> list[FigureSpec]:
    return summary_figures(data, beyond=True, tr=tr)


def group_rows(claims: pl.DataFrame, beyond: bool) -> pl.DataFrame:
    """The claims-table rows (of each claim's headline variant) of the sources' claims, or with `beyond` of
    tsumolab's own questions (tables written before the column existed hold only the former)."""
    if "headline_variant" in claims.columns:
        claims = claims.filter(pl.col("headline_variant"))
    if "beyond_sources" not in claims.columns:
        return claims if not beyond else claims.clear()
    flag = pl.col("beyond_sources").fill_null(False)
    return claims.filter(flag if beyond else ~flag)


def _compared_rows(claims: pl.DataFrame) -> pl.DataFrame:
    if "kind" not in claims.columns:
        return claims
    return claims.filter(pl.col("kind").is_null() | (pl.col("kind") != "measure"))


# --- sentences and tables ---------------------------------------------------------------------------------

def claim_text(claim: ClaimData, tr: Translator = EN) -> str:
    """The claim in the report's language: the catalog holds each claim's text, quoting the source's own words
    where the source is written in that language; a claim the catalog lacks keeps its file's wording."""
    return tr(claim.text)


def source_text(claim: ClaimData, tr: Translator = EN) -> str:
    """The source reference as the experiment file gives it ([000] 策略1, …); tsumolab's own questions say so."""
    from tsumolab.analyzer.claims.experiment import BEYOND_SOURCES

    if not claim.source:
        return tr("not given")
    return tr(BEYOND_SOURCES) if claim.source == BEYOND_SOURCES else claim.source


def design_sentence(claim: ClaimData, tr: Translator = EN) -> str:
    e = claim.experiment
    if is_measure(claim):
        return tr("A measured fact, no policy comparison: every seat plays {policy}, {matches} matches.",
                  policy=e["fields"][0]["label"], matches=tr.number(claim.headline["matches"]))
    return tr("Treatment {treatment} vs control {control}, same walls and seats.", treatment=e["treatment"],
              control=e["control"])


def effect_sentence(row: dict, tr: Translator = EN) -> str:
    if row.get("kind") == "measure":
        return tr("Effect: with at least one earlier winner in the hand, a tsumo received {effect} points per win "
                  "compared with a ron; Holm-adjusted interval {holm}, 95% interval {ci95} (clustered by match), "
                  "over {matches} matches. The claim says tsumo pays less than ron.",
                  effect=points(row["effect"], tr), holm=interval(row["ci_low"], row["ci_high"], tr=tr),
                  ci95=interval(row["ci95_low"], row["ci95_high"], tr=tr), matches=tr.number(row["matches"]))
    fields = dict(field=field_name(row["field"], tr), effect=points(row["effect"], tr),
                  holm=interval(row["ci_low"], row["ci_high"], tr=tr),
                  ci95=interval(row["ci95_low"], row["ci95_high"], tr=tr), matches=tr.number(row["matches"]),
                  seeds=tr.number(row["wall_seeds"]))
    if row["direction"] == "greater":
        return tr("Effect ({field} field): {effect} final points per match for the treatment; Holm-adjusted "
                  "interval {holm}, 95% interval {ci95}, over {matches} matches ({seeds} wall seeds). The claim "
                  "says the treatment scores more than the control.", **fields)
    return tr("Effect ({field} field): {effect} final points per match for the treatment; Holm-adjusted interval "
              "{holm}, 95% interval {ci95}, over {matches} matches ({seeds} wall seeds). The claim says the "
              "treatment scores fewer than the control.", **fields)


def metric_table(claim: ClaimData, tr: Translator = EN) -> Table:
    """Rows = metrics, columns = fields (paired treatment − control differences); for a measured fact, rows =
    earlier winners, columns = mean value received by tsumo and by ron."""
    rows = list(claim.rows.iter_rows(named=True))
    if is_measure(claim):
        return measure_table(rows[0], tr)

    def pts(x):
        return points(x, tr)

    def pp(x):
        return pct_points(x, tr)

    def sg(x):
        return signed(x, tr=tr)

    def sg1(x):
        return signed(x, 1, tr)

    spec = [
        (tr("verdict on final points"), lambda r: Verdict(r.get("points_verdict") or r["verdict"], tr)),
        (tr("verdict on placement (average rank)"), lambda r: Verdict(r["placement_verdict"], tr)
         if r.get("placement_verdict") else tr("n/a")),
        (tr("effect, final points / match"), lambda r: pts(r["effect"])),
        (tr("Holm-adjusted interval"), lambda r: interval(r["ci_low"], r["ci_high"], tr=tr)),
        (tr("95% interval"), lambda r: interval(r["ci95_low"], r["ci95_high"], tr=tr)),
        (tr("unpaired 95% interval"), lambda r: interval(r["unpaired_ci_low"], r["unpaired_ci_high"], tr=tr)),
        (tr("variance reduction (unpaired / paired)"), lambda r: vr_text(r["variance_reduction"], tr)),
        (tr("p (two-sided)"), lambda r: p_text(r["p_value"], tr)),
        (tr("p (Holm)"), lambda r: p_text(r["p_holm"], tr)),
        (tr("average rank Δ [95%]"), lambda r: f"{sg(r['rank_diff'])} "
                                              f"{interval(r['rank_diff_ci_low'], r['rank_diff_ci_high'], sg)}"),
        (tr("average rank Δ, Holm-adjusted interval"),
         lambda r: interval(r["placement_ci_low"], r["placement_ci_high"], sg)
         if r.get("placement_ci_low") is not None else tr("n/a")),
        (tr("1st-place rate Δ, pp [95%]"), lambda r: pp(r["first_rate_diff"]) + " "
         + interval(r["first_rate_diff_ci_low"], r["first_rate_diff_ci_high"], pp)),
        (tr("4th-place rate Δ, pp [95%]"), lambda r: pp(r["fourth_rate_diff"]) + " "
         + interval(r["fourth_rate_diff_ci_low"], r["fourth_rate_diff_ci_high"], pp)),
        (tr("gift-box progress Δ / match [95%]"), lambda r: sg1(r["giftbox_diff"]) + " "
         + interval(r["giftbox_diff_ci_low"], r["giftbox_diff_ci_high"], sg1)),
        (tr("treatment / control points"), lambda r: f"{pts(r['treatment_points'])} / {pts(r['control_points'])}"),
        (tr("matches (wall seeds)"), lambda r: f"{tr.number(r['matches'])} ({tr.number(r['wall_seeds'])})"),
    ]
    columns = [tr("metric")] + [tr("{field} (headline)", field=field_name(r["field"], tr)) if r["headline"]
                                else field_name(r["field"], tr) for r in rows]
    return Table(columns, [[name] + [fmt(r) for r in rows] for name, fmt in spec])


def measure_table(row: dict, tr: Translator = EN) -> Table:
    """Mean win value received (win points − riichi sticks) by tsumo and by ron, by earlier winners."""
    def cell(how: str, group: str) -> str:
        v = row[f"{how}_value_{group}"]
        n = tr.number(row[f"{how}_wins_{group}"])
        if v is None or math.isnan(v):
            return tr("no wins (n = {n})", n=n)
        lo, hi = row[f"{how}_value_{group}_ci_low"], row[f"{how}_value_{group}_ci_high"]
        return f"{tr.number(v)} [{tr.number(lo)}, {tr.number(hi)}] (n = {n})"

    body = [[label, cell("tsumo", g), cell("ron", g)]
            for g, label in (("0", "0"), ("1", "1"), ("2", "2"), ("1plus", tr("1 or more")))]
    body.append([tr("tsumo − ron, 1 or more"), tr("{effect} {interval} (Holm)", effect=points(row["effect"], tr),
                                                  interval=interval(row["ci_low"], row["ci_high"], tr=tr)),
                 Verdict(row["verdict"], tr)])
    return Table([tr("earlier winners"), tr("tsumo: mean received [95%]"), tr("ron: mean received [95%]")], body)


ARM_ROWS = (("points", N_("final points − start / match"), lambda tr, x: tr.signed(x)),
            ("rank", N_("average rank"), lambda tr, x: tr.number(x, 3)),
            ("first", N_("1st-place rate"), lambda tr, x: tr.percent(x)),
            ("fourth", N_("4th-place rate"), lambda tr, x: tr.percent(x)),
            ("giftbox", N_("gift-box progress / match"), lambda tr, x: tr.number(x, 1)),
            ("wins", N_("wins / match"), lambda tr, x: tr.number(x, 2)),
            ("deal_ins", N_("deal-ins / match"), lambda tr, x: tr.number(x, 2)),
            ("tsumo_wins", N_("tsumo wins / match"), lambda tr, x: tr.number(x, 2)),
            ("flower_pigs", N_("flower pigs / match"), lambda tr, x: tr.number(x, 3)),
            ("kan_income", N_("kan income / match"), lambda tr, x: tr.signed(x)))


def arm_table(claim: ClaimData, tr: Translator = EN) -> Table:
    """Rows = per-match means of the subject, columns = arm × field."""
    rows = list(claim.arms.iter_rows(named=True))
    columns = [tr("per match")] + [f"{arm_word(r['arm'], tr)} · {field_name(r['field'], tr)}" for r in rows]
    body = [[tr(label)] + [fmt(tr, r[key]) + (f" ± {tr.number(1.96 * r[key + '_se'])}" if key == "points" else "")
                           for r in rows]
            for key, label, fmt in ARM_ROWS if key in claim.arms.columns and claim.arms[key].null_count() == 0]
    return Table(columns, body)


ROBUSTNESS_WORDS = {"holds": N_("holds in every field"), "fails": N_("fails in every field"),
                    "unsettled": N_("inconclusive in every field"), "depends": N_("depends on the field")}


def summary_table(data: ReportData, beyond: bool = False, tr: Translator = EN) -> Table:
    """Per claim from the sources (or with `beyond` per question beyond the sources): the claim-level verdict on
    its headline objective (over every variant tested), the headline row's effect on both objectives, and the
    robustness across fields."""
    rows = []
    for claim in (data.beyond_claims if beyond else data.source_claims):
        r = claim.headline
        effect = points(r["effect"], tr)
        if r.get("kind") == "measure":
            effect = tr("{effect} per win (tsumo − ron)", effect=effect)
            placement = robustness = "–"
        else:
            placement = (f"{signed(r['rank_diff'], tr=tr)} "
                         f"{interval(r['placement_ci_low'], r['placement_ci_high'], lambda x: signed(x, tr=tr))}")
            robustness = tr(ROBUSTNESS_WORDS[r["robustness"]])
        objective = tr("final points") if r.get("objective", "points") == "points" else tr("placement")
        rows.append([claim.id, Verdict(r.get("claim_verdict") or r["verdict"], tr), objective, effect,
                     interval(r["ci_low"], r["ci_high"], tr=tr), placement, robustness,
                     tr.number(sum(claim.all_rows["matches"])), field_name(r["field"], tr)])
    return Table([tr("question") if beyond else tr("claim"), tr("verdict"), tr("headline objective"),
                  tr("effect (points / match)"), tr("Holm-adjusted interval"), tr("average rank Δ [Holm]"),
                  tr("across fields"), tr("matches, all rows"), tr("headline field")], rows)


def policy_table(data: ReportData, tr: Translator = EN) -> Table:
    """Every policy label used, with its description (in the report's language) and parameters."""
    from tsumolab.policies.registry import PolicyError, get, parse_seat

    labels = []
    if data.kind == "study":
        for claim in data.claims:
            labels += [c.policy for c in claim.cells] + [p for c in claim.cells for p in c.seats]
    else:
        labels += list(data.run_records[0].get("spec", {}).get("seats", []))
    rows = []
    for label in dict.fromkeys(labels):
        try:
            seat = parse_seat(label)
            policy = get(seat.name)
            params = {**policy.defaults(), **seat.params}
            description = tr(policy.description)
        except PolicyError:
            params, description = {}, tr("(not a registered policy here)")
        rows.append([label, ", ".join(f"{k}={v}" for k, v in params.items()) or "–", description])
    return Table([tr("policy"), tr("parameters"), tr("description")], rows)


def run_details(data: ReportData, tr: Translator = EN) -> list[tuple[str, str]]:
    """(label, value) lines of the run section: rules, seeds, matches, code version, run time."""
    if data.kind == "run":
        record = data.run_records[0]
        spec = record.get("spec", {})
        sessions = record.get("sessions", [])
        seconds = sum(s.get("seconds") or 0 for s in sessions)
        run_time = tr("{seconds} s simulating over {sessions} session(s)", seconds=tr.number(seconds, 1),
                      sessions=tr.number(len(sessions)))
        if sessions:
            run_time += tr(", started {when}", when=sessions[0].get("started"))
        return [
            (tr("directory"), str(data.directory)),
            (tr("mode"), mode_name(spec.get("variant", "?"), tr.lang)),
            (tr("seats"), ", ".join(f"S{i} {s}" for i, s in enumerate(spec.get("seats", [])))),
            (tr("rules"), _rules_text(spec.get("rules", {}), tr)),
            (tr("root seed"), str(spec.get("seed", "?"))),
            (tr("matches"), tr("{matches} (chunks of {chunk})", matches=tr.number(spec.get("matches", 0)),
                               chunk=spec.get("chunk_size", "?"))),
            (tr("code version"), data.code_version),
            (tr("run time"), run_time),
        ]
    meta = data.metadata
    execution = meta.get("tsumolab.execution")
    if isinstance(execution, str):
        execution = json.loads(execution)
    n_beyond = group_rows(data.claims_table, True).height
    family = tr("{rows} claim × field rows", rows=tr.number(data.claims_table.height - n_beyond))
    if n_beyond:
        family += tr(" (and apart, over the {rows} rows beyond the sources)", rows=tr.number(n_beyond))
    lines = [(tr("directory"), str(data.directory)), (tr("mode"), mode_label(data, tr)),
             (tr("code version"), data.code_version),
             (tr("significance"), tr("alpha = {alpha}, Holm-adjusted over {family}",
                                     alpha=meta.get("tsumolab.alpha", "0.05"), family=family))]
    if execution:
        lines.append((tr("run time"), tr("{seconds} s simulating {matches} matches (jobs={jobs}, {backend})",
                                         seconds=tr.number(execution.get("seconds", 0), 1),
                                         matches=tr.number(execution.get("simulated_matches", 0)),
                                         jobs=execution.get("jobs", "?"), backend=execution.get("backend", "?"))))
    else:
        lines.append((tr("run time"), tr("not recorded in the study's tables")))
    lines.append((tr("cell runs"), tr("{runs} (shared between claims where the seats agree)",
                                      runs=tr.number(len(data.run_records)))))
    return lines


def experiment_table(data: ReportData, tr: Translator = EN) -> Table:
    rows = []
    for claim in data.claims:
        e = claim.experiment
        where = f"extra/{e.get('file', '')}" if e.get("beyond_sources") else e.get("file", "")
        rows.append([e["id"], where, e["treatment"], e["control"],
                     "; ".join(field_name(f["label"], tr) for f in e["fields"]), str(e["seed"]),
                     tr.number(e["matches"]),
                     tr.number(e["wall_seeds"]), _rules_text(e["rules"], tr)])
    return Table([tr("claim"), tr("file"), arm_word("treatment", tr), arm_word("control", tr), tr("fields"),
                  tr("seed"), tr("matches"), tr("wall seeds / field"), tr("rules")], rows)


def _rules_text(rules: dict, tr: Translator = EN) -> str:
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in sorted(rules.items())) or tr("defaults")


def claim_verdict(claim: ClaimData) -> str:
    """The claim's verdict on its headline objective over every variant tested (analyzer.claims.verdicts)."""
    return claim.headline.get("claim_verdict") or claim.headline["verdict"]


def verdict_counts(claims: list[ClaimData], tr: Translator = EN) -> str:
    """"2 supported, 1 inconclusive" over the claims' verdicts."""
    counts = {v: sum(claim_verdict(c) == v for c in claims) for v in VERDICTS}
    return tr(", ").join(tr("{count} {verdict}", count=tr.number(n), verdict=verdict_word(v, tr))
                         for v, n in counts.items() if n)


def report_title(data: ReportData, tr: Translator = EN) -> str:
    if data.kind == "study":
        return tr("tsumolab claims report: {ids}", ids=", ".join(c.id for c in data.claims))
    return tr("tsumolab run report: {name}", name=data.directory.name)
