"""``BrownClusterer``: Brown clusters of unlabeled text as bit strings (the ``brown`` column)."""

from __future__ import annotations

import time

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from .._progress import log, progress_bar
from .._sentence import check_sentences
from .._validation import ColumnName, Integral, Interval, StrOptions
from ..base import SentenceTransformerMixin
from ._word_classes import NORMALIZATIONS, _ClassTable, _pairs, count_corpus

__all__ = ["BrownClusterer"]


def _bit_strings(owner, merges, n_leaf_merges):
    """Each leaf slot's path in the tree of the final merges ("0": kept side, "1": absorbed)."""
    final = merges[n_leaf_merges:]
    node = {}  # slot -> current subtree (a leaf slot id or a (left, right) tuple)
    for s in np.unique(owner).tolist():
        node[s] = ("leaf", s)
    for a, b in final.tolist():
        node[a] = (node[a], node[b])
        del node[b]
    codes = {}
    if not node:
        return codes
    (root,) = node.values()
    stack = [(root, "")]
    while stack:
        tree, path = stack.pop()
        if tree[0] == "leaf":
            codes[tree[1]] = path or "0"
        else:
            stack.append((tree[0], path + "0"))
            stack.append((tree[1], path + "1"))
    return codes


class BrownClusterer(
    _ClassTable, SentenceTransformerMixin, TransformerMixin, BaseEstimator,
    auto_wrap_output_keys=None,
):
    """Brown clusters learned on unlabeled sentences, added as bit strings.

    Liang's (2005) form of Brown et al.'s (1992) algorithm: the words, most
    frequent first, enter a window of ``n_clusters`` clusters one at a
    time, and after each entry the two clusters whose merge loses the least
    average mutual information between adjacent clusters are merged; the
    final ``n_clusters`` are then merged into one tree.  A word's class is
    its leaf's path in that tree (``"0110..."``): prefixes of the path are
    coarser classes, which is how the ``"chan"`` features read the
    ``brown`` column (prefixes of 4, 6, 10 and 20 bits).  Compiled
    (numba); ``tests/annotate/brown_oracle.py`` is the slow oracle it
    agrees with.

    Parameters
    ----------
    n_clusters : int, default=256
        Leaf clusters (the window).  Cost grows about as ``n_clusters**2``
        per word (256 on 10.8M tokens, 70,645 words: 85 s of one core).
    min_count : int, default=3
        Words (after normalization) seen fewer times get no class.
    normalize : {"none", "lower", "lower-digits"}, default="lower-digits"
        See :func:`normalize_word`.
    annotation : str, default="brown"
        Name of the column :meth:`transform` adds.
    verbose : int, default=0
        Progress on stderr.

    Attributes
    ----------
    columns_ : tuple of str
        ``(annotation,)``.
    n_words_ : int
        Words with a class.
    losses_ : ndarray of float64
        The AMI (nats) lost by each merge, in order.
    n_tokens_ : int
        Training tokens.

    Examples
    --------
    >>> from skbioner.annotate import BrownClusterer
    >>> X = [["the", "cells", "express", "IL-2"], ["the", "cells", "express", "IL-4"],
    ...      ["a", "gene", "encodes", "IL-4"]] * 5
    >>> brown = BrownClusterer(n_clusters=4, min_count=1).fit(X)
    >>> codes = brown.classes_of(["IL-2", "IL-7", "unseen"])["brown"]
    >>> codes[0] == codes[1], codes[2]  # "lower-digits": il-0 for both
    (True, '<unk>')
    """

    _parameter_constraints = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "min_count": [Interval(Integral, 1, None, closed="left")],
        "normalize": [StrOptions(set(NORMALIZATIONS))],
        "annotation": [ColumnName()],
        "verbose": ["verbose"],
    }

    def __init__(self, n_clusters=256, min_count=3, normalize="lower-digits",
                 annotation="brown", verbose=0):
        self.n_clusters = n_clusters
        self.min_count = min_count
        self.normalize = normalize
        self.annotation = annotation
        self.verbose = verbose

    def fit(self, X, y=None):
        """Cluster the words of unlabeled sentences.

        Parameters
        ----------
        X : list of sentences
        y : None
            Ignored.

        Returns
        -------
        self : BrownClusterer
        """
        import scipy.sparse as sp

        from ._brown_kernel import brown_merges

        self._validate_params()
        sentences = check_sentences(X)
        t0 = time.perf_counter()
        words, counts, ids, offsets = count_corpus(sentences, self.normalize, self.min_count)
        if not words:
            raise ValueError(f"no word occurs min_count={self.min_count} times in X")
        left, right = _pairs(ids, offsets, 1)
        V = len(words)
        bigrams = sp.csr_matrix((np.ones(left.shape[0]), (left, right)), shape=(V, V))
        bigrams.sum_duplicates()
        log(self, f"{ids.shape[0]:,} tokens, {V:,} words with >= "
                  f"{self.min_count} occurrences, {bigrams.nnz:,} distinct bigrams "
                  f"({time.perf_counter() - t0:.1f} s)")
        with progress_bar(V, "brown clustering", 1 if self.verbose else 0, unit="word") as bar:
            owner, merges, losses, n_leaf = brown_merges(
                bigrams, counts, ids.shape[0], min(self.n_clusters, V),
                chunk=max(1, min(2000, V // 50 or 1)), callback=bar.update)
        codes = _bit_strings(owner, merges, n_leaf)
        self._set_table(words, {self.annotation: [codes[s] for s in owner.tolist()]},
                        self.normalize)
        self.losses_ = losses
        self.n_tokens_ = int(ids.shape[0])
        log(self, f"{min(self.n_clusters, V)} clusters in {time.perf_counter() - t0:.1f} s")
        return self
