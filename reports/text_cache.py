"""Each text of a report measured and shaped once per report part instead of once per figure.

matplotlib keeps the size of a text (width, height, descent) only for the renderer that measured it, and every
figure saved gets a new renderer: the tick labels, legend entries and table words a report repeats on every page
and in every figure are measured again each time, each measurement shaping the whole string with FreeType and
libraqm. The PDF backend then shapes each drawn text once more to place its glyphs. Inside `reused_text()` both
results are kept for the rest of the block and shared between figures; they are the same numbers the renderers
compute, so the saved bytes do not change.

The sizes are kept per renderer class (the PDF and SVG renderers measure differently), string, font properties
and the rcParams that choose and scale the font files. The PDF glyph layout is kept per string, font object, font
size and shaping options; its glyphs are not loaded into the font again, which the PDF backend does not use (it
loads every glyph it embeds when it writes the fonts). Math and TeX texts are measured as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import matplotlib as mpl
from matplotlib.backends import backend_pdf
from matplotlib.backends.backend_pdf import RendererPdf
from matplotlib.backends.backend_svg import RendererSVG

FONT_RC = ("font.serif", "font.sans-serif", "font.cursive", "font.fantasy", "font.monospace", "pdf.use14corefonts",
           "text.hinting", "text.hinting_factor", "text.kerning_factor")
"""rcParams that decide which font files a text is measured with and how they are scaled"""

MEASURED_BY = (RendererPdf, RendererSVG)
_depth = 0


def _font_rc() -> tuple:
    params = mpl.rcParams
    return tuple(repr(params[key]) for key in FONT_RC if key in params)


def _shared_measure(renderer_class: type, measure, sizes: dict):
    """`renderer_class.get_text_width_height_descent` answering from `sizes` what it measured before."""
    def get_text_width_height_descent(renderer, s, prop, ismath):
        if ismath:
            return measure(renderer, s, prop, ismath)
        key = (renderer_class, s, prop.copy(), _font_rc())
        size = sizes.get(key)
        if size is None:
            size = sizes[key] = measure(renderer, s, prop, ismath)
        return size

    return get_text_width_height_descent


class _KeptLayout:
    """Stands in for matplotlib._text_helpers in the PDF backend: `layout` gives the glyph placement of a string
    it shaped before with the same font, size and options; anything else is the module's own."""

    def __init__(self, helpers, font_sizes: dict):
        self._helpers = helpers
        self._font_sizes = font_sizes
        self._layouts: dict = {}

    def layout(self, string, font, **options):
        font_and_size = self._font_sizes.get(id(font))
        if font_and_size is None or font_and_size[0] is not font:
            return self._helpers.layout(string, font, **options)
        key = (string, id(font), font_and_size[1], tuple(sorted(options.items())))
        items = self._layouts.get(key)
        if items is None:
            items = self._layouts[key] = self._shaped(string, font, options)
        return items

    def _shaped(self, string, font, options: dict) -> list:
        """The glyph placement of `string`: what _text_helpers.layout yields, without loading each glyph into the
        font as it does (matplotlib 3.11's shaping call; earlier versions go through layout itself)."""
        if not hasattr(font, "_layout"):
            return list(self._helpers.layout(string, font, **options))
        from matplotlib.ft2font import LoadFlags

        return list(font._layout(string, LoadFlags.NO_HINTING, **options))

    def __getattr__(self, name):
        return getattr(self._helpers, name)


def _font_with_size(get_font_ttf, font_sizes: dict):
    """RendererPdf._get_font_ttf noting the size it set on the (shared) font object it returns. The font object is
    kept with its size, so that its id stays its own while the note is used."""
    def _get_font_ttf(renderer, prop):
        font = get_font_ttf(renderer, prop)
        font_sizes[id(font)] = (font, prop.get_size_in_points())
        return font

    return _get_font_ttf


@contextmanager
def reused_text() -> Iterator[None]:
    """Text sizes and PDF glyph layouts computed once and shared by every figure saved in the block (module
    docstring); matplotlib's own behaviour is back after it. Nested blocks share the outermost block's."""
    global _depth
    if _depth:
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
        return
    replaced = []  # (class, attribute name, what the class itself held or None)

    def replace(cls: type, name: str, value) -> None:
        replaced.append((cls, name, cls.__dict__.get(name)))
        setattr(cls, name, value)

    sizes: dict = {}
    for cls in MEASURED_BY:
        replace(cls, "get_text_width_height_descent",
                _shared_measure(cls, cls.get_text_width_height_descent, sizes))
    helpers = backend_pdf._text_helpers
    get_font_ttf = getattr(RendererPdf, "_get_font_ttf", None)
    if get_font_ttf is not None and hasattr(helpers, "layout"):
        font_sizes: dict = {}
        replace(RendererPdf, "_get_font_ttf", _font_with_size(get_font_ttf, font_sizes))
        backend_pdf._text_helpers = _KeptLayout(helpers, font_sizes)
    _depth = 1
    try:
        yield
    finally:
        _depth = 0
        backend_pdf._text_helpers = helpers
        for cls, name, own in reversed(replaced):
            if own is None:
                delattr(cls, name)
            else:
                setattr(cls, name, own)
