"""Word classes learned from unlabeled text, as token annotations: the shared class table.

* :class:`WordClassAnnotator` -- the annotator of a fitted class table: the
  classes shipped with the package (``classes="bundled"``) or a file written
  by :func:`skbioner.io.write_word_classes` (``skbioner clusters``).
* :class:`~skbioner.annotate.BrownClusterer` (``_brown.py``) and
  :class:`~skbioner.annotate.EmbeddingClusterer` (``_embeddings.py``) fit
  tables on unlabeled text; :func:`count_corpus` is their vocabulary.

All three share the table and its look-up (:class:`_ClassTable`): a word is
looked up after the table's normalization (``"lower-digits"``: lower case,
every digit ``0``), and a word without a class reads :data:`UNKNOWN`.
"""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from itertools import chain, repeat
from pathlib import Path

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._sentence import check_sentences
from .._utils import gc_paused
from ..base import SentenceTransformerMixin
from ..io._word_classes import NORMALIZATIONS, UNKNOWN, read_word_classes

__all__ = ["BUNDLED_CLASSES", "NORMALIZATIONS", "UNKNOWN", "WordClassAnnotator", "count_corpus",
           "normalize_word"]

#: The word classes shipped with the package (``skbioner/annotate/data/README.md``).
BUNDLED_CLASSES = Path(__file__).resolve().parent / "data" / "word_classes.tsv.gz"

_DIGIT = re.compile(r"\d")


def normalize_word(word, normalize="lower-digits"):
    """The form of ``word`` that class tables are counted and looked up in.

    Parameters
    ----------
    word : str
    normalize : {"none", "lower", "lower-digits"}, default="lower-digits"
        ``"lower"``: lower case; ``"lower-digits"``: lower case and every
        digit replaced by ``0`` (``IL-12`` -> ``il-00``), so that the many
        numbered names of a family share their statistics.

    Returns
    -------
    str

    Examples
    --------
    >>> normalize_word("IL-12"), normalize_word("IL-12", "lower"), normalize_word("IL-12", "none")
    ('il-00', 'il-12', 'IL-12')
    """
    return next(_normalized([word], normalize))


def _normalized(words, normalize):
    """The normalized ``words`` (an iterator), by C calls (no Python function per word)."""
    if normalize == "none":
        return iter(words)
    lowered = map(str.lower, words)
    if normalize == "lower":
        return lowered
    return map(functools.partial(_DIGIT.sub, "0"), lowered)


# --------------------------------------------------------------------------- the table


class _ClassTable:
    """Look-up and annotation shared by the fitted class tables.

    Fitted state: ``words_`` (object array of normalized words),
    ``columns_`` (tuple of column names), ``values_`` (per column, the
    tuple of its distinct values), ``codes_`` (int32, words x columns: the
    value index of each word in each column) and ``normalize_``.
    """

    def _set_table(self, words, columns, normalize):
        """Store ``columns`` ({name: list of str per word}) as codes, words sorted."""
        words = list(words)
        if len(set(words)) != len(words):
            raise ValueError("a word appears twice in the class table")
        order = sorted(range(len(words)), key=words.__getitem__)
        self.words_ = np.empty(len(words), dtype=object)
        self.words_[:] = [words[i] for i in order]
        self.columns_ = tuple(columns)
        values, codes = [], np.zeros((len(self.words_), len(columns)), dtype=np.int32)
        for j, name in enumerate(columns):
            distinct = {}
            col = columns[name]
            codes[:, j] = [distinct.setdefault(col[i], len(distinct)) for i in order]
            values.append(tuple(distinct))
        self.values_ = tuple(values)
        self.codes_ = codes
        self.normalize_ = normalize
        self.n_words_ = len(self.words_)
        self._build_lookup()
        return self

    def _build_lookup(self):
        """Look-up state derived from the table (rebuilt on load, not stored)."""
        self._row = {w: i for i, w in enumerate(self.words_.tolist())}
        self._column_values = tuple(self._values_per_row(j) for j in range(len(self.columns_)))

    # The table is stored as one string per array (words and values joined by
    # newlines, which no token holds): the safe model format loads a string at
    # once but an object array element by element (70,000 words: seconds).
    def __getstate__(self):
        state = super().__getstate__()
        state = {k: v for k, v in state.items() if k not in ("_row", "_column_values")}
        if isinstance(state.get("words_"), np.ndarray):
            state = {**state, "words_": "\n".join(state["words_"].tolist()),
                     "values_": ["\n".join(v) for v in state["values_"]]}
        return state

    def __setstate__(self, state):
        if isinstance(state.get("words_"), str):
            stored = state["words_"].split("\n") if state["words_"] else []
            words = np.empty(len(stored), dtype=object)  # n_words_ is checked against it
            words[:] = stored
            values = tuple(tuple(v.split("\n")) if v else () for v in state["values_"])
            state = {**state, "words_": words, "values_": values}
        super().__setstate__(state)
        if "codes_" in state:
            self._build_lookup()

    def classes_of(self, words):
        """The classes of ``words``: ``{column: list of str}`` (:data:`UNKNOWN` if none).

        Parameters
        ----------
        words : iterable of str

        Returns
        -------
        dict of str -> list of str
        """
        check_is_fitted(self, "codes_")
        words = list(words)
        rows = self._rows(words)
        return {name: self._column_values[j][rows].tolist()
                for j, name in enumerate(self.columns_)}

    def _rows(self, types):
        """Row of each word in the (sorted) table; ``n_words_`` for a word without a class."""
        n = len(self.words_)
        return np.fromiter(map(self._row.get, _normalized(types, self.normalize_), repeat(n)),
                           dtype=np.int64, count=len(types))

    def _values_per_row(self, j):
        """Values of column ``j`` per word row, plus :data:`UNKNOWN` at row ``n_words``."""
        vals = np.array([*self.values_[j], UNKNOWN], dtype=object)
        codes = np.append(self.codes_[:, j], len(self.values_[j]))
        return vals[codes]

    def _annotations(self):
        names = getattr(self, "columns", None)
        return self.columns_ if names is None else tuple(names)

    def transform(self, X):
        """Annotate every token with its classes.

        Parameters
        ----------
        X : list of sentences
            Each a :class:`~skbioner.Sentence` or a list of token strings.

        Returns
        -------
        list of Sentence
            New sentences with one column per class column (a word without
            a class reads ``"<unk>"``); other columns are carried over.
            ``X`` is not modified.
        """
        check_is_fitted(self, "codes_")
        sentences = check_sentences(X)
        wanted = self._annotations()
        unknown = sorted(set(wanted) - set(self.columns_))
        if unknown:
            raise ValueError(f"columns {unknown} are not in the class table "
                             f"(it has {list(self.columns_)})")
        with gc_paused():
            cols = self._columns_of(wanted, sentences)
            return [s.with_annotations(**c) for s, c in zip(sentences, cols, strict=True)]

    def _columns_of(self, wanted, sentences):
        """Per sentence, ``{column: tuple of classes}`` of the ``wanted`` columns."""
        if not wanted:
            return [{} for _ in sentences]
        types = list(dict.fromkeys(chain.from_iterable(sentences)))
        type_id = dict(zip(types, range(len(types))))
        ids = np.fromiter(map(type_id.__getitem__, chain.from_iterable(sentences)),
                          dtype=np.int64)
        rows = self._rows(types)[ids]
        bounds = np.cumsum([0, *map(len, sentences)]).tolist()
        pieces = list(map(slice, bounds[:-1], bounds[1:]))
        per_column = [list(map(tuple, map(
            self._column_values[self.columns_.index(name)][rows].tolist().__getitem__, pieces)))
            for name in wanted]
        return list(map(dict, map(zip, repeat(wanted), zip(*per_column))))

    def table(self):
        """The fitted classes, as :func:`skbioner.io.write_word_classes` writes them.

        Returns
        -------
        words : list of str
        columns : dict of str to list of str
            Per class column, each word's class.
        """
        check_is_fitted(self, "codes_")
        return (self.words_.tolist(),
                {name: np.asarray(self.values_[j], dtype=object)[self.codes_[:, j]].tolist()
                 for j, name in enumerate(self.columns_)})


def _file_key(path):
    st = os.stat(path)
    return os.path.realpath(path), st.st_mtime_ns, st.st_size


@functools.lru_cache(maxsize=4)
def _loaded_table(path, mtime_ns, size):
    """A class table file parsed once per version of the file (fitting is a look-up)."""
    words, columns, normalize, notes = read_word_classes(path)
    table = _ClassTable()
    table._set_table(words, columns, normalize)
    table.notes_ = notes
    table.words_.setflags(write=False)
    table.codes_.setflags(write=False)
    return table


class WordClassAnnotator(
    _ClassTable, SentenceTransformerMixin, TransformerMixin, BaseEstimator,
    auto_wrap_output_keys=None,
):
    """Word classes from a table (shipped with the package or fitted) as token columns.

    :meth:`fit` loads the table (``y`` and ``X`` are ignored: the classes
    were learned on unlabeled text beforehand); :meth:`transform` adds one
    column per class column: ``brown`` (a Brown cluster's bit string, which
    the ``"chan"`` features read as prefixes) and ``emb64``... (k-means
    classes of word embeddings).

    Parameters
    ----------
    classes : "bundled", str or path, default="bundled"
        ``"bundled"``: the classes shipped with the package, fitted on
        10.8M tokens of CC BY open-access life-science text
        (``skbioner/annotate/data/README.md``); otherwise a file written by
        :func:`skbioner.io.write_word_classes` or ``skbioner clusters``.
    columns : tuple of str or None, default=None
        The class columns to add (None: all of the table's).

    Attributes
    ----------
    columns_ : tuple of str
        All columns of the table.
    n_words_ : int
        Words with classes.
    normalize_ : str
        How words are looked up (:func:`normalize_word`).
    notes_ : list of str
        The table's comment lines (source, licence).

    See Also
    --------
    BrownClusterer, EmbeddingClusterer : fit classes on your own text.

    Examples
    --------
    >>> from skbioner.annotate import WordClassAnnotator
    >>> ann = WordClassAnnotator(columns=("brown",)).fit([])
    >>> s = ann.transform([["IL-2", "gene", "expression"]])[0]
    >>> len(s.column("brown")), all(set(v) <= {"0", "1"} for v in s.column("brown"))
    (3, True)
    """

    _parameter_constraints = {
        "classes": [str, os.PathLike],
        "columns": ["array-like", None],
    }

    def __init__(self, classes="bundled", columns=None):
        self.classes = classes
        self.columns = columns

    def fit(self, X=None, y=None):
        """Load the class table.

        Parameters
        ----------
        X, y : ignored

        Returns
        -------
        self : WordClassAnnotator
        """
        self._validate_params()
        path = BUNDLED_CLASSES if str(self.classes) == "bundled" else self.classes
        if str(self.classes) == "bundled" and not BUNDLED_CLASSES.is_file():
            raise FileNotFoundError(
                f"the bundled word classes are missing ({BUNDLED_CLASSES}); re-create them with "
                "python scripts/make_word_classes.py")
        table = _loaded_table(*_file_key(path))
        if self.columns is not None:
            missing = sorted(set(self.columns) - set(table.columns_))
            if missing:
                raise ValueError(f"columns {missing} are not in {path} "
                                 f"(it has {list(table.columns_)})")
        # the parsed table is shared by the annotators of one file (read-only state)
        for name in ("words_", "columns_", "values_", "codes_", "normalize_", "n_words_",
                     "notes_", "_row", "_column_values"):
            setattr(self, name, getattr(table, name))
        return self


def count_corpus(sentences, normalize, min_count):
    """Vocabulary and token ids of unlabeled sentences.

    Returns
    -------
    words : list of str
        Normalized words with at least ``min_count`` occurrences, most
        frequent first (ties alphabetical).
    counts : ndarray of float64
    ids : ndarray of int64
        The id of every token (``-1``: not in ``words``).
    offsets : ndarray of int64
        Sentence boundaries in ``ids``.
    """
    with gc_paused():
        raw = Counter(chain.from_iterable(sentences))
        form = dict(zip(raw, _normalized(raw, normalize)))
        counts = Counter()
        for t, c in raw.items():
            counts[form[t]] += c
        ranked = sorted(((w, c) for w, c in counts.items() if c >= min_count),
                        key=lambda kv: (-kv[1], kv[0]))
        words = [w for w, _ in ranked]
        index = {w: i for i, w in enumerate(words)}
        type_id = {t: index.get(f, -1) for t, f in form.items()}
        n = sum(map(len, sentences))
        ids = np.fromiter(map(type_id.__getitem__, chain.from_iterable(sentences)),
                          dtype=np.int64, count=n)
    offsets = np.zeros(len(sentences) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences)),
              out=offsets[1:])
    return words, np.array([c for _, c in ranked], dtype=np.float64), ids, offsets


def _pairs(ids, offsets, distance):
    """Token pairs ``(ids[i], ids[i + distance])`` inside a sentence, both in the vocabulary."""
    n = ids.shape[0]
    if n <= distance:
        return ids[:0], ids[:0]
    left, right = ids[:-distance], ids[distance:]
    pos = np.arange(n - distance)
    sentence = np.searchsorted(offsets, pos, side="right") - 1
    same = pos + distance < offsets[sentence + 1]
    keep = same & (left >= 0) & (right >= 0)
    return left[keep], right[keep]
