"""Compiled Brown clustering (Brown et al. 1992) in Liang's (2005) windowed form.

The words, most frequent first, enter a window of ``n_clusters + 1`` active
clusters one at a time; after each entry the two clusters whose merge loses
the least average mutual information (AMI) between adjacent clusters are
merged.  When every word is in, the remaining ``n_clusters`` clusters are
merged down to one, and that last merge tree gives each cluster its bit
string.  ``tests/annotate/brown_oracle.py`` is the slow pure-Python oracle
that recomputes every loss from scratch; the tests check that both merge
the same clusters with the same losses.

State (:class:`Window`; slots ``0..K-1``, ``K = n_clusters + 1``): ``B[a, b]``
bigram count of cluster ``a`` followed by ``b``, ``u[a]`` unigram count,
``Q[a, b] = B log(B N / (u_a u_b))`` (the AMI term times ``N``), their row
and column sums, and ``L[s, t]`` (``s < t``) the loss of merging ``s`` and
``t``, times ``N``.  The kernels take it and the word counts (:class:`Counts`)
as two records.  Every update is incremental: adding a word or merging into a
cluster with few neighbours (the common case: a rare word joins a cluster)
costs ``O(K^2)`` additions and ``O(K * neighbours)`` logarithms.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

__all__ = ["brown_merges"]

#: The word counts, read only: bigrams forward (``fw``: word -> next words) and backward
#: (``bw``) as CSR arrays, and the unigram counts.
Counts = namedtuple("Counts", "fw_ptr fw_idx fw_dat bw_ptr bw_idx bw_dat unigram")
#: The window of a run (:func:`new_state`): ``owner`` (slot of each word, -1: not yet in),
#: each slot's member list (``head``, ``nxt``), ``active`` slots, the counts and losses
#: ``B, Q, L`` and sums ``Rq, Cq, RB, CB, u``, scratch arrays (``nb, mark, h, dA, P, g``),
#: the ``merges`` and their ``losses``, and ``logN`` (log of the corpus length).
Window = namedtuple("Window", "owner head nxt active B Q L Rq Cq RB CB u nb mark h dA P g "
                              "merges losses logN")


@njit(cache=True, nogil=True, inline="always")
def _F(c, ua, ub, logN):
    """``c * log(c N / (ua ub))``: one AMI term times N (0 for no count)."""
    if c <= 0.0:
        return 0.0
    return c * (math.log(c) + logN - math.log(ua) - math.log(ub))


@njit(cache=True, nogil=True, inline="always")
def _G(c, k):
    """``_F`` with ``k = logN - log(ua) - log(ub)`` computed by the caller once per pair."""
    if c <= 0.0:
        return 0.0
    return c * (math.log(c) + k)


@njit(cache=True, nogil=True)
def _support(t, exclude, active, B, K, out):
    """Active slots x (not ``t``, not ``exclude``) with a bigram to or from ``t``."""
    n = 0
    for x in range(K):
        if active[x] and x != t and x != exclude and (B[t, x] > 0.0 or B[x, t] > 0.0):
            out[n] = x
            n += 1
    return n


@njit(cache=True, nogil=True)
def _pair_loss(s, t, n_nb, st):
    """Merge loss of ``s`` and ``t`` (times N), reading ``t``'s neighbours ``st.nb[:n_nb]``."""
    nb, B, Q, Rq, Cq, RB, CB, u, logN = st.nb, st.B, st.Q, st.Rq, st.Cq, st.RB, st.CB, st.u, st.logN
    ust = u[s] + u[t]
    sig = 0.0
    exq = 0.0
    exb = 0.0
    kst = logN - math.log(ust)
    for i in range(n_nb):
        x = nb[i]
        if x == s:
            continue
        kx = kst - math.log(u[x])
        sig += _G(B[s, x] + B[t, x], kx) + _G(B[x, s] + B[x, t], kx)
        exq += Q[s, x] + Q[x, s]
        exb += B[s, x] + B[x, s]
    restq = Rq[s] + Cq[s] - 2.0 * Q[s, s] - Q[s, t] - Q[t, s] - exq
    restb = RB[s] + CB[s] - 2.0 * B[s, s] - B[s, t] - B[t, s] - exb
    sig += restq + math.log(u[s] / ust) * restb
    d = _F(B[s, s] + B[s, t] + B[t, s] + B[t, t], ust, ust, logN)
    a_s = Rq[s] + Cq[s] - Q[s, s]
    a_t = Rq[t] + Cq[t] - Q[t, t]
    return a_s + a_t - Q[s, t] - Q[t, s] - sig - d


@njit(cache=True, nogil=True)
def _add_word(w, k, c, st):
    """Word ``w`` enters the window in the empty slot ``k``."""
    owner, active, B, Q, L, u = st.owner, st.active, st.B, st.Q, st.L, st.u
    nb, mark = st.nb, st.mark
    Rq, Cq, RB, CB, logN = st.Rq, st.Cq, st.RB, st.CB, st.logN
    fw_ptr, fw_idx, fw_dat, bw_ptr, bw_idx, bw_dat = c.fw_ptr, c.fw_idx, c.fw_dat, c.bw_ptr, \
        c.bw_idx, c.bw_dat
    K = B.shape[0]
    owner[w] = k
    u[k] = c.unigram[w]
    active[k] = True
    for p in range(fw_ptr[w], fw_ptr[w + 1]):
        o = owner[fw_idx[p]]
        if o >= 0:
            B[k, o] += fw_dat[p]
    for p in range(bw_ptr[w], bw_ptr[w + 1]):
        x = bw_idx[p]
        o = owner[x]
        if o >= 0 and x != w:
            B[o, k] += bw_dat[p]
    n_nb = _support(k, -1, active, B, K, nb)
    for i in range(n_nb):
        s = nb[i]
        Q[k, s] = _F(B[k, s], u[k], u[s], logN)
        Q[s, k] = _F(B[s, k], u[s], u[k], logN)
        mark[s] = True
    Q[k, k] = _F(B[k, k], u[k], u[k], logN)
    # pairs of older clusters touching k's neighbours gain the terms of k
    for i in range(n_nb):
        s = nb[i]
        for t in range(K):
            if not active[t] or t == k or t == s or (mark[t] and t < s):
                continue
            kk = logN - math.log(u[s] + u[t]) - math.log(u[k])
            d = (Q[s, k] + Q[k, s] + Q[t, k] + Q[k, t]
                 - _G(B[s, k] + B[t, k], kk) - _G(B[k, s] + B[k, t], kk))
            if s < t:
                L[s, t] += d
            else:
                L[t, s] += d
    for i in range(n_nb):
        s = nb[i]
        Rq[s] += Q[s, k]
        Cq[s] += Q[k, s]
        RB[s] += B[s, k]
        CB[s] += B[k, s]
        mark[s] = False
    rq = Q[k, k]
    cq = Q[k, k]
    rb = B[k, k]
    cb = B[k, k]
    for i in range(n_nb):
        s = nb[i]
        rq += Q[k, s]
        cq += Q[s, k]
        rb += B[k, s]
        cb += B[s, k]
    Rq[k] = rq
    Cq[k] = cq
    RB[k] = rb
    CB[k] = cb
    for s in range(K):
        if active[s] and s != k:
            v = _pair_loss(s, k, n_nb, st)
            if s < k:
                L[s, k] = v
            else:
                L[k, s] = v


@njit(cache=True, nogil=True)
def _merge(a, b, st):
    """Merge cluster ``b`` into ``a``; keep every loss of the remaining pairs exact."""
    active, B, Q, L, u, logN, nb, mark = st.active, st.B, st.Q, st.L, st.u, st.logN, st.nb, st.mark
    Rq, Cq, RB, CB, h, dA, P, g = st.Rq, st.Cq, st.RB, st.CB, st.h, st.dA, st.P, st.g
    K = B.shape[0]
    n_nb = _support(b, a, active, B, K, nb)
    for i in range(n_nb):
        mark[nb[i]] = True
    um = u[a] + u[b]
    lam = math.log(u[a] / um)
    bmm = B[a, a] + B[a, b] + B[b, a] + B[b, b]
    for s in range(K):
        if not active[s] or s == a or s == b:
            continue
        qsm = _F(B[s, a] + B[s, b], u[s], um, logN)
        qms = _F(B[a, s] + B[b, s], um, u[s], logN)
        dA[s] = qsm + qms - Q[s, a] - Q[a, s] - Q[s, b] - Q[b, s]
        g[s] = B[s, a] + B[a, s]
        h[s] = dA[s] - lam * g[s]
        # the new loss L(s, a + b) from the old L(s, a), less its A(s) + A(a + b)
        usa = u[s] + u[a]
        usm = u[s] + um
        a_s = Rq[s] + Cq[s] - Q[s, s]
        a_a = Rq[a] + Cq[a] - Q[a, a]
        d_old = _F(B[s, s] + B[s, a] + B[a, s] + B[a, a], usa, usa, logN)
        l_old = L[s, a] if s < a else L[a, s]
        sig = a_s + a_a - Q[s, a] - Q[a, s] - d_old - l_old
        sig -= (_F(B[s, b] + B[a, b], usa, u[b], logN)
                + _F(B[b, s] + B[b, a], u[b], usa, logN))
        brest = RB[s] + CB[s] + RB[a] + CB[a]
        brest -= 2.0 * B[s, s] + B[a, s] + B[s, a]
        brest -= B[s, a] + B[a, s] + 2.0 * B[a, a]
        brest -= B[s, b] + B[b, s] + B[a, b] + B[b, a]
        kold = logN - math.log(usa)
        knew = logN - math.log(usm)
        for i in range(n_nb):
            x = nb[i]
            if x == s:
                continue
            r = B[s, x] + B[a, x]
            c = B[x, s] + B[x, a]
            lux = math.log(u[x])
            sig -= _G(r, kold - lux) + _G(c, kold - lux)
            sig += _G(r + B[b, x], knew - lux) + _G(c + B[x, b], knew - lux)
            brest -= r + c
        sig += math.log(usa / usm) * brest
        d_new = _F(B[s, s] + B[s, a] + B[s, b] + B[a, s] + B[b, s] + bmm, usm, usm, logN)
        P[s] = -qsm - qms - sig - d_new
    lum, lua, lub = math.log(um), math.log(u[a]), math.log(u[b])
    # the other pairs: separable change h[s] + h[t], exact where b has a neighbour
    for s in range(K):
        if not active[s] or s == a or s == b:
            continue
        hs = h[s]
        for t in range(s + 1, K):
            if active[t] and t != a and t != b:
                L[s, t] += hs + h[t]
    for i in range(n_nb):
        s = nb[i]
        for t in range(K):
            if not active[t] or t == a or t == b or t == s or (mark[t] and t < s):
                continue
            k0 = logN - math.log(u[s] + u[t])
            xa = B[s, a] + B[t, a]
            ya = B[a, s] + B[a, t]
            xb = B[s, b] + B[t, b]
            yb = B[b, s] + B[b, t]
            km, ka, kb = k0 - lum, k0 - lua, k0 - lub
            dsum = (_G(xa + xb, km) + _G(ya + yb, km) - _G(xa, ka) - _G(ya, ka)
                    - _G(xb, kb) - _G(yb, kb))
            d = dA[s] + dA[t] - dsum - (h[s] + h[t])
            if s < t:
                L[s, t] += d
            else:
                L[t, s] += d
    for i in range(n_nb):
        mark[nb[i]] = False
    _fold_into(a, b, um, bmm, st)


@njit(cache=True, nogil=True)
def _fold_into(a, b, um, bmm, st):
    """The merged cluster's counts, AMI terms and sums; ``b`` emptied; losses with ``a + b``."""
    active, B, Q, L, u, logN, P = st.active, st.B, st.Q, st.L, st.u, st.logN, st.P
    Rq, Cq, RB, CB = st.Rq, st.Cq, st.RB, st.CB
    K = B.shape[0]
    for x in range(K):
        if not active[x] or x == a or x == b:
            continue
        B[a, x] += B[b, x]
        B[x, a] += B[x, b]
    B[a, a] = bmm
    u[a] = um
    for x in range(K):
        B[b, x] = 0.0
        B[x, b] = 0.0
    active[b] = False
    rq = 0.0
    cq = 0.0
    rb = 0.0
    cb = 0.0
    for x in range(K):
        if not active[x]:
            continue
        if x != a:
            nq = _F(B[x, a], u[x], um, logN)
            nqc = _F(B[a, x], um, u[x], logN)
            Rq[x] += nq - Q[x, a] - Q[x, b]
            Cq[x] += nqc - Q[a, x] - Q[b, x]
            # RB[x], CB[x]: B[x, a] now holds B[x, a] + B[x, b], the sums are unchanged
            Q[x, a] = nq
            Q[a, x] = nqc
            rq += nqc
            cq += nq
            rb += B[a, x]
            cb += B[x, a]
    Q[a, a] = _F(bmm, um, um, logN)
    Rq[a] = rq + Q[a, a]
    Cq[a] = cq + Q[a, a]
    RB[a] = rb + bmm
    CB[a] = cb + bmm
    for x in range(K):
        Q[b, x] = 0.0
        Q[x, b] = 0.0
        L[b, x] = 0.0
        L[x, b] = 0.0
    Rq[b] = Cq[b] = RB[b] = CB[b] = 0.0
    u[b] = 0.0
    a_a = Rq[a] + Cq[a] - Q[a, a]
    for s in range(K):
        if active[s] and s != a:
            v = Rq[s] + Cq[s] - Q[s, s] + a_a + P[s]
            if s < a:
                L[s, a] = v
            else:
                L[a, s] = v


@njit(cache=True, nogil=True)
def _best_pair(active, L):
    K = L.shape[0]
    best = np.inf
    bs = -1
    bt = -1
    for s in range(K):
        if not active[s]:
            continue
        for t in range(s + 1, K):
            if active[t] and L[s, t] < best:
                best = L[s, t]
                bs = s
                bt = t
    return bs, bt, best


@njit(cache=True, nogil=True)
def _run(counts, n_clusters, start, stop, st, progress):
    """Add words ``start..stop-1`` to the window, merging after each beyond ``n_clusters``.

    ``st`` (a :class:`Window`) holds the arrays between calls (so the caller
    can report progress); ``progress[0]`` counts merges.  Returns nothing.
    """
    active = st.active
    K = active.shape[0]
    for w in range(start, stop):
        k = -1
        for x in range(K):
            if not active[x]:
                k = x
                break
        _add_word(w, k, counts, st)
        st.head[k] = w
        st.nxt[w] = -1
        n_active = 0
        for x in range(K):
            if active[x]:
                n_active += 1
        if n_active > n_clusters:
            _merge_best(st, progress)


@njit(cache=True, nogil=True)
def _absorb(a, b, owner, head, nxt):
    """Members of slot ``b`` join slot ``a`` (owner relabelled, lists joined)."""
    w = head[b]
    last = -1
    while w >= 0:
        owner[w] = a
        last = w
        w = nxt[w]
    if last >= 0:
        nxt[last] = head[a]
        head[a] = head[b]
    head[b] = -1


@njit(cache=True, nogil=True)
def _collapse(st, progress):
    """Merge the remaining clusters down to one, recording each merge."""
    while _merge_best(st, progress):
        pass


@njit(cache=True, nogil=True)
def _merge_best(st, progress):
    """Merge the pair of least loss (False if fewer than two clusters are left).

    The cluster with fewer neighbours is absorbed into the other (ties: the
    higher slot into the lower), which keeps the update cheap.
    """
    active, B, nb = st.active, st.B, st.nb
    s, t, loss = _best_pair(active, st.L)
    if s < 0:
        return False
    K = B.shape[0]
    if _support(s, t, active, B, K, nb) < _support(t, s, active, B, K, nb):
        s, t = t, s
    _absorb(s, t, st.owner, st.head, st.nxt)
    _merge(s, t, st)
    m = progress[0]
    st.merges[m, 0] = s
    st.merges[m, 1] = t
    st.losses[m] = loss
    progress[0] = m + 1
    return True


def new_state(n_words, n_clusters, n_tokens):
    """The :class:`Window` of a run (see :func:`_run`)."""
    K = n_clusters + 1
    return Window(
        np.full(n_words, -1, np.int64),  # owner: slot of each word (-1: not yet in)
        np.full(K, -1, np.int64),  # head of each slot's member list
        np.full(n_words, -1, np.int64),  # next member
        np.zeros(K, np.bool_),  # active
        np.zeros((K, K)), np.zeros((K, K)), np.zeros((K, K)),  # B, Q, L
        np.zeros(K), np.zeros(K), np.zeros(K), np.zeros(K),  # Rq, Cq, RB, CB
        np.zeros(K),  # u
        np.zeros(K, np.int64), np.zeros(K, np.bool_),  # nb, mark
        np.zeros(K), np.zeros(K), np.zeros(K), np.zeros(K),  # h, dA, P, g
        np.zeros((max(n_words - 1, 1), 2), np.int64),  # merges (slot kept, slot absorbed)
        np.zeros(max(n_words - 1, 1)),  # losses (times N)
        math.log(n_tokens),
    )


def brown_merges(bigrams, unigram, n_tokens, n_clusters, *, chunk=1000, callback=None):
    """Run Liang's windowed Brown clustering.

    Parameters
    ----------
    bigrams : scipy.sparse.csr_matrix, shape (n_words, n_words)
        ``bigrams[v, w]``: how often word ``v`` is followed by ``w``; words
        numbered by decreasing frequency (they enter the window in that order).
    unigram : ndarray of float64, shape (n_words,)
        Word counts.
    n_tokens : int
        ``N`` of the AMI (the corpus length).
    n_clusters : int
        Size of the window (the number of leaf clusters).
    chunk : int, default=1000
        Words added per compiled call (``callback`` runs between calls).
    callback : callable, optional
        ``callback(n)`` after each chunk of ``n`` words.

    Returns
    -------
    owner : ndarray of int64, shape (n_words,)
        Slot of each word's leaf cluster (before the final merges).
    merges : ndarray of int64, shape (n_words - 1, 2)
        Every merge in order ``(slot kept, slot absorbed)``; the last
        ``min(n_words, n_clusters) - 1`` build the tree over the leaves.
    losses : ndarray of float64, shape (n_words - 1,)
        AMI lost by each merge (in nats, ``L / N``).
    n_leaf_merges : int
        Merges made while words entered (the rest are the final tree).
    """
    import scipy.sparse as sp

    n_words = bigrams.shape[0]
    fw = sp.csr_matrix(bigrams, dtype=np.float64)
    bw = sp.csr_matrix(fw.T)
    counts = Counts(fw.indptr, fw.indices, fw.data, bw.indptr, bw.indices, bw.data,
                    np.asarray(unigram, np.float64))
    st = new_state(n_words, n_clusters, float(n_tokens))
    progress = np.zeros(1, np.int64)
    for start in range(0, n_words, chunk):
        stop = min(start + chunk, n_words)
        _run(counts, n_clusters, start, stop, st, progress)
        if callback is not None:
            callback(stop - start)
    n_leaf = int(progress[0])
    owner = st.owner.copy()
    _collapse(st, progress)
    n = int(progress[0])
    return owner, st.merges[:n].copy(), st.losses[:n] / n_tokens, n_leaf
