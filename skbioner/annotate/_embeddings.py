"""``EmbeddingClusterer``: k-means classes of PPMI-SVD word embeddings (``emb64``...)."""

from __future__ import annotations

import time

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import check_random_state

from .._progress import log
from .._sentence import check_sentences
from .._validation import ColumnName, Integral, Interval, StrOptions
from ..base import SentenceTransformerMixin
from ._word_classes import NORMALIZATIONS, _ClassTable, _pairs, count_corpus

__all__ = ["EmbeddingClusterer"]


def ppmi_matrix(ids, offsets, n_words, window, alpha=0.75):
    """Positive PMI of words and their contexts within ``window`` tokens (CSR, float32).

    Context counts are smoothed to the power ``alpha`` (Levy et al. 2015)
    and co-occurrences weighted by ``1 / distance`` (as word2vec's sampled
    window does on average).
    """
    import scipy.sparse as sp

    total = None
    for d in range(1, window + 1):
        a, b = _pairs(ids, offsets, d)
        w = np.full(a.shape[0], 1.0 / d, dtype=np.float32)
        m = sp.csr_matrix((np.concatenate([w, w]), (np.concatenate([a, b]),
                                                     np.concatenate([b, a]))),
                          shape=(n_words, n_words), dtype=np.float32)
        total = m if total is None else total + m
    total.sum_duplicates()
    row = np.asarray(total.sum(axis=1)).ravel()
    col = np.asarray(total.sum(axis=0)).ravel() ** alpha
    D = row.sum()
    coo = total.tocoo()
    pmi = (np.log(coo.data.astype(np.float64)) + np.log(D) + np.log(col.sum())
           - np.log(row[coo.row]) - np.log(col[coo.col]) - np.log(D))
    keep = pmi > 0
    return sp.csr_matrix((pmi[keep].astype(np.float32), (coo.row[keep], coo.col[keep])),
                         shape=total.shape)


class EmbeddingClusterer(
    _ClassTable, SentenceTransformerMixin, TransformerMixin, BaseEstimator,
    auto_wrap_output_keys=None,
):
    """k-means classes of word embeddings at several granularities, added as columns.

    The embeddings are the truncated SVD of the positive-PMI matrix of words
    and their contexts (Levy, Goldberg & Dagan 2015: ``U * S**0.5``, rows
    normalized), computed with scipy and scikit-learn only; each granularity
    ``k`` of ``n_clusters`` is a :class:`~sklearn.cluster.MiniBatchKMeans`
    of them, written as the column ``{annotation}{k}`` (``emb256``).

    Parameters
    ----------
    n_clusters : tuple of int, default=(64, 256, 1024)
        Granularities.
    n_components : int, default=100
        Embedding dimensions.
    window : int, default=2
        Context words on each side.
    min_count : int, default=3
        Words (after normalization) seen fewer times get no class.
    normalize : {"none", "lower", "lower-digits"}, default="lower-digits"
        See :func:`normalize_word`.
    annotation : str, default="emb"
        Prefix of the column names.
    random_state : int, RandomState instance or None, default=None
        Seeds the SVD and k-means.
    verbose : int, default=0

    Attributes
    ----------
    columns_ : tuple of str
        ``{annotation}{k}`` for each granularity.
    embedding_ : ndarray of float32, shape (n_words, n_components)
        The normalized word vectors (rows of ``words_``).
    n_words_ : int

    Examples
    --------
    >>> from skbioner.annotate import EmbeddingClusterer
    >>> X = [["the", "cells", "express", "IL-2"], ["the", "cells", "express", "IL-4"],
    ...      ["a", "gene", "encodes", "IL-4"]] * 5
    >>> emb = EmbeddingClusterer(n_clusters=(2, 3), n_components=2, min_count=1,
    ...                          random_state=0).fit(X)
    >>> emb.columns_
    ('emb2', 'emb3')
    """

    _parameter_constraints = {
        "n_clusters": ["array-like", Interval(Integral, 1, None, closed="left")],
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "window": [Interval(Integral, 1, None, closed="left")],
        "min_count": [Interval(Integral, 1, None, closed="left")],
        "normalize": [StrOptions(set(NORMALIZATIONS))],
        "annotation": [ColumnName()],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(self, n_clusters=(64, 256, 1024), n_components=100, window=2, min_count=3,
                 normalize="lower-digits", annotation="emb", random_state=None, verbose=0):
        self.n_clusters = n_clusters
        self.n_components = n_components
        self.window = window
        self.min_count = min_count
        self.normalize = normalize
        self.annotation = annotation
        self.random_state = random_state
        self.verbose = verbose

    def fit(self, X, y=None):
        """Embed the words of unlabeled sentences and cluster them.

        Parameters
        ----------
        X : list of sentences
        y : None
            Ignored.

        Returns
        -------
        self : EmbeddingClusterer
        """
        from sklearn.cluster import MiniBatchKMeans
        from sklearn.utils.extmath import randomized_svd

        self._validate_params()
        ks = (self.n_clusters,) if isinstance(self.n_clusters, int) else tuple(self.n_clusters)
        if not ks or any(not isinstance(k, int | np.integer) or k < 1 for k in ks):
            raise ValueError(f"n_clusters must be positive ints, got {self.n_clusters!r}")
        rng = check_random_state(self.random_state)
        sentences = check_sentences(X)
        t0 = time.perf_counter()
        words, _, ids, offsets = count_corpus(sentences, self.normalize, self.min_count)
        V = len(words)
        if V < 2:
            raise ValueError(f"fewer than two words occur min_count={self.min_count} times in X")
        pmi = ppmi_matrix(ids, offsets, V, self.window)
        log(self, f"{ids.shape[0]:,} tokens, {V:,} words, PPMI with "
                  f"{pmi.nnz:,} entries ({time.perf_counter() - t0:.1f} s)")
        k = min(self.n_components, V - 1)
        U, S, _ = randomized_svd(pmi, k, n_iter=5, random_state=rng)
        emb = (U * np.sqrt(S)).astype(np.float32)
        emb /= np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-12)
        log(self, f"SVD to {k} dimensions ({time.perf_counter() - t0:.1f} s)")
        columns = {}
        for n in ks:
            km = MiniBatchKMeans(n_clusters=min(n, V), batch_size=4096, n_init=3,
                                 random_state=rng.randint(np.iinfo(np.int32).max))
            labels = km.fit_predict(emb)
            columns[f"{self.annotation}{n}"] = [str(v) for v in labels.tolist()]
            log(self, f"{n} k-means classes ({time.perf_counter() - t0:.1f} s)")
        self._set_table(words, columns, self.normalize)
        self.embedding_ = emb
        return self
