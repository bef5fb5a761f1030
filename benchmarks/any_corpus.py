"""Good on any corpus: default vs tuned skbioner beside a plain sklearn-crfsuite script.

For a corpus directory with train / (devel) / test column files (IOB2, token<TAB>label):

    python benchmarks/any_corpus.py --data ../shared/data/bionlp13cg
    python benchmarks/any_corpus.py --data ../shared/data/jnlpba \
        --pos-corpus ../shared/data/genia-pos/train.tsv

trains, on the training file only (the devel file, when there is one, is not used: the
tuner carves its own held-out part from the training documents, as `skbioner train
--tune` does for a user), and scores on the test file with the official exact-match
counts (the same scorer reads both corpora):

  * ``crfsuite-plain``: the ten-line sklearn-crfsuite script a user starts from
    (``sklearn_crfsuite.CRF(algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=100,
    all_possible_transitions=True)`` over dict features in the tutorial's layout with
    Settles' (2004) token features: the word lowercased, its 2-4 character prefixes and
    suffixes, orthographic flags (capitals, digits, numbers, dashes, punctuation, roman
    numerals) and length, for the words at -1, 0 and +1);
  * ``default online-crf`` and ``default cascaded``: ``skbioner.pipelines.make_tagger``;
  * ``tuned``: ``skbioner.pipelines.tune`` (search + refit), with the settings it chose;
    ``--pos-corpus`` (the bundled POS tagger's training corpus) lets it search the POS
    column with those sentences tagged out of fold: JNLPBA's are GENIA POS sentences, and
    without it the tuner leaves the POS column out of its search there.

When the test file's documents (``###MEDLINE`` ids) overlap the training file's -- 10 of
the 404 JNLPBA test abstracts are training abstracts -- exact F1 on the other documents is
reported beside each figure (``exact_f1_without_overlap``).

Times are wall seconds on this machine.  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import harness  # benchmarks/ is on sys.path when a script runs

from skbioner.metrics import entity_report

_ROMAN = set("IVXLCDM")


def _token_features(w, prefix):
    """Settles (2004): the word, its 2-4 character affixes and orthographic flags."""
    return {
        f"{prefix}w": w.lower(),
        **{f"{prefix}pre{k}": w[:k] for k in (2, 3, 4) if len(w) >= k},
        **{f"{prefix}suf{k}": w[-k:] for k in (2, 3, 4) if len(w) >= k},
        f"{prefix}initcap": w[:1].isupper(),
        f"{prefix}allcaps": w.isupper(),
        f"{prefix}capsmix": any(c.isupper() for c in w[1:]) and any(c.islower() for c in w),
        f"{prefix}hasdigit": any(c.isdigit() for c in w),
        f"{prefix}singledigit": len(w) == 1 and w.isdigit(),
        f"{prefix}doubledigit": len(w) == 2 and w.isdigit(),
        f"{prefix}number": w.replace(".", "", 1).replace(",", "").isdigit(),
        f"{prefix}hasdash": "-" in w,
        f"{prefix}punct": not any(c.isalnum() for c in w),
        f"{prefix}roman": bool(w) and set(w) <= _ROMAN,
        f"{prefix}len": min(len(w), 8),
    }


def word2features(sent, i):
    """sklearn-crfsuite tutorial layout with Settles-style features, words at -1..+1."""
    f = {"bias": 1.0, **_token_features(sent[i], "")}
    for k in (-1, 1):
        j = i + k
        if 0 <= j < len(sent):
            f.update(_token_features(sent[j], f"{k:+d}:"))
        else:
            f["BOS" if k < 0 else "EOS"] = True
    return f


def crfsuite_plain(train, test):
    import sklearn_crfsuite

    X = [[word2features(s, i) for i in range(len(s))] for s in train.X]
    crf = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=100,
                               all_possible_transitions=True)
    crf.fit(X, train.y)
    return crf.predict([[word2features(s, i) for i in range(len(s))] for s in test.X])


def scores(y, pred):
    rep = entity_report(y, pred)
    return {f"{m}_f1": round(100 * getattr(rep.overall, m).f1, 2)
            for m in ("exact", "left", "right")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True, help="directory of train/devel/test files")
    ap.add_argument("--systems", default="crfsuite-plain,online-crf,cascaded,tuned")
    ap.add_argument("--n-jobs", type=int, default=2)
    ap.add_argument("--pos-corpus", default=None,
                    help="the POS tagger's training corpus (genia-pos/train.tsv), for the tuner")
    args = ap.parse_args()
    corpus = harness.load_directory(args.data)
    train, test = corpus["train"], corpus["test"]
    keep, overlap = harness.held_out_documents(args.data, test)
    out = {"data": args.data, "train_sentences": len(train.X), "test_sentences": len(test.X),
           "overlap_documents": overlap}
    for system in args.systems.split(","):
        t0 = time.perf_counter()
        extra = {}
        if system == "crfsuite-plain":
            pred = crfsuite_plain(train, test)
        elif system == "tuned":
            from skbioner.pipelines import tune

            model = tune(train.X, train.y, n_jobs=args.n_jobs, pos_corpus=args.pos_corpus,
                         verbose=1)
            pred = model.predict(test.X)
            from skbioner.pipelines._tune import describe  # private: the tuner's log line

            extra = {"chosen": describe(model.best_params_),
                     "held_out_f1": round(100 * model.best_score_, 2),
                     "search_seconds": round(model.seconds_["search"], 1),
                     "refit_seconds": round(model.seconds_["refit"], 1),
                     "decision": model.decision_, "tried": model.results_}
        else:
            from skbioner.pipelines import make_tagger

            pred = make_tagger(system).fit(train.X, train.y).predict(test.X)
        res = {**scores(test.y, pred), "seconds": round(time.perf_counter() - t0, 1), **extra}
        if overlap:
            unseen = harness.exact_f1_on(test.y, pred, keep)
            res["exact_f1_without_overlap"] = round(100 * unseen, 2)
        out[system] = res
        print(f"{system}: exact F1 {res['exact_f1']:.2f} in {res['seconds']:.0f} s"
              + (f"; chose {extra['chosen']}" if extra else ""), file=sys.stderr, flush=True)
    base = out.get("crfsuite-plain", {}).get("exact_f1")
    if base is not None:
        out["vs_crfsuite_plain"] = {k: round(v["exact_f1"] - base, 2) for k, v in out.items()
                                    if isinstance(v, dict) and "exact_f1" in v}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
