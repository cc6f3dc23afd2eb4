"""Saving the report's figures: SVG bytes for the HTML, pages of a PDF.

A figure with a layout engine (constrained layout) is laid out once, by the canvas that saves it, and its
positions are then fixed: matplotlib would otherwise draw the whole figure one extra time just to lay it out.
The saved bytes are the same either way; drawing once takes about a quarter less time.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import BinaryIO

from matplotlib.backends.backend_pdf import FigureCanvasPdf, PdfPages
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure

PDF_METADATA = {"Creator": "tsumolab report", "Producer": "tsumolab (matplotlib PdfPages)",
                "CreationDate": None, "ModDate": None}
VECTOR_DPI = 72
"""the resolution the SVG and PDF canvases draw at, whatever the figure's own"""


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
