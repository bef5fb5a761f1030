"""Cascaded entity names: rules that build an entity out of smaller ones.

Zhou & Su (2004) mined six construction patterns from GENIA's nested
annotations (ENTITY + head noun, ENTITY + ENTITY, modifier + ENTITY,
ENTITY + word + ENTITY, modifier + ENTITY + head noun, ENTITY + ENTITY +
head noun).  JNLPBA's annotations are flat, so :class:`CascadedEntityRules`
mines them from the training entities whose parts are themselves training
entity strings: ``IL-2 gene`` (DNA) = ``IL-2`` (a protein string) + ``gene``
gives the rule *protein + gene -> DNA*.  At prediction a rule joins
adjacent predicted entities and words into one entity of the rule's class.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from .._validation import Integral, Interval, Real
from ..schemes import labels_to_spans
from ._abbreviations import set_span
from ._base import LabelledDocument, PostprocessStep, segments

__all__ = ["CascadedEntityRules"]


def _decompose(tokens, strings, whole):
    """Greedy left-to-right cover of ``tokens`` by the longest known entity strings.

    Returns a tuple of items ``("E", class)`` / ``("W", word)``; None when no
    part is an entity string.
    """
    items, i, n = [], 0, len(tokens)
    max_len = n - 1 if whole else n
    while i < n:
        for j in range(min(n, i + max_len), i, -1):
            typ = strings.get(" ".join(tokens[i:j]))
            if typ is not None:
                items.append(("E", typ))
                i = j
                break
        else:
            items.append(("W", tokens[i].lower()))
            i += 1
    if not any(kind == "E" for kind, _ in items) or len(items) < 2:
        return None
    return tuple(items)


class CascadedEntityRules(PostprocessStep):
    """Join predicted entities and words into larger entities by rules mined from training.

    Mining (``fit``): the entity strings of the training labels that are
    an entity at least ``min_string_count`` times get their majority class.
    Every training entity of two or more tokens is covered left to right by
    the longest such strings shorter than itself, the rest being words
    (lower-cased): a pattern such as ``(E:protein, W:gene)``.  A pattern
    seen at least ``min_count`` times with one class becomes a rule
    ``pattern -> class`` if that class holds at least ``min_precision`` of
    its instances, and if the rule, run over the gold labels of the training
    data, would be right at least ``min_precision`` of the times it fires
    (it fires wrongly where the gold has its entities and words side by side
    but not as one entity: ``IL-2 and IL-4`` as two proteins).

    Prediction (``correct``): in every sentence, a run of predicted
    entities and untagged words matching a rule's pattern (each ``E`` item a
    predicted entity of that class, each ``W`` item that word) becomes one
    entity of the rule's class; the longest match at each position wins.
    With ``relabel``, a predicted entity whose own cover (by the training
    strings) is a rule's pattern gets the rule's class.

    Parameters
    ----------
    min_count : int, default=10
    min_precision : float, default=0.9
        ``min_count`` and ``min_precision`` chosen on the JNLPBA development
        split (3 and 0.7 lost 0.2-0.3 F1 there).
    min_string_count : int, default=2
    max_items : int, default=4
        Longest pattern, in items.
    join_adjacent : bool, default=False
        Also join predicted entities that touch with no word between
        (ENTITY + ENTITY patterns).  Off by default: a tagger that splits
        two adjacent entities usually has a reason (on the JNLPBA
        development split, 9 right joins against 73 wrong ones).
    relabel : bool, default=False
        Off by default: on the development split it lost 0.1 F1.

    Attributes
    ----------
    rules_ : list of (tuple, str, int)
        ``(pattern, class, training instances)``; a pattern is a tuple of
        ``("E", class)`` and ``("W", word)`` pairs.
    entity_strings_ : dict of str -> str
        Training entity strings (tokens joined by spaces) and their
        majority class.
    """

    _parameter_constraints = {
        "min_count": [Interval(Integral, 1, None, closed="left")],
        "min_precision": [Interval(Real, 0, 1, closed="both")],
        "min_string_count": [Interval(Integral, 1, None, closed="left")],
        "max_items": [Interval(Integral, 2, None, closed="left")],
        "join_adjacent": ["boolean"],
        "relabel": ["boolean"],
    }

    def __init__(self, min_count=10, min_precision=0.9, min_string_count=2, max_items=4,
                 join_adjacent=False, relabel=False):
        self.min_count = min_count
        self.min_precision = min_precision
        self.min_string_count = min_string_count
        self.max_items = max_items
        self.join_adjacent = join_adjacent
        self.relabel = relabel

    def fit(self, X, y):
        """Mine the rules from the training entities.

        Parameters
        ----------
        X : list of Sentence
        y : list of list of str
            IOB2 labels.

        Returns
        -------
        self : CascadedEntityRules
        """
        self._validate_params()
        by_string = defaultdict(Counter)
        entities = []
        for s, labels in zip(X, y):
            for t, a, b in labels_to_spans(labels):
                key = tuple(s[a:b])
                by_string[" ".join(key)][t] += 1
                entities.append((key, t))
        strings = {k: c.most_common(1)[0][0] for k, c in by_string.items()
                   if sum(c.values()) >= self.min_string_count}
        patterns = defaultdict(Counter)
        for key, t in entities:
            if len(key) < 2:
                continue
            pattern = _decompose(key, strings, whole=True)
            if pattern is not None and len(pattern) <= self.max_items:
                patterns[pattern][t] += 1
        candidates = []
        for pattern, counts in patterns.items():
            typ, n = counts.most_common(1)[0]
            total = sum(counts.values())
            if total >= self.min_count and n >= self.min_precision * total:
                candidates.append((pattern, typ, n))
        # how often each candidate would fire wrongly on the gold labels: the same
        # entities and words, but the gold says they are not one entity
        self.entity_strings_ = strings
        self.rules_ = candidates
        self.__dict__.pop("_index_cache", None)
        wrong = Counter()
        for sent, labels in zip(X, y):
            for pattern, _, _, _ in self._matches(list(sent), list(labels)):
                wrong[pattern] += 1
        rules = [(pattern, typ, n) for pattern, typ, n in candidates
                 if n >= self.min_precision * (n + wrong[pattern])]
        self.rules_ = sorted(rules, key=lambda r: (-r[2], r[0]))
        self.__dict__.pop("_index_cache", None)
        return self

    def _matches(self, sent, labels):
        """Non-overlapping rule matches ``(pattern, class, start, end)``, left to right.

        The sentence is read as segments: each predicted entity (key ``("E",
        class)``) and each word outside them (key: the word lower-cased).  From
        each segment, left to right, the longest rule pattern starting there wins
        and the scan resumes after it (a walk down the rules' trie;
        ``tests/postprocess/postprocess_oracle.py`` holds the rule-by-rule version).
        """
        trie = self._index()[1]
        if not trie:
            return []
        parts = segments(len(sent), labels_to_spans(labels))
        keys = [sent[a].lower() if t is None else ("E", t) for a, _, t in parts]
        out = []
        i, m = 0, len(keys)
        while i < m:
            node = trie.get(keys[i])
            if node is None:
                i += 1
                continue
            best, j = node.get(None), i + 1
            end = j
            while j < m:
                node = node.get(keys[j])
                if node is None:
                    break
                j += 1
                if None in node:
                    best, end = node[None], j
            if best is None:
                i += 1
                continue
            out.append((best[0], best[1], parts[i][0], parts[end - 1][1]))
            i = end
        return out

    def _index(self):
        """``(pattern -> class, trie)``.

        The trie maps a segment key (``("E", class)``, or a word for a ``("W",
        word)`` item) to the next level; key None holds ``(pattern, class)`` of the
        pattern ending there.
        """
        cache = self.__dict__.get("_index_cache")
        if cache is None:
            trie = {}
            for pattern, typ, _ in self.rules_:
                if self.join_adjacent or any(kind == "W" for kind, _ in pattern):
                    node = trie
                    for kind, item in pattern:
                        node = node.setdefault(item if kind == "W" else (kind, item), {})
                    node.setdefault(None, (pattern, typ))
            cache = ({pattern: typ for pattern, typ, _ in self.rules_}, trie)
            self.__dict__["_index_cache"] = cache  # derived, not state (not pickled)
        return cache

    def __getstate__(self):
        state = dict(super().__getstate__())
        state.pop("_index_cache", None)
        return state

    def _apply(self, sent, labels):
        by_pattern, _ = self._index()
        for _, typ, a, b in self._matches(sent, labels):
            set_span(labels, a, b, typ)
        if self.relabel:
            for t, a, b in labels_to_spans(labels):
                if b - a < 2:
                    continue
                pattern = _decompose(sent[a:b], self.entity_strings_, whole=True)
                rule = by_pattern.get(pattern) if pattern is not None else None
                if rule is not None and rule != t:
                    set_span(labels, a, b, rule)
        return labels

    def correct(self, doc: LabelledDocument):
        """Apply the rules to every sentence of the document.

        Parameters
        ----------
        doc : LabelledDocument

        Returns
        -------
        list of list of str
        """
        return [self._apply(list(s), list(lab)) for s, lab in zip(doc.sentences, doc.labels)]
