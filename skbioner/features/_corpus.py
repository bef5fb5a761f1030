"""A flattened view of a list of sentences: token type ids and positions.

Everything the featurizer computes per token goes through this view: the
tokens (and each annotation column) are mapped to integer *type ids* in one
pass, and the neighbours of every token are found with array arithmetic
(``shifted_types``), so no Python code runs per token afterwards.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain, repeat

import numpy as np

from .._sentence import Sentence, _preview, as_sentence, check_sentences

__all__ = ["Corpus", "factorize", "memo"]

_COLUMNS = operator.attrgetter("_cols")  # a Sentence's annotation columns (name -> tuple)


def memo(store, key=None):
    """Method decorator: results kept in the instance's dict attribute ``store``.

    Keyed by ``key(*args)``; by default by the first argument (later ones, such as
    names for an error message, do not change the result).
    """

    def decorate(method):
        @functools.wraps(method)
        def cached(self, *args, **kwargs):
            k = args[0] if key is None else key(*args)
            cache = getattr(self, store)
            try:
                return cache[k]
            except KeyError:
                out = cache[k] = method(self, *args, **kwargs)
                return out

        return cached

    return decorate


def factorize(values: list) -> tuple[list, np.ndarray]:
    """Map a list of hashable values to ``(distinct values, int64 ids)``.

    Distinct values are in order of first occurrence.
    """
    index = dict.fromkeys(values)
    distinct = list(index)
    index = dict(zip(distinct, range(len(distinct)), strict=True))
    ids = np.fromiter(map(index.__getitem__, values), dtype=np.int64, count=len(values))
    return distinct, ids


class Corpus:
    """Flattened sentences of one ``fit``/``transform`` call.

    Parameters
    ----------
    X : list of sentences
        Each a :class:`~skbioner.Sentence` or a sequence of token strings.
        Never modified.

    Attributes
    ----------
    sentences : list
        The sentences (the objects passed in, not copies).
    lengths : ndarray of shape (n_sentences,), dtype int64
    offsets : ndarray of shape (n_sentences + 1,), dtype int64
    n_tokens : int
    """

    def __init__(self, X):
        if isinstance(X, str | bytes | Mapping) or not isinstance(X, Iterable):
            hint = "; pass corpus.X" if hasattr(X, "X") else ""
            raise TypeError(
                "X must be a list of sentences (each a list of token strings), got "
                f"{type(X).__name__}{hint}"
            )
        sentences = list(X)
        for i, s in enumerate(sentences):
            if isinstance(s, str | bytes) or not isinstance(s, Sequence):
                try:
                    sentences[i] = as_sentence(s)
                except TypeError as exc:
                    raise TypeError(f"X[{i}]: {exc}") from None
        self.sentences = sentences
        # every sentence a Sentence (not a subclass): their columns read by C loops
        self._all_sentences = set(map(type, sentences)) <= {Sentence}
        self.lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        self.offsets = np.zeros(len(sentences) + 1, dtype=np.int64)
        np.cumsum(self.lengths, out=self.offsets[1:])
        self.n_tokens = int(self.offsets[-1])
        self._columns = {}
        self._shift_index = {}
        self._shifted = {}
        self._ext = {}
        self._ext_types = {}
        self.column("word")

    # -- columns -------------------------------------------------------------

    def has_column(self, name: str) -> np.ndarray:
        """Boolean array: which sentences carry annotation column ``name``."""
        if self._all_sentences and name != "word":  # the common case, by C loops
            return np.fromiter(map(operator.contains, map(_COLUMNS, self.sentences),
                                   repeat(name)), dtype=bool, count=len(self.sentences))
        return np.fromiter(
            (isinstance(s, Sentence) and s.has(name) for s in self.sentences),
            dtype=bool,
            count=len(self.sentences),
        )

    def annotation_names(self) -> set[str]:
        """Names of the annotation columns present in any sentence."""
        names = set()
        for s in self.sentences:
            if isinstance(s, Sentence):
                names.update(s._cols)
        return names

    @memo("_columns")
    def column(self, name: str, group: str | None = None, kind: str | None = None
               ) -> tuple[list, np.ndarray]:
        """Distinct values of a column and the type id of every token.

        Parameters
        ----------
        name : str
            ``"word"`` for the tokens, otherwise an annotation column.
        group, kind : str, optional
            Feature group asking for it and its kind, named in the error if
            a sentence lacks the column.

        Returns
        -------
        types : list of str
        ids : ndarray of shape (n_tokens,), dtype int64
        """
        if name == "word":
            values = list(chain.from_iterable(self.sentences))
        else:
            present = self.has_column(name)
            if not present.all():
                i = int(np.flatnonzero(~present)[0])
                s = self.sentences[i]
                have = sorted(s._cols) if isinstance(s, Sentence) else []
                who = f" (kind {kind!r}) needs" if kind else " needs"
                who = f"feature group {group!r}{who}" if group else "needs"
                raise ValueError(
                    f"{who} annotation column {name!r}, which X[{i}] does not have "
                    f"(its annotations: {have or 'none'}): {_preview(s)}"
                )
            if self._all_sentences:  # every one has the column (checked above)
                values = list(chain.from_iterable(map(operator.itemgetter(name),
                                                      map(_COLUMNS, self.sentences))))
            else:
                values = list(chain.from_iterable(s.column(name) for s in self.sentences))
        try:
            types, ids = factorize(values)
        except TypeError:
            self._raise_bad_value(name)
        if not all(isinstance(t, str) and t for t in types):
            self._raise_bad_value(name)
        return types, ids

    def _raise_bad_value(self, name):
        if name == "word":
            check_sentences(self.sentences)
        for i, s in enumerate(self.sentences):
            for j, v in enumerate(s.column(name)):
                if not isinstance(v, str) or not v:
                    exc = ValueError if isinstance(v, str) else TypeError
                    raise exc(
                        f"X[{i}] annotation {name!r}[{j}] must be a non-empty str, got {v!r}: "
                        f"{_preview(s)}"
                    )
        raise TypeError(f"column {name!r} has a value that is not a str")  # pragma: no cover

    # -- positions -----------------------------------------------------------

    @memo("_shift_index")
    def shift_index(self, k: int) -> np.ndarray:
        """Index of token ``i + k`` for every token ``i``, ``-1`` outside its sentence."""
        idx = np.arange(k, self.n_tokens + k, dtype=np.int64)
        if k != 0:
            pos, slen = self._positions
            inside = (pos + k >= 0) & (pos + k < slen)
            idx[~inside] = -1
        return idx

    @functools.cached_property
    def _positions(self):
        """Each token's position in its sentence, and its sentence's length."""
        starts = np.repeat(self.offsets[:-1], self.lengths)
        return (np.arange(self.n_tokens, dtype=np.int64) - starts,
                np.repeat(self.lengths, self.lengths))

    @memo("_shifted", key=lambda name, k: (name, k))
    def shifted_types(self, name: str, k: int) -> np.ndarray:
        """Type id of token ``i + k`` in column ``name`` for every token ``i``.

        Positions before the sentence get ``n_types`` (the BOS padding row)
        and after it ``n_types + 1`` (EOS).
        """
        types, ids = self.column(name)
        if k == 0:
            return ids
        idx = self.shift_index(k)
        inside = idx >= 0
        out = np.full(self.n_tokens, len(types) + (0 if k < 0 else 1), dtype=np.int64)
        out[inside] = ids[idx[inside]]
        return out

    # -- padded ("extended") positions ----------------------------------------

    @memo("_ext")
    def ext_layout(self, margin: int) -> tuple[int, np.ndarray, np.ndarray]:
        """Positions of the sentences padded with ``margin`` slots on each side.

        Sentence ``s`` occupies extended positions ``ext_offsets[s]`` to
        ``ext_offsets[s + 1]``: ``margin`` BOS slots, its tokens, ``margin``
        EOS slots.  Token ``i`` at offset ``k`` (``|k| <= margin``) is at
        extended position ``token_pos[i] + k``.

        Returns
        -------
        total : int
        token_pos : ndarray of int64, shape (n_tokens,)
        before : ndarray of bool, shape (total,)
            True on the BOS slots.
        """
        n_sent = len(self.sentences)
        ext_lengths = self.lengths + 2 * margin
        ext_offsets = np.zeros(n_sent + 1, dtype=np.int64)
        np.cumsum(ext_lengths, out=ext_offsets[1:])
        total = int(ext_offsets[-1])
        sent = np.repeat(np.arange(n_sent, dtype=np.int64), self.lengths)
        token_pos = np.arange(self.n_tokens, dtype=np.int64) + 2 * margin * sent + margin
        local = np.arange(total, dtype=np.int64) - np.repeat(ext_offsets[:-1], ext_lengths)
        return total, token_pos, local < margin

    @memo("_ext_types", key=lambda name, margin: (name, margin))
    def ext_types(self, name: str, margin: int) -> np.ndarray:
        """Type ids of column ``name`` on the extended positions (BOS/EOS padding ids)."""
        types, ids = self.column(name)
        total, token_pos, before = self.ext_layout(margin)
        out = np.full(total, len(types) + 1, dtype=np.int64)
        out[before] = len(types)
        out[token_pos] = ids
        return out
