"""RecutTagger on another corpus: token-level F1 on its development split, with and without.

    python benchmarks/archive/recut_corpus.py --data ../shared/data/bionlp13cg

Trains ``--preset`` (default ``online-crf``) on the corpus's train file as it is, inside
``RecutTagger(cuts=None)`` (every hyphen and slash a token) and inside
``RecutTagger(cuts="jnlpba")`` (the JNLPBA cut table), and scores each on the devel file
(official exact F1 on the corpus's tokens; the test file is not read).  BioNLP13CG's tokens
already cut every hyphen, so the question is whether re-cutting them costs anything there.
Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the harness
from harness import load_directory as load_corpus


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/bionlp13cg")
    ap.add_argument("--preset", default="online-crf")
    ap.add_argument("--variants", default="none,pieces,jnlpba")
    args = ap.parse_args()

    from skbioner.metrics import entity_report
    from skbioner.models import RecutTagger
    from skbioner.pipelines import make_tagger

    corpus = load_corpus(args.data)
    train, dev = corpus["train"], corpus["devel"]
    if dev is None:
        raise SystemExit(f"{args.data}: no devel file")
    rows = {}
    for name in args.variants.split(","):
        model = make_tagger(args.preset, model_params={"calibrate": False})
        if name != "none":
            model = RecutTagger(model, cuts=None if name == "pieces" else name)
        t0 = time.perf_counter()
        model.fit(train.X, train.y)
        seconds = time.perf_counter() - t0
        f1 = entity_report(dev.y, model.predict(dev.X)).overall.exact.f1
        rows[name] = {"devel_exact_f1": round(100 * f1, 2), "train_seconds": round(seconds, 1)}
        print(f"{name:<7} devel exact F1 {100 * f1:.2f}  trained in {seconds:.0f} s", flush=True)
    print(json.dumps({"data": args.data, "preset": args.preset, "rows": rows}))


if __name__ == "__main__":
    main()
