"""Document-grouped folds and hold-outs: the one place the package cuts its data.

Leakage prevention rests on one rule, used by every estimator that trains on a
part of its data and tags or scores another: the sentences of a document
(``Sentence.doc_id``, ``SentenceFeatures.doc_ids``) stay together, and a
sentence without a document id is a document of its own (without any ids the
cuts fall between sentences, and so they do within the one document of a
corpus that has a single one).  Documents are taken in order of first
appearance; folds are contiguous blocks of them (``np.array_split``), a
hold-out is the last ones.
"""

from __future__ import annotations

import numpy as np

__all__ = ["document_folds", "document_keys", "document_splits", "holdout_split"]


def document_keys(X):
    """Each sentence's document: its id, or ``("", i)`` (a document of its own) without one.

    Parameters
    ----------
    X : list of Sentence or SentenceFeatures

    Returns
    -------
    list
    """
    ids = getattr(X, "doc_ids", None)
    if ids is None:
        ids = [getattr(s, "doc_id", None) for s in X]
    return [d if d is not None else ("", i) for i, d in enumerate(ids)]


def _units(X):
    """``(unit of every sentence, number of units)``, units in order of first appearance:
    the documents, or the sentences when there are fewer than two documents."""
    order = {}
    unit = np.fromiter((order.setdefault(k, len(order)) for k in document_keys(X)),
                       dtype=np.int64, count=len(X))
    if len(order) < 2:  # one document (a file with one -DOCSTART-): its sentences
        return np.arange(len(X), dtype=np.int64), len(X)
    return unit, len(order)


def document_folds(X, n_folds):
    """The fold of each sentence: ``n_folds`` contiguous blocks of whole documents.

    With fewer documents than ``n_folds``, one fold per document.

    Parameters
    ----------
    X : list of Sentence or SentenceFeatures
    n_folds : int
        At least 2.

    Returns
    -------
    ndarray of int64 of shape (n_sentences,)
        Folds ``0 .. min(n_folds, n_documents) - 1``.

    Examples
    --------
    >>> from skbioner import Sentence
    >>> X = [Sentence(["a"], doc_id=d) for d in ["1", "1", "2", None, "3"]]
    >>> document_folds(X, 2).tolist()
    [0, 0, 0, 1, 1]
    """
    unit, n_units = _units(X)
    if n_units < 2:
        raise ValueError(f"folds need at least 2 sentences, got {n_units}")
    block = np.zeros(n_units, dtype=np.int64)
    for k, part in enumerate(np.array_split(np.arange(n_units), min(n_folds, n_units))):
        block[part] = k
    return block[unit]


def document_splits(X, n_folds):
    """``(train, test)`` sentence indices of each fold of :func:`document_folds`.

    Parameters
    ----------
    X : list of Sentence or SentenceFeatures
    n_folds : int

    Returns
    -------
    list of (ndarray of int64, ndarray of int64)
    """
    fold = document_folds(X, n_folds)
    return [(np.flatnonzero(fold != k), np.flatnonzero(fold == k))
            for k in range(int(fold.max()) + 1)]


def holdout_split(X, fraction, min_held_out=0):
    """Sentence indices ``(train, held_out)``: the last ``fraction`` of the documents.

    Parameters
    ----------
    X : list of Sentence or SentenceFeatures
    fraction : float
        Share of the documents held out, in (0, 1).
    min_held_out : int, default=0
        Hold out more documents from the end until at least this many
        sentences, up to half of the sentences.

    Returns
    -------
    train, held_out : ndarray of int64

    Examples
    --------
    >>> from skbioner import Sentence
    >>> X = [Sentence(["a"], doc_id=d) for d in ["1", "1", "2", "2", "3"]]
    >>> holdout_split(X, 0.34)
    (array([0, 1, 2, 3]), array([4]))
    """
    unit, n_units = _units(X)
    size = np.bincount(unit, minlength=n_units)
    n_held = int(round(fraction * n_units))
    total = int(size[n_units - n_held:].sum()) if n_held else 0
    while n_held < n_units - 1:
        nxt = int(size[n_units - n_held - 1])
        if total >= min_held_out or 2 * (total + nxt) > len(X):
            break
        n_held, total = n_held + 1, total + nxt
    mask = unit >= n_units - n_held
    return np.flatnonzero(~mask), np.flatnonzero(mask)
