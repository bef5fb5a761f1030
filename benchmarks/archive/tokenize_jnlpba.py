"""Benchmark: BioTokenizer against the JNLPBA test tokenization, from the raw abstracts.

Usage::

    python benchmarks/archive/tokenize_jnlpba.py [--data ../shared/data/jnlpba] [--show 20]

The JNLPBA test split exists both as tokens (``test.iob2``) and as raw text
(``test-standoff/<MEDLINE id>.txt``; the two abstracts that occur twice in
``test.iob2`` have a second file ``<id>-2.txt``).  For every abstract the gold
tokens are located in the raw text left to right (skipping whitespace; a PTB
quote `````` / ``''`` is located on a ``"``; see
:func:`skbioner.text.align_tokens`), which gives each gold token a
``(start, end)`` span.  The raw text is then tokenized, and

* ``token_recall``: fraction of gold tokens whose exact span is a predicted token
  (gold tokens that cannot be located count as misses and are listed);
* ``token_precision``: fraction of predicted tokens that are gold spans;
* ``sentence_boundary_f1``: F1 of sentence starts (the first sentence of each
  abstract excluded), a gold sentence starting at its first located token;
* ``tokens_per_s``: predicted tokens per second of ``tokenize_text`` over the
  404 abstracts (best of ``--repeat``).

Side by side, scored the same way: ``BioTokenizer(cuts=None)`` ("suffix rule": the
hand-written ``split_suffixes`` rule instead of the learned cuts of the default
``cuts="jnlpba"``); ``BioTokenizer(split_suffixes=False, cuts=None)``
("no suffixes": every hyphenated word whole); the same told the entity offsets
of the ``.ann`` files as forced token boundaries ("+entity bnd": the JNLPBA
files were made by cutting words at entity boundaries, so this column shows
how much of the remaining difference is due to that); and a naive baseline
(regex ``\\w+|[^\\w\\s]``, no sentence splitting; no peer tokenizer such as
NLTK or spaCy is a dependency).
``--show N`` prints N mismatching regions and the most frequent mismatch
patterns.  The last line of stdout is one JSON object with all numbers.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

from skbioner.io import read_brat, read_jnlpba
from skbioner.metrics import ClassScore
from skbioner.text import BioTokenizer, align_tokens, split_sentences, tokenize_text

TARGET_RECALL = 0.995
_DEFAULT_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "jnlpba"
_NAIVE = re.compile(r"\w+|[^\w\s]")


def naive_tokenize(text, bounds=None):
    """Whitespace + punctuation baseline: ``\\w+|[^\\w\\s]``."""
    return [m.span() for m in _NAIVE.finditer(text)]


# -- data -----------------------------------------------------------------------------


def load(data):
    """``[(name, text, gold_sentences, entity_offsets)]`` for every test abstract."""
    corpus = read_jnlpba(data / "test.iob2")
    seen = Counter()
    docs = []
    for doc_id, idx in corpus.documents():
        seen[doc_id] += 1
        name = doc_id if seen[doc_id] == 1 else f"{doc_id}-{seen[doc_id]}"
        doc = read_brat(data / "test-standoff" / f"{name}.txt")
        offsets = sorted({o for e in doc.entities for o in (e.start, e.end)})
        docs.append((name, doc.text, [list(corpus.X[i]) for i in idx], offsets))
    return docs


def gold_spans(name, text, sentences):
    """Locate the gold tokens: spans per sentence (None if not found), and the misses.

    A miss is reported as ``"<doc>: <token> (after '<previous tokens>')"``.
    """
    flat = [t for s in sentences for t in s]
    located = align_tokens(text, flat)
    unlocated = [f"{name}: {t!r} (after {' '.join(flat[max(0, i - 4) : i])!r})"
                 for i, (t, span) in enumerate(zip(flat, located)) if span is None]  # fmt: skip
    out, k = [], 0
    for s in sentences:
        out.append(located[k : k + len(s)])
        k += len(s)
    return out, unlocated


# -- scoring --------------------------------------------------------------------------


def score(docs, golds, predict, predict_sentences=None):
    """Token recall/precision and sentence-boundary counts of one tokenizer."""
    n_gold = n_pred = n_match = 0
    sb = Counter()
    regions = []
    for (name, text, _, bounds), (gsents, _) in zip(docs, golds):
        gold = {sp for s in gsents for sp in s if sp is not None}
        n_gold += sum(len(s) for s in gsents)
        pred = predict(text, bounds)
        pset = set(pred)
        n_pred += len(pred)
        n_match += len(gold & pset)
        regions.extend((name, text, r) for r in _mismatch_regions(gold - pset, pset - gold))
        if predict_sentences is not None:
            g = {next(sp[0] for sp in s if sp is not None) for s in gsents[1:] if any(s)}
            p = {s for s, _ in predict_sentences(text)[1:]}
            sb["tp"] += len(g & p)
            sb["fn"] += len(g - p)
            sb["fp"] += len(p - g)
    out = {"recall": n_match / n_gold, "precision": n_match / max(n_pred, 1),
           "n_gold": n_gold, "n_pred": n_pred, "n_match": n_match}  # fmt: skip
    if predict_sentences is not None:
        tp, fn, fp = sb["tp"], sb["fn"], sb["fp"]
        boundaries = ClassScore(n_gold=tp + fn, n_pred=tp + fp, tp={"exact": tp})
        out["sentence_boundary_f1"] = boundaries.exact.f1
        out["sentence_boundary_missed"] = fn
        out["sentence_boundary_spurious"] = fp
    return out, regions


def _mismatch_regions(gold_only, pred_only):
    """Group unmatched gold and predicted spans into overlapping regions."""
    items = sorted([(s, e, "g") for s, e in gold_only] + [(s, e, "p") for s, e in pred_only])
    regions, cur, cur_end = [], [], -1
    for s, e, side in items:
        if cur and s >= cur_end:
            regions.append(cur)
            cur = []
        cur.append((s, e, side))
        cur_end = max(cur_end, e) if len(cur) > 1 else e
    if cur:
        regions.append(cur)
    return regions


def _describe(text, region):
    gold = [text[s:e] for s, e, side in region if side == "g"]
    pred = [text[s:e] for s, e, side in region if side == "p"]
    return " ".join(gold) or "(none)", " ".join(pred) or "(none)"


def show(regions, n, out=sys.stdout):
    patterns = Counter(_describe(text, r) for _, text, r in regions)
    print(f"\nmismatch regions: {len(regions)}; most frequent (gold | predicted):", file=out)
    for (g, p), c in patterns.most_common(n):
        print(f"  {c:4d}  {g!r:40} | {p!r}", file=out)
    print(f"\nfirst {n} mismatches in context:", file=out)
    for name, text, region in regions[:n]:
        s = min(r[0] for r in region)
        e = max(r[1] for r in region)
        ctx = text[max(0, s - 30) : e + 30].replace("\n", "\\n")
        g, p = _describe(text, region)
        print(f"  {name}: gold {g!r} pred {p!r}\n      ...{ctx}...", file=out)


# -- main -----------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=_DEFAULT_DATA, help="JNLPBA directory")
    ap.add_argument("--show", type=int, default=0, help="print N mismatches and patterns")
    ap.add_argument("--repeat", type=int, default=3, help="timing runs (best)")
    args = ap.parse_args(argv)

    docs = load(args.data)
    golds = [gold_spans(name, text, sents) for name, text, sents, _ in docs]
    unlocated = [t for _, u in golds for t in u]
    n_chars = sum(len(text) for _, text, _, _ in docs)
    print(f"{len(docs)} abstracts, {n_chars} characters, "
          f"{sum(len(s) for _, _, ss, _ in docs for s in ss)} gold tokens; "
          f"{len(unlocated)} gold tokens not found in the raw text")  # fmt: skip
    for miss in unlocated:
        print(f"  not found: {miss}")

    default = BioTokenizer()
    whole = BioTokenizer(split_suffixes=False, cuts=None)
    rule = BioTokenizer(cuts=None)
    ours, regions = score(docs, golds, lambda t, b: default.token_spans(t), split_sentences)
    nosuf, _ = score(docs, golds, lambda t, b: whole.token_spans(t))
    ruled, _ = score(docs, golds, lambda t, b: rule.token_spans(t))
    # the JNLPBA conversion cut words at entity boundaries: told those (instead of
    # guessing them with split_suffixes), how close does the tokenizer get?
    ents, ent_regions = score(docs, golds, lambda t, b: whole.token_spans(t, b))
    naive, _ = score(docs, golds, naive_tokenize)

    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        n_tok = sum(sum(len(s) for s in tokenize_text(text)[0]) for _, text, _, _ in docs)
        times.append(time.perf_counter() - t0)
    t_naive = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        for _, text, _, _ in docs:
            naive_tokenize(text)
        t_naive.append(time.perf_counter() - t0)
    tps = n_tok / min(times)
    tps_naive = naive["n_pred"] / min(t_naive)

    cols = [("BioTokenizer", ours), ("suffix rule", ruled), ("no suffixes", nosuf),
            ("+entity bnd", ents), ("naive regex", naive)]  # fmt: skip
    print("\n" + " " * 20 + "".join(f"{name:>14}" for name, _ in cols))
    for key in ("recall", "precision"):
        print(f"token {key:14}" + "".join(f"{r[key]:14.4%}" for _, r in cols))
    print(f"{'mismatched gold':20}" + "".join(f"{r['n_gold'] - r['n_match']:14d}" for _, r in cols))
    print(f"{'tokens/s':20}{tps:14,.0f}{'':42}{tps_naive:14,.0f}")
    print(f"sentence boundary F1 {ours['sentence_boundary_f1']:.4%} "
          f"(missed {ours['sentence_boundary_missed']}, "
          f"spurious {ours['sentence_boundary_spurious']})")  # fmt: skip
    miss_ours = ours["n_gold"] - ours["n_match"]
    miss_naive = naive["n_gold"] - naive["n_match"]
    print(f"vs naive regex: recall {ours['recall'] - naive['recall']:+.4f}, "
          f"precision {ours['precision'] - naive['precision']:+.4f}, "
          f"{miss_naive / max(miss_ours, 1):.1f}x fewer mismatched gold tokens, "
          f"speed ratio {tps / tps_naive:.2f}")  # fmt: skip
    status = "met" if ours["recall"] >= TARGET_RECALL else "NOT met"
    print(f"target token recall >= {TARGET_RECALL:.1%}: {status}")
    if args.show:
        show(regions, args.show)
        print("\nwith the entity boundaries:")
        show(ent_regions, args.show)

    print(json.dumps({
        "token_recall": ours["recall"],
        "token_precision": ours["precision"],
        "sentence_boundary_f1": ours["sentence_boundary_f1"],
        "sentence_boundary_missed": ours["sentence_boundary_missed"],
        "sentence_boundary_spurious": ours["sentence_boundary_spurious"],
        "tokens_per_s": tps,
        "n_gold_tokens": ours["n_gold"],
        "n_pred_tokens": ours["n_pred"],
        "n_matched_tokens": ours["n_match"],
        "n_unlocated_gold_tokens": len(unlocated),
        "unlocated_gold_tokens": unlocated,
        "n_documents": len(docs),
        "suffix_rule_token_recall": ruled["recall"],
        "suffix_rule_token_precision": ruled["precision"],
        "no_suffixes_token_recall": nosuf["recall"],
        "no_suffixes_token_precision": nosuf["precision"],
        "entity_boundaries_token_recall": ents["recall"],
        "entity_boundaries_token_precision": ents["precision"],
        "naive_token_recall": naive["recall"],
        "naive_token_precision": naive["precision"],
        "naive_tokens_per_s": tps_naive,
        "target_token_recall": TARGET_RECALL,
        "target_met": ours["recall"] >= TARGET_RECALL,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
