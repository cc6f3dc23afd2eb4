"""What a riichi-family turn answer (policies.riichi_api) discards: shared by the prior's training data
(analyzer.prior.extract) and advise's use of the prior (analyzer.advise.policy_answer)."""

from __future__ import annotations

import numpy as np

from tsumolab.sims.decisions import RIICHI, TSUMOGIRI
from tsumolab.sims.riichi.observation import ROBS


def declares_riichi(answer: int) -> bool:
    """Is the turn answer a riichi declaration (RIICHI + kind, RIICHI + TSUMOGIRI)?"""
    return answer - RIICHI in range(34) or answer == RIICHI + TSUMOGIRI


def discarded_kind(view: np.ndarray, answer: int) -> int:
    """The kind a turn answer discards, or -1 for any other answer (tsumo, kan, nine terminals, face down)."""
    if declares_riichi(answer):
        answer -= RIICHI
    if answer == TSUMOGIRI:
        return int(view[ROBS.tile])
    return answer if 0 <= answer < 34 else -1
