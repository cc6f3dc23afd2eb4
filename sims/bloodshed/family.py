"""The Bloodshed engine as an engine family (sims.family)."""

from __future__ import annotations

from tsumolab.sims.bloodshed.columns import HAND_COLUMNS, MATCH_COLUMNS
from tsumolab.sims.bloodshed.play import ROWS_PER_MATCH, play
from tsumolab.sims.bloodshed.rules import START_POINTS
from tsumolab.sims.events import EVENT_FIELDS
from tsumolab.sims.family import EngineFamily

BLOODSHED = EngineFamily(
    name="bloodshed", hand_columns=HAND_COLUMNS, match_columns=MATCH_COLUMNS, event_fields=EVENT_FIELDS,
    rows_per_match=ROWS_PER_MATCH, points_unit=1000, play=play,
    start_points=lambda rules: START_POINTS,  # B-2: fixed, not an option
    engine_module="tsumolab.sims.bloodshed.engine")
