"""Open / lock choices for `darkness` (RULES.md D). Placeholder until the mode lands: never pay."""

import numba as nb


@nb.njit(cache=True)
def never_open(obs, tables):
    return 0


@nb.njit(cache=True)
def never_lock(obs, tables):
    return 0
