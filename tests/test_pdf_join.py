"""reports.pdf_join: PDF files joined page after page into one, each page as it was in its file."""

from __future__ import annotations

import io

import pytest
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from pypdf import PdfReader

from tsumolab.reports.pdf_join import PdfJoinError, join_pdfs
from tsumolab.reports.saving import PDF_METADATA


def _pdf(labels: list[str], size=(4, 3), title: str | None = None) -> bytes:
    """One page per label, the label written on it with a line and a marker (fonts, paths, an XObject)."""
    buffer = io.BytesIO()
    metadata = dict(PDF_METADATA, Title=title) if title else PDF_METADATA
    with PdfPages(buffer, metadata=metadata) as pages:
        for label in labels:
            fig = Figure(figsize=size)
            ax = fig.add_subplot()
            ax.plot([0, 1], [1, 0], marker="o", alpha=0.5)
            ax.set_xticks([])
            ax.set_yticks([])
            ax.set_title(label)
            pages.savefig(fig)
    return buffer.getvalue()


def _pages(data: bytes) -> list[tuple[str, tuple[float, ...], bytes]]:
    """(text, media box, content stream) of each page, every object reached through the file's own references."""
    reader = PdfReader(io.BytesIO(data), strict=True)
    return [(page.extract_text(), tuple(float(v) for v in page.mediabox), page.get_contents().get_data())
            for page in reader.pages]


def test_the_joined_file_holds_every_page_of_each_part_in_order_as_it_was_drawn():
    title = "Report (1 0 R) \\) stream"  # a string holding a reference, a parenthesis and a keyword
    parts = [_pdf(["first", "second"], title=title), _pdf(["third"], size=(5, 2)),
             _pdf(["fourth", "fifth", "sixth"])]
    joined = join_pdfs(parts)
    pages = _pages(joined)
    assert [text for text, _box, _content in pages] == ["first", "second", "third", "fourth", "fifth", "sixth"]
    assert pages == [page for part in parts for page in _pages(part)]
    reader = PdfReader(io.BytesIO(joined), strict=True)
    assert reader.metadata["/Title"] == title, "the first part's document information, intact"
    assert "/CreationDate" not in reader.metadata


def test_each_page_keeps_the_fonts_of_its_own_part():
    reader = PdfReader(io.BytesIO(join_pdfs([_pdf(["abc"]), _pdf(["xyz"])])), strict=True)
    fonts = [{ref.idnum: set(ref.get_object()["/CharProcs"]) for ref in page["/Resources"]["/Font"].values()}
             for page in reader.pages]
    assert not set(fonts[0]) & set(fonts[1]), "no font object shared between the parts"
    assert {"/a", "/b", "/c"} <= set().union(*fonts[0].values())
    assert {"/x", "/y", "/z"} <= set().union(*fonts[1].values())


def test_joining_the_same_parts_gives_the_same_bytes_and_one_part_is_its_own_pages():
    parts = [_pdf(["one"]), _pdf(["two"])]
    assert join_pdfs(parts) == join_pdfs(list(parts))
    single = _pdf(["one", "two"])
    assert _pages(join_pdfs([single])) == _pages(single)


def test_what_is_not_a_pdf_of_matplotlib_is_refused():
    with pytest.raises(PdfJoinError):
        join_pdfs([])
    with pytest.raises(PdfJoinError):
        join_pdfs([b"%PDF-1.4\nnot really"])
    damaged = bytearray(_pdf(["one"]))
    at = damaged.index(b"xref\n")
    damaged[at + 20:at + 40] = b"9" * 20  # the cross-reference table names offsets that hold no object
    with pytest.raises(PdfJoinError):
        join_pdfs([bytes(damaged)])
