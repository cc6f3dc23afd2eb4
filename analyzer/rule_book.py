"""The rules the engines apply, by rule id, and which ids make up each mode: the text `tsumolab rules MODE` prints.

The texts are read once from sims/RULES.md, the project's rules document (package data of `sims`; the code and
tests cite its ids). `MODE_RULES` lists per mode slug (sims.modes) its base rules (B for bloodshed, R for every
riichi-based mode) and its own rules (S for shura, one id for each other special mode). The module lives in
analyzer/, not sims/, because sims.compile_cache keys the numba cache by every Python source under sims/ and
policies/: editing the document (not a .py file) never recompiles a kernel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

from tsumolab.analyzer.game_names import mode_name


@dataclass(frozen=True)
class ModeRules:
    title: str
    """the mode's name in the game and in English"""
    base: tuple[str, ...]
    """rule ids the mode takes over from its base (B or R rules)"""
    own: tuple[str, ...]
    """the mode's own rule ids (S-1 … S-16 for shura; one id such as DF for the other special modes)"""

    @property
    def ids(self) -> tuple[str, ...]:
        return self.base + self.own


BLOODSHED_IDS = ("B-1", "B-2", "B-3", "B-4", "B-5", "B-6", "B-7", "B-8", "B-9", "B-10", "B-11", "B-12", "B-13",
                 "B-14", "B-15", "B-16", "B-17", "B-18", "B-19", "B-19a", "B-19b", "B-19c", "B-20", "B-21", "B-22",
                 "B-23", "B-24", "B-25")
RIICHI_IDS = tuple(f"R-{k}" for k in range(1, 7))
SHURA_IDS = tuple(f"S-{k}" for k in range(1, 17))

_OWN_RULES = {"bloodshed": (BLOODSHED_IDS, ()), "riichi": (RIICHI_IDS, ()), "shura": (RIICHI_IDS, SHURA_IDS),
              "dora-fever": (RIICHI_IDS, ("DF",)), "open-deal": (RIICHI_IDS, ("OD",)), "fate": (RIICHI_IDS, ("F",)),
              "chant": (RIICHI_IDS, ("C",)), "astrology": (RIICHI_IDS, ("A",)), "darkness": (RIICHI_IDS, ("D",)),
              "mirror": (RIICHI_IDS, ("M",)), "soul-strike": (RIICHI_IDS, ("SS",)), "fantasy": (RIICHI_IDS, ("FL",)),
              "dragon-eye": (RIICHI_IDS, ("DE",))}
_TITLE_NOTES = {"bloodshed": " (Sichuan bloodbath, 血战到底)", "shura": " (riichi bloodbath)"}
_TITLES = {"riichi": "standard Mahjong Soul 4-player East game (the control of the riichi modes)"}
"""a title that replaces the game's names"""


def _title(mode: str) -> str:
    """`tsumolab rules` title of a mode: its Chinese and English names (analyzer.game_names) and a note."""
    return _TITLES.get(mode) or f"{mode_name(mode, 'zh')} {mode_name(mode, 'en')}{_TITLE_NOTES.get(mode, '')}"


MODE_RULES = {mode: ModeRules(_title(mode), base, own) for mode, (base, own) in _OWN_RULES.items()}
"""mode slug → its title and rule ids, in the order `tsumolab rules` prints them"""

MODE_IDS = ("DF", "A", "D", "M", "F", "C", "SS", "FL", "DE", "OD")
"""the ids of the special riichi modes' own rules (one rule each)"""

_ID = re.compile(r"(?<![\w-])((?:B|R|S)-\d+[a-c]?)(?![\w-])|(?<![\w-])(DF|OD|SS|FL|DE|A|D|M|F|C)(?=[:;,)])")


def cited_ids(text: str) -> list[str]:
    """Rule ids cited in a text such as an option's docstring, in order, each once: hyphenated ids (R-2, S-7,
    B-19c) anywhere, a special mode's id (DF, A, …) when followed by ':', ';', ',' or ')' as in "(R-1; DF: 3)"."""
    found = [a or b for a, b in _ID.findall(text)]
    return list(dict.fromkeys(found))


RULES_DOCUMENT = ("tsumolab.sims", "RULES.md")
"""the rules document (package, file name): package data of `sims`, beside the engines that play it"""

_RULE_LINE = re.compile(r"^- \*\*(?P<id>[A-Z]+(?:-\d+[a-c]?)?)\*\* (?P<text>\S.*)$")


def rules_document() -> Traversable:
    """The rules document as the installed package holds it (read it with `.read_text(encoding="utf-8")`)."""
    package, name = RULES_DOCUMENT
    return files(package).joinpath(name)


def parse_rules(document: str) -> dict[str, str]:
    """rule id → text, from the lines `- **ID** text` of the rules document, in the document's order."""
    rules = {}
    for line in document.splitlines():
        match = _RULE_LINE.match(line)
        if match:
            if match["id"] in rules:
                raise ValueError(f"rule {match['id']} appears twice in {'/'.join(RULES_DOCUMENT)}")
            rules[match["id"]] = match["text"].strip()
    return rules


RULE_TEXT: dict[str, str] = parse_rules(rules_document().read_text(encoding="utf-8"))
"""rule id → its text, as sims/RULES.md words it"""


def unknown_ids(ids) -> list[str]:
    """The ids among `ids` that the rules document does not define, in order, each once."""
    return [rule_id for rule_id in dict.fromkeys(ids) if rule_id not in RULE_TEXT]
