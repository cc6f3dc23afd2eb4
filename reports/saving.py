"""Saving the report's figures: SVG bytes for the HTML, pages of a PDF.

A figure with a layout engine (constrained layout) is laid out once, by the canvas that saves it, and its
positions are then fixed: matplotlib would otherwise draw the whole figure one extra time just to lay it out.
The saved bytes are the same either way; drawing once takes about a quarter less time.

An HTML figure is laid out once for every language, in English (`figure_svgs`): the figure of another language is
drawn at the English figure's positions, so a report in three languages lays each figure out once, and a figure
has the same bytes whichever languages are rendered with it. (Titles and axis labels are one line in every
language and tick labels are numbers or short words, so the margins the English texts need fit the others; a
figure whose tick labels are long translated texts, such as the forest plot's field names, is laid out in each
language: FigureSpec.own_layout.)
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from matplotlib import rc_context
from matplotlib.backends.backend_pdf import FigureCanvasPdf, PdfPages
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure

PDF_METADATA = {"Creator": "tsumolab report", "Producer": "tsumolab (matplotlib PdfPages)",
                "CreationDate": None, "ModDate": None}
VECTOR_DPI = 72
"""the resolution the SVG and PDF canvases draw at, whatever the figure's own"""
LAYOUT_LANGUAGE = "en"
"""the language every HTML figure is laid out in"""


def laid_out(fig: Figure, canvas_class: type) -> Figure:
    """`fig` with its layout engine run once on a `canvas_class` canvas (as saving to that format would) and then
    removed, so that saving draws it only once."""
    engine = fig.get_layout_engine()
    if engine is None:
        return fig
    canvas_class(fig)
    fig.dpi = VECTOR_DPI
    engine.execute(fig)
    fig.set_layout_engine(None)
    return fig


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


# --- one layout for every language ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    """Where a laid-out figure's parts are: each Axes' box and each figure text's position (suptitle, …), in
    figure coordinates and in the figure's order."""

    axes: tuple[tuple[float, float, float, float], ...]
    texts: tuple[tuple[float, float], ...]


def layout_of(fig: Figure) -> Layout:
    """The positions of a figure laid out for SVG (its layout engine run once and removed)."""
    laid_out(fig, FigureCanvasSVG)
    return Layout(tuple(tuple(ax.get_position().bounds) for ax in fig.axes),
                  tuple(tuple(text.get_position()) for text in fig.texts))


def with_layout(fig: Figure, layout: Layout) -> Figure:
    """`fig` (built by the same code as the figure `layout` was taken from, in another language) at those
    positions, without a layout engine."""
    if len(fig.axes) != len(layout.axes) or len(fig.texts) != len(layout.texts):
        raise ValueError("the figure differs from the one its layout was taken from")
    fig.set_layout_engine(None)
    for ax, bounds in zip(fig.axes, layout.axes):
        ax.set_position(bounds)
    for text, position in zip(fig.texts, layout.texts):
        text.set_position(position)
    return fig


def figure_svgs(spec, langs: tuple[str, ...]) -> dict[str, bytes]:
    """A report figure (content.FigureSpec) as SVG in each language of `langs`, laid out once, in LAYOUT_LANGUAGE
    (module docstring), unless `spec.own_layout`."""
    from tsumolab.analyzer.i18n import translator
    from tsumolab.reports.fonts import font_rc

    out = {}
    layout, reference = None, None
    if not spec.own_layout:
        with rc_context(font_rc(LAYOUT_LANGUAGE)):
            reference = spec.build(translator(LAYOUT_LANGUAGE))
            layout = layout_of(reference)
    for lang in langs:
        with rc_context(font_rc(lang)):
            if lang == LAYOUT_LANGUAGE and reference is not None:
                fig = reference
            else:
                fig = spec.build(translator(lang))
                if layout is not None:
                    with_layout(fig, layout)
            out[lang] = svg_bytes(fig)
    return out
