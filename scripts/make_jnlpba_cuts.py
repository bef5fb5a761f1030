"""Learn where the JNLPBA corpus cuts words, for ``BioTokenizer(cuts="jnlpba")``.

    python scripts/make_jnlpba_cuts.py --data ../shared/data/jnlpba

The JNLPBA tokens were made by cutting words at entity boundaries (``Tax`` ``-induced``,
``JAK`` ``/STAT``, ``ATF`` ``/`` ``CREB``).  The raw text of the training abstracts is not
available, so the words are rebuilt from the tokens: a token that starts with a hyphen or
slash followed by a letter or digit (``-induced``, ``/STAT``) is glued to a previous token
that ends in a letter, digit or ``+``; a token that ends in a hyphen or slash
(``anti-``, ``granulocyte/``) to the next one that starts with a letter or digit (a hyphen
before ``and``/``or``/``to``... is a space in the text: ``serum- and``); a lone ``/``
between two names to both.  Every hyphen and slash inside a rebuilt word is a cut point
(:mod:`skbioner.text._cuts`); the script counts, for each lookup key, how often the corpus
cut there.  Beside the table, the tokens that the corpus annotates as one-token entities
are kept with their counts (whether the part before a hyphen is an entity of its own is
the best evidence for a cut).

``min_count`` and ``threshold`` were chosen on the development abstracts (the last 10% of
train.iob2) by ``benchmarks/archive/cuts_dev.py``: a model trained on the other 90% tags the
development text rebuilt from its tokens with each table, scored by entity span F1
(``--min-count 2 --threshold 0.6``, the defaults).  For information the script prints the
F1 of the cut points themselves on the development words (the counts of the other 90%
decide them) for a grid of values.  The table is then counted on the whole
training file and written, keeping only keys seen at least ``min_count`` times, to
``skbioner/text/data/jnlpba_cuts.json.gz``.  The test split is not read.  Last line of
stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import Counter, defaultdict
from pathlib import Path

from skbioner.datasets import train_dev_split
from skbioner.io import read_jnlpba
from skbioner.schemes import labels_to_spans
from skbioner.text._cuts import CutTable, cut_keys, cut_points  # private: builds package data

OUT = Path(__file__).resolve().parents[1] / "skbioner" / "text" / "data" / "jnlpba_cuts.json.gz"
_SPACED = frozenset("and or to nor versus vs than as".split())
MIN_COUNTS = (1, 2, 3, 5, 8, 12, 20)
THRESHOLDS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7)


def _glued(a, b):
    """Whether tokens ``a`` ``b`` were one word of the text, cut by the corpus."""
    if len(b) > 1 and b[0] in "-/" and b[1].isalnum():
        return a[-1].isalnum() or a[-1] == "+"
    if len(a) > 1 and a[-1] in "-/" and b[0].isalnum():
        return a[-1] == "/" or b.lower() not in _SPACED
    return False


def words(sentence):
    """The rebuilt words of a sentence that hold a hyphen or slash: ``(word, cut offsets)``."""
    toks = list(sentence)
    out = []
    i, n = 0, len(toks)
    while i < n:
        pieces = [toks[i]]
        j = i + 1
        while j < n:
            a, b = pieces[-1], toks[j]
            if _glued(a, b):
                pieces.append(b)
                j += 1
            elif (b == "/" and j + 1 < n and a[-1].isalnum() and toks[j + 1][0].isalnum()):
                pieces += ["/", toks[j + 1]]
                j += 2
            else:
                break
        word = "".join(pieces)
        if "-" in word or "/" in word:
            cuts, pos = set(), 0
            for p in pieces[:-1]:
                pos += len(p)
                cuts.add(pos)
            out.append((word, cuts))
        i = j
    return out


def entity_counts(sentences, labels, min_count=1):
    """Lower-cased token -> (times a one-token entity, times a token), for the tokens that
    are one-token entities at least ``min_count`` times."""
    ent, tok = Counter(), Counter()
    for sent, labs in zip(sentences, labels, strict=True):
        words_ = [t.lower() for t in sent]
        tok.update(words_)
        for _, i, j in labels_to_spans(list(labs)):
            if j - i == 1:
                ent[words_[i]] += 1
    return {w: (n, tok[w]) for w, n in ent.items() if n >= min_count}


def count(sentences, entities):
    """``key -> [times cut, times seen]`` over every cut point of the rebuilt words."""
    counts = defaultdict(lambda: [0, 0])
    for sent in sentences:
        for word, cuts in words(sent):
            for p, kind, left, right in cut_points(word):
                cut = p in cuts
                for key in cut_keys(kind, left, right, entities):
                    c = counts[key]
                    c[0] += cut
                    c[1] += 1
    return dict(counts)


def score(table, sentences):
    """Precision, recall and F1 of the table's cuts against the corpus cuts."""
    tp = n_pred = n_gold = 0
    for sent in sentences:
        for word, cuts in words(sent):
            pred = set(table.cuts(word))
            tp += len(pred & cuts)
            n_pred += len(pred)
            n_gold += len(cuts)
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0,
            "n_gold": n_gold, "n_pred": n_pred}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--min-count", type=int, default=2)
    ap.add_argument("--threshold", type=float, default=0.6)
    args = ap.parse_args()

    corpus = read_jnlpba(Path(args.data) / "train.iob2")
    train_idx, dev_idx = train_dev_split(corpus.doc_ids)
    train = [corpus.X[i] for i in train_idx]
    dev = [corpus.X[i] for i in dev_idx]
    entities = entity_counts(train, [corpus.y[i] for i in train_idx])
    counts = count(train, entities)
    grid = []
    for m in MIN_COUNTS:
        for t in THRESHOLDS:
            table = CutTable(counts, m, t, entities)
            grid.append({"min_count": m, "threshold": t, **score(table, dev)})
    best = next(g for g in grid if g["min_count"] == args.min_count
                and g["threshold"] == args.threshold)
    print("dev cut F1 by min_count (rows) and threshold (columns):")
    print("      " + " ".join(f"{t:>6}" for t in THRESHOLDS))
    for m in MIN_COUNTS:
        print(f"{m:>5} " + " ".join(f"{g['f1']:6.3f}" for g in grid if g["min_count"] == m))
    print(f"used: min_count={best['min_count']} threshold={best['threshold']} "
          f"(dev precision {best['precision']:.3f} recall {best['recall']:.3f} "
          f"F1 {best['f1']:.3f}, {best['n_gold']} corpus cuts)")
    entities = entity_counts(corpus.X, corpus.y)
    full = count(corpus.X, entities)
    kept = {k: tuple(v) for k, v in full.items() if v[1] >= best["min_count"]}
    table = CutTable(kept, best["min_count"], best["threshold"], entities)
    data = json.dumps(table.to_json(), separators=(",", ":"), sort_keys=True).encode()
    with gzip.GzipFile(args.out, "wb", mtime=0) as f:  # mtime=0: reproducible bytes
        f.write(data)
    print(f"{len(kept)} keys -> {args.out} ({Path(args.out).stat().st_size:,} bytes)")
    print(json.dumps({"used": best, "grid": grid, "n_keys": len(kept),
                      "bytes": Path(args.out).stat().st_size}))


if __name__ == "__main__":
    main()
