"""Corpus formats on the command line: options, reading, warnings on stderr."""

from __future__ import annotations

import contextlib
import os
import sys
import warnings

FORMAT_CHOICES = ("auto", "columns", "brat", "pubtator", "bioc-xml", "bioc-json", "jsonl")
FORMATS_HELP = ("columns (token ... label lines: JNLPBA, CoNLL), brat (a directory of .txt+.ann), "
                "pubtator, bioc-xml, bioc-json, jsonl ({\"id\", \"text\", \"entities\"} lines); "
                "auto: from the path's kind, extension or first line")
SEP_HELP = "field separator of a column file: auto (tab if the first token line has one, " \
           "else space), or e.g. ' ' (default auto)"


def printable(text):
    """``text`` with control characters escaped (``\\x1b``...): nothing a terminal obeys.

    For what the command line prints from its inputs (messages, a model's
    metadata): escape sequences could clear the screen or hide lines, and
    bidirectional overrides reorder what is shown.
    """
    import re

    return re.sub("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]",
                  lambda m: repr(m.group())[1:-1], text)


def separator(value: str) -> str:
    """``--sep`` value: ``auto``, ``tab`` / ``\\t`` or the separator itself."""
    return {"tab": "\t", "\\t": "\t", "space": " "}.get(value, value)


@contextlib.contextmanager
def warnings_on_stderr(command):
    """Print the corpus and scoring warnings raised in the block as ``skbioner CMD: warning:``."""
    from ..io import CorpusWarning
    from ..metrics._files import ScoringInputWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CorpusWarning)
        warnings.simplefilter("always", ScoringInputWarning)
        try:
            yield
        finally:
            for w in caught:
                if issubclass(w.category, CorpusWarning | ScoringInputWarning):
                    print(f"skbioner {command}: warning: {printable(str(w.message))}",
                          file=sys.stderr)
                else:
                    warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def read_training_corpus(path, format="auto", sep="auto"):
    """The labelled corpus at ``path`` in any format (:func:`skbioner.datasets.load_corpus`).

    Warnings (entities IOB2 labels cannot hold) go to stderr; for texts, a
    line says what was read.
    """
    from ..datasets import load_corpus
    from ..io import detect_format

    format = detect_format(path) if format == "auto" else format
    with warnings_on_stderr("train"):
        corpus = load_corpus(path, format, sep=separator(sep))
    if format != "columns":
        n_docs = documents_phrase(count_documents(corpus.doc_ids))
        print(f"read {format} corpus {os.fspath(path)}: {n_docs} tokenized into "
              f"{plural(len(corpus.X), 'sentence')}, {plural(sum(map(len, corpus.X)), 'token')}",
              file=sys.stderr)
    return corpus


def plural(n, noun, nouns=None) -> str:
    """``"1 document"``, ``"2 documents"`` (thousands separated; ``nouns``: an irregular plural)."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {nouns or noun + 's'}"


def documents_phrase(n) -> str:
    """How many documents a corpus has: ``n`` distinct ids, 0 standing for none."""
    return "no document ids" if n == 0 else plural(n, "document")


def count_documents(doc_ids) -> int:
    """The distinct document ids of a corpus, 0 when its sentences carry none."""
    return len({d for d in doc_ids if d not in (None, "")})


def output_format(path, given=None, default=None) -> str:
    """The format to write ``path`` in: ``given``, or from its extension (a directory: brat).

    ``default`` is the format of a name whose extension says none.
    """
    from ..io._corpus import _EXTENSIONS, _suffix

    if given not in (None, "auto"):
        return given
    from pathlib import Path

    p = Path(path)
    suffix = _suffix(p)
    if default is not None and suffix not in _EXTENSIONS and not p.is_dir():
        return default
    if p.is_dir() or (not suffix and not p.exists()) or os.fspath(path).endswith(os.sep):
        return "brat"
    if suffix in _EXTENSIONS and suffix != ".ann":
        return _EXTENSIONS[suffix]
    raise ValueError(f"{path}: cannot tell the output format from the name; pass --to "
                     f"({', '.join(FORMAT_CHOICES[1:])})")


def training_data_record(path, corpus):
    """What a saved model records about its training file (name, SHA-256, counts)."""
    import hashlib
    from collections import Counter

    from ..schemes import labels_to_spans

    record = {"file": os.fspath(path)}
    if os.path.isfile(path):  # a pipe is read once, by the reader
        digest = hashlib.sha256()
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        record["sha256"] = digest.hexdigest()
    types = Counter(t for y in corpus.y for t, _, _ in labels_to_spans(y))
    record.update(documents=count_documents(corpus.doc_ids), sentences=len(corpus.X),
                  tokens=sum(map(len, corpus.X)), entities=dict(sorted(types.items())))
    return record
