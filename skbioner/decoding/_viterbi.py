"""The one compiled Viterbi of the suite, over three sources of per-token scores.

Every sequence model of skbioner ends in the same problem: per-token label
scores ``(n, L)``, a transition matrix ``(L, L)`` and start/end vectors, with
forbidden labels or transitions masked.  One kernel, :func:`_viterbi_one`,
solves it; thin drivers feed it the scores of many sentences in parallel
(blocks of sentences in threads, :mod:`._threads`) from

* a dense score matrix (HMM + calibrated SVM, pairwise-SVM probabilities):
  :func:`viterbi_batch`;
* sparse features times linear-chain weights, never materialised:
  :func:`viterbi_csr` (the chain models; with features conjoined with label
  pairs, :class:`LabelPairs`, the transitions also vary per token);
* observation ids looked up in a ``(V, L)`` table (the HMM-state clusterer):
  :func:`viterbi_ids`.

Kernels are pure: they never write to their inputs.  Shapes are checked at
the Python boundary, not in the compiled loops.  ``-inf`` (forbidden) is
accepted at the boundary and replaced by :data:`NEG`, a large finite
negative number, so the max-plus loop can be compiled with finite-math
flags (LLVM then vectorises it); a path through a forbidden transition can
only win when no allowed path exists.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ._threads import run_blocks

__all__ = ["NEG", "LabelPairs", "finite", "viterbi", "viterbi_batch", "viterbi_csr",
           "viterbi_ids", "sequence_score"]


class LabelPairs(NamedTuple):
    """Features conjoined with the label pair ``(y_{t-1}, y_t)``: per-token transition scores.

    ``rows`` (n_features,) int64: the row of ``coef`` of each feature, -1 for a
    feature without label-pair weights; ``index`` (L, L) int64: the column of
    ``coef`` of each label pair, -1 for a pair without weights; ``coef``
    (n_rows, n_pairs).  Token ``t`` adds ``x_t . coef[rows, index[a, b]]`` to
    the transition from ``a`` to ``b`` into it.
    """

    rows: np.ndarray
    index: np.ndarray
    coef: np.ndarray

#: Score that stands for -inf inside the kernels (finite, so sums stay ordered).
NEG = -1e200

# The max-plus loop may assume finite values (inputs are clipped to NEG at the
# boundary): LLVM then turns it into vmaxpd.
_FASTMATH = {"nnan", "ninf", "nsz"}


@njit(cache=True, nogil=True, fastmath=_FASTMATH)
def _max_plus(prev, trans, a, b):
    """``max_p prev[p] + trans[p, :]`` (returned in ``a`` or ``b``).

    The running maximum ping-pongs between two buffers so that every store is
    unconditional: ``x[s] = v if v > x[s] else x[s]`` in place compiles to
    masked stores, several times slower.
    """
    L = prev.shape[0]
    for s in range(L):
        a[s] = prev[0] + trans[0, s]
    for p in range(1, L):
        dp = prev[p]
        for s in range(L):
            v = dp + trans[p, s]
            c = a[s]
            b[s] = v if v > c else c
        a, b = b, a
    return a


@njit(cache=True, nogil=True, fastmath=_FASTMATH)
def _viterbi_rows(table, rows, trans, start, end, out, pair=None):
    """Best path of one sentence whose token ``t`` scores ``table[rows[t]]``.

    Writes the path to ``out`` and returns its score.  ``table`` (m, L),
    ``trans`` (L, L) with ``trans[a, b]`` the score of ``b`` right after
    ``a``, ``start`` and ``end`` (L,); all finite.  Ties go to the lowest
    label.  Back-pointers are recomputed on the best path only (L operations
    per token instead of L * L stored indices).  Reading rows through an
    index lets an HMM decode straight from its emission table.  ``pair``
    (n, L, L), if given, adds ``pair[t, a, b]`` to the transition into token
    ``t`` (label-pair features: a lattice whose transitions vary per token).
    """
    n = rows.shape[0]
    L = table.shape[1]
    if n == 0:
        return 0.0
    delta = np.empty((n, L))
    buf1 = np.empty(L)
    buf2 = np.empty(L)
    tbuf = np.empty((L, L)) if pair is not None else np.empty((0, 0))
    r = rows[0]
    for s in range(L):
        delta[0, s] = start[s] + table[r, s]
    for t in range(1, n):
        if pair is None:
            best = _max_plus(delta[t - 1], trans, buf1, buf2)
        else:
            for p in range(L):
                for s in range(L):
                    tbuf[p, s] = trans[p, s] + pair[t, p, s]
            best = _max_plus(delta[t - 1], tbuf, buf1, buf2)
        r = rows[t]
        for s in range(L):
            delta[t, s] = best[s] + table[r, s]
    arg = 0
    top = delta[n - 1, 0] + end[0]
    for s in range(1, L):
        v = delta[n - 1, s] + end[s]
        if v > top:
            top = v
            arg = s
    out[n - 1] = arg
    for t in range(n - 1, 0, -1):
        cur = out[t]
        arg = 0
        bv = delta[t - 1, 0] + trans[0, cur] + (0.0 if pair is None else pair[t, 0, cur])
        for p in range(1, L):
            v = delta[t - 1, p] + trans[p, cur] + (0.0 if pair is None else pair[t, p, cur])
            if v > bv:
                bv = v
                arg = p
        out[t - 1] = arg
    return top


@njit(cache=True, nogil=True)
def _viterbi_one(scores, trans, start, end, out, pair=None):
    """Best path of one sentence with dense ``scores`` (n, L); see :func:`_viterbi_rows`."""
    return _viterbi_rows(scores, np.arange(scores.shape[0]), trans, start, end, out, pair)


@njit(cache=True, nogil=True)
def _viterbi_dense_kernel(lo, hi, scores, offsets, trans, start, end, out, best):
    for s in range(lo, hi):
        a, b = offsets[s], offsets[s + 1]
        best[s] = _viterbi_one(scores[a:b], trans, start, end, out[a:b])


def weights(coef):
    """``coef`` as the compiled kernels read it: C-contiguous float32 or float64.

    Float32 weights (a shipped model's: :meth:`~skbioner.models.OnlinePACRF.sparsify`
    rounds them) are kept as they are, at half the memory traffic; every product is
    summed in float64 either way, so the scores are the same as with the weights cast
    to float64.  Anything else becomes float64.

    Parameters
    ----------
    coef : array-like of shape (n_features, n_labels)

    Returns
    -------
    ndarray of float32 or float64
    """
    coef = np.asarray(coef)
    if coef.dtype != np.float32:
        return np.ascontiguousarray(coef, dtype=np.float64)
    return np.ascontiguousarray(coef)


@njit(cache=True, nogil=True)
def csr_scores(indptr, indices, data, a, n, coef):
    """Scores ``(n, L)`` of CSR rows ``a:a + n`` times ``coef`` (float64 sums)."""
    L = coef.shape[1]
    scores = np.zeros((n, L))
    for i in range(n):
        for p in range(indptr[a + i], indptr[a + i + 1]):
            f = indices[p]
            v = np.float64(data[p])
            for lab in range(L):
                scores[i, lab] += v * np.float64(coef[f, lab])
    return scores


@njit(cache=True, nogil=True)
def pair_scores(indptr, indices, data, a, n, pairs, out):
    """``out[t, p, b]``: token ``a + t``'s score of the pair ``(p, b)`` (:class:`LabelPairs`).

    Row 0 (no preceding label) is zero.
    """
    L = pairs.index.shape[0]
    q = np.zeros(pairs.coef.shape[1])
    out[0, :, :] = 0.0
    for t in range(1, n):
        q[:] = 0.0
        for p in range(indptr[a + t], indptr[a + t + 1]):
            r = pairs.rows[indices[p]]
            if r >= 0:
                v = np.float64(data[p])
                for c in range(q.shape[0]):
                    q[c] += v * np.float64(pairs.coef[r, c])
        for i in range(L):
            for j in range(L):
                c = pairs.index[i, j]
                out[t, i, j] = q[c] if c >= 0 else 0.0


@njit(cache=True, nogil=True)
def _viterbi_csr_kernel(lo, hi, indptr, indices, data, offsets, coef, trans, start, end, out,
                        best, pairs=None):
    for s in range(lo, hi):
        a = offsets[s]
        n = offsets[s + 1] - a
        scores = csr_scores(indptr, indices, data, a, n, coef)
        if pairs is None:
            best[s] = _viterbi_one(scores, trans, start, end, out[a:a + n])
        else:
            q = np.empty((max(n, 1), trans.shape[0], trans.shape[0]))
            pair_scores(indptr, indices, data, a, n, pairs, q)
            best[s] = _viterbi_one(scores, trans, start, end, out[a:a + n], q)


@njit(cache=True, nogil=True)
def _viterbi_ids_kernel(lo, hi, ids, offsets, table, trans, start, end, out, best):
    for s in range(lo, hi):
        a, b = offsets[s], offsets[s + 1]
        best[s] = _viterbi_rows(table, ids[a:b], trans, start, end, out[a:b])


# ---------------------------------------------------------------------------
# Python boundary


def finite(x):
    """``x`` as a C-contiguous float64 array with ``-inf`` (and below) replaced by :data:`NEG`.

    NaN or ``+inf`` raise ``ValueError``: no decoder can order them.
    """
    x = np.ascontiguousarray(x, dtype=np.float64)
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("scores must not contain NaN or +inf")
    if x.size and x.min() < NEG:
        x = np.maximum(x, NEG)
    return x


def _check_chain(n_labels, trans, start, end):
    trans, start, end = finite(trans), finite(start), finite(end)
    if trans.shape != (n_labels, n_labels) or {start.shape, end.shape} != {(n_labels,)}:
        raise ValueError(
            f"chain shapes do not match {n_labels} labels: trans {trans.shape}, "
            f"start {start.shape}, end {end.shape}"
        )
    return trans, start, end


def check_problem(scores, offsets, trans, start, end):
    """A batch's chain checked at once: 2D :func:`finite` scores, offsets over their rows,
    and transitions, start and end of as many labels."""
    scores = finite(scores)
    if scores.ndim != 2:
        raise ValueError(f"scores must be 2D, got shape {scores.shape}")
    offsets = check_offsets(offsets, scores.shape[0])
    return (scores, offsets, *_check_chain(scores.shape[1], trans, start, end))


def check_offsets(offsets, n_rows):
    """``offsets`` as int64, checked to run non-decreasing from 0 to ``n_rows``."""
    offsets = np.ascontiguousarray(offsets, dtype=np.int64)
    if offsets.ndim != 1 or offsets.size == 0 or offsets[0] != 0 or offsets[-1] != n_rows:
        raise ValueError(f"offsets must run from 0 to the number of rows ({n_rows})")
    if np.any(np.diff(offsets) < 0):
        raise ValueError("offsets must be non-decreasing")
    return offsets


def viterbi(scores, trans, start, end, pair=None):
    """Highest-scoring label sequence of one sentence.

    Parameters
    ----------
    scores : ndarray of shape (n_tokens, n_labels)
        Per-token label scores (log-potentials).
    trans : ndarray of shape (n_labels, n_labels)
        ``trans[a, b]``: score of label ``b`` right after label ``a``;
        ``-inf`` forbids the transition.
    start, end : ndarray of shape (n_labels,)
        Scores of beginning / ending the sentence with each label.
    pair : ndarray of shape (n_tokens, n_labels, n_labels), optional
        ``pair[t, a, b]`` is added to ``trans[a, b]`` into token ``t``
        (``pair[0]`` is not used).

    Returns
    -------
    path : ndarray of int32, shape (n_tokens,)
        Ties go to the lowest label index.
    score : float
        Score of the path (:func:`sequence_score`, plus its pair scores).
    """
    scores = finite(scores)
    if scores.ndim != 2:
        raise ValueError(f"scores must be 2D (n_tokens, n_labels), got shape {scores.shape}")
    trans, start, end = _check_chain(scores.shape[1], trans, start, end)
    out = np.zeros(scores.shape[0], dtype=np.int32)
    if pair is not None:
        pair = finite(pair)
        if pair.shape != (scores.shape[0],) + trans.shape:
            raise ValueError(f"pair must have shape {(scores.shape[0],) + trans.shape}")
    return out, float(_viterbi_one(scores, trans, start, end, out, pair))


def viterbi_batch(scores, offsets, trans, start, end, *, return_scores=False):
    """Viterbi over many sentences stacked in one score matrix (in parallel).

    Parameters
    ----------
    scores : ndarray of shape (n_tokens_total, n_labels)
    offsets : ndarray of int, shape (n_sentences + 1,)
        Sentence ``i`` occupies rows ``offsets[i]:offsets[i + 1]``.
    trans, start, end : as in :func:`viterbi`.
    return_scores : bool, default=False
        Also return the score of each sentence's best path.

    Returns
    -------
    paths : ndarray of int32, shape (n_tokens_total,)
    best : ndarray of float64, shape (n_sentences,)
        Only with ``return_scores=True``.
    """
    scores, offsets, trans, start, end = check_problem(scores, offsets, trans, start, end)
    out = np.zeros(len(scores), dtype=np.int32)
    best = np.zeros(offsets.size - 1)
    run_blocks(_viterbi_dense_kernel, offsets, scores, offsets, trans, start, end, out, best)
    return (out, best) if return_scores else out


def viterbi_csr(matrix, offsets, coef, trans, start, end, pairs=None):
    """Viterbi over sentences whose label scores are ``matrix @ coef``.

    Equivalent to ``viterbi_batch(matrix @ coef, offsets, ...)`` (same
    summation order), but fused and parallel over sentences: the score matrix
    is never materialised.  The rows' column indices need not be sorted.
    With ``pairs``, the transition into each token also gets its label-pair
    score.

    Parameters
    ----------
    matrix : scipy.sparse.csr_matrix of shape (n_tokens_total, n_features)
    offsets : ndarray of int, shape (n_sentences + 1,)
    coef : ndarray of shape (n_features, n_labels)
        Finite weights (float32 ones are read as they are, see :func:`weights`).
    trans, start, end : as in :func:`viterbi`.
    pairs : LabelPairs, optional
        Features conjoined with label pairs (their ``coef`` finite).

    Returns
    -------
    paths : ndarray of int32, shape (n_tokens_total,)
    """
    coef = weights(coef)
    if matrix.format != "csr":
        raise TypeError(f"matrix must be CSR, got {matrix.format!r}")
    if matrix.shape[1] != coef.shape[0]:
        raise ValueError(f"matrix has {matrix.shape[1]} features, coef {coef.shape[0]}")
    offsets = check_offsets(offsets, matrix.shape[0])
    trans, start, end = _check_chain(coef.shape[1], trans, start, end)
    out = np.zeros(matrix.shape[0], dtype=np.int32)
    best = np.zeros(offsets.size - 1)
    if pairs is not None:
        if pairs.rows.shape != (coef.shape[0],) or pairs.index.shape != trans.shape:
            raise ValueError("pairs do not match the chain's features or labels")
        pairs = LabelPairs(np.ascontiguousarray(pairs.rows, dtype=np.int64),
                           np.ascontiguousarray(pairs.index, dtype=np.int64),
                           weights(pairs.coef))
    run_blocks(_viterbi_csr_kernel, offsets, matrix.indptr, matrix.indices, matrix.data,
               offsets, coef, trans, start, end, out, best, pairs)
    return out


def viterbi_ids(ids, offsets, table, trans, start, end):
    """Viterbi over sentences whose token scores are rows of ``table``.

    Token ``j`` scores ``table[ids[j]]``: an HMM's log emission
    probabilities looked up by observation id.

    Parameters
    ----------
    ids : ndarray of int, shape (n_tokens_total,)
    offsets : ndarray of int, shape (n_sentences + 1,)
    table : ndarray of shape (n_observations, n_labels)
    trans, start, end : as in :func:`viterbi`.

    Returns
    -------
    paths : ndarray of int32, shape (n_tokens_total,)
    best : ndarray of float64, shape (n_sentences,)
        Score of each sentence's best path.
    """
    ids = np.ascontiguousarray(ids, dtype=np.int32)
    table = finite(table)
    offsets = check_offsets(offsets, ids.shape[0])
    if ids.size and (ids.min() < 0 or ids.max() >= table.shape[0]):
        raise ValueError(f"ids must index the {table.shape[0]} rows of table")
    trans, start, end = _check_chain(table.shape[1], trans, start, end)
    out = np.zeros(ids.shape[0], dtype=np.int32)
    best = np.zeros(offsets.size - 1)
    run_blocks(_viterbi_ids_kernel, offsets, ids, offsets, table, trans, start, end, out, best)
    return out, best


def sequence_score(scores, path, trans, start, end):
    """Score of a given label path (the objective the Viterbi functions maximise).

    Parameters
    ----------
    scores : array-like of shape (n_tokens, n_labels)
        Per-token label scores (log-potentials).
    path : array-like of int, shape (n_tokens,)
        Label index of each token.
    trans : ndarray of shape (n_labels, n_labels)
        ``trans[a, b]``: score of label ``b`` right after label ``a``.
    start, end : ndarray of shape (n_labels,)
        Scores of beginning / ending the sentence with each label.

    Returns
    -------
    float
        ``start[path[0]] + sum of token and transition scores + end[path[-1]]``
        (0 for an empty path).
    """
    scores = np.asarray(scores, dtype=np.float64)
    path = np.asarray(path)
    if len(path) == 0:
        return 0.0
    s = start[path[0]] + end[path[-1]] + scores[np.arange(len(path)), path].sum()
    return float(s + np.sum(np.asarray(trans)[path[:-1], path[1:]]))
