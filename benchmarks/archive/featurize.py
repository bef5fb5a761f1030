"""Benchmark: TokenFeaturizer vs a per-token dict featurizer + DictVectorizer.

Usage::

    python benchmarks/archive/featurize.py --train /path/to/train.iob2 [--limit N] [--repeat R]

Both featurizers use the Chan/Settles template set ("chan" preset): words at
-2..+2, word bigrams and trigrams, prefixes/suffixes 1..5, word class, brief
word class, orthographic flags and length bucket at -1..+1.  The dict
featurizer is written the way sklearn-crfsuite users write it
(``word2features(sent, i)`` returning a dict per token), then
:class:`sklearn.feature_extraction.DictVectorizer` builds the matrix; both
steps are timed.  It produces exactly the same feature names, which the
benchmark checks.

Every featurizer runs in a fresh child process so that its peak RSS
(``getrusage(RUSAGE_SELF).ru_maxrss``) is its own; the child's RSS after
loading the corpus is reported as the baseline.  For ours the peak covers
``fit_transform`` and then ``transform`` with the training features still
in memory (two outputs alive); the JSON also has the peak after the first
``fit_transform`` alone.  Times are the median of
``--repeat`` runs (the dict featurizer runs once unless ``--dict-repeat``).
The last line of stdout is one JSON object with all numbers.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the harness
from harness import run_child

from skbioner.features import brief_word_class, length_bucket, orthographic_flags, word_class

TARGET_RATIO = 20.0
TARGET_TOKENS_PER_S = 300_000
TARGET_RSS_MB = 1024.0


# -- data -----------------------------------------------------------------------------


def _parse_iob2(path):
    """Minimal JNLPBA reader: ``token<TAB>label`` lines, blank lines between sentences."""
    X, y, words, labels = [], [], [], []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\r\n")
            if not line or line.startswith("###MEDLINE:"):
                if words:
                    X.append(words)
                    y.append(labels)
                    words, labels = [], []
                continue
            token, _, label = line.partition("\t")
            words.append(token)
            labels.append(label)
    if words:
        X.append(words)
        y.append(labels)
    return X, y


def load(path, limit=None):
    try:
        from skbioner.io import read_jnlpba
    except ImportError:
        X, y = _parse_iob2(path)
        reader = "local parser"
    else:
        corpus = read_jnlpba(path)
        X, y = corpus.X, corpus.y
        reader = "skbioner.io.read_jnlpba"
    if limit is not None:
        X, y = X[:limit], y[:limit]
    return X, y, reader


def _rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# -- the per-token dict featurizer (sklearn-crfsuite style) -----------------------------


def word2features(sent, i):
    """Chan/Settles features of token ``i`` as a dict, one token at a time."""
    n = len(sent)

    def w(j):
        if j < 0:
            return "<BOS>"
        if j >= n:
            return "<EOS>"
        return sent[j]

    word = sent[i]
    f = {}
    for k in (-2, -1, 0, 1, 2):
        f[f"w[{k}]"] = w(i + k)
    f["w[-2]&w[-1]"] = w(i - 2) + "|" + w(i - 1)
    f["w[-1]&w[0]"] = w(i - 1) + "|" + word
    f["w[0]&w[1]"] = word + "|" + w(i + 1)
    f["w[1]&w[2]"] = w(i + 1) + "|" + w(i + 2)
    f["w[-2]&w[-1]&w[0]"] = w(i - 2) + "|" + w(i - 1) + "|" + word
    f["w[-1]&w[0]&w[1]"] = w(i - 1) + "|" + word + "|" + w(i + 1)
    f["w[0]&w[1]&w[2]"] = word + "|" + w(i + 1) + "|" + w(i + 2)
    for m in (1, 2, 3, 4, 5):
        if len(word) >= m:
            f[f"pre{m}[0]"] = word[:m]
            f[f"suf{m}[0]"] = word[-m:]
    for k in (-1, 0, 1):
        j = i + k
        if 0 <= j < n:
            t = sent[j]
            f[f"wc[{k}]"] = word_class(t)
            f[f"bwc[{k}]"] = brief_word_class(t)
            f[f"len[{k}]"] = length_bucket(t)
            for flag in orthographic_flags(t):
                f[f"orth[{k}]={flag}"] = 1
        else:
            pad = w(j)
            f[f"wc[{k}]"] = pad
            f[f"bwc[{k}]"] = pad
            f[f"len[{k}]"] = pad
    return f


def sent2features(sent):
    return [word2features(sent, i) for i in range(len(sent))]


# -- workers (run in a child process) ---------------------------------------------------


class _Clock:
    """Wall-clock and process CPU time of a block."""

    def __enter__(self):
        self._wall = time.perf_counter()
        self._cpu = time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self._wall
        self.cpu = time.process_time() - self._cpu


def _median_times(clocks):
    return statistics.median(c.wall for c in clocks), statistics.median(c.cpu for c in clocks)


def _worker(args):
    import numpy as np

    X, y, reader = load(args.train, args.limit)
    n_tokens = sum(len(s) for s in X)
    gc.collect()
    out = {"featurizer": args.worker, "reader": reader, "n_sentences": len(X),
           "n_tokens": n_tokens, "rss_after_load_mb": _rss_mb()}  # fmt: skip

    if args.worker in ("vocabulary", "hashing"):
        from skbioner.features import TokenFeaturizer

        n_features = None if args.worker == "vocabulary" else 2**20
        with _Clock() as warm:
            TokenFeaturizer(n_features=n_features).fit_transform(X[:50])  # load numba kernels
        out["warmup_s"] = warm.wall
        fits, transforms = [], []
        Xt = None
        for i in range(args.repeat):
            del Xt  # one fitted output alive at a time (peak RSS of one featurization)
            f = TokenFeaturizer(templates="chan", n_features=n_features, min_count=1)
            with _Clock() as c:
                Xt = f.fit_transform(X)
            fits.append(c)
            if i == 0:
                out["peak_rss_fit_transform_mb"] = _rss_mb()
            with _Clock() as c:  # realistic: the training features stay in memory
                Xt2 = f.transform(X)
            transforms.append(c)
            same = (Xt.matrix != Xt2.matrix).nnz == 0
            del Xt2
        out["fit_transform_s"], out["fit_transform_cpu_s"] = _median_times(fits)
        out["transform_s"], out["transform_cpu_s"] = _median_times(transforms)
        out["fit_transform_s_all"] = [c.wall for c in fits]
        out["transform_s_all"] = [c.wall for c in transforms]
        out["fit_transform_equals_transform"] = bool(same)
        out["n_columns"] = int(Xt.matrix.shape[1])
        out["active_features"] = int(np.unique(Xt.matrix.indices).size)
        out["nnz"] = int(Xt.matrix.nnz)
        if args.names_out:
            with open(args.names_out, "w", encoding="utf-8") as fh:
                fh.write("\n".join(f.get_feature_names_out()))
    elif args.worker == "dict":
        from sklearn.feature_extraction import DictVectorizer

        builds, vecs = [], []
        for _ in range(args.dict_repeat):
            with _Clock() as c:
                dicts = [d for s in X for d in sent2features(s)]
            builds.append(c)
            vec = DictVectorizer(dtype=np.float32, sparse=True)
            with _Clock() as c:
                M = vec.fit_transform(dicts)
            vecs.append(c)
            del dicts
        out["build_s"], out["build_cpu_s"] = _median_times(builds)
        out["vectorize_s"], out["vectorize_cpu_s"] = _median_times(vecs)
        out["fit_transform_s"] = out["build_s"] + out["vectorize_s"]
        out["fit_transform_cpu_s"] = out["build_cpu_s"] + out["vectorize_cpu_s"]
        out["n_columns"] = int(M.shape[1])
        out["active_features"] = int(M.shape[1])
        out["nnz"] = int(M.nnz)
        if args.names_out:
            with open(args.names_out, "w", encoding="utf-8") as fh:
                fh.write("\n".join(vec.get_feature_names_out()))
    out["peak_rss_mb"] = _rss_mb()
    print(json.dumps(out))


def _run_child(kind, args, names_out=None):
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", kind, "--train", args.train,
           "--repeat", str(args.repeat), "--dict-repeat", str(args.dict_repeat)]  # fmt: skip
    if args.limit is not None:
        cmd += ["--limit", str(args.limit)]
    if names_out:
        cmd += ["--names-out", names_out]
    return run_child(cmd, f"worker {kind!r}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", required=True, help="JNLPBA train.iob2")
    parser.add_argument("--limit", type=int, default=None, help="use the first N sentences")
    parser.add_argument("--repeat", type=int, default=3, help="runs of ours (median)")
    parser.add_argument("--dict-repeat", type=int, default=1, help="runs of the dict featurizer")
    parser.add_argument(
        "--worker", choices=["vocabulary", "hashing", "dict"], help=argparse.SUPPRESS
    )
    parser.add_argument("--names-out", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args)
        return

    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        ours_names = os.path.join(tmp, "ours.txt")
        dict_names = os.path.join(tmp, "dict.txt")
        vocab = _run_child("vocabulary", args, ours_names)
        hashing = _run_child("hashing", args)
        dct = _run_child("dict", args, dict_names)
        with open(ours_names, encoding="utf-8") as fh:
            a = set(fh.read().split("\n"))
        with open(dict_names, encoding="utf-8") as fh:
            b = set(fh.read().split("\n"))
        same_features = a == b

    n = vocab["n_tokens"]
    V, H, D = vocab, hashing, dct
    rows = [
        ("skbioner vocabulary, fit_transform", V["fit_transform_s"], V["fit_transform_cpu_s"],
         V["peak_rss_fit_transform_mb"], V["active_features"], V["nnz"]),
        ("skbioner vocabulary, transform", V["transform_s"], V["transform_cpu_s"],
         V["peak_rss_mb"], V["active_features"], V["nnz"]),
        ("skbioner hashing 2**20, fit_transform", H["fit_transform_s"], H["fit_transform_cpu_s"],
         H["peak_rss_fit_transform_mb"], H["active_features"], H["nnz"]),
        ("skbioner hashing 2**20, transform", H["transform_s"], H["transform_cpu_s"],
         H["peak_rss_mb"], H["active_features"], H["nnz"]),
        ("dict: word2features (build dicts)", D["build_s"], D["build_cpu_s"], None, None, None),
        ("dict: DictVectorizer.fit_transform", D["vectorize_s"], D["vectorize_cpu_s"],
         None, None, None),
        ("dict: total", D["fit_transform_s"], D["fit_transform_cpu_s"], D["peak_rss_mb"],
         D["active_features"], D["nnz"]),
    ]  # fmt: skip
    print(
        f"JNLPBA training set: {V['n_sentences']} sentences, {n} tokens "
        f"(reader: {V['reader']}); Chan/Settles templates, min_count=1"
    )
    loaded = f"{V['rss_after_load_mb']:.0f} MB (ours), {D['rss_after_load_mb']:.0f} MB (dict)"
    print(f"peak RSS: per featurizer, fresh child process; RSS after loading the corpus: {loaded}")
    print(
        "  (ours: fit_transform row = peak after the first fit_transform; transform row = "
        "peak of the whole run, training and test features both in memory)"
    )
    print(
        f"times: median of {args.repeat} runs (ours), {args.dict_repeat} run(s) (dict); "
        f"numba warm-up before timing: {V['warmup_s']:.2f} s; load average at start: "
        f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
    )
    print()
    header = (
        f"{'featurizer':38s} {'wall s':>7s} {'CPU s':>7s} {'tokens/s':>10s} {'tok/CPU-s':>10s} "
        f"{'peak RSS MB':>11s} {'active feats':>12s} {'nnz':>11s}"
    )
    print(header)
    print("-" * len(header))

    def cell(v, fmt, width):
        return f"{'' if v is None else format(v, fmt):>{width}s}"

    for name, t, cpu, rss, feats, nnz in rows:
        print(
            f"{name:38s} {t:7.2f} {cpu:7.2f} {n / t:10,.0f} {n / cpu:10,.0f} "
            f"{cell(rss, ',.0f', 11)} {cell(feats, ',', 12)} {cell(nnz, ',', 11)}"
        )
    print()
    ratio_vocab = D["fit_transform_s"] / V["fit_transform_s"]
    ratio_hash = D["fit_transform_s"] / H["fit_transform_s"]
    ratio_vocab_cpu = D["fit_transform_cpu_s"] / V["fit_transform_cpu_s"]
    ratio_hash_cpu = D["fit_transform_cpu_s"] / H["fit_transform_cpu_s"]
    print(
        f"speed-up ours/dict (fit_transform tokens/s): vocabulary {ratio_vocab:.1f}x wall "
        f"({ratio_vocab_cpu:.1f}x CPU), hashing {ratio_hash:.1f}x wall ({ratio_hash_cpu:.1f}x CPU)"
    )
    print(f"same feature set as the dict featurizer: {same_features}")
    checks = {
        f"ratio >= {TARGET_RATIO:.0f}x (vocabulary, wall)": ratio_vocab >= TARGET_RATIO,
        f"ratio >= {TARGET_RATIO:.0f}x (hashing, wall)": ratio_hash >= TARGET_RATIO,
        f">= {TARGET_TOKENS_PER_S:,} tokens/s (vocabulary fit_transform, wall)":
            n / V["fit_transform_s"] >= TARGET_TOKENS_PER_S,
        f">= {TARGET_TOKENS_PER_S:,} tokens/s (hashing fit_transform, wall)":
            n / H["fit_transform_s"] >= TARGET_TOKENS_PER_S,
        f"peak RSS < {TARGET_RSS_MB:.0f} MB (vocabulary)": V["peak_rss_mb"] < TARGET_RSS_MB,
        f"peak RSS < {TARGET_RSS_MB:.0f} MB (hashing)": H["peak_rss_mb"] < TARGET_RSS_MB,
    }  # fmt: skip
    for name, ok in checks.items():
        print(f"  [{'met' if ok else 'NOT MET'}] {name}")
    result = {
        "n_sentences": vocab["n_sentences"],
        "n_tokens": n,
        "repeat": args.repeat,
        "vocabulary": vocab,
        "hashing": hashing,
        "dict": dct,
        "tokens_per_s": {
            "vocabulary_fit_transform": n / V["fit_transform_s"],
            "vocabulary_transform": n / V["transform_s"],
            "hashing_fit_transform": n / H["fit_transform_s"],
            "hashing_transform": n / H["transform_s"],
            "dict_total": n / D["fit_transform_s"],
            "dict_build_only": n / D["build_s"],
        },
        "tokens_per_cpu_s": {
            "vocabulary_fit_transform": n / V["fit_transform_cpu_s"],
            "vocabulary_transform": n / V["transform_cpu_s"],
            "hashing_fit_transform": n / H["fit_transform_cpu_s"],
            "hashing_transform": n / H["transform_cpu_s"],
            "dict_total": n / D["fit_transform_cpu_s"],
        },
        "ratio_vocabulary": ratio_vocab,
        "ratio_hashing": ratio_hash,
        "ratio_vocabulary_cpu": ratio_vocab_cpu,
        "ratio_hashing_cpu": ratio_hash_cpu,
        "load_average_at_start": os.getloadavg()[0],
        "same_feature_set": same_features,
        "targets_met": checks,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
