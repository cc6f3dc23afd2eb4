"""The riichi engine as an engine family (sims.family): every riichi-based mode plays on it."""

from __future__ import annotations

from tsumolab.sims.family import EngineFamily
from tsumolab.sims.riichi.columns import HAND_COLUMNS, MATCH_COLUMNS
from tsumolab.sims.riichi.events import EVENT_FIELDS
from tsumolab.sims.riichi.play import ROWS_PER_MATCH, play

RIICHI = EngineFamily(
    name="riichi", hand_columns=HAND_COLUMNS, match_columns=MATCH_COLUMNS, event_fields=EVENT_FIELDS,
    rows_per_match=ROWS_PER_MATCH, points_unit=100, play=play, start_points=lambda rules: rules.start_points,
    engine_module="tsumolab.sims.riichi.engine")
