"""The numba decorators of the engines' hot loops.

An engine step (`step`) runs without numba's reference counting of arrays. Each step receives some fifteen
arrays, and counting them on every call (an atomic increment and decrement each) cost the riichi engine a
quarter of its time. A step must allocate nothing and return no array.

numba passes the setting on to every function a step calls that does not choose its own, so a function that
allocates arrays is declared `allocates` (counted wherever it is called from), and one that returns a view of
its argument is declared `inline`: it becomes part of its caller and counts as the caller does. A mode's dispatch
point that takes the engine's argument groups (sims.riichi.bundles) and mostly only tests a rule flag is `inline`
too: called on every draw or discard, it would otherwise copy the groups in for a test that fails in most modes
(as calls, they made the riichi engine's steps a tenth slower).
"""

from __future__ import annotations

import numba as nb

step = nb.njit(cache=True, _nrt=False)
allocates = nb.njit(cache=True, _nrt=True)
inline = nb.njit(cache=True, inline="always")


@inline
def copy_row(dst, src):
    """dst[:] = src for 1-d arrays, element by element (a slice assignment from an array needs counting)."""
    for i in range(dst.size):
        dst[i] = src[i]
