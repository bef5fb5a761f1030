"""``DictionaryMatcher``: longest-match dictionary annotations (B/I/O per class)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from itertools import chain
from pathlib import Path

import ahocorasick
import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._sentence import check_sentences
from .._validation import Integral, Interval, fit_context
from ..base import SentenceTransformerMixin
from ..io._errors import CorpusFormatError
from ..model_selection import document_splits
from ..schemes import check_scheme, labels_to_spans
from ..text._normalize import _normalizer, normalize_types

__all__ = ["DictionaryMatcher"]

# Token separator of the strings the automaton runs over.  A key is
# SEP tok1 SEP ... tokN SEP, so every match starts and ends on a token
# boundary; sentences are joined by SEP SEP, which no key contains.
_SEP = "\x00"
# A SEP inside a (normalized) token would fake a token boundary; it is
# replaced by this character, in entries and tokens alike.
_SEP_SUBSTITUTE = "\ufffd"
_LABELS = np.array(["O", "B", "I"], dtype=object)
_CLOSED = "closed"


def _token_normalizer(lowercase: bool, normalize_digits: bool, strip_punct: bool):
    """The per-token normalization shared by entries and sentences."""
    numerals = _normalizer("1") if normalize_digits else None

    def norm(word: str) -> str:
        if strip_punct:
            stripped = "".join(c for c in word if c.isalnum())
            if stripped:
                word = stripped
        if lowercase:
            word = word.lower()
        if numerals is not None:
            word = numerals(word)
        if _SEP in word:
            word = word.replace(_SEP, _SEP_SUBSTITUTE)
        return word

    return norm


def _key(tokens) -> str:
    return _SEP + _SEP.join(tokens) + _SEP


def _read_dictionary(path, encoding: str):
    """Entries of a dictionary file as ``(tokens, class or None)``, in file order.

    One entry per line, optionally followed by a TAB and a class; blank
    lines and lines whose first non-blank character is ``#`` are skipped.
    """
    with open(path, "rb") as fh:
        data = fh.read()
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CorpusFormatError(
            path, line, f"cannot decode the line as {encoding}: {exc.reason}"
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    entries = []
    for n, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) > 2:
            raise CorpusFormatError(
                path,
                n,
                f"expected 'entry' or 'entry<TAB>class', found {len(fields)} tab-separated "
                f"fields: {line!r:.80}",
            )
        tokens = tuple(fields[0].split())
        if not tokens:
            raise CorpusFormatError(path, n, f"empty entry before the tab: {line!r:.80}")
        cls = None
        if len(fields) == 2:
            cls = fields[1].strip()
            if not cls:
                raise CorpusFormatError(path, n, f"empty class after the tab: {line!r:.80}")
            if any(c.isspace() for c in cls):
                raise CorpusFormatError(path, n, f"the class {cls!r} contains whitespace")
        entries.append((tokens, cls))
    if not entries:
        raise CorpusFormatError(path, None, "the dictionary has no entries")
    return entries


def _leftmost_longest(starts: np.ndarray, stops: np.ndarray) -> np.ndarray:
    """Indices of a leftmost-longest set of non-overlapping matches.

    Scanning left to right, the longest match starting at the first free
    position is taken and everything overlapping it is skipped.
    """
    order = np.lexsort((-stops, starts))
    keep = []
    last = -1
    for i, a, b in zip(order.tolist(), starts[order].tolist(), stops[order].tolist()):
        if a >= last:
            keep.append(i)
            last = b
    return np.asarray(keep, dtype=np.int64)


class DictionaryMatcher(
    SentenceTransformerMixin, TransformerMixin, BaseEstimator, auto_wrap_output_keys=None
):
    """Annotate tokens with longest dictionary matches, as B/I/O columns.

    Multi-token dictionary entries are found with an Aho-Corasick automaton
    (pyahocorasick) over the normalized tokens of all sentences at once.
    In each dictionary, overlapping matches are resolved *leftmost-longest*:
    scanning left to right, the longest entry starting at the first free
    token is taken and the matches overlapping it are dropped (``IL-2
    receptor alpha`` with entries ``IL-2``, ``IL-2 receptor`` and
    ``receptor alpha`` gives ``IL-2 receptor``, then nothing).

    Each match is written as ``B``, ``I``, ..., ``I`` into one annotation
    column per dictionary and class, ``dict_<dictionary>_<class>``
    (``dict_<dictionary>`` for entries without a class); all other tokens
    get ``O``.  An entry listed with several classes marks each of their
    columns.  :class:`~skbioner.features.TokenFeaturizer`'s ``dictionary``
    templates (in the ``"chan"``, ``"kazama"`` and ``"nerbio"`` presets)
    turn these columns into features (``dict_closed_protein[0]=B``).

    Parameters
    ----------
    dictionaries : str, path-like, list of them, or dict of str -> path, default=()
        Open dictionaries: files read in :meth:`fit`.  A list names each
        dictionary after its file name without extension (``genes.txt`` ->
        ``genes``); a dict gives the names.  File format: one entry per
        line, its tokens separated by whitespace, optionally followed by a
        TAB and a class (``IL-2 receptor<TAB>protein``); blank lines and
        lines starting with ``#`` are ignored.
    closed : bool, default=True
        Also learn a *closed* dictionary, named ``"closed"``, from the
        entities of the training labels ``y`` given to :meth:`fit` (each
        entity's tokens, with its type as class).
    min_count : int, default=1
        Closed dictionary: keep an (entry, class) pair only if it occurs
        at least this many times in ``y``.
    lowercase : bool, default=True
        Match lower-cased tokens.
    normalize_digits : bool, default=False
        Match with every run of digits replaced by ``1`` (see
        :func:`~skbioner.text.normalize_numerals`): ``IL-2`` matches
        ``IL-5``.
    strip_punct : bool, default=False
        Match with the non-alphanumeric characters removed from each token
        (``IL-2`` matches ``IL2``); a token made only of punctuation is
        kept as it is.
    scheme : str, default="IOB2"
        Segment representation of ``y``.
    encoding : str, default="utf-8"
        Encoding of the dictionary files (an ASCII-compatible one, so that
        line numbers in errors are right).
    jackknife : int or None, default=None
        With ``closed=True``: :meth:`fit_transform` annotates the training
        sentences out of fold, each of ``jackknife`` contiguous blocks of
        documents by a closed dictionary learned from the other blocks, so
        that a tagger trained on them sees the dictionary miss new names
        as it will on new text; :meth:`transform` uses the dictionary of
        all the training data.  None: the training sentences are annotated
        by the dictionary learned from them.

    Attributes
    ----------
    annotation_names_ : tuple of str
        The columns :meth:`transform` adds, always all of them: per
        dictionary (the closed one first, then ``dictionaries`` in order),
        ``dict_<name>`` if it has entries without class, then
        ``dict_<name>_<class>`` in sorted class order.
    dictionary_names_ : tuple of str
        The dictionaries, in the same order.
    n_entries_ : dict of str -> int
        Number of distinct (normalized entry, class) pairs per dictionary.

    See Also
    --------
    TokenFeaturizer : reads the ``dict_*`` columns (``dictionary`` kind).
    skbioner.text.NumericNormalizer : the numeral normalization.

    Notes
    -----
    Entries and tokens are compared after the same normalization
    (``strip_punct``, then ``lowercase``, then ``normalize_digits``), token
    by token: an entry matches only whole tokens, and an entry's tokens are
    split at whitespace, so a dictionary entry ``NF-kappaB`` does not match
    the tokens ``NF-kappa B``.

    A closed dictionary used on its own training data marks nearly every
    training entity, so a tagger trained on those annotations learns to
    trust the dictionary more than it deserves on new text.  Fit the
    matcher on other data than the tagger (or on cross-validation folds)
    when this matters.

    The Aho-Corasick automaton is built lazily from plain Python data on
    first use and is not pickled: the fitted matcher pickles (and
    ``joblib``-dumps) as lists and arrays and rebuilds it after loading.

    :meth:`transform` returns new :class:`~skbioner.Sentence` objects,
    keeping the input's annotations (``dict_*`` columns of the same name
    are replaced), and never modifies its input.

    Examples
    --------
    >>> from skbioner.annotate import DictionaryMatcher
    >>> X = [["the", "IL-2", "receptor", "alpha", "chain"]]
    >>> y = [["O", "B-protein", "I-protein", "O", "O"]]
    >>> m = DictionaryMatcher().fit(X, y)
    >>> m.annotation_names_
    ('dict_closed_protein',)
    >>> m.transform([["Il-2", "receptor", "binds"]])[0].column("dict_closed_protein")
    ('B', 'I', 'O')
    """

    _parameter_constraints = {
        # a path, a list of paths or a dict name -> path: checked entry by entry
        # in fit (messages name the bad entry), see _dictionary_paths
        "dictionaries": "no_validation",
        "closed": ["boolean"],
        "min_count": [Interval(Integral, 1, None, closed="left")],
        "lowercase": ["boolean"],
        "normalize_digits": ["boolean"],
        "strip_punct": ["boolean"],
        "scheme": [str],  # canonicalised (case, aliases) by check_scheme in fit
        "encoding": [str],
        "jackknife": [Interval(Integral, 2, None, closed="left"), None],
    }

    def __init__(
        self,
        dictionaries=(),
        closed=True,
        min_count=1,
        lowercase=True,
        normalize_digits=False,
        strip_punct=False,
        scheme="IOB2",
        encoding="utf-8",
        jackknife=None,
    ):
        self.dictionaries = dictionaries
        self.closed = closed
        self.min_count = min_count
        self.lowercase = lowercase
        self.normalize_digits = normalize_digits
        self.strip_punct = strip_punct
        self.scheme = scheme
        self.encoding = encoding
        self.jackknife = jackknife

    def __getstate__(self):
        state = dict(super().__getstate__())
        state.pop("_ac", None)  # a C object: rebuilt from _keys after loading
        return state

    # -- parameters ----------------------------------------------------------

    def _dictionary_paths(self, closed):
        d = self.dictionaries
        if isinstance(d, str | os.PathLike):
            d = [d]
        if isinstance(d, Mapping):
            items = list(d.items())
            for name, _ in items:
                if not isinstance(name, str) or not name:
                    raise ValueError(f"dictionary names must be non-empty str, got {name!r}")
        else:
            try:
                paths = list(d)
            except TypeError:
                raise TypeError(
                    "dictionaries must be a path, a list of paths or a dict of name -> path, "
                    f"got {type(d).__name__}"
                ) from None
            items = []
            for p in paths:
                if not isinstance(p, str | os.PathLike):
                    raise TypeError(f"a dictionary must be a path, got {p!r:.80}")
                items.append((Path(p).stem, p))
            names = [n for n, _ in items]
            dup = sorted({n for n in names if names.count(n) > 1})
            if dup:
                raise ValueError(
                    f"dictionary files with the same name {dup}; pass a dict of "
                    "name -> path to name them"
                )
        for name, p in items:
            if not isinstance(p, str | os.PathLike):
                raise TypeError(f"dictionary {name!r} must be a path, got {p!r:.80}")
            if closed and name == _CLOSED:
                raise ValueError(
                    f"the dictionary name {_CLOSED!r} is taken by the closed dictionary "
                    "(closed=True); rename the file or pass a dict of name -> path"
                )
        return items

    def _check_params(self):
        """The parameters as used by fit (types were checked by ``_parameter_constraints``)."""
        closed = bool(self.closed)
        norm_options = (bool(self.lowercase), bool(self.normalize_digits), bool(self.strip_punct))
        check_scheme(self.scheme)
        items = self._dictionary_paths(closed)
        if not closed and not items:
            raise ValueError("no dictionary to match: set closed=True or give dictionaries")
        return closed, int(self.min_count), norm_options, items

    # -- fit -----------------------------------------------------------------

    @fit_context
    def fit(self, X, y=None):
        """Read the dictionaries and learn the closed one from ``y``.

        Parameters
        ----------
        X : list of sentences
            Each a :class:`~skbioner.Sentence` or a list of token strings.
        y : list of list of str, optional
            Label sequences in ``scheme``; required when ``closed=True``.

        Returns
        -------
        self : DictionaryMatcher
        """
        closed, min_count, norm_options, items = self._check_params()
        norm = _token_normalizer(*norm_options)
        # dictionary name -> {(key, class or None), ...} in first-seen order
        pairs: dict[str, dict] = {}
        if closed:
            if y is None:
                raise ValueError(
                    "the closed dictionary (closed=True) is learned from the entities of y: "
                    "fit needs y, or set closed=False"
                )
            X, y = check_sentences(X, y)
            mapping = normalize_types(chain.from_iterable(X), norm)
            counts = Counter()
            for s, labels in zip(X, y):
                for t, a, b in labels_to_spans(labels, self.scheme):
                    counts[(_key(map(mapping.__getitem__, s[a:b])), t)] += 1
            pairs[_CLOSED] = dict.fromkeys(p for p, c in counts.items() if c >= min_count)
        else:
            check_sentences(X)
        for name, path in items:
            entries = _read_dictionary(path, self.encoding)
            pairs[name] = dict.fromkeys((_key(map(norm, toks)), c) for toks, c in entries)

        columns, col_dict, col_index = [], [], {}
        for d, (name, dpairs) in enumerate(pairs.items()):
            classes = {c for _, c in dpairs}
            ordered = ([None] if None in classes else []) + sorted(classes - {None})
            for c in ordered:
                col = f"dict_{name}" if c is None else f"dict_{name}_{c}"
                if col in col_index:
                    raise ValueError(
                        f"two dictionaries give the annotation column {col!r}; rename one"
                    )
                col_index[col] = (name, c)
                columns.append(col)
                col_dict.append(d)
        by_pair = {v: i for i, v in enumerate(col_index.values())}

        key_ids: dict[str, int] = {}
        pair_key, pair_col = [], []
        for name, dpairs in pairs.items():
            for key, c in dpairs:
                pair_key.append(key_ids.setdefault(key, len(key_ids)))
                pair_col.append(by_pair[(name, c)])
        keys = list(key_ids)
        pair_key = np.asarray(pair_key, dtype=np.int64)
        pair_col = np.asarray(pair_col, dtype=np.int64)
        order = np.argsort(pair_key, kind="stable")
        ptr = np.zeros(len(keys) + 1, dtype=np.int64)
        np.cumsum(np.bincount(pair_key, minlength=len(keys)), out=ptr[1:])

        self.annotation_names_ = tuple(columns)
        self.dictionary_names_ = tuple(pairs)
        self.n_entries_ = {name: len(dpairs) for name, dpairs in pairs.items()}
        self._norm_options = norm_options
        self._keys = keys
        self._key_ntok = np.fromiter(
            (k.count(_SEP) - 1 for k in keys), dtype=np.int64, count=len(keys)
        )
        self._ptr = ptr
        self._pair_col = pair_col[order]
        self._col_dict = np.asarray(col_dict, dtype=np.int64)
        self.__dict__.pop("_ac", None)
        return self

    # -- transform -----------------------------------------------------------

    def _automaton(self):
        ac = self.__dict__.get("_ac")
        if ac is None:
            ac = ahocorasick.Automaton(ahocorasick.STORE_INTS)
            for i, key in enumerate(self._keys):
                ac.add_word(key, i)
            ac.make_automaton()
            self._ac = ac
        return ac

    def _match(self, sentences, lengths):
        """Codes (0=O, 1=B, 2=I) of shape (n_columns, n_tokens)."""
        n_tokens = int(lengths.sum())
        codes = np.zeros((len(self.annotation_names_), n_tokens), dtype=np.uint8)
        if not self._keys or n_tokens == 0:
            return codes
        norm = _token_normalizer(*self._norm_options)
        mapping = normalize_types(chain.from_iterable(sentences), norm)
        normed = list(map(mapping.__getitem__, chain.from_iterable(sentences)))
        text = _SEP + (_SEP + _SEP).join(_SEP.join(s) for s in _split(normed, lengths)) + _SEP

        # position in ``text`` of the separator after each token
        nonempty = (lengths > 0).astype(np.int64)
        before = np.repeat(np.cumsum(nonempty) - nonempty, lengths)
        tok_len = np.fromiter(map(len, normed), dtype=np.int64, count=n_tokens)
        sep_pos = np.cumsum(tok_len + 1) + before

        flat = np.fromiter(
            chain.from_iterable(self._automaton().iter(text)), dtype=np.int64
        ).reshape(-1, 2)
        if not flat.size:
            return codes
        key = flat[:, 1]
        stops = np.searchsorted(sep_pos, flat[:, 0]) + 1
        starts = stops - self._key_ntok[key]

        # expand matches into (match, column) pairs
        ptr = self._ptr
        counts = ptr[key + 1] - ptr[key]
        match = np.repeat(np.arange(key.size), counts)
        within = np.arange(match.size) - np.repeat(np.cumsum(counts) - counts, counts)
        cols = self._pair_col[ptr[key][match] + within]
        dicts = self._col_dict[cols]
        for d in np.unique(dicts).tolist():
            in_d = dicts == d
            m = np.unique(match[in_d])
            chosen = np.zeros(key.size, dtype=bool)
            chosen[m[_leftmost_longest(starts[m], stops[m])]] = True
            sel = in_d & chosen[match]
            c, a, b = cols[sel], starts[match[sel]], stops[match[sel]]
            codes[c, a] = 1
            inner = b - a - 1
            first = np.repeat(a + 1, inner)
            step = np.arange(first.size) - np.repeat(np.cumsum(inner) - inner, inner)
            codes[np.repeat(c, inner), first + step] = 2
        return codes

    def fit_transform(self, X, y=None):
        """Fit, then annotate ``X`` (out of fold with ``jackknife``).

        Parameters
        ----------
        X : list of sentences
        y : list of label sequences, optional
            Required when ``closed=True``.

        Returns
        -------
        list of Sentence
            As :meth:`transform`; with ``jackknife`` and ``closed``, each
            block of documents is annotated by the closed dictionary of
            the other blocks (the open dictionaries as usual).
        """
        self.fit(X, y)
        if self.jackknife is None or not self.closed or y is None:
            return self.transform(X)
        from sklearn.base import clone

        X, y = check_sentences(X, y)
        out = [None] * len(X)
        blank_cols = self.annotation_names_
        for rest, inside in document_splits(X, self.jackknife):
            sub = clone(self).set_params(jackknife=None)
            sub.fit([X[i] for i in rest], [y[i] for i in rest])
            for i, s in zip(inside, sub.transform([X[i] for i in inside])):
                # a class the other blocks lack gets an all-"O" column
                missing = {c: ("O",) * len(s) for c in blank_cols if not s.has(c)}
                out[i] = s.with_annotations(**missing) if missing else s
        return out

    def transform(self, X):
        """Add the dictionary annotation columns to every sentence.

        Parameters
        ----------
        X : list of sentences
            Each a :class:`~skbioner.Sentence` or a list of token strings.

        Returns
        -------
        list of Sentence
            New sentences with the columns :attr:`annotation_names_`, each
            a tuple of ``"B"``, ``"I"`` and ``"O"``.
        """
        check_is_fitted(self, "annotation_names_")
        sentences = check_sentences(X)
        lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        codes = self._match(sentences, lengths)
        names = self.annotation_names_
        offsets = np.concatenate([[0], np.cumsum(lengths)])
        # which (sentence, column) pairs have a match; the others share one
        # all-"O" tuple per sentence length
        if codes.size:
            hit = np.logical_or.reduceat(
                codes != 0, np.minimum(offsets[:-1], codes.shape[1] - 1), axis=1
            ) & (lengths > 0)
        else:
            hit = np.zeros((len(names), len(sentences)), dtype=bool)
        columns = [(n, _LABELS[row].tolist(), h.tolist()) for n, row, h in zip(names, codes, hit)]
        offsets = offsets.tolist()
        blank = {}
        out = []
        for i, s in enumerate(sentences):
            a, b = offsets[i], offsets[i + 1]
            o = blank.get(b - a)
            if o is None:
                o = blank[b - a] = ("O",) * (b - a)
            out.append(s.with_annotations(**{n: col[a:b] if h[i] else o for n, col, h in columns}))
        return out


def _split(items: list, lengths: np.ndarray):
    """The non-empty consecutive slices of ``items`` of the given lengths."""
    a = 0
    for n in lengths.tolist():
        if n:
            yield items[a : a + n]
            a += n
