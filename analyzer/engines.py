"""The analysis layer's side of the engine-family interface (sims.family): per family, how a position is read
and rolled out, how its options are listed, how its event log is decoded and how its matches play under search.

`FamilyTools` is the contract; BloodshedTools and RiichiTools implement it (tests/test_families.py checks every
member and its signature). `tools_for(mode)` answers for a mode (slug or sims.modes.Mode) through its family; the
capabilities above (advise, decisions, replay, search, bench) ask it and never compare mode names.
"""

from __future__ import annotations

import functools
import json
from typing import Protocol

from tsumolab.analyzer.advise.riichi_view import VARIANTS as RIICHI_ADVISE_MODES
from tsumolab.sims.modes import MODES, get_mode


class FamilyTools(Protocol):
    """What the analysis layer asks of an engine family (every member a static method of the implementation)."""

    advise_modes: tuple[str, ...]
    """the modes whose hidden information the family's determinization deals"""

    def event_decoder(self):
        """The module decoding the event log (to_json_events, to_text, deltas_from_events)."""

    def search_matches(self, table, root_seed: int, match_ids, counters=None):
        """(hand_rows, match_rows) of `match_ids` played by the search table's seats (analyzer.search.play)."""

    def sampler(self, seats_spec: str, slug: str, rules: dict, deal: str = "progress"):
        """The determinizing sampler of the seats `seats_spec` under the mode's `rules` (advise's rollouts)."""

    def read_position(self, document: dict, deal: str = "progress"):
        """(state, deciding seat, sampler factory of a seats spec, decision name) of a position document."""

    def options(self, sampler, state) -> list[tuple[str, int]]:
        """The pending decision's options of a stopped state: (name, answer code)."""

    def stopped_state(self, slug: str, seats_spec: str, seed: int, rules: dict, match: int, hand: int,
                      decision: int):
        """The state before the `decision`-th decision of a hand of a simulated match, or None past its end."""

    def pending(self, sampler, state) -> tuple[int, int, int]:
        """(deciding seat, decision code, wall tiles left) of a stopped state."""

    def state_rollouts(self, sampler, state, seat: int, answers, seed: int, values, ranks) -> None:
        """Roll `answers` out from the true `state` (hidden tiles kept) into values/ranks[option, sample]."""

    def scan_decisions(self, slug: str, seats_spec: str, arms, seed: int, matches, rules: dict):
        """The situations of the decision claims `arms` (analyzer.decisions.scan.ClaimArms, all of mode
        `slug`) in `matches` of the field `seats_spec` under `rules`: at most one per claim and hand."""


class BloodshedTools:
    """Bloodshed: positions are state blocks (sims.bloodshed.state), the sampler analyzer.advise.bloodshed_sampler."""

    advise_modes = ("bloodshed",)

    @staticmethod
    def event_decoder():
        from tsumolab.analyzer.replay import bloodshed_events as replay

        return replay

    @staticmethod
    def search_matches(table, root_seed: int, match_ids, counters=None):
        from tsumolab.analyzer.search.bloodshed import play_matches

        return play_matches(table, root_seed, match_ids, counters)

    @staticmethod
    def sampler(seats_spec: str, slug: str, rules: dict, deal: str = "progress"):
        from tsumolab.analyzer.advise.bloodshed_sampler import Sampler

        return Sampler(seats_spec, rules, deal)

    @staticmethod
    def read_position(document: dict, deal: str = "progress"):
        from tsumolab.analyzer.advise.bloodshed_position import state_of

        state, seat = state_of(document)
        return state, seat, lambda spec: BloodshedTools.sampler(spec, "bloodshed", {}, deal), \
            document["decision"]["kind"]

    @staticmethod
    def options(sampler, state) -> list[tuple[str, int]]:
        from tsumolab.analyzer.advise.bloodshed_sampler import legal_options

        return legal_options(sampler, state)

    @staticmethod
    def stopped_state(slug: str, seats_spec: str, seed: int, rules: dict, match: int, hand: int, decision: int):
        from tsumolab.analyzer.advise.bloodshed_sampler import Sampler, stopped_state

        return stopped_state(Sampler(seats_spec, rules), seed, match, hand, decision)

    @staticmethod
    def pending(sampler, state) -> tuple[int, int, int]:
        from tsumolab.policies.api import BOBS
        from tsumolab.sims.bloodshed.resume import pending_decision
        from tsumolab.sims.bloodshed.state import ST

        return int(state[ST.pend_seat]), int(pending_decision(state)), int(state[ST.obs + BOBS.wall_left])

    @staticmethod
    def state_rollouts(sampler, state, seat: int, answers, seed: int, values, ranks) -> None:
        from tsumolab.analyzer.decisions.rollouts import bloodshed_state_rollouts

        bloodshed_state_rollouts(state, seat, answers, seed, 0, values.shape[1], *sampler.play_args(), values,
                                 ranks)

    @staticmethod
    def scan_decisions(slug: str, seats_spec: str, arms, seed: int, matches, rules: dict):
        from tsumolab.analyzer.decisions.scan import scan_bloodshed

        return scan_bloodshed(slug, seats_spec, arms, seed, matches, rules)


class RiichiTools:
    """The riichi family: positions are sims.riichi.positions.Position, the sampler analyzer.advise.riichi_sampler."""

    advise_modes = RIICHI_ADVISE_MODES

    @staticmethod
    def event_decoder():
        from tsumolab.analyzer.replay import riichi_events as replay_riichi

        return replay_riichi

    @staticmethod
    def search_matches(table, root_seed: int, match_ids, counters=None):
        from tsumolab.analyzer.search.riichi import play_matches

        return play_matches(table, root_seed, match_ids, counters)

    @staticmethod
    def sampler(seats_spec: str, slug: str, rules: dict, deal: str = "progress"):
        from tsumolab.analyzer.advise.riichi_sampler import RiichiSampler

        return RiichiSampler(seats_spec, slug, rules, deal)

    @staticmethod
    def read_position(document: dict, deal: str = "progress"):
        from tsumolab.analyzer.advise.evaluate import decision_name
        from tsumolab.analyzer.advise.riichi_position import build_position

        slug, seat, rules, position = build_position(document)
        return position, seat, lambda spec: RiichiTools.sampler(spec, slug, rules.as_dict(), deal), \
            decision_name(position.decision)

    @staticmethod
    def options(sampler, state) -> list[tuple[str, int]]:
        from tsumolab.analyzer.advise.riichi_sampler import riichi_options

        return riichi_options(sampler.pending_view(state), sampler.tables)

    @staticmethod
    def stopped_state(slug: str, seats_spec: str, seed: int, rules: dict, match: int, hand: int, decision: int):
        return riichi_engine(slug, seats_spec, seed, json.dumps(rules, sort_keys=True)).at_decision(match, hand,
                                                                                                  decision)

    @staticmethod
    def pending(sampler, state) -> tuple[int, int, int]:
        from tsumolab.sims.riichi.observation import ROBS

        return state.seat, int(state.decision), int(state.view[ROBS.wall_left])

    @staticmethod
    def state_rollouts(sampler, state, seat: int, answers, seed: int, values, ranks) -> None:
        from tsumolab.analyzer.decisions.rollouts import riichi_state_rollouts

        status = riichi_state_rollouts(state.play_state(), seat, answers, seed, 0, values.shape[1], sampler.seating,
                                       sampler.rule_arrays, sampler.public(state, seat)[1], values, ranks)
        if status < 0:
            raise RuntimeError("a forced answer was never asked for: the situation was not reached again")

    @staticmethod
    def scan_decisions(slug: str, seats_spec: str, arms, seed: int, matches, rules: dict):
        from tsumolab.analyzer.decisions.scan import scan_riichi

        return scan_riichi(riichi_engine(slug, seats_spec, seed, json.dumps(rules, sort_keys=True)), seats_spec,
                           arms, seed, matches)


@functools.lru_cache(maxsize=8)
def riichi_engine(slug: str, seats_spec: str, seed: int, rules_json: str):
    """The riichi engine of a field (seats spec) under a mode's rules (JSON), built once per field and reused; its
    positions keep their events where the mode's public tiles are read from them (sims.riichi.public_tiles: F's
    open tiles melded, OD's starting tiles, A's picks)."""
    from tsumolab.policies.registry import parse_seats
    from tsumolab.sims.riichi.positions import RiichiEngine

    rules = get_mode(slug).rules_class.from_dict(json.loads(rules_json))
    return RiichiEngine(parse_seats(seats_spec), rules, root_seed=seed,
                        keep_events=bool(rules.fate or rules.open_deal or rules.astrology))


_TOOLS: dict[str, type[FamilyTools]] = {"bloodshed": BloodshedTools, "riichi": RiichiTools}


def advise_modes() -> tuple[str, ...]:
    """The modes `advise` (and everything built on it) supports, in the order of the modes table."""
    return tuple(slug for slug in MODES if slug in tools_for(slug).advise_modes)


def tools_for(mode) -> type[FamilyTools]:
    """The tools of the family that plays `mode` (a slug or a sims.modes.Mode)."""
    return _TOOLS[(get_mode(mode) if isinstance(mode, str) else mode).family.name]
