"""Writers of tagged documents: brat standoff, JSONL, IOB2 columns -- all atomic."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from pathlib import Path

from ..io import BratDocument, write_brat
from ..io._atomic import STDOUT, atomic_open, atomic_write_utf8, utf8

__all__ = ["open_writer", "OUTPUT_FORMATS"]

#: Output formats accepted by :func:`open_writer`.
OUTPUT_FORMATS = ("brat", "jsonl", "iob2", "bioc-xml", "bioc-json")


#: Digits of the confidences written (JSONL ``"confidence"``, brat notes).
CONFIDENCE_DIGITS = 4


def _confidence(e):
    p = getattr(e, "confidence", None)
    return None if p is None else round(float(p), CONFIDENCE_DIGITS)


def brat_confidence_notes(entities):
    """brat ``AnnotatorNotes`` lines giving the confidence of each entity that has one.

    ``#<n><TAB>AnnotatorNotes T<k><TAB>confidence=0.9731``: brat shows the
    note with the entity, :func:`skbioner.io.read_brat` keeps the lines in
    ``other_lines``, and other brat readers (e.g. the ``bioc`` package)
    read them as notes.
    """
    lines = []
    for e in entities:
        p, model = _confidence(e), getattr(e, "model", None)
        note = "; ".join(([] if p is None else [f"confidence={p}"])
                         + ([] if model is None else [f"model={model}"]))
        if note:
            lines.append(f"#{len(lines) + 1}\tAnnotatorNotes {e.id}\t{note}")
    return lines


class _BratWriter:
    """``<id>.ann`` (and a copy of the text as ``<id>.txt``) per document in a directory.

    Each document's two files are renamed into place together (see
    :func:`skbioner.io.write_brat`): an interrupted run leaves complete pairs.
    Confidences go into ``AnnotatorNotes`` lines (:func:`brat_confidence_notes`).
    """

    def __init__(self, out):
        self.dir = Path(out)
        if self.dir.exists() and not self.dir.is_dir():
            raise NotADirectoryError(f"{out}: brat output must be a directory")
        self.dir.mkdir(parents=True, exist_ok=True)

    def write(self, doc):
        entities = list(doc.entities)
        write_brat(self.dir, BratDocument(doc.id, doc.text, entities,
                                          brat_confidence_notes(entities)))


class _StreamWriter:
    """One output file written as documents arrive, renamed into place at the end.

    A document is rendered and encoded in full before anything of it is
    written, so one that cannot be written (ValueError) leaves the file as
    it was and the batch can go on.
    """

    def __init__(self, out, stack):
        self.stdout = out == STDOUT
        if not self.stdout and Path(out).is_dir():
            raise IsADirectoryError(f"{out}: this output format writes one file")
        self.fh = stack.enter_context(atomic_open(out, "wb"))  # "-": standard output

    def write(self, doc):
        self.fh.write(utf8(self.render(doc), f"document {doc.id!r}"))
        if self.stdout:
            self.fh.flush()


class _JsonlWriter(_StreamWriter):
    def render(self, doc):
        entities = [{"start": e.start, "end": e.end, "type": e.type, "text": e.text,
                     "confidence": _confidence(e)}
                    | ({} if e.model is None else {"model": e.model}) for e in doc.entities]
        return json.dumps({"id": doc.id, "entities": entities}, ensure_ascii=False) + "\n"


class _Iob2Writer(_StreamWriter):
    """JNLPBA layout: ``###MEDLINE:<id>`` line, then ``token<TAB>label`` sentences."""

    def render(self, doc):
        parts = [f"###MEDLINE:{doc.id}\n\n"]
        for sent, labels in zip(doc.sentences, doc.labels, strict=True):
            parts.extend(f"{w}\t{lab}\n" for w, lab in zip(sent, labels, strict=True))
            parts.append("\n")
        return "".join(parts)


class _BiocWriter:
    """One BioC collection (XML or JSON), written when the run ends, atomically.

    A collection is one document tree: the documents (texts and entities, not
    tokens) are kept until the end.  Confidences are the ``confidence``
    infon of each annotation.
    """

    def __init__(self, out, output_format):
        if out != STDOUT and Path(out).is_dir():
            raise IsADirectoryError(f"{out}: this output format writes one file")
        self.out, self.format, self.docs = out, output_format[len("bioc-"):], []

    def write(self, doc):
        from ..io._bioc import dumps_bioc

        entities = [dataclasses.replace(e, confidence=_confidence(e)) for e in doc.entities]
        new = BratDocument(doc.id, doc.text, entities, [])
        dumps_bioc([new], format=self.format, name="BioC")  # one that cannot be: fails alone
        self.docs.append(new)

    def close(self):
        from ..io._bioc import dumps_bioc

        name = "standard output" if self.out == STDOUT else self.out
        atomic_write_utf8(self.out, dumps_bioc(self.docs, format=self.format, name=name))


@contextlib.contextmanager
def open_writer(output_format, out):
    """Context manager yielding an object whose ``write(tagged_document)`` stores it.

    ``brat`` writes each document's files atomically as it comes; ``jsonl``
    and ``iob2`` stream into a temporary file that replaces ``out`` only when
    the block ends normally, so an interrupted run never leaves a
    half-written output (``out="-"``: standard output, document by
    document).  ``write`` raises ValueError for a document that cannot be
    written (nothing of it is written; the next one can be).

    ``bioc-xml`` and ``bioc-json`` write one BioC collection when the block
    ends (the documents are kept until then), each entity's confidence as its
    annotation's ``confidence`` infon.  ``jsonl`` writes ``{"id", "entities":
    [{"start", "end", "type", "text", "confidence"}]}`` per document (``confidence``
    null when the model gives none), ``brat`` the entities and an ``AnnotatorNotes`` line with the
    confidence of each (``#1<TAB>AnnotatorNotes T1<TAB>confidence=0.9731``).

    Parameters
    ----------
    output_format : {"brat", "jsonl", "iob2", "bioc-xml", "bioc-json"}
        What to write.
    out : str or path
        A directory (``brat``) or a file (the others); ``"-"``: standard
        output (all but ``brat``).

    Returns
    -------
    context manager
        Yields the writer.
    """
    if output_format not in OUTPUT_FORMATS:
        raise ValueError(f"output format must be one of {OUTPUT_FORMATS}, got {output_format!r}")
    if output_format == "brat" and out == STDOUT:
        raise ValueError("brat output is a directory: give its path, not '-'")
    with contextlib.ExitStack() as stack:
        if output_format == "brat":
            yield _BratWriter(out)
        elif output_format.startswith("bioc-"):
            writer = _BiocWriter(out, output_format)
            yield writer
            writer.close()  # not after an error: the output stays as it was
        elif output_format == "jsonl":
            yield _JsonlWriter(out, stack)
        else:
            yield _Iob2Writer(out, stack)
