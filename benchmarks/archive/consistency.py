"""Document-level label consistency (skbioner.postprocess.LabelConsistency): dev, then test.

The step's settings are chosen on the development split only (the last 10% of the JNLPBA
training abstracts; BioNLP13CG's devel file), with the tagger trained on the rest; the
chosen setting is then reported once on the test set, with the tagger trained on all the
training data, beside the tagger alone (paired bootstrap over abstracts / sentences):

    python benchmarks/archive/consistency.py --jnlpba ../shared/data/jnlpba \
        --bionlp13cg ../shared/data/bionlp13cg

BioNLP13CG has no document ids: every sentence is its own document, so the step only sees
repeats within a sentence there; it is reported to show what the default does on a corpus
without documents.  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time

from skbioner.datasets import load_jnlpba, train_dev_split
from skbioner.io import read_columns
from skbioner.metrics import entity_f1_score, paired_bootstrap
from skbioner.pipelines import make_tagger
from skbioner.postprocess import LabelConsistency, apply_steps

GRID = {
    "min_ratio": [0.0, 0.25, 0.5, 0.75, 0.9],
    "lowercase": [False, True],
    "min_chars": [2, 4],
    "max_outside_prob": [1.0, 0.999, 0.99, 0.9],
}


def settings():
    keys = list(GRID)
    for values in itertools.product(*(GRID[k] for k in keys)):
        yield dict(zip(keys, values, strict=True))


def predictions(model, X_train, y_train, X):
    """Fit the pipeline, return labels, marginals and classes on ``X`` (one featurization)."""
    model.fit(X_train, y_train)
    Xt = model[:-1].transform(X)
    final = model[-1]
    return final.predict(Xt), final.predict_marginals(Xt), tuple(final.classes_)


def f1(y, pred):
    return 100 * entity_f1_score(y, pred)


def run_corpus(name, X_tr, y_tr, X_dev, y_dev, X_full, y_full, X_test, y_test, groups, model):
    t0 = time.perf_counter()
    pred, marg, classes = predictions(make_tagger(model), X_tr, y_tr, X_dev)
    base = f1(y_dev, pred)
    table = []
    for params in settings():
        step = LabelConsistency(**params).fit(X_tr, y_tr)
        out = apply_steps([step], X_dev, pred, marg, classes)
        table.append({**params, "dev_f1": round(f1(y_dev, out), 2)})
    best = max(table, key=lambda r: r["dev_f1"])
    chosen = {k: best[k] for k in GRID} if best["dev_f1"] > base else None
    print(f"{name} dev: tagger {base:.2f}, best step {best['dev_f1']:.2f} with "
          f"{ {k: best[k] for k in GRID} } ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    default = LabelConsistency().get_params()
    default_dev = next(r["dev_f1"] for r in table if all(r[k] == default[k] for k in GRID))
    pred, marg, classes = predictions(make_tagger(model), X_full, y_full, X_test)
    res = {"dev_tagger_f1": round(base, 2), "dev_best": best, "dev_default_f1": default_dev,
           "chosen": chosen, "test_tagger_f1": round(f1(y_test, pred), 2)}
    for label, params in (("default", default), ("chosen", chosen)):
        if params is None:
            continue
        step = LabelConsistency(**params).fit(X_full, y_full)
        out = apply_steps([step], X_test, pred, marg, classes)
        boot = paired_bootstrap(y_test, out, pred, groups=groups, n_resamples=2000,
                                random_state=0)
        res[f"test_{label}_f1"] = round(f1(y_test, out), 2)
        res[f"test_{label}_p"] = round(float(boot.p_value), 4)
    print(f"{name} test: {res}", file=sys.stderr)
    res["dev_grid"] = table
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jnlpba", default="../shared/data/jnlpba")
    ap.add_argument("--bionlp13cg", default=None)
    ap.add_argument("--model", default="online-crf")
    args = ap.parse_args()
    out = {"model": args.model}
    train, test = load_jnlpba(args.jnlpba, "train"), load_jnlpba(args.jnlpba, "test")
    tr, dev = train_dev_split(train.doc_ids)
    pick = lambda seq, idx: [seq[i] for i in idx]  # noqa: E731
    out["jnlpba"] = run_corpus(
        "JNLPBA", pick(train.X, tr), pick(train.y, tr), pick(train.X, dev), pick(train.y, dev),
        train.X, train.y, test.X, test.y, test.doc_ids, args.model)
    if args.bionlp13cg:
        cg = {s: read_columns(f"{args.bionlp13cg}/{s}.tsv") for s in ("train", "devel", "test")}
        out["bionlp13cg"] = run_corpus(
            "BioNLP13CG", cg["train"].X, cg["train"].y, cg["devel"].X, cg["devel"].y,
            cg["train"].X + cg["devel"].X, cg["train"].y + cg["devel"].y,
            cg["test"].X, cg["test"].y, None, args.model)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
