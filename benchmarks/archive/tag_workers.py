"""Where a `skbioner tag --n-jobs 2` worker's start-up goes: timestamps inside the workers.

    python benchmarks/archive/tag_workers.py --data /work/shared/data/jnlpba [--model M.skops]

Tags the 404 JNLPBA test abstracts (test-standoff/*.txt) in batches of 128 on two joblib
(loky) worker processes, as ``tag_documents(..., n_jobs=2)`` does, and records inside each
task, in wall seconds since this script started and in the worker's CPU seconds since
the worker process started: when the process started, when the task began (the worker
has imported what unpickling the task needs: numpy, scikit-learn, numba, skbioner), when
the model was loaded (``skbioner.load_model``, once per worker), how many kernels numba
compiled during the first batch (cache misses: 0 when its cache is warm) and when the batch
was tagged.  A worker's first task pays the start-up; its later tasks show the steady
state.  Wall times stretch with the load of the machine (recorded); CPU seconds do not.
Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

T0 = time.time()


def _process_start():
    """Wall time this process started (Linux /proc), or None."""
    try:
        with open("/proc/self/stat") as f:
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/stat") as f:
            boot = next(int(line.split()[1]) for line in f if line.startswith("btime"))
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, StopIteration):
        return None


def _timed_task(ref, docs, t0):
    """One batch, tagged as a worker does, with timestamps (runs in the worker)."""
    start = _process_start()
    out = {"pid": os.getpid(), "n_docs": len(docs),
           "process_started": None if start is None else round(start - t0, 2),
           "task_began": round(time.time() - t0, 2), "cpu_task_began": time.process_time()}
    from numba.core import event

    from skbioner.tagging import _tagger  # private: the worker's own steps, timed apart
    from skbioner.text import BioTokenizer

    model = _tagger._model_of(ref)  # private: loaded once per worker process
    out["model_loaded"] = round(time.time() - t0, 2)
    out["cpu_model_loaded"] = time.process_time()
    with event.install_recorder("numba:compile") as rec:
        _tagger._tag_docs(model, docs, BioTokenizer(), 1000)  # private: a worker's batch
    out["numba_compiles"] = sum(1 for _, ev in rec.buffer if ev.is_start)
    out["tagged"] = round(time.time() - t0, 2)
    out["cpu_tagged"] = time.process_time()
    return {k: round(v, 2) if isinstance(v, float) else v for k, v in out.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default="/work/shared/data/jnlpba")
    parser.add_argument("--model", default=None, help="model file (default: the bundled one)")
    parser.add_argument("--batch-size", type=int, default=128)
    args = parser.parse_args(argv)
    from joblib import Parallel, delayed

    from skbioner.tagging import iter_documents
    from skbioner.tagging._bundled import bundled_model_path  # private: its file's path

    files = sorted((Path(args.data) / "test-standoff").glob("*.txt"))
    if not files:
        sys.exit(f"no test-standoff/*.txt under {args.data}")
    ref = args.model or os.fspath(bundled_model_path(None))
    docs = list(iter_documents(files))
    batches = [docs[i:i + args.batch_size] for i in range(0, len(docs), args.batch_size)]
    load_before = [round(x, 2) for x in os.getloadavg()]
    began = time.time() - T0
    tasks = Parallel(n_jobs=2)(delayed(_timed_task)(ref, b, T0) for b in batches)
    for t in tasks:
        print(json.dumps(t), file=sys.stderr)
    firsts = {}
    for t in tasks:
        firsts.setdefault(t["pid"], t)
    later = [t for t in tasks if t not in firsts.values()]
    first = list(firsts.values())
    mean = lambda xs: round(sum(xs) / len(xs), 2) if xs else None  # noqa: E731
    print(json.dumps({
        "benchmark": "tag_workers", "workers": len(first), "batches": len(tasks),
        "parallel_began": round(began, 2),
        "worker_cpu_imports_s": mean([t["cpu_task_began"] for t in first]),
        "worker_cpu_model_load_s": mean([t["cpu_model_loaded"] - t["cpu_task_began"]
                                         for t in first]),
        "worker_cpu_first_batch_s": mean([t["cpu_tagged"] - t["cpu_model_loaded"]
                                          for t in first]),
        "worker_cpu_later_batch_s": mean([t["cpu_tagged"] - t["cpu_model_loaded"]
                                          for t in later]),
        "worker_wall_to_first_task_s": mean([t["task_began"] - began for t in first]),
        "worker_wall_first_task_done_s": mean([t["tagged"] - began for t in first]),
        "numba_compiles_first_batch": [t["numba_compiles"] for t in first],
        "load_before": load_before, "load_after": [round(x, 2) for x in os.getloadavg()],
    }))


if __name__ == "__main__":
    main()
