"""The default online CRF with and without word classes, per corpus: F1, times, sizes.

    python benchmarks/word_classes.py --data ../shared/data --corpora jnlpba,bionlp13cg,bc5cdr \\
        [--classes bundled] [--splits dev,test] [--store]

For each corpus and split, the ``online-crf`` preset (``skbioner.pipelines.make_tagger``;
``skbioner train``) is trained twice side by side in this process, without and with the
word classes (``make_tagger(word_classes=CLASSES)``, ``skbioner train --word-classes``;
default: the classes shipped with the package), and scored with the official counts
(``harness.evaluate``) on

* ``dev``: trained on ``fit`` (JNLPBA: the first 90% of the training abstracts; BioNLP13CG,
  BC5CDR: ``train.tsv``), scored on ``dev`` (the last 10%; ``devel.tsv``) -- where the
  choices were made;
* ``test``: trained on ``train`` (the whole training file), scored on the test file,
  reported once.

Times: training (wall and CPU seconds, the annotators included) and steady-state tagging
through the whole pipeline (annotators, features, decoding; ``harness.tagging_speed``);
``train_ratio`` (with / without) and ``tag_speed_ratio`` are what the issue's targets read
(training <= 1.5x, tagging speed >= 0.8x).  Size: the saved ``.skops`` model.  Times
depend on the machine's load (recorded); F1 and sizes do not.  ``--store`` appends the
records (question ``word-classes``) to ``benchmarks/results.jsonl``.  Last line of stdout:
one JSON object.
"""

from __future__ import annotations

import argparse

import harness


def measure(train, gold, word_classes, data):
    from skbioner.pipelines import make_tagger

    with harness.Stopwatch() as sw:
        model = make_tagger("online-crf", word_classes=word_classes).fit(train.X, train.y)
    pred, speed = harness.tagging_speed(model, gold.X, passes=2)
    return {**harness.evaluate(gold, pred, data), "train_seconds": sw.wall,
            "train_cpu_seconds": sw.cpu, "tag_tokens_per_second": speed,
            "model_mb": harness.model_size_mb(model),
            "n_features": int(model.named_steps["features"].n_features_out_)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    harness.add_arguments(ap)
    ap.add_argument("--classes", default="bundled",
                    help="word classes: 'bundled' (shipped with the package) or a table file")
    ap.add_argument("--splits", default="dev,test")
    args = ap.parse_args()

    fit_of = {"dev": "fit", "test": "train"}
    records, summary = [], {}
    for corpus in harness.corpus_names(args.corpora):
        for split in args.splits.split(","):
            train = harness.load(corpus, fit_of[split], args.data)
            gold = harness.load(corpus, split, args.data)
            base = measure(train, gold, None, args.data)
            with_classes = measure(train, gold, args.classes, args.data)
            cli = "skbioner train --train TRAIN --word-classes" + (
                "" if args.classes == "bundled" else f" {args.classes}") + " -o model.skops"
            records.append(harness.record("word-classes", "online-crf", corpus, split,
                                          cli="skbioner train --train TRAIN -o model.skops",
                                          **base))
            records.append(harness.record("word-classes", "online-crf --word-classes", corpus,
                                          split, cli=cli, classes=args.classes,
                                          **with_classes))
            delta = {"f1_delta": 100 * (with_classes["exact_f1"] - base["exact_f1"]),
                     "train_ratio": with_classes["train_seconds"] / base["train_seconds"],
                     "tag_speed_ratio": (with_classes["tag_tokens_per_second"]
                                         / base["tag_tokens_per_second"])}
            summary[f"{corpus}/{split}"] = {"without": round(100 * base["exact_f1"], 2),
                                            "with": round(100 * with_classes["exact_f1"], 2),
                                            **{k: round(v, 2) for k, v in delta.items()}}
            print(f"{corpus} {split}: exact F1 {100 * base['exact_f1']:.2f} -> "
                  f"{100 * with_classes['exact_f1']:.2f} ({delta['f1_delta']:+.2f}); training "
                  f"{base['train_seconds']:.0f} s -> {with_classes['train_seconds']:.0f} s "
                  f"({delta['train_ratio']:.2f}x); tagging "
                  f"{base['tag_tokens_per_second']:,.0f} -> "
                  f"{with_classes['tag_tokens_per_second']:,.0f} tokens/s "
                  f"({delta['tag_speed_ratio']:.2f}x); model {base['model_mb']:.1f} -> "
                  f"{with_classes['model_mb']:.1f} MB", flush=True)
    harness.finish(records, args, summary)


if __name__ == "__main__":
    main()
