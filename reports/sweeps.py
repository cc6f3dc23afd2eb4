"""A swept claim's variants (the experiment's `[sweep]` grid): the table of every variant × field and the
figure of the effect against the swept parameter."""

from __future__ import annotations

from functools import partial

import numpy as np
from matplotlib.figure import Figure

from tsumolab.analyzer.i18n import Translator
from tsumolab.reports import figures
from tsumolab.reports.content import EN, FigureSpec, Table, Verdict, field_name, interval, points, signed
from tsumolab.reports.data import ClaimData
from tsumolab.reports.verdict_lines import objective_word


def _value(row: dict, objective: str) -> tuple[float, float, float]:
    """(effect, Holm low, Holm high) of the row on the objective (placement: average rank difference)."""
    if objective == "placement":
        return row["rank_diff"], row["placement_ci_low"], row["placement_ci_high"]
    return row["effect"], row["ci_low"], row["ci_high"]


def sweep_table(claim: ClaimData, tr: Translator = EN) -> Table:
    """Rows = variants, columns = fields: the effect on the headline objective with its Holm-adjusted interval,
    and the verdict."""
    objective = claim.headline.get("objective", "points")
    rows = claim.all_rows
    fields = rows["field"].unique(maintain_order=True).to_list()
    fmt = (lambda x: signed(x, tr=tr)) if objective == "placement" else (lambda x: points(x, tr))
    body = []
    for label in rows["variant"].unique(maintain_order=True).to_list():
        line = [label + (" *" if label == claim.headline["variant"] else "")]
        for f in fields:
            r = claim.variant_rows[(label, f)]
            effect, lo, hi = _value(r, objective)
            line += [f"{fmt(effect)} {interval(lo, hi, fmt)}", Verdict(r["verdict"], tr)]
        body.append(line)
    columns = [tr("variant (* the file's own)")]
    for f in fields:
        columns += [tr("{field}: {objective} [Holm]", field=field_name(f, tr),
                       objective=objective_word(objective, tr)), tr("verdict")]
    return Table(columns, body)


def sweep_figures(claim: ClaimData, tr: Translator = EN) -> list[FigureSpec]:
    if not claim.swept:
        return []
    objective = claim.headline.get("objective", "points")
    return [FigureSpec("sweep", tr("Effect on {objective} of each tested variant against the first swept "
                                   "parameter (one line per value of the others), by field; bars are the "
                                   "Holm-adjusted intervals.", objective=objective_word(objective, tr)),
                       panel_title(sweep_fields(claim)[0], tr), partial(sweep_figure, claim), tr)]


def panel_title(field: str, tr: Translator = EN) -> str:
    """The title of a field's panel: "baseline field"."""
    return tr("{field} field", field=field_name(field, tr))


def sweep_fields(claim: ClaimData) -> list[str]:
    """The fields of a swept claim, one panel each."""
    return claim.all_rows["field"].unique(maintain_order=True).to_list()


def sweep_figure(claim: ClaimData, tr: Translator = EN) -> Figure:
    fields = sweep_fields(claim)
    fig = figures.new_figure((6.0, 1.2 + 2.6 * len(fields)))
    draw_sweep(fig.subplots(len(fields), 1, squeeze=False)[:, 0], claim, tr)
    return fig


def draw_sweep(axes, claim: ClaimData, tr: Translator = EN) -> None:
    """One panel per field (sweep_fields) on `axes`: the effect of each variant with its Holm interval."""
    objective = claim.headline.get("objective", "points")
    variants = claim.experiment["variants"]
    names = [part.split("=")[0] for part in variants[0]["label"].split(",")]
    values = {v["label"]: [part.split("=", 1)[1] for part in v["label"].split(",")] for v in variants}
    fields = sweep_fields(claim)
    xs = list(dict.fromkeys(v[0] for v in values.values()))
    groups = list(dict.fromkeys(tuple(v[1:]) for v in values.values()))
    colours = figures.series_colours([",".join(g) for g in groups])
    for ax, f in zip(axes, fields):
        for k, group in enumerate(groups):
            pts = []
            for label, vals in values.items():
                if tuple(vals[1:]) != group:
                    continue
                r = claim.variant_rows[(label, f)]
                pts.append((xs.index(vals[0]), *_value(r, objective)))
            x, y, lo, hi = (np.array(c, dtype=float) for c in zip(*pts))
            shift = (k - (len(groups) - 1) / 2) * 0.08
            label = tr(", ").join(f"{n}={v}" for n, v in zip(names[1:], group)) or None
            ax.errorbar(x + shift, y, yerr=[y - lo, hi - y], marker="o", capsize=3, label=label,
                        color=colours[",".join(group)])
        ax.axhline(0, color="#222222", linewidth=0.8, linestyle="--")
        ax.set_xticks(range(len(xs)), xs)
        ax.set_xlabel(tr("{parameter} (treatment parameter)", parameter=names[0]))
        ax.set_ylabel(tr("treatment − control (average rank)") if objective == "placement"
                      else tr("treatment − control (points per match)"))
        ax.set_title(panel_title(f, tr))
        if len(groups) > 1:
            ax.legend(fontsize="small", frameon=False)
        ax.grid(axis="y", alpha=0.3)
