"""How in-sample the bundled POS tagger is on the JNLPBA development split, and the jackknife.

    python benchmarks/archive/pos_dev.py --data ../shared/data

The JNLPBA development split (the last 10% of the training abstracts) shares 178 of its 200
abstracts with GENIA POS train, on which the bundled tagger was trained.  On the GENIA POS
sentences of those abstracts (gold tags), token accuracy of the bundled model (in sample),
of ``POSTagger(jackknife=5, corpus=genia-pos/train.tsv)`` (each sentence tagged by the fold
tagger trained without its abstract, as ``transform`` now does for development text) and,
for reference, of the bundled model on GENIA POS test (new text).  Also: which share of the
JNLPBA development sentences the bundled tagger has seen (``POSTagger.in_sample``), and how
many of their tokens change tag under the jackknife.  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--n-jobs", type=int, default=2)
    args = ap.parse_args()

    from skbioner.annotate import POSTagger
    from skbioner.datasets import load_jnlpba, train_dev_split
    from skbioner.io import read_columns
    from skbioner.metrics import token_accuracy_score

    pos_train = os.path.join(args.data, "genia-pos", "train.tsv")
    genia = read_columns(pos_train, scheme=None)
    genia_test = read_columns(os.path.join(args.data, "genia-pos", "test.tsv"), scheme=None)
    train = load_jnlpba(os.path.join(args.data, "jnlpba"), "train")
    _, dev = train_dev_split(train.doc_ids)
    dev_docs = {train.doc_ids[i] for i in dev}
    keep = [i for i, d in enumerate(genia.doc_ids) if d in dev_docs]
    Xg, yg = [genia.X[i] for i in keep], [genia.y[i] for i in keep]
    full = POSTagger().fit(Xg)
    t0 = time.perf_counter()
    jk = POSTagger(jackknife=5, corpus=pos_train, n_jobs=args.n_jobs).fit(Xg)
    fold_seconds = time.perf_counter() - t0

    def acc(tagger, X, y):
        return token_accuracy_score(y, [s.column("pos") for s in tagger.transform(X)])

    Xdev = [train.X[i] for i in dev]
    a, b = full.transform(Xdev), jk.transform(Xdev)
    changed = sum(x != z for s, t in zip(a, b) for x, z in zip(s.column("pos"), t.column("pos")))
    out = {
        "dev_abstracts": len(dev_docs),
        "dev_abstracts_in_genia_pos_train": len({genia.doc_ids[i] for i in keep}),
        "genia_dev_sentences": len(Xg),
        "accuracy_in_sample": acc(full, Xg, yg),
        "accuracy_jackknife": acc(jk, Xg, yg),
        "accuracy_genia_test_bundled": acc(full, genia_test.X, genia_test.y),
        "jnlpba_dev_sentences": len(Xdev),
        "jnlpba_dev_in_sample_share": float(full.in_sample(Xdev).mean()),
        "jnlpba_dev_tokens_changed": changed,
        "jnlpba_dev_tokens": sum(map(len, Xdev)),
        "fold_training_seconds": round(fold_seconds, 1),
    }
    print(f"GENIA POS sentences of the {out['dev_abstracts_in_genia_pos_train']} dev abstracts "
          f"in GENIA POS train: accuracy in sample {out['accuracy_in_sample']:.4f}, jackknifed "
          f"{out['accuracy_jackknife']:.4f} (GENIA POS test, bundled: "
          f"{out['accuracy_genia_test_bundled']:.4f}); JNLPBA dev sentences seen by the bundled "
          f"tagger {out['jnlpba_dev_in_sample_share']:.1%}, tokens whose tag the jackknife "
          f"changes {changed} of {out['jnlpba_dev_tokens']}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
