"""Forward-backward marginals and entity-span probabilities of a linear chain.

A chain with per-token scores ``S`` (n, L), transitions ``T``, start and end
scores defines the distribution ``p(y) = exp(score(y)) / Z`` over label
sequences (a CRF's; for a model trained without probabilities, such as the
passive-aggressive chain, the same Gibbs distribution of its scores at
temperature 1).  This module computes, per sentence, ``log Z``, the token
marginals ``p(y_i = l)`` and the probability that an entity span is one of
the segments of ``y``.

The recursions run in linear space, scaled (Rabiner 1989): each token's
scores are exponentiated once, shifted by the row maximum, the forward
vector is normalised to sum 1 at every step and the backward vector scaled
by the same factors, so nothing underflows however long the sentence is,
and the logs of the scale factors give ``log Z``.  Per token that is one
``exp`` per label and a multiply-add per *allowed* transition (a scheme's
forbidden transitions are skipped).  Transitions are exponentiated once,
shifted by their maximum; an allowed transition more than ~700 below the
best one counts as forbidden, and so does a partial path whose score falls
that far below the best one at some token (scores hundreds of nats apart
are exact; the tests check against enumeration).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..schemes import segment_table
from ._threads import run_blocks
from ._viterbi import NEG, check_offsets, check_problem, csr_scores, weights

__all__ = ["chain_marginals", "emission_scores", "opening_marginals",
           "segment_probabilities", "span_probabilities", "SegmentTable"]


class LinearChain(NamedTuple):
    """A chain's constants in the linear space of the scaled recursions (:func:`_linear_chain`).

    ``trans`` the log-space transitions, ``etrans = exp(trans - tmax)``;
    ``sme`` the start and end maxima; ``in_*`` / ``out_*`` the allowed
    transitions per label as predecessors / successors, CSR-like
    (``ptr``, ``idx``, ``val``: ``exp(trans - tmax)``); ``estart`` /
    ``eend`` the shifted exponentiated start and end scores.
    """

    trans: np.ndarray
    etrans: np.ndarray
    tmax: float
    sme: float
    in_ptr: np.ndarray
    in_idx: np.ndarray
    in_val: np.ndarray
    out_ptr: np.ndarray
    out_idx: np.ndarray
    out_val: np.ndarray
    estart: np.ndarray
    eend: np.ndarray


class _Lattice(NamedTuple):
    """One sentence's work arrays: ``E`` shifted exponentiated scores, ``M`` their
    shifts, ``A`` / ``B`` the scaled forward / backward vectors, ``C`` the scales."""

    E: np.ndarray
    M: np.ndarray
    A: np.ndarray
    B: np.ndarray
    C: np.ndarray


@njit(cache=True, nogil=True)
def _lattice(n, L):
    return _Lattice(np.empty((n, L)), np.empty(n), np.empty((n, L)), np.empty((n, L)),
                    np.ones(n))


@njit(cache=True, nogil=True)
def _scaled_forward_backward(scores, chain, lat):
    """Scaled forward-backward of one sentence in linear space; return log Z.

    Forward step ``t``: ``pred[s]``, the normalised mass reaching label ``s``
    through the allowed transitions (``chain.in_*``: the predecessors of
    each label with ``exp(trans - tmax)``; ``chain.out_*``: the
    successors), then ``E[t, s] = exp(scores[t, s] - M[t])`` for the
    labels it reaches (0 for the others, which no path has), with ``M[t]``
    the best score among them (at the last token: among those that
    may end a sentence) — one ``exp`` per reachable label, the only
    transcendental work per token, and no underflow however far below the
    token's best label the reachable ones score.  ``A[t]`` is the forward
    vector normalised to sum 1 by ``C[t]``, ``B[t]`` the backward vector
    scaled by the same factors, so the token marginals are ``A * B``.  The
    constant shifts (``M`` summed, ``tmax`` per step, ``sme``: start and end
    maxima) are added back to ``log Z``.  Returns NEG (and zero vectors) when
    no label sequence is allowed.
    """
    n, L = scores.shape
    E, M, A, B, C = lat
    tptr_in, tidx_in, tval_in = chain.in_ptr, chain.in_idx, chain.in_val
    tptr_out, tidx_out, tval_out = chain.out_ptr, chain.out_idx, chain.out_val
    estart, eend = chain.estart, chain.eend
    shift = chain.sme + (n - 1) * chain.tmax
    pred = np.empty(L)
    dead = False
    for t in range(n):
        m = -np.inf
        for s in range(L):
            if t == 0:
                acc = estart[s]
            else:
                acc = 0.0
                for k in range(tptr_in[s], tptr_in[s + 1]):
                    acc += A[t - 1, tidx_in[k]] * tval_in[k]
            if t == n - 1 and eend[s] <= 0.0:
                acc = 0.0
            pred[s] = acc
            if acc > 0.0 and scores[t, s] > m:
                m = scores[t, s]
        if m == -np.inf:
            dead = True
            break
        M[t] = m
        shift += m
        c = 0.0
        for s in range(L):
            if pred[s] > 0.0:
                e = np.exp(scores[t, s] - m)
                E[t, s] = e
                A[t, s] = pred[s] * e
                c += A[t, s]
            else:
                E[t, s] = 0.0
                A[t, s] = 0.0
        if c <= 0.0:
            dead = True
            break
        for s in range(L):
            A[t, s] /= c
        C[t] = c
    zfinal = 0.0
    if not dead:
        for s in range(L):
            zfinal += A[n - 1, s] * eend[s]
    if dead or zfinal <= 0.0:
        A[:, :] = 0.0
        B[:, :] = 0.0
        C[:] = 1.0
        return NEG
    for s in range(L):
        B[n - 1, s] = eend[s] / zfinal
    w = np.empty(L)
    for t in range(n - 2, -1, -1):
        for q in range(L):
            w[q] = E[t + 1, q] * B[t + 1, q]
        ct = C[t + 1]
        for s in range(L):
            acc = 0.0
            for k in range(tptr_out[s], tptr_out[s + 1]):
                acc += tval_out[k] * w[tidx_out[k]]
            B[t, s] = acc / ct
    total = np.log(zfinal) + shift
    for t in range(n):
        total += np.log(C[t])
    return total


@njit(cache=True, nogil=True)
def _marginals_kernel(lo, hi, scores, offsets, chain, boundary, out, logz):
    """Token marginals into ``out`` and ``log Z`` into ``logz``; with a ``boundary`` table
    (not of size 0) the opening marginals instead, ``p(y_t = s)`` with a segment starting
    at ``t`` (0 for a sentence that no label sequence is allowed)."""
    L = scores.shape[1]
    opening = boundary.shape[0] > 0
    etrans = chain.etrans
    for i in range(lo, hi):
        a, b = offsets[i], offsets[i + 1]
        n = b - a
        if n == 0:
            continue
        lat = _lattice(n, L)
        E, M, A, B, C = lat
        logz[i] = _scaled_forward_backward(scores[a:b], chain, lat)
        if opening and logz[i] <= NEG:
            continue
        for t in range(n):
            for s in range(L):
                if t == 0 or not opening:
                    out[a + t, s] = A[t, s] * B[t, s]
                    continue
                acc = 0.0
                for p in range(L):
                    if boundary[p, s]:
                        acc += A[t - 1, p] * etrans[p, s]
                out[a + t, s] = acc * E[t, s] * B[t, s] / C[t]


@njit(cache=True, nogil=True)
def _span_prob(scores, chain, lat, s, e, cands, inside, boundary):
    """p(the chain's segmentation has the entity segment [s, e) of this type).

    The first label ``b`` and the last label ``c`` range over ``cands`` (the
    labels of the entity's type), inner labels are ``inside``; ``b`` must
    open a segment after the previous label, ``c`` close it before the next,
    and no boundary may fall inside.  In the scaled quantities of
    :func:`_scaled_forward_backward`: ``left(b) * inner * right(c)`` divided
    by the scale factors ``C[s] .. C[min(e, n-1)]``; the inner path's product
    is summed in log space (no underflow however long the span).
    """
    n = scores.shape[0]
    L = scores.shape[1]
    E, M, A, B, C = lat
    trans, tmax, etrans, estart = chain.trans, chain.tmax, chain.etrans, chain.estart
    lscale = 0.0
    for t in range(s, min(e, n - 1) + 1):
        lscale += np.log(C[t])
    total = 0.0
    for bi in range(cands.shape[0]):
        b = cands[bi]
        if b < 0:
            continue
        if s == 0:
            left = estart[b]
        else:
            left = 0.0
            for a in range(L):
                if boundary[a, b]:
                    left += A[s - 1, a] * etrans[a, b]
        if left <= 0.0:
            continue
        for ci in range(cands.shape[0]):
            c = cands[ci]
            if c < 0 or (e - s == 1 and c != b):
                continue
            # log of the path b .. inside .. c over tokens s .. e-1 (shifted as E is)
            inner = scores[s, b] - M[s]
            ok = True
            prev = b
            for t in range(s + 1, e):
                cur = c if t == e - 1 else inside
                if cur < 0 or boundary[prev, cur] or trans[prev, cur] <= NEG:
                    ok = False
                    break
                inner += trans[prev, cur] - tmax + scores[t, cur] - M[t]
                prev = cur
            if not ok:
                continue
            if e == n:
                right = B[n - 1, c]  # eend[c] / zfinal
            else:
                right = 0.0
                for d in range(L):
                    if boundary[c, d]:
                        right += etrans[c, d] * E[e, d] * B[e, d]
            if right <= 0.0:
                continue
            total += np.exp(np.log(left) + inner + np.log(right) - lscale)
    return total


class _Spans(NamedTuple):
    """Candidate spans, CSR-like per sentence: ``ptr``, then ``start``, ``end`` (token
    offsets in the sentence) and ``type`` (a row of the table's ``cands``)."""

    ptr: np.ndarray
    start: np.ndarray
    end: np.ndarray
    type: np.ndarray


@njit(cache=True, nogil=True)
def _spans_kernel(lo, hi, scores, offsets, chain, spans, cands, inside, boundary, out):
    L = scores.shape[1]
    for i in range(lo, hi):
        k0, k1 = spans.ptr[i], spans.ptr[i + 1]
        if k0 == k1:
            continue
        a, b = offsets[i], offsets[i + 1]
        lat = _lattice(b - a, L)
        sc = scores[a:b]
        z = _scaled_forward_backward(sc, chain, lat)
        for k in range(k0, k1):
            if z <= NEG:
                out[k] = 0.0
                continue
            t = spans.type[k]
            out[k] = min(_span_prob(sc, chain, lat, spans.start[k], spans.end[k], cands[t],
                                    inside[t], boundary), 1.0)


@njit(cache=True, nogil=True)
def _segments_kernel(codes, offsets, label_type, boundary, out):
    """Entity segments of coded label sequences; ``out`` None counts them.

    A segment starts at a sentence's first token and wherever
    ``boundary[previous, current]``; it is an entity when its first label
    has a type (``label_type >= 0``).  Writes ``(sentence, type, start,
    end)`` rows into ``out`` (when given) and returns the number of rows.
    """
    k = 0
    for i in range(offsets.shape[0] - 1):
        a, b = offsets[i], offsets[i + 1]
        t = a
        while t < b:
            e = t + 1
            while e < b and not boundary[codes[e - 1], codes[e]]:
                e += 1
            typ = label_type[codes[t]]
            if typ >= 0:
                if out is not None:
                    out[k, 0] = i
                    out[k, 1] = typ
                    out[k, 2] = t - a
                    out[k, 3] = e - a
                k += 1
            t = e
    return k


# ---------------------------------------------------------------------------
# Python boundary


def _linear_chain(trans, start, end):
    """The chain's constants in the linear space of the scaled recursions.

    Transitions, start and end scores are exponentiated once, each shifted
    by its maximum (an allowed transition more than ~700 below the best one
    counts as forbidden); the allowed transitions are listed per label as
    predecessors (``in_*``) and successors (``out_*``), CSR-like
    ``(ptr, index, value)`` triples, so the recursions visit only them.
    """
    tmax = float(trans.max()) if trans.size else 0.0
    etrans = np.exp(trans - tmax)
    smax, emax = float(start.max()), float(end.max())
    estart, eend = np.exp(start - smax), np.exp(end - emax)

    def lists(m):
        rows, cols = np.nonzero(m > 0.0)
        ptr = np.zeros(m.shape[0] + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=m.shape[0]), out=ptr[1:])
        return ptr, cols.astype(np.int64), np.ascontiguousarray(m[rows, cols])

    return LinearChain(np.ascontiguousarray(trans, dtype=np.float64), etrans, tmax, smax + emax,
                       *lists(etrans.T), *lists(etrans), estart, eend)


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
    scores, offsets, trans, start, end = check_problem(scores, offsets, trans, start, end)
    chain = _linear_chain(trans, start, end)
    out = np.zeros_like(scores)
    logz = np.zeros(offsets.size - 1)
    run_blocks(_marginals_kernel, offsets, scores, offsets, chain, np.zeros((0, 0), dtype=bool),
               out, logz)
    return out, logz


def emission_scores(matrix, coef):
    """``matrix @ coef`` in float64, summed as the compiled decoders sum it.

    Parameters
    ----------
    matrix : scipy.sparse.csr_matrix of shape (n_tokens_total, n_features)
        Feature rows of the stacked tokens.
    coef : ndarray of shape (n_features, n_labels)
        Per-feature label weights (float32 ones are read as they are; the
        sums are float64 either way).

    Returns
    -------
    ndarray of float64, shape (n_tokens_total, n_labels)
        Per-token label scores.
    """
    coef = weights(coef)
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
            if "I-" + t in self.labels:  # a label of type t
                self.inside[k] = self.labels.index("I-" + t)
        self.boundary = boundary

    def segments(self, codes, offsets):
        """The entity segments of label sequences coded as indices into ``labels``.

        The compiled form of :func:`skbioner.schemes.labels_to_spans`: the
        same repair policy (``boundary`` encodes it completely), for every
        sentence at once.

        Parameters
        ----------
        codes : ndarray of int, shape (n_tokens_total,)
            Index into :attr:`labels` of each token's label.
        offsets : ndarray of int, shape (n_sentences + 1,)
            Sentence ``i`` occupies ``codes[offsets[i]:offsets[i + 1]]``.

        Returns
        -------
        ndarray of int64, shape (n_segments, 4)
            ``(sentence, type, start, end)`` rows, sorted by sentence and
            start: ``type`` indexes :attr:`types`, ``start``/``end`` are
            half-open token offsets within the sentence.
        """
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        offsets = check_offsets(offsets, codes.shape[0])
        if codes.size and (codes.min() < 0 or codes.max() >= len(self.labels)):
            raise ValueError(f"codes must index the {len(self.labels)} labels")
        n = _segments_kernel(codes, offsets, self.label_type, self.boundary, None)
        out = np.empty((n, 4), dtype=np.int64)
        _segments_kernel(codes, offsets, self.label_type, self.boundary, out)
        return out


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
    spans = list(spans)
    type_index = {t: k for k, t in enumerate(table.types)}
    try:
        rows = np.array([(i, type_index[t], a, b) for i, t, a, b in spans],
                        dtype=np.int64).reshape(len(spans), 4)
    except KeyError as exc:
        raise ValueError(f"span type {exc.args[0]!r} is not a type of the chain's labels "
                         f"{list(table.types)}") from None
    return segment_probabilities(scores, offsets, trans, start, end, rows, table)


def segment_probabilities(scores, offsets, trans, start, end, segments, table):
    """:func:`span_probabilities` of segments given as rows of integers.

    Parameters
    ----------
    scores, offsets, trans, start, end
        As in :func:`chain_marginals`.
    segments : ndarray of int, shape (n_spans, 4)
        ``(sentence, type, start, end)`` rows sorted by sentence, ``type``
        an index into ``table.types`` (as :meth:`SegmentTable.segments`
        returns them).
    table : SegmentTable
        Of the chain's labels.

    Returns
    -------
    ndarray of float64, shape (n_spans,)
    """
    scores, offsets, trans, start, end = check_problem(scores, offsets, trans, start, end)
    n_sent = offsets.size - 1
    segments = np.asarray(segments, dtype=np.int64).reshape(-1, 4)
    sent, typ, s0, s1 = (np.ascontiguousarray(segments[:, j]) for j in range(4))
    if sent.size and (sent.min() < 0 or sent.max() >= n_sent or np.any(np.diff(sent) < 0)):
        raise ValueError("spans must be sorted by sentence, with sentences in range")
    if typ.size and (typ.min() < 0 or typ.max() >= len(table.types)):
        raise ValueError(f"span types must index the chain's types {list(table.types)}")
    lengths = np.diff(offsets)
    if sent.size and (np.any(s0 < 0) or np.any(s1 <= s0) or np.any(s1 > lengths[sent])):
        raise ValueError("span offsets must satisfy 0 <= start < end <= sentence length")
    span_ptr = np.zeros(n_sent + 1, dtype=np.int64)
    np.cumsum(np.bincount(sent, minlength=n_sent), out=span_ptr[1:])
    out = np.zeros(sent.size)
    run_blocks(_spans_kernel, offsets, scores, offsets, _linear_chain(trans, start, end),
               _Spans(span_ptr, s0, s1, typ), table.cands, table.inside, table.boundary, out)
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
    scores, offsets, trans, start, end = check_problem(scores, offsets, trans, start, end)
    out = np.zeros_like(scores)
    run_blocks(_marginals_kernel, offsets, scores, offsets, _linear_chain(trans, start, end),
               np.ascontiguousarray(table.boundary, dtype=bool), out, np.zeros(offsets.size - 1))
    return out
