"""``HMMSVMTagger``: an HMM whose lexical term is a sigmoid-calibrated linear SVM.

Zhou & Su (2004), the JNLPBA 2004 winner, decompose the probability of a
tag sequence ``S`` given the tokens ``O`` as::

    log P(S | O) = log P(S) - sum_i log P(s_i) + sum_i log P(s_i | O)

``P(S)`` is an n-gram model of the tags (here a smoothed bigram model),
``P(s_i)`` the tag priors and ``P(s_i | O)`` the *lexical* term: one
one-vs-rest linear SVM per tag over the token's features, its decision value
mapped to a probability by a sigmoid (Platt 1999) fitted on out-of-fold
decision values.  The sum is a first-order chain: dense token scores
``log P(s | O) - log P(s)`` and transition scores ``log P(b | a)``, decoded
by the suite's one Viterbi (``ChainScores``), which
also gives marginals and entity probabilities.
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np
from scipy.optimize import minimize
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC
from sklearn.utils.parallel import Parallel, delayed

from .._validation import Integral, Interval, Real, StrOptions, fit_context
from ..model_selection import document_folds
from ..schemes import SCHEMES, scheme_labels
from ._base import (
    ChainScores,
    ChainTaggerMixin,
    check_features,
    check_fitted_features,
    check_targets,
    label_types,
)
from ._linear_chain import LabelSpace

__all__ = ["HMMSVMTagger", "platt_fit"]

#: floor of a probability before its logarithm is taken
_EPS = 1e-12


def platt_fit(decision, target, max_iter=100):
    """Platt's sigmoid ``p = 1 / (1 + exp(A f + B))`` fitted to binary targets.

    Platt (1999) with Lin, Lin & Weng's (2007) smoothed targets
    (``(N+ + 1) / (N+ + 2)`` for positives, ``1 / (N- + 2)`` for negatives),
    minimising the cross-entropy by L-BFGS with the analytic gradient.

    Parameters
    ----------
    decision : ndarray of shape (n_samples,)
        Decision values ``f`` (out of fold: not the training data's own).
    target : ndarray of bool, shape (n_samples,)
        Whether each sample is positive.
    max_iter : int, default=100
        L-BFGS iterations.

    Returns
    -------
    ndarray of shape (2,)
        ``(A, B)``; ``A`` is negative when larger decision values mean positive.
    """
    f = np.asarray(decision, dtype=np.float64)
    target = np.asarray(target, dtype=bool)
    n_pos = int(target.sum())
    n_neg = target.size - n_pos
    t = np.where(target, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))

    def loss(ab):
        z = ab[0] * f + ab[1]
        # -[t log p + (1 - t) log (1 - p)] with p = sigmoid(-z), computed stably
        log1pexp = np.logaddexp(0.0, z)
        value = np.sum(t * log1pexp + (1.0 - t) * (log1pexp - z))
        p = np.exp(-log1pexp)  # sigmoid(-z)
        d = t - p  # d loss / d z
        return value, np.array([np.dot(d, f), d.sum()])

    prior = np.log((n_neg + 1.0) / (n_pos + 1.0))
    res = minimize(loss, np.array([-1.0, prior]), jac=True, method="L-BFGS-B",
                   options={"maxiter": max_iter})
    return res.x


def _fit_binary(matrix, target, C, max_iter, random_state):
    """One binary linear SVM; ``(coef, intercept)`` (zeros when ``target`` is constant)."""
    if target.all() or not target.any():
        return np.zeros(matrix.shape[1]), (1.0 if target.all() else -1.0)
    # the dual solver: ~20 times faster than the primal one sklearn picks when
    # there are more tokens than features
    svm = LinearSVC(C=C, dual=True, max_iter=max_iter, random_state=random_state)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        svm.fit(matrix, target)
    return svm.coef_.ravel().astype(np.float64), float(svm.intercept_[0])


class HMMSVMTagger(ChainTaggerMixin, BaseEstimator):
    """HMM with a sigmoid-calibrated one-vs-rest linear SVM lexical term (Zhou & Su 2004).

    The chain score of a label sequence is ``log P(S) - prior_weight * sum_i
    log P(s_i) + sum_i log P(s_i | O)`` (scaled by ``transition_weight`` for
    the tag model):

    * ``P(s | O)``: per label, a binary linear SVM (``LinearSVC``) on the
      token's sparse features; its decision value goes through a Platt
      sigmoid fitted on out-of-fold decision values (``cv`` contiguous
      blocks of whole documents); with ``normalize`` the label probabilities of a
      token are divided by their sum.
    * ``P(s)``: training label frequencies (add-one smoothed).
    * ``P(S)``: a bigram model of the labels, with sentence start and end,
      additively smoothed by ``alpha``.

    Labels carry boundary and class: the internal ``scheme``'s labels
    (IOB2, BIES, ...); ``y`` comes and predictions go in IOB2.

    Parameters
    ----------
    scheme : str, default="IOB2"
        Internal segment representation (see :mod:`skbioner.schemes`).
    C : float, default=0.1
        Regularisation of the linear SVMs (``LinearSVC(C=...)``).
    cv : int, default=3
        Folds of the out-of-fold decision values the sigmoids are fitted on.
    refit : bool, default=True
        Fit the final SVMs on all the data.  False: the final weights are
        the mean of the ``cv`` fold models' (whose decision values the
        sigmoids were fitted on): training costs about a third (``cv=3``).
    alpha : float, default=0.1
        Additive smoothing of the tag bigram counts.
    prior_weight : float, default=1.0
        Weight of ``-log P(s)`` (1: the paper's decomposition; 0: no prior
        correction).
    transition_weight : float, default=1.0
        Weight of the tag model ``log P(S)``.
    normalize : bool, default=True
        Divide each token's sigmoid outputs by their sum (a distribution
        over the labels) before taking logarithms.
    max_iter : int, default=1000
        Iterations of each ``LinearSVC``.
    constrained : bool, default=True
        Forbid transitions that ``scheme`` never writes when decoding.
    n_jobs : int or None, default=None
        Processes fitting the binary SVMs (one task per label and fold).
    random_state : int, RandomState instance or None, default=None
        Seed of ``LinearSVC`` (its coordinate descent shuffles).
    verbose : int, default=0
        Prints the time of the fitting stages on stderr.

    Attributes
    ----------
    label_space_ : LabelSpace
    coef_ : ndarray of shape (n_features, n_labels)
        SVM weights of each internal label.
    intercept_ : ndarray of shape (n_labels,)
    sigmoid_ : ndarray of shape (n_labels, 2)
        Platt's ``(A, B)`` of each label.
    log_prior_ : ndarray of shape (n_labels,)
        ``log P(s)``.
    log_transition_ : ndarray of shape (n_labels, n_labels)
        ``log P(b | a)``.
    log_start_, log_end_ : ndarray of shape (n_labels,)
        ``log P(s_0 = b)`` and ``log P(end | s_n = a)``.
    classes_ : ndarray of str
        IOB2 labels :meth:`predict` returns.
    n_features_in_ : int
    fit_seconds_ : dict of str -> float
        Seconds spent on the out-of-fold SVMs, the sigmoids and the final SVMs.

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from skbioner.datasets import load_jnlpba_sample
    >>> from skbioner.features import TokenFeaturizer
    >>> from skbioner.models import HMMSVMTagger
    >>> train = load_jnlpba_sample("train")
    >>> tagger = make_pipeline(TokenFeaturizer(templates="zhou"), HMMSVMTagger(cv=2))
    >>> tagger = tagger.fit(train.X[:200], train.y[:200])
    >>> len(tagger.predict(train.X[:3]))
    3
    """

    _parameter_constraints = {
        "scheme": [StrOptions(set(SCHEMES) | {"BIO"})],
        "C": [Interval(Real, 0, None, closed="neither")],
        "cv": [Interval(Integral, 2, None, closed="left")],
        "refit": ["boolean"],
        "alpha": [Interval(Real, 0, None, closed="neither")],
        "prior_weight": [Interval(Real, 0, None, closed="left")],
        "transition_weight": [Interval(Real, 0, None, closed="left")],
        "normalize": ["boolean"],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "constrained": ["boolean"],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(self, scheme="IOB2", C=0.1, cv=3, refit=True, alpha=0.1, prior_weight=1.0,
                 transition_weight=1.0, normalize=True, max_iter=1000, constrained=True,
                 n_jobs=None, random_state=None, verbose=0):
        self.scheme = scheme
        self.C = C
        self.cv = cv
        self.refit = refit
        self.alpha = alpha
        self.prior_weight = prior_weight
        self.transition_weight = transition_weight
        self.normalize = normalize
        self.max_iter = max_iter
        self.constrained = constrained
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    @fit_context
    def fit(self, X, y):
        """Fit the SVMs, their sigmoids and the tag model.

        Parameters
        ----------
        X : SentenceFeatures
            Output of :class:`~skbioner.features.TokenFeaturizer`.
        y : list of list of str
            IOB2 labels.

        Returns
        -------
        self : HMMSVMTagger
        """
        X = check_features(X, type(self).__name__)
        y = check_targets(y, X.lengths, "IOB2")
        space = LabelSpace.build(self.scheme, label_types(y, "IOB2"))
        self.label_space_ = space
        self.classes_ = np.array(scheme_labels("IOB2", space.types), dtype=object)
        self.n_features_in_ = X.matrix.shape[1]
        codes = space.encode(y)
        L = space.n_labels
        matrix, offsets = X.matrix, X.offsets
        seed = self.random_state  # an int or None as given, a RandomState drawn from once
        if not (seed is None or isinstance(seed, Integral)):
            seed = int(seed.randint(np.iinfo(np.int32).max))
        timing = {}

        # out-of-fold decision values -> Platt sigmoids
        t0 = time.perf_counter()
        try:  # each token in its sentence's fold: blocks of whole documents
            folds = np.repeat(document_folds(X, self.cv), np.diff(offsets))
        except ValueError:  # a single sentence: no out-of-fold values
            folds = np.zeros(codes.size, dtype=np.int64)
        n_folds = int(folds.max()) + 1 if folds.size else 0
        decision = np.zeros((codes.size, L))
        if n_folds >= 2:
            tasks = [(k, lab) for k in range(n_folds) for lab in range(L)]
            fitted = Parallel(n_jobs=self.n_jobs)(
                delayed(_fit_binary)(matrix[folds != k], codes[folds != k] == lab, self.C,
                                     self.max_iter, seed)
                for k, lab in tasks)
            mean_w = np.zeros((matrix.shape[1], L))
            mean_b = np.zeros(L)
            for (k, lab), (w, b) in zip(tasks, fitted):
                rows = np.flatnonzero(folds == k)
                decision[rows, lab] = matrix[rows] @ w + b
                mean_w[:, lab] += w / n_folds
                mean_b[lab] += b / n_folds
        timing["oof_svms"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        if n_folds >= 2:
            self.sigmoid_ = np.stack([platt_fit(decision[:, lab], codes == lab)
                                      for lab in range(L)])
        else:
            self.sigmoid_ = np.tile([-1.0, 0.0], (L, 1))
        timing["sigmoids"] = time.perf_counter() - t0

        # final SVMs on all the data (or the mean of the fold models)
        t0 = time.perf_counter()
        if self.refit or n_folds < 2:
            fitted = Parallel(n_jobs=self.n_jobs)(
                delayed(_fit_binary)(matrix, codes == lab, self.C, self.max_iter, seed)
                for lab in range(L))
            self.coef_ = np.stack([w for w, _ in fitted], axis=1)
            self.intercept_ = np.array([b for _, b in fitted])
        else:
            self.coef_, self.intercept_ = mean_w, mean_b
        timing["final_svms"] = time.perf_counter() - t0
        self.fit_seconds_ = timing

        # tag priors and bigram model
        counts = np.bincount(codes, minlength=L).astype(np.float64)
        self.log_prior_ = np.log((counts + 1.0) / (counts.sum() + L))
        lengths = np.diff(offsets)
        nonempty = lengths > 0
        first = offsets[:-1][nonempty]
        last = offsets[1:][nonempty] - 1
        inner = np.ones(codes.size, dtype=bool)
        inner[first] = False
        rows = np.flatnonzero(inner)
        pairs = np.zeros((L, L))
        np.add.at(pairs, (codes[rows - 1], codes[rows]), 1.0)
        ends = np.bincount(codes[last], minlength=L).astype(np.float64)
        starts = np.bincount(codes[first], minlength=L).astype(np.float64)
        a = float(self.alpha)
        # P(b | a) and P(end | a) share a's outgoing mass
        out = pairs.sum(axis=1) + ends + a * (L + 1)
        self.log_transition_ = np.log((pairs + a) / out[:, None])
        self.log_end_ = np.log((ends + a) / out)
        self.log_start_ = np.log((starts + a) / (starts.sum() + a * L))
        if self.verbose:
            print(f"{type(self).__name__}: " + ", ".join(
                f"{k} {v:.1f} s" for k, v in timing.items()), file=sys.stderr)
        return self

    def lexical_log_proba(self, X):
        """``log P(s | O)`` of every token and internal label.

        Parameters
        ----------
        X : SentenceFeatures

        Returns
        -------
        ndarray of shape (n_tokens, n_labels)
            Columns in the order of ``label_space_.labels``.
        """
        X = check_fitted_features(self, X, "coef_")
        return self._lexical(X)

    def _lexical(self, X):
        decision = np.asarray(X.matrix @ self.coef_) + self.intercept_
        z = decision * self.sigmoid_[:, 0] + self.sigmoid_[:, 1]
        log_p = -np.logaddexp(0.0, z)  # log sigmoid(-z)
        if self.normalize and log_p.size:
            log_p = log_p - np.logaddexp.reduce(log_p, axis=1, keepdims=True)
        return np.maximum(log_p, np.log(_EPS))

    def _chain_scores(self, X):
        X = check_fitted_features(self, X, "coef_")
        scores = self._lexical(X) - self.prior_weight * self.log_prior_
        w = float(self.transition_weight)
        trans, start, end = self.label_space_.masked(
            w * self.log_transition_, w * self.log_start_, w * self.log_end_, self.constrained)
        return ChainScores(X.offsets, trans, start, end, scores=np.ascontiguousarray(scores))
