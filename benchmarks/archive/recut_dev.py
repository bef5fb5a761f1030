"""Re-cut words on the development abstracts: token-level and raw-text F1 side by side.

    python benchmarks/archive/recut_dev.py --data ../shared/data/jnlpba
    python benchmarks/archive/recut_dev.py --data ../shared/data/jnlpba \\
        --variants none,jnlpba,pieces

For each ``--variants`` value the ``--preset`` (default ``online-crf``, the bundled model's)
is trained on the first 90% of train.iob2 (``skbioner.datasets.train_dev_split``): ``none``
as it is, ``jnlpba`` wrapped in ``RecutTagger(cuts=table)`` (words joined at hyphens and
slashes and cut again by the cut table of ``scripts/make_jnlpba_cuts.py``, counted on the
same 90% with its defaults, as shipped), ``pieces`` in ``RecutTagger(cuts=None)`` (cut at
every hyphen and slash).  The development abstracts (last 10%) are then tagged

* from their gold tokens: token-level exact F1, the official way (a re-cut model's
  entities mapped back onto the corpus tokens), and
* from their raw text, rebuilt from the tokens as in ``benchmarks/archive/cuts_dev.py`` (a space
  between tokens except where the corpus cut a word), through ``skbioner.tag_documents``
  with ``BioTokenizer(cuts=table)`` (the same 90% table): span F1 (type and both character
  offsets must match).
The test abstracts are for reporting only (``benchmarks/tag_raw.py --model ...``).
Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

# benchmarks/ is on sys.path when a script runs
from cuts_dev import _cuts_script, holdout_split, rebuild


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--preset", default="online-crf")
    ap.add_argument("--variants", default="none,jnlpba,pieces",
                    help="comma-separated: none (no wrapper), jnlpba, pieces")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                    help="a model parameter of the preset (as skbioner train --param)")
    ap.add_argument("--holdout", type=int, choices=range(10), default=None,
                    help="hold out the K-th tenth of the training abstracts instead of the "
                         "last (the development split is K=9); the test set is never read")
    args = ap.parse_args()

    from skbioner.io import read_jnlpba
    from skbioner.metrics import character_span_scores, entity_report
    from skbioner.models import RecutTagger
    from skbioner.pipelines import make_tagger, parse_params
    from skbioner.tagging import tag_documents

    corpus = read_jnlpba(Path(args.data) / "train.iob2")
    tr, dev = holdout_split(corpus, args.holdout)
    Xtr, ytr = [corpus.X[i] for i in tr], [corpus.y[i] for i in tr]
    Xdev, ydev = [corpus.X[i] for i in dev], [corpus.y[i] for i in dev]
    mk = _cuts_script()
    docs, gold = rebuild(corpus, dev, mk._glued)
    # the cut table counted on the training part only (the script's min_count and threshold),
    # for the raw-text tokenizer and the re-cut models alike: dev's own cuts stay unseen
    from skbioner.text import BioTokenizer, CutTable

    entities = mk.entity_counts(Xtr, ytr)
    table = CutTable(mk.count(Xtr, entities), 2, 0.6, entities)
    tokenizer = BioTokenizer(cuts=table)
    rows = {}
    for chars in args.variants.split(","):
        model = make_tagger(args.preset, model_params=parse_params(args.param))
        if chars != "none":
            model = RecutTagger(model, cuts=None if chars == "pieces" else table)
        t0 = time.perf_counter()
        model.fit(Xtr, ytr)
        seconds = time.perf_counter() - t0
        tok = entity_report(ydev, model.predict(Xdev)).overall.exact.f1
        pred = {r.id: [(e.type, e.start, e.end) for e in r.entities]
                for r in tag_documents(model, docs, tokenizer=tokenizer, confidence=False)}
        raw = character_span_scores(gold, pred)["overall"]
        rows[chars] = {"train_seconds": round(seconds, 1), "token_level_f1": tok,
                       "raw_text": raw, "gap": tok - raw["f1"]}
        print(f"{chars:<7} token-level F1 {100 * tok:.2f}  raw span F1 "
              f"{100 * raw['f1']:.2f} (P {100 * raw['precision']:.2f} R "
              f"{100 * raw['recall']:.2f})  gap {100 * (tok - raw['f1']):+.2f}  "
              f"trained in {seconds:.0f} s", flush=True)
    print(json.dumps({"preset": args.preset, "params": args.param, "holdout": args.holdout,
                      "dev_abstracts": len(docs), "rows": rows}))


if __name__ == "__main__":
    main()
