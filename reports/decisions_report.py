"""The report of a decisions study alone (`tsumolab decisions`): DIR/decisions.html and DIR/decisions.pdf, an
overview table of every claim and then the decision-level section of each (reports.decisions), in the claims
report's style."""

from __future__ import annotations

import html
import logging
from pathlib import Path

from tsumolab.analyzer.decisions.claims import CLAIMS
from tsumolab.analyzer.i18n import DEFAULT_LANGUAGE, Translator
from tsumolab.reports import decisions
from tsumolab.reports.html import CSS, _figure, _table
from tsumolab.reports.pdf import DECISIONS_LAYOUT, PDF_METADATA


def decisions_html(directory: Path | str, tr: Translator) -> str:
    """The report of a decisions study alone: an overview table, then one section per claim."""
    from tsumolab.reports.fonts import css_font_face

    e = html.escape
    table = decisions.load_decisions(directory)
    ids = [c for c in CLAIMS if table is not None and c in set(table["claim"].to_list())]
    title = tr("tsumolab: decision claims tested decision by decision")
    overview = _table(decisions.overview_table(directory, ids, tr)) if ids else f"<p>{e(tr('No situations.'))}</p>"
    overview += "".join(f"<p><b>{e(c)}</b> {e(text)}</p>" for c, text in decisions.overview_sentences(directory, ids,
                                                                                                      tr))
    nav = "".join(f'<li><a href="#decisions-{c}">{e(tr("{claim} decision by decision", claim=c))}</a></li>'
                  for c in ids)
    body = (f"<header><h1>{e(title)}</h1></header>"
            f'<section id="overview"><h2>{e(tr("Overview"))}</h2>{overview}<ol>{nav}</ol></section>'
            + "".join(decisions.claim_section_html(directory, c, tr, _table, _figure) for c in ids))
    style = css_font_face(body + title, tr.lang) + CSS
    return (f"<!DOCTYPE html>\n<html lang=\"{tr.html_lang}\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{e(title)}</title><style>{style}</style></head>\n<body><main>{body}</main></body></html>\n")


def render_decisions(directory: Path | str, langs=(DEFAULT_LANGUAGE,)) -> list:
    """DIR/decisions.html and DIR/decisions.pdf (decisions.<lang>.* for other languages), written atomically;
    a list of (html path, pdf path)."""
    from tsumolab.analyzer.i18n import translator

    out = Path(directory)
    table = decisions.load_decisions(out)
    ids = [c for c in CLAIMS if table is not None and c in set(table["claim"].to_list())]
    font_log = logging.getLogger("matplotlib.font_manager")
    level = font_log.level
    font_log.setLevel(logging.ERROR)  # bold text falls back to the regular CJK face, as in reports.render
    try:
        return [_render_language(out, ids, translator(lang)) for lang in langs]
    finally:
        font_log.setLevel(level)


def _render_language(out: Path, ids: list[str], tr: Translator):
    from matplotlib import rc_context
    from matplotlib.backends.backend_pdf import PdfPages

    from tsumolab.analyzer.tables import replacing
    from tsumolab.reports.fonts import font_rc
    from tsumolab.reports.render import ReportPaths

    stem = "decisions" if tr.lang == DEFAULT_LANGUAGE else f"decisions.{tr.lang}"
    html_path, pdf_path = out / f"{stem}.html", out / f"{stem}.pdf"
    with rc_context(font_rc(tr.lang)):
        text = decisions_html(out, tr)
        with replacing(html_path) as temp:
            temp.write_text(text, encoding="utf-8")
        with replacing(pdf_path) as temp, PdfPages(temp, metadata=PDF_METADATA) as pdf:
            for page in decisions.decision_pages(out, ids, tr, DECISIONS_LAYOUT):
                pdf.savefig(page)
    return ReportPaths(html_path, pdf_path)
