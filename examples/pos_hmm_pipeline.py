"""Add part-of-speech and HMM-state annotations in front of the featurizer, compare F1.

Annotators are transformers that add named columns to the sentences; the ``"chan"``
feature preset reads the ``pos`` and ``hmm`` columns (at offsets -2..+2) when they are
present.  Three pipelines are trained on the bundled JNLPBA sample and scored on its test
part:

1. ``TokenFeaturizer("chan") -> OnlinePACRF`` (words only);
2. ``POSTagger -> TokenFeaturizer("chan") -> OnlinePACRF`` (bundled GENIA POS tagger);
3. ``POSTagger -> HMMStateClusterer -> TokenFeaturizer("chan") -> OnlinePACRF``.

The HMM (Kazama et al. 2002) is trained by Baum-Welch on *unlabeled* sentences: the first
20,000 sentences of ``unlabeled/biomed-sentences.txt`` from the shared data directory
(``$SKBIONER_DATA``, default ``../shared/data`` next to the repository) when present,
otherwise the tokens of the sample's training sentences (labels ignored).  It is fitted once
and enters the pipeline wrapped in ``sklearn.frozen.FrozenEstimator``, so fitting the
pipeline (or cloning it in ``GridSearchCV``) never refits it.

A small HMM (16 states, 10 iterations, ``tol=None`` to run exactly ``max_iter`` iterations
without a ConvergenceWarning) keeps the example fast; the published setting is 160 states
on a large corpus.  On a 62,000-token sample the differences between the three pipelines are
within noise; the example shows the plumbing, not a result.

Note: the bundled POS tagger was trained on GENIA, whose abstracts include the JNLPBA
training abstracts, so it tags training sentences almost perfectly; pass
``POSTagger(jackknife=5, corpus="genia-pos/train.tsv")`` for out-of-fold training tags.

Run::

    python examples/pos_hmm_pipeline.py [OUTDIR]

With ``OUTDIR`` the three scores are written to ``OUTDIR/pos_hmm_scores.json``.
``--n-states`` sets the size of the HMM.  Takes about 15-20 s.
"""

import argparse
import json
import os
import time
from pathlib import Path

from sklearn.frozen import FrozenEstimator
from sklearn.pipeline import Pipeline

from skbioner.annotate import HMMStateClusterer, POSTagger
from skbioner.datasets import load_jnlpba_sample
from skbioner.features import TokenFeaturizer
from skbioner.io import read_tokenized
from skbioner.metrics import entity_report
from skbioner.models import OnlinePACRF

DATA_DIR = Path(os.environ.get("SKBIONER_DATA",
                               Path(__file__).resolve().parents[2] / "shared" / "data"))
UNLABELED = DATA_DIR / "unlabeled" / "biomed-sentences.txt"


def tagger():
    return [
        ("features", TokenFeaturizer(templates="chan", min_count=3)),
        ("model", OnlinePACRF(scheme="BIES", extra_schemes=("IO",), C=0.1, max_iter=10,
                              random_state=0)),
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", type=Path,
                        help="directory for pos_hmm_scores.json (optional)")
    parser.add_argument("--n-states", type=int, default=16, help="HMM states (default 16)")
    args = parser.parse_args(argv)

    train, test = load_jnlpba_sample("train"), load_jnlpba_sample("test")

    if UNLABELED.is_file():
        unlabeled = read_tokenized(UNLABELED, max_sentences=20_000)
        source = str(UNLABELED)
    else:
        unlabeled = [list(s) for s in train.X]  # tokens only: the labels are not used
        source = "the sample's training sentences (labels ignored)"
    n_tok = sum(map(len, unlabeled))
    print(f"HMM training data: {len(unlabeled)} sentences, {n_tok} tokens from {source}")

    t0 = time.perf_counter()
    hmm = HMMStateClusterer(n_states=args.n_states, max_iter=10, tol=None, random_state=0)
    hmm.fit(unlabeled)
    print(f"HMM: {args.n_states} states, {len(hmm.vocabulary_)} vocabulary words, "
          f"{hmm.n_iter_} Baum-Welch iterations in {time.perf_counter() - t0:.1f} s; "
          f"log-likelihood per token {hmm.history_[0] / n_tok:.3f} -> "
          f"{hmm.history_[-1] / n_tok:.3f}")

    pipelines = {
        "words": Pipeline(tagger()),
        "+pos": Pipeline([("pos", POSTagger()), *tagger()]),
        "+pos+hmm": Pipeline([("pos", POSTagger()), ("hmm", FrozenEstimator(hmm)), *tagger()]),
    }
    scores = {}
    for name, model in pipelines.items():
        t0 = time.perf_counter()
        model.fit(train.X, train.y)
        report = entity_report(test.y, model.predict(test.X))
        scores[name] = {"exact_f1": report.f1("exact"), "left_f1": report.f1("left"),
                        "right_f1": report.f1("right"),
                        "seconds": round(time.perf_counter() - t0, 2)}

    # What the annotators add to a sentence:
    annotated = pipelines["+pos+hmm"][:-2].transform(test.X[:1])[0]
    print("\nAnnotated test sentence (word / pos / hmm):")
    print("  " + " ".join(f"{w}/{p}/{h}" for w, p, h in zip(
        annotated, annotated.column("pos"), annotated.column("hmm"))))

    print(f"\n{'pipeline':<10} {'exact F1':>9} {'left F1':>8} {'right F1':>9} {'seconds':>8}")
    for name, s in scores.items():
        print(f"{name:<10} {s['exact_f1']:9.4f} {s['left_f1']:8.4f} {s['right_f1']:9.4f} "
              f"{s['seconds']:8.1f}")
    delta = scores["+pos+hmm"]["exact_f1"] - scores["words"]["exact_f1"]
    print(f"F1 change with POS and HMM features: {delta:+.4f}")

    if args.outdir is not None:
        args.outdir.mkdir(parents=True, exist_ok=True)
        path = args.outdir / "pos_hmm_scores.json"
        path.write_text(json.dumps({"unlabeled": source, "n_states": args.n_states,
                                    "scores": scores}, indent=2) + "\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
