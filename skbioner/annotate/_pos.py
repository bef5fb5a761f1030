"""``POSTagger``: in-domain part of speech as a token annotation.

The tagger is the suite's own sequence model (``OnlinePACRF(scheme=None)``
over ``TokenFeaturizer("chan")`` features) trained on the GENIA POS corpus;
a trained, sparsified copy ships inside the package
(``skbioner/annotate/data/genia_pos.joblib``, GENIA licence alongside), and
``scripts/train_pos_model.py`` re-trains it.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

import joblib
import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.model_selection import GroupKFold
from sklearn.pipeline import Pipeline
from sklearn.utils.validation import check_is_fitted

from .._sentence import check_sentences
from ..base import SentenceTransformerMixin

__all__ = ["POSTagger", "make_pos_pipeline", "load_genia_pos_model", "GENIA_POS_MODEL"]

#: Location of the bundled GENIA POS model.
GENIA_POS_MODEL = "data/genia_pos.joblib"


def make_pos_pipeline(C=0.02, max_iter=10, min_count=3, random_state=0):
    """The unfitted POS tagging pipeline the bundled model was trained with.

    ``TokenFeaturizer("chan", min_count=3)`` (words at -2..+2 and their
    n-grams, affixes, word shapes) and ``OnlinePACRF(scheme=None)`` with the
    settings chosen on the GENIA POS development split
    (``scripts/train_pos_model.py --tune``).
    """
    from ..features import TokenFeaturizer
    from ..models import OnlinePACRF

    return Pipeline([
        ("features", TokenFeaturizer("chan", min_count=min_count)),
        ("tagger", OnlinePACRF(scheme=None, C=C, max_iter=max_iter, random_state=random_state)),
    ])


def load_genia_pos_model():
    """Load the bundled GENIA POS tagger (a fitted pipeline, ready to tag)."""
    path = files("skbioner.annotate").joinpath(GENIA_POS_MODEL)
    if not path.is_file():
        raise FileNotFoundError(
            f"the bundled POS model is missing ({path}); re-create it with "
            "python scripts/train_pos_model.py"
        )
    with path.open("rb") as fh:
        model = joblib.load(fh)
    return _densified(model)


def _densified(model):
    last = model[-1] if isinstance(model, Pipeline) else model
    if hasattr(last, "densify"):
        last.densify()
    return model


def _read_pos_corpus(corpus):
    """``(X, tags, groups)`` of a POS corpus given as a path or an ``(X, tags)`` pair."""
    if isinstance(corpus, str | os.PathLike):
        from ..io import read_columns

        c = read_columns(corpus, scheme=None)
        return c.X, c.y, c.doc_ids
    try:
        X, tags = corpus
    except (TypeError, ValueError):
        raise TypeError(
            "corpus must be a path to a token<TAB>tag column file or an (X, tags) pair, got "
            f"{type(corpus).__name__}"
        ) from None
    X, tags = check_sentences(X, tags)
    return X, tags, list(range(len(X)))  # no documents: every sentence is its own group


def _fit_fold(model, X, tags):
    return clone(model).fit(X, tags)


class POSTagger(SentenceTransformerMixin, TransformerMixin, BaseEstimator):
    """Add an in-domain part-of-speech annotation to every sentence.

    Parameters
    ----------
    model : "genia", path or estimator, default="genia"
        ``"genia"`` uses the bundled tagger trained on the GENIA POS corpus
        (98.6% token accuracy on its development split; see
        ``benchmarks/pos.py`` for the test split).  A path loads a joblib
        file; an estimator (e.g. :func:`make_pos_pipeline` fitted on your
        corpus) is used as given.  Whatever it is, it maps a list of
        sentences to a list of tag lists.
    column : str, default="pos"
        Name of the added annotation (the featurizer's POS templates read
        ``"pos"``).
    jackknife : int or None, default=None
        Honest annotations for training data.  GENIA POS abstracts are the
        JNLPBA *training* abstracts, so the bundled tagger has seen most
        sentences a NER model is trained on and tags them almost perfectly,
        unlike new text.  With ``jackknife=k``, :meth:`fit_transform`
        splits ``corpus`` into ``k`` folds of documents, trains a tagger
        (a clone of ``model``) without each fold, and tags each sentence of
        ``X`` found in a fold with the tagger that never saw that fold
        (``cross_val_predict`` style); sentences not in ``corpus`` get the
        full model's tags.  :meth:`transform` (test data) always uses the
        full model.  Inside a ``Pipeline`` this is automatic: ``fit`` calls
        ``fit_transform`` on the training sentences only.
    corpus : path or (X, tags), default=None
        The POS-labelled corpus ``model`` was trained on (e.g.
        ``genia-pos/train.tsv``); required with ``jackknife``.
    n_jobs : int, default=None
        Folds trained in parallel (joblib).
    verbose : int, default=0

    Attributes
    ----------
    model_ : estimator
        The tagger used by :meth:`transform`.
    jackknife_coverage_ : float
        After a jackknifed :meth:`fit_transform`: the fraction of its
        sentences that were tagged out of fold.

    Examples
    --------
    >>> from skbioner.annotate import POSTagger
    >>> s = POSTagger().fit_transform([["IL-2", "gene", "expression", "requires", "NF-kappa",
    ...                                 "B", "."]])[0]
    >>> s.column("pos")
    ('NN', 'NN', 'NN', 'VBZ', 'NN', 'NN', '.')
    """

    def __init__(self, model="genia", column="pos", jackknife=None, corpus=None, n_jobs=None,
                 verbose=0):
        self.model = model
        self.column = column
        self.jackknife = jackknife
        self.corpus = corpus
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _validate_params(self):
        if self.jackknife is not None:
            if not (isinstance(self.jackknife, int | np.integer) and self.jackknife >= 2):
                raise ValueError(f"jackknife must be None or an int >= 2, got {self.jackknife!r}")
            if self.corpus is None:
                raise ValueError(
                    "jackknife needs the tagger's training corpus: pass corpus= (a token<TAB>tag "
                    "file such as genia-pos/train.tsv, or an (X, tags) pair)"
                )
        if not isinstance(self.column, str) or not self.column or self.column == "word":
            raise ValueError(f"column must be an annotation name, got {self.column!r}")

    def _load_model(self):
        if isinstance(self.model, str) and self.model == "genia":
            return load_genia_pos_model()
        if isinstance(self.model, str | os.PathLike):
            if not Path(self.model).is_file():
                raise FileNotFoundError(f"POS model file not found: {self.model}")
            return _densified(joblib.load(self.model))
        if not hasattr(self.model, "predict"):
            raise TypeError(
                f"model must be 'genia', a path or an estimator with predict, got {self.model!r}"
            )
        return self.model

    def fit(self, X, y=None):
        """Load the tagger (``X`` and ``y`` are ignored: the tagger is pre-trained)."""
        self._validate_params()
        self.model_ = self._load_model()
        return self

    def _annotate(self, X, tags):
        return [s.with_annotations(**{self.column: t}) for s, t in zip(X, tags)]

    def transform(self, X):
        """Return new sentences with the ``column`` annotation added (inputs unchanged)."""
        check_is_fitted(self, "model_")
        X = check_sentences(X)
        return self._annotate(X, self.model_.predict(X))

    def fit_transform(self, X, y=None):
        """Fit, then annotate ``X`` -- out of fold with ``jackknife`` (see the class doc)."""
        self.fit(X, y)
        if self.jackknife is None:
            return self.transform(X)
        X = check_sentences(X)
        tags = self.model_.predict(X)
        CX, Ctags, groups = _read_pos_corpus(self.corpus)
        folds = list(GroupKFold(n_splits=self.jackknife).split(CX, groups=groups))
        fold_of = {}
        for k, (_, held) in enumerate(folds):
            for i in held:
                fold_of.setdefault(tuple(CX[i]), k)
        wanted = {}
        for i, s in enumerate(X):
            k = fold_of.get(tuple(s))
            if k is not None:
                wanted.setdefault(k, []).append(i)
        todo = sorted(wanted)
        models = Parallel(n_jobs=self.n_jobs, verbose=self.verbose)(
            delayed(_fit_fold)(self.model_, [CX[i] for i in folds[k][0]],
                               [Ctags[i] for i in folds[k][0]])
            for k in todo
        )
        for k, m in zip(todo, models):
            idx = wanted[k]
            for i, t in zip(idx, m.predict([X[i] for i in idx])):
                tags[i] = t
        self.jackknife_coverage_ = sum(map(len, wanted.values())) / max(len(X), 1)
        return self._annotate(X, tags)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = True
        tags.non_deterministic = False
        return tags
