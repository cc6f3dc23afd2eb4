"""The self-contained HTML report: one file, inline CSS, figures as SVG data URIs, the CJK glyphs it uses
embedded as a font subset; nothing is fetched, and the layout reflows down to phone width."""

from __future__ import annotations

import base64
import html
import io

from matplotlib import rc_context
from matplotlib.figure import Figure

from reports import content
from reports.content import FigureSpec, Table
from reports.data import ClaimData, ReportData
from reports.examples import ExampleHand, NoExample
from reports.fonts import CJK_CSS_FAMILY, css_font_face, font_rc

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
@media (max-width:600px){main{padding:6px 8px 32px}section{padding:10px;border-radius:6px}h1{font-size:1.3rem}
 dl{grid-template-columns:1fr}dd{margin-bottom:.4em}table{font-size:.78rem}}
""" % {"cjk": CJK_CSS_FAMILY}


def figure_data_uri(fig: Figure) -> str:
    """SVG bytes of a figure (no date, fixed ids) as a base64 data URI."""
    buffer = io.BytesIO()
    with rc_context(font_rc()):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def render_html(data: ReportData, examples: dict[str, ExampleHand | NoExample]) -> str:
    """The whole report as one HTML document."""
    e = html.escape
    title = content.report_title(data)
    toc, sections = [], []
    if data.kind == "study":
        toc.append(("summary", "Summary: verdicts and forest plot"))
        sections.append(_summary_section(data))
        for claim in data.source_claims:
            toc.append((f"claim-{claim.id}", f"{claim.id}: {claim.headline['verdict']}"))
            sections.append(_claim_section(claim, examples.get(claim.id)))
        if data.beyond_claims:
            toc.append(("beyond-sources", f"{content.BEYOND_TITLE}: tsumolab's own questions"))
            sections.append(_beyond_section(data))
            for claim in data.beyond_claims:
                toc.append((f"claim-{claim.id}", f"{claim.id} (beyond the sources): {claim.headline['verdict']}"))
                sections.append(_claim_section(claim, examples.get(claim.id)))
    else:
        toc.append(("results", "Results by policy"))
        sections.append(_run_results_section(data))
    toc.append(("run", "Run: rules, policies, seeds, code version"))
    sections.append(_run_section(data))
    nav = "".join(f'<li><a href="#{e(anchor)}">{e(label)}</a></li>' for anchor, label in toc)
    body = (f"<header><h1>{e(title)}</h1><p>{e(_subtitle(data))}</p></header>"
            f'<nav id="toc" aria-label="Contents"><section><h2>Contents</h2><ol>{nav}</ol></section></nav>'
            + "".join(sections))
    style = css_font_face(body) + CSS
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{e(title)}</title><style>{style}</style></head>\n<body><main>{body}</main></body></html>\n")


def _subtitle(data: ReportData) -> str:
    if data.kind == "study":
        text = (f"{len(data.source_claims)} claim(s) of {data.mode}: {content.verdict_counts(data.source_claims)}"
                " (headline fields)")
        if data.beyond_claims:
            text += (f"; {len(data.beyond_claims)} question(s) beyond the sources: "
                     f"{content.verdict_counts(data.beyond_claims)}")
        return f"{text}. Code version {data.code_version}."
    return f"A plain {data.mode} run. Code version {data.code_version}."


def _badge(verdict: str) -> str:
    return f'<span class="badge {html.escape(verdict)}">{html.escape(verdict)}</span>'


def _table(table: Table, verdict_column: bool = False) -> str:
    e = html.escape
    head = "".join(f"<th>{e(c)}</th>" for c in table.columns)
    body = []
    for row in table.rows:
        cells = []
        for i, value in enumerate(row):
            if value in content.VERDICTS and (verdict_column or i > 0):
                cells.append(f"<td>{_badge(value)}</td>")
            elif i == 0:
                cells.append(f"<th scope=\"row\">{e(value)}</th>")
            else:
                numeric = value[:1] in "+-−[0123456789" and len(value) < 60
                cells.append(f'<td class="num">{e(value)}</td>' if numeric else f"<td>{e(value)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def _figure(spec: FigureSpec, alt: str) -> str:
    fig = spec.build()
    title = fig.axes[0].get_title() if fig.axes else spec.key
    return (f'<figure data-figure="{html.escape(spec.key)}"><img src="{figure_data_uri(fig)}" '
            f'alt="{html.escape(alt + ": " + title)}"><figcaption>{html.escape(spec.caption)}</figcaption></figure>')


def _summary_section(data: ReportData) -> str:
    figs = "".join(_figure(spec, "summary") for spec in content.summary_figures(data))
    table = (_table(content.summary_table(data), verdict_column=True) if data.source_claims
             else "<p>No claim from the sources in this study; see Beyond the sources.</p>")
    return (f'<section id="summary"><h2>Summary</h2>'
            "<p>Verdicts on final points per match at each claim's headline field, from Holm-adjusted 95% "
            "intervals over every claim × field row: <b>supported</b> when the interval lies on the claimed "
            "side of 0, <b>refuted</b> on the other side, <b>inconclusive</b> when it contains 0.</p>"
            f"{table}{figs}</section>")


def _beyond_section(data: ReportData) -> str:
    e = html.escape
    figs = "".join(_figure(spec, "beyond the sources") for spec in content.beyond_figures(data))
    return (f'<section id="beyond-sources" class="beyond"><h2>{e(content.BEYOND_TITLE)}</h2>'
            f"<p>{e(content.BEYOND_TEXT)}</p>"
            f"{_table(content.summary_table(data, beyond=True), verdict_column=True)}{figs}</section>")


def _claim_section(claim: ClaimData, example) -> str:
    e = html.escape
    row = claim.headline
    figs = "".join(_figure(spec, claim.id) for spec in content.claim_figures(claim))
    beyond = claim.beyond_sources
    label = '<span class="tag">beyond the sources: tsumolab\'s own question</span>' if beyond else ""
    return (f'<section id="claim-{e(claim.id)}" class="claim{" beyond" if beyond else ""}" '
            f'data-verdict="{e(row["verdict"])}">'
            f"<h2>{e(claim.id)} {_badge(row['verdict'])}{label}</h2>"
            f"<blockquote>{e(claim.text)}<cite>Source: {e(claim.source or 'not given')}</cite></blockquote>"
            f"<p>{e(content.design_sentence(claim))}</p>"
            f'<p class="effect">{e(content.effect_sentence(row))}</p>'
            f"<h3>{'Measured values' if content.is_measure(claim) else 'Metrics: treatment − control, by field'}"
            f"</h3>{_table(content.metric_table(claim))}"
            f"<h3>Per-match means of the subject seat</h3>{_table(content.arm_table(claim))}"
            f"<h3>Figures</h3>{figs}"
            f"<h3>Example hand</h3>{_example(example)}</section>")


def _example(example) -> str:
    e = html.escape
    if example is None or isinstance(example, NoExample):
        what = example.description if example is not None else "a hand where the treatment's decision mattered"
        return f"<p>No hand in this data where {e(what)} and the treatment gained on the same wall.</p>"
    return (f"<p>{e(example.description[0].upper() + example.description[1:])}: match {example.match_id}, "
            f"hand {example.hand}, subject in seat S{example.subject_seat}, {e(example.field)} field. The treatment "
            f"made {example.treatment_delta:+,} points in the hand; {e(example.control_summary)}.</p>"
            "<p>Key events (the subject's passes, kans, riichi, void and settlement where the mode has them; "
            "every win):</p>"
            f"<pre>{e(chr(10).join(example.key_lines))}</pre>"
            f"<details><summary>Full event log of the hand ({len(example.lines)} lines)</summary>"
            f"<pre>{e(chr(10).join(example.lines))}</pre></details>")


def _run_results_section(data: ReportData) -> str:
    figs = "".join(_figure(spec, "run") for spec in content.run_figures(data))
    return f'<section id="results"><h2>Results by policy</h2>{figs}</section>'


def _run_section(data: ReportData) -> str:
    e = html.escape
    details = "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in content.run_details(data))
    experiments = (f"<h3>Experiments</h3>{_table(content.experiment_table(data))}" if data.kind == "study" else "")
    return (f'<section id="run"><h2>Run</h2><dl>{details}</dl>{experiments}'
            f"<h3>Policies and their parameters</h3>{_table(content.policy_table(data))}</section>")
