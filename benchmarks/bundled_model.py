"""The bundled JNLPBA model: its size, load time, test-set F1 and confidence trade-off.

    python benchmarks/bundled_model.py --data ../shared/data/jnlpba

Loads the model bundled with the package (``skbioner.load_model()``; or ``--model FILE``) and

* scores it the official way on the gold tokens of ``test.iob2`` (exact, left and right
  F1, per class);
* tags the 404 raw test abstracts (``test-standoff/*.txt``) as ``skbioner tag`` does
  (``BioTokenizer`` -> model -> character offsets, with confidences) and scores the spans
  against the gold ``.ann`` files (type and both offsets must match);
* keeps only the entities whose confidence reaches each ``--thresholds`` value
  (``skbioner tag --min-confidence``) and reports precision, recall and F1 of what is kept;
* times tagging the abstracts with and without confidences, side by side in this process
  (best of ``--repeat`` passes each, after a warm-up), and reports the ratio.

The test set only reports here: the model and its settings were chosen on the development
split (scripts/make_bundled_model.py --choose).  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

THRESHOLDS = (0.0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95)


def _tag(model, directory, confidence):
    from skbioner.tagging import DocumentError, iter_documents, tag_documents

    out, n_tokens = {}, 0
    t0 = time.perf_counter()
    for res in tag_documents(model, iter_documents(directory), confidence=confidence):
        if isinstance(res, DocumentError):
            raise SystemExit(f"cannot tag {res}")
        out[res.id] = [(e.type, e.start, e.end, e.confidence) for e in res.entities]
        n_tokens += res.n_tokens
    return out, n_tokens, time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--model", default=None, help="a model file (default: the bundled one)")
    ap.add_argument("--thresholds", default=",".join(map(str, THRESHOLDS)))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    import skbioner
    from skbioner.datasets import load_jnlpba
    from skbioner.io import read_brat_dir
    from skbioner.metrics import character_span_scores, entity_report
    from skbioner.tagging import BUNDLED_MODEL

    path = Path(args.model or BUNDLED_MODEL)
    t0 = time.perf_counter()
    model = skbioner.load_model(args.model)
    load_seconds = time.perf_counter() - t0
    result = {"model": str(path), "model_bytes": os.path.getsize(path),
              "load_seconds": round(load_seconds, 2)}
    print(f"{path}: {result['model_bytes'] / 1e6:.2f} MB, loaded in {load_seconds:.2f} s "
          "(imports included)")

    data = Path(args.data)
    test = load_jnlpba(data, "test")
    rep = entity_report(test.y, model.predict(test.X))
    result["token_level"] = {
        "exact_f1": round(100 * rep.overall.exact.f1, 2),
        "left_f1": round(100 * rep.overall.left.f1, 2),
        "right_f1": round(100 * rep.overall.right.f1, 2),
        "per_class": {c: round(100 * s.exact.f1, 2) for c, s in rep.per_class.items()}}
    print(f"official test set (gold tokens): exact F1 {100 * rep.overall.exact.f1:.2f} "
          f"(left {100 * rep.overall.left.f1:.2f}, right {100 * rep.overall.right.f1:.2f}); "
          + ", ".join(f"{c} {100 * s.exact.f1:.2f}" for c, s in rep.per_class.items()))

    standoff = data / "test-standoff"
    gold = {d.id: d.spans() for d in read_brat_dir(standoff)}
    pred, n_tokens, _ = _tag(model, standoff, True)  # also the warm-up
    spans = {d: [(t, s, e) for t, s, e, _ in ents] for d, ents in pred.items()}
    raw = character_span_scores(gold, spans)
    result["raw_text_span_f1"] = round(100 * raw["overall"]["f1"], 2)
    print(f"raw test abstracts (BioTokenizer, character spans): F1 "
          f"{100 * raw['overall']['f1']:.2f}")

    conf = np.array([p for ents in pred.values() for *_, p in ents])
    trade = []
    for th in (float(x) for x in args.thresholds.split(",")):
        kept = {d: [(t, s, e) for t, s, e, p in ents if p >= th] for d, ents in pred.items()}
        sc = character_span_scores(gold, kept)["overall"]
        row = {"min_confidence": th, "entities": int(sc["n_pred"]),
               "precision": round(100 * sc["precision"], 2),
               "recall": round(100 * sc["recall"], 2), "f1": round(100 * sc["f1"], 2)}
        trade.append(row)
        print(f"--min-confidence {th:<4}: {row['entities']:>5} entities, precision "
              f"{row['precision']:.2f}, recall {row['recall']:.2f}, F1 {row['f1']:.2f}")
    result["min_confidence"] = trade
    result["confidence_quantiles"] = [round(float(q), 4) for q in
                                      np.quantile(conf, [0.1, 0.25, 0.5, 0.75, 0.9])]

    times = {True: [], False: []}
    for _ in range(args.repeat):
        for confidence in (False, True):
            times[confidence].append(_tag(model, standoff, confidence)[2])
    best = {k: min(v) for k, v in times.items()}
    result["tagging"] = {"tokens": n_tokens,
                         "with_confidence_tokens_per_second": round(n_tokens / best[True]),
                         "without_confidence_tokens_per_second": round(n_tokens / best[False]),
                         "time_ratio_with_over_without": round(best[True] / best[False], 2)}
    print(f"tagging the {len(pred)} abstracts ({n_tokens} tokens), best of {args.repeat}: "
          f"{n_tokens / best[True]:,.0f} tokens/s with confidences, "
          f"{n_tokens / best[False]:,.0f} without (x{best[True] / best[False]:.2f} the time)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
