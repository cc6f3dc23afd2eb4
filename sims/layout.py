"""Array layouts declared once: a list of (name, width, doc) fields becomes a table of offsets.

Compiled kernels keep state and observations in flat integer arrays. Writing offsets by hand lets two
layouts give one name different positions, and a kernel that imports the wrong one compiles and reads the
wrong slot. Here a layout is declared as fields in order and the offsets are computed:

    OBS = declare("RiichiObs", [("hand", 34, "own concealed tile counts"), ("seat", 1, "own seat 0..3")])
    OBS.hand, OBS.seat, OBS.SIZE   # 0, 34, 35: plain ints, usable inside @njit code (a global namedtuple)

`describe(OBS)` lists (name, offset, width, doc) for documentation and tests.
"""

from __future__ import annotations

from collections import namedtuple


def declare(title: str, fields: list[tuple[str, int, str]]):
    """Offsets of `fields` laid end to end, as a namedtuple instance with one more entry, SIZE."""
    names = [name for name, _, _ in fields]
    if len(set(names)) != len(names) or "SIZE" in names:
        raise ValueError(f"{title}: field names must be unique and not SIZE")
    offsets = []
    at = 0
    for name, width, _ in fields:
        if width < 1:
            raise ValueError(f"{title}.{name}: width must be at least 1")
        offsets.append(at)
        at += width
    layout_type = namedtuple(title, names + ["SIZE"])
    layout_type.fields_doc = tuple((name, offset, width, doc)
                                   for (name, width, doc), offset in zip(fields, offsets))
    return layout_type(*offsets, at)


def describe(layout) -> list[tuple[str, int, int, str]]:
    """(name, offset, width, doc) of every field of a layout made by `declare`."""
    return list(type(layout).fields_doc)
