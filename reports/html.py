"""The self-contained HTML report: one file, inline CSS, figures as SVG data URIs, the CJK glyphs it uses
embedded as a font subset (glyph shapes of the report's language); nothing is fetched, and the layout reflows
down to phone width. Every text is in the language of the Translator `tr`, and `<html lang>` says which."""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable
from functools import partial

from tsumolab.analyzer.i18n import Translator
from tsumolab.reports import content, decisions, example_text, sweeps, verdict_lines
from tsumolab.reports.content import EN, FigureSpec, Table, Verdict
from tsumolab.reports.data import ClaimData, ReportData
from tsumolab.reports.examples import ExampleHand, NoExample
from tsumolab.reports.fonts import CJK_CSS_FAMILY, css_font_face
from tsumolab.reports.saving import figure_svgs

CSS = """
*{box-sizing:border-box}
body{margin:0;font-family:'%(cjk)s','DejaVu Sans',system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;
 color:#1d1d1f;background:#f6f6f4;line-height:1.45}
main{max-width:980px;margin:0 auto;padding:12px 16px 48px}
h1{font-size:1.6rem;margin:.6em 0 .2em}
h2{font-size:1.3rem;margin:0 0 .4em;display:flex;flex-wrap:wrap;align-items:center;gap:.5em}
h3{font-size:1.05rem;margin:1.2em 0 .4em}
section{background:#fff;border:1px solid #ddd;border-radius:8px;padding:14px 16px;margin:16px 0}
nav ol{padding-left:1.4em;margin:.3em 0}
nav li{margin:.15em 0}
a{color:#1f5fa8}
.badge{display:inline-block;padding:.12em .6em;border-radius:1em;font-size:.85rem;font-weight:bold;color:#fff;
 white-space:nowrap}
.tag{font-size:.8rem;font-weight:normal;color:#7a4b00;background:#fff3d6;border:1px solid #e0b85c;
 border-radius:1em;padding:.1em .6em}
section.beyond{border-left:5px solid #e0b85c}
.supported{background:#1a7f37}.refuted{background:#c62828}.inconclusive{background:#6f6f6f}
blockquote{margin:.4em 0;padding:.4em .8em;border-left:4px solid #1f5fa8;background:#f1f5fb}
cite{display:block;font-size:.85rem;color:#555;margin-top:.3em}
.effect{font-size:1.02rem}
.lead{font-size:1.08rem;font-weight:600}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.4em 0}
table{border-collapse:collapse;font-size:.85rem;min-width:100%%}
th,td{border:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#f0f0ee}
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
figure{margin:12px 0}
figure img{display:block;width:100%%;max-width:860px;height:auto;margin:0 auto}
figcaption{font-size:.85rem;color:#444;margin-top:.3em}
pre{background:#1d1d1f;color:#f0f0f0;padding:10px;border-radius:6px;overflow-x:auto;font-size:.75rem;
 line-height:1.35;font-family:'%(cjk)s','DejaVu Sans Mono',ui-monospace,Menlo,Consolas,monospace}
code{font-family:'%(cjk)s','DejaVu Sans Mono',ui-monospace,Menlo,Consolas,monospace;font-size:.85em}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em;margin:.4em 0}
summary{cursor:pointer;color:#1f5fa8;margin:.3em 0}
dt{font-weight:bold}dd{margin:0;word-break:break-word}
cite:lang(zh),cite:lang(ja){font-style:normal}
:lang(zh),:lang(ja){line-break:strict}
th:lang(zh),th:lang(ja){word-break:keep-all}
@media (max-width:600px){main{padding:6px 8px 32px}section{padding:10px;border-radius:6px}h1{font-size:1.3rem}
 dl{grid-template-columns:1fr}dd{margin-bottom:.4em}table{font-size:.78rem}}
""" % {"cjk": CJK_CSS_FAMILY}


def figure_data_uri(svg: bytes) -> str:
    """SVG bytes of a figure as a base64 data URI."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


FiguresHtml = Callable[[str, list[FigureSpec], str, Translator], str]
"""`figures_html(group, specs, alt, tr)`: the HTML of a group of figures (a section's, named as in figure_groups);
`alt` starts each figure's alt text"""

FIGURE_SLOT = "\x00figure {group} {index}\x00"
"""where slot_figures leaves a figure's data URI (filled by fill_slots)"""


def render_html(data: ReportData, examples: dict[str, ExampleHand | NoExample], tr: Translator = EN,
                figures_html: FiguresHtml | None = None) -> str:
    """The whole report as one HTML document in the language of `tr`; its figures drawn now, or left to
    `figures_html` (e.g. slot_figures, for figures drawn elsewhere)."""
    figures_html = figures_html or inline_figures
    e = html.escape
    title = content.report_title(data, tr)
    toc, sections = [], []
    if data.kind == "study":
        toc.append(("summary", tr("Summary: verdicts and forest plot")))
        sections.append(_summary_section(data, tr, figures_html))
        for claim in data.source_claims:
            toc.append((f"claim-{claim.id}", tr("{claim}: {verdict}", claim=claim.id,
                                                verdict=content.verdict_word(content.claim_verdict(claim), tr))))
            sections.append(_claim_section(claim, examples.get(claim.id), tr, figures_html))
            decided = decisions.claim_section_html(data.directory, claim.id, tr, _table, figures_html)
            if decided:
                toc.append((f"decisions-{claim.id}", tr("{claim} decision by decision", claim=claim.id)))
                sections.append(decided)
        if data.beyond_claims:
            toc.append(("beyond-sources", tr("{title}: tsumolab's own questions", title=tr(content.BEYOND_TITLE))))
            sections.append(_beyond_section(data, tr, figures_html))
            for claim in data.beyond_claims:
                toc.append((f"claim-{claim.id}", tr("{claim} (beyond the sources): {verdict}", claim=claim.id,
                                                    verdict=content.verdict_word(content.claim_verdict(claim), tr))))
                sections.append(_claim_section(claim, examples.get(claim.id), tr, figures_html))
    else:
        toc.append(("results", tr("Results by policy")))
        sections.append(_run_results_section(data, tr, figures_html))
    toc.append(("run", tr("Run: rules, policies, seeds, code version")))
    sections.append(_run_section(data, tr))
    nav = "".join(f'<li><a href="#{e(anchor)}">{e(label)}</a></li>' for anchor, label in toc)
    body = (f"<header><h1>{e(title)}</h1><p>{e(_subtitle(data, tr))}</p></header>"
            f'<nav id="toc" aria-label="{e(tr("Contents"))}"><section><h2>{e(tr("Contents"))}</h2>'
            f"<ol>{nav}</ol></section></nav>" + "".join(sections))
    return page_html(title, body, tr)


def figure_groups(data: ReportData) -> list[tuple[str, Callable[[Translator], list[FigureSpec]]]]:
    """Every group of figures of the report (group name, specs of a language), independent of the language: what
    the processes drawing the figures draw while others write the text (reports.render)."""
    if data.kind != "study":
        return [("results", partial(content.run_figures, data))]
    groups = [("summary", partial(content.summary_figures, data, False))]
    for claim in data.claims:
        groups.append((f"claim-{claim.id}", partial(content.claim_figures, claim)))
        if claim.swept:
            groups.append((f"sweep-{claim.id}", partial(sweeps.sweep_figures, claim)))
        if not claim.beyond_sources and decisions.claim_rows(data.directory, claim.id) is not None:
            groups.append((f"decisions-{claim.id}", partial(decisions.figure_specs, data.directory, claim.id)))
    if data.beyond_claims:
        groups.append(("beyond", partial(content.summary_figures, data, True)))
    return groups


def figure_tag(spec: FigureSpec, alt: str, tr: Translator, src: str) -> str:
    return (f'<figure data-figure="{html.escape(spec.key)}"><img src="{src}" '
            f'alt="{html.escape(alt + tr(": ") + spec.title)}"><figcaption>{html.escape(spec.caption)}</figcaption>'
            "</figure>")


def inline_figures(_group: str, specs: list[FigureSpec], alt: str, tr: Translator) -> str:
    """Figures drawn now (each laid out as reports.saving.figure_svgs lays it out)."""
    return "".join(figure_tag(spec, alt, tr, figure_data_uri(figure_svgs(spec, (tr.lang,))[tr.lang]))
                   for spec in specs)


def slot_figures(group: str, specs: list[FigureSpec], alt: str, tr: Translator) -> str:
    """Figures left as slots (FIGURE_SLOT) for fill_slots."""
    return "".join(figure_tag(spec, alt, tr, FIGURE_SLOT.format(group=group, index=i)) for i, spec in enumerate(specs))


_SLOT = re.compile(FIGURE_SLOT.format(group="([^ \x00]+)", index="([0-9]+)"))


def fill_slots(page: str, svgs: dict[tuple[str, int], bytes]) -> str:
    """`page` with each figure slot of slot_figures replaced by its SVG ((group, index) → SVG bytes), in one pass
    over the page; ValueError when a slot's figure is missing."""
    def data_uri(slot: re.Match) -> str:
        svg = svgs.get((slot.group(1), int(slot.group(2))))
        if svg is None:
            raise ValueError("a figure of the report was not drawn")
        return figure_data_uri(svg)

    return _SLOT.sub(data_uri, page)


def page_html(title: str, body: str, tr: Translator) -> str:
    """A whole report page: `body` under `title`, with the CSS and the CJK glyphs it uses embedded."""
    style = css_font_face(body + title, tr.lang) + CSS
    return (f"<!DOCTYPE html>\n<html lang=\"{tr.html_lang}\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>{style}</style></head>\n<body><main>{body}</main></body>"
            "</html>\n")


def _subtitle(data: ReportData, tr: Translator) -> str:
    if data.kind == "study":
        text = tr.n("{count} claim of {mode}: {verdicts} (headline fields)",
                    "{count} claims of {mode}: {verdicts} (headline fields)", len(data.source_claims),
                    mode=content.mode_label(data, tr), verdicts=content.verdict_counts(data.source_claims, tr))
        if data.beyond_claims:
            text += tr.n("; {count} question beyond the sources: {verdicts}",
                         "; {count} questions beyond the sources: {verdicts}", len(data.beyond_claims),
                         verdicts=content.verdict_counts(data.beyond_claims, tr))
        return tr("{text}. Code version {version}.", text=text, version=data.code_version)
    return tr("A plain {mode} run. Code version {version}.", mode=content.mode_label(data, tr),
              version=data.code_version)


def _badge(verdict: Verdict) -> str:
    return f'<span class="badge {html.escape(verdict.key)}">{html.escape(verdict)}</span>'


def _table(table: Table) -> str:
    e = html.escape
    head = "".join(f"<th>{e(c)}</th>" for c in table.columns)
    body = []
    for row in table.rows:
        cells = []
        for i, value in enumerate(row):
            if isinstance(value, Verdict):
                cells.append(f"<td>{_badge(value)}</td>")
            elif i == 0:
                cells.append(f"<th scope=\"row\">{e(value)}</th>")
            else:
                numeric = value[:1] in "+-−<[0123456789" and len(value) < 60
                cells.append(f'<td class="num">{e(value)}</td>' if numeric else f"<td>{e(value)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def _figure(spec: FigureSpec, alt: str, tr: Translator) -> str:
    """One figure drawn now (the reports of a decisions study and of a game review)."""
    return inline_figures(spec.key, [spec], alt, tr)


def _summary_section(data: ReportData, tr: Translator, figures_html: FiguresHtml) -> str:
    figs = figures_html("summary", content.summary_figures(data, tr=tr), tr("summary"), tr)
    table = (_table(content.summary_table(data, tr=tr)) if data.source_claims
             else f"<p>{html.escape(tr('No claim from the sources in this study; see Beyond the sources.'))}</p>")
    words = {v: f"<b>{html.escape(content.verdict_word(v, tr))}</b>" for v in content.VERDICTS}
    rule = html.escape(tr("Each claim's verdict is on its headline objective (final points or placement) at its "
                          "headline field, over every variant tested, from Holm-adjusted 95% intervals over every "
                          "claim × variant × field row and both objectives: {supported} when the interval lies on "
                          "the claimed side of 0, {refuted} on the other side, {inconclusive} when it contains 0.",
                          supported="\0s", refuted="\0r", inconclusive="\0i"))
    rule = rule.replace("\0s", words["supported"]).replace("\0r", words["refuted"]).replace("\0i",
                                                                                          words["inconclusive"])
    return (f'<section id="summary"><h2>{html.escape(tr("Summary"))}</h2><p>{rule}</p>{table}{figs}</section>')


def _beyond_section(data: ReportData, tr: Translator, figures_html: FiguresHtml) -> str:
    e = html.escape
    figs = figures_html("beyond", content.beyond_figures(data, tr), tr("beyond the sources"), tr)
    return (f'<section id="beyond-sources" class="beyond"><h2>{e(tr(content.BEYOND_TITLE))}</h2>'
            f"<p>{e(tr(content.BEYOND_TEXT))}</p>"
            f"{_table(content.summary_table(data, beyond=True, tr=tr))}{figs}</section>")


def _claim_section(claim: ClaimData, example, tr: Translator, figures_html: FiguresHtml) -> str:
    e = html.escape
    row = claim.headline
    figs = figures_html(f"claim-{claim.id}", content.claim_figures(claim, tr), claim.id, tr)
    beyond = claim.beyond_sources
    own = tr("beyond the sources: tsumolab's own question")
    label = f'<span class="tag">{e(own)}</span>' if beyond else ""
    measured = tr("Measured values") if content.is_measure(claim) else tr("Metrics: treatment − control, by field")
    verdict = content.claim_verdict(claim)
    robustness = "" if content.is_measure(claim) else f"<p>{e(verdict_lines.robustness_line(claim, tr))}</p>"
    return (f'<section id="claim-{e(claim.id)}" class="claim{" beyond" if beyond else ""}" '
            f'data-verdict="{e(verdict)}">'
            f"<h2>{e(claim.id)} {_badge(Verdict(verdict, tr))}{label}</h2>"
            f'<p class="lead">{e(verdict_lines.first_line(claim, tr))}</p>{robustness}'
            f"<blockquote>{e(content.claim_text(claim, tr))}"
            f"<cite>{e(tr('Source: {source}', source=content.source_text(claim, tr)))}</cite></blockquote>"
            f"<p>{e(content.design_sentence(claim, tr))}</p>"
            f'<p class="effect">{e(content.effect_sentence(row, tr))}</p>'
            f"<h3>{e(measured)}</h3>{_table(content.metric_table(claim, tr))}"
            f"<h3>{e(tr('Per-match means of the subject seat'))}</h3>{_table(content.arm_table(claim, tr))}"
            f"{_sweep(claim, tr, figures_html)}"
            f"<h3>{e(tr('Figures'))}</h3>{figs}"
            f"<h3>{e(tr('Example hand'))}</h3>{_example(example, tr)}</section>")


def _sweep(claim: ClaimData, tr: Translator, figures_html: FiguresHtml) -> str:
    if not claim.swept:
        return ""
    e = html.escape
    figs = figures_html(f"sweep-{claim.id}", sweeps.sweep_figures(claim, tr), claim.id, tr)
    return (f"<h3>{e(tr('Variants tested'))}</h3><p>{e(verdict_lines.sweep_line(claim, tr))}</p>"
            f"{_table(sweeps.sweep_table(claim, tr))}{figs}")


def _example(example, tr: Translator) -> str:
    e = html.escape
    if example is None or isinstance(example, NoExample):
        return f"<p>{e(example_text.no_example(example, tr))}</p>"
    return (f"<p>{e(example_text.summary(example, tr))}</p>"
            f"<p>{e(example_text.key_events_note(tr))}</p>"
            f"<pre>{e(chr(10).join(example_text.key_lines(example, tr)))}</pre>"
            f"<details><summary>{e(tr('Full event log of the hand ({count} lines)', count=len(example.lines)))}"
            f"</summary><pre>{e(chr(10).join(example_text.lines(example, tr)))}</pre></details>")


def _run_results_section(data: ReportData, tr: Translator, figures_html: FiguresHtml) -> str:
    figs = figures_html("results", content.run_figures(data, tr), tr("run"), tr)
    return f'<section id="results"><h2>{html.escape(tr("Results by policy"))}</h2>{figs}</section>'


def _run_section(data: ReportData, tr: Translator) -> str:
    e = html.escape
    details = "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in content.run_details(data, tr))
    experiments = (f"<h3>{e(tr('Experiments'))}</h3>{_table(content.experiment_table(data, tr))}"
                   if data.kind == "study" else "")
    return (f'<section id="run"><h2>{e(tr("Run"))}</h2><dl>{details}</dl>{experiments}'
            f"<h3>{e(tr('Policies and their parameters'))}</h3>{_table(content.policy_table(data, tr))}</section>")
