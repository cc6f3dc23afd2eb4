"""What the HTML and the PDF both show, as plain strings and figure builders: tables, sentences, run details.

Intervals: `ci_low`/`ci_high` of claims.parquet are Holm-adjusted (the verdict's), `ci95_low`/`ci95_high` are
the unadjusted 95% ones (README, "Experiments and claims").
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass

import polars as pl
from matplotlib.figure import Figure

from reports import figures
from reports.data import ClaimData, ReportData

VERDICTS = ("supported", "refuted", "inconclusive")
BEYOND_TITLE = "Beyond the sources"
BEYOND_TEXT = ("tsumolab's own questions, not claims from the sources: for a special mode, does its mode-aware "
               "policy score more than baseline play (analyzer/experiments/extra/, run by tsumolab claims "
               "--extra)? Same design, tables and figures as the claims; their verdicts are Holm-adjusted within "
               "this group only, so they do not change the verdicts on the sources' claims.")


@dataclass(frozen=True)
class FigureSpec:
    key: str
    caption: str
    build: Callable[[], Figure]


@dataclass(frozen=True)
class Table:
    columns: list[str]
    rows: list[list[str]]


# --- numbers ----------------------------------------------------------------------------------------------

def points(x: float) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{x:+,.0f}"


def interval(lo: float, hi: float, fmt: Callable[[float], str] = points) -> str:
    return f"[{fmt(lo)}, {fmt(hi)}]"


def pct_points(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:+.1f} pp"


def signed(x: float, digits: int = 3) -> str:
    return "n/a" if math.isnan(x) else f"{x:+.{digits}f}"


def p_text(p: float) -> str:
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def vr_text(v: float) -> str:
    return "n/a" if math.isnan(v) else ("∞" if math.isinf(v) else f"{v:.1f}×")


# --- series frames --------------------------------------------------------------------------------------------

def series_label(arm: str, field: str) -> str:
    return f"{arm} · {field} field"


def claim_series(claim: ClaimData) -> tuple[pl.DataFrame, pl.DataFrame, dict[str, str]]:
    """(matches, hands, colours) of a claim with a `series` column: arm × field, treatment first."""
    order = [series_label(arm, f["label"]) for arm in ("treatment", "control") for f in claim.experiment["fields"]]
    rank = {name: i for i, name in enumerate(order)}

    def tag(frame: pl.DataFrame) -> pl.DataFrame:
        frame = frame.with_columns(
            pl.concat_str([pl.col("arm"), pl.lit(" · "), pl.col("field"), pl.lit(" field")]).alias("series"))
        return frame.with_columns(pl.col("series").replace_strict(rank, return_dtype=pl.Int64).alias("_order")) \
            .sort("_order", maintain_order=True).drop("_order")

    return tag(claim.matches), tag(claim.hands), figures.series_colours(order)


def run_series(data: ReportData) -> tuple[pl.DataFrame, pl.DataFrame, dict[str, str]]:
    """(matches, hands, colours) of a plain run with one series per policy, in seat order."""
    order = data.matches.sort("seat")["policy"].unique(maintain_order=True).to_list()
    matches = data.matches.with_columns(pl.col("policy").alias("series"))
    hands = data.hands.with_columns(pl.col("policy").alias("series"))
    return matches, hands, figures.series_colours(order)


# --- figures -----------------------------------------------------------------------------------------------

def is_measure(claim: ClaimData) -> bool:
    """A measured fact (experiment kind "measure", e.g. S1): no treatment/control comparison."""
    return claim.experiment.get("kind") == "measure"


def claim_figures(claim: ClaimData) -> list[FigureSpec]:
    matches, hands, colours = claim_series(claim)
    if is_measure(claim):
        # both arms are the same run of the field's policy: only the measured win values mean something
        return [FigureSpec("win-value", "Left: mean points received for a win by its han. Right: mean points "
                           "received by tsumo and by ron, by how many players had won earlier in the hand "
                           "(every seat of the measured run).",
                           lambda: figures.win_value_figure(hands.filter(pl.col("arm") == "treatment"),
                                                            {k: v for k, v in colours.items()
                                                             if k.startswith("treatment")}))]
    diffs = figures.paired_differences(claim.matches)
    field_colours = figures.series_colours([f"treatment {name}" for name in diffs])
    field_colours = {name: field_colours[f"treatment {name}"] for name in diffs}
    return [
        FigureSpec("convergence", "Running mean of the paired difference (treatment − control final points, "
                   "mean over the 4 seats of one wall seed) with its 95% band, as wall seeds accumulate.",
                   lambda: figures.single_figure(figures.draw_convergence, diffs, field_colours)),
        FigureSpec("ranks", "Final-rank distribution of the subject seat, by arm and field (dotted: 25%).",
                   lambda: figures.single_figure(figures.draw_rank_distribution, matches, colours)),
        FigureSpec("points", "Distribution of the subject's final points minus the starting points.",
                   lambda: figures.single_figure(figures.draw_points_distribution, matches, colours)),
        FigureSpec("win-value", f"Left: mean points received for a win by its {figures.fan_column(hands)}. "
                   "Right: mean points received by tsumo and by ron, by how many players had won earlier in the "
                   "hand (subject seat, both arms).",
                   lambda: figures.win_value_figure(hands, colours)),
        FigureSpec("rates", f"Per-hand {_rates_text(hands)} of the subject seat.",
                   lambda: figures.single_figure(figures.draw_rates, hands, colours)),
    ]


def _rates_text(hands: pl.DataFrame) -> str:
    return "win, deal-in and flower-pig rates" if "flower_pig" in hands.columns else "win and deal-in rates"


def run_figures(data: ReportData) -> list[FigureSpec]:
    matches, hands, colours = run_series(data)
    return [
        FigureSpec("ranks", "Final-rank distribution by policy (dotted: 25%).",
                   lambda: figures.single_figure(figures.draw_rank_distribution, matches, colours)),
        FigureSpec("points", "Distribution of final points minus the starting points, by policy.",
                   lambda: figures.single_figure(figures.draw_points_distribution, matches, colours)),
        FigureSpec("win-value", f"Left: mean points received for a win by its {figures.fan_column(hands)}, by "
                   "policy. Right: mean points received by tsumo and by ron, by how many players had won earlier "
                   "in the hand.",
                   lambda: figures.win_value_figure(hands, colours)),
        FigureSpec("rates", f"Per-hand {_rates_text(hands)} by policy.",
                   lambda: figures.single_figure(figures.draw_rates, hands, colours)),
    ]


def summary_figures(data: ReportData, beyond: bool = False) -> list[FigureSpec]:
    """The forest plot of the sources' claims, or with `beyond` of the questions beyond the sources."""
    if data.kind != "study":
        return []
    compared = _compared_rows(group_rows(data.claims_table, beyond))
    if compared.height == 0:
        return []
    what = "question" if beyond else "claim"
    return [FigureSpec("forest", f"Each {what}'s effect on final points per match (dot), its Holm-adjusted "
                       "interval (thick, coloured by verdict) and its unadjusted 95% interval (thin). Measured "
                       "facts (other units) are left out.",
                       lambda: figures.forest_figure(compared, forest_title(beyond)))]


def forest_title(beyond: bool) -> str:
    return "Beyond the sources: effect of each question" if beyond else "Effect of each claim, with intervals"


def beyond_figures(data: ReportData) -> list[FigureSpec]:
    return summary_figures(data, beyond=True)


def group_rows(claims: pl.DataFrame, beyond: bool) -> pl.DataFrame:
    """The claims-table rows of the sources' claims, or with `beyond` of tsumolab's own questions (tables
    written before the column existed hold only the former)."""
    if "beyond_sources" not in claims.columns:
        return claims if not beyond else claims.clear()
    flag = pl.col("beyond_sources").fill_null(False)
    return claims.filter(flag if beyond else ~flag)


def _compared_rows(claims: pl.DataFrame) -> pl.DataFrame:
    if "kind" not in claims.columns:
        return claims
    return claims.filter(pl.col("kind").is_null() | (pl.col("kind") != "measure"))


# --- sentences and tables ---------------------------------------------------------------------------------

def design_sentence(claim: ClaimData) -> str:
    e = claim.experiment
    if is_measure(claim):
        return (f"A measured fact, no policy comparison: every seat plays {e['fields'][0]['label']}, "
                f"{claim.headline['matches']:,} matches.")
    return f"Treatment {e['treatment']} vs control {e['control']}, same walls and seats."


def effect_sentence(row: dict) -> str:
    if row.get("kind") == "measure":
        return (f"Effect: with at least one earlier winner in the hand, a tsumo received {points(row['effect'])} "
                f"points per win compared with a ron; "
                f"Holm-adjusted interval {interval(row['ci_low'], row['ci_high'])}, "
                f"95% interval {interval(row['ci95_low'], row['ci95_high'])} (clustered by match), over "
                f"{row['matches']:,} matches. The claim says tsumo pays less than ron.")
    side = "more" if row["direction"] == "greater" else "fewer"
    return (f"Effect ({row['field']} field): {points(row['effect'])} final points per match for the treatment; "
            f"Holm-adjusted interval {interval(row['ci_low'], row['ci_high'])}, "
            f"95% interval {interval(row['ci95_low'], row['ci95_high'])}, over {row['matches']:,} matches "
            f"({row['wall_seeds']:,} wall seeds). The claim says the treatment scores {side} than the control.")


def metric_table(claim: ClaimData) -> Table:
    """Rows = metrics, columns = fields (paired treatment − control differences); for a measured fact, rows =
    earlier winners, columns = mean value received by tsumo and by ron."""
    rows = list(claim.rows.iter_rows(named=True))
    if is_measure(claim):
        return measure_table(rows[0])
    spec = [
        ("verdict", lambda r: r["verdict"]),
        ("effect, final points / match", lambda r: points(r["effect"])),
        ("Holm-adjusted interval", lambda r: interval(r["ci_low"], r["ci_high"])),
        ("95% interval", lambda r: interval(r["ci95_low"], r["ci95_high"])),
        ("unpaired 95% interval", lambda r: interval(r["unpaired_ci_low"], r["unpaired_ci_high"])),
        ("variance reduction (unpaired / paired)", lambda r: vr_text(r["variance_reduction"])),
        ("p (two-sided)", lambda r: p_text(r["p_value"])),
        ("p (Holm)", lambda r: p_text(r["p_holm"])),
        ("average rank Δ [95%]", lambda r: f"{signed(r['rank_diff'])} "
                                          f"{interval(r['rank_diff_ci_low'], r['rank_diff_ci_high'], signed)}"),
        ("1st-place rate Δ [95%]", lambda r: pct_points(r["first_rate_diff"]) + " "
         + interval(r["first_rate_diff_ci_low"], r["first_rate_diff_ci_high"], pct_points)),
        ("4th-place rate Δ [95%]", lambda r: pct_points(r["fourth_rate_diff"]) + " "
         + interval(r["fourth_rate_diff_ci_low"], r["fourth_rate_diff_ci_high"], pct_points)),
        ("gift-box progress Δ / match [95%]", lambda r: signed(r["giftbox_diff"], 1) + " "
         + interval(r["giftbox_diff_ci_low"], r["giftbox_diff_ci_high"], lambda x: signed(x, 1))),
        ("treatment / control points", lambda r: f"{points(r['treatment_points'])} / {points(r['control_points'])}"),
        ("matches (wall seeds)", lambda r: f"{r['matches']:,} ({r['wall_seeds']:,})"),
    ]
    columns = ["metric"] + [r["field"] + (" (headline)" if r["headline"] else "") for r in rows]
    return Table(columns, [[name] + [fmt(r) for r in rows] for name, fmt in spec])


def measure_table(row: dict) -> Table:
    """Mean win value received (win points − riichi sticks) by tsumo and by ron, by earlier winners."""
    def cell(how: str, group: str) -> str:
        v = row[f"{how}_value_{group}"]
        if v is None or math.isnan(v):
            return f"no wins (n = {row[f'{how}_wins_{group}']:,})"
        lo, hi = row[f"{how}_value_{group}_ci_low"], row[f"{how}_value_{group}_ci_high"]
        return f"{v:,.0f} [{lo:,.0f}, {hi:,.0f}] (n = {row[f'{how}_wins_{group}']:,})"

    body = [[label, cell("tsumo", g), cell("ron", g)]
            for g, label in (("0", "0"), ("1", "1"), ("2", "2"), ("1plus", "1 or more"))]
    body.append(["tsumo − ron, 1 or more", f"{points(row['effect'])} {interval(row['ci_low'], row['ci_high'])} "
                 "(Holm)", row["verdict"]])
    return Table(["earlier winners", "tsumo: mean received [95%]", "ron: mean received [95%]"], body)


ARM_ROWS = (("points", "final points − start / match", lambda x: f"{x:+,.0f}"),
            ("rank", "average rank", lambda x: f"{x:.3f}"),
            ("first", "1st-place rate", lambda x: f"{100 * x:.1f}%"),
            ("fourth", "4th-place rate", lambda x: f"{100 * x:.1f}%"),
            ("giftbox", "gift-box progress / match", lambda x: f"{x:.1f}"),
            ("wins", "wins / match", lambda x: f"{x:.2f}"),
            ("deal_ins", "deal-ins / match", lambda x: f"{x:.2f}"),
            ("tsumo_wins", "tsumo wins / match", lambda x: f"{x:.2f}"),
            ("flower_pigs", "flower pigs / match", lambda x: f"{x:.3f}"),
            ("kan_income", "kan income / match", lambda x: f"{x:+,.0f}"))


def arm_table(claim: ClaimData) -> Table:
    """Rows = per-match means of the subject, columns = arm × field."""
    rows = list(claim.arms.iter_rows(named=True))
    columns = ["per match"] + [f"{r['arm']} · {r['field']}" for r in rows]
    body = [[label] + [fmt(r[key]) + (f" ± {1.96 * r[key + '_se']:,.0f}" if key == "points" else "") for r in rows]
            for key, label, fmt in ARM_ROWS if key in claim.arms.columns and claim.arms[key].null_count() == 0]
    return Table(columns, body)


def summary_table(data: ReportData, beyond: bool = False) -> Table:
    """Headline verdict per claim from the sources, or with `beyond` per question beyond the sources."""
    rows = []
    for claim in (data.beyond_claims if beyond else data.source_claims):
        r = claim.headline
        unit = " per win (tsumo − ron)" if r.get("kind") == "measure" else ""
        rows.append([claim.id, r["verdict"], points(r["effect"]) + unit, interval(r["ci_low"], r["ci_high"]),
                     f"{r['matches']:,}", f"{sum(claim.rows['matches']):,}", r["field"]])
    return Table(["question" if beyond else "claim", "verdict", "effect (points / match)",
                  "Holm-adjusted interval", "matches", "all fields", "headline field"], rows)


def policy_table(data: ReportData) -> Table:
    """Every policy label used, with its description and parameters."""
    from policies.registry import PolicyError, get, parse_seat

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
            description = policy.description
        except PolicyError:
            params, description = {}, "(not a registered policy here)"
        rows.append([label, ", ".join(f"{k}={v}" for k, v in params.items()) or "–", description])
    return Table(["policy", "parameters", "description"], rows)


def run_details(data: ReportData) -> list[tuple[str, str]]:
    """(label, value) lines of the run section: rules, seeds, matches, code version, run time."""
    if data.kind == "run":
        record = data.run_records[0]
        spec = record.get("spec", {})
        sessions = record.get("sessions", [])
        seconds = sum(s.get("seconds") or 0 for s in sessions)
        return [
            ("directory", str(data.directory)),
            ("mode", spec.get("variant", "?")),
            ("seats", ", ".join(f"S{i} {s}" for i, s in enumerate(spec.get("seats", [])))),
            ("rules", _rules_text(spec.get("rules", {}))),
            ("root seed", str(spec.get("seed", "?"))),
            ("matches", f"{spec.get('matches', 0):,} (chunks of {spec.get('chunk_size', '?')})"),
            ("code version", data.code_version),
            ("run time", f"{seconds:.1f} s simulating over {len(sessions)} session(s)"
             + (f", started {sessions[0].get('started')}" if sessions else "")),
        ]
    meta = data.metadata
    execution = meta.get("tsumolab.execution")
    if isinstance(execution, str):
        execution = json.loads(execution)
    n_beyond = group_rows(data.claims_table, True).height
    family = f"{data.claims_table.height - n_beyond} claim × field rows"
    if n_beyond:
        family += f" (and apart, over the {n_beyond} rows beyond the sources)"
    lines = [("directory", str(data.directory)), ("mode", data.mode), ("code version", data.code_version),
             ("significance", f"alpha = {meta.get('tsumolab.alpha', '0.05')}, Holm-adjusted over {family}")]
    if execution:
        lines.append(("run time", f"{execution.get('seconds', 0):.1f} s simulating "
                                  f"{execution.get('simulated_matches', 0):,} matches "
                                  f"(jobs={execution.get('jobs', '?')}, {execution.get('backend', '?')})"))
    else:
        lines.append(("run time", "not recorded in the study's tables"))
    lines.append(("cell runs", f"{len(data.run_records)} (shared between claims where the seats agree)"))
    return lines


def experiment_table(data: ReportData) -> Table:
    rows = []
    for claim in data.claims:
        e = claim.experiment
        where = f"extra/{e.get('file', '')}" if e.get("beyond_sources") else e.get("file", "")
        rows.append([e["id"], where, e["treatment"], e["control"],
                     "; ".join(f["label"] for f in e["fields"]), str(e["seed"]), f"{e['matches']:,}",
                     f"{e['wall_seeds']:,}", _rules_text(e["rules"])])
    return Table(["claim", "file", "treatment", "control", "fields", "seed", "matches", "wall seeds / field",
                  "rules"], rows)


def _rules_text(rules: dict) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(rules.items())) or "defaults"


def verdict_counts(claims: list[ClaimData]) -> str:
    """"2 supported, 1 inconclusive" over the claims' headline verdicts."""
    counts = {v: sum(c.headline["verdict"] == v for c in claims) for v in VERDICTS}
    return ", ".join(f"{n} {v}" for v, n in counts.items() if n)


def report_title(data: ReportData) -> str:
    if data.kind == "study":
        ids = ", ".join(c.id for c in data.claims)
        return f"tsumolab claims report: {ids}"
    return f"tsumolab run report: {data.directory.name}"
