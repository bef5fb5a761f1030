"""``POSTagger``: in-domain part of speech as a token annotation.

The tagger is the suite's own sequence model (``OnlinePACRF(scheme=None)``
over ``TokenFeaturizer("chan")`` features) trained on the GENIA POS corpus;
a trained, sparsified copy ships inside the package
(``skbioner/annotate/data/genia_pos.skops``, in the safe model format of
:func:`skbioner.io.save_model`; GENIA licence alongside), and
``scripts/train_pos_model.py`` re-trains it.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.model_selection import GroupKFold
from sklearn.pipeline import Pipeline
from sklearn.utils.validation import check_is_fitted

from .._sentence import check_sentences
from .._validation import ColumnName, HasMethods, Integral, Interval
from ..base import SentenceTransformerMixin
from ..models._base import densified

__all__ = ["POSTagger", "make_pos_pipeline", "load_genia_pos_model", "GENIA_POS_MODEL"]

#: Location of the bundled GENIA POS model.
GENIA_POS_MODEL = "data/genia_pos.skops"


def make_pos_pipeline(C=0.02, max_iter=10, min_count=3, random_state=0):
    """The unfitted POS tagging pipeline the bundled model was trained with.

    ``TokenFeaturizer("chan", min_count=3)`` (words at -2..+2 and their
    n-grams, affixes, word shapes) and ``OnlinePACRF(scheme=None)`` with the
    settings chosen on the GENIA POS development split
    (``scripts/train_pos_model.py --tune``).

    Parameters
    ----------
    C : float, default=0.02
        Aggressiveness bound of the passive-aggressive tagger (PA-I).
    max_iter : int, default=10
        Epochs over the training sentences.
    min_count : int, default=3
        Keep a feature only if it fires on at least this many training tokens.
    random_state : int, RandomState instance or None, default=0
        Seed of the tagger's sentence shuffling.

    Returns
    -------
    sklearn.pipeline.Pipeline
        The unfitted ``features`` -> ``tagger`` pipeline.
    """
    from ..features import TokenFeaturizer
    from ..models import OnlinePACRF

    return Pipeline([
        ("features", TokenFeaturizer("chan", min_count=min_count)),
        ("tagger", OnlinePACRF(scheme=None, C=C, max_iter=max_iter, random_state=random_state)),
    ])


def load_genia_pos_model():
    """Load the bundled GENIA POS tagger (a fitted pipeline, ready to tag).

    Returns
    -------
    sklearn.pipeline.Pipeline
        The fitted pipeline of :func:`make_pos_pipeline`; its ``predict``
        maps a list of sentences to a list of tag lists.

    Raises
    ------
    FileNotFoundError
        If the model file is missing from the installed package.
    """
    import warnings
    from importlib.resources import as_file

    from sklearn.exceptions import InconsistentVersionWarning

    from ..io import load_model

    resource = files("skbioner.annotate").joinpath(GENIA_POS_MODEL)
    if not resource.is_file():
        raise FileNotFoundError(
            f"the bundled POS model is missing ({resource}); re-create it with "
            "python scripts/train_pos_model.py"
        )
    with as_file(resource) as path, warnings.catch_warnings():
        # The file holds skbioner's own estimators in a Pipeline container, written by
        # scripts/train_pos_model.py with the scikit-learn of its day; the check that the
        # model tags as documented (tests/annotate/test_pos.py) guards every version.
        warnings.simplefilter("ignore", InconsistentVersionWarning)
        model = load_model(path)
    return densified(model)


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


def _fit_fold(template, X, tags):
    return template.fit(X, tags)


def _unfrozen(model):
    """The estimator inside a ``FrozenEstimator`` (whose clones would not refit)."""
    from sklearn.frozen import FrozenEstimator

    return model.estimator if isinstance(model, FrozenEstimator) else model


def _compact(model):
    """A copy of ``model`` whose tagger stores its coefficients sparse, when that is exact.

    The bundled tagger is float32 and 97% zeros: pickled dense inside a fitted
    pipeline it would weigh 70 MB instead of 1.3 MB.
    """
    import copy

    import scipy.sparse as sp

    last = model[-1] if isinstance(model, Pipeline) else model
    coef = getattr(last, "coef_", None)
    if not isinstance(coef, np.ndarray) or not hasattr(last, "sparsify"):
        return model
    if not np.array_equal(coef.astype(np.float32), coef):
        return model  # float32 storage would round this model's weights
    small = copy.copy(last)
    small.coef_ = sp.csr_matrix(coef.astype(np.float32))
    if isinstance(model, Pipeline):
        out = copy.copy(model)
        out.steps = [*model.steps[:-1], (model.steps[-1][0], small)]
        return out
    return small


def _fold_of_sentences(X, CX, groups, folds):
    """For each sentence of ``X``, the jackknife fold of the corpus document it comes from.

    Sentences are matched by their characters without spaces (the corpora may
    tokenise differently); an unmatched sentence between two matched ones of
    the same document (the corpora may split sentences differently) belongs
    to that document.  -1: not in the corpus.
    """
    doc_fold = {}
    for k, (_, held) in enumerate(folds):
        for i in held:
            doc_fold[groups[i]] = k
    doc_of = {}
    for s, g in zip(CX, groups):
        doc_of.setdefault("".join(s), g)
    docs = [doc_of.get("".join(s)) for s in X]
    n = len(docs)
    prev = [None] * n
    last = None
    for i in range(n):
        last = docs[i] if docs[i] is not None else last
        prev[i] = last
    nxt = None
    for i in range(n - 1, -1, -1):
        if docs[i] is not None:
            nxt = docs[i]
        elif prev[i] is not None and prev[i] == nxt:
            docs[i] = nxt
    return np.array([doc_fold[d] if d is not None else -1 for d in docs], dtype=np.int64)


class POSTagger(SentenceTransformerMixin, TransformerMixin, BaseEstimator):
    """Add an in-domain part-of-speech annotation to every sentence.

    Parameters
    ----------
    model : "genia", path or estimator, default="genia"
        ``"genia"`` uses the bundled tagger trained on the GENIA POS corpus
        (98.6% token accuracy on its development split; see
        ``benchmarks/pos.py`` for the test split).  A path loads a model
        file with :func:`skbioner.io.load_model` (the safe ``.skops``
        format; a pickle is refused: load it yourself if you trust it); an
        estimator fitted on your corpus (e.g. by
        :func:`make_pos_pipeline`) is used as given -- wrap it in
        ``sklearn.frozen.FrozenEstimator`` so that ``clone`` (in
        ``GridSearchCV``, ``cross_validate``) keeps it fitted.  Whatever it is,
        it maps a list of sentences to a list of tag lists.
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
        ``X`` that comes from a document of a fold with the tagger that never
        saw that document (``cross_val_predict`` style).  Sentences are
        matched by their characters without spaces, and an unmatched sentence
        between two sentences of the same document is counted in it (the
        corpora tokenise and split sentences a little differently: 98.5% of the
        JNLPBA training sentences from GENIA POS abstracts are matched);
        sentences not in ``corpus`` get the full model's tags.
        :meth:`transform` (test data) always uses the full model.  Inside a
        ``Pipeline`` this is automatic: ``fit`` calls ``fit_transform`` on the
        training sentences only.  (Cross-validating such a pipeline on the
        same training set tags its validation folds with the full model,
        which has seen them: validation scores are then optimistic.)
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

    _parameter_constraints = {
        "model": [str, os.PathLike, HasMethods(["predict"])],
        "column": [ColumnName()],
        "jackknife": [Interval(Integral, 2, None, closed="left"), None],
        "corpus": "no_validation",  # a path or an (X, tags) pair, checked when read
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
    }

    def __init__(self, model="genia", column="pos", jackknife=None, corpus=None, n_jobs=None,
                 verbose=0):
        self.model = model
        self.column = column
        self.jackknife = jackknife
        self.corpus = corpus
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _check_params(self):
        self._validate_params()
        if self.jackknife is not None and self.corpus is None:
            raise ValueError(
                "jackknife needs the tagger's training corpus: pass corpus= (a token<TAB>tag "
                "file such as genia-pos/train.tsv, or an (X, tags) pair)"
            )

    def _load_model(self):
        if isinstance(self.model, str) and self.model == "genia":
            return load_genia_pos_model()
        if isinstance(self.model, str | os.PathLike):
            if not Path(self.model).is_file():
                raise FileNotFoundError(f"POS model file not found: {self.model}")
            from ..io import load_model

            return densified(load_model(self.model))
        if not hasattr(self.model, "predict"):
            raise TypeError(
                f"model must be 'genia', a path or an estimator with predict, got {self.model!r}"
            )
        return self.model

    def fit(self, X, y=None):
        """Load the tagger (``X`` and ``y`` are ignored: the tagger is pre-trained).

        Parameters
        ----------
        X : list of sentences
            Ignored.
        y : None
            Ignored.

        Returns
        -------
        self : POSTagger
        """
        self._check_params()
        self.__dict__.pop("jackknife_coverage_", None)
        self.model_ = self._load_model()
        return self

    def _annotate(self, X, tags):
        return [s.with_annotations(**{self.column: t}) for s, t in zip(X, tags)]

    def transform(self, X):
        """Return new sentences with the ``column`` annotation added (inputs unchanged).

        Parameters
        ----------
        X : list of sentences
            Each a :class:`~skbioner.Sentence` or a list of token strings.

        Returns
        -------
        list of Sentence
            New sentences whose column ``column`` holds the tagger's tags
            (tagged with the full model); other columns are carried over.
        """
        check_is_fitted(self, "model_")
        X = check_sentences(X)
        return self._annotate(X, self.model_.predict(X))

    def fit_transform(self, X, y=None):
        """Fit, then annotate ``X`` -- out of fold with ``jackknife`` (see the class doc).

        Parameters
        ----------
        X : list of sentences
            Each a :class:`~skbioner.Sentence` or a list of token strings.
        y : None
            Ignored.

        Returns
        -------
        list of Sentence
            New sentences whose column ``column`` holds the tags; with
            ``jackknife``, a sentence found in ``corpus`` is tagged by the
            tagger that never saw its document.
        """
        self.fit(X, y)
        if self.jackknife is None:
            return self.transform(X)
        X = check_sentences(X)
        CX, Ctags, groups = _read_pos_corpus(self.corpus)
        n_groups = len(set(groups))
        if n_groups < self.jackknife:
            raise ValueError(
                f"jackknife={self.jackknife} folds need as many documents in the POS corpus "
                f"{self.corpus if isinstance(self.corpus, str | os.PathLike) else '(X, tags)'}, "
                f"which has {n_groups} (document lines ###MEDLINE:<id> or -DOCSTART- separate "
                "documents)"
            )
        folds = list(GroupKFold(n_splits=self.jackknife).split(CX, groups=groups))
        fold = _fold_of_sentences(X, CX, groups, folds)
        wanted = {}
        for i, k in enumerate(fold):
            if k >= 0:
                wanted.setdefault(int(k), []).append(i)
        todo = sorted(wanted)
        template = clone(_unfrozen(self.model_))  # unfitted: only parameters go to the workers
        models = Parallel(n_jobs=self.n_jobs, verbose=self.verbose)(
            delayed(_fit_fold)(clone(template), [CX[i] for i in folds[k][0]],
                               [Ctags[i] for i in folds[k][0]])
            for k in todo
        )
        tags = [None] * len(X)
        for k, m in zip(todo, models):
            idx = wanted[k]
            for i, t in zip(idx, m.predict([X[i] for i in idx])):
                tags[i] = t
        rest = [i for i in range(len(X)) if fold[i] < 0]  # not in the corpus: the full model
        for i, t in zip(rest, self.model_.predict([X[i] for i in rest]) if rest else []):
            tags[i] = t
        self.jackknife_coverage_ = (len(X) - len(rest)) / max(len(X), 1)
        return self._annotate(X, tags)

    def __getstate__(self):
        state = dict(super().__getstate__())
        model = state.get("model_")
        if model is not None:
            state["model_"] = _compact(model)
        return state

    def __setstate__(self, state):
        super().__setstate__(state)
        if "model_" in self.__dict__:
            self.model_ = densified(self.model_)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = True
        tags.non_deterministic = False
        return tags
