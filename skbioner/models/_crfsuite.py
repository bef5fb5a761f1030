"""``CRFsuiteTagger``: CRFsuite's maximum-likelihood CRF on the featurizer's output."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from collections import OrderedDict

import numpy as np
import pycrfsuite
from sklearn.base import BaseEstimator

from .._progress import progress_bar
from .._validation import Integral, Interval, Real, StrOptions, fit_context
from ..base import LabelSequences, SequenceTaggerMixin
from ..schemes import SCHEMES, check_scheme, convert, labels_to_spans, scheme_labels
from ._base import check_features, check_fitted_features, check_targets, iob2_classes

__all__ = ["CRFsuiteTagger"]

_ALGORITHMS = ("lbfgs", "l2sgd", "ap", "pa", "arow")
# per-iteration fields of pycrfsuite's log parser kept in ``training_log_``
_ITERATION_KEYS = ("num", "loss", "feature_norm", "error_norm", "active_features",
                   "linesearch_trials", "linesearch_step", "time")


# --------------------------------------------------------------------------
# CSR rows -> CRFsuite items
# --------------------------------------------------------------------------


def _canonical(matrix):
    if not matrix.has_canonical_format:
        matrix = matrix.copy()
        matrix.sum_duplicates()
    return matrix


def _iter_items(matrix, offsets):
    """Yield each sentence as a list of CRFsuite items (one per token).

    A token is the list of its attribute names when all values are 1 (the
    featurizer's binary indicators), else a ``{name: value}`` dict.  The
    names are sliced out of a per-column table: no string is formatted per
    feature occurrence.
    """
    names = np.empty(matrix.shape[1], dtype=object)  # b"<column>" of each column used, once
    if matrix.nnz:
        used = np.flatnonzero(np.bincount(matrix.indices, minlength=matrix.shape[1]))
        names[used] = used.astype(np.bytes_).astype(object)
    indptr, indices, data = matrix.indptr, matrix.indices, matrix.data
    weighted = bool(matrix.nnz) and not np.all(data == 1)
    for s in range(offsets.size - 1):
        r0, r1 = int(offsets[s]), int(offsets[s + 1])
        p0, p1 = int(indptr[r0]), int(indptr[r1])
        bounds = (indptr[r0:r1 + 1] - p0).tolist()
        keys = names[indices[p0:p1]].tolist()
        spans = zip(bounds[:-1], bounds[1:])
        if weighted:
            values = data[p0:p1].tolist()
            yield [dict(zip(keys[a:b], values[a:b])) for a, b in spans]
        else:
            yield [keys[a:b] for a, b in spans]


# --------------------------------------------------------------------------
# trainer with progress on stderr
# --------------------------------------------------------------------------


class _Trainer(pycrfsuite.Trainer):
    """``pycrfsuite.Trainer`` reporting to stderr (level 1: a progress bar over the
    iterations, 2: one line per iteration, 3 and above: CRFsuite's full log)."""

    level = 0
    bar = None

    def _log(self, log, *_):
        if self.level >= 3:
            sys.stderr.write(log)

    on_start = on_featgen_progress = on_featgen_end = on_prepared = _log
    on_prepare_error = on_optimization_end = on_end = _log

    def on_iteration(self, log, info):
        loss = info.get("loss", float("nan"))
        if self.level >= 3:
            sys.stderr.write(log)
        elif self.level == 2:
            print(f"-- iteration {info['num']}: loss {loss:.4f}, active features "
                  f"{info.get('active_features', '?')}, {info.get('time', 0.0):.2f} s",
                  file=sys.stderr)
        if self.bar is not None:
            self.bar.set_postfix_str(f"loss {loss:.1f}", refresh=False)
            self.bar.update()


class CRFsuiteTagger(SequenceTaggerMixin, BaseEstimator):
    """CRFsuite's linear-chain CRF (L-BFGS by default) on featurizer output.

    The maximum-likelihood baseline that every benchmark runs beside the
    online models: it reads the same
    :class:`~skbioner.features.SentenceFeatures` (from
    :class:`~skbioner.features.TokenFeaturizer`), each feature column
    becoming one CRFsuite attribute, and trains a first-order CRF with
    python-crfsuite (Okazaki 2007).

    ``y`` comes in IOB2 and predictions go out in IOB2 whatever the internal
    ``scheme``.  The fitted estimator holds the model as bytes
    (:attr:`model_bytes_`): training writes CRFsuite's model to a temporary
    file that is read back and deleted at once, so pickling leaves no files
    behind and round-trips exactly.

    Parameters
    ----------
    algorithm : {"lbfgs", "l2sgd", "ap", "pa", "arow"}, default="lbfgs"
        CRFsuite's training algorithm: L-BFGS on the (regularised)
        log-likelihood, SGD with L2 regularisation, averaged perceptron,
        passive-aggressive or AROW.  Only ``"lbfgs"`` and ``"l2sgd"`` are
        maximum-likelihood training.
    c1 : float, default=0.0
        L1 regularisation coefficient (``"lbfgs"`` only, through OWL-QN);
        must be 0 for the other algorithms.
    c2 : float, default=1.0
        L2 regularisation coefficient (``"lbfgs"``, ``"l2sgd"``; ignored by
        ``"ap"``, ``"pa"``, ``"arow"``).
    max_iter : int, default=100
        Maximum number of iterations (L-BFGS) or epochs (the others).
        CRFsuite's own stopping criteria (``epsilon``, ``delta``) may stop
        earlier.
    all_possible_transitions : bool, default=False
        Generate transition features for all label pairs, also those never
        seen in training (CRFsuite's ``feature.possible_transitions``).
    all_possible_states : bool, default=False
        Generate state features for all (attribute, label) pairs, also
        those never seen in training (``feature.possible_states``).
    min_freq : float, default=0
        Drop attributes seen fewer times than this in training
        (``feature.minfreq``).
    scheme : str or None, default="IOB2"
        Segment representation the CRF is trained on (see
        :mod:`skbioner.schemes`); ``y`` is converted to it, predictions are
        converted back to IOB2.  None: plain labels (part of speech,
        chunks), used as given; :meth:`score` is then token accuracy.
    verbose : int, default=0
        Progress on stderr: 1 shows a bar over the iterations; 2 prints one
        line per iteration (loss, active features, seconds); 3 CRFsuite's
        full training log.

    Attributes
    ----------
    scheme_ : str
        Canonical name of the internal scheme used in :meth:`fit`.
    classes_ : ndarray of str
        The labels :meth:`predict` returns: IOB2 labels of the entity types
        (``O``, then ``B-t``, ``I-t`` per type), or the plain labels with
        ``scheme=None``.
    labels_ : ndarray of str
        Labels of the internal scheme seen in training, in the order of
        :func:`~skbioner.schemes.scheme_labels` (not set with ``scheme=None``).
    n_features_in_ : int
        Number of feature columns of the training ``X``.
    model_bytes_ : bytes
        The CRFsuite model file's content.
    n_iter_ : int
        Iterations (epochs) run.
    training_log_ : dict
        ``iterations`` (list of dicts with ``num``, ``loss``,
        ``feature_norm``, ``error_norm``, ``active_features``,
        ``linesearch_trials``, ``linesearch_step``, ``time`` as CRFsuite
        reports them; fields an algorithm does not report are absent),
        ``n_iter``, ``n_features`` (CRFsuite features, i.e. attribute-label
        pairs and transitions), ``featgen_seconds``, ``seconds`` (CRFsuite's
        optimisation time), ``storing_seconds`` (writing the model) and
        ``wall_seconds`` (all of :meth:`fit`, conversion included).  The
        times CRFsuite reports (``time``, ``*_seconds``, ``seconds``) are
        process CPU time (``clock()``); only ``wall_seconds`` is wall-clock.

    See Also
    --------
    OnlinePACRF : the online linear-chain model this baseline is compared to.

    Notes
    -----
    Cost model.  Each L-BFGS iteration runs forward-backward over the whole
    training set: ``O(nnz * L + n_tokens * L**2)`` for ``L`` labels, plus one
    or more line-search evaluations, so a fit costs about ``max_iter`` such
    passes (against a handful of Viterbi passes for the online models).
    Handing the data over costs a few iterations more: CRFsuite takes
    attributes as strings and hashes every occurrence.
    Memory holds CRFsuite's copy of the data (attribute ids per token) and
    ``n_state_features + L**2`` weights with L-BFGS history
    (``2 * num_memories`` = 12 vectors of that size).  The CSR rows are
    handed to CRFsuite one sentence at a time, with attribute names taken
    from a per-column table; prediction runs CRFsuite's Viterbi sentence by
    sentence.  A ``pycrfsuite.Tagger`` opened on :attr:`model_bytes_` is
    cached for prediction; it is not pickled and is not safe to share
    between threads.

    Measured on JNLPBA training data with the ``"chan"`` preset (1.7 M
    columns, 14.7 M non-zeros, 11 IOB2 labels, 1.9 M CRFsuite features):
    about 30 s of hand-over, about 2.3 CPU-seconds per L-BFGS iteration,
    a 120 MB model.

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from skbioner.features import TokenFeaturizer
    >>> X = [["IL-2", "gene", "expression"], ["T", "cells", "respond"]] * 5
    >>> y = [["B-DNA", "I-DNA", "O"], ["B-cell_type", "I-cell_type", "O"]] * 5
    >>> pipe = make_pipeline(TokenFeaturizer(), CRFsuiteTagger(c2=0.1)).fit(X, y)
    >>> pipe.predict([["T", "cells", "respond"]])
    [['B-cell_type', 'I-cell_type', 'O']]
    """

    def __init__(self, algorithm="lbfgs", c1=0.0, c2=1.0, max_iter=100,
                 all_possible_transitions=False, all_possible_states=False, min_freq=0,
                 scheme="IOB2", verbose=0):
        self.algorithm = algorithm
        self.c1 = c1
        self.c2 = c2
        self.max_iter = max_iter
        self.all_possible_transitions = all_possible_transitions
        self.all_possible_states = all_possible_states
        self.min_freq = min_freq
        self.scheme = scheme
        self.verbose = verbose

    # ------------------------------------------------------------------ checks

    _parameter_constraints = {
        "algorithm": [StrOptions(set(_ALGORITHMS))],
        "c1": [Interval(Real, 0, None, closed="left")],
        "c2": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "all_possible_transitions": ["boolean"],
        "all_possible_states": ["boolean"],
        "min_freq": [Interval(Real, 0, None, closed="left")],
        "scheme": [StrOptions(set(SCHEMES) | {"BIO"}), None],
        "verbose": ["verbose"],
    }

    def _check_params(self):
        """Checks the declared constraints cannot express; the canonical scheme."""
        if self.c1 and self.algorithm != "lbfgs":
            raise ValueError(
                f"c1 (L1 regularisation) is only available with algorithm='lbfgs', "
                f"got c1={self.c1!r} with algorithm={self.algorithm!r}"
            )
        return None if self.scheme is None else check_scheme(self.scheme)

    def _trainer_params(self):
        params = {
            "max_iterations": int(self.max_iter),
            "feature.possible_transitions": bool(self.all_possible_transitions),
            "feature.possible_states": bool(self.all_possible_states),
            "feature.minfreq": float(self.min_freq),
        }
        if self.algorithm == "lbfgs":
            params["c1"] = float(self.c1)
        if self.algorithm in ("lbfgs", "l2sgd"):
            params["c2"] = float(self.c2)
        return params

    # ------------------------------------------------------------------ training

    @fit_context
    def fit(self, X, y):
        """Train on featurizer output ``X`` and IOB2 label lists ``y``.

        Parameters
        ----------
        X : SentenceFeatures
            Output of :class:`~skbioner.features.TokenFeaturizer`.
        y : list of list of str
            IOB2 labels, one list per sentence.

        Returns
        -------
        self
        """
        t0 = time.perf_counter()
        scheme = self._check_params()
        X = check_features(X, type(self).__name__)
        matrix, offsets = X.matrix, X.offsets
        y = check_targets(y, X.lengths, None if scheme is None else "IOB2")
        if not any(len(labels) for labels in y):
            raise ValueError("CRFsuiteTagger needs at least one non-empty training sentence")
        if scheme not in ("IOB2", None):
            y = [convert(labels, "IOB2", scheme) for labels in y]
        matrix = _canonical(matrix)

        trainer = _Trainer(algorithm=self.algorithm, params=self._trainer_params(),
                           verbose=self.verbose > 0)
        trainer.level = int(self.verbose)
        for items, labels in zip(_iter_items(matrix, offsets), y, strict=True):
            if labels:
                trainer.append(items, labels)

        fd, path = tempfile.mkstemp(prefix="skbioner-crfsuite-", suffix=".model")
        bar = progress_bar(self._trainer_params().get("max_iterations"),
                           f"{type(self).__name__} iterations", self.verbose)
        try:
            os.close(fd)
            with bar:
                trainer.bar = bar
                trainer.train(path)
            with open(path, "rb") as fh:
                model_bytes = fh.read()
        finally:
            os.unlink(path)
        trainer.clear()

        seen = {lab for labels in y for lab in labels}
        if scheme is None:
            self.classes_ = np.array(sorted(seen), dtype=object)
        else:
            types = {t for labels in y for t, _, _ in labels_to_spans(labels, scheme)}
            self.labels_ = np.array([lab for lab in scheme_labels(scheme, types) if lab in seen],
                                    dtype=object)
            self.classes_ = iob2_classes(types)
        self.n_features_in_ = int(matrix.shape[1])
        self.model_bytes_ = model_bytes
        self.scheme_ = scheme
        log = trainer.logparser
        iterations = [{k: it[k] for k in _ITERATION_KEYS if k in it} for it in log.iterations]
        self.n_iter_ = len(iterations)
        self.training_log_ = {
            "iterations": iterations,
            "n_iter": len(iterations),
            "n_features": log.featgen_num_features,
            "featgen_seconds": log.featgen_seconds,
            "seconds": log.training_seconds,
            "storing_seconds": log.storing_seconds,
            "wall_seconds": time.perf_counter() - t0,
        }
        return self

    # ------------------------------------------------------------------ prediction

    def predict(self, X):
        """IOB2 label lists for featurizer output ``X``.

        Parameters
        ----------
        X : SentenceFeatures

        Returns
        -------
        list of list of str
        """
        X = check_fitted_features(self, X, "model_bytes_")
        matrix, offsets = _canonical(X.matrix), X.offsets
        tagger = _open_tagger(self.model_bytes_)
        scheme = self.scheme_
        out = []
        for items in _iter_items(matrix, offsets):
            labels = tagger.tag(items) if items else []
            out.append(labels if scheme is None else convert(labels, scheme, "IOB2"))
        return LabelSequences(out)


_TAGGERS = OrderedDict()  # id(model bytes) -> (bytes, Tagger), the few most recent
_TAGGERS_LOCK = threading.Lock()


def _open_tagger(model_bytes, keep=4):
    """A ``pycrfsuite.Tagger`` on ``model_bytes``, opened once and reused.

    Kept outside the estimator (``predict`` does not change it) in a small
    cache keyed by the identity of the bytes, which the cache holds alive so
    the key cannot be reused.  A Tagger is not safe to share between
    threads: each thread gets its own.
    """
    key = (id(model_bytes), threading.get_ident())
    with _TAGGERS_LOCK:
        hit = _TAGGERS.get(key)
        if hit is not None and hit[0] is model_bytes:
            _TAGGERS.move_to_end(key)
            return hit[1]
    tagger = pycrfsuite.Tagger()
    tagger.open_inmemory(model_bytes)  # CRFsuite reads the model in place: bytes kept alive
    with _TAGGERS_LOCK:
        _TAGGERS[key] = (model_bytes, tagger)
        while len(_TAGGERS) > keep:
            _TAGGERS.popitem(last=False)
    return tagger
