"""``CascadedNER``: find segments first, then classify (or reject) each segment."""

from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, clone
from sklearn.utils import check_random_state
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted

from .._progress import log, progress_bar
from .._validation import HasMethods, Integral, Interval, fit_context
from ..base import LabelSequences, SequenceTaggerMixin
from ..features import SentenceFeatures
from ..metrics import entity_f1_score
from ..model_selection import document_splits
from ..schemes import labels_to_spans, spans_to_labels
from ._base import (
    best_temperature,
    check_features,
    check_fitted_features,
    check_targets,
    iob2_classes,
)
from ._online_crf import OnlinePACRF

__all__ = ["CascadedNER", "SegmentFeaturizer"]

SEGMENT_TYPE = "ENT"
_LENGTH_BUCKETS = np.array([1, 2, 3, 4, 6, 9])  # lengths 1, 2, 3, 4-5, 6-8, 9+


class SegmentFeaturizer:
    """Sparse features of candidate segments, built from token features.

    A segment's row concatenates five blocks, computed with sparse products
    (no per-token Python): the token feature rows summed over the segment
    (its words, affixes, shapes and, through the token windows, its context
    words), the row of its last token (the head, in English noun phrases),
    the row of its first token, a one-hot length bucket, and a one-hot of
    the type stage 1 proposed for the segment (its output).  Only columns
    active on some training segment are kept (``fit``), which keeps the
    second-stage model small.

    Parameters
    ----------
    types : sequence of str, default=("ENT",)
        The segment types stage 1 can propose.
    blocks : sequence of str, default=BLOCKS
        Which of the blocks ``"bag"``, ``"head"``, ``"first"``, ``"length"``,
        ``"type"`` to build (a non-empty subset; kept in that order).
    """

    BLOCKS = ("bag", "head", "first", "length", "type")

    def __init__(self, types=(SEGMENT_TYPE,), blocks=BLOCKS):
        unknown = set(blocks) - set(self.BLOCKS)
        if unknown or not blocks:
            raise ValueError(f"segment feature blocks must be a non-empty subset of "
                             f"{self.BLOCKS}, got {tuple(blocks)}")
        self.types = tuple(types)
        self.blocks = tuple(b for b in self.BLOCKS if b in blocks)
        self.columns_ = None

    def _raw(self, matrix, spans_per_sentence, offsets):
        """Uncompacted segment matrix and segment offsets per sentence."""
        seg_offsets = np.zeros(len(spans_per_sentence) + 1, dtype=np.int64)
        starts, ends, kinds = [], [], []
        type_index = {t: k for k, t in enumerate(self.types)}
        for i, spans in enumerate(spans_per_sentence):
            base = offsets[i]
            for t, s, e in spans:
                starts.append(base + s)
                ends.append(base + e)
                kinds.append(type_index[t])
            seg_offsets[i + 1] = seg_offsets[i] + len(spans)
        starts = np.asarray(starts, dtype=np.int64)
        ends = np.asarray(ends, dtype=np.int64)
        n_seg, n_tok = len(starts), matrix.shape[0]
        lens = ends - starts
        member_rows = np.repeat(np.arange(n_seg), lens)
        member_cols = (np.arange(lens.sum()) - np.repeat(np.cumsum(lens) - lens, lens)
                       + np.repeat(starts, lens))

        def ones(rows, cols, width):  # a 0/1 matrix of n_seg rows
            return sp.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)),
                                 shape=(n_seg, width))

        seg = np.arange(n_seg)
        bag = ones(member_rows, member_cols, n_tok) @ matrix
        bag.data = np.minimum(bag.data, 1.0)  # presence, not counts
        bucket = np.searchsorted(_LENGTH_BUCKETS, lens, side="right") - 1
        parts = {"bag": bag, "head": ones(seg, ends - 1, n_tok) @ matrix,
                 "first": ones(seg, starts, n_tok) @ matrix,
                 "length": ones(seg, bucket, len(_LENGTH_BUCKETS)),
                 "type": ones(seg, kinds, len(self.types))}
        X = sp.hstack([parts[b] for b in self.blocks], format="csr", dtype=np.float32)
        return X, seg_offsets

    def fit_transform(self, matrix, spans_per_sentence, offsets):
        """Keep the columns active on these (training) segments; then :meth:`transform`.

        Parameters and return values are those of :meth:`transform`.
        """
        X, seg_offsets = self._raw(matrix, spans_per_sentence, offsets)
        self.n_raw_ = X.shape[1]
        self.columns_ = np.unique(X.indices)
        return X[:, self.columns_], seg_offsets

    def transform(self, matrix, spans_per_sentence, offsets):
        """Rows of the segments over the columns kept by :meth:`fit_transform`.

        Parameters
        ----------
        matrix : scipy.sparse.csr_matrix of shape (n_tokens, n_features)
            Token feature rows of all sentences, stacked.
        spans_per_sentence : list of list of (str, int, int)
            Candidate segments ``(type, start, end)`` of each sentence
            (token offsets within the sentence, half-open).
        offsets : ndarray of int, shape (n_sentences + 1,)
            Sentence ``i`` occupies rows ``offsets[i]:offsets[i + 1]`` of ``matrix``.

        Returns
        -------
        X : scipy.sparse.csr_matrix of shape (n_segments, n_columns)
            One row per segment, sentences in order.
        segment_offsets : ndarray of int64, shape (n_sentences + 1,)
            Sentence ``i``'s segments are rows ``segment_offsets[i]:segment_offsets[i + 1]``.
        """
        X, seg_offsets = self._raw(matrix, spans_per_sentence, offsets)
        return X[:, self.columns_], seg_offsets

    def get_feature_names_out(self, token_names):
        """Names of the segment feature columns kept in ``fit``.

        Parameters
        ----------
        token_names : sequence of str
            The names of the token feature columns the segment features are
            built from (``TokenFeaturizer.get_feature_names_out()``).

        Returns
        -------
        ndarray of str objects
            ``"bag:w[0]=IL-2"`` (a token feature seen in the segment),
            ``"head:..."`` / ``"first:..."`` (of its last / first token),
            ``"length:4-5"``, ``"type:ENT"``.
        """
        if self.columns_ is None:
            raise ValueError("this SegmentFeaturizer is not fitted")
        token_names = np.asarray(token_names, dtype=object)
        n = token_names.size
        edges = _LENGTH_BUCKETS.tolist()
        lengths = [str(a) if b == a + 1 else f"{a}-{b - 1}" for a, b in zip(edges, edges[1:])]
        parts = {"bag": token_names, "head": token_names, "first": token_names,
                 "length": [*lengths, f"{edges[-1]}+"], "type": self.types}
        names = np.asarray([f"{b}:{x}" for b in self.blocks for x in parts[b]], dtype=object)
        if names.size != self.n_raw_:
            raise ValueError(f"token_names has {n} names: these segment features were not "
                             "built from those token features")
        return names[self.columns_]


def _segment_spans(y):
    """Entity spans with every type collapsed to one segment type."""
    return [[(SEGMENT_TYPE, s, e) for _, s, e in labels_to_spans(labels)] for labels in y]


def _fit_predict_fold(segmenter, X, y_seg, train, test):
    """Fit on ``train``; return the predictions on ``test``, or the model if ``test`` is None.

    With a chain segmenter the fold also returns the likelihood terms of its
    held-out sentences, which calibrate the final segmenter's probabilities.
    """
    model = clone(segmenter).fit(X[train], [y_seg[i] for i in train])
    if test is None:
        return None, model, None
    terms = None
    if hasattr(model, "likelihood_terms"):
        types = set(getattr(model.label_space_, "types", ()))
        keep = [i for i in test if {lab[2:] for lab in y_seg[i] if lab != "O"} <= types]
        if keep:
            terms = model.likelihood_terms(X[np.asarray(keep)], [y_seg[i] for i in keep])
    return test, model.predict(X[test]), terms


class CascadedNER(SequenceTaggerMixin, BaseEstimator):
    """Two-phase NER: segment, then label each segment with a type or reject it.

    Stage 1 (``segmenter``) finds entity segments: trained on the labels
    with the types collapsed into one (``typed_segmenter=False``, the
    classic two-phase set-up) or on the typed labels, its types then being a
    guess that stage 2 sees as a feature.  Stage 2 (``classifier``) is a
    chain over the predicted segments of each sentence that labels every
    segment with an entity type or *Other*, which rejects the segment.  Stage 2 learns from stage-1
    segments predicted out of fold (``n_folds`` cross-fitting inside
    ``fit``), so it learns to reject the segmenter's false positives.
    Segment features come from :class:`SegmentFeaturizer` over the token
    features ``X``.

    Both stages are parameters and tune through the usual nested names, e.g.
    ``GridSearchCV(pipe, {"cascadedner__segmenter__C": [...]})``.

    Parameters
    ----------
    segmenter : estimator, default=None
        Sequence model for stage 1, reading ``X``; None means
        ``OnlinePACRF(scheme="IOBES")``.
    classifier : estimator, default=None
        Sequence model for stage 2 over segment sequences; None means
        ``OnlinePACRF()``.
    typed_segmenter : bool, default=False
        Train stage 1 on typed labels and pass its type to stage 2 as a
        feature, instead of collapsing the types.
    segment_features : tuple of str, default=("bag", "head", "first", "length", "type")
        Blocks of :class:`SegmentFeaturizer` stage 2 reads.
    n_folds : int, default=5
        Folds for the out-of-fold stage-1 predictions stage 2 learns from
        (contiguous blocks of whole documents).
    n_jobs : int or None, default=None
        Folds trained in parallel (joblib).
    random_state : int, RandomState instance or None, default=None
        Seeds the sub-models that have a ``random_state`` (one seed each,
        drawn before any parallel work).
    verbose : int, default=0
        Progress on stderr: the phases, a bar over the stage-1 models (1;
        a line per model with 2) and the classifier's epochs.

    Attributes
    ----------
    classes_ : ndarray of str
        The IOB2 labels :meth:`predict` returns.
    segmenter_, classifier_ : fitted estimators
    segment_featurizer_ : SegmentFeaturizer
    types_ : list of str
    oof_segment_f1_ : float
        Stage-1 segment F1 of the out-of-fold predictions (diagnostic).
    """

    _parameter_constraints = {
        "segmenter": [HasMethods(["fit", "predict"]), None],
        "classifier": [HasMethods(["fit", "predict"]), None],
        "typed_segmenter": ["boolean"],
        "segment_features": [tuple, list],
        "n_folds": [Interval(Integral, 2, None, closed="left")],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(self, segmenter=None, classifier=None, typed_segmenter=False,
                 segment_features=SegmentFeaturizer.BLOCKS, n_folds=5,
                 n_jobs=None, random_state=None, verbose=0):
        self.segmenter = segmenter
        self.classifier = classifier
        self.typed_segmenter = typed_segmenter
        self.segment_features = segment_features
        self.n_folds = n_folds
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def _sub(self, est, default, seed):
        est = clone(est) if est is not None else default
        if "random_state" in est.get_params():
            est.set_params(random_state=seed)
        return est

    @fit_context
    def fit(self, X, y):
        """Train both stages on featurizer output ``X`` and IOB2 ``y``.

        Parameters
        ----------
        X : SentenceFeatures
        y : list of list of str
            IOB2 labels.

        Returns
        -------
        self : CascadedNER
        """
        X = check_features(X, type(self).__name__)
        matrix, offsets = X.matrix, X.offsets
        y = check_targets(y, X.lengths)
        if len(y) < 2:
            raise ValueError(f"CascadedNER needs at least 2 sentences, got {len(y)}")
        SegmentFeaturizer(blocks=self.segment_features)  # validate before any training
        rs = check_random_state(self.random_state)
        seeds = rs.randint(np.iinfo(np.int32).max, size=2)
        segmenter = self._sub(self.segmenter, OnlinePACRF(scheme="IOBES"), seeds[0])
        classifier = self._sub(self.classifier, OnlinePACRF(), seeds[1])
        self.types_ = sorted({t for labels in y for t, _, _ in labels_to_spans(labels)})
        self.classes_ = iob2_classes(self.types_)
        n = len(y)
        if self.typed_segmenter:
            y_seg, seg_types = y, self.types_
        else:
            gold_seg = _segment_spans(y)
            y_seg = [spans_to_labels(s, len(lab), "IOB2") for s, lab in zip(gold_seg, y)]
            seg_types = [SEGMENT_TYPE]

        t0 = time.perf_counter()
        # the final segmenter (on all data) trains alongside the out-of-fold ones
        jobs = document_splits(X, self.n_folds)
        jobs.insert(0, (np.arange(n), None))
        bar = progress_bar(len(jobs), f"{type(self).__name__} stage 1 (final segmenter + "
                                      f"{len(jobs) - 1} folds)", self.verbose, unit="model")
        results = []
        with bar:
            for out in Parallel(n_jobs=self.n_jobs, return_as="generator")(
                    delayed(_fit_predict_fold)(segmenter, X, y_seg, train, test)
                    for train, test in jobs):
                results.append(out)
                bar.update()
                if self.verbose >= 2:
                    log(self, f"stage-1 model {len(results)}/{len(jobs)} trained "
                              f"({time.perf_counter() - t0:.1f} s)")
        oof = [None] * n
        terms = []
        for test, out, fold_terms in results:
            if test is None:
                self.segmenter_ = out
                continue
            for i, p in zip(test, out):
                oof[i] = p
            if fold_terms is not None:
                terms.append(fold_terms)
        if terms and hasattr(self.segmenter_, "temperature_"):
            # the folds' held-out likelihood calibrates the segment probabilities
            self.segmenter_.temperature_ = best_temperature(terms)
        self.oof_segment_f1_ = entity_f1_score(y_seg, oof, mode="spans")
        self.typed_segmenter_ = bool(self.typed_segmenter)
        log(self, f"segmenters trained; out-of-fold segmentation F1 "
                  f"{self.oof_segment_f1_:.4f} ({time.perf_counter() - t0:.1f} s)")

        cand = ([labels_to_spans(labels) for labels in oof] if self.typed_segmenter
                else _segment_spans(oof))
        gold = [{(s, e): t for t, s, e in labels_to_spans(labels)} for labels in y]
        y2 = [["B-" + g[(s, e)] if (s, e) in g else "O" for _, s, e in c]
              for c, g in zip(cand, gold)]
        self.segment_featurizer_ = SegmentFeaturizer(types=seg_types,
                                                     blocks=self.segment_features)
        Xs, seg_offsets = self.segment_featurizer_.fit_transform(matrix, cand, offsets)
        if self.verbose and "verbose" in classifier.get_params() and not classifier.verbose:
            classifier.set_params(verbose=self.verbose)  # its epochs, in this process
        self.classifier_ = classifier.fit(SentenceFeatures(Xs, seg_offsets), y2)
        if hasattr(self.classifier_, "fit_temperature"):
            # the classifier's scores are tiny (strong regularisation): at temperature 1
            # its type probabilities are near uniform.  Its training segments are stage-1
            # output predicted out of fold, and the classifier is far from fitting them,
            # so they serve to calibrate it (benchmarks/calibration.py).
            self.classifier_.fit_temperature(SentenceFeatures(Xs, seg_offsets), y2)
        log(self, f"classifier trained on {Xs.shape[0]} segments, {Xs.shape[1]} features "
                  f"({time.perf_counter() - t0:.1f} s)")
        self.n_features_in_ = matrix.shape[1]
        return self

    def sparsify(self):
        """Store both stages' weights as sparse float32 matrices, to ship the model.

        Calls ``sparsify`` of the segmenter and the classifier (see
        :meth:`OnlinePACRF.sparsify`); :meth:`densify` undoes the storage
        (not the rounding to float32).

        Returns
        -------
        self
        """
        return self._each_stage("sparsify")

    def densify(self):
        """Store both stages' weights as dense arrays again (after :meth:`sparsify`).

        Returns
        -------
        self
        """
        return self._each_stage("densify")

    def _each_stage(self, method):
        check_is_fitted(self, "classifier_")
        for est in (self.segmenter_, self.classifier_):
            if hasattr(est, method):
                getattr(est, method)()
        return self

    def _stages(self, X, confidence=False):
        """Stage-1 segments of ``X`` and the stage-2 input built on them.

        Returns ``(X, segments, stage2)``: ``segments`` per sentence as
        ``(type, start, end, p)`` (``p`` the segment's probability with
        ``confidence=True``, else None).
        """
        X = check_fitted_features(self, X, "classifier_")
        if confidence:
            segments = self.segmenter_.predict_entities(X)
        else:
            segments = [[(t, s, e, None) for t, s, e in labels_to_spans(labels)]
                        for labels in self.segmenter_.predict(X)]
        if not self.typed_segmenter_:
            segments = [[(SEGMENT_TYPE, s, e, p) for _, s, e, p in seg] for seg in segments]
        cand = [[(t, s, e) for t, s, e, _ in seg] for seg in segments]
        Xs, seg_offsets = self.segment_featurizer_.transform(X.matrix, cand, X.offsets)
        return X, segments, SentenceFeatures(Xs, seg_offsets)

    def predict(self, X):
        """IOB2 label lists for featurizer output ``X``.

        Parameters
        ----------
        X : SentenceFeatures

        Returns
        -------
        list of list of str
        """
        X, segments, stage2 = self._stages(X)
        types = self.classifier_.predict(stage2)
        out = []
        for seg, labels, n in zip(segments, types, X.lengths):
            kept = [(lab[2:], s, e) for (_, s, e, _), lab in zip(seg, labels) if lab != "O"]
            out.append(spans_to_labels(kept, int(n), "IOB2"))
        return LabelSequences(out)

    def predict_entities(self, X):
        """Predicted entities with a confidence.

        The confidence of an entity is the probability of its segment under
        the segmenter's chain times the classifier's marginal probability of
        its type for that segment (both as defined in
        :meth:`OnlinePACRF.predict_marginals`); it needs sub-models with
        ``predict_entities`` and ``predict_marginals``.

        Parameters
        ----------
        X : SentenceFeatures

        Returns
        -------
        list of list of (str, int, int, float)
            Per sentence, ``(type, start, end, confidence)`` for every entity
            of :meth:`predict`.
        """
        X, segments, stage2 = self._stages(X, confidence=True)
        types = self.classifier_.predict(stage2)
        marg = self.classifier_.predict_marginals(stage2)
        col = {c: k for k, c in enumerate(self.classifier_.classes_)}
        out = []
        for seg, labels, m in zip(segments, types, marg):
            out.append([(lab[2:], s, e, p * float(m[j, col[lab]]))
                        for j, ((_, s, e, p), lab) in enumerate(zip(seg, labels))
                        if lab != "O"])
        return out
