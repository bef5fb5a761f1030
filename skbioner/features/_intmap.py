"""Numba open-addressing hash tables over int64 keys.

Used to factorize and look up combined feature keys (n-grams,
conjunctions) in linear time instead of sorting them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._hashing import splitmix64

__all__ = ["IntIndex", "combine_keys", "factorize_int64", "lookup_int64"]

#: Mixed-radix keys are compressed before they would reach this bound.
KEY_LIMIT = 2**62


@njit(cache=True, nogil=True)
def _slot(k, mask):
    return np.int64(splitmix64(np.uint64(k)) & np.uint64(mask))


@njit(cache=True, nogil=True)
def _capacity(n):
    cap = 16
    while cap < 2 * n:
        cap *= 2
    return cap


@njit(cache=True, nogil=True)
def _factorize(keys):
    n = keys.shape[0]
    cap = _capacity(n)
    mask = cap - 1
    slots = np.full(cap, -1, dtype=np.int64)
    uniq = np.empty(n, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    inv = np.empty(n, dtype=np.int64)
    m = 0
    for i in range(n):
        k = keys[i]
        if k < 0:
            inv[i] = -1
            continue
        h = _slot(k, mask)
        while True:
            s = slots[h]
            if s == -1:
                slots[h] = m
                uniq[m] = k
                counts[m] = 1
                inv[i] = m
                m += 1
                break
            if uniq[s] == k:
                counts[s] += 1
                inv[i] = s
                break
            h = (h + 1) & mask
    return uniq[:m].copy(), counts[:m].copy(), inv


@njit(cache=True, nogil=True)
def _build(table_keys):
    n = table_keys.shape[0]
    cap = _capacity(n)
    mask = cap - 1
    slots = np.full(cap, -1, dtype=np.int64)
    for j in range(n):
        h = _slot(table_keys[j], mask)
        while slots[h] != -1:
            h = (h + 1) & mask
        slots[h] = j
    return slots


@njit(cache=True, nogil=True)
def _probe(slots, table_keys, queries):
    mask = slots.shape[0] - 1
    out = np.empty(queries.shape[0], dtype=np.int64)
    for i in range(queries.shape[0]):
        q = queries[i]
        out[i] = -1
        if q < 0:
            continue
        h = _slot(q, mask)
        while True:
            s = slots[h]
            if s == -1:
                break
            if table_keys[s] == q:
                out[i] = s
                break
            h = (h + 1) & mask
    return out


class IntIndex:
    """Hash index of distinct int64 keys: ``get(queries)`` gives their positions.

    Parameters
    ----------
    keys : ndarray of int64
        Distinct, non-negative keys.
    """

    def __init__(self, keys):
        self.keys = np.ascontiguousarray(keys, dtype=np.int64)
        self._slots = _build(self.keys)

    def get(self, queries):
        """Position of each query in ``keys``; -1 if absent (or negative)."""
        return _probe(self._slots, self.keys, np.ascontiguousarray(queries, dtype=np.int64))


def factorize_int64(keys):
    """Distinct non-negative keys, their counts, and each key's index.

    Parameters
    ----------
    keys : ndarray of int64
        Negative entries are ignored (index -1).

    Returns
    -------
    uniq : ndarray of int64
        Distinct keys in order of first occurrence.
    counts : ndarray of int64
    inverse : ndarray of int64
        ``uniq[inverse[i]] == keys[i]`` (or -1 for negative keys).
    """
    return _factorize(np.ascontiguousarray(keys, dtype=np.int64))


def lookup_int64(table_keys, queries):
    """Index of each query in ``table_keys`` (distinct keys), -1 if absent."""
    return IntIndex(table_keys).get(queries)


def combine_keys(parts, radices, stages, fit):
    """Mixed-radix keys of value-id arrays (-1 where any part is -1).

    When the next digit would overflow 62 bits the partial keys are replaced
    by their rank in a sorted table: built from the data (and appended to
    ``stages``) when ``fit``, read from ``stages`` otherwise.
    """
    key = parts[0].copy()
    span = radices[0]
    stage = 0
    for part, r in zip(parts[1:], radices[1:], strict=True):
        if span * r >= KEY_LIMIT:
            if fit:
                stages.append(np.unique(key[key >= 0]))
            table = stages[stage]
            stage += 1
            key = lookup_int64(table, key)
            span = max(len(table), 1)
        ok = (key >= 0) & (part >= 0)
        key = np.where(ok, key * r + part, -1)
        span *= r
    return key
