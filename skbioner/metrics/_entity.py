"""Entity-level evaluation (official JNLPBA and span modes) and sklearn scorers."""

from __future__ import annotations

import numpy as np
from sklearn.metrics import make_scorer

from ..schemes import check_label_sequences, check_scheme, labels_to_spans
from ._official import _check_y, official_token_tallies
from ._report import ClassScore, EntityReport

__all__ = [
    "entity_report",
    "entity_f1_score",
    "token_accuracy_score",
    "sequence_accuracy_score",
    "entity_f1_scorer",
    "token_accuracy_scorer",
    "sequence_accuracy_scorer",
    "make_entity_scorer",
    "sentence_counts",
]

MODES = ("official", "spans")


def sentence_counts(y_true, y_pred, *, mode="official", scheme="IOB2"):
    """Per-sentence entity counts, the building block of every entity metric.

    Parameters
    ----------
    y_true, y_pred : list of list of str
        Gold and predicted labels, one list per sentence, in corpus order.
    mode : {"official", "spans"}, default="official"
        See :func:`entity_report`.
    scheme : str, default="IOB2"
        Scheme of both label sequences (``"spans"`` mode only).

    Returns
    -------
    counts : ndarray of int64, shape (n_sentences, n_classes + 1, 5)
        For each sentence and class (the last row is the total) the columns
        ``n_gold, n_pred, tp_exact, tp_left, tp_right``.  Summing over
        sentences gives :func:`entity_report`'s numbers, and resampling
        sentences gives bootstrap replicates (:func:`paired_bootstrap`).
    classes : list of str
        The class of each row of ``counts`` but the last.
    tagging : dict
        Token-level agreement counts.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    y_true, y_pred = _check_y(y_true, y_pred)
    if mode == "official":
        return _official_sentence_counts(y_true, y_pred)
    return _span_sentence_counts(y_true, y_pred, check_scheme(scheme))


def _official_sentence_counts(y_true, y_pred):
    t = official_token_tallies(y_true, y_pred)
    n_cls = len(t.classes)
    n_sent = len(t.sentence_offsets) - 1
    n_tok = len(t.ref)
    sent_of_token = np.repeat(np.arange(n_sent), np.diff(t.sentence_offsets))
    counts = np.zeros((n_sent, n_cls + 1, 5), dtype=np.int64)
    # gold entities under their class; answers and hits under the answer's (as the script)
    flags = [t.ref] + [t.hits[k] for k in ("ans", "exact", "left", "right")]
    for j, flag in enumerate(flags if n_tok else []):
        cls = t.ref_class if j == 0 else t.ans_class
        np.add.at(counts[:, :, j], (sent_of_token[flag], cls[flag]), 1)
    counts[:, n_cls, :] = counts[:, :n_cls, :].sum(axis=1)
    tagging = {
        "tags": n_tok,
        "correct_tags": int(t.correct_tags.sum()),
        "correct_iob": int(t.correct_iob.sum()),
    }
    return counts, list(t.classes), tagging


def _span_sentence_counts(y_true, y_pred, scheme):
    spans_t, spans_p = ([labels_to_spans(labels, scheme)
                         for labels in check_label_sequences(y, scheme=scheme, name=name)]
                        for y, name in ((y_true, "y_true"), (y_pred, "y_pred")))
    classes = sorted({s[0] for ss in spans_t + spans_p for s in ss})
    cid = {c: k for k, c in enumerate(classes)}
    n_cls = len(classes)
    counts = np.zeros((len(y_true), n_cls + 1, 5), dtype=np.int64)
    for i, (st, sp) in enumerate(zip(spans_t, spans_p, strict=True)):
        for c, _, _ in st:
            counts[i, cid[c], 0] += 1
        for c, _, _ in sp:
            counts[i, cid[c], 1] += 1
        gold = set(st)
        gold_left = {(c, s) for c, s, _ in st}
        gold_right = {(c, e) for c, _, e in st}
        for c, s, e in sp:
            counts[i, cid[c], 2] += (c, s, e) in gold
            counts[i, cid[c], 3] += (c, s) in gold_left
            counts[i, cid[c], 4] += (c, e) in gold_right
    counts[:, n_cls, :] = counts[:, :n_cls, :].sum(axis=1)
    pairs = [(a, b) for t, p in zip(y_true, y_pred, strict=True) for a, b in zip(t, p)]
    tagging = {"tags": len(pairs), "correct_tags": sum(a == b for a, b in pairs),
               "correct_iob": sum(a[:1] == b[:1] for a, b in pairs)}
    return counts, classes, tagging


def _report_from_counts(total, classes, mode, tagging):
    def score(row):
        return ClassScore(
            n_gold=int(row[0]),
            n_pred=int(row[1]),
            tp={"exact": int(row[2]), "left": int(row[3]), "right": int(row[4])},
        )

    per_class = {c: score(total[k]) for k, c in enumerate(classes) if total[k].any()}
    return EntityReport(overall=score(total[-1]), per_class=per_class, mode=mode, tagging=tagging)


def entity_report(y_true, y_pred, *, mode="official", scheme="IOB2") -> EntityReport:
    """Entity-level precision / recall / F1 (exact, left, right), overall and per class.

    Parameters
    ----------
    y_true, y_pred : list of list of str
        Gold and predicted labels, one list per sentence, in corpus order.
    mode : {"official", "spans"}, default="official"
        ``"official"`` reproduces the JNLPBA 2004 scorer count for count,
        quirks included (``y`` read as IOB2 the way the script reads it; see
        ``docs/evaluation.md``).  ``"spans"`` compares entity spans decoded
        under ``scheme`` (labels must be valid for it; ill-formed sequences
        are read by the repair policy of :mod:`skbioner.schemes`): exact =
        same type and both boundaries, left = same type and start, right =
        same type and end.
    scheme : str, default="IOB2"
        Scheme of both label sequences (``"spans"`` mode only).

    Returns
    -------
    EntityReport

    Examples
    --------
    >>> r = entity_report([["B-DNA", "I-DNA", "O"]], [["B-DNA", "O", "O"]])
    >>> r.overall.exact.f1, r.overall.left.f1
    (0.0, 1.0)
    """
    counts, classes, tagging = sentence_counts(y_true, y_pred, mode=mode, scheme=scheme)
    return _report_from_counts(counts.sum(axis=0), classes, mode, tagging)


_MATCH_COL = {"exact": 2, "left": 3, "right": 4}


def _f1(n_gold, n_pred, tp):
    """F1 of counts (arrays), as the official scorer computes it (0 when undefined)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(n_pred > 0, tp / np.maximum(n_pred, 1), 0.0)
        r = np.where(n_gold > 0, tp / np.maximum(n_gold, 1), 0.0)
        f = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)
    return f


def entity_f1_score(y_true, y_pred, *, match="exact", mode="official", scheme="IOB2",
                    average="micro"):
    """Entity F1 of ``y_pred`` against ``y_true``.

    Parameters
    ----------
    y_true, y_pred : list of list of str
        Gold and predicted labels, one list per sentence, in corpus order.
    match : {"exact", "left", "right"}, default="exact"
        Which boundaries a predicted entity must share with a gold one
        (both, the start or the end; the type always).
    mode : {"official", "spans"}, default="official"
        See :func:`entity_report`.
    scheme : str, default="IOB2"
        Scheme of both label sequences (``"spans"`` mode only).
    average : {"micro", "macro"}, default="micro"
        ``"micro"`` is the overall F1 the official report prints;
        ``"macro"`` averages the per-class F1 over the gold classes.

    Returns
    -------
    float
        The F1 score (0.0 when there is nothing to score).
    """
    if match not in _MATCH_COL:
        raise ValueError(f"match must be one of {tuple(_MATCH_COL)}, got {match!r}")
    if average not in ("micro", "macro"):
        raise ValueError(f"average must be 'micro' or 'macro', got {average!r}")
    counts, classes, _ = sentence_counts(y_true, y_pred, mode=mode, scheme=scheme)
    total = counts.sum(axis=0)[:, [0, 1, _MATCH_COL[match]]]  # n_gold, n_pred, tp
    if average == "micro":
        return float(_f1(*total[-1]))
    gold = [k for k in range(len(classes)) if total[k, 0] > 0]
    if not gold:
        return 0.0
    return float(np.mean(_f1(*total[gold].T)))


def token_accuracy_score(y_true, y_pred):
    """Fraction of tokens whose predicted label equals the gold label.

    Parameters
    ----------
    y_true, y_pred : list of list of str
        Gold and predicted labels, one list per sentence.

    Returns
    -------
    float
        Correct tokens over all tokens (0.0 without tokens).
    """
    y_true, y_pred = _check_y(y_true, y_pred)
    n = sum(len(s) for s in y_true)
    if n == 0:
        return 0.0
    correct = sum(a == b for t, p in zip(y_true, y_pred, strict=True) for a, b in zip(t, p))
    return correct / n


def sequence_accuracy_score(y_true, y_pred):
    """Fraction of sentences whose whole label sequence is right.

    Parameters
    ----------
    y_true, y_pred : list of list of str
        Gold and predicted labels, one list per sentence.

    Returns
    -------
    float
        Fully correct sentences over all sentences (0.0 without sentences).
    """
    y_true, y_pred = _check_y(y_true, y_pred)
    if not y_true:
        return 0.0
    return sum(t == p for t, p in zip(y_true, y_pred, strict=True)) / len(y_true)


def make_entity_scorer(match="exact", mode="official", scheme="IOB2", average="micro"):
    """A scorer for ``GridSearchCV(scoring=...)`` / ``cross_validate`` on sequence ``y``.

    The estimator's ``predict(X)`` must return a list of label sequences.

    Parameters
    ----------
    match : {"exact", "left", "right"}, default="exact"
        As in :func:`entity_f1_score`.
    mode : {"official", "spans"}, default="official"
        As in :func:`entity_report`.
    scheme : str, default="IOB2"
        Scheme of the label sequences (``"spans"`` mode only).
    average : {"micro", "macro"}, default="micro"
        As in :func:`entity_f1_score`.

    Returns
    -------
    callable
        A scorer ``scorer(estimator, X, y)`` returning :func:`entity_f1_score`
        of ``estimator.predict(X)`` against ``y``.
    """
    return make_scorer(
        entity_f1_score, match=match, mode=mode, scheme=scheme, average=average
    )


#: Entity F1 with the defaults of :func:`make_entity_scorer` (exact, official, IOB2, micro).
entity_f1_scorer = make_entity_scorer()
#: The scorer of :func:`token_accuracy_score`.
token_accuracy_scorer = make_scorer(token_accuracy_score)
#: The scorer of :func:`sequence_accuracy_score`.
sequence_accuracy_scorer = make_scorer(sequence_accuracy_score)

