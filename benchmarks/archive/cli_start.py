"""Start-up time of the command line: ``skbioner --help`` against ``python -c pass``.

    python benchmarks/archive/cli_start.py
    python benchmarks/archive/cli_start.py --repeat 20 --args "tag --help"
    python benchmarks/archive/cli_start.py --compare ../wt-base   # another checkout, side by side

Each command runs ``--repeat`` times in a fresh interpreter (``subprocess``), alternating
the two so that both see the same load on the machine; the median and the best wall time
of each are printed, and the difference (the start-up cost of skbioner itself: the issue
asks for ``skbioner --help`` within 0.3 s).  The commands run from a temporary directory, so
the package found is the installed one or the one on ``PYTHONPATH``; ``--compare DIR``
also times the checkout in DIR (its ``PYTHONPATH``) in the same rounds.  The imports that
the command pulls in are listed from ``python -X importtime`` (the slowest cumulative
ones).  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

TARGET_SECONDS = 0.3


def _time(cmd, env=None):
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   cwd=tempfile.gettempdir(), env=env)
    return time.perf_counter() - t0


def _slowest_imports(cmd, n):
    """The ``n`` imports with the largest cumulative time under ``-X importtime``."""
    res = subprocess.run([cmd[0], "-X", "importtime", *cmd[1:]], capture_output=True,
                         text=True, check=True, cwd=tempfile.gettempdir())
    rows = []
    for line in res.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].strip()))
    return [{"module": m, "cumulative_us": us} for us, m in sorted(rows, reverse=True)[:n]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--args", default="--help", help="arguments given to skbioner")
    ap.add_argument("--compare", help="another checkout of skbioner, timed side by side")
    args = ap.parse_args()

    cli = [sys.executable, "-m", "skbioner", *shlex.split(args.args)]
    bare = [sys.executable, "-c", "pass"]
    other = None
    if args.compare:
        other = {**os.environ, "PYTHONPATH": os.path.abspath(args.compare)}
    _time(cli)  # warm the file system cache
    times = {"skbioner": [], "python": []}
    if other is not None:
        _time(cli, other)
        times["compare"] = []
    for _ in range(args.repeat):
        times["skbioner"].append(_time(cli))
        times["python"].append(_time(bare))
        if other is not None:
            times["compare"].append(_time(cli, other))
    result = {"command": "python -m skbioner " + args.args, "repeat": args.repeat}
    for k, v in times.items():
        result[k] = {"median_s": statistics.median(v), "best_s": min(v)}
    result["skbioner_minus_python_median_s"] = (result["skbioner"]["median_s"]
                                                - result["python"]["median_s"])
    result["target_s"] = TARGET_SECONDS
    result["meets_target"] = result["skbioner"]["median_s"] <= TARGET_SECONDS
    result["slowest_imports"] = _slowest_imports(cli, 8)
    print(f"{result['command']}: median {result['skbioner']['median_s']:.3f} s "
          f"(best {result['skbioner']['best_s']:.3f}); python -c pass: median "
          f"{result['python']['median_s']:.3f} s; target {TARGET_SECONDS} s")
    if other is not None:
        result["compare_path"] = other["PYTHONPATH"]
        print(f"{args.compare}: median {result['compare']['median_s']:.3f} s "
              f"(best {result['compare']['best_s']:.3f})")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
