"""Decoding speed of this checkout, side by side with another one (before/after a change).

Times the Viterbi decoding of
  * the default online CRF (BIES + IO folded, 24 labels) over the JNLPBA test set's
    featurizer output (the model's own decode, fused CSR x weights), and
  * the HMM-state clusterer (40 and 160 states) over 20,000 unlabeled sentences,
each the best of --repeat runs after a first (compiling) one, in a child process per
checkout so both run the same way on the same machine:

    git worktree add /tmp/skbioner-before 1128d9e     # the commit before the decoding core
    python benchmarks/archive/decoding.py --data ../shared/data --compare /tmp/skbioner-before

Also checks that both checkouts decode identically (same paths).  Last line of stdout: one
JSON object with both timings and the speed ratios (before / after).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the harness
from harness import run_child


def child(data, repeat, n_sentences):
    from skbioner.annotate import HMMStateClusterer
    from skbioner.datasets import load_jnlpba
    from skbioner.io import read_tokenized
    from skbioner.pipelines import make_tagger

    def best(fn):
        fn()
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            out = fn()
            times.append(time.perf_counter() - t0)
        return min(times), out

    def digest(labels):
        return hashlib.sha1(json.dumps([list(s) for s in labels]).encode()).hexdigest()[:12]

    res = {}
    train = load_jnlpba(f"{data}/jnlpba", "train")
    test = load_jnlpba(f"{data}/jnlpba", "test")
    model = make_tagger("online-crf").fit(train.X, train.y)
    F = model[:-1].transform(test.X)
    seconds, pred = best(lambda: model[-1].predict(F))
    res["chain"] = {"seconds": seconds, "tokens": int(F.n_tokens),
                    "tokens_per_second": F.n_tokens / seconds, "paths": digest(pred)}
    sentences = read_tokenized(f"{data}/unlabeled/biomed-sentences.txt")[:n_sentences]
    n_tok = sum(map(len, sentences))
    for n_states in (40, 160):
        hmm = HMMStateClusterer(n_states=n_states, max_iter=2, tol=None, random_state=0)
        hmm.fit(sentences[:2000])
        seconds, out = best(lambda h=hmm: h.transform(sentences))
        res[f"hmm{n_states}"] = {"seconds": seconds, "tokens": n_tok,
                                 "tokens_per_second": n_tok / seconds,
                                 "paths": digest([s.column("hmm") for s in out])}
    print(json.dumps(res))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--compare", default=None, metavar="CHECKOUT",
                    help="another checkout of skbioner to time side by side")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--sentences", type=int, default=20000)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.data, args.repeat, args.sentences)
        return
    here = Path(__file__).resolve().parents[2]
    runs = {"after": here}
    if args.compare:
        runs = {"before": Path(args.compare).resolve(), **runs}
    out = {}
    for name, root in runs.items():
        os.environ["PYTHONPATH"] = str(root)
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--data", args.data,
               "--repeat", str(args.repeat), "--sentences", str(args.sentences)]
        out[name] = run_child(cmd, f"decoding benchmark in {root}")
        for k, v in out[name].items():
            print(f"{name:6s} {k:6s}: {v['tokens_per_second']:>12,.0f} tokens/s "
                  f"({v['seconds'] * 1e3:.1f} ms for {v['tokens']:,} tokens)", file=sys.stderr)
    if "before" in out:
        out["speedup"] = {k: out["before"][k]["seconds"] / out["after"][k]["seconds"]
                          for k in out["after"]}
        out["identical_paths"] = {k: out["before"][k]["paths"] == out["after"][k]["paths"]
                                  for k in out["after"]}
        print(f"speed-up (before/after): {out['speedup']}; identical paths: "
              f"{out['identical_paths']}", file=sys.stderr)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
