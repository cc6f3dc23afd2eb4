"""The engine-family interface (sims.family) and the modes table (sims.modes): every mode is a rules class over
one family, and the analysis layer reaches each family's tools without naming a mode."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from tsumolab.analyzer.engines import BloodshedTools, FamilyTools, RiichiTools, tools_for
from tsumolab.sims.bloodshed.family import BLOODSHED
from tsumolab.sims.family import EngineFamily
from tsumolab.sims.modes import DEFAULT_MODE, MODES, get_mode
from tsumolab.sims.riichi.family import RIICHI

FAMILY_TOOLS = tuple(name for name, value in vars(FamilyTools).items()
                     if inspect.isfunction(value) and not name.startswith("_"))


def test_the_families_write_the_same_matches_columns():
    """sims.table_state.write_match_rows fills both families' `matches` rows, so their names must agree."""
    assert [c[0] for c in BLOODSHED.match_columns] == [c[0] for c in RIICHI.match_columns]


@pytest.mark.parametrize("family", [BLOODSHED, RIICHI], ids=lambda f: f.name)
def test_a_family_fills_every_field_of_the_interface(family):
    for f in dataclasses.fields(EngineFamily):
        assert getattr(family, f.name) is not None, f.name
    assert family.rows_per_match > 0 and family.points_unit in (100, 1000)


def test_every_mode_is_a_rules_class_over_a_family():
    assert DEFAULT_MODE in MODES and {m.family.name for m in MODES.values()} == {BLOODSHED.name, RIICHI.name}
    for slug, mode in MODES.items():
        assert mode.slug == slug and mode.family in (BLOODSHED, RIICHI)
        assert dataclasses.is_dataclass(mode.rules_class) and mode.public
        assert mode.family.start_points(mode.rules_class()) > 0


def test_start_points_come_from_the_family():
    """B-2: Bloodshed starts at a fixed 50,000; R-2: the riichi modes at their start_points option (DE: 40,000)."""
    assert get_mode("bloodshed").family.start_points(None) == 50_000
    assert get_mode("riichi").family.start_points(get_mode("riichi").rules_class()) == 25_000
    dragon_eye = get_mode("dragon-eye")
    assert dragon_eye.family.start_points(dragon_eye.rules_class()) == dragon_eye.rules_class().start_points


def test_unknown_modes_are_refused_with_the_list():
    with pytest.raises(ValueError, match="unknown mode 'nope'; available: astrology"):
        get_mode("nope")


@pytest.mark.parametrize("slug", sorted(MODES))
def test_every_mode_has_the_analysis_tools_of_its_family(slug):
    tools = tools_for(slug)
    assert tools is tools_for(get_mode(slug))
    for name in FAMILY_TOOLS:
        assert callable(getattr(tools, name)), name
    assert tools.event_decoder().to_json_events


@pytest.mark.parametrize("tools", [BloodshedTools, RiichiTools], ids=lambda t: t.__name__)
def test_each_family_implements_every_analysis_tool_with_its_signature(tools):
    """The analysis side of the interface: every member of FamilyTools, as a static method with the protocol's
    parameters (names, defaults) in its order."""
    assert len(FAMILY_TOOLS) == 9
    for name in FAMILY_TOOLS:
        wanted = list(inspect.signature(getattr(FamilyTools, name)).parameters.values())[1:]
        assert isinstance(inspect.getattr_static(tools, name), staticmethod), name
        got = list(inspect.signature(getattr(tools, name)).parameters.values())
        assert [(p.name, p.default) for p in got] == [(p.name, p.default) for p in wanted], name
    assert set(tools.advise_modes) <= set(MODES)
