"""The tuner's CPU seconds in one process: a load-robust measure of ``--tune``'s work.

    python benchmarks/archive/tune_cpu.py --data ../shared/data/bionlp13cg

``TunedTagger(n_jobs=1)`` on the corpus's training file, in this process, timed by
``time.process_time()`` (all threads of this process; no worker processes whose CPU the
parent may not count): search and refit, what ``skbioner train --tune`` does.  Under load
from other jobs the wall seconds follow the load; the CPU seconds much less, so two versions
run side by side compare by them (``benchmarks/archive/tune_cli.py`` gives the wall time a user
waits).  Also the held-out F1 of every candidate of every round, to check that a change
meant to be a speed-up leaves the search's results alone.
Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the harness
from harness import find_file as find


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/bionlp13cg")
    args = ap.parse_args()
    from skbioner.io import read_columns
    from skbioner.pipelines import TunedTagger

    train = read_columns(find(args.data, "train"))
    load, cpu, t0 = os.getloadavg(), time.process_time(), time.perf_counter()
    tuned = TunedTagger(n_jobs=1, verbose=1).fit(train.X, train.y)
    out = {"data": args.data, "cpu_seconds": round(time.process_time() - cpu, 1),
           "wall_seconds": round(time.perf_counter() - t0, 1),
           "search_wall_seconds": round(tuned.seconds_["search"], 1),
           "load_before": load, "load_after": os.getloadavg(),
           "chosen": tuned.decision_["chosen"], "winner": tuned.decision_["winner"],
           "winner_f1": tuned.decision_["winner_f1"], "preset_f1": tuned.decision_["default_f1"],
           "held_out_f1": [[r["round"] + 1, r["settings"], r["f1"]] for r in tuned.results_]}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
