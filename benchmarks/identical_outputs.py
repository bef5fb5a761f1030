"""Outputs before and after a change: the JNLPBA table's systems and the bundled model.

A refactoring must not move any output.  This script trains the JNLPBA table's systems
(the ``online-crf`` and ``cascaded`` presets by default) on the full training file and
records their test-set labels and entity probabilities, and the bundled model's entities
(offsets, types, confidences) on the 404 raw test abstracts; then compares two such
records.  ``--models`` adds saved models (a vote of members, say): their test-set labels and
entities through the Python API, and their entities on the raw test abstracts through
``tag_documents`` (batches, as ``skbioner tag``).  Run it once on the checkout before the
change, once after:

    PYTHONPATH=../before python benchmarks/identical_outputs.py --save /tmp/before.json
    python benchmarks/identical_outputs.py --save /tmp/after.json --compare /tmp/before.json
    python benchmarks/identical_outputs.py --systems '' --models vote4.skops --save /tmp/v.json
    python benchmarks/identical_outputs.py --systems vote:online-crf+cascaded,two-pass:online-crf

Labels and entity spans must be equal; probabilities within ``--tol`` (default 1e-9).
Last line of stdout: one JSON object (``identical``: true or false, and the differences).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import harness


def _tagger(name):
    """A preset, or a combination of presets: ``vote:online-crf+cascaded``, ``stack:...``,
    ``two-pass:online-crf``."""
    from skbioner import pipelines

    make = getattr(pipelines, "make_tagger", None) or pipelines.make_pipeline  # older checkouts
    model, _, members = name.partition(":")
    if model == "two-pass":
        return make(members, two_pass=True)
    return make(model, members=members.replace("+", ",")) if members else make(name)


def outputs(systems, data, models=()):
    """``{system: {"labels", "entities"}, "bundled": [...]}`` of this checkout.

    With ``models`` (saved model files) also ``"model:<path>"`` (labels and
    entities of the test sentences) and ``"raw:<path>"`` (entities of the raw
    test abstracts, tagged by ``tag_documents``).
    """
    import skbioner
    from skbioner.io import read_brat_dir
    from skbioner.tagging import Document, tag_documents

    train, test = harness.load("jnlpba", "train", data), harness.load("jnlpba", "test", data)
    out = {"skbioner": skbioner.__file__}
    for name in systems:
        model = _tagger(name).fit(train.X, train.y)
        out[name] = {"labels": model.predict(test.X),
                     "entities": [[list(e) for e in s] for s in _entities(model, test.X)]}
        print(f"{name}: trained and tagged", file=sys.stderr, flush=True)
    docs = read_brat_dir(harness.data_root(data) / "jnlpba" / "test-standoff")
    bundled = skbioner.load_model()
    out["bundled"] = [[[e.start, e.end, e.type, e.confidence]
                       for e in skbioner.tag_text(d.text, bundled)] for d in docs]
    for path in models:
        model = skbioner.load_model(path)
        out[f"model:{path}"] = {"labels": model.predict(test.X),
                                "entities": [[list(e) for e in s]
                                             for s in _entities(model, test.X)]}
        out[f"raw:{path}"] = [[[e.start, e.end, e.type, e.confidence] for e in r.entities]
                              for r in tag_documents(model, [Document(d.id, d.text, "")
                                                             for d in docs])]
        print(f"{path}: tagged", file=sys.stderr, flush=True)
    return out


def _entities(model, X):
    from skbioner.base import split_pipeline

    head, final = split_pipeline(model)
    if not hasattr(final, "predict_entities"):  # no probabilities (the pairwise SVM): labels only
        return [[] for _ in X]
    return final.predict_entities(head.transform(X) if head is not None else X)


def compare(a, b, tol):
    """The differences between two records (an empty list when identical)."""
    diffs = []
    for key in sorted(set(a) & set(b) - {"skbioner"}):
        if key != "bundled" and not key.startswith("raw:") and a[key]["labels"] != b[key]["labels"]:
            n = sum(x != y for x, y in zip(a[key]["labels"], b[key]["labels"]))
            diffs.append(f"{key}: labels differ in {n} sentences")
        documents = key == "bundled" or key.startswith("raw:")
        pairs = zip(a[key], b[key], strict=True) if documents else \
            zip(a[key]["entities"], b[key]["entities"], strict=True)
        worst, spans = 0.0, 0
        for sa, sb in pairs:
            if [e[:3] for e in sa] != [e[:3] for e in sb]:
                spans += 1
                continue
            for ea, eb in zip(sa, sb):
                if ea[3] is not None and eb[3] is not None:
                    worst = max(worst, abs(ea[3] - eb[3]))
        if spans:
            diffs.append(f"{key}: entity spans differ in {spans} sentences/documents")
        if worst > tol:
            diffs.append(f"{key}: probabilities differ by up to {worst:.3g}")
    return diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    harness.add_arguments(ap, corpora=False)
    ap.add_argument("--systems", default="online-crf,cascaded")
    ap.add_argument("--models", default="",
                    help="comma-separated saved models to record too (their test-set and "
                         "raw-text outputs)")
    ap.add_argument("--save", type=Path, required=True, help="where to write this checkout's")
    ap.add_argument("--compare", type=Path, default=None, help="a record to compare with")
    ap.add_argument("--tol", type=float, default=1e-9)
    args = ap.parse_args()
    record = outputs([s for s in args.systems.split(",") if s], args.data,
                     [m for m in args.models.split(",") if m])
    args.save.write_text(json.dumps(record), encoding="utf-8")
    summary = {"saved": str(args.save)}
    if args.compare:
        other = json.loads(args.compare.read_text(encoding="utf-8"))
        diffs = compare(other, record, args.tol)
        summary.update(identical=not diffs, differences=diffs, against=other["skbioner"])
        for d in diffs:
            print(d, file=sys.stderr)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
