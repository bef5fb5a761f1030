"""The one check of label sequences (``y``) that every estimator, scorer and writer calls."""

from __future__ import annotations

from itertools import chain

import numpy as np

from ._schemes import check_scheme, is_valid_label

__all__ = ["check_label_sequences"]


def check_label_sequences(y, lengths=None, scheme="IOB2", *, name="y", unit="tokens"):
    """``y`` as a list of label lists, checked against sentence lengths and a scheme.

    Vectorised: the lengths are compared in one array operation and each
    distinct label is checked once.

    Parameters
    ----------
    y : sequence of sequence of str
        One label sequence per sentence.
    lengths : sequence of int, optional
        The number of tokens of each sentence: ``y`` must have as many
        sequences, each as long.
    scheme : str, None or False, default="IOB2"
        Every label must be one of the scheme's (:func:`is_valid_label`);
        None: any non-empty string (plain labels: part of speech); False: the
        labels are not checked (scorers count whatever they are given).
    name : str, default="y"
        What the messages call ``y``.
    unit : str, default="tokens"
        What the messages call the items ``lengths`` counts.

    Returns
    -------
    list of list of str
        New lists (never the caller's objects).

    Raises
    ------
    TypeError
        If ``y`` or one of its items is a string, or a label is not one.
    ValueError
        If ``y`` is None; naming the first sentence whose length or label is wrong.

    Examples
    --------
    >>> check_label_sequences([("B-DNA", "O")], lengths=[2])
    [['B-DNA', 'O']]
    """
    if isinstance(y, str | bytes):
        raise TypeError(f"{name} must be a list of label sequences, one per sentence")
    if y is None:  # the words of scikit-learn's own check (check_requires_y_none)
        raise ValueError(f"this estimator requires y to be passed, but the target {name} is "
                         "None: give one label sequence per sentence")
    y = list(y)
    for i, labels in enumerate(y):
        if isinstance(labels, str | bytes):
            raise TypeError(f"{name}[{i}] must be a list of labels, got a "
                            f"{type(labels).__name__}")
    y = [list(labels) for labels in y]
    if lengths is not None:
        lengths = np.fromiter(lengths, dtype=np.int64) if not hasattr(lengths, "__len__") \
            else np.asarray(lengths, dtype=np.int64)
        if len(y) != lengths.size:
            raise ValueError(f"{name} has {len(y)} label sequences but there are "
                             f"{lengths.size} sentences")
        ylen = np.fromiter(map(len, y), dtype=np.int64, count=len(y))
        bad = np.flatnonzero(ylen != lengths)
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"{name}[{i}] has {ylen[i]} labels but sentence {i} has "
                             f"{lengths[i]} {unit}")
    if scheme is False:
        return y
    if scheme is not None:
        scheme = check_scheme(scheme)
    distinct = set(chain.from_iterable(y))

    def first(bad):  # sentence and token of the first label in ``bad``
        i = next(i for i, labels in enumerate(y) if bad.intersection(labels))
        return i, next(j for j, lab in enumerate(y[i]) if lab in bad)

    typed = {lab for lab in distinct if not isinstance(lab, str)}
    if typed:
        i, j = first(typed)
        raise TypeError(f"{name}[{i}][{j}] is {type(y[i][j]).__name__}, not str")
    wrong = {lab for lab in distinct if (not lab if scheme is None
                                         else not is_valid_label(lab, scheme))}
    if wrong:
        i, j = first(wrong)
        what = f"labels must be non-empty strings, got {y[i][j]!r}" if scheme is None else (
            f"label {y[i][j]!r} at token {j} is not a valid {scheme} label")
        raise ValueError(f"{name}[{i}]: {what}")
    return y
