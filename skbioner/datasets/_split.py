"""Development splits whose annotation columns are as honest as a test set's."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from sklearn.base import clone

from .._sentence import check_sentences
from ._jnlpba import train_dev_split

__all__ = ["DevSplit", "annotate_split", "dev_split"]


class DevSplit(NamedTuple):
    """A training part and a development part of one corpus (sentences and labels).

    Parameters
    ----------
    X_train : list of Sentence
        The training part's sentences, with the annotators' columns.
    y_train : list of list of str
        Their labels.
    X_dev : list of Sentence
        The development part's sentences, with the annotators' columns.
    y_dev : list of list of str
        Their labels.
    """

    X_train: list
    y_train: list
    X_dev: list
    y_dev: list


def annotate_split(annotators, X_train, X_eval):
    """Add annotation columns to a training part and an evaluation part, honestly.

    Each annotator, in order, is cloned, fitted on ``X_train`` with
    ``fit_transform`` (out of fold where it does so: ``POSTagger(jackknife=)``,
    ``LexiconMatcher(jackknife=)``) and then ``transform`` s ``X_eval``,
    exactly as a ``Pipeline`` fitted on ``X_train`` would.  An annotator that
    can tell which sentences it would tag with a model trained on them
    (``in_sample``, e.g. :class:`~skbioner.annotate.POSTagger`) is refused if
    that holds for any evaluation sentence: the bundled GENIA POS tagger, for
    one, was trained on most of the JNLPBA development abstracts, and its
    near-perfect tags there would flatter every comparison that reads them.

    Parameters
    ----------
    annotators : sequence of transformers or (name, transformer) pairs
        Applied in order (each sees the columns of the previous ones).
    X_train, X_eval : list of sentences

    Returns
    -------
    X_train, X_eval : list of Sentence
        New sentences with the annotators' columns.

    Raises
    ------
    ValueError
        If an annotator would tag an evaluation sentence it was trained on.
    """
    X_train, X_eval = check_sentences(X_train), check_sentences(X_eval)
    for step in annotators:
        if isinstance(step, tuple):
            step = step[1]
        step = clone(step)
        X_train = step.fit_transform(X_train)
        if hasattr(step, "in_sample"):
            seen = np.asarray(step.in_sample(X_eval), dtype=bool)
            if seen.any():
                docs = {getattr(X_eval[i], "doc_id", None) for i in np.flatnonzero(seen)}
                docs.discard(None)
                where = f" ({len(docs)} documents)" if docs else ""
                raise ValueError(
                    f"{type(step).__name__} would tag {int(seen.sum())} of the {len(X_eval)} "
                    f"evaluation sentences{where} with a model trained on them, so any "
                    "comparison reading "
                    "its column would be flattered there: tag them out of fold (POSTagger("
                    "jackknife=5, corpus=<its training corpus, e.g. genia-pos/train.tsv>))"
                )
        X_eval = step.transform(X_eval)
    return X_train, X_eval


def dev_split(X, y, *, annotators=(), dev_fraction=0.1):
    """The development split of a training corpus, with honest annotation columns.

    The last ``dev_fraction`` of the documents (:func:`train_dev_split`, by
    the sentences' ``doc_id``) form the development part; the annotators are
    fitted on the training part and tag the development part as they would
    tag a test set (:func:`annotate_split`: an annotator that would tag a
    development sentence with a model trained on it is refused).

    Parameters
    ----------
    X : list of Sentence
        The training corpus's sentences, with document ids
        (``ColumnCorpus.X``).
    y : list of list of str
    annotators : sequence of transformers, default=()
        E.g. ``[POSTagger(jackknife=5, corpus="genia-pos/train.tsv")]``.
    dev_fraction : float, default=0.1

    Returns
    -------
    DevSplit
        ``(X_train, y_train, X_dev, y_dev)``.

    Examples
    --------
    >>> from skbioner.annotate import POSTagger
    >>> from skbioner.datasets import dev_split, load_jnlpba_sample
    >>> train = load_jnlpba_sample("train")
    >>> split = dev_split(train.X, train.y)
    >>> len(split.X_train), len(split.X_dev)
    (2018, 257)
    >>> dev_split(train.X, train.y, annotators=[POSTagger()])
    Traceback (most recent call last):
    ...
    ValueError: POSTagger would tag 203 of the 257 evaluation sentences (21 documents) ...
    """
    X, y = check_sentences(X, y)
    doc_ids = [getattr(s, "doc_id", None) for s in X]
    if any(d is None for d in doc_ids):
        raise ValueError("dev_split needs the document id of every sentence (Sentence.doc_id, "
                         "as the corpus readers set it): a split must not cut a document")
    tr, dev = train_dev_split(doc_ids, dev_fraction)
    X_train, X_dev = annotate_split(annotators, [X[i] for i in tr], [X[i] for i in dev])
    return DevSplit(X_train, [y[i] for i in tr], X_dev, [y[i] for i in dev])
