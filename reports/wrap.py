"""Line breaking for the PDF's text blocks and table cells, in English, Chinese and Japanese.

Widths count columns: a wide (CJK) character takes two, as it does in a monospace layout. English breaks at
spaces; Chinese and Japanese may break between any two characters, except that a line never starts with closing
punctuation (、。，）」…) and never ends with opening punctuation (（「…), the basic line-breaking rule of both
languages (kinsoku). A word longer than the width is cut.
"""

from __future__ import annotations

import unicodedata

NO_LINE_START = set("、。，．・：；？！）」』】〕〉》’”ー々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ…%),.:;!?")
NO_LINE_END = set("（「『【〔〈《‘“([")


def char_width(char: str) -> int:
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    return sum(char_width(c) for c in text)


def _tokens(text: str) -> list[str]:
    """Unbreakable pieces: a run of narrow characters up to a space (the space kept on the left piece), or one
    wide character; closing punctuation sticks to the piece before it, opening punctuation to the one after."""
    pieces: list[str] = []
    word = ""
    for char in text:
        if char_width(char) == 2 or char == " ":
            if word:
                pieces.append(word)
                word = ""
            if char == " ":
                if pieces:
                    pieces[-1] += " "
                continue
            pieces.append(char)
        else:
            word += char
    if word:
        pieces.append(word)
    merged: list[str] = []
    for piece in pieces:
        if merged and (piece[0] in NO_LINE_START or merged[-1].rstrip()[-1:] in NO_LINE_END):
            merged[-1] += piece
        else:
            merged.append(piece)
    return merged


def wrap(text: str, width: int) -> list[str]:
    """The lines of one paragraph at most `width` columns wide (a longer unbreakable piece is cut)."""
    lines: list[str] = []
    line = ""
    for piece in _tokens(text):
        if line and display_width((line + piece).rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        while display_width(piece.rstrip()) > width:
            cut = ""
            for char in piece:
                if display_width(cut + char) > width:
                    break
                cut += char
            lines.append(cut)
            piece = piece[len(cut):]
        line += piece
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def fill(text: str, width: int) -> str:
    """`text` wrapped to `width` columns, each of its own lines (\\n) wrapped on its own."""
    return "\n".join("\n".join(wrap(part, width)) for part in text.split("\n"))


def cut(text: str, width: int) -> str:
    """`text` cut to at most `width` columns."""
    used = 0
    for i, char in enumerate(text):
        used += char_width(char)
        if used > width:
            return text[:i]
    return text
