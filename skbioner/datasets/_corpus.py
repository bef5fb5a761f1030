"""``load_corpus``: a labelled corpus of any format as training sentences."""

from __future__ import annotations

import os

__all__ = ["load_corpus"]


def load_corpus(path, format="auto", *, sep="auto", tokenizer=None):
    """Read a labelled corpus of any format as sentences, IOB2 labels and document ids.

    The one reader for training: column files are read as they are
    (:func:`skbioner.io.read_columns`, IOB2 labels); the formats with texts
    and character-offset entities (brat, PubTator, BioC, JSONL) are
    tokenized with the entity offsets as token boundaries and labelled
    (:func:`skbioner.text.tokenize_documents`, which warns about the
    entities IOB2 labels cannot hold).

    Parameters
    ----------
    path : str or path-like
        A file, or a brat directory.
    format : str, default="auto"
        One of :data:`skbioner.io.FORMATS`, or ``"auto"``
        (:func:`skbioner.io.detect_format`).
    sep : str, default="auto"
        Field separator of a column file.
    tokenizer : BioTokenizer, "whitespace" or None, default=None
        How texts are tokenized (see :func:`skbioner.text.tokenize_documents`).

    Returns
    -------
    ColumnCorpus
        ``X`` (sentences with their ``doc_id``), ``y`` (IOB2 labels),
        ``doc_ids`` and ``path``.  For a column file, the layout to write it
        back (:func:`skbioner.io.write_columns`); for the other formats none
        (written in the JNLPBA layout).

    Examples
    --------
    >>> corpus = load_corpus("test-standoff/")                # doctest: +SKIP
    >>> corpus.X[0][:4], corpus.y[0][:4], corpus.doc_ids[0]   # doctest: +SKIP
    (('Sequential', 'involvement', 'of', 'NFAT'), ['O', 'O', 'O', 'B-protein'], '20216392')
    """
    from ..io import ColumnCorpus, CorpusFormatError, detect_format, read_columns, read_documents
    from ..text import tokenize_documents

    format = detect_format(path) if format == "auto" else format
    if format == "columns":
        return read_columns(path, sep=sep)
    X, y = tokenize_documents(read_documents(path, format), tokenizer)  # checks the format
    if not X:
        raise CorpusFormatError(path, None, "no sentence: the documents hold no text")
    return ColumnCorpus(X=X, y=y, doc_ids=[s.doc_id for s in X], path=os.fspath(path))
