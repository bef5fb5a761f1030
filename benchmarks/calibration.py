"""How well the per-entity confidences are calibrated: a reliability table on a test set.

Each model of the list is trained on the corpus' training file with the presets' settings
(``name+calibrate``: the online CRF with ``calibrate=True``) and tags the test file with
``predict_entities``; predicted entities are binned by confidence
and each bin reports its mean confidence against the fraction of its entities that are
correct (exact span and type among the gold entities).  Also: the expected calibration
error (ECE, bin-weighted |confidence - accuracy|), and precision / recall / F1 (span
mode) when only the entities at or above a confidence threshold are kept:

    python benchmarks/calibration.py --data ../shared/data/jnlpba \
        --models online-crf,online-crf+calibrate,cascaded
    python benchmarks/calibration.py --data ../shared/data/bionlp13cg \
        --models online-crf,online-crf+calibrate,cascaded

Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
from harness import load_directory as load_corpus  # benchmarks/ is on sys.path

from skbioner.pipelines import make_tagger
from skbioner.schemes import labels_to_spans

BINS = np.linspace(0.0, 1.0, 11)
THRESHOLDS = (0.0, 0.3, 0.5, 0.7, 0.9)


def reliability(conf, correct):
    rows = []
    idx = np.clip(np.digitize(conf, BINS[1:-1]), 0, len(BINS) - 2)
    ece = 0.0
    for b in range(len(BINS) - 1):
        sel = idx == b
        if not sel.any():
            continue
        c, a = float(conf[sel].mean()), float(correct[sel].mean())
        ece += sel.sum() / len(conf) * abs(c - a)
        rows.append({"bin": f"{BINS[b]:.1f}-{BINS[b + 1]:.1f}", "n": int(sel.sum()),
                     "mean_confidence": round(c, 4), "fraction_correct": round(a, 4)})
    return rows, ece


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--models", default="online-crf,online-crf+calibrate,cascaded")
    args = ap.parse_args()
    corpus = load_corpus(args.data)
    train, test = corpus["train"], corpus["test"]
    gold = {(i, t, s, e) for i, lab in enumerate(test.y) for t, s, e in labels_to_spans(lab)}
    out = {}
    for name in args.models.split(","):
        t0 = time.perf_counter()
        base, _, option = name.partition("+")
        model = make_tagger(base, model_params={"calibrate": True} if option else None)
        model.fit(train.X, train.y)
        train_seconds = time.perf_counter() - t0
        ents = model[-1].predict_entities(model[:-1].transform(test.X))
        flat = [(i, t, s, e, p) for i, sent in enumerate(ents) for t, s, e, p in sent]
        conf = np.array([p for *_, p in flat])
        correct = np.array([(i, t, s, e) in gold for i, t, s, e, _ in flat], dtype=float)
        rows, ece = reliability(conf, correct)
        trade = []
        for th in THRESHOLDS:
            keep = conf >= th
            tp = correct[keep].sum()
            p = tp / max(keep.sum(), 1)
            r = tp / len(gold)
            trade.append({"min_confidence": th, "precision": round(100 * p, 2),
                          "recall": round(100 * r, 2),
                          "f1": round(200 * p * r / max(p + r, 1e-12), 2)})
        out[name] = {"n_entities": len(flat), "ece": round(ece, 4),
                     "train_seconds": round(train_seconds, 1), "reliability": rows,
                     "thresholds": trade, "seconds": round(time.perf_counter() - t0, 1)}
        print(f"{name}: ECE {ece:.4f} (trained in {train_seconds:.1f} s)", file=sys.stderr)
        for r in rows:
            print(f"  {r['bin']}: n={r['n']:5d} confidence {r['mean_confidence']:.3f} "
                  f"correct {r['fraction_correct']:.3f}", file=sys.stderr)
        for r in trade:
            print(f"  >= {r['min_confidence']}: P {r['precision']} R {r['recall']} "
                  f"F {r['f1']}", file=sys.stderr)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
