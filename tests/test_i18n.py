"""Reports in English, Chinese and Japanese (issue 19): complete catalogs, one table of game names, the
--lang option, glyphs for every character, CJK line breaking, and rendered zh/ja reports with no English
message left in their text or figures."""

from __future__ import annotations

import gettext
import io
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from matplotlib import rc_context

from tsumolab.analyzer import game_names
from tsumolab.analyzer.i18n import LANGUAGES, Translator, catalog, parse_languages, translator
from tsumolab.analyzer.package_files import catalog_path
from tsumolab.analyzer.po import compile_mo, read_po
from tests.i18n_messages import CONTEXT_SEPARATOR, report_messages

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
FIELD = re.compile(r"\{(\w+)[^{}]*\}")


def _entries(lang: str):
    path = catalog_path(lang)
    return read_po(path.read_text(encoding="utf-8"), str(path))


class Recorder(gettext.NullTranslations):
    """English messages that remember every key looked up."""

    def __init__(self):
        super().__init__()
        self.singular: set[str] = set()
        self.plural: set[tuple[str, str]] = set()

    def gettext(self, message):
        self.singular.add(message)
        return message

    def pgettext(self, context, message):
        self.singular.add(f"{context}{CONTEXT_SEPARATOR}{message}")
        return message

    def ngettext(self, singular, plural, n):
        self.plural.add((singular, plural))
        return singular if n == 1 else plural


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    """A tiny B1 study (passes cheap rons: its example hand has a passed ron and a tsumo)."""
    from tsumolab.analyzer.claims.study import run_experiments, with_overrides
    from tsumolab.analyzer.claims.experiment import mode_experiments, select

    out = tmp_path_factory.mktemp("i18n-study")
    run_experiments(with_overrides(select(mode_experiments("bloodshed"), "B1"), 160, 3), out, jobs=1,
                    progress=False)
    return out


@pytest.fixture(scope="module")
def rendered(study):
    """The study's report in every language, and the messages the English one looked up."""
    from tsumolab.reports.html import render_html
    from tsumolab.reports.pdf import render_pdf
    from tsumolab.reports.render import find_examples, render_reports
    from tsumolab.reports.data import load_report_data
    from tsumolab.reports.fonts import font_rc

    data = load_report_data(study)
    examples = find_examples(data)
    render_reports(study, tuple(TRANSLATED), examples)  # English is rendered below, recording its messages
    recorder = Recorder()
    english = Translator("en", recorder)
    with rc_context(font_rc("en")):
        (study / "report.html").write_text(render_html(data, examples, english), encoding="utf-8")
        render_pdf(data, examples, study / "report.pdf", english)
    return data, examples, recorder


# --- catalogs ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_translates_every_message_of_the_code_and_the_data(lang):
    """A new sentence in the code (tr("…"), N_("…")), a new claim or policy description fails here until the
    catalog has it."""
    singular, plural = report_messages()
    entries = _entries(lang)
    have = {e.key for e in entries if e.translated and "fuzzy" not in e.flags and e.msgid_plural is None}
    have_plural = {(e.key, e.msgid_plural) for e in entries if e.translated and e.msgid_plural is not None}
    assert sorted(singular - have) == []
    assert sorted(plural - have_plural) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_keeps_the_fields_of_every_message(lang):
    for entry in _entries(lang):
        if not entry.msgid:
            continue
        expected = set(FIELD.findall(entry.msgid + (entry.msgid_plural or "")))
        for text in entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]:
            assert set(FIELD.findall(text)) == expected, f"{lang}: {entry.msgid[:60]!r}"


@pytest.mark.slow
def test_english_report_looks_up_only_catalogued_messages(rendered):
    """Rendering the English report records every message it uses; each catalog translates all of them."""
    _data, _examples, recorder = rendered
    assert len(recorder.singular) > 100 and recorder.plural
    for lang in TRANSLATED:
        messages = catalog(lang)
        missing = [m for m in recorder.singular
                   if (messages.pgettext(*m.split(CONTEXT_SEPARATOR)) if CONTEXT_SEPARATOR in m
                       else messages.gettext(m)) == m.split(CONTEXT_SEPARATOR)[-1] and _has_words(m)]
        missing += [s for s, p in recorder.plural if messages.ngettext(s, p, 2) in (s, p)]
        assert sorted(missing) == [], lang


def _has_words(message: str) -> bool:
    """Whether a message holds English words a translation must change (not "{a}: {b}" or a bare ", ")."""
    return bool(re.search(r"[A-Za-z]{2,}", FIELD.sub("", message.split(CONTEXT_SEPARATOR)[-1])))


def test_catalogs_compile_like_gnu_msgfmt(tmp_path):
    """analyzer.po compiles each catalog to the same messages as GNU msgfmt (when installed) would."""
    msgfmt = shutil.which("msgfmt")
    for lang in TRANSLATED:
        ours = gettext.GNUTranslations(io.BytesIO(compile_mo(_entries(lang))))
        assert ours.gettext("Summary") != "Summary"
        if msgfmt is None:
            continue
        mo = tmp_path / f"{lang}.mo"
        subprocess.run([msgfmt, "--check", "-o", str(mo), str(catalog_path(lang))], check=True,
                       capture_output=True)
        with mo.open("rb") as handle:
            gnu = gettext.GNUTranslations(handle)
        assert ours._catalog == gnu._catalog


def test_po_reader_handles_context_plurals_continuations_and_fuzzy():
    text = ('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n'
            '"Plural-Forms: nplurals=1; plural=0;\\n"\n\n'
            '#, fuzzy\nmsgid "old"\nmsgstr "alt"\n\n'
            'msgctxt "verdict"\nmsgid "supported"\nmsgstr "成立"\n\n'
            'msgid "{count} claim"\nmsgid_plural "{count} claims"\nmsgstr[0] "说法 {count} 个"\n\n'
            'msgid ""\n"two "\n"lines"\nmsgstr "两行\\n"\n')
    messages = gettext.GNUTranslations(io.BytesIO(compile_mo(read_po(text))))
    assert messages.gettext("old") == "old"  # fuzzy entries are left out
    assert messages.pgettext("verdict", "supported") == "成立"
    assert messages.ngettext("{count} claim", "{count} claims", 5) == "说法 {count} 个"
    assert messages.gettext("two lines") == "两行\n"


# --- names, numbers, glyphs, wrapping --------------------------------------------------------------------------

def test_one_table_names_every_mode_and_pattern_in_each_language():
    from tsumolab.sims.bloodshed.scoring import BONUSES, PATTERN_NAMES
    from tsumolab.sims.modes import MODES

    assert set(game_names.keys("mode")) == set(MODES)
    assert set(game_names.keys("pattern")) == set(PATTERN_NAMES)
    assert set(game_names.keys("bonus")) == set(BONUSES)
    assert [game_names.mode_name("bloodshed", lang) for lang in LANGUAGES] == [
        "Bloodshed Skirmish", "赤羽之战", "赤血の戦"]
    assert [game_names.pattern_name("清一色", lang) for lang in LANGUAGES] == ["Full Flush", "清一色", "清一色"]
    from tsumolab.analyzer.rule_book import MODE_RULES

    assert MODE_RULES["bloodshed"].title.startswith("赤羽之战 Bloodshed Skirmish")


def test_numbers_use_one_format_per_language():
    for lang in LANGUAGES:
        tr = translator(lang)
        assert tr.signed(-12345.6) == "-12,346" and tr.number(0.51234, 3) == "0.512"
        assert tr.percent(0.256) == "25.6%" and tr.signed(float("nan")) == tr("n/a")
    assert translator("zh")("n/a") == "无" and translator("ja")("n/a") == "なし"


def test_every_character_of_the_catalogs_and_names_has_a_glyph():
    """No box in any language: each character is in DejaVu Sans (Latin) or the CJK font, and the Chinese
    reports' derived font keeps the Chinese shapes of the characters it holds."""
    from matplotlib import font_manager

    from tsumolab.reports import fonts

    text = "".join(e.msgstr + "".join(e.msgstr_plural.values()) for lang in TRANSLATED for e in _entries(lang))
    text += "".join(name for names in game_names.NAMES.values() for name in names)
    latin = set(fonts.missing_glyphs(text, Path(font_manager.findfont(fonts.LATIN_FAMILY))))
    assert sorted(latin & set(fonts.missing_glyphs(text))) == []


def test_chinese_reports_use_the_chinese_glyph_shapes():
    """骨 and 直 differ between Chinese and Japanese type: the zh font subset maps them to other glyphs."""
    from fontTools.ttLib import TTFont

    from tsumolab.reports import fonts

    def glyphs(face):
        font = TTFont(io.BytesIO(fonts._subset(("骨", "直", "说"), face)))
        return [font.getBestCmap()[ord(c)] for c in "骨直说"]

    jp, sc = glyphs("jp"), glyphs("sc")
    assert jp[0] != sc[0] and jp[1] != sc[1] and jp[2] == sc[2]
    assert fonts.FACE_OF_LANGUAGE == {"en": "jp", "zh": "sc", "ja": "jp"}
    assert fonts.font_rc("zh")["font.family"][1] == fonts.SC_FAMILY
    assert fonts.missing_glyphs("骨直", fonts.sc_font_path()) == []


def test_cjk_lines_break_between_characters_but_not_before_closing_punctuation():
    from tsumolab.reports.wrap import display_width, fill, wrap

    lines = wrap("判定使用每场终局点数配对差的区间，校正范围为所有行。", 20)
    assert all(display_width(line) <= 20 for line in lines) and len(lines) == 3
    assert not any(line.startswith(("，", "。")) for line in lines)
    assert wrap("the quick brown fox", 10) == ["the quick", "brown fox"]
    assert fill("一二三\n四五", 4) == "一二\n三\n四五"


def test_lang_option_validates_and_names_each_file(study, tmp_path, capsys):
    from tests.cli_run import run_cli

    assert parse_languages("zh, ja,zh") == ("zh", "ja")
    code, _out, err = run_cli(["report", str(study), "--lang", "fr"], capsys)
    assert code == 2 and "fr" in err and err.count("\n") == 1
    code, out, err = run_cli(["claims", "--only", "B1", "--lang", "de", "--out", str(tmp_path)], capsys)
    assert code == 2 and not (tmp_path / "claims.parquet").exists()


# --- rendered reports -------------------------------------------------------------------------------------------

def _english_phrases() -> dict[str, list[str]]:
    """English text of each catalog message: its literal pieces between fields with two words or more."""
    phrases = {}
    for entry in _entries("zh"):
        if not entry.msgid or entry.msgctxt:
            continue
        pieces = [p.strip(" .,:;()") for p in FIELD.split(entry.msgid)[::2]]
        pieces = [p for p in pieces if len(re.findall(r"[A-Za-z]{2,}", p)) >= 2 and not re.search(r"[^\x00-\x7f]", p)]
        if pieces:
            phrases[entry.msgid] = pieces
    return phrases


WORD_LABELS = ("h1", "h2", "h3", "th", "figcaption", "summary", "dt", "cite", "li", "span")


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.chunks: list[tuple[str, str]] = []
        self.stack: list[str] = []
        self.skip = False

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        self.skip = self.skip or tag in ("style", "pre")

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop() == tag:
                break
        self.skip = any(t in ("style", "pre") for t in self.stack)

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.chunks.append((self.stack[-1] if self.stack else "", data.strip()))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_rendered_html_shows_no_untranslated_catalog_entry(rendered, study, lang):
    """Scan the zh and ja HTML: no English phrase of a catalog message in its text, no heading, table header,
    caption or label that is an English catalog entry, and the page declares its language."""
    page = (study / f"report.{lang}.html").read_text(encoding="utf-8")
    assert f'<html lang="{translator(lang).html_lang}">' in page
    parser = _Text()
    parser.feed(page)
    text = "\n".join(chunk for _tag, chunk in parser.chunks)
    left = [(msgid[:50], piece) for msgid, pieces in _english_phrases().items() for piece in pieces if piece in text]
    assert left == []
    words = {e.msgid for e in _entries(lang)
             if e.msgid and e.msgctxt is None and " " not in e.msgid and _has_words(e.msgid)}
    labels = [(tag, chunk) for tag, chunk in parser.chunks if tag in WORD_LABELS and chunk in words]
    assert labels == []
    assert "Summary" not in text and translator(lang)("Summary") in text


def _figure_texts(fig) -> list[str]:
    texts = [t.get_text() for t in fig.texts]
    for ax in fig.axes:
        texts += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        texts += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        texts += [t.get_text() for t in ax.texts]
        if ax.get_legend() is not None:
            texts += [t.get_text() for t in ax.get_legend().get_texts()]
        for table in ax.tables:
            texts += [cell.get_text().get_text() for cell in table.get_celld().values()]
    for legend in fig.legends:
        texts += [t.get_text() for t in legend.get_texts()]
    return [t for t in texts if t]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_figures_and_pdf_pages_have_no_english_left(rendered, lang):
    """Every title, axis label, tick label, legend entry, table cell and text of the HTML figures and the PDF
    pages in zh/ja: once the data's own identifiers (policy labels, fields, claim ids, parameters, paths, code
    version) are taken out, no English word remains."""
    from tsumolab.reports import content, pdf

    data, examples, _recorder = rendered
    tr = translator(lang)
    claim = data.claims[0]
    figures = [spec.build() for spec in content.summary_figures(data, tr=tr) + content.claim_figures(claim, tr)]
    figures += pdf.summary_pages(data, tr) + [pdf._claim_page(claim, examples.get(claim.id), tr)]
    allowed = _identifiers(data)
    left = set()
    for fig in figures:
        for text in _figure_texts(fig):
            for word in re.findall(r"[A-Za-z][A-Za-z_-]+", text):
                # event logs cut policy labels to 18 characters and table cells wrap them: a piece of an
                # identifier is one too
                if not any(word in name for name in allowed):
                    left.add((word, text[:60]))
    assert sorted(left) == []


def _identifiers(data) -> set[str]:
    """ASCII words the data name things with: policy labels and parameters, fields, claim ids, rule keys,
    file names, paths, the code version; plus tile names, Holm and tsumolab."""
    from tsumolab.reports import content

    raw = [str(data.directory), data.code_version, "Holm", "tsumolab", "alpha", "jobs", "loky", "dask", "toml",
           "extra", "true", "false", "HTML"]
    for claim in data.claims:
        e = claim.experiment
        raw += [e["id"], e["treatment"], e["control"], e.get("file", ""), *(f["label"] for f in e["fields"])]
        raw += [f"{k}={v}" for k, v in e["rules"].items()]
        raw += [c.policy for c in claim.cells] + [p for c in claim.cells for p in c.seats]
    raw += [" ".join(row[:2]) for row in content.policy_table(data).rows]
    return set(re.findall(r"[A-Za-z][A-Za-z_-]+", " ".join(raw)))


@pytest.mark.slow
@pytest.mark.parametrize("lang", TRANSLATED)
def test_translated_reports_render_to_the_same_bytes_twice(rendered, study, lang):
    from tsumolab.reports.render import render_report, report_names

    _data, examples, _recorder = rendered
    names = report_names(lang)
    first = [(study / name).read_bytes() for name in names]
    render_report(study, lang, examples)
    assert [(study / name).read_bytes() for name in names] == first


@pytest.mark.slow
def test_languages_rendered_in_parallel_show_the_same_numbers_and_every_figure(rendered, study, report_page):
    """Every language rendered at once by two processes: the same bytes as one by one, the same number in every
    numeric table cell, and each section's figures in each language."""
    from tsumolab.reports import content, sweeps
    from tsumolab.reports.render import render_reports, report_names

    data, examples, _recorder = rendered
    one_by_one = {lang: [(study / name).read_bytes() for name in report_names(lang)] for lang in TRANSLATED}
    render_reports(study, tuple(LANGUAGES), examples, jobs=2)
    assert {lang: [(study / name).read_bytes() for name in report_names(lang)] for lang in TRANSLATED} == one_by_one
    figures = {"summary": len(content.summary_figures(data))}
    figures.update({f"claim-{c.id}": len(content.claim_figures(c)) + len(sweeps.sweep_figures(c))
                    for c in data.claims})
    numbers = {}
    for lang in LANGUAGES:
        path = study / report_names(lang)[0]
        page = report_page(path)
        assert {section: len(page.section_imgs[section]) for section in figures} == figures, lang
        cells = re.findall(r'<td class="num">([^<]*)</td>', path.read_text(encoding="utf-8"))
        numbers[lang] = [re.findall(r"[-+−]?[\d,.]*\d", cell) for cell in cells]  # "n/a" is a word of each language
    assert numbers["en"] and all(numbers[lang] == numbers["en"] for lang in TRANSLATED)
