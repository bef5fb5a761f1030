"""Re-train the bundled GENIA POS tagger (skbioner/annotate/data/genia_pos.skops).

    python scripts/train_pos_model.py --data ../shared/data/genia-pos          # train + write
    python scripts/train_pos_model.py --data ../shared/data/genia-pos --tune   # grid on devel first

Trains :func:`skbioner.annotate.make_pos_pipeline` on ``train.tsv`` (the settings were chosen
on ``devel.tsv`` with ``--tune``; the test split is only reported, by benchmarks/archive/pos.py),
sparsifies the tagger (drops its training state, coefficients stored sparse) and writes the
pipeline with :func:`skbioner.io.save_model` in the safe ``.skops`` format (loading it runs no
code), with the fingerprints of its training sentences beside it
(``genia_pos_train.npz``: what ``POSTagger.in_sample`` reads to know which sentences the
bundled model has seen).  Prints development accuracy and the file size.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

from skbioner.annotate import make_pos_pipeline
from skbioner.annotate._pos import (  # private: builds package data (the fingerprints)
    GENIA_POS_FINGERPRINTS,
    write_corpus_fingerprints,
)
from skbioner.io import read_columns, save_model
from skbioner.metrics import token_accuracy_score

OUT = Path(__file__).resolve().parents[1] / "skbioner" / "annotate" / "data" / "genia_pos.skops"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/genia-pos")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--tune", action="store_true", help="grid over C and epochs on devel.tsv")
    args = ap.parse_args()
    data = Path(args.data)
    train = read_columns(data / "train.tsv", scheme=None)
    dev = read_columns(data / "devel.tsv", scheme=None)
    params = {}
    if args.tune:
        results = []
        for C, epochs in itertools.product((0.02, 0.05, 0.2), (3, 5, 10)):
            model = make_pos_pipeline(C=C, max_iter=epochs).fit(train.X, train.y)
            acc = token_accuracy_score(dev.y, model.predict(dev.X))
            results.append((acc, -epochs, -C))  # ties: fewer epochs, then smaller C
            print(f"C={C:<5} epochs={epochs:<3} devel accuracy {acc:.4f}", flush=True)
        acc, neg_epochs, neg_C = max(results)
        params = {"C": -neg_C, "max_iter": -neg_epochs}
        print(f"chosen on devel: {params} ({acc:.4f})")
    t0 = time.perf_counter()
    model = make_pos_pipeline(**params).fit(train.X, train.y)
    seconds = time.perf_counter() - t0
    dev_acc = token_accuracy_score(dev.y, model.predict(dev.X))
    model[-1].sparsify()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    save_model(model, out)
    n_sentences = write_corpus_fingerprints(data / "train.tsv",
                                            out.parent / Path(GENIA_POS_FINGERPRINTS).name)
    print(f"fingerprints of {n_sentences} distinct training sentences written")
    size = out.stat().st_size
    print(f"trained in {seconds:.1f} s; devel accuracy {dev_acc:.4f}; wrote {out} "
          f"({size / 1e6:.2f} MB)")
    print(json.dumps({"params": params, "devel_accuracy": dev_acc, "train_seconds": seconds,
                      "model_bytes": size}))


if __name__ == "__main__":
    main()
