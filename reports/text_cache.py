"""Each text of a report measured and shaped once per process instead of once per figure.

matplotlib keeps the size of a text (width, height, descent) only for the renderer that measured it, and every
figure saved gets a new renderer: the tick labels, legend entries and table words a report repeats on every page
and in every figure are measured again each time, each measurement shaping the whole string with FreeType and
libraqm. The PDF backend, and the SVG backend turning text into paths, then shape each drawn text once more to
place its glyphs. Inside `reused_text()` these results are kept and shared between figures, and between the
blocks of a process (the parts of a report, the reports of a run of them); they are the same numbers the
renderers compute, so the saved bytes do not change.

The font files of each font properties are kept too (matplotlib looks them up again, family by family, for every
text it lays out), and so is each text's layout (its box and the place of each of its lines relative to its
position, which matplotlib works out again, font metrics included, every time a text is measured for the layout of
its figure, drawn or asked for its extent). The sizes are kept per renderer class (the PDF and SVG renderers
measure differently), string, font properties and the rcParams that choose and scale the font files. A glyph layout
is kept per string, font object, font size and shaping options, a text's layout per renderer class, string, font
properties, font rcParams, dpi, rotation, alignment and line spacing. The PDF backend's glyphs are not loaded into
the font (it never reads them; it loads every glyph it embeds when it writes the fonts); the SVG text paths take
each glyph's outline as loaded the first time the process drew it (kept per font, size and glyph) instead of
loading every glyph of every text. Both renderers measure a text from that same glyph placement and each glyph's
box (kept per font, size and glyph) instead of shaping the string a second time: the numbers FreeType's own
measurement gives (see _size_from_glyphs). Math and TeX texts are measured, and wrapped texts laid out, as before.
Everything kept is dropped when the fonts known to matplotlib change, and when it grows past KEPT_TEXTS entries.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager

import matplotlib as mpl
from matplotlib import font_manager, textpath
from matplotlib.backends import backend_pdf
from matplotlib.backends.backend_mixed import MixedModeRenderer
from matplotlib.backends.backend_pdf import RendererPdf
from matplotlib.backends.backend_svg import RendererSVG
from matplotlib.ft2font import FT2Font
from matplotlib.text import Text
from matplotlib.transforms import Bbox

FONT_RC = ("font.serif", "font.sans-serif", "font.cursive", "font.fantasy", "font.monospace", "pdf.use14corefonts",
           "text.hinting", "text.hinting_factor", "text.kerning_factor")
"""rcParams that decide which font files a text is measured with and how they are scaled"""

MEASURED_BY = (RendererPdf, RendererSVG)
KEPT_TEXTS = 200_000
"""sizes and layouts kept at most (a report in three languages keeps about 20,000)"""

_sizes: dict = {}
"""(renderer class, string, font properties, font rcParams) → (width, height, descent)"""
_layouts: dict = {}
"""(string, font id, font size, shaping options) → the glyph placement the PDF backend draws"""
_boxes: dict = {}
"""(renderer class, string, font properties, font rcParams, dpi, rotation, alignments, line spacing) → what
Text._get_layout gives: the text's box and its lines' sizes and offsets, relative to its position"""
_font_files: dict = {}
"""(font properties, lookup options, generic family rcParams, font list) → the font files matplotlib finds"""
_font_sizes: dict = {}
"""font object id → (the font object, the size the PDF renderer or the text-to-path converter last set on it)"""
_glyph_boxes: dict = {}
"""(font object id, size) → (the font object, {(id of the font object holding the glyph, glyph index) → (bottom,
top, advance) of the glyph in 64ths of a pixel})"""
_glyph_outlines: dict = {}
"""(font object id, size) → (the font object, {(id of the font object holding the glyph, glyph index) → its
outline (vertices, codes)}), for the text-to-path converter"""
_kept_for: list = [None]
"""the fonts matplotlib knew when the kept texts were measured"""
_depth = 0


_KNOWN_FONT_RC = tuple(key for key in FONT_RC if key in mpl.rcParams)


def _font_rc() -> tuple:
    """The values of the FONT_RC rcParams in effect, hashable (a list as a tuple); read for every text measured or
    laid out, so read directly (rcParams._get) rather than through validation."""
    return tuple(tuple(value) if isinstance(value, list) else value
                 for value in map(mpl.rcParams._get, _KNOWN_FONT_RC))


def _known_fonts() -> tuple:
    return tuple((entry.fname, entry.name, entry.style, entry.weight) for entry in font_manager.fontManager.ttflist)


GENERIC_FAMILIES = ("font.serif", "font.sans-serif", "font.cursive", "font.fantasy", "font.monospace")


def _kept_font_files(find):
    """FontManager._find_fonts_by_props (bound to the font manager) answering from `_font_files` what it found
    before for the same properties, options, generic families and list of fonts."""
    params = mpl.rcParams
    manager = font_manager.fontManager

    def _find_fonts_by_props(prop, *args, **kwargs):
        if not isinstance(prop, font_manager.FontProperties):
            return find(prop, *args, **kwargs)
        fonts = manager.ttflist
        key = (prop.copy(), args, tuple(sorted(kwargs.items())), id(fonts), len(fonts),
               tuple(tuple(params[name]) for name in GENERIC_FAMILIES))
        files = _font_files.get(key)
        if files is None:
            files = _font_files[key] = list(find(prop, *args, **kwargs))
        return list(files)

    return _find_fonts_by_props


def _shared_measure(renderer_class: type, measure):
    """`renderer_class.get_text_width_height_descent` answering from `_sizes` what it measured before."""
    def get_text_width_height_descent(renderer, s, prop, ismath):
        if ismath:
            return measure(renderer, s, prop, ismath)
        key = (renderer_class, s, prop.copy(), _font_rc())
        size = _sizes.get(key)
        if size is None:
            size = _sizes[key] = measure(renderer, s, prop, ismath)
        return size

    return get_text_width_height_descent


def _kept_box(get_layout):
    """Text._get_layout answering from `_boxes` what it gave before for a text of the same string, font, size,
    rotation, alignment and line spacing drawn by the same kind of renderer: the box is relative to the text's
    position, so texts repeated in every figure (tick labels, legend entries, table words) and a text laid out
    then drawn are placed once. Wrapped, TeX and math texts are laid out as before."""
    def _get_layout(text, renderer):
        string = text.get_text()
        measuring = type(renderer._renderer if isinstance(renderer, MixedModeRenderer) else renderer)
        if measuring not in MEASURED_BY or text.get_wrap() or text.get_usetex() or "$" in string:
            return get_layout(text, renderer)
        key = (measuring, string, text._fontproperties.copy(), _font_rc(), text.get_figure(root=True).dpi,
               text.get_rotation(), text.get_rotation_mode(), text.get_horizontalalignment(),
               text.get_verticalalignment(), text._get_multialignment(), text._linespacing)
        box = _boxes.get(key)
        if box is None:
            box = _boxes[key] = get_layout(text, renderer)
        bbox, lines, corner = box
        return Bbox(bbox.get_points().copy()), list(lines), corner

    return _get_layout


UNPLACED_CATEGORIES = frozenset({"Mn", "Mc", "Me", "Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""characters the shaper may give no advance of their own or move (marks, controls, invisible formatting)"""
RIGHT_TO_LEFT = frozenset({"R", "AL", "AN", "RLE", "RLO", "RLI"})


def _placed_in_order(string: str) -> bool:
    """Whether every character of `string` becomes a glyph of its own advance, left to right, so that the last
    glyph placed ends the text: no mark, control or invisible character, nothing right-to-left."""
    return all(unicodedata.category(char) not in UNPLACED_CATEGORIES
               and unicodedata.bidirectional(char) not in RIGHT_TO_LEFT for char in string)


def _size_from_glyphs(items: list, boxes: dict) -> tuple[int, int, int]:
    """(width, height, descent) in 64ths of a pixel of a text placed as `items` (its glyph placement, laid out at
    the size of the font `boxes` belongs to): the advance from its start to the end of its last glyph, and the
    lowest bottom and highest top of its glyphs' boxes, as FreeType's measurement of the string (FT2Font.set_text)
    gives them. Each glyph's box is kept in `boxes`."""
    from matplotlib.ft2font import LoadFlags

    bottom, top = 32000, -32000
    for item in items:
        key = (id(item.ft_object), item.glyph_index)
        box = boxes.get(key)
        if box is None:
            glyph = item.ft_object.load_glyph(item.glyph_index, flags=LoadFlags.NO_HINTING)
            box = boxes[key] = (glyph.bbox[1], glyph.bbox[3], glyph.horiAdvance)
        rise = round(item.y * 64)
        bottom, top = min(bottom, box[0] + rise), max(top, box[1] + rise)
    return round(items[-1].x * 64) + box[2], top - bottom, -bottom


def _kept_for_font(kept: dict, font) -> dict:
    """What `kept` holds for `font` at the size last set on it (_font_sizes), kept with the font object so that its
    id stays its own."""
    key = (id(font), _font_sizes[id(font)][1])
    entry = kept.get(key)
    if entry is None or entry[0] is not font:
        entry = kept[key] = (font, {})
    return entry[1]


def _glyph_size(helpers, font, s: str) -> tuple[int, int, int] | None:
    """_size_from_glyphs of `s` drawn plainly (no font features or language) with `font` through `helpers` (a
    _KeptLayout), or None when it cannot be: not a _KeptLayout, or glyphs that may not follow one another plainly
    (_placed_in_order)."""
    if not s or not isinstance(helpers, _KeptLayout) or not _placed_in_order(s):
        return None
    items = helpers.placed(s, font, {"features": None, "language": None})
    return _size_from_glyphs(items, _kept_for_font(_glyph_boxes, font)) if items else None


def _pdf_measured_from_layout(measure):
    """RendererPdf.get_text_width_height_descent measuring a text from the glyph placement its drawing uses
    (_KeptLayout, shaped once for both) and its glyphs' boxes (_size_from_glyphs) instead of shaping it again.
    Texts _glyph_size cannot measure, and texts drawn with the PDF core fonts, are measured by `measure`."""
    def get_text_width_height_descent(renderer, s, prop, ismath):
        if ismath or mpl.rcParams["pdf.use14corefonts"]:
            return measure(renderer, s, prop, ismath)
        size = _glyph_size(backend_pdf._text_helpers, renderer._get_font_ttf(prop), s)
        if size is None:
            return measure(renderer, s, prop, ismath)
        scale = 1 / 64
        return size[0] * scale, size[1] * scale, size[2] * scale

    return get_text_width_height_descent


def _path_measured_from_layout(measure):
    """TextToPath.get_text_width_height_descent (the SVG renderer's measure) the same way: from the glyph
    placement the text-to-path drawing uses, laid out at the converter's one font size for every size of text."""
    def get_text_width_height_descent(converter, s, prop, ismath):
        if ismath:
            return measure(converter, s, prop, ismath)
        size = _glyph_size(textpath._text_helpers, converter._get_font(prop), s)
        if size is None:
            return measure(converter, s, prop, ismath)
        scale = prop.get_size_in_points() / converter.FONT_SCALE
        return size[0] / 64.0 * scale, size[1] / 64.0 * scale, size[2] / 64.0 * scale

    return get_text_width_height_descent


class _PlacedGlyph:
    """A glyph placed by the text-to-path converter's layout: a LayoutItem's fields, with a stand-in for its font
    object (_OutlinedFont)."""

    __slots__ = ("ft_object", "char", "glyph_index", "x", "y", "prev_kern")

    def __init__(self, item, outlines: dict):
        self.ft_object = _OutlinedFont(item.ft_object, item.glyph_index, outlines)
        self.char, self.glyph_index, self.x, self.y, self.prev_kern = (item.char, item.glyph_index, item.x,
                                                                       item.y, item.prev_kern)


class _OutlinedFont:
    """The font object of one placed glyph, for the text-to-path converter: get_path gives the glyph's outline,
    loaded into the font the first time the glyph is drawn at that size in the process only and kept in
    `outlines`; everything else is the font object's own."""

    __slots__ = ("_font", "_glyph", "_outlines")

    def __init__(self, font, glyph: int, outlines: dict):
        self._font, self._glyph, self._outlines = font, glyph, outlines

    def get_path(self):
        from matplotlib.ft2font import LoadFlags

        key = (id(self._font), self._glyph)
        path = self._outlines.get(key)
        if path is None:
            self._font.load_glyph(self._glyph, flags=LoadFlags.NO_HINTING)
            path = self._outlines[key] = self._font.get_path()
            for array in path:
                array.flags.writeable = False  # shared by every figure drawing the glyph
        return path

    def __getattr__(self, name):
        return getattr(self._font, name)


class _KeptLayout:
    """Stands in for matplotlib._text_helpers in the PDF backend or the text-to-path converter: `layout` gives the
    glyph placement of a string shaped before with the same font, size and options; for the text-to-path converter
    (`outlines`) each glyph comes with its outline as drawn before (_OutlinedFont) instead of being loaded into the
    font at every text as _text_helpers.layout does; anything else is the module's own."""

    def __init__(self, helpers, outlines: bool):
        self._helpers = helpers
        self._outlines = outlines

    def placed(self, string, font, options: dict) -> list | None:
        """The glyph placement (LayoutItems) of `string` in `font` at the size last set on it, shaped once; None
        for a font whose size was not noted."""
        font_and_size = _font_sizes.get(id(font))
        if font_and_size is None or font_and_size[0] is not font:
            return None
        key = (string, id(font), font_and_size[1], tuple(sorted(options.items())))
        items = _layouts.get(key)
        if items is None:
            items = _layouts[key] = self._shaped(string, font, options)
        return items

    def layout(self, string, font, **options):
        items = self.placed(string, font, options)
        if items is None:
            return self._helpers.layout(string, font, **options)
        if not self._outlines:
            return items
        outlines = _kept_for_font(_glyph_outlines, font)
        return [_PlacedGlyph(item, outlines) for item in items]

    def _shaped(self, string, font, options: dict) -> list:
        """The glyph placement of `string`: what _text_helpers.layout yields, without loading each glyph into the
        font as it does (matplotlib 3.11's shaping call; earlier versions go through layout itself)."""
        if not hasattr(font, "_layout"):
            return list(self._helpers.layout(string, font, **options))
        from matplotlib.ft2font import LoadFlags

        return list(font._layout(string, LoadFlags.NO_HINTING, **options))

    def __getattr__(self, name):
        return getattr(self._helpers, name)


def _font_with_size(get_font_ttf):
    """RendererPdf._get_font_ttf noting the size it set on the (shared) font object it returns. The font object is
    kept with its size, so that its id stays its own while the note is used."""
    def _get_font_ttf(renderer, prop):
        font = get_font_ttf(renderer, prop)
        _font_sizes[id(font)] = (font, prop.get_size_in_points())
        return font

    return _get_font_ttf


def _path_font_with_size(get_font):
    """TextToPath._get_font noting the size it sets on every font object it returns (its own, whatever `prop`)."""
    def _get_font(converter, prop):
        font = get_font(converter, prop)
        _font_sizes[id(font)] = (font, ("text to path", converter.FONT_SCALE, converter.DPI))
        return font

    return _get_font


def forget_texts() -> None:
    """Drop every size, layout and font lookup kept."""
    for kept in (_sizes, _layouts, _boxes, _font_files, _font_sizes, _glyph_boxes, _glyph_outlines):
        kept.clear()
    _kept_for[0] = None


@contextmanager
def reused_text() -> Iterator[None]:
    """Text sizes and PDF glyph layouts computed once and shared by every figure saved in the block and in the
    blocks after it (module docstring); matplotlib's own behaviour is back after it. Nested blocks are the
    outermost block's."""
    global _depth
    if _depth:
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
        return
    fonts = _known_fonts()
    if fonts != _kept_for[0] or len(_sizes) + len(_layouts) + len(_boxes) > KEPT_TEXTS:
        forget_texts()
        _kept_for[0] = fonts
    replaced = []  # (class, attribute name, what the class itself held or None)

    def replace(cls: type, name: str, value) -> None:
        replaced.append((cls, name, cls.__dict__.get(name)))
        setattr(cls, name, value)

    for cls in MEASURED_BY:
        measure = cls.get_text_width_height_descent
        if cls is RendererPdf:
            measure = _pdf_measured_from_layout(measure)
        replace(cls, "get_text_width_height_descent", _shared_measure(cls, measure))
    replace(Text, "_get_layout", _kept_box(Text._get_layout))
    manager = font_manager.fontManager
    manager._find_fonts_by_props = _kept_font_files(manager._find_fonts_by_props)
    helpers = backend_pdf._text_helpers
    get_font_ttf = getattr(RendererPdf, "_get_font_ttf", None)
    if get_font_ttf is not None and hasattr(helpers, "layout"):
        replace(RendererPdf, "_get_font_ttf", _font_with_size(get_font_ttf))
        backend_pdf._text_helpers = _KeptLayout(helpers, outlines=False)
    path_helpers = textpath._text_helpers
    if hasattr(FT2Font, "_layout") and hasattr(textpath.TextToPath, "_get_font"):  # matplotlib 3.11's layout items
        replace(textpath.TextToPath, "_get_font", _path_font_with_size(textpath.TextToPath._get_font))
        replace(textpath.TextToPath, "get_text_width_height_descent",
                _path_measured_from_layout(textpath.TextToPath.get_text_width_height_descent))
        textpath._text_helpers = _KeptLayout(path_helpers, outlines=True)
    _depth = 1
    try:
        yield
    finally:
        _depth = 0
        del manager._find_fonts_by_props  # the class's method again
        backend_pdf._text_helpers = helpers
        textpath._text_helpers = path_helpers
        for cls, name, own in reversed(replaced):
            if own is None:
                delattr(cls, name)
            else:
                setattr(cls, name, own)
