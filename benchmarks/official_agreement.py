"""Check skbioner's official-mode scorer against the official evalIOB2.pl, report by report.

The official JNLPBA 2004 scorer is not distributed with skbioner; pass your copy:

    python benchmarks/official_agreement.py --scorer path/to/evalIOB2.pl \
        --data ../shared/data/jnlpba --pairs 1500

For random gold/answer files full of ill-formed tags, and for corrupted versions of the JNLPBA
test set, it runs the Perl script and `skbioner.metrics.evaluate_files` and compares their
report text (all counts and all printed figures).  The script's per-class sections come in
Perl's hash order, so sections are compared as a set.  Last line of stdout: one JSON object.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

from skbioner.metrics import evaluate_files

LABELS = ["O", "B-DNA", "I-DNA", "B-RNA", "I-RNA", "B-protein", "I-protein"]
ODD = ["E-DNA", "S-RNA", "B", "I", "O-DNA", "X", "I-"]
TYPES = ["protein", "DNA", "RNA", "cell_line", "cell_type"]


def sections(text):
    """Split a report into its header and a set of per-class sections, each without the
    blank lines that end it (the script ends its last section with one more than ours: the
    counts agreed and the reports were still told apart)."""
    parts = text.strip("\n").split("\n\n[<")
    return parts[0].rstrip(), frozenset(p.rstrip() for p in parts[1:])


def run_perl(scorer, gold, pred):
    r = subprocess.run(["perl", scorer, gold, pred], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def write_blocks(path, blocks, rng):
    with open(path, "w", encoding="utf-8") as fh:
        for block in blocks:
            if rng.random() < 0.1:
                fh.write(f"###MEDLINE:{rng.randrange(10**6)}\n\n")
            for lab in block:
                fh.write(f"tok\t{lab}\n")
            fh.write("\n")


def corrupt(src, dst, rng):
    with open(src, encoding="utf-8") as fin, open(dst, "w", encoding="utf-8") as fout:
        for line in fin:
            line = line.rstrip("\n")
            if line and not line.startswith("###"):
                tok, lab = line.split("\t")
                r = rng.random()
                if r < 0.05:
                    lab = "O"
                elif r < 0.08:
                    lab = "I-" + rng.choice(TYPES)
                elif r < 0.11:
                    lab = "B-" + rng.choice(TYPES)
                elif r < 0.13 and lab != "O":
                    lab = lab[:2] + rng.choice(TYPES)
                line = f"{tok}\t{lab}"
            fout.write(line + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scorer", required=True, help="path to the official evalIOB2.pl")
    ap.add_argument("--data", default="../shared/data/jnlpba", help="JNLPBA directory")
    ap.add_argument("--pairs", type=int, default=1000, help="random file pairs to try")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    compared = agreed = skipped = 0
    disagreements = []
    with tempfile.TemporaryDirectory() as tmp:
        g, p = os.path.join(tmp, "gold"), os.path.join(tmp, "pred")
        cases = []
        for _ in range(args.pairs):
            lens = [rng.randint(1, 8) for _ in range(rng.randint(1, 6))]
            weights = [rng.random() for _ in LABELS + ODD]
            gold = [[rng.choice(LABELS) for _ in range(n)] for n in lens]
            pred = [[rng.choices(LABELS + ODD, weights)[0] if rng.random() < 0.5 else x
                     for x in b] for b in gold]
            cases.append(("random", gold, pred))
        test = os.path.join(args.data, "test.iob2")
        n_real = 3 if os.path.exists(test) else 0
        cases += [("jnlpba-test-corrupted", None, None)] * n_real
        perl_s = ours_s = 0.0
        for kind, gold, pred in cases:
            if gold is not None:
                write_blocks(g, gold, rng)
                write_blocks(p, pred, rng)
                gold_path = g
            else:
                corrupt(test, p, rng)
                gold_path = test
            t0 = time.perf_counter()
            code, out, err = run_perl(args.scorer, gold_path, p)
            t1 = time.perf_counter()
            if code != 0:  # the script stops when there is no object or no answer
                skipped += 1
                continue
            ours = evaluate_files(gold_path, p).to_text()
            t2 = time.perf_counter()
            if kind != "random":
                perl_s += t1 - t0
                ours_s += t2 - t1
            compared += 1
            if sections(out) == sections(ours):
                agreed += 1
            elif len(disagreements) < 3:
                disagreements.append({"kind": kind, "perl": out, "skbioner": ours})
    for d in disagreements:
        print("DISAGREEMENT", d["kind"])
        print("--- perl\n" + d["perl"] + "--- skbioner\n" + d["skbioner"])
    print(f"compared {compared} report pairs ({skipped} skipped: the script stopped on "
          f"no object / no answer); identical: {agreed}")
    if n_real:
        print(f"JNLPBA test set: perl {perl_s / n_real:.2f} s, skbioner {ours_s / n_real:.2f} s "
              f"per evaluation (ratio {perl_s / max(ours_s, 1e-9):.1f}x)")
    print(json.dumps({"compared": compared, "identical": agreed, "skipped": skipped,
                      "real_files": n_real, "perl_seconds_per_test_eval": perl_s / max(n_real, 1),
                      "skbioner_seconds_per_test_eval": ours_s / max(n_real, 1)}))
    return 0 if agreed == compared else 1


if __name__ == "__main__":
    sys.exit(main())
