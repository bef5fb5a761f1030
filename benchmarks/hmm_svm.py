"""Zhou & Su (2004) on JNLPBA: HMMSVMTagger and the knowledge modules, Table 1 layout.

One run trains one tagger with one feature setting and scores it alone and with each
post-processing module (cascaded entity rules, abbreviation resolution, name alias) and
all three, on the development split (the last 10% of the training abstracts, the tagger
trained on the rest) or on the test set (trained on all the training data); the splits
are the harness's (``fit``/``dev``, ``train``/``test``).  Runs append one JSON line to
--out; --table prints the Table 1 layout (and the per-class table beside the paper's) from
such lines; ``--store`` also appends one record per setting to ``benchmarks/results.jsonl``
(question ``hmm-svm``):

    python benchmarks/hmm_svm.py --data ../shared/data --split dev \
        --model hmm-svm --features base --out hmm_svm.jsonl
    python benchmarks/hmm_svm.py ... --features pos        # + in-domain POS (bundled tagger)
    python benchmarks/hmm_svm.py ... --features closed     # + closed dictionary (jackknifed)
    python benchmarks/hmm_svm.py ... --features open        # + the bundled lexicons
    python benchmarks/hmm_svm.py ... --features all
    python benchmarks/hmm_svm.py ... --model online-crf --features base
    python benchmarks/hmm_svm.py --table hmm_svm.jsonl

``--systems`` trains several systems one after the other *in one process* (so their
training and tagging times are comparable) and scores each alone and with the three
steps: a preset name (``online-crf``, ``hmm-svm``...), ``two-pass:PRESET`` (the preset
stacked on its own out-of-fold first pass, ``make_tagger(two_pass=True)``) or
``two-pass:FIRST>SECOND``;
``--two-pass-param`` sets the two-pass ``StackedTagger``'s parameters (``cv=5``...):

    python benchmarks/hmm_svm.py --data ../shared/data --split test \
        --systems online-crf two-pass:hmm-svm two-pass:online-crf --out systems.jsonl

Feature settings: ``base`` (the preset's features), ``pos`` (+ the bundled GENIA POS
tagger's column, ``POSTagger(jackknife=5, corpus=--pos-corpus)``: every sentence of a GENIA
POS training abstract -- most training and development sentences, 10 test abstracts -- is
tagged by a fold tagger that never saw it), ``closed`` (+ the training entity names, out of
fold on the training data), ``open`` (+ an open dictionary: ``--open-dictionary``, a lexicon
file, default the bundled lexicons), ``all`` (all of these).  ``--pred-cache FILE`` keeps the
tagger's predictions so that the steps can be re-scored without training again.
``--max-train-docs N`` trains on the first N training abstracts only (a subset, to keep a
run within minutes; reported).  Training seconds include featurization; tagging seconds are
featurize + decode of the evaluation sentences.  Each module's p-value: paired bootstrap
over abstracts (2,000 draws) against the tagger alone.  On the test split every F1 also
comes on the 394 test abstracts that are not training abstracts (``f1_without_overlap``;
``skbioner.datasets.jnlpba_overlap_ids``). Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import harness  # benchmarks/ is on sys.path when a script runs

from skbioner.metrics import paired_bootstrap
from skbioner.pipelines import (
    add_knowledge,
    make_annotators,
    make_tagger,
    parse_params,
)
from skbioner.postprocess import (
    AbbreviationResolver,
    CascadedEntityRules,
    NameAlias,
    apply_steps,
)

#: Zhou & Su (2004), Table 1 (exact F1 on JNLPBA test) and the final per-class results
PAPER = {
    "rows": {"baseline": 60.3, "+pos": 64.1, "+alias": 65.0, "+cascade": 68.1,
             "+abbreviations": 70.2, "+closed": 71.7, "+open": 72.9, "all": 72.5},
    "final": {"protein": 73.77, "DNA": 69.83, "RNA": 64.10, "cell_line": 59.23,
              "cell_type": 75.13, "overall": 72.55, "precision": 69.42, "recall": 75.99},
}
STEPS = {
    "cascade": lambda: CascadedEntityRules(),
    "abbreviations": lambda: AbbreviationResolver(),
    "alias": lambda: NameAlias(),
}
VARIANTS = {"none": (), "cascade": ("cascade",), "abbreviations": ("abbreviations",),
            "alias": ("alias",), "all-steps": ("cascade", "abbreviations", "alias")}
#: what --systems scores of each system
VARIANTS_SCORED = ("alone", "abbreviations", "all-steps")


def scores(gold, pred, data):
    """Exact P/R/F1 (official scorer, :func:`harness.evaluate`) overall and per class, in %.

    On the test split also ``f1_without_overlap``: the abstracts that are not training
    abstracts.
    """
    ev = harness.evaluate(gold, pred, data)
    out = {"precision": 100 * ev["exact_precision"], "recall": 100 * ev["exact_recall"],
           "f1": 100 * ev["exact_f1"],
           "per_class": {c: 100 * f for c, f in ev["per_class_exact_f1"].items()}}
    if "exact_f1_unseen" in ev:
        out["f1_without_overlap"] = 100 * ev["exact_f1_unseen"]
    return out


def _records(result, entries):
    """``result``'s settings as harness records (question ``hmm-svm``), one per entry."""
    out = []
    for name, e in entries.items():
        fields = {"exact_f1": e["f1"] / 100, "exact_precision": e["precision"] / 100,
                  "exact_recall": e["recall"] / 100,
                  "per_class_exact_f1": {c: f / 100 for c, f in e["per_class"].items()}}
        if "f1_without_overlap" in e:
            fields["exact_f1_unseen"] = e["f1_without_overlap"] / 100
        for k in ("train_docs", "train_seconds", "tag_seconds", "p_value"):
            if k in e or k in result:
                fields[k] = e.get(k, result.get(k))
        out.append(harness.record("hmm-svm", name, "jnlpba", result["split"], **fields))
    return out


def _finish(args, result, records):
    if args.out:
        with open(args.out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(result) + "\n")
    harness.finish(records, args, result)


def build(model, features, open_dictionary, params=None, feature_params=None,
          pos_corpus=None):
    pipe = make_tagger(model, model_params=params, feature_params=feature_params)
    if features in ("pos", "all"):
        pipe.steps[:0] = make_annotators(pos_jackknife=pos_corpus)
    if features in ("open", "all"):  # a lexicon file, or the bundled lexicons
        pipe.steps[:0] = make_annotators(lexicons=open_dictionary or "bundled")
    return add_knowledge(pipe, closed_dictionary=features in ("closed", "all"))


def build_system(name, params, first_params):
    """A preset, ``two-pass:PRESET`` (over its own first pass) or ``two-pass:FIRST>SECOND``.

    ``params`` go to a second pass's model if it is ``hmm-svm``; ``first_params`` to
    an ``hmm-svm`` first pass and to a plain ``hmm-svm`` system.
    """
    def own(preset, values):
        return values if preset == "hmm-svm" else {}

    if name.startswith("two-pass:"):
        spec = name.split(":", 1)[1]
        first, _, second = spec.rpartition(">")
        first = first or second
        # the second pass gets its preset's second-pass settings under the ones given
        return make_tagger(second, two_pass=True,
                           first_pass=make_tagger(first, model_params=own(first, first_params)),
                           model_params=own(second, params))
    return make_tagger(name, model_params=own(name, first_params))


def systems(args, train, gold):
    """Train each system of ``--systems`` in this process; F1 alone / with steps, times."""
    result = {"benchmark": "hmm_svm_systems", "split": args.split, "params": args.param,
              "first_params": args.first_param,
              "two_pass_params": args.two_pass_param,
              "train_docs": len({s.doc_id for s in train.X}), "systems": {}}
    X_train, y_train, X_eval = train.X, train.y, gold.X
    fitted = {name: make().fit(X_train, y_train) for name, make in STEPS.items()}
    groups = [s.doc_id for s in X_eval]
    for name in args.systems:
        pipe = build_system(name, parse_params(args.param), parse_params(args.first_param))
        if name.startswith("two-pass:"):
            pipe.set_params(**parse_params(args.two_pass_param))  # the one-member stack
        t0 = time.perf_counter()
        pipe.fit(X_train, y_train)
        train_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        pred = [list(p) for p in pipe.predict(X_eval)]
        tag_s = time.perf_counter() - t0
        entry = {"train_seconds": round(train_s, 1), "tag_seconds": round(tag_s, 2),
                 "alone": scores(gold, pred, args.data)}
        for variant in VARIANTS_SCORED[1:]:
            out = apply_steps([fitted[n] for n in VARIANTS[variant]], X_eval, pred)
            entry[variant] = scores(gold, out, args.data)
            entry[variant]["p_value"] = paired_bootstrap(
                gold.y, pred, out, groups=groups, n_resamples=2000, random_state=0).p_value
        result["systems"][name] = entry
        extra = (f"; 394 abstracts {entry['alone']['f1_without_overlap']:.2f}"
                 if "f1_without_overlap" in entry["alone"] else "")
        print(f"{name:22s} F1 {entry['alone']['f1']:.2f} (+abbr {entry['abbreviations']['f1']:.2f}"
              f", +steps {entry['all-steps']['f1']:.2f}{extra}) train {train_s:.1f} s tag "
              f"{tag_s:.2f} s", flush=True)
    _finish(args, result, _records(result, {
        f"{name} {variant}": {**e[variant], **({"train_seconds": e["train_seconds"],
                                                "tag_seconds": e["tag_seconds"]}
                                               if variant == "alone" else {})}
        for name, e in result["systems"].items() for variant in VARIANTS_SCORED}))


def run(args):
    train = harness.load("jnlpba", "fit" if args.split == "dev" else "train", args.data)
    gold = harness.load("jnlpba", args.split, args.data)
    if args.max_train_docs:
        keep = []
        seen = []
        for i, s in enumerate(train.X):
            if s.doc_id not in seen[-1:]:
                seen.append(s.doc_id)
            if len(seen) <= args.max_train_docs:
                keep.append(i)
        train = train.subset(keep)
    if args.systems:
        return systems(args, train, gold)
    X_train, y_train, X_eval, y_eval = train.X, train.y, gold.X, gold.y
    cache = Path(args.pred_cache) if args.pred_cache else None
    model = None
    if cache is not None and cache.exists():  # re-score the steps on saved predictions
        saved = json.loads(cache.read_text())
        pred, train_s, tag_s = saved["pred"], saved["train_seconds"], saved["tag_seconds"]
    else:
        params = parse_params(args.param)
        pipe = build(args.model, args.features, args.open_dictionary, params,
                     parse_params(args.feature_param), args.pos_corpus)
        t0 = time.perf_counter()
        pipe.fit(X_train, y_train)
        train_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        pred = [list(p) for p in pipe.predict(X_eval)]
        tag_s = time.perf_counter() - t0
        model = pipe[-1]
        if cache is not None:
            cache.write_text(json.dumps({"pred": pred, "train_seconds": train_s,
                                         "tag_seconds": tag_s}))
    result = {"benchmark": "hmm_svm", "split": args.split, "model": args.model,
              "features": args.features, "params": args.param + args.feature_param,
              "train_docs": len({s.doc_id for s in X_train}),
              "train_tokens": sum(map(len, X_train)), "eval_tokens": sum(map(len, X_eval)),
              "train_seconds": round(train_s, 1), "tag_seconds": round(tag_s, 2),
              "variants": {}}
    if model is not None and hasattr(model, "prior_weight") and args.split == "dev":
        # the chain's weights change decoding only: scored on the dev split
        Xt = pipe[:-1].transform(X_eval)
        grid = {}
        chosen = (model.prior_weight, model.transition_weight)
        for pw in (0.4, 0.6, 0.8, 1.0):
            for tw in (0.5, 1.0, 1.5):
                model.set_params(prior_weight=pw, transition_weight=tw)
                grid[f"{pw}/{tw}"] = scores(gold, model.predict(Xt), args.data)["f1"]
        model.set_params(prior_weight=chosen[0], transition_weight=chosen[1])
        result["weight_grid"] = grid
        print("prior/transition weight grid:", {k: round(v, 2) for k, v in grid.items()})
    if hasattr(model, "fit_seconds_"):
        result["svm_seconds"] = {k: round(v, 1) for k, v in model.fit_seconds_.items()}
    fitted = {}
    for name, make in STEPS.items():
        t0 = time.perf_counter()
        fitted[name] = make().fit(X_train, y_train)
        result.setdefault("step_fit_seconds", {})[name] = round(time.perf_counter() - t0, 2)
    groups = [s.doc_id for s in X_eval]
    for variant, names in VARIANTS.items():
        t0 = time.perf_counter()
        out = apply_steps([fitted[n] for n in names], X_eval, pred)
        entry = scores(gold, out, args.data)
        entry["seconds"] = round(time.perf_counter() - t0, 2)
        if names:  # paired bootstrap over abstracts against the tagger alone
            entry["p_value"] = paired_bootstrap(y_eval, pred, out, groups=groups,
                                                n_resamples=2000, random_state=0).p_value
        result["variants"][variant] = entry
        p = f", p = {entry['p_value']:.3f}" if "p_value" in entry else ""
        p += (f"; 394 abstracts {entry['f1_without_overlap']:.2f}"
              if "f1_without_overlap" in entry else "")
        print(f"{args.model:10s} {args.features:6s} {variant:14s} "
              f"F1 {entry['f1']:.2f} (P {entry['precision']:.2f} R {entry['recall']:.2f}{p})",
              flush=True)
    _finish(args, result, _records(result, {
        f"{args.model} {args.features} {variant}": e
        for variant, e in result["variants"].items()}))


def table(paths):
    rows = [json.loads(line) for p in paths for line in Path(p).read_text().splitlines()
            if line.strip()]
    out = {}
    for split in ("dev", "test"):
        for model in sorted({r["model"] for r in rows}):
            runs = {r["features"]: r for r in rows if r["split"] == split
                    and r["model"] == model and not r.get("params")}
            if "base" not in runs:
                continue
            base = runs["base"]["variants"]["none"]["f1"]
            lines = [("baseline", base)]
            for feat, label in (("pos", "+pos"), ("closed", "+closed"), ("open", "+open")):
                if feat in runs:
                    lines.append((label, runs[feat]["variants"]["none"]["f1"]))
            for step in ("alias", "cascade", "abbreviations"):
                lines.append((f"+{step}", runs["base"]["variants"][step]["f1"]))
            lines.append(("+all steps", runs["base"]["variants"]["all-steps"]["f1"]))
            if "all" in runs:
                lines.append(("all", runs["all"]["variants"]["all-steps"]["f1"]))
            print(f"\n{split} / {model} (train {runs['base']['train_docs']} abstracts)")
            print(f"{'setting':16s} {'F1':>6s} {'delta':>6s} {'paper':>6s} {'paper delta':>11s}"
                  "   (paper: test set, cumulative rows)")
            for label, f1 in lines:
                paper = PAPER["rows"].get(label.replace("+all steps", "-"))
                pd = "" if paper is None or label == "baseline" else \
                    f"{paper - PAPER['rows'][_prev(label)]:+.1f}"
                print(f"{label:16s} {f1:6.2f} {f1 - base:+6.2f} "
                      f"{'' if paper is None else f'{paper:6.1f}':>6s} {pd:>11s}")
            final = runs.get("all", runs["base"])["variants"][
                "all-steps" if "all" in runs else "none"]
            print(f"per class ({'all' if 'all' in runs else 'baseline'}) vs the paper's final "
                  "(test set):")
            for c, f1 in sorted(final["per_class"].items()):
                print(f"  {c:10s} {f1:6.2f}  paper {PAPER['final'].get(c, float('nan')):6.2f}")
            print(f"  {'overall':10s} {final['f1']:6.2f}  paper {PAPER['final']['overall']:6.2f}"
                  f"  (P {final['precision']:.2f} / R {final['recall']:.2f}; paper "
                  f"{PAPER['final']['precision']} / {PAPER['final']['recall']})")
            times = {f: (r["train_seconds"], r["tag_seconds"]) for f, r in runs.items()}
            print(f"train / tag seconds: {times}")
            out[f"{split}/{model}"] = dict(lines)
    print(json.dumps({"benchmark": "hmm_svm_table", "rows": out}))


_ORDER = ["baseline", "+pos", "+alias", "+cascade", "+abbreviations", "+closed", "+open",
          "all"]


def _prev(label):
    """The paper's previous (cumulative) row: its Table 1 adds the modules in this order."""
    i = _ORDER.index(label)
    return _ORDER[i - 1] if i else label


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    harness.add_arguments(ap, corpora=False)
    ap.add_argument("--split", choices=("dev", "test"), default="dev")
    ap.add_argument("--model", default="hmm-svm")
    ap.add_argument("--features", choices=("base", "pos", "closed", "open", "all"),
                    default="base")
    ap.add_argument("--open-dictionary", default=None,
                    help="a lexicon file (name<TAB>type) for --features open/all "
                         "(default: the bundled lexicons)")
    ap.add_argument("--pos-corpus", default=None,
                    help="the POS tagger's training corpus, to tag its sentences out of fold "
                         "(default: DATA/genia-pos/train.tsv)")
    ap.add_argument("--max-train-docs", type=int, default=None)
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                    help="model parameter, e.g. scheme=IOB2 or refit=True")
    ap.add_argument("--feature-param", action="append", default=[], metavar="KEY=VALUE",
                    help="featurizer parameter, e.g. templates=zhou")
    ap.add_argument("--out", default=None)
    ap.add_argument("--pred-cache", default=None, metavar="JSON",
                    help="save the tagger's predictions here, or read them if the file "
                         "exists (the steps are then scored without training)")
    ap.add_argument("--table", nargs="+", default=None, metavar="JSONL")
    ap.add_argument("--systems", nargs="+", default=None, metavar="SYSTEM",
                    help="train these (PRESET or two-pass:PRESET) in one process")
    ap.add_argument("--first-param", action="append", default=[], metavar="KEY=VALUE",
                    help="with --systems: parameter of hmm-svm first passes and one-pass "
                         "hmm-svm systems (--param: of hmm-svm second passes)")
    ap.add_argument("--two-pass-param", action="append", default=[], metavar="KEY=VALUE",
                    help="StackedTagger parameter of the two-pass systems")
    args = ap.parse_args()
    if args.pos_corpus is None:
        args.pos_corpus = str(harness.data_root(args.data) / "genia-pos" / "train.tsv")
    if args.table:
        table(args.table)
    else:
        run(args)


if __name__ == "__main__":
    main()
