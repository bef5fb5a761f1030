"""The bundled chemical and disease model: its size, load time and BC5CDR test F1.

    python benchmarks/bc5cdr_model.py --data ../shared/data

Loads ``skbioner.load_model("bc5cdr")`` (or ``--model FILE``) and scores BC5CDR's
``test.tsv`` with the official-style exact F1 (overall and per type; the test file only
reports: the system was chosen on ``devel.tsv`` by ``scripts/make_bc5cdr_model.py
--choose``), and times tagging the test sentences (best of ``--repeat`` passes).  Last line
of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--model", default="bc5cdr")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()

    import skbioner
    from skbioner.io import read_columns
    from skbioner.metrics import entity_report
    from skbioner.tagging import bundled_model_path

    path = bundled_model_path(args.model) or Path(args.model)
    t0 = time.perf_counter()
    model = skbioner.load_model(args.model)
    load_seconds = time.perf_counter() - t0
    test = read_columns(Path(args.data) / "bc5cdr" / "test.tsv")
    best = float("inf")
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        pred = model.predict(test.X)
        best = min(best, time.perf_counter() - t0)
    rep = entity_report(test.y, pred)
    n_tokens = sum(map(len, test.X))
    result = {"model": str(path), "model_bytes": os.path.getsize(path),
              "load_seconds": round(load_seconds, 2),
              "test_exact_f1": round(100 * rep.overall.exact.f1, 2),
              "precision": round(100 * rep.overall.exact.precision, 2),
              "recall": round(100 * rep.overall.exact.recall, 2),
              "per_class": {c: round(100 * s.exact.f1, 2) for c, s in rep.per_class.items()},
              "tag_tokens_per_second": round(n_tokens / best),
              "load": round(os.getloadavg()[0], 2)}
    print(f"{path}: {result['model_bytes'] / 1e6:.2f} MB, loaded in {load_seconds:.2f} s; "
          f"BC5CDR test exact F1 {result['test_exact_f1']:.2f} (P {result['precision']:.2f}, "
          f"R {result['recall']:.2f}); "
          + ", ".join(f"{c} {f:.2f}" for c, f in result["per_class"].items())
          + f"; {result['tag_tokens_per_second']:,} tokens/s (load {result['load']})")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
