"""How the riichi engine is put together: the state block is documented field by field, no function is a wall
of code, each mode packs its own options."""

from __future__ import annotations

import ast
import importlib.resources

from sims.layout import describe
from sims.riichi import table as T
from sims.riichi.hand_state import HS


def _source(module: str) -> str:
    return importlib.resources.files("sims.riichi").joinpath(f"{module}.py").read_text()


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
