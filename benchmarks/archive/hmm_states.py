"""Benchmark: HMMStateClusterer Baum-Welch on the unlabeled biomedical corpus.

Usage::

    python benchmarks/archive/hmm_states.py              # full corpus, 160 states, 5 iterations
    python benchmarks/archive/hmm_states.py --n-sentences 10000 --max-iter 3

Fits ``HMMStateClusterer(n_states, max_vocab, max_iter, tol=None)`` on the
sentences of ``--data`` (one sentence per line, tokens separated by single
spaces) and reports, per EM iteration, the wall time and the training
log-likelihood, and whether the log-likelihood never decreased (the
"figure": a small text table).  The numba kernels are compiled (or loaded
from their cache) by a tiny fit before the timed one.  Viterbi decoding
(``transform``) is timed on the first ``--decode-sentences`` sentences.

Peer: hmmlearn is not a dependency, so the batched E-step is compared
with a straightforward per-sentence numpy implementation of the same
scaled forward-backward (a Python loop over tokens, numpy over states) on
the first ``--reference-sentences`` sentences, with the same parameters:
both must give the same log-likelihood and expected counts, and the
benchmark prints the speed ratio (on that subset, and against the
per-token rate of the full timed run).

The last line of stdout is one JSON object with all numbers
(``seconds_per_iter`` is the median over the timed iterations).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

TARGET_SECONDS_PER_ITER = 15.0
_DEFAULT_DATA = (
    Path(__file__).resolve().parents[2].parent / "shared" / "data" / "unlabeled"
    / "biomed-sentences.txt"
)  # fmt: skip


def _rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# -- the peer: per-sentence numpy forward-backward -----------------------------------------


def reference_e_step(seqs, start, trans, emit):
    """Scaled forward-backward one sentence at a time (loop over tokens, numpy over states).

    Returns the total log-likelihood and the expected start, transition and
    emission counts (``emit_counts[v, s]``).
    """
    S, V = emit.shape
    c_start, c_trans, c_emit = np.zeros(S), np.zeros((S, S)), np.zeros((V, S))
    loglik = 0.0
    for x in seqs:
        n = len(x)
        alpha = np.empty((n, S))
        c = np.empty(n)
        a = start * emit[:, x[0]]
        c[0] = a.sum()
        alpha[0] = a / c[0]
        for t in range(1, n):
            a = (alpha[t - 1] @ trans) * emit[:, x[t]]
            c[t] = a.sum()
            alpha[t] = a / c[t]
        loglik += np.log(c).sum()
        beta = np.ones(S)
        gamma = np.empty((n, S))
        gamma[n - 1] = alpha[n - 1]
        for t in range(n - 1, 0, -1):
            w = emit[:, x[t]] * beta / c[t]
            c_trans += np.outer(alpha[t - 1], w) * trans
            beta = trans @ w
            gamma[t - 1] = alpha[t - 1] * beta
        c_start += gamma[0]
        np.add.at(c_emit, x, gamma)
    return loglik, c_start, c_trans, c_emit


def _compare_with_reference(hmm_cls, X, args):
    """Same parameters, same sentences: batched E-step vs the per-sentence reference."""
    from threadpoolctl import threadpool_limits

    from skbioner.annotate import _hmm
    from skbioner.annotate._forward_backward import (  # private: times the kernel
        forward_backward,
        make_batches,
    )

    sub = X[: args.reference_sentences]
    init = hmm_cls(n_states=args.n_states, max_vocab=args.max_vocab, max_iter=1, tol=None,
                   random_state=0).fit(sub)
    ids, offsets = init._encode([tuple(s) for s in sub])
    seqs = [ids[offsets[i]:offsets[i + 1]] for i in range(len(sub)) if offsets[i + 1] > offsets[i]]
    start, trans, emit = init.startprob_, init.transmat_, init.emissionprob_
    S, V = emit.shape[0], emit.shape[1]

    with threadpool_limits(limits=1, user_api="blas"):  # both on one core
        t0 = time.perf_counter()
        ref = reference_e_step(seqs, start, trans, emit)
        ref_s = time.perf_counter() - t0
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            acc = (np.zeros(S), np.zeros((S, S)), np.zeros((V, S)))
            ll = 0.0
            emit_t = np.ascontiguousarray(emit.T)
            for b in make_batches(ids, offsets, _hmm._BATCH_TOKENS):
                ll += forward_backward(b, start, trans, emit_t, stats=acc, dtype=_hmm._DTYPE)[0]
            best = min(best, time.perf_counter() - t0)
    n_tok = int(ids.shape[0])
    max_rel = max(
        float(np.abs(a - b).max() / max(np.abs(b).max(), 1e-300))
        for a, b in zip(acc, ref[1:])
    )
    return {
        "n_sentences": len(sub),
        "n_tokens": n_tok,
        "reference_seconds": ref_s,
        "batched_seconds": best,
        "reference_tokens_per_s": n_tok / ref_s,
        "batched_tokens_per_s": n_tok / best,
        "ratio_same_subset": ref_s / best,
        "loglik_reference": ref[0],
        "loglik_batched": ll,
        "loglik_rel_diff": abs(ll - ref[0]) / abs(ref[0]),
        "counts_max_rel_diff": max_rel,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(_DEFAULT_DATA),
                        help="unlabeled sentences, one per line (default: %(default)s)")
    parser.add_argument("--n-states", type=int, default=160)
    parser.add_argument("--max-vocab", type=int, default=10000)
    parser.add_argument("--max-iter", type=int, default=5)
    parser.add_argument("--n-sentences", type=int, default=None, help="use the first N sentences")
    parser.add_argument("--n-jobs", type=int, default=-1,
                        help="threads of HMMStateClusterer (default: all CPUs)")
    parser.add_argument("--decode-sentences", type=int, default=20000,
                        help="sentences decoded (Viterbi) for the transform timing")
    parser.add_argument("--reference-sentences", type=int, default=300,
                        help="sentences of the per-sentence numpy reference comparison")
    args = parser.parse_args(argv)

    from skbioner.annotate import HMMStateClusterer
    from skbioner.io import read_tokenized

    t0 = time.perf_counter()
    X = read_tokenized(args.data, max_sentences=args.n_sentences)
    read_s = time.perf_counter() - t0
    n_tokens = sum(map(len, X))
    rss_loaded = _rss_mb()

    # compile / load the numba kernels outside the timed fit
    t0 = time.perf_counter()
    HMMStateClusterer(n_states=3, max_iter=1, tol=None).fit(X[:50]).transform(X[:5])
    warmup_s = time.perf_counter() - t0

    hmm = HMMStateClusterer(n_states=args.n_states, max_vocab=args.max_vocab,
                            max_iter=args.max_iter, tol=None, n_jobs=args.n_jobs,
                            random_state=0, verbose=1)
    log = io.StringIO()
    load_start = os.getloadavg()[0]
    t0 = time.perf_counter()
    with contextlib.redirect_stderr(log):
        hmm.fit(X)
    fit_s = time.perf_counter() - t0
    timings = re.findall(r"HMM iteration \d+: .*, ([\d.]+) s \(([\d.]+) s CPU\)", log.getvalue())
    iter_s = [float(w) for w, _ in timings]
    iter_cpu = [float(c) for _, c in timings]
    rss_fit = _rss_mb()

    dec = X[: args.decode_sentences]
    dec_tokens = sum(map(len, dec))
    t0 = time.perf_counter()
    out = hmm.transform(dec)
    decode_s = time.perf_counter() - t0
    assert len(out) == len(dec)

    history = [float(v) for v in hmm.history_]
    diffs = np.diff(history)
    monotone = bool(np.all(diffs >= 0))
    seconds_per_iter = statistics.median(iter_s)

    print(f"HMM states: {len(X)} sentences, {n_tokens:,} tokens ({args.data}, read in "
          f"{read_s:.1f} s); {args.n_states} states, {len(hmm.vocabulary_):,} words + "
          f"{hmm.emissionprob_.shape[1] - len(hmm.vocabulary_)} shape classes observed")
    print(f"n_jobs={args.n_jobs} ({os.cpu_count()} CPUs), load average at start "
          f"{load_start:.2f}; numba warm-up {warmup_s:.2f} s; fit {fit_s:.1f} s in total "
          f"(encoding included)")
    print()
    header = (f"{'iter':>4s} {'seconds':>8s} {'CPU s':>7s} {'log-likelihood':>16s} "
              f"{'per token':>10s} {'change':>12s}")
    print(header)
    print("-" * len(header))
    for k, (s, cpu, ll) in enumerate(zip(iter_s, iter_cpu, history)):
        change = "" if k == 0 else f"{ll - history[k - 1]:+12.1f}"
        print(f"{k + 1:4d} {s:8.2f} {cpu:7.2f} {ll:16.1f} {ll / n_tokens:10.5f} {change:>12s}")
    print(f"log-likelihood non-decreasing: {monotone}")
    rate = n_tokens / max(seconds_per_iter, 1e-9)
    print(f"seconds per iteration (median): {seconds_per_iter:.2f} wall "
          f"({rate:,.0f} tokens/s), {statistics.median(iter_cpu):.2f} CPU "
          f"(both threads; wall is inflated when other processes compete for the cores)")
    print(f"Viterbi transform: {len(dec)} sentences, {dec_tokens:,} tokens in {decode_s:.2f} s "
          f"({dec_tokens / decode_s:,.0f} tokens/s)")

    ref = _compare_with_reference(HMMStateClusterer, X, args)
    ours_full_rate = n_tokens / max(seconds_per_iter, 1e-9)
    print()
    print(f"peer: per-sentence numpy forward-backward (one BLAS thread for both), first "
          f"{ref['n_sentences']} sentences, {ref['n_tokens']:,} tokens, same parameters")
    print(f"{'implementation':44s} {'seconds':>8s} {'tokens/s':>11s}")
    print(f"{'per-sentence numpy reference':44s} {ref['reference_seconds']:8.2f} "
          f"{ref['reference_tokens_per_s']:11,.0f}")
    print(f"{'batched (skbioner), same subset, 1 thread':44s} {ref['batched_seconds']:8.2f} "
          f"{ref['batched_tokens_per_s']:11,.0f}")
    print(f"{'batched (skbioner), full run, n_jobs':44s} {seconds_per_iter:8.2f} "
          f"{ours_full_rate:11,.0f}")
    print(f"speed-up on the subset: {ref['ratio_same_subset']:.1f}x; full-run rate over reference "
          f"rate: {ours_full_rate / ref['reference_tokens_per_s']:.1f}x")
    print(f"agreement: log-likelihood rel. diff {ref['loglik_rel_diff']:.2e}, expected counts "
          f"max rel. diff {ref['counts_max_rel_diff']:.2e} (float32 recursions vs float64)")
    met = seconds_per_iter <= TARGET_SECONDS_PER_ITER
    print(f"  [{'met' if met else 'NOT MET'}] <= {TARGET_SECONDS_PER_ITER:.0f} s per EM iteration")
    print(f"peak RSS: {_rss_mb():.0f} MB (after loading the corpus: {rss_loaded:.0f} MB, after "
          f"fit: {rss_fit:.0f} MB)")

    result = {
        "n_sentences": len(X),
        "n_tokens": n_tokens,
        "n_states": args.n_states,
        "max_vocab": args.max_vocab,
        "n_observations": int(hmm.emissionprob_.shape[1]),
        "n_jobs": args.n_jobs,
        "cpu_count": os.cpu_count(),
        "load_average_at_start": load_start,
        "seconds_per_iter": seconds_per_iter,
        "seconds_per_iter_all": iter_s,
        "cpu_seconds_per_iter": statistics.median(iter_cpu),
        "cpu_seconds_per_iter_all": iter_cpu,
        "tokens_per_s": ours_full_rate,
        "fit_seconds": fit_s,
        "warmup_seconds": warmup_s,
        "loglik_history": history,
        "loglik_per_token": [v / n_tokens for v in history],
        "monotone": monotone,
        "decode_tokens": dec_tokens,
        "decode_seconds": decode_s,
        "decode_tokens_per_s": dec_tokens / decode_s,
        "reference": ref,
        "speedup_vs_reference_subset": ref["ratio_same_subset"],
        "speedup_vs_reference_rate": ours_full_rate / ref["reference_tokens_per_s"],
        "target_seconds_per_iter": TARGET_SECONDS_PER_ITER,
        "target_met": met,
        "peak_rss_mb": _rss_mb(),
        "rss_after_load_mb": rss_loaded,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
