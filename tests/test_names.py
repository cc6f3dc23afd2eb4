"""Test names say what they test: `test_rule_<id>_…` tests a rule of RULES.md, `test_claim_<id>_…` a claim of
CLAIMS.md, and no test starts with a bare id, so `test_b1_` cannot mean rule B-1 in one file and claim B1 in
another. Ids are written lower case without the hyphen: B-19a → b19a, DF → df, claim S1 → s1."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tomllib

from tsumolab.analyzer.claims.experiment import EXPERIMENTS_DIR
from tsumolab.analyzer.rule_book import RULE_TEXT

TESTS = Path(__file__).resolve().parent


def _key(identifier: str) -> str:
    return identifier.replace("-", "").lower()


RULE_IDS = {_key(rule) for rule in RULE_TEXT}
CLAIM_IDS = {_key(tomllib.loads(path.read_text(encoding="utf-8"))["id"])
             for path in EXPERIMENTS_DIR.rglob("*.toml")}


def all_test_names():
    """(file, test name) of every test function in the suite."""
    return [(path.name, node.name) for path in sorted(TESTS.glob("test_*.py"))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]


def test_named_rule_and_claim_tests_cite_ids_that_exist():
    names = all_test_names()
    assert len(names) > 300 and {"b1", "r3", "s6", "df", "fl"} <= RULE_IDS and {"b1", "s1", "x1"} <= CLAIM_IDS
    wrong = []
    for file, name in names:
        kind, _, rest = name.removeprefix("test_").partition("_")
        if kind == "rule" and rest.split("_")[0] not in RULE_IDS:
            wrong.append((file, name, "no such rule"))
        if kind == "claim" and rest.split("_")[0] not in CLAIM_IDS:
            wrong.append((file, name, "no such claim"))
    assert wrong == []
    assert sum(name.startswith("test_rule_") for _, name in names) > 100
    assert sum(name.startswith("test_claim_") for _, name in names) >= 10


def test_no_test_starts_with_a_bare_rule_or_claim_id():
    """Single-letter mode ids (A, C, D, F, M) are left out: `test_a_…` reads as English."""
    first_word = re.compile(r"test_([a-z]+\d*[a-z]?)_")
    ids = {i for i in RULE_IDS | CLAIM_IDS if len(i) > 1}
    bare = [(file, name) for file, name in all_test_names() if (m := first_word.match(name)) and m.group(1) in ids]
    assert bare == []
    assert first_word.match("test_b19a_each_pattern").group(1) in ids  # the check can fail
