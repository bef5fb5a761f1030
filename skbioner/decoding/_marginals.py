"""Forward-backward marginals and entity-span probabilities of a linear chain.

A chain with per-token scores ``S`` (n, L), transitions ``T``, start and end
scores defines the distribution ``p(y) = exp(score(y)) / Z`` over label
sequences (a CRF's; for a model trained without probabilities, such as the
passive-aggressive chain, the same Gibbs distribution of its scores at
temperature 1).  This module computes, per sentence, ``log Z``, the token
marginals ``p(y_i = l)`` and the probability that an entity span is one of
the segments of ``y``.

The recursions keep ``log alpha`` and ``log beta`` and compute each step as
a product in linear space shifted by the step's maximum (one ``exp`` per
label, ``L * L`` multiply-adds, one ``log`` per label), so nothing underflows
however long the sentence is.  Transitions are exponentiated once, shifted
by their maximum; an allowed transition more than ~700 below the best one
counts as forbidden.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..schemes import segment_table
from ._viterbi import NEG, _check_chain, check_offsets, csr_scores, finite

__all__ = ["chain_marginals", "chain_marginals_csr", "emission_scores", "opening_marginals",
           "span_probabilities", "SegmentTable"]


@njit(cache=True, nogil=True)
def _log_or_neg(v):
    return np.log(v) if v > 0.0 else NEG


@njit(cache=True, nogil=True)
def _forward_backward_one(scores, etrans, tmax, start, end, la, lb):
    """Fill ``la`` (log alpha) and ``lb`` (log beta); return log Z.

    ``la[t, s]``: log-sum of the scores of all prefixes ending in ``s`` at
    ``t`` (its own token score included); ``lb[t, s]``: log-sum of all
    suffixes after ``t`` given ``s`` at ``t`` (end score included).
    """
    n, L = scores.shape
    w = np.empty(L)
    for s in range(L):
        la[0, s] = start[s] + scores[0, s]
    for t in range(1, n):
        m = la[t - 1, 0]
        for p in range(1, L):
            if la[t - 1, p] > m:
                m = la[t - 1, p]
        for p in range(L):
            w[p] = np.exp(la[t - 1, p] - m)
        for s in range(L):
            acc = 0.0
            for p in range(L):
                acc += w[p] * etrans[p, s]
            la[t, s] = _log_or_neg(acc) + m + tmax + scores[t, s]
    for s in range(L):
        lb[n - 1, s] = end[s]
    for t in range(n - 2, -1, -1):
        m = scores[t + 1, 0] + lb[t + 1, 0]
        for q in range(1, L):
            v = scores[t + 1, q] + lb[t + 1, q]
            if v > m:
                m = v
        for q in range(L):
            w[q] = np.exp(scores[t + 1, q] + lb[t + 1, q] - m)
        for s in range(L):
            acc = 0.0
            for q in range(L):
                acc += etrans[s, q] * w[q]
            lb[t, s] = _log_or_neg(acc) + m + tmax
    m = la[n - 1, 0] + end[0]
    for s in range(1, L):
        if la[n - 1, s] + end[s] > m:
            m = la[n - 1, s] + end[s]
    acc = 0.0
    for s in range(L):
        acc += np.exp(la[n - 1, s] + end[s] - m)
    return np.log(acc) + m


@njit(cache=True, nogil=True, parallel=True)
def _marginals_kernel(scores, offsets, etrans, tmax, start, end, out, logz):
    L = scores.shape[1]
    for i in prange(offsets.shape[0] - 1):
        a, b = offsets[i], offsets[i + 1]
        n = b - a
        if n == 0:
            logz[i] = 0.0
            continue
        la = np.empty((n, L))
        lb = np.empty((n, L))
        z = _forward_backward_one(scores[a:b], etrans, tmax, start, end, la, lb)
        logz[i] = z
        for t in range(n):
            for s in range(L):
                out[a + t, s] = np.exp(la[t, s] + lb[t, s] - z)


@njit(cache=True, nogil=True)
def _lse_add(acc, v):
    """log(exp(acc) + exp(v)) with NEG as the empty sum."""
    if v <= NEG:
        return acc
    if acc <= NEG:
        return v
    if acc > v:
        return acc + np.log1p(np.exp(v - acc))
    return v + np.log1p(np.exp(acc - v))


@njit(cache=True, nogil=True)
def _span_logprob(scores, trans, start, end, la, lb, z, s, e, cands, inside, boundary):
    """log p(the chain's segmentation has the entity segment [s, e) of this type).

    The first label ``b`` and the last label ``c`` range over ``cands`` (the
    labels of the entity's type), inner labels are ``inside``; ``b`` must
    open a segment after the previous label, ``c`` close it before the next,
    and no boundary may fall inside.
    """
    n = scores.shape[0]
    L = scores.shape[1]
    total = NEG
    for bi in range(cands.shape[0]):
        b = cands[bi]
        if b < 0:
            continue
        if s == 0:
            left = start[b]
        else:
            left = NEG
            for a in range(L):
                if boundary[a, b]:
                    left = _lse_add(left, la[s - 1, a] + trans[a, b])
        if left <= NEG:
            continue
        for ci in range(cands.shape[0]):
            c = cands[ci]
            if c < 0 or (e - s == 1 and c != b):
                continue
            # score of b .. inside .. c over tokens s .. e-1
            inner = scores[s, b]
            ok = True
            prev = b
            for t in range(s + 1, e):
                cur = c if t == e - 1 else inside
                if cur < 0 or boundary[prev, cur]:
                    ok = False
                    break
                inner += trans[prev, cur] + scores[t, cur]
                prev = cur
            if not ok:
                continue
            if e == n:
                right = end[c]
            else:
                right = NEG
                for d in range(L):
                    if boundary[c, d]:
                        right = _lse_add(right, trans[c, d] + scores[e, d] + lb[e, d])
            total = _lse_add(total, left + inner + right)
    if total <= NEG:
        return NEG
    return total - z


@njit(cache=True, nogil=True, parallel=True)
def _spans_kernel(scores, offsets, trans, etrans, tmax, start, end, span_ptr, span_start,
                  span_end, span_type, cands, inside, boundary, out):
    L = scores.shape[1]
    for i in prange(offsets.shape[0] - 1):
        k0, k1 = span_ptr[i], span_ptr[i + 1]
        if k0 == k1:
            continue
        a, b = offsets[i], offsets[i + 1]
        n = b - a
        la = np.empty((n, L))
        lb = np.empty((n, L))
        sc = scores[a:b]
        z = _forward_backward_one(sc, etrans, tmax, start, end, la, lb)
        for k in range(k0, k1):
            t = span_type[k]
            lp = _span_logprob(sc, trans, start, end, la, lb, z, span_start[k], span_end[k],
                               cands[t], inside[t], boundary)
            out[k] = np.exp(lp) if lp > NEG else 0.0


@njit(cache=True, nogil=True, parallel=True)
def _opening_kernel(scores, offsets, etrans, tmax, trans, start, end, boundary, out):
    L = scores.shape[1]
    for i in prange(offsets.shape[0] - 1):
        a, b = offsets[i], offsets[i + 1]
        n = b - a
        if n == 0:
            continue
        la = np.empty((n, L))
        lb = np.empty((n, L))
        sc = scores[a:b]
        z = _forward_backward_one(sc, etrans, tmax, start, end, la, lb)
        for s in range(L):
            out[a, s] = np.exp(la[0, s] + lb[0, s] - z)
        for t in range(1, n):
            for s in range(L):
                acc = NEG
                for p in range(L):
                    if boundary[p, s]:
                        acc = _lse_add(acc, la[t - 1, p] + trans[p, s])
                out[a + t, s] = np.exp(acc + sc[t, s] + lb[t, s] - z) if acc > NEG else 0.0


# ---------------------------------------------------------------------------
# Python boundary


def _exp_trans(trans):
    tmax = float(trans.max()) if trans.size else 0.0
    return np.exp(trans - tmax), tmax


def chain_marginals(scores, offsets, trans, start, end):
    """Token marginals of every sentence under the chain's distribution.

    Parameters
    ----------
    scores : ndarray of shape (n_tokens_total, n_labels)
        Per-token label scores (log-potentials).
    offsets : ndarray of int, shape (n_sentences + 1,)
    trans : ndarray of shape (n_labels, n_labels)
        ``-inf`` forbids a transition.
    start, end : ndarray of shape (n_labels,)

    Returns
    -------
    marginals : ndarray of float64, shape (n_tokens_total, n_labels)
        ``p(y_i = l)``; every row sums to 1.
    log_z : ndarray of float64, shape (n_sentences,)
        Log partition function of each sentence (0 for an empty one).
    """
    scores = finite(scores)
    if scores.ndim != 2:
        raise ValueError(f"scores must be 2D, got shape {scores.shape}")
    offsets = check_offsets(offsets, scores.shape[0])
    trans, start, end = _check_chain(scores.shape[1], trans, start, end)
    etrans, tmax = _exp_trans(trans)
    out = np.zeros_like(scores)
    logz = np.zeros(offsets.size - 1)
    _marginals_kernel(scores, offsets, etrans, tmax, start, end, out, logz)
    return out, logz


def chain_marginals_csr(matrix, offsets, coef, trans, start, end):
    """:func:`chain_marginals` of the scores ``matrix @ coef`` (CSR features).

    Parameters
    ----------
    matrix : scipy.sparse.csr_matrix of shape (n_tokens_total, n_features)
        Feature rows of the stacked tokens.
    offsets : ndarray of int, shape (n_sentences + 1,)
        Sentence ``i`` occupies rows ``offsets[i]:offsets[i + 1]``.
    coef : ndarray of shape (n_features, n_labels)
        Per-feature label weights.
    trans : ndarray of shape (n_labels, n_labels)
        ``trans[a, b]``: score of label ``b`` right after label ``a``;
        ``-inf`` forbids the transition.
    start, end : ndarray of shape (n_labels,)
        Scores of beginning / ending a sentence with each label.

    Returns
    -------
    marginals : ndarray of float64, shape (n_tokens_total, n_labels)
        ``p(y_i = l)``; every row sums to 1.
    log_z : ndarray of float64, shape (n_sentences,)
        Log partition function of each sentence (0 for an empty one).
    """
    if matrix.format != "csr":
        raise TypeError(f"matrix must be CSR, got {matrix.format!r}")
    return chain_marginals(emission_scores(matrix, coef), offsets, trans, start, end)


def emission_scores(matrix, coef):
    """``matrix @ coef`` in float64, summed as the compiled decoders sum it.

    Parameters
    ----------
    matrix : scipy.sparse.csr_matrix of shape (n_tokens_total, n_features)
        Feature rows of the stacked tokens.
    coef : ndarray of shape (n_features, n_labels)
        Per-feature label weights.

    Returns
    -------
    ndarray of float64, shape (n_tokens_total, n_labels)
        Per-token label scores.
    """
    coef = np.ascontiguousarray(coef, dtype=np.float64)
    if matrix.shape[1] != coef.shape[0]:
        raise ValueError(f"matrix has {matrix.shape[1]} features, coef {coef.shape[0]}")
    return csr_scores(matrix.indptr, matrix.indices, matrix.data, 0, matrix.shape[0], coef)


class SegmentTable:
    """What a label set says about entity segments, in the decoders' terms.

    Built from :func:`skbioner.schemes.segment_table`: the entity type of
    each label, the labels of each type (first/last label candidates of a
    segment), the ``I`` label of each type (inner tokens) and the boundary
    table of label pairs.

    Parameters
    ----------
    labels : sequence of str
        The chain's labels (any scheme).

    Attributes
    ----------
    types : tuple of str
        Entity types, sorted.
    label_type : ndarray of int64, shape (n_labels,)
        Index into ``types`` of each label's type, -1 for outside labels.
    """

    def __init__(self, labels):
        label_types, boundary = segment_table(labels)
        self.labels = tuple(labels)
        self.types = tuple(sorted({t for t in label_types if t is not None}))
        index = {t: k for k, t in enumerate(self.types)}
        self.label_type = np.array([index.get(t, -1) for t in label_types], dtype=np.int64)
        width = max([int(np.sum(self.label_type == k)) for k in range(len(self.types))],
                    default=1)
        self.cands = np.full((max(len(self.types), 1), width), -1, dtype=np.int64)
        self.inside = np.full(max(len(self.types), 1), -1, dtype=np.int64)
        for k, t in enumerate(self.types):
            members = np.flatnonzero(self.label_type == k)
            self.cands[k, :members.size] = members
            inner = [j for j in members if self.labels[j] in ("I-" + t,)]
            if inner:
                self.inside[k] = inner[0]
        self.boundary = boundary


def span_probabilities(scores, offsets, trans, start, end, spans, table):
    """Probability of each entity span under the chain's distribution.

    The probability that the segmentation of a sequence drawn from the
    chain contains exactly this segment with this type: summed over every
    label sequence whose segments (read by the repair policy of
    :func:`skbioner.schemes.labels_to_spans`) include it.

    Parameters
    ----------
    scores, offsets, trans, start, end
        As in :func:`chain_marginals`.
    spans : sequence of (int, str, int, int)
        ``(sentence, type, start, end)`` with half-open token offsets.
    table : SegmentTable
        Of the chain's labels.

    Returns
    -------
    ndarray of float64, shape (n_spans,)
    """
    scores = finite(scores)
    offsets = check_offsets(offsets, scores.shape[0])
    trans, start, end = _check_chain(scores.shape[1], trans, start, end)
    n_sent = offsets.size - 1
    spans = list(spans)
    type_index = {t: k for k, t in enumerate(table.types)}
    sent = np.fromiter((s[0] for s in spans), dtype=np.int64, count=len(spans))
    if spans and (sent.min() < 0 or sent.max() >= n_sent or np.any(np.diff(sent) < 0)):
        raise ValueError("spans must be sorted by sentence, with sentences in range")
    try:
        typ = np.fromiter((type_index[s[1]] for s in spans), dtype=np.int64, count=len(spans))
    except KeyError as exc:
        raise ValueError(f"span type {exc.args[0]!r} is not a type of the chain's labels "
                         f"{list(table.types)}") from None
    s0 = np.fromiter((s[2] for s in spans), dtype=np.int64, count=len(spans))
    s1 = np.fromiter((s[3] for s in spans), dtype=np.int64, count=len(spans))
    lengths = np.diff(offsets)
    if spans and (np.any(s0 < 0) or np.any(s1 <= s0) or np.any(s1 > lengths[sent])):
        raise ValueError("span offsets must satisfy 0 <= start < end <= sentence length")
    span_ptr = np.zeros(n_sent + 1, dtype=np.int64)
    np.cumsum(np.bincount(sent, minlength=n_sent), out=span_ptr[1:])
    etrans, tmax = _exp_trans(trans)
    out = np.zeros(len(spans))
    _spans_kernel(scores, offsets, trans, etrans, tmax, start, end, span_ptr, s0, s1, typ,
                  table.cands, table.inside, table.boundary, out)
    return out


def opening_marginals(scores, offsets, trans, start, end, table):
    """``p(y_i = l and a new segment starts at token i)`` for every token and label.

    With the token marginals this gives the IOB2 view of any scheme's
    distribution exactly: ``p(B-t) = sum`` of the opening marginals of the
    labels of type ``t``, ``p(I-t)`` the rest of their marginals.

    Parameters
    ----------
    scores, offsets, trans, start, end
        As in :func:`chain_marginals`.
    table : SegmentTable
        Of the chain's labels.

    Returns
    -------
    ndarray of float64, shape (n_tokens_total, n_labels)
    """
    scores = finite(scores)
    offsets = check_offsets(offsets, scores.shape[0])
    trans, start, end = _check_chain(scores.shape[1], trans, start, end)
    etrans, tmax = _exp_trans(trans)
    out = np.zeros_like(scores)
    _opening_kernel(scores, offsets, etrans, tmax, trans, start, end, table.boundary, out)
    return out
