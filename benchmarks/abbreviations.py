"""Abbreviation detection (skbioner.postprocess.find_abbreviations): precision and recall.

Two hand-annotated gold sets (``tests/postprocess/data/``):

* **dev** -- ``abbreviations_jnlpba_dev.tsv``: pairs in the JNLPBA development split (the last
  10% of the training abstracts, ``skbioner.datasets.train_dev_split``), detected on the
  corpus's tokens of each abstract.  The detector is developed and tuned on these only.
* **test** -- ``abbreviations_jnlpba_test.tsv``: 105 pairs in the first 48 JNLPBA test
  abstracts (file-name order), detected on their raw texts split into sentences and tokens by
  ``BioTokenizer``.  The held-out figure, reported once.

A detected pair is correct when its short and long forms equal a gold pair of the same
document, ignoring spaces and case.  Distinct pairs per document are counted (a pair defined
twice counts once)::

    python benchmarks/abbreviations.py --data ../shared/data/jnlpba

prints the dev errors and dev P/R, then the test P/R (``--test-errors``: its errors too);
``--split dev`` scores dev only.  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from skbioner.datasets import load_jnlpba, train_dev_split
from skbioner.metrics import ClassScore
from skbioner.postprocess import find_abbreviations
from skbioner.text import BioTokenizer

DATA = Path(__file__).resolve().parents[1] / "tests" / "postprocess" / "data"
GOLD = DATA / "abbreviations_jnlpba_test.tsv"
DEV_GOLD = DATA / "abbreviations_jnlpba_dev.tsv"
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


def _pairs(sentences, **options):
    return {(norm(a.short_text), norm(a.long_text))
            for a in find_abbreviations(sentences, **options)}


def detect(standoff, n_docs=N_DOCS, **options):
    """``{doc id: {(short, long)}}`` detected in the first ``n_docs`` test texts."""
    tok = BioTokenizer()
    out = {}
    for path in sorted(Path(standoff).glob("*.txt"))[:n_docs]:
        sentences = [list(s[0]) for s in tok.tokenize_document(path.read_text("utf-8"))]
        out[path.stem] = _pairs(sentences, **options)
    return out


def dev_documents(data):
    """``{doc id: [sentence tokens]}`` of the JNLPBA development split, in corpus order."""
    corpus = load_jnlpba(data, "train")
    _, dev = train_dev_split(corpus.doc_ids)
    docs = {}
    for i in dev:
        docs.setdefault(corpus.doc_ids[i], []).append(list(corpus.X[i]))
    return docs


def detect_dev(docs, **options):
    """``{doc id: {(short, long)}}`` detected in the development abstracts."""
    return {doc: _pairs(sentences, **options) for doc, sentences in docs.items()}


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
    s = ClassScore(n_gold=tp + fn, n_pred=tp + fp, tp={"exact": tp}).exact
    return {"tp": tp, "fp": fp, "fn": fn, "precision": s.precision, "recall": s.recall,
            "f1": s.f1}, errors


def _print_errors(errors):
    for kind, items in errors.items():
        print(f"{kind}:")
        for doc, short, long in items:
            print(f"  {doc}\t{short}\t{long}")


def _line(name, gold, n_docs, result):
    return (f"{name}: pairs {sum(map(len, gold.values()))} in {n_docs} abstracts: "
            f"P {100 * result['precision']:.1f} R {100 * result['recall']:.1f} "
            f"F1 {100 * result['f1']:.1f} ({result['tp']} right, {result['fp']} false, "
            f"{result['fn']} missed)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--standoff", default=None,
                    help="the test abstracts' raw texts (default: DATA/test-standoff)")
    ap.add_argument("--split", choices=("dev", "both"), default="both")
    ap.add_argument("--test-errors", action="store_true",
                    help="also list the test set's errors (after the choice, for the report)")
    args = ap.parse_args()
    out = {"benchmark": "abbreviations"}
    dev_gold = read_gold(DEV_GOLD)
    docs = dev_documents(args.data)
    dev, dev_errors = score(dev_gold, detect_dev(docs))
    _print_errors(dev_errors)
    print(_line("dev", dev_gold, len(docs), dev), flush=True)
    out["dev"] = {"n_docs": len(docs), **dev}
    if args.split == "both":
        gold = read_gold(GOLD)
        standoff = args.standoff or str(Path(args.data) / "test-standoff")
        test, errors = score(gold, detect(standoff))
        if args.test_errors:
            _print_errors(errors)
        print(_line("test", gold, N_DOCS, test))
        out["test"] = {"n_docs": N_DOCS, **test}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
