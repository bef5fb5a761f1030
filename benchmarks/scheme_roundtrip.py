"""Round trip IOB2 -> scheme -> IOB2 on the JNLPBA training set, for every scheme.

    python benchmarks/scheme_roundtrip.py --data ../shared/data/jnlpba

For each scheme: sentences whose labels change on the round trip (beyond the repair of
ill-formed input), entities before and after, and conversion speed.  Only IO loses
information: adjacent entities of one type merge.  Last line of stdout: one JSON object.
"""

import argparse
import json
import time

from skbioner.datasets import load_jnlpba
from skbioner.schemes import SCHEMES, convert, labels_to_spans, repair


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    args = ap.parse_args()
    y = load_jnlpba(args.data, "train").y
    repaired = [repair(s) for s in y]
    ill_formed = sum(a != b for a, b in zip(y, repaired))
    n_entities = sum(len(labels_to_spans(s)) for s in y)
    n_tokens = sum(map(len, y))
    out = {"sentences": len(y), "ill_formed_sentences": ill_formed, "entities": n_entities,
           "schemes": {}}
    print(f"{len(y)} sentences, {n_entities} entities, {ill_formed} ill-formed sentence(s)")
    for scheme in SCHEMES:
        t0 = time.perf_counter()
        there = [convert(s, "IOB2", scheme) for s in y]
        back = [convert(s, scheme, "IOB2") for s in there]
        secs = time.perf_counter() - t0
        changed = sum(a != b for a, b in zip(repaired, back))
        after = sum(len(labels_to_spans(s)) for s in back)
        out["schemes"][scheme] = {"changed_sentences": changed, "entities_after": after,
                                  "tokens_per_second": 2 * n_tokens / secs}
        print(f"{scheme:<6} changed sentences {changed:>4}, entities {after} "
              f"({after - n_entities:+d}), {2 * n_tokens / secs:,.0f} tokens/s")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
