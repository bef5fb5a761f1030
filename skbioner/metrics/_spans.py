"""Exact-match scores of character-offset entity spans (brat standoff against brat standoff)."""

from __future__ import annotations

from collections import Counter

__all__ = ["character_span_scores"]


def _prf(tp, n_pred, n_gold):
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0,
            "tp": tp, "n_pred": n_pred, "n_gold": n_gold}


def character_span_scores(gold, pred):
    """Precision, recall and F1 of predicted ``(type, start, end)`` spans, exact match.

    A predicted entity is correct when a gold entity of the same document
    has the same type and the same character offsets.

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
    tp, n_pred, n_gold = Counter(), Counter(), Counter()
    for doc in set(gold) | set(pred):
        g = Counter(tuple(s) for s in gold.get(doc, ()))
        p = Counter(tuple(s) for s in pred.get(doc, ()))
        for (typ, *_), k in g.items():
            n_gold[typ] += k
        for (typ, *_), k in p.items():
            n_pred[typ] += k
        for span, k in (g & p).items():
            tp[span[0]] += k
    classes = sorted(set(n_gold) | set(n_pred))
    return {
        "overall": _prf(sum(tp.values()), sum(n_pred.values()), sum(n_gold.values())),
        "per_class": {c: _prf(tp[c], n_pred[c], n_gold[c]) for c in classes},
    }
