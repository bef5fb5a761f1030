"""Word classes learned from unlabeled text, as token annotations.

* :class:`BrownClusterer` -- Brown clusters (Brown et al. 1992, Liang 2005):
  a binary merge tree over the vocabulary; each word's bit string (its path
  in the tree) is the ``brown`` column, read by the featurizer as prefixes of
  several lengths (coarse to fine classes).
* :class:`EmbeddingClusterer` -- k-means classes of word embeddings at
  several granularities (``emb64``, ``emb256``...), the embeddings from a
  positive-PMI word-context matrix reduced by truncated SVD (Levy, Goldberg &
  Dagan 2015): no dependency beyond scipy and scikit-learn.
* :class:`WordClassAnnotator` -- the annotator of a fitted class table: the
  classes shipped with the package (``classes="bundled"``) or a file written
  by :func:`write_word_classes` (``skbioner clusters``).

All three share the table and its look-up (:class:`_ClassTable`): a word is
looked up after the table's normalization (``"lower-digits"``: lower case,
every digit ``0``), and a word without a class reads :data:`UNKNOWN`.
"""

from __future__ import annotations

import functools
import gzip
import io
import os
import re
import sys
import time
from collections import Counter
from itertools import chain, repeat
from pathlib import Path

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._sentence import check_sentences
from .._shared import shared_columns
from .._utils import gc_paused
from .._validation import ColumnName, Integral, Interval, StrOptions
from ..base import SentenceTransformerMixin
from ..io._decode import text_lines

__all__ = ["BUNDLED_CLASSES", "BrownClusterer", "EmbeddingClusterer", "NORMALIZATIONS",
           "UNKNOWN", "WordClassAnnotator", "normalize_word", "read_word_classes",
           "write_word_classes"]

#: The value of a word without a class.
UNKNOWN = "<unk>"
#: How words are normalized before counting and look-up (see :func:`normalize_word`).
NORMALIZATIONS = ("none", "lower", "lower-digits")
#: The word classes shipped with the package (``skbioner/annotate/data/README.md``).
BUNDLED_CLASSES = Path(__file__).resolve().parent / "data" / "word_classes.tsv.gz"

_DIGIT = re.compile(r"\d")
_HEADER = "# skbioner word classes"
#: Most class columns a table may have (``skbioner clusters`` writes a few), longest line.
MAX_COLUMNS = 64
_MAX_LINE = 1 << 16


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
    if normalize == "none":
        return word
    word = word.lower()
    if normalize == "lower-digits":
        word = _DIGIT.sub("0", word)
    return word


def _normalized(words, normalize):
    """``map(_normalizer(normalize), words)`` by C calls (no Python function per word)."""
    if normalize == "none":
        return iter(words)
    lowered = map(str.lower, words)
    if normalize == "lower":
        return lowered
    return map(functools.partial(_DIGIT.sub, "0"), lowered)


def _normalizer(normalize):
    if normalize == "none":
        return lambda w: w
    if normalize == "lower":
        return str.lower
    sub = _DIGIT.sub
    return lambda w: sub("0", w.lower())


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
        vals = np.empty(len(self.values_[j]) + 1, dtype=object)
        vals[:-1] = self.values_[j]
        vals[-1] = UNKNOWN
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
            # the classes of the words alone: an equivalent annotator of another member
            # of a combination (or of a first pass) looks them up once (shared_columns)
            cols = shared_columns(self, sentences, functools.partial(self._columns_of, wanted))
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
        """The fitted classes as ``(words, {column: list of str})``."""
        check_is_fitted(self, "codes_")
        return (self.words_.tolist(),
                {name: np.asarray(self.values_[j], dtype=object)[self.codes_[:, j]].tolist()
                 for j, name in enumerate(self.columns_)})


# --------------------------------------------------------------------------- files


def write_word_classes(path, tables, *, normalize="lower-digits", notes=()):
    """Write class tables as one TSV file (``.gz``: compressed) for :class:`WordClassAnnotator`.

    Parameters
    ----------
    path : str or path-like
    tables : list of fitted estimators or (words, {column: values}) pairs
        :class:`BrownClusterer`, :class:`EmbeddingClusterer` or
        :class:`WordClassAnnotator` objects (their ``table()``), all with
        the same normalization.  A word missing from one table reads
        ``<unk>`` in its columns.
    normalize : str, default="lower-digits"
        Recorded in the header (used when tables are pairs).
    notes : iterable of str
        Extra header lines (source of the text, licence), written as
        ``# ...`` comments.

    Returns
    -------
    None
    """
    from ..io._atomic import atomic_write_bytes

    words, columns = {}, {}
    for t in tables:
        if hasattr(t, "table"):
            if t.normalize_ != normalize:
                raise ValueError(f"tables normalize differently ({t.normalize_!r} and "
                                 f"{normalize!r})")
            t = t.table()
        ws, cols = t
        for name in cols:
            if name in columns:
                raise ValueError(f"column {name!r} is in two tables")
        for w in ws:
            words.setdefault(w, len(words))
        for name, vals in cols.items():
            col = [UNKNOWN] * len(words)
            for w, v in zip(ws, vals, strict=True):
                col[words[w]] = v
            columns[name] = col
    for name in columns:  # words added by later tables
        columns[name] += [UNKNOWN] * (len(words) - len(columns[name]))
    buf = io.StringIO()
    buf.write(f"{_HEADER}; normalize={normalize}\n")
    for note in notes:
        buf.write(f"# {note}\n")
    buf.write("\t".join(["word", *columns]) + "\n")
    for i, w in enumerate(words):
        buf.write("\t".join([w, *(columns[c][i] for c in columns)]) + "\n")
    data = buf.getvalue().encode("utf-8")
    if os.fspath(path).endswith(".gz"):
        data = gzip.compress(data, compresslevel=9, mtime=0)
    atomic_write_bytes(path, data)


def read_word_classes(path):
    """Read a class table written by :func:`write_word_classes`.

    Parameters
    ----------
    path : str or path-like
        A TSV file (``.gz`` is decompressed): ``# skbioner word classes;
        normalize=...`` first, comment lines, a header ``word<TAB>column...``,
        then one line per word.

    Returns
    -------
    words : list of str
    columns : dict of str -> list of str
    normalize : str
    notes : list of str
        The comment lines after the first.

    Raises
    ------
    ValueError
        A file that is not a class table, or a line with the wrong number of
        fields (file and line named).
    """
    path_str = os.fspath(path)
    with open(path, "rb") as fh:
        gzipped = fh.read(2) == b"\x1f\x8b"
    lines = text_lines(path, path_str, max_chars=_MAX_LINE, gzipped=gzipped)
    _, first = next(lines, (1, ""))
    if not first.startswith(_HEADER):
        raise ValueError(f"{path_str}:1: not a word class table (expected {_HEADER!r} "
                         "first; write one with skbioner clusters)")
    m = re.search(r"normalize=([\w-]+)", first)
    normalize = m.group(1) if m else "none"
    if normalize not in NORMALIZATIONS:
        raise ValueError(f"{path_str}:1: unknown normalize={normalize!r}")
    notes = []
    for i, line in lines:  # noqa: B007 - i is the header's line number, after the loop
        if not line.startswith("#"):
            break
        notes.append(line[1:].strip())
    else:
        raise ValueError(f"{path_str}: no header line 'word<TAB>column...'")
    header = line.split("\t")
    if header[0] != "word" or not 2 <= len(header) <= MAX_COLUMNS + 1:
        raise ValueError(f"{path_str}:{i}: expected the header 'word<TAB>column...' with 1 to "
                         f"{MAX_COLUMNS} columns, got {line!r:.80}")
    names = header[1:]
    rows, cols = {}, [[] for _ in names]
    for n, line in lines:
        fields = line.split("\t")
        if len(fields) != len(header):
            raise ValueError(f"{path_str}:{n}: expected {len(header)} tab-separated fields, "
                             f"got {len(fields)}")
        word = fields[0]
        if not word or any(ch.isspace() for ch in word):
            raise ValueError(f"{path_str}:{n}: a word must be non-empty and hold no space, "
                             f"got {word!r:.40}")
        if rows.setdefault(word, n) != n:
            raise ValueError(f"{path_str}:{n}: the word {word!r:.40} appears twice (first on "
                             f"line {rows[word]})")
        for c, v in zip(cols, fields[1:]):
            c.append(v or UNKNOWN)
    if not rows:
        raise ValueError(f"{path_str}: no word after the header line (an empty class table)")
    return list(rows), dict(zip(names, cols, strict=True)), normalize, notes


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
        :func:`write_word_classes` or ``skbioner clusters``.
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

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = True
        return tags


# --------------------------------------------------------------------------- fitting


def _say(verbose, message):
    if verbose:
        print(message, file=sys.stderr, flush=True)


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
    norm = _normalizer(normalize)
    with gc_paused():
        raw = Counter(chain.from_iterable(sentences))
        form = {t: norm(t) for t in raw}
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
    import scipy.sparse as sp  # noqa: F401  (callers build matrices from these)

    n = ids.shape[0]
    if n <= distance:
        return ids[:0], ids[:0]
    left, right = ids[:-distance], ids[distance:]
    pos = np.arange(n - distance)
    sentence = np.searchsorted(offsets, pos, side="right") - 1
    same = pos + distance < offsets[sentence + 1]
    keep = same & (left >= 0) & (right >= 0)
    return left[keep], right[keep]


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

    def _annotations(self):
        return self.columns_

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
        _say(self.verbose, f"brown: {ids.shape[0]:,} tokens, {V:,} words with >= "
                           f"{self.min_count} occurrences, {bigrams.nnz:,} distinct bigrams "
                           f"({time.perf_counter() - t0:.1f} s)")
        bar = None
        if self.verbose:
            from .._progress import progress_bar

            bar = progress_bar(V, "brown clustering", 1, unit="word")

        done_before = [0]

        def callback(done):
            if bar is not None:
                bar.update(done - done_before[0])
                done_before[0] = done

        try:
            owner, merges, losses, n_leaf = brown_merges(
                bigrams, counts, ids.shape[0], min(self.n_clusters, V),
                chunk=max(1, min(2000, V // 50 or 1)), callback=callback)
        finally:
            if bar is not None:
                bar.close()
        codes = _bit_strings(owner, merges, n_leaf)
        self._set_table(words, {self.annotation: [codes[s] for s in owner.tolist()]},
                        self.normalize)
        self.losses_ = losses
        self.n_tokens_ = int(ids.shape[0])
        _say(self.verbose, f"brown: {min(self.n_clusters, V)} clusters in "
                           f"{time.perf_counter() - t0:.1f} s")
        return self


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

    def _annotations(self):
        return self.columns_

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
        _say(self.verbose, f"embeddings: {ids.shape[0]:,} tokens, {V:,} words, PPMI with "
                           f"{pmi.nnz:,} entries ({time.perf_counter() - t0:.1f} s)")
        k = min(self.n_components, V - 1)
        U, S, _ = randomized_svd(pmi, k, n_iter=5, random_state=rng)
        emb = (U * np.sqrt(S)).astype(np.float32)
        emb /= np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-12)
        _say(self.verbose, f"embeddings: SVD to {k} dimensions "
                           f"({time.perf_counter() - t0:.1f} s)")
        columns = {}
        for n in ks:
            km = MiniBatchKMeans(n_clusters=min(n, V), batch_size=4096, n_init=3,
                                 random_state=rng.randint(np.iinfo(np.int32).max))
            labels = km.fit_predict(emb)
            columns[f"{self.annotation}{n}"] = [str(v) for v in labels.tolist()]
            _say(self.verbose, f"embeddings: {n} k-means classes "
                               f"({time.perf_counter() - t0:.1f} s)")
        self._set_table(words, columns, self.normalize)
        self.embedding_ = emb
        return self
