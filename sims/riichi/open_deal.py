"""`open-deal` 配牌明牌 (RULES.md OD): standard riichi with every starting hand shown (the table option
`open_deal`, filled into the observation by sims.riichi.deal_shown).

Mode module API (sims.modes): RULES, SLUG, HAND_COLUMNS / MATCH_COLUMNS, EVENT_FIELDS, simulate, simulate_events,
warm_up, lookup_tables.
"""

from __future__ import annotations

from sims.riichi.columns import HAND_COLUMNS, MATCH_COLUMNS  # noqa: F401
from sims.riichi.events import EVENT_FIELDS  # noqa: F401
from sims.riichi.mode_api import mode_functions
from sims.riichi.play import ROWS_PER_MATCH, lookup_tables  # noqa: F401
from sims.riichi.table import OpenDealRules

RULES = OpenDealRules
REPLAY = True  # `tsumolab replay` decodes this log with analyzer.replay_riichi
SLUG = "open-deal"

warm_up, simulate, simulate_events = mode_functions(RULES)
