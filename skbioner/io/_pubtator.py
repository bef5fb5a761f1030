"""PubTator files: a title line, an abstract line and tab-separated entity lines per document.

::

    9321233|t|IL-2 gene expression ...
    9321233|a|NF-kappa B binds ...
    9321233<TAB>0<TAB>9<TAB>IL-2 gene<TAB>DNA<TAB>-
    9321233<TAB>CID<TAB>D000001<TAB>D000002

The text of a document is its title, a line break and its abstract; entity
offsets count from the start of the title, the end excluded.  Documents are
separated by empty lines.

The ``bioc`` package also reads and writes PubTator, but its reader takes an
entity line without a concept id (five fields) for a relation, prints a line
it cannot parse and goes on, and its writer ends every entity line with a
tab.  The format is three kinds of lines, so it is read and written here,
strictly, with errors naming the file and the line.
"""

from __future__ import annotations

import os
import re
import warnings

from ._atomic import atomic_write_utf8
from ._brat import (
    BratDocument,
    Entity,
    _check_type,
    check_documents,
    check_fragments,
    check_new_id,
    document_id_problem,
    is_discontinuous,
)
from ._decode import check_controls, decode, read_bytes
from ._errors import CorpusFormatError
from ._warnings import CorpusWarning

__all__ = ["read_pubtator", "write_pubtator"]

_TEXT_LINE = re.compile(r"([^|\t]*)\|([ta])\|(.*)\Z", re.DOTALL)
_OFFSET = re.compile(r"[0-9]+\Z")
# what an entity line's start looks like, well-formed or not (a sign, a digit of any script)
_NUMBER_LIKE = re.compile(r"\s*[-+]?\d")
_FLATTEN = re.compile(r"[\t\n\r]")
#: concept id written for an entity (skbioner keeps none); six fields, as most readers expect
NO_CONCEPT = "-"


def is_pubtator_line(line: str) -> bool:
    """Whether ``line`` is a PubTator title line (``<id>|t|<title>``)."""
    m = _TEXT_LINE.match(line)
    return m is not None and m.group(2) == "t" and bool(m.group(1).strip())


class _Doc:
    """A PubTator document being read."""

    def __init__(self, pmid, lineno):
        self.pmid, self.lineno = pmid, lineno
        self.title: str | None = None
        self.abstract: str | None = None
        self.lines: list[tuple[int, list[str]]] = []  # entity lines, kept until the text is known

    def text(self) -> str:
        return self.title if self.abstract is None else f"{self.title}\n{self.abstract}"


def read_pubtator(path, *, encoding="utf-8") -> list[BratDocument]:
    """Read a PubTator file into documents with their entities.

    Parameters
    ----------
    path : str or path-like
        The file (``.gz`` is read through gzip).
    encoding : str, default="utf-8"

    Returns
    -------
    list of BratDocument
        In file order; the id is the PMID, the text ``title + "\\n" +
        abstract`` (the title alone without an abstract line), the entities
        are numbered ``T1``, ``T2``... in file order.  Concept ids (the sixth
        field) and relation lines are not kept.

    Raises
    ------
    CorpusFormatError
        At the first problem, naming the file and the line: undecodable
        bytes, a control character, an entity line before any title line or
        with another document's id, a line that is neither a title, an
        abstract, an entity (``id start end text type [concept...]``) nor a
        relation (``id type id1 id2 [...]``), an entity line (its second
        field starts like a number) whose offsets are not non-negative
        integers in ASCII digits (``9 ``, ``2O``, ``-1``),
        ``start >= end``, an end beyond the text, a text field that differs
        from the text at the offsets (a space for the line break after the
        title is allowed), an entity type that is empty or holds
        whitespace, a document id used twice or that cannot name a file,
        or a file without any document.
    """
    path_str = os.fsdecode(os.fspath(path))
    text, _ = decode(read_bytes(path, path_str), encoding, path_str)
    check_controls(text, path_str)
    docs: list[BratDocument] = []
    seen: dict[str, int] = {}
    current: _Doc | None = None

    def close():
        if current is not None:
            docs.append(_finish(current, path_str, seen))

    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for lineno, line in enumerate(lines, 1):
        if line.endswith("\r"):
            line = line[:-1]
        if not line.strip():
            close()
            current = None
            continue
        m = _TEXT_LINE.match(line)
        if m is not None:
            pmid, kind, content = m.groups()
            if kind == "t":
                close()  # a title line starts a document, even without an empty line before it
                current = _Doc(pmid, lineno)
                current.title = content
                continue
            if current is None or current.pmid != pmid or current.lines:
                raise CorpusFormatError(
                    path_str, lineno,
                    f"abstract line of document {pmid!r} without its title line just before it")
            if current.abstract is not None:
                raise CorpusFormatError(path_str, lineno,
                                        f"second abstract line for document {pmid!r}")
            current.abstract = content
            continue
        fields = line.split("\t")
        if current is None:
            raise CorpusFormatError(
                path_str, lineno,
                f"expected a title line '<id>|t|<title>' to start a document, got {line!r:.80}")
        if fields[0] != current.pmid:
            raise CorpusFormatError(
                path_str, lineno,
                f"line of document {fields[0]!r:.40} inside document {current.pmid!r} (line "
                f"{current.lineno}); documents are separated by empty lines")
        if len(fields) > 1 and _NUMBER_LIKE.match(fields[1]):
            # an entity line (a relation's second field is its type, a word): its offsets
            # must be offsets -- '9 ', '2O', '-1' are errors, never a relation to drop
            _check_entity_fields(fields, line, path_str, lineno)
            current.lines.append((lineno, fields))
        elif len(fields) < 4:
            raise CorpusFormatError(
                path_str, lineno,
                f"malformed line {line!r:.80}: expected an entity '<id><TAB>start<TAB>end<TAB>"
                "text<TAB>type[<TAB>concept]' or a relation '<id><TAB>type<TAB>id1<TAB>id2'")
        # else a relation line: not kept
    close()
    if not docs:
        raise CorpusFormatError(path_str, None, "no PubTator document ('<id>|t|<title>' line)")
    return docs


def _check_entity_fields(fields, line, path, lineno):
    if len(fields) < 5:
        raise CorpusFormatError(
            path, lineno, f"malformed entity line {line!r:.80}: expected '<id><TAB>start<TAB>"
                          "end<TAB>text<TAB>type[<TAB>concept]'")
    for what, value in (("start", fields[1]), ("end", fields[2])):
        if not _OFFSET.match(value):
            raise CorpusFormatError(path, lineno, f"entity {what} offset {value!r:.20} is not a "
                                                  "non-negative integer (ASCII digits only)")


def _finish(doc: _Doc, path: str, seen: dict) -> BratDocument:
    check_new_id(doc.pmid, seen, path, doc.lineno)
    text = doc.text()
    entities = []
    for lineno, fields in doc.lines:
        start, end, covered, typ = int(fields[1]), int(fields[2]), fields[3], fields[4]
        check_fragments(text, [(start, end)], covered, path, lineno,
                        f"document {doc.pmid!r}: ", also=text[start:end].replace("\n", " "))
        _check_type(typ, "entity", path, lineno)
        entities.append(Entity(f"T{len(entities) + 1}", typ, start, end, covered))
    return BratDocument(doc.pmid, text, entities)


def render_pubtator(doc: BratDocument, lossy: dict) -> str:
    """The PubTator lines of one document (see :func:`write_pubtator`).

    The ids of documents written with a loss are added to ``lossy["flattened"]``
    (line breaks or tabs as spaces) and ``lossy["gapped"]`` (discontinuous
    entities as whole spans).
    """
    text = doc.text
    title, sep, abstract = text.partition("\n")
    flat_title = _FLATTEN.sub(" ", title)
    flat_abstract = _FLATTEN.sub(" ", abstract)
    if flat_title != title or flat_abstract != abstract:
        lossy["flattened"].append(doc.id)
    lines = [f"{doc.id}|t|{flat_title}\n"]
    if sep:
        lines.append(f"{doc.id}|a|{flat_abstract}\n")
    flat = f"{flat_title} {flat_abstract}" if sep else flat_title  # an entity's text field
    for e in sorted(doc.entities, key=lambda e: (e.start, e.end, e.type)):
        if is_discontinuous(e, text):
            lossy["gapped"].append(doc.id)
        lines.append(f"{doc.id}\t{e.start}\t{e.end}\t{flat[e.start:e.end]}\t{e.type}\t"
                     f"{NO_CONCEPT}\n")
    return "".join(lines)


def write_pubtator(path, documents) -> None:
    """Write documents as a PubTator file, atomically.

    Parameters
    ----------
    path : str or path-like
    documents : iterable of BratDocument
        The id of each is its PMID field.  The text up to its first line break
        is the title, the rest the abstract (without an abstract line when the
        text has no line break); further line breaks are written as spaces,
        which keeps every offset (one :class:`CorpusWarning` names the
        documents).  Each entity
        is a line ``id start end text type -`` (no concept id); a
        discontinuous entity is written as its whole span, with a warning.
        Documents are separated by empty lines.

    Raises
    ------
    ValueError
        For a document id that cannot name a document (empty, holding a
        ``|``, a tab or a line break), or text that is not valid Unicode.
    """
    parts = []
    lossy = {"flattened": [], "gapped": []}
    for doc in check_documents(documents):
        problem = document_id_problem(doc.id)
        if not problem and ("|" in doc.id or " " in doc.id):
            problem = "it holds a '|' or a space"
        if problem:
            raise ValueError(f"document id {doc.id!r} cannot be a PubTator id: {problem}")
        parts.append(render_pubtator(doc, lossy))
    what = {"flattened": "documents whose text has more than one line break or a tab: "
                         "PubTator holds a title line and an abstract line, so the other line "
                         "breaks and the tabs are written as spaces (offsets unchanged)",
            "gapped": "discontinuous entities written as the whole span from the first "
                      "fragment to the last (PubTator has no fragments)"}
    for kind, ids in lossy.items():
        if ids:
            docs = list(dict.fromkeys(ids))
            named = ", ".join(repr(d) for d in docs[:3]) + (" ..." if len(docs) > 3 else "")
            warnings.warn(f"{len(ids)} {what[kind]}; documents {named}", CorpusWarning,
                          stacklevel=2)
    atomic_write_utf8(path, "\n".join(parts))
