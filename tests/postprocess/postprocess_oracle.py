"""Slow pure-Python oracles of the post-processing hot paths, as they were written first.

``skbioner.postprocess`` reads the document's spans once per sentence, memoizes alias
verdicts per document, skips sentences no cascade rule can match and shares one
abbreviation detection between the first-pass columns and the resolver.  These are the
straightforward versions those replaced (verbatim, over the public helpers): the tests
check that both give the same labels and scores on the JNLPBA training data.
"""

from skbioner.postprocess._abbreviations import _overlapping, set_span
from skbioner.postprocess._alias import _CANDIDATE, _STOP
from skbioner.schemes import labels_to_spans


def lf_chars(words):
    chars, initial, word = [], [], []
    for w, token in enumerate(words):
        prev_alnum = False
        for c in token:
            alnum = c.isalnum()
            if alnum:
                chars.append(c.lower())
                initial.append(not prev_alnum)
                word.append(w)
            prev_alnum = alnum
    return chars, initial, word


def alias_score(short, words):
    """:func:`skbioner.postprocess.alias_score`, the dynamic programme written plainly."""
    sf = [c.lower() for c in short if c.isalnum()]
    chars, initial, word = lf_chars(words)
    if not sf or not chars or len(chars) < len(sf):
        return None
    states = {j: (1, 1) for j in range(len(chars))
              if word[j] == 0 and initial[j] and chars[j] == sf[0]}
    if not states:
        return None
    for c in sf[1:]:
        new = {}
        items = sorted(states.items())
        for j in (k for k in range(1, len(chars)) if chars[k] == c):
            best = None
            for jp, (ini, cov) in items:
                if jp >= j:
                    break
                key = (ini + int(initial[j]), cov + int(word[j] != word[jp]))
                if best is None or key > best:
                    best = key
            if best is not None:
                new[j] = best
        if not new:
            return None
        states = new
    return max(states.values())


def alias_correct(step, doc):
    """:meth:`NameAlias.correct`: spans re-read and the earlier entities listed per token."""
    def alias_of(token, entities):
        first = token[0].lower()
        letters = [c.lower() for c in token if c.isalnum()]
        for words, typ in reversed(entities):
            if words[0][:1].lower() != first:
                continue
            content = sum(w.lower() not in _STOP for w in words)
            if len(letters) < content:
                continue
            score = alias_score(token, words)
            if score is None:
                continue
            initials, covered = score
            if initials >= step.min_initials and covered >= content:
                return typ
        return None

    labels = [list(lab) for lab in doc.labels]
    entities = []
    for si, sent in enumerate(doc.sentences):
        spans = labels_to_spans(labels[si])
        for k, w in enumerate(sent):
            if not (step.min_chars <= len(w) <= step.max_chars) or not _CANDIDATE.match(w):
                continue
            before = entities + [(tuple(sent[a:b]), t) for t, a, b in spans
                                 if b <= k and b - a >= 2]
            if not before:
                continue
            found = _overlapping(labels[si], k, k + 1)
            if found and not (step.relabel and found[0][1:] == (k, k + 1)):
                continue
            typ = alias_of(w, before)
            if typ is not None and (not found or found[0][0] != typ):
                set_span(labels[si], k, k + 1, typ)
        entities += [(tuple(sent[a:b]), t) for t, a, b in labels_to_spans(labels[si])
                     if b - a >= 2]
    return labels


def cascade_matches(step, sent, labels):
    """:meth:`CascadedEntityRules._matches` without the skip of sentences no rule can match."""
    spans = labels_to_spans(labels)
    starts = {a: (t, b) for t, a, b in spans}
    segs, k = [], 0
    while k < len(sent):
        if k in starts:
            t, b = starts[k]
            segs.append((("E", t), k, b))
            k = b
        else:
            segs.append((("W", sent[k].lower()), k, k + 1))
            k += 1
    index = {}  # first item -> [(pattern, class)], longest first
    for pattern, typ, _ in step.rules_:
        if step.join_adjacent or any(kind == "W" for kind, _ in pattern):
            index.setdefault(pattern[0], []).append((pattern, typ))
    for patterns in index.values():
        patterns.sort(key=lambda pt: -len(pt[0]))
    out = []
    i = 0
    while i < len(segs):
        for pattern, typ in index.get(segs[i][0], ()):
            n = len(pattern)
            window = segs[i:i + n]
            if len(window) == n and all(seg[0] == item for seg, item in zip(window, pattern)):
                out.append((pattern, typ, window[0][1], window[-1][2]))
                i += n
                break
        else:
            i += 1
    return out
