"""Where the raw-text gap comes from, on the development abstracts.

    python benchmarks/archive/raw_gap_dev.py --data ../shared/data/jnlpba
    python benchmarks/archive/raw_gap_dev.py --data ../shared/data/jnlpba --model dev-model.skops
    python benchmarks/archive/raw_gap_dev.py --data ../shared/data/jnlpba --cuts learned

The development abstracts (the last 10% of train.iob2) are rebuilt as text from their
tokens as in ``benchmarks/archive/cuts_dev.py`` (a space between tokens except where the corpus
cut a word); the ``--preset`` (default the bundled model's, ``online-crf``) is trained on
the other 90% (``--model FILE``: loaded from FILE if it exists, else trained and saved
there, to re-run quickly).  Its predictions are scored as character spans (type and both
offsets must match) for every combination of

* sentences: the corpus's (``gold``) or the tokenizer's splitter (``split``), and
* tokens: the non-blank runs of the text cut at a set of boundaries -- the corpus's
  (``gold``), the tokenizer's (``raw``), the tokenizer's plus the corpus cuts it missed
  (``raw+missed``: only its extra cuts wrong), the tokenizer's plus the missed corpus cuts
  that are entity boundaries (``raw+missed-entity``), the tokenizer's without its cuts the
  corpus does not have (``raw-extra``: only the missed cuts wrong);

with ``--tokenizer`` the tokenizer tagging uses (``jnlpba``: ``BioTokenizer()``'s learned
cut table with its shipped ``min_count`` and ``threshold`` but counted, like the model, on
the other 90% only -- the shipped table has seen the development abstracts' cuts; ``rule``:
``cuts=None``).  ``--cuts learned``: the tokenizer's words are then cut as
:class:`skbioner.models.LearnedCutTagger` cuts them (where a tagger of sub-word pieces,
the preset without calibration, fitted on the same 90% and saved to ``--cut-model``,
puts an entity boundary), and these are the ``raw`` tokens.

The gap from token-level F1 (the official way, on the corpus's tokens) to raw-text F1 is
split along one path, each step one change:

    scorer      token-level F1 -> gold sentences + gold tokens (must be 0)
    sentences   -> split sentences + gold tokens
    extra cuts  -> split sentences + raw+missed tokens
    missed cuts -> split sentences + raw tokens (= tagging the raw text)

and the token differences are counted (a missed cut is a corpus token boundary inside a
tokenizer token; an extra cut the reverse; an entity cut a missed cut where an entity
starts or ends).  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import time
from pathlib import Path


def _cuts_dev():
    path = Path(__file__).resolve().parent / "cuts_dev.py"
    spec = importlib.util.spec_from_file_location("cuts_dev", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def runs(text):
    """``(start, end)`` of the maximal non-blank runs of ``text``."""
    out, start = [], None
    for i, c in enumerate(text):
        if c.isspace():
            if start is not None:
                out.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        out.append((start, len(text)))
    return out


def cut_runs(text_runs, bounds):
    """The tokens of ``text_runs`` cut at every offset of ``bounds`` inside them."""
    out = []
    for s, e in text_runs:
        a = s
        for p in range(s + 1, e):
            if p in bounds:
                out.append((a, p))
                a = p
        out.append((a, e))
    return out


def group(tokens, sentence_spans):
    """``tokens`` (in text order) grouped by the sentence span holding their start."""
    out, k = [], 0
    for s, e in sentence_spans:
        sent = []
        while k < len(tokens) and tokens[k][0] < e:
            if tokens[k][0] >= s:
                sent.append(tokens[k])
            k += 1
        if sent:
            out.append(sent)
    return out


def boundaries(tokens):
    return {p for t in tokens for p in t}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--preset", default="online-crf")
    ap.add_argument("--model", default=None, help="model file: loaded if present, else saved")
    ap.add_argument("--tokenizer", default="jnlpba", choices=["jnlpba", "rule"])
    ap.add_argument("--holdout", type=int, choices=range(10), default=None,
                    help="hold out the K-th tenth of the training abstracts instead of the "
                         "last (the development split is K=9); the test set is never read")
    ap.add_argument("--cuts", default="tokenizer", choices=["tokenizer", "learned"])
    ap.add_argument("--cut-model", default=None,
                    help="the tagger of pieces (--cuts learned): loaded if present, else saved")
    ap.add_argument("--cut-min-count", type=int, default=3,
                    help="min_count of the tagger of pieces' features")
    args = ap.parse_args()

    from skbioner import Sentence
    from skbioner.io import load_model, read_jnlpba, save_model
    from skbioner.metrics import character_span_scores, entity_report
    from skbioner.pipelines import make_tagger
    from skbioner.schemes import labels_to_spans
    from skbioner.text import BioTokenizer, CutTable, load_cut_table

    cd = _cuts_dev()
    mk = cd._cuts_script()
    corpus = read_jnlpba(Path(args.data) / "train.iob2")
    tr, dev = cd.holdout_split(corpus, args.holdout)
    result = {"preset": args.preset, "tokenizer": args.tokenizer, "cuts": args.cuts,
              "holdout": args.holdout}
    if args.model and os.path.exists(args.model):
        model = load_model(args.model)
    else:
        t0 = time.perf_counter()
        model = make_tagger(args.preset).fit([corpus.X[i] for i in tr], [corpus.y[i] for i in tr])
        result["train_seconds"] = round(time.perf_counter() - t0, 1)
        if args.model:
            save_model(model, args.model)
    learned = None
    if args.cuts == "learned":
        from skbioner.models import LearnedCutTagger, MajorityTagger

        if args.cut_model and os.path.exists(args.cut_model):
            cut_tagger = load_model(args.cut_model)
        else:
            t0 = time.perf_counter()
            params = {"calibrate": False} if args.preset == "online-crf" else None
            # the tagger of pieces alone (a majority tagger stands for the tagger)
            cut_tagger = LearnedCutTagger(
                MajorityTagger(), make_tagger(args.preset, model_params=params,
                                   feature_params={"min_count": args.cut_min_count})).fit(
                [corpus.X[i] for i in tr], [corpus.y[i] for i in tr]).cut_tagger_
            result["cut_train_seconds"] = round(time.perf_counter() - t0, 1)
            if args.cut_model:
                save_model(cut_tagger, args.cut_model)
        learned = LearnedCutTagger(model)
        learned.tagger_, learned.cut_tagger_ = model, cut_tagger
    Xdev, ydev = [corpus.X[i] for i in dev], [corpus.y[i] for i in dev]
    token_f1 = entity_report(ydev, model.predict(Xdev)).overall.exact.f1
    result["token_level_f1"] = token_f1
    print(f"dev token-level F1 {100 * token_f1:.2f}", flush=True)

    gold_tokens = {}
    docs, gold = cd.rebuild(corpus, dev, mk._glued, tokens=gold_tokens)
    if args.tokenizer == "jnlpba":
        Xtr, ytr = [corpus.X[i] for i in tr], [corpus.y[i] for i in tr]
        entities = mk.entity_counts(Xtr, ytr)
        shipped = load_cut_table("jnlpba")
        tokenizer = BioTokenizer(cuts=CutTable(mk.count(Xtr, entities), shipped.min_count,
                                               shipped.threshold, entities))
    else:
        tokenizer = BioTokenizer(cuts=None)
    variants = {}  # (sentences, tokens) -> per document: list of sentences of token spans
    counts = dict.fromkeys(["gold_tokens", "raw_tokens", "missed_cuts", "missed_entity_cuts",
                            "extra_cuts", "gold_sentences", "split_sentences",
                            "sentence_boundaries_differ"], 0)
    for doc in docs:
        text = doc.text
        sents_gold = gold_tokens[doc.id]
        flat_gold = [t for s in sents_gold for t in s]
        gold_spans = [(s[0][0], s[-1][1]) for s in sents_gold]
        split_spans = tokenizer.sentence_spans(text)
        if learned is None:
            raw = tokenizer.token_spans(text)
        else:
            sents, offs = tokenizer.tokenize_text(text)
            _, offs = learned.split_tokens(sents, offs)
            raw = [(int(a), int(b)) for o in offs for a, b in o.tolist()]
        text_runs = runs(text)
        bg, br = boundaries(flat_gold), boundaries(raw)
        inside_raw = {p for s, e in raw for p in range(s + 1, e)}
        inside_gold = {p for s, e in flat_gold for p in range(s + 1, e)}
        ent = {p for _, s, e in gold[doc.id] for p in (s, e)}
        missed, extra = bg & inside_raw, br & inside_gold
        counts["gold_tokens"] += len(flat_gold)
        counts["raw_tokens"] += len(raw)
        counts["missed_cuts"] += len(missed)
        counts["missed_entity_cuts"] += len(missed & ent)
        counts["extra_cuts"] += len(extra)
        counts["gold_sentences"] += len(gold_spans)
        counts["split_sentences"] += len(split_spans)
        counts["sentence_boundaries_differ"] += len(
            {p for s in gold_spans for p in s} ^ {p for s in split_spans for p in s})
        assert cut_runs(text_runs, bg) == flat_gold, doc.id
        assert cut_runs(text_runs, br) == raw, doc.id
        token_sets = {"gold": flat_gold, "raw": raw,
                      "raw+missed": cut_runs(text_runs, br | missed),
                      "raw+missed-entity": cut_runs(text_runs, br | (missed & ent)),
                      "raw-extra": cut_runs(text_runs, br - extra)}
        for sname, sspans in (("gold", gold_spans), ("split", split_spans)):
            for tname, toks in token_sets.items():
                variants.setdefault((sname, tname), {})[doc.id] = group(toks, sspans)
    result["counts"] = counts
    print(json.dumps(counts), flush=True)

    texts = {d.id: d.text for d in docs}
    rows = {}
    for (sname, tname), per_doc in variants.items():
        sentences, where = [], []
        for doc_id, sents in per_doc.items():
            for sent in sents:
                sentences.append(Sentence([texts[doc_id][s:e] for s, e in sent], doc_id=doc_id))
                where.append((doc_id, sent))
        pred = {d: [] for d in per_doc}
        for labels, (doc_id, sent) in zip(model.predict(sentences), where, strict=True):
            pred[doc_id].extend((typ, sent[a][0], sent[b - 1][1])
                                for typ, a, b in labels_to_spans(labels))
        r = character_span_scores(gold, pred)["overall"]
        rows[f"{sname} sentences, {tname} tokens"] = r
        print(f"{sname:>5} sentences, {tname:<18} tokens: span F1 {100 * r['f1']:.2f} "
              f"(P {100 * r['precision']:.2f} R {100 * r['recall']:.2f})  "
              f"gap {100 * (token_f1 - r['f1']):+.2f}", flush=True)
    result["variants"] = rows

    def f1(s, t):
        return rows[f"{s} sentences, {t} tokens"]["f1"]

    path = [("scorer", token_f1, f1("gold", "gold")),
            ("sentences", f1("gold", "gold"), f1("split", "gold")),
            ("extra cuts", f1("split", "gold"), f1("split", "raw+missed")),
            ("missed cuts", f1("split", "raw+missed"), f1("split", "raw"))]
    result["gap"] = 100 * (token_f1 - f1("split", "raw"))
    result["parts"] = {name: 100 * (a - b) for name, a, b in path}
    raw = f1("split", "raw")
    result["missed_entity_cuts_part"] = 100 * (f1("split", "raw+missed-entity") - raw)
    result["extra_cuts_alone_part"] = 100 * (f1("split", "raw-extra") - raw)
    for name, v in result["parts"].items():
        print(f"part {name:<12} {v:+.2f}")
    print(f"total gap {result['gap']:.2f}; fixing only the missed entity cuts gains "
          f"{result['missed_entity_cuts_part']:+.2f}, only the extra cuts "
          f"{result['extra_cuts_alone_part']:+.2f}", flush=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
