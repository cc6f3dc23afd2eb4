"""Registry of playable modes: slug → the module that simulates it.

A mode module exposes `RULES` (its rule-options dataclass), `simulate(root_seed, match_ids, seats, rules)`
returning (hand_rows, match_rows) int32 arrays laid out as its HAND_COLUMNS / MATCH_COLUMNS (sims.records when it
declares none), and `warm_up(seats)` which
compiles (or loads from cache) every kernel the seats need before workers fan out.
"""

from __future__ import annotations

import importlib

MODES = {"bloodshed": "sims.bloodshed", "riichi": "sims.riichi.standard", "shura": "sims.riichi.shura",
         "dora-fever": "sims.riichi.dora_fever", "open-deal": "sims.riichi.open_deal",
         "fate": "sims.riichi.fate", "chant": "sims.riichi.chant", "astrology": "sims.riichi.astrology",
         "darkness": "sims.riichi.darkness", "mirror": "sims.riichi.mirror", "soul-strike": "sims.riichi.soul_strike",
         "fantasy": "sims.riichi.fantasy", "dragon-eye": "sims.riichi.dragon_eye"}


def get_mode(slug: str):
    try:
        return importlib.import_module(MODES[slug])
    except KeyError:
        raise ValueError(f"unknown mode {slug!r}; available: {', '.join(sorted(MODES))}") from None
