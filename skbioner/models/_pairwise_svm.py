"""``PairwiseSVMTagger``: Kazama, Makino, Ohta & Tsujii (2002), pairwise class-split SVMs.

Each token is classified by binary SVMs, one per pair of classes (majority
vote), left to right, with the classes already predicted for the two
previous tokens as features (greedy decoding,
:func:`skbioner.decoding.greedy_decode`), or by Viterbi over the pairwise
probabilities coupled into class probabilities.  The outside class ``O`` is
split by part of speech (``O-NN``, ``O-JJ``, ...) for training and merged
back at the output, which makes each binary problem smaller.

The degree-2 polynomial kernel is written out as explicit features (each
feature, and the products of feature pairs the ``conjunctions`` parameter
names) and a linear SVM per pair is trained by dual coordinate descent on one
shared matrix (:mod:`._pairwise_svm_linear`); prediction adds up stored
weights by feature, compiled.  Linear in the data.  (The paper's own solver,
libsvm's kernel SVM, grew super-linearly: hours for JNLPBA; it was removed,
``docs/lab/benchmarks.md`` has its measurements.)
"""

from __future__ import annotations

import time
from collections import Counter

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.parallel import Parallel, delayed

from .._progress import log
from .._validation import Integral, Interval, Real, StrOptions, fit_context
from ..base import LabelSequences
from ..decoding import greedy_decode
from ..model_selection import holdout_split
from ._base import (
    ChainScores,
    ChainTaggerMixin,
    check_features,
    check_fitted_features,
    check_targets,
    iob2_classes,
    label_types,
)
from ._linear_chain import LabelSpace
from ._pairwise_svm_linear import (
    ALL_TERMS,
    BASE_TERMS,
    CONJ_ALL,
    CONJ_NONE,
    CONJ_PC,
    PC_TERMS,
    MapSpec,
    Votes,
    couple_probabilities,
    dcd_svm,
    decide,
    expand,
    greedy_tag,
    n_mapped,
    pack_weights,
)

__all__ = ["PairwiseSVMTagger"]

#: an outside class of a part of speech seen fewer times than this among the
#: training tokens labelled ``O`` is merged into ``O-*``
MIN_SPLIT_COUNT = 10
_CONJ = {None: CONJ_NONE, "pc": CONJ_PC, "pc-all": CONJ_PC, "all": CONJ_ALL}


def _gold_history(codes, offsets, history):
    """Gold previous labels of every token: ``(n_tokens, history)``, -1 before the start."""
    n = codes.size
    prev = np.full((n, history), -1, dtype=np.int64)
    pos = np.arange(n) - np.repeat(offsets[:-1], np.diff(offsets))
    for j in range(history):
        ok = pos > j
        prev[ok, j] = codes[np.flatnonzero(ok) - 1 - j]
    return prev


def repair_iob2_codes(codes, offsets, classes):
    """Codes of IOB2 labels as the scheme reads them (``convert(labels, "IOB2", "IOB2")``).

    An ``I-t`` that does not continue a ``t`` (first token of its sentence,
    after ``O`` or after another type) starts an entity: it becomes ``B-t``.

    Parameters
    ----------
    codes : ndarray of int, shape (n_tokens,)
        Index into ``classes`` of each token's label.
    offsets : ndarray of int, shape (n_sentences + 1,)
    classes : sequence of str
        IOB2 labels, with ``B-t`` for every ``I-t``.

    Returns
    -------
    ndarray of int64
    """
    classes = [str(c) for c in classes]
    types = sorted({c[2:] for c in classes if c != "O"})
    type_id = np.asarray([types.index(c[2:]) if c != "O" else -1 for c in classes],
                         dtype=np.int64)
    is_inside = np.asarray([c.startswith("I-") for c in classes])
    begin = np.asarray([classes.index("B-" + c[2:]) if c.startswith("I-") else k
                        for k, c in enumerate(classes)], dtype=np.int64)
    codes = np.asarray(codes, dtype=np.int64).copy()
    t = type_id[codes]
    before = np.empty_like(t)
    before[1:] = t[:-1]
    starts = np.asarray(offsets, dtype=np.int64)[:-1]
    before[starts[starts < codes.size]] = -2
    bad = is_inside[codes] & (before != t)
    codes[bad] = begin[codes[bad]]
    return codes


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


def _fit_linear_pair(ptr, idx, val, rows, positive, params, seed):
    """One explicit-map SVM: nonzero weight columns, their weights, intercept, epochs."""
    w = np.zeros(params["n_mapped"] + 1)
    epochs, _ = dcd_svm((ptr, idx, val, params["scale"]), rows, positive, params["C"],
                        params["tol"], params["max_iter"], int(seed), 1.0, w)
    nz = np.flatnonzero(w[:-1])
    cols = nz.astype(np.int32) if w.size < np.iinfo(np.int32).max else nz
    return cols, w[nz].astype(np.float32), float(w[-1]), int(epochs)


class _Blocks:
    """Pairs' results (weight columns and values) copied into large blocks as they come.

    Hundreds of pair results of a few MB each, freed together later, leave the
    heap fragmented: the memory stays with the process (1.2 GB on 200 sentences with
    every product and every pair's vote).  Blocks this large are mapped, and given
    back to the system when freed; each pair's result is freed once copied.
    """

    SIZE = 1 << 24  # entries per block (64 MB of int32 columns, 64 MB of float32 weights)

    def __init__(self):
        self.cols = self.vals = None
        self.used = 0

    def keep(self, res):
        cols, vals = res[0], res[1]
        if self.cols is None or self.used + cols.size > self.cols.size:
            size = max(self.SIZE, cols.size)
            self.cols, self.vals = np.empty(size, cols.dtype), np.empty(size, np.float32)
            self.used = 0
        a = self.used
        self.used += cols.size
        self.cols[a:self.used], self.vals[a:self.used] = cols, vals
        return (self.cols[a:self.used], self.vals[a:self.used], *res[2:])


def _csr(matrix):
    """The CSR arrays of a feature matrix as the compiled functions read them."""
    return (matrix.indptr.astype(np.int64), matrix.indices.astype(np.int64),
            matrix.data.astype(np.float64))


class PairwiseSVMTagger(ChainTaggerMixin, BaseEstimator):
    """Pairwise class-split SVM tagger (Kazama, Makino, Ohta & Tsujii 2002).

    Every pair of classes has a binary soft-margin SVM with the degree-2
    polynomial kernel ``(gamma x.x' + coef0) ** 2``; a token gets the class
    that wins most pairwise votes.  Sentences are tagged left to right, all
    sentences one position at a time, and the labels predicted for the two
    previous tokens (``pc-1``, ``pc-2``, IOB2 labels) are features of the
    next one (gold labels in training).

    With ``split_outside="pos"`` the ``O`` class is split by the part of
    speech of the token (the ``pos`` column of the featurizer output, which
    :class:`~skbioner.annotate.POSTagger` adds; tags seen fewer than
    ``MIN_SPLIT_COUNT`` = 10 times among ``O`` tokens share ``O-*``): many
    smaller binary problems instead of a few huge ones with ``O``; the
    split classes are merged back into ``O`` at the output.

    The kernel is trained as explicit features:
    for binary features ``(g x.x' + r)^2 = r^2 + (2 r g + g^2) x.x' +
    2 g^2 sum_{i<j} x_i x_j x'_i x'_j``, so a linear SVM over the features
    (scaled by ``sqrt(2 r g + g^2)``) and their pairwise products (scaled by
    ``sqrt(2) g``) is the kernel SVM.  ``conjunctions`` says which products
    are written out: ``"all"`` every pair of a token's active features
    (hashed into ``n_hash`` columns: the exact kernel up to collisions, ~2,000
    products per token with the ``kazama`` set), ``"pc"`` the products of
    each preceding-class feature with every feature (and of the two
    preceding classes), None none (the kernel's linear part).  Each pair's
    SVM is trained by dual coordinate descent (liblinear's hinge-loss
    solver, compiled, in ``n_jobs`` threads on one shared matrix); the
    intercept is a constant feature of value 1 (regularised, as in
    liblinear, unlike libsvm's).  Binary features (every value 1) are mapped
    without stored values (the map's values follow from its columns: half
    the memory).  Prediction adds the stored weights of a token's features
    into the decisions of the pairs it needs, compiled.

    ``vote="pos"`` restricts a token's vote to the
    entity classes and the outside class of its own part of speech: in
    training every ``O-<POS>`` token has that part of speech, so the other
    outside classes cannot be its class; the pairs of two outside classes
    are then neither trained nor consulted.  ``vote="all"`` is the paper's
    vote among every class.

    ``decoding="viterbi"`` needs class probabilities: a Platt sigmoid per
    pair, fitted on the decision values of held-out documents (the last
    ``validation_fraction`` of them, scored by pair models trained on the
    rest, which is the extra training cost), coupled into class
    probabilities as in libsvm (Wu, Lin & Weng 2004, second method) over
    the classes of the token's vote; the probabilities of the split outside
    classes are summed into ``O`` and the one compiled Viterbi finds the
    best IOB2 path allowed by the scheme.  The preceding-class features of
    that pass come from the greedy decoding (argmax of the probabilities).
    A model with probabilities also gives :meth:`predict_marginals` and
    :meth:`predict_entities` (the chain of those probabilities, as the
    suite's chain models do).

    Parameters
    ----------
    gamma : float, default=0.1
        ``s`` of the paper: with ``coef0`` it sets how strongly the
        products of features are regularised against the features
        (weight ratio ``sqrt(2) g / sqrt(2 r g + g^2)``).
        Chosen with ``C`` on the JNLPBA development split
        (``docs/lab/pairwise-svm.md``).
    coef0 : float, default=1.0
        ``r`` of the paper.
    C : float, default=0.25
        Soft-margin penalty (1-norm slacks).
    conjunctions : {"pc", "all"} or None, default="pc"
        Products of features written out (above).
    split_outside : {"pos"} or None, default="pos"
        Split ``O`` by the ``pos`` token column; None keeps one ``O`` class.
    vote : {"pos", "all"}, default="pos"
        The classes of a token's vote.
    decoding : {"greedy", "viterbi"}, default="greedy"
        Used at prediction: a model fitted with ``"viterbi"`` (which fits
        the probabilities) can also predict with ``"greedy"``
        (``set_params``), not the reverse.
    history : int, default=2
        Number of preceding classes used as features (0 turns them off).
    tol : float, default=0.1
        Stopping tolerance of the dual coordinate descent (liblinear's).
    max_iter : int, default=1000
        Epochs of the dual coordinate descent.
    n_hash : int, default=2**22
        Hashed product columns of ``conjunctions="all"``.
    validation_fraction : float, default=0.1
        Share of the documents held out to fit the Platt sigmoids
        (``decoding="viterbi"``).
    n_jobs : int or None, default=None
        Threads training the binary SVMs (joblib; the compiled solver
        releases the GIL), one pair per task, largest pairs first.
    random_state : int, RandomState instance or None, default=None
        Seeds the binary SVMs (one seed per pair, drawn before the pool).
    verbose : int, default=0
        Progress on stderr.

    Attributes
    ----------
    classes_ : ndarray of str
        The IOB2 labels :meth:`predict` returns.
    label_space_ : LabelSpace
        IOB2 over the entity types (the chain of the probabilities).
    internal_classes_ : ndarray of str
        The classes of the binary SVMs (entity labels and ``O`` or its
        ``O-<POS>`` splits), most frequent first.
    pairs_ : ndarray of int64, shape (n_pairs, 2)
        Class indices ``(a, b)``, ``a < b``, of each binary SVM (positive: ``b``).
    intercept_ : ndarray of shape (n_pairs,)
    prob_a_, prob_b_ : ndarray of shape (n_pairs,) or None
        Platt sigmoid of each pair (``decoding="viterbi"``).
    coef_columns_, coef_ptr_, coef_pairs_, coef_values_ : ndarray
        The weights by mapped column: column
        ``coef_columns_[k]`` has weight ``coef_values_[e]`` in pair
        ``coef_pairs_[e]`` for ``e`` in ``coef_ptr_[k]:coef_ptr_[k + 1]``.
    n_support_total_ : int
        Stored weights.
    n_features_in_ : int
    fit_seconds_ : float
    """

    _parameter_constraints = {
        "gamma": [Interval(Real, 0, None, closed="neither")],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "conjunctions": [StrOptions({"pc", "pc-all", "all"}), None],
        "split_outside": [StrOptions({"pos"}), None],
        "vote": [StrOptions({"pos", "all"})],
        "decoding": [StrOptions({"greedy", "viterbi"})],
        "history": [Interval(Integral, 0, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "n_hash": [Interval(Integral, 1, None, closed="left")],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(self, gamma=0.1, coef0=1.0, C=0.25, conjunctions="pc", split_outside="pos",
                 vote="pos", decoding="greedy", history=2, tol=0.1, max_iter=1000,
                 n_hash=2 ** 22, validation_fraction=0.1, n_jobs=None, random_state=None,
                 verbose=0):
        self.gamma = gamma
        self.coef0 = coef0
        self.C = C
        self.conjunctions = conjunctions
        self.split_outside = split_outside
        self.vote = vote
        self.decoding = decoding
        self.history = history
        self.tol = tol
        self.max_iter = max_iter
        self.n_hash = n_hash
        self.validation_fraction = validation_fraction
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    # -- helpers -----------------------------------------------------------

    def _spec(self):
        """The map (:data:`MapSpec`): the features scaled by ``sqrt(2 r g + g^2)``, their
        products by ``sqrt(2) g``."""
        g, r = float(self.gamma_), float(self.coef0_)
        return MapSpec(int(self.n_features_in_), len(self.classes_), int(self.history_),
                       int(self.conj_mode_), int(self.conj_skip_), int(self.n_hash_),
                       float(np.sqrt(2 * r * g + g * g)), float(np.sqrt(2.0) * g))

    def _votes(self):
        """The vote (:data:`Votes`)."""
        local_a, local_b, _ = self._local_pairs()
        return Votes(int(self.n_first_), self.segment_range_[:, 0].copy(),
                     self.segment_range_[:, 1].copy(), self.segment_pairs_, local_a, local_b,
                     self.segment_classes_, self.internal_to_label_.astype(np.int64))

    def _pos_column(self, X):
        pos = X.columns.get("pos")
        if pos is None:
            raise ValueError(
                "split_outside='pos' needs the 'pos' token column: put a POSTagger before "
                "the featurizer (make_pipeline(POSTagger(), TokenFeaturizer(...), "
                "PairwiseSVMTagger())) or use split_outside=None")
        return pos

    def _internal_codes(self, y, X):
        """Internal class of every token (strings), IOB2 labels flattened."""
        flat = np.asarray([lab for labels in y for lab in labels], dtype=object)
        if self.split_outside is None:
            return flat, flat
        pos = self._pos_column(X)
        internal = flat.copy()
        outside = flat == "O"
        counts = Counter(pos[outside].tolist())
        tags = np.asarray([f"O-{p}" if counts[p] >= MIN_SPLIT_COUNT else "O-*"
                           for p in pos[outside].tolist()], dtype=object)
        internal[outside] = tags
        return internal, flat

    def _vote_structure(self):
        """Pairs (global order), and each vote segment's classes, pairs and pair range.

        The pairs of two entity classes first, then for each outside class
        its pairs with the entity classes, then (with ``vote="all"``) the
        pairs of two outside classes.  With ``vote="pos"`` a token of outside
        class ``o`` needs the first block and ``o``'s.
        """
        K = len(self.internal_classes_)
        is_out = np.asarray([c == "O" or c.startswith("O-") for c in self.internal_classes_])
        ent = np.flatnonzero(~is_out)
        outs = np.flatnonzero(is_out)
        pairs = [(a, b) for i, a in enumerate(ent) for b in ent[i + 1:]]
        n_first = len(pairs)
        ranges = []
        for o in outs:
            lo = len(pairs)
            pairs += [(min(o, e), max(o, e)) for e in ent]
            ranges.append((lo, len(pairs)))
        if self.vote == "all":
            pairs += [(a, b) for i, a in enumerate(outs) for b in outs[i + 1:]]
        self.pairs_ = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        index = {tuple(p): k for k, p in enumerate(pairs)}
        if self.vote == "all" or outs.size <= 1:  # one vote among every class
            self.n_first_ = len(pairs)
            seg_classes = [np.arange(K)]
            self.segment_range_ = np.zeros((1, 2), dtype=np.int64)
        else:
            self.n_first_ = n_first
            seg_classes = [np.sort(np.append(ent, o)) for o in outs]
            self.segment_range_ = np.asarray(ranges, dtype=np.int64).reshape(-1, 2)
        self.segment_classes_ = np.asarray(seg_classes, dtype=np.int64)
        local = self._local_pairs()[:2]
        self.segment_pairs_ = np.asarray(
            [[index[(int(c[i]), int(c[j]))] for i, j in zip(*local)] for c in seg_classes],
            dtype=np.int64).reshape(len(seg_classes), local[0].size)

    def _segments(self, X):
        """Vote segment of every token of ``X`` (the outside class of its part of speech)."""
        n = X.matrix.shape[0]
        if self.segment_classes_.shape[0] == 1:
            return np.zeros(n, dtype=np.int64)
        pos = self._pos_column(X)
        outs = [c for c in self.internal_classes_ if c == "O" or c.startswith("O-")]
        fallback = outs.index("O-*") if "O-*" in outs else 0
        seg_of = {c[2:]: s for s, c in enumerate(outs)}
        values, inverse = np.unique(pos.astype(str), return_inverse=True)
        table = np.asarray([seg_of.get(v, fallback) for v in values], dtype=np.int64)
        return table[inverse.ravel()]

    def _local_pairs(self):
        k = self.segment_classes_.shape[1]
        local = np.asarray([(i, j) for i in range(k) for j in range(i + 1, k)],
                           dtype=np.int64).reshape(-1, 2)
        return local[:, 0].copy(), local[:, 1].copy(), k

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
        self.gamma_, self.coef0_ = float(self.gamma), float(self.coef0)
        self.history_ = int(self.history)
        self.n_hash_ = int(self.n_hash)
        self.conj_mode_ = _CONJ[self.conjunctions]
        types = label_types(y)
        self.classes_ = iob2_classes(types)
        # "pc": no products of the outside class (the level every other class's products
        # are measured against; most tokens follow an O, so they would be the bulk of the work)
        self.conj_skip_ = (list(self.classes_).index("O")
                           if self.conj_mode_ == CONJ_PC and self.conjunctions == "pc" else -1)
        self.label_space_ = LabelSpace.build("IOB2", types)
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
        if self._n_mapped() >= np.iinfo(np.int32).max:
            raise ValueError(f"the map has {self._n_mapped()} columns, more than int32 holds: "
                             "lower n_hash")
        self._vote_structure()
        rs = check_random_state(self.random_state)
        seeds = rs.randint(np.iinfo(np.int32).max, size=(2, len(self.pairs_)))
        prev = _gold_history(gold, X.offsets, self.history_)
        # the explicit map of every token: CSR arrays, the values left out (implied by the
        # columns) when the features are binary
        matrix = expand(_csr(X.matrix), np.arange(X.matrix.shape[0], dtype=np.int64), prev,
                        self._spec(), not np.all(X.matrix.data == 1))
        log(self, f"{len(order)} classes, {len(self.pairs_)} pairs, {X.matrix.shape[0]} "
                  f"tokens, {self.n_features_in_} features, {matrix[1].size} mapped entries")
        results = self._train(matrix, z, np.arange(X.matrix.shape[0]), seeds[0])
        if self.decoding != "viterbi":
            del matrix  # the weights are laid out without it
        self._store(results)
        self.prob_a_ = self.prob_b_ = None
        if self.decoding == "viterbi":
            self._fit_sigmoids(X, matrix, z, seeds[1], prev)
        self.fit_seconds_ = time.perf_counter() - t0
        log(self, f"trained in {self.fit_seconds_:.1f} s")
        return self

    def _n_mapped(self):
        return n_mapped(int(self.n_features_in_), len(self.classes_), self.history_,
                        int(self.conj_mode_), int(self.n_hash_))

    def _train(self, matrix, z, rows, seeds):
        """Per-pair results of SVMs trained on token ``rows`` (indices into ``matrix``)."""
        zs = z[rows]
        n_of = np.bincount(zs, minlength=len(self.internal_classes_))
        size = n_of[self.pairs_[:, 0]] + n_of[self.pairs_[:, 1]]
        # one task per pair, largest first (the longest jobs start first, the small
        # ones fill the gaps at the end); threads: the compiled solver releases the GIL,
        # and the shared matrix is not copied to every worker
        by_size = np.argsort(-size, kind="stable")
        results = [None] * len(self.pairs_)
        t0 = time.perf_counter()
        spec = self._spec()
        params = {"C": float(self.C), "tol": float(self.tol), "max_iter": int(self.max_iter),
                  "n_mapped": self._n_mapped(),
                  "scale": (int(spec.n_base + spec.history * spec.n_labels), spec.s_lin,
                            spec.s_quad)}
        members = [rows[zs == c] for c in range(len(self.internal_classes_))]

        def task(p):
            a, b = self.pairs_[p]
            r = np.sort(np.concatenate([members[a], members[b]]))
            return _fit_linear_pair(*matrix, r, z[r] == b, params, seeds[p])

        tasks = (delayed(task)(p) for p in by_size)
        out = Parallel(n_jobs=self.n_jobs, prefer="threads", return_as="generator")(tasks)
        blocks = _Blocks()
        for done, (p, res) in enumerate(zip(by_size, out), 1):
            results[p] = blocks.keep(res)
            if self.verbose >= 3 or (self.verbose >= 2 and (done % 50 == 0
                                                             or done == len(by_size))):
                log(self, f"{done}/{len(results)} pairs ({time.perf_counter() - t0:.1f} s)")
        return results

    def _store(self, results):
        self.intercept_ = np.asarray([r[2] for r in results], dtype=np.float64)
        self._store_weights(results)

    def _store_weights(self, results):
        """The pairs' weights by mapped column (the prediction layout).

        A counting sort by column, the pairs in order within each: no sort of the
        entries (``conjunctions="all"`` with ``vote="all"`` has ~160 million of them on
        200 sentences, and sorting them held ten copies: 10 GB), and each pair's
        result is let go once placed.
        """
        counts = np.zeros(self._n_mapped() + 1, dtype=np.int64)
        for r in results:  # a pair's columns are distinct
            counts[r[0]] += 1
        unique = np.flatnonzero(counts)
        slot = np.cumsum(counts) - counts  # the next free entry of each column
        ptr = np.concatenate([[0], np.cumsum(counts[unique])])
        del counts
        dtype = np.int16 if len(results) < np.iinfo(np.int16).max else np.int32
        pair = np.empty(int(ptr[-1]), dtype=dtype)
        vals = np.empty(int(ptr[-1]), dtype=np.float32)
        for p, r in enumerate(results):
            at = slot[r[0]]
            pair[at], vals[at] = p, r[1]
            slot[r[0]] += 1
            results[p] = None
        self.coef_columns_ = unique
        self.coef_ptr_ = ptr.astype(np.int64)
        self.coef_pairs_ = pair
        self.coef_values_ = vals
        self.n_support_total_ = int(ptr[-1])
        self.__dict__.pop("_layout_cache", None)

    def _layout(self):
        """The weights as :func:`decide` reads them (:func:`pack_weights`; derived, cached)."""
        cached = self.__dict__.get("_layout_cache")
        if cached is not None and cached[0] is self.coef_columns_:
            return cached[1]
        layout = pack_weights(self.coef_columns_, self.coef_ptr_, self.coef_pairs_,
                              self.coef_values_, int(self.n_first_), int(self.n_features_in_))
        self.__dict__["_layout_cache"] = (self.coef_columns_, layout)
        return layout

    def _fit_sigmoids(self, X, matrix, z, seeds, prev):
        """Platt sigmoids of the pairs from models trained without the held-out documents."""
        train, held = holdout_split(X, float(self.validation_fraction))
        tok, hold = (np.concatenate([np.arange(X.offsets[i], X.offsets[i + 1]) for i in part]
                                    or [np.zeros(0, dtype=np.int64)]).astype(np.int64)
                     for part in (train, held))  # their token rows
        if hold.size == 0 or tok.size == 0:
            raise ValueError("decoding='viterbi' fits the Platt sigmoids on held-out documents: "
                             f"validation_fraction={self.validation_fraction} leaves none")
        n_of = np.bincount(z[tok], minlength=len(self.internal_classes_))
        # pairs with a class absent from the rest: sigmoid on the final model's decisions
        # of the held-out tokens (which it was trained on: optimistic, for those pairs only)
        fallback = (n_of[self.pairs_[:, 0]] == 0) | (n_of[self.pairs_[:, 1]] == 0)
        log(self, f"Platt sigmoids: pairs trained on {tok.size} tokens, "
                  f"{hold.size} held out ({int(fallback.sum())} pairs without a class)")
        final_dec = self._all_decisions(X, matrix, hold, prev) if fallback.any() else None
        names = ("pairs_", "intercept_", "n_support_total_", "coef_columns_", "coef_ptr_",
                 "coef_pairs_", "coef_values_")
        saved = {k: getattr(self, k) for k in names}
        self.pairs_ = saved["pairs_"][~fallback]
        try:
            self._store(self._train(matrix, z, tok, seeds[~fallback]))
            dec = np.zeros((hold.size, len(saved["pairs_"])))
            dec[:, ~fallback] = self._all_decisions(X, matrix, hold, prev)
        finally:
            for k, v in saved.items():
                setattr(self, k, v)
            self.__dict__.pop("_layout_cache", None)
        if final_dec is not None:
            dec[:, fallback] = final_dec[:, fallback]
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

    def _all_decisions(self, X, matrix, rows, prev):
        """Decision values of every pair (columns: ``pairs_``) for token ``rows``, gold history."""
        P = len(self.pairs_)
        out = np.empty((rows.size, P))
        # every pair: the first ``n_first_`` as every token's, the others as one segment
        n_first = int(self.n_first_)
        none = np.zeros(0, dtype=np.int64)
        every = Votes(n_first, np.full(1, n_first, dtype=np.int64), np.full(1, P, dtype=np.int64),
                      np.arange(P, dtype=np.int64)[None, :], none, none,
                      np.zeros((1, 0), dtype=np.int64), none)
        decide(_csr(X.matrix), rows, prev[rows], self._spec(), self._layout(), self.intercept_,
               every, np.zeros(rows.size, dtype=np.int64), ALL_TERMS, out)
        return out

    # -- prediction -------------------------------------------------------------

    def _probabilities_available(self):
        """Decoding with the probabilities (``decoding="viterbi"``).

        A model fitted with them and set to ``decoding="greedy"`` has them too, but
        its entities would be the Viterbi path's, not those :meth:`predict` gives;
        so it offers no confidences, as a model fitted greedy (a vote counts its
        entities 1.0, as it counts the greedy preset's).
        """
        return self.decoding == "viterbi"

    def _run(self, X, probabilities):
        """Greedy pass over ``X``: IOB2 label codes, and label probabilities if asked."""
        to_label = self.internal_to_label_
        L = len(self.classes_)
        local_a, local_b, k_loc = self._local_pairs()
        seg_all = self._segments(X)
        csr, spec, votes, layout = _csr(X.matrix), self._spec(), self._votes(), self._layout()
        n = X.matrix.shape[0]
        if not probabilities:  # the whole greedy pass compiled
            codes = np.empty(n, dtype=np.int64)
            greedy_tag(csr, np.asarray(X.offsets, dtype=np.int64), spec, layout, self.intercept_,
                       votes, seg_all, codes)
            return codes, None
        probs = np.zeros((n, L))
        every = np.arange(n, dtype=np.int64)
        # the terms that do not depend on the preceding classes: every token at once
        base = np.empty((n, local_a.size))
        decide(csr, every, np.full((n, self.history_), -1, dtype=np.int64), spec, layout,
               self.intercept_, votes, seg_all, BASE_TERMS, base)

        def step(rows, prev):
            seg = seg_all[rows]
            dec = base[rows]
            decide(csr, rows, np.ascontiguousarray(prev[:, :self.history_]), spec, layout,
                   self.intercept_, votes, seg, PC_TERMS, dec)
            pair = self.segment_pairs_[seg]  # the local pairs' sigmoids, coupled
            R = 1.0 / (1.0 + np.exp(np.clip(dec * self.prob_a_[pair] + self.prob_b_[pair],
                                            -500, 500)))
            p = np.empty((rows.size, k_loc))
            couple_probabilities(R, local_a, local_b, k_loc, p)
            out = np.zeros((rows.size, L))
            np.add.at(out, (np.arange(rows.size)[:, None], to_label[self.segment_classes_[seg]]),
                      p)
            probs[rows] = out
            return out

        codes = greedy_decode(step, X.offsets, L, history=max(self.history_, 1))
        return codes, probs

    def _chain_scores(self, X):
        """The chain of the coupled probabilities: log-probabilities and the IOB2 mask."""
        X = check_fitted_features(self, X, "intercept_")
        if self.prob_a_ is None:
            raise ValueError("decoding='viterbi', predict_marginals and predict_entities need "
                             "the probabilities that a model fitted with decoding='viterbi' has")
        _, probs = self._run(X, True)
        start, trans, end = self.label_space_.mask()
        return ChainScores(X.offsets, trans, start, end,
                           scores=np.log(np.maximum(probs, 1e-300)))

    def predict(self, X):
        """IOB2 label lists for featurizer output ``X``.

        Parameters
        ----------
        X : SentenceFeatures

        Returns
        -------
        list of list of str
        """
        if self.decoding == "viterbi":
            return super().predict(X)
        X = check_fitted_features(self, X, "intercept_")
        codes, _ = self._run(X, False)
        # the vote may put I-t after O: repaired to B-t as the scheme reads it
        labels = np.asarray(self.classes_, dtype=object)[
            repair_iob2_codes(codes, X.offsets, self.classes_)].tolist()
        offs = X.offsets.tolist()
        return LabelSequences([labels[a:b] for a, b in zip(offs[:-1], offs[1:])])
