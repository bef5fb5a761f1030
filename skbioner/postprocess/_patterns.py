"""Pattern-based post-processing (NERBio, Tsai et al. 2006): "head <class> tail" patterns.

Training sentences are *collapsed*: every entity becomes one symbol, its class
(``expression of <protein> in <cell_type> .``).  Pairs of collapsed sentences
are aligned with the Smith-Waterman local alignment (a position matches when
the words, or the class symbols, are equal); wherever the alignment matches a
class symbol between two matched words, ``head <class> tail`` is a pattern.
Each pattern is checked on held-out training documents: its *error ratio* is
the share of the places it fires around a gold entity of its class where the
text between head and tail is not exactly that one entity.  At prediction a
tagged sentence is collapsed the same way; where a kept pattern's head and
tail enclose a predicted entity of its class with some untagged tokens
between them, and those make up less than ``zeta`` of the segment (the gap
ratio), the whole segment becomes one entity: ``of CD4 and [CD8 mature T
cells] .`` -> ``of [CD4 and CD8 mature T cells] .``.

Induction aligns only candidate pairs: sentences sharing a context word next
to the same class symbol (``of <protein>`` or ``<protein> expression``), each
sentence paired with a few others per such key.  The alignment kernel is
compiled with numba and runs the pairs in parallel.
"""

from __future__ import annotations

import time
from collections import defaultdict
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .._validation import Integral, Interval, Real
from ..model_selection import holdout_split
from ..schemes import labels_to_spans
from ._base import LabelledDocument, PostprocessStep, segments

__all__ = ["Pattern", "PatternPostProcessor"]

#: Smith-Waterman scores: match, mismatch, gap (linear)
MATCH, MISMATCH, GAP = 3, -1, -1
#: patterns kept per aligned pair (the kernel's output width)
MAX_PER_PAIR = 16


class Pattern(NamedTuple):
    """One induced pattern ``head <cls> tail`` with its counts.

    Parameters
    ----------
    head, cls, tail : str
        The word before the entity, its class, the word after it.
    support : int
        Aligned training pairs that gave the pattern.
    dev_count : int
        Places it fired around a gold entity of ``cls`` in the held-out documents.
    error_ratio : float
        Share of those where the text between head and tail was not exactly one
        entity of ``cls`` (NaN when ``dev_count`` is 0).
    """

    head: str
    cls: str
    tail: str
    support: int
    dev_count: int
    error_ratio: float

    def __str__(self):
        return f"{self.head} <{self.cls}> {self.tail}"


# --------------------------------------------------------------------------
# the alignment kernel


@njit(cache=True, nogil=True)
def _align_pair(a, b, n_classes, out):
    """Smith-Waterman of ``a`` and ``b``; write ``(head, class, tail)`` triples into ``out``.

    Returns the number of triples written.  Ties of the best cell: the first
    in row-major order; traceback prefers the diagonal, then a gap in ``b``
    (``i - 1``), then a gap in ``a``.
    """
    n, m = a.size, b.size
    H = np.zeros((n + 1, m + 1), dtype=np.int32)
    best, bi, bj = 0, 0, 0
    for i in range(1, n + 1):
        ai = a[i - 1]
        for j in range(1, m + 1):
            s = MATCH if ai == b[j - 1] else MISMATCH
            h = H[i - 1, j - 1] + s
            u = H[i - 1, j] + GAP
            if u > h:
                h = u
            v = H[i, j - 1] + GAP
            if v > h:
                h = v
            if h < 0:
                h = 0
            H[i, j] = h
            if h > best:
                best, bi, bj = h, i, j
    # traceback: the matched positions of a, last first
    matched = np.empty(min(n, m), dtype=np.int64)
    k = 0
    i, j = bi, bj
    while i > 0 and j > 0 and H[i, j] > 0:
        eq = a[i - 1] == b[j - 1]
        s = MATCH if eq else MISMATCH
        if H[i, j] == H[i - 1, j - 1] + s:
            if eq:
                matched[k] = i - 1
                k += 1
            i -= 1
            j -= 1
        elif H[i, j] == H[i - 1, j] + GAP:
            i -= 1
        else:
            j -= 1
    n_out = 0
    # matched[k-1] is the first matched position; consecutive matches r+1, r, r-1
    for r in range(k - 2, 0, -1):
        c = a[matched[r]]
        h = a[matched[r + 1]]
        t = a[matched[r - 1]]
        if c < n_classes and h >= n_classes and t >= n_classes and n_out < out.shape[0]:
            out[n_out, 0] = h
            out[n_out, 1] = c
            out[n_out, 2] = t
            n_out += 1
    return n_out


@njit(cache=True, nogil=True, parallel=True)
def align_pairs(seq, offsets, pairs, n_classes):
    """Patterns of every candidate pair: ``(triples, counts)``.

    Parameters
    ----------
    seq : ndarray of int32
        Collapsed sentences, concatenated; ids below ``n_classes`` are class symbols.
    offsets : ndarray of int64
        Sentence ``s`` is ``seq[offsets[s]:offsets[s + 1]]``.
    pairs : ndarray of int64, shape (n_pairs, 2)
        Sentence indices to align.
    n_classes : int

    Returns
    -------
    triples : ndarray of int32, shape (n_pairs, MAX_PER_PAIR, 3)
    counts : ndarray of int64, shape (n_pairs,)
    """
    n_pairs = pairs.shape[0]
    triples = np.zeros((n_pairs, MAX_PER_PAIR, 3), dtype=np.int32)
    counts = np.zeros(n_pairs, dtype=np.int64)
    for p in prange(n_pairs):
        s, t = pairs[p, 0], pairs[p, 1]
        counts[p] = _align_pair(seq[offsets[s]:offsets[s + 1]], seq[offsets[t]:offsets[t + 1]],
                                n_classes, triples[p])
    return triples, counts


# --------------------------------------------------------------------------
# collapsing and candidate segments


def _collapse(words, labels):
    """Collapsed symbols of a sentence: ``(symbols, is_class)`` with one symbol per entity."""
    parts = segments(len(words), labels_to_spans(labels))
    return [words[a] if t is None else t for a, _, t in parts], [t is not None for *_, t in parts]


def _owner(n, spans):
    """Per token: the index of its span in ``spans``, or -1."""
    owner = [-1] * n
    for k, (_, a, b) in enumerate(spans):
        for i in range(a, b):
            owner[i] = k
    return owner


#: untagged tokens a relabelled segment may not hold: brackets (an abbreviation in
#: parentheses is a mention of its own) and sentence punctuation
BARRIERS = frozenset({"(", ")", "[", "]", "{", "}", ";", ":", "."})


def _name_like(word):
    """Whether an untagged token may begin or end a segment: alphanumeric, not lower case."""
    return any(ch.isalnum() for ch in word) and not word.islower()


def _segments(words, spans, owner, k, max_gap):
    """Candidate ``(i, j)`` around entity ``k``: O-tokens ``i < a``, ``j >= b`` as head and tail.

    Between them lie only untagged tokens (at most ``max_gap`` on each side of
    the entity, none of them in :data:`BARRIERS`) and entities of the same class;
    the segment does not begin or end with an untagged lower-case word or
    punctuation (``the heptamer``, ``receptor levels``, ``promoter ,``: a
    determiner, a noun after a name or a comma is no part of it).
    """
    c, a, b = spans[k]

    def reachable(i, step):
        """Untagged positions from ``i`` on in direction ``step``, over same-class entities."""
        out, gap = [], 0
        while 0 <= i < len(words):
            o = owner[i]
            if o >= 0:
                if spans[o][0] != c:
                    break
                i = spans[o][1] - 1 if step < 0 else spans[o][2]  # jump over the entity
                continue
            out.append(i)
            gap += 1
            if words[i] in BARRIERS or gap > max_gap:
                break
            i += step
        return out

    heads, tails = reachable(a - 1, -1), reachable(b, 1)
    heads = [i for i in heads if owner[i + 1] >= 0 or _name_like(words[i + 1])]
    tails = [j for j in tails if owner[j - 1] >= 0 or _name_like(words[j - 1])]
    return [(i, j) for i in heads for j in tails]


class PatternPostProcessor(PostprocessStep):
    """Relabel the text between a pattern's head and tail words as one entity (NERBio).

    Patterns ``head <class> tail`` are induced by Smith-Waterman alignment of
    pairs of training sentences with their entities collapsed to class
    symbols, and kept when their error ratio on held-out training documents
    is at most ``tau``.  At prediction, where a kept pattern's head and tail
    words enclose a predicted entity of its class, and the untagged tokens
    between them make up less than ``zeta`` of that segment, the segment
    becomes one entity of the class (it joins coordinated mentions: ``CD4 and
    CD8 mature T cells``).

    Parameters
    ----------
    tau : float, default=0.2
        Largest error ratio of a kept pattern.  Read at prediction: a fitted
        step re-filters its patterns after ``set_params(tau=...)``.
    zeta : float, default=0.4
        A segment is relabelled when its gap ratio (untagged tokens / tokens)
        is below this (the paper's example: 0.4).  Read at prediction.
    max_gap : int, default=4
        Most untagged tokens between the head (or tail) word and the entity.
    join_entities : bool, default=False
        Also relabel segments holding several predicted entities (joining
        ``IL-4 and IL-10``).  Off by default: JNLPBA annotates coordinated
        complete names as separate mentions, and on its development split
        joining them cost F1; the default extends one entity over the
        untagged tokens the pattern encloses (``CD4 and [CD8 T cells]``).
        Read at prediction.
    dev_fraction : float, default=0.1
        Share of the training documents (the last ones) held out to measure
        the patterns' error ratios; the patterns are induced on the rest.
    max_partners : int, default=5
        Candidate pairs: each sentence is aligned with this many others that
        share one of its ``word <class>`` or ``<class> word`` keys (per key).
    min_support : int, default=1
        Fewest aligned pairs giving a pattern.
    lowercase : bool, default=False
        Compare words case-insensitively.
    random_state : int, RandomState or None, default=0
        Order of the sentences within a key when pairing them.

    Attributes
    ----------
    patterns_ : list of Pattern
        The patterns kept with the ``tau`` of ``fit``, most supported first;
        ``str(p)`` reads ``"head <class> tail"``.
    n_induced_ : int
        Distinct patterns induced (support at least ``min_support``).
    n_pairs_ : int
        Candidate sentence pairs aligned.
    induction_seconds_ : float
        Wall seconds of pairing and alignment.

    Examples
    --------
    >>> from skbioner.datasets import load_jnlpba_sample
    >>> from skbioner.postprocess import PatternPostProcessor
    >>> train = load_jnlpba_sample("train")
    >>> step = PatternPostProcessor(tau=0.5).fit(train.X, train.y)
    >>> step.n_induced_ > len(step.patterns_) > 0
    True
    >>> str(step.patterns_[0]).count("<")
    1
    """

    _parameter_constraints = {
        "tau": [Interval(Real, 0, 1, closed="both")],
        "zeta": [Interval(Real, 0, 1, closed="right")],
        "max_gap": [Interval(Integral, 0, None, closed="left")],
        "join_entities": ["boolean"],
        "dev_fraction": [Interval(Real, 0, 1, closed="neither")],
        "max_partners": [Interval(Integral, 1, None, closed="left")],
        "min_support": [Interval(Integral, 1, None, closed="left")],
        "lowercase": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(self, tau=0.2, zeta=0.4, max_gap=4, join_entities=False, dev_fraction=0.1,
                 max_partners=5, min_support=1, lowercase=False, random_state=0):
        self.tau = tau
        self.zeta = zeta
        self.max_gap = max_gap
        self.join_entities = join_entities
        self.dev_fraction = dev_fraction
        self.max_partners = max_partners
        self.min_support = min_support
        self.lowercase = lowercase
        self.random_state = random_state

    def _words(self, s):
        return [w.lower() for w in s] if self.lowercase else list(s)

    def fit(self, X, y):
        """Induce the patterns on most of ``X`` and measure them on the held-out documents.

        Parameters
        ----------
        X : list of Sentence
            Training sentences (document ids in ``doc_id``).
        y : list of list of str
            IOB2 labels.

        Returns
        -------
        self : PatternPostProcessor
        """
        from sklearn.utils import check_random_state

        self._validate_params()
        rng = check_random_state(self.random_state)
        train, held = holdout_split(X, self.dev_fraction)
        t0 = time.perf_counter()
        classes = sorted({lab[2:] for labels in y for lab in labels if lab != "O"})
        cid = {c: k for k, c in enumerate(classes)}
        vocab = {}
        seqs = []
        keys = defaultdict(list)
        for s_idx, i in enumerate(train):
            sym, is_cls = _collapse(self._words(X[i]), y[i])
            ids = np.empty(len(sym), dtype=np.int32)
            for p, (v, c) in enumerate(zip(sym, is_cls)):
                ids[p] = cid[v] if c else vocab.setdefault(v, len(classes) + len(vocab))
            seqs.append(ids)
            seen = set()
            for p, c in enumerate(is_cls):
                if not c:
                    continue
                if p > 0 and not is_cls[p - 1]:
                    seen.add((int(ids[p - 1]), int(ids[p]), 0))
                if p + 1 < len(ids) and not is_cls[p + 1]:
                    seen.add((int(ids[p]), int(ids[p + 1]), 1))
            for key in seen:
                keys[key].append(s_idx)
        pairs = []
        for members in keys.values():
            if len(members) < 2:
                continue
            order = np.asarray(members, dtype=np.int64)[rng.permutation(len(members))]
            for d in range(1, min(self.max_partners, len(order) - 1) + 1):
                pairs.append(np.stack([order[:-d], order[d:]], axis=1))
        if pairs:
            pairs = np.concatenate(pairs)
            pairs = np.sort(pairs, axis=1)
            pairs = np.unique(pairs, axis=0)
        else:
            pairs = np.zeros((0, 2), dtype=np.int64)
        offsets = np.zeros(len(seqs) + 1, dtype=np.int64)
        np.cumsum([s.size for s in seqs], out=offsets[1:])
        seq = np.concatenate(seqs) if seqs else np.zeros(0, dtype=np.int32)
        triples, counts = align_pairs(seq, offsets, pairs, len(classes))
        mask = np.arange(MAX_PER_PAIR)[None, :] < counts[:, None]
        found = triples[mask]
        self.n_pairs_ = int(pairs.shape[0])
        words = np.empty(len(vocab) + len(classes), dtype=object)
        for w, k in vocab.items():
            words[k] = w
        support = {}
        if found.size:
            uniq, cnt = np.unique(found, axis=0, return_counts=True)
            for (h, c, t), n in zip(uniq.tolist(), cnt.tolist()):
                if n >= self.min_support:
                    support[(words[h], classes[c], words[t])] = n
        self.induction_seconds_ = time.perf_counter() - t0
        self.n_induced_ = len(support)
        # error ratios on the held-out documents
        right, wrong = defaultdict(int), defaultdict(int)
        for i in held:
            w = self._words(X[i])
            spans = labels_to_spans(y[i])
            owner = _owner(len(w), spans)
            fired = {}
            for k, (c, _, _) in enumerate(spans):
                for hi, tj in _segments(w, spans, owner, k, self.max_gap):
                    key = (w[hi], c, w[tj])
                    if key in support:
                        fired[(hi, tj, c)] = key
            for (hi, tj, c), key in fired.items():
                exact = any(a == hi + 1 and b == tj and t == c for t, a, b in spans)
                (right if exact else wrong)[key] += 1
        table = {}
        for key, n in support.items():
            dev = right[key] + wrong[key]
            ratio = wrong[key] / dev if dev else float("nan")
            table[key] = Pattern(*key, n, dev, ratio)
        self._table = table
        self.patterns_ = self.get_patterns(self.tau)
        return self

    def get_patterns(self, tau=None):
        """The patterns kept at error ratio ``tau``, most supported first.

        Parameters
        ----------
        tau : float, optional
            Largest error ratio kept (default: the ``tau`` parameter).
            Patterns that never fired on the held-out documents are not kept.

        Returns
        -------
        list of Pattern
        """
        tau = self.tau if tau is None else tau
        kept = [p for p in self._table.values() if p.dev_count and p.error_ratio <= tau]
        return sorted(kept, key=lambda p: (-p.support, -p.dev_count, str(p)))

    def correct(self, doc: LabelledDocument):
        """Join the segments that kept patterns enclose into one entity each.

        Parameters
        ----------
        doc : LabelledDocument

        Returns
        -------
        list of list of str
        """
        table, tau, zeta = self._table, self.tau, self.zeta
        out = []
        for s, labels in zip(doc.sentences, doc.labels):
            labels = list(labels)
            spans = labels_to_spans(labels)
            if not spans:
                out.append(labels)
                continue
            w = self._words(s)
            owner = _owner(len(w), spans)
            proposals = []
            for k, (c, a, b) in enumerate(spans):
                for hi, tj in _segments(w, spans, owner, k, self.max_gap):
                    p = table.get((w[hi], c, w[tj]))
                    if p is None or not p.dev_count or p.error_ratio > tau:
                        continue
                    lo, hi_ = hi + 1, tj
                    if (lo, hi_) == (a, b):
                        continue
                    n = hi_ - lo
                    if not self.join_entities and any(
                            owner[q] >= 0 and owner[q] != k for q in range(lo, hi_)):
                        continue
                    untagged = sum(1 for q in range(lo, hi_) if owner[q] < 0)
                    if untagged / n < zeta:
                        proposals.append((untagged / n, -n, lo, hi_, c))
            taken = [False] * len(w)
            for _, _, lo, hi_, c in sorted(proposals):
                if any(taken[lo:hi_]):
                    continue
                labels[lo:hi_] = ["B-" + c] + ["I-" + c] * (hi_ - lo - 1)
                taken[lo:hi_] = [True] * (hi_ - lo)
            out.append(labels)
        return out
