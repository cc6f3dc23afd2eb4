"""reports.text_cache: texts measured and shaped once per report part, the saved bytes unchanged."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from matplotlib import font_manager, rc_context, textpath
from matplotlib.backends import backend_pdf
from matplotlib.backends._backend_pdf_ps import RendererPDFPSBase
from matplotlib.backends.backend_pdf import PdfPages, RendererPdf
from matplotlib.backends.backend_svg import RendererSVG
from matplotlib.figure import Figure
from matplotlib.text import Text

from tsumolab.reports.fonts import font_rc
from tsumolab.reports.render import quiet_font_fallback
from tsumolab.reports.saving import PDF_METADATA, svg_bytes
from tsumolab.reports import text_cache
from tsumolab.reports.text_cache import forget_texts, reused_text


def _page(title: str) -> Figure:
    """A figure repeating texts at several sizes and weights, with CJK glyphs from the fallback font."""
    fig = Figure(figsize=(6, 4))
    for k, size in enumerate((6, 9, 14)):
        ax = fig.add_subplot(1, 3, k + 1)
        ax.plot([0, 1, 2], [k, 2 * k, 0], label="treatment · baseline field")
        ax.plot([0, 1, 2], [1, 0, k], label="清一色 (Full Flush)")
        ax.set_title(title, fontsize=size, weight="bold" if k == 1 else "normal")
        ax.tick_params(labelsize=size)
        ax.legend(fontsize=size)
    fig.text(0.02, 0.02, "0.5 0.5 清一色 0.5", size=7)
    return fig


def _saved(titles: list[str]) -> tuple[bytes, list[bytes]]:
    """A PDF of one page per title and each page as SVG."""
    pdf = io.BytesIO()
    with PdfPages(pdf, metadata=PDF_METADATA) as pages:
        for title in titles:
            pages.savefig(_page(title))
    return pdf.getvalue(), [svg_bytes(_page(title)) for title in titles]


TITLES = ["Final rank", "Final rank", "查花猪 points"]


@pytest.mark.slow
def test_figures_saved_with_shared_texts_give_the_same_bytes():
    with quiet_font_fallback():
        for lang in ("en", "zh"):
            with rc_context(font_rc(lang)):
                plain = _saved(TITLES)
                with reused_text():
                    shared = _saved(TITLES)
                    again = _saved(TITLES)  # every text now comes from the block's caches
            assert shared == plain and again == plain, lang


@pytest.mark.slow
def test_each_text_is_measured_once_per_process_and_renderer_kind_and_matplotlib_is_restored_after(monkeypatch):
    measured = Counter()
    svg_measure = RendererSVG.__dict__["get_text_width_height_descent"]
    path_measure = textpath.TextToPath.__dict__["get_text_width_height_descent"]

    def counting(renderer, s, prop, ismath):
        measured[s, prop.get_size_in_points()] += 1
        return svg_measure(renderer, s, prop, ismath)

    monkeypatch.setattr(RendererSVG, "get_text_width_height_descent", counting)
    forget_texts()
    helpers, path_helpers = backend_pdf._text_helpers, textpath._text_helpers
    with quiet_font_fallback(), rc_context(font_rc("en")):
        _saved(TITLES)
        plain = sum(measured.values())
        measured.clear()
        with reused_text():
            assert backend_pdf._text_helpers is not helpers and textpath._text_helpers is not path_helpers
            assert "_find_fonts_by_props" in font_manager.fontManager.__dict__
            _saved(TITLES)
    assert max(measured.values()) == 1, "the same string at the same size is measured once"
    assert ("Final rank", 6.0) in measured and ("Final rank", 14.0) in measured, "each size on its own"
    assert sum(measured.values()) < plain / 2
    measured.clear()
    with quiet_font_fallback(), rc_context(font_rc("en")), reused_text():
        _saved(TITLES)
    assert not measured, "a later block measures nothing the earlier one did"
    assert "get_text_width_height_descent" not in RendererPdf.__dict__
    assert RendererSVG.__dict__["get_text_width_height_descent"] is counting
    assert "_get_font_ttf" not in RendererPdf.__dict__ and backend_pdf._text_helpers is helpers
    assert "_get_font" in textpath.TextToPath.__dict__ and textpath._text_helpers is path_helpers
    assert textpath.TextToPath.__dict__["get_text_width_height_descent"] is path_measure
    assert "_find_fonts_by_props" not in font_manager.fontManager.__dict__


def test_the_pdf_renderer_measures_a_text_from_the_glyph_placement_that_draws_it(monkeypatch):
    measured, shaped = Counter(), Counter()
    measure = RendererPDFPSBase.get_text_width_height_descent
    shape = text_cache._KeptLayout._shaped

    def counting(renderer, s, prop, ismath):
        measured[s] += 1
        return measure(renderer, s, prop, ismath)

    def counting_shapes(helpers, string, font, options):
        shaped[string, id(font), text_cache._font_sizes[id(font)][1]] += 1
        return shape(helpers, string, font, options)

    monkeypatch.setattr(RendererPDFPSBase, "get_text_width_height_descent", counting)
    monkeypatch.setattr(text_cache._KeptLayout, "_shaped", counting_shapes)
    forget_texts()
    with quiet_font_fallback(), rc_context(font_rc("zh")), reused_text():
        _saved(TITLES)
    assert not measured, "FreeType's measurement (a second shaping) is not needed for a plain text"
    assert max(shaped.values()) == 1, "each string shaped once at each size, for measuring and drawing"
    assert len({size for string, _font, size in shaped if string == "Final rank"}) == 4, "3 PDF sizes and the SVG's"


MEASURED = ["Final rank", "AVATAR Tj ff fi", "清一色 (Full Flush)", "−12,500 [+3,952]", "“引用”，查花猪。", " ", "a  b",
            "0.25", "…", "-", "x\u0301", "\u200b", "e\u200d", "×∞"]
"""plain texts and texts measured by FreeType (a combining mark, an invisible character, a joiner)"""


def _sizes(measures, fonts) -> list:
    return [measure.get_text_width_height_descent(s, prop, False)
            for measure in measures for prop in fonts for s in MEASURED]


def test_a_text_measured_from_its_glyph_placement_has_freetypes_numbers():
    """For the PDF renderer and for the SVG one's text-to-path converter."""
    with quiet_font_fallback():
        for lang in ("en", "zh", "ja"):
            with rc_context(font_rc(lang)):
                measures = (RendererPdf(backend_pdf.PdfFile(io.BytesIO()), 72, 11.69, 8.27), textpath.TextToPath())
                families = (font_rc(lang)["font.family"], ["DejaVu Sans Mono", *font_rc(lang)["font.family"][1:]])
                fonts = [font_manager.FontProperties(family=family, size=size, weight=weight)
                         for family in families for size in (5.5, 8.5, 17) for weight in ("normal", "bold")]

                expected = _sizes(measures, fonts)
                forget_texts()
                with reused_text():
                    got = _sizes(measures, fonts)
                assert got == expected, lang


def test_the_svg_text_paths_load_each_glyph_once_per_process_and_size(monkeypatch):
    loads = Counter()
    kept = text_cache._OutlinedFont.get_path

    def counting(outlined):
        if (id(outlined._font), outlined._glyph) not in outlined._outlines:
            loads[outlined._font.fname, outlined._glyph] += 1
        return kept(outlined)

    monkeypatch.setattr(text_cache._OutlinedFont, "get_path", counting)
    forget_texts()
    with quiet_font_fallback(), rc_context(font_rc("zh")), reused_text():
        first = [svg_bytes(_page(title)) for title in TITLES]
        again = [svg_bytes(_page(title)) for title in TITLES]
    assert first == again and loads and max(loads.values()) == 1


def test_each_text_is_laid_out_once_per_renderer_kind_and_text_properties(monkeypatch):
    laid_out = Counter()
    layout = Text._get_layout

    def counting(text, renderer):
        laid_out[text.get_text(), text.get_fontsize(), text.get_rotation(), text.get_horizontalalignment(),
                 text.get_verticalalignment()] += 1
        return layout(text, renderer)

    monkeypatch.setattr(Text, "_get_layout", counting)
    forget_texts()
    with quiet_font_fallback(), rc_context(font_rc("en")):
        with reused_text():
            assert Text.__dict__["_get_layout"] is not counting
            _saved(TITLES)
        assert Text.__dict__["_get_layout"] is counting
        assert max(laid_out.values()) <= 2, "at most once for the PDF and once for the SVG renderer"
        assert text_cache._boxes
        laid_out.clear()
        with reused_text():
            _saved(TITLES)
    assert not laid_out, "a later block lays out nothing the earlier one did"


def test_a_nested_block_keeps_the_outer_blocks_caches_until_the_outer_block_ends():
    helpers = backend_pdf._text_helpers
    with reused_text():
        kept = backend_pdf._text_helpers
        with reused_text():
            assert backend_pdf._text_helpers is kept
        assert backend_pdf._text_helpers is kept
    assert backend_pdf._text_helpers is helpers


def test_what_is_kept_is_dropped_when_the_fonts_change_or_it_grows_too_large(monkeypatch):
    with quiet_font_fallback(), rc_context(font_rc("en")):
        with reused_text():
            _saved(TITLES[:1])
        assert text_cache._sizes and text_cache._layouts
        monkeypatch.setattr(text_cache, "KEPT_TEXTS", len(text_cache._sizes) - 1)
        with reused_text():
            assert not text_cache._sizes and not text_cache._boxes, "too many kept: all dropped"
            _saved(TITLES[:1])
        monkeypatch.setattr(text_cache, "KEPT_TEXTS", 10**6)
        with reused_text():
            assert text_cache._sizes
        known = text_cache._known_fonts()
        monkeypatch.setattr(text_cache, "_known_fonts", lambda: (*known, ("/fonts/new.ttf", "New", "normal", 400)))
        with reused_text():
            assert not text_cache._sizes, "another font known to matplotlib: all dropped"
