"""A bundled corpus model: its size, load time and test F1 (BC5CDR, BioNLP13CG).

    python benchmarks/bc5cdr_model.py --data ../shared/data [--model bionlp13cg] [--store]

Loads ``skbioner.load_model("bc5cdr")`` (or ``--model NAME|FILE``, ``--corpus`` its corpus:
by default the model's name) and scores the corpus's ``test.tsv`` with the official-style
exact F1 (overall and per type; the test file only reports: the system was chosen on
``devel.tsv`` by ``scripts/make_corpus_model.py --choose``), and times tagging the test
sentences (``harness.tagging_speed``).  ``--store`` appends the record (question
``bundled-models``) to benchmarks/results.jsonl.  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import harness


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    harness.add_arguments(ap, corpora=False)
    ap.add_argument("--model", default="bc5cdr")
    ap.add_argument("--corpus", default=None, help="default: the bundled model's name")
    args = ap.parse_args()
    corpus = args.corpus or args.model

    import skbioner
    from skbioner.io import model_metadata
    from skbioner.tagging import bundled_model_path

    path = bundled_model_path(args.model) or Path(args.model)
    with harness.Stopwatch() as sw:
        model = skbioner.load_model(args.model)
    test = harness.load(corpus, "test", args.data)
    pred, speed = harness.tagging_speed(model, test.X, passes=2)
    scores = harness.evaluate(test, pred, args.data)
    meta = model_metadata(path)
    rec = harness.record("bundled-models", f"bundled {corpus} ({meta.get('system')})", corpus,
                         "test", model_mb=os.path.getsize(path) / 1e6,
                         load_seconds=sw.wall, tag_tokens_per_second=speed,
                         trained_on="train+devel", **scores)
    print(f"{path}: {rec['model_mb']:.2f} MB, loaded in {sw.wall:.2f} s; {corpus} test exact F1 "
          f"{100 * scores['exact_f1']:.2f} (P {100 * scores['exact_precision']:.2f}, "
          f"R {100 * scores['exact_recall']:.2f}); "
          + ", ".join(f"{c} {100 * f:.2f}" for c, f in scores["per_class_exact_f1"].items())
          + f"; {speed:,.0f} tokens/s")
    harness.finish([rec], args)


if __name__ == "__main__":
    main()
