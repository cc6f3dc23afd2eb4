"""Test-only policies for `darkness` (RULES.md D), registered on demand by tests/test_mode_darkness.py.

- `test-dark-greedy`: baseline play that answers every own discard face down (FACE_DOWN + kind, also when it
  cannot pay: the engine must refuse it), and always says yes to opening and locking. So the thresholds of D
  and the turn-order rule for several openers can be read off the event log.
- `test-dark-spy`: baseline play whose turn and mode hooks check, on every decision, that the public blocks
  hold no face-down tile: Σ ROBS.discarded[p] = ROBS.n_discards[p] − face-down count[p] for every seat, and
  Σ ROBS.seen = visible discards + dora indicators + meld tiles − tiles called from rivers. On a breach it answers
  an illegal code, which the engine counts (CNT_ILLEGAL).
"""

from tsumolab.policies.api import hook
from tsumolab.policies.registry import Policy, get, register
from tsumolab.policies.riichi_api import D_DARK_LOCK, D_DARK_OPEN, D_TURN, FACE_DOWN, RIICHI, ROBS
from tsumolab.policies.riichi_baseline import riichi_turn
from tsumolab.policies.riichi_mode_default import mode_default
from tsumolab.sims import tiles
from tsumolab.sims.riichi.darkness_pot import DK_HIDDEN

BREACH = 999_999


@hook
def greedy_turn(obs, params, tables):
    answer = riichi_turn(obs, tables, True, True)
    if 0 <= answer < 34 or RIICHI <= answer < RIICHI + 34:
        return FACE_DOWN + answer
    return answer


@hook
def greedy_mode(obs, params, tables):
    if obs[ROBS.decision] == D_DARK_OPEN or obs[ROBS.decision] == D_DARK_LOCK:
        return 1
    return mode_default(obs, params, tables)


@hook
def spy_check(obs, params, tables):
    """1 when the public blocks are consistent with hidden face-down tiles, 0 on a breach."""
    visible = 0
    for p in range(4):
        row = 0
        for k in range(34):
            row += obs[ROBS.discarded + 34 * p + k]
        if row != obs[ROBS.n_discards + p] - obs[ROBS.darkness + DK_HIDDEN + p]:
            return 0
        visible += row
    meld_tiles = 0
    called = 0
    for p in range(4):
        for k in range(34):
            meld_tiles += obs[ROBS.meld_tiles + 34 * p + k]
        for i in range(obs[ROBS.n_melds + p]):
            if obs[ROBS.melds + 8 * p + 2 * i] != tiles.ANKAN + 1:
                called += 1
    seen = 0
    for k in range(34):
        seen += obs[ROBS.seen + k]
    return 1 if seen == visible + obs[ROBS.n_dora] + meld_tiles - called else 0


@hook
def spy_turn(obs, params, tables):
    if spy_check(obs, params, tables) == 0 and obs[ROBS.decision] == D_TURN:
        return BREACH
    return riichi_turn(obs, tables, True, True)


@hook
def spy_mode(obs, params, tables):
    if spy_check(obs, params, tables) == 0:
        return BREACH
    return mode_default(obs, params, tables)


def register_test_policies():
    try:
        get("test-dark-greedy")
        return
    except Exception:
        pass
    register(Policy(name="test-dark-greedy", description="test only: always face down, open, lock (D)", hooks={},
                    riichi_hooks={"turn": greedy_turn, "mode": greedy_mode}, modes=("darkness",)))
    register(Policy(name="test-dark-spy", description="test only: checks that face-down tiles stay hidden (D)",
                    hooks={}, riichi_hooks={"turn": spy_turn, "mode": spy_mode}, modes=("darkness",)))
