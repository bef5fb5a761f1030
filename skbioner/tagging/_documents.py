"""Raw-text documents for batch tagging: plain text, JSONL, PubTator, BioC, directories."""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..io._brat import document_id_problem
from ..io._corpus import _suffix as suffix_through_gz
from ..io._decode import check_encoding, file_kind, find_control
from ..io._json import JSONDepthError
from ..io._json import loads as _loads

__all__ = ["Document", "DocumentError", "iter_documents"]

#: File name endings read as JSONL (one ``{"id": ..., "text": ...}`` object per line).
JSONL_SUFFIXES = (".jsonl", ".ndjson")
#: Input formats accepted by :func:`iter_documents` (``"auto"``: decided per file).
INPUT_FORMATS = ("auto", "text", "jsonl", "pubtator", "bioc-xml", "bioc-json")
#: Formats read whole by :mod:`skbioner.io` (a document per PubTator/BioC document; the
#: annotations a file may hold are not read: the texts are tagged).
_CORPUS_FORMATS = {".pubtator": "pubtator", ".xml": "bioc-xml", ".bioc": "bioc-xml",
                   ".json": "bioc-json"}
#: The entries of a directory that are read, by name ending (a final ``.gz`` looked through
#: for PubTator and BioC); any other entry is skipped and named.
DIRECTORY_SUFFIXES = (".txt", *JSONL_SUFFIXES, *_CORPUS_FORMATS)


@dataclass(frozen=True)
class Document:
    """A raw-text document to tag.

    Parameters
    ----------
    id : str
        The file stem of a text file, or the ``"id"`` of a JSONL record.
    text : str
        The document's text.
    source : str
        Where it came from (``path`` or ``path:line``), for messages.
    """

    id: str
    text: str
    source: str


@dataclass(frozen=True)
class DocumentError:
    """A document that could not be read or tagged, and why.

    Parameters
    ----------
    id : str or None
        The document id when known.
    source : str
        ``path`` or ``path:line``.
    message : str
        What went wrong, one line.
    """

    id: str | None
    source: str
    message: str

    def __str__(self) -> str:
        who = f"document {self.id!r} ({self.source})" if self.id else self.source
        return f"{who}: {self.message}"


def _kind(path: Path) -> str:
    """``"dir"``, ``"file"`` (a regular file or a pipe), or what else ``path`` is."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return exc.strerror or "unreadable"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode):
        return "file"
    return file_kind(mode)


#: The input name that means standard input (read once; a text document's id is ``stdin``).
STDIN = "-"


def _is_stdin(path) -> bool:
    return os.fspath(path) == STDIN


def _open_binary(path):
    """``path`` opened for reading bytes; standard input (not closed after) for ``-``."""
    import contextlib
    import sys

    if _is_stdin(path):
        return contextlib.nullcontext(sys.stdin.buffer)
    return open(path, "rb")


def _suffix(path: Path) -> str:
    """The name ending that tells a file's format (``.pubtator`` for ``x.pubtator.gz``)."""
    suffix = suffix_through_gz(path)
    return suffix if suffix in _CORPUS_FORMATS or not path.name.lower().endswith(".gz") else ".gz"


def _skip_reason(path: Path) -> str:
    """Why the directory entry ``path`` is not read."""
    if path.is_dir():
        return "a directory (directories are not read recursively)"
    if not path.is_file():
        return "not a regular file"
    if path.suffix.lower() == ".ann":
        return "brat annotations (the texts beside them, .txt, are tagged)"
    return ("not a text (.txt), JSONL, PubTator or BioC file by its name: "
            f"{', '.join(DIRECTORY_SUFFIXES)} are read")


def _expand(inputs: Iterable, skipped=None) -> Iterator[Path]:
    stdin = 0
    for item in inputs:
        path = Path(item)
        if _is_stdin(item):
            stdin += 1
            if stdin > 1:
                raise ValueError("standard input (-) is given twice: it can be read once")
            yield path
            continue
        kind = _kind(path)
        if kind == "dir":
            children, passed = [], []
            for p in sorted(path.iterdir()):
                if p.is_file() and _suffix(p) in DIRECTORY_SUFFIXES:
                    children.append(p)
                else:
                    passed.append((p, _skip_reason(p)))
            if not children:
                raise FileNotFoundError(f"{path}: no file to tag in this directory (read: "
                                        f"{', '.join(DIRECTORY_SUFFIXES)}; found "
                                        f"{len(passed)} other entries)")
            if skipped is not None:
                skipped.extend(passed)
            yield from children
        elif kind == "file":  # a pipe too: <(zcat docs.jsonl.gz) is read once, as it streams
            yield path
        elif kind == "missing":
            raise FileNotFoundError(f"{path}: no such file or directory")
        else:
            raise ValueError(f"{path}: not a text file, JSONL file or directory ({kind})")


def input_format_of(path, input_format="auto") -> str:
    """The format a file is read in: ``input_format``, or with ``"auto"`` the file's.

    ``"auto"``: by the name's ending (``.jsonl``/``.ndjson`` JSONL,
    ``.pubtator`` PubTator, ``.xml``/``.bioc`` BioC XML, ``.json`` BioC JSON,
    a final ``.gz`` looked through), else by the content of a regular file
    (a first line ``<id>|t|<title>`` is PubTator, a ``<collection>`` BioC XML,
    a JSON object with ``"documents"`` or ``"passages"`` BioC JSON), else
    plain text.  Standard input and pipes (read once) are plain text.
    """
    if input_format != "auto":
        return input_format
    path = Path(path)
    suffix = _suffix(path)
    if suffix in JSONL_SUFFIXES:
        return "jsonl"
    if suffix in _CORPUS_FORMATS:
        return _CORPUS_FORMATS[suffix]
    if _is_stdin(path) or suffix == ".gz" or not path.is_file():
        return "text"
    from ..io._pubtator import is_pubtator_line

    try:
        with open(path, "rb") as fh:
            head = fh.read(1 << 16).decode("utf-8", "replace").lstrip("\ufeff")
    except OSError:
        return "text"  # the reader reports what is wrong
    first = next((line.strip() for line in head.splitlines() if line.strip()), "")
    if is_pubtator_line(first):
        return "pubtator"
    # a text may start with '<' or '[': a BioC file names its collection, passages
    if first.startswith("<") and "<collection" in head:
        return "bioc-xml"
    if first.startswith(("{", "[")) and re.search(r'"(passages|documents)"\s*:', head):
        return "bioc-json"
    return "text"


def _id_problem(doc_id):
    """Why ``doc_id`` cannot name a document's output files (``""`` if it can)."""
    if not isinstance(doc_id, str | int) or isinstance(doc_id, bool):
        return f'"id" must be a string or an integer, got {doc_id!r}'
    problem = document_id_problem(str(doc_id))
    if not problem:
        return ""
    shown = repr(str(doc_id)) if len(str(doc_id)) <= 60 else repr(str(doc_id)[:50]) + "..."
    return f'"id" {shown} cannot name output files: {problem}'


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_text(doc_id, text, source):
    bad = _SURROGATE.search(text)
    if bad is not None:  # from a JSON escape such as "\ud800": not text, cannot be written
        return DocumentError(doc_id, source, f"the text holds a lone surrogate "
                                             f"{bad.group()!r} at character {bad.start()} "
                                             "(not valid Unicode)")
    found = find_control(text)
    if found is not None:  # NUL and the like: glued to a word, written where no reader takes it
        i, c = found
        return DocumentError(doc_id, source, f"the text holds the control character {c!r} at "
                                             f"character {i} (a binary file?); not tagged")
    if not text.strip():
        return DocumentError(doc_id, source, "empty document (no text to tag)")
    return Document(doc_id, text, source)


def _unreadable(path: Path, exc: OSError) -> DocumentError:
    return DocumentError(None, str(path), f"cannot be read: {exc.strerror or exc}")


def _read_jsonl(path: Path, encoding: str) -> Iterator[Document | DocumentError]:
    try:
        fh = _open_binary(path)
    except OSError as exc:  # one unreadable file does not stop the batch
        yield _unreadable(path, exc)
        return
    name = "<stdin>" if _is_stdin(path) else path
    with fh as lines:
        for lineno, raw in enumerate(lines, 1):
            source = f"{name}:{lineno}"
            try:
                line = raw.decode(encoding)
            except UnicodeDecodeError as exc:
                yield DocumentError(None, source, f"cannot decode the line as {encoding} "
                                                  f"({exc.reason} at byte {exc.start})")
                continue
            if not line.strip():
                continue  # blank lines separate nothing
            try:
                record = _loads(line)
            except json.JSONDecodeError as exc:
                yield DocumentError(None, source, f"not a JSON object ({exc.msg})")
                continue
            except JSONDepthError as exc:
                yield DocumentError(None, source, f"not read: {exc}")
                continue
            if not isinstance(record, dict) or "text" not in record or "id" not in record:
                yield DocumentError(None, source,
                                    'expected a JSON object with "id" and "text" fields')
                continue
            doc_id, text = record["id"], record["text"]
            problem = _id_problem(doc_id)
            if problem:
                yield DocumentError(None, source, problem)
                continue
            if not isinstance(text, str):
                yield DocumentError(str(doc_id), source, f'"text" must be a string, got '
                                                         f"{type(text).__name__}")
                continue
            yield _check_text(str(doc_id), text, source)


def _read_text_file(path: Path, encoding: str) -> Document | DocumentError:
    try:
        data = path.read_bytes()
    except OSError as exc:  # one unreadable file does not stop the batch
        return _unreadable(path, exc)
    return _text_document(data, path.stem, str(path), 1, encoding)


def _text_document(data, doc_id, name, first_line, encoding):
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + first_line
        return DocumentError(doc_id, f"{name}:{line}",
                             f"cannot decode {data[exc.start:exc.end]!r} as {encoding} "
                             f"({exc.reason})")
    return _check_text(doc_id, text, name if first_line == 1 else f"{name}:{first_line}")


#: Plain text on standard input is read in pieces of about this many bytes, each cut at a
#: blank line (or at a line end, past 4 pieces' worth): endless input streams.
STDIN_PIECE = 1 << 18


def _read_stdin_text(encoding):
    """The plain text of standard input as documents: ``stdin`` (all of it, up to about
    :data:`STDIN_PIECE` bytes), then ``stdin-2``, ``stdin-3``... each from a line on; a
    line of more than 4 pieces' worth is reported and skipped."""
    k, start, line = 0, 1, 1  # documents so far, first line of the piece, current line
    piece, size, head, partial = [], 0, 0, 0  # chunks, bytes, chunks of whole lines, ...
    skipped = False

    def document(chunks):
        nonlocal k
        k += 1
        return _text_document(b"".join(chunks), "stdin" if k == 1 else f"stdin-{k}",
                              "<stdin>", start, encoding)

    with _open_binary(STDIN) as fh:
        for raw in iter(lambda: fh.readline(STDIN_PIECE), b""):
            piece.append(raw)
            size += len(raw)
            if not raw.endswith(b"\n"):
                partial += len(raw)
                if partial <= 4 * STDIN_PIECE:
                    continue
                if head:
                    yield document(piece[:head])
                yield DocumentError(None, f"<stdin>:{line}", f"a line of more than "
                                    f"{4 * STDIN_PIECE:,} bytes; not tagged")
                while raw and not raw.endswith(b"\n"):
                    raw = fh.readline(STDIN_PIECE)
                piece, size, skipped = [], 0, True
            head, partial, line = len(piece), 0, line + 1
            if not piece or size >= STDIN_PIECE and (not raw.strip() or size > 4 * STDIN_PIECE):
                if piece:
                    yield document(piece)
                piece, size, head, start = [], 0, 0, line
    if any(map(bytes.strip, piece)) or not (k or skipped):
        yield document(piece)


def _read_corpus(path: Path, fmt: str, encoding: str) -> Iterator[Document | DocumentError]:
    """The documents of a PubTator or BioC file (read whole); the file's error as one."""
    from ..io._bioc import read_bioc
    from ..io._pubtator import read_pubtator

    try:
        if fmt == "pubtator":
            docs = read_pubtator(path, encoding=encoding)
        else:
            docs = read_bioc(path, format=fmt[len("bioc-"):])
    except OSError as exc:  # one unreadable file does not stop the batch
        yield _unreadable(path, exc)
        return
    except ValueError as exc:  # CorpusFormatError names the file and the line
        yield DocumentError(None, str(path), f"not read as {fmt}: {exc}")
        return
    for doc in docs:
        yield _check_text(doc.id, doc.text, str(path))


def iter_documents(inputs, input_format="auto", encoding="utf-8", *, skipped=None):
    """Stream the documents of files, directories, JSONL, PubTator and BioC, one at a time.

    Parameters
    ----------
    inputs : iterable of path
        Plain-text files (one document each, id = file stem), JSONL files
        (``*.jsonl``: one ``{"id": ..., "text": ...}`` per line), PubTator
        files (a document per PMID: title, a line break, abstract; the
        offsets are PubTator's), BioC XML or JSON collections (a document
        per BioC document, passages at their offsets), directories (their
        files of these kinds, by name ending: ``DIRECTORY_SUFFIXES``,
        sorted by name); ``"-"``: standard input, one plain-text document
        with the id ``stdin`` (JSONL with ``input_format="jsonl"``); a text
        of more than :data:`STDIN_PIECE` bytes is read as a stream, in
        documents ``stdin``, ``stdin-2``... cut at blank lines.  Annotations
        in a PubTator or BioC file are not read.
    input_format : {"auto", "text", "jsonl", "pubtator", "bioc-xml", "bioc-json"}, default="auto"
        ``"auto"`` decides per file (``input_format_of``): by its name's
        ending, then by its content, else plain text.
    encoding : str, default="utf-8"
        Of text, JSONL and PubTator files (BioC XML declares its own).
        With UTF-8 a leading byte order mark is dropped (it is not text, and
        would stick to the first token); offsets count from after it.
    skipped : list, optional
        Receives a ``(path, reason)`` pair for each entry of an input
        directory that is not read (an ``.ann`` file, a subdirectory, a file
        of another kind), so a caller can say so.

    Returns
    -------
    iterator of Document or DocumentError
        Documents read lazily, one at a time.  A document that cannot be
        used (unreadable, undecodable, empty, a lone surrogate in JSONL
        text, a control character such as NUL in the text, a malformed
        JSONL record or one nested too deeply, an id that cannot name files
        or was seen before) comes as a :class:`DocumentError` naming the
        file and line, so a batch goes on; nothing is skipped silently.
        A PubTator or BioC file that cannot be read is one such error.

    Raises
    ------
    FileNotFoundError
        For an input that does not exist (when called, before any document
        is read).
    ValueError
        For an input that is a device (``/dev/zero``) or a socket, or an
        unknown encoding.
    """
    check_encoding(encoding)
    if encoding.lower().replace("_", "-") in ("utf-8", "utf8"):
        encoding = "utf-8-sig"  # a byte order mark is not text: it would glue to a token
    if input_format not in INPUT_FORMATS:
        raise ValueError(f"input_format must be one of {', '.join(INPUT_FORMATS)}, got "
                         f"{input_format!r}")
    if isinstance(inputs, str | os.PathLike):
        inputs = [inputs]
    paths = list(_expand(inputs, skipped))  # fail early on a missing input, before any document
    if input_format in ("pubtator", "bioc-xml", "bioc-json") and any(map(_is_stdin, paths)):
        raise ValueError(f"standard input (-) is read as plain text or JSONL, not "
                         f"{input_format}: give the file (a pipe such as <(zcat f.gz) works)")
    return _iter_documents(paths, input_format, encoding)


def _iter_documents(paths, input_format, encoding):
    seen = set()
    for path in paths:
        fmt = input_format_of(path, input_format)
        docs = (_read_jsonl(path, encoding) if fmt == "jsonl" else _read_corpus(
            path, fmt, encoding) if fmt != "text" else _read_stdin_text(encoding)
            if _is_stdin(path) else [_read_text_file(path, encoding)])
        for doc in docs:
            if isinstance(doc, Document):  # a failed document does not use up its id
                if doc.id in seen:
                    doc = DocumentError(doc.id, doc.source,
                                        "duplicate document id (its output would overwrite "
                                        "the first)")
                else:
                    seen.add(doc.id)
            yield doc
