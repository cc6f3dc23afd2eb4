"""The report of a decisions study alone (`tsumolab decisions`): DIR/decisions.html and DIR/decisions.pdf, an
overview table of every claim and then the decision-level section of each (reports.decisions), in the claims
report's style."""

from __future__ import annotations

import html
from pathlib import Path

from tsumolab.analyzer.decisions.claims import CLAIMS
from tsumolab.analyzer.i18n import DEFAULT_LANGUAGE, Translator
from tsumolab.reports import decisions
from tsumolab.reports.html import _table, inline_figures, page_html
from tsumolab.reports.pdf import DECISIONS_LAYOUT


def decisions_html(directory: Path | str, tr: Translator) -> str:
    """The report of a decisions study alone: an overview table, then one section per claim."""
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
            + "".join(decisions.claim_section_html(directory, c, tr, _table, inline_figures) for c in ids))
    return page_html(title, body, tr)


def render_decisions(directory: Path | str, langs=(DEFAULT_LANGUAGE,)) -> list:
    """DIR/decisions.html and DIR/decisions.pdf (decisions.<lang>.* for other languages), written atomically;
    a list of (html path, pdf path)."""
    from tsumolab.reports.render import pdf_of_pages, write_reports

    out = Path(directory)
    table = decisions.load_decisions(out)
    ids = [c for c in CLAIMS if table is not None and c in set(table["claim"].to_list())]
    return write_reports(out, "decisions", tuple(langs), lambda tr: decisions_html(out, tr),
                         pdf_of_pages(lambda tr: decisions.decision_pages(out, ids, tr, DECISIONS_LAYOUT)))
