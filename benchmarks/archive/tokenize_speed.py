"""Speed of BioTokenizer alone: tokens per second over the 404 JNLPBA test abstracts.

    python benchmarks/archive/tokenize_speed.py --data ../shared/data/jnlpba
    python benchmarks/compare_checkouts.py --checkouts ../wt-base,. --rounds 3 \\
        --keys tokens_per_s -- benchmarks/archive/tokenize_speed.py

``BioTokenizer().tokenize_text`` (sentences, tokens and offsets, as ``skbioner tag`` calls
it) on every abstract, ``--repeat`` times after one warm-up pass (compiled kernels
loaded); the best pass counts.  Written against the public API only, so that it runs
on any checkout (``compare_checkouts.py``).  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

TARGET = 500_000


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2].parent
                                          / "shared" / "data" / "jnlpba"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    from skbioner.text import BioTokenizer

    texts = [p.read_text(encoding="utf-8")
             for p in sorted((Path(args.data) / "test-standoff").glob("*.txt"))]
    tok = BioTokenizer()
    n = sum(len(s) for t in texts for s in tok.tokenize_text(t)[0])  # warm-up
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        for t in texts:
            tok.tokenize_text(t)
        times.append(time.perf_counter() - t0)
    tps = n / min(times)
    print(f"{len(texts)} abstracts, {n:,} tokens: best of {args.repeat} {min(times):.3f} s = "
          f"{tps:,.0f} tokens/s (target {TARGET:,})")
    print(json.dumps({"n_documents": len(texts), "n_tokens": n, "tokens_per_s": tps,
                      "seconds": times, "target": TARGET, "met": tps >= TARGET}))


if __name__ == "__main__":
    main()
