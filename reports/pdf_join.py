"""Joining PDF files into one, page after page: a report's PDF is written in parts by several processes
(reports.pdf.pdf_parts) and the parts are joined here.

Each part keeps its own objects (fonts, graphics states, page contents); they are renumbered after the parts before
them, and the parts' pages are put under one page tree in order. The joined file holds one catalog, one page tree
and the first part's document information; it has no date or identifier of its own, so the same parts always join
to the same bytes. Only what matplotlib writes is read: a classic cross-reference table (no cross-reference or
object streams), a flat page tree, generation 0 everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WHITE = rb"\x00\t\n\x0c\r "
_REGULAR = rb"[^\x00\t\n\x0c\r ()<>\[\]{}/%]"
_TOKEN = re.compile(
    rb"(?P<space>[" + _WHITE + rb"]+)"
    rb"|(?P<comment>%[^\r\n]*)"
    rb"|(?P<string>\()"
    rb"|(?P<hex><(?!<)[^>]*>)"
    rb"|(?P<delimiter><<|>>|[\[\]{}])"
    rb"|(?P<ref>(?P<number>\d+)[" + _WHITE + rb"]+(?P<generation>\d+)[" + _WHITE + rb"]+R(?!" + _REGULAR + rb"))"
    rb"|(?P<name>/" + _REGULAR + rb"*)"
    rb"|(?P<word>" + _REGULAR + rb"+)")
_STARTXREF = re.compile(rb"startxref[" + _WHITE + rb"]+(\d+)[" + _WHITE + rb"]+%%EOF[" + _WHITE + rb"]*$")
_OBJECT_START = re.compile(rb"(\d+) (\d+) obj\r?\n?")
_OBJECT_END = re.compile(rb"endobj[" + _WHITE + rb"]*$")
_SUBSECTION = re.compile(rb"(\d+) (\d+)[" + _WHITE + rb"]+")
_XREF_ENTRY = re.compile(rb"(\d{10}) (\d{5}) ([nf])[" + _WHITE + rb"]{1,2}")


class PdfJoinError(ValueError):
    """A part is not a PDF file of the kind this module joins."""


@dataclass
class _Part:
    header: bytes
    """the file's first bytes, up to its first object (version line and binary comment)"""
    bodies: dict[int, bytes]
    """object number → what is between `N 0 obj` and `endobj`"""
    order: list[int]
    """object numbers in the order the file holds them"""
    catalog: int
    page_tree: int
    pages: list[int]
    info: int | None


def join_pdfs(parts: list[bytes]) -> bytes:
    """One PDF file with every page of `parts` (PDF files), in order."""
    if not parts:
        raise PdfJoinError("no PDF to join")
    read = [_read(part) for part in parts]
    numbers: list[dict[int, int]] = []
    next_number = 3  # 1: the catalog, 2: the page tree
    for part in read:
        own = {part.page_tree: 2}
        for number in part.order:
            if number not in (part.catalog, part.page_tree, part.info):
                own[number] = next_number
                next_number += 1
        numbers.append(own)
    first = read[0]
    info = next_number if first.info is not None else None
    kids = b" ".join(b"%d 0 R" % numbers[k][page] for k, part in enumerate(read) for page in part.pages)
    count = sum(len(part.pages) for part in read)
    out = bytearray(first.header)
    offsets: dict[int, int] = {}

    def write(number: int, body: bytes) -> None:
        offsets[number] = len(out)
        out.extend(b"%d 0 obj\n" % number)
        out.extend(body)
        if not body.endswith(b"\n"):
            out.extend(b"\n")
        out.extend(b"endobj\n")

    write(1, b"<< /Type /Catalog /Pages 2 0 R >>\n")
    write(2, b"<< /Type /Pages /Kids [ %s ] /Count %d >>\n" % (kids, count))
    for part, own in zip(read, numbers):
        for number in part.order:
            if number in own and number != part.page_tree:
                write(own[number], _renumbered(part.bodies[number], own))
    if info is not None:
        write(info, _renumbered(first.bodies[first.info], numbers[0]))
    size = (info or next_number - 1) + 1
    xref = len(out)
    out.extend(b"xref\n0 %d\n0000000000 65535 f \n" % size)
    for number in range(1, size):
        out.extend(b"%010d 00000 n \n" % offsets[number])
    info_entry = b" /Info %d 0 R" % info if info is not None else b""
    out.extend(b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (size, info_entry, xref))
    return bytes(out)


def _read(data: bytes) -> _Part:
    found = _STARTXREF.search(data, max(0, len(data) - 64))
    if not data.startswith(b"%PDF-") or found is None:
        raise PdfJoinError("not a PDF file with a cross-reference table at its end")
    xref = int(found.group(1))
    offsets, trailer = _xref(data, xref)
    starts = sorted((offset, number) for number, offset in offsets.items())
    bodies, order = {}, []
    for (start, number), (end, _next) in zip(starts, starts[1:] + [(xref, None)]):
        head = _OBJECT_START.match(data, start)
        tail = _OBJECT_END.search(data, start, end)
        if head is None or int(head.group(1)) != number or head.group(2) != b"0" or tail is None:
            raise PdfJoinError(f"object {number} is not where the cross-reference table puts it")
        bodies[number] = data[head.end():tail.start()]
        order.append(number)
    catalog = _ref_after(trailer, b"/Root")
    info = _ref_after(trailer, b"/Info") if b"/Info" in trailer else None
    page_tree = _ref_after(bodies[catalog], b"/Pages")
    tree = bodies[page_tree]
    kids = tree[tree.index(b"/Kids"):]
    pages = [int(number) for number in re.findall(rb"(\d+) 0 R", kids[:kids.index(b"]")])]
    if any(b"/Type /Page" not in bodies[page] or b"/Type /Pages" in bodies[page] for page in pages):
        raise PdfJoinError("the page tree is not flat")
    return _Part(data[:starts[0][0]], bodies, order, catalog, page_tree, pages, info)


def _xref(data: bytes, start: int) -> tuple[dict[int, int], bytes]:
    """(object number → offset of every object in use, the trailer dictionary) of the table at `start`."""
    if not data.startswith(b"xref", start):
        raise PdfJoinError("no cross-reference table where startxref points (a cross-reference stream?)")
    position = start + 4
    while data[position:position + 1] in (b"\r", b"\n", b" "):
        position += 1
    offsets: dict[int, int] = {}
    while (section := _SUBSECTION.match(data, position)) is not None:
        first, count = int(section.group(1)), int(section.group(2))
        position = section.end()
        for number in range(first, first + count):
            entry = _XREF_ENTRY.match(data, position)
            if entry is None:
                raise PdfJoinError(f"cannot read the cross-reference entry of object {number}")
            position = entry.end()
            if entry.group(3) == b"n":
                offsets[number] = int(entry.group(1))
    if not data.startswith(b"trailer", position):
        raise PdfJoinError("no trailer after the cross-reference table")
    return offsets, data[position:]


def _ref_after(text: bytes, key: bytes) -> int:
    found = re.search(re.escape(key) + rb"[" + _WHITE + rb"]+(\d+) 0 R", text)
    if found is None:
        raise PdfJoinError(f"no {key.decode()} reference")
    return int(found.group(1))


def _renumbered(body: bytes, numbers: dict[int, int]) -> bytes:
    """An object's body with every reference `N 0 R` of its dictionary or value renumbered; a stream's data (from
    the `stream` keyword on) is kept as it is."""
    if b"R" not in body:
        return body
    out = bytearray()
    position = 0
    while position < len(body):
        token = _TOKEN.match(body, position)
        if token is None:
            raise PdfJoinError(f"cannot read {body[position:position + 20]!r}")
        kind = token.lastgroup
        if kind == "string":
            end = _string_end(body, position)
            out.extend(body[position:end])
            position = end
            continue
        if kind == "ref":
            number = int(token.group("number"))
            if token.group("generation") != b"0" or number not in numbers:
                raise PdfJoinError(f"reference to an unknown object {number}")
            out.extend(b"%d 0 R" % numbers[number])
        elif kind == "word" and token.group() == b"stream":
            out.extend(body[position:])
            break
        else:
            out.extend(token.group())
        position = token.end()
    return bytes(out)


def _string_end(body: bytes, start: int) -> int:
    """Where the literal string opening at `start` ends (after its closing parenthesis)."""
    depth, position = 0, start
    while position < len(body):
        char = body[position]
        if char == 0x5C:  # backslash: the next byte is escaped
            position += 2
            continue
        if char == 0x28:
            depth += 1
        elif char == 0x29:
            depth -= 1
            if depth == 0:
                return position + 1
        position += 1
    raise PdfJoinError("a string is not closed")
