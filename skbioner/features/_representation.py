"""``SentenceFeatures``: the sparse token-feature matrix of a list of sentences."""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

__all__ = ["SentenceFeatures"]


class SentenceFeatures:
    """Token features of a list of sentences, stacked into one CSR matrix.

    Row ``j`` of :attr:`matrix` is one token; sentence ``i`` occupies rows
    ``offsets[i]:offsets[i + 1]``.  A sequence model computes all emission
    scores at once as ``features.matrix @ W`` and splits them by
    :attr:`offsets`.

    The object behaves as a sequence of sentences: ``len()`` is the number
    of sentences and indexing with an int, a slice, or an integer or
    boolean array of sentence indices returns a new ``SentenceFeatures``
    (so sklearn's model-selection utilities can split it by sentence; for
    them :attr:`shape` is ``(n_sentences,)``).

    What the models need of the sentences beyond their features travels
    along: the document id of every sentence (:attr:`doc_ids`) and the
    annotation columns of the tokens (:attr:`columns`, e.g. ``"pos"``, which
    the pairwise SVM splits its outside class by).

    Parameters
    ----------
    matrix : scipy.sparse matrix of shape (n_tokens, n_features)
        Converted to ``csr_matrix`` if needed (no copy when it already is).
    offsets : array-like of int of shape (n_sentences + 1,)
        Non-decreasing, ``offsets[0] == 0`` and ``offsets[-1] == n_tokens``.
    doc_ids : array-like of shape (n_sentences,), default=None
        Document id of each sentence (None entries for unknown ones).
    columns : dict of str -> array-like of shape (n_tokens,), default=None
        Token annotation columns, one value per row of ``matrix``.

    Attributes
    ----------
    matrix : scipy.sparse.csr_matrix of shape (n_tokens, n_features)
    offsets : ndarray of int64 of shape (n_sentences + 1,)
    doc_ids : ndarray of object, shape (n_sentences,), or None
    columns : dict of str -> ndarray of object, shape (n_tokens,)

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> f = SentenceFeatures(sp.identity(5, format="csr"), [0, 2, 5])
    >>> len(f), f.lengths.tolist(), f.n_features
    (2, [2, 3], 5)
    >>> f[1].matrix.toarray().tolist()
    [[0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0]]
    """

    __slots__ = ("matrix", "offsets", "doc_ids", "columns")

    def __init__(self, matrix, offsets, doc_ids=None, columns=None):
        if not sp.issparse(matrix) or matrix.ndim != 2:
            raise TypeError(
                f"matrix must be a 2-D scipy sparse matrix, got {type(matrix).__name__}"
            )
        if not isinstance(matrix, sp.csr_matrix):
            matrix = sp.csr_matrix(matrix)
        offsets = np.asarray(offsets)
        if offsets.ndim != 1 or offsets.size == 0 or not np.issubdtype(offsets.dtype, np.integer):
            raise ValueError("offsets must be a non-empty 1-D integer array")
        offsets = offsets.astype(np.int64, copy=False)
        if offsets[0] != 0 or offsets[-1] != matrix.shape[0] or np.any(np.diff(offsets) < 0):
            raise ValueError(
                f"offsets must be non-decreasing from 0 to n_tokens={matrix.shape[0]}, "
                f"got {offsets[0]}..{offsets[-1]}"
            )
        doc_ids = _check_doc_ids(doc_ids, offsets.size - 1)
        cols = {}
        for name, values in (columns or {}).items():
            values = np.asarray(values, dtype=object)
            if values.shape != (matrix.shape[0],):
                raise ValueError(f"column {name!r} has shape {values.shape}, expected "
                                 f"({matrix.shape[0]},): one value per token")
            cols[name] = values
        self.matrix = matrix
        self.offsets = offsets
        self.doc_ids = doc_ids
        self.columns = cols

    # -- sizes ---------------------------------------------------------------

    def __len__(self):
        return self.offsets.size - 1

    @property
    def n_sentences(self) -> int:
        """Number of sentences."""
        return self.offsets.size - 1

    @property
    def n_tokens(self) -> int:
        """Number of tokens (rows of :attr:`matrix`)."""
        return self.matrix.shape[0]

    @property
    def n_features(self) -> int:
        """Number of feature columns."""
        return self.matrix.shape[1]

    @property
    def lengths(self) -> np.ndarray:
        """Sentence lengths, int64 array of shape (n_sentences,)."""
        return np.diff(self.offsets)

    @property
    def shape(self) -> tuple[int]:
        """``(n_sentences,)``: the sample axis as sklearn's utilities see it."""
        return (self.n_sentences,)

    # -- access --------------------------------------------------------------

    def sentence(self, i: int) -> sp.csr_matrix:
        """The ``(length_i, n_features)`` feature matrix of sentence ``i``.

        Parameters
        ----------
        i : int
            Index of the sentence (negative counts from the end).

        Returns
        -------
        scipy.sparse.csr_matrix of shape (length_i, n_features)
            The rows of the sentence's tokens.

        Raises
        ------
        IndexError
            If ``i`` is out of range.
        """
        i = self._check_int(i)
        return self.matrix[self.offsets[i] : self.offsets[i + 1]]

    def _check_int(self, i):
        n = len(self)
        i = int(i)
        if not -n <= i < n:
            raise IndexError(f"sentence index {i} out of range for {n} sentences")
        return i + n if i < 0 else i

    def __getitem__(self, key):
        if isinstance(key, tuple):
            # sklearn's _safe_indexing uses X[key, ...]
            if len(key) == 2 and key[1] is Ellipsis:
                key = key[0]
            else:
                raise IndexError("SentenceFeatures takes one index (of sentences)")
        if isinstance(key, numbers.Integral) and not isinstance(key, bool):
            i = self._check_int(key)
            return self._take_range(i, i + 1)
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            if step == 1:
                return self._take_range(start, max(start, stop))
            return self._take(np.arange(start, stop, step, dtype=np.int64))
        idx = np.asarray(key)
        if idx.dtype == bool:
            if idx.shape != (len(self),):
                raise IndexError(f"boolean index has shape {idx.shape}, expected ({len(self)},)")
            return self._take(np.flatnonzero(idx))
        if idx.size == 0:
            idx = idx.astype(np.int64)
        if idx.ndim != 1 or not np.issubdtype(idx.dtype, np.integer):
            raise IndexError(
                "SentenceFeatures can be indexed by an int, a slice, or a 1-D integer or "
                f"boolean array, got {key!r:.80}"
            )
        n = len(self)
        if idx.size and (idx.min() < -n or idx.max() >= n):
            raise IndexError(f"sentence index out of range for {n} sentences")
        return self._take(np.where(idx < 0, idx + n, idx).astype(np.int64))

    def _take_range(self, start, stop):
        lo, hi = self.offsets[start], self.offsets[stop]
        return SentenceFeatures(
            _row_block(self.matrix, lo, hi), self.offsets[start : stop + 1] - lo,
            None if self.doc_ids is None else self.doc_ids[start:stop],
            {k: v[lo:hi] for k, v in self.columns.items()},
        )

    def _take(self, idx):
        lengths = self.lengths[idx]
        offsets = np.zeros(idx.size + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        rows = np.repeat(self.offsets[idx] - offsets[:-1], lengths) + np.arange(
            offsets[-1], dtype=np.int64
        )
        return SentenceFeatures(
            self.matrix[rows], offsets, None if self.doc_ids is None else self.doc_ids[idx],
            {k: v[rows] for k, v in self.columns.items()},
        )

    def with_matrix(self, matrix):
        """The same sentences (offsets, doc ids, columns) with another feature matrix.

        Parameters
        ----------
        matrix : scipy.sparse matrix of shape (n_tokens, n_other_features)

        Returns
        -------
        SentenceFeatures
        """
        return SentenceFeatures(matrix, self.offsets, self.doc_ids, self.columns)

    def __iter__(self):
        for i in range(len(self)):
            yield self._take_range(i, i + 1)

    @classmethod
    def concatenate(cls, parts):
        """Stack several ``SentenceFeatures`` with the same number of features.

        Parameters
        ----------
        parts : iterable of SentenceFeatures
            The blocks of sentences to stack, in order; all must have the
            same ``n_features``.

        Returns
        -------
        SentenceFeatures
            The sentences of all parts; ``doc_ids`` are kept (``None`` for
            parts without them) and only the token columns every part has.
        """
        parts = list(parts)
        if not parts:
            raise ValueError("need at least one SentenceFeatures to concatenate")
        widths = {p.n_features for p in parts}
        if len(widths) != 1:
            raise ValueError(f"cannot concatenate features of different widths {sorted(widths)}")
        matrix = sp.vstack([p.matrix for p in parts], format="csr")
        at = np.cumsum([0] + [p.n_tokens for p in parts[:-1]])  # each part's first row
        ends = [p.offsets[1:] + a for p, a in zip(parts, at, strict=True)]
        offsets = np.concatenate([[0], *ends])
        doc_ids = None
        if any(p.doc_ids is not None for p in parts):
            doc_ids = np.concatenate([np.full(len(p), None, dtype=object) if p.doc_ids is None
                                      else p.doc_ids for p in parts])
        names = set.intersection(*(set(p.columns) for p in parts))
        columns = {k: np.concatenate([p.columns[k] for p in parts]) for k in sorted(names)}
        return cls(matrix, offsets, doc_ids, columns)

    def __repr__(self):
        return (
            f"SentenceFeatures(n_sentences={len(self)}, n_tokens={self.n_tokens}, "
            f"n_features={self.n_features}, nnz={self.matrix.nnz})"
        )

    def __getstate__(self):
        return {"matrix": self.matrix, "offsets": self.offsets, "doc_ids": self.doc_ids,
                "columns": self.columns}

    def __setstate__(self, state):
        self.matrix = state["matrix"]
        self.offsets = state["offsets"]
        self.doc_ids = state.get("doc_ids")
        self.columns = state.get("columns", {})


def _check_doc_ids(doc_ids, n_sentences):
    """``doc_ids`` as a 1-D object array of str/None of length ``n_sentences`` (or None)."""
    if doc_ids is None:
        return None
    if isinstance(doc_ids, str):
        raise TypeError("doc_ids must be a sequence with one id per sentence, got a str")
    out = np.empty(len(doc_ids), dtype=object)
    out[:] = list(doc_ids)
    if out.size != n_sentences:
        raise ValueError(f"doc_ids has {out.size} entries for {n_sentences} sentences")
    bad = [d for d in out.tolist() if d is not None and not isinstance(d, str)]
    if bad:
        raise TypeError(f"doc_ids must be str or None, got {bad[0]!r:.80}")
    return out


def _row_block(matrix, lo, hi):
    """Rows ``lo:hi`` of a matrix; of a CSR matrix without copying its data and indices.

    scipy copies a CSR row slice; a block of sentences (a held-out split, a batch) is
    read-only for every model of the suite, so it can share the arrays.
    """
    if not sp.issparse(matrix) or matrix.format != "csr":
        return matrix[lo:hi]
    a, b = matrix.indptr[lo], matrix.indptr[hi]
    return sp.csr_matrix(
        (matrix.data[a:b], matrix.indices[a:b], matrix.indptr[lo : hi + 1] - a),
        shape=(hi - lo, matrix.shape[1]), copy=False,
    )
