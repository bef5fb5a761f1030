"""Benchmark: training data read from brat standoff against the same data as column file.

Usage::

    python benchmarks/archive/formats_standoff.py [--data ../shared/data/jnlpba]

The JNLPBA test split exists as tokens with IOB2 labels (``test.iob2``) and as
raw text with entity spans (``test-standoff/``, brat).  ``skbioner train
--train test-standoff/`` reads the second through
:func:`skbioner.datasets.load_corpus`: each text is tokenized with the entity
offsets as forced token boundaries and the tokens labelled from the spans.
How close does that come to the column file?  The gold tokens are located in
the raw text (:func:`skbioner.text.align_tokens`), which gives each a
character span, and for each tokenizer:

* ``token_recall`` / ``token_precision``: gold token spans that are tokens of
  the brat reading, and the other way round;
* ``pair_recall``: gold (token span, label) pairs reproduced exactly;
* ``label_agreement``: of the tokens both readings share, the fraction with
  the same label;
* ``entity_f1``: character spans and types of the entities of the two
  label sequences (the gold ones through the located tokens);
* ``n_sentences``: sentences of the brat reading (``test.iob2``: 3,856).

Tokenizers: ``BioTokenizer(split_suffixes=False, cuts=None)`` (the default of
``load_corpus``: words are cut only where an entity boundary falls, as the
JNLPBA files were made), ``BioTokenizer()`` (which also cuts words where the JNLPBA
training data would, ``cuts="jnlpba"``, whether or not an entity boundary falls there),
``BioTokenizer(cuts=None)`` (the older ``-induced`` suffix rule instead), and
``"whitespace"``.
Second, the way back from a column file: each corpus's tokens are joined by
spaces into texts (:func:`skbioner.io.corpus_to_documents`, what ``skbioner
convert`` writes for brat, BioC, PubTator) and read again with the default
tokenizer; ``roundtrip`` gives the token and entity agreement, for the JNLPBA
test file and the BioNLP13CG training file (``--bionlp13cg``); for BioNLP13CG
also with the tagging tokenizer ``BioTokenizer()`` (learned JNLPBA cuts) and
``BioTokenizer(cuts=None)`` (suffix rule), which cut words that corpus keeps whole.

The last line of stdout is one JSON object with all numbers.
"""

from __future__ import annotations

import argparse
import json
import warnings
from collections import Counter
from pathlib import Path

from skbioner.io import corpus_to_documents, read_brat, read_columns, read_jnlpba
from skbioner.schemes import labels_to_spans
from skbioner.text import BioTokenizer, align_tokens, tokenize_documents

_DEFAULT_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "jnlpba"


def load(data):
    """``(documents, gold)``: brat documents in test.iob2 order, and per document the gold
    ``[(span or None, label)]`` of its tokens."""
    corpus = read_jnlpba(data / "test.iob2")
    seen = Counter()
    docs, gold = [], []
    for doc_id, idx in corpus.documents():
        seen[doc_id] += 1
        name = doc_id if seen[doc_id] == 1 else f"{doc_id}-{seen[doc_id]}"
        doc = read_brat(data / "test-standoff" / f"{name}.txt")
        tokens = [t for i in idx for t in corpus.X[i]]
        labels = [lab for i in idx for lab in corpus.y[i]]
        docs.append(doc)
        gold.append(list(zip(align_tokens(doc.text, tokens), labels, strict=True)))
    return docs, gold, corpus


def _char_entities(pairs):
    """Entity ``(type, start, end)`` character spans of located tokens with IOB2 labels."""
    out = set()
    spans = [s for s, _ in pairs]
    for typ, i, j in labels_to_spans([lab for _, lab in pairs]):
        if spans[i] is not None and spans[j - 1] is not None:
            out.add((typ, spans[i][0], spans[j - 1][1]))
    return out


def score(docs, gold, tokenizer):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        X, y, offsets = tokenize_documents(docs, tokenizer, return_offsets=True)
    by_doc = {}
    for s, labs, offs in zip(X, y, offsets, strict=True):
        pairs = by_doc.setdefault(s.doc_id, [])
        pairs.extend(((int(a), int(b)), lab) for (a, b), lab in zip(offs, labs, strict=True))
    n_gold = n_pred = n_tok = n_pair = 0
    ent = Counter()
    for doc, g in zip(docs, gold, strict=True):
        ours = dict(by_doc.get(doc.id, []))
        n_gold += len(g)
        n_pred += len(ours)
        for span, lab in g:
            if span is not None and span in ours:
                n_tok += 1
                n_pair += ours[span] == lab
        ge, pe = _char_entities(g), _char_entities(list(ours.items()))
        ent["tp"] += len(ge & pe)
        ent["gold"] += len(ge)
        ent["pred"] += len(pe)
    return {
        "token_recall": n_tok / n_gold,
        "token_precision": n_tok / max(n_pred, 1),
        "pair_recall": n_pair / n_gold,
        "label_agreement": n_pair / max(n_tok, 1),
        "entity_f1": 2 * ent["tp"] / max(ent["gold"] + ent["pred"], 1),
        "n_gold_tokens": n_gold,
        "n_tokens": n_pred,
        "n_sentences": len(X),
        "n_warnings": len(caught),
    }


def roundtrip(path, tokenizer=None):
    """Token and entity agreement of a column file read back from its space-joined text."""
    corpus = read_columns(path)
    docs = corpus_to_documents(corpus)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # entities cut inside a token: counted as misses
        X, y, offsets = tokenize_documents(docs, tokenizer=tokenizer, return_offsets=True)
    # per document: compare (doc, start, end) of tokens and (doc, type, start, end) of entities
    gold_tok, gold_ent, ours_tok, ours_ent = set(), set(), set(), set()
    for doc, (_, idx) in zip(docs, corpus.documents(), strict=True):
        pos = 0
        for i in idx:
            starts = []
            for t in corpus.X[i]:
                starts.append(pos)
                pos += len(t) + 1
            gold_tok.update((doc.id, s, s + len(t)) for s, t in zip(starts, corpus.X[i]))
            for typ, a, b in labels_to_spans(corpus.y[i]):
                gold_ent.add((doc.id, typ, starts[a], starts[b - 1] + len(corpus.X[i][b - 1])))
    for sent, labels, offs in zip(X, y, offsets, strict=True):
        ours_tok.update((sent.doc_id, int(a), int(b)) for a, b in offs)
        for typ, a, b in labels_to_spans(labels):
            ours_ent.add((sent.doc_id, typ, int(offs[a, 0]), int(offs[b - 1, 1])))
    return {"token_recall": len(gold_tok & ours_tok) / len(gold_tok),
            "token_precision": len(gold_tok & ours_tok) / len(ours_tok),
            "entity_f1": 2 * len(gold_ent & ours_ent) / (len(gold_ent) + len(ours_ent)),
            "n_tokens": len(gold_tok), "n_entities": len(gold_ent)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=_DEFAULT_DATA, help="JNLPBA directory")
    ap.add_argument("--bionlp13cg", type=Path, default=_DEFAULT_DATA.parent / "bionlp13cg",
                    help="BioNLP13CG directory (train.tsv)")
    args = ap.parse_args(argv)
    docs, gold, corpus = load(args.data)
    n_located = sum(span is not None for g in gold for span, _ in g)
    print(f"{len(docs)} abstracts; {sum(map(len, gold))} gold tokens in {len(corpus.X)} "
          f"sentences, {n_located} located in the raw text")
    results = {
        "bio_no_suffixes": score(docs, gold, BioTokenizer(split_suffixes=False, cuts=None)),
        "bio_suffix_rule": score(docs, gold, BioTokenizer(cuts=None)),
        "bio_default": score(docs, gold, BioTokenizer()),
        "whitespace": score(docs, gold, "whitespace"),
    }
    keys = ("token_recall", "token_precision", "pair_recall", "label_agreement", "entity_f1")
    print(f"{'':22}" + "".join(f"{k:>17}" for k in results))
    for key in keys:
        print(f"{key:22}" + "".join(f"{r[key]:17.4%}" for r in results.values()))
    for key in ("n_tokens", "n_sentences", "n_warnings"):
        print(f"{key:22}" + "".join(f"{r[key]:17,d}" for r in results.values()))
    back = {"jnlpba_test": roundtrip(args.data / "test.iob2")}
    if (args.bionlp13cg / "train.tsv").exists():
        back["bionlp13cg_train"] = roundtrip(args.bionlp13cg / "train.tsv")
        # the tagging default (learned JNLPBA cuts) and the suffix rule on another corpus:
        # how often do they cut words that BioNLP13CG keeps whole?
        back["bionlp13cg_train_cuts_jnlpba"] = roundtrip(args.bionlp13cg / "train.tsv",
                                                         BioTokenizer())
        back["bionlp13cg_train_suffix_rule"] = roundtrip(args.bionlp13cg / "train.tsv",
                                                         BioTokenizer(cuts=None))
    print("\ncolumn file -> text (tokens joined by spaces) -> tokenizer (default of "
          "load_corpus; _cuts_jnlpba: BioTokenizer(), _suffix_rule: BioTokenizer(cuts=None)):")
    for name, r in back.items():
        print(f"  {name:18} tokens recall {r['token_recall']:.4%} precision "
              f"{r['token_precision']:.4%}, entity F1 {r['entity_f1']:.4%} "
              f"({r['n_tokens']:,} tokens, {r['n_entities']:,} entities)")
    print(json.dumps({"n_documents": len(docs), "n_gold_tokens": sum(map(len, gold)),
                      "n_gold_sentences": len(corpus.X), "n_located_gold_tokens": n_located,
                      **results, "roundtrip": back}))


if __name__ == "__main__":
    main()
