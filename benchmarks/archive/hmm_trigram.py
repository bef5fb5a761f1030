"""HMMSVMTagger: a trigram tag model (pair states) against the bigram one, on the dev split.

The tagger is trained once (the ``hmm-svm`` preset) on the first 90% of the training
abstracts; its lexical term is then decoded with

* the bigram tag model it has (``log P(b | a)``), and
* a trigram model ``P(c | a, b) = (n(a, b, c) + beta P(c | b)) / (n(a, b) + beta)``
  (the bigram as the Dirichlet base; sentence start and end included), decoded as a
  first-order chain over *pair states* ``(a, b)`` (label of the previous and of the
  current token) by the suite's one Viterbi (``skbioner.decoding.viterbi_batch`` over
  dense scores): the state ``(a, b)`` scores token ``i`` with label ``b``'s lexical
  score, ``(a, b) -> (b, c)`` with ``log P(c | a, b)``.

for a grid of ``beta`` and prior/transition weights, and scored on the dev split:

    python benchmarks/archive/hmm_trigram.py --data ../shared/data/jnlpba

Other cheap settings trained in the same run when asked (``--cv 3``: the sigmoids fitted
on three folds instead of two).  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from skbioner.datasets import load_jnlpba, train_dev_split
from skbioner.decoding import NEG, viterbi_batch
from skbioner.metrics import entity_f1_score
from skbioner.pipelines import make_tagger, parse_params


def trigram_counts(codes_per_sentence, L):
    """``n(a, b, c)`` with ``a`` = L for the sentence start and ``c`` = L for its end."""
    tri = np.zeros((L + 1, L, L + 1))
    for c in codes_per_sentence:
        if not len(c):
            continue
        seq = [L, *c.tolist(), L]
        for a, b, d in zip(seq[:-2], seq[1:-1], seq[2:]):
            tri[a, b, d] += 1
    return tri


def pair_chain(model, tri, beta):
    """Pair states ``(a, b)``, their label ``b``, and the chain's start/trans/end."""
    L = model.label_space_.n_labels
    mstart, mtrans, mend = model.label_space_.mask()
    # bigram P(c | b) over c in labels + END
    bi = np.concatenate([model.log_transition_, model.log_end_[:, None]], axis=1)
    states = [(L, b) for b in range(L) if mstart[b] == 0]
    states += [(a, b) for a in range(L) for b in range(L) if mtrans[a, b] == 0]
    index = {s: k for k, s in enumerate(states)}
    P = len(states)
    label = np.array([b for _, b in states])
    start = np.full(P, NEG)
    trans = np.full((P, P), NEG)
    end = np.full(P, NEG)
    for k, (a, b) in enumerate(states):
        n = tri[a, b]  # counts of the next label (and END)
        logp = np.log((n + beta * np.exp(bi[b])) / (n.sum() + beta))
        if a == L:
            start[k] = model.log_start_[b]
        if mend[b] == 0:
            end[k] = logp[L]
        for c in range(L):
            j = index.get((b, c))
            if j is not None:
                trans[k, j] = logp[c]
    return label, start, trans, end


def decode_trigram(model, Xt, chain, weight):
    label, start, trans, end = chain
    scores = model._lexical(Xt) - model.prior_weight * model.log_prior_
    pair_scores = np.ascontiguousarray(scores[:, label])
    w = float(weight)
    paths = viterbi_batch(pair_scores, Xt.offsets, w * trans, w * start, w * end)
    codes = label[paths]
    return model.label_space_.decode(codes, Xt.offsets, well_formed=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/jnlpba")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--betas", default="1,10,100,1000")
    args = ap.parse_args()
    corpus = load_jnlpba(args.data, "train")
    tr, ev = train_dev_split(corpus.doc_ids)
    X_train, y_train = [corpus.X[i] for i in tr], [corpus.y[i] for i in tr]
    X_dev, y_dev = [corpus.X[i] for i in ev], [corpus.y[i] for i in ev]
    pipe = make_tagger("hmm-svm", model_params=parse_params(args.param))
    t0 = time.perf_counter()
    pipe.fit(X_train, y_train)
    result = {"benchmark": "hmm_trigram", "params": args.param,
              "train_seconds": round(time.perf_counter() - t0, 1), "bigram": {}, "trigram": {}}
    model = pipe[-1]
    Xt = pipe[:-1].transform(X_dev)
    space = model.label_space_
    codes = space.encode(y_train)
    lengths = [len(s) for s in y_train]
    per_sent = np.split(codes, np.cumsum(lengths)[:-1])
    tri = trigram_counts(per_sent, space.n_labels)
    chosen = (model.prior_weight, model.transition_weight)
    for pw in (0.4, 0.6, 0.8, 1.0):
        for tw in (0.5, 1.0, 1.5):
            model.set_params(prior_weight=pw, transition_weight=tw)
            result["bigram"][f"{pw}/{tw}"] = round(100 * entity_f1_score(
                y_dev, model.predict(Xt)), 2)
    for beta in (float(b) for b in args.betas.split(",")):
        chain = pair_chain(model, tri, beta)
        for pw in (0.4, 0.6, 0.8, 1.0):
            for tw in (0.5, 1.0, 1.5):
                model.set_params(prior_weight=pw)
                pred = decode_trigram(model, Xt, chain, tw)
                result["trigram"][f"{beta:g}:{pw}/{tw}"] = round(
                    100 * entity_f1_score(y_dev, pred), 2)
    model.set_params(prior_weight=chosen[0], transition_weight=chosen[1])
    result["n_pair_states"] = int(len(chain[0]))
    best_bi = max(result["bigram"].items(), key=lambda kv: kv[1])
    best_tri = max(result["trigram"].items(), key=lambda kv: kv[1])
    result["best"] = {"bigram": best_bi, "trigram": best_tri}
    print("bigram", result["bigram"])
    print("trigram", result["trigram"])
    print("best", result["best"], flush=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
