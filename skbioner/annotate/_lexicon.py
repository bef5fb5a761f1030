"""``LexiconMatcher``: typed terminology names as position-aware token columns.

The package ships lexicons built from public terminologies (genes, proteins,
chemicals, diseases, species, cell lines and types, ...; ``data/README.md``);
a lexicon file is ``name<TAB>type[<TAB>source id]`` lines (``.xz``/``.gz``
compressed or plain), so a user's own terminology reads the same way.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import unicodedata
import zipfile
from functools import lru_cache
from itertools import chain
from pathlib import Path

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.utils.validation import check_is_fitted

from .._sentence import Sentence, check_sentences
from .._validation import Integral, Interval, fit_context
from ..base import SentenceTransformerMixin
from ..features._corpus import factorize
from ..io._atomic import atomic_open
from ..io._decode import text_lines
from ..io._errors import CorpusFormatError
from ..schemes import labels_to_spans
from ._lexicon_kernel import CODES, MAX_CHARS, build_table, match_tokens, name_key

__all__ = ["BUNDLED_LEXICONS", "LEX_COLUMN", "LexiconMatcher", "normalize_name", "read_lexicon"]

#: The lexicons shipped with the package (``scripts/make_lexicons.py``).
BUNDLED_LEXICONS = Path(__file__).parent / "data" / "lexicons.tsv.xz"
#: The annotation column the matcher writes (the presets' ``lexicon`` feature group reads it).
LEX_COLUMN = "lex"
#: A lexicon file longer than this (characters, uncompressed) is refused as soon as its
#: reading passes it (the bundled one is 60 MB; compiling costs about 5 times that in memory).
MAX_LEXICON_BYTES = 1 << 28

_GREEK = str.maketrans({
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu",
    "ξ": "xi", "ο": "omicron", "π": "pi", "ρ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau",
    "υ": "upsilon", "φ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega"})
_ASCII_DROP = str.maketrans("", "", "".join(
    chr(c) for c in range(128) if not chr(c).isalnum()))


def normalize_name(text: str) -> str:
    """The form names and tokens are compared in.

    Lower case, Greek letters spelled out (``κB`` -> ``kappab``), accents
    and everything but letters and digits dropped, so hyphen, space and
    punctuation variants meet (``NF-kappa B``, ``NF-kappaB``, ``NF-κB``).

    Parameters
    ----------
    text : str

    Returns
    -------
    str

    Examples
    --------
    >>> normalize_name("NF-κB"), normalize_name("IL 2"), normalize_name("Crohn's disease")
    ('nfkappab', 'il2', 'crohnsdisease')
    """
    if text.isascii():
        return text.lower().translate(_ASCII_DROP)
    s = unicodedata.normalize("NFKC", text).lower().translate(_GREEK)
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if c.isalnum() and not unicodedata.combining(c))


def _lines(path: Path):
    """A lexicon file's lines (``.xz``/``.gz`` decompressed), streamed, size-bounded."""
    read = 0
    for n, line in text_lines(path, str(path)):
        read += len(line) + 1
        if read > MAX_LEXICON_BYTES:
            raise CorpusFormatError(path, n, f"a lexicon larger than {MAX_LEXICON_BYTES:,} "
                                             "characters uncompressed")
        yield n, line


def _entries(path):
    """``(name, type, id)`` of each entry of a lexicon file, checked line by line."""
    path = Path(path)
    empty = True
    for n, line in _lines(path):
        if line.startswith("#") or not line.strip():
            continue
        fields = line.rstrip("\r").split("\t")
        if not 2 <= len(fields) <= 3 or not fields[0].strip() or not fields[1].strip():
            raise CorpusFormatError(path, n, "expected 'name<TAB>type' or "
                                             f"'name<TAB>type<TAB>id', found {line!r:.80}")
        kind = fields[1].strip()
        if any(c.isspace() for c in kind):
            raise CorpusFormatError(path, n, f"the type {kind!r:.40} contains whitespace")
        empty = False
        yield fields[0], kind, fields[2] if len(fields) == 3 else ""
    if empty:
        raise CorpusFormatError(path, None, "the lexicon has no entries")


def read_lexicon(path):
    """Read a lexicon file: ``name<TAB>type[<TAB>source id]`` per line.

    Blank lines and lines starting with ``#`` are skipped; ``.xz`` and
    ``.gz`` files are decompressed.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    names, types, ids : list of str
        One entry per line (``ids`` empty strings where none is given).

    Raises
    ------
    CorpusFormatError
        Naming the file and line of the first malformed entry.
    """
    names, types, ids = (list(column) for column in zip(*_entries(path)))
    return names, types, ids


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _keyed(entries):
    """Distinct keys of ``(name, type, id)`` entries, their type bits (:func:`build_table`'s
    masks: a name without lower-case letters needs a capital letter in the text), and the
    sorted type names (at most 32)."""
    bit = {}
    masks = {}
    for name, kind, _ in entries:
        b = bit.get(kind)
        if b is None:
            b = bit[kind] = len(bit)
            if b == 32:
                raise ValueError("a lexicon has at most 32 types")
        key = name_key(normalize_name(name))
        if 0 < len(key) <= MAX_CHARS:
            symbol = name.upper() == name and name.lower() != name
            masks[key] = masks.get(key, 0) | (1 << (b + 32 if symbol else b))
    kinds = sorted(bit)  # bits renumbered in sorted type order
    raw = np.fromiter(masks.values(), dtype=np.uint64, count=len(masks))
    out = np.zeros_like(raw)
    for i, k in enumerate(kinds):
        for shift in (0, 32):
            out |= ((raw >> np.uint64(bit[k] + shift)) & np.uint64(1)) << np.uint64(i + shift)
    return list(masks), out, kinds


def _selected(path, types):
    """The entries of a lexicon file whose type is in ``types`` (None: all)."""
    entries = _entries(path)
    if types is None:
        return entries
    wanted = set(types)
    return (e for e in entries if e[1] in wanted)


def _cache_dir():
    """Where compiled lexicons are kept between processes: ``$SKBIONER_CACHE``, else
    ``$XDG_CACHE_HOME/skbioner`` (``~/.cache/skbioner``); None if it cannot be made."""
    root = os.environ.get("SKBIONER_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "skbioner")
    try:
        os.makedirs(root, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return root if os.access(root, os.W_OK | os.X_OK) else None


_TABLE_FIELDS = ("keys", "values", "bits", "masks")


def _cached(digest, types, compile_):
    """``compile_()``'s arrays, kept in the cache directory under the file's digest and the
    types (plain ``.npz``, read without pickles and checked before use)."""
    root = _cache_dir()
    tag = hashlib.sha256(repr((digest, types, MAX_CHARS)).encode()).hexdigest()[:24]
    path = None if root is None else os.path.join(root, f"lexicon-{tag}.npz")
    if path is not None and os.path.isfile(path):
        try:
            with np.load(path, allow_pickle=False) as z:
                arrays = {k: z[k] for k in _TABLE_FIELDS}
                kinds = tuple(str(k) for k in z["kinds"])
            keys, values, bits = arrays["keys"], arrays["values"], arrays["bits"]
            size = keys.shape[0]
            if (keys.dtype == np.uint64 and values.dtype == np.uint64 and bits.dtype == np.uint64
                    and size & (size - 1) == 0 and values.shape == keys.shape
                    and bits.size and bits.size & (bits.size - 1) == 0
                    and arrays["masks"].dtype == np.uint64):
                return (keys, values, bits), kinds, arrays["masks"]
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):
            pass  # a damaged or foreign file: compiled again, and replaced
    (keys, values, bits), kinds, masks = compile_()
    if path is not None:  # a cache that cannot be written is no error
        with contextlib.suppress(OSError, ValueError), atomic_open(path, "wb") as fh:
            np.savez(fh, keys=keys, values=values, bits=bits, masks=masks,
                     kinds=np.asarray(kinds, dtype=str))
    return (keys, values, bits), kinds, masks


def _names_per_type(masks, kinds):
    """Distinct names of each type: the names whose mask has the type's bit (either half)."""
    return {k: int(np.count_nonzero(masks & np.uint64((1 << i) | (1 << (i + 32)))))
            for i, k in enumerate(kinds)}


@lru_cache(maxsize=4)
def _load(path: str, mtime_ns: int, size: int, types):
    """The names of ``types`` (None: all) of a lexicon file, compiled once per version of the
    file (and kept in :func:`_cache_dir`): ``(table, type names, names per type, SHA-256 of
    the file)``."""
    digest = _digest(Path(path))

    def compile_():
        keys, masks, kinds = _keyed(_selected(path, types))
        return build_table(keys, masks), tuple(kinds), masks

    table, kinds, masks = _cached(digest, types, compile_)
    counts = _names_per_type(masks, kinds)
    return table, kinds, counts, digest


def _load_file(path: Path, types=None):
    try:
        st = os.stat(path)
    except OSError as exc:
        raise FileNotFoundError(f"{path}: cannot read the lexicon: {exc.strerror}") from None
    types = None if types is None else tuple(sorted(set(types)))
    return _load(str(path), st.st_mtime_ns, st.st_size, types)


def _position_values(codes, types):
    """Each token's value of the ``lex`` column: ``"type:code ..."`` (codes of
    :data:`~skbioner.annotate._lexicon_kernel.CODES`) of the types that match, or ``O``."""
    # the codes of each token in a name packed into one integer (3 bits a type), and the
    # distinct ones named
    hits = np.flatnonzero(codes.any(axis=1))
    key = np.zeros(hits.size, dtype=object if len(types) > 21 else np.uint64)
    for k in range(codes.shape[1]):
        key = key * 8 + codes[hits, k].astype(key.dtype)
    keys, inverse = np.unique(key, return_inverse=True)
    names = []
    for packed in keys.tolist():
        digits = [(int(packed) >> (3 * (len(types) - 1 - k))) & 7 for k in range(len(types))]
        names.append(" ".join(f"{t}:{CODES[c]}" for t, c in zip(types, digits) if c))
    values = np.full(codes.shape[0], "O", dtype=object)
    values[hits] = np.asarray(names, dtype=object)[inverse.reshape(-1)]
    return values.tolist()


def word_flags(words):
    """:func:`~skbioner.annotate._lexicon_kernel.match_tokens`'s flags of words: 1 for a capital
    letter, 2 for a lower-case English stop word (scikit-learn's list)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return np.fromiter(((w.lower() != w) | (2 * (w in ENGLISH_STOP_WORDS)) for w in words),
                       dtype=np.uint8, count=len(words))


class LexiconMatcher(
    SentenceTransformerMixin, TransformerMixin, BaseEstimator, auto_wrap_output_keys=None
):
    """Mark the tokens covered by lexicon names: each type's position in one token column.

    A name matches a run of tokens whose normalized forms
    (:func:`normalize_name`), joined, equal the name's -- so case, Greek
    letters written or spelled, hyphens, spaces and punctuation do not
    matter -- also with a final plural ``s`` on either side.  A run of tokens
    neither starts nor ends on a lower-case English stop word, and a name
    written without lower-case letters (a gene symbol such as ``CELL``)
    needs a capital letter in the run.  Per type the
    longest name from the leftmost free token wins, and its tokens are at
    ``B``, ``I``, ..., ``E`` (``S`` for a one-token name) of that type: the
    ``lex`` column holds them all (``"gene:B protein:S"``, ``"O"`` where no
    name matches), and every preset's ``lexicon`` feature group reads one
    feature per type and position.  Matching runs compiled over word
    types, at millions of tokens per second with millions of names.

    ``fit`` loads the lexicon; with ``lexicons="training"`` the names are
    the training entities (a *closed dictionary*, Zhou & Su 2004), typed
    by their class, and ``jackknife`` annotates the training sentences out
    of fold.  The bundled lexicons are not copied into a saved model (it
    records their digest and finds them in the installed package); a
    lexicon file of your own, or the training names, are stored in the
    model, which then needs no file.

    Parameters
    ----------
    lexicons : "bundled", str or path-like, default="bundled"
        ``"bundled"``: the lexicons shipped with the package (types
        ``anatomy``, ``cell_line``, ``cell_type``, ``cellular_component``,
        ``chemical``, ``disease``, ``gene``, ``nucleic_acid``, ``phenotype``,
        ``protein``, ``species``; sources in the package's
        ``annotate/data/README.md``).  ``"training"``: the entities of the
        ``y`` given to :meth:`fit`, typed by their class.  Otherwise a
        lexicon file (:func:`read_lexicon`).
    types : list of str or None, default=None
        The types to mark (None: all of the lexicon's).
    column : str, default="lex"
        The annotation column written (the presets' ``lexicon`` group reads
        ``lex``, their ``dictionary`` group the columns named ``dict_*``).
    jackknife : int or None, default=None
        With ``lexicons="training"``: :meth:`fit_transform` annotates the
        training sentences in ``jackknife`` blocks of whole documents, each
        by the names of the other blocks, so that a tagger trained on them
        sees the dictionary miss new names as it will on new text;
        :meth:`transform` uses the names of all the training data.

    Attributes
    ----------
    types_ : tuple of str
        The types marked, in column order.
    annotation_names_ : tuple of str
        ``(column,)``: the column :meth:`transform` adds.
    n_names_ : dict of str -> int
        Distinct normalized names per type.
    lexicon_digest_ : str
        SHA-256 of the lexicon file (of the names, for ``"training"``).

    Examples
    --------
    >>> from skbioner.annotate import LexiconMatcher
    >>> m = LexiconMatcher(types=["gene", "cell_line"]).fit()
    >>> m.transform([["NF-kappa", "B", "in", "HeLa", "cells"]])[0].column("lex")
    ('gene:B', 'gene:E', 'O', 'cell_line:B', 'cell_line:E')
    >>> closed = LexiconMatcher("training", column="dict_closed").fit(
    ...     [["IL-2", "gene", "expression"]], [["B-DNA", "I-DNA", "O"]])
    >>> closed.transform([["the", "IL-2", "genes"]])[0].column("dict_closed")
    ('O', 'DNA:B', 'DNA:E')
    """

    _parameter_constraints = {
        "lexicons": [str, os.PathLike],
        "types": [list, tuple, None],
        "column": [str],
        "jackknife": [Interval(Integral, 2, None, closed="left"), None],
    }

    # models saved before these parameters existed load with their defaults
    column, jackknife = LEX_COLUMN, None

    def __init__(self, lexicons="bundled", types=None, column=LEX_COLUMN, jackknife=None):
        self.lexicons = lexicons
        self.types = types
        self.column = column
        self.jackknife = jackknife

    def _path(self):
        return BUNDLED_LEXICONS if str(self.lexicons) == "bundled" else Path(self.lexicons)

    def _training(self):
        return str(self.lexicons) == "training"

    @fit_context
    def fit(self, X=None, y=None):
        """Load the lexicon, or take the names of the training entities.

        Parameters
        ----------
        X : list of sentences, optional
            Needed with ``lexicons="training"`` (ignored otherwise).
        y : list of list of str, optional
            IOB2 labels of ``X``; needed with ``lexicons="training"``.

        Returns
        -------
        self : LexiconMatcher
        """
        given = None if self.types is None else tuple(self.types)
        if given is not None and not given:
            raise ValueError("types must name at least one type (None: all)")
        if self._training():
            types, counts, digest, embedded = self._training_names(X, y, given)
            columns, given = range(len(types)), None
        else:
            table, kinds, counts, digest = _load_file(self._path(), given)
            types = kinds if given is None else given
            unknown = sorted(set(types) - set(kinds))
            if unknown:
                known = set(kinds) | {kind for _, kind, _ in _entries(self._path())}
                raise ValueError(f"types {unknown} are not in the lexicon {self._path()}, whose "
                                 f"types are {sorted(known)}")
            columns, embedded = [kinds.index(t) for t in types], None
            if str(self.lexicons) != "bundled":  # a user's file travels with the model
                keys, masks, kinds_ = _keyed(_selected(self._path(), given))
                embedded = ("\n".join(keys), masks, kinds_)
        self.types_ = types
        self.annotation_names_ = (self.column,)
        self.n_names_ = {t: counts[t] for t in types}
        self.lexicon_digest_ = digest
        self._columns = np.asarray(columns, dtype=np.int64)
        self._selection = given  # what the compiled table holds (None: every type)
        self.__dict__.pop("_embedded", None)
        self.__dict__.pop("_table", None)
        if embedded is not None:
            self._embedded = embedded
        return self

    def _training_names(self, X, y, given):
        """``lexicons="training"``: the types, names per type, digest and embedded table
        of ``y``'s entities."""
        if X is None or y is None:
            raise ValueError('lexicons="training" takes its names from the entities of y: '
                             "fit needs X and y")
        X, y = check_sentences(X, y, scheme="IOB2")
        entries = [(" ".join(s[a:b]), t, "") for s, lab in zip(X, y)
                   for t, a, b in labels_to_spans(lab)
                   if given is None or t in given]
        keys, masks, kinds = _keyed(entries)
        joined = "\n".join(keys)
        digest = hashlib.sha256(joined.encode() + masks.tobytes()).hexdigest()
        return tuple(kinds), _names_per_type(masks, kinds), digest, (joined, masks, tuple(kinds))

    def fit_transform(self, X, y=None):
        """Fit, then annotate ``X``: out of fold with ``lexicons="training"`` and ``jackknife``.

        Parameters
        ----------
        X : list of sentences
        y : list of list of str, optional
            IOB2 labels (needed with ``lexicons="training"``).

        Returns
        -------
        list of Sentence
            As :meth:`transform`; with ``jackknife``, each block of documents
            is annotated by the names of the other blocks.
        """
        self.fit(X, y)
        if self.jackknife is None or not self._training():
            return self.transform(X)
        from ..model_selection import document_splits

        X, y = check_sentences(X, y)
        out = [None] * len(X)
        for rest, inside in document_splits(X, self.jackknife):
            sub = clone(self).set_params(jackknife=None).fit([X[i] for i in rest],
                                                             [y[i] for i in rest])
            for i, s in zip(inside.tolist(), sub.transform([X[i] for i in inside])):
                out[i] = s
        return out

    def __getstate__(self):
        state = dict(super().__getstate__())
        state.pop("_table", None)  # rebuilt after loading
        return state

    def _compiled(self):
        """The hash table and the lexicon's type names."""
        table = self.__dict__.get("_table")
        if table is not None:
            return table
        embedded = self.__dict__.get("_embedded")
        if embedded is not None:
            keys, masks, kinds = embedded
            if self._training():  # small, and one per fold: not worth a cache file
                table = (build_table(keys.split("\n") if keys else [], masks), tuple(kinds))
            else:
                table, kinds, _ = _cached(self.lexicon_digest_, self._selection, lambda: (
                    build_table(keys.split("\n"), masks), tuple(kinds), masks))
                table = (table, kinds)
        else:
            table, kinds, _, digest = _load_file(BUNDLED_LEXICONS, self._selection)
            if digest != self.lexicon_digest_:
                raise ValueError(
                    "this model was fitted with other bundled lexicons (SHA-256 "
                    f"{self.lexicon_digest_[:12]}...) than the installed package's "
                    f"({digest[:12]}...): install the skbioner version it was trained with")
            table = (table, kinds)
        self._table = table
        return table

    def transform(self, X):
        """Add the lexicon's column (``lex`` by default) to every sentence.

        Parameters
        ----------
        X : list of sentences
            Each a :class:`~skbioner.Sentence` or a list of token strings.

        Returns
        -------
        list of Sentence
            New sentences with the column ``lex``: per token, ``"O"`` or the
            matching types with their positions (``"gene:B protein:S"``; types
            in :attr:`types_` order; positions ``B``, ``I``, ``E``, ``S``).
        """
        check_is_fitted(self, "annotation_names_")
        sentences = check_sentences(X)
        table, kinds = self._compiled()
        words, ids = factorize(list(chain.from_iterable(sentences)))
        lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        offsets = np.zeros(len(sentences) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        codes = match_tokens(ids, [normalize_name(w) for w in words], word_flags(words),
                             offsets, table, len(kinds))[:, self._columns]
        values = _position_values(codes, self.types_)
        bounds = offsets.tolist()
        hit = np.zeros(len(sentences), dtype=bool)
        nonempty = lengths > 0
        if nonempty.any():
            hit[nonempty] = np.logical_or.reduceat(codes.any(axis=1), offsets[:-1][nonempty])
        blank = {n: ("O",) * n for n in set(lengths.tolist())}
        name = self.annotation_names_[0]
        # the new column is right by construction: the sentences are made without checking
        # it again
        return [Sentence._checked(s, {**s._cols, name: tuple(values[a:b]) if h else blank[b - a]},
                                  s.doc_id)
                for s, a, b, h in zip(sentences, bounds[:-1], bounds[1:], hit.tolist())]
