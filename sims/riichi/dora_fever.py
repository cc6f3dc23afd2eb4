"""`dora-fever` 宝牌狂热: the riichi engine with 3 dora indicators from the start and no renchan (RULES.md DF).

Mode module API (sims.modes): RULES, SLUG, HAND_COLUMNS / MATCH_COLUMNS, EVENT_FIELDS, simulate, simulate_events,
warm_up, lookup_tables.
"""

from __future__ import annotations

from sims.riichi.columns import HAND_COLUMNS, MATCH_COLUMNS  # noqa: F401
from sims.riichi.events import EVENT_FIELDS  # noqa: F401
from sims.riichi.mode_api import mode_functions
from sims.riichi.play import ROWS_PER_MATCH, lookup_tables  # noqa: F401
from sims.riichi.table import DoraFeverRules

RULES = DoraFeverRules
REPLAY = True  # `tsumolab replay` decodes this log with analyzer.replay_riichi
SLUG = "dora-fever"

warm_up, simulate, simulate_events = mode_functions(RULES)
