"""Raw text in, entities out: `skbioner tag`'s pipeline on the 404 JNLPBA test abstracts.

    python benchmarks/tag_raw.py --data ../shared/data/jnlpba
    python benchmarks/tag_raw.py --data ../shared/data/jnlpba --model cascaded.skops
    python benchmarks/tag_raw.py --data ../shared/data/jnlpba --model bundled

Trains the cascaded model with the `skbioner train` defaults on train.iob2 (or loads
--model with ``skbioner.load_model``, as ``skbioner tag`` does; ``--model bundled``: the
model shipped with the package), then

* scores it the official way on the gold tokens of test.iob2 (token-level exact F1), and
* tags the raw abstracts test-standoff/*.txt through skbioner.tagging (BioTokenizer ->
  model -> character offsets) and scores the predicted spans against the gold .ann files:
  an entity counts only if its type and both character offsets match.

The two F1 scores are printed side by side (the issue asks for a gap under 1.0 point),
with tagging throughput (tokens/s, the abstracts streamed --repeat times in batches) for 1
and 2 jobs; the 2-job run loads the model once per worker process, inside the timing.
Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
import time
from pathlib import Path


def _documents(directory, repeat):
    """The documents of ``directory``, streamed ``repeat`` times (ids suffixed after the first)."""
    from skbioner.tagging import Document, iter_documents

    for r in range(repeat):
        for doc in iter_documents(directory):
            yield doc if r == 0 else Document(f"{doc.id}.{r}", doc.text, doc.source)


def _tag(model_ref, directory, n_jobs, batch_size, repeat=1):
    from skbioner.tagging import DocumentError, tag_documents

    t0 = time.perf_counter()
    out, errors, n_tokens = {}, [], 0
    first = None  # (seconds, tokens) when the first result arrived: worker start-up included
    kw = {} if batch_size is None else {"batch_size": batch_size}
    for res in tag_documents(model_ref, _documents(directory, repeat), n_jobs=n_jobs, **kw):
        if first is None:
            first = (time.perf_counter() - t0, n_tokens)
        if isinstance(res, DocumentError):
            errors.append(str(res))
            continue
        if "." not in res.id:
            out[res.id] = [(e.type, e.start, e.end) for e in res.entities]
        n_tokens += res.n_tokens
    return out, errors, n_tokens, time.perf_counter() - t0, first


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--model", help="a saved model, or 'bundled' (default: train the "
                                    "cascaded model)")
    ap.add_argument("--batch-size", type=int, default=None,
                    help="documents per predict call (default: tag_documents's)")
    ap.add_argument("--jobs", default="1,2", help="comma-separated n_jobs values to time")
    ap.add_argument("--repeat", type=int, default=10,
                    help="stream the abstracts this many times for the throughput runs (the "
                         "workers' one-time model loading is included in the time)")
    args = ap.parse_args()

    from skbioner import load_model
    from skbioner.datasets import load_jnlpba
    from skbioner.io import read_brat_dir, save_model
    from skbioner.metrics import character_span_scores, entity_report
    from skbioner.pipelines import make_tagger
    from skbioner.tagging import BUNDLED_MODEL

    data = Path(args.data)
    standoff = data / "test-standoff"
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        if args.model:
            model_path = str(BUNDLED_MODEL) if args.model == "bundled" else args.model
            model = load_model(model_path)
        else:
            train = load_jnlpba(data, "train")
            model = make_tagger("cascaded")
            t0 = time.perf_counter()
            model.fit(train.X, train.y)
            result["train_seconds"] = time.perf_counter() - t0
            model_path = os.path.join(tmp, "cascaded.skops")
            save_model(model, model_path)
        test = load_jnlpba(data, "test")
        rep = entity_report(test.y, model.predict(test.X))
        result["token_level"] = {"exact_f1": rep.overall.exact.f1,
                                 "per_class": {c: s.exact.f1 for c, s in rep.per_class.items()}}
        gold = {d.id: d.spans() for d in read_brat_dir(standoff)}
        _tag(model, standoff, 1, args.batch_size)  # warm-up: compiled kernels, caches
        rss_one_pass = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        runs = {}
        for n_jobs in [int(j) for j in args.jobs.split(",")]:
            ref = model if n_jobs == 1 else model_path
            pred, errors, n_tokens, seconds, (t_first, tok_first) = _tag(
                ref, standoff, n_jobs, args.batch_size, args.repeat)
            steady = (n_tokens - tok_first) / (seconds - t_first)
            runs[n_jobs] = {"seconds": seconds, "tokens": n_tokens,
                            "tokens_per_second": n_tokens / seconds,
                            "first_result_seconds": t_first,
                            "steady_tokens_per_second": steady, "errors": errors}
            print(f"n_jobs={n_jobs}: {len(pred)} documents x {args.repeat}, {n_tokens} tokens "
                  f"in {seconds:.2f} s = {n_tokens / seconds:,.0f} tokens/s; first result after "
                  f"{t_first:.2f} s (worker start-up), then {steady:,.0f} tokens/s"
                  + (f"; {len(errors)} documents failed" if errors else ""), flush=True)
            if n_jobs == 1:  # streaming: memory must not grow with the number of documents
                rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                runs[n_jobs].update(peak_rss_mb_one_pass=rss_one_pass,
                                    peak_rss_mb_all_passes=rss)
                print(f"peak RSS after one pass over the abstracts {rss_one_pass:.0f} MB, after "
                      f"{args.repeat} more {rss:.0f} MB", flush=True)
        scores = character_span_scores(gold, pred)
    result["raw_text"] = scores
    result["tagging"] = runs
    result["f1_gap"] = result["token_level"]["exact_f1"] - scores["overall"]["f1"]
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'class':<10} {'token-level F1':>15} {'raw-text span F1':>17}")
    for c in sorted(scores["per_class"]):
        tok = result["token_level"]["per_class"].get(c, float("nan"))
        print(f"{c:<10} {tok:>15.4f} {scores['per_class'][c]['f1']:>17.4f}")
    print(f"{'overall':<10} {result['token_level']['exact_f1']:>15.4f} "
          f"{scores['overall']['f1']:>17.4f}   gap {result['f1_gap']:+.4f}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
