"""``OnlinePACRF``: a linear-chain model trained online by passive-aggressive updates."""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ..base import SequenceTaggerMixin
from ..metrics import entity_f1_score, token_accuracy_score
from ..schemes import check_labels, labels_to_spans
from ._linear_chain import ChainWeights, LabelSpace, decode
from ._passive_aggressive import COSTS, VARIANTS, pa_epoch

__all__ = ["OnlinePACRF", "check_sequence_features"]


def check_sequence_features(X, who):
    """Return ``(csr, offsets)`` of featurizer output, or raise a helpful TypeError."""
    matrix = getattr(X, "matrix", None)
    offsets = getattr(X, "offsets", None)
    if matrix is None or offsets is None:
        raise TypeError(
            f"{who} reads featurizer output (skbioner.features.SentenceFeatures), got "
            f"{type(X).__name__}; put a TokenFeaturizer before it, e.g. "
            f"make_pipeline(TokenFeaturizer(), {who}())"
        )
    matrix = matrix.tocsr()
    if not matrix.has_sorted_indices:
        matrix = matrix.sorted_indices()
    return matrix, np.asarray(offsets, dtype=np.int64)


def _check_y(y, n_sentences, lengths, scheme="IOB2"):
    if isinstance(y, str):
        raise TypeError("y must be a list of label sequences")
    y = [list(s) for s in y]
    if len(y) != n_sentences:
        raise ValueError(f"X has {n_sentences} sentences but y has {len(y)} label sequences")
    for i, (labels, n) in enumerate(zip(y, lengths)):
        if len(labels) != n:
            raise ValueError(f"sentence {i} has {n} tokens but {len(labels)} labels")
        if scheme is None:
            bad = [lab for lab in labels if not isinstance(lab, str) or not lab]
            if bad:
                raise ValueError(f"y[{i}]: labels must be non-empty strings, got {bad[0]!r}")
            continue
        try:
            check_labels(labels, "IOB2")
        except ValueError as exc:
            raise ValueError(f"y[{i}]: {exc}") from None
    return y


def _label_types(y, scheme):
    """Entity types of IOB2 label lists, or the labels themselves (scheme=None)."""
    if scheme is None:
        return sorted({lab for labels in y for lab in labels})
    return sorted({t for labels in y for t, _, _ in labels_to_spans(labels)})


class OnlinePACRF(SequenceTaggerMixin, BaseEstimator):
    """Linear-chain tagger trained by online passive-aggressive updates.

    Chan, Lam & Yu (2007): a first-order linear chain over sparse token
    features, Viterbi decoding, and PA-I / PA-II updates whose required
    margin is the cost of the mistake (Hamming distance, or its square
    root).  Prediction uses averaged weights.  Any segment representation
    can be used internally (``scheme``), and further schemes can be trained
    jointly (``extra_schemes``, Cho et al. 2013) and folded into the main one.

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
    shuffle : bool, default=True
        Shuffle the sentences before every epoch.
    average : bool, default=True
        Predict with averaged weights.
    constrained : bool, default=True
        Forbid transitions that ``scheme`` never writes when decoding.
    warm_start : bool, default=False
        Continue from the previous fit's weights.
    random_state : int, RandomState instance or None, default=None
    verbose : int, default=0
        Print per-epoch progress (loss, errors, elapsed) to stderr.

    Attributes
    ----------
    label_space_ : LabelSpace
    coef_ : ndarray of shape (n_features, n_labels)
        Folded (and averaged) state weights used for prediction.
    transition_, start_, end_ : ndarray
        Folded transition / start / end weights.
    classes_ : ndarray of str
        Labels of the internal scheme.
    n_features_in_ : int
    n_iter_ : int
        Epochs run by the last :meth:`fit`.
    t_ : int
        Sentences seen (all calls).
    history_ : list of dict
        Per epoch: ``loss``, ``sentence_errors``, ``token_errors``,
        ``seconds`` and, with early stopping, ``validation_f1`` (entity
        F1; ``validation_accuracy`` with ``scheme=None``).
    """

    def __init__(self, scheme="IOB2", extra_schemes=(), C=0.1, variant="PA-I",
                 cost="hamming", loss_augmented=False, max_iter=10, tol=None,
                 n_iter_no_change=3, early_stopping=False, validation_fraction=0.1,
                 shuffle=True, average=True, constrained=True, warm_start=False,
                 random_state=None, verbose=0):
        self.scheme = scheme
        self.extra_schemes = extra_schemes
        self.C = C
        self.variant = variant
        self.cost = cost
        self.loss_augmented = loss_augmented
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.shuffle = shuffle
        self.average = average
        self.constrained = constrained
        self.warm_start = warm_start
        self.random_state = random_state
        self.verbose = verbose

    # ------------------------------------------------------------------ checks

    def _validate_params(self):
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {tuple(VARIANTS)}, got {self.variant!r}")
        if self.cost not in COSTS:
            raise ValueError(f"cost must be one of {tuple(COSTS)}, got {self.cost!r}")
        if not (isinstance(self.C, int | float) and self.C > 0):
            raise ValueError(f"C must be a positive number, got {self.C!r}")
        if not (isinstance(self.max_iter, int | np.integer) and self.max_iter >= 1):
            raise ValueError(f"max_iter must be a positive int, got {self.max_iter!r}")
        if self.tol is not None and self.tol < 0:
            raise ValueError(f"tol must be None or >= 0, got {self.tol!r}")
        if not 0 < self.validation_fraction < 1:
            raise ValueError(
                f"validation_fraction must be in (0, 1), got {self.validation_fraction!r}"
            )
        if isinstance(self.extra_schemes, str):
            raise ValueError("extra_schemes must be a tuple of scheme names, not a string")

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
        new = sorted(set(types) - set(space.types))
        if new:
            what = "labels" if space.scheme is None else "entity types"
            problems.append(f"y has {what} the model lacks: {new}")
        if problems:
            raise ValueError(
                "cannot continue training (warm_start=True / partial_fit): "
                + "; ".join(problems) + ". Set warm_start=False to start over."
            )

    def _init_state(self, n_features, types):
        space = LabelSpace.build(self.scheme, types, self.extra_schemes)
        self.label_space_ = space
        self.classes_ = np.array(space.labels, dtype=object)
        self.n_features_in_ = n_features
        # float32 training state: half the memory; the kernel accumulates
        # scores in float64, and folded prediction weights are float64
        self._w = ChainWeights.zeros(n_features, space.n_columns, dtype=np.float32)
        self._acc = ChainWeights.zeros(n_features, space.n_columns, dtype=np.float32)
        self.t_ = 0
        self.history_ = []
        self._rng = check_random_state(self.random_state)  # carried across partial_fit

    # ------------------------------------------------------------------ training

    def _epoch(self, matrix, offsets, codes, order):
        space = self.label_space_
        if self.constrained:
            mstart, mtrans, mend = space.mask()
        else:
            L = space.n_labels
            mstart, mtrans, mend = np.zeros(L), np.zeros((L, L)), np.zeros(L)
        w, acc = self._w, self._acc
        t, loss, s_err, t_err = pa_epoch(
            matrix.indptr, matrix.indices, matrix.data,
            offsets, codes, order.astype(np.int64), space.cols,
            w.W, w.T, w.start, w.end, acc.W, acc.T, acc.start, acc.end,
            self.t_, float(self.C), VARIANTS[self.variant], COSTS[self.cost],
            bool(self.loss_augmented), mstart, mtrans, mend,
        )
        self.t_ = int(t)
        return loss, s_err, t_err

    def _averaged(self):
        """Unfolded weights used for prediction (averaged when ``average``)."""
        w = self._w
        if not (self.average and self.t_ > 0):
            return ChainWeights(w.W.astype(np.float64), w.T.astype(np.float64),
                                w.start.astype(np.float64), w.end.astype(np.float64))
        a, s = self._acc, 1.0 / self.t_

        def avg(x, acc):
            return x.astype(np.float64) - s * acc.astype(np.float64)

        return ChainWeights(avg(w.W, a.W), avg(w.T, a.T), avg(w.start, a.start),
                            avg(w.end, a.end))

    def _finalize(self, chunk=65536):
        """Average (optionally) and fold the weights used for prediction.

        Works on row chunks so no full-size temporary of the unfolded
        weights is made.
        """
        w, acc, cols = self._w, self._acc, self.label_space_.cols
        s = 1.0 / self.t_ if self.average and self.t_ > 0 else 0.0
        n_features = w.W.shape[0]
        coef = np.zeros((n_features, cols.shape[0]))
        for lo in range(0, n_features, chunk):
            rows = slice(lo, lo + chunk)
            Wr, Ar = w.W[rows].astype(np.float64), acc.W[rows].astype(np.float64)
            for k in range(cols.shape[1]):
                coef[rows] += Wr[:, cols[:, k]]
                if s:
                    coef[rows] -= s * Ar[:, cols[:, k]]
        small = ChainWeights(np.zeros((0, w.W.shape[1])),
                             w.T.astype(np.float64) - s * acc.T,
                             w.start.astype(np.float64) - s * acc.start,
                             w.end.astype(np.float64) - s * acc.end).fold(cols)
        self.coef_ = coef
        self.transition_, self.start_, self.end_ = small.T, small.start, small.end

    def fit(self, X, y):
        """Train on featurizer output ``X`` and IOB2 label lists ``y``."""
        self._validate_params()
        matrix, offsets = check_sequence_features(X, type(self).__name__)
        y = _check_y(y, len(offsets) - 1, np.diff(offsets), self.scheme)
        types = _label_types(y, self.scheme)
        rs = check_random_state(self.random_state)
        if self.warm_start and hasattr(self, "coef_"):
            self._check_trainable()
            self._check_continuation(matrix.shape[1], types)
        else:
            self._init_state(matrix.shape[1], types)
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
        for epoch in range(self.max_iter):
            t0 = time.perf_counter()
            order = rs.permutation(train_idx) if self.shuffle else train_idx
            loss, s_err, t_err = self._epoch(matrix, offsets, codes, order)
            self.n_iter_ = epoch + 1
            record = {"epoch": epoch + 1, "loss": loss, "sentence_errors": int(s_err),
                      "token_errors": int(t_err)}
            if val_idx is not None:
                self._finalize()
                sub = X[val_idx]
                score = self._validation_score([y[i] for i in val_idx], self.predict(sub))
                record[self._validation_key] = score
                monitored = 1.0 - score
            else:
                monitored = loss / max(len(train_idx), 1)
            record["seconds"] = time.perf_counter() - t0
            self.history_.append(record)
            if self.verbose:
                key = self._validation_key
                extra = f", {key.replace('_', ' ')} {record[key]:.4f}" if key in record else ""
                print(f"-- epoch {epoch + 1}: loss {loss:.1f}, {s_err} sentence / {t_err} "
                      f"token errors{extra}, {record['seconds']:.2f} s", file=sys.stderr)
            if self.tol is not None or self.early_stopping:
                tol = self.tol if self.tol is not None else 0.0
                if monitored < best - tol:
                    no_change = 0
                else:
                    no_change += 1
                if monitored < best:
                    best = monitored
                    if self.early_stopping:
                        best_state = (self.coef_, self.transition_, self.start_, self.end_)
                if no_change >= self.n_iter_no_change:
                    converged = True
                    break
            if s_err == 0:
                converged = True
                break
        if best_state is not None:
            (self.coef_, self.transition_, self.start_, self.end_) = best_state
        else:
            self._finalize()
        if self.tol is not None and not converged and self.max_iter > 1:
            warnings.warn(
                f"OnlinePACRF stopped after max_iter={self.max_iter} epochs without "
                f"converging (tol={self.tol}); increase max_iter or tol",
                ConvergenceWarning, stacklevel=2,
            )
        return self

    def partial_fit(self, X, y, classes=None):
        """One online pass over ``X``, ``y`` (weights carried across calls).

        Parameters
        ----------
        classes : list of str
            All IOB2 labels (or entity types) the model will ever see;
            required on the first call, as in sklearn's ``SGDClassifier``.
        """
        self._validate_params()
        matrix, offsets = check_sequence_features(X, type(self).__name__)
        y = _check_y(y, len(offsets) - 1, np.diff(offsets), self.scheme)
        self._check_trainable()
        if not hasattr(self, "_w"):
            if classes is None:
                raise ValueError("classes must be passed on the first call to partial_fit")
            if self.scheme is None:
                types = sorted(set(classes))
            else:
                types = sorted({c.split("-", 1)[1] if c[:2] in ("B-", "I-") else c
                                for c in classes if c != "O"})
            self._init_state(matrix.shape[1], types)
        else:
            self._check_continuation(matrix.shape[1], _label_types(y, self.scheme))
        codes = self.label_space_.encode(y)
        rs = self._rng
        n = len(offsets) - 1
        order = rs.permutation(n) if self.shuffle else np.arange(n)
        t0 = time.perf_counter()
        loss, s_err, t_err = self._epoch(matrix, offsets, codes, order)
        self.history_.append({"epoch": len(self.history_) + 1, "loss": loss,
                              "sentence_errors": int(s_err), "token_errors": int(t_err),
                              "seconds": time.perf_counter() - t0})
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
        for name in ("_w", "_acc"):
            self.__dict__.pop(name, None)
        return self

    def densify(self):
        """Store ``coef_`` as a dense float64 array again (after :meth:`sparsify`).

        The values stay those of the float32 sparse copy: :meth:`sparsify`
        rounds the weights to float32 (predictions on GENIA POS devel are
        unchanged by it), and densifying does not undo the rounding.
        """
        check_is_fitted(self, "coef_")
        if sp.issparse(self.coef_):
            self.coef_ = self.coef_.toarray().astype(np.float64)
        return self

    def _check_trainable(self):
        if hasattr(self, "coef_") and not hasattr(self, "_w"):
            raise ValueError(
                "this OnlinePACRF was sparsified: its training state is gone, so training "
                "cannot continue; fit a new model (warm_start=False) instead"
            )

    # ------------------------------------------------------------------ prediction

    def _decode_codes(self, X, unfolded=False):
        check_is_fitted(self, "coef_")
        matrix, offsets = check_sequence_features(X, type(self).__name__)
        if matrix.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {matrix.shape[1]} features, but {type(self).__name__} was fitted "
                f"with {self.n_features_in_}"
            )
        space = self.label_space_
        mask = space.mask() if self.constrained else None
        if unfolded:
            return decode(self._averaged(), space.cols, matrix, offsets, mask), offsets
        coef = self.coef_.toarray().astype(np.float64) if sp.issparse(self.coef_) else self.coef_
        folded = ChainWeights(coef, self.transition_, self.start_, self.end_)
        identity = np.arange(space.n_labels, dtype=np.int64)[:, None]
        return decode(folded, identity, matrix, offsets, mask), offsets

    @property
    def _validation_key(self):
        return "validation_accuracy" if self.scheme is None else "validation_f1"

    def _validation_score(self, y, pred):
        if self.scheme is None:
            return token_accuracy_score(y, pred)
        return entity_f1_score(y, pred, mode="spans")

    def predict(self, X):
        """IOB2 label lists (plain labels if scheme=None) for featurizer output ``X``."""
        codes, offsets = self._decode_codes(X)
        return self.label_space_.decode(codes, offsets, well_formed=self.constrained)

    def predict_unfolded(self, X):
        """Predict with the per-scheme weight blocks summed on the fly.

        Identical to :meth:`predict` (which uses the folded weights); kept to
        test the folding.  With ``early_stopping`` it uses the last epoch's
        weights, whereas :meth:`predict` uses the best epoch's.
        """
        self._check_trainable()
        codes, offsets = self._decode_codes(X, unfolded=True)
        return self.label_space_.decode(codes, offsets, well_formed=self.constrained)
