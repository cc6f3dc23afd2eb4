"""Writers of simulated matches as game logs (issue 29): mjai, tenhou.net/6 and Mahjong Soul records, all from one
source (match_log.MatchLog, the replay's events cut into hands), each read back by its reader in analyzer.games.

    events, labels, _, _ = replay_match(spec, match_id)      # analyzer.replay.match
    text = write_game("majsoul", game_log(spec, match_id, events, labels))
"""

from __future__ import annotations

from tsumolab.analyzer.games.writers.match_log import (  # noqa: F401
    FORMATS, WRITTEN, MatchLog, check_format, game_log, match_log,
)


def write_game(fmt: str, log: MatchLog) -> str:
    """The match `log` as the text of a game log in format `fmt` (one of FORMATS); InputError (one line) for a
    mode the format does not hold."""
    from importlib import import_module

    if fmt not in FORMATS:
        raise ValueError(f"unknown game log format {fmt!r} (known: {', '.join(FORMATS)})")
    module = import_module(f"tsumolab.analyzer.games.writers.write_{fmt}")
    return getattr(module, f"write_{fmt}")(log)
