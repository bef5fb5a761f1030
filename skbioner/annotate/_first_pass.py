"""A first pass's output as token columns of a second pass (stacking).

Zhou & Su (2004) use their knowledge modules as *features* of the tagger:
an abbreviation gets the class of its long form, a candidate that is an
alias of an entity recognised earlier in the document gets ``ENTITYnLm``,
a cascade pattern (``ENTITY`` + head noun ...) is a feature, not a rewrite.
Those features need the entities of the document, so they come from a first
pass: :func:`first_pass_columns` derives per-token columns from its labels
and from the document-level steps of :mod:`skbioner.postprocess`, and a
second tagger reads them through the featurizer (:func:`first_pass_groups`).
:class:`~skbioner.ensemble.StackedTagger` trains the two passes (the first
out of fold on the training data).
"""

from __future__ import annotations

from collections import Counter
from itertools import chain, compress, count

import numpy as np

from ..postprocess import (
    AbbreviationResolver,
    LabelledDocument,
    group_documents,
)
from ..postprocess._abbreviations import _document_abbreviations
from ..schemes import labels_to_spans

__all__ = ["first_pass_columns", "first_pass_groups"]

#: prefix of every column the annotator adds
PREFIX = "fp_"


def first_pass_groups(window=1, label_window=2):
    """Feature groups reading :func:`first_pass_columns`.

    Parameters
    ----------
    window : int, default=1
        Every ``fp_*`` column at offsets ``-window..window``.
    label_window : int, default=2
        The first-pass label (``fp_label``) at ``-label_window..label_window``
        as well, and its bigram at ``(-1, 0)``.

    Returns
    -------
    list of FeatureGroup
        To append to a featurizer's ``templates``
        (``get_preset("chan") + first_pass_groups()``).
    """
    from ..features import FeatureGroup

    groups = [FeatureGroup("first_pass", "dictionary", tuple(range(-window, window + 1)),
                           {"prefix": PREFIX})]
    far = tuple(o for o in range(-label_window, label_window + 1) if abs(o) > window)
    if far:
        groups.append(FeatureGroup("first_pass_label", "annotation", far,
                                   {"column": PREFIX + "label", "label": "fpl"},
                                   optional=True))
    groups.append(FeatureGroup("first_pass_bigram", "conjunction", (-1, 0),
                               {"of": PREFIX + "label"}))
    return groups


def _confidence_bin(p, bins):
    for k, edge in enumerate(bins):
        if p >= edge:
            return str(k)
    return str(len(bins))


def first_pass_columns(X, labels, probabilities=None, steps=(), *, confidence_bins=(0.9, 0.6),
                       memory=True, doc_dictionary=False, abbreviations=True):
    """Token columns of a first pass's labels, for a second pass (values per token).

    * ``fp_label``: the first pass's IOB2 label;
    * ``fp_conf`` (with ``probabilities``): the label with the bin of its
      probability (``B-protein/0``: at least ``confidence_bins[0]``, ...);
    * ``fp_memory`` (``memory``): the class the same word (lower-cased) has
      most often at its *other* occurrences in the document (``O`` when
      outside; ``-`` when the word occurs once);
    * ``fp_docdict`` (``doc_dictionary``): the entities the first pass found
      in the document, as a dictionary (each string with its most frequent
      class) matched longest-first over the document's sentences:
      ``B-<class>``, ``I-<class>`` or ``O``;
    * ``fp_abbr`` (``abbreviations``): on the pairs of
      :func:`~skbioner.postprocess.find_abbreviations`, ``S-<class>`` on a
      short form and its later occurrences, ``L-<class>`` on the long form,
      the class being the first pass's class of the long form (``none``);
    * ``fp_<name>`` for each post-processing step of ``steps``: the label
      the step proposes where it changes the first pass's (``-``
      elsewhere): a cascade-pattern match
      (:class:`~skbioner.postprocess.CascadedEntityRules`), an abbreviation
      (:class:`~skbioner.postprocess.AbbreviationResolver`), an alias of an
      entity recognised earlier in the document
      (:class:`~skbioner.postprocess.NameAlias`, Zhou & Su's ``ENTITYnLm``).

    Parameters
    ----------
    X : list of Sentence
        The sentences (document ids in ``doc_id``).
    labels : list of list of str
        The first pass's IOB2 labels.
    probabilities : list of array-like of shape (n_tokens,), optional
        The first pass's probability of each token's label (``fp_conf``).
    steps : list of (str, PostprocessStep), default=()
        Fitted steps whose proposed changes become ``fp_<name>``.
    confidence_bins : tuple of float, default=(0.9, 0.6)
    memory, doc_dictionary, abbreviations : bool
        Which document-level columns to add.

    Returns
    -------
    list of dict of str to tuple of str
        Per sentence, the columns by name (``fp_label``...).
    """
    labels = [list(lab) for lab in labels]
    cols = [{PREFIX + "label": tuple(lab)} for lab in labels]
    if probabilities is not None:
        bins = tuple(float(b) for b in confidence_bins)
        for c, values in zip(cols, _confidence(labels, probabilities, bins)):
            c[PREFIX + "conf"] = values
    if memory:
        for c, values in zip(cols, _memory(X, labels)):
            c[PREFIX + "memory"] = values
    for doc_id, index in group_documents(X):
        sents = [X[i] for i in index]
        doc_labels = [labels[i] for i in index]
        doc_cols = [cols[i] for i in index]
        if doc_dictionary:
            _doc_dictionary(sents, doc_labels, doc_cols)
        if abbreviations:
            _abbreviation_column(sents, doc_labels, doc_cols)
        doc = LabelledDocument(doc_id, tuple(sents), tuple(tuple(lab) for lab in doc_labels),
                               None, None, tuple(index))
        for name, step in steps:
            new = step.correct(doc)
            for c, old, lab in zip(doc_cols, doc_labels, new):
                c[PREFIX + name] = ("-",) * len(old) if old == lab else \
                    tuple(b if a != b else "-" for a, b in zip(old, lab))
    return cols


def _confidence(labels, probabilities, bins):
    """``fp_conf`` of every sentence: ``<label>/<bin>`` (see :func:`_confidence_bin`).

    The bins of all the tokens at once when the probabilities are float64 arrays
    of the sentences' lengths (what the first passes give); token by
    token otherwise.
    """
    probs = [np.asarray(p) for p in probabilities]
    if len(probs) != len(labels) or any(p.dtype != np.float64 or p.shape != (len(lab),)
                                        for p, lab in zip(probs, labels)):
        return [tuple(f"{t}/{_confidence_bin(q, bins)}" for t, q in zip(lab, p))
                for lab, p in zip(labels, probabilities)]
    flat = np.concatenate(probs) if probs else np.zeros(0)
    which = np.full(len(flat), len(bins), dtype=np.int64)
    for k in range(len(bins) - 1, -1, -1):  # the first edge reached wins
        which[flat >= bins[k]] = k
    suffix = [f"/{k}" for k in range(len(bins) + 1)]
    values = list(map("{}{}".format, chain.from_iterable(labels),
                      map(suffix.__getitem__, which.tolist())))
    bounds = np.cumsum([0] + [len(lab) for lab in labels]).tolist()
    return [tuple(values[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]


def _memory(X, labels):
    """``fp_memory``: the majority class of the word's other occurrences in its document.

    A word (lower-cased) gets the class (``O`` or the entity type) that most
    of its *other* occurrences in the document have, ties going to the class
    seen first in the document; ``-`` when it occurs once.  Counted for all
    the documents at once (no per-token Python beyond reading the strings).

    Returns
    -------
    list of tuple of str
        Per sentence of ``X``, the column.
    """
    lengths = np.fromiter((len(s) for s in X), dtype=np.int64, count=len(X))
    n = int(lengths.sum())
    if n == 0:
        return [() for _ in X]
    doc = np.zeros(len(X), dtype=np.int64)
    for d, (_, index) in enumerate(group_documents(X)):
        doc[index] = d
    doc = np.repeat(doc, lengths)
    # ids by dictionary look-ups in C loops (ids of first occurrences, not contiguous)
    seen = {}
    word = np.fromiter(map(seen.setdefault, map(str.lower, chain.from_iterable(X)), count()),
                       dtype=np.int64, count=n)
    seen = {}
    tag = np.fromiter(map(seen.setdefault, chain.from_iterable(labels), count()),
                      dtype=np.int64, count=n)
    class_ids = {}
    for t in seen:
        class_ids.setdefault(t[2:] if t != "O" else "O", len(class_ids))
    to_class = np.zeros(n, dtype=np.int64)
    for t, k in seen.items():
        to_class[k] = class_ids[t[2:] if t != "O" else "O"]
    cls = to_class[tag]
    pair = np.unique(doc * n + word, return_inverse=True)[1].ravel()
    n_pairs, n_classes = int(pair.max()) + 1, len(class_ids)
    counts = np.zeros((n_pairs, n_classes), dtype=np.int64)
    np.add.at(counts, (pair, cls), 1)
    first = np.full((n_pairs, n_classes), n, dtype=np.int64)
    np.minimum.at(first, (pair, cls), np.arange(n))
    other = counts[pair]
    other[np.arange(n), cls] -= 1  # the other occurrences
    # most occurrences first, then the class seen first in the document
    score = np.where(other > 0, other * (n + 1) + (n - first[pair]), -1)
    names = np.array(["-", *class_ids], dtype=object)
    value = np.where(other.any(axis=1), score.argmax(axis=1) + 1, 0)
    column = names[value].tolist()
    bounds = np.concatenate([[0], np.cumsum(lengths)]).tolist()
    return [tuple(column[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]


def _doc_dictionary(sents, labels, cols, max_len=8):
    """``fp_docdict``: the document's first-pass entities matched longest-first."""
    by_string = {}
    for s, lab in zip(sents, labels):
        for t, a, b in labels_to_spans(lab):
            if b - a <= max_len:
                by_string.setdefault(tuple(w.lower() for w in s[a:b]), Counter())[t] += 1
    entries = {k: c.most_common(1)[0][0] for k, c in by_string.items()}
    lengths = sorted({len(k) for k in entries}, reverse=True)
    for s, c in zip(sents, cols):
        words = [w.lower() for w in s]
        values = ["O"] * len(words)
        k = 0
        while k < len(words):
            for n in lengths:
                t = entries.get(tuple(words[k:k + n])) if k + n <= len(words) else None
                if t is not None:
                    values[k:k + n] = ["B-" + t] + ["I-" + t] * (n - 1)
                    k += n
                    break
            else:
                k += 1
        c[PREFIX + "docdict"] = tuple(values)


def _abbreviation_column(sents, labels, cols):
    """``fp_abbr``: ``S-``/``L-`` and the long form's first-pass class."""
    values = [["-"] * len(s) for s in sents]
    memory = {}
    defined = set()
    for ab in _document_abbreviations(tuple(map(tuple, sents)), True):
        typ = AbbreviationResolver._long_form_type(labels, ab.long) or "none"
        si, sa, sb = ab.short
        defined.add((si, sa))
        for k in range(sa, sb):
            values[si][k] = "S-" + typ
        for li, la, lb in ab.long:
            for k in range(la, lb):
                values[li][k] = "L-" + typ
        memory[tuple(sents[si][sa:sb])] = typ
    if memory:
        by_first = {}  # the short forms by first token, in the order they were defined
        for key, typ in memory.items():
            by_first.setdefault(key[0], []).append((key, typ))
        for si, s in enumerate(sents):
            for k in compress(range(len(s)), map(by_first.__contains__, s)):
                for key, typ in by_first[s[k]]:
                    if tuple(s[k:k + len(key)]) == key \
                            and (si, k) not in defined and values[si][k] == "-":
                        for j in range(k, k + len(key)):
                            values[si][j] = "S-" + typ
    for c, v in zip(cols, values):
        c[PREFIX + "abbr"] = tuple(v)

