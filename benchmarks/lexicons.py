"""Typed lexicons as features: which types help, on the development data of each corpus.

    python benchmarks/lexicons.py --data ../shared/data --corpora jnlpba,bionlp13cg,bc5cdr \\
        [--variants none,all,-gene,...] [--window 1] [--store]
    python benchmarks/lexicons.py --data ../shared/data --corpora jnlpba --test \\
        --types gene,protein [--store]
    python benchmarks/lexicons.py --data ../shared/data --speed [--store]

Trains the online-crf preset's model (``OnlinePACRF``, BIES + IO, C=0.1, 10 epochs, no
calibration, which changes no label) on the Chan/Settles features plus the ``lex`` column
of :class:`skbioner.annotate.LexiconMatcher` (the bundled lexicons, the variant's types) at
``-window..window``, on the ``fit`` split, and scores the ``dev`` split (JNLPBA: the last 10%
of the training abstracts; BioNLP13CG and BC5CDR: their devel files).  A variant is
``none`` (no lexicon), ``all`` (every type), ``-TYPE`` (every type but one) or ``+TYPE``
(that type alone); the default runs none, all and every ``-TYPE``.  Test files are read only
with ``--test``, which trains on the training file the configuration ``--types`` names
(and, beside it, the preset without lexicons) and scores the test file once.

``--speed`` measures the matcher itself on one core: the bundled lexicons read and compiled
(seconds and peak resident memory, in a fresh process), and the columns of every type added to
the JNLPBA training file (CPU seconds: the compiled look-up alone, and ``transform`` whole);
then the online-crf preset (no calibration) with and without ``lexicons="bundled"`` side by
side on the ``--corpora`` (default JNLPBA): training and tagging CPU seconds, matching
included, and their ratios.

Each record also says how many names of the scored file's entities the lexicons hold
(``entities_in_lexicons``: an entity whose whole span is one lexicon match of any type).
Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse

import harness

WINDOW = 1


def templates(types, window):
    """The chan preset's groups, its lexicon group read at ``-window..window`` (none without
    ``types``)."""
    from skbioner.features import FeatureGroup, get_preset

    groups = [g for g in get_preset("chan") if g.name != "lexicon"]
    offsets = tuple(range(-window, window + 1))
    return groups + [FeatureGroup("lexicon", "lexicon", offsets)] * bool(types)


def variants(spec, kinds):
    out = {}
    for v in spec.split(","):
        v = v.strip()
        if v == "none":
            out[v] = ()
        elif v == "all":
            out[v] = tuple(kinds)
        elif v.startswith("-"):
            out[v] = tuple(k for k in kinds if k != v[1:])
        elif v.startswith("+"):
            out[v] = tuple(t for t in v[1:].split("+"))
        else:
            raise SystemExit(f"unknown variant {v!r}")
    return out


def covered(split, annotated, kinds):
    """Entities of ``split`` whose span is exactly one lexicon match (any type)."""
    from skbioner.schemes import labels_to_spans

    hit = total = 0
    for s, labels in zip(annotated, split.y):
        lex = [dict(v.split(":") for v in x.split(" ")) if x != "O" else {}
               for x in s.column("lex")]
        for _, a, b in labels_to_spans(labels, "IOB2"):
            total += 1
            codes = ["S"] if b - a == 1 else ["B", *["I"] * (b - a - 2), "E"]
            hit += any(all(lex[i].get(k) == c for i, c in zip(range(a, b), codes))
                       for k in kinds)
    return hit, total


def run(corpus, fit, score, types, window, annotated_fit, annotated_score, data, seed=0):
    from skbioner.features import TokenFeaturizer
    from skbioner.models import OnlinePACRF
    from skbioner.pipelines import TaggerPipeline

    model = TaggerPipeline([
        ("features", TokenFeaturizer(templates=templates(types, window), min_count=3)),
        ("model", OnlinePACRF(scheme="BIES", extra_schemes=("IO",), C=0.1, max_iter=10,
                              random_state=seed, n_jobs=1))])
    with harness.Stopwatch() as sw:
        model.fit(annotated_fit, fit.y)
    pred, speed = harness.tagging_speed(model, annotated_score, passes=1)
    return model, sw.wall, speed, harness.evaluate(score, pred, data)


def _build():
    """Child process: the bundled lexicons read and compiled, with an empty cache."""
    import os
    import tempfile
    import time

    from skbioner.annotate import LexiconMatcher

    with tempfile.TemporaryDirectory() as cache:
        os.environ["SKBIONER_CACHE"] = cache  # compiled here, not read from a cache
        before = harness.peak_rss_mb()
        t = time.perf_counter()
        m = LexiconMatcher().fit()
        seconds = time.perf_counter() - t
    return {"build_seconds": seconds, "rss_before_mb": before,
            "names": int(sum(m.n_names_.values()))}


def measure_speed(args):
    import time

    import numpy as np

    from skbioner.annotate import LexiconMatcher, normalize_name
    from skbioner.annotate._lexicon import word_flags  # private: the look-up timed alone
    from skbioner.annotate._lexicon_kernel import match_tokens  # private: timed alone
    from skbioner.features._corpus import factorize  # private: the look-up timed alone

    built = harness.isolated(_build)
    m = LexiconMatcher().fit()
    X = harness.load("jnlpba", "train", args.data).X
    n = sum(map(len, X))
    words, ids = factorize([w for s in X for w in s])
    keys = [normalize_name(w) for w in words]
    offsets = np.cumsum([0] + [len(s) for s in X])
    table, kinds = m._compiled()
    best_kernel = best_transform = float("inf")
    for _ in range(3):
        t = time.process_time()
        match_tokens(ids, keys, word_flags(words), offsets, table, len(kinds))
        best_kernel = min(best_kernel, time.process_time() - t)
        t = time.process_time()
        m.transform(X)
        best_transform = min(best_transform, time.process_time() - t)
    rec = harness.record("lexicons", "LexiconMatcher (bundled, every type)", "jnlpba", "train",
                         names=built["names"], build_seconds=built["build_seconds"],
                         build_peak_rss_mb=built["peak_rss_mb"],
                         rss_before_build_mb=built["rss_before_mb"], tokens=n,
                         kernel_tokens_per_cpu_second=n / best_kernel,
                         transform_tokens_per_cpu_second=n / best_transform)
    print(f"{built['names']:,} names compiled in {built['build_seconds']:.1f} s, peak RSS "
          f"{built['peak_rss_mb']:.0f} MB ({built['rss_before_mb']:.0f} MB before); {n:,} "
          f"tokens: look-up {n / best_kernel:,.0f} tokens/CPU s, transform "
          f"{n / best_transform:,.0f} tokens/CPU s", flush=True)
    records = [rec]
    from skbioner.pipelines import make_tagger

    for corpus in harness.corpus_names(args.corpora):
        fit = harness.load(corpus, "fit", args.data)
        dev = harness.load(corpus, "dev", args.data)
        m = sum(map(len, dev.X))
        cpu = {}
        for lexicons in (None, "bundled"):
            model = make_tagger(lexicons=lexicons, model_params={"calibrate": False}, n_jobs=1)
            t = time.process_time()
            model.fit(fit.X, fit.y)
            train = time.process_time() - t
            model.predict(dev.X[:50])
            tag = float("inf")
            for _ in range(3):
                t = time.process_time()
                model.predict(dev.X)
                tag = min(tag, time.process_time() - t)
            cpu[lexicons] = (train, tag)
        (t0, g0), (t1, g1) = cpu[None], cpu["bundled"]
        records.append(harness.record(
            "lexicons", "online-crf with and without lexicons=bundled (CPU seconds)", corpus,
            "dev", train_cpu_seconds=t0, train_cpu_seconds_lexicons=t1, train_ratio=t1 / t0,
            tag_tokens_per_cpu_second=m / g0, tag_tokens_per_cpu_second_lexicons=m / g1,
            tag_speed_ratio=g0 / g1))
        print(f"{corpus}: training {t0:.1f} -> {t1:.1f} CPU s ({t1 / t0:.2f}x); tagging "
              f"{m / g0:,.0f} -> {m / g1:,.0f} tokens/CPU s ({g0 / g1:.2f}x)", flush=True)
    harness.finish(records, args)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    harness.add_arguments(ap)
    ap.add_argument("--variants", default=None)
    ap.add_argument("--window", type=int, default=WINDOW)
    ap.add_argument("--test", action="store_true",
                    help="train on the training file and score the test file once, for --types")
    ap.add_argument("--types", default=None, help="with --test: the chosen types (comma list)")
    ap.add_argument("--speed", action="store_true", help="the matcher's own speed and memory")
    ap.add_argument("--seeds", default="0",
                    help="random states of the model (its order of training sentences), "
                         "comma-separated: several measure the noise of a dev difference")
    args = ap.parse_args()
    if args.speed:
        return measure_speed(args)

    from skbioner.annotate import LexiconMatcher

    with harness.Stopwatch() as sw:
        matcher = LexiconMatcher().fit()
    print(f"lexicons loaded and compiled in {sw.wall:.1f} s: {matcher.n_names_}", flush=True)
    kinds = matcher.types_
    matcher.transform([["warm", "up"]])  # compiles (or loads) the kernels before timing
    records = []
    for corpus in harness.corpus_names(args.corpora):
        fit_split, score_split = ("train", "test") if args.test else ("fit", "dev")
        fit = harness.load(corpus, fit_split, args.data)
        score = harness.load(corpus, score_split, args.data)
        n_tokens = sum(map(len, score.X))
        with harness.Stopwatch() as sw:
            annotated_score = matcher.transform(score.X)
        match_speed = n_tokens / sw.wall
        hit, total = covered(score, annotated_score, kinds)
        print(f"{corpus} {score_split}: lexicons matched at {match_speed:,.0f} tokens/s; "
              f"{hit}/{total} entities are a lexicon match", flush=True)
        if args.test:
            todo = {"none": (), "chosen": tuple(t for t in (args.types or "").split(",") if t)}
        else:
            spec = args.variants or ",".join(["none", "all", *(f"-{k}" for k in kinds)])
            todo = variants(spec, kinds)
        seeds = [int(x) for x in args.seeds.split(",")]
        for name, types in todo.items():
            # each variant's types only, as LexiconMatcher(types=...) marks them
            only = LexiconMatcher(types=list(types)).fit() if types else None
            X_fit = only.transform(fit.X) if only else fit.X
            X_score = only.transform(score.X) if only else score.X
            for seed in seeds:
                model, seconds, speed, scores = run(corpus, fit, score, types, args.window,
                                                    X_fit, X_score, args.data, seed)
                label = (f"online-crf lexicons={name} ({'+'.join(types) or 'none'})"
                         + (f" window {args.window}" if args.window != WINDOW else ""))
                rec = harness.record(
                    "lexicons", label + (f" seed {seed}" if seed else ""), corpus,
                    "test" if args.test else "dev", types=list(types), window=args.window,
                    random_state=seed,
                    train_seconds=seconds, tag_tokens_per_second=speed,
                    match_tokens_per_second=match_speed, entities_in_lexicons=hit,
                    entities=total, **scores)
                records.append(rec)
                print(f"{corpus} {name:>22} seed {seed}: exact F1 {100 * scores['exact_f1']:.2f} "
                      f"(train {seconds:.0f} s, tag {speed:,.0f} tokens/s)", flush=True)
    harness.finish(records, args)


if __name__ == "__main__":
    main()
