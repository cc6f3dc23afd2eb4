"""The report's figures, drawn with matplotlib's object API (Figure and Axes, Agg canvas; never pyplot).

Each `draw_*` function fills one Axes, so the HTML (one figure each) and the PDF (several per page) share them;
each `*_figure` function returns a new Figure. The outcome figures draw a claim's or a run's PlotNumbers
(reports.plot_data: the numbers of each series, taken from the frames once for every language), with `names`
giving each series' name in the report's language (e.g. "treatment · baseline field", or a policy for a plain
run). Every Axes gets a title, axis labels with units, and a legend when it shows several series, in the language
of the Translator `tr` each function takes (English by default).
"""

from __future__ import annotations


import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter, MaxNLocator

from tsumolab.analyzer.i18n import N_, Translator, translator

Z95 = 1.959963984540054
VERDICT_COLOURS = {"supported": "#1a7f37", "refuted": "#c62828", "inconclusive": "#8a8a8a"}
_TREATMENT = ("#1f5fa8", "#6fa8dc", "#0b3d6e", "#9fc5e8")
_CONTROL = ("#d9822b", "#f2b880", "#8c4a0b", "#f6d3a8")
_OTHER = ("#1f5fa8", "#d9822b", "#1a7f37", "#c62828", "#7b4fa0", "#8c6d31", "#d35fb7", "#555555")
FIGURE_SIZE = (6.0, 3.8)
EN = translator("en")


def series_colours(series: list, arms: dict | None = None) -> dict:
    """Colour of each series: blues for treatment series, oranges for control ones (`arms`: series → its arm),
    a palette otherwise."""
    out, counts = {}, {"treatment": 0, "control": 0, "other": 0}
    for name in series:
        kind = (arms or {}).get(name, "other")
        kind = kind if kind in counts else "other"
        palette = {"treatment": _TREATMENT, "control": _CONTROL, "other": _OTHER}[kind]
        out[name] = palette[counts[kind] % len(palette)]
        counts[kind] += 1
    return out


def new_figure(size: tuple[float, float] = FIGURE_SIZE) -> Figure:
    return Figure(figsize=size, layout="constrained")


# --- summary: forest plot -------------------------------------------------------------------------------------

def _number_axis(axis, tr: Translator) -> None:
    """Tick labels of a points axis in the report's number format (thousands grouped)."""
    def label(x, _pos):
        text = tr.number(x) if abs(x) >= 1000 or x == int(x) else tr.number(x, 1)
        return text.replace("-", "−")  # the minus sign matplotlib uses on every other axis

    axis.set_major_formatter(FuncFormatter(label))


def draw_forest(ax: Axes, claims: pl.DataFrame, title: str | None = None, tr: Translator = EN) -> None:
    """Every (claim, field) effect with its Holm-adjusted interval (thick, coloured by verdict) and its
    unadjusted 95% interval (thin), top to bottom in table order."""
    rows = list(claims.iter_rows(named=True))
    ys = np.arange(len(rows))[::-1]
    for y, r in zip(ys, rows):
        colour = VERDICT_COLOURS.get(r.get("points_verdict") or r["verdict"], "#444444")
        ax.plot([r["ci_low"], r["ci_high"]], [y, y], color=colour, linewidth=5, alpha=0.55, solid_capstyle="butt")
        ax.plot([r["ci95_low"], r["ci95_high"]], [y, y], color="#222222", linewidth=1.2)
        ax.plot([r["effect"]], [y], marker="o", color=colour, markeredgecolor="#222222", markersize=6)
    ax.axvline(0, color="#222222", linewidth=0.8, linestyle="--")
    fields = [",".join(tr("treatment policy") if part == "treatment" else part for part in r["field"].split(","))
              for r in rows]
    ax.set_yticks(ys, [f"{r['claim']} · {_short(f, 28)}" + (" *" if r["headline"] else "")
                       for r, f in zip(rows, fields)])
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=6))
    _number_axis(ax.xaxis, tr)
    ax.set_xlabel(tr("treatment − control, final points per match (points)"))
    ax.set_ylabel(tr("claim · field (* headline)"))
    ax.set_title(title or tr("Effect of each claim, with intervals"))
    handles = [Patch(color=VERDICT_COLOURS[v], alpha=0.55,
                     label=tr("Holm-adjusted interval, {verdict}", verdict=tr.p("verdict", v)))
               for v in VERDICT_COLOURS
               if v in set(claims["points_verdict" if "points_verdict" in claims.columns else "verdict"].to_list())]
    handles += [Line2D([], [], color="#222222", linewidth=1.2, label=tr("unadjusted 95% interval")),
                Line2D([], [], color="#888888", marker="o", linestyle="", markeredgecolor="#222222",
                       label=tr("effect (mean paired difference)"))]
    # below the plot, outside it (the figure uses constrained layout), so no interval is hidden
    ax.get_figure(root=False).legend(handles=handles, loc="outside lower center", ncol=2, fontsize="small",
                                     frameon=False)
    ax.grid(axis="x", alpha=0.3)


def forest_figure(claims: pl.DataFrame, title: str | None = None, tr: Translator = EN) -> Figure:
    fig = new_figure((6.5, 1.9 + 0.27 * max(claims.height, 1)))
    draw_forest(fig.add_subplot(), claims, title, tr)
    return fig


# --- placements and points ------------------------------------------------------------------------------------

RANK_WORDS = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))


def draw_rank_distribution(ax: Axes, numbers, names: dict, tr: Translator = EN) -> None:
    """Share of matches finishing 1st..4th, one bar group per rank and one bar per series (`names`: series key →
    its name in the report's language)."""
    series = [s for s in numbers.series if s.ranks is not None]
    width = 0.8 / max(len(series), 1)
    for k, s in enumerate(series):
        ax.bar(np.arange(1, 5) - 0.4 + width * (k + 0.5), s.ranks, width=width, color=numbers.colours[s.key],
               label=names[s.key])
    ax.axhline(25, color="#222222", linewidth=0.8, linestyle=":")
    ax.set_xticks(range(1, 5), [tr(word) for word in RANK_WORDS])
    ax.set_xlabel(tr("final rank"))
    ax.set_ylabel(tr("share of matches (%)"))
    ax.set_title(ranks_title(tr))
    _legend(ax)


def draw_points_distribution(ax: Axes, numbers, names: dict, tr: Translator = EN) -> None:
    """Histogram (step outlines, shared bins) of final points − start points per series."""
    for s in numbers.series:
        if s.points is not None:
            ax.hist(s.points, bins=numbers.bins, histtype="step", linewidth=1.6, color=numbers.colours[s.key],
                    label=names[s.key])
    ax.axvline(0, color="#222222", linewidth=0.8, linestyle=":")
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5))
    _number_axis(ax.xaxis, tr)
    ax.set_xlabel(tr("final points − starting points (points)"))
    ax.set_ylabel(tr("matches (count)"))
    ax.set_title(points_title(tr))
    _legend(ax)


# --- convergence ---------------------------------------------------------------------------------------------

def paired_differences(matches: pl.DataFrame) -> dict[str, np.ndarray]:
    """field → per-wall-seed paired difference (mean over the 4 subject seats of treatment − control final
    points), in match-id order. `matches` is a claim's subject frame (field, arm, match_id, points)."""
    per = (matches.group_by(["field", "arm", "match_id"], maintain_order=True)
           .agg(pl.col("points").cast(pl.Float64).mean()))
    wide = per.pivot(on="arm", index=["field", "match_id"], values="points").sort(["field", "match_id"])
    out = {}
    for name in matches["field"].unique(maintain_order=True).to_list():
        part = wide.filter(pl.col("field") == name)
        if "treatment" in part.columns and "control" in part.columns:
            out[name] = (part["treatment"] - part["control"]).to_numpy().astype(np.float64)
    return out


def running_interval(diffs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(running mean, low, high) of the 95% normal interval after 1..n wall seeds (no band before 2)."""
    n = np.arange(1, diffs.size + 1, dtype=np.float64)
    mean = np.cumsum(diffs) / n
    sq = np.cumsum(diffs * diffs)
    with np.errstate(invalid="ignore", divide="ignore"):
        var = np.where(n > 1, (sq - n * mean * mean) / (n - 1), np.nan)
        se = np.sqrt(np.maximum(var, 0.0) / n)
    return mean, mean - Z95 * se, mean + Z95 * se


def draw_convergence(ax: Axes, diffs: dict[str, np.ndarray], colours: dict[str, str], tr: Translator = EN) -> None:
    """Running mean of the paired difference with its 95% band as wall seeds accumulate, one line per field."""
    for name, d in diffs.items():
        mean, lo, hi = running_interval(d)
        x = np.arange(1, d.size + 1)
        ax.fill_between(x, lo, hi, color=colours[name], alpha=0.18, linewidth=0)
        field = tr("treatment policy") if name == "treatment" else name
        ax.plot(x, mean, color=colours[name], linewidth=1.6, label=tr("{field} field", field=field))
    ax.axhline(0, color="#222222", linewidth=0.8, linestyle="--")
    _number_axis(ax.yaxis, tr)
    ax.set_xlabel(tr("wall seeds played (count; 8 matches each)"))
    ax.set_ylabel(tr("treatment − control (points)"))
    ax.set_title(convergence_title(tr))
    _legend(ax)


# --- win values and rates ------------------------------------------------------------------------------------

def fan_column(hands: pl.DataFrame) -> str:
    return "fan" if "fan" in hands.columns else "han"


def fan_word(column: str, tr: Translator = EN) -> str:
    """"fan" (Bloodshed) or "han" (riichi modes) in the report's language."""
    return tr.p("unit", column)


def draw_win_value_by_fan(ax: Axes, numbers, names: dict, tr: Translator = EN) -> None:
    """Mean points received for a win by its fan, one line per series."""
    for s in numbers.series:
        if s.win_value is not None:
            ax.plot(*s.win_value, marker="o", color=numbers.colours[s.key], label=names[s.key])
    _number_axis(ax.yaxis, tr)
    ax.set_xlabel(tr("{fan} of the win (count)", fan=fan_word(numbers.fan, tr)))
    ax.set_ylabel(tr("mean points received (points)"))
    ax.set_title(win_value_title(numbers, tr))
    ax.grid(alpha=0.3)
    _legend(ax)


WIN_KIND_COLOURS = {"tsumo": "#1a7f37", "ron": "#7b4fa0"}


def draw_win_value_by_order(ax: Axes, numbers, tr: Translator = EN) -> None:
    """Mean points received by tsumo and by ron, by the number of players who had won earlier in the hand."""
    orders, values = numbers.by_order
    width = 0.4
    for k, kind in enumerate(("tsumo", "ron")):
        ax.bar(np.array(orders) - 0.2 + width * k, values[kind], width=width, color=WIN_KIND_COLOURS[kind],
               label=tr.p("win", kind))
    ax.set_xticks(orders, [str(o) for o in orders])
    _number_axis(ax.yaxis, tr)
    ax.set_xlabel(tr("players who had won earlier in the hand (count)"))
    ax.set_ylabel(tr("mean points received (points)"))
    ax.set_title(tr("Tsumo vs ron value by earlier winners"))
    _legend(ax)


def win_value_figure(numbers, names: dict, tr: Translator = EN) -> Figure:
    fig = new_figure((8.0, 3.6))
    left, right = fig.subplots(1, 2)
    draw_win_value_by_fan(left, numbers, names, tr)
    draw_win_value_by_order(right, numbers, tr)
    return fig


RATE_WORDS = {"win": N_("win rate"), "deal-in": N_("deal-in rate"), "flower pig": N_("flower-pig rate")}


def hand_rates(hands: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """Per group of the columns `by`: share of hands won, dealt in (paid at least one ron) and ended as flower pig
    (%), and the number of hands."""
    exprs = [pl.col("won").cast(pl.Float64).mean().mul(100).alias("win"),
             (pl.col("dealt_in") > 0).cast(pl.Float64).mean().mul(100).alias("deal-in")]
    if "flower_pig" in hands.columns:
        exprs.append(pl.col("flower_pig").cast(pl.Float64).mean().mul(100).alias("flower pig"))
    return hands.group_by(by, maintain_order=True).agg(*exprs, pl.len().alias("hands"))


def draw_rates(ax: Axes, numbers, names: dict, tr: Translator = EN) -> None:
    """Grouped bars: win, deal-in and flower-pig rates per hand for each series."""
    metrics = numbers.rate_names
    series = [s for s in numbers.series if s.rates is not None]
    width = 0.8 / max(len(series), 1)
    for k, s in enumerate(series):
        ax.bar(np.arange(len(metrics)) - 0.4 + width * (k + 0.5), [s.rates[m] for m in metrics], width=width,
               color=numbers.colours[s.key], label=names[s.key])
    ax.set_xticks(range(len(metrics)), [tr(RATE_WORDS[m]) for m in metrics])
    ax.set_xlabel(tr("outcome of the hand"))
    ax.set_ylabel(tr("share of hands (%)"))
    ax.set_title(rates_title(numbers, tr))
    _legend(ax)


# --- titles (the first Axes' title names a figure, e.g. in the HTML's alt text) ------------------------------

def convergence_title(tr: Translator = EN) -> str:
    return tr("Convergence of the paired difference (95% band)")


def ranks_title(tr: Translator = EN) -> str:
    return tr("Rank distribution")


def points_title(tr: Translator = EN) -> str:
    return tr("Distribution of final points")


def win_value_title(numbers, tr: Translator = EN) -> str:
    return tr("Win value by {fan}", fan=fan_word(numbers.fan, tr))


def rates_title(numbers, tr: Translator = EN) -> str:
    return (tr("Win, deal-in and flower-pig rates") if len(numbers.rate_names) == 3
            else tr("Win and deal-in rates"))


def single_figure(draw, *args, size: tuple[float, float] = FIGURE_SIZE) -> Figure:
    fig = new_figure(size)
    draw(fig.add_subplot(), *args)
    return fig


LEGEND_LABEL_WIDTH = 32


def _legend(ax: Axes) -> None:
    """A legend when the axes shows several series; long policy labels are cut (tables carry them in full)."""
    handles, labels = ax.get_legend_handles_labels()
    if len([label for label in labels if not label.startswith("_")]) > 1:
        ax.legend(handles, [_short(label, LEGEND_LABEL_WIDTH) for label in labels], loc="best", fontsize="small")


def _short(text: str, width: int) -> str:
    """`text` cut to `width` columns (a CJK character takes two) with an ellipsis."""
    from tsumolab.reports.wrap import display_width

    if display_width(text) <= width:
        return text
    out = ""
    for char in text:
        if display_width(out + char) > width - 1:
            break
        out += char
    return out + "…"
