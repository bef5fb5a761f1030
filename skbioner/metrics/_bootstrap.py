"""Paired bootstrap significance test between two systems on the same gold."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.utils import check_random_state

from ._entity import _MATCH_COL, _f1, sentence_counts

__all__ = ["paired_bootstrap", "BootstrapResult"]


@dataclass(frozen=True)
class BootstrapResult:
    """Outcome of :func:`paired_bootstrap`.

    Parameters
    ----------
    f1_a, f1_b : float
        Entity F1 of the two systems on the full data.
    delta : float
        ``f1_a - f1_b``.
    p_value : float
        Two-sided p-value of "the systems are equally good".
    ci : tuple of float
        95% percentile interval of the bootstrap ``delta``.
    n_resamples : int
        Number of bootstrap replicates drawn.
    """

    f1_a: float
    f1_b: float
    delta: float
    p_value: float
    ci: tuple
    n_resamples: int


def paired_bootstrap(y_true, y_pred_a, y_pred_b, *, match="exact", mode="official",
                     scheme="IOB2", groups=None, n_resamples=10000, random_state=None,
                     batch_size=500):
    """Paired bootstrap test of the entity-F1 difference between two systems.

    Sentences (or whole ``groups``, e.g. abstracts) are drawn with
    replacement; each replicate recomputes both systems' micro F1 on the same
    draw.  The p-value is that of the shifted null distribution
    (Efron & Tibshirani 1993; Koehn 2004): the fraction of replicates whose
    difference departs from the observed one by at least the observed
    difference, ``(1 + #{|d_i - d| >= |d|}) / (n_resamples + 1)``.

    Parameters
    ----------
    y_true, y_pred_a, y_pred_b : list of list of str
    match, mode, scheme
        As in :func:`entity_f1_score`.
    groups : array-like of shape (n_sentences,), default=None
        Resample these units (e.g. abstract ids) instead of sentences.
    n_resamples : int, default=10000
    random_state : int, RandomState instance or None
    batch_size : int, default=500
        Replicates computed per vectorised batch (bounds memory).

    Returns
    -------
    BootstrapResult
    """
    if match not in _MATCH_COL:
        raise ValueError(f"match must be one of {tuple(_MATCH_COL)}, got {match!r}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    rs = check_random_state(random_state)
    ca, _, _ = sentence_counts(y_true, y_pred_a, mode=mode, scheme=scheme)
    cb, _, _ = sentence_counts(y_true, y_pred_b, mode=mode, scheme=scheme)
    cols = [0, 1, _MATCH_COL[match]]
    # per unit totals: (n_units, 2 systems, 3 columns)
    units = np.stack([ca[:, -1, cols], cb[:, -1, cols]], axis=1).astype(np.float64)
    if groups is not None:
        groups = np.asarray(groups)
        if len(groups) != len(units):
            raise ValueError(f"groups has {len(groups)} entries for {len(units)} sentences")
        _, inverse = np.unique(groups, return_inverse=True)
        summed = np.zeros((inverse.max() + 1,) + units.shape[1:])
        np.add.at(summed, inverse, units)
        units = summed
    n = len(units)
    if n == 0:
        raise ValueError("no sentences to resample")

    f1_a, f1_b = (float(_f1(*tot)) for tot in units.sum(axis=0))  # n_gold, n_pred, tp
    delta = f1_a - f1_b
    deltas = np.empty(n_resamples)
    flat = units.reshape(n, -1)
    for start in range(0, n_resamples, batch_size):
        b = min(batch_size, n_resamples - start)
        weights = rs.multinomial(n, np.full(n, 1.0 / n), size=b).astype(np.float64)
        rep = (weights @ flat).reshape(b, 2, 3)
        deltas[start:start + b] = _f1(*rep[:, 0].T) - _f1(*rep[:, 1].T)
    extreme = np.abs(deltas - delta) >= abs(delta) - 1e-12
    p_value = (1 + int(extreme.sum())) / (n_resamples + 1)
    lo, hi = np.percentile(deltas, [2.5, 97.5])
    return BootstrapResult(f1_a, f1_b, delta, p_value, (float(lo), float(hi)), n_resamples)
