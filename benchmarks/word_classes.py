"""The default online CRF with and without word classes, per corpus: F1, times, sizes.

    python benchmarks/word_classes.py --data ../shared/data [--corpora jnlpba,bionlp13cg,bc5cdr]
        [--classes bundled] [--skip-test] [--out rows.jsonl]

For each corpus, the ``online-crf`` preset (``skbioner.pipelines.make_tagger``) is trained
twice side by side in this process, without and with the word classes
(``make_tagger(..., word_classes=CLASSES)``; default: the classes shipped with the
package), and scored with the official-style exact F1 on

* ``dev``: JNLPBA's development split (the first 90% of the training abstracts -> the last
  10%, ``skbioner.datasets.train_dev_split``), BioNLP13CG's and BC5CDR's ``devel.tsv``
  (trained on ``train.tsv``);
* ``test``: the test file, trained on the whole training file (JNLPBA ``train.iob2``,
  BioNLP13CG and BC5CDR ``train.tsv``; not ``--skip-test``).  Reported once; nothing is
  chosen on it.

Times: training (wall and CPU seconds, the annotators included) and tagging the test (or
dev) sentences through the whole pipeline (annotators, features, decoding; best of
``--repeat`` passes), as tokens per second; the ratio with/without is what the issue's
targets read (training <= 1.5x, tagging speed >= 0.8x).  Sizes: the compact saved model
(``OnlinePACRF.sparsify``, ``skbioner.io.save_model``).  The load average is recorded with
every run: times depend on it, F1 and sizes do not.  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

CORPORA = ("jnlpba", "bionlp13cg", "bc5cdr")


def splits(data, corpus, which):
    """``(Xtr, ytr, Xev, yev)`` of a corpus for ``which`` in {"dev", "test"}."""
    from skbioner.datasets import load_jnlpba, train_dev_split
    from skbioner.io import read_columns

    if corpus == "jnlpba":
        train = load_jnlpba(Path(data) / "jnlpba", "train")
        if which == "dev":
            fit, dev = train_dev_split(train.doc_ids)
            return ([train.X[i] for i in fit], [train.y[i] for i in fit],
                    [train.X[i] for i in dev], [train.y[i] for i in dev])
        test = load_jnlpba(Path(data) / "jnlpba", "test")
        return train.X, train.y, test.X, test.y
    d = Path(data) / corpus
    tr = read_columns(d / "train.tsv")
    ev = read_columns(d / ("devel.tsv" if which == "dev" else "test.tsv"))
    return tr.X, tr.y, ev.X, ev.y


def model_bytes(pipe):
    from skbioner.io import save_model

    pipe.steps[-1][1].sparsify()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.skops")
        save_model(pipe, path)
        size = os.path.getsize(path)
    pipe.steps[-1][1].densify()
    return size


def measure(Xtr, ytr, Xev, yev, word_classes, repeat):
    from skbioner.metrics import entity_report
    from skbioner.pipelines import make_tagger

    t0, c0 = time.perf_counter(), time.process_time()
    pipe = make_tagger("online-crf", word_classes=word_classes)
    pipe.fit(Xtr, ytr)
    train_wall, train_cpu = time.perf_counter() - t0, time.process_time() - c0
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        pred = pipe.predict(Xev)
        best = min(best, time.perf_counter() - t0)
    rep = entity_report(yev, pred).overall.exact
    n_tokens = sum(map(len, Xev))
    return {"f1": round(100 * rep.f1, 2), "precision": round(100 * rep.precision, 2),
            "recall": round(100 * rep.recall, 2), "train_seconds": round(train_wall, 1),
            "train_cpu_seconds": round(train_cpu, 1),
            "tag_tokens_per_second": round(n_tokens / best),
            "n_features": int(pipe.named_steps["features"].n_features_out_),
            "model_bytes": model_bytes(pipe), "load": round(os.getloadavg()[0], 2)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--corpora", default=",".join(CORPORA))
    ap.add_argument("--classes", default="bundled",
                    help="word classes: 'bundled' (shipped with the package) or a table file")
    ap.add_argument("--skip-test", action="store_true", help="dev splits only")
    ap.add_argument("--skip-dev", action="store_true", help="test files only")
    ap.add_argument("--repeat", type=int, default=2, help="tagging passes (best is kept)")
    ap.add_argument("--out", default=None, help="append one JSON row per corpus and split")
    args = ap.parse_args()

    which = [w for w, skip in (("dev", args.skip_dev), ("test", args.skip_test)) if not skip]
    rows = []
    for corpus in args.corpora.split(","):
        for split in which:
            Xtr, ytr, Xev, yev = splits(args.data, corpus, split)
            base = measure(Xtr, ytr, Xev, yev, None, args.repeat)
            with_classes = measure(Xtr, ytr, Xev, yev, args.classes, args.repeat)
            row = {"corpus": corpus, "split": split, "classes": args.classes,
                   "without": base, "with": with_classes,
                   "f1_delta": round(with_classes["f1"] - base["f1"], 2),
                   "train_ratio": round(with_classes["train_seconds"] / base["train_seconds"],
                                        2),
                   "tag_speed_ratio": round(with_classes["tag_tokens_per_second"]
                                            / base["tag_tokens_per_second"], 2)}
            rows.append(row)
            print(f"{corpus} {split}: exact F1 {base['f1']:.2f} -> {with_classes['f1']:.2f} "
                  f"({row['f1_delta']:+.2f}); training {base['train_seconds']:.0f} s -> "
                  f"{with_classes['train_seconds']:.0f} s ({row['train_ratio']:.2f}x); tagging "
                  f"{base['tag_tokens_per_second']:,} -> "
                  f"{with_classes['tag_tokens_per_second']:,} tokens/s "
                  f"({row['tag_speed_ratio']:.2f}x); model {base['model_bytes'] / 1e6:.1f} -> "
                  f"{with_classes['model_bytes'] / 1e6:.1f} MB (load {with_classes['load']})",
                  flush=True)
            if args.out:
                with open(args.out, "a") as fh:
                    fh.write(json.dumps(row) + "\n")
    print(json.dumps({"benchmark": "word_classes", "rows": rows}))


if __name__ == "__main__":
    main()
