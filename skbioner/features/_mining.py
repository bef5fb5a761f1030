"""Features mined from labelled training data (Zhou & Su 2004).

* Head-noun triggers: n-grams that end training entities of class ``c``
  often enough (``min_count``) and reliably enough (``min_precision`` =
  entity-final occurrences of class ``c`` / all occurrences).
* Affix patterns: prefixes/suffixes whose tokens fall inside entities of
  one class (``min_purity``), frequent enough (``min_count``), ranked by
  frequency x purity.

All counting is vectorised over type and token ids.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..schemes import labels_to_spans
from ._channels import affixes
from ._intmap import combine_keys

__all__ = ["entity_spans", "lower_ids", "mine_affix_patterns", "mine_head_nouns", "row_ids"]


def entity_spans(y, offsets, scheme):
    """Entity spans of ``y`` as flat token positions.

    Returns
    -------
    classes : list of str
        Sorted entity types.
    starts, ends, cls : ndarray of int64
        Half-open span ``[starts[j], ends[j])`` in flattened token
        positions, with class index ``cls[j]`` into ``classes``.
    """
    spans = [(t, int(base) + s, int(base) + e) for labels, base in zip(y, offsets)
             for t, s, e in labels_to_spans(labels, scheme)]
    classes = sorted({t for t, _, _ in spans})
    index = {c: i for i, c in enumerate(classes)}
    cls = np.fromiter((index[t] for t, _, _ in spans), dtype=np.int64, count=len(spans))
    bounds = np.array([(s, e) for _, s, e in spans], dtype=np.int64).reshape(-1, 2)
    return classes, bounds[:, 0], bounds[:, 1], cls


def row_ids(mat: np.ndarray, radix: int) -> np.ndarray:
    """One int64 id per row of a non-negative int matrix; equal rows, equal ids.

    The mixed-radix keys of :func:`._intmap.combine_keys`, compressed to their rank
    whenever the next digit would overflow 62 bits: ids are only comparable within
    one call.
    """
    if mat.shape[1] == 0:
        return np.zeros(mat.shape[0], dtype=np.int64)
    return combine_keys(list(mat.T), [radix] * mat.shape[1], [], True)


def lower_ids(corpus, lowercase):
    """The word types (lower-cased if ``lowercase``) and the type id of every token."""
    types, ids = corpus.column("word")
    if lowercase:
        from ._corpus import factorize

        low_types, low_of_type = factorize([t.lower() for t in types])
        return low_types, low_of_type[ids]
    return types, ids


def ngram_ids(corpus, tok, n):
    """``(n_tokens, n)`` matrix of the ids ending at each token, and a validity mask."""
    cols = []
    valid = np.ones(corpus.n_tokens, dtype=bool)
    for k in range(-(n - 1), 1):
        idx = corpus.shift_index(k)
        inside = idx >= 0
        valid &= inside
        cols.append(np.where(inside, tok[np.maximum(idx, 0)], 0))
    return np.stack(cols, axis=1) if cols else np.zeros((corpus.n_tokens, 0), np.int64), valid


def mine_head_nouns(corpus, spans, n, min_count, min_precision, lowercase, top_fraction=None):
    """Mine head-noun n-gram triggers.

    Parameters
    ----------
    corpus : Corpus
    spans : tuple
        Output of :func:`entity_spans`.
    n : int
        Length of the head n-gram (the last ``n`` words of an entity).
    min_count : int
        Minimum number of training entities of the class it ends.
    min_precision : float
        Minimum share of the n-gram's occurrences that end an entity of
        that class.
    lowercase : bool
    top_fraction : float or None, default=None
        Keep, per class, only this share (rounded up) of the triggers that
        pass the other tests, the most frequent ones (Zhou & Su 2004 keep
        the top 50%); ties by spelling.

    Returns
    -------
    list of (tuple of str, str)
        ``(words, class)`` pairs, sorted.
    """
    classes, starts, ends, cls = spans
    words, tok = lower_ids(corpus, lowercase)
    mat, valid = ngram_ids(corpus, tok, n)
    keys = row_ids(mat, max(len(words), 1))
    keys[~valid] = -1
    long_enough = (ends - starts) >= n
    end_pos = ends[long_enough] - 1
    head_keys = keys[end_pos]
    head_cls = cls[long_enough]
    if head_keys.size == 0:
        return []
    occ_keys, occ_counts = np.unique(keys[keys >= 0], return_counts=True)
    n_cls = len(classes)
    pair, pair_counts = np.unique(head_keys * n_cls + head_cls, return_counts=True)
    pair_key, pair_cls = np.divmod(pair, n_cls)
    occ = occ_counts[np.searchsorted(occ_keys, pair_key)]
    keep = (pair_counts >= min_count) & (pair_counts >= min_precision * occ)
    # a position where each kept key occurs as an entity head, to spell it
    first_pos = dict(zip(head_keys.tolist()[::-1], end_pos.tolist()[::-1], strict=True))
    out = []
    for k, c, m in zip(pair_key[keep].tolist(), pair_cls[keep].tolist(),
                       pair_counts[keep].tolist(), strict=True):
        p = first_pos[k]
        out.append((tuple(words[t] for t in tok[p - n + 1 : p + 1]), classes[c], m))
    if top_fraction is not None:
        kept = []
        for c in classes:
            mine = sorted((o for o in out if o[1] == c), key=lambda o: (-o[2], o[0]))
            kept += mine[: int(np.ceil(top_fraction * len(mine)))]
        out = kept
    return sorted((ws, c) for ws, c, _ in out)


def mine_affix_patterns(
    corpus, spans, lengths, types, min_count, min_purity, max_affixes, lowercase
):
    """Mine class-indicative affixes.

    Candidates are the prefixes/suffixes of length ``lengths`` strictly
    shorter than the (lower-cased) word.  For candidate ``a``, ``N(a)`` is
    the number of training tokens carrying it and ``n(a, c)`` the number of
    those inside an entity of class ``c``; purity is ``max_c n(a, c) /
    N(a)``.  Candidates with ``N(a) >= min_count`` and purity
    ``>= min_purity`` are ranked by ``N(a) * purity`` (ties by name) and
    the first ``max_affixes`` are kept.

    Returns
    -------
    list of str
        ``"pre:<affix>"`` / ``"suf:<affix>"``, best first.
    """
    classes, starts, ends, cls = spans
    words, tok = lower_ids(corpus, lowercase)
    n_cls = len(classes)
    tok_cls = np.zeros(corpus.n_tokens, dtype=np.int64)  # 0: outside, c+1: class c
    if starts.size:
        lengths_ = ends - starts
        pos = np.repeat(starts, lengths_) + (
            np.arange(int(lengths_.sum())) - np.repeat(np.cumsum(lengths_) - lengths_, lengths_)
        )
        tok_cls[pos] = np.repeat(cls + 1, lengths_)
    type_cls = np.bincount(tok * (n_cls + 1) + tok_cls, minlength=len(words) * (n_cls + 1)).reshape(
        len(words), n_cls + 1
    )

    affix_index = {}
    rows, cols = [], []
    for t, w in enumerate(words):
        for a in affixes(w, lengths, types):
            rows.append(t)
            cols.append(affix_index.setdefault(a, len(affix_index)))
    if not affix_index or n_cls == 0:
        return []
    names = list(affix_index)
    A = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(words), len(names)))
    A.sum_duplicates()
    A.data[:] = 1.0
    counts = np.asarray(A.T @ type_cls)  # (n_affixes, n_cls + 1)
    total = counts.sum(axis=1)
    best = counts[:, 1:].max(axis=1)
    ok = (total >= min_count) & (best >= min_purity * total) & (total > 0)
    idx = np.flatnonzero(ok)
    purity = best[idx] / total[idx]
    score = total[idx] * purity
    order = sorted(range(len(idx)), key=lambda j: (-score[j], names[idx[j]]))
    return [names[idx[j]] for j in order[:max_affixes]]
