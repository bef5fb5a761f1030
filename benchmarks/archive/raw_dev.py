"""Raw text on the development abstracts: their real PubMed text, each way of cutting words.

    python benchmarks/archive/raw_dev.py --data ../shared/data/jnlpba
    python benchmarks/archive/raw_dev.py --data ../shared/data/jnlpba --variants table,learned \\
        --cache dev-models

The development abstracts are the last 10% of the training abstracts
(:func:`skbioner.datasets.train_dev_split`); their raw text and entity spans are
``train-standoff/<id>.txt`` / ``.ann`` (the text ``train.iob2`` was tokenized from).  The
``--preset`` (default the bundled model's, ``online-crf``, without calibration, which
changes no label) is trained on the other 90% of ``train.iob2`` and scored

* on the development abstracts' gold tokens (token-level exact F1, the official way), and
* on their raw text, tagged as ``skbioner tag`` tags (sentences, tokens, model, character
  offsets), scored as character spans (type and both offsets must match), with each
  ``--variants``:

  ``oracle``   the tokenizer told the gold entity offsets (``boundaries=``): the corpus's
               cuts, the reference the raw text cannot reach;
  ``table``    ``BioTokenizer()`` with the learned cut table counted on the same 90% (the
               shipped table has seen the development abstracts);
  ``rule``     ``BioTokenizer(cuts=None)``: the hand-written suffix rule;
  ``learned``  :class:`skbioner.models.LearnedCutTagger`: a tagger of sub-word pieces
               (the preset, features seen ``--cut-min-count`` times) decides the cuts;
  ``pieces``   that tagger of pieces tags the raw text itself (``RecutTagger(cuts=None)``);
  ``raw-table`` the preset trained instead on the 90%'s own raw text as ``table`` cuts it
               (each entity on the tokens wholly inside it): no corpus cut is ever seen.

``--cache DIR`` keeps the trained models there (re-runs load them).  The test abstracts
are never read.  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import time
from pathlib import Path

import numpy as np

VARIANTS = ("oracle", "table", "rule", "learned", "pieces", "raw-table")


def _cuts_script():
    path = Path(__file__).resolve().parents[2] / "scripts" / "make_jnlpba_cuts.py"
    spec = importlib.util.spec_from_file_location("make_jnlpba_cuts", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def cached(cache, name, train, log):
    """``train()``, or the model saved as ``cache/name.skops``."""
    from skbioner.io import load_model, save_model

    path = None if cache is None else os.path.join(cache, f"{name}.skops")
    if path and os.path.exists(path):
        return load_model(path)
    t0 = time.perf_counter()
    model = train()
    log[f"{name}_train_seconds"] = round(time.perf_counter() - t0, 1)
    if path:
        os.makedirs(cache, exist_ok=True)
        save_model(model, path)
    return model


def project(docs, tokenizer):
    """Sentences and IOB2 labels of ``docs`` as ``tokenizer`` cuts them, without the entities.

    Each entity labels the tokens wholly inside it (none: it is lost), so the labels say
    what a tagger of these tokens can find.
    """
    from skbioner.schemes import spans_to_labels

    X, y = [], []
    for doc in docs:
        sents, offs = tokenizer.tokenize_text(doc.text)
        spans = doc.spans()
        for sent, off in zip(sents, offs, strict=True):
            tokens = []
            for typ, s, e in spans:
                i = int(np.searchsorted(off[:, 0], s, side="left"))
                j = int(np.searchsorted(off[:, 1], e, side="right"))
                if i < j:
                    tokens.append((typ, i, j))
            kept, last = [], 0
            for t in sorted(tokens, key=lambda t: (t[1], -t[2])):
                if t[1] >= last:
                    kept.append(t)
                    last = t[2]
            X.append(sent.with_doc_id(doc.id))
            y.append(spans_to_labels(kept, len(sent), "IOB2"))
    return X, y


def oracle_spans(model, docs, tokenizer):
    """Predicted character spans with the gold entity offsets given to the tokenizer."""
    from skbioner.schemes import labels_to_spans

    out = {}
    for doc in docs:
        bounds = [p for _, s, e in doc.spans() for p in (s, e)]
        sents, offs = tokenizer.tokenize_text(doc.text, bounds)
        out[doc.id] = [(t, int(off[a, 0]), int(off[b - 1, 1]))
                       for sent, off, labs in zip(sents, offs, model.predict(sents), strict=True)
                       for t, a, b in labels_to_spans(labs)]
    return out


def word_cuts(docs, cuts, whole):
    """Token boundaries inside the words of ``whole`` (a tokenizer that never cuts a word
    inside) against the gold entity boundaries there: counts, precision and recall."""
    tp = n_pred = n_gold = 0
    for doc in docs:
        inside = {p for a, b in whole.token_spans(doc.text) for p in range(a + 1, b)}
        pred = cuts.get(doc.id, set()) & inside
        gold = {p for _, s, e in doc.spans() for p in (s, e)} & inside
        tp, n_pred, n_gold = tp + len(pred & gold), n_pred + len(pred), n_gold + len(gold)
    return {"tp": tp, "n_pred": n_pred, "n_gold": n_gold,
            "precision": tp / n_pred if n_pred else 0.0,
            "recall": tp / n_gold if n_gold else 0.0}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--preset", default="online-crf")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--cut-min-count", type=int, default=30,
                    help="min_count of the tagger of pieces' features (learned, pieces)")
    ap.add_argument("--cache", default=None, help="directory for the trained models")
    args = ap.parse_args()
    variants = args.variants.split(",")
    if unknown := set(variants) - set(VARIANTS):
        ap.error(f"unknown variants {sorted(unknown)}; choose from {VARIANTS}")

    from skbioner.datasets import train_dev_split
    from skbioner.io import read_brat_dir, read_jnlpba
    from skbioner.metrics import character_span_scores, entity_report
    from skbioner.models import LearnedCutTagger, MajorityTagger, RecutTagger
    from skbioner.pipelines import make_tagger
    from skbioner.tagging import Document, tag_documents
    from skbioner.text import BioTokenizer, CutTable, load_cut_table

    data = Path(args.data)
    corpus = read_jnlpba(data / "train.iob2")
    tr, dev = train_dev_split(corpus.doc_ids)
    Xtr, ytr = [corpus.X[i] for i in tr], [corpus.y[i] for i in tr]
    dev_ids = set(corpus.doc_ids[i] for i in dev)
    standoff = read_brat_dir(data / "train-standoff")
    dev_docs = [d for d in standoff if d.id in dev_ids]
    train_docs = [d for d in standoff if d.id not in dev_ids]
    gold = {d.id: d.spans() for d in dev_docs}
    docs = [Document(d.id, d.text, "<dev>") for d in dev_docs]
    result = {"preset": args.preset, "dev_abstracts": len(dev_docs)}
    no_cal = {"calibrate": False} if args.preset == "online-crf" else None

    mk = _cuts_script()
    entities = mk.entity_counts(Xtr, ytr)
    shipped = load_cut_table("jnlpba")
    table = BioTokenizer(cuts=CutTable(mk.count(Xtr, entities), shipped.min_count,
                                       shipped.threshold, entities))
    model = cached(args.cache, args.preset,
                   lambda: make_tagger(args.preset, model_params=no_cal).fit(Xtr, ytr), result)
    Xdev, ydev = [corpus.X[i] for i in dev], [corpus.y[i] for i in dev]
    token_f1 = entity_report(ydev, model.predict(Xdev)).overall.exact.f1
    result["token_level_f1"] = token_f1
    print(f"dev token-level F1 (gold tokens) {100 * token_f1:.2f}", flush=True)

    def pieces_tagger():
        params = {**(no_cal or {}), "calibrate": False} if args.preset == "online-crf" else None
        return cached(args.cache, f"{args.preset}-pieces-{args.cut_min_count}", lambda:
                      LearnedCutTagger(MajorityTagger(), make_tagger(
                          args.preset, model_params=params,
                          feature_params={"min_count": args.cut_min_count})).fit(
                          Xtr, ytr).cut_tagger_, result)

    whole = BioTokenizer(split_suffixes=False, cuts=None)  # words never cut inside
    rows = {}
    for name in variants:
        tokenizer, tagger, token_level = table, model, None
        if name == "oracle":
            pred = oracle_spans(model, dev_docs, BioTokenizer(split_suffixes=False, cuts=None))
        else:
            if name == "rule":
                tokenizer = BioTokenizer(cuts=None)
            elif name == "learned":
                tagger = LearnedCutTagger(model)
                tagger.tagger_, tagger.cut_tagger_ = model, pieces_tagger()
            elif name == "pieces":
                tagger = RecutTagger(MajorityTagger())
                tagger.tagger_ = pieces_tagger()
                token_level = entity_report(ydev, tagger.predict(Xdev)).overall.exact.f1
            elif name == "raw-table":
                Xr, yr = project(train_docs, table)
                tagger = cached(args.cache, f"{args.preset}-raw-table",
                                lambda Xr=Xr, yr=yr: make_tagger(
                                    args.preset, model_params=no_cal).fit(Xr, yr),
                                result)
                token_level = entity_report(ydev, tagger.predict(Xdev)).overall.exact.f1
            pred, cuts = {}, {}
            for res in tag_documents(tagger, docs, tokenizer=tokenizer, confidence=False):
                pred[res.id] = [(e.type, e.start, e.end) for e in res.entities]
                cuts[res.id] = {int(p) for o in res.offsets for p in o.ravel()}
        r = character_span_scores(gold, pred)["overall"]
        r["token_level_f1"] = token_f1 if token_level is None else token_level
        if name != "oracle":
            r["word_cuts"] = word_cuts(dev_docs, cuts, whole)
        rows[name] = r
        print(f"{name:<10} raw-text span F1 {100 * r['f1']:.2f} (P {100 * r['precision']:.2f} "
              f"R {100 * r['recall']:.2f}); its gold-token F1 {100 * r['token_level_f1']:.2f}, "
              f"gap {100 * (r['token_level_f1'] - r['f1']):+.2f}", flush=True)
        if "word_cuts" in r:
            c = r["word_cuts"]
            print(f"{'':<10} cuts inside words against the entity boundaries there: "
                  f"{c['tp']} of {c['n_pred']} right (P {100 * c['precision']:.1f}), "
                  f"{c['tp']} of {c['n_gold']} found (R {100 * c['recall']:.1f})", flush=True)
    result["raw_text"] = rows
    print(json.dumps(result))


if __name__ == "__main__":
    main()
