"""Raw text against gold tokens on the development abstracts: which word cuts to use.

    python benchmarks/archive/cuts_dev.py --data ../shared/data/jnlpba

The test abstracts are for reporting only (``benchmarks/tag_raw.py``), so the cut table of
``BioTokenizer(cuts="jnlpba")`` is tuned here, on the development split (the last 10% of
train.iob2).  Its raw text is not available: it is rebuilt from the tokens, a space between
tokens except where the corpus cut a word (``Tax`` ``-induced`` -> ``Tax-induced``; the
glue rules of ``scripts/make_jnlpba_cuts.py``), the entities at their character offsets.
The ``--preset`` (default the bundled model's, ``online-crf``) is trained on the other 90%,
and the table counted on them too; then the development abstracts are tagged

* from their gold tokens (token-level exact F1, the official way), and
* from the rebuilt text, with each tokenizer: no cuts, the hand-written suffix rule
  (``cuts=None``), and the learned table with each ``--thresholds`` value and
  ``min_count`` (span F1: type and both character offsets must match).

Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import time
from pathlib import Path

_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_jnlpba_cuts.py"


def _cuts_script():
    spec = importlib.util.spec_from_file_location("make_jnlpba_cuts", _SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def holdout_split(corpus, holdout=None):
    """``(train, dev)`` sentence indices: the development split, or the ``holdout``-th tenth.

    None: :func:`skbioner.datasets.train_dev_split` (the last tenth of the training
    abstracts); K: the K-th tenth held out instead (a second opinion; K=9 is the
    development split).  The test set is never read.
    """
    from skbioner.datasets import train_dev_split

    if holdout is None:
        return train_dev_split(corpus.doc_ids)
    import numpy as np

    order = list(dict.fromkeys(corpus.doc_ids))
    k = int(holdout)
    held = set(order[k * len(order) // 10:(k + 1) * len(order) // 10])
    is_dev = np.fromiter((d in held for d in corpus.doc_ids), dtype=bool)
    return np.flatnonzero(~is_dev), np.flatnonzero(is_dev)


def rebuild(corpus, idx, glued, tokens=None):
    """``(documents, gold)``: the rebuilt text of each abstract and its entity spans.

    ``tokens``, a dict, receives per abstract id the ``(start, end)`` character offsets
    of each sentence's tokens in the rebuilt text (one list per sentence).
    """
    from skbioner.schemes import labels_to_spans
    from skbioner.tagging import Document

    docs, gold = [], {}
    by_doc = {}
    for i in idx:
        by_doc.setdefault(corpus.doc_ids[i], []).append(i)
    for doc_id, sents in by_doc.items():
        parts, spans, pos = [], [], 0
        for i in sents:
            toks, labs = list(corpus.X[i]), list(corpus.y[i])
            starts = []
            for k, t in enumerate(toks):
                if parts and not (k and glued(toks[k - 1], t)):
                    parts.append(" ")
                    pos += 1
                starts.append(pos)
                parts.append(t)
                pos += len(t)
            for typ, a, b in labels_to_spans(labs):
                spans.append((typ, starts[a], starts[b - 1] + len(toks[b - 1])))
            if tokens is not None:
                tokens.setdefault(doc_id, []).append(
                    [(a, a + len(t)) for a, t in zip(starts, toks, strict=True)])
        docs.append(Document(doc_id, "".join(parts), "<dev>"))
        gold[doc_id] = spans
    return docs, gold


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--preset", default="online-crf")
    ap.add_argument("--thresholds", default="0.3,0.4,0.5,0.6,0.7,0.8")
    ap.add_argument("--min-counts", default="2,5")
    args = ap.parse_args()

    from skbioner.datasets import train_dev_split
    from skbioner.io import read_jnlpba
    from skbioner.metrics import character_span_scores, entity_report
    from skbioner.pipelines import make_tagger
    from skbioner.tagging import tag_documents
    from skbioner.text import BioTokenizer, CutTable

    mk = _cuts_script()
    corpus = read_jnlpba(Path(args.data) / "train.iob2")
    tr, dev = train_dev_split(corpus.doc_ids)
    Xtr, ytr = [corpus.X[i] for i in tr], [corpus.y[i] for i in tr]
    t0 = time.perf_counter()
    model = make_tagger(args.preset).fit(Xtr, ytr)
    result = {"preset": args.preset, "train_seconds": time.perf_counter() - t0}
    Xdev, ydev = [corpus.X[i] for i in dev], [corpus.y[i] for i in dev]
    result["token_level_f1"] = entity_report(ydev, model.predict(Xdev)).overall.exact.f1
    print(f"dev token-level F1 {100 * result['token_level_f1']:.2f}", flush=True)
    docs, gold = rebuild(corpus, dev, mk._glued)
    entities = mk.entity_counts(Xtr, ytr)
    counts = mk.count(Xtr, entities)

    def raw_f1(tokenizer):
        pred = {r.id: [(e.type, e.start, e.end) for e in r.entities]
                for r in tag_documents(model, docs, tokenizer=tokenizer, confidence=False)}
        return character_span_scores(gold, pred)["overall"]

    rows = {"whole words": raw_f1(BioTokenizer(cuts=None, split_suffixes=False)),
            "suffix rule": raw_f1(BioTokenizer(cuts=None))}
    for m in (int(v) for v in args.min_counts.split(",")):
        for t in (float(v) for v in args.thresholds.split(",")):
            tok = BioTokenizer(cuts=CutTable(counts, m, t, entities))
            rows[f"table min_count={m} threshold={t}"] = raw_f1(tok)
    for name, r in rows.items():
        print(f"{name:<36} raw span F1 {100 * r['f1']:.2f}  (P {100 * r['precision']:.2f} "
              f"R {100 * r['recall']:.2f})  gap {100 * (result['token_level_f1'] - r['f1']):+.2f}",
              flush=True)
    result["raw_text"] = rows
    print(json.dumps(result))


if __name__ == "__main__":
    main()
