"""Stable 32-bit hashing of feature values and their arithmetic combination.

A feature's hash is built from the murmurhash3 of each *value string*
(computed once per distinct value) mixed with the hash of the feature's
template label (``"w[-1]"``, ``"w[-1]&w[0]"``) by a 64-bit finaliser, so a
conjunction costs one fused integer pass per part over the tokens and no
string is ever built or hashed per token.

The mixing function is part of the persisted model format (hashing-mode
columns must not change between versions); ``tests/features`` pins values.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from sklearn.utils import murmurhash3_32

__all__ = ["hash_strings", "mix", "mix_gather", "splitmix64"]


@njit(cache=True, nogil=True, inline="always")
def splitmix64(x):
    """The splitmix64 finaliser of a uint64: the suite's one integer hash mixer."""
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


@njit(cache=True, nogil=True, inline="always")
def _mix1(a, b):
    # (a, b) packed into 64 bits -> splitmix64 finaliser -> halves folded
    x = splitmix64((np.uint64(a) << np.uint64(32)) | np.uint64(b))
    return np.uint32((x >> np.uint64(32)) ^ (x & np.uint64(0xFFFFFFFF)))


@njit(cache=True, nogil=True)
def _mix_scalar(state, values, out):
    for i in range(values.shape[0]):
        out[i] = _mix1(state, values[i])


@njit(cache=True, nogil=True)
def _mix_gather(h, ids, value_hashes, valid):
    for i in range(ids.shape[0]):
        k = ids[i]
        if k < 0:
            valid[i] = False
        else:
            h[i] = _mix1(h[i], value_hashes[k])


def hash_strings(strings) -> np.ndarray:
    """Unsigned 32-bit murmurhash3 (seed 0) of each string, as a uint32 array."""
    strings = list(strings)
    return np.fromiter(
        (murmurhash3_32(s, 0, True) for s in strings), dtype=np.uint32, count=len(strings)
    )


def mix(state, values) -> np.ndarray:
    """Combine hashes: ``state`` with each of ``values``.

    The pair is packed into 64 bits and passed through the splitmix64
    finaliser; the two halves of the result are folded into 32 bits.  Not
    symmetric, so ``mix(mix(s, a), b) != mix(mix(s, b), a)``.

    Parameters
    ----------
    state : int
        A 32-bit hash (of a feature's template label).
    values : ndarray of uint32, shape (n,)

    Returns
    -------
    ndarray of uint32, shape (n,)
    """
    values = np.ascontiguousarray(values, dtype=np.uint32).reshape(-1)
    out = np.empty(values.shape[0], dtype=np.uint32)
    _mix_scalar(np.uint32(state), values, out)
    return out


def mix_gather(h, ids, value_hashes, valid):
    """In place: ``h[i] = mix(h[i], value_hashes[ids[i]])``; ``valid[i] = False`` if ``ids[i] < 0``.

    Parameters
    ----------
    h : ndarray of uint32, shape (n,)
        Running hashes, updated in place.
    ids : ndarray of int64, shape (n,)
    value_hashes : ndarray of uint32
    valid : ndarray of bool, shape (n,)
        Updated in place.
    """
    _mix_gather(h, ids, value_hashes, valid)
