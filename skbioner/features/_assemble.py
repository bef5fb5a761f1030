"""Numba kernels that assemble per-block feature columns into one CSR matrix.

Every feature block hands over either a *table* (``src``, ``indptr``,
``cols``): token ``i`` gets the columns of table row ``src[i]`` (none if
``src[i] < 0``) — the rows are word types, annotation values or tokens —
or *direct* columns (``cols[i]``, one per token, none if negative).  Two
passes (count, then fill) write the CSR arrays without a Python loop over
tokens.  Kernels never modify their inputs except the output buffers.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numba import njit

__all__ = ["assemble"]


@njit(cache=True, nogil=True)
def _count_table(counts, src, indptr):
    for i in range(src.shape[0]):
        s = src[i]
        if s >= 0:
            counts[i] += indptr[s + 1] - indptr[s]


@njit(cache=True, nogil=True)
def _fill_table(indices, cursor, src, indptr, cols):
    for i in range(src.shape[0]):
        s = src[i]
        if s >= 0:
            p = cursor[i]
            for j in range(indptr[s], indptr[s + 1]):
                indices[p] = cols[j]
                p += 1
            cursor[i] = p


@njit(cache=True, nogil=True)
def _count_direct(counts, cols):
    for i in range(cols.shape[0]):
        if cols[i] >= 0:
            counts[i] += 1


@njit(cache=True, nogil=True)
def _fill_direct(indices, cursor, cols):
    for i in range(cols.shape[0]):
        c = cols[i]
        if c >= 0:
            indices[cursor[i]] = c
            cursor[i] += 1


@njit(cache=True, nogil=True)
def _sort_dedupe_rows(indptr, indices):
    """Sort each row's indices and drop repeats, compacting in place.

    Returns the new number of stored entries; ``indptr`` is rewritten.
    """
    out = 0
    start = indptr[0]
    for i in range(indptr.shape[0] - 1):
        end = indptr[i + 1]
        # insertion sort: rows are short (tens of entries)
        for a in range(start + 1, end):
            v = indices[a]
            b = a - 1
            while b >= start and indices[b] > v:
                indices[b + 1] = indices[b]
                b -= 1
            indices[b + 1] = v
        row_first = out
        for a in range(start, end):
            if out == row_first or indices[a] != indices[out - 1]:
                indices[out] = indices[a]
                out += 1
        indptr[i + 1] = out
        start = end
    return out


@njit(cache=True, nogil=True)
def _dedupe_rows_marker(indptr, indices, n_features):
    """Drop repeated indices within each row, keeping first occurrences in order.

    Linear time with an ``n_features`` int32 marker array (so at most
    2**31 - 1 rows); rows stay unsorted.
    Returns the new number of stored entries; ``indptr`` is rewritten.
    """
    last_row = np.full(n_features, -1, dtype=np.int32)
    out = 0
    start = indptr[0]
    for i in range(indptr.shape[0] - 1):
        end = indptr[i + 1]
        for a in range(start, end):
            c = indices[a]
            if last_row[c] != i:
                last_row[c] = i
                indices[out] = c
                out += 1
        indptr[i + 1] = out
        start = end
    return out


#: Largest ``n_features`` for which hashing-mode rows are deduplicated with a
#: marker array (linear time, rows left unsorted) rather than sorted.
MARKER_DEDUPE_MAX_FEATURES = 2**24


def assemble(n_rows, blocks, n_features, dtype=np.float32, dedupe=False):
    """Build the ``n_rows x n_features`` binary CSR matrix from feature blocks.

    Parameters
    ----------
    n_rows : int
        Number of tokens.
    blocks : list of tuple
        ``("table", src, indptr, cols)`` with ``src`` int64 of shape
        (n_rows,), ``indptr`` int64 and ``cols`` int32 (non-negative), or
        ``("direct", cols)`` with ``cols`` int32 of shape (n_rows,).
    n_features : int
    dtype : numpy dtype, default=float32
    dedupe : bool, default=False
        Merge repeated columns within a row (hashing collisions).  For
        ``n_features <= MARKER_DEDUPE_MAX_FEATURES`` this is linear and
        leaves the row's indices in block order (unsorted); above, rows are
        sorted.  Without it the blocks must already give sorted, distinct
        columns per row (vocabulary mode does).

    Returns
    -------
    scipy.sparse.csr_matrix
        Binary, without repeated indices; canonical (sorted indices) unless
        deduplicated with the marker array.
    """
    counts = np.zeros(n_rows, dtype=np.int64)
    for b in blocks:
        if b[0] == "table":
            _count_table(counts, b[1], b[2])
        else:
            _count_direct(counts, b[1])
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    del counts
    nnz = int(indptr[-1])
    indices = np.empty(nnz, dtype=np.int32)
    cursor = indptr[:-1].copy()
    for b in blocks:
        if b[0] == "table":
            _fill_table(indices, cursor, b[1], b[2], b[3])
        else:
            _fill_direct(indices, cursor, b[1])
    del cursor
    sorted_rows = True
    if dedupe and nnz:
        if n_features <= MARKER_DEDUPE_MAX_FEATURES and n_rows < 2**31 - 1:
            new_nnz = _dedupe_rows_marker(indptr, indices, n_features)
            sorted_rows = False
        else:
            new_nnz = _sort_dedupe_rows(indptr, indices)
        if new_nnz < nnz:
            indices = indices[:new_nnz].copy()
            nnz = new_nnz
    if nnz <= np.iinfo(np.int32).max:
        indptr = indptr.astype(np.int32)
    else:  # pragma: no cover - needs > 2**31 stored features
        indices = indices.astype(np.int64)
    data = np.ones(nnz, dtype=dtype)
    matrix = sp.csr_matrix((data, indices, indptr), shape=(n_rows, n_features), copy=False)
    if sorted_rows:
        matrix.has_sorted_indices = True
        matrix.has_canonical_format = True
    return matrix
