"""NERBio (Tsai et al. 2006) on JNLPBA: the paper's four configurations, selection on dev.

    python benchmarks/nerbio.py --data ../shared/data/jnlpba --cache /tmp/nerbio-cache
    python benchmarks/nerbio.py --stages patterns --cache /tmp/nerbio-cache   # reuses results
    python benchmarks/nerbio.py --chunks --stages select,paper --select-max-groups 3 \
        --cache /tmp/nerbio-chunks --store

Configurations (features: the ``nerbio`` template set, POS from the bundled GENIA tagger,
jackknifed on the training sentences as GENIA POS abstracts are JNLPBA training abstracts;
frequency cutoff --min-count):

1. ``singletons``: words -2..+2, shape and compressed shape, orthographic flags, affixes 3-5,
   POS -2..+2;
2. ``selected``: + the word conjunctions chosen by ``SequentialGroupSelector`` (sequential
   forward selection over the candidate groups in -3..+3, scored on the development split:
   the last 10% of the training abstracts; OnlinePACRF with --select-epochs inside);
3. ``numeric``: + ``NumericNormalizer`` (per digit run and per digit: the mode is chosen on
   dev);
4. ``patterns``: + ``PatternPostProcessor`` (Smith-Waterman patterns "head <class> tail";
   tau and zeta chosen on dev), also applied to the suite's default ``online-crf``.

Every configuration is scored on dev (trained on the other 90%) and on the official test set
(trained on all of train).  The candidates are the paper's: every word pair in -3..+3 (21;
before 2026-11-28 seven pairs and three trigrams).  ``--chunks`` adds the ``chunk`` column
(``RuleChunker`` over the POS column: rule-based, nothing fitted, so no out-of-fold tags
beyond the POS column's) to every sentence, so the singletons read it.  Stage ``paper``
(``--chunks``, after ``select``): dev F1 (10 epochs, the preset's numerals) of the preset's
groups without chunks, with chunks, and with chunks and the selected pairs; then the last,
once, on test; ``--store`` appends its records to benchmarks/results.jsonl.
Stage ``select_crf`` repeats the selection with CRFsuite inside,
on a share of the training abstracts (--crf-select-share; same dev abstracts).  The model is
OnlinePACRF with the suite's settings (BIES + IO, C 0.1, 10 epochs); ``--crf CONFIGS`` adds
CRFsuiteTagger (L-BFGS, as in the paper) on the test set for the named configurations.
Stages write their results to ``CACHE/results.json``, so a later run (``--stages``)
continues from them.  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

PAPER = {"singletons": 69.70, "selected": 71.37, "numeric": 72.41, "patterns": 72.98}
STAGES = ("singletons", "select", "select_crf", "selected", "numeric", "patterns", "crf", "paper")


def log(msg):
    print(f"[nerbio {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def model(epochs=10):
    from skbioner.models import OnlinePACRF

    return OnlinePACRF(scheme="BIES", extra_schemes=("IO",), C=0.1, max_iter=epochs,
                       random_state=0)


def crf():
    from skbioner.models import CRFsuiteTagger

    return CRFsuiteTagger(c2=1.0, max_iter=100)


def singleton_names():
    from skbioner.features import get_preset

    return [g.name for g in get_preset("nerbio") if g.kind != "conjunction"]


def word_conjunctions():
    from skbioner.features import get_preset

    return [g.name for g in get_preset("nerbio")
            if g.kind == "conjunction" and g.params["of"] == "word"]


def featurizer(groups, min_count, normalize=None):
    """The nerbio featurizer reading only ``groups`` (after an optional NumericNormalizer)."""
    from sklearn.pipeline import Pipeline

    from skbioner.features import TokenFeaturizer, get_preset
    from skbioner.text import NumericNormalizer

    exclude = tuple(g.name for g in get_preset("nerbio") if g.name not in groups)
    tf = TokenFeaturizer(templates="nerbio", exclude=exclude, min_count=min_count)
    if normalize is None:
        return tf
    return Pipeline([("numerals", NumericNormalizer(mode=normalize)), ("features", tf)])


def pipeline(groups, min_count, normalize=None, est=None):
    from sklearn.pipeline import Pipeline

    feat = featurizer(groups, min_count, normalize)
    steps = list(feat.steps) if isinstance(feat, Pipeline) else [("features", feat)]
    return Pipeline([*steps, ("model", est if est is not None else model())])


def load(args):
    """Train (POS jackknifed) and test sentences with the ``pos`` column, cached."""
    import joblib

    path = os.path.join(args.cache, "annotated.joblib")
    if os.path.exists(path):
        return joblib.load(path)
    from skbioner.annotate import POSTagger
    from skbioner.datasets import load_jnlpba
    train, test = load_jnlpba(args.data, "train"), load_jnlpba(args.data, "test")
    t0 = time.perf_counter()
    pos = POSTagger(jackknife=5, corpus=args.pos_corpus, n_jobs=2)
    Xtr = pos.fit_transform(train.X)
    Xte = pos.transform(test.X)
    log(f"POS (jackknifed on train) in {time.perf_counter() - t0:.0f} s")
    out = {"Xtr": Xtr, "ytr": train.y, "Xte": Xte, "yte": test.y,
           "doc_ids_te": list(test.doc_ids)}
    joblib.dump(out, path)
    return out


def split(d):
    from skbioner.datasets import train_dev_split

    tr, dv = train_dev_split([s.doc_id for s in d["Xtr"]])
    pick = lambda seq, idx: [seq[i] for i in idx]  # noqa: E731
    return (pick(d["Xtr"], tr), pick(d["ytr"], tr), pick(d["Xtr"], dv), pick(d["ytr"], dv))


def f1(y, pred):
    from skbioner.metrics import entity_report

    rep = entity_report(y, pred)
    o = rep.overall.exact
    return {"f1": round(100 * o.f1, 2), "precision": round(100 * o.precision, 2),
            "recall": round(100 * o.recall, 2)}


def dev_and_test(d, parts, make, what):
    """Dev score (fit on 90%) and test score (fit on all of train) of ``make()``."""
    Xa, ya, Xd, yd = parts
    t0 = time.perf_counter()
    dev = f1(yd, make().fit(Xa, ya).predict(Xd))
    t1 = time.perf_counter()
    est = make().fit(d["Xtr"], d["ytr"])
    t2 = time.perf_counter()
    pred = est.predict(d["Xte"])
    test = f1(d["yte"], pred)
    log(f"{what}: dev {dev['f1']:.2f}, test {test['f1']:.2f} (fit {t2 - t1:.0f} s)")
    return {"dev": dev, "test": test, "dev_fit_seconds": round(t1 - t0, 1),
            "fit_seconds": round(t2 - t1, 1)}, est, pred


def stage_singletons(d, parts, res, args):
    res["singletons"], _, _ = dev_and_test(
        d, parts, lambda: pipeline(singleton_names(), args.min_count), "singletons")


def stage_select(d, parts, res, args):
    from skbioner.features import TokenFeaturizer
    from skbioner.pipelines import SequentialGroupSelector

    base = singleton_names()
    sel = SequentialGroupSelector(
        model(args.select_epochs), TokenFeaturizer(templates="nerbio", min_count=args.min_count),
        candidate_groups=word_conjunctions(), base_groups=base, dev_fraction=0.1,
        max_groups=args.select_max_groups, refit=False, n_jobs=args.n_jobs, verbose=1)
    t0 = time.perf_counter()
    sel.fit(d["Xtr"], d["ytr"])  # holds out the last 10% of the abstracts: the dev split
    res["select"] = {
        "estimator": f"OnlinePACRF(BIES+IO, C=0.1, {args.select_epochs} epochs)",
        "candidates": sel.candidate_groups_, "selected_groups": sel.selected_groups_,
        "added": sel.selected_groups_[len([b for b in base if b in sel.selected_groups_]):],
        "dev_f1_trace": [{"step": t["step"], "best": t["best"],
                          "score": round(100 * t["score"], 2), "added": t["added"],
                          "scores": {k: round(100 * v, 2) for k, v in t["scores"].items()},
                          "seconds": round(t["seconds"], 1)} for t in sel.trace_],
        "seconds": {k: round(v, 1) for k, v in sel.seconds_.items()},
        "wall_seconds": round(time.perf_counter() - t0, 1),
        "n_jobs": args.n_jobs, "max_groups": args.select_max_groups,
    }


def stage_select_crf(d, parts, res, args):
    """The same selection with CRFsuite inside, on a share of the training abstracts.

    The development abstracts stay the same (the last 10%); the model trains on the first
    ``--crf-select-share`` of the other abstracts (CRFsuite on all of them takes minutes per
    fit, and the selection fits one model per candidate and step).
    """
    from skbioner.features import TokenFeaturizer
    from skbioner.models import CRFsuiteTagger
    from skbioner.pipelines import SequentialGroupSelector

    Xa, ya, Xd, yd = parts
    docs = list(dict.fromkeys(s.doc_id for s in Xa))
    keep = set(docs[:round(args.crf_select_share * len(docs))])
    idx = [i for i, s in enumerate(Xa) if s.doc_id in keep]
    X = [Xa[i] for i in idx] + list(Xd)
    y = [ya[i] for i in idx] + list(yd)
    n_dev_docs = len(set(s.doc_id for s in Xd))
    base = singleton_names()
    sel = SequentialGroupSelector(
        CRFsuiteTagger(c2=1.0, max_iter=args.crf_select_iter),
        TokenFeaturizer(templates="nerbio", min_count=args.min_count),
        candidate_groups=word_conjunctions(), base_groups=base,
        dev_fraction=n_dev_docs / (len(keep) + n_dev_docs), refit=False, n_jobs=args.n_jobs,
        verbose=1)
    t0 = time.perf_counter()
    sel.fit(X, y)
    res["select_crf"] = {
        "estimator": f"CRFsuiteTagger(c2=1, {args.crf_select_iter} iterations)",
        "train_abstracts": len(keep), "dev_abstracts": n_dev_docs,
        "selected_groups": sel.selected_groups_,
        "added": [g for g in sel.selected_groups_ if g not in base],
        "dev_f1_trace": [{"step": t["step"], "best": t["best"],
                          "score": round(100 * t["score"], 2), "added": t["added"],
                          "scores": {k: round(100 * v, 2) for k, v in t["scores"].items()},
                          "seconds": round(t["seconds"], 1)} for t in sel.trace_],
        "wall_seconds": round(time.perf_counter() - t0, 1), "n_jobs": args.n_jobs,
    }


def selected_groups(res):
    return res["select"]["selected_groups"]


def stage_selected(d, parts, res, args):
    res["selected"], _, _ = dev_and_test(
        d, parts, lambda: pipeline(selected_groups(res), args.min_count), "selected")


def stage_numeric(d, parts, res, args):
    out = {}
    for mode in ("run", "digit"):
        out[mode], _, _ = dev_and_test(
            d, parts, lambda m=mode: pipeline(selected_groups(res), args.min_count, m),
            f"numeric ({mode})")
    chosen = max(out, key=lambda m: out[m]["dev"]["f1"])
    res["numeric"] = {**out[chosen], "mode": chosen, "modes": out}


def stage_patterns(d, parts, res, args):
    """The pattern post-processor on the numeric configuration and on the suite's default."""
    import itertools

    from skbioner.pipelines import make_tagger
    from skbioner.postprocess import PatternPostProcessor, apply_steps

    Xa, ya, Xd, yd = parts
    mode = res["numeric"]["mode"]
    taus, zetas, joins = (0.1, 0.2, 0.3, 0.5), (0.2, 0.3, 0.4, 0.5), (False, True)
    out = {}
    makers = {"nerbio": lambda: pipeline(selected_groups(res), args.min_count, mode),
              "online-crf": lambda: make_tagger("online-crf",
                                                  model_params={"calibrate": False})}
    # the step, fitted on the 90% part (it holds out its own last 10% to filter patterns)
    t0 = time.perf_counter()
    step = PatternPostProcessor().fit(Xa, ya)
    induce_dev_s = time.perf_counter() - t0
    log(f"patterns on 90%: {step.n_induced_} induced, {len(step.patterns_)} kept "
        f"(tau {step.tau}) in {induce_dev_s:.0f} s")
    for name, make in makers.items():
        tagger = make().fit(Xa, ya)
        pred_d = tagger.predict(Xd)
        base = f1(yd, pred_d)
        grid = {}
        for tau, zeta, join in itertools.product(taus, zetas, joins):
            s = step.set_params(tau=tau, zeta=zeta, join_entities=join)
            grid[(tau, zeta, join)] = f1(yd, apply_steps([s], Xd, pred_d))["f1"]
        tau, zeta, join = max(grid, key=grid.get)  # ties: the first (strictest) setting
        best = grid[(tau, zeta, join)]
        log(f"{name}: dev {base['f1']:.2f} -> {best:.2f} with tau={tau} zeta={zeta} "
            f"join_entities={join}")
        out[name] = {"dev_without": base, "tau": tau, "zeta": zeta, "join_entities": join,
                     "dev_with": best, "dev_gain": round(best - base["f1"], 2),
                     "dev_keeps_it": best > base["f1"],
                     "dev_grid": {f"tau={a},zeta={b},join={c}": v for (a, b, c), v in grid.items()}}
    # test: tagger and step refitted on all of train with the dev-chosen tau and zeta
    t0 = time.perf_counter()
    full = PatternPostProcessor().fit(d["Xtr"], d["ytr"])
    induce_s = time.perf_counter() - t0
    for name, make in makers.items():
        tagger = make().fit(d["Xtr"], d["ytr"])
        pred = tagger.predict(d["Xte"])
        s = full.set_params(tau=out[name]["tau"], zeta=out[name]["zeta"],
                            join_entities=out[name]["join_entities"])
        post = apply_steps([s], d["Xte"], pred)
        changed = sum(a != b for a, b in zip(pred, post))
        out[name].update({"test_without": f1(d["yte"], pred), "test_with": f1(d["yte"], post),
                          "test_sentences_changed": changed,
                          "test_patterns_kept": len(full.get_patterns(out[name]["tau"]))})
        log(f"{name}: test {out[name]['test_without']['f1']:.2f} -> "
            f"{out[name]['test_with']['f1']:.2f} ({changed} sentences changed)")
    res["patterns"] = {
        "nerbio": out["nerbio"], "online-crf": out["online-crf"],
        "induction": {"sentences": len(d["Xtr"]), "candidate_pairs": full.n_pairs_,
                      "induced": full.n_induced_, "seconds": round(induce_s, 1),
                      "seconds_90pct": round(induce_dev_s, 1),
                      "kept_by_tau": {t: len(full.get_patterns(t)) for t in taus},
                      "examples": [str(p) for p in full.get_patterns(out["nerbio"]["tau"])[:15]]},
        "test": out["nerbio"]["test_with"], "dev": {"f1": out["nerbio"]["dev_with"]},
    }


def stage_paper(d, parts, res, args):
    """The paper's system (chunks, the paper's candidates, the selection re-run) against
    the preset on dev; then it alone, once, on test.  Records through the harness."""
    import harness

    from skbioner.pipelines import make_tagger

    preset = make_tagger("nerbio")  # its conjunctions and numeral mode, as trained
    preset_pairs = [g for g in word_conjunctions() if g not in preset["features"].exclude]
    numerals = preset["numerals"].mode
    if not args.chunks or "select" not in res:
        raise SystemExit("stage paper needs --chunks and the select stage's result")
    no_chunk = [g for g in singleton_names() if g != "chunk"]
    added = [g for g in selected_groups(res) if g not in singleton_names()]
    configs = {"preset groups, no chunks": no_chunk + preset_pairs,
               "preset groups + chunks": singleton_names() + preset_pairs,
               "chunks + selected pairs": singleton_names() + added}
    Xa, ya, Xd, yd = parts
    dev_ids = [s.doc_id for s in Xd]
    sel = res["select"]
    kept = [t for t in sel["dev_f1_trace"] if t["added"] or t["step"] == 0]
    records, out = [harness.record(
        "nerbio (Tsai et al. 2006)", f"nerbio: forward selection ({sel['estimator']})",
        "jnlpba", "dev", exact_f1=kept[-1]["score"] / 100, added=added,
        candidates=sel["candidates"], trace=sel["dev_f1_trace"],
        train_seconds=sel["wall_seconds"])], {}
    for name, groups in configs.items():
        with harness.Stopwatch() as sw:
            pred = pipeline(groups, args.min_count, numerals).fit(Xa, ya).predict(Xd)
        scores = harness.evaluate(harness.Split(Xd, yd, dev_ids, "jnlpba", "dev"), pred)
        out[name] = {"groups": groups, "dev": round(100 * scores["exact_f1"], 2)}
        records.append(harness.record("nerbio (Tsai et al. 2006)", f"nerbio: {name}", "jnlpba",
                                      "dev", groups=groups, train_seconds=round(sw.wall, 1),
                                      **scores))
        log(f"{name}: dev {out[name]['dev']:.2f} ({sw.wall:.0f} s)")
    name = "chunks + selected pairs"
    with harness.Stopwatch() as sw:
        est = pipeline(configs[name], args.min_count, numerals).fit(d["Xtr"], d["ytr"])
    gold = harness.Split(d["Xte"], d["yte"], d["doc_ids_te"], "jnlpba", "test")
    scores = harness.evaluate(gold, est.predict(d["Xte"]), os.path.dirname(
        os.path.abspath(args.data)))
    out[name]["test"] = round(100 * scores["exact_f1"], 2)
    records.append(harness.record("nerbio (Tsai et al. 2006)", f"nerbio: {name}", "jnlpba",
                                  "test", groups=configs[name], train_seconds=round(sw.wall, 1),
                                  **scores))
    log(f"{name}: test {out[name]['test']:.2f}")
    res["paper"] = {**out, "selection_trace": res["select"]["dev_f1_trace"]}
    harness.finish(records, args)


def stage_crf(d, parts, res, args):
    """CRFsuite (L-BFGS, as in the paper) on the test set for the named configurations."""
    out = res.get("crf", {})
    fitted = {}  # "patterns" post-processes the "numeric" model's predictions
    for conf in args.crf.split(","):
        if not conf:
            continue
        groups = singleton_names() if conf == "singletons" else selected_groups(res)
        normalize = res["numeric"]["mode"] if conf in ("numeric", "patterns") else None
        key = (tuple(groups), normalize)
        t0 = time.perf_counter()
        cached = os.path.join(args.cache, f"crf-{conf if conf != 'patterns' else 'numeric'}.json")
        if key not in fitted and conf == "patterns" and os.path.exists(cached):
            with open(cached, encoding="utf-8") as fh:  # the numeric row's predictions
                fitted[key] = json.load(fh)
        if key not in fitted:
            est = pipeline(groups, args.min_count, normalize, est=crf())
            fitted[key] = est.fit(d["Xtr"], d["ytr"]).predict(d["Xte"])
            with open(cached, "w", encoding="utf-8") as fh:
                json.dump(fitted[key], fh)
        fit_s = time.perf_counter() - t0
        pred = fitted[key]
        row = {"test": f1(d["yte"], pred), "fit_seconds": round(fit_s, 1)}
        if conf == "patterns":
            from skbioner.postprocess import PatternPostProcessor, apply_steps

            p = res["patterns"]["nerbio"]
            step = PatternPostProcessor(tau=p["tau"], zeta=p["zeta"],
                                        join_entities=p["join_entities"]).fit(d["Xtr"], d["ytr"])
            row["test"] = f1(d["yte"], apply_steps([step], d["Xte"], pred))
            row["fit_seconds"] = None  # the numeric row's model
        out[conf] = row
        log(f"crfsuite {conf}: test {row['test']['f1']:.2f} (fit {fit_s:.0f} s)")
    res["crf"] = out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--pos-corpus", default=None,
                    help="POS tagger's corpus (default DATA/../genia-pos/train.tsv)")
    ap.add_argument("--cache", default="/tmp/nerbio-cache")
    ap.add_argument("--stages", default="singletons,select,selected,numeric,patterns")
    ap.add_argument("--crf", default="", help="configurations for the CRFsuite column "
                    "(with --stages ...,crf), e.g. singletons,patterns")
    ap.add_argument("--min-count", type=int, default=3)
    ap.add_argument("--select-epochs", type=int, default=5)
    ap.add_argument("--crf-select-share", type=float, default=0.25,
                    help="share of the training abstracts (dev excluded) for select_crf")
    ap.add_argument("--crf-select-iter", type=int, default=50)
    ap.add_argument("--n-jobs", type=int, default=2)
    ap.add_argument("--chunks", action="store_true",
                    help="add RuleChunker's chunk column (the singletons then read it)")
    ap.add_argument("--select-max-groups", type=int, default=None,
                    help="stage select: stop after adding this many candidates")
    ap.add_argument("--store", action="store_true",
                    help="append stage paper's records to benchmarks/results.jsonl")
    args = ap.parse_args()
    root = os.path.dirname(os.path.abspath(args.data))
    args.pos_corpus = args.pos_corpus or os.path.join(root, "genia-pos", "train.tsv")
    os.makedirs(args.cache, exist_ok=True)
    res_path = os.path.join(args.cache, "results.json")
    res = {}
    if os.path.exists(res_path):
        with open(res_path, encoding="utf-8") as fh:
            res = json.load(fh)
    d = load(args)
    if args.chunks:
        from skbioner.annotate import RuleChunker

        d = {**d, "Xtr": RuleChunker().fit_transform(d["Xtr"]),
             "Xte": RuleChunker().fit_transform(d["Xte"])}
    parts = split(d)
    funcs = {"singletons": stage_singletons, "select": stage_select,
             "select_crf": stage_select_crf, "selected": stage_selected,
             "numeric": stage_numeric, "patterns": stage_patterns, "crf": stage_crf,
             "paper": stage_paper}
    for st in args.stages.split(","):
        if st not in funcs:
            ap.error(f"unknown stage {st!r}; stages: {STAGES}")
        t0 = time.perf_counter()
        funcs[st](d, parts, res, args)
        log(f"stage {st} done in {time.perf_counter() - t0:.0f} s")
        # merge into the file as it is now: another run may have added its stages meanwhile
        on_disk = {}
        if os.path.exists(res_path):
            with open(res_path, encoding="utf-8") as fh:
                on_disk = json.load(fh)
        key = {"crf": "crf"}.get(st, st)
        if key == "crf":
            on_disk.setdefault("crf", {}).update(res["crf"])
        else:
            on_disk[key] = res[key]
        res = {**on_disk, **{k: v for k, v in res.items() if k not in on_disk}}
        with open(res_path, "w", encoding="utf-8") as fh:
            json.dump(on_disk, fh, indent=1)
    table = []
    for conf, paper in PAPER.items():
        if conf in res:
            row = {"config": conf, "paper": paper, "dev": res[conf]["dev"]["f1"],
                   "test": res[conf]["test"]["f1"]}
            if conf in res.get("crf", {}):
                row["crfsuite_test"] = res["crf"][conf]["test"]["f1"]
            table.append(row)
            print(f"{conf:<11} paper {paper:.2f} | OnlinePACRF dev {row['dev']:.2f} test "
                  f"{row['test']:.2f}" + (f" | CRFsuite test {row['crfsuite_test']:.2f}"
                                          if "crfsuite_test" in row else ""))
    res["table"] = table
    print(json.dumps(res))


if __name__ == "__main__":
    main()
