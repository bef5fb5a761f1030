"""Raw-text tagging and tokenizing throughput of two checkouts, measured pass by pass.

    python benchmarks/archive/compare_throughput.py --checkouts ../wt-base,. --model bundled
    python benchmarks/archive/compare_throughput.py --checkouts ../wt-base,. --model cascaded.skops

On a machine shared with other work, whole benchmark runs minutes apart see different
loads (``compare_checkouts.py`` runs of ``tag_raw.py`` varied tenfold between rounds).
Here one long-lived process per checkout (``PYTHONPATH`` set to it) loads the model
(``skbioner.load_model``, as ``skbioner tag`` does) and the 404 JNLPBA test abstracts once,
tags them once to warm up, and then, on command, runs one timed pass: ``tag`` --
``skbioner.tagging.tag_documents`` in this process (``n_jobs=1``: tokenize, featurize,
decode with confidences, entities), or ``tokenize`` -- ``BioTokenizer().tokenize_text``
alone.  The processes take turns pass by pass (the order alternating each round), so both
see nearly the same load; the medians and the best passes are compared.  Set
``NUMBA_NUM_THREADS=1`` for one core; ``--clock cpu`` rates each pass by the process's
CPU seconds instead of wall-clock seconds (on a loaded machine a pass also waits for a
core, which CPU time does not count).  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from skbioner.tagging import Document, tag_documents
from skbioner import load_model
from skbioner.tagging import BUNDLED_MODEL
from skbioner.text import BioTokenizer
model_arg, data = sys.argv[1], Path(sys.argv[2])
model = load_model(None if model_arg == "bundled" else model_arg)
docs = [Document(p.stem, p.read_text(encoding="utf-8"), str(p))
        for p in sorted((data / "test-standoff").glob("*.txt"))]
tok = BioTokenizer()
n = sum(r.n_tokens for r in tag_documents(model, docs))
for d in docs:
    tok.tokenize_text(d.text)
print(json.dumps({"ready": n}), flush=True)
for line in sys.stdin:
    cmd = line.strip()
    t0, c0 = time.perf_counter(), time.process_time()
    if cmd == "tag":
        k = sum(r.n_tokens for r in tag_documents(model, docs))
    elif cmd == "tokenize":
        k = sum(len(s) for d in docs for s in tok.tokenize_text(d.text)[0])
    else:
        break
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    print(json.dumps({"tokens": k, "seconds": dt, "cpu_seconds": dc,
                      "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}),
          flush=True)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkouts", required=True, help="two comma-separated checkout paths")
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--model", default="bundled", help="'bundled' or a model file")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--what", default="tag,tokenize")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall-clock seconds per pass, or the process's CPU seconds (less "
                         "sensitive to other jobs on a loaded machine; set NUMBA_NUM_THREADS=1 "
                         "so that CPU seconds are one core's)")
    args = ap.parse_args()
    checkouts = [os.path.abspath(c) for c in args.checkouts.split(",")]
    model = args.model if args.model == "bundled" else os.path.abspath(args.model)
    procs = {}
    for c in checkouts:
        env = {**os.environ, "PYTHONPATH": c}
        procs[c] = subprocess.Popen(
            [sys.executable, "-c", CHILD, model, os.path.abspath(args.data)], env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd="/")
    for c, p in procs.items():
        print(f"{c}: {json.loads(p.stdout.readline())['ready']} tokens per pass", flush=True)
    what = args.what.split(",")
    clock = "cpu_seconds" if args.clock == "cpu" else "seconds"
    rates = {w: {c: [] for c in checkouts} for w in what}
    rss = {}
    try:
        for r in range(args.rounds):
            order = checkouts if r % 2 == 0 else checkouts[::-1]
            for w in what:
                for c in order:
                    p = procs[c]
                    p.stdin.write(w + "\n")
                    p.stdin.flush()
                    res = json.loads(p.stdout.readline())
                    rates[w][c].append(res["tokens"] / res[clock])
                    rss[c] = res["rss_mb"]
            print(f"round {r + 1}: " + "  ".join(
                f"{w} " + " / ".join(f"{rates[w][c][-1]:,.0f}" for c in checkouts)
                for w in what), flush=True)
    finally:
        for p in procs.values():
            p.stdin.close()
            p.wait()
    summary = {}
    a, b = checkouts
    print(f"\n{'tokens/s':<24}{'median':>12}{'best':>12}   ({os.path.basename(a)} -> "
          f"{os.path.basename(b)})")
    for w in what:
        med = {c: statistics.median(rates[w][c]) for c in checkouts}
        best = {c: max(rates[w][c]) for c in checkouts}
        ratios = [y / x for x, y in zip(rates[w][a], rates[w][b], strict=True)]
        summary[w] = {"median": med, "best": best, "ratio_median_of_pairs":
                      statistics.median(ratios)}
        for c in checkouts:
            print(f"{w + ' ' + os.path.basename(c):<24}{med[c]:>12,.0f}{best[c]:>12,.0f}")
        print(f"{w + ' ratio':<24}{med[b] / med[a]:>11.2f}x{best[b] / best[a]:>11.2f}x   "
              f"(median of the per-round ratios {statistics.median(ratios):.2f}x)")
    print(json.dumps({"checkouts": checkouts, "model": args.model, "rounds": args.rounds,
                      "clock": args.clock,
                      "rates": rates, "summary": summary, "peak_rss_mb": rss}))


if __name__ == "__main__":
    main()
