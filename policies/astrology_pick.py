"""Candidate choice for `astrology` (RULES.md A). Placeholder until the mode lands: the first candidate."""

import numba as nb


@nb.njit(cache=True)
def efficient_pick(obs, tables):
    return 0
