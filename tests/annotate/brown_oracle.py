"""Slow pure-Python Brown clustering: the oracle of ``skbioner/annotate/_brown_kernel.py``.

Liang's (2005) windowed algorithm with every merge loss recomputed from scratch: the
average mutual information of the clusters in the window before and after the merge.
The window's slots, the choice of the kept cluster and the scan order follow the
compiled kernel, so both make the same merges in the same slots.
"""

import math


def ami(clusters, bigram, unigram, n_tokens):
    """AMI (times N) between adjacent clusters of the window (``clusters``: sets of words)."""
    live = [c for c in clusters if c]
    total = 0.0
    for a in live:
        ua = sum(unigram[w] for w in a)
        for b in live:
            ub = sum(unigram[w] for w in b)
            n = sum(bigram.get((v, w), 0.0) for v in a for w in b)
            if n > 0:
                total += n * math.log(n * n_tokens / (ua * ub))
    return total


def merge_loss(clusters, s, t, bigram, unigram, n_tokens):
    after = list(clusters)
    after[s] = clusters[s] | clusters[t]
    after[t] = None
    return (ami(clusters, bigram, unigram, n_tokens)
            - ami(after, bigram, unigram, n_tokens))


def losses(clusters, bigram, unigram, n_tokens):
    """``{(s, t): loss}`` of every pair of occupied slots, ``s < t``."""
    slots = [i for i, c in enumerate(clusters) if c]
    return {(s, t): merge_loss(clusters, s, t, bigram, unigram, n_tokens)
            for i, s in enumerate(slots) for t in slots[i + 1:]}


def _neighbours(clusters, s, exclude, bigram):
    count = 0
    for x, c in enumerate(clusters):
        if not c or x in (s, exclude):
            continue
        if any(bigram.get((v, w), 0) > 0 or bigram.get((w, v), 0) > 0
               for v in clusters[s] for w in c):
            count += 1
    return count


def _merge_best(clusters, bigram, unigram, n_tokens):
    table = losses(clusters, bigram, unigram, n_tokens)
    (s, t), loss = min(table.items(), key=lambda kv: (kv[1], kv[0]))
    if _neighbours(clusters, s, t, bigram) < _neighbours(clusters, t, s, bigram):
        s, t = t, s
    clusters[s] = clusters[s] | clusters[t]
    clusters[t] = None
    return s, t, loss


def brown(bigram, unigram, n_tokens, n_clusters, on_step=None):
    """Merges ``[(kept slot, absorbed slot, loss / N)]`` and the leaf slot of every word.

    ``bigram``: ``{(v, w): count}``; words are ``0..len(unigram) - 1`` by decreasing
    frequency.  ``on_step(clusters)`` is called after each word is added and merged.
    """
    clusters = [None] * (n_clusters + 1)
    merges = []
    for w in range(len(unigram)):
        k = clusters.index(None)
        clusters[k] = frozenset([w])
        if sum(1 for c in clusters if c) > n_clusters:
            s, t, loss = _merge_best(clusters, bigram, unigram, n_tokens)
            merges.append((s, t, loss / n_tokens))
        if on_step is not None:
            on_step(list(clusters))
    owner = {w: i for i, c in enumerate(clusters) if c for w in c}
    while sum(1 for c in clusters if c) > 1:
        s, t, loss = _merge_best(clusters, bigram, unigram, n_tokens)
        merges.append((s, t, loss / n_tokens))
    return merges, [owner[w] for w in range(len(unigram))]
