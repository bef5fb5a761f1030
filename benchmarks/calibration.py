"""Whether the online CRF calibrates its confidences: a reliability table, chosen on dev.

The ``online-crf`` preset is trained with ``calibrate=False`` and ``calibrate=True`` (a
temperature fitted on held-out documents); both tag the split with ``predict_entities``.
Predicted entities are binned by confidence and each bin reports its mean confidence
against the fraction of its entities that are correct (exact span and type); the
expected calibration error (ECE) is the bin-weighted |confidence - accuracy|.  Also the
precision / recall / F1 of the entities at or above a confidence threshold.  The choice
is made on ``--split dev`` (trained on ``fit``) on two corpora; ``--split test`` (trained
on ``train``) only reports it:

    python benchmarks/calibration.py --corpora jnlpba,bionlp13cg --split dev --store

Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import sys

import harness
import numpy as np

from skbioner.pipelines import make_tagger
from skbioner.schemes import labels_to_spans

BINS = np.linspace(0.0, 1.0, 11)
THRESHOLDS = (0.0, 0.3, 0.5, 0.7, 0.9)


def reliability(conf, correct):
    """Rows of the reliability table and the ECE."""
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


def measure(train, gold, calibrate):
    """Train the preset with ``calibrate`` and score its confidences on ``gold``."""
    with harness.Stopwatch() as sw:
        model = make_tagger("online-crf", model_params={"calibrate": calibrate})
        model.fit(train.X, train.y)
    ents = model[-1].predict_entities(model[:-1].transform(gold.X))
    true = {(i, t, s, e) for i, lab in enumerate(gold.y) for t, s, e in labels_to_spans(lab)}
    flat = [(i, t, s, e, p) for i, sent in enumerate(ents) for t, s, e, p in sent]
    conf = np.array([p for *_, p in flat])
    correct = np.array([(i, t, s, e) in true for i, t, s, e, _ in flat], dtype=float)
    rows, ece = reliability(conf, correct)
    kept = []
    for th in THRESHOLDS:
        keep = conf >= th
        tp, n_pred = correct[keep].sum(), keep.sum()
        p, r = tp / max(n_pred, 1), tp / max(len(true), 1)
        kept.append({"min_confidence": th, "precision": round(100 * p, 2),
                     "recall": round(100 * r, 2), "f1": round(200 * p * r / max(p + r, 1e-12), 2)})
    print(f"calibrate={calibrate}: ECE {ece:.4f} (trained in {sw.wall:.1f} s)", file=sys.stderr)
    for row in rows:
        print(f"  {row['bin']}: n={row['n']:5d} confidence {row['mean_confidence']:.3f} "
              f"correct {row['fraction_correct']:.3f}", file=sys.stderr)
    return {"ece": round(ece, 4), "exact_f1": kept[0]["f1"] / 100, "n_entities": len(flat),
            "train_seconds": round(sw.wall, 1), "reliability": rows, "thresholds": kept}


def main():
    ap = harness.add_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    ap.add_argument("--split", choices=("dev", "test"), default="dev")
    args = ap.parse_args()
    records = []
    for corpus in harness.corpus_names(args.corpora):
        train = harness.load(corpus, "fit" if args.split == "dev" else "train", args.data)
        gold = harness.load(corpus, args.split, args.data)
        for calibrate in (False, True):
            records.append(harness.record(
                "calibration", f"online-crf calibrate={calibrate}", corpus, args.split,
                **measure(train, gold, calibrate)))
    harness.finish(records, args)


if __name__ == "__main__":
    main()
