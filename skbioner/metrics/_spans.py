"""Scores of character-offset entity spans (standoff output against standoff gold)."""

from __future__ import annotations

from collections import Counter

from ._report import MATCHES, ClassScore, EntityReport

__all__ = ["character_span_report", "character_span_scores"]


_AGREE = {"exact": slice(0, 3), "left": slice(0, 2), "right": slice(0, 3, 2)}


def _keys(spans, match):
    """The multiset of what must agree under ``match``: type and both ends, or one."""
    return Counter(span[_AGREE[match]] for span in spans)


def character_span_report(gold, pred) -> EntityReport:
    """Exact, left- and right-boundary scores of character spans, per class and overall.

    The three views of the official JNLPBA scorer, on character offsets: a
    predicted entity is *exact* when a gold entity of its document has the
    same type and the same start and end, *left* when one has the same type
    and start, *right* when one has the same type and end.  Matching is one
    to one (two predictions with the same start match two gold entities
    with that start), so that recall never exceeds 1 when predictions
    overlap; for spans that do not overlap -- what a tagger writes -- this
    is the official counting.

    Parameters
    ----------
    gold, pred : mapping of str -> iterable of (str, int, int)
        Per document id, the ``(type, start, end)`` entity spans.  A
        document missing from ``pred`` has no predictions; one missing from
        ``gold`` no gold entities.

    Returns
    -------
    EntityReport
        ``mode="characters"``; ``to_text()`` lays it out as the official
        report, ``to_dict()`` as ``skbioner evaluate --json``.

    Examples
    --------
    >>> gold = {"d1": [("protein", 0, 4), ("DNA", 10, 19)]}
    >>> pred = {"d1": [("protein", 0, 4), ("DNA", 10, 15)]}
    >>> report = character_span_report(gold, pred)
    >>> report.overall.exact.f1, report.overall.left.f1
    (0.5, 1.0)
    """
    n_gold, n_pred = Counter(), Counter()
    tp = {m: Counter() for m in MATCHES}
    for doc in set(gold) | set(pred):
        g = [tuple(s) for s in gold.get(doc, ())]
        p = [tuple(s) for s in pred.get(doc, ())]
        n_gold.update(t for t, _, _ in g)
        n_pred.update(t for t, _, _ in p)
        for m in MATCHES:
            for key, k in (_keys(g, m) & _keys(p, m)).items():
                tp[m][key[0]] += k
    classes = sorted(set(n_gold) | set(n_pred))
    per_class = {c: ClassScore(n_gold[c], n_pred[c], {m: tp[m][c] for m in MATCHES})
                 for c in classes}
    overall = ClassScore(sum(n_gold.values()), sum(n_pred.values()),
                         {m: sum(tp[m].values()) for m in MATCHES})
    return EntityReport(overall=overall, per_class=per_class, mode="characters")


def _prf(score):
    exact = score.exact
    return {"precision": exact.precision, "recall": exact.recall, "f1": exact.f1,
            "tp": exact.tp, "n_pred": score.n_pred, "n_gold": score.n_gold}


def character_span_scores(gold, pred):
    """Precision, recall and F1 of predicted ``(type, start, end)`` spans, exact match.

    A predicted entity is correct when a gold entity of the same document
    has the same type and the same character offsets.  The exact view of
    :func:`character_span_report`, as plain dicts.

    Parameters
    ----------
    gold, pred : mapping of str -> iterable of (str, int, int)
        Per document id, the entity spans.  A document missing from ``pred``
        has no predictions; one missing from ``gold`` no gold entities.

    Returns
    -------
    dict
        ``{"overall": {...}, "per_class": {type: {...}}}`` where each entry
        has ``precision``, ``recall``, ``f1``, ``tp``, ``n_pred``, ``n_gold``.

    Examples
    --------
    >>> gold = {"d1": [("protein", 0, 4), ("DNA", 10, 19)]}
    >>> pred = {"d1": [("protein", 0, 4), ("DNA", 10, 15)]}
    >>> round(character_span_scores(gold, pred)["overall"]["f1"], 2)
    0.5
    """
    report = character_span_report(gold, pred)
    return {"overall": _prf(report.overall),
            "per_class": {c: _prf(s) for c, s in report.per_class.items()}}
