"""Reading a JSON document the user hands in (a file or stdin): every way it can be unreadable is one InputError."""

from __future__ import annotations

import json
import sys

from tsumolab.analyzer.errors import InputError


def read_json(source: str, what: str = "JSON") -> object:
    """The JSON document in file `source` ('-' = stdin); InputError names the file and what is wrong with it."""
    name = "stdin" if source == "-" else source
    try:
        if source == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(source, "rb") as f:
                data = f.read()
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror or exc}") from None
    return parse_json(data, name, what)


def parse_json(data: bytes, name: str, what: str = "JSON") -> object:
    try:
        return json.loads(data)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: invalid {what}: {exc}") from None
    except UnicodeDecodeError:
        raise InputError(f"{name}: invalid {what}: not UTF-8 text") from None
    except RecursionError:
        raise InputError(f"{name}: invalid {what}: nested too deeply") from None


def json_or_lines(text: str) -> object:
    """One JSON document, or JSON lines (one value a line, blank lines skipped) as a list; ValueError naming the
    first line that is not JSON."""
    text = text.strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    values = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                values.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ValueError(f"line {n} is not JSON: {exc.msg}") from None
    return values
