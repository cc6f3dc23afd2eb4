"""One match of a run re-simulated with its event log, named by the run's options as the tests write them."""

from tsumolab.analyzer.replay.match import replay_match
from tsumolab.analyzer.runs.options import build_spec


def replayed(variant: str, seed: int, match_id: int, seats: str = "baseline", rules=()):
    """`replay_match` of match `match_id` of the run (variant, seats, seed, rules)."""
    return replay_match(build_spec(variant, seats, match_id + 1, seed, 1, rules), match_id)
