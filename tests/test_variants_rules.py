"""`tsumolab variants` (every mode's options, read from the rules dataclasses) and `tsumolab rules MODE` (the rule
texts by id: B, R, S and the special modes' DF, A, D, M, F, C, SS, FL, DE, OD, with the options in effect)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys

import pytest
from click.testing import CliRunner

import tsumolab.commands.rules  # noqa: F401  (registers `rules`)
import tsumolab.commands.variants  # noqa: F401  (registers `variants`)
from tsumolab.cli import cli, main
from tsumolab.analyzer.mode_options import option_help, options
from tsumolab.analyzer.rule_book import MODE_IDS, MODE_RULES, RULE_TEXT, cited_ids
from tsumolab.sims.modes import MODES, get_mode
from tsumolab.sims.riichi.rules import RiichiRules


def invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def main_exit(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    captured = capsys.readouterr()
    return info.value.code, captured.out, captured.err


def test_variants_json_lists_every_registered_mode_with_its_options_and_defaults():
    listing = json.loads(invoke("variants", "--json"))
    assert [m["name"] for m in listing] == list(MODES)
    riichi = RiichiRules().as_dict()
    for mode in listing:
        cls = get_mode(mode["name"]).rules_class
        defaults = cls().as_dict()
        assert [o["name"] for o in mode["options"]] == [f.name for f in dataclasses.fields(cls)]
        for option in mode["options"]:
            assert set(option) >= {"name", "type", "default", "help", "rule_ids"}
            assert option["default"] == defaults[option["name"]]
            assert option["type"] == type(defaults[option["name"]]).__name__
            assert option["help"], f"{mode['name']}.{option['name']} has no attribute docstring"
        assert mode["rule_ids"] == list(MODE_RULES[mode["name"]].ids)
        if issubclass(cls, RiichiRules):
            expected = [k for k, v in defaults.items() if riichi[k] != v]
            assert mode["changed_from_riichi"] == expected
            assert all(o["riichi_default"] == riichi[o["name"]] for o in mode["options"])
        else:
            assert mode["changed_from_riichi"] is None
    by_name = {m["name"]: m for m in listing}
    assert by_name["riichi"]["changed_from_riichi"] == []
    assert set(by_name["dora-fever"]["changed_from_riichi"]) == {"initial_dora", "renchan"}  # DF
    assert {"mirror", "head_bump", "red_fives", "renchan"} <= set(by_name["mirror"]["changed_from_riichi"])  # M


def test_option_help_is_the_attribute_docstring_inherited_along_the_mro():
    helps = option_help(get_mode("shura").rules_class)  # ShuraRules redeclares renchan without a docstring
    assert helps["renchan"].startswith("The dealer keeps the deal on a win")
    assert "S-7" in helps["renchan"] and "\n" not in helps["renchan"]
    assert option_help(get_mode("bloodshed").rules_class)["tsumo_bonus"].startswith("B-19 tsumo reward")


def test_an_option_added_to_a_rules_class_is_listed_with_its_help(tmp_path):
    """What another helper's new option looks like: a field with a docstring in a RiichiRules subclass."""
    source = tmp_path / "new_mode_rules.py"
    source.write_text(
        "from dataclasses import dataclass\n"
        "from tsumolab.sims.riichi.rules import RiichiRules\n\n\n"
        "@dataclass(frozen=True)\n"
        "class NewRules(RiichiRules):\n"
        "    renchan: bool = False\n"
        "    pool_size: int = 3\n"
        '    """A: candidates in the pool,\n    refilled after every draw."""\n')
    spec = importlib.util.spec_from_file_location("new_mode_rules", source)
    module = importlib.util.module_from_spec(spec)
    sys.modules["new_mode_rules"] = module
    try:
        spec.loader.exec_module(module)
        listed = {o["name"]: o for o in options(module.NewRules)}
    finally:
        del sys.modules["new_mode_rules"]
    assert listed["pool_size"]["help"] == "A: candidates in the pool, refilled after every draw."
    assert listed["pool_size"]["rule_ids"] == ["A"] and listed["pool_size"]["changed"]
    assert listed["renchan"]["help"] == option_help(RiichiRules)["renchan"] and listed["renchan"]["changed"]
    assert not listed["honba"]["changed"]


def test_variants_text_shows_what_differs_from_riichi_and_full_lists_every_option():
    text = invoke("variants", "fate")
    assert text.startswith("fate — ")
    assert "start_points = 50000" in text and "renchan = false" in text and "fate = true" in text
    assert "kazoe_yakuman" not in text and "as riichi (--full lists them)" in text
    full = invoke("variants", "fate", "--full")
    assert all(f"    {f.name} (" in full for f in dataclasses.fields(get_mode("fate").rules_class))
    assert "start_points (int, default 50000; riichi 25000)" in full


def test_variants_unknown_mode_is_one_line_and_exit_2(capsys):
    code, _, err = main_exit(capsys, "variants", "no-such-mode")
    assert code == 2 and err.count("\n") == 1 and "no-such-mode" in err


def test_the_rule_book_has_the_rule_ids_of_every_registered_mode():
    assert set(MODE_RULES) == set(MODES)
    for slug, book in MODE_RULES.items():
        assert all(rule_id in RULE_TEXT and RULE_TEXT[rule_id] for rule_id in book.ids), slug
        assert len(set(book.ids)) == len(book.ids)
    assert MODE_RULES["bloodshed"].base[0] == "B-1" and "B-25" in MODE_RULES["bloodshed"].ids
    assert MODE_RULES["shura"].own == tuple(f"S-{k}" for k in range(1, 17))
    specials = [b.own[0] for s, b in MODE_RULES.items() if s not in ("bloodshed", "riichi", "shura")]
    assert sorted(specials) == sorted(MODE_IDS)
    # every id an option's help cites exists (a typo in a docstring would attach the option nowhere)
    for slug in MODES:
        for option in options(get_mode(slug).rules_class):
            assert all(rule_id in RULE_TEXT for rule_id in option["rule_ids"]), (slug, option["name"])


def test_cited_ids_reads_hyphenated_ids_and_mode_ids_before_punctuation():
    assert cited_ids("Dora indicators … up to 5 in all (R-1; DF: 3).") == ["R-1", "DF"]
    assert cited_ids("S-3: the hand goes on (with S-4, S-10 … S-13, S-15).") == ["S-3", "S-4", "S-10", "S-13", "S-15"]
    assert cited_ids("A player in riichi; D-day") == []  # capital words are not mode ids
    assert cited_ids("B-19c: 带幺九 stacks") == ["B-19c"]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_rules_prints_every_rule_id_of_the_mode_with_its_text(mode):
    text = invoke("rules", mode)
    lines = text.splitlines()
    assert lines[0].startswith(f"{mode} — ")
    for rule_id in MODE_RULES[mode].ids:
        first_words = " ".join(RULE_TEXT[rule_id].split()[:4])
        assert any(line.startswith(f"{rule_id} {first_words}") for line in lines), (mode, rule_id)
    other_base = "R-1" if mode == "bloodshed" else "B-1"
    assert not any(line.startswith(f"{other_base} ") for line in lines)


def test_rules_shows_the_options_in_effect_and_where_they_change_a_rule():
    described = json.loads(invoke("rules", "dora-fever", "--json"))
    rules = {r["id"]: r for r in described["rules"]}
    assert [r["id"] for r in described["rules"]] == [*(f"R-{k}" for k in range(1, 7)), "DF"]
    df = {o["name"]: o for o in rules["DF"]["options"]}
    assert df["initial_dora"]["value"] == 3 and df["initial_dora"]["riichi_default"] == 1  # DF: 3 indicators
    assert df["renchan"]["value"] is False and df["renchan"]["changed"]                     # DF: no renchan
    assert "renchan" in rules["R-2"]["changed_by"] and "initial_dora" in rules["R-1"]["changed_by"]
    assert rules["R-4"]["changed_by"] == []
    other = {o["name"] for o in described["other_options"]}
    assert {"bloodbath", "fate", "chant"} <= other and "renchan" not in other
    riichi = json.loads(invoke("rules", "riichi", "--json"))
    assert all(not r["changed_by"] for r in riichi["rules"])


def test_rules_with_rule_overrides_marks_them():
    described = json.loads(invoke("rules", "shura", "--rule", "noten_rule=each", "--json"))
    s6 = next(r for r in described["rules"] if r["id"] == "S-6")
    noten = next(o for o in s6["options"] if o["name"] == "noten_rule")
    assert noten["value"] == "each" and noten["default"] == "split" and noten["set_by_rule"]
    text = invoke("rules", "bloodshed", "--rule", "winners_to_end=1")
    assert "option winners_to_end = 1 (set by --rule; mode default 3)" in text
    assert "[changed by winners_to_end]" in text


def test_rules_bad_input_is_one_line_and_exit_2(capsys):
    for args in (("rules", "no-such-mode"), ("rules", "shura", "--rule", "no_such_option=1"),
                 ("rules", "riichi", "--rule", "renchan=maybe"), ("rules", "riichi", "--rule", "initial_dora=9")):
        code, out, err = main_exit(capsys, *args)
        assert code == 2 and out == "" and err.startswith("tsumolab: error:") and err.count("\n") == 1, args


def test_readme_lists_every_riichi_rule_option():
    """README "Riichi and Shura columns" has a row for every RiichiRules option with its standard value, so it
    cannot fall behind the code (what each mode sets is `tsumolab variants MODE`, read from the code)."""
    from dataclasses import fields
    from pathlib import Path

    from tsumolab.sims.riichi.rules import RiichiRules

    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    table = text.split("| option | `riichi` | meaning |", 1)[1].split("\n\n", 1)[0]
    rows = {line.split("|")[1].strip().strip("`"): line.split("|")[2].strip() for line in table.splitlines()
            if line.startswith("| `")}
    standard = RiichiRules()
    for f in fields(RiichiRules):
        value = getattr(standard, f.name)
        shown = json.dumps(value) if isinstance(value, bool) else f'"{value}"' if value == "" else str(value)
        assert rows.get(f.name) == f"`{shown}`", (f.name, rows.get(f.name))
