"""Tune model settings on a development split carved from the JNLPBA training data.

The last 10% of the training abstracts form the development set; the test set is never
read.  Every combination of the grid is trained on the other 90% and scored on dev with the
official exact-match F1:

    python benchmarks/archive/tune_dev.py --data ../shared/data/jnlpba --model online-crf \
        --grid '{"C": [0.01, 0.1, 1.0], "max_iter": [10, 20]}'

Last line of stdout: one JSON object with every result and the best setting.
"""

import argparse
import itertools
import json
import time

from skbioner.datasets import load_jnlpba, train_dev_split
from skbioner.features import TokenFeaturizer
from skbioner.metrics import entity_report


def build(model, params):
    from skbioner.pipelines import make_tagger

    pipe = make_tagger(model, model_params=params)
    return pipe.named_steps["model"] if hasattr(pipe, "named_steps") else pipe


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--model", default="online-crf")
    ap.add_argument("--grid", default='{"C": [0.1]}', help="JSON dict of lists")
    ap.add_argument("--templates", default="chan")
    ap.add_argument("--min-count", type=int, default=1)
    ap.add_argument("--dev-fraction", type=float, default=0.1)
    args = ap.parse_args()
    corpus = load_jnlpba(args.data, "train")
    tr, dev = train_dev_split(corpus.doc_ids, args.dev_fraction)
    Xtr, ytr = [corpus.X[i] for i in tr], [corpus.y[i] for i in tr]
    Xdev, ydev = [corpus.X[i] for i in dev], [corpus.y[i] for i in dev]
    fz = TokenFeaturizer(templates=args.templates, min_count=args.min_count)
    Ftr, Fdev = fz.fit_transform(Xtr), fz.transform(Xdev)
    grid = json.loads(args.grid)
    keys = sorted(grid)
    results = []
    print(f"train {len(tr)} sentences, dev {len(dev)} sentences; {Ftr.matrix.shape[1]} features")
    for values in itertools.product(*(grid[k] for k in keys)):
        params = dict(zip(keys, values))
        model = build(args.model, params)
        t0 = time.perf_counter()
        model.fit(Ftr, ytr)
        secs = time.perf_counter() - t0
        rep = entity_report(ydev, model.predict(Fdev))
        row = {"params": params, "dev_f1": rep.overall.exact.f1,
               "dev_left_f1": rep.overall.left.f1, "dev_right_f1": rep.overall.right.f1,
               "train_seconds": secs}
        results.append(row)
        print(f"{params}: dev exact F1 {row['dev_f1']:.4f} (left {row['dev_left_f1']:.4f}, "
              f"right {row['dev_right_f1']:.4f}), {secs:.1f} s", flush=True)
    best = max(results, key=lambda r: r["dev_f1"])
    print(f"best: {best['params']} dev F1 {best['dev_f1']:.4f}")
    print(json.dumps({"model": args.model, "templates": args.templates,
                      "min_count": args.min_count, "results": results, "best": best}))


if __name__ == "__main__":
    main()
