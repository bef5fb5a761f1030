"""Compiled kernels of the pairwise SVMs: dual coordinate descent, the degree-2 map, the vote.

The binary SVMs of :class:`~skbioner.models.PairwiseSVMTagger` are linear
SVMs over the explicit degree-2 map of the features, trained here by dual
coordinate descent with shrinking (Hsieh, Chang, Lin, Keerthi & Sundararajan
2008; liblinear's ``solve_l2r_l1l2_svc`` with the hinge loss) directly on
the rows of one shared CSR matrix (a pair reads its tokens' rows by index),
without holding the GIL, so pairs train in parallel threads; prediction adds
stored weights by mapped column without writing the map out; the pairwise
coupling of probabilities.  Kept apart from the estimator so that the tests
can compare each kernel with liblinear or a slow pure-Python oracle.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ..features._hashing import splitmix64


@njit(cache=True, nogil=True, inline="always")
def _next(state):
    """The splitmix64 generator: the next pseudo-random 64-bit value (``state``: 1 element)."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    return splitmix64(state[0])


@njit(cache=True, nogil=True, inline="always")
def _value(data, indices, q, scale):
    """Entry ``q``'s value: stored, or implied by its column (``data`` of size 0)."""
    if data.shape[0]:
        return np.float64(data[q])
    return scale[1] if indices[q] < scale[0] else scale[2]


@njit(cache=True, nogil=True)
def dcd_svm(csr, rows, positive, C, eps, max_epochs, seed, bias, w):
    """Train a soft-margin linear SVM (hinge loss) on ``rows`` of a CSR matrix.

    Minimises ``0.5 |w|^2 + C sum_i max(0, 1 - y_i (w . x_i + w_b * bias))``
    over ``w`` and the bias weight ``w_b`` (stored in ``w[-1]``; the bias is a
    constant feature of value ``bias``, regularised as in liblinear).

    Parameters
    ----------
    csr : tuple
        ``(indptr, indices, data, scale)``: CSR arrays of the feature rows
        (any column order); ``data`` of size 0 reads the values from the
        columns, ``scale = (n_lin, s_lin, s_quad)``: ``s_lin`` below column
        ``n_lin``, ``s_quad`` from it on (the map of binary features, half the
        memory).
    rows : ndarray of int64
        The training rows.
    positive : ndarray of bool
        ``y_i = +1`` where true, else -1 (one entry per element of ``rows``).
    C : float
    eps : float
        Stopping tolerance on the projected gradient's spread (liblinear's
        ``eps``; 0.1 is its default for this solver).
    max_epochs : int
    seed : int
        Seeds the visiting order.
    bias : float
        Value of the constant feature (0: no intercept).
    w : ndarray of float64, shape (n_features + 1,)
        Zeros on entry; the weights on exit (``w[-1]``: the bias weight).

    Returns
    -------
    epochs : int
        Epochs run (``max_epochs`` if it did not converge).
    alpha : ndarray of float64
        The dual variables (``alpha > 0``: support vectors).
    """
    indptr, indices, data, scale = csr
    n = rows.shape[0]
    nb = w.shape[0] - 1
    alpha = np.zeros(n)
    qd = np.empty(n)
    y = np.empty(n)
    for k in range(n):
        r = rows[k]
        s = bias * bias
        for q in range(indptr[r], indptr[r + 1]):
            v = _value(data, indices, q, scale)
            s += v * v
        qd[k] = s
        y[k] = 1.0 if positive[k] else -1.0
    index = np.arange(n)
    active = n
    gmax_old = np.inf
    gmin_old = -np.inf
    state = np.array([np.uint64(seed)])
    epoch = 0
    while epoch < max_epochs:
        gmax = -np.inf
        gmin = np.inf
        for s in range(active - 1):
            j = s + np.int64(_next(state) % np.uint64(active - s))
            index[s], index[j] = index[j], index[s]
        s = 0
        while s < active:
            k = index[s]
            r = rows[k]
            a, b = indptr[r], indptr[r + 1]
            g = w[nb] * bias
            for q in range(a, b):
                g += w[indices[q]] * _value(data, indices, q, scale)
            g = y[k] * g - 1.0
            pg = 0.0
            if alpha[k] == 0.0:
                if g > gmax_old:
                    active -= 1
                    index[s], index[active] = index[active], index[s]
                    continue
                if g < 0.0:
                    pg = g
            elif alpha[k] == C:
                if g < gmin_old:
                    active -= 1
                    index[s], index[active] = index[active], index[s]
                    continue
                if g > 0.0:
                    pg = g
            else:
                pg = g
            if pg > gmax:
                gmax = pg
            if pg < gmin:
                gmin = pg
            if abs(pg) > 1e-12 and qd[k] > 0.0:
                old = alpha[k]
                new = min(max(old - g / qd[k], 0.0), C)
                alpha[k] = new
                d = (new - old) * y[k]
                for q in range(a, b):
                    w[indices[q]] += d * _value(data, indices, q, scale)
                w[nb] += d * bias
            s += 1
        epoch += 1
        if gmax - gmin <= eps:
            if active == n:
                break
            active = n
            gmax_old = np.inf
            gmin_old = -np.inf
            continue
        gmax_old = gmax if gmax > 0.0 else np.inf
        gmin_old = gmin if gmin < 0.0 else -np.inf
    return epoch, alpha


# -- the explicit degree-2 map ---------------------------------------------------------

#: which products of features the map writes out (``conjunctions=``)
CONJ_NONE, CONJ_PC, CONJ_ALL = 0, 1, 2


@njit(cache=True, nogil=True, inline="always")
def _pair_hash(i, j, n_hash):
    """Column (in ``[0, n_hash)``) of the product of features ``i < j`` (< 2**32 each)."""
    return np.int64(splitmix64((np.uint64(i) << np.uint64(32)) | np.uint64(j))
                    % np.uint64(n_hash))


#: the map of a fitted model (a record for the compiled functions): ``n_base`` features,
#: ``history`` preceding classes of ``n_labels`` labels, products ``mode`` (none of label ``skip``),
#: ``n_hash`` hashed product columns, scales of the features and of the products
MapSpec = namedtuple("MapSpec", "n_base n_labels history mode skip n_hash s_lin s_quad")


@njit(cache=True, nogil=True)
def _augmented(csr, t, prev_t, spec, cols, vals):
    """Active columns of token ``t`` with its preceding-class indicators; returns their count."""
    indptr, indices, data = csr
    m = 0
    for q in range(indptr[t], indptr[t + 1]):
        cols[m] = indices[q]
        vals[m] = data[q]
        m += 1
    for j in range(prev_t.shape[0]):
        if prev_t[j] >= 0:
            cols[m] = spec.n_base + j * spec.n_labels + prev_t[j]
            vals[m] = 1.0
            m += 1
    return m


@njit(cache=True, nogil=True)
def _emit(csr, t, prev_t, spec, cols, vals, out_idx, out_val, q):
    """Write the mapped entries of token ``t`` from ``out_*[q]`` on (``out_idx`` of size 0:
    count only; ``out_val`` of size 0: no values); returns the next free position."""
    indptr, indices, data = csr
    write = out_idx.shape[0] > 0
    values = out_val.shape[0] > 0
    s_lin, s_quad = spec.s_lin, spec.s_quad
    m = _augmented(csr, t, prev_t, spec, cols, vals)
    for u in range(m):
        if write:
            out_idx[q] = cols[u]
            if values:
                out_val[q] = s_lin * vals[u]
        q += 1
    if spec.mode == CONJ_NONE:
        return q
    H = prev_t.shape[0]
    n_labels = spec.n_labels
    n_lin = spec.n_base + H * n_labels
    if spec.mode == CONJ_PC:
        a, b = indptr[t], indptr[t + 1]
        stride = H * n_labels
        for j in range(H):
            lab = prev_t[j]
            if lab < 0 or lab == spec.skip:
                continue
            block = n_lin + j * n_labels + lab
            for r in range(a, b):
                if write:
                    out_idx[q] = block + indices[r] * stride
                    if values:
                        out_val[q] = s_quad * data[r]
                q += 1
        pcpc = n_lin + H * n_labels * spec.n_base
        k = 0
        for j in range(H):
            for j2 in range(j + 1, H):
                if prev_t[j] >= 0 and prev_t[j2] >= 0:
                    if write:
                        out_idx[q] = pcpc + (k * n_labels + prev_t[j]) * n_labels + prev_t[j2]
                        if values:
                            out_val[q] = s_quad
                    q += 1
                k += 1
        return q
    # CONJ_ALL: every product of two active columns, hashed
    for u in range(m):
        for v in range(u + 1, m):
            i = cols[u]
            j = cols[v]
            if i > j:
                i, j = j, i
            if write:
                out_idx[q] = n_lin + _pair_hash(i, j, spec.n_hash)
                if values:
                    out_val[q] = s_quad * vals[u] * vals[v]
            q += 1
    return q


def n_mapped(n_base, n_labels, history, mode, n_hash):
    """Number of columns of the explicit map."""
    n_lin = n_base + history * n_labels
    if mode == CONJ_NONE:
        return n_lin
    if mode == CONJ_PC:
        n_pairs = history * (history - 1) // 2
        return n_lin + history * n_labels * n_base + n_pairs * n_labels * n_labels
    return n_lin + n_hash


@njit(cache=True, nogil=True)
def _scratch(indptr, rows, H):
    """Work arrays for the active columns of any of ``rows`` and ``H`` preceding classes."""
    best = 0
    for k in range(rows.shape[0]):
        d = indptr[rows[k] + 1] - indptr[rows[k]]
        if d > best:
            best = d
    return np.empty(best + H, dtype=np.int64), np.empty(best + H)


@njit(cache=True, nogil=True)
def expand(csr, rows, prev, spec, values):
    """The explicit degree-2 map of feature ``rows`` with their preceding classes.

    Column layout (``n_lin = n_base + H * n_labels``): the features
    (``s_lin * x``), the preceding-class indicators ``pc-j = l`` (``s_lin``),
    then the products: ``CONJ_PC`` each indicator times each feature
    (``n_lin + f * H * n_labels + j * n_labels + l``: the products of one
    feature side by side) and the indicator pairs;
    ``CONJ_ALL`` every product of two active columns, at
    ``n_lin + hash(i, j) % n_hash`` (``s_quad * x_i * x_j``).  With
    ``s_lin = sqrt(2 r g + g^2)`` and ``s_quad = sqrt(2) g`` the dot product
    of two mapped binary rows is ``(g x.x' + r)^2 - r^2`` (``CONJ_ALL``, up to
    hash collisions) -- the degree-2 polynomial kernel.

    Parameters
    ----------
    csr : tuple of ndarray
        ``(indptr, indices, data)`` of the feature rows.
    rows : ndarray of int64
        Rows to map, in output order.
    prev : ndarray of int64, shape (len(rows), H)
        Preceding labels of each row (-1: none).
    spec : MapSpec
    values : bool
        Write the values (False: binary features, the values are implied by
        the columns, see :func:`dcd_svm`).

    Returns
    -------
    out_ptr : ndarray of int64
    out_idx : ndarray of int32
    out_val : ndarray of float32
        CSR arrays of the mapped rows (duplicate columns from hash collisions
        not summed; ``out_val`` of size 0 without ``values``).
    """
    n = rows.shape[0]
    cols, vals = _scratch(csr[0], rows, prev.shape[1])
    none_i = np.empty(0, dtype=np.int32)
    none_v = np.empty(0, dtype=np.float32)
    ptr = np.zeros(n + 1, dtype=np.int64)
    for k in range(n):
        ptr[k + 1] = _emit(csr, rows[k], prev[k], spec, cols, vals, none_i, none_v, ptr[k])
    out_idx = np.empty(ptr[n], dtype=np.int32)
    out_val = np.empty(ptr[n] if values else 0, dtype=np.float32)
    for k in range(n):
        _emit(csr, rows[k], prev[k], spec, cols, vals, out_idx, out_val, ptr[k])
    return ptr, out_idx, out_val


# -- prediction --------------------------------------------------------------------------


#: entries per block of :func:`pack_weights`'s dense fill
_PACK_BLOCK = 1 << 22


def pack_weights(columns, ptr, pairs, values, n_first, n_base):
    """The stored weights laid out for :func:`decide` and :func:`greedy_tag`.

    Parameters
    ----------
    columns : ndarray of int64
        The mapped columns with a weight, sorted.
    ptr : ndarray of int64, shape (len(columns) + 1,)
        Column ``columns[k]`` has the weights ``values[ptr[k]:ptr[k + 1]]`` of
        the pairs ``pairs[ptr[k]:ptr[k + 1]]`` (sorted).
    pairs : ndarray of int
    values : ndarray of float32
    n_first : int
        The pairs every token needs.
    n_base : int
        The features (mapped columns ``0 .. n_base - 1``).

    Returns
    -------
    tuple of ndarray
        ``(index, dense, pairs, values, feature_row, feature_dense)`` (see
        :func:`_add_column`).  A feature's weights for the first ``n_first``
        pairs are a dense row ``feature_dense[feature_row[f]]`` (every token
        reads ~60 features: one contiguous row each, no index); the other
        columns' (preceding-class indicators and products): a column with
        weights for at least a quarter of the first pairs keeps those as a
        dense row, its other weights and a sparse column's are entries;
        ``index`` covers every column up to the last stored one, so a column
        is found in one step.
    """
    # no index of each entry's column (int64 per entry: 1.3 GB with every product and
    # every pair's vote); per-column counts, and the features' entries are a prefix
    counts = np.diff(ptr)
    k_base = int(np.searchsorted(columns, n_base))
    e_base = int(ptr[k_base])
    first = pairs < n_first
    in_features = first[:e_base].copy()
    feature_col = np.repeat(columns[:k_base], counts[:k_base])[in_features]
    feature_row = np.full(n_base, -1, dtype=np.int32)
    with_rows = np.unique(feature_col)
    feature_row[with_rows] = np.arange(with_rows.size, dtype=np.int32)
    feature_dense = np.zeros((with_rows.size, n_first), dtype=np.float32)
    feature_dense[feature_row[feature_col], pairs[:e_base][in_features]] = \
        values[:e_base][in_features]
    first[:e_base] = False
    n_in_first = (np.add.reduceat(first, ptr[:-1], dtype=np.int64) if columns.size
                  else np.zeros(0, dtype=np.int64))
    is_dense = n_in_first >= max(4, n_first // 4)
    slot = np.full(columns.size, -1, dtype=np.int64)
    slot[is_dense] = np.arange(int(is_dense.sum()))
    dense = np.zeros((int(is_dense.sum()), n_first), dtype=np.float32)
    keep = np.ones(pairs.size, dtype=bool)
    keep[:e_base] = ~in_features
    # the dense rows filled by blocks of columns (temporaries of a block's entries only)
    bounds = np.unique(np.searchsorted(ptr, np.arange(0, int(ptr[-1]), _PACK_BLOCK)))
    for k0, k1 in zip(bounds, [*bounds[1:], columns.size]):
        lo, hi = ptr[k0], ptr[k1]
        into = first[lo:hi] & np.repeat(is_dense[k0:k1], counts[k0:k1])
        rows = np.repeat(slot[k0:k1], counts[k0:k1])[into]
        dense[rows, pairs[lo:hi][into]] = values[lo:hi][into]
        keep[lo:hi] &= ~into
    del first
    size = int(columns[-1]) + 2 if columns.size else 1
    start = np.zeros(size, dtype=np.int64)
    if columns.size:
        start[columns + 1] = np.add.reduceat(keep, ptr[:-1], dtype=np.int64)
    start = np.cumsum(start)
    dtype = np.int32 if start[-1] < np.iinfo(np.int32).max else np.int64
    index = np.empty((size, 2), dtype=dtype)
    index[:, 0] = start
    index[:, 1] = -1
    index[columns, 1] = slot
    return index, dense, np.ascontiguousarray(pairs[keep]), \
        np.ascontiguousarray(values[keep], dtype=np.float32), feature_row, feature_dense


#: what :func:`decide` adds up: everything, the part that does not depend on the preceding
#: classes (with the intercept), or the part that does
ALL_TERMS, BASE_TERMS, PC_TERMS = 0, 1, 2


@njit(cache=True, nogil=True, inline="always")
def _add_column(c, v, weights, n_first, lo, hi, acc):
    """``acc[p] += v * W[c, p]`` for the needed pairs ``p < n_first`` and ``lo <= p < hi``.

    ``weights = (index, dense, pairs, values, feature_row, feature_dense)``
    (:func:`pack_weights`): ``index[c] = (start, slot)`` (one memory
    access); a column with many weights among the first ``n_first`` pairs
    has them as a dense row (``dense[slot]``, ``slot >= 0``: contiguous
    adds); its other weights, and all of a sparse column's, are the
    ``pairs``/``values`` entries ``index[c, 0]:index[c + 1, 0]``, sorted by
    pair.  A feature's weights for the first pairs are not here but in
    ``feature_dense`` (:func:`_add_feature`).
    """
    index, dense, pairs, values = weights[0], weights[1], weights[2], weights[3]
    if c + 1 >= index.shape[0]:
        return
    slot = index[c, 1]
    if slot >= 0:
        for p in range(n_first):
            acc[p] += v * dense[slot, p]
    a = index[c, 0]
    b = index[c + 1, 0]
    e = a
    while e < b:
        p = np.int64(pairs[e])
        if p >= n_first:
            break
        acc[p] += v * values[e]
        e += 1
    if lo >= hi or e >= b:
        return
    # entries are sorted by pair: find lo by bisection
    left, right = e, b
    while left < right:
        mid = (left + right) >> 1
        if np.int64(pairs[mid]) < lo:
            left = mid + 1
        else:
            right = mid
    e = left
    while e < b:
        p = np.int64(pairs[e])
        if p >= hi:
            break
        acc[p] += v * values[e]
        e += 1


@njit(cache=True, nogil=True)
def _add_first(c, v, index, dense, pairs, values, acc):
    """:func:`_add_column` without segment pairs (a tight loop for the common case)."""
    if c + 1 >= index.shape[0]:
        return
    n_first = dense.shape[1]
    slot = index[c, 1]
    if slot >= 0:
        for p in range(n_first):
            acc[p] += v * dense[slot, p]
    for e in range(index[c, 0], index[c + 1, 0]):
        p = np.int64(pairs[e])
        if p >= n_first:
            break
        acc[p] += v * values[e]


@njit(cache=True, nogil=True, inline="always")
def _add_feature(f, v, weights, n_first, lo, hi, acc):
    """``acc[p] += v * W[f, p]`` for feature ``f`` (a base column), as :func:`_add_column`."""
    feature_row, feature_dense = weights[4], weights[5]
    row = feature_row[f]
    if row >= 0:
        for p in range(n_first):
            acc[p] += v * feature_dense[row, p]
    if lo < hi:  # the weights of the token's segment pairs
        _add_column(f, v, weights, n_first, lo, hi, acc)


@njit(cache=True, nogil=True)
def _feature_terms(indptr, indices, data, t, s_lin, feature_row, feature_dense, acc):
    """Token ``t``'s feature terms for the first pairs (the rows of ``feature_dense``) --
    :func:`_add_feature` without segment pairs, in a loop the compiler can keep tight."""
    n_first = feature_dense.shape[1]
    for r in range(indptr[t], indptr[t + 1]):
        row = feature_row[indices[r]]
        if row >= 0:
            v = s_lin * data[r]
            for p in range(n_first):
                acc[p] += v * feature_dense[row, p]


@njit(cache=True, nogil=True)
def _terms(csr, t, prev_t, spec, weights, n_first, lo, hi, base, pcs, cols, vals, acc):
    """Add token ``t``'s terms into ``acc``: those without (``base``) and with (``pcs``) the
    preceding classes ``prev_t`` (-1: none) -- the map of :func:`expand` times the weights."""
    indptr, indices, data = csr
    H = prev_t.shape[0]
    n_base, n_labels, s_lin, s_quad = spec.n_base, spec.n_labels, spec.s_lin, spec.s_quad
    n_lin = n_base + H * n_labels
    stride = H * n_labels
    a, b = indptr[t], indptr[t + 1]
    if base:
        if lo < hi:
            for r in range(a, b):
                _add_feature(indices[r], s_lin * data[r], weights, n_first, lo, hi, acc)
        else:
            _feature_terms(indptr, indices, data, t, s_lin, weights[4], weights[5], acc)
    if pcs:
        for j in range(H):
            if prev_t[j] >= 0:
                _add_column(n_base + j * n_labels + prev_t[j], s_lin, weights, n_first, lo,
                            hi, acc)
    if spec.mode == CONJ_PC and pcs:
        for j in range(H):
            lab = prev_t[j]
            if lab < 0 or lab == spec.skip:
                continue
            block = n_lin + j * n_labels + lab
            if lo < hi:
                for r in range(a, b):
                    _add_column(block + indices[r] * stride, s_quad * data[r], weights,
                                n_first, lo, hi, acc)
            else:
                for r in range(a, b):
                    _add_first(block + indices[r] * stride, s_quad * data[r], weights[0],
                               weights[1], weights[2], weights[3], acc)
        pcpc = n_lin + H * n_labels * n_base
        i = 0
        for j in range(H):
            for j2 in range(j + 1, H):
                if prev_t[j] >= 0 and prev_t[j2] >= 0:
                    _add_column(pcpc + (i * n_labels + prev_t[j]) * n_labels + prev_t[j2],
                                s_quad, weights, n_first, lo, hi, acc)
                i += 1
    elif spec.mode == CONJ_ALL:
        # base x base products with the base terms, products with a pc column with the pc's
        m = _augmented(csr, t, prev_t, spec, cols, vals)
        nb = b - a
        for u in range(m):
            for v in range(u + 1, m):
                if (v >= nb and not pcs) or (v < nb and not base):
                    continue
                ci = cols[u]
                cj = cols[v]
                if ci > cj:
                    ci, cj = cj, ci
                _add_column(n_lin + _pair_hash(ci, cj, spec.n_hash), s_quad * vals[u] * vals[v],
                            weights, n_first, lo, hi, acc)


#: the vote of a fitted model (a record for the compiled functions): segment ``s``
#: needs the pairs ``p < n_first`` and ``seg_lo[s] <= p < seg_hi[s]``, its local pair ``i`` is
#: ``local_pairs[s, i]`` between local classes ``local_a[i]`` and ``local_b[i]`` (``b`` wins
#: where the decision is > 0), its local class ``c`` the internal class
#: ``seg_classes[s, c]``, whose output label is ``to_label[...]``
Votes = namedtuple("Votes", "n_first seg_lo seg_hi local_pairs local_a local_b seg_classes "
                            "to_label")


@njit(cache=True, nogil=True)
def _decisions(csr, t, prev_t, spec, weights, intercept, votes, s, base, pcs, cols, vals, acc,
               dec):
    """Token ``t`` of segment ``s``: its terms (:func:`_terms`) into the decisions ``dec`` of
    its local pairs (written with the intercept with ``base``, else added); ``acc`` left zero."""
    lo, hi = votes.seg_lo[s], votes.seg_hi[s]
    _terms(csr, t, prev_t, spec, weights, votes.n_first, lo, hi, base, pcs, cols, vals, acc)
    for i in range(votes.local_pairs.shape[1]):
        p = votes.local_pairs[s, i]
        if base:
            dec[i] = acc[p] + intercept[p]
        else:
            dec[i] += acc[p]
    for p in range(votes.n_first):  # reset what was touched
        acc[p] = 0.0
    for p in range(lo, hi):
        acc[p] = 0.0


@njit(cache=True, nogil=True)
def decide(csr, rows, prev, spec, weights, intercept, votes, seg, which, out):
    """Decision values of the pairs each token needs, without writing the map out.

    Token ``rows[k]`` of segment ``seg[k]`` needs the pairs of that segment
    (:data:`Votes`); ``out[k, i]`` receives the decision value of its local
    pair ``i``.  The terms of the features alone (and their products) do not
    depend on the preceding classes: ``which=BASE_TERMS`` writes them with
    the intercept, ``which=PC_TERMS`` adds the terms of the preceding classes
    to ``out``, ``which=ALL_TERMS`` writes both (:func:`greedy_tag` adds them
    up in the order of ``BASE_TERMS`` then ``PC_TERMS``).

    Parameters
    ----------
    csr : tuple of ndarray
        ``(indptr, indices, data)`` of the feature rows (all tokens).
    rows : ndarray of int64
    prev : ndarray of int64, shape (len(rows), H)
        Preceding labels (-1: none); not read with ``BASE_TERMS``.
    spec : MapSpec
    weights : tuple of ndarray
        The weights by mapped column, :func:`pack_weights`.
    intercept : ndarray of float64, shape (n_pairs,)
    votes : Votes
    seg : ndarray of int64, shape (len(rows),)
    which : int
    out : ndarray of float64, shape (len(rows), n_local)
    """
    H = prev.shape[1]
    acc = np.zeros(intercept.shape[0])
    cols, vals = _scratch(csr[0], rows, H)
    none = np.full(H, -1, dtype=np.int64)
    base = which != PC_TERMS
    pcs = which != BASE_TERMS
    for k in range(rows.shape[0]):
        _decisions(csr, rows[k], prev[k] if pcs else none, spec, weights, intercept, votes,
                   seg[k], base, pcs, cols, vals, acc, out[k])
    return out


@njit(cache=True, nogil=True)
def greedy_tag(csr, offsets, spec, weights, intercept, votes, seg, out):
    """Greedy left-to-right tagging: each token's pairwise vote, with the labels predicted
    for its ``H`` preceding tokens as the preceding classes.

    One compiled pass over the sentences: the same decision values as
    :func:`decide` (``BASE_TERMS`` then ``PC_TERMS``), the majority vote (ties to the
    lower local class) among the classes of the token's segment,
    ``out[t] = to_label[winner]``.

    Parameters
    ----------
    csr : tuple of ndarray
        ``(indptr, indices, data)`` of the feature rows.
    offsets : ndarray of int64, shape (n_sentences + 1,)
    spec, weights, intercept, votes
        As :func:`decide`; ``spec.history`` labels are fed back.
    seg : ndarray of int64, shape (n_tokens,)
    out : ndarray of int64, shape (n_tokens,)
        The label codes (written).
    """
    indptr = csr[0]
    history = spec.history
    n = indptr.shape[0] - 1
    every = np.arange(n, dtype=np.int64)
    cols, vals = _scratch(indptr, every, history)
    acc = np.zeros(intercept.shape[0])
    local_a, local_b = votes.local_a, votes.local_b
    n_local = votes.local_pairs.shape[1]
    k_loc = votes.seg_classes.shape[1]
    dec = np.empty(n_local)
    tally = np.zeros(k_loc, dtype=np.int64)
    prev_t = np.full(history, -1, dtype=np.int64)
    for sent in range(offsets.shape[0] - 1):
        first = offsets[sent]
        for t in range(first, offsets[sent + 1]):
            for j in range(history):
                prev_t[j] = out[t - 1 - j] if t - 1 - j >= first else -1
            s = seg[t]
            for part in range(2):  # BASE_TERMS, then PC_TERMS
                _decisions(csr, t, prev_t, spec, weights, intercept, votes, s, part == 0,
                           part == 1, cols, vals, acc, dec)
            for c in range(k_loc):
                tally[c] = 0
            for i in range(n_local):
                if dec[i] > 0.0:
                    tally[local_b[i]] += 1
                else:
                    tally[local_a[i]] += 1
            best = 0
            for c in range(1, k_loc):
                if tally[c] > tally[best]:
                    best = c
            out[t] = votes.to_label[votes.seg_classes[s, best]]
    return out


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
