"""A memorising baseline tagger: each word's most frequent training label."""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .._sentence import check_sentences
from .._validation import Integral, Interval, StrOptions
from ..base import LabelSequences, SequenceTaggerMixin
from ..schemes import check_label_sequences, repair
from ._base import iob2_classes, label_types

__all__ = ["MajorityTagger"]


class MajorityTagger(SequenceTaggerMixin, BaseEstimator):
    """Tag each word with its most frequent training label (a baseline).

    Words seen fewer than ``min_count`` times (and unseen words) get ``O``;
    the sequence is then repaired to well-formed IOB2.  This is the classic
    memorisation baseline against which learned taggers are measured.

    Parameters
    ----------
    min_count : int, default=1
        Minimum number of training occurrences for a word to keep its label.
    lowercase : bool, default=False
        Look words up lowercased.
    scheme : "IOB2" or None, default="IOB2"
        None: plain labels (part of speech, chunks); unknown words get the
        most frequent training label and nothing is repaired.

    Attributes
    ----------
    vocabulary_ : dict of str -> str
        The label memorised for each word.
    classes_ : ndarray of str
        The labels :meth:`predict` returns: IOB2 labels of the entity types
        seen in training (the labels themselves with ``scheme=None``).
    """

    _parameter_constraints = {
        "min_count": [Interval(Integral, 1, None, closed="left")],
        "lowercase": ["boolean"],
        "scheme": [StrOptions({"IOB2"}), None],
    }

    def __init__(self, min_count=1, lowercase=False, scheme="IOB2"):
        self.min_count = min_count
        self.lowercase = lowercase
        self.scheme = scheme

    def _key(self, word):
        return word.lower() if self.lowercase else word

    def fit(self, X, y):
        """Memorise ``y`` (IOB2 label lists) for the sentences ``X``.

        Parameters
        ----------
        X : list of sentences
            Each a :class:`~skbioner.Sentence` or a list of token strings.
        y : list of list of str
            One label per token (IOB2 unless ``scheme=None``).

        Returns
        -------
        self : MajorityTagger
        """
        self._validate_params()
        X = check_sentences(X)
        y = check_label_sequences(y, map(len, X), None if self.scheme is None else "IOB2")
        counts = defaultdict(Counter)
        for sent, labels in zip(X, y, strict=True):
            for w, lab in zip(sent, labels, strict=True):
                counts[self._key(w)][lab] += 1
        self.vocabulary_ = {
            w: max(c.items(), key=lambda kv: (kv[1], kv[0] == "O", kv[0]))[0]
            for w, c in counts.items()
            if sum(c.values()) >= self.min_count
        }
        overall = Counter(lab for labels in y for lab in labels)
        self.classes_ = (np.array(sorted(overall), dtype=object) if self.scheme is None
                         else iob2_classes(label_types(y)))
        self.default_label_ = (max(overall.items(), key=lambda kv: (kv[1], kv[0]))[0]
                               if self.scheme is None and overall else "O")
        return self

    def predict(self, X):
        """Return IOB2 label lists (plain labels if ``scheme=None``) for the sentences ``X``.

        Parameters
        ----------
        X : list of sentences
            Each a :class:`~skbioner.Sentence` or a list of token strings.

        Returns
        -------
        LabelSequences
            One label list per sentence (well-formed IOB2 unless ``scheme=None``).
        """
        check_is_fitted(self, "vocabulary_")
        X = check_sentences(X)
        vocab = self.vocabulary_
        default = getattr(self, "default_label_", "O")  # models saved before scheme=None
        tags = [[vocab.get(self._key(w), default) for w in s] for s in X]
        return LabelSequences(tags if self.scheme is None else [repair(t, "IOB2") for t in tags])
