"""The PDF report via matplotlib's PdfPages (no browser): summary pages, then one page per claim.

Bytes are deterministic for the same data: no creation or modification date, fixed producer strings, Type 3
fonts subset from the same glyphs, and figures drawn in a fixed order. Every text is in the language of the
Translator `tr`; lines are broken by reports.wrap, which breaks Chinese and Japanese between characters.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox, TransformedBbox

from tsumolab.analyzer.i18n import Translator
from tsumolab.reports import content, decisions, example_text, figures, sweeps, verdict_lines
from tsumolab.reports.content import EN, Table, Verdict
from tsumolab.reports.data import ClaimData, ReportData
from tsumolab.reports.examples import ExampleHand, NoExample
from tsumolab.reports.fonts import MONO_FAMILY, cjk_families
from tsumolab.reports.pdf_join import join_pdfs
from tsumolab.reports.saving import write_pdf
from tsumolab.reports.wrap import cut, fill

A4 = (8.27, 11.69)
EXCERPT_LINES = 16


PDF_PARTS = 2
"""parts the PDF is written in, whatever the number of processes writing them (reports.render writes them at once
and joins them with reports.pdf_join)"""

Section = tuple[str, str]
"""a run of the PDF's pages drawn together: ("summary", ""), ("claim", claim id) or ("beyond", "")"""


def render_pdf(data: ReportData, examples: dict, path: Path, tr: Translator = EN) -> int:
    """Write the PDF to `path` (a temporary file the caller moves into place), its parts (pdf_parts) joined;
    returns the number of pages."""
    parts = [render_pdf_part(data, examples, sections, tr) for sections in pdf_parts(data)]
    joined = join_pdfs([part for part, _pages in parts])
    Path(path).write_bytes(joined)
    return sum(pages for _part, pages in parts)


def pdf_parts(data: ReportData) -> list[list[Section]]:
    """The PDF's sections in page order, cut into at most PDF_PARTS runs that take about as long to draw each,
    the same for every language. A claim's page weighs 2, its variants' page 1, the summary pages together 2 and
    the page before the questions beyond the sources 1, about as their drawing times compare."""
    sections: list[tuple[Section, int]] = [(("summary", ""), 2)]
    sections += [(("claim", claim.id), 2 + claim.swept) for claim in data.source_claims]
    if data.kind == "study" and data.beyond_claims:
        sections.append((("beyond", ""), 1))
        sections += [(("claim", claim.id), 2 + claim.swept) for claim in data.beyond_claims]
    total = sum(weight for _section, weight in sections)
    parts: list[list[Section]] = [[] for _ in range(min(PDF_PARTS, len(sections)))]
    done = 0
    for section, weight in sections:
        # the part this section's middle page falls in
        parts[min(len(parts) - 1, int((done + weight / 2) * len(parts) / total))].append(section)
        done += weight
    return [part for part in parts if part]


def render_pdf_part(data: ReportData, examples: dict, sections: list[Section], tr: Translator = EN
                    ) -> tuple[bytes, int]:
    """(PDF bytes, number of pages) of a run of sections of the report (pdf_parts)."""
    pages = [page for section in sections for page in _section_pages(data, examples, section, tr)]
    buffer = io.BytesIO()
    write_pdf(buffer, pages)
    return buffer.getvalue(), len(pages)


def _section_pages(data: ReportData, examples: dict, section: Section, tr: Translator) -> list[Figure]:
    kind, claim_id = section
    if kind == "summary":
        return summary_pages(data, tr)
    if kind == "beyond":
        return beyond_pages(data, tr)
    claim = next(claim for claim in data.claims if claim.id == claim_id)
    return _claim_pages([claim], data.directory, examples, tr)


def _claim_pages(claims: list[ClaimData], directory: Path, examples: dict, tr: Translator) -> list[Figure]:
    """One page per claim, after a swept claim's page the page of its variants, then the claim's decision pages
    when the study has decisions (reports.decisions)."""
    pages = []
    for claim in claims:
        pages.append(_claim_page(claim, examples.get(claim.id), tr))
        if claim.swept:
            pages.append(_sweep_page(claim, tr))
        pages += decisions.decision_pages(directory, [claim.id], tr, DECISIONS_LAYOUT)
    return pages


def summary_pages(data: ReportData, tr: Translator = EN) -> list[Figure]:
    """The pages before the claims: overview, forest plot and run details for a study; overview, figures and
    run details for a plain run."""
    if data.kind == "study":
        forest = [_forest_page(data, tr)] if content.summary_figures(data) else []  # none without source claims
        return [_overview_page(data, tr), *forest, _run_page(data, tr)]
    return [_overview_page(data, tr), _run_figures_page(data, tr), _run_page(data, tr)]


def _page(layout: str | None = None) -> Figure:
    return Figure(figsize=A4, layout=layout)


def _wrap(text: str, width: int) -> str:
    return fill(text, width)


def _text_block(fig: Figure, top_in: float, lines: list[tuple[str, dict]], left_in: float = 0.45) -> float:
    """Stack wrapped paragraphs down from `top_in` inches below the page top; returns the inches used up to."""
    y = top_in
    for text, style in lines:
        style = dict(style)
        size = style.get("size", 10)
        wrapped = _wrap(text, style.pop("wrap", 95))
        fig.text(left_in / A4[0], 1 - y / A4[1], wrapped, va="top", ha="left", **style)
        y += (wrapped.count("\n") + 1) * size * 1.3 / 72 + 0.08
    return y


def _axes(fig: Figure, left_in: float, top_in: float, width_in: float, height_in: float) -> Axes:
    """An Axes placed in inches from the page's top-left corner."""
    return fig.add_axes((left_in / A4[0], 1 - (top_in + height_in) / A4[1], width_in / A4[0], height_in / A4[1]))


TABLE_EDGE = "#bbbbbb"
TABLE_LINE_WIDTH = 1.0
HEADER_FILL = "#eeeeea"
CELL_PAD = 0.03
"""space left of a body cell's text, as a fraction of the cell's width"""


def draw_table(ax: Axes, table: Table, size: float = 7.5, widths: list[int] | None = None) -> None:
    """A Table at the top of `ax`, spanning its width: a shaded header row (texts centred), body rows with verdict
    cells coloured (white text), long cells wrapped, and the font shrunk when the rows would not fit the axes.
    Drawn as one collection of cell boxes, then one text per cell, clipped as if each cell were drawn after the
    cells before it (a text running past its cell is hidden under the cells to its right and below)."""
    ax.axis("off")
    widths = widths or [max(len(c), 12) for c in table.columns]
    header = [_wrap(c, max(w, 6)) for c, w in zip(table.columns, widths)]
    body = [[_wrap(v, max(w, 6)) for v, w in zip(row, widths)] for row in table.rows]
    lines = [max(t.count("\n") + 1 for t in row) + 0.35 for row in [header, *body]]
    axes_height_in = max(ax.get_position().height * A4[1], 0.5)
    needed = sum(lines) * size * 1.3 / 72 / axes_height_in
    scale = min(1.0, 1.0 / needed) if needed > 0 else 1.0
    xs = np.cumsum([0, *widths]) / sum(widths)
    ys = 1 - min(needed, 1.0) * np.cumsum([0, *lines]) / sum(lines)
    boxes, fills = [], []
    for r, row in enumerate([header, *body]):
        for c, text in enumerate(row):
            fill, colour = _cell_colours(None if r == 0 else table.rows[r - 1][c], r == 0)
            boxes.append([(xs[c], ys[r + 1]), (xs[c + 1], ys[r + 1]), (xs[c + 1], ys[r]), (xs[c], ys[r])])
            fills.append(fill)
            x = (xs[c] + xs[c + 1]) / 2 if r == 0 else xs[c] + CELL_PAD * (xs[c + 1] - xs[c])
            label = ax.text(x, (ys[r] + ys[r + 1]) / 2, text, transform=ax.transAxes, fontsize=size * scale,
                            color=colour, ha="center" if r == 0 else "left", va="center")
            label.set_clip_box(_cell_clip(ax, xs[c + 1] if c + 1 < len(row) else None,
                                          ys[r + 1] if r + 1 < len(lines) else None))
            label.set_clip_on(True)
    ax.add_collection(PolyCollection(boxes, facecolors=fills, edgecolors=TABLE_EDGE, linewidths=TABLE_LINE_WIDTH,
                                     joinstyle="miter", transform=ax.transAxes, clip_on=False), autolim=False)


def _cell_clip(ax: Axes, right: float | None, bottom: float | None) -> TransformedBbox:
    """Where a cell's text shows: the page left of the cell's right border and above its bottom border (axes
    fractions; None: the table's last column or row, which nothing covers), short of the half of those borders
    that the next cells' lines cover."""
    pos = ax.get_position()
    half_line = TABLE_LINE_WIDTH / 2 / 72
    x1 = 1.0 if right is None else pos.x0 + right * pos.width - half_line / A4[0]
    y0 = 0.0 if bottom is None else pos.y0 + bottom * pos.height + half_line / A4[1]
    return TransformedBbox(Bbox([[0.0, y0], [x1, 1.0]]), ax.get_figure(root=True).transFigure)


def _cell_colours(value, header: bool) -> tuple[str, str]:
    """(background, text colour) of a table cell: shaded header, verdict colour with white text, else white."""
    if header:
        return HEADER_FILL, "black"
    if isinstance(value, Verdict):
        return figures.VERDICT_COLOURS[value.key], "white"
    return "white", "black"


def _overview_page(data: ReportData, tr: Translator) -> Figure:
    fig = _page()
    lines = [(content.report_title(data, tr), {"size": 17, "weight": "bold", "wrap": 52})]
    if data.kind == "study":
        text = tr.n("{count} claim: {verdicts}", "{count} claims: {verdicts}", len(data.source_claims),
                    verdicts=content.verdict_counts(data.source_claims, tr))
        if data.beyond_claims:
            text += tr.n("; {count} question beyond the sources (its own page after the claims): {verdicts}",
                         "; {count} questions beyond the sources (their own pages after the claims): {verdicts}",
                         len(data.beyond_claims), verdicts=content.verdict_counts(data.beyond_claims, tr))
        lines.append((tr("{text} at their headline fields.", text=text), {"size": 11}))
        words = {v: content.verdict_word(v, tr) for v in content.VERDICTS}
        lines.append((tr("Verdicts use Holm-adjusted 95% intervals of the paired difference (treatment − control "
                         "on the same walls and seats) in final points and in average rank, over every claim × "
                         "variant × field row and both objectives; each claim is judged on its headline objective: "
                         "{supported} = on the claimed side of 0, {refuted} = on the other side, {inconclusive} = "
                         "contains 0.", **words), {"size": 9, "wrap": 115}))
    for label, value in content.run_details(data, tr):
        lines.append((tr("{label}: {value}", label=label, value=value), {"size": 9, "wrap": 115}))
    used = _text_block(fig, 0.5, lines)
    top = used + 0.5
    ax = _axes(fig, 0.45, top, A4[0] - 0.9, A4[1] - top - 0.5)
    if data.kind == "study" and not data.source_claims:
        ax.axis("off")
        fig.text(0.45 / A4[0], 1 - (top - 0.1) / A4[1], tr("No claim from the sources in this study: see the "
                                                           "Beyond the sources page."), size=11, weight="bold")
    elif data.kind == "study":
        draw_table(ax, content.summary_table(data, tr=tr), size=8.5, widths=[6, 13, 14, 22, 9, 10, 22])
        fig.text(0.45 / A4[0], 1 - (top - 0.1) / A4[1], tr("Verdict per claim (headline field)"), size=11,
                 weight="bold")
    else:
        draw_table(ax, content.policy_table(data, tr), size=7.5, widths=[30, 30, 60])
        fig.text(0.45 / A4[0], 1 - (top - 0.1) / A4[1], tr("Policies of the run"), size=11, weight="bold")
    return fig


def _forest_page(data: ReportData, tr: Translator) -> Figure:
    fig = _page("constrained")
    ax = fig.add_subplot()
    figures.draw_forest(ax, content.group_rows(data.claims_table, False), tr=tr)
    fig.suptitle(tr("Summary: every claim's effect with its intervals"), fontsize=13)
    return fig


def beyond_pages(data: ReportData, tr: Translator = EN) -> list[Figure]:
    """Before the pages of the questions beyond the sources: one page with what they are, their verdicts and
    their forest plot (nothing when the study has none)."""
    if data.kind != "study" or not data.beyond_claims:
        return []
    fig = _page()
    used = _text_block(fig, 0.5, [(tr(content.BEYOND_TITLE), {"size": 17, "weight": "bold"}),
                                  (tr(content.BEYOND_TEXT), {"size": 9, "wrap": 115})])
    table = content.summary_table(data, beyond=True, tr=tr)
    height = 0.45 + 0.3 * len(table.rows)
    draw_table(_axes(fig, 0.45, used + 0.2, A4[0] - 0.9, height), table, size=8.5,
               widths=[8, 13, 14, 22, 9, 10, 22])
    top = used + 0.5 + height
    rows = content.group_rows(data.claims_table, True)
    height = min(A4[1] - top - 1.6, 0.6 + 0.3 * rows.height)
    ax = _axes(fig, 2.2, top, A4[0] - 2.7, height)
    figures.draw_forest(ax, rows, content.forest_title(True, tr), tr)
    # the forest's legend sits at the bottom of a constrained-layout figure; on this page, right under the plot
    legend = fig.legends.pop()
    fig.legend(legend.legend_handles, [t.get_text() for t in legend.texts], loc="upper center", ncol=2,
               fontsize="small", frameon=False, bbox_to_anchor=(0.5, 1 - (top + height + 0.55) / A4[1]))
    return [fig]


def _run_figures_page(data: ReportData, tr: Translator) -> Figure:
    fig = _page("constrained")
    axes = fig.subplots(3, 2).ravel()
    numbers = data.plot_numbers
    names = content.series_names(numbers, tr)
    figures.draw_rank_distribution(axes[0], numbers, names, tr)
    figures.draw_points_distribution(axes[1], numbers, names, tr)
    figures.draw_win_value_by_fan(axes[2], numbers, names, tr)
    figures.draw_win_value_by_order(axes[3], numbers, tr)
    figures.draw_rates(axes[4], numbers, names, tr)
    axes[5].axis("off")
    fig.suptitle(tr("Results by policy"), fontsize=13)
    return fig


def _run_page(data: ReportData, tr: Translator) -> Figure:
    fig = _page()
    top = 0.5
    if data.kind == "study":
        fig.text(0.45 / A4[0], 1 - top / A4[1], tr("Experiments: rules, seeds, matches"), size=11, weight="bold",
                 va="top")
        ax = _axes(fig, 0.45, top + 0.35, A4[0] - 0.9, 3.6)
        draw_table(ax, content.experiment_table(data, tr), size=6.5, widths=[5, 7, 20, 16, 20, 5, 8, 7, 16])
        top += 4.3
    fig.text(0.45 / A4[0], 1 - top / A4[1], tr("Policies and their parameters"), size=11, weight="bold", va="top")
    ax = _axes(fig, 0.45, top + 0.35, A4[0] - 0.9, A4[1] - top - 0.85)
    draw_table(ax, content.policy_table(data, tr), size=6.5, widths=[34, 30, 60])
    return fig


PLOT_LEFT = (0.8, 4.9)
PLOT_WIDTH, PLOT_HEIGHT, PLOT_TOP, PLOT_STEP = 2.95, 1.05, 5.05, 1.6


def _claim_page(claim: ClaimData, example: ExampleHand | NoExample | None, tr: Translator = EN) -> Figure:
    fig = _page()
    row = claim.headline
    verdict = Verdict(content.claim_verdict(claim), tr)
    fig.text(0.45 / A4[0], 1 - 0.4 / A4[1], claim.id, size=18, weight="bold", va="top")
    # the badge starts after the id, however long the id is
    badge_left = max(1.25, 0.45 + 0.17 * len(claim.id) + 0.25)
    fig.text(badge_left / A4[0], 1 - 0.43 / A4[1], f" {verdict} ", size=12, weight="bold", va="top", color="white",
             bbox={"boxstyle": "round,pad=0.3", "facecolor": figures.VERDICT_COLOURS[verdict.key],
                   "edgecolor": "none"})
    if claim.beyond_sources:
        fig.text(1 - 0.45 / A4[0], 1 - 0.43 / A4[1],
                 tr("{title}: tsumolab's own question", title=tr(content.BEYOND_TITLE)), size=10,
                 va="top", ha="right", color="#7a4b00",
                 bbox={"boxstyle": "round,pad=0.3", "facecolor": "#fff3d6", "edgecolor": "#e0b85c"})
    quote_style = {"size": 9.5, "wrap": 105} if tr.lang != "en" else {"size": 9.5, "style": "italic", "wrap": 105}
    lead = [(verdict_lines.first_line(claim, tr), {"size": 9, "weight": "bold", "wrap": 112})]
    if not content.is_measure(claim):
        lead.append((verdict_lines.robustness_line(claim, tr), {"size": 8.5, "wrap": 118}))
    used = _text_block(fig, 0.85, lead + [
        (tr("“{text}”", text=content.claim_text(claim, tr)), quote_style),
        (tr("Source: {source}. {design}", source=content.source_text(claim, tr),
            design=content.design_sentence(claim, tr)), {"size": 8, "wrap": 125}),
        (content.effect_sentence(row, tr), {"size": 8.5, "wrap": 118}),
    ])
    table = content.metric_table(claim, tr)
    table_top = used + 0.05
    draw_table(_axes(fig, 0.45, table_top, A4[0] - 0.9, PLOT_TOP - table_top - 0.35), table, size=7,
               widths=[30] + [max(30, len(c)) for c in table.columns[1:]])
    axes = [_axes(fig, PLOT_LEFT[k % 2], PLOT_TOP + (k // 2) * PLOT_STEP, PLOT_WIDTH, PLOT_HEIGHT)
            for k in range(6)]
    numbers = claim.plot_numbers
    names = content.series_names(numbers, tr)
    if content.is_measure(claim):
        # both arms are the same run of the field's policy: shown once (plot_data), and no paired difference
        axes[0].set_axis_off()
        axes[0].text(0.5, 0.5, tr("Measured fact: no treatment − control difference"), ha="center", va="center",
                     transform=axes[0].transAxes, size=8)
    else:
        figures.draw_convergence(axes[0], numbers.diffs, content.field_colours(numbers), tr)
    figures.draw_rank_distribution(axes[1], numbers, names, tr)
    figures.draw_points_distribution(axes[2], numbers, names, tr)
    figures.draw_rates(axes[3], numbers, names, tr)
    figures.draw_win_value_by_fan(axes[4], numbers, names, tr)
    figures.draw_win_value_by_order(axes[5], numbers, tr)
    for ax in axes:
        ax.title.set_fontsize(8.5)
        ax.xaxis.label.set_fontsize(7)
        ax.yaxis.label.set_fontsize(7)
        ax.tick_params(labelsize=6.5)
        if ax.get_legend() is not None:
            for text in ax.get_legend().get_texts():
                text.set_fontsize(5.5)
    _draw_example(fig, PLOT_TOP + 3 * PLOT_STEP + 0.05, example, tr)
    return fig


def _sweep_page(claim: ClaimData, tr: Translator = EN) -> Figure:
    """A swept claim's variants: which were tested, the table of every variant × field, the effect figure."""
    fig = _page()
    fig.text(0.45 / A4[0], 1 - 0.4 / A4[1], tr("{claim}: variants tested", claim=claim.id), size=16,
             weight="bold", va="top")
    used = _text_block(fig, 0.85, [(verdict_lines.sweep_line(claim, tr), {"size": 8.5, "wrap": 118})])
    table = sweeps.sweep_table(claim, tr)
    height = 0.22 * (len(table.rows) + 1)
    draw_table(_axes(fig, 0.45, used + 0.1, A4[0] - 0.9, height), table, size=7,
               widths=[28] + [max(14, len(c)) for c in table.columns[1:]])
    plot_top = used + 0.45 + height
    fields = sweeps.sweep_fields(claim)
    panel = min(2.6, (A4[1] - plot_top - 0.4) / len(fields) - 0.55)
    axes = [_axes(fig, 1.0, plot_top + k * (panel + 0.55), A4[0] - 1.6, panel) for k in range(len(fields))]
    sweeps.draw_sweep(axes, claim, tr)
    for ax in axes:
        ax.title.set_fontsize(8.5)
        ax.tick_params(labelsize=7)
    return fig


def _draw_example(fig: Figure, top_in: float, example, tr: Translator) -> None:
    heading = (tr("Example hand"), {"size": 10, "weight": "bold"})
    if example is None or isinstance(example, NoExample):
        _text_block(fig, top_in, [heading, (example_text.no_example(example, tr), {"size": 8.5, "wrap": 118})])
        return
    key_lines = example_text.key_lines(example, tr)
    lines = key_lines[:EXCERPT_LINES] + (["   …"] if len(key_lines) > EXCERPT_LINES else [])
    used = _text_block(fig, top_in, [heading, (example_text.short_summary(example, tr), {"size": 8, "wrap": 125})])
    fig.text(0.45 / A4[0], 1 - used / A4[1], "\n".join(cut(line, 118) for line in lines),
             va="top", ha="left", size=6.3, family=[MONO_FAMILY, *cjk_families(tr.lang)])


DECISIONS_LAYOUT = decisions.PdfLayout(A4, _axes, _page, _text_block, draw_table)
