"""Abbreviation detection (skbioner.postprocess.find_abbreviations): precision and recall.

Gold: the pairs annotated by hand in ``tests/postprocess/data/abbreviations_jnlpba_test.tsv``
from the raw texts of the first 48 JNLPBA test abstracts (file-name order).  Each text is
split into sentences and tokens by ``BioTokenizer``; a detected pair is correct when its
short and long forms equal a gold pair of the same document, ignoring spaces and case.
Distinct pairs per document are counted (a pair defined twice counts once)::

    python benchmarks/abbreviations.py --standoff ../shared/data/jnlpba/test-standoff

Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from skbioner.postprocess import find_abbreviations
from skbioner.text import BioTokenizer

GOLD = Path(__file__).resolve().parents[1] / "tests" / "postprocess" / "data" / \
    "abbreviations_jnlpba_test.tsv"
N_DOCS = 48


def norm(text):
    """A form compared ignoring spaces and case."""
    return "".join(text.split()).lower()


def read_gold(path=GOLD):
    """``{doc id: {(short, long)}}`` (normalised) of the gold file."""
    gold = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        doc, short, long = line.split("\t")[:3]
        gold.setdefault(doc, set()).add((norm(short), norm(long)))
    return gold


def detect(standoff, n_docs=N_DOCS, **options):
    """``{doc id: {(short, long)}}`` detected in the first ``n_docs`` texts."""
    tok = BioTokenizer()
    out = {}
    for path in sorted(Path(standoff).glob("*.txt"))[:n_docs]:
        sentences = [list(s[0]) for s in tok.tokenize_document(path.read_text("utf-8"))]
        out[path.stem] = {(norm(a.short_text), norm(a.long_text))
                          for a in find_abbreviations(sentences, **options)}
    return out


def score(gold, found):
    """Precision, recall, F1 and the errors."""
    tp = fp = fn = 0
    errors = {"false_positives": [], "missed": []}
    for doc in sorted(set(gold) | set(found)):
        g, f = gold.get(doc, set()), found.get(doc, set())
        tp += len(g & f)
        fp += len(f - g)
        fn += len(g - f)
        errors["false_positives"] += [(doc, *p) for p in sorted(f - g)]
        errors["missed"] += [(doc, *p) for p in sorted(g - f)]
    p = tp / max(tp + fp, 1)
    r = tp / max(tp + fn, 1)
    f1 = 2 * p * r / max(p + r, 1e-12)
    return {"tp": tp, "fp": fp, "fn": fn, "precision": p, "recall": r, "f1": f1}, errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--standoff", default="../shared/data/jnlpba/test-standoff")
    args = ap.parse_args()
    gold = read_gold()
    found = detect(args.standoff)
    result, errors = score(gold, found)
    for kind, items in errors.items():
        print(f"{kind}:")
        for doc, short, long in items:
            print(f"  {doc}\t{short}\t{long}")
    print(f"pairs {sum(map(len, gold.values()))} in {N_DOCS} abstracts: "
          f"P {100 * result['precision']:.1f} R {100 * result['recall']:.1f} "
          f"F1 {100 * result['f1']:.1f}")
    print(json.dumps({"benchmark": "abbreviations", "n_docs": N_DOCS, **result}))


if __name__ == "__main__":
    main()
