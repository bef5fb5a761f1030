"""Column corpus files: JNLPBA / GENIA IOB2 files and CoNLL-style files.

A *column file* has one token per line, its fields separated by a fixed
separator (a tab in JNLPBA and GENIA files, a space in CoNLL files;
``sep="auto"`` tells them apart), an empty line after every sentence (the
last one may end with the file instead) and, optionally, document marker
lines:

* ``###MEDLINE:<id>`` (JNLPBA, GENIA) -- the document id is ``<id>``;
* a line whose first field is ``-DOCSTART-`` (CoNLL, possibly followed by
  more fields such as ``-DOCSTART- -X- -X- O``) -- documents are numbered
  ``doc0``, ``doc1``, ... in file order.

:func:`read_columns` reads such a file into a :class:`ColumnCorpus`: the
tokens as :class:`~skbioner.Sentence` objects (``X``), the label column
(``y``), one document id per sentence (``doc_ids``, usable as ``groups`` in
:class:`sklearn.model_selection.GroupKFold`) and a private record of the
file's layout.  :func:`write_columns` uses that record to write the corpus
back byte for byte, optionally with the labels replaced (which is how
predictions are written in the input's own format).

Reading is strict: the first problem found raises
:class:`~skbioner.io.CorpusFormatError` naming the file and the line.
Ill-formed label *sequences* made of valid labels (``O I-DNA``) are not an
error: gold and system files contain them and scorers must see them.
"""

from __future__ import annotations

import io
import operator
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from .._sentence import Sentence
from .._utils import gc_paused
from ..schemes import check_scheme, is_valid_label, scheme_labels, split_label
from ._atomic import atomic_write_bytes as _atomic_write_bytes
from ._decode import (
    check_controls,
    check_encoding,
    decode,
    detect_newline,
    read_bytes,
)
from ._errors import CorpusFormatError

__all__ = [
    "ColumnCorpus",
    "read_columns",
    "read_jnlpba",
    "read_conll",
    "write_columns",
]

_MEDLINE = "###MEDLINE:"
_DOCSTART = "-DOCSTART-"
_MARKER_PREFIXES = (_MEDLINE, _DOCSTART)


# --------------------------------------------------------------------------
# corpus object
# --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _ColumnLayout:
    """Everything about a column file that ``X``, ``y`` and ``doc_ids`` omit.

    With it, :func:`write_columns` reproduces the file byte for byte.

    Attributes
    ----------
    sep, newline, encoding : str
        Field separator, line terminator (``"\\n"`` or ``"\\r\\n"``) and
        text encoding of the file.
    n_columns : int
        Fields on every token line.
    token_col, label_col : int, int or None
        Non-negative indices of the token and label columns.
    keep : tuple of (str, int)
        Annotation name and non-negative column index of each kept column.
    fields : list of tuple of tuple of str
        Per sentence, the raw fields of each of its token lines (one tuple
        per token; the strings are shared with ``X`` and ``y``).
    before : list of tuple of str
        Per sentence, the raw lines between the previous sentence (or the
        start of the file) and its first token line: the empty line that
        ended the previous sentence, document markers, further empty lines.
        Equal tuples are shared, so the common ``("",)`` costs nothing.
    after : tuple of str
        The raw lines after the last sentence (at least its closing empty
        line).
    final_newline : bool
        Whether the last line of the file is terminated.
    """

    sep: str
    newline: str
    encoding: str
    n_columns: int
    token_col: int
    label_col: int | None
    keep: tuple[tuple[str, int], ...]
    fields: list[tuple[tuple[str, ...], ...]]
    before: list[tuple[str, ...]]
    after: tuple[str, ...]
    final_newline: bool


@dataclass
class ColumnCorpus:
    """A column file read into memory.

    Made by :func:`read_columns` (and :func:`read_jnlpba`,
    :func:`read_conll`); written back by :func:`write_columns`.

    Parameters
    ----------
    X : list of Sentence
        The sentences; kept columns are named annotations
        (``X[i].column("pos")``).
    y : list of list of str or None
        The label column, one list per sentence; None when the corpus was
        read with ``label_col=None``.
    doc_ids : list of str
        For each sentence, the id of its document: the MEDLINE id after
        ``###MEDLINE:``, ``"doc0"``, ``"doc1"``, ... for ``-DOCSTART-``
        documents, ``""`` for sentences before any marker.  Pass it as
        ``groups`` to :class:`sklearn.model_selection.GroupKFold` to keep the
        sentences of one abstract in one fold.
    path : str
        The file read.
    _layout : object, optional
        Private: how the file was laid out (set by the readers).

    Notes
    -----
    A private record of the file's layout (separators, marker lines, the
    raw fields of every token line) travels with the corpus so that
    :func:`write_columns` can reproduce the file exactly.  A corpus built
    directly from ``X``, ``y`` and ``doc_ids`` has no such record and is
    written in the JNLPBA layout instead (see :func:`write_columns`).

    Examples
    --------
    >>> corpus = read_jnlpba("train.iob2")                     # doctest: +SKIP
    >>> from sklearn.model_selection import GroupKFold         # doctest: +SKIP
    >>> folds = GroupKFold(5).split(corpus.X, corpus.y, groups=corpus.doc_ids)
    ... # doctest: +SKIP
    """

    X: list[Sentence]
    y: list[list[str]] | None
    doc_ids: list[str]
    path: str
    _layout: _ColumnLayout | None = field(default=None, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.X)

    def __repr__(self) -> str:
        n_tokens = sum(len(s) for s in self.X)
        return (
            f"{type(self).__name__}(path={self.path!r}, n_sentences={len(self.X)}, "
            f"n_tokens={n_tokens}, n_documents={len(self.documents())}, "
            f"labels={'yes' if self.y is not None else 'no'})"
        )

    def line_of(self, i: int, j: int = 0) -> int | None:
        """The 1-based line of token ``j`` of sentence ``i`` in the file read.

        Parameters
        ----------
        i : int
            Sentence index.
        j : int, default=0
            Token index within the sentence.

        Returns
        -------
        int or None
            None for a corpus built without a reader (no file layout).
        """
        layout = self._layout
        if layout is None:
            return None
        line = 1 + sum(len(b) + len(f) for b, f in zip(layout.before[:i], layout.fields[:i]))
        return line + len(layout.before[i]) + j

    def documents(self) -> list[tuple[str, list[int]]]:
        """The documents, in file order, with the indices of their sentences.

        A new document starts at every document marker in the file (and
        wherever the document id changes).  A document id that occurs twice
        in a file (the JNLPBA test file repeats two abstracts) therefore gives
        two entries.  Markers followed by no sentence give no entry.

        Returns
        -------
        list of (str, list of int)
            ``(doc_id, sentence_indices)`` pairs.
        """
        before = self._layout.before if self._layout is not None else None
        if before is not None and len(before) != len(self.doc_ids):
            before = None
        docs: list[tuple[str, list[int]]] = []
        for i, doc_id in enumerate(self.doc_ids):
            new = not docs or docs[-1][0] != doc_id
            if not new and before is not None:
                new = any(_is_marker(line) for line in before[i])
            if new:
                docs.append((doc_id, [i]))
            else:
                docs[-1][1].append(i)
        return docs


# --------------------------------------------------------------------------
# reading
# --------------------------------------------------------------------------


def read_columns(
    path,
    *,
    token_col: int = 0,
    label_col: int | str | None = -1,
    keep: Mapping[str, int] | None = None,
    sep: str = "\t",
    scheme: str | None = "IOB2",
    encoding: str = "utf-8",
) -> ColumnCorpus:
    """Read a column file (JNLPBA/GENIA IOB2, CoNLL style) strictly.

    Parameters
    ----------
    path : str or path-like
        The file (a name ending in ``.gz`` is read through gzip).  A
        missing file raises :class:`FileNotFoundError`.
    token_col : int, default=0
        Column of the tokens (negative counts from the end).
    label_col : int, None or "auto", default=-1
        Column of the labels, or None for a file without labels (``y`` is
        then None).  ``"auto"``: the last column if the token lines have
        more than one, else none (a file to tag, with or without labels).
    keep : dict of str -> int, optional
        Further columns to keep as named token annotations, e.g.
        ``{"pos": 1}``.  They appear as ``X[i].column(name)``.
    sep : str, default="\\t"
        The field separator, exactly (``" "`` for CoNLL files).  Fields are
        split on every occurrence, so two separators in a row make an empty
        field.  ``"auto"``: a tab if the first token line holds one, else a
        space if it holds one, else a tab (a one-column file).
    scheme : str or None, default="IOB2"
        Segment representation the labels must follow (see
        :mod:`skbioner.schemes`); every label is checked with
        :func:`~skbioner.schemes.is_valid_label`.  None reads the label
        column as raw strings without validation (e.g. a POS column).
    encoding : str, default="utf-8"
        Text encoding; the file is decoded strictly.  With UTF-8, a byte
        order mark at the start of the file is not text (it is written back
        by :func:`write_columns`).

    Returns
    -------
    ColumnCorpus
        Sentences, labels, per-sentence document ids and the file layout.

    Raises
    ------
    CorpusFormatError
        At the first problem, naming the file and the 1-based line: bytes
        that cannot be decoded, a control character (NUL, ...) anywhere in
        the text, mixed ``\\n`` / ``\\r\\n`` line endings, a
        token line with a different number of fields than the first one, a
        column index out of range, an empty (or whitespace-only) token or
        label, a label not valid under ``scheme``, a whitespace-only line, a
        document marker inside a sentence, a file that looks truncated (see
        Notes), an empty file or a file without any sentence; also an invalid
        gzip file, and a path that is a device rather than a file
        (``/dev/zero``).
    TypeError, ValueError
        For invalid arguments (``keep`` not a dict of name -> int, an
        unknown scheme or encoding, an empty separator).

    Notes
    -----
    Both ``\\n`` and ``\\r\\n`` line endings are read (the first line decides;
    a file mixing them is an error) and written back as found.  Empty lines
    between sentences may be repeated and document markers may be followed
    by a token line directly; all of it is recorded and written back.

    The last sentence need not be followed by an empty line, nor the last
    line by a line break: many CoNLL files end so, and the end of the file
    then ends the sentence (the file is written back as it was).  A file cut
    short by a failed copy cannot always be told from one that simply ends
    there; what can be told is an error: a last line without a line break
    that has fewer fields than the others (a different field count on any
    line is an error anyway), or whose label's entity type occurs nowhere
    else in the file (``B-DN`` at the end of a file of ``DNA`` labels).

    A GENIA part-of-speech file (``token<TAB>tag``) is read as tokens with a
    ``pos`` annotation and no labels by
    ``read_columns(path, keep={"pos": 1}, label_col=None)``; with
    ``label_col=-1, scheme=None`` the tags come back as ``y`` instead.

    Examples
    --------
    >>> corpus = read_columns("train.iob2")                    # doctest: +SKIP
    >>> corpus.X[0][:3], corpus.y[0][:3], corpus.doc_ids[0]    # doctest: +SKIP
    (('IL-2', 'gene', 'expression'), ['B-DNA', 'I-DNA', 'O'], '95369245')
    """
    token_col, label_col, keep_items, scheme = _checked_arguments(token_col, label_col, keep,
                                                                  sep, scheme, encoding)
    auto_sep = sep == "auto"
    path_str = os.fsdecode(os.fspath(path))

    text, encoding = decode(read_bytes(path, path_str), encoding, path_str)
    if not text:
        raise CorpusFormatError(path_str, None, "the file is empty")
    if auto_sep:
        sep = detect_separator(text)
    check_controls(text, path_str, sep)
    newline = detect_newline(text, path_str)
    lines = text.split(newline)
    del text
    final_newline = lines[-1] == ""
    if final_newline:
        lines.pop()
    with gc_paused():
        return _parse_lines(lines, path_str, token_col=token_col, label_col=label_col,
                            keep_items=keep_items, sep=sep, scheme=scheme, encoding=encoding,
                            newline=newline, final_newline=final_newline)




def _parse_lines(
    lines: list[str],
    path_str: str,
    *,
    token_col: int,
    label_col: int | str | None,
    keep_items: tuple[tuple[str, int], ...],
    sep: str,
    scheme: str | None,
    encoding: str,
    newline: str,
    final_newline: bool,
) -> ColumnCorpus:
    """The line loop of :func:`read_columns` (arguments already checked)."""
    X: list[Sentence] = []
    y: list[list[str]] | None = [] if label_col is not None else None
    doc_ids: list[str] = []
    all_fields: list[tuple[tuple[str, ...], ...]] = []
    befores: list[tuple[str, ...]] = []
    shared: dict[tuple[str, ...], tuple[str, ...]] = {}

    pending: list[str] = []  # non-token lines since the last sentence
    current: list[tuple[str, ...]] | None = None  # token fields of the open sentence
    doc_id = ""
    n_docstart = 0
    n_columns = -1
    tc = lc = -1
    kept: tuple[tuple[str, int], ...] = ()
    valid_labels: dict[str, int] = {}  # label -> line of its first occurrence

    def close_sentence() -> None:
        fields = tuple(current)
        all_fields.append(fields)
        annotations = {name: [f[c] for f in fields] for name, c in kept}
        X.append(Sentence([f[tc] for f in fields], doc_id=doc_ids[-1] or None, **annotations))
        if y is not None:
            y.append([f[lc] for f in fields])

    for lineno, line in enumerate(lines, 1):
        if not line:
            if current is not None:
                close_sentence()
                current = None
            pending.append(line)
            continue
        if line.startswith(_MARKER_PREFIXES) and _is_marker(line):
            doc_id = _document_id(line, n_docstart, current is not None, path_str, lineno)
            n_docstart += not line.startswith(_MEDLINE)
            pending.append(line)
            continue
        if line.isspace():
            raise CorpusFormatError(
                path_str,
                lineno,
                f"line contains only whitespace ({line!r}); sentences must be "
                "separated by truly empty lines",
            )
        fields = line.split(sep)
        if len(fields) != n_columns:
            if n_columns < 0:
                n_columns = len(fields)
                if label_col == "auto":
                    label_col = -1 if n_columns > 1 else None
                    if label_col is None:
                        y = None
                tc, lc, kept = _resolve_columns(
                    token_col, label_col, keep_items, n_columns, path_str, lineno
                )
            else:
                cut = (" (the file ends there without a line break: is it truncated?)"
                       if lineno == len(lines) and not final_newline else "")
                raise CorpusFormatError(
                    path_str,
                    lineno,
                    f"expected {n_columns} column(s) separated by {sep!r} (as on the "
                    f"first token line), found {len(fields)}: {line!r}{cut}",
                )
        token = fields[tc]
        if not token or token.isspace():
            raise CorpusFormatError(path_str, lineno, f"empty token in column {tc}: {line!r}")
        if lc >= 0:
            label = fields[lc]
            if label not in valid_labels:
                _check_label(label, scheme, path_str, lineno, line)
                valid_labels[label] = lineno
        if current is None:
            current = []
            before = tuple(pending)
            befores.append(shared.setdefault(before, before))
            pending = []
            doc_ids.append(doc_id)
        current.append(tuple(fields))

    if current is not None:  # the file ends the last sentence (no empty line after it)
        if not final_newline and lc >= 0 and scheme is not None:
            _check_not_cut(fields[lc], valid_labels, path_str, len(lines))
        close_sentence()
    if not X:
        raise CorpusFormatError(
            path_str, None, "no sentence found (only empty lines and document markers)"
        )

    layout = _ColumnLayout(
        sep=sep,
        newline=newline,
        encoding=encoding,
        n_columns=n_columns,
        token_col=tc,
        label_col=lc if lc >= 0 else None,
        keep=kept,
        fields=all_fields,
        before=befores,
        after=tuple(pending),
        final_newline=final_newline,
    )
    return ColumnCorpus(X=X, y=y, doc_ids=doc_ids, path=path_str, _layout=layout)


def read_jnlpba(path, **kwargs) -> ColumnCorpus:
    """Read a JNLPBA / GENIA file: ``token<TAB>label`` lines, IOB2 labels.

    Same as :func:`read_columns` with ``token_col=0, label_col=-1,
    sep="\\t", scheme="IOB2"``; any of these can be overridden.

    Parameters
    ----------
    path : str or path-like
        The file (e.g. JNLPBA ``train.iob2`` or ``test.iob2``).
    **kwargs
        Further arguments of :func:`read_columns`.

    Returns
    -------
    ColumnCorpus
    """
    options = {"token_col": 0, "label_col": -1, "sep": "\t", "scheme": "IOB2"}
    options.update(kwargs)
    return read_columns(path, **options)


def read_conll(path, *, sep: str = " ", **kwargs) -> ColumnCorpus:
    """Read a CoNLL-style file: space-separated columns, ``-DOCSTART-`` lines.

    Same as :func:`read_columns` with a space as default separator.  For the
    CoNLL-2003 layout ``token POS chunk label`` use
    ``read_conll(path, keep={"pos": 1, "chunk": 2})``.

    Parameters
    ----------
    path : str or path-like
    sep : str, default=" "
        See :func:`read_columns`.
    **kwargs
        Further arguments of :func:`read_columns` (``token_col``,
        ``label_col``, ``keep``, ``scheme``, ``encoding``).

    Returns
    -------
    ColumnCorpus
        Document ids are ``"doc0"``, ``"doc1"``, ... in the order of the
        ``-DOCSTART-`` lines.
    """
    return read_columns(path, sep=sep, **kwargs)


def detect_separator(text: str) -> str:
    """The field separator of a column file's text (``sep="auto"``).

    A tab if the first token line (neither empty nor a document marker)
    holds one, else a space if it holds one, else a tab (a file of one
    column).
    """
    for match in re.finditer(r"[^\n]+", text):  # the lines, without reading past the first
        line = match.group().rstrip("\r")
        if line and not line.isspace() and not _is_marker(line):
            return "\t" if "\t" in line else " " if " " in line else "\t"
    return "\t"


def _document_id(line, n_docstart, in_sentence, path, lineno) -> str:
    """The document id a marker line starts (``doc<n>`` for the ``n``-th ``-DOCSTART-``)."""
    if in_sentence:
        raise CorpusFormatError(path, lineno, f"document marker {line!r} inside a sentence: a "
                                "sentence must be ended by an empty line before the next "
                                "document starts")
    if not line.startswith(_MEDLINE):
        return f"doc{n_docstart}"
    doc_id = line[len(_MEDLINE):].strip()
    if not doc_id:
        raise CorpusFormatError(path, lineno, f"document marker {line!r} has no document id")
    return doc_id


def _is_marker(line: str) -> bool:
    """Whether ``line`` is a document marker line."""
    if line.startswith(_MEDLINE):
        return True
    return line.startswith(_DOCSTART) and line.split(None, 1)[0] == _DOCSTART


def _checked_arguments(token_col, label_col, keep, sep, scheme, encoding):
    """``read_columns``' arguments checked: ``(token_col, label_col, keep items, scheme)``."""
    token_col = _check_index(token_col, "token_col")
    if label_col is not None and not (isinstance(label_col, str) and label_col == "auto"):
        label_col = _check_index(label_col, "label_col")
    if not isinstance(sep, str) or not sep or "\n" in sep or "\r" in sep:
        raise ValueError(f"sep must be a non-empty string without line breaks, got {sep!r}")
    check_encoding(encoding)
    scheme = check_scheme(scheme) if label_col is not None and scheme is not None else None
    return token_col, label_col, _check_keep(keep), scheme


def _check_index(value, name: str) -> int:
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {value!r}") from None


def _check_keep(keep) -> tuple[tuple[str, int], ...]:
    if keep is None:
        return ()
    if not isinstance(keep, Mapping):
        raise TypeError(
            f"keep must be a dict of annotation name -> column index, got {type(keep).__name__}"
        )
    items = []
    for name, col in keep.items():
        if not isinstance(name, str) or not name:
            raise ValueError(f"keep: annotation names must be non-empty strings, got {name!r}")
        if name == "word":
            raise ValueError("keep: 'word' is the token column and cannot be an annotation name")
        items.append((name, _check_index(col, f"keep[{name!r}]")))
    return tuple(items)


def _resolve_columns(token_col, label_col, keep_items, n_columns, path, lineno):
    """Turn possibly negative column indices into checked non-negative ones, each used once."""
    named = [("token_col", token_col), *([("label_col", label_col)] if label_col is not None
                                         else []), *((f"keep[{n!r}]", c) for n, c in keep_items)]
    used: dict[int, str] = {}  # column -> "what=index", in the order above
    for what, index in named:
        c = index + n_columns if index < 0 else index
        if not 0 <= c < n_columns:
            raise CorpusFormatError(path, lineno, f"{what}={index} is out of range: the first "
                                                  f"token line has {n_columns} column(s)")
        if c in used:
            hint = ("; pass label_col=None for a file without a label column"
                    if what == "label_col" else "")
            raise CorpusFormatError(path, lineno, f"{what}={index} and {used[c]} both select "
                                                  f"column {c} of {n_columns}{hint}")
        used[c] = f"{what}={index}"
    columns = list(used)
    lc = columns.pop(1) if label_col is not None else -1
    return columns[0], lc, tuple((name, c) for (name, _), c in zip(keep_items, columns[1:]))


def _check_not_cut(label: str, first_lines: dict, path: str, lineno: int) -> None:
    """Refuse a last line whose label looks cut short (see :func:`read_columns`).

    Called for a file whose last line has no line break: a label seen there
    first whose entity type no other label has (``B-DN`` in a file of
    ``DNA`` labels) is most likely the beginning of a longer one.
    """
    if first_lines.get(label) != lineno:
        return
    _, typ = split_label(label)
    if typ is None or any(split_label(other)[1] == typ for other in first_lines if other != label):
        return
    raise CorpusFormatError(
        path, lineno,
        f"the file ends without a line break on label {label!r}, whose entity type {typ!r} "
        "occurs nowhere else in the file: is the file truncated? (add the missing line "
        "break if the file is complete)")


def _check_label(label: str, scheme: str | None, path: str, lineno: int, line: str) -> None:
    if not label or label.isspace():
        raise CorpusFormatError(path, lineno, f"empty label: {line!r}")
    if scheme is not None and not is_valid_label(label, scheme):
        allowed = ", ".join(scheme_labels(scheme, ["x"]))
        raise CorpusFormatError(
            path,
            lineno,
            f"label {label!r} is not a valid {scheme} label (allowed: {allowed}, with x "
            "an entity type without whitespace); pass scheme=None to read the column "
            "without validation",
        )


# --------------------------------------------------------------------------
# writing
# --------------------------------------------------------------------------


def write_columns(path_or_file, corpus: ColumnCorpus, y=None) -> None:
    """Write a corpus in the layout it was read from, optionally relabelled.

    Parameters
    ----------
    path_or_file : str, path-like or file object
        Destination.  A path is written atomically (a temporary file in the
        same directory, then :func:`os.replace`), in the corpus's encoding.
        A text file object receives the text as is (open it with
        ``newline=""`` so that line endings are not translated); a binary
        file object receives the encoded bytes.
    corpus : ColumnCorpus
        What to write.  Tokens come from ``corpus.X``, kept columns from the
        sentences' annotations of the same name (the value read from the
        file when a sentence lacks that annotation), labels from ``y`` or
        ``corpus.y``; every other field, separator, document marker and
        empty line is written as it was read, so that
        ``write_columns(out, read_columns(p))`` reproduces ``p`` byte for
        byte.
    y : list of list of str, optional
        Labels replacing the label column (e.g. predictions), one list per
        sentence with one label per token.  If the file had no label column
        (read with ``label_col=None``) they are appended as a new last
        column.  Labels are not validated against a scheme.

    Raises
    ------
    ValueError
        If ``y`` or ``corpus.X`` do not have the sentence and token counts of
        the corpus's layout (the error names the first sentence that
        differs), or if a value cannot be written in the layout (empty, or
        containing the separator or a line break).
    TypeError
        If ``corpus`` is not a :class:`ColumnCorpus` or a value is not a str.

    Notes
    -----
    A corpus built directly (without a reader) has no layout record; it is
    written in the JNLPBA layout: ``###MEDLINE:<id>`` and an empty line
    where a document starts (for non-empty ids), then for each token its
    word, its annotations (in the order of the first sentence's annotations)
    and its label separated by tabs, and an empty line after each sentence.
    """
    if not isinstance(corpus, ColumnCorpus):
        raise TypeError(f"corpus must be a ColumnCorpus, got {type(corpus).__name__}")
    from ..schemes import check_label_sequences

    labels = corpus.y if y is None else check_label_sequences(y, map(len, corpus.X), scheme=False)
    layout = corpus._layout if corpus._layout is not None else _plain_layout(corpus)
    text = _render(layout, corpus.X, labels)
    encoding = layout.encoding

    if hasattr(path_or_file, "write"):
        if isinstance(path_or_file, io.RawIOBase | io.BufferedIOBase) or "b" in getattr(
            path_or_file, "mode", ""
        ):
            path_or_file.write(text.encode(encoding))
        else:
            path_or_file.write(text)
        return
    _atomic_write_bytes(path_or_file, text.encode(encoding))


def _render(layout: _ColumnLayout, X, labels) -> str:
    """Rebuild the file text from ``layout`` with current tokens and labels."""
    if len(X) != len(layout.fields):
        raise ValueError(
            f"corpus.X has {len(X)} sentences but the file it was read from has "
            f"{len(layout.fields)}; a corpus can only be written with its own sentences"
        )
    if labels is not None and len(labels) != len(X):
        raise ValueError(
            f"corpus.y has {len(labels)} label sequences but corpus.X has {len(X)} sentences"
        )
    sep = layout.sep
    tc, lc = layout.token_col, layout.label_col
    append_labels = labels is not None and lc is None
    out: list[str] = []
    for i, raw in enumerate(layout.fields):
        out.extend(layout.before[i])
        sentence = X[i]
        if len(sentence) != len(raw):
            raise ValueError(
                f"sentence {i} has {len(sentence)} tokens but had {len(raw)} when read; "
                "a corpus can only be written with its own tokenisation"
            )
        columns = [(tc, sentence, "token", True)]
        if isinstance(sentence, Sentence):
            for name, c in layout.keep:
                if sentence.has(name):
                    columns.append((c, sentence.column(name), f"annotation {name!r}", False))
        if labels is not None:
            sent_labels = labels[i]
            if len(sent_labels) != len(raw):
                raise ValueError(
                    f"sentence {i} has {len(raw)} tokens but {len(sent_labels)} labels"
                )
            if lc is not None:
                columns.append((lc, sent_labels, "label", True))
        changed = []
        for c, values, what, required in columns:
            if any(v != f[c] for v, f in zip(values, raw, strict=True)):
                for j, v in enumerate(values):
                    _check_value(v, sep, i, j, what, required)
                changed.append((c, values))
        if not changed and not append_labels:
            out.extend(sep.join(f) for f in raw)
            continue
        if append_labels:
            for j, v in enumerate(sent_labels):
                _check_value(v, sep, i, j, "label", True)
        for j, f in enumerate(raw):
            f = list(f)
            for c, values in changed:
                f[c] = values[j]
            if append_labels:
                f.append(sent_labels[j])
            line = sep.join(f)
            if _is_marker(line):
                raise ValueError(
                    f"sentence {i}, token {j}: the line {line!r} would be read back as a "
                    "document marker"
                )
            out.append(line)
    out.extend(layout.after)
    text = layout.newline.join(out)
    if layout.final_newline:
        text += layout.newline
    return text


def _check_value(value, sep: str, i: int, j: int, what: str, required: bool) -> None:
    if not isinstance(value, str):
        raise TypeError(f"sentence {i}, token {j}: {what} is {type(value).__name__}, not str")
    if required and (not value or value.isspace()):
        raise ValueError(f"sentence {i}, token {j}: empty {what} {value!r} cannot be written")
    if sep in value or "\n" in value or "\r" in value:
        raise ValueError(
            f"sentence {i}, token {j}: {what} {value!r} contains the separator {sep!r} "
            "or a line break and cannot be written"
        )


def _plain_layout(corpus: ColumnCorpus) -> _ColumnLayout:
    """The JNLPBA layout for a corpus that has no layout record.

    Its fields are placeholders that equal no value, so :func:`_render`
    checks and writes every token, annotation and label.
    """
    X, doc_ids = corpus.X, corpus.doc_ids
    if len(doc_ids) != len(X):
        raise ValueError(f"corpus has {len(X)} sentences but {len(doc_ids)} doc_ids")
    names: list[str] = []
    if X and isinstance(X[0], Sentence):
        names = list(X[0].annotations)
    before, previous = [], None
    for i, sentence in enumerate(X):
        lines = [""] if i else []  # the empty line after the sentence before
        if doc_ids[i] != previous:
            previous = doc_ids[i]
            if previous:
                lines.extend((_MEDLINE + previous, ""))
        before.append(tuple(lines))
        for name in names:
            if not isinstance(sentence, Sentence) or not sentence.has(name):
                raise ValueError(
                    f"sentence {i} has no {name!r} annotation but sentence 0 has; all "
                    "sentences must have the same annotations"
                )
    unset = (object(),) * (1 + len(names))
    return _ColumnLayout(sep="\t", newline="\n", encoding="utf-8", n_columns=len(unset),
                         token_col=0, label_col=None,
                         keep=tuple((name, c) for c, name in enumerate(names, 1)),
                         fields=[(unset,) * len(s) for s in X], before=before,
                         after=("",) if X else (), final_newline=bool(X))
