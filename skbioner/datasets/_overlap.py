"""Documents a test set shares with training data, and test files without them.

Ten of the 404 JNLPBA 2004 test abstracts are also GENIA 3.02 abstracts, so they are in the
training file (``train.iob2``) and in the GENIA POS training corpus the bundled POS tagger
learnt from (the same MEDLINE ids, about 100 sentences verbatim).  The overlap is in the
original shared-task data, so published systems share it; a score on the other 394
abstracts, beside the official one, says how much it is worth.
"""

from __future__ import annotations

import os
import re

from ..io import ColumnCorpus, read_columns

__all__ = ["document_ids", "drop_documents", "overlapping_documents"]

_DOC_LINE = re.compile(rb"^###MEDLINE:([^\r\n]*)", re.MULTILINE)


def document_ids(corpus):
    """The distinct document ids of a corpus, in order of first appearance.

    Parameters
    ----------
    corpus : str, path-like, ColumnCorpus or sequence of str
        A column file with document lines (``###MEDLINE:<id>``,
        ``-DOCSTART-``), a corpus read from one, or document ids.

    Returns
    -------
    list of str
    """
    if isinstance(corpus, str | os.PathLike):
        corpus = read_columns(corpus, scheme=None)
    ids = corpus.doc_ids if isinstance(corpus, ColumnCorpus) else corpus
    return [d for d in dict.fromkeys(ids) if d is not None]


def overlapping_documents(corpus, *others):
    """Ids of the documents of ``corpus`` that also occur in any of ``others``.

    Computed from the files, never from a list: for JNLPBA,
    ``overlapping_documents("test.iob2", "train.iob2", "genia-pos/train.tsv")``
    gives the 10 test abstracts that are GENIA 3.02 abstracts.

    Parameters
    ----------
    corpus : str, path-like, ColumnCorpus or sequence of str
        The test set (see :func:`document_ids`).
    *others : same
        Training data, the corpora annotators were trained on, ...

    Returns
    -------
    list of str
        Sorted.
    """
    mine = set(document_ids(corpus))
    seen = set()
    for other in others:
        seen.update(document_ids(other))
    return sorted(mine & seen)


def drop_documents(source, destination, doc_ids):
    """Write a column file without some of its documents, every other line byte for byte.

    A document runs from its ``###MEDLINE:<id>`` line to the next one, so the
    official scorer (``evalIOB2.pl``), run on a GOLD and a PRED file both
    filtered this way, counts only the documents kept.  The output is
    written atomically and may not be the input.

    Parameters
    ----------
    source : str or path-like
        A column file with ``###MEDLINE:<id>`` document lines (JNLPBA, GENIA).
    destination : str or path-like
    doc_ids : iterable of str
        Documents to leave out.

    Returns
    -------
    int
        Number of documents left out (a repeated id counts each time).

    Raises
    ------
    ValueError
        If ``source`` has no document line, or is ``destination``.
    """
    from ..io._atomic import atomic_write_bytes

    if os.path.exists(destination) and os.path.samefile(source, destination):
        raise ValueError(f"{destination} is the input file: write the filtered file elsewhere")
    with open(source, "rb") as fh:
        data = fh.read()
    starts = [m.start() for m in _DOC_LINE.finditer(data)]
    if not starts:
        raise ValueError(f"{source}: no ###MEDLINE:<id> document line, so no document to drop")
    drop = {d.encode("utf-8") if isinstance(d, str) else d for d in doc_ids}
    pieces, dropped = [data[:starts[0]]], 0
    for k, a in enumerate(starts):
        b = starts[k + 1] if k + 1 < len(starts) else len(data)
        doc = _DOC_LINE.match(data, a).group(1).strip()
        if doc in drop:
            dropped += 1
        else:
            pieces.append(data[a:b])
    atomic_write_bytes(destination, b"".join(pieces))
    return dropped
