"""``POSTagger``: in-domain part of speech as a token annotation.

The tagger is the suite's own sequence model (``OnlinePACRF(scheme=None)``
over ``TokenFeaturizer("chan")`` features) trained on the GENIA POS corpus;
a trained, sparsified copy ships inside the package
(``skbioner/annotate/data/genia_pos.skops``, in the safe model format of
:func:`skbioner.io.save_model`; GENIA licence alongside), and
``scripts/train_pos_model.py`` re-trains it.

The tagger never tags a sentence of its own training corpus with a model
that saw it, when it is told the corpus (``jackknife``): those sentences
get the tags of a model trained without their document, in training and
development data alike.  The bundled model also knows the fingerprints of
its training sentences (``data/genia_pos_train.npz``), so
:meth:`POSTagger.in_sample` can say which sentences it would tag in sample.
"""

from __future__ import annotations

import hashlib
import os
from importlib.resources import files
from itertools import compress
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.pipeline import Pipeline
from sklearn.utils.validation import check_is_fitted

from .._sentence import check_sentences
from .._utils import gc_paused
from .._validation import ColumnName, HasMethods, Integral, Interval
from ..base import SentenceTransformerMixin
from ..model_selection import document_splits
from ..models._base import densified
from ._word_classes import _file_key

__all__ = ["POSTagger", "make_pos_pipeline", "load_genia_pos_model", "GENIA_POS_MODEL",
           "GENIA_POS_FINGERPRINTS", "write_corpus_fingerprints"]

#: Location of the bundled GENIA POS model.
GENIA_POS_MODEL = "data/genia_pos.skops"
#: Fingerprints of the sentences the bundled model was trained on (GENIA POS train).
GENIA_POS_FINGERPRINTS = "data/genia_pos_train.npz"


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
    """A fold tagger, stored sparse when it can be (a few MB instead of 34 MB)."""
    model = template.fit(X, tags)
    last = model[-1] if isinstance(model, Pipeline) else model
    if hasattr(last, "sparsify"):
        last.sparsify()
    return model


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


def _sentence_key(tokens):
    """A sentence's fingerprint: 64 bits of BLAKE2b over its characters without spaces.

    The corpora may tokenise a sentence differently (``IL-2-induced`` or
    ``IL-2`` ``-induced``); its characters stay the same.
    """
    digest = hashlib.blake2b("".join(tokens).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def _index_corpus(CX, groups):
    """``(keys, docs, doc_names)``: sorted sentence fingerprints, the document (ordinal)
    of each (its first one when a sentence occurs in several) and the document names."""
    names = list(dict.fromkeys(groups))
    ordinal = {g: i for i, g in enumerate(names)}
    keys = np.fromiter((_sentence_key(s) for s in CX), dtype=np.uint64, count=len(CX))
    docs = np.fromiter((ordinal[g] for g in groups), dtype=np.int32, count=len(CX))
    order = np.argsort(keys, kind="stable")
    keys, docs = keys[order], docs[order]
    first = np.ones(keys.size, dtype=bool)
    first[1:] = keys[1:] != keys[:-1]
    return keys[first], docs[first], names


#: an unmatched run of at most this many sentences between two matched ones of the same
#: document belongs to it (the corpora split a few sentences differently)
_MAX_GAP = 6


def _is_anchor(tokens):
    """Whether a sentence says enough to identify its document (``1 .``, a heading: no)."""
    return sum(any(c.isalpha() for c in t) for t in tokens) >= 3


def _documents_of(X, keys, docs):
    """For each sentence of ``X``, the corpus document (ordinal) it comes from, or -1.

    Sentences of three words or more are matched by fingerprint
    (:func:`_sentence_key`); a run of at most six unmatched sentences
    between two matched ones of the same document (the corpora split
    sentences a little differently) belongs to that document.
    """
    n = len(X)
    out = np.full(n, -1, dtype=np.int64)
    if n == 0 or keys.size == 0:
        return out
    query = np.fromiter((_sentence_key(s) for s in X), dtype=np.uint64, count=n)
    at = np.minimum(np.searchsorted(keys, query), keys.size - 1)
    hit = keys[at] == query
    # the anchor test (a Python loop over the characters) only where a fingerprint matched
    hit[hit] = np.fromiter(map(_is_anchor, compress(X, hit)), dtype=bool, count=int(hit.sum()))
    out[hit] = docs[at[hit]]
    matched = np.flatnonzero(hit)
    for i, j in zip(matched[:-1], matched[1:]):
        if 1 < j - i <= _MAX_GAP + 1 and out[i] == out[j]:
            out[i + 1:j] = out[i]
    return out


def write_corpus_fingerprints(corpus, path):
    """Write the sentence fingerprints of a POS corpus (what :meth:`POSTagger.in_sample` reads).

    ``scripts/train_pos_model.py`` writes them beside the bundled model.

    Parameters
    ----------
    corpus : path or (X, tags)
        The corpus a POS model was trained on.
    path : str or path-like
        Output ``.npz`` file (arrays ``keys`` and ``docs``; loading it runs no code).

    Returns
    -------
    int
        Number of distinct sentences written.
    """
    CX, _, groups = _read_pos_corpus(corpus)
    keys, docs, _ = _index_corpus(CX, groups)
    with open(path, "wb") as fh:
        np.savez_compressed(fh, keys=keys, docs=docs)
    return int(keys.size)


#: Fold models of the last jackknife, kept per process: they depend on the POS corpus
#: and the tagger's recipe only, not on the sentences to tag, so the pipelines of a grid
#: search share them instead of training k taggers per candidate.
_FOLD_CACHE = {}


def _fold_cache_key(model, corpus, k):
    """The versions of the model and corpus files and ``k`` (None: not files, not cached)."""
    if not isinstance(corpus, str | os.PathLike) or not isinstance(model, str | os.PathLike):
        return None
    try:
        return (model if model == "genia" else _file_key(model), _file_key(corpus), k)
    except OSError:
        return None


class POSTagger(SentenceTransformerMixin, TransformerMixin, BaseEstimator):
    """Add an in-domain part-of-speech annotation to every sentence.

    Parameters
    ----------
    model : "genia", path or estimator, default="genia"
        ``"genia"`` uses the bundled tagger trained on the GENIA POS corpus
        (98.6% token accuracy on its development split; see
        ``benchmarks/archive/pos.py`` for the test split).  A path loads a model
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
        Honest annotations for text the tagger was trained on.  GENIA POS
        abstracts are the JNLPBA *training* abstracts (178 of the 200
        abstracts of its development split, and 10 of its test abstracts),
        so the bundled tagger has seen most sentences a JNLPBA model is
        trained and tuned on and tags them almost perfectly (99.75% against
        98.5% on new text).  With ``jackknife=k``, :meth:`fit` splits
        ``corpus`` into ``k`` folds of documents and trains a tagger (a clone
        of ``model``) without each fold; then every sentence that comes from
        a document of ``corpus`` -- in :meth:`fit_transform` (training data)
        and :meth:`transform` (development and test data) alike -- is tagged
        by the fold tagger that never saw that document
        (``cross_val_predict`` style), and every other sentence by the full
        model.  Sentences are matched by their characters without spaces, and
        an unmatched sentence between two sentences of the same document is
        counted in it (the corpora tokenise and split sentences a little
        differently); sentences of fewer than three words (``1 .``) are
        not matched on their own.  Inside a ``Pipeline`` (a grid search, the
        tuner, a development split) nothing else is needed.  The fold
        taggers are kept (sparse) in the fitted tagger; within a process,
        taggers with the same model and corpus file share them.
    corpus : path or (X, tags), default=None
        The POS-labelled corpus ``model`` was trained on (e.g.
        ``genia-pos/train.tsv``); required with ``jackknife``.  Without
        ``jackknife`` it only tells :meth:`in_sample` what the model saw.
    n_jobs : int, default=None
        Folds trained in parallel (joblib).
    verbose : int, default=0

    Attributes
    ----------
    model_ : estimator
        The full tagger.
    fold_models_ : list of estimator
        With ``jackknife``: the taggers trained without each fold.
    corpus_keys_, corpus_docs_ : ndarray
        With ``jackknife``: the corpus sentences' fingerprints (sorted) and
        their documents (ordinals).
    doc_folds_ : ndarray of int
        With ``jackknife``: the fold of each corpus document.
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

    def _fit_folds(self):
        """The fold taggers and the corpus index (cached per process for corpus files)."""
        key = _fold_cache_key(self.model, self.corpus, self.jackknife)
        if key is not None and key in _FOLD_CACHE:
            return _FOLD_CACHE[key]
        CX, Ctags, groups = _read_pos_corpus(self.corpus)
        n_groups = len(set(groups))
        if n_groups < self.jackknife:
            corpus = self.corpus if isinstance(self.corpus, str | os.PathLike) else "(X, tags)"
            raise ValueError(
                f"jackknife={self.jackknife} folds need as many documents in the POS corpus "
                f"{corpus}, which has {n_groups} (document lines "
                "###MEDLINE:<id> or -DOCSTART- separate documents)"
            )
        keys, docs, names = _index_corpus(CX, groups)
        ordinal = {g: i for i, g in enumerate(names)}
        folds = document_splits(CX, self.jackknife)
        doc_folds = np.full(len(names), -1, dtype=np.int64)
        for k, (_, held) in enumerate(folds):
            for i in held:
                doc_folds[ordinal[groups[i]]] = k
        from sklearn.frozen import FrozenEstimator

        model = self.model_  # the estimator inside a FrozenEstimator, whose clones would not refit
        model = model.estimator if isinstance(model, FrozenEstimator) else model
        template = clone(model)  # unfitted: only parameters go to the workers
        models = Parallel(n_jobs=self.n_jobs, verbose=self.verbose)(
            delayed(_fit_fold)(clone(template), [CX[i] for i in train],
                               [Ctags[i] for i in train])
            for train, _ in folds
        )
        out = (models, keys, docs, doc_folds)
        if key is not None:
            _FOLD_CACHE.clear()  # one corpus at a time: fold taggers are large
            _FOLD_CACHE[key] = out
        return out

    def fit(self, X, y=None):
        """Load the tagger; with ``jackknife``, train the fold taggers on ``corpus``.

        Parameters
        ----------
        X : list of sentences
            Ignored (the tagger is pre-trained).
        y : None
            Ignored.

        Returns
        -------
        self : POSTagger
        """
        self._check_params()
        for name in ("jackknife_coverage_", "fold_models_", "corpus_keys_", "corpus_docs_",
                     "doc_folds_"):
            self.__dict__.pop(name, None)
        self.model_ = self._load_model()
        if self.jackknife is not None:
            (self.fold_models_, self.corpus_keys_, self.corpus_docs_,
             self.doc_folds_) = self._fit_folds()
        return self

    def _folds_of(self, X):
        """The fold tagger of each sentence of ``X`` (-1: the full model)."""
        if getattr(self, "fold_models_", None) is None:
            return np.full(len(X), -1, dtype=np.int64)
        found = _documents_of(X, self.corpus_keys_, self.corpus_docs_)
        return np.where(found >= 0, self.doc_folds_[np.maximum(found, 0)], -1)

    def _tagged(self, X, fold):
        """``X`` with the ``column`` of tags of each sentence's fold tagger (-1: the full model)."""
        tags = [None] * len(X)
        for k in np.unique(fold):
            idx = np.flatnonzero(fold == k)
            model = self.model_ if k < 0 else self.fold_models_[k]
            for i, t in zip(idx, model.predict([X[i] for i in idx])):
                tags[i] = t
        with gc_paused():  # a new sentence per sentence, none of them cyclic garbage
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
            New sentences whose column ``column`` holds the tags: with
            ``jackknife``, a sentence found in ``corpus`` is tagged by the
            tagger that never saw its document, any other by the full model.
            Other columns are carried over.
        """
        check_is_fitted(self, "model_")
        X = check_sentences(X)
        return self._tagged(X, self._folds_of(X))

    def fit_transform(self, X, y=None):
        """Fit, then annotate ``X`` (out of fold with ``jackknife``; see the class doc).

        Parameters
        ----------
        X : list of sentences
            Each a :class:`~skbioner.Sentence` or a list of token strings.
        y : None
            Ignored.

        Returns
        -------
        list of Sentence
            As :meth:`transform`.
        """
        self.fit(X, y)
        X = check_sentences(X)
        fold = self._folds_of(X)
        if self.jackknife is not None:
            self.jackknife_coverage_ = float(np.mean(fold >= 0)) if len(X) else 0.0
        return self._tagged(X, fold)

    def in_sample(self, X):
        """Which sentences of ``X`` :meth:`transform` would tag with a model trained on them.

        None with ``jackknife``.  Without it: the sentences of ``corpus``
        when it is given, else, for the bundled model, the sentences of
        GENIA POS train (its shipped fingerprints); a model of your own
        without ``corpus`` is taken to have seen none of them.

        Parameters
        ----------
        X : list of sentences

        Returns
        -------
        ndarray of bool
        """
        check_is_fitted(self, "model_")
        X = check_sentences(X)
        if self.jackknife is not None:
            return np.zeros(len(X), dtype=bool)
        if self.corpus is not None:
            CX, _, groups = _read_pos_corpus(self.corpus)
            keys, docs, _ = _index_corpus(CX, groups)
        elif isinstance(self.model, str) and self.model == "genia":
            resource = files("skbioner.annotate").joinpath(GENIA_POS_FINGERPRINTS)
            with resource.open("rb") as fh, np.load(fh, allow_pickle=False) as data:
                keys, docs = data["keys"], data["docs"]
        else:
            return np.zeros(len(X), dtype=bool)
        return _documents_of(X, keys, docs) >= 0

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
