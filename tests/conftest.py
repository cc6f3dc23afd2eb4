"""Test session set-up and the helpers test files share (as fixtures, so no test file imports another).

Importing `sims` first configures the compiled-kernel cache before any test module imports numba.
"""

import pytest

import tsumolab.sims  # noqa: F401


@pytest.fixture(scope="session")
def riichi_checks():
    """The riichi-core checks (tests/riichi_checks.py), each taking a mode's slug, that every riichi-based
    mode's tests run on their own mode."""
    import tests.riichi_checks as checks

    return checks


@pytest.fixture(scope="session")
def win_value(riichi_checks):
    """(total, ron, tsumo_dealer, tsumo_other) payments of a win (han, fu, yakuman, dealer, tsumo) under the
    standard riichi rules (R-3)."""
    return riichi_checks.win_value


@pytest.fixture(scope="session")
def report_page():
    """Parse a rendered HTML report (tests/report_html.py): report_page(path) → its tags and section texts."""
    from tests.report_html import parse

    return parse


class TinyRun:
    """An undisturbed `tsumolab run` (Bloodshed, the kernels that load fastest) to damage copies of and compare
    repaired runs with, byte for byte."""

    def __init__(self, reference, args):
        self.reference, self.args = reference, list(args)

    def copy(self, where):
        import shutil

        shutil.copytree(self.reference, where)
        return where

    def assert_same(self, out) -> None:
        """The chunk files of `out` are those of the reference, byte for byte, and its record lists them alike."""
        import json

        def chunk_files(root):
            return sorted(p.relative_to(root).as_posix() for t in ("hands", "matches") for p in (root / t).iterdir())

        assert chunk_files(out) == chunk_files(self.reference)
        for name in chunk_files(out):
            assert (out / name).read_bytes() == (self.reference / name).read_bytes(), name
        record, expected = (json.loads((d / "run.json").read_text()) for d in (out, self.reference))
        assert record["files"] == expected["files"] and record["status"] == "complete"
        assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in self.reference.iterdir())


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    """A 40-match run in 4 chunks of 10 (tiny_run.args are its `tsumolab run` options, without --out)."""
    from tsumolab import api

    args = ["--matches", "40", "--chunk-size", "10", "--seed", "5"]
    reference = tmp_path_factory.mktemp("tiny") / "reference"
    api.simulate(api.run_spec(matches=40, seed=5, chunk_size=10), reference)
    return TinyRun(reference, args)


# --------------------------------------------------------------------------- scripted riichi hands
# Helpers of the scripted-scenario tests (tests/test_riichi_positions.py, tests/test_riichi_scenarios.py and the
# tests/test_mode_*.py files): a hand is started from a hand-built wall with sims.riichi.positions.RiichiEngine
# .start(wall=...) and played with RiichiRules.play_scripted(pos, choose), `choose` giving every answer.

RED_IDS = (16, 52, 88)  # tile ids of the red fives 0m 0p 0s


def _tile_kinds(text) -> list[int]:
    """Kinds of an `mpsz` string in the order written ("123m77z" → [0, 1, 2, 33, 33]); a list passes through."""
    if not isinstance(text, str):
        return [int(k) for k in text]
    out, pending = [], []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            pending.append(int(ch))
            continue
        suit = "mpsz".index(ch)
        assert pending and all(1 <= d <= (7 if suit == 3 else 9) for d in pending), text
        out += [9 * suit + d - 1 for d in pending]
        pending = []
    assert not pending, text
    return out


def _build_wall(hands, draws, seed: int = 0, at=None):
    """A 136-tile wall (tile ids) dealing `hands[seat]` (13 kinds each, as a list or an `mpsz` string; seat 0 is
    dealt first, so it is the dealer's hand when seat 0 deals) and then `draws` (kinds) from position 52 on;
    `at` = {wall position: kind} places single tiles anywhere else (the dead wall: replacement draws from 122,
    dora indicator i at 126 + 2 i, its ura at 127 + 2 i). Every other position holds the unused tiles in a
    fixed random order. Plain fives are used before the red one."""
    import numpy as np

    free = {k: [i for i in range(4 * k, 4 * k + 4) if i not in RED_IDS] + [i for i in RED_IDS if i // 4 == k]
            for k in range(34)}
    wall = np.full(136, -1, np.int64)
    for seat, hand in hands.items():
        kinds = _tile_kinds(hand)
        assert len(kinds) == 13, (seat, hand)
        for j, k in enumerate(kinds):
            wall[13 * seat + j] = free[k].pop(0)
    for j, k in enumerate(_tile_kinds(draws)):
        wall[52 + j] = free[k].pop(0)
    for at_pos, k in (at or {}).items():
        assert wall[at_pos] < 0, at_pos
        wall[at_pos] = free[k].pop(0)
    rest = [i for k in range(34) for i in free[k]]
    rest = list(np.random.default_rng(seed).permutation(rest))
    for p in range(136):
        if wall[p] < 0:
            wall[p] = rest.pop()
    return wall


def _default_answer(pos):
    """Scripted seats: discard the drawn tile (else the first kind held), never call, never win; a mode's own
    decision (A's pick, D's opening and locking) is left to the seat's policy (None), as before they were
    decisions."""
    from tsumolab.policies.riichi_api import D_DARK_LOCK, D_DARK_OPEN, D_PICK, D_TURN, PASS, ROBS

    view = pos.view
    if pos.decision in (D_PICK, D_DARK_OPEN, D_DARK_LOCK):
        return None
    if pos.decision == D_TURN:
        if view[ROBS.tile] >= 0:
            return int(view[ROBS.tile])
        forbidden = (view[ROBS.forbid_a], view[ROBS.forbid_b]) if view[ROBS.after_call] else ()
        return next(k for k in range(34) if view[ROBS.hand + k] > 0 and k not in forbidden)
    return PASS


EV_KIND, EV_SEAT, EV_TILE, EV_A = 2, 3, 4, 5  # columns of an event row (sims.events.log_event)


def _events_of(pos, kind, seat=None):
    """The rows of the position's event log of one kind (and seat)."""
    log = pos.logged()
    rows = log[log[:, EV_KIND] == kind]
    return rows if seat is None else rows[rows[:, EV_SEAT] == seat]


def _next_hand(pos) -> dict:
    """Where the match stands after a finished scripted hand: the next hand's dealer, round (0 = East 1), honba
    and riichi sticks on the table, as sims.riichi.engine.close_hand set them when the hand ended (R-2, R-5, S-7)."""
    from tsumolab.sims.riichi.hand_state import HS

    assert pos.over
    return {"dealer": int(pos.hs[HS.m_dealer]), "round": int(pos.hs[HS.m_round]), "honba": int(pos.hs[HS.m_honba]),
            "sticks": int(pos.hs[HS.m_sticks])}


@pytest.fixture(scope="session")
def tile_kinds():
    """tile_kinds("123m77z") → [0, 1, 2, 33, 33]: the kinds of an `mpsz` string in the order written."""
    return _tile_kinds


@pytest.fixture(scope="session")
def build_wall():
    """build_wall(hands, draws, seed=0, at=None) → a hand-built 136-tile wall for RiichiEngine.start(wall=...)."""
    return _build_wall


@pytest.fixture(scope="session")
def default_answer():
    """default_answer(pos): discard the drawn tile (else the first kind held), never call, never win (A's pick, D's
    open and lock decisions: the seat's policy)."""
    return _default_answer


@pytest.fixture(scope="session")
def events_of():
    """events_of(pos, kind, seat=None): the position's logged events of one kind (and seat)."""
    return _events_of


@pytest.fixture(scope="session")
def next_hand():
    """next_hand(pos) after a scripted hand's end → {dealer, round, honba, sticks} of the next hand."""
    return _next_hand
