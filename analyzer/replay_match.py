"""One match re-simulated from its seed with its event log, decoded as JSON events (`tsumolab replay`, and
the example hands of reports)."""

from __future__ import annotations

import numpy as np

from analyzer.errors import InputError


def decoder_for(variant: str):
    """Module decoding `variant`'s event log (to_json_events, to_text, deltas_from_events)."""
    from sims.modes import get_mode
    from sims.riichi.events import EVENT_FIELDS as RIICHI_FIELDS

    if getattr(get_mode(variant), "EVENT_FIELDS", None) is RIICHI_FIELDS:
        import analyzer.replay_riichi as decoder
    else:
        import analyzer.replay as decoder
    return decoder


def replay_match(variant: str, seed: int, match_id: int, seats_spec: str, rules: tuple[str, ...] = (),
                 policy_paths: tuple[str, ...] = ()):
    """(JSON events, seat labels, hand_rows, match_rows) of one match, re-simulated from its seed."""
    from analyzer.run_options import build_spec
    from analyzer.tables import mode_columns
    from sims.modes import get_mode

    spec = build_spec(variant, seats_spec, 1, seed, 1, rules, policy_paths)
    mode = get_mode(variant)
    if not hasattr(mode, "simulate_events") or not getattr(mode, "REPLAY", True):
        raise InputError(f"mode {variant!r} has no event log yet")
    from policies.registry import parse_seats

    hc = {c[0]: i for i, c in enumerate(mode_columns(mode, "hands"))}
    seats = parse_seats(",".join(spec.seats), policy_paths)
    hand_rows, match_rows, events = mode.simulate_events(seed, np.array([match_id]), seats,
                                                         mode.RULES.from_dict(spec.rules))
    points_before = {}
    for row in hand_rows:
        points_before.setdefault((int(row[hc["match_id"]]), int(row[hc["hand"]])), [0] * 4)[
            int(row[hc["seat"]])] = int(row[hc["points_before"]])
    return decoder_for(variant).to_json_events(events, points_before), list(spec.seats), hand_rows, match_rows
