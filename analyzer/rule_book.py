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
from tsumolab.sims.modes import MODES


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


_TITLE_NOTES = {"bloodshed": " (Sichuan bloodbath, 血战到底)", "shura": " (riichi bloodbath)"}
_TITLES = {"riichi": "standard Mahjong Soul 4-player East game (the control of the riichi modes)"}
"""a title that replaces the game's names"""


def _title(mode: str) -> str:
    """`tsumolab rules` title of a mode: its Chinese and English names (analyzer.game_names) and a note."""
    return _TITLES.get(mode) or f"{mode_name(mode, 'zh')} {mode_name(mode, 'en')}{_TITLE_NOTES.get(mode, '')}"



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


_DOCUMENT = rules_document().read_text(encoding="utf-8")
RULE_TEXT: dict[str, str] = parse_rules(_DOCUMENT)
"""rule id → its text, as sims/RULES.md words it"""


def section_ids(document: str) -> dict[str, tuple[str, ...]]:
    """mode slug → the ids of the rules under its heading (`## slug — …` or `### slug — …`), in order."""
    sections: dict[str, list[str]] = {}
    current = None
    for line in document.splitlines():
        if line.startswith("#"):
            word = line.lstrip("#").split()[0] if line.lstrip("#").strip() else ""
            current = word if word in MODES else None
            if current:
                sections.setdefault(current, [])
        elif current and (match := _RULE_LINE.match(line)):
            sections[current].append(match["id"])
    return {slug: tuple(ids) for slug, ids in sections.items()}


def _mode_rules() -> dict[str, ModeRules]:
    """Every mode's rules, in the order of the modes table: the section of its family's base mode (the B rules;
    the R rules of every riichi-based mode), then its own section of the document."""
    sections = section_ids(_DOCUMENT)
    rules = {}
    for slug, mode in MODES.items():
        base = sections[mode.family.name]
        rules[slug] = ModeRules(_title(slug), base, () if slug == mode.family.name else sections.get(slug, ()))
    return rules


MODE_RULES = _mode_rules()
"""mode slug → its title and rule ids, in the order `tsumolab rules` prints them"""

MODE_IDS = tuple(rule_id for slug, rules in MODE_RULES.items() if rules.base and len(rules.own) == 1
                 for rule_id in rules.own)
"""the ids of the special riichi modes' own rules (one rule each)"""


def unknown_ids(ids) -> list[str]:
    """The ids among `ids` that the rules document does not define, in order, each once."""
    return [rule_id for rule_id in dict.fromkeys(ids) if rule_id not in RULE_TEXT]
