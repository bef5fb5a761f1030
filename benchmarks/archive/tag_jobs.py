"""Does `skbioner tag --n-jobs 2` pay on the 404 JNLPBA test abstracts?  Where does it start to?

    python benchmarks/archive/tag_jobs.py --data /work/shared/data/jnlpba [--repeats 2]

Runs the command as a user does (a fresh process each time: import, model load, tagging,
writing JSONL) on test-standoff/*.txt with the bundled model, and times it wall-clock:

- ``one``: ``--n-jobs 1``;
- ``two_forced``: ``--n-jobs 2 --parallel-from 0`` (worker processes always started: what
  ``--n-jobs 2`` did before ``PARALLEL_MIN_DOCUMENTS``);
- ``two_default``: ``--n-jobs 2`` (fewer than ``--parallel-from`` documents: one process);
- ``start``: ``--n-jobs 1`` on one abstract (the fixed cost: start-up, model load).

From them: ``per_doc`` = (one - start) / 404 seconds, the workers' extra cost
``workers_s`` = two_forced - start - (one - start) / 2, and the break-even
``2 * workers_s / per_doc`` documents above which two jobs beat one (on two idle cores).
Times depend on the load of the machine (other jobs share its 2 cores): the load average
is recorded before and after.  Last line of stdout: one JSON object.
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
from pathlib import Path


def _load():
    return [round(x, 2) for x in os.getloadavg()]


def _run(inputs, extra, out):
    cmd = [sys.executable, "-m", "skbioner", "tag", *map(str, inputs), "-o", str(out),
           "--progress", "never", *extra]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default="/work/shared/data/jnlpba")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    texts = sorted((Path(args.data) / "test-standoff").glob("*.txt"))
    if not texts:
        sys.exit(f"no test-standoff/*.txt under {args.data}")
    configs = {"one": ["--n-jobs", "1"], "two_forced": ["--n-jobs", "2", "--parallel-from", "0"],
               "two_default": ["--n-jobs", "2"]}
    times = {name: [] for name in [*configs, "start"]}
    load_before = _load()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.jsonl"
        _run(texts[:1], [], out)  # warm: numba cache, file cache
        for _ in range(args.repeats):  # interleaved, so a change of load hits every config
            times["start"].append(_run(texts[:1], [], out))
            for name, extra in configs.items():
                times[name].append(_run([Path(args.data) / "test-standoff"], extra, out))
                print(f"{name}: {times[name][-1]:.1f} s (load {_load()})", file=sys.stderr)
    med = {k: statistics.median(v) for k, v in times.items()}
    per_doc = max(med["one"] - med["start"], 1e-9) / len(texts)
    workers = med["two_forced"] - med["start"] - (med["one"] - med["start"]) / 2
    result = {
        "benchmark": "tag_jobs", "documents": len(texts), "repeats": args.repeats,
        "seconds": {k: round(v, 2) for k, v in med.items()},
        "two_forced_over_one": round(med["two_forced"] / med["one"], 2),
        "two_default_over_one": round(med["two_default"] / med["one"], 2),
        "per_doc_ms": round(per_doc * 1e3, 1), "workers_s": round(workers, 2),
        "break_even_documents": round(2 * workers / per_doc) if workers > 0 else 0,
        "cpu_count": os.cpu_count(), "load_before": load_before, "load_after": _load(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
