"""One entry point for the corpus formats of the field: detection, reading, writing, conversion.

Formats (:data:`FORMATS`):

* ``columns`` -- column files (JNLPBA/GENIA ``token<TAB>label``, CoNLL
  ``token ... label`` separated by spaces): :func:`read_columns`;
* ``brat`` -- a directory of ``<id>.txt`` + ``<id>.ann`` (or one such pair):
  :func:`read_brat_dir`;
* ``pubtator`` -- title, abstract and entity lines: :func:`read_pubtator`;
* ``bioc-xml``, ``bioc-json`` -- BioC collections: :func:`read_bioc`;
* ``jsonl`` -- ``{"id", "text", "entities"}`` lines: :func:`read_jsonl`.

Every format but ``columns`` holds texts with character-offset entities
(:class:`BratDocument`); a column file holds tokens and labels.  Between the
two, :func:`corpus_to_documents` writes a column file's tokens as text
(joined by spaces, one sentence per line) and
:func:`skbioner.text.tokenize_documents` tokenizes texts and labels the
tokens (reading needs no tokenizer here: :func:`skbioner.datasets.load_corpus`
reads any format as training sentences).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from ._bioc import read_bioc, write_bioc
from ._brat import BratDocument, Entity, read_brat, read_brat_dir, write_brat
from ._columns import ColumnCorpus, read_columns
from ._decode import check_input_kind
from ._errors import CorpusFormatError
from ._json import loads as loads_bounded
from ._jsonl import iter_jsonl_records, read_jsonl, write_jsonl
from ._pubtator import is_pubtator_line, read_pubtator, write_pubtator

__all__ = [
    "FORMATS",
    "corpus_to_documents",
    "detect_format",
    "read_documents",
    "write_documents",
]

#: The corpus formats :func:`read_documents` and :func:`detect_format` know (and
#: :func:`skbioner.datasets.load_corpus`; :func:`write_documents` writes all but ``columns``).
FORMATS = ("columns", "brat", "pubtator", "bioc-xml", "bioc-json", "jsonl")

_EXTENSIONS = {
    ".iob2": "columns", ".iob": "columns", ".bio": "columns", ".conll": "columns",
    ".conll03": "columns", ".tsv": "columns", ".tab": "columns",
    ".pubtator": "pubtator",
    ".xml": "bioc-xml", ".bioc": "bioc-xml",
    ".json": "bioc-json",
    ".jsonl": "jsonl", ".ndjson": "jsonl",
    ".ann": "brat",
}
#: Bytes read to tell a file's format from its content.
_SNIFF_BYTES = 1 << 16


def _suffix(path: Path) -> str:
    name = path.name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    return os.path.splitext(name)[1]


def detect_format(path) -> str:
    """The format of a corpus path, from its kind, its extension or its content.

    * a directory: ``brat`` (it must hold ``.ann`` files);
    * a file ending in ``.iob2``, ``.iob``, ``.bio``, ``.conll``, ``.tsv``:
      ``columns``; ``.pubtator``: ``pubtator``; ``.xml``, ``.bioc``:
      ``bioc-xml``; ``.json``: ``bioc-json``; ``.jsonl``, ``.ndjson``:
      ``jsonl``; ``.ann`` (or a ``.txt`` beside an ``.ann``): one brat
      document (a final ``.gz`` is looked through);
    * a pipe (``<(zcat train.iob2.gz)``), which can be read only once:
      ``columns`` (give the format of anything else);
    * any other file by its first line: ``<`` is BioC XML, a JSON object
      with ``"documents"`` or ``"passages"`` (or a JSON text spread over
      several lines) BioC JSON, other JSON objects JSONL, ``<id>|t|<title>``
      PubTator, anything else a column file.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    str
        One of :data:`FORMATS`.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    CorpusFormatError
        For a directory without ``.ann`` files, or a device.
    """
    p = Path(path)
    if p.is_dir():
        if not any(q.suffix == ".ann" for q in p.iterdir()):
            raise CorpusFormatError(p, None, "a directory without .ann files is not a brat "
                                             "corpus (raw text to tag? see `skbioner tag`)")
        return "brat"
    if not p.exists():
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", os.fspath(path))
    check_input_kind(p, str(p))
    suffix = _suffix(p)
    if suffix in _EXTENSIONS:
        return _EXTENSIONS[suffix]
    if suffix == ".txt" and p.with_suffix(".ann").is_file():
        return "brat"
    if stat.S_ISFIFO(p.stat().st_mode):
        return "columns"  # a pipe is read once: looking at it would use up what it holds
    import gzip

    opener = gzip.open if p.name.endswith(".gz") else open
    try:
        with opener(p, "rb") as f:
            head = f.read(_SNIFF_BYTES)
    except (OSError, EOFError):
        return "columns"  # the reader reports what is wrong
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    lines = text.splitlines()
    first = next((line.strip() for line in lines if line.strip()), "")
    if first.startswith("<"):
        return "bioc-xml"
    if first.startswith(("{", "[")):
        try:
            obj = loads_bounded(first)
        except ValueError:  # a JSON text over several lines, or a first line cut by the limit
            bioc = first.startswith("[") or '"passages"' in text or '"documents"' in text
            return "bioc-json" if bioc else "jsonl"
        if isinstance(obj, dict) and not ({"documents", "passages"} & obj.keys()):
            return "jsonl"
        return "bioc-json"
    if is_pubtator_line(first):
        return "pubtator"
    return "columns"


def _check_format(format, path) -> str:
    if format == "auto":
        return detect_format(path)
    if format not in FORMATS:
        raise ValueError(f"format must be 'auto' or one of {', '.join(FORMATS)}; got {format!r}")
    return format


def read_documents(path, format="auto", *, sep="auto") -> list[BratDocument]:
    """Read a corpus of any format as documents: texts with character-offset entities.

    Parameters
    ----------
    path : str or path-like
        A file, or a brat directory.
    format : str, default="auto"
        One of :data:`FORMATS`, or ``"auto"`` (:func:`detect_format`).
    sep : str, default="auto"
        Field separator of a column file (see :func:`read_columns`).

    Returns
    -------
    list of BratDocument
        A column file gives the text of :func:`corpus_to_documents` (tokens
        joined by spaces, one sentence per line).

    Raises
    ------
    CorpusFormatError
        Naming the file and the line (or the document), at the first
        problem.
    """
    format = _check_format(format, path)
    if format == "columns":
        return corpus_to_documents(read_columns(path, sep=sep))
    if format == "brat":
        p = Path(path)
        if p.is_dir():
            return read_brat_dir(p)
        return [read_brat(p.with_suffix(".txt"), p.with_suffix(".ann"))]
    if format.startswith("bioc-"):
        return read_bioc(path, format=format[len("bioc-"):])
    return {"pubtator": read_pubtator, "jsonl": read_jsonl}[format](path)


def corpus_to_documents(corpus: ColumnCorpus, y=None) -> list[BratDocument]:
    """The documents of a column corpus: tokens joined by spaces, entities at their offsets.

    Each sentence is one line of its document's text (its tokens separated
    by single spaces, then a line break); each entity of the labels (IOB2,
    read with :func:`skbioner.schemes.labels_to_spans`) spans its tokens.

    Parameters
    ----------
    corpus : ColumnCorpus
    y : list of list of str, optional
        Labels to use instead of ``corpus.y`` (e.g. predictions).

    Returns
    -------
    list of BratDocument
        One per document of :meth:`ColumnCorpus.documents`; the id is the
        document id, the file's stem for sentences before any document
        marker, and an id met again (the JNLPBA test file repeats two
        abstracts) gets ``-2``, ``-3``... as the JNLPBA standoff release
        names them.

    Notes
    -----
    The tokens come back from the text with
    ``tokenize_documents(docs, tokenizer="whitespace")`` -- unless a token
    holds a space (possible in a tab-separated file) -- and the labels with
    them, except for ill-formed sequences (``O I-DNA`` is read as ``O
    B-DNA``).  The original spacing of the text is not in a column file and
    cannot be recovered.
    """
    from ..schemes import labels_to_spans

    labels = corpus.y if y is None else y
    if labels is None:
        raise ValueError(f"{corpus.path}: the corpus has no labels")
    stem = Path(corpus.path).name.split(".")[0] or "document"
    seen: dict[str, int] = {}
    docs = []
    for doc_id, idx in corpus.documents():
        doc_id = doc_id or stem
        seen[doc_id] = seen.get(doc_id, 0) + 1
        if seen[doc_id] > 1:
            doc_id = f"{doc_id}-{seen[doc_id]}"
        parts, entities, pos = [], [], 0
        for i in idx:
            tokens = corpus.X[i]
            starts = []
            for t in tokens:
                starts.append(pos)
                pos += len(t) + 1
            for typ, a, b in labels_to_spans(labels[i]):
                entities.append((typ, starts[a], starts[b - 1] + len(tokens[b - 1])))
            parts.append(" ".join(tokens) + "\n")
        text = "".join(parts)
        docs.append(BratDocument(doc_id, text, [
            Entity(f"T{n}", t, s, e, text[s:e]) for n, (t, s, e) in enumerate(entities, 1)]))
    return docs


def write_documents(path, documents, format) -> None:
    """Write documents in one of the formats of texts with entities.

    Parameters
    ----------
    path : str or path-like
        A file, or the directory of a brat corpus (created if missing).
    documents : list of BratDocument
    format : {"brat", "pubtator", "bioc-xml", "bioc-json", "jsonl"}
        A column file holds tokens, not texts: tokenize the documents first
        (:func:`skbioner.text.tokenize_documents`) and write them with
        :func:`write_columns`.

    Notes
    -----
    Files are written atomically (brat: each document's ``.txt`` and
    ``.ann`` together).
    """
    if format == "columns":
        raise ValueError("a column file holds tokens: tokenize the documents "
                         "(skbioner.text.tokenize_documents) and write them with write_columns")
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}; got {format!r}")
    documents = list(documents)
    if format == "brat":
        path = Path(path)
        if path.exists() and not path.is_dir():
            raise NotADirectoryError(f"{path}: brat output must be a directory")
        for doc in documents:
            write_brat(path, doc)
    elif format.startswith("bioc-"):
        write_bioc(path, documents, format=format[len("bioc-"):])
    else:
        {"pubtator": write_pubtator, "jsonl": write_jsonl}[format](path, documents)


def read_spans(path, format="auto", *, sep="auto"):
    """``{doc_id: (text or None, [(type, start, end), ...])}`` for scoring.

    As :func:`read_documents`, except that JSONL documents need no
    ``"text"`` (what ``skbioner tag`` writes); their text is then None.
    """
    format = _check_format(format, path)
    if format != "jsonl":
        return read_spans_of(read_documents(path, format, sep=sep))
    records = list(iter_jsonl_records(path, require_text=False))
    if all(text is not None for _, _, text, _ in records):
        return read_spans_of(read_jsonl(path))
    return {doc_id: (text, [(t, s, e) for t, s, e, _, _ in ents])
            for _, doc_id, text, ents in records}


def read_spans_of(documents):
    """``{doc_id: (text, spans)}`` of documents (see :func:`read_spans`)."""
    return {d.id: (d.text, [(e.type, e.start, e.end) for e in d.entities]) for d in documents}

