"""render_report(DIR): DIR/report.html and DIR/report.pdf from a claims study, an experiment or a plain run.

Both files are written atomically (temporary file + rename). Rendering the same data twice gives the same
bytes: figures use fixed SVG ids, no dates, and the PDF has no creation date.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import NamedTuple

import matplotlib

matplotlib.use("Agg")  # no display is ever needed; figures are drawn with the object API only

from matplotlib import rc_context  # noqa: E402

from analyzer.tables import replacing  # noqa: E402
from reports.data import ReportData, load_report_data  # noqa: E402
from reports.fonts import font_rc  # noqa: E402

HTML_NAME = "report.html"
PDF_NAME = "report.pdf"


class ReportPaths(NamedTuple):
    """(html path, pdf path); printed as both paths (e.g. by `tsumolab claims`)."""

    html: Path
    pdf: Path

    def __str__(self) -> str:
        return f"{self.html} and {self.pdf}"


def find_examples(data: ReportData) -> dict:
    """claim id → its example hand (or NoExample)."""
    from reports.examples import find_example

    return {claim.id: find_example(claim) for claim in data.claims}


def render_report(out_dir: Path | str) -> ReportPaths:
    """Render DIR/report.html and DIR/report.pdf; InputError (exit 2 on the command line) when DIR holds
    neither a study nor a run. Returns (html path, pdf path)."""
    from reports.html import render_html
    from reports.pdf import render_pdf

    out = Path(out_dir)
    data = load_report_data(out)
    examples = find_examples(data)
    html_path, pdf_path = out / HTML_NAME, out / PDF_NAME
    font_log = logging.getLogger("matplotlib.font_manager")
    level = font_log.level
    font_log.setLevel(logging.ERROR)  # bold text falls back to the regular CJK face: not worth a warning
    try:
        with rc_context(font_rc()):
            text = render_html(data, examples)
            with replacing(html_path) as temp:
                temp.write_text(text, encoding="utf-8")
            with replacing(pdf_path) as temp:
                render_pdf(data, examples, temp)
    finally:
        font_log.setLevel(level)
    return ReportPaths(html_path, pdf_path)
