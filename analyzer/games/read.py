"""`read_game`: a game log file (or its bytes) → GameRecord, the format told by the document's shape."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

from tsumolab.analyzer.errors import os_error_text
from tsumolab.analyzer.games.record import GameError, GameRecord
from tsumolab.analyzer.games.tenhou_xml import is_mjlog
from tsumolab.analyzer.json_input import json_or_lines


def read_game(source: str | Path | bytes) -> GameRecord:
    """JSON, JSON lines, Tenhou's mjlog XML or their gzip → GameRecord: {"head", "data"} is Mahjong Soul, {"log"}
    tenhou.net/6, a list of events with a "type" mjai, `<mjloggm` an mjlog. GameError (one line) for anything
    else."""
    if isinstance(source, bytes):
        data, title = source, ""
    else:
        path = Path(source)
        title = path.name
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise GameError(f"cannot read {path}: {os_error_text(exc)}") from None
    data = gunzipped(data, title or "the game log")
    if is_mjlog(data):
        from tsumolab.analyzer.games.tenhou_xml import read_tenhou_xml

        return read_tenhou_xml(data, title)
    doc = load(data, title or "the game log")
    if isinstance(doc, dict) and "head" in doc and "data" in doc:
        from tsumolab.analyzer.games.majsoul import read_majsoul

        return read_majsoul(doc, title)
    if isinstance(doc, dict) and "log" in doc:
        from tsumolab.analyzer.games.tenhou6 import read_tenhou6

        return read_tenhou6(doc, title)
    if isinstance(doc, list) and doc and all(isinstance(e, dict) and "type" in e for e in doc):
        from tsumolab.analyzer.games.mjai import read_mjai

        return read_mjai(doc, title)
    shape = f"an object with keys {', '.join(sorted(doc)[:5])}" if isinstance(doc, dict) else type(doc).__name__
    raise GameError(f"not a game log: {title or 'the input'} is {shape}, not a Mahjong Soul record, a "
                    "tenhou.net/6 log, mjai events or a Tenhou mjlog")


def gunzipped(data: bytes, name: str) -> bytes:
    """`data`, decompressed when it is gzip."""
    if data[:2] != b"\x1f\x8b":
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise GameError(f"not a game log: {name} is a damaged gzip file ({exc})") from None


def load(data: bytes, name: str):
    """The JSON document (or the list of JSON lines) in `data`, gunzipped first when it is gzip."""
    data = gunzipped(data, name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GameError(f"not a game log: {name} is not UTF-8 text") from None
    try:
        return json_or_lines(text)
    except ValueError as exc:
        raise GameError(f"not a game log: {name} is neither JSON nor JSON lines ({exc})") from None
