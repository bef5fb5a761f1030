"""Word classes on the development splits: which representation, granularities, window, scale.

    python benchmarks/archive/word_classes_dev.py --data ../shared/data \\
        --classes CLASSES.tsv.gz [--classes-bionlp13cg CLASSES_NO13CG.tsv.gz] \\
        [--variants "none;brown;emb;brown+emb"] [--corpora jnlpba,bionlp13cg] [--out rows.jsonl]

Trains the online-crf preset's model (``OnlinePACRF``, BIES + IO, C=0.1, 10 epochs; no
calibration, which changes no label) on the Chan/Settles features plus each variant's
word-class groups, on the JNLPBA development split (first 90% of the training abstracts ->
last 10%, ``skbioner.datasets.train_dev_split``) and on BioNLP13CG (train -> devel).  Test
files are never read.  ``--classes`` is a table written by ``skbioner clusters`` (or
``skbioner.io.write_word_classes``); BioNLP13CG reads ``--classes-bionlp13cg`` when
given (a table fitted on text without BioNLP13CG sentences, as the data README requires
when the unlabeled text held them).

A variant is ``+``-joined parts, each ``COLUMN[:PREFIXES][@WINDOW][*SCALE]``:
``brown:4,6,10,20@-2..2`` reads bit-string prefixes of the ``brown`` column at -2..+2,
``emb256@-1..1`` the k-means class, ``*0.5`` multiplies the group's feature values (the
passive-aggressive update then moves its weights less). ``none`` is the preset's features
alone. Named shortcuts: see ``SHORTCUTS``. One line per run on stdout; last line: one JSON
object.
"""

from __future__ import annotations

import argparse
import json
import os
import time

SHORTCUTS = {
    "brown": "brown:4,6,10,20@-2..2",
    "emb": "emb64@-2..2+emb256@-2..2+emb1024@-2..2",
    "brown+emb": "brown:4,6,10,20@-2..2+emb64@-2..2+emb256@-2..2+emb1024@-2..2",
}


def _window(text):
    lo, _, hi = text.partition("..")
    lo, hi = int(lo), int(hi or lo)
    return tuple(range(lo, hi + 1))


def parse_variant(spec):
    """``[(column, prefixes or None, offsets, scale)]`` of a variant spec."""
    spec = SHORTCUTS.get(spec, spec)
    if spec == "none":
        return []
    parts = []
    for part in spec.split("+"):
        scale = 1.0
        if "*" in part:
            part, _, s = part.partition("*")
            scale = float(s)
        offsets = (-2, -1, 0, 1, 2)
        if "@" in part:
            part, _, w = part.partition("@")
            offsets = _window(w)
        prefixes = None
        if ":" in part:
            part, _, p = part.partition(":")
            prefixes = tuple(int(x) for x in p.split(","))
        parts.append((part, prefixes, offsets, scale))
    return parts


def groups_of(parts):
    from skbioner.features import FeatureGroup, get_preset

    groups = [g for g in get_preset("chan") if g.name not in ("pos", "hmm", "brown", "emb")]
    for column, prefixes, offsets, _ in parts:
        params = {"column": column}
        if prefixes:
            params["prefixes"] = prefixes
        groups.append(FeatureGroup(f"wc_{column}", "annotation", offsets, params))
    return groups


def scaled(features, featurizer, parts):
    """The featurizer's output with each part's columns multiplied by its scale."""
    import numpy as np

    factors = {f"wc_{c}": s for c, _, _, s in parts if s != 1.0}
    if not factors:
        return features
    scale = np.ones(featurizer.n_features_out_, dtype=np.float32)
    for name, (start, stop) in featurizer.feature_ranges_.items():
        if name in factors:
            scale[start:stop] = factors[name]
    m = features.matrix.copy()
    m.data *= scale[m.indices]
    return features.with_matrix(m)


def load(data, corpus):
    from skbioner.datasets import load_jnlpba, train_dev_split
    from skbioner.io import read_columns

    if corpus == "jnlpba":
        train = load_jnlpba(os.path.join(data, "jnlpba"), "train")
        fit, dev = train_dev_split(train.doc_ids)
        return ([train.X[i] for i in fit], [train.y[i] for i in fit],
                [train.X[i] for i in dev], [train.y[i] for i in dev])
    d = os.path.join(data, corpus)
    tr, dv = read_columns(os.path.join(d, "train.tsv")), read_columns(os.path.join(d, "devel.tsv"))
    return tr.X, tr.y, dv.X, dv.y


def run(Xtr, ytr, Xdev, ydev, parts, model_params):
    from skbioner.metrics import entity_report
    from skbioner.pipelines import make_tagger

    pipe = make_tagger("online-crf", model_params={"calibrate": False, **model_params},
                         feature_params={"templates": groups_of(parts)})
    featurizer, model = pipe.named_steps["features"], pipe.named_steps["model"]
    t0 = time.perf_counter()
    Ftr = scaled(featurizer.fit_transform(Xtr, ytr), featurizer, parts)
    model.fit(Ftr, ytr)
    train_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    pred = model.predict(scaled(featurizer.transform(Xdev), featurizer, parts))
    tag_s = time.perf_counter() - t0
    r = entity_report(ydev, pred).overall.exact
    return {"f1": round(100 * r.f1, 2), "precision": round(100 * r.precision, 2),
            "recall": round(100 * r.recall, 2), "n_features": int(featurizer.n_features_out_),
            "train_seconds": round(train_s, 1), "tag_seconds": round(tag_s, 2)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--classes", required=True)
    ap.add_argument("--classes-bionlp13cg", default=None)
    ap.add_argument("--variants", default="none;brown;emb;brown+emb",
                    help="variants separated by ';' (see the module docstring)")
    ap.add_argument("--corpora", default="jnlpba,bionlp13cg")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                    help="OnlinePACRF parameter for every run")
    ap.add_argument("--out", default=None, help="append one JSON row per run")
    args = ap.parse_args()

    import ast

    from skbioner.annotate import WordClassAnnotator

    model_params = {}
    for item in args.param:
        k, _, v = item.partition("=")
        model_params[k] = ast.literal_eval(v)
    variants = args.variants.split(";")
    rows = []
    for corpus in args.corpora.split(","):
        classes = args.classes_bionlp13cg if corpus == "bionlp13cg" and args.classes_bionlp13cg \
            else args.classes
        Xtr, ytr, Xdev, ydev = load(args.data, corpus)
        ann = WordClassAnnotator(classes).fit()
        Xtr, Xdev = ann.transform(Xtr), ann.transform(Xdev)
        for v in variants:
            res = run(Xtr, ytr, Xdev, ydev, parse_variant(v), model_params)
            row = {"corpus": corpus, "variant": v, "classes": os.path.basename(classes),
                   "params": model_params, **res, "load": os.getloadavg()[0]}
            rows.append(row)
            print(json.dumps(row), flush=True)
            if args.out:
                with open(args.out, "a") as fh:
                    fh.write(json.dumps(row) + "\n")
    print(json.dumps({"rows": rows}))


if __name__ == "__main__":
    main()
