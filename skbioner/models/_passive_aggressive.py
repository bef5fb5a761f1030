"""Compiled online passive-aggressive training of a linear chain (Crammer et al. 2006).

For each sentence: decode ``y_hat`` with the current weights (optionally
cost-augmented: +1 on every wrong label, i.e. max-loss decoding); if it
differs from the gold ``y``, update

    w <- w + tau * (Phi(x, y) - Phi(x, y_hat))

with the suffered loss ``l = s(y_hat) - s(y) + rho(y, y_hat)`` (margin
required = cost, ``rho`` = Hamming distance or its square root), and

    PA:    tau = l / ||dPhi||^2
    PA-I:  tau = min(C, l / ||dPhi||^2)
    PA-II: tau = l / (||dPhi||^2 + 1 / (2 C)).

``Phi`` includes, when given, the features conjoined with label pairs
(:class:`~skbioner.decoding._viterbi.LabelPairs`).  ``||dPhi||^2`` is
computed exactly: feature keys of the two paths are merged (features shared
by tokens of one sentence, and columns shared by projected labels of several
schemes, add up before squaring).

Averaged weights (Collins 2002) are kept with the usual trick: ``acc``
accumulates ``c * tau * dPhi`` where ``c`` counts the sentences seen before
the update, and the average after ``n`` sentences is ``w - acc / n``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..decoding._viterbi import _viterbi_one, pair_scores

VARIANTS = {"PA": 0, "PA-I": 1, "PA-II": 2}
COSTS = {"hamming": 0, "sqrt_hamming": 1}


@njit(cache=True, nogil=True)
def _path_score(s, Tm, Sm, Em, path, q=None):
    n = len(path)
    total = Sm[path[0]] + Em[path[n - 1]]
    for i in range(n):
        total += s[i, path[i]]
        if i > 0:
            total += Tm[path[i - 1], path[i]]
            if q is not None:
                total += q[i, path[i - 1], path[i]]
    return total


class Sentences(NamedTuple):
    """The kernel's view of the training data: CSR token rows, sentence offsets, gold codes."""

    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray
    offsets: np.ndarray
    y: np.ndarray


class Chain(NamedTuple):
    """The kernel's view of a :class:`~skbioner.models._linear_chain.ChainWeights`."""

    W: np.ndarray
    T: np.ndarray
    start: np.ndarray
    end: np.ndarray


class Update(NamedTuple):
    """How a mistake updates: PA variant, its C, the cost, cost-augmented decoding."""

    C: float
    variant: int
    cost: int
    loss_augmented: bool


class Masks(NamedTuple):
    """Additive masks of forbidden start, transition and end labels (0 or -inf)."""

    start: np.ndarray
    trans: np.ndarray
    end: np.ndarray


class _Buffers(NamedTuple):
    z: np.ndarray      # emission score per weight column of each token
    sm: np.ndarray     # ... per main label
    sdec: np.ndarray   # ... as decoded (cost-augmented)
    Tm: np.ndarray     # transitions, start and end scores per main label
    Sm: np.ndarray
    Em: np.ndarray
    Tdec: np.ndarray   # ... as decoded (masked)
    Sdec: np.ndarray
    Edec: np.ndarray
    yhat: np.ndarray   # the decoded path
    dT: np.ndarray     # transition part of the update
    dS: np.ndarray
    dE: np.ndarray
    q: np.ndarray      # label-pair scores per token (only with label pairs)


@njit(cache=True, nogil=True)
def _buffers(offsets, Lm, Lt, pairs):
    max_len = 0
    for s in range(len(offsets) - 1):
        max_len = max(max_len, offsets[s + 1] - offsets[s])
    return _Buffers(np.zeros((max_len, Lt)), np.zeros((max_len, Lm)), np.zeros((max_len, Lm)),
                    np.zeros((Lm, Lm)), np.zeros(Lm), np.zeros(Lm), np.zeros((Lm, Lm)),
                    np.zeros(Lm), np.zeros(Lm), np.zeros(max_len, dtype=np.int32),
                    np.zeros((Lt, Lt)), np.zeros(Lt), np.zeros(Lt),
                    np.zeros((max_len if pairs else 0, Lm, Lm)))


@njit(cache=True, nogil=True)
def _decode(data, a, n, gold, w, cols, masks, augmented, b, pairs):
    """Label scores of sentence ``a:a+n`` under ``w`` (and ``pairs``); decode ``b.yhat``
    (masked, augmented)."""
    Lm, K = cols.shape
    Lt = w.W.shape[1]
    for i in range(n):
        for c in range(Lt):
            b.z[i, c] = 0.0
        for p in range(data.indptr[a + i], data.indptr[a + i + 1]):
            f = data.indices[p]
            v = data.data[p]
            for c in range(Lt):
                b.z[i, c] += v * w.W[f, c]
        for lab in range(Lm):
            acc = 0.0
            for k in range(K):
                acc += b.z[i, cols[lab, k]]
            b.sm[i, lab] = acc
            b.sdec[i, lab] = acc + (1.0 if augmented and lab != gold[i] else 0.0)
    for l1 in range(Lm):
        b.Sm[l1] = 0.0
        b.Em[l1] = 0.0
        for k in range(K):
            b.Sm[l1] += w.start[cols[l1, k]]
            b.Em[l1] += w.end[cols[l1, k]]
        b.Sdec[l1] = b.Sm[l1] + masks.start[l1]
        b.Edec[l1] = b.Em[l1] + masks.end[l1]
        for l2 in range(Lm):
            acc = 0.0
            for k in range(K):
                acc += w.T[cols[l1, k], cols[l2, k]]
            b.Tm[l1, l2] = acc
            b.Tdec[l1, l2] = acc + masks.trans[l1, l2]
    if pairs is None:
        _viterbi_one(b.sdec[:n], b.Tdec, b.Sdec, b.Edec, b.yhat[:n])
    else:
        pair_scores(data.indptr, data.indices, data.data, a, n, pairs, b.q)
        _viterbi_one(b.sdec[:n], b.Tdec, b.Sdec, b.Edec, b.yhat[:n], b.q[:n])


@njit(cache=True, nogil=True)
def _stable_argsort(keys):
    """The permutation that sorts ``keys`` stably: ``np.argsort(keys, kind="mergesort")``.

    Insertion sort of runs of 16, then bottom-up merges.  Written out because
    numba's generic mergesort takes longer to compile (a few seconds of the first
    run after installing) than this whole module's training kernels.
    """
    m = keys.shape[0]
    perm = np.arange(m)
    run = 16
    for lo in range(0, m, run):
        hi = min(lo + run, m)
        for i in range(lo + 1, hi):
            p = perm[i]
            k = keys[p]
            j = i - 1
            while j >= lo and keys[perm[j]] > k:
                perm[j + 1] = perm[j]
                j -= 1
            perm[j + 1] = p
    buf = np.empty_like(perm)
    width = run
    while width < m:
        for lo in range(0, m, 2 * width):
            mid = min(lo + width, m)
            hi = min(lo + 2 * width, m)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if keys[perm[j]] < keys[perm[i]]:
                    buf[k] = perm[j]
                    j += 1
                else:
                    buf[k] = perm[i]
                    i += 1
                k += 1
            while i < mid:
                buf[k] = perm[i]
                i += 1
                k += 1
            while j < hi:
                buf[k] = perm[j]
                j += 1
                k += 1
        perm, buf = buf, perm
        width *= 2
    return perm


@njit(cache=True, nogil=True)
def _feature_delta(data, a, n, gold, yhat, cols, Lt):
    """The feature part of ``Phi(x, y) - Phi(x, y_hat)``: unique keys ``f * Lt + column``."""
    K = cols.shape[1]
    m = 0
    for i in range(n):
        if yhat[i] != gold[i]:
            m += 2 * K * (data.indptr[a + i + 1] - data.indptr[a + i])
    keys = np.empty(m, dtype=np.int64)
    vals = np.empty(m)
    m = 0
    for i in range(n):
        g = gold[i]
        h = yhat[i]
        if g == h:
            continue
        for k in range(K):
            cg = cols[g, k]
            ch = cols[h, k]
            if cg == ch:
                continue
            for p in range(data.indptr[a + i], data.indptr[a + i + 1]):
                f = data.indices[p]
                keys[m] = f * Lt + cg
                vals[m] = data.data[p]
                m += 1
                keys[m] = f * Lt + ch
                vals[m] = -data.data[p]
                m += 1
    return _merged(keys[:m], vals[:m])


@njit(cache=True, nogil=True)
def _pair_delta(data, a, n, gold, yhat, pairs):
    """The label-pair part of ``Phi(x, y) - Phi(x, y_hat)``: unique keys ``row * P + pair``."""
    P = pairs.coef.shape[1]
    m = 0
    for i in range(1, n):
        m += 2 * (data.indptr[a + i + 1] - data.indptr[a + i])
    keys = np.empty(m, dtype=np.int64)
    vals = np.empty(m)
    m = 0
    for i in range(1, n):
        cg = pairs.index[gold[i - 1], gold[i]]
        ch = pairs.index[yhat[i - 1], yhat[i]]
        if cg == ch:
            continue
        for p in range(data.indptr[a + i], data.indptr[a + i + 1]):
            r = pairs.rows[data.indices[p]]
            if r < 0:
                continue
            if cg >= 0:
                keys[m] = r * P + cg
                vals[m] = data.data[p]
                m += 1
            if ch >= 0:
                keys[m] = r * P + ch
                vals[m] = -data.data[p]
                m += 1
    return _merged(keys[:m], vals[:m])


@njit(cache=True, nogil=True)
def _merged(keys, vals):
    """Unique ``keys`` in increasing order, with the sums of their ``vals``."""
    m = len(keys)
    perm = _stable_argsort(keys)
    uk = np.empty(m, dtype=np.int64)
    uv = np.empty(m)
    u = -1
    last = -1
    for j in range(m):
        kk = keys[perm[j]]
        if kk != last:
            u += 1
            uk[u] = kk
            uv[u] = 0.0
            last = kk
        uv[u] += vals[perm[j]]
    return uk[:u + 1], uv[:u + 1]


@njit(cache=True, nogil=True)
def _transition_delta(gold, yhat, n, cols, b):
    """The transition part of the update into ``b.dT``, ``b.dS``, ``b.dE``."""
    for k in range(cols.shape[1]):
        b.dS[cols[gold[0], k]] += 1.0
        b.dS[cols[yhat[0], k]] -= 1.0
        b.dE[cols[gold[n - 1], k]] += 1.0
        b.dE[cols[yhat[n - 1], k]] -= 1.0
        for i in range(1, n):
            b.dT[cols[gold[i - 1], k], cols[gold[i], k]] += 1.0
            b.dT[cols[yhat[i - 1], k], cols[yhat[i], k]] -= 1.0


@njit(cache=True, nogil=True)
def _step(loss, norm2, update):
    """``tau`` of the PA variant."""
    if norm2 <= 0.0:
        return 0.0
    if update.variant == 0:
        return loss / norm2
    if update.variant == 1:
        return min(update.C, loss / norm2)
    return loss / (norm2 + 1.0 / (2.0 * update.C))


@njit(cache=True, nogil=True)
def _apply(w, acc, uk, uv, b, tau, ctau):
    """``w += tau * dPhi``, ``acc += ctau * dPhi``; clears the transition part."""
    Lt = w.W.shape[1]
    for j in range(len(uk)):
        f = uk[j] // Lt
        c = uk[j] - f * Lt
        w.W[f, c] += tau * uv[j]
        acc.W[f, c] += ctau * uv[j]
    for c1 in range(Lt):
        if b.dS[c1] != 0.0:
            w.start[c1] += tau * b.dS[c1]
            acc.start[c1] += ctau * b.dS[c1]
            b.dS[c1] = 0.0
        if b.dE[c1] != 0.0:
            w.end[c1] += tau * b.dE[c1]
            acc.end[c1] += ctau * b.dE[c1]
            b.dE[c1] = 0.0
        for c2 in range(Lt):
            if b.dT[c1, c2] != 0.0:
                w.T[c1, c2] += tau * b.dT[c1, c2]
                acc.T[c1, c2] += ctau * b.dT[c1, c2]
                b.dT[c1, c2] = 0.0


@njit(cache=True, nogil=True)
def pa_epoch(data, order, cols, w, acc, counter, update, masks, pairs=None, pairs_acc=None):
    """One pass over the sentences in ``order``; updates ``w`` and ``acc`` in place.

    Parameters
    ----------
    data : Sentences
    order : ndarray of int64
        Sentence indices in the order seen.
    cols : ndarray of shape (n_labels, n_blocks)
        Weight column of each main label in each scheme block.
    w, acc : Chain
        Running weights and the averaging accumulator.
    counter : int
        Sentences seen before this epoch.
    update : Update
    masks : Masks
    pairs, pairs_acc : LabelPairs, optional
        Features conjoined with label pairs: running weights and accumulator
        (``coef``), updated in place like ``w`` and ``acc``.

    Returns
    -------
    (counter, total_loss, sentence_errors, token_errors)
    """
    Lt = w.W.shape[1]
    b = _buffers(data.offsets, cols.shape[0], Lt, pairs is not None)
    total_loss = 0.0
    sent_err = 0
    tok_err = 0
    for oi in range(len(order)):
        s_id = order[oi]
        a = data.offsets[s_id]
        n = data.offsets[s_id + 1] - a
        counter += 1  # the update below is weighted by the sentences seen before this one
        if n == 0:
            continue
        gold = data.y[a:a + n]
        _decode(data, a, n, gold, w, cols, masks, update.loss_augmented, b, pairs)
        yhat = b.yhat[:n]
        ham = 0
        for i in range(n):
            if yhat[i] != gold[i]:
                ham += 1
        if ham == 0:
            continue
        sent_err += 1
        tok_err += ham
        rho = float(ham) if update.cost == 0 else np.sqrt(float(ham))
        if pairs is None:
            loss = _path_score(b.sm, b.Tm, b.Sm, b.Em, yhat) - \
                _path_score(b.sm, b.Tm, b.Sm, b.Em, gold) + rho
        else:
            loss = _path_score(b.sm, b.Tm, b.Sm, b.Em, yhat, b.q) - \
                _path_score(b.sm, b.Tm, b.Sm, b.Em, gold, b.q) + rho
        if loss <= 0.0:
            continue
        total_loss += loss
        uk, uv = _feature_delta(data, a, n, gold, yhat, cols, Lt)
        norm2 = 0.0
        for j in range(len(uv)):
            norm2 += uv[j] * uv[j]
        _transition_delta(gold, yhat, n, cols, b)
        for c1 in range(Lt):
            norm2 += b.dS[c1] * b.dS[c1] + b.dE[c1] * b.dE[c1]
            for c2 in range(Lt):
                norm2 += b.dT[c1, c2] * b.dT[c1, c2]
        if pairs is not None:
            pk, pv = _pair_delta(data, a, n, gold, yhat, pairs)
            for j in range(len(pv)):
                norm2 += pv[j] * pv[j]
        tau = _step(loss, norm2, update)
        _apply(w, acc, uk, uv, b, tau, (counter - 1) * tau)
        if pairs is not None:
            P = pairs.coef.shape[1]
            for j in range(len(pk)):
                pairs.coef[pk[j] // P, pk[j] % P] += tau * pv[j]
                pairs_acc.coef[pk[j] // P, pk[j] % P] += (counter - 1) * tau * pv[j]
    return counter, total_loss, sent_err, tok_err
