"""Every system of the suite on every corpus: the headline table of docs/results.md.

A system is what one ``skbioner train`` command trains (``skbioner.pipelines.make_tagger``
with the same options).  For each system and corpus, in a fresh process each (peak RSS is
its own): trained on the ``train`` split and scored on ``test`` (exact / left / right F1 with
the official counts; on JNLPBA also on the test abstracts that are not training abstracts),
with training wall and CPU seconds, steady-state tagging speed (featurize + decode, the best
of ``--tag-passes`` passes after a first one), model size (.skops) and peak RSS; with
``--dev``, also trained on ``fit`` and scored on ``dev`` (where the choices were made).

    python benchmarks/systems.py --corpora jnlpba,bionlp13cg,bc5cdr \
        --systems online-crf,cascaded --store
    python benchmarks/systems.py --list

Settings of every system were chosen on development data (docs/results.md says where);
the test files only report.  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import sys

import harness

#: name -> make_tagger options (the name is the ``skbioner train`` options that build it)
SYSTEMS = {
    "online-crf": {},
    "cascaded": {"model": "cascaded"},
    "crfsuite": {"model": "crfsuite"},
    "majority": {"model": "majority"},
    "nerbio": {"model": "nerbio"},
    "hmm-svm": {"model": "hmm-svm"},
    "pairwise-svm": {"model": "pairwise-svm"},
    "online-crf --two-pass": {"two_pass": True},
    "hmm-svm --two-pass --first-pass online-crf": {"model": "hmm-svm", "two_pass": True,
                                                   "first_pass": "online-crf"},
    # word classes shipped with the package (issue 24)
    "online-crf --word-classes": {"word_classes": "bundled"},
    "nerbio --word-classes": {"model": "nerbio", "word_classes": "bundled"},
    "hmm-svm --word-classes": {"model": "hmm-svm", "word_classes": "bundled"},
    "online-crf --word-classes --pos": {"word_classes": "bundled", "pos": True},
    # the lexicons shipped with the package, every type (benchmarks/lexicons.py: per type)
    "online-crf --lexicons": {"lexicons": "bundled"},
    "online-crf --word-classes --lexicons": {"word_classes": "bundled", "lexicons": "bundled"},
    "hmm-svm --word-classes --lexicons": {"model": "hmm-svm", "word_classes": "bundled",
                                          "lexicons": "bundled"},
}
#: systems that read the POS column: on JNLPBA its training sentences are tagged out of fold
#: (the bundled POS tagger was trained on GENIA POS, whose abstracts are JNLPBA training
#: abstracts)
READS_POS = {"nerbio", "pairwise-svm"}


def options_for(name, corpus, data):
    """``make_tagger`` options of system ``name`` on ``corpus``."""
    options = dict(SYSTEMS[name])
    model = options.get("model", "online-crf")
    if corpus == "jnlpba" and (model in READS_POS or options.get("pos")):
        options["pos_jackknife"] = str(harness.data_root(data) / "genia-pos" / "train.tsv")
    return options


def run(name, corpus, split, data, tag_passes, options=None):
    """Child process: train ``name`` on the split before ``split``, score ``split``.

    ``options``: the system's ``make_tagger`` options (default: :func:`options_for`).
    """
    from skbioner.cli import train_command
    from skbioner.pipelines import make_tagger

    fit_split = {"test": "train", "dev": "fit"}[split]
    train, gold = harness.load(corpus, fit_split, data), harness.load(corpus, split, data)
    options = options_for(name, corpus, data) if options is None else dict(options)
    model = make_tagger(**options)
    with harness.Stopwatch() as sw:
        model.fit(train.X, train.y)
    pred, speed = harness.tagging_speed(model, gold.X, passes=tag_passes)
    return {**harness.evaluate(gold, pred, data), "train_seconds": round(sw.wall, 1),
            "train_cpu_seconds": round(sw.cpu, 1), "tag_tokens_per_second": round(speed),
            "model_mb": round(harness.model_size_mb(model), 2),
            "train_sentences": len(train), "cli": train_command(train_file=f"{corpus}/"
                                                               f"{fit_split}", **options)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    harness.add_arguments(ap)
    ap.add_argument("--systems", default="online-crf,cascaded,crfsuite",
                    help="comma-separated, from --list")
    ap.add_argument("--dev", action="store_true", help="also train on fit, score dev")
    ap.add_argument("--dev-only", action="store_true",
                    help="only train on fit and score dev (a choice, no test look)")
    ap.add_argument("--tag-passes", type=int, default=3,
                    help="timed tagging passes after the first (0: the first pass's speed)")
    ap.add_argument("--list", action="store_true", help="print the systems and exit")
    args = ap.parse_args()
    if args.list:
        for name in SYSTEMS:
            print(name)
        return
    names = [n.strip() for n in args.systems.split(",") if n.strip()]
    unknown = [n for n in names if n not in SYSTEMS]
    if unknown:
        ap.error(f"unknown systems {unknown}; see --list")
    records = []
    for corpus in harness.corpus_names(args.corpora):
        for name in names:
            for split in (["dev"] if args.dev or args.dev_only else []) + \
                    ([] if args.dev_only else ["test"]):
                res = harness.isolated(run, name, corpus, split, args.data, args.tag_passes)
                records.append(harness.record("systems", name, corpus, split, headline=True,
                                              **res))
                extra = (f" (unseen abstracts {res['exact_f1_unseen']:.4f})"
                         if "exact_f1_unseen" in res else "")
                print(f"{corpus:<11} {split:<4} {name:<45} exact {res['exact_f1']:.4f}{extra} "
                      f"| train {res['train_seconds']:.1f} s | tag "
                      f"{res['tag_tokens_per_second']:,} tok/s | {res['model_mb']:.1f} MB | "
                      f"RSS {res['peak_rss_mb']:.0f} MB", file=sys.stderr, flush=True)
    harness.finish(records, args)


if __name__ == "__main__":
    main()
