"""Saving the report's figures: SVG bytes for the HTML, pages of a PDF.

A figure with a layout engine (constrained layout) is laid out once, by the canvas that saves it, and its
positions are then fixed: matplotlib would otherwise draw the whole figure one extra time just to lay it out.
The saved bytes are the same either way; drawing once takes about a quarter less time. A figure that is a plain
grid of Axes (fit_grid: every HTML figure but the forest plot) is laid out in one measured pass instead of
constrained layout's two, to the same positions within a tenth of a point.

Each figure is laid out in the language it is drawn in, so a figure has the same bytes whichever languages are
rendered with it, and a report in one language builds each figure once.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import BinaryIO

from matplotlib import rc_context
from matplotlib.backends.backend_pdf import FigureCanvasPdf, PdfPages
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

PDF_METADATA = {"Creator": "tsumolab report", "Producer": "tsumolab (matplotlib PdfPages)",
                "CreationDate": None, "ModDate": None}
VECTOR_DPI = 72
"""the resolution the SVG and PDF canvases draw at, whatever the figure's own"""


def laid_out(fig: Figure, canvas_class: type) -> Figure:
    """`fig` laid out once on a `canvas_class` canvas (as saving to that format would: fit_grid, or its layout
    engine) and its layout engine then removed, so that saving draws it only once."""
    engine = fig.get_layout_engine()
    if engine is None:
        return fig
    canvas_class(fig)
    fig.dpi = VECTOR_DPI
    if not fit_grid(fig, engine.get()):
        engine.execute(fig)
    fig.set_layout_engine(None)
    return fig


def fit_grid(fig: Figure, pads: dict) -> bool:
    """Lay out a figure whose Axes are subplots of one grid, one cell each, with nothing drawn at figure level
    (no suptitle, figure legend or subfigure), in one measured pass: each column and row gets the widest
    decorations (tick labels, axis labels, title) of its Axes plus the padding of `pads` (constrained layout's
    w_pad, h_pad in inches, wspace, hspace), and the cells share what remains equally — the positions constrained
    layout reaches, which measures every Axes twice. False, and nothing done, for any other figure."""
    grid = _plain_grid(fig)
    if grid is None:
        return False
    rows, cols = grid.get_geometry()
    renderer = fig._get_renderer()
    left, right, bottom, top = [0.0] * cols, [0.0] * cols, [0.0] * rows, [0.0] * rows
    for ax in fig.axes:
        spec = ax.get_subplotspec()
        row, col = spec.rowspan.start, spec.colspan.start
        margins = _decoration_margins(ax, renderer)
        left[col], right[col] = max(left[col], margins.x0), max(right[col], margins.x1)
        bottom[row], top[row] = max(bottom[row], margins.y0), max(top[row], margins.y1)
    xs, width = _cells(left, right, pads["w_pad"] / fig.get_figwidth(), pads["wspace"])
    ys, height = _cells(top, bottom, pads["h_pad"] / fig.get_figheight(), pads["hspace"])
    for ax in fig.axes:
        spec = ax.get_subplotspec()
        ax.set_position((xs[spec.colspan.start], 1 - ys[spec.rowspan.start] - height, width, height))
    return True


def _plain_grid(fig: Figure):
    """The GridSpec that every Axes of `fig` fills one cell of, when its cells are equal and its spacing the layout
    engine's, and nothing else is drawn at figure level; else None."""
    drawn = (fig.texts, fig.legends, fig.subfigs, fig.images, fig.lines, fig.patches, fig.artists)
    specs = [ax.get_subplotspec() for ax in fig.axes]
    if any(drawn) or not specs or any(spec is None for spec in specs):
        return None
    grid = specs[0].get_gridspec()
    single = all(spec.get_gridspec() is grid and len(spec.rowspan) == 1 and len(spec.colspan) == 1 for spec in specs)
    equal = len(set(grid.get_width_ratios())) == 1 and len(set(grid.get_height_ratios())) == 1
    own_spacing = getattr(grid, "wspace", None) is not None or getattr(grid, "hspace", None) is not None
    return grid if single and equal and not own_spacing else None


def _decoration_margins(ax, renderer) -> Bbox:
    """How far `ax`'s decorations reach past its box on each side (x0 left, x1 right, y0 below, y1 above), in
    figure fractions. A legend placed in the Axes (not anchored elsewhere) is left out: it does not reach past it."""
    legend = ax.get_legend()
    inside = legend is not None and legend.get_in_layout() and legend.get_bbox_to_anchor() is ax.bbox
    if inside:
        legend.set_in_layout(False)
    try:
        tight = ax.get_tightbbox(renderer, for_layout_only=True)
    finally:
        if inside:
            legend.set_in_layout(True)
    box = ax.get_position(original=True)
    reach = tight.transformed(ax.get_figure(root=True).transFigure.inverted())
    return Bbox([[box.x0 - reach.x0, box.y0 - reach.y0], [reach.x1 - box.x1, reach.y1 - box.y1]])


def _cells(before: list[float], after: list[float], pad: float, space: float) -> tuple[list[float], float]:
    """Where each cell of a row (or column, from the top) of the grid starts and the size every cell gets, in
    figure fractions: `before`/`after` are each cell's decorations, `pad` the padding at the figure's edges and
    around every cell, widened between cells to `space` / 2 / cells when that is larger."""
    count = len(before)
    inner = max(pad, space / 2 / count)
    pads = [(pad if k == 0 else inner, pad if k == count - 1 else inner) for k in range(count)]
    size = (1 - sum(before) - sum(after) - sum(a + b for a, b in pads)) / count
    starts, edge = [], 0.0
    for k in range(count):
        edge += pads[k][0] + before[k]
        starts.append(edge)
        edge += size + after[k] + pads[k][1]
    return starts, size


def svg_bytes(fig: Figure) -> bytes:
    """The figure as SVG (no date; ids fixed by the `svg.hashsalt` of the rc in effect)."""
    buffer = io.BytesIO()
    laid_out(fig, FigureCanvasSVG).savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def write_pdf(path: Path | BinaryIO, pages: list[Figure]) -> int:
    """The pages, one figure each, as a PDF at `path` (or into a binary file) with fixed metadata; returns the
    number of pages."""
    with PdfPages(path, metadata=PDF_METADATA) as pdf:
        for page in pages:
            pdf.savefig(laid_out(page, FigureCanvasPdf))
        return pdf.get_pagecount()


def figure_svgs(spec, langs: tuple[str, ...]) -> dict[str, bytes]:
    """A report figure (content.FigureSpec) as SVG in each language of `langs`, each laid out in its own."""
    from tsumolab.analyzer.i18n import translator
    from tsumolab.reports.fonts import font_rc

    out = {}
    for lang in langs:
        with rc_context(font_rc(lang)):
            out[lang] = svg_bytes(spec.build(translator(lang)))
    return out
