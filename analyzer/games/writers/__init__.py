"""Writers of simulated matches as game logs (issue 29): mjai, tenhou.net/6 and Mahjong Soul records, all from one
source (match_log.MatchLog, the replay's events cut into hands), each read back by its reader in analyzer.games.

    events, labels, _, _ = replay_match(spec, match_id)      # analyzer.replay.match
    text = write_game("majsoul", game_log(spec, match_id, events, labels))
"""

from __future__ import annotations

from tsumolab.analyzer.games.writers.match_log import (  # noqa: F401
    FORMATS, WRITTEN, MatchLog, changed_rules, check_format, match_log,
)


def game_log(spec, match_id: int, events: list[dict], labels) -> MatchLog:
    """The MatchLog of the replay events `events` (analyzer.replay.match.replay_match, all or some hands) of match
    `match_id` of the run `spec` (analyzer.runs.spec.RunSpec): Bloodshed's by analyzer.games.writers.bloodshed_log,
    the riichi-based modes' by analyzer.games.writers.match_log."""
    if spec.variant == "bloodshed":
        from tsumolab.analyzer.games.writers.bloodshed_log import bloodshed_match_log

        return bloodshed_match_log(events, labels, changed_rules(spec),
                                   f"tsumolab bloodshed seed {spec.seed} match {match_id}")
    from tsumolab.analyzer.games.writers.match_log import game_log as riichi_game_log

    return riichi_game_log(spec, match_id, events, labels)


def write_game(fmt: str, log: MatchLog) -> str:
    """The match `log` as the text of a game log in format `fmt` (one of FORMATS); InputError (one line) for a
    mode the format does not hold."""
    from importlib import import_module

    if fmt not in FORMATS:
        raise ValueError(f"unknown game log format {fmt!r} (known: {', '.join(FORMATS)})")
    module = import_module(f"tsumolab.analyzer.games.writers.write_{fmt}")
    return getattr(module, f"write_{fmt}")(log)
