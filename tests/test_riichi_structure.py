"""How the riichi engine is put together: the special modes act only through sims.riichi.mode_phases, the
state block is documented field by field, no function is a wall of code, each mode packs its own options."""

from __future__ import annotations

import ast
import importlib.resources
import re

from sims.layout import describe
from sims.riichi import table as T
from sims.riichi.hand_state import HS

SPECIAL_MODES = ("FATE", "OPEN_DEAL", "CHANT", "ASTROLOGY", "DARKNESS", "MIRROR", "HEAD_BUMP", "SOUL_STRIKE",
                 "FANTASY", "DRAGON_EYE")
MODE_MODULES = ("astrology_pool", "chant_streaks", "darkness_pot", "deal_shown", "dragon_eye_holder", "fantasy_cards",
                "fate_tiles", "mirror_tiles", "soul_strike_turns")


def _source(module: str) -> str:
    return importlib.resources.files("sims.riichi").joinpath(f"{module}.py").read_text()


def test_engine_names_no_special_mode():
    """Every special mode (A, C, D, DE, F, FL, M, OD, SS) acts through sims.riichi.mode_phases: the engine
    body tests no mode option and imports no mode module."""
    engine = _source("engine")
    named = re.findall(r"T\.T_(" + "|".join(SPECIAL_MODES) + r")\b", engine)
    assert named == []
    for module in MODE_MODULES:
        assert f"sims.riichi.{module}" not in engine, module
    phases = _source("mode_phases")
    for module in MODE_MODULES:
        assert f"sims.riichi.{module}" in phases, module


def test_engine_functions_stay_short():
    """No function of the engine is longer than 150 lines (the whole hand was one 718-line function)."""
    tree = ast.parse(_source("engine"))
    lengths = {node.name: node.end_lineno - node.lineno + 1 for node in ast.walk(tree)
               if isinstance(node, ast.FunctionDef)}
    assert max(lengths.values()) <= 150, max(lengths.items(), key=lambda item: item[1])


def test_hand_state_fields_are_documented_and_laid_end_to_end():
    fields = describe(HS)
    assert all(doc.strip() for _, _, _, doc in fields)
    assert [offset for _, offset, _, _ in fields] == [sum(w for _, _, w, _ in fields[:i]) for i in range(len(fields))]
    assert HS.SIZE == sum(w for _, _, w, _ in fields)


def test_modes_pack_their_own_options():
    """FL and DE write their table slots themselves (sims.riichi.fantasy_cards / dragon_eye_holder), in the
    layout their kernels read."""
    from sims.riichi import fantasy_cards as F

    arr = T.FantasyRules(cards="hype,golden,hourglass", love_pot="discarder", hype_max=2,
                         confiscate_abortive=False).to_array()
    flags = arr[T.T_FANTASY]
    assert flags & F.FLB_ON and flags & F.FLB_LOVE_DISCARDER and not flags & F.FLB_CONFISCATE_ABORTIVE
    assert flags >> F.FLB_HYPE_SHIFT == 2
    assert list(arr[T.T_FANTASY + 1:T.T_FANTASY + 4]) == list(T.parse_fantasy_cards("hype,golden,hourglass"))
    assert list(T.STANDARD.to_array()[T.T_FANTASY:T.T_FANTASY + 4]) == [0, 0, 0, 0]
    eye = T.DragonEyeRules(eye_counter=3, eye_multiplier=4, eye_other_seat=True).to_array()
    assert list(eye[T.T_DRAGON_EYE:T.T_DRAGON_EYE + 4]) == [1, 3, 4, 1]
    assert T.AstrologyRules(astrology_floor=0).to_array()[T.T_ASTROLOGY] == 1
    assert T.STANDARD.to_array()[T.T_ASTROLOGY] == 0
