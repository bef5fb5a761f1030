"""Which label bigrams a well-formed sequence of a scheme can contain (the decoders' masks)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._check import check_label_sequences
from ._schemes import O_TYPE, check_scheme, split_label

__all__ = ["transition_mask"]


def transition_mask(scheme: str, labels: Sequence[str]):
    """Which label bigrams a well-formed ``scheme`` sequence can contain.

    Parameters
    ----------
    scheme : str
    labels : sequence of str
        Labels of ``scheme`` (e.g. from :func:`scheme_labels`).

    Returns
    -------
    start : ndarray of bool, shape (n_labels,)
        Labels that may begin a sentence.
    trans : ndarray of bool, shape (n_labels, n_labels)
        ``trans[i, j]``: label ``j`` may follow label ``i``.
    end : ndarray of bool, shape (n_labels,)
        Labels that may end a sentence.

    A sequence is well formed (``repair`` leaves it unchanged) exactly when
    its first label is allowed to start, every bigram is allowed and its last
    label is allowed to end.
    """
    scheme = check_scheme(scheme)
    check_label_sequences([labels], scheme=scheme, name="labels")
    parsed = [split_label(lab) for lab in labels]
    n = len(labels)
    start = np.ones(n, dtype=bool)
    end = np.ones(n, dtype=bool)
    trans = np.ones((n, n), dtype=bool)
    for i, (p, t) in enumerate(parsed):
        start[i] = _ok(scheme, ("O", None), (p, t), first=True)
        end[i] = _ok(scheme, (p, t), ("O", None), last=True)
        for j, (q, u) in enumerate(parsed):
            trans[i, j] = _ok(scheme, (p, t), (q, u))
    return start, trans, end


def _ok(scheme, a, b, first=False, last=False) -> bool:
    """Whether label b may follow label a in a well-formed sequence."""
    (p, t), (q, u) = a, b
    if first:
        # an imaginary outside token before the sentence
        if scheme in ("IOB2", "BI"):
            return q != "I"
        if scheme in ("IOBES", "BIES"):
            return q in ("B", "S", "O")
        if scheme == "IOB1":
            return q != "B"
        if scheme == "IE":
            return True
        return True
    if last:
        if scheme in ("IOE2", "IE"):
            return p != "I"
        if scheme in ("IOBES", "BIES"):
            return p in ("E", "S", "O")
        if scheme == "IOE1":
            return p != "E"
        return True
    same = t is not None and t == u
    if scheme == "IO":
        return True
    if scheme == "IOB2":
        return q != "I" or (same and p in ("B", "I"))
    if scheme == "IOB1":
        return q != "B" or same
    if scheme == "IOE2":
        return p != "I" or (same and q in ("I", "E"))
    if scheme == "IOE1":
        return p != "E" or same
    if scheme == "IOBES":
        if p in ("B", "I"):
            return same and q in ("I", "E")
        return q in ("B", "S", "O")
    if scheme == "BI":
        if q == "I":
            return same
        return not (t == O_TYPE and u == O_TYPE)  # O runs are one segment
    if scheme == "IE":
        if p == "I":
            return same and q in ("I", "E")
        return not (t == O_TYPE and u == O_TYPE)
    # BIES
    if p in ("B", "I"):
        return same and q in ("I", "E")
    return q in ("B", "S") and not (t == O_TYPE and u == O_TYPE)
