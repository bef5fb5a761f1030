"""The unit of ``X``: one tokenised sentence with named per-token annotations."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

__all__ = ["Sentence", "as_sentence", "check_sentences"]


class Sentence(tuple):
    """A tokenised sentence: a tuple of words plus named token annotations.

    A ``Sentence`` *is* a tuple of its words, so everything that works on a
    list of token strings (``len``, iteration, indexing, sklearn-crfsuite
    style feature functions) works on it unchanged.  Token-level annotations
    such as part of speech, chunk, HMM state or a normalised word travel with
    it as named columns of the same length.

    Sentences are immutable: annotators return a new sentence through
    :meth:`with_annotations` and never modify their input.

    A sentence also knows the document it comes from (``doc_id``: the
    MEDLINE id of a JNLPBA abstract, the file stem of a brat document, the
    ``"id"`` of a JSONL record), so document-level steps (abbreviations,
    aliases, cascade rules; :mod:`skbioner.postprocess`) can group the
    sentences of one document.  The id is provenance, not content: it does
    not take part in equality.

    Parameters
    ----------
    words : iterable of str
        The tokens of the sentence.
    doc_id : str or None, default=None
        Id of the document the sentence belongs to.
    **annotations : iterable of str
        Named columns, one value per token (e.g. ``pos=["NN", "VBZ"]``).

    Attributes
    ----------
    annotations : dict of str -> tuple of str
        The named columns (a fresh dict on every access; the sentence itself
        cannot be changed through it).
    doc_id : str or None
        Id of the document the sentence belongs to.

    Examples
    --------
    >>> s = Sentence(["IL-2", "gene"], pos=["NN", "NN"])
    >>> list(s), s.column("pos")
    (['IL-2', 'gene'], ('NN', 'NN'))
    >>> s.with_annotations(norm=["IL-1", "gene"]).column("norm")
    ('IL-1', 'gene')
    """

    # No __slots__: a tuple subclass cannot have non-empty slots, so the
    # annotation columns live in the instance __dict__ as ``_cols``.

    def __new__(cls, words: Iterable[str] = (), *, doc_id: str | None = None,
                **annotations: Iterable[str]):
        self = super().__new__(cls, words)
        _check_doc_id(doc_id)
        self._cols = {name: _checked_column(self, name, values)
                      for name, values in annotations.items()}
        self.doc_id = doc_id
        return self

    def __reduce__(self):
        return (_rebuild, (tuple(self), self._cols, self.doc_id))

    @property
    def words(self) -> tuple[str, ...]:
        """The tokens as a plain tuple."""
        return tuple(self)

    @property
    def annotations(self) -> dict[str, tuple[str, ...]]:
        return dict(self._cols)

    def column(self, name: str) -> tuple[str, ...]:
        """Return one column by name (``"word"`` gives the tokens).

        Parameters
        ----------
        name : str
            Name of the annotation column, or ``"word"`` for the tokens.

        Returns
        -------
        tuple of str
            The column's values, one per token.

        Raises
        ------
        KeyError
            If the sentence has no such annotation.
        """
        if name == "word":
            return tuple(self)
        try:
            return self._cols[name]
        except KeyError:
            raise KeyError(
                f"sentence has no annotation {name!r} (it has {sorted(self._cols) or 'none'}): "
                f"{_preview(self)}"
            ) from None

    def has(self, name: str) -> bool:
        """Whether the sentence has the column ``name``.

        Parameters
        ----------
        name : str
            Name of an annotation column, or ``"word"``.

        Returns
        -------
        bool
            True for ``"word"`` and for every annotation of the sentence.
        """
        return name == "word" or name in self._cols

    def with_annotations(self, **annotations: Iterable[str]) -> Sentence:
        """Return a new sentence with these columns added or replaced.

        Parameters
        ----------
        **annotations : iterable of str
            Named columns, one value per token; an existing column of the
            same name is replaced.

        Returns
        -------
        Sentence
            A new sentence with the same words and document id.
        """
        # only the new columns are checked: this sentence's were when it was made
        cols = dict(self._cols)
        for name, values in annotations.items():
            cols[name] = _checked_column(self, name, values)
        return Sentence._checked(self, cols, self.doc_id)

    @staticmethod
    def _checked(words, cols, doc_id):
        """A sentence of columns already checked (tuples of ``len(words)`` values, no
        ``"word"``) and a checked ``doc_id``: made without checking them again."""
        new = tuple.__new__(Sentence, words)
        new._cols = cols
        new.doc_id = doc_id
        return new

    def with_doc_id(self, doc_id: str | None) -> Sentence:
        """Return the same sentence (words and columns) with another document id.

        Parameters
        ----------
        doc_id : str or None
            Id of the document the new sentence belongs to.

        Returns
        -------
        Sentence
            A new sentence with the same words and annotation columns.
        """
        _check_doc_id(doc_id)
        return Sentence._checked(self, dict(self._cols), doc_id)

    def __repr__(self) -> str:
        extra = "".join(f", {k}={list(v)!r}" for k, v in self._cols.items())
        if self.doc_id is not None:
            extra = f", doc_id={self.doc_id!r}" + extra
        return f"Sentence({list(self)!r}{extra})"

    def __eq__(self, other):
        if isinstance(other, Sentence):
            return tuple.__eq__(self, other) and self._cols == other._cols
        return tuple.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = tuple.__hash__


def _checked_column(words, name, values):
    """``values`` as a tuple, checked to be a column ``name`` of the sentence ``words``."""
    values = tuple(values)
    if len(values) != len(words):
        raise ValueError(
            f"annotation {name!r} has {len(values)} values for a sentence of "
            f"{len(words)} tokens: {_preview(words)}"
        )
    if name == "word":
        raise ValueError("'word' is the sentence itself and cannot be an annotation")
    return values


def _check_doc_id(doc_id):
    if doc_id is not None and not isinstance(doc_id, str):
        raise TypeError(f"doc_id must be a str or None, got {type(doc_id).__name__}")


def _rebuild(words, cols, doc_id=None):
    return Sentence(words, doc_id=doc_id, **cols)


def _preview(words: Sequence[str], n: int = 12) -> str:
    head = " ".join(str(w) for w in list(words)[:n])
    return repr(head + (" ..." if len(words) > n else ""))


def as_sentence(sentence) -> Sentence:
    """Return ``sentence`` as a :class:`Sentence` (a list of str is accepted).

    Parameters
    ----------
    sentence : Sentence or sequence of str
        The tokens of one sentence.

    Returns
    -------
    Sentence
        ``sentence`` itself if it already is a :class:`Sentence`, otherwise a
        new one without annotations.

    Raises
    ------
    TypeError
        If ``sentence`` is a str or not a sequence.
    """
    if isinstance(sentence, Sentence):
        return sentence
    if isinstance(sentence, str) or not isinstance(sentence, Sequence | Iterable):
        raise TypeError(
            "a sentence must be a sequence of token strings, got "
            f"{type(sentence).__name__}: {sentence!r:.80}"
        )
    return Sentence(sentence)


_ONLY_STR = frozenset((str,))


def check_sentences(X, y=None, *, require_annotations: Sequence[str] = (), scheme=None):
    """Validate ``X`` (and ``y``) as lists of sentences / label lists.

    Inputs are never modified.  Errors name the offending sentence.

    Parameters
    ----------
    X : iterable of Sentence or of sequences of str
        The sentences; every token must be a non-empty str.
    y : iterable of sequences of str, default=None
        One label per token of each sentence, if given.
    require_annotations : sequence of str, default=()
        Annotation columns every sentence must have.
    scheme : str or None, default=None
        The scheme of ``y``'s labels (``"IOB2"``); None: any non-empty strings
        (:func:`skbioner.schemes.check_label_sequences`).

    Returns
    -------
    X : list of Sentence
        The sentences as :class:`Sentence` objects.
    y : list of list of str
        The label sequences; returned (as ``(X, y)``) only when ``y`` is given.
    """
    if isinstance(X, str | bytes) or isinstance(X, Mapping):
        raise TypeError("X must be a list of sentences (each a list of token strings)")
    out = []
    for i, s in enumerate(X):
        try:
            s = as_sentence(s)
        except TypeError as exc:
            raise TypeError(f"X[{i}]: {exc}") from None
        # the common case checked by C loops (every token of type str, none empty);
        # anything else (a str subclass included) token by token, as the errors need
        if not (_ONLY_STR.issuperset(map(type, s)) and all(s)):
            for j, w in enumerate(s):
                if not isinstance(w, str):
                    raise TypeError(f"X[{i}][{j}] is {type(w).__name__}, not str: "
                                    f"{_preview(s)}")
                if not w:
                    raise ValueError(f"X[{i}][{j}] is an empty token: {_preview(s)}")
        for name in require_annotations:
            if not s.has(name):
                raise ValueError(
                    f"X[{i}] has no {name!r} annotation (annotations: "
                    f"{sorted(s.annotations) or 'none'}): {_preview(s)}"
                )
        out.append(s)
    if y is None:
        return out
    from .schemes import check_label_sequences

    return out, check_label_sequences(y, map(len, out), scheme=scheme)
