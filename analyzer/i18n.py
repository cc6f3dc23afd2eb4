"""The languages of the reports: English, Chinese (simplified) and Japanese.

Every sentence, heading, label and verdict word of a report goes through a `Translator`: `tr("…")` looks the
English text up in the language's gettext catalog (`analyzer/locale/<lang>/LC_MESSAGES/tsumolab.po`, package
data compiled on first use by analyzer.po and loaded with the standard library's `gettext`); English needs no
catalog. A message missing from a catalog falls back to the English text, and tests/test_i18n.py fails on it.
Messages are `str.format` templates with named fields (`"{n} matches"`), so a translation may reorder them.

Numbers go through the translator too (`tr.number`, `tr.signed`, …): digit grouping and the decimal mark are
per language, so a report never mixes marks. Chinese and Japanese group thousands with "," and use "." like
English; the table keeps the choice in one place.
"""

from __future__ import annotations

import gettext
import io
import math
from functools import lru_cache

from tsumolab.analyzer.errors import InputError

LANGUAGES = ("en", "zh", "ja")
DEFAULT_LANGUAGE = "en"
DOMAIN = "tsumolab"
HTML_LANG = {"en": "en", "zh": "zh-Hans", "ja": "ja"}
"""the HTML `lang` attribute: browsers pick the glyph shapes of Han characters by it"""
NUMBER_MARKS = {"en": (",", "."), "zh": (",", "."), "ja": (",", ".")}
"""language → (thousands separator, decimal mark)"""


def N_(message: str) -> str:
    """Marks an English message that is translated later (where it is shown), so tests/test_i18n.py finds it
    in the source like the messages of `tr(…)` calls."""
    return message


def check_language(lang: str) -> str:
    """`lang` if it is a report language, else InputError naming the choices."""
    if lang not in LANGUAGES:
        raise InputError(f"unknown report language {lang!r} (choose from {', '.join(LANGUAGES)})")
    return lang


def parse_languages(text: str) -> tuple[str, ...]:
    """A `--lang` value: one language or a comma-separated list (`en,zh,ja`), each once, in the given order."""
    langs = [part.strip() for part in text.split(",") if part.strip()]
    if not langs:
        raise InputError("--lang needs a language (choose from " + ", ".join(LANGUAGES) + ")")
    return tuple(dict.fromkeys(check_language(lang) for lang in langs))


@lru_cache(maxsize=None)
def catalog(lang: str) -> gettext.NullTranslations:
    """The gettext catalog of `lang` (NullTranslations for English: the messages are English)."""
    check_language(lang)
    if lang == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    from tsumolab.analyzer.package_files import catalog_path
    from tsumolab.analyzer.po import compile_mo, read_po

    path = catalog_path(lang)
    return gettext.GNUTranslations(io.BytesIO(compile_mo(read_po(path.read_text(encoding="utf-8"), str(path)))))


class Translator:
    """Messages and numbers in one language. `tr(message, **fields)` translates and fills a template,
    `tr.n(singular, plural, count, **fields)` picks the plural form, `tr.p(context, message)` translates a
    message whose English is ambiguous (a context of the catalog)."""

    def __init__(self, lang: str, messages: gettext.NullTranslations | None = None):
        self.lang = check_language(lang)
        self.messages = messages if messages is not None else catalog(lang)
        self.group, self.decimal = NUMBER_MARKS[lang]

    def __call__(self, message: str, **fields) -> str:
        text = self.messages.gettext(message)
        return text.format(**fields) if fields else text

    def n(self, singular: str, plural: str, count: int, **fields) -> str:
        return self.messages.ngettext(singular, plural, count).format(count=self.number(count), **fields)

    def p(self, context: str, message: str, **fields) -> str:
        text = self.messages.pgettext(context, message)
        return text.format(**fields) if fields else text

    @property
    def html_lang(self) -> str:
        return HTML_LANG[self.lang]

    # --- numbers ------------------------------------------------------------------------------------------

    def _marks(self, text: str) -> str:
        if (self.group, self.decimal) == (",", "."):
            return text
        return text.replace(",", "\0").replace(".", self.decimal).replace("\0", self.group)

    def number(self, x: float, digits: int = 0) -> str:
        """`x` with `digits` decimals and grouped thousands (n/a for a missing value)."""
        if x is None or (isinstance(x, float) and math.isnan(x)):
            return self("n/a")
        return self._marks(f"{x:,.{digits}f}")

    def signed(self, x: float, digits: int = 0) -> str:
        """Like `number`, with an explicit + or − sign."""
        if x is None or (isinstance(x, float) and math.isnan(x)):
            return self("n/a")
        return self._marks(f"{x:+,.{digits}f}")

    def percent(self, share: float, digits: int = 1) -> str:
        """A share 0..1 as a percentage."""
        if share is None or math.isnan(share):
            return self("n/a")
        return self._marks(f"{100 * share:.{digits}f}") + "%"


@lru_cache(maxsize=None)
def translator(lang: str = DEFAULT_LANGUAGE) -> Translator:
    return Translator(lang)
