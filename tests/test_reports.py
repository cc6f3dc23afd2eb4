"""Reports (reports/): self-contained HTML, deterministic PDF, labelled figures, CJK glyphs, example hands."""

from __future__ import annotations

import base64
import io
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from pypdf import PdfReader

from tsumolab.analyzer.claims.study import run_experiments, with_overrides
from tsumolab.cli import main
from tsumolab.analyzer.claims.experiment import mode_experiments, select
from tsumolab.analyzer.runs.options import build_spec
from tsumolab.analyzer.runs.runner import DEFAULT_CHUNK_SIZE, execute
from tsumolab.reports import content, fonts, pdf, sweeps
from tsumolab.reports.data import load_report_data
from tsumolab.reports.examples import ExampleHand, NoExample, find_example
from tsumolab.reports.render import render_report
from tsumolab.sims.bloodshed.columns import PATTERN_LABELS

CLAIM_IDS = ("B1", "B4")


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    """A tiny claims study (B1 and B4, 480 matches each: 3 wall seeds for each of B1's 9 variants × 3 fields) with
    its report rendered."""
    out = tmp_path_factory.mktemp("study")
    experiments = with_overrides(select(mode_experiments("bloodshed"), ",".join(CLAIM_IDS)), 480, 3)
    run_experiments(experiments, out, jobs=1, progress=False)
    render_report(out)
    return out


@pytest.fixture(scope="module")
def plain_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("run")
    spec = build_spec("bloodshed", "baseline,majsoul-cpu,baseline,fold", 12, 5, DEFAULT_CHUNK_SIZE)
    execute(spec, out, jobs=1, progress=False)
    render_report(out)
    return out


@pytest.mark.slow
def test_html_parses_and_references_nothing_outside_the_file(study, report_page):
    page = report_page(study / "report.html")
    assert any(tag == "meta" and attrs.get("name") == "viewport" for tag, attrs in page.tags)
    for tag, attrs in page.tags:
        assert tag not in ("script", "link", "iframe"), f"external or active content: <{tag}>"
        for key in ("src", "href"):
            if key not in attrs:
                continue
            value = attrs[key] or ""
            assert not re.match(r"\s*(https?:)?//", value), f"<{tag} {key}={value[:60]}> leaves the file"
            if key == "src":
                assert value.startswith("data:"), f"<{tag}> src is not inline"
    assert not re.search(r"url\(\s*['\"]?\s*(https?:)?//", page.style)
    assert "@media" in page.style  # narrow-screen layout
    ids = {attrs["id"] for _tag, attrs in page.tags if "id" in attrs}
    links = [attrs["href"][1:] for tag, attrs in page.tags if tag == "a" and attrs.get("href", "").startswith("#")]
    assert links and set(links) <= ids, "every table-of-contents link points at a section"


def test_html_has_one_section_per_claim_with_its_verdict_and_intervals(study, report_page):
    page = report_page(study / "report.html")
    claims = pl.read_parquet(study / "claims.parquet")
    claim_sections = [s for s in page.sections if s.startswith("claim-")]
    assert sorted(claim_sections) == [f"claim-{c}" for c in sorted(CLAIM_IDS)]
    for claim_id in CLAIM_IDS:
        text = " ".join(page.sections[f"claim-{claim_id}"])
        head = claims.filter((pl.col("claim") == claim_id) & pl.col("headline")).row(0, named=True)
        assert f"<badge badge {head['verdict']}>" in text
        assert "Holm-adjusted interval" in text and "95% interval" in text
        for value in (head["ci_low"], head["ci_high"], head["ci95_low"], head["ci95_high"], head["effect"]):
            assert f"{value:+,.0f}" in text, f"{claim_id}: interval bound {value} not shown"
        assert head["claim_text"][:40] in text and head["source"] in text


def test_html_embeds_every_figure_as_inline_svg(study, report_page):
    page = report_page(study / "report.html")
    data = load_report_data(study)
    expected = {"summary": len(content.summary_figures(data)), "run": 0}
    expected.update({f"claim-{c.id}": len(content.claim_figures(c)) + len(sweeps.sweep_figures(c))
                     for c in data.claims})
    for section, count in expected.items():
        images = page.section_imgs[section]
        assert len(images) == count, section
        for src in images:
            prefix = "data:image/svg+xml;base64,"
            assert src.startswith(prefix)
            svg = base64.b64decode(src[len(prefix):]).decode("utf-8")
            assert "<svg" in svg and "<path" in svg


def test_pdf_has_summary_pages_then_one_page_per_claim(study):
    data = load_report_data(study)
    reader = PdfReader(study / "report.pdf")
    swept = sum(c.swept for c in data.claims)  # B1's variants get a page of their own
    assert swept == 1
    assert len(reader.pages) == len(pdf.summary_pages(data)) + len(CLAIM_IDS) + swept
    assert "CreationDate" not in str(reader.metadata)


def _drawn(pdf_bytes: bytes) -> list[list[tuple]]:
    """What each page of a PDF draws: its content stream's operations, with each font named by its family (not by
    its resource name or subset), each shown string as the glyph names of its font's encoding, and each graphics
    state and marker (XObject) as what it holds."""
    from pypdf.generic import ContentStream, NameObject, NumberObject

    reader = PdfReader(io.BytesIO(pdf_bytes), strict=True)
    pages = []
    for page in reader.pages:
        resources = page["/Resources"]
        held = {name: repr(sorted(state.items())) for name, state in resources["/ExtGState"].items()}
        held |= {name: ref.get_object().get_data() for name, ref in resources["/XObject"].items()}
        fonts = {}
        for resource, ref in page["/Resources"]["/Font"].items():
            font = ref.get_object()
            glyphs, code = {}, 0
            for item in font["/Encoding"]["/Differences"]:
                if isinstance(item, NameObject):
                    glyphs[code], code = str(item), code + 1
                else:
                    code = int(item)
            fonts[resource] = (str(font["/Name"]).split("+")[-1], glyphs)
        font, drawn = None, []
        for operands, operator in ContentStream(page.get_contents(), reader).operations:
            if operator == b"Tf":
                font = fonts[operands[0]]
                drawn.append(("Tf", font[0], round(float(operands[1]), 3)))
                continue
            values = []
            for operand in (operands[0] if operator == b"TJ" else operands):
                if isinstance(operand, bytes | str) and operator in (b"TJ", b"Tj"):
                    values.append(tuple(font[1][c] for c in operand.original_bytes))
                elif isinstance(operand, NumberObject | float | int):
                    values.append(round(float(operand), 3))
                elif operator in (b"gs", b"Do"):
                    values.append(held[operand])
                else:
                    values.append(str(operand))
            drawn.append((operator.decode(), tuple(values)))
        pages.append(drawn)
    return pages


@pytest.mark.slow
def test_the_pdf_drawn_in_parts_draws_what_one_file_of_all_its_pages_draws(study, tmp_path):
    """The PDF is written in parts (by several processes at once) and joined; each page draws the same as in a
    single file of every page (only the fonts are split among the parts' files)."""
    from matplotlib import rc_context

    from tsumolab.reports.render import find_examples, quiet_font_fallback
    from tsumolab.reports.saving import write_pdf

    data = load_report_data(study)
    examples = find_examples(data)
    parts = pdf.pdf_parts(data)
    assert len(parts) == pdf.PDF_PARTS and all(parts)
    sections = [section for part in parts for section in part]
    assert sections[0] == ("summary", "") and [claim_id for _kind, claim_id in sections[1:]] == list(CLAIM_IDS)
    joined = tmp_path / "joined.pdf"
    single = io.BytesIO()
    with quiet_font_fallback(), rc_context(fonts.font_rc("en")):
        pages = pdf.render_pdf(data, examples, joined, content.EN)
        write_pdf(single, [page for section in sections
                           for page in pdf._section_pages(data, examples, section, content.EN)])
    drawn = _drawn(joined.read_bytes())
    assert len(drawn) == pages == len(PdfReader(study / "report.pdf").pages)
    assert drawn == _drawn(single.getvalue())
    assert joined.read_bytes() == (study / "report.pdf").read_bytes(), "render_reports writes the same bytes"


@pytest.mark.slow
def test_rendering_twice_gives_identical_bytes(study, tmp_path):
    first = {name: (study / name).read_bytes() for name in ("report.html", "report.pdf")}
    html_path, pdf_path = render_report(study)
    assert html_path.read_bytes() == first["report.html"]
    assert pdf_path.read_bytes() == first["report.pdf"]
    assert not list(study.glob(".*.tmp")), "no temporaries left behind by the atomic writes"


def test_saving_a_figure_draws_it_once_and_gives_the_bytes_of_savefig(study, monkeypatch):
    """Report figures use constrained layout; saving one lays it out and draws it once (matplotlib's own savefig
    draws it twice), to the same SVG and PDF bytes."""
    import io

    from matplotlib import rc_context
    from matplotlib.backends.backend_pdf import PdfPages
    from matplotlib.figure import Figure

    from tsumolab.reports.saving import PDF_METADATA, svg_bytes, write_pdf

    data = load_report_data(study)
    spec = content.summary_figures(data)[0]
    with rc_context(fonts.font_rc()):
        plain = io.BytesIO()
        spec.build().savefig(plain, format="svg", metadata={"Date": None})
        plain_pdf = io.BytesIO()
        with PdfPages(plain_pdf, metadata=PDF_METADATA) as pages:
            pages.savefig(spec.build())
        draws = []
        draw = Figure.draw
        monkeypatch.setattr(Figure, "draw", lambda fig, renderer: (draws.append(fig), draw(fig, renderer))[1])
        fig = spec.build()
        assert fig.get_layout_engine() is not None
        assert svg_bytes(fig) == plain.getvalue()
        assert len(draws) == 1
        ours_pdf = io.BytesIO()
        write_pdf(ours_pdf, [spec.build()])
        assert len(draws) == 2
    assert ours_pdf.getvalue() == plain_pdf.getvalue()


def _check_axes_labelled(fig, where: str) -> None:
    for ax in fig.axes:
        if not ax.axison:
            continue
        assert ax.get_title(), f"{where}: an axes has no title"
        assert ax.get_xlabel() and ax.get_ylabel(), f"{where}: {ax.get_title()} lacks an axis label"
        assert re.search(r"\(.+\)", ax.get_xlabel() + ax.get_ylabel()), f"{where}: no unit in the labels"
        labels = [label for label in ax.get_legend_handles_labels()[1] if not label.startswith("_")]
        if len(labels) > 1:
            assert ax.get_legend() is not None, f"{where}: {ax.get_title()} shows {len(labels)} series, no legend"


def test_every_figure_has_a_title_axis_labels_and_a_legend_for_several_series(study, plain_run):
    data = load_report_data(study)
    specs = content.summary_figures(data) + [s for c in data.claims for s in content.claim_figures(c)]
    specs += [s for c in data.claims for s in sweeps.sweep_figures(c)]
    specs += content.run_figures(load_report_data(plain_run))
    assert {s.key for s in specs} >= {"forest", "convergence", "ranks", "points", "win-value", "rates", "sweep"}
    for spec in specs:
        _check_axes_labelled(spec.build(), spec.key)
    forest = content.summary_figures(data)[0].build()
    assert forest.axes[0].get_legend() is not None or forest.legends, "the forest plot explains its marks"
    for number, page in enumerate(pdf.summary_pages(data)):
        _check_axes_labelled(page, f"PDF summary page {number + 1}")


def test_convergence_ends_at_the_tables_effect(study):
    """The running mean after every wall seed is the claims table's effect (same paired differences)."""
    from tsumolab.reports.figures import paired_differences, running_interval

    data = load_report_data(study)
    for claim in data.claims:
        for field, diffs in paired_differences(claim.matches).items():
            row = claim.rows.filter(pl.col("field") == field).row(0, named=True)
            mean, lo, hi = running_interval(diffs)
            assert len(diffs) == row["wall_seeds"]
            assert mean[-1] == pytest.approx(row["effect"], abs=1e-6)
            assert lo[-1] == pytest.approx(row["ci95_low"], rel=1e-9, abs=1e-6)
            assert hi[-1] == pytest.approx(row["ci95_high"], rel=1e-9, abs=1e-6)


def test_cjk_font_has_the_pattern_names_glyphs():
    """B-19a pattern names and the settlement words (查花猪, 查大叫, 退税) render in the bundled font."""
    from matplotlib import font_manager

    text = "".join(PATTERN_LABELS[1:]) + "查花猪查大叫退税赤羽策略"
    assert fonts.missing_glyphs(text) == []
    assert fonts.missing_glyphs("查", Path(font_manager.findfont("DejaVu Sans"))) == ["查"]  # the check can fail
    family = fonts.font_rc()["font.family"]
    found = font_manager.findfont(font_manager.FontProperties(family=family[1]))
    assert Path(found) == fonts.cjk_font_path()


def test_html_embeds_the_cjk_glyphs_it_uses(study):
    html_text = (study / "report.html").read_text(encoding="utf-8")
    assert f"font-family:'{fonts.CJK_CSS_FAMILY}'" in html_text
    assert "data:font/otf;base64," in html_text


def test_example_hand_shows_the_treatment_decision_or_says_there_is_none(study, report_page):
    data = load_report_data(study)
    page = report_page(study / "report.html")
    b1 = next(c for c in data.claims if c.id == "B1")
    example = find_example(b1)
    text = " ".join(page.sections["claim-B1"])
    if isinstance(example, NoExample):
        assert "No hand in this data" in text
        return
    assert isinstance(example, ExampleHand)
    row = b1.hands.filter((pl.col("arm") == "treatment") & (pl.col("field") == example.field)
                          & (pl.col("subject_seat") == example.subject_seat)
                          & (pl.col("match_id") == example.match_id)
                          & (pl.col("hand") == example.hand)).row(0, named=True)
    assert row["passed_wins"] > 0 and row["win_kind"] == "tsumo" and row["delta"] == example.treatment_delta
    seat = f"S{example.subject_seat} "
    assert any(line.lstrip().startswith(seat) and "passes a ron" in line for line in example.lines)
    assert any(line.lstrip().startswith(seat) and "WINS by tsumo" in line for line in example.lines)
    assert "WINS by tsumo" in text


def test_plain_run_report(plain_run, report_page):
    page = report_page(plain_run / "report.html")
    assert "results" in page.sections and "run" in page.sections
    assert len(page.section_imgs["results"]) == len(content.run_figures(load_report_data(plain_run)))
    assert len(PdfReader(plain_run / "report.pdf").pages) == len(pdf.summary_pages(load_report_data(plain_run)))


def test_report_command_bad_directory_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    for target in (tmp_path / "missing", tmp_path / "empty"):
        with pytest.raises(SystemExit) as exc:
            main(["report", str(target)])
        assert exc.value.code == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("tsumolab: error:") and "\n" not in err


@pytest.mark.slow
def test_report_command_writes_both_files(study, tmp_path, capsys):
    import gc

    from joblib.externals.loky import reusable_executor

    copy = tmp_path / "copy"
    shutil.copytree(study, copy)
    for name in ("report.html", "report.pdf"):
        (copy / name).unlink()
    with pytest.raises(SystemExit) as exc:
        main(["report", str(copy)])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert str(copy / "report.html") in out and (copy / "report.pdf").is_file()
    executor = reusable_executor._executor
    assert executor is None or not any(p.is_alive() for p in executor._processes.values()), "its workers stopped"
    assert gc.get_freeze_count() == 0, "only the console process (main() without arguments) skips the exit collection"
    assert gc.isenabled(), "and keeps its garbage: a call from Python collects it"


@pytest.mark.slow
def test_the_console_command_writes_the_bytes_of_a_call_from_python(study, tmp_path):
    """`tsumolab report` run as its own process (its workers stopped at the end, its garbage left to the process's
    end, two processes) writes the bytes render_report writes in one process."""
    import subprocess
    import sys

    copy = tmp_path / "copy"  # the report names its directory
    shutil.copytree(study, copy)
    in_process = {name: path.read_bytes() for name, path in zip(("html", "pdf"), render_report(copy))}
    for path in copy.glob("report.*"):
        path.unlink()
    done = subprocess.run([sys.executable, "-m", "tsumolab", "report", str(copy), "--jobs", "2"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (copy / "report.html").read_bytes() == in_process["html"]
    assert (copy / "report.pdf").read_bytes() == in_process["pdf"]


@pytest.mark.slow
def test_a_report_in_two_languages_takes_the_numbers_once_and_lays_each_figure_out_once(study, tmp_path,
                                                                                      monkeypatch):
    """How render_reports renders (issue 32), counted rather than timed: each claim's figure numbers are taken from
    its frames once for every language and both files; each HTML figure is laid out and drawn once per language;
    each language's PDF is rendered once, in its parts (every section in one part); no other figure is drawn."""
    from collections import Counter

    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    from tsumolab.reports import plot_data, saving
    from tsumolab.reports.html import figure_groups
    from tsumolab.reports.render import render_reports
    from tsumolab.reports.saving import write_pdf

    copy = tmp_path / "copy"
    shutil.copytree(study, copy)
    counts = Counter()
    draw, execute, numbers, fit = Figure.draw, ConstrainedLayoutEngine.execute, plot_data.claim_numbers, saving.fit_grid

    def counted(name, call):
        def wrapper(first, *args, **kwargs):
            fig = first if isinstance(first, Figure) else args[0]
            counts[name, type(fig.canvas).__name__] += 1
            return call(first, *args, **kwargs)
        return wrapper

    blank = io.BytesIO()
    write_pdf(blank, [Figure()])

    def pdf_part_stub(_data, _examples, sections, tr):
        counts["pdf", tr.lang] += 1
        counts["pdf sections", tr.lang] += len(sections)
        return blank.getvalue(), 1

    monkeypatch.setattr(Figure, "draw", counted("draw", draw))
    def counted_fit(fig, pads):
        fitted = fit(fig, pads)
        counts["layout", type(fig.canvas).__name__] += fitted
        return fitted

    monkeypatch.setattr(ConstrainedLayoutEngine, "execute", counted("layout", execute))
    monkeypatch.setattr(saving, "fit_grid", counted_fit)
    monkeypatch.setattr(plot_data, "claim_numbers", lambda claim, measure: counts.update(["numbers"]) or
                        numbers(claim, measure))
    monkeypatch.setattr(pdf, "render_pdf_part", pdf_part_stub)
    render_reports(copy, ("en", "zh"), jobs=1)
    rendered = dict(counts)

    data = load_report_data(study)
    specs = [spec for _group, specs_of in figure_groups(data) for spec in specs_of(content.EN)]
    assert len(specs) > 10
    assert rendered["numbers"] == len(data.claims)
    assert rendered["layout", "FigureCanvasSVG"] == 2 * len(specs)
    assert rendered["draw", "FigureCanvasSVG"] == 2 * len(specs)
    parts = pdf.pdf_parts(data)
    assert rendered["pdf", "en"] == rendered["pdf", "zh"] == len(parts) == pdf.PDF_PARTS
    assert rendered["pdf sections", "en"] == rendered["pdf sections", "zh"] == len(data.claims) + 1
    assert len(PdfReader(copy / "report.zh.pdf").pages) == len(parts), "every part's pages, joined"
    assert sum(n for key, n in rendered.items() if key[0] in ("draw", "layout")) == \
        rendered["layout", "FigureCanvasSVG"] + rendered["draw", "FigureCanvasSVG"], "no other figure drawn"


def test_each_figure_names_its_first_axes_title(study, plain_run):
    """The HTML's alt text of a figure is its spec's title, written without drawing it: the title the figure
    draws."""
    from tsumolab.analyzer.i18n import translator
    from tsumolab.reports.html import figure_groups

    for directory in (study, plain_run):
        for _group, specs_of in figure_groups(load_report_data(directory)):
            for lang in ("en", "zh"):
                for spec in specs_of(translator(lang)):
                    assert spec.title == spec.build().axes[0].get_title(), (spec.key, lang)


def test_a_figure_has_the_same_bytes_alone_and_beside_other_languages(study):
    """saving.figure_svgs lays each language's figure out in that language: its bytes do not depend on the other
    languages rendered with it, and a Japanese figure is not the English one."""
    from tsumolab.reports.saving import figure_svgs

    spec = content.claim_figures(load_report_data(study).claims[0])[-2]  # win value: two Axes
    together = figure_svgs(spec, ("en", "zh", "ja"))
    assert together["ja"] == figure_svgs(spec, ("ja",))["ja"]
    assert together["zh"] == figure_svgs(spec, ("zh",))["zh"]
    assert together["ja"] != together["en"]


def test_a_pdf_table_draws_every_cell_text_in_its_box_with_its_colours():
    """pdf.draw_table: one box per cell (header shaded, verdict cells in their colour with white text), every
    header and body text (wrapped), each inside its column, and nothing clipped away inside its own cell."""
    from matplotlib.collections import PolyCollection
    from matplotlib.colors import to_hex

    from tsumolab.reports import figures
    from tsumolab.reports.content import Table, Verdict

    table = Table(["claim", "a rather long column heading"],
                  [["B1", Verdict("supported")], ["B4 " + "word " * 12, "+1,234 [−5, +7]"]])
    fig = pdf._page()
    ax = pdf._axes(fig, 0.45, 1.0, pdf.A4[0] - 0.9, 2.0)
    pdf.draw_table(ax, table, size=7, widths=[12, 14])
    texts = [text.get_text() for text in ax.texts]
    wrapped = [pdf._wrap(value, 12 if c == 0 else 14) for row in [table.columns, *table.rows]
               for c, value in enumerate(row)]
    assert texts == wrapped and "\n" in texts[4]
    (boxes,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    fills = [to_hex(colour) for colour in boxes.get_facecolors()]
    assert fills == [pdf.HEADER_FILL] * 2 + ["#ffffff", figures.VERDICT_COLOURS["supported"]] + ["#ffffff"] * 2
    assert to_hex(ax.texts[3].get_color()) == "#ffffff" and to_hex(ax.texts[2].get_color()) == "#000000"
    for text, path in zip(ax.texts, boxes.get_paths()):
        cell = path.get_extents().transformed(ax.transAxes)
        anchor = ax.transAxes.transform(text.get_position())
        assert cell.x0 < anchor[0] < cell.x1 and cell.y0 < anchor[1] < cell.y1
        clip = text.get_clip_box()
        assert clip.x0 <= cell.x0 and clip.y1 >= cell.y1 and clip.x1 > cell.x1 - 1 and clip.y0 < cell.y0 + 1


@pytest.mark.slow
def test_a_plain_grid_figure_is_laid_out_in_one_pass_where_constrained_layout_puts_it(study):
    """saving.fit_grid: every figure of one Axes or a grid of them lands within half a point of constrained
    layout's positions, each Axes with its decorations inside the figure (as far as with constrained layout); a
    figure with figure-level texts (the forest plot's legend below it) keeps constrained layout."""
    from matplotlib import rc_context
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    from tsumolab.reports.html import figure_groups
    from tsumolab.reports.saving import fit_grid, laid_out

    specs = [spec for _group, specs_of in figure_groups(load_report_data(study)) for spec in specs_of(content.EN)]
    with rc_context(fonts.font_rc("en")):
        for spec in specs:
            reference = spec.build()
            FigureCanvasSVG(reference).figure.dpi = 72
            pads = reference.get_layout_engine().get()
            reference.get_layout_engine().execute(reference)
            fig = spec.build()
            if spec.key == "forest":  # a figure-level legend below it: constrained layout
                assert not fit_grid(fig, pads), spec.key
                continue
            laid_out(fig, FigureCanvasSVG)
            assert fig.get_layout_engine() is None
            renderer = fig._get_renderer()
            for ax, expected in zip(fig.axes, reference.axes):
                got, want = ax.get_position(), expected.get_position()
                size = (fig.get_figwidth() * 72, fig.get_figheight() * 72)
                assert abs(got.x0 - want.x0) * size[0] < 0.5 and abs(got.width - want.width) * size[0] < 0.5
                assert abs(got.y0 - want.y0) * size[1] < 0.5 and abs(got.height - want.height) * size[1] < 0.5
                # what reaches past the figure's edges (an axis label wider than its Axes) reaches no further
                tight, before = ax.get_tightbbox(renderer), expected.get_tightbbox(reference._get_renderer())
                assert tight.x0 >= min(0, before.x0) - 0.5 and tight.y0 >= min(0, before.y0) - 0.5
                assert tight.x1 <= max(fig.bbox.x1, before.x1) + 0.5 and tight.y1 <= max(fig.bbox.y1, before.y1) + 0.5


def test_a_claims_frames_are_the_same_whether_its_runs_are_scanned_or_read_file_by_file(study):
    """data._subject_frames scans the runs whose records hold checksums with polars and reads older runs file by
    file through pyarrow: the same frames, column types included."""
    from dataclasses import replace

    from tsumolab.reports import data as report_data

    for claim in load_report_data(study).claims:
        assert claim.cells and all(cell.checksummed for cell in claim.cells)
        scanned = report_data._subject_frames(claim.cells, 25000)
        read = report_data._subject_frames([replace(cell, checksummed=False) for cell in claim.cells], 25000)
        for ours, theirs in zip(scanned, read):
            assert ours.height > 0 and ours.equals(theirs) and ours.schema == theirs.schema


def test_a_grid_of_unequal_cells_or_with_figure_texts_keeps_constrained_layout():
    from matplotlib.figure import Figure

    from tsumolab.reports.saving import fit_grid

    unequal = Figure(layout="constrained")
    unequal.subplots(1, 2, width_ratios=[1, 2])
    titled = Figure(layout="constrained")
    titled.subplots(2, 1)
    titled.suptitle("a title")
    for fig in (unequal, titled):
        assert not fit_grid(fig, fig.get_layout_engine().get())


def test_figure_slots_are_filled_with_their_svgs_and_a_missing_figure_is_an_error():
    from tsumolab.reports.html import FIGURE_SLOT, figure_data_uri, fill_slots

    page = "".join(f"<img src=\"{FIGURE_SLOT.format(group=group, index=index)}\">"
                   for group, index in [("claim-B1", 0), ("claim-B1", 1), ("sweep-B1", 0)])
    svgs = {("claim-B1", 0): b"<svg>a</svg>", ("claim-B1", 1): b"<svg>b</svg>", ("sweep-B1", 0): b"<svg>c</svg>"}
    assert fill_slots(page, svgs) == "".join(f'<img src="{figure_data_uri(svg)}">' for svg in svgs.values())
    with pytest.raises(ValueError, match="not drawn"):
        fill_slots(page, {key: svg for key, svg in svgs.items() if key != ("claim-B1", 1)})
