"""The one linear-chain core every sequence model of the suite shares.

A chain over ``L`` labels scores a label sequence ``y`` of a sentence whose
tokens have sparse feature rows ``x_i``::

    score(x, y) = start[y_0] + sum_i x_i . W[:, y_i] + sum_i T[y_{i-1}, y_i] + end[y_-1]

Multiple segment representations (Cho et al. 2013) live in the same
structure: the weight matrix has one block of columns per scheme, and every
label of the main scheme owns one column in each block (``cols[l, k]``, the
label's projection into scheme ``k``).  The score of main label ``l`` sums
its columns; transitions likewise sum the per-block transition weights of
the projected label pairs.  :meth:`ChainWeights.fold` adds the blocks into a
single-block chain that gives identical scores, so a multi-scheme model tags
at the cost of a single-scheme one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..decoding import NEG
from ..schemes import check_scheme, convert, projection_table, scheme_labels, transition_mask

__all__ = ["LabelSpace", "ChainWeights"]


_MASKS = {}  # (scheme, labels) -> transition_mask's boolean arrays, read only


@dataclass(frozen=True)
class LabelSpace:
    """Labels of a main scheme and their projections into extra schemes.

    Usually made by :meth:`build`, which derives the labels and columns.

    Parameters
    ----------
    scheme : str or None
        The main scheme (decoding happens in it); None for plain tags
        (part of speech, chunks): every label is its own class and no
        transition is forbidden.
    extra_schemes : tuple of str
        Further schemes, each with its own block of weight columns.
    types : tuple of str
        Entity types (with ``scheme=None``: the labels).
    labels : tuple of str
        Labels of the main scheme (``scheme_labels(scheme, types)``).
    cols : ndarray of int64, shape (n_labels, 1 + len(extra_schemes))
        Column of each main label in each weight block.
    column_labels : tuple of str
        ``"<scheme>:<label>"`` for every column of the weight matrix.
    """

    scheme: str
    extra_schemes: tuple
    types: tuple
    labels: tuple
    cols: np.ndarray
    column_labels: tuple

    @classmethod
    def build(cls, scheme, types, extra_schemes=()):
        """The label space of ``scheme`` over entity ``types``.

        Parameters
        ----------
        scheme : str or None
            The main scheme; None for plain tags (``types`` are then the labels).
        types : iterable of str
            Entity types (or, with ``scheme=None``, the labels).
        extra_schemes : sequence of str, default=()
            Further schemes, distinct and different from ``scheme``, each
            given its own block of weight columns.

        Returns
        -------
        LabelSpace
            Labels sorted canonically, with the columns of every block.
        """
        if scheme is None:
            # plain tags (POS, chunks...): every label is a class of its own
            if extra_schemes:
                raise ValueError("extra_schemes need a segment scheme; scheme=None has none")
            labels = tuple(sorted(set(types)))
            return cls(None, (), labels, labels,
                       np.arange(len(labels), dtype=np.int64)[:, None], labels)
        scheme = check_scheme(scheme)
        extra = tuple(check_scheme(s) for s in extra_schemes)
        if len(set(extra)) != len(extra) or scheme in extra:
            raise ValueError(
                f"extra_schemes must be distinct and differ from scheme={scheme!r}: {extra}"
            )
        types = tuple(sorted(set(types)))
        labels = tuple(scheme_labels(scheme, types))
        cols = [np.arange(len(labels), dtype=np.int64)]
        column_labels = [f"{scheme}:{lab}" for lab in labels]
        for s in extra:
            _, dst, index = projection_table(scheme, s, types)
            cols.append(len(column_labels) + index.astype(np.int64))
            column_labels += [f"{s}:{lab}" for lab in dst]
        return cls(scheme, extra, types, labels, np.stack(cols, axis=1), tuple(column_labels))

    @property
    def n_labels(self) -> int:
        return len(self.labels)

    @property
    def n_columns(self) -> int:
        return len(self.column_labels)

    def encode(self, y, from_scheme="IOB2"):
        """Flat int64 codes of the label sequences ``y`` (given in ``from_scheme``).

        Parameters
        ----------
        y : list of list of str
            Label sequences, one per sentence.
        from_scheme : str, default="IOB2"
            Scheme of ``y`` (ignored with ``scheme=None``: plain labels).

        Returns
        -------
        ndarray of int64, shape (n_tokens_total,)
            Index into :attr:`labels` of each token's label (in the main
            scheme), sentences concatenated.

        Raises
        ------
        ValueError
            If a label or entity type is unknown to the label space.
        """
        index = {lab: i for i, lab in enumerate(self.labels)}
        codes = []
        for i, labels in enumerate(y):
            conv = labels if self.scheme is None else convert(labels, from_scheme, self.scheme)
            try:
                codes.extend(index[lab] for lab in conv)
            except KeyError as exc:
                known = "labels" if self.scheme is None else "entity types"
                raise ValueError(
                    f"y[{i}] has label {exc.args[0]!r}, unknown to this model "
                    f"({known} {list(self.types)})"
                ) from None
        return np.asarray(codes, dtype=np.int64)

    def decode(self, codes, offsets, to_scheme="IOB2", well_formed=False):
        """Label lists (in ``to_scheme``) of flat codes split at ``offsets``.

        With ``well_formed=True`` (the codes come from constrained decoding)
        and a label-wise projection from the model's scheme to
        ``to_scheme``, labels are mapped by table lookup; otherwise each
        sentence is converted through its spans (same result on well-formed
        input, see :func:`skbioner.schemes.projection_table`).

        Parameters
        ----------
        codes : ndarray of int, shape (n_tokens_total,)
            Index into :attr:`labels` of each token's label.
        offsets : array-like of int, shape (n_sentences + 1,)
            Sentence ``i`` occupies ``codes[offsets[i]:offsets[i + 1]]``.
        to_scheme : str, default="IOB2"
            Scheme of the returned labels (ignored with ``scheme=None``).
        well_formed : bool, default=False
            Whether the codes are known to be well formed in the main scheme,
            which allows the label-wise table lookup.

        Returns
        -------
        list of list of str
            The labels of each sentence.
        """
        offsets = np.asarray(offsets)
        labels = self.labels
        if self.scheme is not None:
            try:
                if not well_formed:
                    raise ValueError
                _, labels, index = projection_table(self.scheme, to_scheme, self.types)
                codes = index[codes]
            except ValueError:
                labels = np.asarray(self.labels, dtype=object)[codes]
                return [convert(list(labels[a:b]), self.scheme, to_scheme)
                        for a, b in zip(offsets[:-1], offsets[1:])]
        flat = np.asarray(labels, dtype=object)[codes].tolist()
        return [flat[a:b] for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist())]

    def masked(self, trans, start, end, constrained=True):
        """``trans``, ``start`` and ``end`` plus :meth:`mask` (as given if not ``constrained``)."""
        if not constrained:
            return trans, start, end
        mstart, mtrans, mend = self.mask()
        return trans + mtrans, start + mstart, end + mend

    def mask(self):
        """Additive mask of the main scheme's forbidden transitions: 0, or
        :data:`~skbioner.decoding.NEG` (finite, as the compiled decoders want).

        Returns
        -------
        start, trans, end : ndarray of shape (n_labels,), (n_labels, n_labels), (n_labels,)
        """
        if self.scheme is None:
            L = self.n_labels
            return np.zeros(L), np.zeros((L, L)), np.zeros(L)
        key = (self.scheme, tuple(self.labels))
        if key not in _MASKS:  # built once: an epoch of a 16-type BIES model asked for it
            _MASKS[key] = transition_mask(*key)  # in Python, 20% of a 270-sentence fit
        return tuple(np.where(m, 0.0, NEG) for m in _MASKS[key])


@dataclass
class ChainWeights:
    """Weights of a linear chain over the columns of a :class:`LabelSpace`.

    The one owner of averaging and folding: training keeps the running
    weights and the averaging accumulator as two ``ChainWeights``, and
    :meth:`fold` turns them into the single-block (averaged) weights that
    prediction uses.

    Parameters
    ----------
    W : ndarray of shape (n_features, n_columns)
        State weights, one row per feature.
    T : ndarray of shape (n_columns, n_columns)
        Transition weights (only within-block entries are used).
    start, end : ndarray of shape (n_columns,)
        Weights of beginning / ending a sentence with each column's label.
    """

    W: np.ndarray
    T: np.ndarray
    start: np.ndarray
    end: np.ndarray

    @classmethod
    def zeros(cls, n_features, n_columns, dtype=np.float64):
        """All-zero weights (float32 halves the memory of a training state).

        Parameters
        ----------
        n_features : int
            Number of feature rows of ``W``.
        n_columns : int
            Number of label columns (:attr:`LabelSpace.n_columns`).
        dtype : numpy dtype, default=np.float64
            Dtype of all four arrays.

        Returns
        -------
        ChainWeights
            Zero ``W``, ``T``, ``start`` and ``end``.
        """
        return cls(
            np.zeros((n_features, n_columns), dtype=dtype),
            np.zeros((n_columns, n_columns), dtype=dtype),
            np.zeros(n_columns, dtype=dtype),
            np.zeros(n_columns, dtype=dtype),
        )

    def fold(self, cols, acc=None, t=0, chunk=65536):
        """Single-block float64 weights over the main labels, giving identical scores.

        ``W_fold[:, l] = sum_k W[:, cols[l, k]]`` and
        ``T_fold[a, b] = sum_k T[cols[a, k], cols[b, k]]``.  With an
        accumulator ``acc`` and ``t`` updates, the weights folded are the
        averaged ones, ``self - acc / t`` (Collins 2002).  Rows are processed
        in chunks: no full-size float64 copy of the unfolded weights is made.

        Parameters
        ----------
        cols : ndarray of int, shape (n_labels, n_blocks)
            :attr:`LabelSpace.cols`.
        acc : ChainWeights, optional
            Averaging accumulator (see :mod:`._passive_aggressive`).
        t : int, default=0
            Number of updates the accumulator covers (0: no averaging).
        chunk : int, default=65536
            Rows per chunk.

        Returns
        -------
        ChainWeights
        """
        cols = np.asarray(cols)
        scale = 1.0 / t if acc is not None and t > 0 else 0.0
        L = cols.shape[0]
        W = np.zeros((self.W.shape[0], L))
        for lo in range(0, self.W.shape[0], chunk):
            rows = slice(lo, lo + chunk)
            block = _minus(self.W[rows], None if acc is None else acc.W[rows], scale)
            for k in range(cols.shape[1]):
                W[rows] += block[:, cols[:, k]]
        T, start, end = (_minus(getattr(self, n), None if acc is None else getattr(acc, n), scale)
                         for n in ("T", "start", "end"))
        Tf, sf, ef = np.zeros((L, L)), np.zeros(L), np.zeros(L)
        for k in range(cols.shape[1]):
            c = cols[:, k]
            Tf += T[np.ix_(c, c)]
            sf += start[c]
            ef += end[c]
        return ChainWeights(W, Tf, sf, ef)


def _minus(x, acc, scale):
    """``x - scale * acc`` in float64 (``x`` alone when there is nothing to average)."""
    x = np.asarray(x, dtype=np.float64)
    if acc is None or not scale:
        return x
    return x - scale * np.asarray(acc, dtype=np.float64)
