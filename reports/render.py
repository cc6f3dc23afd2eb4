"""render_report(DIR, lang): DIR/report.html and DIR/report.pdf from a claims study, an experiment or a plain
run, in English (lang "en", the default), Chinese ("zh": report.zh.html, report.zh.pdf) or Japanese ("ja":
report.ja.html, report.ja.pdf), so the three languages sit side by side in one directory.

Both files are written atomically (temporary file + rename). Rendering the same data twice gives the same
bytes: figures use fixed SVG ids, no dates, and the PDF has no creation date.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import NamedTuple

import matplotlib

matplotlib.use("Agg")  # no display is ever needed; figures are drawn with the object API only

from matplotlib import rc_context  # noqa: E402

from tsumolab.analyzer.i18n import DEFAULT_LANGUAGE, Translator, translator  # noqa: E402
from tsumolab.reports.data import ReportData, load_report_data  # noqa: E402
from tsumolab.reports.fonts import font_rc  # noqa: E402
from tsumolab.reports.html import fill_slots  # noqa: E402

EN = translator(DEFAULT_LANGUAGE)

def report_names(lang: str = DEFAULT_LANGUAGE, stem: str = "report") -> tuple[str, str]:
    """(HTML, PDF) file names of a report language: report.html for English, report.<lang>.html otherwise."""
    if lang != DEFAULT_LANGUAGE:
        stem = f"{stem}.{lang}"
    return f"{stem}.html", f"{stem}.pdf"


class ReportPaths(NamedTuple):
    """(html path, pdf path); printed as both paths (e.g. by `tsumolab claims`)."""

    html: Path
    pdf: Path

    def __str__(self) -> str:
        return f"{self.html} and {self.pdf}"


def find_examples(data: ReportData) -> dict:
    """claim id → its example hand (or NoExample)."""
    from tsumolab.reports.examples import find_example

    return {claim.id: find_example(claim) for claim in data.claims}


def render_report(out_dir: Path | str, lang: str = DEFAULT_LANGUAGE, examples: dict | None = None) -> ReportPaths:
    """Render the report of DIR in `lang` (en, zh, ja; see report_names); InputError (exit 2 on the command
    line) when DIR holds neither a study nor a run or `lang` is unknown. Returns (html path, pdf path).
    `examples` (find_examples of the same data) spares re-simulating the example hands for a second language."""
    return render_reports(out_dir, (lang,), examples)[0]


def render_reports(out_dir: Path | str, langs: tuple[str, ...] = (DEFAULT_LANGUAGE,),
                   examples: dict | None = None, jobs: int = 1, keep_garbage: bool = False) -> list[ReportPaths]:
    """The report of DIR in each language of `langs`, reading the data, taking the figures' numbers from it and
    replaying the example hands once. Its parts are rendered by up to `jobs` processes (-1: every core; their
    workers start while the data is read, and draw figures while this process replays the example hands): each
    part of each language's PDF (reports.pdf.pdf_parts, joined here), each group of HTML figures in every language
    at once (reports.saving.figure_svgs) and each language's HTML text, whose figure slots are then
    filled. The bytes do not depend on `jobs`.
    `keep_garbage` (without_cyclic_gc) is for a process that ends with the report, and whose workers end then too:
    the command line's."""
    from tsumolab.analyzer.tables import replacing
    from tsumolab.reports.html import figure_groups
    from tsumolab.reports.pdf import pdf_parts
    from tsumolab.reports.pdf_join import join_pdfs
    from tsumolab.reports.pool import run_parts, start_workers

    for lang in langs:
        translator(lang)  # an unknown language fails before anything is read
    out = Path(out_dir)
    start_workers(jobs, len(langs) * 3)  # a PDF, an HTML text and (at least) a group of figures per language
    with without_cyclic_gc(keep_garbage):
        data = load_report_data(out)
        slim = data.without_frames()

    def replayed_examples() -> dict:
        with without_cyclic_gc(keep_garbage):
            return find_examples(data) if examples is None else examples

    groups = figure_groups(slim)
    sections = pdf_parts(slim)
    # the longer parts first, so that the processes end together on the short ones: the PDF parts, the HTML texts,
    # then the groups of figures from the largest (the stable sort keeps the report's order among equals)
    figures = sorted(groups, key=lambda group: -len(group[1](EN)))
    parts = ([("pdf", (lang, index)) for lang in langs for index in range(len(sections))]
             + [("html", lang) for lang in langs] + [("figures", group) for group, _specs in figures])
    task = partial(_report_part, slim, dict(groups), sections, langs, keep_garbage)
    results = run_parts(task, parts, jobs, prepare=replayed_examples, needs=lambda part: part[0] != "figures")
    svgs = {lang: {} for lang in langs}
    pdfs = {lang: [] for lang in langs}
    for (kind, arg), result in zip(parts, results):
        if kind == "figures":
            for key, by_lang in result.items():
                for lang in langs:
                    svgs[lang][key] = by_lang[lang]
        elif kind == "pdf":
            pdfs[arg[0]].append(result)
    for (kind, lang), page in zip(parts, results):
        if kind == "html":
            html_name, pdf_name = report_names(lang)
            with replacing(out / pdf_name) as temp:
                temp.write_bytes(join_pdfs(pdfs[lang]))
            with replacing(out / html_name) as temp:
                temp.write_text(fill_slots(page, svgs[lang]), encoding="utf-8")
    return [ReportPaths(*(out / name for name in report_names(lang))) for lang in langs]


def _report_part(data: ReportData, groups: dict, sections: list, langs: tuple[str, ...], keep_garbage: bool,
                 kind: str, arg, examples: dict | None = None):
    """One part of render_reports: ("pdf", (lang, index)) returns the bytes of that part of the language's PDF;
    ("figures", group) returns {(group, index): {lang: SVG bytes}} of a group of HTML figures; ("html", lang)
    returns the HTML with figure slots. The PDF and HTML parts show the example hands (`examples`)."""
    from tsumolab.reports.html import render_html, slot_figures
    from tsumolab.reports.pdf import render_pdf_part
    from tsumolab.reports.saving import figure_svgs
    from tsumolab.reports.text_cache import reused_text

    with quiet_font_fallback(), without_cyclic_gc(keep_garbage), reused_text():
        if kind == "figures":
            return {(arg, index): figure_svgs(spec, langs) for index, spec in enumerate(groups[arg](EN))}
        lang = arg if kind == "html" else arg[0]
        tr = translator(lang)
        with rc_context(font_rc(lang)):
            if kind == "html":
                return render_html(data, examples, tr, slot_figures)
            return render_pdf_part(data, examples, sections[arg[1]], tr)[0]


@contextmanager
def without_cyclic_gc(keep_garbage: bool = False) -> Iterator[None]:
    """Python's cyclic garbage collector paused inside the block, then one collection of the objects made in it.
    Drawing allocates hundreds of thousands of short-lived objects, each batch of which would otherwise start a
    collection walking every long-lived object too (about a seventh of the drawing time). With `keep_garbage` the
    collector stays paused after the block and collects nothing: for a process that ends once its report is
    written, where that collection would walk objects about to go with the process (a third of a second a
    language)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if not keep_garbage:
            if enabled:
                gc.enable()
            gc.collect(0)


@contextmanager
def quiet_font_fallback() -> Iterator[None]:
    """Bold text falls back to the regular CJK face: not worth a warning."""
    font_log = logging.getLogger("matplotlib.font_manager")
    level = font_log.level
    font_log.setLevel(logging.ERROR)
    try:
        yield
    finally:
        font_log.setLevel(level)


def report_parts(langs: tuple[str, ...]) -> list[tuple[str, str]]:
    """(language, "pdf" or "html") of every file of write_reports, the slower PDFs first."""
    return [(lang, kind) for kind in ("pdf", "html") for lang in langs]


def write_reports(out: Path, stem: str, langs: tuple[str, ...], html_of: Callable[[Translator], str],
                  write_pdf: Callable[[Path, Translator], None], jobs: int = 1) -> list[ReportPaths]:
    """OUT/<stem>.html and OUT/<stem>.pdf in each language of `langs` (<stem>.<lang>.* for other languages than
    English), each written atomically with the fonts of its language. The files are independent: with `jobs`
    other than 1 they are rendered by up to `jobs` processes at once (-1: every core; reports.pool), the same
    bytes."""
    from tsumolab.reports.pool import run_parts

    run_parts(partial(_write_part, out, stem, html_of, write_pdf), report_parts(langs), jobs)
    return [ReportPaths(*(out / name for name in report_names(lang, stem))) for lang in langs]


def _write_part(out: Path, stem: str, html_of: Callable[[Translator], str],
                write_pdf: Callable[[Path, Translator], None], lang: str, kind: str) -> None:
    """One file of write_reports: the HTML or the PDF of one language."""
    from tsumolab.analyzer.tables import replacing
    from tsumolab.reports.text_cache import reused_text

    tr = translator(lang)
    html_name, pdf_name = report_names(lang, stem)
    with quiet_font_fallback(), without_cyclic_gc(), reused_text(), rc_context(font_rc(lang)):
        if kind == "html":
            text = html_of(tr)
            with replacing(out / html_name) as temp:
                temp.write_text(text, encoding="utf-8")
        else:
            with replacing(out / pdf_name) as temp:
                write_pdf(temp, tr)


def pdf_of_pages(pages_of: Callable[[Translator], list]) -> Callable[[Path, Translator], None]:
    """A `write_pdf` for write_reports that saves the figures `pages_of(tr)` draws, one per page."""
    def write_pages(path: Path, tr: Translator) -> None:
        from tsumolab.reports.saving import write_pdf

        write_pdf(path, pages_of(tr))

    return write_pages
