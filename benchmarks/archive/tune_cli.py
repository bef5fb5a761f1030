"""`skbioner train --tune` on a corpus's training file: wall time, its log, and devel F1.

    python benchmarks/archive/tune_cli.py --data ../shared/data/bionlp13cg
    python benchmarks/archive/tune_cli.py --data ../shared/data/bc5cdr

Runs, one after the other in fresh interpreters, ``skbioner train --train TRAIN --tune``
and ``skbioner train --train TRAIN`` (the default preset), times both (wall seconds,
start-up and the final refit included: what a user waits for) and their CPU seconds (the
processes' user + system time, children included: what a quiet machine's wall time is
bounded by, whatever the load from others), keeps the tuner's log
(schedule, per-round counts, decision), then scores both saved models on the corpus's
devel file (official exact F1; a paired bootstrap between them).  When the tuner kept the
preset, its search's winner (named in the log) is also trained on the whole training file,
as the refit would have, and scored on devel beside the preset: did keeping the preset lose
anything?  ``--winner "SETTINGS"`` (a winner as the log names it) runs that part alone.  The
test file is never read.  The issue's target: the tuned run within 90 s on BioNLP13CG
here, or a log that says why it kept the preset early.  Wall seconds depend on the load
from other jobs (``os.getloadavg()`` before and after goes in the output); CPU seconds
depend on it least.
Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/: the harness
from harness import find_file as find

TARGET_SECONDS = 90.0


def _load():
    return os.getloadavg()


def _train(train, out, extra):
    cmd = [sys.executable, "-m", "skbioner", "train", "--train", str(train), "-o", str(out),
           *extra]
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{res.stderr}")
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    return seconds, cpu, [line for line in res.stderr.splitlines()
                          if line.startswith("[TunedTagger]")]


def winner_on_devel(settings, train, dev):
    """Devel predictions of the search's candidate ``settings`` and of the preset, both
    trained on all of ``train`` as the tuner's refit trains (calibrated, n_jobs=2)."""
    from sklearn.base import clone
    from sklearn.model_selection import ParameterGrid

    from skbioner.pipelines import search_space
    from skbioner.pipelines._tune import describe  # private: the log's names of candidates

    base, grid, default = search_space()
    found = [p for p in ParameterGrid(grid) if describe(p) == settings]
    if not found:
        raise SystemExit(f"no candidate of the search space is {settings!r}")
    preds = []
    for params in (found[0], default):
        pipe = clone(base).set_params(**params)
        pipe.named_steps["model"].set_params(calibrate=True, n_jobs=2)
        preds.append(pipe.fit(train.X, train.y).predict(dev.X))
    return preds


def _compare(dev, a, b, name):
    from skbioner.metrics import entity_f1_score, paired_bootstrap

    boot = paired_bootstrap(dev.y, a, b, n_resamples=2000, random_state=0)
    return {f"devel_exact_f1_{name}": round(100 * entity_f1_score(dev.y, a), 2),
            f"devel_{name}_delta_ci": [round(100 * c, 2) for c in boot.ci],
            f"devel_{name}_p_value": boot.p_value}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/bionlp13cg")
    ap.add_argument("--winner", default=None, metavar="SETTINGS",
                    help="only train this candidate (as the log names it) and the preset on "
                         "the training file and score both on devel")
    args = ap.parse_args()
    train, devel = find(args.data, "train"), find(args.data, "devel")
    if devel is None:
        raise SystemExit(f"{args.data}: no devel file (the choice is scored on devel only)")
    from skbioner.io import load_model, read_columns
    from skbioner.metrics import entity_f1_score, paired_bootstrap

    if args.winner:
        load = _load()
        win, preset = winner_on_devel(args.winner, read_columns(train), read_columns(devel))
        dev = read_columns(devel)
        out = {"data": args.data, "winner": args.winner, **_compare(dev, win, preset, "winner"),
               "devel_exact_f1_default": round(100 * entity_f1_score(dev.y, preset), 2),
               "load_before": load, "load_after": _load()}
        print(json.dumps(out))
        return

    out = {"data": args.data, "load_before": _load()}
    with tempfile.TemporaryDirectory() as tmp:
        tuned_path, default_path = os.path.join(tmp, "tuned.skops"), \
            os.path.join(tmp, "default.skops")
        out["tune_seconds"], out["tune_cpu_seconds"], log = _train(train, tuned_path, ["--tune"])
        print("\n".join(log), file=sys.stderr, flush=True)
        out["load_after_tune"] = _load()
        out["default_seconds"], out["default_cpu_seconds"], _ = _train(train, default_path, [])
        out["load_after"] = _load()
        dev = read_columns(devel)
        pred_tuned = load_model(tuned_path).predict(dev.X)
        pred_default = load_model(default_path).predict(dev.X)
    chosen = [line.split("chosen: ", 1)[1].split(";")[0] for line in log if "chosen: " in line]
    winner = [line.split("search winner ", 1)[1].split(": held-out", 1)[0] for line in log
              if "search winner " in line]
    if winner and chosen and winner[0] != chosen[0]:  # the preset kept: what did it cost?
        win, _ = winner_on_devel(winner[0], read_columns(train), dev)
        out.update(winner=winner[0], **_compare(dev, win, pred_default, "winner"))
    boot = paired_bootstrap(dev.y, pred_tuned, pred_default, n_resamples=2000, random_state=0)
    out.update(
        tuner_log=log, chosen=chosen[0] if chosen else None,
        ratio_to_default=round(out["tune_seconds"] / out["default_seconds"], 2),
        devel_exact_f1_tuned=round(100 * entity_f1_score(dev.y, pred_tuned), 2),
        devel_exact_f1_default=round(100 * entity_f1_score(dev.y, pred_default), 2),
        devel_delta_ci=[round(100 * c, 2) for c in boot.ci], devel_p_value=boot.p_value,
        within_target=out["tune_seconds"] <= TARGET_SECONDS,
        target_seconds=TARGET_SECONDS)
    for key in ("tune_seconds", "default_seconds", "tune_cpu_seconds", "default_cpu_seconds"):
        out[key] = round(out[key], 1)
    print(f"--tune {out['tune_seconds']} s (default {out['default_seconds']} s, load "
          f"{out['load_before'][0]:.1f}-{out['load_after'][0]:.1f}); chose {out['chosen']}; "
          f"devel exact F1 {out['devel_exact_f1_tuned']} vs the preset's "
          f"{out['devel_exact_f1_default']}", file=sys.stderr)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
