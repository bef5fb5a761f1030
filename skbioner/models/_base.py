"""The one model-input contract, and what every chain model does with its scores.

Every sequence model reads featurizer output (:class:`SentenceFeatures`) and
IOB2 label lists; both are checked here, once, and nowhere else.  A chain
model (one whose decoding problem is a first-order chain: the online CRF,
the HMM + calibrated SVM, Viterbi over pairwise-SVM probabilities) only says
how it scores tokens and transitions; :class:`ChainTaggerMixin` turns that
into ``predict``, ``predict_marginals`` and ``predict_entities`` through
:mod:`skbioner.decoding`.
"""

from __future__ import annotations

from itertools import chain
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from ..base import LabelSequences, SequenceTaggerMixin, final_estimator
from ..decoding import (
    SegmentTable,
    chain_marginals,
    emission_scores,
    opening_marginals,
    segment_probabilities,
    viterbi_batch,
    viterbi_csr,
)
from ..features import SentenceFeatures
from ..schemes import check_label_sequences, scheme_labels

__all__ = ["check_features", "check_fitted_features", "check_targets", "label_types",
           "ChainScores", "ChainTaggerMixin", "LikelihoodTerms", "best_temperature"]


def check_features(X, who, n_features=None) -> SentenceFeatures:
    """Featurizer output as :class:`SentenceFeatures` with a CSR float matrix.

    A CSC or other sparse format is converted to CSR (the decoders read CSR
    rows); column indices need not be sorted (no kernel needs them sorted,
    so no sorted copy is made).  Anything else is refused with a hint.

    Parameters
    ----------
    X : SentenceFeatures
        Featurizer output (an object with a sparse ``matrix`` and
        ``offsets`` is accepted too).
    who : str
        Name of the estimator, for messages.
    n_features : int, optional
        The number of features the fitted model expects.

    Returns
    -------
    SentenceFeatures
        ``X`` itself when it already has a float CSR matrix, otherwise a
        converted copy.

    Raises
    ------
    TypeError
        If ``X`` is not featurizer output.
    ValueError
        If ``X`` does not have ``n_features`` columns.
    """
    if not isinstance(X, SentenceFeatures):
        matrix = getattr(X, "matrix", None)
        offsets = getattr(X, "offsets", None)
        if matrix is None or offsets is None or not sp.issparse(matrix):
            raise TypeError(
                f"{who} reads featurizer output (skbioner.features.SentenceFeatures), got "
                f"{type(X).__name__}; put a TokenFeaturizer before it, e.g. "
                f"make_pipeline(TokenFeaturizer(), {who}())"
            )
        X = SentenceFeatures(matrix, offsets)
    if X.matrix.format != "csr":
        X = X.with_matrix(X.matrix.tocsr())
    if not np.issubdtype(X.matrix.dtype, np.floating):
        X = X.with_matrix(X.matrix.astype(np.float64))
    if n_features is not None and X.matrix.shape[1] != n_features:
        raise ValueError(
            f"X has {X.matrix.shape[1]} features, but {who} was fitted with {n_features}"
        )
    return X


#: ``check_targets(y, lengths, scheme="IOB2")``: ``y`` against ``X``'s sentence lengths
#: (IOB2 labels, or any non-empty strings with ``scheme=None``)
check_targets = check_label_sequences


def check_fitted_features(model, X, attribute):
    """:func:`check_features` of ``X`` for ``model``, which must be fitted (have ``attribute``)."""
    check_is_fitted(model, attribute)
    return check_features(X, type(model).__name__, model.n_features_in_)


def densified(model):
    """``model`` with its final estimator's weights dense again (after ``sparsify``), in place.

    Shipped models store their chain weights sparse (:meth:`OnlinePACRF.sparsify`);
    tagging reads them dense.  Wrappers and pipelines are looked through
    (:func:`skbioner.base.final_estimator`), and the tagger of pieces of a
    :class:`~skbioner.models.LearnedCutTagger` and the members and second pass of a
    :class:`~skbioner.ensemble.StackedTagger` are densified too.

    Parameters
    ----------
    model : fitted estimator or Pipeline

    Returns
    -------
    estimator
        ``model`` itself.
    """
    final = final_estimator(model)
    if hasattr(final, "densify") and (hasattr(final, "coef_") or hasattr(final, "classifier_")):
        final.densify()
    if hasattr(model, "cut_tagger_"):  # LearnedCutTagger: its tagger of pieces too
        densified(model.cut_tagger_)
    if hasattr(final, "final_estimator_"):  # a stack (two passes): members, second pass
        for step in (*getattr(final, "estimators_", ()), final.final_estimator_):
            densified(step)
    return model


def label_types(y, scheme="IOB2"):
    """Entity types of IOB2 label lists, or the labels themselves (``scheme=None``)."""
    distinct = set(chain.from_iterable(y))
    if scheme is None:
        return sorted(distinct)
    return sorted({lab.split("-", 1)[1] for lab in distinct if lab != "O"})


class ChainScores(NamedTuple):
    """The decoding problem a chain model poses for a batch of sentences.

    Token scores are either ``matrix @ coef`` (sparse features times chain
    weights: decoded fused, never materialised) or a dense ``scores`` array;
    ``trans``, ``start`` and ``end`` include the scheme's mask (``-inf`` or
    :data:`skbioner.decoding.NEG` for forbidden).

    Parameters
    ----------
    offsets : ndarray of int, shape (n_sentences + 1,)
        Sentence ``i`` occupies token rows ``offsets[i]:offsets[i + 1]``.
    trans : ndarray of shape (n_labels, n_labels)
        ``trans[a, b]``: score of label ``b`` right after label ``a``.
    start, end : ndarray of shape (n_labels,)
        Scores of beginning / ending a sentence with each label.
    matrix : scipy.sparse.csr_matrix of shape (n_tokens, n_features), default=None
        Feature rows of the tokens (with ``coef``).
    coef : ndarray of shape (n_features, n_labels), default=None
        Chain state weights (with ``matrix``).
    scores : ndarray of shape (n_tokens, n_labels), default=None
        Dense token scores, used instead of ``matrix @ coef`` when given.
    pairs : LabelPairs, default=None
        Features of ``matrix`` conjoined with label pairs: transition scores
        that vary per token (paths only; no probabilities).
    """

    offsets: np.ndarray
    trans: np.ndarray
    start: np.ndarray
    end: np.ndarray
    matrix: object = None
    coef: np.ndarray | None = None
    scores: np.ndarray | None = None
    pairs: object = None

    def dense(self):
        """The ``(n_tokens, n_labels)`` token scores.

        Returns
        -------
        ndarray of shape (n_tokens, n_labels)
            ``scores`` if given, otherwise ``matrix @ coef`` in float64.
        """
        if self.pairs is not None:
            raise ValueError("a model with label_pairs has transitions that vary per token: "
                             "its marginals and probabilities are not available")
        if self.scores is not None:
            return self.scores
        return emission_scores(self.matrix, self.coef)

    def paths(self):
        """Viterbi paths (flat label codes) of all sentences.

        Returns
        -------
        ndarray of int32, shape (n_tokens,)
            Best label code of each token, sentences concatenated.
        """
        if self.scores is None:
            return viterbi_csr(self.matrix, self.offsets, self.coef, self.trans, self.start,
                               self.end, self.pairs)
        return viterbi_batch(self.scores, self.offsets, self.trans, self.start, self.end)


def _has_probabilities(model):
    """``available_if`` check of the probability methods (``model._probabilities_available``)."""
    return model._probabilities_available()


class ChainTaggerMixin(SequenceTaggerMixin):
    """``predict``, ``predict_marginals`` and ``predict_entities`` of a chain model.

    A subclass implements ``_chain_scores(X) -> ChainScores`` (checking
    ``X`` and fittedness) and has a fitted ``label_space_``
    (``LabelSpace``) whose ``labels`` are the chain's
    (internal scheme) labels.  Predictions and marginals are given in IOB2,
    whose labels are ``classes_``.

    Probabilities use the chain's scores divided by ``temperature_`` (1.0
    unless :meth:`fit_temperature` was called); the best path does not
    depend on it.  A chain with label pairs (transitions that vary per
    token) has no probability methods.
    """

    def _probabilities_available(self):
        """Whether the chain has probabilities: not with label pairs (per-token transitions)."""
        return getattr(self, "label_pairs", None) is None

    def _probability_problem(self, problem, scores):
        """The chain with its scores divided by the fitted temperature."""
        tau = float(getattr(self, "temperature_", 1.0))
        if tau == 1.0:
            return problem, scores
        problem = problem._replace(trans=problem.trans / tau, start=problem.start / tau,
                                   end=problem.end / tau)
        return problem, scores / tau

    @available_if(_has_probabilities)
    def fit_temperature(self, X, y, bounds=(0.01, 100.0)):
        """Fit the temperature that makes the chain's probabilities calibrated.

        Temperature scaling (Guo et al. 2017) for a chain: the scalar ``tau``
        minimising the negative log-likelihood ``sum log Z(s / tau) -
        score(y) / tau`` of the gold sequences of held-out data; the paths
        :meth:`predict` returns do not change.

        Parameters
        ----------
        X : SentenceFeatures
            Held-out sentences (not the training data, on which a model is
            overconfident).
        y : list of list of str
            Their IOB2 labels (plain labels with ``scheme=None``).
        bounds : (float, float), default=(0.01, 100.0)
            Search interval of ``tau``.

        Returns
        -------
        self
        """
        self.temperature_ = best_temperature([self.likelihood_terms(X, y)], bounds)
        return self

    @available_if(_has_probabilities)
    def likelihood_terms(self, X, y):
        """What the likelihood of ``y`` under the chain needs, at any temperature.

        Parameters
        ----------
        X : SentenceFeatures
        y : list of list of str
            IOB2 labels (plain labels with ``scheme=None``).

        Returns
        -------
        LikelihoodTerms
            The chain of ``X`` (dense scores) and the scores of the gold paths;
            :func:`best_temperature` pools such terms (e.g. of several
            cross-validation folds).
        """
        problem = self._chain_scores(X)
        space = self.label_space_
        y = check_targets(y, np.diff(problem.offsets), None if space.scheme is None else "IOB2")
        scores = problem.dense()
        gold = _path_scores(scores, problem.offsets, space.encode(y), problem.trans,
                            problem.start, problem.end)
        return LikelihoodTerms(scores, problem.offsets, problem.trans, problem.start,
                               problem.end, gold)

    def predict(self, X):
        """IOB2 label lists (plain labels if ``scheme=None``) for featurizer output ``X``.

        Parameters
        ----------
        X : SentenceFeatures

        Returns
        -------
        list of list of str
        """
        problem = self._chain_scores(X)
        well_formed = bool(getattr(self, "constrained", True))
        return LabelSequences(self.label_space_.decode(problem.paths(), problem.offsets,
                                                       well_formed=well_formed))

    def _segment_table(self):
        table = self.__dict__.get("_segment_table_cache")
        if table is None or table.labels != tuple(self.label_space_.labels):
            table = SegmentTable(self.label_space_.labels)
            self.__dict__["_segment_table_cache"] = table  # derived, not state (not pickled)
        return table

    def __getstate__(self):
        # the caches (``_..._cache``, here and in subclasses) are derived, not state
        return {k: v for k, v in super().__getstate__().items()
                if not (k.startswith("_") and k.endswith("_cache"))}

    @available_if(_has_probabilities)
    def predict_marginals(self, X):
        """Per-token probabilities of each label of ``classes_``.

        The chain's distribution ``p(y | x) = exp(score(y)) / Z`` is summed
        by forward-backward; the probabilities of the internal scheme's
        labels are projected onto IOB2: ``B-t`` is the probability that an
        entity of type ``t`` starts at the token, ``I-t`` that the token
        continues one, ``O`` that it is outside.  For a model trained without
        probabilities (the passive-aggressive chain), this is the Gibbs
        distribution of its scores at temperature 1: a ranking of
        alternatives more than a calibrated probability; see
        ``docs/lab/benchmarks.md`` for how well it is calibrated.  A model
        without probabilities (label pairs; a greedy
        :class:`~skbioner.models.PairwiseSVMTagger`) does not have the
        method, so callers that ask for confidences when a model has them
        (``skbioner tag``) tag it without.

        Parameters
        ----------
        X : SentenceFeatures

        Returns
        -------
        list of ndarray of shape (n_tokens_i, n_classes)
            Columns in the order of ``classes_``; each row sums to 1.
        """
        problem = self._chain_scores(X)
        problem, scores = self._probability_problem(problem, problem.dense())
        marg, _ = chain_marginals(scores, problem.offsets, problem.trans, problem.start,
                                  problem.end)
        space = self.label_space_
        if space.scheme is None:
            out = marg
        else:
            out = self._iob2_marginals(scores, marg, problem)
        return [out[a:b] for a, b in zip(problem.offsets[:-1], problem.offsets[1:])]

    def _iob2_marginals(self, scores, marg, problem):
        """Project internal-scheme marginals onto ``classes_`` (IOB2) exactly.

        ``B-t`` needs the probability that a segment *starts* at the token,
        which is not a function of its label alone in every scheme (IOE2,
        IO): :func:`~skbioner.decoding.opening_marginals` gives it.
        """
        table = self._segment_table()
        opening = opening_marginals(scores, problem.offsets, problem.trans, problem.start,
                                    problem.end, table)
        classes = list(self.classes_)
        # column by column: in Fortran order each column is contiguous (the same
        # element-wise sums, several times faster than strided columns)
        marg, opening = np.asfortranarray(marg), np.asfortranarray(opening)
        out = np.zeros((scores.shape[0], len(classes)), order="F")
        col = {c: k for k, c in enumerate(classes)}
        for lab, t in enumerate(table.label_type):
            if t < 0:
                out[:, col["O"]] += marg[:, lab]
                continue
            typ = table.types[t]
            out[:, col["B-" + typ]] += opening[:, lab]
            out[:, col["I-" + typ]] += marg[:, lab] - opening[:, lab]
        return np.ascontiguousarray(np.clip(out, 0.0, 1.0))

    @available_if(_has_probabilities)
    def predict_entities(self, X):
        """Predicted entities with their probability under the chain.

        Parameters
        ----------
        X : SentenceFeatures

        Returns
        -------
        list of list of (str, int, int, float)
            Per sentence, ``(type, start, end, probability)`` for every
            entity of :meth:`predict` (half-open token offsets): the
            probability that a label sequence drawn from the chain's
            distribution has exactly this entity (see
            :meth:`predict_marginals` for what that means for a model
            trained without probabilities).
        """
        space = self.label_space_
        if space.scheme is None:
            raise ValueError("predict_entities needs a segment scheme; scheme=None tags "
                             "plain labels (use predict_marginals)")
        raw = self._chain_scores(X)
        raw_scores = raw.dense()
        paths = viterbi_batch(raw_scores, raw.offsets, raw.trans, raw.start, raw.end)
        table = self._segment_table()
        # the segments of the paths, read by labels_to_spans's policy (compiled): the
        # spans of predict's IOB2 labels, well formed or not
        segments = table.segments(paths, raw.offsets)
        problem, scores = self._probability_problem(raw, raw_scores)
        probs = segment_probabilities(scores, problem.offsets, problem.trans, problem.start,
                                      problem.end, segments, table)
        out = [[] for _ in range(raw.offsets.size - 1)]
        types = table.types
        for (i, t, s, e), p in zip(segments.tolist(), probs.tolist()):
            out[i].append((types[t], s, e, p))
        return out


class LikelihoodTerms(NamedTuple):
    """A chain's dense scores over some sentences and the scores of their gold paths."""

    scores: np.ndarray
    offsets: np.ndarray
    trans: np.ndarray
    start: np.ndarray
    end: np.ndarray
    gold: np.ndarray

    def nll(self, tau):
        """Negative log-likelihood of the gold paths with scores divided by ``tau``."""
        _, log_z = chain_marginals(self.scores / tau, self.offsets, self.trans / tau,
                                   self.start / tau, self.end / tau)
        return float(np.sum(log_z) - np.sum(self.gold) / tau)


def best_temperature(terms, bounds=(0.01, 100.0)):
    """The temperature minimising the pooled negative log-likelihood of ``terms``.

    Parameters
    ----------
    terms : list of LikelihoodTerms
        Held-out sentences scored by one model, or by the models of several
        cross-validation folds, each on its own held-out part.
    bounds : (float, float), default=(0.01, 100.0)

    Returns
    -------
    float
    """
    from scipy.optimize import minimize_scalar

    res = minimize_scalar(lambda lt: sum(t.nll(np.exp(lt)) for t in terms),
                          bounds=np.log(bounds), method="bounded", options={"xatol": 1e-3})
    return float(np.exp(res.x))


def _path_scores(scores, offsets, codes, trans, start, end):
    """Score of the label path ``codes`` of every sentence, vectorised."""
    n_tok = scores.shape[0]
    total = np.zeros(offsets.size - 1)
    if n_tok == 0:
        return total
    sent = np.repeat(np.arange(offsets.size - 1), np.diff(offsets))
    np.add.at(total, sent, scores[np.arange(n_tok), codes])
    first = offsets[:-1][np.diff(offsets) > 0]
    last = offsets[1:][np.diff(offsets) > 0] - 1
    total[sent[first]] += start[codes[first]] + end[codes[last]]
    inner = np.ones(n_tok, dtype=bool)
    inner[first] = False
    rows = np.flatnonzero(inner)
    np.add.at(total, sent[rows], trans[codes[rows - 1], codes[rows]])
    return total


def iob2_classes(types):
    """``classes_`` of a tagger predicting IOB2 labels of ``types``."""
    return np.array(scheme_labels("IOB2", types), dtype=object)
