"""Tag raw text: tokenize, predict, map entities back to character offsets, write JSONL and brat.

``skbioner.tagging`` is the library behind ``skbioner tag``: ``iter_documents`` streams
documents from text files, directories and JSONL files; ``tag_documents`` tokenizes them the
JNLPBA/GENIA way (``skbioner.text.BioTokenizer``), tags them in batches with any fitted
pipeline and returns each entity with its character offsets (``text[start:end]`` is the
entity); ``open_writer`` stores the results atomically as brat standoff, JSONL or IOB2.

The model is a quickly trained ``OnlinePACRF`` on the bundled JNLPBA sample.  The documents
are the first 5 abstracts of ``jnlpba/test-standoff/`` from the shared data directory
(``$SKBIONER_DATA``, default ``../shared/data`` next to the repository) when present -- then
the predicted entities are also scored against their gold ``.ann`` files with
``character_span_scores`` -- and otherwise two short texts written inline, read from a JSONL
file.

Run::

    python examples/tag_raw_text.py [OUTDIR]

Writes ``OUTDIR/entities.jsonl`` and ``OUTDIR/brat/<id>.txt``/``.ann`` (default: a temporary
directory, removed at the end).  For large inputs, save the model with
``skbioner.io.save_model(model, "model.skops")`` (the safe format: a joblib pickle is refused
unless ``allow_pickle=True``) and pass that path with ``n_jobs=2`` to tag in several processes
(a stream of fewer than ``parallel_from`` documents, 10,000 by default, is tagged in this
process: starting workers would cost more).  Takes about 5-10 s.
"""

import argparse
import json
import os
import tempfile
from pathlib import Path

from sklearn.pipeline import Pipeline

from skbioner.datasets import load_jnlpba_sample
from skbioner.features import TokenFeaturizer
from skbioner.io import read_brat
from skbioner.metrics import character_span_scores
from skbioner.models import OnlinePACRF
from skbioner.tagging import DocumentError, iter_documents, open_writer, tag_documents

DATA_DIR = Path(os.environ.get("SKBIONER_DATA",
                               Path(__file__).resolve().parents[2] / "shared" / "data"))
STANDOFF = DATA_DIR / "jnlpba" / "test-standoff"

INLINE_TEXTS = {
    "example-1": (
        "Activation of the interleukin-2 (IL-2) gene in human T lymphocytes requires NF-kappa "
        "B and NFAT binding to the IL-2 promoter. The glucocorticoid receptor inhibits IL-2 "
        "mRNA expression in Jurkat cells."
    ),
    "example-2": (
        "The transcription factor GATA-1 is expressed in erythroid cells and megakaryocytes. "
        "Levels of c-myc mRNA increased after stimulation of peripheral blood monocytes with "
        "LPS, but not in K562 cells."
    ),
}


def train_model():
    train = load_jnlpba_sample("train")
    model = Pipeline([
        ("features", TokenFeaturizer(templates="chan", min_count=3)),
        ("model", OnlinePACRF(scheme="BIES", extra_schemes=("IO",), C=0.1, max_iter=5,
                              random_state=0)),
    ])
    return model.fit(train.X, train.y)


def input_files(outdir: Path):
    """The documents to tag: standoff abstracts when present, else a JSONL of inline texts."""
    if STANDOFF.is_dir():
        txts = sorted(STANDOFF.glob("*.txt"))[:5]
        if txts:
            return txts, True
    path = outdir / "input.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        for doc_id, text in INLINE_TEXTS.items():
            fh.write(json.dumps({"id": doc_id, "text": text}) + "\n")
    return [path], False


def run(outdir: Path):
    model = train_model()
    inputs, has_gold = input_files(outdir)
    print(f"tagging {', '.join(p.name for p in inputs)}")

    jsonl_path, brat_dir = outdir / "entities.jsonl", outdir / "brat"
    pred_spans, n_errors = {}, 0
    with open_writer("jsonl", jsonl_path) as jsonl, open_writer("brat", brat_dir) as brat:
        for doc in tag_documents(model, iter_documents(inputs)):
            if isinstance(doc, DocumentError):  # unreadable or empty input: reported, skipped
                print(f"skipped {doc}")
                n_errors += 1
                continue
            jsonl.write(doc)
            brat.write(doc)
            pred_spans[doc.id] = [(e.type, e.start, e.end) for e in doc.entities]
            print(f"\n{doc.id}: {len(doc.sentences)} sentences, {doc.n_tokens} tokens, "
                  f"{len(doc.entities)} entities")
            for e in doc.entities:
                assert doc.text[e.start:e.end] == e.text
                print(f"  {e.id:<4} {e.type:<10} {e.start:>5} {e.end:>5}  {e.text}")

    print(f"\nwrote {jsonl_path} and {len(list(brat_dir.glob('*.ann')))} brat documents "
          f"in {brat_dir}")
    first = next(iter(pred_spans))
    print(f"{first}.ann begins:")
    for line in (brat_dir / f"{first}.ann").read_text().splitlines()[:3]:
        print(f"  {line}")

    if has_gold:
        gold = {p.stem: read_brat(p).spans() for p in inputs}
        scores = character_span_scores(gold, pred_spans)["overall"]
        print(f"\ncharacter-offset exact match against the gold .ann files: "
              f"P {scores['precision']:.4f} R {scores['recall']:.4f} F1 {scores['f1']:.4f} "
              f"({scores['tp']} of {scores['n_gold']} gold entities)")
    return 1 if n_errors else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", type=Path,
                        help="directory for entities.jsonl and brat/ (default: a temporary "
                             "directory)")
    args = parser.parse_args(argv)
    if args.outdir is not None:
        args.outdir.mkdir(parents=True, exist_ok=True)
        return run(args.outdir)
    with tempfile.TemporaryDirectory() as tmp:
        return run(Path(tmp))


if __name__ == "__main__":
    raise SystemExit(main())
