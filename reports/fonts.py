"""Fonts of the reports: a CJK font shipped as a Python package, so pattern names like 清一色 and 查花猪 render
in figures and in the HTML without any font installed on the machine.

Figures use DejaVu Sans (matplotlib's own) with Noto Sans CJK as the fallback for the glyphs DejaVu lacks. The
HTML embeds a subset of the CJK font holding only the characters the page uses, as a data URI.
"""

from __future__ import annotations

import base64
import io
from functools import lru_cache
from pathlib import Path

LATIN_FAMILY = "DejaVu Sans"
MONO_FAMILY = "DejaVu Sans Mono"
CJK_PACKAGE = "noto_cjk_sans_jp_regular"
CJK_CSS_FAMILY = "tsumolab-cjk"


@lru_cache(maxsize=1)
def cjk_font_path() -> Path:
    """Path of the Noto Sans CJK font file shipped by the `noto-cjk-sans-jp-regular` dependency."""
    import importlib

    try:
        package = importlib.import_module(CJK_PACKAGE)
    except ModuleNotFoundError:
        raise RuntimeError("the CJK font package is missing: pip install noto-cjk-sans-jp-regular "
                           "(a dependency of tsumolab)") from None
    return Path(str(package.FONT_PATH))


@lru_cache(maxsize=1)
def cjk_family() -> str:
    """Register the CJK font with matplotlib's font manager (once) and return its family name."""
    from matplotlib import font_manager

    path = cjk_font_path()
    font_manager.fontManager.addfont(str(path))
    return font_manager.FontProperties(fname=str(path)).get_name()


def font_rc() -> dict:
    """rcParams for every report figure: Latin font first, CJK fallback, fixed SVG ids, no dates."""
    return {
        "font.family": [LATIN_FAMILY, cjk_family()],
        "svg.hashsalt": "tsumolab-report",
        "svg.fonttype": "path",
        "pdf.fonttype": 3,
        "axes.unicode_minus": True,
    }


def missing_glyphs(text: str, path: Path | None = None) -> list[str]:
    """The characters of `text` that the font at `path` (default: the CJK font) has no glyph for."""
    from matplotlib.ft2font import FT2Font

    font = FT2Font(str(path or cjk_font_path()))
    return sorted({c for c in text if not c.isspace() and font.get_char_index(ord(c)) == 0})


def css_font_face(text: str) -> str:
    """An @font-face rule embedding the CJK font's glyphs for the non-ASCII characters of `text` (empty when
    there are none), as an OpenType data URI."""
    wide = sorted({c for c in text if ord(c) > 0x2E7F})
    if not wide:
        return ""
    data = _subset(tuple(wide))
    uri = "data:font/otf;base64," + base64.b64encode(data).decode("ascii")
    return f"@font-face{{font-family:'{CJK_CSS_FAMILY}';src:url({uri}) format('opentype');font-display:block;}}"


@lru_cache(maxsize=8)
def _subset(chars: tuple[str, ...]) -> bytes:
    from fontTools import subset

    options = subset.Options()
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.layout_features = []
    font = subset.load_font(str(cjk_font_path()), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in chars])
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()
