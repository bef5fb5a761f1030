"""Pairwise class-split SVM tagger (Kazama et al. 2002) on JNLPBA: after the paper's experiments.

One sub-command per experiment (the annotated corpora are prepared once and cached):

    python benchmarks/pairwise_svm.py prepare --data ../shared/data --cache svm-cache.joblib
    python benchmarks/pairwise_svm.py growth --cache svm-cache.joblib --fraction 0.25 --split pos \
        --test-sentences 1000 --save model.joblib
    python benchmarks/pairwise_svm.py growth --cache svm-cache.joblib --fraction 0.25 --split none
    python benchmarks/pairwise_svm.py tag --cache svm-cache.joblib --model model.joblib
    python benchmarks/pairwise_svm.py ablation --cache svm-cache.joblib --variants best,-cache
    python benchmarks/pairwise_svm.py speed --cache svm-cache.joblib --abstracts 100
    python benchmarks/pairwise_svm.py decoding --cache svm-cache.joblib --abstracts 100
    python benchmarks/pairwise_svm.py full --cache svm-cache.joblib --abstracts 0 \
        --svm-model model.joblib

``prepare``: POS column (the bundled GENIA tagger; training sentences tagged out of fold,
``POSTagger(jackknife=5)`` over the GENIA POS training corpus, whose abstracts are JNLPBA
training abstracts) and HMM-state column (``HMMStateClusterer``, 40 states as the suite's
presets, fitted on the unlabeled corpus) of the training and test sets, cached.

``growth``: after the paper's class-splitting experiment, in our setting (the degree-2 kernel
with the dev-chosen C/gamma and the full ``kazama`` set throughout; docs/benchmarks.md says
what differs from the paper's setting): the first 590 training abstracts
(``--fraction`` of them), polynomial kernel d=2, ``kazama`` features, with and without
splitting ``O`` by part of speech; training seconds (wall and CPU of the process, which
includes the training threads) and official exact F1 on the test set (``--test-sentences``:
its first N sentences); ``--save`` keeps the model and the featurized whole test set for
``tag`` (the whole test set later) and ``full --svm-model``.

``ablation``: the paper's Table 3 layout on the development split (the last 10% of the
training abstracts), the model trained on the first ``--abstracts`` training abstracts.

``speed``: tagging tokens/s of the test set with fast winner finding and support-vector
caching each on and off (outputs checked identical).  ``decoding``: greedy vs Viterbi over
the pairwise-coupled probabilities, F1 and speed.  ``full``: an SVM (trained here on the
first ``--svm-abstracts``, or loaded with ``--svm-model``) beside ``OnlinePACRF`` (the CLI's
default) trained on the first ``--abstracts`` (0: all), official exact/left/right F1 on the
test set.

Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

N_ABSTRACTS = 590  # the paper's training subset (about 134k tokens)
HMM_STATES = 40


def _abstracts(doc_ids, n):
    """Sentence indices of the first ``n`` abstracts."""
    seen, out = {}, []
    for i, d in enumerate(doc_ids):
        if d not in seen:
            if len(seen) == n:
                break
            seen[d] = True
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
    jackknife = True
    try:
        pos = POSTagger(jackknife=5, corpus=os.path.join(args.data, "genia-pos", "train.tsv"),
                        n_jobs=2)
        Xtr = pos.fit_transform(train.X)
    except AttributeError as exc:  # the bundled model cannot be cloned on some versions
        print(f"POS jackknife failed ({exc}); training sentences tagged in-sample", flush=True)
        jackknife = False
        pos = POSTagger(n_jobs=2).fit(train.X)
        Xtr = pos.transform(train.X)
    Xte = pos.transform(test.X)
    t_pos = time.perf_counter() - t0
    print(f"POS: {t_pos:.0f} s", flush=True)
    sentences = read_tokenized(os.path.join(args.data, "unlabeled", "biomed-sentences.txt"))
    hmm = HMMStateClusterer(n_states=HMM_STATES, random_state=0, n_jobs=2,
                            max_iter=args.hmm_iter)
    hmm.fit(sentences)
    Xtr, Xte = hmm.transform(Xtr), hmm.transform(Xte)
    t_all = time.perf_counter() - t0
    joblib.dump({"train": (Xtr, train.y, train.doc_ids), "test": (Xte, test.y, test.doc_ids)},
                args.cache)
    return {"experiment": "prepare", "pos_seconds": round(t_pos, 1),
            "seconds": round(t_all, 1), "pos_jackknife": jackknife, "hmm_states": HMM_STATES,
            "hmm_iter": args.hmm_iter}


def _load(cache):
    import joblib

    d = joblib.load(cache)
    return d["train"], d["test"]


#: the lighter set for the explicit degree-2 map (a token's active features squared): words,
#: POS and HMM at -2..2, affixes of the token itself, word caches k=2 (the earlier default)
LIGHT = {"window": 2, "affix_window": 0, "cache_window": 2}


def _featurize(Xfit, yfit, Xothers, groups=None, min_count=3):
    from skbioner.features import TokenFeaturizer, get_preset

    if groups == "light":
        groups = get_preset("kazama", **LIGHT)
    f = TokenFeaturizer(templates=groups or "kazama", min_count=min_count)
    F = f.fit_transform(Xfit, yfit)
    return F, [f.transform(X) for X in Xothers]


def _official(y_true, y_pred):
    from skbioner.metrics import entity_f1_score

    return {m: round(100 * entity_f1_score(y_true, y_pred, match=m), 2)
            for m in ("exact", "left", "right")}


def _params(args, **extra):
    p = {"C": args.C, "gamma": args.gamma, "coef0": args.coef0, "n_jobs": args.n_jobs,
         "random_state": 0, "cache_size": args.cache_size, "shrinking": not args.no_shrinking,
         "verbose": args.verbose}
    p.update(extra)
    return p


def growth(args):
    from skbioner.models import PairwiseSVMTagger

    (X, y, docs), (Xte, yte, _) = _load(args.cache)
    first = _abstracts(docs, N_ABSTRACTS)
    n_abs = int(round(args.fraction * N_ABSTRACTS))
    idx = _abstracts(docs, n_abs)
    Xs, ys = [X[i] for i in idx], [y[i] for i in idx]
    Xall, yall = Xte, yte
    if args.test_sentences:
        Xte, yte = Xte[:args.test_sentences], yte[:args.test_sentences]
    F, (Fte, Fall) = _featurize(Xs, ys, [Xte, Xall], "light" if args.light else None)
    split = None if args.split == "none" else "pos"
    m = PairwiseSVMTagger(kernel=args.kernel, split_outside=split, **_params(args))
    t0, c0 = time.perf_counter(), time.process_time()
    m.fit(F, ys)
    fit_s, fit_cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"trained in {fit_s:.1f} s ({fit_cpu:.1f} s CPU)", flush=True)
    if args.save:
        import joblib

        joblib.dump({"model": m, "featurized_test": Fall, "y_test": yall}, args.save)
    t0, c0 = time.perf_counter(), time.process_time()
    pred = m.predict(Fte)
    tag_s, tag_cpu = time.perf_counter() - t0, time.process_time() - c0
    # the same predictions scored on the first 1,000 sentences too (runs tagging a subset)
    subset = {"test_first_1000": _official(yte[:1000], pred[:1000])}
    n_tok = sum(map(len, ys))
    return {"experiment": "growth", "tag_tokens_per_s": round(Fte.matrix.shape[0] / tag_s),
            "test_tokens": int(Fte.matrix.shape[0]), "load_average": os.getloadavg(),
            "kernel": args.kernel, "split": args.split,
            "light_templates": args.light,
            "fraction": args.fraction, "abstracts": n_abs, "of_abstracts": len(set(
                docs[i] for i in first)), "tokens": n_tok, "features": F.n_features,
            "classes": len(m.internal_classes_), "pairs": len(m.pairs_),
            "support_vectors_unique": 0 if m.support_vectors_ is None else
            int(m.support_vectors_.shape[0]), "support_vectors_total": m.n_support_total_,
            "train_seconds": round(fit_s, 1), "train_cpu_seconds": round(fit_cpu, 1),
            "tag_seconds": round(tag_s, 1), "tag_cpu_seconds": round(tag_cpu, 1),
            "test_sentences": len(yte), "test": _official(yte, pred), **subset,
            "params": _params(args)}


def tag(args):
    """Tag the whole test set with a model saved by ``growth --save``."""
    import joblib

    d = joblib.load(args.model)
    m, Fte, yte = d["model"], d["featurized_test"], d["y_test"]
    m.set_params(n_jobs=args.n_jobs)
    t0, c0 = time.perf_counter(), time.process_time()
    pred = m.predict(Fte)
    tag_s, tag_cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"experiment": "tag", "model": args.model, "split": m.split_outside,
            "pairs": len(m.pairs_), "test_sentences": len(yte),
            "test_tokens": int(Fte.matrix.shape[0]), "tag_seconds": round(tag_s, 1),
            "tag_cpu_seconds": round(tag_cpu, 1),
            "tag_tokens_per_s": round(Fte.matrix.shape[0] / tag_s),
            "load_average": os.getloadavg(), "test": _official(yte, pred),
            "test_first_1000": _official(yte[:1000], pred[:1000])}


ABLATION = ("best", "-cache", "-hmm", "-pc", "-pos", "-suffix", "-prefix", "+substring")


def _ablation_groups(variant):
    from skbioner.features import get_preset

    groups = get_preset("kazama", substring_max_length=6 if variant == "+substring" else None)
    drop = {"-cache": {"lwc", "rwc"}, "-hmm": {"hmm"}, "-pos": {"pos"}, "-suffix": {"suffix"},
            "-prefix": {"prefix"}}.get(variant, set())
    return [g for g in groups if g.name not in drop]


def ablation(args):
    from skbioner.datasets import train_dev_split
    from skbioner.metrics import entity_f1_score
    from skbioner.models import PairwiseSVMTagger

    (X, y, docs), _ = _load(args.cache)
    fit_idx, dev_idx = train_dev_split(docs)
    allowed = set(_abstracts(docs, args.abstracts))
    fit_idx = [i for i in fit_idx if i in allowed]
    if args.test_sentences:
        dev_idx = dev_idx[:args.test_sentences]
    Xf, yf = [X[i] for i in fit_idx], [y[i] for i in fit_idx]
    Xd, yd = [X[i] for i in dev_idx], [y[i] for i in dev_idx]
    rows = {}
    for variant in args.variants.split(","):
        if variant not in ABLATION:
            raise SystemExit(f"unknown variant {variant}; choose from {ABLATION}")
        F, (Fd,) = _featurize(Xf, yf, [Xd], _ablation_groups(variant))
        m = PairwiseSVMTagger(kernel=args.kernel, history=0 if variant == "-pc" else 2,
                              split_outside=None if args.split == "none" else "pos",
                              **_params(args))
        t0 = time.perf_counter()
        m.fit(F, yf)
        fit_s = time.perf_counter() - t0
        f1 = entity_f1_score(yd, m.predict(Fd))
        rows[variant] = {"dev_f1": round(100 * f1, 2), "train_seconds": round(fit_s, 1),
                         "features": F.n_features}
        print(variant, rows[variant], flush=True)
    return {"experiment": "ablation", "kernel": args.kernel, "abstracts": args.abstracts,
            "split": args.split,
            "fit_sentences": len(fit_idx), "dev_sentences": len(dev_idx), "rows": rows,
            "params": _params(args)}


def _small_model(args, **extra):
    from skbioner.models import PairwiseSVMTagger

    (X, y, docs), (Xte, yte, _) = _load(args.cache)
    idx = _abstracts(docs, args.abstracts)
    Xs, ys = [X[i] for i in idx], [y[i] for i in idx]
    n_test = args.test_sentences or len(Xte)
    Xte, yte = Xte[:n_test], yte[:n_test]
    F, (Fte,) = _featurize(Xs, ys, [Xte], "light" if args.light else None)
    m = PairwiseSVMTagger(kernel=args.kernel, split_outside=None if args.split == "none"
                          else "pos", **_params(args, **extra))
    t0 = time.perf_counter()
    m.fit(F, ys)
    return m, Fte, yte, time.perf_counter() - t0, sum(map(len, ys))


def speed(args):
    m, Fte, yte, fit_s, n_tok = _small_model(args)
    n = Fte.matrix.shape[0]
    rows, ref = {}, None
    for fw in (True, False):
        for sc in (True, False):
            m.set_params(fast_winner=fw, sv_cache=sc)
            t0 = time.perf_counter()
            pred = m.predict(Fte)
            s = time.perf_counter() - t0
            ref = pred if ref is None else ref
            rows[f"fast_winner={fw},sv_cache={sc}"] = {
                "tokens_per_s": round(n / s), "pairs_evaluated_per_token":
                round(float(m.pairs_evaluated(Fte).mean()), 1), "identical": pred == ref}
            print(rows, flush=True)
    return {"experiment": "speed", "abstracts": args.abstracts, "train_tokens": n_tok,
            "light_templates": args.light, "split": args.split,
            "test_tokens": n, "pairs": len(m.pairs_), "support_vectors_unique":
            int(m.support_vectors_.shape[0]), "support_vectors_total": m.n_support_total_,
            "train_seconds": round(fit_s, 1), "rows": rows,
            "test_exact": _official(yte, ref)["exact"]}


def decoding(args):
    m, Fte, yte, fit_s, n_tok = _small_model(args, decoding="viterbi")
    n = Fte.matrix.shape[0]
    rows = {}
    for dec in ("greedy", "viterbi"):
        m.set_params(decoding=dec)
        t0 = time.perf_counter()
        pred = m.predict(Fte)
        s = time.perf_counter() - t0
        rows[dec] = {"test": _official(yte, pred), "tokens_per_s": round(n / s)}
        print(dec, rows[dec], flush=True)
    return {"experiment": "decoding", "abstracts": args.abstracts, "train_tokens": n_tok,
            "test_tokens": n, "train_seconds_with_sigmoids": round(fit_s, 1), "rows": rows}


def full(args):
    from skbioner.models import OnlinePACRF, PairwiseSVMTagger
    from skbioner.pipelines._presets import _model  # private: the preset's model

    (X, y, docs), (Xte, yte, _) = _load(args.cache)
    n = args.abstracts
    if n:
        idx = _abstracts(docs, n)
        X, y = [X[i] for i in idx], [y[i] for i in idx]
    if args.test_sentences:
        Xte, yte = Xte[:args.test_sentences], yte[:args.test_sentences]
    n_tok = sum(map(len, Xte))
    rows = {}
    for name in args.models.split(","):
        t0, c0 = time.perf_counter(), time.process_time()
        if name == "online-crf":
            from skbioner.features import TokenFeaturizer

            f = TokenFeaturizer(templates="chan", min_count=3)
            m = _model("online-crf")
        else:
            from skbioner.features import TokenFeaturizer, get_preset

            f = TokenFeaturizer(templates=get_preset("kazama", **LIGHT) if args.light
                                else "kazama", min_count=3)
            m = PairwiseSVMTagger(kernel=args.kernel, **_params(
                args, split_outside=None if args.split == "none" else "pos"))
        Xm, ym = X, y
        if name != "online-crf" and args.svm_abstracts:
            idx = _abstracts(docs, args.svm_abstracts)
            Xm, ym = [X[i] for i in idx], [y[i] for i in idx]
        saved = None
        if name != "online-crf" and args.svm_model:
            # a model trained by ``growth --save`` (its training time is in that run's JSON)
            import joblib

            saved = joblib.load(args.svm_model)
            m, fit_s, fit_cpu, ym = saved["model"], None, None, []
            if len(saved["y_test"]) != len(yte):
                raise SystemExit("--svm-model was saved with another test set")
        else:
            m.fit(f.fit_transform(Xm, ym), ym)
            fit_s, fit_cpu = time.perf_counter() - t0, time.process_time() - c0
        t0 = time.perf_counter()
        pred = m.predict(saved["featurized_test"] if saved else f.transform(Xte))
        tag_s = time.perf_counter() - t0
        rows[name] = {"test": _official(yte, pred),
                      "train_seconds": None if saved else round(fit_s, 1),
                      "train_cpu_seconds_this_process": None if saved else round(fit_cpu, 1),
                      "train_tokens": sum(map(len, ym)), "tag_seconds": round(tag_s, 1),
                      "tokens_per_s": round(n_tok / tag_s), "load_average": os.getloadavg()}
        print(name, rows[name], flush=True)
    assert OnlinePACRF and PairwiseSVMTagger
    return {"experiment": "full", "abstracts": n or "all", "kernel": args.kernel,
            "svm_abstracts": args.svm_abstracts or n or "all", "svm_model": args.svm_model,
            "test_sentences": len(yte),
            "light_templates": args.light,
            "split": args.split, "rows": rows, "params": _params(args)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--data", default="../shared/data")
    p.add_argument("--hmm-iter", type=int, default=20)
    p = sub.add_parser("tag")
    p.add_argument("--model", required=True, help="a file written by growth --save")
    p.add_argument("--n-jobs", type=int, default=1)
    for name in ("growth", "ablation", "speed", "decoding", "full"):
        q = sub.add_parser(name)
        q.add_argument("--kernel", default="poly", choices=("poly", "linear", "poly2-hashed"))
        q.add_argument("--C", type=float, default=30.0)
        q.add_argument("--gamma", type=float, default=0.002)
        q.add_argument("--coef0", type=float, default=1.0)
        q.add_argument("--split", default="pos", choices=("pos", "none"))
        q.add_argument("--fraction", type=float, default=1.0)
        q.add_argument("--abstracts", type=int, default=100)
        q.add_argument("--test-sentences", type=int, default=0)
        q.add_argument("--variants", default=",".join(ABLATION))
        q.add_argument("--models", default="online-crf,pairwise-svm")
        q.add_argument("--n-jobs", type=int, default=2)
        q.add_argument("--save", default="",
                       help="growth: dump the fitted model and the featurized test set here")
        q.add_argument("--cache-size", type=float, default=2000,
                       help="libsvm kernel cache (MB) per binary SVM")
        q.add_argument("--no-shrinking", action="store_true")
        q.add_argument("--verbose", type=int, default=0)
        q.add_argument("--svm-model", default="",
                       help="full: tag with a model saved by growth --save instead of training")
        q.add_argument("--svm-abstracts", type=int, default=0,
                       help="full: the SVM on the first N training abstracts only "
                            "(the CRF on all of them)")
        q.add_argument("--light", action="store_true",
                       help="the lighter kazama set (LIGHT), e.g. for kernel=poly2-hashed")
    for q in sub.choices.values():
        q.add_argument("--cache", default="svm-cache.joblib")
    args = ap.parse_args(argv)
    out = {"prepare": prepare, "tag": tag, "growth": growth, "ablation": ablation, "speed": speed,
           "decoding": decoding, "full": full}[args.cmd](args)
    out["command"] = "python benchmarks/pairwise_svm.py " + " ".join(sys.argv[1:])
    print(json.dumps(out))


if __name__ == "__main__":
    main()
