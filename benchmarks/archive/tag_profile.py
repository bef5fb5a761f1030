"""Where raw-text tagging spends its time: CPU seconds per stage, per token.

    NUMBA_NUM_THREADS=1 python benchmarks/archive/tag_profile.py --data ../shared/data/jnlpba
    NUMBA_NUM_THREADS=1 python benchmarks/archive/tag_profile.py --data ../shared/data/jnlpba \
        --model cascaded.skops

Tags the 404 JNLPBA test abstracts (test-standoff/*.txt) in batches of
``tag_documents``'s default size, after one warm-up pass, and times each stage of a batch
with the process's CPU clock (less sensitive than wall-clock time to other jobs on the
machine): tokenizing (``BioTokenizer.tokenize_text``), featurizing (the pipeline's
transformers), ``predict_entities`` (for a chain model also its steps: emission scores,
Viterbi, segments, span probabilities), and the
whole ``tag_documents`` pass; the per-type feature functions the featurizer runs on word
types unseen in training (``Channel.values``) are timed inside the featurizing stage. The
stages are timed outside the garbage-collector pause ``tag_documents`` uses, so they add
up to a little more than the whole pass. Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path


def _time_channel_values(acc):
    """Wrap every feature channel's ``values`` to add its CPU seconds to ``acc``."""
    from skbioner.features import _channels

    for name in dir(_channels):
        cls = getattr(_channels, name)
        if isinstance(cls, type) and issubclass(cls, _channels.Channel) \
                and "values" in cls.__dict__:
            orig = cls.__dict__["values"]

            def values(self, types, _orig=orig, _name=name):
                c = time.process_time()
                out = _orig(self, types)
                acc[_name] += time.process_time() - c
                return out

            cls.values = values


def _chain_steps(model, X, stages):
    """Time the steps of a chain model's ``predict_entities`` (as it runs them)."""
    from skbioner.decoding import segment_probabilities, viterbi_batch

    c = time.process_time()
    raw = model._chain_scores(X)
    scores = raw.dense()
    c1 = time.process_time()
    paths = viterbi_batch(scores, raw.offsets, raw.trans, raw.start, raw.end)
    c2 = time.process_time()
    table = model._segment_table()
    segments = table.segments(paths, raw.offsets)
    problem, tscores = model._probability_problem(raw, scores)
    c3 = time.process_time()
    segment_probabilities(tscores, problem.offsets, problem.trans, problem.start, problem.end,
                          segments, table)
    c4 = time.process_time()
    stages["  emission scores"] += c1 - c
    stages["  Viterbi"] += c2 - c1
    stages["  segments"] += c3 - c2
    stages["  span probabilities"] += c4 - c3


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--model", default=None, help="a saved model (default: the bundled one)")
    ap.add_argument("--repeat", type=int, default=3, help="timed passes")
    args = ap.parse_args()

    import skbioner
    from skbioner.tagging import Document, tag_documents
    from skbioner.tagging._tagger import BATCH_SIZE  # private: profiled setting
    from skbioner.text import BioTokenizer

    model = skbioner.load_model(args.model)
    docs = [Document(p.stem, p.read_text(encoding="utf-8"), str(p))
            for p in sorted((Path(args.data) / "test-standoff").glob("*.txt"))]
    head, final = model[:-1], model.steps[-1][1]
    tok = BioTokenizer()
    n = sum(r.n_tokens for r in tag_documents(model, docs))  # warm-up
    values = Counter()
    _time_channel_values(values)
    stages = Counter()
    for _ in range(args.repeat):
        c = time.process_time()
        for _r in tag_documents(model, docs):
            pass
        stages["whole pass"] += time.process_time() - c
        for i in range(0, len(docs), BATCH_SIZE):
            batch = docs[i:i + BATCH_SIZE]
            c = time.process_time()
            sents = [s.with_doc_id(str(d.id)) for d in batch for s in tok.tokenize_text(d.text)[0]]
            stages["tokenize"] += time.process_time() - c
            c = time.process_time()
            before = sum(values.values())
            X = head.transform(sents)
            stages["featurize"] += time.process_time() - c
            stages["featurize: unseen-type functions"] += sum(values.values()) - before
            c = time.process_time()
            final.predict_entities(X)
            stages["predict_entities"] += time.process_time() - c
            if hasattr(final, "_chain_scores"):  # a chain model: its steps one by one
                _chain_steps(final, X, stages)
    per_token = {k: v / args.repeat / n * 1e6 for k, v in stages.items()}
    print(f"{n:,} tokens per pass, {args.repeat} passes, batches of {BATCH_SIZE} documents")
    for k, v in per_token.items():
        print(f"{k:<36}{v:8.2f} us/token")
    rate = n * args.repeat / stages["whole pass"]
    print(f"{'rate':<36}{rate:>12,.0f} tokens per CPU second")
    print(json.dumps({"model": args.model or "bundled", "tokens": n, "batch_size": BATCH_SIZE,
                      "us_per_token": per_token, "tokens_per_cpu_second": rate}))


if __name__ == "__main__":
    main()
