"""Slow, obviously-correct reference featurizer: one Python call per token.

It reads the same :class:`FeatureGroup` lists as :class:`TokenFeaturizer`
but shares none of its machinery (no type tables, no offsets arithmetic,
no vocabulary code): every feature name is formatted from the sentence
directly.  The shape functions (``word_class``...) are shared; they are
tested separately against hand-written values.
"""

from __future__ import annotations

import math
from collections import Counter

from skbioner.features import (
    brief_word_class,
    length_bucket,
    orthographic_flags,
    word_class,
    word_formation,
    zhou_word_formation,
)
from skbioner.features._templates import get_preset
from skbioner.schemes import labels_to_spans

BOS, EOS = "<BOS>", "<EOS>"

DEFAULTS = {
    "word": {"lowercase": None, "label": "w"},
    "annotation": {"label": None, "prefixes": None},
    "prefix": {"lengths": (1, 2, 3, 4, 5), "label": "pre"},
    "suffix": {"lengths": (1, 2, 3, 4, 5), "label": "suf"},
    "substring": {"min_length": 3, "max_length": None, "label": "sub"},
    "word_class": {"label": "wc"},
    "brief_word_class": {"label": "bwc"},
    "orthographic": {"label": "orth"},
    "length": {"bins": (1, 2, 3, 4, 5, 7, 10), "label": "len"},
    "formation": {"label": "wf", "patterns": "suite"},
    "dictionary": {"prefix": "dict_"},
    "lexicon": {"column": "lex", "label": None},
    "chunk": {"column": "chunk", "label": None},
    "conjunction": {"lowercase": None},
    "word_cache": {"window": 2, "lowercase": None, "label": None},
    "head_noun": {"n": 1, "min_count": 3, "min_precision": 0.2, "lowercase": True,
                  "scheme": "IOB2", "label": None, "top_fraction": None},
    "affix_pattern": {"lengths": (3, 4, 5), "types": ("prefix", "suffix"), "min_count": 10,
                      "min_purity": 0.7, "max_affixes": 100, "lowercase": True,
                      "scheme": "IOB2", "label": "morph"},
}  # fmt: skip

ATTRIBUTES = {
    "word_class": ("wc", word_class),
    "brief_word_class": ("bwc", brief_word_class),
    "length": ("len", length_bucket),
    "formation": ("wf", word_formation),
}


def _params(group):
    p = dict(DEFAULTS[group.kind])
    p.update(group.params)
    return p


def _cols(sentence):
    return getattr(sentence, "_cols", {})


def _pad(j, n):
    return BOS if j < 0 else EOS if j >= n else None


def mine_heads(X, y, n, min_count, min_precision, lowercase, scheme, top_fraction=None):
    """Head-noun triggers by dictionary counting."""

    def norm(w):
        return w.lower() if lowercase else w

    heads = Counter()
    occurrences = Counter()
    for s, labels in zip(X, y, strict=True):
        words = [norm(w) for w in s]
        for i in range(n - 1, len(words)):
            occurrences[tuple(words[i - n + 1 : i + 1])] += 1
        for t, start, end in labels_to_spans(labels, scheme):
            if end - start >= n:
                heads[(tuple(words[end - n : end]), t)] += 1
    kept = {
        (ws, c): k
        for (ws, c), k in heads.items()
        if k >= min_count and k >= min_precision * occurrences[ws]
    }
    if top_fraction is None:
        return set(kept)
    out = set()
    for c in {c for _, c in kept}:
        mine = sorted(((-k, ws) for (ws, cc), k in kept.items() if cc == c))
        out |= {(ws, c) for _, ws in mine[: math.ceil(top_fraction * len(mine))]}
    return out


def mine_affixes(X, y, lengths, types, min_count, min_purity, max_affixes, lowercase, scheme):
    """Affix patterns by dictionary counting."""
    total = Counter()
    per_class = Counter()
    for s, labels in zip(X, y, strict=True):
        cls = [None] * len(s)
        for t, start, end in labels_to_spans(labels, scheme):
            for i in range(start, end):
                cls[i] = t
        for w, c in zip(s, cls, strict=True):
            w = w.lower() if lowercase else w
            affixes = set()
            for n in lengths:
                if len(w) > n:
                    if "prefix" in types:
                        affixes.add("pre:" + w[:n])
                    if "suffix" in types:
                        affixes.add("suf:" + w[-n:])
            for a in affixes:
                total[a] += 1
                if c is not None:
                    per_class[(a, c)] += 1
    best_of = Counter()
    for (a, _), k in per_class.items():
        best_of[a] = max(best_of[a], k)
    scored = []
    for a, n in total.items():
        best = best_of[a]
        if n >= min_count and best >= min_purity * n and best > 0:
            scored.append((-(n * (best / n)), a))
    scored.sort()
    return [a for _, a in scored[:max_affixes]]


class Oracle:
    """Reference featurizer.

    Parameters
    ----------
    templates : str or list of FeatureGroup
    lowercase : bool
    """

    def __init__(self, templates, lowercase=False, exclude=()):
        if isinstance(templates, str):
            templates = get_preset(templates)
        self.groups = [g for g in templates if g.name not in exclude]
        self.lowercase = lowercase
        self.mined = {}

    def fit(self, X, y=None):
        self.dict_columns = sorted({c for s in X for c in _cols(s) if c.startswith("dict_")})
        self.active = []
        for g in self.groups:
            p = _params(g)
            needs = []
            if g.kind in ("annotation", "lexicon", "chunk"):
                needs = [p["column"]]
            elif g.kind == "conjunction":
                of = p["of"] if isinstance(p["of"], tuple) else (p["of"],) * len(g.offsets)
                needs = [a for a in of if a not in ("word", *ATTRIBUTES)]
            if g.optional and any(not any(c in _cols(s) for s in X) for c in needs):
                continue
            if g.kind == "dictionary" and not [
                c for c in {c for s in X for c in _cols(s)} if c.startswith(p["prefix"])
            ]:
                continue
            if g.kind == "head_noun":
                self.mined[g.name] = mine_heads(
                    X, y, p["n"], p["min_count"], p["min_precision"], p["lowercase"], p["scheme"],
                    p["top_fraction"],
                )
            if g.kind == "affix_pattern":
                self.mined[g.name] = mine_affixes(
                    X, y, p["lengths"], p["types"], p["min_count"], p["min_purity"],
                    p["max_affixes"], p["lowercase"], p["scheme"],
                )  # fmt: skip
            self.active.append(g)
        return self

    def token_features(self, s, i):
        """The set of feature names of token ``i`` of sentence ``s``."""
        n = len(s)
        cols = _cols(s)
        out = set()
        for g in self.active:
            p = _params(g)
            lower = self.lowercase if p.get("lowercase") is None else p["lowercase"]
            kind = g.kind
            for k in g.offsets if kind not in ("conjunction", "word_cache") else ():
                j = i + k
                pad = _pad(j, n)
                w = s[j] if pad is None else None
                if kind == "word":
                    v = pad or (w.lower() if lower else w)
                    out.add(f"{p['label']}[{k}]={v}")
                elif kind == "annotation" and p["prefixes"] is not None:
                    label = p["label"] or p["column"]
                    for m in p["prefixes"]:
                        v = pad or cols[p["column"]][j]
                        out.add(f"{label}{m}[{k}]={v if v.startswith('<') else v[:m]}")
                elif kind in ("annotation", "chunk"):
                    label = p["label"] or p["column"]
                    out.add(f"{label}[{k}]={pad or cols[p['column']][j]}")
                elif kind == "dictionary":
                    for c in sorted(c for c in cols if c.startswith(p["prefix"])):
                        out.add(f"{c}[{k}]={pad or cols[c][j]}")
                elif kind == "lexicon":  # several values a token, "O" none; no padding value
                    value = "O" if pad else cols[p["column"]][j]
                    for v in value.split(" ") if value != "O" else ():
                        out.add(f"{p['label'] or p['column']}[{k}]={v}")
                elif kind in ("prefix", "suffix"):
                    for m in p["lengths"]:
                        label = f"{p['label']}{m}[{k}]"
                        if pad:
                            out.add(f"{label}={pad}")
                        elif len(w) >= m:
                            out.add(f"{label}={w[:m] if kind == 'prefix' else w[-m:]}")
                elif kind == "substring":
                    if pad is None:
                        hi = len(w) if p["max_length"] is None else p["max_length"]
                        for a in range(len(w)):
                            for b in range(a + p["min_length"], min(len(w), a + hi) + 1):
                                out.add(f"{p['label']}[{k}]={w[a:b]}")
                elif kind == "word_class":
                    out.add(f"{p['label']}[{k}]={pad or word_class(w)}")
                elif kind == "brief_word_class":
                    out.add(f"{p['label']}[{k}]={pad or brief_word_class(w)}")
                elif kind == "length":
                    v = pad or length_bucket(w, p["bins"])
                    if v is not None:
                        out.add(f"{p['label']}[{k}]={v}")
                elif kind == "formation":
                    func = zhou_word_formation if p["patterns"] == "zhou" else word_formation
                    out.add(f"{p['label']}[{k}]={pad or func(w)}")
                elif kind == "orthographic":
                    if pad is None:
                        out.update(f"{p['label']}[{k}]={f}" for f in orthographic_flags(w))
                elif kind == "head_noun":
                    m = p["n"]
                    label = p["label"] or f"head{m}"
                    if pad is None and j - m + 1 >= 0:
                        words = tuple(
                            x.lower() if p["lowercase"] else x for x in s[j - m + 1 : j + 1]
                        )
                        for ws, c in self.mined[g.name]:
                            if ws == words:
                                out.add(f"{label}[{k}]={c}")
                elif kind == "affix_pattern":
                    if pad is None:
                        x = w.lower() if p["lowercase"] else w
                        for a in self.mined[g.name]:
                            kind_, affix = a.split(":", 1)
                            m = len(affix)
                            if m in p["lengths"] and len(x) > m:
                                if (kind_ == "pre" and x[:m] == affix) or (
                                    kind_ == "suf" and x[-m:] == affix
                                ):
                                    out.add(f"{p['label']}[{k}]={a}")
                else:  # pragma: no cover
                    raise AssertionError(kind)
            if kind == "conjunction":
                of = p["of"] if isinstance(p["of"], tuple) else (p["of"],) * len(g.offsets)
                labels, values = [], []
                for a, k in zip(of, g.offsets, strict=True):
                    j = i + k
                    pad = _pad(j, n)
                    if a == "word":
                        labels.append(f"w[{k}]")
                        values.append(pad or (s[j].lower() if lower else s[j]))
                    elif a in ATTRIBUTES:
                        label, func = ATTRIBUTES[a]
                        labels.append(f"{label}[{k}]")
                        values.append(pad or func(s[j]))
                    else:
                        labels.append(f"{a}[{k}]")
                        values.append(pad or cols[a][j])
                out.add(f"{'&'.join(labels)}={'|'.join(values)}")
            elif kind == "word_cache":
                m = p["window"]
                label = p["label"] or f"{p['side'][0]}wc{m}"
                rng = range(i - m, i + 1) if p["side"] == "left" else range(i + 1, i + m + 1)
                for j in rng:
                    if 0 <= j < n:
                        out.add(f"{label}={s[j].lower() if lower else s[j]}")
        return out

    def features(self, X):
        """Feature-name sets of every token, flattened in corpus order."""
        return [self.token_features(s, i) for s in X for i in range(len(s))]

    def vocabulary(self, X, min_count=1):
        counts = Counter(f for feats in self.features(X) for f in feats)
        return {f for f, c in counts.items() if c >= min_count}
