"""Compiled kernels of the pairwise SVM's kernel path: voting with fast winner finding, coupling.

Kept apart from the estimator so that the tests can compare every kernel with
a slow pure-Python oracle (``tests/models/test_pairwise_svm.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: kernel codes of the compiled functions
LINEAR, POLY = 0, 1


@njit(cache=True, nogil=True)
def kernel_value(g, kind, gamma, coef0, degree):
    """``K`` from the dot product ``g``: ``g`` (linear) or ``(gamma g + coef0) ** degree``."""
    if kind == LINEAR:
        return g
    base = gamma * g + coef0
    out = 1.0
    for _ in range(degree):
        out *= base
    return out


@njit(cache=True, nogil=True)
def apply_kernel(G, kind, gamma, coef0, degree):
    """Replace the dot products ``G`` (2-D) by kernel values, in place."""
    n, m = G.shape
    for i in range(n):
        for j in range(m):
            G[i, j] = kernel_value(G[i, j], kind, gamma, coef0, degree)


@njit(cache=True, nogil=True)
def _decision(p, t, kcache, use_cache, dense, sv_indptr, sv_indices, sv_data,
              pair_ptr, pair_sv, coef, intercept, kind, gamma, coef0, degree):
    """Decision value of pair ``p`` for token ``t`` (kernel values cached or recomputed)."""
    acc = 0.0
    for q in range(pair_ptr[p], pair_ptr[p + 1]):
        s = pair_sv[q]
        if use_cache:
            k = kcache[t, s]
        else:
            g = 0.0
            for r in range(sv_indptr[s], sv_indptr[s + 1]):
                g += sv_data[r] * dense[sv_indices[r]]
            k = kernel_value(g, kind, gamma, coef0, degree)
        acc += coef[q] * k
    return acc + intercept[p]


@njit(cache=True, nogil=True)
def _settled(votes, rem, n_classes):
    """The class that must win the vote whatever the remaining pairs say, or -1."""
    lead = 0
    for c in range(1, n_classes):
        if votes[c] > votes[lead]:
            lead = c
    v = votes[lead]
    for c in range(n_classes):
        if c == lead:
            continue
        best = votes[c] + rem[c]
        if best > v or (best == v and c < lead):
            return -1
    return lead


@njit(cache=True, nogil=True)
def pairwise_vote(tok_indptr, tok_indices, tok_data, n_features, kcache, use_cache,
                  sv_indptr, sv_indices, sv_data, pair_ptr, pair_sv, coef, intercept,
                  pair_a, pair_b, n_classes, kind, gamma, coef0, degree, fast, dec_out):
    """Majority vote of the pairwise SVMs for every token row.

    Pairs are ordered by their first class (``pair_a`` non-decreasing): a
    class's block holds its pairs with every later class.  With ``fast``,
    after each block the vote stops as soon as one class must win
    whatever the remaining pairs say (a class with ``K - 1`` votes, or one
    that no other class can catch up with, ties going to the lower class as
    in the full vote), so the winner is the full vote's.  Without the kernel
    cache (``use_cache=False``) every pair recomputes the kernel values of
    its support vectors; with it they are read from ``kcache`` (token x
    unique support vector).  ``dec_out`` (tokens x pairs, or 0 rows)
    receives every decision value (then all pairs are evaluated).

    Returns
    -------
    winners : ndarray of int64
    evaluated : ndarray of int64
        Pairs evaluated per token.
    """
    n_tok = tok_indptr.shape[0] - 1
    n_pairs = pair_a.shape[0]
    winners = np.empty(n_tok, dtype=np.int64)
    evaluated = np.zeros(n_tok, dtype=np.int64)
    want_dec = dec_out.shape[0] > 0
    dense = np.zeros(0 if use_cache else n_features)
    votes = np.zeros(n_classes, dtype=np.int64)
    rem = np.zeros(n_classes, dtype=np.int64)
    for t in range(n_tok):
        if not use_cache:
            for r in range(tok_indptr[t], tok_indptr[t + 1]):
                dense[tok_indices[r]] += tok_data[r]
        for c in range(n_classes):
            votes[c] = 0
            rem[c] = n_classes - 1
        won = -1
        for p in range(n_pairs):
            d = _decision(p, t, kcache, use_cache, dense, sv_indptr, sv_indices, sv_data,
                          pair_ptr, pair_sv, coef, intercept, kind, gamma, coef0, degree)
            evaluated[t] += 1
            if want_dec:
                dec_out[t, p] = d
            a = pair_a[p]
            b = pair_b[p]
            if d > 0.0:
                votes[b] += 1
            else:
                votes[a] += 1
            rem[a] -= 1
            rem[b] -= 1
            if fast and not want_dec and (p + 1 == n_pairs or pair_a[p + 1] != a):
                won = _settled(votes, rem, n_classes)
                if won >= 0:
                    break
        if won < 0:
            won = 0
            for c in range(1, n_classes):
                if votes[c] > votes[won]:
                    won = c
        winners[t] = won
        if not use_cache:
            for r in range(tok_indptr[t], tok_indptr[t + 1]):
                dense[tok_indices[r]] = 0.0
    return winners, evaluated


@njit(cache=True, nogil=True)
def couple_probabilities(R, pair_a, pair_b, n_classes, out):
    """Pairwise coupling of Wu, Lin & Weng (2004), method 2 (libsvm's ``multiclass_probability``).

    ``R[t, p]``: probability that ``pair_b[p]`` beats ``pair_a[p]`` for
    token ``t``; ``out[t]`` receives the class probabilities.
    """
    k = n_classes
    n_tok = R.shape[0]
    r = np.zeros((k, k))
    Q = np.zeros((k, k))
    Qp = np.zeros(k)
    p = np.zeros(k)
    max_iter = max(100, k)
    eps = 0.005 / k
    for t in range(n_tok):
        for i in range(k):
            for j in range(k):
                r[i, j] = 0.0
        for q in range(pair_a.shape[0]):
            x = min(max(R[t, q], 1e-7), 1.0 - 1e-7)
            r[pair_b[q], pair_a[q]] = x
            r[pair_a[q], pair_b[q]] = 1.0 - x
        for i in range(k):
            p[i] = 1.0 / k
            Q[i, i] = 0.0
            for j in range(i):
                Q[i, i] += r[j, i] * r[j, i]
                Q[i, j] = Q[j, i]
            for j in range(i + 1, k):
                Q[i, i] += r[j, i] * r[j, i]
                Q[i, j] = -r[j, i] * r[i, j]
        for _ in range(max_iter):
            pQp = 0.0
            for i in range(k):
                Qp[i] = 0.0
                for j in range(k):
                    Qp[i] += Q[i, j] * p[j]
                pQp += p[i] * Qp[i]
            max_error = 0.0
            for i in range(k):
                err = abs(Qp[i] - pQp)
                if err > max_error:
                    max_error = err
            if max_error < eps:
                break
            for i in range(k):
                diff = (-Qp[i] + pQp) / Q[i, i]
                p[i] += diff
                pQp = (pQp + diff * (diff * Q[i, i] + 2 * Qp[i])) / (1 + diff) / (1 + diff)
                for j in range(k):
                    Qp[j] = (Qp[j] + diff * Q[i, j]) / (1 + diff)
                    p[j] /= 1 + diff
        for i in range(k):
            out[t, i] = p[i]
