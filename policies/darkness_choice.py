"""Baseline open / lock choices for `darkness` (RULES.md D), asked through the "mode" hook
(policies.riichi_mode_default): mode-unaware play never pays 2000 to open another seat's face-down discard
(D_DARK_OPEN) nor 4000 to lock its own opened one (D_DARK_LOCK): it answers DARK_DECLINE. The baseline turn hook never
discards face down either (it never answers FACE_DOWN + kind). Mode-aware choices: policies.shadow_player.
"""

import numba as nb

from tsumolab.policies.riichi_api import DARK_DECLINE


@nb.njit(cache=True)
def never_open(obs, tables):
    """D_DARK_OPEN: never pay to open (jit-compiled)."""
    return DARK_DECLINE


@nb.njit(cache=True)
def never_lock(obs, tables):
    """D_DARK_LOCK: never pay to lock (jit-compiled)."""
    return DARK_DECLINE
