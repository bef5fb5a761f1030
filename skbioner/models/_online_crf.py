"""``OnlinePACRF``: a linear-chain model trained online by passive-aggressive updates."""

from __future__ import annotations

import sys
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import scipy.sparse as sp
from joblib import effective_n_jobs
from sklearn.base import BaseEstimator, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._progress import progress_bar
from .._validation import Integral, Interval, Real, StrOptions, fit_context
from ..decoding._viterbi import LabelPairs
from ..metrics import entity_f1_score, token_accuracy_score
from ..model_selection import holdout_split
from ..schemes import SCHEMES, scheme_labels
from ._base import (
    ChainScores,
    ChainTaggerMixin,
    best_temperature,
    check_features,
    check_fitted_features,
    check_targets,
    label_types,
)
from ._linear_chain import ChainWeights, LabelSpace, _minus
from ._passive_aggressive import COSTS, VARIANTS, Chain, Masks, Sentences, Update, pa_epoch

__all__ = ["OnlinePACRF"]


class OnlinePACRF(ChainTaggerMixin, BaseEstimator):
    """Linear-chain tagger trained by online passive-aggressive updates.

    Chan, Lam & Yu (2007): a first-order linear chain over sparse token
    features, Viterbi decoding, and PA-I / PA-II updates whose required
    margin is the cost of the mistake (Hamming distance, or its square
    root).  Prediction uses averaged weights.  Any segment representation
    can be used internally (``scheme``), and further schemes can be trained
    jointly (``extra_schemes``, Cho et al. 2013) and folded into the main one.

    A deviation from the paper, by default: Chan et al. conjoin every feature
    with the label pair ``(y_{i-1}, y_i)``; here features are conjoined with
    the label ``y_i`` and label pairs score through a transition matrix.
    ``label_pairs`` adds the paper's conjunctions for the most frequent
    features (all of them would multiply the model's size by the number of
    allowed pairs: 164 in the BIES of 5 types, whose outside tokens are
    segmented too).  On the JNLPBA and BC5CDR development data they lowered F1
    (docs/user-guide.md, "Label-pair features").

    ``y`` comes in IOB2 and predictions go out in IOB2 whatever the internal
    scheme.

    Parameters
    ----------
    scheme : str or None, default="IOB2"
        Internal segment representation (see :mod:`skbioner.schemes`).
        None tags plain labels (part of speech, chunks): ``y`` holds any
        strings, every label is a class, nothing is converted, and
        :meth:`score` and early stopping use token accuracy.
    extra_schemes : tuple of str, default=()
        Schemes trained jointly through the deterministic projection from
        ``scheme`` (e.g. ``scheme="BIES", extra_schemes=("IO",)``).  Their
        weights are folded into ``scheme`` after training.
    C : float, default=0.1
        Aggressiveness bound (PA-I) or slack weight (PA-II).
    variant : {"PA", "PA-I", "PA-II"}, default="PA-I"
    cost : {"hamming", "sqrt_hamming"}, default="hamming"
        Margin required of the gold sequence over the prediction.
    loss_augmented : bool, default=False
        Decode with the cost added (max-loss update) instead of the plain
        prediction.
    label_pairs : int or None, default=None
        Conjoin this many features, the most frequent in the training data
        (by tokens; ties to the lower index), with the label pair
        ``(y_{i-1}, y_i)`` of ``scheme``: one weight per feature and pair the
        scheme allows, scored on the transition into the token.  None keeps
        features times ``y_i`` only.  The chain's transitions then vary per
        token, and its probabilities (:meth:`predict_marginals`,
        :meth:`predict_entities`, ``calibrate``) are not available.
    max_iter : int, default=10
        Epochs over the training data.
    tol : float or None, default=None
        Stop when the monitored quantity (training loss per sentence, or the
        validation error with ``early_stopping``) has not improved by ``tol``
        for ``n_iter_no_change`` epochs.  None runs ``max_iter`` epochs (the
        number of epochs tuned on development data is the usual control of
        an averaged online learner; the training loss keeps falling).
    n_iter_no_change : int, default=3
    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the sentences and monitor
        ``1 - entity F1`` on them; the weights of the best epoch are kept.
    validation_fraction : float, default=0.1
        Share of the sentences held out by ``early_stopping`` and by
        ``calibrate``.
    calibrate : bool, default=False
        Fit ``temperature_`` so that :meth:`predict_marginals` and
        :meth:`predict_entities` give calibrated probabilities: a model
        trained on all but ``validation_fraction`` of the training documents
        (the last ones; the last sentences without document ids) scores the
        held-out ones, and the temperature maximises their likelihood
        (:meth:`fit_temperature`).  Training then costs about twice as much
        CPU (with ``n_jobs`` of 2 or more the two models train side by side,
        in the time of one); predictions do not change.  Without it the probabilities are those of
        temperature 1, too flat with a few entity types (JNLPBA) and far too
        flat with many (BioNLP13CG); calibrated, the expected calibration
        error falls on the development splits of both (``benchmarks/calibration.py``).
    shuffle : bool, default=True
        Shuffle the sentences before every epoch.
    average : bool, default=True
        Predict with averaged weights.
    constrained : bool, default=True
        Forbid transitions that ``scheme`` never writes when decoding.
    warm_start : bool, default=False
        Continue from the previous fit's weights.  A model fitted with
        ``warm_start=False`` keeps its prediction state only (the folded,
        averaged weights); with ``warm_start=True`` (and after
        :meth:`partial_fit`) it also keeps the training state that
        continuing needs, about twice the size (drop it with
        :meth:`sparsify`).
    random_state : int, RandomState instance or None, default=None
    n_jobs : int or None, default=None
        With ``calibrate``, 2 or more (or -1) trains the held-out model in a
        second thread while the final model trains (the compiled training
        loop releases the GIL): the same model in about half the wall time,
        with both models' training state in memory at once.  None means 1
        (as in scikit-learn); ``early_stopping`` always trains them in turn.
    verbose : int, default=0
        Progress on stderr: 1 shows a bar over the epochs (loss and errors
        of the last one), 2 prints one line per epoch (loss, errors,
        elapsed).

    Attributes
    ----------
    label_space_ : LabelSpace
    coef_ : ndarray of shape (n_features, n_labels)
        Folded (and averaged) state weights used for prediction.
    transition_, start_, end_ : ndarray
        Folded transition / start / end weights.
    classes_ : ndarray of str
        The labels :meth:`predict` returns: IOB2 labels of the entity types
        (``O``, then ``B-t``, ``I-t`` per type), or the plain labels with
        ``scheme=None``; also the columns of :meth:`predict_marginals`.
    n_features_in_ : int
    n_iter_ : int
        Epochs run by the last :meth:`fit`.
    t_ : int
        Sentences seen (all calls).
    temperature_ : float
        Divides the chain's scores in its probabilities (1.0 unless
        ``calibrate`` or :meth:`fit_temperature`).
    pair_features_, label_pairs_, pair_coef_ : ndarray
        With ``label_pairs``: the features conjoined (sorted), the label pairs
        ``(previous, label)`` as codes of ``label_space_.labels`` (n_pairs, 2),
        and their averaged weights (n_pair_features, n_pairs).
    history_ : list of dict
        Per epoch: ``loss``, ``sentence_errors``, ``token_errors``,
        ``seconds`` and, with early stopping, ``validation_f1`` (entity
        F1; ``validation_accuracy`` with ``scheme=None``).
    """

    def __init__(self, scheme="IOB2", extra_schemes=(), C=0.1, variant="PA-I",
                 cost="hamming", loss_augmented=False, label_pairs=None, max_iter=10, tol=None,
                 n_iter_no_change=3, early_stopping=False, validation_fraction=0.1,
                 calibrate=False, shuffle=True, average=True, constrained=True, warm_start=False,
                 random_state=None, n_jobs=None, verbose=0):
        self.scheme = scheme
        self.extra_schemes = extra_schemes
        self.C = C
        self.variant = variant
        self.cost = cost
        self.loss_augmented = loss_augmented
        self.label_pairs = label_pairs
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.calibrate = calibrate
        self.shuffle = shuffle
        self.average = average
        self.constrained = constrained
        self.warm_start = warm_start
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    #: what a model saved before ``n_jobs`` / ``label_pairs`` existed (the bundled ones)
    #: reads as their values
    n_jobs = None
    label_pairs = None

    _parameter_constraints = {
        "scheme": [StrOptions(set(SCHEMES) | {"BIO"}), None],
        "extra_schemes": [tuple, list],
        "C": [Interval(Real, 0, None, closed="neither")],
        "variant": [StrOptions(set(VARIANTS))],
        "cost": [StrOptions(set(COSTS))],
        "loss_augmented": ["boolean"],
        "label_pairs": [Interval(Integral, 1, None, closed="left"), None],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left"), None],
        "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
        "early_stopping": ["boolean"],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "calibrate": ["boolean"],
        "n_jobs": [Integral, None],
        "shuffle": ["boolean"],
        "average": ["boolean"],
        "constrained": ["boolean"],
        "warm_start": ["boolean"],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    # ------------------------------------------------------------------ checks

    def _check_continuation(self, n_features, types):
        """Refuse to continue training a model whose structure no longer fits."""
        space = self.label_space_
        wanted = LabelSpace.build(self.scheme, space.types, self.extra_schemes)
        problems = []
        if n_features != self.n_features_in_:
            problems.append(f"X has {n_features} features, the model {self.n_features_in_}")
        if (wanted.scheme, wanted.extra_schemes) != (space.scheme, space.extra_schemes):
            problems.append(
                f"scheme={wanted.scheme!r}, extra_schemes={wanted.extra_schemes} differ from "
                f"the model's {space.scheme!r}, {space.extra_schemes}"
            )
        have = len(self.pair_features_) if hasattr(self, "pair_features_") else None
        if have != (None if self.label_pairs is None else min(self.label_pairs, n_features)):
            problems.append(f"label_pairs={self.label_pairs}, the model has {have}")
        new = sorted(set(types) - set(space.types))
        if new:
            what = "labels" if space.scheme is None else "entity types"
            problems.append(f"y has {what} the model lacks: {new}")
        if problems:
            raise ValueError(
                "cannot continue training (warm_start=True / partial_fit): "
                + "; ".join(problems) + ". Set warm_start=False to start over."
            )

    def _init_state(self, matrix, types):
        n_features = matrix.shape[1]
        space = LabelSpace.build(self.scheme, types, self.extra_schemes)
        self.label_space_ = space
        labels = space.labels if space.scheme is None else scheme_labels("IOB2", space.types)
        self.classes_ = np.array(labels, dtype=object)
        self.n_features_in_ = n_features
        # float32 training state: half the memory; the kernel accumulates
        # scores in float64, and folded prediction weights are float64
        self._w = ChainWeights.zeros(n_features, space.n_columns, dtype=np.float32)
        self._acc = ChainWeights.zeros(n_features, space.n_columns, dtype=np.float32)
        for name in ("pair_features_", "label_pairs_", "pair_coef_", "_pw", "_pacc"):
            self.__dict__.pop(name, None)
        if self.label_pairs is not None:
            counts = np.bincount(matrix.indices, minlength=n_features)
            top = np.argsort(-counts, kind="stable")[:self.label_pairs]
            self.pair_features_ = np.sort(top).astype(np.int64)
            self.label_pairs_ = np.argwhere(space.mask()[1] == 0)  # the allowed ones
            shape = (len(top), len(self.label_pairs_))
            self._pw, self._pacc = np.zeros(shape, np.float32), np.zeros(shape, np.float32)
        self.t_ = 0
        self.history_ = []
        self._rng = check_random_state(self.random_state)  # carried across partial_fit

    # ------------------------------------------------------------------ training

    def _epoch(self, matrix, offsets, codes, order, number):
        """One pass over the sentences ``order``; the record of epoch ``number`` in ``history_``."""
        space = self.label_space_
        L = space.n_labels
        mtrans, mstart, mend = space.masked(np.zeros((L, L)), np.zeros(L), np.zeros(L),
                                            self.constrained)
        w, acc = self._w, self._acc
        pairs = pairs_acc = None
        if self.label_pairs is not None:
            pairs = self._label_pairs(self._pw)
            pairs_acc = pairs._replace(coef=self._pacc)
        t, loss, s_err, t_err = pa_epoch(
            Sentences(matrix.indptr, matrix.indices, matrix.data, offsets, codes),
            order.astype(np.int64), space.cols,
            Chain(w.W, w.T, w.start, w.end), Chain(acc.W, acc.T, acc.start, acc.end), self.t_,
            Update(float(self.C), VARIANTS[self.variant], COSTS[self.cost],
                   bool(self.loss_augmented)),
            Masks(mstart, mtrans, mend), pairs, pairs_acc)
        self.t_ = int(t)
        return {"epoch": number, "loss": loss, "sentence_errors": int(s_err),
                "token_errors": int(t_err)}

    def _finalize(self):
        """Average (optionally) and fold the weights used for prediction."""
        folded = self._w.fold(self.label_space_.cols, acc=self._acc if self.average else None,
                              t=self.t_)
        self.coef_ = folded.W
        self.transition_, self.start_, self.end_ = folded.T, folded.start, folded.end
        if self.label_pairs is not None:
            self.pair_coef_ = _minus(self._pw, self._pacc if self.average else None,
                                     1.0 / max(self.t_, 1))

    def _label_pairs(self, coef):
        """The :class:`LabelPairs` of the fitted pairs with weights ``coef``."""
        rows = np.full(self.n_features_in_, -1, dtype=np.int64)
        rows[self.pair_features_] = np.arange(len(self.pair_features_))
        L = self.label_space_.n_labels
        index = np.full((L, L), -1, dtype=np.int64)
        index[self.label_pairs_[:, 0], self.label_pairs_[:, 1]] = np.arange(len(self.label_pairs_))
        return LabelPairs(rows, index, coef)

    def _drop_training_state(self):
        for name in ("_w", "_acc", "_rng", "_pw", "_pacc"):
            self.__dict__.pop(name, None)

    @fit_context
    def fit(self, X, y):
        """Train on featurizer output ``X`` and IOB2 label lists ``y``.

        Parameters
        ----------
        X : SentenceFeatures
            Output of :class:`~skbioner.features.TokenFeaturizer`.
        y : list of list of str
            IOB2 labels (any non-empty strings with ``scheme=None``).

        Returns
        -------
        self : OnlinePACRF
        """
        return self._fit(X, y)

    @fit_context
    def _fit_predict_epochs(self, X, y, X_eval, epochs):
        """Fit, and predict ``X_eval`` with the weights of each epoch count in ``epochs``.

        One training run of ``max_iter`` epochs (the largest of ``epochs``)
        gives the predictions of the smaller epoch counts from the averaged
        weights taken after their epoch: the first ``k`` epochs of a run are
        those of a ``max_iter=k`` fit with the same ``random_state`` (the same
        shuffles and updates), and a run that stops before epoch ``k`` (no
        error left, or ``tol``) is where that fit would have stopped too.  The
        tuner's candidates that differ only in ``max_iter`` share one run.

        Parameters
        ----------
        X : SentenceFeatures
        y : list of list of str
        X_eval : SentenceFeatures
        epochs : sequence of int
            Epoch counts, the largest equal to ``max_iter``.

        Returns
        -------
        dict of int to (list of list of str, float)
            Per epoch count, the predictions of ``X_eval`` and the seconds from
            the start of the fit to them (what that fit alone would have taken,
            its prediction included).
        """
        epochs = sorted(set(epochs))
        if epochs[-1] != self.max_iter or epochs[0] < 1:
            raise ValueError(f"epochs must lie in 1..max_iter={self.max_iter} and include it, "
                             f"got {epochs}")
        if self.early_stopping or self.warm_start:
            raise ValueError("a snapshot is a shorter fit only without early_stopping (which "
                             "keeps the best epoch) and warm_start")
        t0 = time.perf_counter()
        out = {}

        def snapshot(epoch):
            if epoch in epochs and epoch < self.max_iter:  # the last one: after the fit
                self._finalize()  # the averaged weights so far, as a fit ending here folds
                out[epoch] = (self.predict(X_eval), time.perf_counter() - t0)

        self._fit(X, y, on_epoch=snapshot)
        final = (self.predict(X_eval), time.perf_counter() - t0)
        return {k: out.get(k, final) for k in epochs}  # stopped early: as a shorter fit would

    def _fit(self, X, y, on_epoch=None):
        """``fit``'s work; ``on_epoch(n)`` is called after each epoch ``n`` of the training."""
        X, y = self._check_training_data(X, y)
        matrix, offsets = X.matrix, X.offsets
        types = label_types(y, self.scheme)
        if self.calibrate and self.label_pairs is not None:
            raise ValueError("calibrate=True needs the chain's probabilities, which a model "
                             "with label_pairs does not have; set calibrate=False")
        temperature, held_out = 1.0, None
        if self.calibrate:
            if self.verbose:
                print(f"{type(self).__name__}: calibrating the confidences (a second model, "
                      f"trained without the last {self.validation_fraction:.0%} of the "
                      "documents, scores them)", file=sys.stderr)
            if effective_n_jobs(self.n_jobs) >= 2 and not self.early_stopping:
                # beside this model's training (both loops release the GIL); early stopping
                # decodes in parallel kernels, which one thread at a time may launch
                pool = ThreadPoolExecutor(max_workers=1)
                held_out = pool.submit(self._held_out_temperature, X, y, 0)
                pool.shutdown(wait=False)
            else:  # first, so that the two models' training states never coexist
                temperature = self._held_out_temperature(X, y)
        rs = check_random_state(self.random_state)
        if self.warm_start and hasattr(self, "coef_"):
            self._check_trainable()
            self._check_continuation(matrix.shape[1], types)
        else:
            self._init_state(matrix, types)
        codes = self.label_space_.encode(y)
        n_sent = len(offsets) - 1
        train_idx = np.arange(n_sent)
        val_idx = None
        if self.early_stopping:
            perm = rs.permutation(n_sent)
            n_val = max(1, int(round(self.validation_fraction * n_sent)))
            val_idx, train_idx = np.sort(perm[:n_val]), np.sort(perm[n_val:])
        best, best_state, no_change = np.inf, None, 0
        self.n_iter_ = 0
        converged = False
        bar = progress_bar(self.max_iter, f"{type(self).__name__} epochs", self.verbose,
                           unit="epoch")
        with bar:
            for epoch in range(self.max_iter):
                t0 = time.perf_counter()
                order = rs.permutation(train_idx) if self.shuffle else train_idx
                record = self._epoch(matrix, offsets, codes, order, epoch + 1)
                self.n_iter_ = epoch + 1
                if val_idx is not None:
                    self._finalize()
                    gold, pred = [y[i] for i in val_idx], self.predict(X[val_idx])
                    score = (token_accuracy_score(gold, pred) if self.scheme is None
                             else entity_f1_score(gold, pred, mode="spans"))
                    record[self._validation_key] = score
                    monitored = 1.0 - score
                else:
                    monitored = record["loss"] / max(len(train_idx), 1)
                record["seconds"] = time.perf_counter() - t0
                self.history_.append(record)
                self._report_epoch(record, bar)
                if on_epoch is not None:
                    on_epoch(epoch + 1)
                if self.tol is not None or self.early_stopping:
                    tol = self.tol if self.tol is not None else 0.0
                    no_change = 0 if monitored < best - tol else no_change + 1
                    if monitored < best:
                        best = monitored
                        if self.early_stopping:
                            best_state = (self.coef_, self.transition_, self.start_, self.end_,
                                          getattr(self, "pair_coef_", None))
                    if no_change >= self.n_iter_no_change:
                        converged = True
                        break
                if record["sentence_errors"] == 0:
                    converged = True
                    break
        if best_state is not None:
            (self.coef_, self.transition_, self.start_, self.end_, pair_coef) = best_state
            if pair_coef is not None:
                self.pair_coef_ = pair_coef
        else:
            self._finalize()
        if not self.warm_start:
            self._drop_training_state()  # a fitted model persists its prediction state only
        self.temperature_ = temperature if held_out is None else held_out.result()
        if self.tol is not None and not converged and self.max_iter > 1:
            warnings.warn(
                f"OnlinePACRF stopped after max_iter={self.max_iter} epochs without "
                f"converging (tol={self.tol}); increase max_iter or tol",
                ConvergenceWarning, stacklevel=2,
            )
        return self

    def _held_out_temperature(self, X, y, verbose=None):
        """Temperature fitted on held-out documents by a model trained on the rest."""
        train, held = holdout_split(X, self.validation_fraction)
        if held.size == 0 or train.size == 0:
            return 1.0
        sub = clone(self).set_params(calibrate=False, warm_start=False, n_jobs=None)
        if verbose is not None:  # a second thread: no second progress bar
            sub.set_params(verbose=verbose)
        # the held-out documents are usually the last ones: a block of sentences shares
        # the arrays of X (no copy of 90% of the matrix at the training peak)
        contiguous = train[-1] - train[0] + 1 == train.size
        sub.fit(X[train[0] : train[-1] + 1] if contiguous else X[train], [y[i] for i in train])
        types = set(sub.label_space_.types)
        keep = [i for i in held if set(label_types([y[i]], self.scheme)) <= types]
        if not keep:
            return 1.0
        return best_temperature([sub.likelihood_terms(X[np.asarray(keep)],
                                                      [y[i] for i in keep])])

    def _report_epoch(self, record, bar):
        """Progress of one epoch: the bar's figures (``verbose=1``) or a line (``>= 2``)."""
        key = self._validation_key
        if self.verbose >= 2:
            extra = f", {key.replace('_', ' ')} {record[key]:.4f}" if key in record else ""
            print(f"-- epoch {record['epoch']}: loss {record['loss']:.1f}, "
                  f"{record['sentence_errors']} sentence / {record['token_errors']} token "
                  f"errors{extra}, {record['seconds']:.2f} s", file=sys.stderr)
        extra = f", dev {record[key]:.4f}" if key in record else ""
        bar.set_postfix_str(f"loss {record['loss']:.0f}, {record['sentence_errors']} "
                            f"sentence errors{extra}", refresh=False)
        bar.update()

    def partial_fit(self, X, y, classes=None):
        """One online pass over ``X``, ``y`` (weights carried across calls).

        Parameters
        ----------
        X : SentenceFeatures
        y : list of list of str
        classes : list of str
            All IOB2 labels (or entity types) the model will ever see;
            required on the first call, as in sklearn's ``SGDClassifier``.

        Returns
        -------
        self : OnlinePACRF
        """
        self._validate_params()
        X, y = self._check_training_data(X, y)
        matrix, offsets = X.matrix, X.offsets
        self._check_trainable()
        if not hasattr(self, "_w"):
            if classes is None:
                raise ValueError("classes must be passed on the first call to partial_fit")
            if self.scheme is None:
                types = sorted(set(classes))
            else:
                types = sorted({c.split("-", 1)[1] if c[:2] in ("B-", "I-") else c
                                for c in classes if c != "O"})
            self._init_state(matrix, types)
        else:
            self._check_continuation(matrix.shape[1], label_types(y, self.scheme))
        codes = self.label_space_.encode(y)
        rs = self._rng
        n = len(offsets) - 1
        order = rs.permutation(n) if self.shuffle else np.arange(n)
        t0 = time.perf_counter()
        record = self._epoch(matrix, offsets, codes, order, len(self.history_) + 1)
        self.history_.append({**record, "seconds": time.perf_counter() - t0})
        self._finalize()
        return self

    # ------------------------------------------------------------------ storage

    def sparsify(self):
        """Store ``coef_`` as a sparse float32 matrix and drop the training state.

        As ``SGDClassifier.sparsify``: online updates leave most state
        weights at zero (a POS model keeps ~3% of them), so a model to ship
        or archive shrinks many times.  Training cannot continue afterwards
        (``partial_fit`` and ``warm_start`` raise).  :meth:`predict` works
        on a sparsified model, densifying ``coef_`` on every call; call
        :meth:`densify` once after loading to tag at full speed.

        Returns
        -------
        self
        """
        check_is_fitted(self, "coef_")
        self.coef_ = sp.csr_matrix(np.asarray(self.coef_.toarray() if sp.issparse(self.coef_)
                                              else self.coef_, dtype=np.float32))
        self._drop_training_state()
        return self

    def densify(self):
        """Store ``coef_`` as a dense array again (after :meth:`sparsify`).

        The values stay those of the float32 sparse copy: :meth:`sparsify`
        rounds the weights to float32 (predictions on GENIA POS devel are
        unchanged by it), and densifying does not undo the rounding, so the
        dense array is float32 too: half the memory of float64, and the
        decoders sum its products in float64 (same scores as a float64 copy).

        Returns
        -------
        self
        """
        check_is_fitted(self, "coef_")
        if sp.issparse(self.coef_):
            self.coef_ = self.coef_.toarray()
        return self

    def _check_trainable(self):
        if hasattr(self, "coef_") and not hasattr(self, "_w"):
            raise ValueError(
                "this OnlinePACRF keeps its prediction state only (fitted with "
                "warm_start=False, or sparsified): training cannot continue; fit with "
                "warm_start=True to keep the training state"
            )

    def _check_training_data(self, X, y):
        """``X`` and ``y`` checked for training (after ``extra_schemes``)."""
        if isinstance(self.extra_schemes, str):
            raise ValueError("extra_schemes must be a tuple of scheme names, not a string")
        X = check_features(X, type(self).__name__)
        return X, check_targets(y, X.lengths, None if self.scheme is None else "IOB2")

    # ------------------------------------------------------------------ prediction

    def _chain_scores(self, X):
        X = check_fitted_features(self, X, "coef_")
        coef = self.coef_.toarray() if sp.issparse(self.coef_) else self.coef_
        trans, start, end = self.label_space_.masked(self.transition_, self.start_, self.end_,
                                                     self.constrained)
        pairs = self._label_pairs(self.pair_coef_) if hasattr(self, "pair_coef_") else None
        return ChainScores(X.offsets, trans, start, end, matrix=X.matrix, coef=coef, pairs=pairs)

    @property
    def _validation_key(self):
        return "validation_accuracy" if self.scheme is None else "validation_f1"
