"""BioC XML and BioC JSON collections, read and written through the ``bioc`` package.

A BioC document is a list of passages (a title, an abstract, the sections of
an article), each with its offset in the document; annotations (on the
document, a passage or a sentence) carry an ``infons`` dict (the entity type
under ``"type"``) and one or more locations (``offset``, ``length``) in
document characters.  The text of a document is its passages at their
offsets, the gaps between them filled with line breaks (as
:func:`bioc.get_text` does).

``bioc`` (https://github.com/bionlplab/bioc, MIT licence) parses and
serialises; this module turns its objects into :class:`BratDocument` objects
and back, and checks what ``bioc`` does not (offsets inside the text, the
annotation text at its offsets, a type for every annotation), naming the file
and the document.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os

from ._atomic import atomic_write_utf8
from ._brat import (
    BratDocument,
    Entity,
    _check_type,
    _number_entities,
    check_documents,
    document_id_problem,
)
from ._columns import _decode, _read_bytes
from ._errors import CorpusFormatError

__all__ = ["read_bioc", "write_bioc"]

#: The infon holding an annotation's entity type.
TYPE_INFON = "type"
BIOC_FORMATS = ("xml", "json")


def read_bioc(path, *, format="auto", type_infon=TYPE_INFON) -> list[BratDocument]:
    """Read a BioC XML or BioC JSON collection into documents with their entities.

    Parameters
    ----------
    path : str or path-like
        The file (``.gz`` is read through gzip).
    format : {"auto", "xml", "json"}, default="auto"
        ``"auto"``: JSON if the file starts with ``{`` or ``[``, XML
        otherwise.  JSON may be a collection (``{"documents": [...]}``), a
        list of documents or one document; missing ``infons``,
        ``relations`` and ``annotations`` fields are taken as empty.
    type_infon : str, default="type"
        The infon that holds an annotation's entity type.

    Returns
    -------
    list of BratDocument
        In collection order: the BioC document id, its text (passages at
        their offsets, line breaks between them), its annotations as
        entities (several locations as :attr:`Entity.fragments`), sorted by
        offsets and numbered ``T1``, ``T2``...  Annotation ids, relations,
        infons other than the type, passage and sentence structure are not
        kept.

    Raises
    ------
    CorpusFormatError
        Naming the file, and the line (XML syntax) or the document: a file
        that is not BioC (XML syntax errors, missing ``offset``, ``id`` or
        ``locations``), overlapping passages, an annotation without the type
        infon, with a type holding whitespace, outside the text, or whose
        text differs from the document text at its location, a document id
        that cannot name a document or is used twice.
    """
    import bioc

    if format not in ("auto", *BIOC_FORMATS):
        raise ValueError(f"format must be 'auto', 'xml' or 'json', got {format!r}")
    path_str = os.fsdecode(os.fspath(path))
    data = _read_bytes(path, path_str)
    if format == "auto":
        format = "json" if data.lstrip()[:1] in (b"{", b"[") else "xml"
    if format == "xml":
        documents = _load_xml(data, path_str)
    else:
        documents = _load_json(data, path_str)
    out, seen = [], {}
    for k, document in enumerate(documents):
        doc = _to_document(document, k, path_str, type_infon, bioc)
        if doc.id in seen:
            raise CorpusFormatError(path_str, None, f"document id {doc.id!r} is used by "
                                                    f"documents {seen[doc.id] + 1} and {k + 1}")
        seen[doc.id] = k
        out.append(doc)
    if not out:
        raise CorpusFormatError(path_str, None, "the BioC collection has no document")
    return out


def _load_xml(data: bytes, path: str):
    import bioc
    from lxml import etree

    try:
        return bioc.biocxml.load(io.BytesIO(data)).documents
    except etree.XMLSyntaxError as exc:
        raise CorpusFormatError(path, exc.lineno, f"not BioC XML: {exc.msg}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        line, what = _xml_problem(data)
        raise CorpusFormatError(path, line, f"not a BioC XML collection: {what or exc!r}") from None


def _xml_problem(data: bytes):
    """``(line, message)`` of the first element the ``bioc`` decoder cannot read."""
    from lxml import etree

    root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    if root.tag != "collection":
        return root.sourceline, f"the root element is <{root.tag}>, not <collection>"
    for elem in root.iter("passage", "sentence"):
        if not (elem.findtext("offset") or "").strip().isdigit():
            return elem.sourceline, f"<{elem.tag}> without an integer <offset>"
    for elem in root.iter("annotation"):
        if "id" not in elem.attrib:
            return elem.sourceline, "<annotation> without an id attribute"
    for elem in root.iter("location"):
        if not all((elem.get(a) or "").strip().isdigit() for a in ("offset", "length")):
            return elem.sourceline, "<location> without integer offset and length attributes"
    return None, ""


def _load_json(data: bytes, path: str):
    import bioc.biocjson

    text, _ = _decode(data, "utf-8", path)
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CorpusFormatError(path, exc.lineno, f"not JSON: {exc.msg}") from None
    if isinstance(obj, dict) and "documents" in obj:
        docs = obj["documents"]
    elif isinstance(obj, dict) and "passages" in obj:
        docs = [obj]
    else:
        docs = obj
    if not isinstance(docs, list):
        raise CorpusFormatError(path, None, 'not BioC JSON: expected a collection {"documents": '
                                            '[...]}, a list of documents or one document')
    out = []
    for k, doc in enumerate(docs):
        where = f"document {k + 1}" + (f" ({doc.get('id')!r})" if isinstance(doc, dict) else "")
        try:
            out.append(bioc.biocjson.fromJSON(_json_defaults(doc), "BioCDocument"))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            missing = f"no {exc.args[0]!r} field" if isinstance(exc, KeyError) else repr(exc)
            raise CorpusFormatError(path, None, f"{where}: not a BioC JSON document ({missing})"
                                    ) from None
    return out


def _json_defaults(doc):
    """A copy of a BioC JSON document with the optional fields ``bioc`` requires filled in."""
    if not isinstance(doc, dict):
        raise TypeError(f"a document must be a JSON object, got {type(doc).__name__}")

    def fill(obj, *keys):
        obj = dict(obj)
        obj.setdefault("infons", {})
        for key in keys:
            obj.setdefault(key, [])
        return obj

    doc = fill(doc, "relations", "annotations")
    passages = []
    for p in doc.get("passages", ()):
        p = fill(p, "sentences", "annotations", "relations")
        p["sentences"] = [fill(s, "annotations", "relations") for s in p["sentences"]]
        passages.append(p)
    doc["passages"] = passages
    return doc


def _to_document(document, k, path, type_infon, bioc) -> BratDocument:
    doc_id = document.id
    where = f"document {k + 1}"
    problem = document_id_problem(doc_id) if isinstance(doc_id, str) else "it is missing"
    if problem:
        raise CorpusFormatError(path, None, f"{where}: id {doc_id!r} cannot name a document: "
                                            f"{problem}")
    where = f"document {doc_id!r}"
    try:
        text = bioc.get_text(document)[1]
    except (ValueError, AssertionError) as exc:
        raise CorpusFormatError(path, None, f"{where}: {exc} (passages or sentences overlap or "
                                            "lack text)") from None
    annotations = list(document.annotations)
    for passage in document.passages:
        annotations.extend(passage.annotations)
        for sentence in passage.sentences:
            annotations.extend(sentence.annotations)
    entities = []
    for ann in annotations:
        entities.append(_to_entity(ann, text, path, where, type_infon))
    entities.sort(key=lambda e: (e.start, e.end, e.type))
    # BioC ids need not be unique (one passage's, another's) nor brat ids: number them
    entities = [dataclasses.replace(e, id=f"T{n}") for n, e in enumerate(entities, 1)]
    return BratDocument(doc_id, text, entities)


def _to_entity(ann, text, path, where, type_infon) -> Entity:
    what = f"{where}, annotation {ann.id!r}"
    typ = ann.infons.get(type_infon)
    if typ is None:
        raise CorpusFormatError(path, None, f"{what}: no {type_infon!r} infon (the entity type)")
    try:
        _check_type(typ, what)
    except (TypeError, ValueError) as exc:
        raise CorpusFormatError(path, None, str(exc)) from None
    if not ann.locations:
        raise CorpusFormatError(path, None, f"{what}: no location")
    frags = sorted((loc.offset, loc.offset + loc.length) for loc in ann.locations)
    for a, b in frags:
        if not 0 <= a < b <= len(text):
            raise CorpusFormatError(path, None, f"{what}: location {a}+{b - a} is empty or "
                                                f"outside the text ({len(text)} characters)")
    merged = [list(frags[0])]
    for a, b in frags[1:]:
        if a <= merged[-1][1]:  # touching or overlapping locations are one fragment
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    start, end = merged[0][0], merged[-1][1]
    if len(merged) == 1 and ann.text is not None and ann.text != text[start:end]:
        raise CorpusFormatError(path, None, f"{what}: text {ann.text!r} differs from the document "
                                            f"text at {start}:{end}, {text[start:end]!r}")
    fragments = tuple((a, b) for a, b in merged) if len(merged) > 1 else None
    return Entity("", typ, start, end, text[start:end], fragments)


# --------------------------------------------------------------------------
# writing
# --------------------------------------------------------------------------


def to_bioc_document(doc: BratDocument, bioc):
    """A ``bioc.BioCDocument``: one passage per line of the text, annotations in theirs.

    An entity within one line is an annotation of that line's passage; one
    across lines (or with fragments on several lines) an annotation of the
    document.  A line is its text without the ``\\n`` (a ``\\r`` stays in
    it), so reading the document back gives the text again, except for the
    line breaks at its end.
    """
    document = bioc.BioCDocument()
    document.id = doc.id
    text = doc.text
    passages = []
    pos = 0
    for line in text.split("\n"):
        if line:
            p = bioc.BioCPassage.of_text(line, pos)
            passages.append(p)
            document.add_passage(p)
        pos += len(line) + 1
    starts = [p.offset for p in passages]
    for e in _number_entities(doc.entities, doc.id):
        ann = bioc.BioCAnnotation()
        ann.id = e.id
        ann.infons[TYPE_INFON] = e.type
        frags = e.fragments or ((e.start, e.end),)
        for a, b in frags:
            ann.add_location(bioc.BioCLocation(a, b - a))
        ann.text = " ".join(text[a:b] for a, b in frags)
        owner = document
        for p, s in zip(reversed(passages), reversed(starts)):
            if s <= e.start:
                if e.end <= s + len(p.text):
                    owner = p
                break
        owner.add_annotation(ann)
    return document


def write_bioc(path, documents, *, format="xml") -> None:
    """Write documents as a BioC XML or BioC JSON collection, atomically.

    Entities without an id are numbered after the largest ``T<n>`` id of
    their document.

    Parameters
    ----------
    path : str or path-like
    documents : iterable of BratDocument
    format : {"xml", "json"}, default="xml"

    Notes
    -----
    Each line of a document's text is a passage at its offset (blank lines
    are gaps, which reading fills with line breaks again); each entity an
    annotation with ``infons["type"]``, one location per fragment and, as
    its text, the fragment texts joined by a space.  The collection's
    ``source`` is ``"skbioner"``, its ``date`` and ``key`` empty (so a
    conversion gives the same bytes every time).  Trailing line breaks of a
    text are not written: BioC passages hold text.
    """
    import bioc
    import bioc.biocjson

    if format not in BIOC_FORMATS:
        raise ValueError(f"format must be 'xml' or 'json', got {format!r}")
    collection = bioc.BioCCollection()
    collection.source, collection.date, collection.key = "skbioner", "", ""
    for doc in check_documents(documents):
        collection.add_document(to_bioc_document(doc, bioc))
    try:
        if format == "xml":
            data = bioc.biocxml.dumps(collection)
        else:
            data = bioc.biocjson.dumps(collection, indent=1, ensure_ascii=False)
        atomic_write_utf8(path, data)
    except ValueError as exc:  # lxml: "All strings must be XML compatible"; a lone surrogate
        raise ValueError(f"{os.fspath(path)}: cannot be written as BioC {format.upper()}: {exc} "
                         "(a control character or a lone surrogate in a text?)") from None
