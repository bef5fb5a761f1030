"""Model file sizes before and after: what `skbioner train` writes, with identical predictions.

    python benchmarks/archive/model_size.py --data ../shared/data/jnlpba
    python benchmarks/archive/model_size.py --data ../shared/data/jnlpba \\
        --models online-crf,cascaded

Trains each preset (default: ``online-crf``, what ``skbioner train`` trains by default) on
the full training file and saves it in each of these forms:

* ``joblib + training state``: a joblib pickle of the model fitted with ``warm_start=True``,
  which keeps the training state (running and accumulated weights) beside the prediction
  state -- what a fitted ``OnlinePACRF`` used to hold;
* ``joblib``: a joblib pickle of the model as fitted (prediction state only);
* ``skops`` (what ``skbioner train`` writes): the safe format, zip-deflated
  (``skbioner.io.save_model``);
* ``skops sparsified``: after ``OnlinePACRF.sparsify`` (weights as a sparse float32 matrix,
  the bundled model's form).

Each file is loaded back and tags the official test set; the labels are compared with
those of the model before saving (sentences that differ are counted).  Last line of
stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import tempfile
import time
from pathlib import Path

import joblib


def _warm(name, model_params):
    """Model parameters that keep the training state."""
    if name == "cascaded":
        return {**model_params, "segmenter__warm_start": True, "classifier__warm_start": True}
    return {**model_params, "warm_start": True}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--models", default="online-crf")
    args = ap.parse_args()

    from skbioner.datasets import load_jnlpba
    from skbioner.io import load_model, save_model
    from skbioner.pipelines import make_tagger

    train, test = load_jnlpba(args.data, "train"), load_jnlpba(args.data, "test")
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models.split(","):
            rows = {}
            t0 = time.perf_counter()
            warm = make_tagger(name, model_params=_warm(name, {})).fit(train.X, train.y)
            seconds = time.perf_counter() - t0
            buffer = io.BytesIO()
            joblib.dump(warm, buffer)
            ref = warm.predict(test.X)
            rows["joblib + training state"] = {"bytes": len(buffer.getvalue())}
            del warm, buffer
            model = make_tagger(name).fit(train.X, train.y)
            before = model.predict(test.X)
            forms = (("joblib", ".joblib", False), ("skops", ".skops", False),
                     ("skops sparsified", ".skops", True))
            for label, suffix, sparse in forms:
                if sparse:
                    model.steps[-1][1].sparsify()
                path = Path(tmp) / f"{name}{suffix}"
                t1 = time.perf_counter()
                save_model(model, path)
                save_seconds = time.perf_counter() - t1
                t1 = time.perf_counter()
                loaded = load_model(path, allow_pickle=suffix == ".joblib")
                load_seconds = time.perf_counter() - t1
                pred = loaded.predict(test.X)
                rows[label] = {"bytes": os.path.getsize(path), "save_seconds": round(
                    save_seconds, 2), "load_seconds": round(load_seconds, 2),
                    "sentences_changed": sum(a != b for a, b in zip(pred, before))}
            # the training state changes nothing in what the model predicts
            rows["joblib + training state"]["sentences_changed"] = sum(
                a != b for a, b in zip(ref, before))
            out[name] = {"train_seconds": round(seconds, 1), "forms": rows}
            for label, r in rows.items():
                print(f"{name:<11} {label:<24} {r['bytes'] / 1e6:8.2f} MB   "
                      f"{r['sentences_changed']} test sentences tagged differently"
                      + (f"; load {r['load_seconds']:.2f} s" if "load_seconds" in r else ""),
                      flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
