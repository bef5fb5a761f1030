"""Column files without some documents: the official scorer on the abstracts kept.

Ten of the 404 JNLPBA 2004 test abstracts are also GENIA 3.02 abstracts, so they are in the
training file (``train.iob2``) and in the GENIA POS training corpus the bundled POS tagger
learnt from (the same MEDLINE ids, about 100 sentences verbatim;
:func:`~skbioner.datasets.jnlpba_overlap_ids`).  The overlap is in the original shared-task
data, so published systems share it; a score on the other 394 abstracts, beside the
official one, says how much it is worth.
"""

from __future__ import annotations

import os
import re

__all__ = ["drop_documents"]

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
