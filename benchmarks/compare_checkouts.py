"""Run one benchmark against several checkouts of skbioner, interleaved, and compare.

    python benchmarks/compare_checkouts.py --checkouts ../wt-base,. --rounds 2 -- \\
        benchmarks/tag_raw.py --data ../shared/data/jnlpba --model MODEL --repeat 3

On a shared, busy machine absolute timings drift with the load; ratios measured side by
side do not as much.  The benchmark script (a path in this checkout) runs in a fresh
interpreter once per checkout per round, the checkouts alternating within each round,
with ``PYTHONPATH`` set to the checkout (so the package imported is that checkout's) and
from a temporary directory.  The last stdout line of each run (the benchmark's JSON
object) is kept; for every ``--keys`` entry (dotted paths into that object) the median
over the rounds is printed per checkout, with the ratio to the first checkout.  Last
line of stdout: one JSON object with every run's selected values.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

DEFAULT_KEYS = ("tagging.1.tokens_per_second,tagging.1.steady_tokens_per_second,"
                "tagging.2.tokens_per_second,tagging.2.steady_tokens_per_second,"
                "token_level.exact_f1,raw_text.overall.f1,f1_gap,peak_rss_mb")


def _get(obj, path):
    for part in path.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return None
        obj = obj[part]
    return obj if isinstance(obj, int | float) else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkouts", required=True, help="comma-separated checkout paths")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--keys", default=DEFAULT_KEYS)
    ap.add_argument("command", nargs=argparse.REMAINDER,
                    help="-- SCRIPT ARGS... (the script path relative to the current directory)")
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("give the benchmark command after --")
    script = os.path.abspath(command[0])
    rest = [os.path.abspath(a) if os.path.exists(a) else a for a in command[1:]]
    checkouts = [os.path.abspath(c) for c in args.checkouts.split(",")]
    keys = args.keys.split(",")
    runs = {c: [] for c in checkouts}
    for r in range(args.rounds):
        for c in checkouts:
            env = {**os.environ, "PYTHONPATH": c}
            t0 = time.perf_counter()
            res = subprocess.run([sys.executable, script, *rest], env=env, text=True,
                                 capture_output=True, cwd=tempfile.gettempdir())
            if res.returncode:
                sys.exit(f"{c}: exit status {res.returncode}\n{res.stderr[-2000:]}")
            out = json.loads(res.stdout.strip().splitlines()[-1])
            runs[c].append({k: _get(out, k) for k in keys})
            print(f"round {r + 1} {c}: {time.perf_counter() - t0:.0f} s", flush=True)
    first = checkouts[0]
    summary = {}
    best = {k: {c: max((v[k] for v in runs[c] if v[k] is not None), default=None)
                for c in checkouts} for k in keys}
    print(f"\n{'median of ' + str(args.rounds) + ' rounds':<42}"
          + "".join(f"{os.path.basename(c) or c:>16}" for c in checkouts) + "     ratio")
    for k in keys:
        vals = {c: [v[k] for v in runs[c] if v[k] is not None] for c in checkouts}
        med = {c: statistics.median(v) if v else None for c, v in vals.items()}
        summary[k] = med
        if all(m is None for m in med.values()):
            continue
        cells = "".join(f"{m:>16,.4g}" if m is not None else f"{'-':>16}" for m in med.values())
        last = med[checkouts[-1]]
        ratio = (f"{last / med[first]:9.2f}x" if last is not None and med[first] else "")
        print(f"{k:<42}{cells}{ratio}")
    print("largest value of any round (for speeds: the least disturbed run):")
    for k in keys:
        b = best[k]
        if all(v is None for v in b.values()):
            continue
        cells = "".join(f"{v:>16,.4g}" if v is not None else f"{'-':>16}" for v in b.values())
        last = b[checkouts[-1]]
        ratio = f"{last / b[first]:9.2f}x" if last is not None and b[first] else ""
        print(f"{k:<42}{cells}{ratio}")
    print(json.dumps({"command": [script, *rest], "checkouts": checkouts,
                      "rounds": args.rounds, "runs": runs, "median": summary, "max": best}))


if __name__ == "__main__":
    main()
