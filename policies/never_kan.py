"""`never-kan` (claim B4, the other extreme): baseline that declares no kan at all (kan_mode = 0).
The B4 control itself is baseline, which kans when the hand keeps its shanten."""

from tsumolab.policies.api import hook
from tsumolab.policies.baseline import play_turn, react_to_discard
from tsumolab.policies.registry import Policy


@hook
def turn(obs, params, tables):
    return play_turn(obs, tables, 0, True)


@hook
def react(obs, params, tables):
    return react_to_discard(obs, tables, 0, 1)


POLICY = Policy(
    name="never-kan",
    description="Baseline, but never declares a kan (closed, added or open).",
    modes=("bloodshed",),
    claim="B4",
    hooks={"turn": turn, "react": react},
)
