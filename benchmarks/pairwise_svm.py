"""Pairwise class-split SVM tagger (Kazama et al. 2002) on JNLPBA: after the paper's experiments,
the whole-corpus model, the paper's system (issues 12, 26 and 35).

One sub-command per question (the annotated corpora are prepared once and cached):

    python benchmarks/pairwise_svm.py prepare --data ../shared/data --cache svm-cache.joblib
    python benchmarks/pairwise_svm.py dev --cache svm-cache.joblib --grid C=0.1,0.25 gamma=0.1
    python benchmarks/pairwise_svm.py routes --cache svm-cache.joblib --abstracts 148
    # the paper's system and its class-splitting experiment, dev and test from one model
    python benchmarks/pairwise_svm.py dev --cache svm-cache.joblib --abstracts 300 \
        --score dev,test --grid conjunctions=pc,all split_outside=None,pos --store
    python benchmarks/pairwise_svm.py full --data ../shared/data
    python benchmarks/pairwise_svm.py tagging --data ../shared/data --model pairwise-svm.skops
    python benchmarks/pairwise_svm.py corpus --data ../shared/data --corpus bionlp13cg

``prepare``: POS column (the bundled GENIA tagger; every training sentence -- the
development split's too -- tagged out of fold, ``POSTagger(jackknife=5)`` over the GENIA POS
training corpus, whose abstracts are JNLPBA training abstracts; test sentences by the full
tagger) and HMM-state column (``HMMStateClusterer``, 40 states as the suite's presets,
fitted on the unlabeled corpus) of the training and test sets, cached.

``dev``: choices on the development split (the last 10% of the training abstracts,
:func:`skbioner.datasets.train_dev_split`), the model trained on the rest (or its first
``--abstracts``; ``--train train``: the whole training file): every combination of
``--grid`` settings of ``PairwiseSVMTagger`` (its defaults otherwise), feature groups
dropped with ``--drop`` (the ablation); with ``--viterbi`` each model is fitted with
probabilities and scored greedy and Viterbi; ``--score dev,test`` scores the same model on
both.  Official F1, training CPU and wall seconds, tagging tokens per CPU second (the SVM
alone), stored weights, peak RSS; ``--store`` records each row through the harness.  The
paper's system (Kazama et al. 2002: every product of a token's features, ``O`` split by
POS) is ``--grid conjunctions=all split_outside=pos``; the paper's class-splitting
experiment is ``split_outside=None,pos``.

``routes``: the explicit map with every product (``"all"``, the kernel up to hash
collisions), with the preceding-class products (``"pc"``) and without products, on a subset:
what each costs (training and tagging) and loses (dev F1, agreement with ``"all"``'s labels)
at the same C and gamma.  (The libsvm route and the ``PolynomialCountSketch`` route were
measured before they were removed: docs/lab/benchmarks.md.)

``full``: the ``pairwise-svm`` preset pipeline (POS tagger jackknifed on its own training
corpus, HMM states fitted on the unlabeled corpus, ``kazama`` features, the SVM) trained on
all 2,000 JNLPBA training abstracts and scored once on the test file through
``benchmarks/harness.py`` (official exact/left/right F1 and on the unseen abstracts,
training wall and CPU seconds, end-to-end tagging tokens/s on one core, model file size);
``--store`` appends the record to ``benchmarks/results.jsonl``; ``--model M`` tags and scores a
model saved by ``skbioner train`` instead (no training fields: do not ``--store`` it).

``corpus``: the ``pairwise-svm`` preset pipeline on another corpus (POS from the bundled
tagger, HMM states fitted on the unlabeled corpus without that corpus's test sentences),
trained on its train file and scored on its devel file, once per ``--grid`` setting of the SVM
(default: ``split_outside`` None and ``"pos"``).

``tagging``: a saved model (``skbioner train``) tags the JNLPBA test file on one core (this
process pinned to one CPU): tokens per CPU second and per wall second of the whole pipeline
(the best of ``--passes`` passes after a first one) and of each step alone, the load average;
``--save``/``--check`` write / compare the labels (the same outputs before and after a
change).

Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time

HMM_STATES = 40


def _abstracts(doc_ids, n, among=None):
    """Indices of the sentences of the first ``n`` abstracts (of ``among``, default all)."""
    seen, out = set(), []
    for i in (range(len(doc_ids)) if among is None else among):
        d = doc_ids[i]
        if d not in seen:
            if len(seen) == n:
                break
            seen.add(d)
        out.append(i)
    return out


def prepare(args):
    import joblib

    from skbioner.annotate import HMMStateClusterer, POSTagger
    from skbioner.datasets import load_jnlpba
    from skbioner.io import read_tokenized

    t0 = time.perf_counter()
    train = load_jnlpba(os.path.join(args.data, "jnlpba"), "train")
    test = load_jnlpba(os.path.join(args.data, "jnlpba"), "test")
    pos = POSTagger(jackknife=5, corpus=os.path.join(args.data, "genia-pos", "train.tsv"),
                    n_jobs=2)
    Xtr = pos.fit_transform(train.X)
    Xte = pos.transform(test.X)
    t_pos = time.perf_counter() - t0
    print(f"POS: {t_pos:.0f} s, {pos.jackknife_coverage_:.4f} of the training sentences out "
          "of fold", flush=True)
    sentences = read_tokenized(os.path.join(args.data, "unlabeled", "biomed-sentences.txt"))
    hmm = HMMStateClusterer(n_states=HMM_STATES, random_state=0, n_jobs=2,
                            max_iter=args.hmm_iter)
    hmm.fit(sentences)
    Xtr, Xte = hmm.transform(Xtr), hmm.transform(Xte)
    t_all = time.perf_counter() - t0
    joblib.dump({"train": (Xtr, train.y, train.doc_ids), "test": (Xte, test.y, test.doc_ids)},
                args.cache)
    return {"experiment": "prepare", "pos_seconds": round(t_pos, 1),
            "seconds": round(t_all, 1), "pos_jackknife_coverage": pos.jackknife_coverage_,
            "hmm_states": HMM_STATES, "hmm_iter": args.hmm_iter}


def _load(cache):
    import joblib

    d = joblib.load(cache)
    return d["train"], d["test"]


def _groups(drop=(), substring=False):
    from skbioner.features import get_preset

    opts = {}
    if substring:
        opts["substring_max_length"] = 6
    groups = get_preset("kazama", **opts)
    names = {g.name for g in groups}
    unknown = set(drop) - names
    if unknown:
        raise SystemExit(f"unknown feature groups {sorted(unknown)}; kazama has {sorted(names)}")
    return [g for g in groups if g.name not in set(drop)]


def _featurize(Xfit, yfit, Xothers, groups=None, min_count=3):
    from skbioner.features import TokenFeaturizer

    f = TokenFeaturizer(templates=groups or "kazama", min_count=min_count)
    F = f.fit_transform(Xfit, yfit)
    return F, [f.transform(X) for X in Xothers]


def _official(y_true, y_pred):
    from skbioner.metrics import entity_f1_score

    return {m: round(100 * entity_f1_score(y_true, y_pred, match=m), 2)
            for m in ("exact", "left", "right")}


def _value(text):
    if text in ("None", "none"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _grid(items):
    """``["C=0.1,0.25", "gamma=0.1"]`` -> every combination as a dict."""
    keys, values = [], []
    for item in items:
        key, _, vals = item.partition("=")
        keys.append(key)
        values.append([_value(v) for v in vals.split(",")])
    return [dict(zip(keys, combo)) for combo in itertools.product(*values)]


def _fit_dev_split(args):
    """Annotated fit and dev sentences of the cache (the fit part cut to ``--abstracts``)."""
    from skbioner.datasets import train_dev_split

    (X, y, docs), _ = _load(args.cache)
    fit_idx, dev_idx = train_dev_split(docs)
    if args.abstracts:
        fit_idx = _abstracts(docs, args.abstracts, fit_idx)
    if getattr(args, "dev_sentences", 0):
        dev_idx = dev_idx[:args.dev_sentences]
    return ([X[i] for i in fit_idx], [y[i] for i in fit_idx], [X[i] for i in dev_idx],
            [y[i] for i in dev_idx], len({docs[i] for i in fit_idx}))


def _cpu():
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _timed(fn, *a):
    t0, c0 = time.perf_counter(), _cpu()
    out = fn(*a)
    return out, time.perf_counter() - t0, _cpu() - c0


def _svm_stats(m):
    return {"pairs": len(m.pairs_), "classes": len(m.internal_classes_),
            "stored": int(m.n_support_total_)}


def dev(args):
    """Each ``--grid`` setting trained on the fit split (``--train train``: the training
    file), each of its first ``--abstracts``, and scored on each ``--score`` split (the dev
    split, the test file) with the official counts; ``--store`` records each row through the
    harness as it ends."""
    import resource

    import harness

    from skbioner.datasets import train_dev_split
    from skbioner.models import PairwiseSVMTagger

    (X, y, docs), test = _load(args.cache)
    fit_idx, dev_idx = train_dev_split(docs)
    if args.train == "train":
        fit_idx = range(len(X))
    if args.abstracts:
        fit_idx = _abstracts(docs, args.abstracts, fit_idx)
    scored = {"dev": ([X[i] for i in dev_idx], [y[i] for i in dev_idx]),
              "test": (test[0], test[1])}
    splits = args.score.split(",")
    if "dev" in splits and args.train == "train":
        raise SystemExit("--train train fits on the dev split: score test only")
    gold = {sp: harness.load("jnlpba", sp, args.data) for sp in splits}
    for sp in splits:
        if [list(s) for s in gold[sp].y] != [list(s) for s in scored[sp][1]]:
            raise SystemExit(f"the cache's {sp} sentences are not the harness's")
    Xf, yf = [X[i] for i in fit_idx], [y[i] for i in fit_idx]
    n_abs = len({docs[i] for i in fit_idx})
    groups = _groups(args.drop.split(",") if args.drop else (), substring=args.substring)
    F, featurized = _featurize(Xf, yf, [scored[sp][0] for sp in splits], groups)
    for setting in _grid(args.grid):
        params = {"n_jobs": args.n_jobs, "random_state": 0, **setting}
        if args.viterbi:
            params["decoding"] = "viterbi"
        m = PairwiseSVMTagger(**params)
        _, fit_s, fit_cpu = _timed(m.fit, F, yf)
        row = {"setting": setting, "train_seconds": round(fit_s, 1),
               "train_cpu_seconds": round(fit_cpu, 1), **_svm_stats(m)}
        records = []
        for dec in (("greedy", "viterbi") if args.viterbi else ("greedy",)):
            m.set_params(decoding=dec)
            for sp, Fs in zip(splits, featurized):
                pred, tag_s, tag_cpu = _timed(m.predict, Fs)
                speed = round(Fs.matrix.shape[0] / max(tag_cpu, 1e-9))
                row.setdefault(dec, {})[sp] = _official(scored[sp][1], pred)
                row[dec][f"{sp}_tag_tokens_per_cpu_second"] = speed
                name = " ".join(f"{k}={v}" for k, v in setting.items() if k != "verbose")
                records.append(harness.record(
                    "pairwise-svm", f"PairwiseSVMTagger {name}".strip() +
                    ("" if dec == "greedy" else " viterbi") + f", {n_abs} abstracts",
                    "jnlpba", sp,
                    **harness.evaluate(gold[sp], pred, args.data), trained_on=args.train,
                    fit_abstracts=n_abs, fit_tokens=int(F.matrix.shape[0]),
                    features=F.n_features, dropped=args.drop, setting=setting,
                    train_seconds=row["train_seconds"],
                    train_cpu_seconds=row["train_cpu_seconds"], **_svm_stats(m),
                    tag_tokens_per_cpu_second=speed,
                    peak_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                    load_average=[round(x, 2) for x in os.getloadavg()],
                    command="python benchmarks/pairwise_svm.py " + " ".join(sys.argv[1:])))
        row["load_average"] = [round(x, 2) for x in os.getloadavg()]
        print(json.dumps(row), flush=True)
        harness.finish(records, args, {"experiment": "dev", "fit_abstracts": n_abs})


# -- routes ------------------------------------------------------------------------------


def _agreement(a, b):
    same = sum(x == y for s, t in zip(a, b) for x, y in zip(s, t))
    return round(100 * same / max(sum(map(len, a)), 1), 2)


def routes(args):
    from skbioner.models import PairwiseSVMTagger

    Xf, yf, Xd, yd, n_abs = _fit_dev_split(args)
    F, (Fd,) = _featurize(Xf, yf, [Xd])
    n_dev = Fd.matrix.shape[0]
    base = {"C": args.C, "gamma": args.gamma, "coef0": args.coef0, "random_state": 0,
            "n_jobs": args.n_jobs, "split_outside": None if args.split == "none" else "pos",
            "vote": "all"}
    rows, ref = {}, None
    for conj in args.routes.split(","):
        m = PairwiseSVMTagger(**base, conjunctions=None if conj == "none" else conj)
        _, fit_s, fit_cpu = _timed(m.fit, F, yf)
        pred, tag_s, tag_cpu = _timed(m.predict, Fd)
        row = {"dev": _official(yd, pred), "train_seconds": round(fit_s, 1),
               "train_cpu_seconds": round(fit_cpu, 1),
               "tag_tokens_per_cpu_second": round(n_dev / max(tag_cpu, 1e-9)), **_svm_stats(m),
               "load_average": [round(x, 2) for x in os.getloadavg()]}
        ref = pred if ref is None else ref
        row["same_labels_as_first_percent"] = _agreement(ref, pred)
        rows[conj] = row
        print(conj, json.dumps(row), flush=True)
    return {"experiment": "routes", "fit_abstracts": n_abs, "fit_tokens": int(F.matrix.shape[0]),
            "dev_tokens": n_dev, "split": args.split, "C": args.C, "gamma": args.gamma,
            "coef0": args.coef0, "rows": rows}


# -- the whole corpus --------------------------------------------------------------------


def _fit_full(data, n_jobs, params):
    """The preset pipeline fitted on the whole training file (run in its own process)."""
    import resource

    import harness

    from skbioner import make_tagger

    train = harness.load("jnlpba", "train", data)
    root = harness.data_root(data)
    t0, c0 = time.perf_counter(), harness.Stopwatch._cpu()
    pipe = make_tagger("pairwise-svm", pos_jackknife=str(root / "genia-pos" / "train.tsv"),
                       hmm_states=str(root / harness.CORPORA["jnlpba"].unlabeled),
                       model_params=params or None, n_jobs=n_jobs)
    t_hmm = time.perf_counter() - t0
    pipe.fit(train.X, train.y)
    wall, cpu = time.perf_counter() - t0, harness.Stopwatch._cpu() - c0
    svm = pipe[-1]
    return pipe, {"train_seconds": wall, "train_cpu_seconds": cpu,
                  "hmm_fit_seconds": t_hmm, "svm_train_seconds": svm.fit_seconds_,
                  "train_peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "train_tokens": train.n_tokens, "load_average_after_fit":
                  [round(x, 2) for x in os.getloadavg()]}


def full(args):
    import harness

    if args.model:  # a saved model (skbioner train): tagging and scores only
        from skbioner.io import load_model

        pipe, timing = load_model(args.model), {"model_file": args.model}
    else:
        params = dict(_grid(args.params)[0]) if args.params else {}
        pipe, timing = _fit_full(args.data, args.n_jobs, params)
    test = harness.load("jnlpba", "test", args.data)
    # tagging on one core: this process pinned to one CPU while it tags
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cpus)})
    try:
        pred, tok_s = harness.tagging_speed(pipe, test.X)
        with harness.Stopwatch() as sw:  # per CPU second: what a quiet core would give
            pipe.predict(test.X)
        timing["tag_tokens_per_cpu_second"] = test.n_tokens / sw.cpu
    finally:
        os.sched_setaffinity(0, cpus)
    scores = harness.evaluate(test, pred, args.data)
    size = harness.model_size_mb(pipe)
    svm = pipe[-1]
    fields = {**scores, **timing, "tag_tokens_per_second": tok_s, "model_mb": size,
              "svm": svm.get_params(), **_svm_stats(svm),
              "cli": "skbioner train --model pairwise-svm --pos-jackknife "
                     "../shared/data/genia-pos/train.tsv "
                     "--hmm-states ../shared/data/unlabeled/biomed-sentences.txt"}
    rec = harness.record("pairwise-svm", "pairwise-svm", "jnlpba", "test", headline=True,
                         **fields)
    harness.finish([rec], args, {"experiment": "full"})
    return None


def corpus(args):
    """The preset on another corpus: trained on its train file, scored on its devel file,
    once per ``--grid`` setting of the SVM (the POS tagger, HMM states and features fitted
    once and shared)."""
    import harness
    from sklearn.base import clone

    from skbioner import make_tagger

    fit = harness.load(args.corpus, "fit", args.data)
    dev = harness.load(args.corpus, "dev", args.data)
    root = harness.data_root(args.data)
    pipe = make_tagger("pairwise-svm", hmm_states=str(root / harness.CORPORA[args.corpus]
                                                           .unlabeled), n_jobs=args.n_jobs)
    t0 = time.perf_counter()
    head = pipe[:-1]
    F = head.fit_transform(fit.X, fit.y)
    Fd = head.transform(dev.X)
    head_s = time.perf_counter() - t0
    rows = []
    for setting in _grid(args.grid):
        m = clone(pipe[-1]).set_params(**setting)
        _, fit_s, fit_cpu = _timed(m.fit, F, fit.y)
        pred, _, tag_cpu = _timed(m.predict, Fd)
        row = {"setting": setting, "dev": _official(dev.y, pred),
               "train_seconds": round(fit_s, 1), "train_cpu_seconds": round(fit_cpu, 1),
               **_svm_stats(m),
               "tag_tokens_per_cpu_second": round(Fd.matrix.shape[0] / max(tag_cpu, 1e-9)),
               "load_average": [round(x, 2) for x in os.getloadavg()]}
        rows.append(row)
        print(json.dumps(row), flush=True)
    return {"experiment": "corpus", "corpus": args.corpus, "fit_sentences": len(fit.X),
            "dev_tokens": int(Fd.matrix.shape[0]), "head_seconds": round(head_s, 1),
            "rows": rows}


def tagging(args):
    """Tagging speed of a saved model on one core: the whole pipeline and each step."""
    import harness
    import numpy as np

    from skbioner.io import load_model

    pipe = load_model(args.model)
    test = harness.load("jnlpba", "test", args.data)
    n = test.n_tokens
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cpus)})  # one core
    load_before = [round(x, 2) for x in os.getloadavg()]
    try:
        pred = pipe.predict(test.X)  # first call: compiled kernels loaded, weights laid out
        whole = []
        for _ in range(args.passes):
            with harness.Stopwatch() as sw:
                again = pipe.predict(test.X)
            whole.append((sw.cpu, sw.wall))
            if list(map(list, again)) != list(map(list, pred)):
                raise AssertionError("tagging is not deterministic")
        steps = {}
        for _ in range(args.passes):
            Z = test.X
            for name, step in pipe.steps:
                last = name == pipe.steps[-1][0]
                with harness.Stopwatch() as sw:
                    Z = step.predict(Z) if last else step.transform(Z)
                steps[name] = min(steps.get(name, np.inf), sw.cpu)
    finally:
        os.sched_setaffinity(0, cpus)
    cpu, wall = min(c for c, _ in whole), min(w for _, w in whole)
    out = {"experiment": "tagging", "model_file": args.model, "tokens": n,
           "passes": args.passes, "tag_tokens_per_cpu_second": round(n / cpu),
           "tag_tokens_per_second": round(n / wall),
           "step_tokens_per_cpu_second": {k: round(n / v) for k, v in steps.items()},
           "exact": _official(test.y, pred)["exact"],
           "load_average_before": load_before,
           "load_average_after": [round(x, 2) for x in os.getloadavg()]}
    if args.check:  # the labels of another run (--save): identical?
        with open(args.check, encoding="utf-8") as fh:
            ref = json.load(fh)
        out["identical_to"] = args.check
        out["identical"] = ref == list(map(list, pred))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as fh:
            json.dump(list(map(list, pred)), fh)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--data", default="../shared/data")
    p.add_argument("--hmm-iter", type=int, default=20)
    for name in ("dev", "routes"):
        q = sub.add_parser(name)
        q.add_argument("--abstracts", type=int, default=0,
                       help="train on the first N abstracts of the fit split (0: all)")
        q.add_argument("--dev-sentences", type=int, default=0)
        q.add_argument("--n-jobs", type=int, default=2)
    p = sub.choices["dev"]
    p.add_argument("--grid", nargs="*", default=[],
                   help="PairwiseSVMTagger settings, each key=v1,v2,... (every combination)")
    p.add_argument("--viterbi", action="store_true",
                   help="fit the probabilities and score greedy and Viterbi decoding")
    p.add_argument("--drop", default="", help="kazama feature groups to leave out")
    p.add_argument("--substring", action="store_true", help="add substrings 3..6")
    p.add_argument("--train", default="fit", choices=("fit", "train"),
                   help="train on the fit split (default) or the whole training file")
    p.add_argument("--score", default="dev", help="dev, test or dev,test")
    p.add_argument("--data", default=None)
    p.add_argument("--store", action="store_true")
    p = sub.choices["routes"]
    p.add_argument("--C", type=float, default=0.25)
    p.add_argument("--gamma", type=float, default=0.1)
    p.add_argument("--coef0", type=float, default=1.0)
    p.add_argument("--routes", default="all,pc,none", help="conjunctions, the first the reference")
    p.add_argument("--split", default="none", choices=("pos", "none"))
    p = sub.add_parser("full")
    p.add_argument("--data", default=None)
    p.add_argument("--model", default=None,
                   help="tag and score this saved model instead of training one")
    p.add_argument("--n-jobs", type=int, default=2)
    p.add_argument("--store", action="store_true")
    p.add_argument("--params", nargs="*", default=[],
                   help="PairwiseSVMTagger settings over the preset's, key=value")
    p = sub.add_parser("corpus")
    p.add_argument("--corpus", default="bionlp13cg")
    p.add_argument("--data", default=None)
    p.add_argument("--n-jobs", type=int, default=2)
    p.add_argument("--grid", nargs="*", default=["split_outside=None,pos"],
                   help="settings of the preset's SVM, each key=v1,v2,...")
    p = sub.add_parser("tagging")
    p.add_argument("--model", required=True, help="a model saved by skbioner train")
    p.add_argument("--data", default=None)
    p.add_argument("--passes", type=int, default=3, help="timed passes (the best counts)")
    p.add_argument("--save", default="", help="write the predicted labels here (JSON)")
    p.add_argument("--check", default="", help="compare with labels written by --save")
    for name, q in sub.choices.items():
        if name not in ("full", "tagging", "corpus"):
            q.add_argument("--cache", default="svm-cache.joblib")
    args = ap.parse_args(argv)
    out = {"prepare": prepare, "dev": dev, "routes": routes, "full": full, "tagging": tagging,
           "corpus": corpus}[args.cmd](args)
    if out is not None:
        out["command"] = "python benchmarks/pairwise_svm.py " + " ".join(sys.argv[1:])
        print(json.dumps(out))


if __name__ == "__main__":
    main()
