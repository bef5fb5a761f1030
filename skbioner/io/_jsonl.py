"""JSONL documents: one ``{"id", "text", "entities": [...]}`` object per line.

The layout ``skbioner tag --output-format jsonl`` writes (there without
``"text"``) and reads (there without ``"entities"``)::

    {"id": "d1", "text": "IL-2 gene ...", "entities": [{"start": 0, "end": 9,
     "type": "DNA", "text": "IL-2 gene"}]}

Entity offsets are characters of ``text``, the end excluded; a discontinuous
entity has ``"fragments": [[start, end], ...]``.  Other fields (a
confidence, an id) are allowed and not kept.
"""

from __future__ import annotations

import json
import operator
import os

from ._atomic import atomic_write_utf8
from ._brat import (
    BratDocument,
    Entity,
    _check_type,
    check_documents,
    check_fragments,
    check_new_id,
)
from ._decode import check_text_controls, decode, read_bytes
from ._errors import CorpusFormatError
from ._json import JSONDepthError
from ._json import loads as _loads

__all__ = ["read_jsonl", "write_jsonl"]


def iter_jsonl_records(path, *, require_text=True):
    """``(line, id, text or None, [(type, start, end, text or None, fragments)])`` per record.

    Checks what does not need the text (JSON, field types, offsets ordered,
    ids unique); :func:`read_jsonl` checks the rest.
    """
    path_str = os.fsdecode(os.fspath(path))
    data, _ = decode(read_bytes(path, path_str), "utf-8", path_str)
    seen: dict[str, int] = {}
    for lineno, line in enumerate(data.split("\n"), 1):
        if not line.strip():
            continue
        try:
            record = _loads(line)
        except json.JSONDecodeError as exc:
            raise CorpusFormatError(path_str, lineno, f"not a JSON object ({exc.msg})") from None
        except JSONDepthError as exc:
            raise CorpusFormatError(path_str, lineno, str(exc)) from None
        if not isinstance(record, dict) or "id" not in record:
            raise CorpusFormatError(path_str, lineno, 'expected a JSON object with an "id"')
        doc_id = record["id"]
        if isinstance(doc_id, int) and not isinstance(doc_id, bool):
            doc_id = str(doc_id)
        check_new_id(doc_id, seen, path_str, lineno)
        text = record.get("text")
        if text is None and require_text:
            raise CorpusFormatError(path_str, lineno, f'document {doc_id!r} has no "text" (the '
                                                      "entities alone can be scored, not read "
                                                      "as a corpus)")
        if text is not None and not isinstance(text, str):
            raise CorpusFormatError(path_str, lineno, f'"text" of {doc_id!r} is not a string')
        raw = record.get("entities", [])
        if not isinstance(raw, list):
            raise CorpusFormatError(path_str, lineno, f'"entities" of {doc_id!r} is not a list')
        entities = [_entity(e, k, path_str, lineno, doc_id) for k, e in enumerate(raw)]
        yield lineno, doc_id, text, entities


def _offset(value):
    if isinstance(value, bool):
        raise TypeError
    return operator.index(value)


def _entity(e, k, path, lineno, doc_id):
    where = f"document {doc_id!r}, entity {k + 1}"
    if not isinstance(e, dict) or not {"start", "end", "type"} <= e.keys():
        raise CorpusFormatError(path, lineno, f'{where}: expected an object with "start", "end" '
                                              'and "type"')
    try:
        start, end = _offset(e["start"]), _offset(e["end"])
        frags = e.get("fragments")
        if frags is not None:
            frags = tuple((_offset(a), _offset(b)) for a, b in frags)
    except (TypeError, ValueError):
        raise CorpusFormatError(path, lineno, f"{where}: offsets must be integers") from None
    _check_type(e["type"], where, path, lineno)
    if not 0 <= start < end:
        raise CorpusFormatError(path, lineno, f"{where}: start {start} is not before end {end}")
    if frags is not None and (len(frags) < 2 or frags[0][0] != start or frags[-1][1] != end or any(
            not a < b for a, b in frags) or any(
            frags[i][1] > frags[i + 1][0] for i in range(len(frags) - 1))):
        raise CorpusFormatError(path, lineno, f'{where}: "fragments" must be ordered, disjoint '
                                              "[start, end] pairs from start to end")
    covered = e.get("text")
    if covered is not None and not isinstance(covered, str):
        raise CorpusFormatError(path, lineno, f'{where}: "text" is not a string')
    return e["type"], start, end, covered, frags


def read_jsonl(path) -> list[BratDocument]:
    """Read JSONL documents with their entities.

    Parameters
    ----------
    path : str or path-like
        One JSON object per line (``.gz`` is read through gzip); empty lines
        are skipped.

    Returns
    -------
    list of BratDocument
        In file order; entities numbered ``T1``, ``T2``... in file order.

    Raises
    ------
    CorpusFormatError
        At the first problem, naming the file and the line: not a JSON
        object, no ``"id"`` or ``"text"``, an id used twice or that cannot
        name a document, an entity without integer ``"start"``/``"end"`` or
        with a type holding whitespace, offsets outside the text, an entity
        ``"text"`` that differs from the text at its offsets.
    """
    path_str = os.fsdecode(os.fspath(path))
    docs = []
    for lineno, doc_id, text, raw in iter_jsonl_records(path, require_text=True):
        check_text_controls(text, path_str, f"document {doc_id!r}: ", lineno)
        entities = []
        for k, (typ, start, end, covered, frags) in enumerate(raw):
            check_fragments(text, frags or [(start, end)], covered, path_str, lineno,
                            f"document {doc_id!r}, entity {k + 1}: ", also=text[start:end])
            entities.append(Entity(f"T{k + 1}", typ, start, end, text[start:end], frags))
        docs.append(BratDocument(doc_id, text, entities))
    if not docs:
        raise CorpusFormatError(path_str, None, "no JSONL document in the file")
    return docs


def write_jsonl(path, documents) -> None:
    """Write documents as JSONL, one ``{"id", "text", "entities"}`` line each, atomically.

    Parameters
    ----------
    path : str or path-like
    documents : iterable of BratDocument
        Entities are written sorted by offsets, with ``"fragments"`` when they
        have several.
    """
    lines = []
    for doc in check_documents(documents):
        entities = []
        for e in sorted(doc.entities, key=lambda e: (e.start, e.end, e.type)):
            item = {"start": e.start, "end": e.end, "type": e.type, "text": e.text}
            if e.fragments is not None:
                item["fragments"] = [list(f) for f in e.fragments]
            entities.append(item)
        lines.append(json.dumps({"id": doc.id, "text": doc.text, "entities": entities},
                                ensure_ascii=False) + "\n")
    atomic_write_utf8(path, "".join(lines))
