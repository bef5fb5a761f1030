"""Batched forward-backward for a discrete first-order HMM (Viterbi: skbioner.decoding).

Layout
------
Sentences are encoded as one int array of observation ids plus sentence
offsets.  For the forward-backward pass they are sorted by length
(descending) and cut into *batches* of about ``batch_tokens`` tokens; inside
a batch the tokens are *packed time-major*: all first tokens, then all
second tokens, ... (as in PyTorch's ``PackedSequence``).  Because the
sentences are sorted, the sentences still alive at step ``t`` are a prefix
of those alive at step ``t - 1``, so every step is one dense block of rows
and the recursions are matrix products over all alive sentences at once::

    alpha_t = (alpha_{t-1}[:n_t] @ A) * B[:, o_t]          (forward, one GEMM)
    beta_{t-1}[:n_t] = (B[:, o_t] * beta_t / c_t) @ A.T    (backward, one GEMM)
    xi += alpha_{t-1}[:n_t].T @ (B[:, o_t] * beta_t / c_t) (transition counts, one GEMM)

Arithmetic is *scaled* (Rabiner 1989): every forward row is normalised to
sum to one and the normaliser ``c_t`` is kept, so nothing underflows however
long the sentence is, and ``log P(sentence) = sum_t log c_t``.  The backward
rows use the same normalisers, so ``gamma_t = alpha_t * beta_t`` directly.
Only ``alpha`` (and the gathered emission rows) of one batch are stored;
``beta`` lives in one ``(n_sentences, n_states)`` buffer and ``gamma``
overwrites ``alpha`` in place.

Kernels never write to their parameter inputs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..decoding import viterbi_ids

__all__ = [
    "Batch",
    "forward_backward",
    "make_batches",
    "unpack_rows",
    "viterbi_paths",
]


class Batch(NamedTuple):
    """Sentences of one batch, packed time-major.

    Attributes
    ----------
    ids : ndarray of int32, shape (n_tokens,)
        Observation ids, packed: step 0 of every sentence, then step 1 ...
    steps : ndarray of int64, shape (max_length + 1,)
        Step ``t`` occupies packed rows ``steps[t]:steps[t + 1]``; their
        number ``n_t`` is the number of sentences longer than ``t``.
    order : ndarray of int64, shape (n_sentences,)
        Index (into the caller's sentence list) of the sentence on row ``j``
        of every step, longest first.
    """

    ids: np.ndarray
    steps: np.ndarray
    order: np.ndarray


@njit(cache=True, nogil=True)
def _pack_kernel(ids, offsets, order, lengths, steps, out):
    for j in range(order.shape[0]):
        start = offsets[order[j]]
        for t in range(lengths[j]):
            out[steps[t] + j] = ids[start + t]


def make_batches(ids, offsets, batch_tokens=65536):
    """Sort the sentences by length and pack them into batches.

    Parameters
    ----------
    ids : ndarray of int, shape (n_tokens,)
        Observation ids of all sentences, concatenated.
    offsets : ndarray of int, shape (n_sentences + 1,)
        Sentence ``i`` is ``ids[offsets[i]:offsets[i + 1]]``.
    batch_tokens : int, default=65536
        Approximate number of tokens per batch (a batch holds at least one
        sentence).  Memory of one E-step batch is about
        ``2 * batch_tokens * n_states`` floats.

    Returns
    -------
    list of Batch
        Empty sentences are left out.
    """
    ids = np.ascontiguousarray(ids, dtype=np.int32)
    offsets = np.asarray(offsets, dtype=np.int64)
    lengths = np.diff(offsets)
    # stable sort: equal lengths keep their input order (deterministic batches)
    order = np.argsort(-lengths, kind="stable")
    order = order[lengths[order] > 0]
    batches = []
    lo = 0
    cum = np.cumsum(lengths[order])
    while lo < order.shape[0]:
        done = cum[lo - 1] if lo else 0
        hi = int(np.searchsorted(cum, done + batch_tokens, side="right"))
        hi = max(hi, lo + 1)
        sel = order[lo:hi]
        lens = lengths[sel]
        T = int(lens[0])
        # n_t = number of sentences longer than t (lens is descending)
        n_alive = lens.shape[0] - np.searchsorted(lens[::-1], np.arange(T), side="right")
        steps = np.zeros(T + 1, dtype=np.int64)
        np.cumsum(n_alive, out=steps[1:])
        packed = np.empty(int(steps[-1]), dtype=np.int32)
        _pack_kernel(ids, offsets, sel, lens, steps, packed)
        batches.append(Batch(packed, steps, sel.astype(np.int64)))
        lo = hi
    return batches


@njit(cache=True, nogil=True)
def _unpack_kernel(values, steps, order, offsets, out):
    for j in range(order.shape[0]):
        start = offsets[order[j]]
        n = offsets[order[j] + 1] - start
        for t in range(n):
            out[start + t] = values[steps[t] + j]


def unpack_rows(batch, values, offsets, out):
    """Scatter packed per-token ``values`` of ``batch`` to sentence order in ``out``.

    ``out[offsets[i] + t]`` receives the value of token ``t`` of sentence
    ``i`` for every sentence ``i`` of the batch (rows of a 2D ``values``).
    """
    _unpack_kernel(values, batch.steps, batch.order, offsets, out)


@njit(cache=True, nogil=True)
def _scatter_rows(ids, rows, acc):
    """``acc[ids[r]] += rows[r]`` for every row (float64 accumulation)."""
    S = rows.shape[1]
    for r in range(ids.shape[0]):
        v = ids[r]
        for s in range(S):
            acc[v, s] += rows[r, s]


@njit(cache=True, nogil=True)
def _gather_rows(table, ids, out):
    S = table.shape[1]
    for r in range(ids.shape[0]):
        v = ids[r]
        for s in range(S):
            out[r, s] = table[v, s]


@njit(cache=True, nogil=True)
def _emit_normalize(rows, emis, c):
    """``rows *= emis``; ``c[r] = rows[r].sum()``; ``rows[r] /= c[r]`` (one pass).

    A row whose sum is zero or not finite (every path impossible, only
    reachable with hand-made zero probabilities) is set to uniform and its
    normaliser to the smallest positive float, so no NaN propagates.
    """
    n, S = rows.shape
    for r in range(n):
        tot = 0.0
        for s in range(S):
            v = rows[r, s] * emis[r, s]
            rows[r, s] = v
            tot += v
        if tot > 0.0 and np.isfinite(tot):
            inv = 1.0 / tot
            for s in range(S):
                rows[r, s] *= inv
            c[r] = tot
        else:
            for s in range(S):
                rows[r, s] = 1.0 / S
            c[r] = np.finfo(np.float64).tiny


@njit(cache=True, nogil=True)
def _backward_weights(emis, beta, c, gamma_rows):
    """``gamma_rows *= beta`` (alpha -> gamma) and ``emis = emis * beta / c`` in place."""
    n, S = emis.shape
    for r in range(n):
        inv = 1.0 / c[r]
        for s in range(S):
            b = beta[r, s]
            gamma_rows[r, s] *= b
            emis[r, s] *= b * inv


def forward_backward(batch, startprob, transmat, emit_t, *, stats=None, want_gamma=False,
                     dtype=np.float64):
    """Scaled forward-backward over one packed batch.

    Parameters
    ----------
    batch : Batch
    startprob : ndarray of shape (S,)
    transmat : ndarray of shape (S, S)
        ``transmat[i, j] = P(state j at t + 1 | state i at t)``.
    emit_t : ndarray of shape (V, S)
        ``emit_t[v, s] = P(observation v | state s)`` (the emission matrix
        transposed, so one observation's column is a contiguous row).
    stats : tuple of (start, trans, emit) float64 arrays or None
        Accumulators of shapes ``(S,)``, ``(S, S)``, ``(V, S)``; the expected
        counts of the batch are *added* to them.  ``None``: not computed
        (likelihood and/or posteriors only).
    want_gamma : bool, default=False
        Return the packed posteriors ``gamma`` of shape ``(n_tokens, S)``.
    dtype : {np.float64, np.float32}
        Working precision of the recursions (the counts and the
        log-likelihood are always accumulated in float64).

    Returns
    -------
    loglik : float
        Sum of the log-likelihoods of the batch's sentences.
    gamma : ndarray of shape (n_tokens, S) or None
        Posterior state probabilities, packed like ``batch.ids``.
    """
    ids, steps = batch.ids, batch.steps
    T = steps.shape[0] - 1
    N = ids.shape[0]
    start = np.asarray(startprob, dtype=dtype)
    A = np.ascontiguousarray(transmat, dtype=dtype)
    At = np.ascontiguousarray(A.T)
    Bt = np.ascontiguousarray(emit_t, dtype=dtype)
    S = A.shape[0]

    emis = np.empty((N, S), dtype=dtype)
    _gather_rows(Bt, ids, emis)
    alpha = np.empty((N, S), dtype=dtype)
    c = np.empty(N, dtype=np.float64)

    # forward
    n0 = steps[1]
    alpha[:n0] = start
    _emit_normalize(alpha[:n0], emis[:n0], c[:n0])
    for t in range(1, T):
        p, a, b = steps[t - 1], steps[t], steps[t + 1]
        np.matmul(alpha[p:p + (b - a)], A, out=alpha[a:b])
        _emit_normalize(alpha[a:b], emis[a:b], c[a:b])
    loglik = float(np.log(c).sum())
    if stats is None and not want_gamma:
        return loglik, None

    # backward: beta rows of step t are beta[:n_t]; alpha rows become gamma
    beta = np.empty((n0, S), dtype=dtype)
    beta[: steps[T] - steps[T - 1]] = 1.0
    trans_acc = None if stats is None else np.zeros((S, S), dtype=np.float64)
    for t in range(T - 1, 0, -1):
        p, a, b = steps[t - 1], steps[t], steps[t + 1]
        n = b - a
        _backward_weights(emis[a:b], beta[:n], c[a:b], alpha[a:b])
        if trans_acc is not None:
            trans_acc += alpha[p:p + n].T @ emis[a:b]
        np.matmul(emis[a:b], At, out=beta[:n])
        beta[n:a - p] = 1.0
    _backward_weights(emis[:n0], beta[:n0], c[:n0], alpha[:n0])
    if stats is not None:
        s_start, s_trans, s_emit = stats
        s_start += alpha[:n0].sum(axis=0, dtype=np.float64)
        s_trans += trans_acc * A  # xi = alpha_{t-1}^T (B beta / c) elementwise A
        _scatter_rows(ids, alpha, s_emit)
    return loglik, (alpha if want_gamma else None)


def viterbi_paths(ids, offsets, startprob, transmat, emit_t):
    """Most probable state path of every sentence (log space, sentences in parallel).

    The suite's one Viterbi (:func:`skbioner.decoding.viterbi_ids`) over the
    log emission probabilities looked up by observation id.

    Returns
    -------
    paths : ndarray of int32, shape (n_tokens,)
    logprob : ndarray of float64, shape (n_sentences,)
        Log joint probability of each sentence with its best path.
    """
    tiny = np.finfo(np.float64).tiny  # log(0) clipped to log(tiny) ~ -708: all finite

    def log(p):
        return np.log(np.maximum(np.asarray(p, dtype=np.float64), tiny))

    log_start = log(startprob)
    return viterbi_ids(ids, offsets, log(emit_t), log(transmat), log_start,
                       np.zeros_like(log_start))
