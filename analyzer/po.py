"""GNU gettext catalogs: read a `.po` file and compile it to `.mo` bytes, which the standard library's
`gettext.GNUTranslations` loads.

The `.po` files are the source that translators edit (any PO editor or `msgfmt --check` works on them); they
ship in the package and are compiled in memory on first use, so no build step and no generated file can fall
out of date. Supported: `msgctxt`, `msgid_plural` / `msgstr[n]`, multi-line strings, the C escapes of PO
strings, and the `fuzzy` flag (fuzzy entries are left out, as msgfmt does).
"""

from __future__ import annotations

import ast
import struct
from dataclasses import dataclass, field

MO_MAGIC = 0x950412DE
CONTEXT_SEPARATOR = "\x04"


class PoError(ValueError):
    """A .po file that cannot be read: the message names the file line."""


@dataclass
class Entry:
    msgid: str
    msgstr: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr_plural: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def key(self) -> str:
        """The message's key in a .mo file (and in gettext's catalog): context EOT msgid."""
        return self.msgid if self.msgctxt is None else f"{self.msgctxt}{CONTEXT_SEPARATOR}{self.msgid}"

    @property
    def translated(self) -> bool:
        if self.msgid_plural is not None:
            return bool(self.msgstr_plural) and all(self.msgstr_plural.values())
        return bool(self.msgstr)


def _string(token: str, where: str) -> str:
    token = token.strip()
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        raise PoError(f"{where}: expected a quoted string, got {token[:40]!r}")
    try:
        return ast.literal_eval(token)  # PO strings use C escapes, a subset of Python's
    except (SyntaxError, ValueError) as exc:
        raise PoError(f"{where}: bad string {token[:40]!r}: {exc}") from None


def read_po(text: str, name: str = "<po>") -> list[Entry]:
    """The entries of a .po file's text, the header (msgid "") included, in file order."""
    entries: list[Entry] = []
    current: Entry | None = None
    keyword: str | None = None
    flags: set[str] = set()

    def finish():
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(text.splitlines(), start=1):
        where = f"{name}:{number}"
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if keyword is not None and current is not None and current.msgid is not None and keyword != "msgctxt":
                finish()
                keyword = None
            if line.startswith("#,"):
                flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            continue
        if line.startswith('"'):
            if current is None or keyword is None:
                raise PoError(f"{where}: a continued string outside an entry")
            _append(current, keyword, _string(line, where))
            continue
        word, _, rest = line.partition(" ")
        if word == "msgctxt" or (word == "msgid" and (keyword is None or keyword.startswith("msgstr"))):
            finish()
            current = Entry(msgid="", flags=flags, line=number)
            flags = set()
        if current is None:
            raise PoError(f"{where}: {word} before msgid")
        if word == "msgctxt":
            current.msgctxt = _string(rest, where)
        elif word == "msgid":
            current.msgid = _string(rest, where)
        elif word == "msgid_plural":
            current.msgid_plural = _string(rest, where)
        elif word == "msgstr":
            current.msgstr = _string(rest, where)
        elif word.startswith("msgstr[") and word.endswith("]"):
            current.msgstr_plural[int(word[7:-1])] = _string(rest, where)
        else:
            raise PoError(f"{where}: unknown keyword {word!r}")
        keyword = word
    finish()
    keys = [e.key for e in entries]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    if duplicates:
        raise PoError(f"{name}: duplicate message {duplicates[0][:60]!r}")
    return entries


def _append(entry: Entry, keyword: str, text: str) -> None:
    if keyword == "msgctxt":
        entry.msgctxt = (entry.msgctxt or "") + text
    elif keyword == "msgid":
        entry.msgid += text
    elif keyword == "msgid_plural":
        entry.msgid_plural = (entry.msgid_plural or "") + text
    elif keyword == "msgstr":
        entry.msgstr += text
    else:
        index = int(keyword[7:-1])
        entry.msgstr_plural[index] = entry.msgstr_plural.get(index, "") + text


def compile_mo(entries: list[Entry]) -> bytes:
    """The .mo bytes of the translated, non-fuzzy entries (the header always), keys sorted, no hash table."""
    pairs = {}
    for entry in entries:
        if "fuzzy" in entry.flags and entry.msgid:
            continue
        if entry.msgid_plural is not None:
            if not entry.translated:
                continue
            key = f"{entry.key}\0{entry.msgid_plural}"
            value = "\0".join(entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural))
        else:
            if not entry.msgstr:
                continue
            key, value = entry.key, entry.msgstr
        pairs[key.encode("utf-8")] = value.encode("utf-8")
    keys = sorted(pairs)
    header_size = 7 * 4
    originals_at = header_size
    translations_at = originals_at + 8 * len(keys)
    strings_at = translations_at + 8 * len(keys)
    originals, translations, blob = [], [], b""
    for key in keys:
        originals.append((len(key), strings_at + len(blob)))
        blob += key + b"\0"
    for key in keys:
        value = pairs[key]
        translations.append((len(value), strings_at + len(blob)))
        blob += value + b"\0"
    out = struct.pack("<7I", MO_MAGIC, 0, len(keys), originals_at, translations_at, 0, strings_at)
    out += b"".join(struct.pack("<2I", *pair) for pair in originals)
    out += b"".join(struct.pack("<2I", *pair) for pair in translations)
    return out + blob
