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

``||dPhi||^2`` is computed exactly: feature keys of the two paths are merged
(features shared by tokens of one sentence, and columns shared by projected
labels of several schemes, add up before squaring).

Averaged weights (Collins 2002) are kept with the usual trick: ``acc``
accumulates ``c * tau * dPhi`` where ``c`` counts the sentences seen before
the update, and the average after ``n`` sentences is ``w - acc / n``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..decoding._viterbi import _viterbi_one

VARIANTS = {"PA": 0, "PA-I": 1, "PA-II": 2}
COSTS = {"hamming": 0, "sqrt_hamming": 1}


@njit(cache=True, nogil=True)
def _path_score(s, Tm, Sm, Em, path):
    n = len(path)
    total = Sm[path[0]] + Em[path[n - 1]]
    for i in range(n):
        total += s[i, path[i]]
        if i > 0:
            total += Tm[path[i - 1], path[i]]
    return total


@njit(cache=True, nogil=True)
def pa_epoch(indptr, indices, data, offsets, y, order, cols,
             W, T, S, E, W_acc, T_acc, S_acc, E_acc, counter,
             C, variant, cost_kind, loss_augmented, mask_start, mask_trans, mask_end):
    """One pass over the sentences in ``order``; updates the weights in place.

    Returns ``(counter, total_loss, sentence_errors, token_errors)``.
    """
    Lm, K = cols.shape
    Lt = W.shape[1]
    max_len = 0
    for s in range(len(offsets) - 1):
        n = offsets[s + 1] - offsets[s]
        if n > max_len:
            max_len = n
    z = np.zeros((max_len, Lt))
    sm = np.zeros((max_len, Lm))
    sdec = np.zeros((max_len, Lm))
    Tm = np.zeros((Lm, Lm))
    Tdec = np.zeros((Lm, Lm))
    Sm = np.zeros(Lm)
    Em = np.zeros(Lm)
    Sdec = np.zeros(Lm)
    Edec = np.zeros(Lm)
    yhat = np.zeros(max_len, dtype=np.int32)
    dT = np.zeros((Lt, Lt))
    dS = np.zeros(Lt)
    dE = np.zeros(Lt)
    total_loss = 0.0
    sent_err = 0
    tok_err = 0

    for oi in range(len(order)):
        s_id = order[oi]
        a = offsets[s_id]
        n = offsets[s_id + 1] - a
        if n == 0:
            counter += 1
            continue
        gold = y[a:a + n]
        # emission scores per column, then per main label
        for i in range(n):
            for c in range(Lt):
                z[i, c] = 0.0
            for p in range(indptr[a + i], indptr[a + i + 1]):
                f = indices[p]
                v = data[p]
                for c in range(Lt):
                    z[i, c] += v * W[f, c]
            for lab in range(Lm):
                acc = 0.0
                for k in range(K):
                    acc += z[i, cols[lab, k]]
                sm[i, lab] = acc
        for l1 in range(Lm):
            Sm[l1] = 0.0
            Em[l1] = 0.0
            for k in range(K):
                Sm[l1] += S[cols[l1, k]]
                Em[l1] += E[cols[l1, k]]
            for l2 in range(Lm):
                acc = 0.0
                for k in range(K):
                    acc += T[cols[l1, k], cols[l2, k]]
                Tm[l1, l2] = acc
        # decoding (masked, optionally cost-augmented)
        for l1 in range(Lm):
            Sdec[l1] = Sm[l1] + mask_start[l1]
            Edec[l1] = Em[l1] + mask_end[l1]
            for l2 in range(Lm):
                Tdec[l1, l2] = Tm[l1, l2] + mask_trans[l1, l2]
        for i in range(n):
            for lab in range(Lm):
                sdec[i, lab] = sm[i, lab]
                if loss_augmented and lab != gold[i]:
                    sdec[i, lab] += 1.0
        _viterbi_one(sdec[:n], Tdec, Sdec, Edec, yhat[:n])
        ham = 0
        for i in range(n):
            if yhat[i] != gold[i]:
                ham += 1
        if ham == 0:
            counter += 1
            continue
        sent_err += 1
        tok_err += ham
        rho = float(ham) if cost_kind == 0 else np.sqrt(float(ham))
        loss = _path_score(sm, Tm, Sm, Em, yhat[:n]) - _path_score(sm, Tm, Sm, Em, gold) + rho
        if loss <= 0.0:
            counter += 1
            continue
        total_loss += loss
        # feature part of dPhi: keys f * Lt + column, merged exactly
        m = 0
        for i in range(n):
            if yhat[i] != gold[i]:
                m += 2 * K * (indptr[a + i + 1] - indptr[a + i])
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
                for p in range(indptr[a + i], indptr[a + i + 1]):
                    f = indices[p]
                    keys[m] = f * Lt + cg
                    vals[m] = data[p]
                    m += 1
                    keys[m] = f * Lt + ch
                    vals[m] = -data[p]
                    m += 1
        keys = keys[:m]
        vals = vals[:m]
        perm = np.argsort(keys, kind="mergesort")
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
        nu = u + 1
        norm2 = 0.0
        for j in range(nu):
            norm2 += uv[j] * uv[j]
        # transition part of dPhi
        for k in range(K):
            dS[cols[gold[0], k]] += 1.0
            dS[cols[yhat[0], k]] -= 1.0
            dE[cols[gold[n - 1], k]] += 1.0
            dE[cols[yhat[n - 1], k]] -= 1.0
            for i in range(1, n):
                dT[cols[gold[i - 1], k], cols[gold[i], k]] += 1.0
                dT[cols[yhat[i - 1], k], cols[yhat[i], k]] -= 1.0
        for c1 in range(Lt):
            norm2 += dS[c1] * dS[c1] + dE[c1] * dE[c1]
            for c2 in range(Lt):
                norm2 += dT[c1, c2] * dT[c1, c2]
        if norm2 <= 0.0:
            tau = 0.0
        elif variant == 0:
            tau = loss / norm2
        elif variant == 1:
            tau = min(C, loss / norm2)
        else:
            tau = loss / (norm2 + 1.0 / (2.0 * C))
        ctau = counter * tau
        for j in range(nu):
            f = uk[j] // Lt
            c = uk[j] - f * Lt
            W[f, c] += tau * uv[j]
            W_acc[f, c] += ctau * uv[j]
        for c1 in range(Lt):
            if dS[c1] != 0.0:
                S[c1] += tau * dS[c1]
                S_acc[c1] += ctau * dS[c1]
                dS[c1] = 0.0
            if dE[c1] != 0.0:
                E[c1] += tau * dE[c1]
                E_acc[c1] += ctau * dE[c1]
                dE[c1] = 0.0
            for c2 in range(Lt):
                if dT[c1, c2] != 0.0:
                    T[c1, c2] += tau * dT[c1, c2]
                    T_acc[c1, c2] += ctau * dT[c1, c2]
                    dT[c1, c2] = 0.0
        counter += 1
    return counter, total_loss, sent_err, tok_err
