"""Mixins shared by skbioner's estimators (tags and the sequence ``score``)."""

from __future__ import annotations

import numpy as np
from sklearn.utils.metaestimators import _BaseComposition, available_if
from sklearn.utils.validation import check_is_fitted

__all__ = ["DelegatedOutputsMixin", "DelegatingTaggerMixin", "LabelSequences",
           "SentenceTransformerMixin", "SequenceTaggerMixin", "classes_of", "final_estimator",
           "head_transform", "split_pipeline", "unwrap"]


def split_pipeline(tagger):
    """A tagger's transformers and its final estimator.

    The wrappers of the suite (post-processing, re-cutting, raw-text tagging)
    featurize once and call the final step's ``predict_entities`` or
    ``predict_marginals``; this is where they find them.

    Parameters
    ----------
    tagger : estimator or sklearn.pipeline.Pipeline

    Returns
    -------
    head : Pipeline or None
        The pipeline without its last step (None for a one-step pipeline or
        an estimator that is not a pipeline).
    final : estimator
        The pipeline's last step, or ``tagger`` itself.
    """
    from sklearn.pipeline import Pipeline

    if isinstance(tagger, Pipeline):
        return (tagger[:-1] if len(tagger.steps) > 1 else None), tagger.steps[-1][1]
    return None, tagger


def unwrap(tagger):
    """The pipeline (or model) inside the suite's fitted wrappers.

    Follows a wrapper's fitted tagger (``tagger_``: post-processing,
    re-cutting) and a tuner's winner (``best_estimator_``) to the end.

    Parameters
    ----------
    tagger : estimator

    Returns
    -------
    estimator
        ``tagger`` itself when it wraps nothing.
    """
    while True:
        inner = getattr(tagger, "tagger_", None)
        if inner is None:
            inner = getattr(tagger, "best_estimator_", None)
        if inner is None:
            return tagger
        tagger = inner


def final_estimator(tagger):
    """The model that scores the tokens: the last step of the pipeline inside any wrapper.

    Parameters
    ----------
    tagger : estimator or Pipeline

    Returns
    -------
    estimator
    """
    return split_pipeline(unwrap(tagger))[1]


def head_transform(tagger, X):
    """``X`` through a tagger's transformers, and its final estimator.

    What every wrapper does before calling the final step's
    ``predict_entities`` or ``predict_marginals`` (:func:`split_pipeline`).

    Parameters
    ----------
    tagger : fitted estimator or Pipeline
    X : list of sentences

    Returns
    -------
    Xt : list
        ``X`` transformed by every step but the last (``X`` itself when there
        are none).
    final : estimator
        The last step, or ``tagger`` itself.
    """
    head, final = split_pipeline(tagger)
    return (head.transform(X) if head is not None else X), final


class LabelSequences(list):
    """What a tagger's ``predict`` returns: a list of label lists, one per sentence.

    A plain ``list`` in every respect, except that numpy sees it as a 1-D
    object array of sentences (not a ragged 2-D array), so sklearn utilities
    that stack per-fold predictions (``cross_val_predict``) work on sequence
    output: they return an object array whose items are the label lists.
    """

    def __array__(self, dtype=None, copy=None):
        out = np.empty(len(self), dtype=object)
        for i, labels in enumerate(self):
            out[i] = labels
        return out


class SentenceTransformerMixin:
    """Tags of a transformer whose ``X`` is a list of sentences (not a 2D array)."""

    _requires_fit = True

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.input_tags.string = True
        tags.requires_fit = self._requires_fit
        tags.target_tags.required = False
        return tags


class SequenceTaggerMixin:
    """``score`` and tags of a tagger predicting one label list per sentence.

    Taggers derive from ``BaseEstimator`` only (not ``ClassifierMixin``, whose
    stratified splitting cannot handle ragged ``y``), and score with the
    official exact-match entity F1.
    """

    def score(self, X, y):
        """Exact-match entity F1 of ``predict(X)`` (official JNLPBA counting).

        Taggers of plain labels (``scheme=None``: part of speech, chunks)
        score token accuracy instead.

        Parameters
        ----------
        X : list of Sentence
        y : list of list of str
            The gold labels.

        Returns
        -------
        float
        """
        from .metrics import entity_f1_score, token_accuracy_score

        if getattr(self, "scheme", "IOB2") is None:
            return token_accuracy_score(y, self.predict(X))
        return entity_f1_score(y, self.predict(X))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.two_d_array = False
        tags.input_tags.sparse = True
        return tags


def _delegate_has(method):
    def check(self):
        inner = getattr(self, self._delegate, None)  # unfitted: raises NotFittedError
        return inner is None or hasattr(split_pipeline(inner)[1], method)
    return check


class DelegatedOutputsMixin:
    """``predict_entities`` and ``predict_marginals`` of a fitted tagger held inside.

    The attribute named by ``_delegate`` holds it (a tuner's refitted winner,
    a distilled student, a stack's second pass, a pipeline's final step);
    :meth:`_delegated` may transform ``X`` into what that tagger reads.  Each
    method exists when that tagger has it.
    """

    _delegate = "best_estimator_"

    def _delegated(self, X):
        """``(fitted tagger, X as it reads it)``."""
        check_is_fitted(self, self._delegate)
        return getattr(self, self._delegate), X

    @available_if(_delegate_has("predict_entities"))
    def predict_entities(self, X):
        """Entities of ``X`` with their probabilities.

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of list of (str, int, int, float)
            Per sentence, ``(type, start, end, probability)`` (half-open token offsets).
        """
        tagger, Xt = self._delegated(X)
        return tagger.predict_entities(Xt)

    @available_if(_delegate_has("predict_marginals"))
    def predict_marginals(self, X):
        """Per-token label probabilities of ``X``.

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of ndarray of shape (n_tokens, n_classes)
            Columns in the order of ``classes_``.
        """
        tagger, Xt = self._delegated(X)
        return tagger.predict_marginals(Xt)


class DelegatingTaggerMixin(DelegatedOutputsMixin, SequenceTaggerMixin):
    """A tagger whose outputs are those of a fitted tagger it holds
    (:class:`DelegatedOutputsMixin`), ``predict`` included."""

    def predict(self, X):
        """IOB2 labels of ``X``.

        Parameters
        ----------
        X : list of Sentence

        Returns
        -------
        list of list of str
        """
        tagger, Xt = self._delegated(X)
        return tagger.predict(Xt)


class NamedComposition(_BaseComposition):
    """Parameters of an estimator over a list of named ones: its own, and each one's as
    ``<name>__<param>`` (the list is the parameter named by ``_named``)."""

    _named = "estimators"

    def get_params(self, deep=True):
        """Parameters, with each named estimator's under ``<name>__<param>``.

        Parameters
        ----------
        deep : bool, default=True

        Returns
        -------
        dict
        """
        return self._get_params(self._named, deep=deep)

    def set_params(self, **params):
        """Set parameters (``<name>__<param>`` reaches a named estimator; ``<name>`` replaces it).

        Parameters
        ----------
        **params : dict

        Returns
        -------
        self
        """
        self._set_params(self._named, **params)
        return self

    def _checked_named(self, items, what, methods, validate=True):
        """``items`` as a list of ``(name, estimator)`` pairs whose estimators have ``methods``.

        ``what`` names an item in the messages; with ``validate`` the names must be
        unique, free of ``__`` and not a parameter's name (sklearn's rules).
        """
        items = list(items)
        for item in items:
            if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)):
                raise TypeError(f"{what}s must be (name, {what}) pairs, got {item!r:.80}")
            if not all(hasattr(item[1], m) for m in methods):
                raise TypeError(f"{what} {item[0]!r} has no {'/'.join(methods)}: "
                                f"{type(item[1]).__name__}")
        if validate:
            self._validate_names([name for name, _ in items])
        return items


def classes_of(tagger):
    """``classes_`` of a fitted tagger, or of its pipeline's final step.

    Parameters
    ----------
    tagger : fitted estimator or Pipeline

    Returns
    -------
    ndarray of object or None
        The labels ``predict`` returns; None when neither has ``classes_``.
    """
    classes = getattr(tagger, "classes_", None)
    if classes is None:
        classes = getattr(split_pipeline(tagger)[1], "classes_", None)
    return np.asarray(classes, dtype=object) if classes is not None else None
