"""One match re-simulated from its seed with its event log, decoded as JSON events (`tsumolab replay`, and
the example hands of reports)."""

from __future__ import annotations

import numpy as np

from tsumolab.analyzer.runs.spec import RunSpec


def decoder_for(variant: str):
    """Module decoding `variant`'s event log (to_json_events, to_text, deltas_from_events)."""
    from tsumolab.analyzer.engines import tools_for

    return tools_for(variant).event_decoder()


def replay_match(spec: RunSpec, match_id: int):
    """(JSON events, seat labels, hand_rows, match_rows) of match `match_id` of the run `spec`, re-simulated
    from its seed."""
    from tsumolab.analyzer.tables import mode_columns

    mode, rules = spec.mode, spec.rules
    hc = {c[0]: i for i, c in enumerate(mode_columns(mode, "hands"))}
    hand_rows, match_rows, events = mode.simulate_events(spec.seed, np.array([match_id]), spec.seats, rules)
    points_before = {}
    for row in hand_rows:
        points_before.setdefault((int(row[hc["match_id"]]), int(row[hc["hand"]])), [0] * 4)[
            int(row[hc["seat"]])] = int(row[hc["points_before"]])
    decoder = decoder_for(spec.variant)
    json_events = decoder.to_json_events(events, points_before)
    if hasattr(decoder, "wall_event"):
        json_events = with_walls(json_events, decoder, spec.seed, getattr(rules, "red_fives", True))
        _add_cards(json_events, hand_rows, hc)
    _add_rules(json_events, rules.as_dict(), mode.rules_class().as_dict())
    return json_events, list(spec.labels), hand_rows, match_rows


def _add_rules(events: list[dict], rules: dict, defaults: dict) -> None:
    """start_kyoku names the rule options (option → value) the match was played with that differ from the mode's
    defaults, if any, so that the log says which rules it follows."""
    changed = {key: value for key, value in rules.items() if defaults.get(key) != value}
    if not changed:
        return
    for event in events:
        if event["type"] == "start_kyoku":
            event["rules"] = changed


def with_walls(events: list[dict], decoder, seed: int, red_fives: bool) -> list[dict]:
    """`events` with a `wall` event after each start_kyoku (riichi-based modes): the hand's wall, which depends
    only on (seed, match, hand), so that the log alone determines the hand, dead wall included."""
    from tsumolab.sims.riichi.engine import shuffled_wall
    from tsumolab.sims.riichi.rules import N_TILES

    out = []
    wall = np.empty(N_TILES, np.int64)
    shown: dict = {}
    for event in events:
        if event["type"] == "candidate":  # astrology (A): the revealed copy, red five included
            event = dict(event, pai=_wall_name(shown, event["wall_index"]))
        out.append(event)
        if event["type"] == "start_kyoku":
            shuffled_wall(seed, event["match"], event["hand"], wall)
            shown = decoder.wall_event(wall, red_fives)
            out.append(shown)
    return out


def _wall_name(wall_event: dict, index: int) -> str:
    """Name of the tile at wall position `index` in a `wall` event (deal, live wall, then the dead wall)."""
    names = wall_event["deal"] + wall_event["live"] + wall_event["rinshan"]
    return names[index]


def _add_cards(events: list[dict], hand_rows: np.ndarray, hc: dict) -> None:
    """fantasy (FL): start_kyoku names the match's three cards (`cards`: dealer, chance, fate slugs)."""
    from tsumolab.sims.riichi.rules import FANTASY_DECKS, FANTASY_SLUGS

    if "card_dealer" not in hc:
        return
    codes = {(int(r[hc["match_id"]]), int(r[hc["hand"]])): [int(r[hc[f"card_{d}"]]) for d, _ in FANTASY_DECKS]
             for r in hand_rows}
    for event in events:
        if event["type"] == "start_kyoku":
            code = codes.get((event["match"], event["hand"]), [0, 0, 0])
            if any(code):
                event["cards"] = {deck: FANTASY_SLUGS[i][c - 1] for i, ((deck, _), c) in
                                  enumerate(zip(FANTASY_DECKS, code))}
