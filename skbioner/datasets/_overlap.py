"""Training text elsewhere: column files without some documents, unlabeled text without copies.

Ten of the 404 JNLPBA 2004 test abstracts are also GENIA 3.02 abstracts, so they are in the
training file (``train.iob2``) and in the GENIA POS training corpus the bundled POS tagger
learnt from (the same MEDLINE ids, about 100 sentences verbatim;
:func:`~skbioner.datasets.jnlpba_overlap_ids`).  The overlap is in the original shared-task
data, so published systems share it; a score on the other 394 abstracts, beside the
official one, says how much it is worth.  Unlabeled text holds copies of training
sentences too (:func:`drop_copies`): a teacher's labels on them would compete with gold.
"""

from __future__ import annotations

import os
import re

__all__ = ["drop_copies", "drop_documents"]

#: words in a row shared with a training sentence that make an unlabeled sentence its copy
NGRAM = 8


def _words(sentence):
    return [w for w in (re.sub(r"[\W_]+", "", str(t).lower()) for t in sentence) if w]


def _grams(words):
    return {tuple(words[i:i + NGRAM]) for i in range(len(words) - NGRAM + 1)}


def drop_copies(sentences, gold):
    """The unlabeled ``sentences`` that are not copies of a ``gold`` sentence, nor repeats.

    A copy: the same token sequence; the same words once case, spaces and
    punctuation are ignored (the sentence tokenized differently); or
    :data:`NGRAM` words in a row in common (the sentence cut differently).
    A teacher's labels on a copy of a training sentence would only compete
    with its gold labels.

    Parameters
    ----------
    sentences : list of Sentence
    gold : list of Sentence

    Returns
    -------
    kept : list of Sentence
        In their order.
    removed : dict of str to int
        How many were dropped as ``exact``, ``normalized`` and ``ngram``
        copies of gold sentences, and as ``repeat`` of an earlier one.
    """
    exact = {tuple(s) for s in gold}
    normal, grams = set(), set()
    for s in gold:
        w = _words(s)
        normal.add("".join(w))
        grams |= _grams(w)
    removed = dict.fromkeys(("exact", "normalized", "ngram", "repeat"), 0)
    seen, kept = set(), []
    for s in sentences:
        key, w = tuple(s), _words(s)
        kind = ("exact" if key in exact else "normalized" if "".join(w) in normal
                else "ngram" if _grams(w) & grams else "repeat" if key in seen else None)
        if kind is None:
            seen.add(key)
            kept.append(s)
        else:
            removed[kind] += 1
    return kept, removed


_DOC_LINE = re.compile(rb"^###MEDLINE:([^\r\n]*)", re.MULTILINE)


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
        Documents to leave out (e.g. :func:`~skbioner.datasets.jnlpba_overlap_ids`).

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
