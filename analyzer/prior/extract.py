"""Every own-turn discard of every seat of a real riichi game, as the observation the seat saw (sims.riichi
observation, ROBS) and the kind it discarded: the training data of the discard prior (analyzer.prior.train).

Each hand is replayed once through the engine with every tile known, from its log's full events (the readers'
GameRecord), up to the last draw; the observation of every turn on the way is kept. A turn is kept when the seat
is not in riichi and discards, with or without declaring riichi. The last turn of each hand, where the replay stops,
is not kept; nor are the hands the engine cannot replay."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tsumolab.analyzer.prior.answers import declares_riichi, discarded_kind
from tsumolab.sims.decisions import D_TURN
from tsumolab.sims.riichi.observation import ROBS

BASE = 608  # the observation's fields common to every riichi mode (the mode blocks start there)


@dataclass
class Discards:
    """views: int32[n, BASE], the observations; kinds: int8[n], the kind discarded; riichi: bool[n], declared
    with it; hands: int32[n], the hand's number in its game (1-based); seats: int8[n]."""

    views: np.ndarray
    kinds: np.ndarray
    riichi: np.ndarray
    hands: np.ndarray
    seats: np.ndarray

    def __len__(self) -> int:
        return len(self.kinds)


def game_discards(record) -> Discards:
    """The discards of every seat of a riichi-mode GameRecord (analyzer.games.record); hands the engine cannot
    replay are left out."""
    from tsumolab.analyzer.review.game_review import game_rules
    from tsumolab.sims.modes import get_mode

    rules = get_mode(record.variant).rules_class.from_dict(game_rules(record))
    views, kinds, riichi, hands, seats = [], [], [], [], []
    for number, events in enumerate(record.hands, start=1):
        for view, kind, declared in hand_discards(record, list(events), rules):
            views.append(view)
            kinds.append(kind)
            riichi.append(declared)
            hands.append(number)
            seats.append(int(view[ROBS.seat]))
    if not views:
        return Discards(np.zeros((0, BASE), np.int32), np.zeros(0, np.int8), np.zeros(0, bool),
                        np.zeros(0, np.int32), np.zeros(0, np.int8))
    return Discards(np.stack(views), np.array(kinds, np.int8), np.array(riichi, bool), np.array(hands, np.int32),
                    np.array(seats, np.int8))


def hand_discards(record, events: list[dict], rules) -> list[tuple[np.ndarray, int, bool]]:
    """(observation, kind discarded, riichi declared with it) of the kept turns of one hand, in play order; none
    when the engine cannot replay it."""
    from tsumolab.analyzer.advise.position_errors import NoDecision, PositionError
    from tsumolab.analyzer.advise.riichi_rebuild import rebuild
    from tsumolab.analyzer.advise.riichi_view import read_events

    draws = [i for i, e in enumerate(events) if e["type"] == "tsumo"]
    if not draws:
        return []
    last = draws[-1]
    seen: dict[int, tuple[np.ndarray, int, bool]] = {}  # decision number → (view, kind, riichi); a retry rewrites

    def watch(pos, answer):
        seat = int(pos.view[ROBS.seat])
        if pos.decision != D_TURN or pos.view[ROBS.riichi + seat]:
            return
        kind = discarded_kind(pos.view, answer)
        if kind >= 0:
            seen[pos.n_decisions] = (pos.view[:BASE].copy(), kind, declares_riichi(answer))

    try:
        log = read_events(events[:last + 1], record.variant, events[last]["actor"], "turn", dict(record.rules))
        rebuild(log, rules, watch)
    except NoDecision:  # the last draw is a riichi seat's, which has no turn to decide: the rest is seen
        pass
    except PositionError:
        return []
    return [seen[n] for n in sorted(seen)]


def logs_discards(paths: list[str], jobs: int = 1, progress=None) -> Discards:
    """The discards of every game of `paths`, in order. A file that cannot be read, or a game not of the riichi
    mode, is an InputError (one line naming it). `progress(done, total)` after each game."""
    from joblib import Parallel, delayed

    parts: list[Discards] = []
    if jobs > 1:
        runner = Parallel(n_jobs=jobs, return_as="generator")(delayed(path_discards)(p) for p in paths)
    else:
        runner = (path_discards(p) for p in paths)
    for done, part in enumerate(runner, start=1):
        parts.append(part)
        if progress is not None:
            progress(done, len(paths))
    return Discards(*(np.concatenate([getattr(p, name) for p in parts])
                      for name in ("views", "kinds", "riichi", "hands", "seats")))


def path_discards(path: str) -> Discards:
    """game_discards of the game log at `path`; InputError for a log that is not a riichi game."""
    from tsumolab.analyzer.errors import InputError
    from tsumolab.analyzer.games.read import read_game

    record = read_game(path)
    if record.variant != "riichi":
        raise InputError(f"{path}: a {record.variant} game; the discard prior learns from riichi games")
    return game_discards(record)
