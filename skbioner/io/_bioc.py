"""BioC XML and BioC JSON collections, read here and written through the ``bioc`` package.

A BioC document is a list of passages (a title, an abstract, the sections of
an article), each with its offset in the document; annotations (on the
document, a passage or a sentence) carry an ``infons`` dict (the entity type
under ``"type"``) and one or more locations (``offset``, ``length``) in
document characters.  The text of a document is its passages at their
offsets, the gaps between them filled with line breaks (as
:func:`bioc.get_text` does).

``bioc`` (https://github.com/bionlplab/bioc, MIT licence) serialises.  Its
readers resolve what lxml resolves, keep no line numbers and fail with a
``KeyError`` on a missing field, so both formats are read here into the
objects of BioC JSON (an XML element's line kept beside them), every field
checked, and turned into :class:`BratDocument` objects with what ``bioc``
never checks (offsets inside the text, the annotation text at its offsets, a
type for every annotation), errors naming the file and the line or document.
"""

from __future__ import annotations

import bisect
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
from ._decode import check_text_controls, decode, read_bytes
from ._errors import CorpusFormatError
from ._json import JSONDepthError
from ._json import loads as loads_bounded

__all__ = ["read_bioc", "write_bioc"]

#: The infon holding a predicted entity's confidence (``skbioner tag``), e.g. ``"0.9731"``.
CONFIDENCE_INFON = "confidence"
#: The infon holding an annotation's entity type.
TYPE_INFON = "type"
BIOC_FORMATS = ("xml", "json")


#: Offsets and lengths have at most this many digits (a text of a million billion characters).
_MAX_DIGITS = 15
#: Characters the gaps between passages (filled with line breaks) may add up to in a file,
#: besides its own size in bytes: an offset far beyond the text is an error, not 10 GB of
#: line breaks.
_MIN_GAP_BUDGET = 10_000


#: The key of an element's line in the objects read from BioC XML (never a JSON key: a string).
_LINE = 0
#: The list fields of each kind of BioC object that hold objects, and the fields it needs.
_CHILDREN = {"document": ("passages", "annotations"), "passage": ("annotations", "sentences"),
             "sentence": ("annotations",), "annotation": ("locations",), "location": ()}
_REQUIRED = {"document": (), "passage": ("offset",), "sentence": ("offset",),
             "annotation": ("id", "locations")}


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
        Naming the file, and the line (XML) or the document and field: a
        file that is not BioC (XML syntax errors, missing ``offset``, ``id``
        or ``locations``, offsets that are not non-negative integers, JSON
        fields of the wrong type or nested too deeply), a document type
        declaring entities (never resolved: they could read other files),
        overlapping passages, gaps between passages larger than the file
        could mean (their line breaks may add up to at most the file's size
        in bytes, or 10,000), an annotation without the type infon, with a
        type holding whitespace or control characters, outside the text, or
        whose text differs from the document text at its location, a control
        character (NUL...) in a text, a document id that cannot name a
        document or is used twice.
    """
    if format not in ("auto", *BIOC_FORMATS):
        raise ValueError(f"format must be 'auto', 'xml' or 'json', got {format!r}")
    path_str = os.fsdecode(os.fspath(path))
    data = read_bytes(path, path_str)
    if format == "auto":
        format = "json" if data.lstrip()[:1] in (b"{", b"[") else "xml"
    documents = (_load_xml if format == "xml" else _load_json)(data, path_str)
    budget = [max(_MIN_GAP_BUDGET, len(data))]  # line breaks the whole file may still add
    out, seen = [], {}
    for k, document in enumerate(documents):
        doc = _to_document(document, k, path_str, type_infon, budget)
        if doc.id in seen:
            raise CorpusFormatError(path_str, document.get(_LINE),
                                    f"document id {doc.id!r} is used by documents "
                                    f"{seen[doc.id] + 1} and {k + 1}")
        seen[doc.id] = k
        out.append(doc)
    if not out:
        raise CorpusFormatError(path_str, None, "the BioC collection has no document")
    return out


# --------------------------------------------------------------------------
# BioC XML, parsed without entities, DTDs or network access
# --------------------------------------------------------------------------


def _load_xml(data: bytes, path: str) -> list[dict]:
    from lxml import etree

    # lxml's parser with entity resolution, DTD loading and network access off, set
    # explicitly whatever the installed lxml's defaults (lxml < 5 resolves external
    # entities: an <!ENTITY x SYSTEM "file:///etc/passwd"> would copy the file into a text)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             dtd_validation=False, huge_tree=False)
    try:
        tree = etree.parse(io.BytesIO(data), parser)
    except etree.XMLSyntaxError as exc:
        raise CorpusFormatError(path, exc.lineno, f"not BioC XML: {exc.msg}") from None
    dtd = tree.docinfo.internalDTD
    declared = [e.name for e in dtd.iterentities()] if dtd is not None else []
    if declared:
        raise CorpusFormatError(
            path, None, f"not read: the document type declares entities "
                        f"({', '.join(declared[:3])}), which could read other files or grow "
                        "without bound; BioC needs none")
    root = tree.getroot()
    if root.tag != "collection":
        raise CorpusFormatError(path, root.sourceline, f"not a BioC XML collection: the root "
                                                       f"element is <{root.tag}>, not "
                                                       "<collection>")
    return [_xml_object(elem, path) for elem in root.iterchildren("document")]


def _xml_int(elem, value, what, path):
    v = (value or "").strip()
    if not (v.isascii() and v.isdigit()) or len(v) > _MAX_DIGITS:
        raise CorpusFormatError(
            path, elem.sourceline,
            f"not a BioC XML collection: <{elem.tag}> without an integer {what} "
            f"(got {value!r:.40}; a non-negative integer of at most {_MAX_DIGITS} digits)")
    return int(v)


def _xml_object(elem, path) -> dict:
    """A ``<document>``, ``<passage>``, ``<sentence>`` or ``<annotation>`` as the object
    BioC JSON has for it (offsets read as integers), its line under the key :data:`_LINE`."""
    obj = {_LINE: elem.sourceline, "infons": {}}
    if elem.tag == "annotation":
        if "id" not in elem.attrib:
            raise CorpusFormatError(path, elem.sourceline, "not a BioC XML collection: "
                                                           "<annotation> without an id attribute")
        obj.update(id=elem.get("id"), locations=[])
    elif elem.tag != "document":
        obj["offset"] = _xml_int(elem, elem.findtext("offset"), "<offset>", path)
    for child in elem.iterchildren():
        if child.tag in ("id", "text"):
            obj.setdefault(child.tag, child.text or "")
        elif child.tag == "infon" and elem.tag == "annotation":  # (a passage's are not read)
            if child.get("key") is None:
                raise CorpusFormatError(path, child.sourceline, "<infon> without a key attribute")
            obj["infons"][child.get("key")] = child.text
        elif child.tag == "location" and elem.tag == "annotation":
            obj["locations"].append({key: _xml_int(child, child.get(key), f"{key} attribute",
                                                   path) for key in ("offset", "length")})
        elif f"{child.tag}s" in _CHILDREN[elem.tag]:
            obj.setdefault(f"{child.tag}s", []).append(_xml_object(child, path))
    return obj


# --------------------------------------------------------------------------
# BioC JSON, every field checked
# --------------------------------------------------------------------------


def _load_json(data: bytes, path: str) -> list[dict]:
    text, _ = decode(data, "utf-8", path)
    try:
        obj = loads_bounded(text)
    except json.JSONDecodeError as exc:
        raise CorpusFormatError(path, exc.lineno, f"not JSON: {exc.msg}") from None
    except JSONDepthError as exc:
        raise CorpusFormatError(path, None, f"not BioC JSON: {exc}") from None
    if isinstance(obj, dict) and "documents" in obj:
        docs = obj["documents"]
    elif isinstance(obj, dict) and "passages" in obj:
        docs = [obj]
    else:
        docs = obj
    if not isinstance(docs, list):
        raise CorpusFormatError(path, None, 'not BioC JSON: expected a collection {"documents": '
                                            '[...]}, a list of documents or one document')
    for k, doc in enumerate(docs):
        where = f"document {k + 1}" + (f" ({doc.get('id')!r:.40})" if isinstance(doc, dict)
                                       else "")
        try:
            if not isinstance(doc, dict):
                raise _FieldError(f"a document must be a JSON object, got {type(doc).__name__}")
            doc_id = doc.get("id")
            if isinstance(doc_id, int) and not isinstance(doc_id, bool):
                doc["id"] = str(doc_id)  # as JSONL ids: 101 names document "101"
            elif doc_id is not None and not isinstance(doc_id, str):
                raise _FieldError(f"'id' must be a string or an integer, got {doc_id!r:.40}")
            _json_check(doc, "document", "the document")
        except _FieldError as exc:
            raise CorpusFormatError(path, None, f"{where}: not a BioC JSON document "
                                                f"({exc})") from None
    return docs


class _FieldError(Exception):
    """A BioC JSON field that is missing or of the wrong type (the message names it)."""


def _json_field(obj, key, kinds, what, default=None, required=False):
    if not isinstance(obj, dict):
        raise _FieldError(f"{what} is a {type(obj).__name__}, not an object")
    if key not in obj or obj[key] is None:
        if required:
            raise _FieldError(f"no {key!r} field")
        return default
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in (kinds if isinstance(kinds, tuple) else (kinds,)))
        raise _FieldError(f"{what}: {key!r} must be {names.replace('dict', 'an object')}, "
                          f"got {value!r:.40}")
    return value


def _json_offset(obj, key, what):
    value = _json_field(obj, key, int, what, required=True)
    if not 0 <= value < 10 ** _MAX_DIGITS:
        raise _FieldError(f"{what}: {key!r} must be a non-negative integer of at most "
                          f"{_MAX_DIGITS} digits, got {value!r:.40}")
    return value


def _json_check(obj, kind, what):
    """Check a BioC JSON object of ``kind`` (``"document"``...) and the objects in it."""
    if not isinstance(obj, dict):
        raise _FieldError(f"{what} is a {type(obj).__name__}, not an object")
    if kind == "location":
        _json_offset(obj, "offset", what), _json_offset(obj, "length", what)
        return
    for key in _REQUIRED[kind]:
        if key not in obj:
            raise _FieldError(f"no {key!r} field in {what}")
        if key == "offset":
            _json_offset(obj, "offset", what)
    for key, value in _json_field(obj, "infons", dict, what, default={}).items():
        if value is not None and not isinstance(value, str | int | float):
            raise _FieldError(f"{what}: infon {key!r} must be a string, got {value!r:.40}")
    if kind != "document":
        _json_field(obj, "text", str, what)
    for key in _CHILDREN[kind]:
        for i, item in enumerate(_json_field(obj, key, list, what, default=[])):
            _json_check(item, key[:-1], f"{what}, {key[:-1]} {i + 1}")


# --------------------------------------------------------------------------
# documents: their texts from the passages, their annotations as entities
# --------------------------------------------------------------------------


def _items(obj, key):
    """The objects of a list field (a missing or null field: none)."""
    return obj.get(key) or []


def _pad(pos, span, path, what, budget, fill):
    """The ``fill`` characters between ``pos`` and ``span``'s offset, within the file's budget."""
    offset = span["offset"]
    if offset < pos:
        raise CorpusFormatError(path, span.get(_LINE), f"{what} at offset {offset} overlaps the "
                                                       f"text before it, which ends at {pos} "
                                                       "(passages or sentences overlap)")
    gap = offset - pos
    if gap > budget[0]:
        raise CorpusFormatError(
            path, span.get(_LINE),
            f"{what} at offset {offset:,} would be preceded by {gap:,} filler characters "
            f"(the text before it ends at {pos:,}); the gaps of a BioC file may add up to at "
            "most its size in bytes or 10,000 characters: a wrong offset?")
    budget[0] -= gap
    return fill * gap


def _joined(spans, pos, path, where, budget, kind="passage"):
    """The text of passages (or sentences) at their offsets from ``pos``: line breaks
    between passages, spaces between sentences; a passage without text is its sentences."""
    parts = []
    for span in spans:
        text = span.get("text")
        if not text and kind == "sentence":
            raise CorpusFormatError(path, span.get(_LINE), f"{where}: the sentence at offset "
                                                           f"{span['offset']} has no text")
        if not text:
            text = _joined(_items(span, "sentences"), span["offset"], path, where, budget,
                           "sentence")
        parts.append(_pad(pos, span, path, f"{where}: a {kind}", budget,
                          "\n" if kind == "passage" else " "))
        parts.append(text)
        pos = span["offset"] + len(text)
    return "".join(parts)


def _to_document(document, k, path, type_infon, budget) -> BratDocument:
    doc_id, line = document.get("id"), document.get(_LINE)
    where = f"document {k + 1}"
    problem = document_id_problem(doc_id) if isinstance(doc_id, str) else "it is missing"
    if problem:
        raise CorpusFormatError(path, line, f"{where}: id {doc_id!r} cannot name a "
                                            f"document: {problem}")
    where = f"document {doc_id!r}"
    text = _joined(_items(document, "passages"), 0, path, where, budget)
    check_text_controls(text, path, f"{where}: ", line)
    annotations = list(_items(document, "annotations"))
    for passage in _items(document, "passages"):
        annotations.extend(_items(passage, "annotations"))
        for sentence in _items(passage, "sentences"):
            annotations.extend(_items(sentence, "annotations"))
    entities = [_to_entity(ann, text, path, where, type_infon) for ann in annotations]
    entities.sort(key=lambda e: (e.start, e.end, e.type))
    # BioC ids need not be unique (one passage's, another's) nor brat ids: number them
    entities = [dataclasses.replace(e, id=f"T{n}") for n, e in enumerate(entities, 1)]
    return BratDocument(doc_id, text, entities)


def _to_entity(ann, text, path, where, type_infon) -> Entity:
    what, line = f"{where}, annotation {ann['id']!r}", ann.get(_LINE)
    typ = (ann.get("infons") or {}).get(type_infon)
    if typ is None:
        raise CorpusFormatError(path, line, f"{what}: no {type_infon!r} infon (the entity type)")
    _check_type(typ, what, path, line)
    if not ann["locations"]:
        raise CorpusFormatError(path, line, f"{what}: no location")
    frags = sorted((loc["offset"], loc["offset"] + loc["length"]) for loc in ann["locations"])
    for a, b in frags:
        if not 0 <= a < b <= len(text):
            raise CorpusFormatError(path, line, f"{what}: location {a}+{b - a} is empty or "
                                                f"outside the text ({len(text)} characters)")
    merged = [list(frags[0])]
    for a, b in frags[1:]:
        if a <= merged[-1][1]:  # touching or overlapping locations are one fragment
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    start, end = merged[0][0], merged[-1][1]
    if len(merged) == 1 and ann.get("text") is not None and ann["text"] != text[start:end]:
        raise CorpusFormatError(path, line, f"{what}: text {ann['text']!r} differs from the "
                                            f"document text at {start}:{end}, "
                                            f"{text[start:end]!r}")
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
        confidence = getattr(e, "confidence", None)  # a tagged entity's (skbioner tag)
        if confidence is not None:
            ann.infons[CONFIDENCE_INFON] = str(confidence)
        if getattr(e, "model", None) is not None:  # tagged by several models
            ann.infons["model"] = e.model
        frags = e.fragments or ((e.start, e.end),)
        for a, b in frags:
            ann.add_location(bioc.BioCLocation(a, b - a))
        ann.text = " ".join(text[a:b] for a, b in frags)
        i = bisect.bisect_right(starts, e.start) - 1  # the last line starting at or before it
        inside = i >= 0 and e.end <= starts[i] + len(passages[i].text)
        (passages[i] if inside else document).add_annotation(ann)
    return document


def dumps_bioc(documents, *, format="xml", name="BioC output") -> str:
    """The text of a BioC XML or JSON collection of ``documents`` (see :func:`write_bioc`).

    An entity with a ``confidence`` (a :class:`skbioner.tagging.TaggedEntity`)
    keeps it as the infon ``confidence``.  ``name`` is the output's, for messages.
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
        data.encode("utf-8")
    except (ValueError, UnicodeEncodeError) as exc:  # lxml: "All strings must be XML
        # compatible"; a lone surrogate
        raise ValueError(f"{name}: cannot be written as BioC {format.upper()}: {exc} "
                         "(a control character or a lone surrogate in a text?)") from None
    return data


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
    atomic_write_utf8(path, dumps_bioc(documents, format=format, name=os.fspath(path)))
