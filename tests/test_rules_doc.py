"""sims/RULES.md, the rules document: it ships in the `sims` package, defines every rule id the code and the tests
cite, and holds exactly the rules of the modes analyzer.rule_book lists, each with a text."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest

from tsumolab.analyzer.rule_book import (
    MODE_IDS, MODE_RULES, RULE_TEXT, cited_ids, parse_rules, rules_document, unknown_ids,
)

ROOT = Path(__file__).resolve().parent.parent
CITING = ("front", "analyzer", "sims", "policies", "reports", "tests")
CITING_SUFFIXES = (".py", ".toml", ".po", ".md")


def citations() -> dict[str, list[str]]:
    """rule id → the files (relative to the checkout) that cite it, over the sources of CITING but this one."""
    cited: dict[str, list[str]] = {}
    for folder in CITING:
        for path in sorted((ROOT / folder).rglob("*")):
            if (path.suffix in CITING_SUFFIXES and path.is_file() and "__pycache__" not in path.parts
                    and path != Path(__file__).resolve()):  # this file names invented ids on purpose
                for rule_id in cited_ids(path.read_text(encoding="utf-8")):
                    cited.setdefault(rule_id, []).append(path.relative_to(ROOT).as_posix())
    return cited


def test_the_document_is_package_data_of_sims():
    document = files("tsumolab.sims").joinpath("RULES.md")
    assert document.is_file()
    assert rules_document() == document
    assert parse_rules(document.read_text(encoding="utf-8")) == RULE_TEXT


def test_every_cited_rule_id_is_in_the_document():
    cited = citations()
    assert {"B-17", "B-19a", "R-3", "S-6", "DF", "SS"} <= set(cited)  # the scan reads the sources
    missing = {rule_id: cited[rule_id] for rule_id in unknown_ids(cited)}
    assert missing == {}


def test_an_invented_id_is_reported_missing():
    assert unknown_ids(["B-17", "B-26", "R-7", "S-6", "S-17", "B-19d", "XX", "B-26"]) == ["B-26", "R-7", "S-17",
                                                                                             "B-19d", "XX"]
    assert unknown_ids(cited_ids("a rule that does not exist (B-99; R-3)")) == ["B-99"]


def test_the_document_holds_exactly_the_rules_of_the_modes():
    listed = [rule_id for book in MODE_RULES.values() for rule_id in book.ids]
    assert set(RULE_TEXT) == set(listed)
    assert set(MODE_IDS) <= set(RULE_TEXT)


@pytest.mark.parametrize("mode", sorted(MODE_RULES))
def test_every_rule_of_a_mode_has_a_text(mode):
    for rule_id in MODE_RULES[mode].ids:
        assert len(RULE_TEXT[rule_id].split()) >= 3, rule_id
        assert not RULE_TEXT[rule_id].startswith(rule_id), rule_id


def test_the_parser_reads_rule_lines_only_and_refuses_a_repeated_id():
    text = "# title\n\n- **B-1** first rule.\nprose that names B-2\n- **DF** three indicators.\n- B-3 not a rule line\n"
    assert parse_rules(text) == {"B-1": "first rule.", "DF": "three indicators."}
    with pytest.raises(ValueError, match="B-1"):
        parse_rules("- **B-1** one.\n- **B-1** again.\n")


def test_each_mode_section_holds_its_own_rules():
    """The document has a `## slug` or `### slug` heading per mode, and each special mode's one rule sits under
    its heading (bloodshed's B rules under bloodshed, R under riichi, S under shura)."""
    section, where = None, {}
    for line in rules_document().read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            section = line.lstrip("#").split(" — ")[0].strip()
        rule = parse_rules(line)
        for rule_id in rule:
            where[rule_id] = section
    home = {"bloodshed": "bloodshed", "riichi": "riichi", "shura": "shura"}
    for mode, book in MODE_RULES.items():
        for rule_id in book.own or book.base:
            assert where[rule_id] == home.get(mode, mode), (mode, rule_id)
