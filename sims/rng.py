"""Keyed random streams: every wall depends only on (root seed, match id, hand number).

splitmix64 both mixes keys and generates the stream; the state lives in a one-element uint64 array so
compiled kernels can advance it in place. All functions are jit-compiled.
"""

import numba as nb
import numpy as np
from numba import types

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@nb.njit(cache=True)
def mix64(z):
    """splitmix64 finalizer of a uint64."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


# key_seed and below take explicit signatures: callers pass literal constants (purpose ids, 3, 4, 5), and
# numba would otherwise compile one specialization per literal.
@nb.njit(types.uint64(types.int64, types.int64, types.int64, types.int64), cache=True)
def key_seed(root_seed, a, b, c):
    """Seed of the stream keyed by (root seed, a, b, c), e.g. (match id, hand number, purpose)."""
    z = mix64(np.uint64(root_seed) + _GOLDEN)
    z = mix64(z ^ (np.uint64(a) + _GOLDEN))
    z = mix64(z ^ (np.uint64(b) + _GOLDEN * np.uint64(2)))
    return mix64(z ^ (np.uint64(c) + _GOLDEN * np.uint64(3)))


@nb.njit(cache=True)
def next_u64(state):
    """Advance the stream held in state[0] and return the next uint64."""
    state[0] += _GOLDEN
    return mix64(state[0])


@nb.njit(types.int64(types.uint64[::1], types.int64), cache=True)
def below(state, n):
    """Uniform integer in [0, n) from the stream (n ≤ 2**32; bias below 2**-32)."""
    return np.int64((next_u64(state) >> np.uint64(32)) * np.uint64(n) >> np.uint64(32))


@nb.njit(cache=True)
def shuffle(arr, state):
    """Fisher-Yates shuffle of arr in place."""
    for i in range(arr.size - 1, 0, -1):
        j = below(state, i + 1)
        arr[i], arr[j] = arr[j], arr[i]
