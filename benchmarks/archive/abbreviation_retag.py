"""AbbreviationResolver with and without tagging the sentence without its ``(SF)`` (dev split).

Zhou & Su (2004) tag a sentence holding ``long form (SF)`` without the parenthesised
part, then give the short form the class of its long form.  The preset (``--model``) is
trained on the first 90% of the training abstracts; on the last 10% its predictions are
resolved by ``AbbreviationResolver()`` and by ``AbbreviationResolver(strip_parentheses=True)``
(which calls the tagger again on the shortened sentences), alone and before the alias
and cascade steps:

    python benchmarks/archive/abbreviation_retag.py --data ../shared/data/jnlpba --model online-crf

Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time

from skbioner.datasets import load_jnlpba, train_dev_split
from skbioner.metrics import entity_f1_score, paired_bootstrap
from skbioner.pipelines import make_tagger, parse_params
from skbioner.postprocess import AbbreviationResolver, CascadedEntityRules, NameAlias, apply_steps


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--model", default="online-crf")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args()
    corpus = load_jnlpba(args.data, "train")
    tr, ev = train_dev_split(corpus.doc_ids)
    X_train, y_train = [corpus.X[i] for i in tr], [corpus.y[i] for i in tr]
    X_dev, y_dev = [corpus.X[i] for i in ev], [corpus.y[i] for i in ev]
    pipe = make_tagger(args.model, model_params=parse_params(args.param))
    t0 = time.perf_counter()
    pipe.fit(X_train, y_train)
    result = {"benchmark": "abbreviation_retag", "model": args.model, "params": args.param,
              "train_seconds": round(time.perf_counter() - t0, 1)}
    pred = pipe.predict(X_dev)
    result["alone"] = round(100 * entity_f1_score(y_dev, pred), 2)
    cascade = CascadedEntityRules().fit(X_train, y_train)
    alias = NameAlias().fit(X_train, y_train)
    groups = [s.doc_id for s in X_dev]
    outs = {}
    for strip in (False, True):
        abbr = AbbreviationResolver(strip_parentheses=strip).fit(X_train, y_train)
        for name, steps in (("abbreviations", [abbr]), ("all-steps", [cascade, abbr, alias])):
            t0 = time.perf_counter()
            out = apply_steps(steps, X_dev, pred, retag=pipe.predict)
            key = f"{name}{'+strip' if strip else ''}"
            outs[key] = out
            result[key] = round(100 * entity_f1_score(y_dev, out), 2)
            result[key + "_seconds"] = round(time.perf_counter() - t0, 2)
    for name in ("abbreviations", "all-steps"):
        result[name + "_p_strip_vs_plain"] = paired_bootstrap(
            y_dev, outs[name], outs[name + "+strip"], groups=groups, n_resamples=2000,
            random_state=0).p_value
    print({k: v for k, v in result.items()}, flush=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
