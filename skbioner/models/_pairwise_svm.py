"""``PairwiseSVMTagger``: Kazama, Makino, Ohta & Tsujii (2002), pairwise class-split SVMs.

Each token is classified by ``K (K - 1) / 2`` binary SVMs (one per pair of
classes, majority vote), left to right, with the classes already predicted
for the two previous tokens as features (greedy decoding,
:func:`skbioner.decoding.greedy_decode`).  The outside class ``O`` is split
by part of speech (``O-NN``, ``O-JJ``, ...) for training and merged back at
the output, which makes each binary problem smaller.  Support vectors are
stored once for all pairs (kernel values of a token computed once per
vector) and the vote stops as soon as its winner is certain.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted

from .._validation import Integral, Interval, Real, StrOptions, fit_context
from ..base import LabelSequences, SequenceTaggerMixin
from ..decoding import greedy_decode, viterbi_batch
from ..schemes import convert
from ._base import check_features, check_targets, holdout_split, iob2_classes, label_types
from ._linear_chain import LabelSpace
from ._pairwise_svm_kernels import (
    LINEAR,
    POLY,
    apply_kernel,
    couple_probabilities,
    degree2_map,
    pairwise_vote,
)

__all__ = ["PairwiseSVMTagger"]

#: an outside class of a part of speech seen fewer times than this among the
#: training tokens labelled ``O`` is merged into ``O-*``
MIN_SPLIT_COUNT = 10
#: kernel values held at once when predicting (tokens x support vectors)
_BLOCK = 2 ** 22


def _pc_block(prev_labels, n_labels, history):
    """One-hot rows of the previous ``history`` labels (-1: before the sentence)."""
    k = prev_labels.shape[0]
    rows, cols = [], []
    for j in range(history):
        ok = prev_labels[:, j] >= 0
        rows.append(np.flatnonzero(ok))
        cols.append(j * n_labels + prev_labels[ok, j])
    rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    cols = np.concatenate(cols) if cols else np.zeros(0, dtype=np.int64)
    return sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(k, history * n_labels))


def _gold_history(codes, offsets, history):
    """Gold previous labels of every token: ``(n_tokens, history)``, -1 before the start."""
    n = codes.size
    prev = np.full((n, history), -1, dtype=np.int64)
    pos = np.arange(n) - np.repeat(offsets[:-1], np.diff(offsets))
    for j in range(history):
        ok = pos > j
        prev[ok, j] = codes[np.flatnonzero(ok) - 1 - j]
    return prev


def _platt(dec, target):
    """Platt's sigmoid ``P(target=1 | f) = 1 / (1 + exp(A f + B))`` (Lin, Lin & Weng 2007)."""
    prior1 = float(target.sum())
    prior0 = float(target.size - prior1)
    hi, lo = (prior1 + 1) / (prior1 + 2), 1 / (prior0 + 2)
    t = np.where(target, hi, lo)
    A, B = 0.0, np.log((prior0 + 1) / (prior1 + 1))

    def f_val(A, B):
        fApB = dec * A + B
        return float(np.sum(np.where(fApB >= 0, t * fApB + np.log1p(np.exp(-np.abs(fApB))),
                                     (t - 1) * fApB + np.log1p(np.exp(-np.abs(fApB))))))

    fval = f_val(A, B)
    for _ in range(100):
        fApB = dec * A + B
        e = np.exp(-np.abs(fApB))
        p = np.where(fApB >= 0, e / (1 + e), 1 / (1 + e))
        q = 1 - p
        d2 = p * q
        h11 = 1e-12 + np.sum(dec * dec * d2)
        h22 = 1e-12 + np.sum(d2)
        h21 = np.sum(dec * d2)
        d1 = t - p
        g1, g2 = np.sum(dec * d1), np.sum(d1)
        if abs(g1) < 1e-5 and abs(g2) < 1e-5:
            break
        det = h11 * h22 - h21 * h21
        dA = -(h22 * g1 - h21 * g2) / det
        dB = -(-h21 * g1 + h11 * g2) / det
        gd = g1 * dA + g2 * dB
        step = 1.0
        while step >= 1e-10:
            nA, nB = A + step * dA, B + step * dB
            nf = f_val(nA, nB)
            if nf < fval + 1e-4 * step * gd:
                A, B, fval = nA, nB, nf
                break
            step /= 2
        else:
            break
    return A, B


def _fit_pairs(matrix, z, pairs, params, seeds):
    """Train the binary SVMs of ``pairs`` (class ``b`` positive): SV rows, dual coefs, b."""
    from sklearn.svm import SVC, LinearSVC

    out = []
    for (a, b), seed in zip(pairs, seeds):
        rows = np.flatnonzero((z == a) | (z == b))
        Xp = matrix[rows]
        yp = (z[rows] == b).astype(np.int64)
        if params["kernel"] == "poly2-hashed":
            m = LinearSVC(C=params["C"], loss="hinge", dual=True, tol=params["tol"],
                          max_iter=params["max_iter"], random_state=int(seed)).fit(Xp, yp)
            w = m.coef_.ravel()
            nz = np.flatnonzero(w)
            out.append((nz, w[nz].astype(np.float64), float(m.intercept_[0])))
            continue
        kernel = "poly" if params["kernel"] == "poly" else "linear"
        m = SVC(kernel=kernel, degree=params["degree"], gamma=params["gamma"],
                coef0=params["coef0"], C=params["C"], tol=params["tol"],
                cache_size=params["cache_size"], shrinking=params["shrinking"],
                max_iter=-1, random_state=int(seed))
        m.fit(Xp, yp)
        coef = m.dual_coef_
        coef = np.asarray(coef.toarray() if sp.issparse(coef) else coef).ravel()
        out.append((rows[m.support_], coef.astype(np.float64), float(m.intercept_[0])))
    return out


class PairwiseSVMTagger(SequenceTaggerMixin, BaseEstimator):
    """Pairwise class-split SVM tagger (Kazama, Makino, Ohta & Tsujii 2002).

    Every pair of classes has a binary soft-margin SVM (libsvm's ``SVC``
    with a polynomial or linear kernel, trained in parallel joblib threads);
    a token gets the class that wins most pairwise votes.  Sentences are
    tagged left to right, all sentences one position at a time, and the
    labels predicted for the two previous tokens (``pc-1``, ``pc-2``, IOB2
    labels) are features of the next one (gold labels in training).

    With ``split_outside="pos"`` the ``O`` class is split by the part of
    speech of the token (the ``pos`` column of the featurizer output, which
    :class:`~skbioner.annotate.POSTagger` adds; tags seen fewer than
    ``MIN_SPLIT_COUNT`` = 10 times among ``O`` tokens share ``O-*``): many
    smaller binary problems instead of a few huge ones with ``O``; the
    split classes are merged back into ``O`` at the output.

    Prediction stores each support vector once for all pairs and computes
    its kernel value with a token once (``sv_cache``), and stops the vote of
    a token as soon as one class must win (``fast_winner``); both switches
    change the speed only, never the output.

    ``decoding="viterbi"`` needs class probabilities: a Platt sigmoid per
    pair, fitted on the decision values of held-out documents (the last
    ``validation_fraction`` of them, scored by pair models trained on the
    rest, which is the extra training cost), coupled into class
    probabilities as in libsvm (Wu, Lin & Weng 2004, second method); the
    probabilities of the split outside classes are summed into ``O`` and
    the one compiled Viterbi finds the best IOB2 path allowed by the
    scheme.  The preceding-class features of that pass come from the greedy
    decoding (argmax of the probabilities).

    ``kernel="poly2-hashed"`` is the fast path: the degree-2 polynomial
    kernel written out as explicit features (every active feature, and a
    hashed column per pair of a token's active features, weighted so that
    their dot product is the kernel up to its constant, exactly for binary
    features and up to hash collisions) and a linear solver (liblinear's
    ``LinearSVC`` with the hinge loss) per pair.  What it changes: hash
    collisions among pair features, the intercept is regularised
    (liblinear), the solution is a primal weight vector (no support
    vectors: ``sv_cache`` has no effect), and no probabilities
    (``decoding="greedy"`` only).

    Parameters
    ----------
    kernel : {"poly", "linear", "poly2-hashed"}, default="poly"
    degree : int, default=2
        Degree ``d`` of the polynomial kernel ``(gamma x.x' + coef0) ** d``
        (``"poly2-hashed"``: 2 only).
    gamma : float, default=0.002
        ``s`` of the paper.  With ~70 active binary features per token
        (the ``kazama`` set) the kernel stays close to linear; chosen with
        ``C`` on the JNLPBA development split (``docs/benchmarks.md``).
    coef0 : float, default=1.0
        ``r`` of the paper.
    C : float, default=30.0
        Soft-margin penalty (1-norm slacks).
    split_outside : {"pos"} or None, default="pos"
        Split ``O`` by the ``pos`` token column; None keeps one ``O`` class.
    decoding : {"greedy", "viterbi"}, default="greedy"
        Used at prediction: a model fitted with ``"viterbi"`` (which fits
        the probabilities) can also predict with ``"greedy"``
        (``set_params``), not the reverse.
    history : int, default=2
        Number of preceding classes used as features (0 turns them off).
    fast_winner : bool, default=True
        Stop each token's vote once the winner is certain.
    sv_cache : bool, default=True
        Compute the kernel values of a token with each distinct support
        vector once (a sparse product over a batch of tokens) instead of
        once per pair that has the vector.
    tol : float, default=1e-3
        Stopping tolerance of the solver.
    cache_size : float, default=2000
        libsvm's kernel cache (MB) per binary SVM (allocated as it fills, so
        at most ``n_jobs * cache_size`` at once).  libsvm keeps a kernel
        column (4 bytes per training token of the pair) per support-vector
        candidate; a cache too small for them makes it recompute columns:
        on 148 JNLPBA abstracts the largest pair (29k tokens, 1,228 support
        vectors) took 42.7 CPU s with 20 MB against 12.1 s with 2,000 MB,
        the same model (``docs/benchmarks.md``).  libsvm's 200 MB holds
        those columns up to ~40k tokens per pair; the paper's 590 abstracts
        have ``O`` pairs of ~115k tokens.
    shrinking : bool, default=True
        libsvm's shrinking heuristic.
    max_iter : int, default=2000
        Iterations of the linear solver (``"poly2-hashed"``).
    n_hash : int, default=2**20
        Hashed pair columns of ``"poly2-hashed"``.
    validation_fraction : float, default=0.1
        Share of the documents held out to fit the Platt sigmoids
        (``decoding="viterbi"``).
    n_jobs : int or None, default=None
        Threads training the binary SVMs (joblib; libsvm and liblinear
        release the GIL), one pair per task, largest pairs first.
    random_state : int, RandomState instance or None, default=None
        Seeds the binary SVMs (one seed per pair, drawn before the pool).
    verbose : int, default=0
        Progress on stderr.

    Attributes
    ----------
    classes_ : ndarray of str
        The IOB2 labels :meth:`predict` returns.
    internal_classes_ : ndarray of str
        The classes of the binary SVMs (entity labels and ``O`` or its
        ``O-<POS>`` splits), in voting order (most frequent first).
    pairs_ : ndarray of int64, shape (n_pairs, 2)
        Class indices ``(a, b)`` of each binary SVM (positive: ``b``).
    support_vectors_ : scipy.sparse.csr_matrix
        The distinct support vectors of all pairs (kernel models), rows of
        the features with the preceding-class block appended.
    pair_ptr_, pair_sv_, dual_coef_ : ndarray
        Pair ``p`` uses ``support_vectors_[pair_sv_[pair_ptr_[p]:pair_ptr_[p + 1]]]``
        with dual coefficients ``dual_coef_[pair_ptr_[p]:pair_ptr_[p + 1]]``
        (``"poly2-hashed"``: mapped feature columns and their weights).
    intercept_ : ndarray of shape (n_pairs,)
    prob_a_, prob_b_ : ndarray of shape (n_pairs,) or None
        Platt sigmoid of each pair (``decoding="viterbi"``).
    n_features_in_ : int
    fit_seconds_ : float
    weights_ : scipy.sparse.csr_matrix of shape (n_mapped_features, n_pairs) or None
        The pairs' weight vectors in the mapped space (``"poly2-hashed"``).
    n_support_total_ : int
        Support vectors summed over the pairs (what caching saves is
        ``n_support_total_`` vs ``support_vectors_.shape[0]``).
    """

    _parameter_constraints = {
        "kernel": [StrOptions({"poly", "linear", "poly2-hashed"})],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "gamma": [Interval(Real, 0, None, closed="neither")],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "split_outside": [StrOptions({"pos"}), None],
        "decoding": [StrOptions({"greedy", "viterbi"})],
        "history": [Interval(Integral, 0, None, closed="left")],
        "fast_winner": ["boolean"],
        "sv_cache": ["boolean"],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "cache_size": [Interval(Real, 0, None, closed="neither")],
        "shrinking": ["boolean"],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "n_hash": [Interval(Integral, 1, None, closed="left")],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(self, kernel="poly", degree=2, gamma=0.002, coef0=1.0, C=30.0,
                 split_outside="pos", decoding="greedy", history=2, fast_winner=True,
                 sv_cache=True, tol=1e-3, cache_size=2000, shrinking=True,
                 max_iter=2000, n_hash=2 ** 20,
                 validation_fraction=0.1, n_jobs=None, random_state=None, verbose=0):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.C = C
        self.split_outside = split_outside
        self.decoding = decoding
        self.history = history
        self.fast_winner = fast_winner
        self.sv_cache = sv_cache
        self.tol = tol
        self.cache_size = cache_size
        self.shrinking = shrinking
        self.max_iter = max_iter
        self.n_hash = n_hash
        self.validation_fraction = validation_fraction
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    # -- helpers -----------------------------------------------------------

    def _log(self, msg):
        if self.verbose:
            print(f"[PairwiseSVMTagger] {msg}", file=sys.stderr, flush=True)

    def _kernel_code(self):
        return LINEAR if self.kernel_ == "linear" else POLY

    def _map_weights(self):
        g, r = float(self.gamma_), float(self.coef0_)
        return np.sqrt(2 * r * g + g * g), np.sqrt(2.0) * g

    def _augment(self, rows_matrix, prev_labels):
        """Feature rows with the preceding-class block (and the degree-2 map)."""
        parts = [rows_matrix]
        if self.history_:
            parts.append(_pc_block(prev_labels, len(self.classes_), self.history_))
        M = sp.hstack(parts, format="csr", dtype=np.float64) if len(parts) > 1 else \
            sp.csr_matrix(rows_matrix, dtype=np.float64)
        if self.kernel_ == "poly2-hashed":
            w_lin, w_pair = self._map_weights()
            n = M.shape[1]
            ptr, idx, val = degree2_map(M.indptr.astype(np.int64), M.indices.astype(np.int64),
                                        M.data, n, int(self.n_hash_), w_lin, w_pair)
            M = sp.csr_matrix((val, idx, ptr), shape=(M.shape[0], n + int(self.n_hash_)))
            M.sum_duplicates()
        return M

    def _internal_codes(self, y, X):
        """Internal class of every token (strings), IOB2 labels flattened."""
        flat = np.asarray([lab for labels in y for lab in labels], dtype=object)
        if self.split_outside is None:
            return flat, flat
        pos = X.columns.get("pos")
        if pos is None:
            raise ValueError(
                "split_outside='pos' needs the 'pos' token column: put a POSTagger before "
                "the featurizer (make_pipeline(POSTagger(), TokenFeaturizer(...), "
                "PairwiseSVMTagger())) or use split_outside=None")
        internal = flat.copy()
        outside = flat == "O"
        counts = Counter(pos[outside].tolist())
        tags = np.asarray([f"O-{p}" if counts[p] >= MIN_SPLIT_COUNT else "O-*"
                           for p in pos[outside].tolist()], dtype=object)
        internal[outside] = tags
        return internal, flat

    # -- fit -----------------------------------------------------------------

    @fit_context
    def fit(self, X, y):
        """Train the pairwise SVMs on featurizer output ``X`` and IOB2 labels ``y``.

        Parameters
        ----------
        X : SentenceFeatures
            Featurizer output (with a ``pos`` column for ``split_outside="pos"``).
        y : list of list of str
            IOB2 labels.

        Returns
        -------
        self : PairwiseSVMTagger
        """
        t0 = time.perf_counter()
        X = check_features(X, type(self).__name__)
        y = check_targets(y, X.lengths)
        if self.kernel == "poly2-hashed" and self.degree != 2:
            raise ValueError("kernel='poly2-hashed' is the degree-2 map: degree must be 2")
        if self.kernel == "poly2-hashed" and self.decoding == "viterbi":
            raise ValueError("kernel='poly2-hashed' has no probabilities: use decoding='greedy'")
        self.kernel_ = self.kernel
        self.gamma_, self.coef0_ = float(self.gamma), float(self.coef0)
        self.history_ = int(self.history)
        self.n_hash_ = int(self.n_hash)
        types = label_types(y)
        self.classes_ = iob2_classes(types)
        label_index = {lab: i for i, lab in enumerate(self.classes_)}
        internal, flat = self._internal_codes(y, X)
        counts = Counter(internal.tolist())
        if len(counts) < 2:
            raise ValueError(f"{type(self).__name__} needs at least 2 classes, got "
                             f"{sorted(counts)}")
        order = sorted(counts, key=lambda c: (-counts[c], c))
        self.internal_classes_ = np.asarray(order, dtype=object)
        index = {c: i for i, c in enumerate(order)}
        z = np.fromiter((index[c] for c in internal.tolist()), dtype=np.int64,
                        count=internal.size)
        self.internal_to_label_ = np.asarray(
            [label_index["O" if c.startswith("O-") else c] for c in order], dtype=np.int64)
        gold = np.fromiter((label_index[c] for c in flat.tolist()), dtype=np.int64,
                           count=flat.size)
        self.n_features_in_ = X.matrix.shape[1]
        matrix = self._augment(X.matrix, _gold_history(gold, X.offsets, self.history_))
        K = len(order)
        self.pairs_ = np.asarray([(a, b) for a in range(K) for b in range(a + 1, K)],
                                 dtype=np.int64).reshape(-1, 2)
        rs = check_random_state(self.random_state)
        seeds = rs.randint(np.iinfo(np.int32).max, size=(2, len(self.pairs_)))
        self._log(f"{K} classes, {len(self.pairs_)} pairs, {matrix.shape[0]} tokens, "
                  f"{matrix.shape[1]} features")
        self._store(self._train(matrix, z, np.arange(matrix.shape[0]), seeds[0]), matrix)
        self.prob_a_ = self.prob_b_ = None
        if self.decoding == "viterbi":
            self._fit_sigmoids(X, matrix, z, seeds[1])
        self.fit_seconds_ = time.perf_counter() - t0
        self._log(f"trained in {self.fit_seconds_:.1f} s")
        return self

    def _train(self, matrix, z, rows, seeds):
        """Per-pair results of SVMs trained on token ``rows`` (indices into ``matrix``)."""
        params = {"kernel": self.kernel_, "degree": int(self.degree), "gamma": self.gamma_,
                  "coef0": self.coef0_, "C": float(self.C), "tol": float(self.tol),
                  "cache_size": float(self.cache_size), "shrinking": bool(self.shrinking),
                  "max_iter": int(self.max_iter)}
        sub = matrix[rows] if rows.size != matrix.shape[0] else matrix
        zs = z[rows]
        # one task per pair, largest first (the longest jobs start first, the small
        # ones fill the gaps at the end); threads: libsvm and liblinear release the
        # GIL, and the shared matrix is not copied to every worker
        n_of = np.bincount(zs, minlength=len(self.internal_classes_))
        size = n_of[self.pairs_[:, 0]] + n_of[self.pairs_[:, 1]]
        by_size = np.argsort(-size, kind="stable")
        results = [None] * len(self.pairs_)
        t0 = time.perf_counter()
        tasks = (delayed(_fit_pairs)(sub, zs, [tuple(self.pairs_[p])], params, seeds[[p]])
                 for p in by_size)
        out = Parallel(n_jobs=self.n_jobs, prefer="threads", return_as="generator")(tasks)
        for done, (p, res) in enumerate(zip(by_size, out), 1):
            res = res[0]
            if self.kernel_ != "poly2-hashed":
                res = (rows[res[0]], res[1], res[2])
            results[p] = res
            if self.verbose >= 3 or (self.verbose >= 2 and (done % 50 == 0
                                                             or done == len(by_size))):
                self._log(f"{done}/{len(results)} pairs ({time.perf_counter() - t0:.1f} s)")
        return results

    def _store(self, results, matrix):
        lengths = np.asarray([r[0].size for r in results], dtype=np.int64)
        self.pair_ptr_ = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        flat_rows = np.concatenate([r[0] for r in results]).astype(np.int64)
        self.dual_coef_ = np.concatenate([r[1] for r in results]).astype(np.float64)
        self.intercept_ = np.asarray([r[2] for r in results], dtype=np.float64)
        self.n_support_total_ = int(flat_rows.size)
        self.weights_ = None
        if self.kernel_ == "poly2-hashed":
            self.pair_sv_ = flat_rows  # mapped feature columns
            self.support_vectors_ = None
            n_cols = self.n_features_in_ + self.history_ * len(self.classes_) + self.n_hash_
            self.weights_ = sp.csr_matrix((self.dual_coef_, self.pair_sv_, self.pair_ptr_),
                                          shape=(len(results), n_cols)).T.tocsr()
            return
        unique, inverse = np.unique(flat_rows, return_inverse=True)
        self.pair_sv_ = inverse.astype(np.int64)
        self.support_vectors_ = matrix[unique]
        self.support_vectors_.sort_indices()

    def _fit_sigmoids(self, X, matrix, z, seeds):
        """Platt sigmoids of the pairs from models trained without the held-out documents."""
        train, held = holdout_split(X, float(self.validation_fraction))
        tok = np.concatenate([np.arange(X.offsets[i], X.offsets[i + 1]) for i in train]
                             or [np.zeros(0, dtype=np.int64)]).astype(np.int64)
        hold = np.concatenate([np.arange(X.offsets[i], X.offsets[i + 1]) for i in held]
                              or [np.zeros(0, dtype=np.int64)]).astype(np.int64)
        if hold.size == 0 or tok.size == 0:
            raise ValueError("decoding='viterbi' fits the Platt sigmoids on held-out documents: "
                             f"validation_fraction={self.validation_fraction} leaves none")
        n_of = np.bincount(z[tok], minlength=len(self.internal_classes_))
        # pairs with a class absent from the rest: sigmoid on the final model's decisions
        # of the held-out tokens (which it was trained on: optimistic, for those pairs only)
        fallback = (n_of[self.pairs_[:, 0]] == 0) | (n_of[self.pairs_[:, 1]] == 0)
        self._log(f"Platt sigmoids: pairs trained on {tok.size} tokens, "
                  f"{hold.size} held out ({int(fallback.sum())} pairs without a class)")
        final_dec = self._decisions(matrix[hold]) if fallback.any() else None
        saved = (self.pairs_, self.pair_ptr_, self.pair_sv_, self.dual_coef_,
                 self.intercept_, self.support_vectors_, self.n_support_total_)
        self.pairs_ = saved[0][~fallback]
        self._store(self._train(matrix, z, tok, seeds[~fallback]), matrix)
        dec = np.zeros((hold.size, len(saved[0])))
        dec[:, ~fallback] = self._decisions(matrix[hold])
        if final_dec is not None:
            dec[:, fallback] = final_dec[:, fallback]
        (self.pairs_, self.pair_ptr_, self.pair_sv_, self.dual_coef_,
         self.intercept_, self.support_vectors_, self.n_support_total_) = saved
        zh = z[hold]
        A = np.zeros(len(self.pairs_))
        B = np.zeros(len(self.pairs_))
        for p, (a, b) in enumerate(self.pairs_):
            keep = (zh == a) | (zh == b)
            if keep.sum() == 0:  # no held-out token of either class: Platt's prior only
                A[p], B[p] = -1.0, 0.0
                continue
            A[p], B[p] = _platt(dec[keep, p], zh[keep] == b)
        self.prob_a_, self.prob_b_ = A, B

    # -- prediction -------------------------------------------------------------

    def _vote(self, M, want_dec=False):
        """Winners (internal class codes) of augmented rows ``M``; decisions if asked."""
        K = len(self.internal_classes_)
        n = M.shape[0]
        P = len(self.pairs_)
        dec = np.zeros((n if want_dec else 0, P))
        winners = np.empty(n, dtype=np.int64)
        evaluated = np.empty(n, dtype=np.int64)
        pa, pb = self.pairs_[:, 0].copy(), self.pairs_[:, 1].copy()
        fast = bool(self.fast_winner) and not want_dec
        if self.kernel_ == "poly2-hashed":
            # linear decisions in the mapped space (one sparse product for all pairs)
            scores = (M @ self.weights_).toarray() + self.intercept_
            return (self._vote_from_decisions(scores, fast), (scores if want_dec else None),
                    np.full(n, P, dtype=np.int64))
        SV = self.support_vectors_
        kind = self._kernel_code()
        args = (self.gamma_, self.coef0_, int(self.degree))
        step = max(1, _BLOCK // max(SV.shape[0], 1))
        for a in range(0, n, step):
            block = M[a:a + step]
            if self.sv_cache:
                G = (block @ SV.T).toarray()
                apply_kernel(G, kind, *args)
                w, e = pairwise_vote(block.indptr.astype(np.int64), block.indices.astype(np.int64),
                                     block.data, M.shape[1], G, True, SV.indptr.astype(np.int64),
                                     SV.indices.astype(np.int64), SV.data, self.pair_ptr_,
                                     self.pair_sv_, self.dual_coef_, self.intercept_, pa, pb, K,
                                     kind, *args, fast, dec[a:a + step])
            else:
                w, e = pairwise_vote(block.indptr.astype(np.int64), block.indices.astype(np.int64),
                                     block.data, M.shape[1], np.zeros((0, 0)), False,
                                     SV.indptr.astype(np.int64), SV.indices.astype(np.int64),
                                     SV.data, self.pair_ptr_, self.pair_sv_, self.dual_coef_,
                                     self.intercept_, pa, pb, K, kind, *args, fast,
                                     dec[a:a + step])
            winners[a:a + step] = w
            evaluated[a:a + step] = e
        return winners, (dec if want_dec else None), evaluated

    def _vote_from_decisions(self, scores, fast):
        """Votes of precomputed decision values (the linear fast path)."""
        K = len(self.internal_classes_)
        votes = np.zeros((scores.shape[0], K), dtype=np.int64)
        pos = scores > 0
        np.add.at(votes, (np.arange(scores.shape[0])[:, None].repeat(len(self.pairs_), 1),
                          np.where(pos, self.pairs_[:, 1], self.pairs_[:, 0])), 1)
        return np.argmax(votes, axis=1)

    def _decisions(self, M):
        return self._vote(M, want_dec=True)[1]

    def _probabilities(self, dec):
        """Coupled class probabilities (internal classes) of decision values."""
        R = 1.0 / (1.0 + np.exp(np.clip(dec * self.prob_a_ + self.prob_b_, -500, 500)))
        out = np.empty((dec.shape[0], len(self.internal_classes_)))
        couple_probabilities(R, self.pairs_[:, 0].copy(), self.pairs_[:, 1].copy(),
                             len(self.internal_classes_), out)
        return out

    def _check(self, X):
        check_is_fitted(self, "intercept_")
        return check_features(X, type(self).__name__, self.n_features_in_)

    def _run(self, X, probabilities, evaluated=None):
        """Greedy pass over ``X``: internal codes, and internal probabilities if asked."""
        to_label = self.internal_to_label_
        K = len(self.internal_classes_)
        probs = np.zeros((X.matrix.shape[0], K)) if probabilities else None

        def step(rows, prev):
            labels = np.where(prev >= 0, to_label[np.maximum(prev, 0)], -1)
            M = self._augment(X.matrix[rows], labels[:, :self.history_])
            if probabilities:
                p = self._probabilities(self._decisions(M))
                probs[rows] = p
                return p
            winners, _, n_eval = self._vote(M)
            if evaluated is not None:
                evaluated[rows] = n_eval
            out = np.zeros((rows.size, K))
            out[np.arange(rows.size), winners] = 1.0
            return out

        codes = greedy_decode(step, X.offsets, K, history=max(self.history_, 1))
        return codes, probs

    def _label_probabilities(self, probs):
        """Internal class probabilities summed into ``classes_`` (IOB2)."""
        out = np.zeros((probs.shape[0], len(self.classes_)))
        np.add.at(out.T, self.internal_to_label_, probs.T)
        return out

    def predict(self, X):
        """IOB2 label lists for featurizer output ``X``.

        Parameters
        ----------
        X : SentenceFeatures

        Returns
        -------
        list of list of str
        """
        X = self._check(X)
        if self.decoding == "viterbi":
            if self.prob_a_ is None:
                raise ValueError("decoding='viterbi' needs the probabilities that a model "
                                 "fitted with decoding='viterbi' has")
            _, probs = self._run(X, True)
            scores = np.log(np.maximum(self._label_probabilities(probs), 1e-300))
            space = LabelSpace.build("IOB2", [c[2:] for c in self.classes_ if c != "O"])
            start, trans, end = space.mask()
            paths = viterbi_batch(scores, X.offsets, trans, start, end)
            return LabelSequences(space.decode(paths, X.offsets, well_formed=True))
        codes, _ = self._run(X, False)
        labels = np.asarray(self.classes_, dtype=object)[self.internal_to_label_[codes]]
        offs = X.offsets.tolist()
        # the vote may put I-t after O: repaired to B-t as the scheme reads it
        return LabelSequences([convert(labels[a:b].tolist(), "IOB2", "IOB2")
                               for a, b in zip(offs[:-1], offs[1:])])

    def pairs_evaluated(self, X):
        """Binary SVMs evaluated per token by greedy prediction (what fast winner finding saves).

        Parameters
        ----------
        X : SentenceFeatures

        Returns
        -------
        ndarray of int64, shape (n_tokens,)
            At most ``len(pairs_)`` (the number evaluated with ``fast_winner=False``).
        """
        X = self._check(X)
        evaluated = np.zeros(X.matrix.shape[0], dtype=np.int64)
        self._run(X, False, evaluated)
        return evaluated

    def predict_marginals(self, X):
        """Pairwise-coupled class probabilities of every token (IOB2 columns).

        The greedy pass's probabilities (each token conditioned on the labels
        predicted for the previous ones), the split outside classes summed
        into ``O``.  Needs a model fitted with ``decoding="viterbi"``.

        Parameters
        ----------
        X : SentenceFeatures

        Returns
        -------
        list of ndarray of shape (n_tokens_i, n_classes)
            Columns in the order of ``classes_``; each row sums to 1.
        """
        X = self._check(X)
        if self.prob_a_ is None:
            raise ValueError("probabilities need a model fitted with decoding='viterbi'")
        _, probs = self._run(X, True)
        out = self._label_probabilities(probs)
        return [out[a:b] for a, b in zip(X.offsets[:-1], X.offsets[1:])]
