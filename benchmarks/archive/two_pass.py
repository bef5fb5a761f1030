"""Two-pass (stacked) tagging: the knowledge modules as features of a second pass.

A first-pass tagger (``--first``, a preset) annotates the training sentences out of fold
(``--cv`` blocks of abstracts) and the evaluation sentences with a model fitted on all the
training data (a one-member :class:`skbioner.ensemble.StackedTagger`: its label, confidence,
document memory, abbreviation pairs, and the changes the cascade / abbreviation / alias
steps propose); a second tagger (``--second``, a preset, with the Chan/Settles features +
``first_pass_groups()``) is trained on them.  Each ``--variant`` keeps a subset of the
columns and trains one second pass:

    python benchmarks/archive/two_pass.py --data ../shared/data/jnlpba --split dev \
        --first hmm-svm --second hmm-svm --cache /tmp/fp_dev_hmm.pkl --out two_pass.jsonl

``--cache`` keeps the annotated sentences (the first pass is the costly part: cv + 1 fits)
so that variants can be added without refitting it.  The first pass's own labels on the
evaluation sentences score the one-pass tagger (same preset, all the training data).
Training seconds: first pass (cv + 1 fits, the featurization included) and second pass
apart; tagging seconds: first pass + second pass on the evaluation sentences.  Each
variant's p-value: paired bootstrap over abstracts (2,000 draws) against the first pass
alone.  On the dev split, the second pass's prior/transition weights (HMMSVMTagger) are
scored on a grid (decoding only).  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import pickle
import time
from pathlib import Path

from skbioner import Sentence
from skbioner.annotate import first_pass_groups
from skbioner.datasets import load_jnlpba, train_dev_split
from skbioner.ensemble import StackedTagger
from skbioner.features import get_preset
from skbioner.metrics import entity_report, paired_bootstrap
from skbioner.pipelines import make_tagger, parse_params
from skbioner.postprocess import AbbreviationResolver, CascadedEntityRules, NameAlias, apply_steps

#: column sets of the second pass (``fp_`` + name)
VARIANTS = {
    "label": ("label", "conf"),
    "label+memory": ("label", "conf", "memory"),
    "label+memory+docdict": ("label", "conf", "memory", "docdict"),
    "label+docdict": ("label", "conf", "docdict"),
    "label+modules": ("label", "conf", "abbr", "cascade", "abbreviations", "alias"),
    # the two-pass defaults (the runs of 2026-11-23 before fp_docdict called it "all")
    "default": ("label", "conf", "memory", "abbr", "cascade", "abbreviations", "alias"),
    "default+docdict": ("label", "conf", "memory", "docdict", "abbr", "cascade",
                        "abbreviations", "alias"),
}


def add_derived(X):
    """Columns a cache made before they existed, derived from its ``fp_label``."""
    from skbioner.annotate._first_pass import _doc_dictionary  # private: ablation
    from skbioner.postprocess import group_documents

    if not X or X[0].has("fp_docdict"):
        return X
    cols = [{} for _ in X]
    for _, index in group_documents(X):
        _doc_dictionary([X[i] for i in index], [X[i].column("fp_label") for i in index],
                        [cols[i] for i in index])
    return [s.with_annotations(**c) for s, c in zip(X, cols)]


def scores(y, pred):
    rep = entity_report(y, pred)
    out = {"precision": 100 * rep.overall.exact.precision,
           "recall": 100 * rep.overall.exact.recall, "f1": 100 * rep.overall.exact.f1}
    out["per_class"] = {c: 100 * s.exact.f1 for c, s in rep.per_class.items()}
    return out


def keep_columns(X, names):
    keep = {"fp_" + n for n in names}
    return [Sentence(s.words, doc_id=s.doc_id,
                     **{k: v for k, v in s.annotations.items()
                        if not k.startswith("fp_") or k in keep}) for s in X]


def load(args):
    corpus = load_jnlpba(args.data, "train")
    X, y = corpus.X, corpus.y
    if args.split == "dev":
        tr, ev = train_dev_split(corpus.doc_ids)
        return [X[i] for i in tr], [y[i] for i in tr], [X[i] for i in ev], [y[i] for i in ev]
    test = load_jnlpba(args.data, "test")
    return X, y, test.X, test.y


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--split", choices=("dev", "test"), default="dev")
    ap.add_argument("--first", default="hmm-svm")
    ap.add_argument("--second", default="hmm-svm")
    ap.add_argument("--cv", type=int, default=5)
    ap.add_argument("--first-param", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                    help="second-pass model parameter")
    ap.add_argument("--variant", action="append", default=None, choices=sorted(VARIANTS))
    ap.add_argument("--steps-after", action="store_true",
                    help="also score the three post-processing steps after each second pass")
    ap.add_argument("--grid-prior", type=float, nargs="+", default=[0.4, 0.6, 0.8, 1.0],
                    help="second-pass HMMSVMTagger prior weights scored on dev")
    ap.add_argument("--grid-transition", type=float, nargs="+", default=[0.5, 1.0, 1.5],
                    help="second-pass HMMSVMTagger tag-model weights scored on dev")
    ap.add_argument("--cache", default=None, metavar="PKL")
    ap.add_argument("--first-only", action="store_true",
                    help="only run the first pass and write --cache (no scores)")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    X_train, y_train, X_eval, y_eval = load(args)
    result = {"benchmark": "two_pass", "split": args.split, "first": args.first,
              "second": args.second, "cv": args.cv, "params": args.param,
              "first_params": args.first_param,
              "train_docs": len({s.doc_id for s in X_train}), "variants": {}}
    cache = Path(args.cache) if args.cache else None
    if cache is not None and cache.exists():
        with open(cache, "rb") as fh:
            saved = pickle.load(fh)
        A_train, A_eval = add_derived(saved["train"]), add_derived(saved["eval"])
        result["first_seconds"] = saved["seconds"]
    else:
        first = make_tagger(args.first, model_params=parse_params(args.first_param))
        annot = StackedTagger([("first", first)], cv=args.cv)  # the two-pass system
        t0 = time.perf_counter()
        A_train = annot.fit_transform(X_train, y_train)
        fit_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        A_eval = annot.transform(X_eval)
        tag_s = time.perf_counter() - t0
        result["first_seconds"] = {"fit_transform": round(fit_s, 1), "tag": round(tag_s, 2)}
        if cache is not None:
            with open(cache, "wb") as fh:
                pickle.dump({"train": A_train, "eval": A_eval,
                             "seconds": result["first_seconds"]}, fh)
    print("first pass:", result["first_seconds"], flush=True)
    if args.first_only:
        return
    groups = [s.doc_id for s in X_eval]
    one = [list(s.column("fp_label")) for s in A_eval]
    result["one_pass"] = scores(y_eval, one)
    oof = [list(s.column("fp_label")) for s in A_train]
    result["one_pass_oof_train"] = scores(y_train, oof)["f1"]
    print(f"one pass ({args.first}): F1 {result['one_pass']['f1']:.2f}; out of fold on "
          f"train {result['one_pass_oof_train']:.2f}", flush=True)
    steps = [s.fit(X_train, y_train) for s in
             (CascadedEntityRules(), AbbreviationResolver(), NameAlias())]
    for name in args.variant or list(VARIANTS):
        cols = VARIANTS[name]
        second = make_tagger(args.second, model_params=parse_params(args.param),
                               feature_params={"templates": get_preset("chan")
                                               + first_pass_groups()})
        Tr, Ev = keep_columns(A_train, cols), keep_columns(A_eval, cols)
        t0 = time.perf_counter()
        second.fit(Tr, y_train)
        fit_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        pred = [list(p) for p in second.predict(Ev)]
        tag_s = time.perf_counter() - t0
        entry = scores(y_eval, pred)
        entry["p_value"] = paired_bootstrap(y_eval, one, pred, groups=groups,
                                            n_resamples=2000, random_state=0).p_value
        entry["train_seconds"], entry["tag_seconds"] = round(fit_s, 1), round(tag_s, 2)
        if args.steps_after:
            entry["steps_after"] = scores(y_eval, apply_steps(steps, X_eval, pred))["f1"]
        model = second[-1]
        if args.split == "dev" and hasattr(model, "prior_weight"):
            Xt = second[:-1].transform(Ev)
            chosen = (model.prior_weight, model.transition_weight)
            grid = {}
            for pw in args.grid_prior:
                for tw in args.grid_transition:
                    model.set_params(prior_weight=pw, transition_weight=tw)
                    grid[f"{pw}/{tw}"] = round(scores(y_eval, model.predict(Xt))["f1"], 2)
            model.set_params(prior_weight=chosen[0], transition_weight=chosen[1])
            entry["weight_grid"] = grid
        result["variants"][name] = entry
        extra = f", steps after {entry['steps_after']:.2f}" if args.steps_after else ""
        print(f"{name:14s} F1 {entry['f1']:.2f} (P {entry['precision']:.2f} "
              f"R {entry['recall']:.2f}, p = {entry['p_value']:.3f}{extra}) "
              f"train {fit_s:.0f} s" + (f" grid {entry['weight_grid']}"
                                         if "weight_grid" in entry else ""), flush=True)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(result) + "\n")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
