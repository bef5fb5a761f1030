"""Compiled Viterbi decoding for first-order linear chains.

Kernels are pure: they never write to their inputs.  Shapes are checked at
the Python boundary (:func:`viterbi`, :func:`viterbi_batch`), not inside the
compiled loops.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["viterbi", "viterbi_batch", "viterbi_csr", "sequence_score"]


@njit(cache=True, nogil=True)
def _viterbi_kernel(scores, trans, start, end, out):
    """Best path of one sentence; writes it to ``out`` and returns its score.

    scores : (n, L) emission scores; trans : (L, L) with trans[a, b] the
    score of label b following a; start, end : (L,).  -inf marks forbidden
    labels or transitions.
    """
    n, L = scores.shape
    if n == 0:
        return 0.0
    delta = np.empty(L)
    new = np.empty(L)
    back = np.empty((n, L), dtype=np.int32)
    for b in range(L):
        delta[b] = start[b] + scores[0, b]
    for i in range(1, n):
        for b in range(L):
            best = -np.inf
            arg = 0
            for a in range(L):
                v = delta[a] + trans[a, b]
                if v > best:
                    best = v
                    arg = a
            new[b] = best + scores[i, b]
            back[i, b] = arg
        for b in range(L):
            delta[b] = new[b]
    best = -np.inf
    arg = 0
    for b in range(L):
        v = delta[b] + end[b]
        if v > best:
            best = v
            arg = b
    out[n - 1] = arg
    for i in range(n - 1, 0, -1):
        arg = back[i, arg]
        out[i - 1] = arg
    return best


@njit(cache=True, nogil=True)
def _viterbi_batch_kernel(scores, offsets, trans, start, end, out):
    for s in range(len(offsets) - 1):
        a, b = offsets[s], offsets[s + 1]
        _viterbi_kernel(scores[a:b], trans, start, end, out[a:b])


@njit(cache=True, nogil=True, parallel=True)
def _viterbi_csr_kernel(indptr, indices, data, offsets, coef, trans, start, end, out):
    """Emission scores from CSR feature rows and Viterbi, sentences in parallel."""
    L = coef.shape[1]
    for s in prange(len(offsets) - 1):
        a = offsets[s]
        n = offsets[s + 1] - a
        if n == 0:
            continue
        scores = np.zeros((n, L))
        for i in range(n):
            for p in range(indptr[a + i], indptr[a + i + 1]):
                f = indices[p]
                v = np.float64(data[p])
                for lab in range(L):
                    scores[i, lab] += v * coef[f, lab]
        _viterbi_kernel(scores, trans, start, end, out[a:a + n])


def _check_chain(n_labels, trans, start, end):
    trans = np.asarray(trans, dtype=np.float64)
    start = np.asarray(start, dtype=np.float64)
    end = np.asarray(end, dtype=np.float64)
    if trans.shape != (n_labels, n_labels) or start.shape != (n_labels,) or end.shape != (
        n_labels,
    ):
        raise ValueError(
            f"chain shapes do not match {n_labels} labels: trans {trans.shape}, "
            f"start {start.shape}, end {end.shape}"
        )
    return trans, start, end


def viterbi(scores, trans, start, end):
    """Highest-scoring label sequence of one sentence.

    Parameters
    ----------
    scores : ndarray of shape (n_tokens, n_labels)
        Emission (state) scores.
    trans : ndarray of shape (n_labels, n_labels)
        ``trans[a, b]``: score of label ``b`` right after label ``a``;
        ``-inf`` forbids the transition.
    start, end : ndarray of shape (n_labels,)
        Scores of beginning / ending the sentence with each label.

    Returns
    -------
    path : ndarray of int32, shape (n_tokens,)
    score : float
    """
    scores = np.ascontiguousarray(scores, dtype=np.float64)
    if scores.ndim != 2:
        raise ValueError(f"scores must be 2D (n_tokens, n_labels), got shape {scores.shape}")
    trans, start, end = _check_chain(scores.shape[1], trans, start, end)
    out = np.zeros(scores.shape[0], dtype=np.int32)
    score = _viterbi_kernel(scores, trans, start, end, out)
    return out, score


def viterbi_batch(scores, offsets, trans, start, end):
    """Viterbi over many sentences stacked in one score matrix.

    Parameters
    ----------
    scores : ndarray of shape (n_tokens_total, n_labels)
    offsets : ndarray of int, shape (n_sentences + 1,)
        Sentence ``i`` occupies rows ``offsets[i]:offsets[i + 1]``.
    trans, start, end : as in :func:`viterbi`.

    Returns
    -------
    paths : ndarray of int32, shape (n_tokens_total,)
    """
    scores = np.ascontiguousarray(scores, dtype=np.float64)
    offsets = np.ascontiguousarray(offsets, dtype=np.int64)
    if scores.ndim != 2:
        raise ValueError(f"scores must be 2D, got shape {scores.shape}")
    if offsets.ndim != 1 or len(offsets) == 0 or offsets[0] != 0 or offsets[-1] != len(scores):
        raise ValueError("offsets must start at 0 and end at the number of score rows")
    if np.any(np.diff(offsets) < 0):
        raise ValueError("offsets must be non-decreasing")
    trans, start, end = _check_chain(scores.shape[1], trans, start, end)
    out = np.zeros(len(scores), dtype=np.int32)
    _viterbi_batch_kernel(scores, offsets, trans, start, end, out)
    return out


def viterbi_csr(matrix, offsets, coef, trans, start, end):
    """Viterbi over sentences whose emission scores are ``matrix @ coef``.

    Equivalent to ``viterbi_batch(matrix @ coef, offsets, ...)`` (same
    summation order), but fused and parallel over sentences: the score
    matrix is never materialised.

    Parameters
    ----------
    matrix : scipy.sparse.csr_matrix of shape (n_tokens_total, n_features)
    offsets : ndarray of int, shape (n_sentences + 1,)
    coef : ndarray of shape (n_features, n_labels)
    trans, start, end : as in :func:`viterbi`.
    """
    coef = np.ascontiguousarray(coef, dtype=np.float64)
    offsets = np.ascontiguousarray(offsets, dtype=np.int64)
    if matrix.shape[1] != coef.shape[0]:
        raise ValueError(f"matrix has {matrix.shape[1]} features, coef {coef.shape[0]}")
    if len(offsets) == 0 or offsets[0] != 0 or offsets[-1] != matrix.shape[0]:
        raise ValueError("offsets must start at 0 and end at the number of matrix rows")
    trans, start, end = _check_chain(coef.shape[1], trans, start, end)
    out = np.zeros(matrix.shape[0], dtype=np.int32)
    _viterbi_csr_kernel(matrix.indptr, matrix.indices, matrix.data, offsets, coef,
                        trans, start, end, out)
    return out


def sequence_score(scores, path, trans, start, end):
    """Score of a given label path (the objective :func:`viterbi` maximises)."""
    scores = np.asarray(scores, dtype=np.float64)
    path = np.asarray(path)
    if len(path) == 0:
        return 0.0
    s = start[path[0]] + end[path[-1]] + scores[np.arange(len(path)), path].sum()
    return float(s + np.sum(np.asarray(trans)[path[:-1], path[1:]]))
