"""Entity-level votes: members' spans in, well-formed non-overlapping spans out."""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Real

__all__ = ["member_weights", "vote_spans"]


def member_weights(weights, n_members, types):
    """Each member's weight for each entity type.

    Parameters
    ----------
    weights : None or sequence of (float or mapping of str to float)
        None: 1 for every member and type; otherwise one item per member,
        a number (the same weight for every type) or a mapping from type to
        weight (types it does not name weigh 1).
    n_members : int
    types : iterable of str
        The entity types.

    Returns
    -------
    list of dict of str to float
        ``out[m][type]``.
    """
    types = list(types)
    if weights is None:
        return [dict.fromkeys(types, 1.0) for _ in range(n_members)]
    weights = list(weights)
    if len(weights) != n_members:
        raise ValueError(f"weights has {len(weights)} items for {n_members} estimators")
    out = []
    for k, w in enumerate(weights):
        if isinstance(w, Mapping):
            unknown = sorted(set(w) - set(types))
            if unknown:
                raise ValueError(f"weights[{k}] names types the members do not tag: {unknown}")
            row = {t: float(w.get(t, 1.0)) for t in types}
        elif isinstance(w, Real) and not isinstance(w, bool):
            row = dict.fromkeys(types, float(w))
        else:
            raise TypeError(f"weights[{k}] must be a number or a dict of type -> number, "
                            f"got {type(w).__name__}")
        if any(v < 0 for v in row.values()):
            raise ValueError(f"weights[{k}] has a negative weight")
        out.append(row)
    return out


def vote_spans(spans, weights, threshold=0.5, soft=True):
    """The spans a weighted majority of members agrees on, without overlaps.

    Every member proposes its entities; a candidate ``(type, start, end)``
    gathers the weight of every member proposing exactly it (times the
    member's confidence when ``soft``).  Its support is that sum divided by
    the members' total weight for its type.  Candidates whose support
    exceeds ``threshold`` are kept, the best supported first (then the
    longer, the earlier, the type first in alphabetical order), each dropped
    if it overlaps one kept before.

    Parameters
    ----------
    spans : list of list of (str, int, int, float)
        Per member, the entities of one sentence with their confidences.
    weights : list of dict of str to float
        Per member, the weight of each type (:func:`member_weights`).
    threshold : float, default=0.5
        A candidate is kept when its support is strictly above it.
    soft : bool, default=True
        Weigh each vote by the member's confidence in the entity.

    Returns
    -------
    list of (str, int, int, float)
        Non-overlapping entities sorted by start, with their support.
    """
    votes = {}
    for w, member_spans in zip(weights, spans):
        for t, s, e, p in member_spans:
            weight = w.get(t, 0.0)
            if weight:
                votes[t, s, e] = votes.get((t, s, e), 0.0) + weight * (p if soft else 1.0)
    if not votes:
        return []
    totals = {t: sum(w.get(t, 0.0) for w in weights) for t, _, _ in votes}
    ranked = sorted(((v / totals[k[0]], k) for k, v in votes.items()),
                    key=lambda item: (-item[0], item[1][1] - item[1][2], item[1][1], item[1][0]))
    taken, out = [], []
    for support, (t, s, e) in ranked:
        if support <= threshold:
            break
        if any(s < b and a < e for a, b in taken):
            continue
        taken.append((s, e))
        out.append((t, s, e, min(support, 1.0)))
    out.sort(key=lambda x: x[1])
    return out
