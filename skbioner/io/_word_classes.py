"""Word class tables: the TSV file of :class:`skbioner.annotate.WordClassAnnotator`.

``# skbioner word classes; normalize=...`` first, comment lines (source,
licence), a header ``word<TAB>column...``, then one line per word: what
``skbioner clusters`` writes and the package's bundled classes are.
"""

from __future__ import annotations

import gzip
import io
import os
import re

from ._atomic import atomic_write_bytes
from ._decode import text_lines
from ._errors import CorpusFormatError

__all__ = ["NORMALIZATIONS", "UNKNOWN", "read_word_classes", "write_word_classes"]

#: The value of a word without a class.
UNKNOWN = "<unk>"
#: How words are normalized before counting and look-up (:func:`skbioner.annotate.normalize_word`).
NORMALIZATIONS = ("none", "lower", "lower-digits")

_HEADER = "# skbioner word classes"
#: Most class columns a table may have (``skbioner clusters`` writes a few), longest line.
MAX_COLUMNS = 64
_MAX_LINE = 1 << 16


def write_word_classes(path, tables, *, normalize="lower-digits", notes=()):
    """Write class tables as one TSV file (``.gz``: compressed) for ``WordClassAnnotator``.

    Parameters
    ----------
    path : str or path-like
    tables : list of fitted estimators or (words, {column: values}) pairs
        Fitted :class:`~skbioner.annotate.BrownClusterer`,
        :class:`~skbioner.annotate.EmbeddingClusterer` or
        :class:`~skbioner.annotate.WordClassAnnotator` objects (their ``table()``), all with
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
    words, columns = {}, {}  # columns: name -> {word: value}
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
        words.update(dict.fromkeys(ws))
        columns.update((name, dict(zip(ws, vals, strict=True))) for name, vals in cols.items())
    buf = io.StringIO()
    buf.write(f"{_HEADER}; normalize={normalize}\n")
    for note in notes:
        buf.write(f"# {note}\n")
    buf.write("\t".join(["word", *columns]) + "\n")
    for w in words:
        buf.write("\t".join([w, *(values.get(w, UNKNOWN) for values in columns.values())]) + "\n")
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
    CorpusFormatError
        A file that is not a class table, or a line with the wrong number of
        fields (file and line named).
    """
    path_str = os.fspath(path)
    with open(path, "rb") as fh:
        gzipped = fh.read(2) == b"\x1f\x8b"
    lines = text_lines(path, path_str, max_chars=_MAX_LINE, gzipped=gzipped)

    def fail(line, message):
        raise CorpusFormatError(path_str, line, message)

    _, first = next(lines, (1, ""))
    if not first.startswith(_HEADER):
        fail(1, f"not a word class table (expected {_HEADER!r} first; write one with "
                "skbioner clusters)")
    m = re.search(r"normalize=([\w-]+)", first)
    normalize = m.group(1) if m else "none"
    if normalize not in NORMALIZATIONS:
        fail(1, f"unknown normalize={normalize!r}")
    notes = []
    for i, line in lines:  # noqa: B007 - i is the header's line number, after the loop
        if not line.startswith("#"):
            break
        notes.append(line[1:].strip())
    else:
        fail(None, "no header line 'word<TAB>column...'")
    header = line.split("\t")
    if header[0] != "word" or not 2 <= len(header) <= MAX_COLUMNS + 1:
        fail(i, f"expected the header 'word<TAB>column...' with 1 to {MAX_COLUMNS} columns, "
                f"got {line!r:.80}")
    names = header[1:]
    rows, cols = {}, [[] for _ in names]
    for n, line in lines:
        fields = line.split("\t")
        if len(fields) != len(header):
            fail(n, f"expected {len(header)} tab-separated fields, got {len(fields)}")
        word = fields[0]
        if not word or any(ch.isspace() for ch in word):
            fail(n, f"a word must be non-empty and hold no space, got {word!r:.40}")
        if rows.setdefault(word, n) != n:
            fail(n, f"the word {word!r:.40} appears twice (first on line {rows[word]})")
        for c, v in zip(cols, fields[1:]):
            c.append(v or UNKNOWN)
    if not rows:
        fail(None, "no word after the header line (an empty class table)")
    return list(rows), dict(zip(names, cols, strict=True)), normalize, notes
