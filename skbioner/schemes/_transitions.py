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
    start = np.array([_ok(scheme, ("O", None), lab) for lab in parsed], dtype=bool)
    end = np.array([_ok(scheme, lab, ("S", None)) for lab in parsed], dtype=bool)
    trans = np.array([[_ok(scheme, a, b) for b in parsed] for a in parsed],
                     dtype=bool).reshape(len(parsed), len(parsed))
    return start, trans, end


def _ok(scheme, a, b) -> bool:
    """Whether label ``b`` may follow label ``a`` (``(prefix, type)``) in a well-formed sequence.

    A sentence starts after an imaginary ``("O", None)`` and ends before an
    imaginary ``("S", None)``: an outside token, and a segment of no type.
    """
    (p, t), (q, u) = a, b
    same = t is not None and t == u
    o_run = t == O_TYPE and u == O_TYPE  # O runs are one segment
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
    if scheme == "BI":
        return same if q == "I" else not o_run
    if p in ("B", "I"):  # IOBES, IE, BIES: inside a segment
        return same and q in ("I", "E")
    if scheme == "IOBES":
        return q in ("B", "S", "O")
    return (scheme == "IE" or q in ("B", "S")) and not o_run  # IE, BIES
