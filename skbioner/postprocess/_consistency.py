"""LabelledDocument-level label consistency: an entity string tagged once is tagged everywhere.

Within one abstract a name keeps its meaning: when the tagger marks
``NF-kappa B`` as a protein in one sentence and misses it in another, the
miss is usually the error.  :class:`LabelConsistency` tags the untagged
occurrences of a document's predicted entity strings with the string's
(majority) type.  Strings that the training data shows to be ambiguous
(tagged as an entity in only a small share of their occurrences, such as
``cells`` or ``gene``) are not propagated.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from .._validation import Integral, Interval, Real
from ..schemes import labels_to_spans
from ._base import LabelledDocument, PostprocessStep

__all__ = ["LabelConsistency"]


def _key(tokens, lowercase):
    return tuple(t.lower() for t in tokens) if lowercase else tuple(tokens)


def _occurrences(sentence_keys, key):
    """``(start, end)`` of every occurrence of the token tuple ``key``."""
    n = len(key)
    first = key[0]
    out = []
    for i, tok in enumerate(sentence_keys):
        if tok == first and tuple(sentence_keys[i:i + n]) == key:
            out.append((i, i + n))
    return out


class LabelConsistency(PostprocessStep):
    """Tag the missed occurrences of the entity strings predicted in a document.

    For every entity string predicted somewhere in a document, each of its
    other occurrences in the document that lies entirely outside predicted
    entities is tagged with the string's type (the most frequent among its
    predictions in the document).

    Parameters
    ----------
    min_chars : int, default=2
        Shortest string (in characters, spaces excluded) to propagate.
    min_ratio : float, default=0.5
        Propagate a string only if, in the training data, at least this
        share of its occurrences are entities (of any type).  Strings never
        seen in training are propagated.  0 propagates everything.
    lowercase : bool, default=False
        Match occurrences case-insensitively.
    max_outside_prob : float, default=1.0
        With a tagger that gives token marginals: leave an occurrence alone
        if the tagger's mean probability of ``O`` over its tokens is above
        this (1.0: no such check).

    Attributes
    ----------
    entity_ratio_ : dict of tuple of str -> float
        For every training entity string, the share of its training
        occurrences that are entities.
    """

    _parameter_constraints = {
        "min_chars": [Interval(Integral, 1, None, closed="left")],
        "min_ratio": [Interval(Real, 0, 1, closed="both")],
        "lowercase": ["boolean"],
        "max_outside_prob": [Interval(Real, 0, 1, closed="both")],
    }

    def __init__(self, min_chars=2, min_ratio=0.5, lowercase=False, max_outside_prob=1.0):
        self.min_chars = min_chars
        self.min_ratio = min_ratio
        self.lowercase = lowercase
        self.max_outside_prob = max_outside_prob

    @property
    def uses_marginals(self):
        return self.max_outside_prob < 1.0

    def fit(self, X, y):
        """Count how often each training entity string is an entity.

        Parameters
        ----------
        X : list of Sentence
        y : list of list of str
            IOB2 labels.

        Returns
        -------
        self : LabelConsistency
        """
        self._validate_params()
        as_entity = Counter()
        for s, labels in zip(X, y):
            for _, a, b in labels_to_spans(labels):
                as_entity[_key(s[a:b], self.lowercase)] += 1
        # occurrences of those strings anywhere (entity or not)
        by_first = defaultdict(list)
        for key in as_entity:
            by_first[key[0]].append(key)
        total = Counter()
        for s in X:
            keys = [_key((t,), self.lowercase)[0] for t in s]
            for i, tok in enumerate(keys):
                for key in by_first.get(tok, ()):
                    if tuple(keys[i:i + len(key)]) == key:
                        total[key] += 1
        self.entity_ratio_ = {k: as_entity[k] / max(total[k], as_entity[k]) for k in as_entity}
        return self

    def correct(self, doc: LabelledDocument):
        """Tag the untagged occurrences of the document's entity strings.

        Parameters
        ----------
        doc : LabelledDocument

        Returns
        -------
        list of list of str
        """
        labels = [list(lab) for lab in doc.labels]
        keys = [[_key((t,), self.lowercase)[0] for t in s] for s in doc.sentences]
        types = defaultdict(Counter)
        for s, lab in zip(doc.sentences, labels):
            for t, a, b in labels_to_spans(lab):
                types[_key(s[a:b], self.lowercase)][t] += 1
        for key, counts in types.items():
            if sum(len(tok) for tok in key) < self.min_chars:
                continue
            if self.entity_ratio_.get(key, 1.0) < self.min_ratio:
                continue
            typ = max(counts.items(), key=lambda kv: (kv[1], kv[0]))[0]
            for i, sent_keys in enumerate(keys):
                for a, b in _occurrences(sent_keys, key):
                    if any(lab != "O" for lab in labels[i][a:b]):
                        continue
                    outside = doc.outside_probability(i)
                    if outside is not None and outside[a:b].mean() > self.max_outside_prob:
                        continue
                    labels[i][a:b] = ["B-" + typ] + ["I-" + typ] * (b - a - 1)
        return labels
