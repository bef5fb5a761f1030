"""brat standoff files: ``<id>.txt`` (the text) and ``<id>.ann`` (the spans).

An ``.ann`` file has one annotation per line.  Entity (``T``) lines read::

    T1<TAB>protein 26 30<TAB>NFAT

with 0-based character offsets into the decoded UTF-8 text of the ``.txt``
file, the end excluded, and the covered text as the last field.  Other lines
(relations ``R``, events ``E``, attributes ``A``, normalisations ``N``, notes
``#``, ...) are kept verbatim in :attr:`BratDocument.other_lines` and written
back; they are never dropped.  A discontinuous entity has several fragments,
``T1<TAB>protein 0 5;7 9<TAB>...`` with the fragment texts joined by a space
(as brat writes them); an entity whose text crosses a line break is written
so, as the fragments on either side of the break (brat cannot show a
fragment across lines).
"""

from __future__ import annotations

import dataclasses
import operator
import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ._atomic import atomic_write_files, utf8
from ._decode import check_text_controls, decode
from ._errors import CorpusFormatError

__all__ = [
    "Entity",
    "BratDocument",
    "read_brat",
    "read_brat_dir",
    "write_brat",
    "entities_from_spans",
]

_OFFSET = re.compile(r"[0-9]+")
_T_ID = re.compile(r"T\S+")
_T_NUMBER = re.compile(r"T([0-9]+)")
_T_FORMAT = "'T<n><TAB><type> <start> <end>[;<start> <end>...]<TAB><text>'"
_LINE_BREAKS = re.compile(r"\s*[\r\n]\s*")
# fragment texts are joined by this in the text field of a discontinuous entity (as brat does)
DISCONT_SEP = " "


@dataclass(frozen=True)
class Entity:
    """One entity mention of a brat document.

    Parameters
    ----------
    id : str
        The annotation id (``"T1"``); ``""`` lets :func:`write_brat` number it.
    type : str
        The entity type (``"protein"``).
    start, end : int
        Character offsets into the document text, 0-based, end excluded
        (of the first and the last fragment for a discontinuous entity).
    text : str
        The covered text, ``document.text[start:end]``.
    fragments : tuple of (int, int) or None, default=None
        For a discontinuous entity, the ``(start, end)`` offsets of its
        fragments, in text order; None for a contiguous one.
    """

    id: str
    type: str
    start: int
    end: int
    text: str
    fragments: tuple[tuple[int, int], ...] | None = None


@dataclass
class BratDocument:
    """A document with its text and character-offset entities (and brat's other lines).

    The document of every format with texts: brat (:func:`read_brat`),
    PubTator, BioC, JSONL (:func:`read_documents`).

    Parameters
    ----------
    id : str
        The document id: the file stem of ``<id>.txt`` / ``<id>.ann``, the
        PMID of a PubTator document, the id of a BioC or JSONL document.
    text : str
        The full text, exactly as in the ``.txt`` file (line breaks not
        translated).
    entities : list of Entity
        The ``T`` annotations, in file order.
    other_lines : list of str
        Every other line of the ``.ann`` file (relations, events,
        attributes, notes, empty lines), verbatim and in file order, without
        its line break; empty for the other formats.
    """

    id: str
    text: str
    entities: list[Entity] = field(default_factory=list)
    other_lines: list[str] = field(default_factory=list)

    def spans(self) -> list[tuple[str, int, int]]:
        """The entities as ``(type, start, end)`` tuples sorted by offsets.

        Returns
        -------
        list of (str, int, int)
            Half-open character offsets into :attr:`text`.
        """
        return sorted((e.type, e.start, e.end) for e in self.entities)


# --------------------------------------------------------------------------
# reading
# --------------------------------------------------------------------------


def read_brat(txt_path, ann_path=None) -> BratDocument:
    """Read one brat document.

    Parameters
    ----------
    txt_path : str or path-like
        The ``.txt`` file.  Its stem is the document id.
    ann_path : str or path-like, optional
        The ``.ann`` file; by default the file of the same stem beside
        ``txt_path``.

    Returns
    -------
    BratDocument

    Raises
    ------
    FileNotFoundError
        If ``txt_path`` (or an explicitly given ``ann_path``) does not exist.
    CorpusFormatError
        If the default ``.ann`` file is missing, if a file cannot be decoded
        as UTF-8, or at the first bad ``T`` line (naming the ``.ann`` file and
        line): a line not of the form ``T<n><TAB><type> <start> <end><TAB>
        <text>`` (or with ``;``-separated fragments), offsets that are not
        non-negative integers, ``start >= end``, ``end`` beyond the text,
        fragments out of order or overlapping, a text field that differs
        from ``text[start:end]`` (from the fragment texts joined by a space)
        or an id used twice.

    Notes
    -----
    The ``.txt`` file is decoded without newline translation, so offsets
    count a ``\\r\\n`` line break as two characters, as brat does.
    """
    txt_path = Path(txt_path)
    text = _read_text(txt_path)
    if ann_path is None:
        ann_path = txt_path.with_suffix(".ann")
        if not ann_path.is_file():
            raise CorpusFormatError(txt_path, None, f"no annotation file {ann_path.name} beside it")
    ann_path = Path(ann_path)
    ann = _read_text(ann_path)

    lines = ann.split("\n")
    if lines[-1] == "":
        lines.pop()
    entities: list[Entity] = []
    other_lines: list[str] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(lines, 1):
        if line.endswith("\r"):
            line = line[:-1]
        if not line.startswith("T"):
            other_lines.append(line)
            continue
        entity = _parse_entity(line, text, ann_path, lineno)
        if entity.id in seen:
            raise CorpusFormatError(
                ann_path,
                lineno,
                f"annotation id {entity.id!r} already used on line {seen[entity.id]}",
            )
        seen[entity.id] = lineno
        entities.append(entity)
    return BratDocument(id=txt_path.stem, text=text, entities=entities, other_lines=other_lines)


def read_brat_dir(directory) -> list[BratDocument]:
    """Read every brat document of a directory, sorted by document id.

    Every ``<id>.txt`` file needs its ``<id>.ann``, and every ``.ann`` file
    its ``.txt``.  Other files (``annotation.conf``, ...) are ignored, and so
    are subdirectories.

    Parameters
    ----------
    directory : str or path-like

    Returns
    -------
    list of BratDocument

    Raises
    ------
    FileNotFoundError, NotADirectoryError
        If ``directory`` does not exist or is not a directory.
    CorpusFormatError
        If the directory holds no ``.txt`` file, if a ``.txt`` or ``.ann``
        file has no partner, or for any error of :func:`read_brat`.
    """
    directory = Path(directory)
    if not directory.exists():
        raise FileNotFoundError(f"no such directory: {str(directory)!r}")
    if not directory.is_dir():
        raise NotADirectoryError(f"not a directory: {str(directory)!r}")
    txts: dict[str, Path] = {}
    anns: dict[str, Path] = {}
    for p in directory.iterdir():
        if p.suffix == ".txt" and p.is_file():
            txts[p.stem] = p
        elif p.suffix == ".ann" and p.is_file():
            anns[p.stem] = p
    for stem in sorted(anns.keys() - txts.keys()):
        raise CorpusFormatError(anns[stem], None, f"no text file {stem}.txt beside it")
    if not txts:
        raise CorpusFormatError(directory, None, "no brat documents (.txt files) found")
    return [read_brat(txts[stem], anns.get(stem)) for stem in sorted(txts)]


def _read_text(path: Path) -> str:
    text, _ = decode(path.read_bytes(), "utf-8", path, keep_bom=True)
    check_text_controls(text, path)
    return text


def _parse_entity(line: str, text: str, path: Path, lineno: int) -> Entity:
    parts = line.split("\t", 2)
    ann_id, middle, covered = parts if len(parts) == 3 else ("", "", "")
    typ, _, offsets = middle.partition(" ")
    pairs = [fragment.split(" ") for fragment in offsets.split(";")]
    if not _T_ID.fullmatch(ann_id) or not typ or any(len(pair) != 2 for pair in pairs):
        raise CorpusFormatError(
            path, lineno, f"malformed entity line {line!r}: expected {_T_FORMAT}"
        )
    for value in (value for pair in pairs for value in pair):
        if not _OFFSET.fullmatch(value):
            raise CorpusFormatError(
                path,
                lineno,
                f"offset {value!r} of {ann_id} is not a non-negative integer: {line!r}",
            )
    fragments = [(int(a), int(b)) for a, b in pairs]
    check_fragments(text, fragments, covered, path, lineno, f"{ann_id}: ")
    start, end = fragments[0][0], fragments[-1][1]
    return Entity(id=ann_id, type=typ, start=start, end=end, text=text[start:end],
                  fragments=tuple(fragments) if len(fragments) > 1 else None)


def check_fragments(text, frags, covered, path, line, where="", also=None) -> None:
    """Raise a CorpusFormatError (file, line, ``where`` before the message) unless ``frags``
    are ordered, disjoint, non-empty ``(start, end)`` spans of ``text`` and ``covered`` (None:
    not checked) is their text joined by a space, or ``also``."""
    for k, (a, b) in enumerate(frags):
        if a >= b:
            raise CorpusFormatError(path, line, f"{where}start {a} is not before end {b}")
        if k and a < frags[k - 1][1]:
            raise CorpusFormatError(path, line, f"{where}fragment {a} {b} overlaps or precedes "
                                                f"the one before it ({frags[k - 1][0]} "
                                                f"{frags[k - 1][1]})")
    if frags[-1][1] > len(text):
        raise CorpusFormatError(path, line, f"{where}end {frags[-1][1]} is beyond the end of "
                                            f"the text ({len(text)} characters)")
    expected = DISCONT_SEP.join(text[a:b] for a, b in frags)
    if covered is not None and covered not in (expected, also):
        at = ";".join(f"{a}:{b}" for a, b in frags)
        raise CorpusFormatError(path, line, f"{where}text field {covered!r} differs from the "
                                            f"text at {at}, {expected!r}")


# --------------------------------------------------------------------------
# building and writing
# --------------------------------------------------------------------------


def entities_from_spans(text: str, spans: Iterable[tuple[str, int, int]]) -> list[Entity]:
    """Entities for character spans of ``text``, numbered ``T1``... in order.

    Parameters
    ----------
    text : str
        The document text.
    spans : iterable of (str, int, int)
        ``(type, start, end)`` character offsets, 0-based, end excluded.

    Returns
    -------
    list of Entity
        Sorted by ``(start, end, type)``, with ids ``T1``, ``T2``, ... in
        that order and ``text[start:end]`` as their text.

    Raises
    ------
    ValueError
        For a span outside the text, an empty span or an entity type that is
        empty or contains whitespace.
    TypeError
        For offsets that are not integers or a type that is not a str.

    Examples
    --------
    >>> entities_from_spans("IL-2 gene", [("DNA", 0, 9), ("protein", 0, 4)])
    ... # doctest: +NORMALIZE_WHITESPACE
    [Entity(id='T1', type='protein', start=0, end=4, text='IL-2', fragments=None),
     Entity(id='T2', type='DNA', start=0, end=9, text='IL-2 gene', fragments=None)]
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    checked = []
    for k, span in enumerate(spans):
        try:
            typ, start, end = span
        except (TypeError, ValueError):
            raise ValueError(f"span {k} is not a (type, start, end) triple: {span!r}") from None
        _check_type(typ, f"span {k}")
        if isinstance(start, bool) or isinstance(end, bool):
            raise TypeError(f"span {k}: offsets must be integers, got {span!r}")
        try:
            start, end = operator.index(start), operator.index(end)
        except TypeError:
            raise TypeError(f"span {k}: offsets must be integers, got {span!r}") from None
        if not 0 <= start < end <= len(text):
            raise ValueError(
                f"span {k} {span!r} is empty or outside the text ({len(text)} characters)"
            )
        checked.append((start, end, typ))
    checked.sort()
    return [
        Entity(id=f"T{n}", type=typ, start=start, end=end, text=text[start:end])
        for n, (start, end, typ) in enumerate(checked, 1)
    ]


def write_brat(directory, doc: BratDocument, *, write_text: bool = True) -> tuple[Path, Path]:
    """Write a document as ``<id>.ann`` (and ``<id>.txt``) in ``directory``.

    Parameters
    ----------
    directory : str or path-like
        Destination directory, created if missing.
    doc : BratDocument
        The document.  Entities that have ids keep them and are written in
        list order; if no entity has an id they are numbered ``T1``, ``T2``,
        ... in ``(start, end)`` order.  If only some have ids, the others get
        fresh numbers above the largest ``T<n>`` id, and all are written in
        ``(start, end)`` order.  :attr:`BratDocument.other_lines` follow the
        entity lines, verbatim.  An entity with :attr:`Entity.fragments` is
        written with them; one whose text crosses a line break is written as
        the fragments between the breaks (``T1<TAB>DNA 10 14;15 23<TAB>IL-2
        receptor``), which :func:`read_brat` reads back with the same
        ``start``, ``end`` and ``text``.
    write_text : bool, default=True
        Also write the text to ``<id>.txt`` (UTF-8, line breaks as they are).

    Returns
    -------
    (Path, Path)
        The ``.txt`` and ``.ann`` paths (the ``.txt`` path even when it was
        not written).

    Raises
    ------
    ValueError
        For a document id that cannot name a file (see
        :func:`document_id_problem`), an entity whose offsets, fragments or
        text do not match the document text, a type that is empty or
        contains whitespace, an id that does not start with ``T`` or is used
        twice, an other line containing a line break, or text that cannot be
        written as UTF-8 (a lone surrogate).
    OSError
        If the files cannot be written.

    Notes
    -----
    The files are written atomically, and together: both are complete
    before either replaces an existing file, and an interruption (Ctrl-C,
    SIGTERM) never leaves a ``.txt`` without its ``.ann``.
    """
    if not isinstance(doc, BratDocument):
        raise TypeError(f"doc must be a BratDocument, got {type(doc).__name__}")
    doc_id = doc.id
    problem = document_id_problem(doc_id)
    if problem:
        raise ValueError(f"document id {doc_id!r} cannot be used as a file name: {problem}")
    text = doc.text
    for k, e in enumerate(doc.entities):
        if not isinstance(e, Entity):
            raise TypeError(f"entity {k} of document {doc_id!r} is {type(e).__name__}, not Entity")
        where = f"document {doc_id!r}, entity {k} ({e.id or 'no id'})"
        _check_type(e.type, where)
        if not (isinstance(e.start, int) and isinstance(e.end, int)) or not (
            0 <= e.start < e.end <= len(text)
        ):
            raise ValueError(f"{where}: offsets {e.start}:{e.end} are not a span of the text")
        if text[e.start : e.end] != e.text:
            raise ValueError(
                f"{where}: text {e.text!r} differs from the document text at "
                f"{e.start}:{e.end}, {text[e.start : e.end]!r}"
            )
        if e.id and not _T_ID.fullmatch(e.id):
            raise ValueError(f"{where}: entity id {e.id!r} must be 'T' followed by a name")
        _fragments(e, text, where)  # checked here, with the entity's position in the message
    entities = _number_entities(doc.entities, doc_id)
    for line in doc.other_lines:
        if not isinstance(line, str) or "\n" in line or "\r" in line:
            raise ValueError(
                f"document {doc_id!r}: other line {line!r} is not a single line of text"
            )
    lines = []
    for e in entities:
        frags = _fragments(e, text, doc_id)
        offsets = ";".join(f"{a} {b}" for a, b in frags)
        covered = DISCONT_SEP.join(text[a:b] for a, b in frags)
        lines.append(f"{e.id}\t{e.type} {offsets}\t{covered}\n")
    ann = "".join(lines) + "".join(line + "\n" for line in doc.other_lines)
    directory = Path(directory)
    txt_path = directory / f"{doc_id}.txt"
    ann_path = directory / f"{doc_id}.ann"
    contents = {ann_path: utf8(ann, f"document {doc_id!r}: the annotations")}
    if write_text:
        contents = {txt_path: utf8(text, f"document {doc_id!r}: the text"), **contents}
    directory.mkdir(parents=True, exist_ok=True)
    atomic_write_files(contents)
    return txt_path, ann_path


#: Longest document id, in UTF-8 bytes: ``<id>.ann`` fits the 255-byte name limit of usual
#: file systems.
MAX_ID_BYTES = 250


def document_id_problem(doc_id) -> str:
    """Why ``doc_id`` cannot name a document's files (``""`` if it can).

    An id names ``<id>.txt`` / ``<id>.ann``: it must be a non-empty string
    of at most :data:`MAX_ID_BYTES` UTF-8 bytes, not ``.`` or ``..``,
    without a path separator, a control character (NUL, line breaks, tabs),
    a lone surrogate, or leading or trailing blanks.
    """
    if not isinstance(doc_id, str):
        return f"not a string ({type(doc_id).__name__})"
    if not doc_id or doc_id in (".", ".."):
        return "empty, '.' or '..'"
    if "/" in doc_id or "\\" in doc_id or os.sep in doc_id or (
            os.altsep is not None and os.altsep in doc_id):
        return "a path, not a name"
    bad = next((c for c in doc_id if unicodedata.category(c) in ("Cc", "Cs")), None)
    if bad is not None:
        return f"it holds the character {bad!r}"
    if doc_id.strip() != doc_id:
        return "leading or trailing blanks"
    if len(doc_id.encode("utf-8")) > MAX_ID_BYTES:
        return f"longer than {MAX_ID_BYTES} bytes"
    return ""


def check_new_id(doc_id, seen, path, line) -> None:
    """Refuse (file and line named) a document id that cannot name a document or that
    ``seen`` (id -> line) holds, then add it there."""
    problem = document_id_problem(doc_id)
    if problem:
        raise CorpusFormatError(path, line, f"document id {doc_id!r:.60} cannot name a document: "
                                            f"{problem}")
    if doc_id in seen:
        raise CorpusFormatError(path, line, f"document id {doc_id!r} already used on line "
                                            f"{seen[doc_id]}")
    seen[doc_id] = line


def check_documents(documents) -> list[BratDocument]:
    """``documents`` as a list, each checked to be a :class:`BratDocument`."""
    documents = list(documents)
    for doc in documents:
        if not isinstance(doc, BratDocument):
            raise TypeError(f"documents must be BratDocument objects, got {type(doc).__name__}")
    return documents


def is_discontinuous(entity: Entity, text: str) -> bool:
    """Whether ``entity`` has fragments with more than whitespace between them.

    An entity written as fragments only because its text crosses a line
    break is not: its whole span is the entity.
    """
    frags = entity.fragments
    if not frags:
        return False
    return any(text[a[1]:b[0]].strip() for a, b in zip(frags, frags[1:]))


def _fragments(e: Entity, text: str, where: str) -> list[tuple[int, int]]:
    """The fragments an entity is written with (checked), see :func:`write_brat`."""
    if e.fragments is not None:
        frags = [tuple(f) for f in e.fragments]
        ok = frags and all(
            len(f) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in f)
            for f in frags)
        ok = ok and frags[0][0] == e.start and frags[-1][1] == e.end and all(
            a < b for a, b in frags) and all(
            frags[i][1] <= frags[i + 1][0] for i in range(len(frags) - 1))
        if not ok:
            raise ValueError(f"{where}: fragments {e.fragments!r} are not ordered, disjoint "
                             f"spans from start {e.start} to end {e.end}")
    else:
        frags, a = [], e.start
        for m in _LINE_BREAKS.finditer(text, e.start, e.end):
            if m.start() > a:
                frags.append((a, m.start()))
            a = m.end()
        if e.end > a:
            frags.append((a, e.end))
    if any("\n" in text[a:b] or "\r" in text[a:b] for a, b in frags):
        raise ValueError(f"{where}: a fragment crosses a line break, which brat cannot show")
    return frags


def _check_type(typ, where: str, path=None, line=None) -> None:
    """Refuse an entity type that is not a str (TypeError), is empty or holds whitespace or a
    control character (ValueError); with ``path``, either as a CorpusFormatError."""
    if not isinstance(typ, str):
        problem = TypeError(f"{where}: entity type must be a str, got {type(typ).__name__}")
    elif not typ or any(c.isspace() or not c.isprintable() for c in typ):
        problem = ValueError(f"{where}: entity type {typ!r} is empty or contains whitespace or "
                             "a control character")
    else:
        return
    raise problem if path is None else CorpusFormatError(path, line, str(problem))


def _number_entities(entities: list[Entity], doc_id: str) -> list[Entity]:
    """Give every entity an id (see :func:`write_brat`) and check uniqueness."""
    ids = [e.id for e in entities]
    given = [i for i in ids if i]
    if len(set(given)) != len(given):
        dup = next(i for i in given if given.count(i) > 1)
        raise ValueError(f"document {doc_id!r}: entity id {dup!r} is used twice")
    if len(given) == len(entities):
        return list(entities)
    ordered = sorted(entities, key=lambda e: (e.start, e.end, e.type))
    numbers = [int(m.group(1)) for i in given if (m := _T_NUMBER.fullmatch(i))]
    n = max(numbers, default=0)
    out = []
    for e in ordered:
        if not e.id:
            n += 1
            e = dataclasses.replace(e, id=f"T{n}")  # fragments kept
        out.append(e)
    return out
