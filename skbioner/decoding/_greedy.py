"""Greedy left-to-right decoding with the predicted labels as features.

Kazama et al. (2002) tag deterministically from left to right, and the
classes already predicted for the previous tokens (``pc-1``, ``pc-2``) are
features of the next one.  That is a different loop, not a different model:
all sentences advance one position at a time, so each step scores every
sentence that is still running in one vectorised call, and no Python code
runs per token.
"""

from __future__ import annotations

import numpy as np

from ._viterbi import _check_chain, check_offsets

__all__ = ["greedy_decode"]


def greedy_decode(step, offsets, n_labels, *, start=None, trans=None, end=None, history=2):
    """Decode sentences left to right, feeding back the labels predicted so far.

    Parameters
    ----------
    step : callable
        ``step(rows, prev) -> scores``: ``rows`` (int64, shape (k,)) are the
        token rows decided at this position (one per running sentence),
        ``prev`` (int64, shape (k, history)) the labels already predicted at
        ``rows - 1``, ``rows - 2``, ... (-1 before the sentence start);
        ``scores`` is a ``(k, n_labels)`` array.  The highest score wins
        (ties: the lowest label).
    offsets : ndarray of int, shape (n_sentences + 1,)
    n_labels : int
    start, trans, end : ndarray, optional
        Additive scores (``-inf`` forbids) of the first label, of label
        ``b`` after the predicted ``a`` (``trans[a, b]``), and of the last
        label: the transition constraints of a segment scheme, so the greedy
        path is well formed.
    history : int, default=2
        Number of previous labels passed to ``step``.

    Returns
    -------
    paths : ndarray of int32, shape (n_tokens_total,)
    """
    offsets = check_offsets(offsets, int(np.asarray(offsets)[-1]) if len(offsets) else 0)
    L = int(n_labels)
    zeros = np.zeros(L)
    trans, start, end = _check_chain(
        L,
        np.zeros((L, L)) if trans is None else trans,
        zeros if start is None else start,
        zeros if end is None else end,
    )
    out = np.full(int(offsets[-1]), -1, dtype=np.int64)
    # the rows of position t of every sentence longer than t, longest sentences first
    lengths = np.diff(offsets)
    order = np.argsort(-lengths, kind="stable")
    starts, lens = offsets[:-1][order], lengths[order]
    alive = lens.size - np.searchsorted(lens[::-1], np.arange(lens[0] if lens.size else 0),
                                        side="right")  # sentences longer than t
    last = np.zeros(out.size, dtype=bool)
    last[offsets[1:][lengths > 0] - 1] = True
    for t, n_alive in enumerate(alive.tolist()):
        rows = starts[:n_alive] + t
        prev = np.full((rows.size, history), -1, dtype=np.int64)
        for j in range(min(t, history)):
            prev[:, j] = out[rows - 1 - j]
        scores = np.array(step(rows, prev), dtype=np.float64)  # a copy: masks are added
        if scores.shape != (rows.size, L):
            raise ValueError(f"step returned scores of shape {scores.shape}, expected "
                             f"{(rows.size, L)}")
        scores += start if t == 0 else trans[prev[:, 0]]
        ends = last[rows]
        if ends.any():
            scores[ends] += end
        out[rows] = np.argmax(scores, axis=1)
    return out.astype(np.int32)
