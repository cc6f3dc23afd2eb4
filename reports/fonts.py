"""Fonts of the reports: a CJK font shipped as a Python package, so Chinese and Japanese text (and pattern names
like 清一色 in an English report) render in figures, in the PDF and in the HTML without any font installed on the
machine.

The font is Noto Sans CJK JP (the `noto-cjk-sans-jp-regular` dependency): a full Pan-CJK font whose default glyph
shapes are the Japanese ones, with the Simplified Chinese shapes reached through its `locl` feature for the
language ZHS. Japanese reports (and English ones, whose CJK text is short quotes) use it as it is. Chinese reports
use the same font with its character map pointed at the ZHS glyphs (骨, 直, 角, 关 … in their Chinese shapes):
for the HTML's embedded subset directly, and for matplotlib (figures, PDF) as a small derived font file holding
only the glyphs that differ, kept in the cache directory (`$XDG_CACHE_HOME/tsumolab/fonts`), first in the
fallback list before the full font.

Figures use DejaVu Sans (matplotlib's own) for Latin text with the CJK font(s) as the fallback for the glyphs
DejaVu lacks. The HTML embeds a subset of the CJK font holding only the characters the page uses, as a data URI.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tempfile
from functools import lru_cache
from pathlib import Path

LATIN_FAMILY = "DejaVu Sans"
MONO_FAMILY = "DejaVu Sans Mono"
CJK_PACKAGE = "noto_cjk_sans_jp_regular"
CJK_CSS_FAMILY = "tsumolab-cjk"
SC_FAMILY = "tsumolab CJK SC"
"""family name of the derived font with the Simplified Chinese glyph shapes"""
SC_LANGSYS = "ZHS "
FACE_OF_LANGUAGE = {"en": "jp", "zh": "sc", "ja": "jp"}
"""report language → glyph shapes of its CJK text: jp = the font's default (Japanese), sc = Simplified Chinese"""
_DERIVED_VERSION = "1"


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
    """Register the CJK font with matplotlib's font manager (once) and return its family name. A font of the same
    family installed on the machine (Debian's fonts-noto-cjk is one) is set aside, so that every machine draws
    with the shipped file."""
    from matplotlib import font_manager

    path = cjk_font_path()
    name = font_manager.FontProperties(fname=str(path)).get_name()
    manager = font_manager.fontManager
    manager.ttflist = [entry for entry in manager.ttflist if entry.name != name]
    manager.addfont(str(path))
    return name


@lru_cache(maxsize=1)
def sc_family() -> str:
    """Register the derived Simplified Chinese font with matplotlib (once, building it if needed); its family."""
    from matplotlib import font_manager

    path = sc_font_path()
    font_manager.fontManager.addfont(str(path))
    return font_manager.FontProperties(fname=str(path)).get_name()


def cjk_families(lang: str = "en") -> list[str]:
    """The CJK fallback families of a report language, in order."""
    return ([sc_family()] if FACE_OF_LANGUAGE[lang] == "sc" else []) + [cjk_family()]


def font_rc(lang: str = "en") -> dict:
    """rcParams for every report figure: Latin font first, CJK fallbacks, fixed SVG ids, no dates, and each
    title at the top of its axes. (No report axes has tick labels on top, which is all matplotlib's automatic
    title position avoids; it measures every tick label again to find that out at each draw.)"""
    return {
        "font.family": [LATIN_FAMILY, *cjk_families(lang)],
        "svg.hashsalt": "tsumolab-report",
        "svg.fonttype": "path",
        "pdf.fonttype": 3,
        "axes.unicode_minus": True,
        "axes.titley": 1.0,
    }


def missing_glyphs(text: str, path: Path | None = None) -> list[str]:
    """The characters of `text` that the font at `path` (default: the CJK font) has no glyph for."""
    from matplotlib.ft2font import FT2Font

    font = FT2Font(str(path or cjk_font_path()))
    return sorted({c for c in text if not c.isspace() and font.get_char_index(ord(c)) == 0})


# --- glyph shapes per language ---------------------------------------------------------------------------------

def _single_substitutions(font, script: str, langsys: str, feature: str) -> dict[str, str]:
    """glyph → glyph of the single substitutions that `feature` applies for (script, langsys) in GSUB."""
    gsub = font["GSUB"].table
    mapping: dict[str, str] = {}
    for record in gsub.ScriptList.ScriptRecord:
        if record.ScriptTag != script:
            continue
        for lang in record.Script.LangSysRecord:
            if lang.LangSysTag != langsys:
                continue
            for index in lang.LangSys.FeatureIndex:
                feature_record = gsub.FeatureList.FeatureRecord[index]
                if feature_record.FeatureTag != feature:
                    continue
                for lookup_index in feature_record.Feature.LookupListIndex:
                    for sub in gsub.LookupList.Lookup[lookup_index].SubTable:
                        sub = getattr(sub, "ExtSubTable", sub)
                        mapping.update(getattr(sub, "mapping", {}) or {})
    return mapping


def _options():
    from fontTools import subset

    options = subset.Options()
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.layout_features = []
    return options


def _load(face: str):
    """The CJK font as a fontTools TTFont whose character map gives the glyph shapes of `face`."""
    from fontTools import subset

    font = subset.load_font(str(cjk_font_path()), _options())
    if face == "sc":
        alternates = _single_substitutions(font, "hani", SC_LANGSYS, "locl")
        for table in font["cmap"].tables:
            if table.isUnicode() and hasattr(table, "cmap"):
                table.cmap = {cp: alternates.get(glyph, glyph) for cp, glyph in table.cmap.items()}
    return font


def _subset_font(font, unicodes: list[int]) -> None:
    from fontTools import subset

    subsetter = subset.Subsetter(_options())
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)


def css_font_face(text: str, lang: str = "en") -> str:
    """An @font-face rule embedding the CJK font's glyphs (in the shapes of `lang`) for the non-ASCII characters
    of `text` (empty when there are none), as an OpenType data URI."""
    wide = sorted(c for c in set(text) if ord(c) > 0x2E7F)
    if not wide:
        return ""
    data = _subset(tuple(wide), FACE_OF_LANGUAGE[lang])
    uri = "data:font/otf;base64," + base64.b64encode(data).decode("ascii")
    return f"@font-face{{font-family:'{CJK_CSS_FAMILY}';src:url({uri}) format('opentype');font-display:block;}}"


@lru_cache(maxsize=8)
def _subset(chars: tuple[str, ...], face: str = "jp") -> bytes:
    font = _load(face)
    _subset_font(font, [ord(c) for c in chars])
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


@lru_cache(maxsize=1)
def sc_font_path() -> Path:
    """The derived font holding the Simplified Chinese shapes of every character whose shape differs from the
    Japanese one, family SC_FAMILY; built once (a few seconds) into the cache directory, or a temporary one
    when the cache is not writable."""
    source = cjk_font_path()
    stat = source.stat()
    key = hashlib.sha256(f"{_DERIVED_VERSION}:{source.name}:{stat.st_size}".encode()).hexdigest()[:16]
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tsumolab" / "fonts"
    for directory in (base, Path(tempfile.gettempdir()) / "tsumolab-fonts"):
        path = directory / f"noto-cjk-sc-{key}.otf"
        if path.is_file():
            return path
        try:
            directory.mkdir(parents=True, exist_ok=True)
            _write_sc_font(path)
            return path
        except OSError:
            continue
    raise RuntimeError("cannot write the Chinese font to the cache directory or a temporary directory")


def _write_sc_font(path: Path) -> None:
    font = _load("jp")
    alternates = _single_substitutions(font, "hani", SC_LANGSYS, "locl")
    cmap = font.getBestCmap()
    differing = sorted(cp for cp, glyph in cmap.items() if glyph in alternates)
    font = _load("sc")
    _subset_font(font, differing)
    for record in font["name"].names:
        if record.nameID in (1, 16):
            record.string = SC_FAMILY
        elif record.nameID == 4:
            record.string = f"{SC_FAMILY} Regular"
        elif record.nameID == 6:
            record.string = SC_FAMILY.replace(" ", "") + "-Regular"
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    font.save(str(temp))
    os.replace(temp, path)
