"""POS and HMM-state columns on the development split: which ones, and in which window.

    python benchmarks/archive/annotations_dev.py --data ../shared/data --hmm-cache hmm160.joblib

The training set's POS column comes out of fold (`POSTagger(jackknife=5)` over the GENIA POS
training corpus, whose abstracts are JNLPBA training abstracts), so development sentences
(the last 10% of the training abstracts) carry tags as honest as those of new text. HMM
states come from the clusterer fitted on the unlabeled corpus (`--hmm-cache`, as written by
`benchmarks/jnlpba.py --models annotated --hmm-cache ...`; fitted here if the file is
missing). OnlinePACRF with the CLI settings (BIES + IO, C=0.1, 10 epochs, min_count=3) is
trained on the other 90% with each column set. Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import time

WINDOWS = {"-2..2": (-2, -1, 0, 1, 2), "-1..1": (-1, 0, 1), "0": (0,)}
VARIANTS = {  # name -> (preset, pos window, hmm window)
    "chan": ("chan", None, None),
    "chan+pos": ("chan", "-2..2", None),
    "chan+hmm": ("chan", None, "-2..2"),
    "chan+hmm(-1..1)": ("chan", None, "-1..1"),
    "chan+pos+hmm": ("chan", "-2..2", "-2..2"),
    "chan+pos+hmm(-1..1)": ("chan", "-2..2", "-1..1"),
    "chan+pos+hmm(0)": ("chan", "-2..2", "0"),
    "kazama": ("kazama", None, None),
    "kazama+hmm": ("kazama", None, "-2..2"),
    "kazama+pos+hmm": ("kazama", "-2..2", "-2..2"),
}


def _groups(preset, pos_window, hmm_window):
    from skbioner.features import FeatureGroup, get_preset

    groups = [g for g in get_preset(preset) if g.name not in ("pos", "hmm")]
    for name, window in (("pos", pos_window), ("hmm", hmm_window)):
        if window is not None:
            groups.append(FeatureGroup(name, "annotation", WINDOWS[window], {"column": name}))
    return groups


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data", help="the shared data directory")
    ap.add_argument("--hmm-cache", default=None)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--n-states", type=int, default=160, help="when the HMM is fitted here")
    args = ap.parse_args()

    import joblib

    from skbioner.annotate import HMMStateClusterer, POSTagger
    from skbioner.datasets import load_jnlpba, train_dev_split
    from skbioner.features import TokenFeaturizer
    from skbioner.io import read_tokenized
    from skbioner.metrics import entity_f1_score
    from skbioner.models import OnlinePACRF

    train = load_jnlpba(os.path.join(args.data, "jnlpba"), "train")
    t0 = time.perf_counter()
    pos = POSTagger(jackknife=5, corpus=os.path.join(args.data, "genia-pos", "train.tsv"),
                    n_jobs=2)
    X = pos.fit_transform(train.X)
    print(f"POS out of fold for {pos.jackknife_coverage_:.1%} of the training sentences "
          f"({time.perf_counter() - t0:.0f} s)", flush=True)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    if any(VARIANTS[name][2] is not None for name in variants):  # a variant reads hmm
        if args.hmm_cache and os.path.exists(args.hmm_cache):
            hmm = joblib.load(args.hmm_cache)
        else:
            sentences = read_tokenized(os.path.join(args.data, "unlabeled",
                                                    "biomed-sentences.txt"))
            hmm = HMMStateClusterer(n_states=args.n_states, random_state=0, n_jobs=-1)
            hmm.fit(sentences)
            if args.hmm_cache:
                joblib.dump(hmm, args.hmm_cache)
        X = hmm.transform(X)
    fit_idx, dev_idx = train_dev_split(train.doc_ids)
    y_fit, y_dev = [train.y[i] for i in fit_idx], [train.y[i] for i in dev_idx]
    results = {}
    for name in variants:
        featurizer = TokenFeaturizer(_groups(*VARIANTS[name]), min_count=3)
        F_fit = featurizer.fit_transform([X[i] for i in fit_idx])
        F_dev = featurizer.transform([X[i] for i in dev_idx])
        model = OnlinePACRF(scheme="BIES", extra_schemes=("IO",), C=0.1, max_iter=10,
                            random_state=0).fit(F_fit, y_fit)
        results[name] = entity_f1_score(y_dev, model.predict(F_dev))
        print(f"{name:<22} dev exact F1 {results[name]:.4f}", flush=True)
    print(json.dumps({"dev_exact_f1": results, "pos_coverage": pos.jackknife_coverage_}))


if __name__ == "__main__":
    main()
