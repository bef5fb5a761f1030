"""GENIA POS benchmark: the bundled POS tagger against CRFsuite and a majority baseline.

    python benchmarks/archive/pos.py --data ../shared/data/genia-pos
    python benchmarks/archive/pos.py --data ../shared/data/genia-pos --models bundled,majority

Models (each in its own child process, so peak RSS is its own):

* ``bundled``  -- the model shipped in ``skbioner/annotate/data/genia_pos.skops`` (trained by
  ``scripts/train_pos_model.py`` on ``train.tsv``, settings chosen on ``devel.tsv``); only
  loaded and timed here.
* ``online``   -- the same pipeline (:func:`skbioner.annotate.make_pos_pipeline`) trained
  here, for training time and memory.
* ``crfsuite`` -- sklearn-crfsuite's L-BFGS CRF on the same features (c2=1, 100 iterations).
* ``majority`` -- each word's most frequent training tag (``MajorityTagger``), the floor.

Reported: token accuracy on ``devel.tsv`` and ``test.tsv`` (the test split is reported, never
tuned on), accuracy on words unseen in training, training seconds, tagging tokens/s (steady
state: best of 3 passes after a first one), peak RSS, shipped model size; ratios against
CRFsuite.  The last line of stdout is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the harness
from harness import ratios_against, run_child

DEFAULT = "bundled,online,crfsuite,majority"


def _build(name):
    from skbioner.annotate import make_pos_pipeline

    if name == "online":
        return make_pos_pipeline()
    if name == "crfsuite":
        from sklearn.pipeline import make_pipeline

        from skbioner.models import CRFsuiteTagger

        feats = make_pos_pipeline()[0]
        return make_pipeline(feats, CRFsuiteTagger(c2=1.0, max_iter=100, scheme=None))
    if name == "majority":
        from skbioner.models import MajorityTagger

        return MajorityTagger(scheme=None)
    raise ValueError(name)


def run_one(name, data):
    from skbioner.annotate import load_genia_pos_model
    from skbioner.io import read_columns
    from skbioner.metrics import token_accuracy_score

    splits = {s: read_columns(Path(data) / f"{s}.tsv", scheme=None)
              for s in ("train", "devel", "test")}
    train = splits["train"]
    out = {"model": name}
    t0 = time.perf_counter()
    if name == "bundled":
        model = load_genia_pos_model()
        from importlib.resources import files

        shipped = files("skbioner.annotate").joinpath("data", "genia_pos.skops")
        out["model_bytes"] = shipped.stat().st_size
        out["load_seconds"] = time.perf_counter() - t0
    else:
        model = _build(name).fit(train.X, train.y)
        out["train_seconds"] = time.perf_counter() - t0
    seen = {w for s in train.X for w in s}
    for split in ("devel", "test"):
        c = splits[split]
        pred = model.predict(c.X)
        out[f"{split}_accuracy"] = token_accuracy_score(c.y, pred)
        pairs = [(g, p) for s, gs, ps in zip(c.X, c.y, pred) for w, g, p in zip(s, gs, ps)
                 if w not in seen]
        out[f"{split}_unseen_accuracy"] = sum(g == p for g, p in pairs) / max(len(pairs), 1)
    test = splits["test"]
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        model.predict(test.X)
        best = min(best, time.perf_counter() - t0)
    out["tag_tokens_per_second"] = sum(map(len, test.X)) / best
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/genia-pos")
    ap.add_argument("--models", default=DEFAULT)
    ap.add_argument("--_child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args._child:
        run_one(args._child, args.data)
        return
    names = [n.strip() for n in args.models.split(",") if n.strip()]
    unknown = sorted(set(names) - set(DEFAULT.split(",")))
    if unknown:
        ap.error(f"unknown models {unknown}; choose from {DEFAULT}")
    results = {}
    for name in names:
        res = results[name] = run_child(
            [sys.executable, __file__, "--data", args.data, "--_child", name], name)
        extra = (f"model {res['model_bytes'] / 1e6:.2f} MB" if "model_bytes" in res
                 else f"train {res['train_seconds']:.1f} s")
        print(f"{name:<9} test {res['test_accuracy']:.4f} (unseen words "
              f"{res['test_unseen_accuracy']:.4f}) devel {res['devel_accuracy']:.4f} | {extra} | "
              f"tag {res['tag_tokens_per_second']:,.0f} tok/s | RSS {res['peak_rss_mb']:.0f} MB",
              flush=True)
    ratios = ratios_against(results, "crfsuite", "test_accuracy")
    for name, r in ratios.items():
        print(f"{name:<9} vs crfsuite: accuracy {r['test_accuracy_delta']:+.4f}, "
              f"tagging {r['tagging_speedup']:.1f}x"
              + (f", training {r['train_speedup']:.1f}x faster" if "train_speedup" in r else ""))
    print(json.dumps({"results": results, "vs_crfsuite": ratios}))


if __name__ == "__main__":
    main()
