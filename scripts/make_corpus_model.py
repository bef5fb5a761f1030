"""Re-create a bundled model of a corpus with a devel file (skbioner/tagging/data/CORPUS.skops).

    python scripts/make_corpus_model.py --corpus bc5cdr --data ../shared/data --choose
    python scripts/make_corpus_model.py --corpus bc5cdr --data ../shared/data   # the choice
    python scripts/make_corpus_model.py --corpus bionlp13cg --data ../shared/data --choose

``--choose`` trains each candidate system (``CANDIDATES``: the online CRF preset with or
without the shipped word classes, lexicons and the POS column, a cascade, and two passes)
on the corpus's ``train.tsv``, scores ``devel.tsv`` with the official-style exact F1, and
keeps the best whose compact file fits ``--max-mb``; ties within 0.1 F1 go to the earlier
(simpler, faster) candidate.  The test file is never read here
(``benchmarks/bc5cdr_model.py --model CORPUS`` reports it).  Without ``--choose`` the
system is ``--system`` (default: the choice recorded in ``CORPORA`` and in
skbioner/tagging/data/README.md).

The chosen system is then trained on train + devel (the choice made, the devel file is
more training data), made compact (``OnlinePACRF.sparsify``; checked to tag the training
sentences as before) and written with ``skbioner.io.save_model`` with its training data
and settings as metadata.  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from make_bundled_model import compact, keep_best, skops_size  # this folder's own script

from skbioner.io import read_columns, save_model
from skbioner.metrics import entity_report
from skbioner.pipelines import make_tagger

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "skbioner" / "tagging" / "data"

#: name -> how to build it (a preset name, its options, two passes or not)
CANDIDATES = {
    "online-crf": ("online-crf", {}, False),
    "online-crf+classes": ("online-crf", {"word_classes": "bundled"}, False),
    "online-crf+pos": ("online-crf", {"pos": True}, False),
    "online-crf+classes+pos": ("online-crf", {"word_classes": "bundled", "pos": True}, False),
    "cascaded+classes": ("cascaded", {"word_classes": "bundled"}, False),
    "two-pass+classes": ("online-crf", {"word_classes": "bundled"}, True),
    "two-pass+classes+pos": ("online-crf", {"word_classes": "bundled", "pos": True}, True),
    "online-crf+lexicons": ("online-crf", {"lexicons": "bundled"}, False),
    "online-crf+classes+lexicons": ("online-crf", {"word_classes": "bundled",
                                                   "lexicons": "bundled"}, False),
    "online-crf+classes+pos+lexicons": ("online-crf", {"word_classes": "bundled", "pos": True,
                                                       "lexicons": "bundled"}, False),
    "two-pass+classes+lexicons": ("online-crf", {"word_classes": "bundled",
                                                 "lexicons": "bundled"}, True),
}
#: Per corpus: the system devel chose (``--choose``; skbioner/tagging/data/README.md), the
#: lexicon types read (chosen on devel: benchmarks/lexicons.py), and what the model is.
CORPORA = {
    "bc5cdr": {"system": "two-pass+classes+lexicons", "lexicon_types": (
        "anatomy", "cell_line", "cell_type", "chemical", "disease", "gene", "nucleic_acid",
        "phenotype", "protein"),
               "what": "chemical and disease", "name": "BioCreative V CDR",
               "licence": "model derived from the BioCreative V CDR corpus (Li et al. 2016), "
                          "word classes from CC BY text and the bundled lexicons; see "
                          "README.md beside it"},
    "bionlp13cg": {"system": "two-pass+classes+lexicons", "lexicon_types": (
        "anatomy", "cell_line", "cell_type", "cellular_component", "chemical", "disease", "gene",
        "protein", "species"),
                   "what": "cancer genetics (16 types)", "name": "BioNLP 2013 Cancer Genetics",
                   "licence": "model derived from the BioNLP 2013 CG corpus (annotations (c) "
                              "NaCTeM, CC BY-SA 3.0: the model is shared under the same "
                              "licence), word classes from CC BY text and the bundled "
                              "lexicons; see README.md beside it"},
}


#: BC5CDR's tokens are cut at every hyphen and slash (``Selegiline - induced``); raw text
#: through BioTokenizer keeps such words whole (GENIA style), so the model re-cuts every
#: sentence the same way (``RecutTagger(cuts=None)``): on the corpus's tokens it changes
#: nothing, on raw text an entity can end inside a word (``Cisplatin``-induced).
RECUT = "pieces"


def build(name, lexicon_types=None):
    preset, options, two_pass = CANDIDATES[name]
    if "lexicons" in options and lexicon_types:
        options = {**options, "lexicon_types": lexicon_types}
    return make_tagger(preset, two_pass=two_pass, recut=RECUT, **options)


def choose(train, devel, candidates, max_bytes, lexicon_types):
    rows = []
    for name in candidates:
        t0 = time.perf_counter()
        model = build(name, lexicon_types).fit(train.X, train.y)
        seconds = time.perf_counter() - t0
        f1 = entity_report(devel.y, model.predict(devel.X)).overall.exact.f1
        size = skops_size(compact(model))
        rows.append({"system": name, "devel_f1": round(100 * f1, 2),
                     "compact_mb": round(size / 1e6, 2), "train_seconds": round(seconds, 1)})
        print(f"{name}: devel exact F1 {100 * f1:.2f}, compact {size / 1e6:.2f} MB, "
              f"trained in {seconds:.0f} s", flush=True)
    return keep_best(rows, max_bytes, "system", "devel_f1", "devel"), rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="bc5cdr", choices=sorted(CORPORA))
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--out", default=None, help="default: skbioner/tagging/data/CORPUS.skops")
    ap.add_argument("--system", default=None, choices=sorted(CANDIDATES))
    ap.add_argument("--choose", action="store_true", help="choose the system on devel")
    ap.add_argument("--candidates", default=",".join(CANDIDATES))
    ap.add_argument("--max-mb", type=float, default=10.0)
    args = ap.parse_args()

    from skbioner.cli import training_data_record

    corpus = CORPORA[args.corpus]
    types = corpus["lexicon_types"]
    d = Path(args.data) / args.corpus
    train, devel = read_columns(d / "train.tsv"), read_columns(d / "devel.tsv")
    system, dev_rows = args.system or corpus["system"], None
    if args.choose:
        system, dev_rows = choose(train, devel, args.candidates.split(","), args.max_mb * 1e6,
                                  types)

    X, y = train.X + devel.X, train.y + devel.y
    t0 = time.perf_counter()
    model = build(system, types).fit(X, y)
    seconds = time.perf_counter() - t0
    before = model.predict(X)
    compact(model)
    for first in getattr(model.tagger_, "estimators_", ()):  # two passes: the first too
        first.steps[-1][1].sparsify()
    changed = sum(a != b for a, b in zip(before, model.predict(X)))
    if changed:
        raise SystemExit(f"compacting changed the labels of {changed} training sentences")
    out = Path(args.out or DATA / f"{args.corpus}.skops")
    out.parent.mkdir(parents=True, exist_ok=True)
    records = {split: {**training_data_record(d / f"{split}.tsv", part),
                       "file": f"{args.corpus}/{split}.tsv"}
               for split, part in (("train", train), ("devel", devel))}
    metadata = {"description": f"skbioner's bundled {corpus['what']} model: the {system} "
                               "system, re-cut at hyphens and slashes, trained on "
                               f"{corpus['name']} train + devel",
                "command": f"python scripts/make_corpus_model.py --corpus {args.corpus}",
                "system": system, "recut": RECUT, "lexicon_types": types,
                "training_data": records, "train_seconds": round(seconds, 1),
                "compact": "OnlinePACRF.sparsify", "licence": corpus["licence"]}
    if dev_rows:
        metadata["devel"] = dev_rows
    save_model(model, out, metadata=metadata)
    size = out.stat().st_size
    print(f"trained {system} in {seconds:.0f} s; wrote {out} ({size / 1e6:.2f} MB); "
          f"compact model tags the {len(X)} training sentences as before")
    print(json.dumps({"system": system, "devel": dev_rows, "train_seconds": round(seconds, 1),
                      "model_bytes": size, "changed_training_sentences": changed}))


if __name__ == "__main__":
    main()
