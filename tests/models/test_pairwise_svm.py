"""PairwiseSVMTagger: compiled kernels against pure-Python oracles, switches, quality."""

import numpy as np
import pytest
import scipy.sparse as sp

from skbioner import Sentence
from skbioner.features import TokenFeaturizer
from skbioner.metrics import entity_f1_score
from skbioner.models import PairwiseSVMTagger
from skbioner.models._pairwise_svm_linear import (
    ALL_TERMS,
    BASE_TERMS,
    CONJ_ALL,
    CONJ_NONE,
    CONJ_PC,
    PC_TERMS,
    MapSpec,
    Votes,
    couple_probabilities,
    dcd_svm,
    decide,
    expand,
    n_mapped,
    pack_weights,
)
from skbioner.schemes import is_valid_label
from tests.models.toy import toy_sentences

# -- oracles ----------------------------------------------------------------------


def couple_oracle(r, k):
    """libsvm's multiclass_probability (Wu, Lin & Weng 2004, method 2), verbatim."""
    Q = [[0.0] * k for _ in range(k)]
    p = [1.0 / k] * k
    for t in range(k):
        for j in range(t):
            Q[t][t] += r[j][t] * r[j][t]
            Q[t][j] = Q[j][t]
        for j in range(t + 1, k):
            Q[t][t] += r[j][t] * r[j][t]
            Q[t][j] = -r[j][t] * r[t][j]
    for _ in range(max(100, k)):
        Qp = [sum(Q[t][j] * p[j] for j in range(k)) for t in range(k)]
        pQp = sum(p[t] * Qp[t] for t in range(k))
        if max(abs(Qp[t] - pQp) for t in range(k)) < 0.005 / k:
            break
        for t in range(k):
            diff = (-Qp[t] + pQp) / Q[t][t]
            p[t] += diff
            pQp = (pQp + diff * (diff * Q[t][t] + 2 * Qp[t])) / (1 + diff) / (1 + diff)
            for j in range(k):
                Qp[j] = (Qp[j] + diff * Q[t][j]) / (1 + diff)
                p[j] /= 1 + diff
    return p


def test_coupling_matches_libsvm_oracle(rng):
    K = 5
    pairs = np.array([(a, b) for a in range(K) for b in range(a + 1, K)], dtype=np.int64)
    R = rng.uniform(0.02, 0.98, size=(7, len(pairs)))
    out = np.empty((7, K))
    couple_probabilities(R, pairs[:, 0].copy(), pairs[:, 1].copy(), K, out)
    for t in range(7):
        r = [[0.0] * K for _ in range(K)]
        for q, (a, b) in enumerate(pairs):
            r[b][a], r[a][b] = R[t, q], 1 - R[t, q]
        np.testing.assert_allclose(out[t], couple_oracle(r, K), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(out.sum(axis=1), 1.0)
    # two classes: the pair's own probability
    out2 = np.empty((3, 2))
    couple_probabilities(np.array([[0.2], [0.7], [0.9]]), np.array([0]), np.array([1]), 2, out2)
    np.testing.assert_allclose(out2[:, 1], [0.2, 0.7, 0.9], atol=1e-3)


# -- the explicit route: solver, map, packed weights, decisions ------------------------


def dcd_oracle(X, y, C, bias, epochs=3000):
    """Dual coordinate descent for the hinge-loss SVM, plain Python, no shrinking."""
    X = X.toarray()
    n, d = X.shape
    Xb = np.hstack([X, np.full((n, 1), bias)])
    w = np.zeros(d + 1)
    alpha = np.zeros(n)
    qd = (Xb * Xb).sum(axis=1)
    for _ in range(epochs):
        for i in range(n):
            g = y[i] * float(Xb[i] @ w) - 1.0
            new = min(max(alpha[i] - g / qd[i], 0.0), C)
            w += (new - alpha[i]) * y[i] * Xb[i]
            alpha[i] = new
    return w


def test_dcd_matches_the_oracle_and_liblinear(rng):
    from sklearn.svm import LinearSVC

    X = sp.random(80, 12, density=0.3, format="csr", random_state=3)
    X.data[:] = 1.0
    y = np.where(X @ rng.normal(size=12) + 0.2 * rng.normal(size=80) > 0.3, 1.0, -1.0)
    rows = np.arange(80, dtype=np.int64)
    w = np.zeros(13)
    csr = (X.indptr.astype(np.int64), X.indices.astype(np.int32), X.data.astype(np.float32),
           (0, 0.0, 0.0))
    epochs, alpha = dcd_svm(csr, rows, y > 0, 0.5, 1e-6, 100000, 7, 1.0, w)
    assert epochs < 100000
    np.testing.assert_allclose(w, dcd_oracle(X, y, 0.5, 1.0, epochs=2000), atol=1e-4)
    svc = LinearSVC(loss="hinge", C=0.5, tol=1e-8, max_iter=100000).fit(X, y)
    np.testing.assert_allclose(w[:-1], svc.coef_.ravel(), atol=1e-3)
    np.testing.assert_allclose(w[-1], svc.intercept_[0], atol=1e-3)
    # the support vectors are the rows with alpha > 0, and w is their combination
    Xb = np.hstack([X.toarray(), np.ones((80, 1))])
    np.testing.assert_allclose((alpha * y) @ Xb, w, atol=1e-10)
    # a subset of rows by index: the same as training on those rows alone
    sub = rows[::2]
    w2 = np.zeros(13)
    dcd_svm(csr, sub, y[sub] > 0, 0.5, 1e-6, 100000, 7, 1.0, w2)
    np.testing.assert_allclose(w2, dcd_oracle(X[sub], y[sub], 0.5, 1.0, epochs=2000), atol=1e-4)
    # values implied by the columns (none stored): s_lin below column 5, s_quad from it on
    scaled = X.multiply(np.where(np.arange(12) < 5, 0.7, 0.2)).tocsr()
    w3 = np.zeros(13)
    implied = (X.indptr.astype(np.int64), X.indices.astype(np.int32),
               np.zeros(0, dtype=np.float32), (5, 0.7, 0.2))
    dcd_svm(implied, rows, y > 0, 0.5, 1e-6, 100000, 7, 1.0, w3)
    np.testing.assert_allclose(w3, dcd_oracle(scaled, y, 0.5, 1.0, epochs=2000), atol=1e-4)


def pair_hash_oracle(i, j, n_hash):
    """The product column's hash in Python integers: splitmix64 of ``(i << 32) | j``."""
    mask = (1 << 64) - 1
    x = (i << 32) | j
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & mask
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & mask
    x ^= x >> 31
    return x % n_hash


def expand_oracle(X, prev, n_base, L, mode, skip, n_hash, s_lin, s_quad, pair_hash):
    """The explicit map, one token and one product at a time: {column: value} per row."""
    H = prev.shape[1]
    n_lin = n_base + H * L
    out = []
    for t in range(X.shape[0]):
        row = {}
        feats = [(int(c), float(v)) for c, v in zip(X[t].indices, X[t].data)]
        aug = feats + [(n_base + j * L + int(prev[t, j]), 1.0) for j in range(H)
                       if prev[t, j] >= 0]

        def add(c, v, row=row):
            row[c] = row.get(c, 0.0) + v

        for c, v in aug:
            add(c, s_lin * v)
        if mode == CONJ_PC:
            for j in range(H):
                lab = int(prev[t, j])
                if lab < 0 or lab == skip:
                    continue
                for c, v in feats:
                    add(n_lin + c * H * L + j * L + lab, s_quad * v)
            k = 0
            for j in range(H):
                for j2 in range(j + 1, H):
                    if prev[t, j] >= 0 and prev[t, j2] >= 0:
                        add(n_lin + H * L * n_base + (k * L + int(prev[t, j])) * L
                            + int(prev[t, j2]), s_quad)
                    k += 1
        elif mode == CONJ_ALL:
            for u in range(len(aug)):
                for v in range(u + 1, len(aug)):
                    i, j = sorted((aug[u][0], aug[v][0]))
                    add(n_lin + pair_hash(i, j, n_hash), s_quad * aug[u][1] * aug[v][1])
        out.append(row)
    return out


def _csr(X):
    return X.indptr.astype(np.int64), X.indices.astype(np.int64), X.data.astype(np.float64)


def _mapped_matrix(X, prev, spec):
    ptr, idx, val = expand(_csr(X), np.arange(X.shape[0], dtype=np.int64), prev, spec, True)
    D = n_mapped(spec.n_base, spec.n_labels, prev.shape[1], spec.mode, spec.n_hash)
    M = sp.csr_matrix((val.astype(np.float64), idx, ptr), shape=(X.shape[0], D))
    M.sum_duplicates()
    return M


def _random_rows(rng, n=25, n_base=40, L=5, H=2, density=0.15):
    X = sp.random(n, n_base, density=density, format="csr", random_state=int(rng.integers(1e6)))
    X.data[:] = 1.0
    prev = rng.integers(-1, L, size=(n, H)).astype(np.int64)
    return X, prev


@pytest.mark.parametrize("mode,skip", [(CONJ_NONE, -1), (CONJ_PC, -1), (CONJ_PC, 0),
                                       (CONJ_ALL, -1)])
def test_expand_matches_the_oracle(rng, mode, skip):
    X, prev = _random_rows(rng)
    M = _mapped_matrix(X, prev, MapSpec(40, 5, 2, mode, skip, 997, 0.3, 0.07))
    want = expand_oracle(X, prev, 40, 5, mode, skip, 997, 0.3, 0.07, pair_hash_oracle)
    for t, row in enumerate(want):
        got = dict(zip(M[t].indices.tolist(), M[t].data.tolist()))
        assert got.keys() == row.keys()
        for c in row:
            assert got[c] == pytest.approx(row[c], rel=1e-6)


def test_the_full_map_is_the_polynomial_kernel(rng):
    X, prev = _random_rows(rng, n=15)
    g, r = 0.2, 1.0
    s_lin, s_quad = np.sqrt(2 * r * g + g * g), np.sqrt(2.0) * g
    # 2**30 hash columns: collisions all but impossible (the rows are read as dicts)
    ptr, idx, val = expand(_csr(X), np.arange(15, dtype=np.int64), prev,
                           MapSpec(40, 5, 2, CONJ_ALL, -1, 2 ** 30, s_lin, s_quad), True)
    rows = []
    for t in range(15):
        row = {}
        for c, v in zip(idx[ptr[t]:ptr[t + 1]].tolist(), val[ptr[t]:ptr[t + 1]].tolist()):
            row[c] = row.get(c, 0.0) + v
        rows.append(row)
    gram = np.asarray([[sum(v * b.get(c, 0.0) for c, v in a.items()) for b in rows]
                       for a in rows])
    ok = prev >= 0
    A = sp.hstack([X, sp.csr_matrix((np.ones(int(ok.sum())),
                                     (np.nonzero(ok)[0], np.nonzero(ok)[1] * 5 + prev[ok])),
                                    shape=(15, 10))]).tocsr()
    kernel = (g * (A @ A.T).toarray() + r) ** 2 - r * r
    np.testing.assert_allclose(gram, kernel, rtol=1e-5, atol=1e-5)


def _random_weights(rng, D, P, density=0.3):
    W = sp.random(D, P, density=density, format="csr", random_state=int(rng.integers(1e6)))
    W.data = rng.normal(size=W.nnz)
    W.data[rng.random(W.nnz) < 0.5] = 0.0
    W.eliminate_zeros()
    nz = np.flatnonzero(np.diff(W.indptr))
    W.sort_indices()
    return W, nz


@pytest.mark.parametrize("mode,skip", [(CONJ_NONE, -1), (CONJ_PC, 2), (CONJ_ALL, -1)])
def test_decide_matches_the_mapped_product(rng, mode, skip):
    """Decisions of every segment's pairs = (mapped rows @ W + b), base and pc terms apart too."""
    X, prev = _random_rows(rng)
    spec = MapSpec(40, 5, 2, mode, skip, 97, 0.3, 0.07)
    D = n_mapped(40, 5, 2, mode, 97)
    P = 12
    W, _ = _random_weights(rng, D, P)
    b = rng.normal(size=P)
    # pairs 0..5 are every token's, then two segments of three pairs
    n_first, seg_lo, seg_hi = 6, np.array([6, 9]), np.array([9, 12])
    local = np.array([[0, 1, 2, 3, 4, 5, 6, 7, 8], [0, 1, 2, 3, 4, 5, 9, 10, 11]])
    seg = rng.integers(0, 2, size=X.shape[0]).astype(np.int64)
    cols = np.flatnonzero(np.diff(W.indptr)).astype(np.int64)
    ptr = np.concatenate([[0], np.cumsum(np.diff(W.indptr)[cols])]).astype(np.int64)
    Wc = W[cols]
    packed = pack_weights(cols, ptr, Wc.indices.astype(np.int16),
                          Wc.data.astype(np.float32), n_first, 40)
    Wf = np.zeros((D, P))
    Wf[cols] = sp.csr_matrix((Wc.data.astype(np.float32), Wc.indices, Wc.indptr),
                             shape=(cols.size, P)).toarray()
    full = _mapped_matrix(X, prev, spec) @ Wf + b
    want = full[np.arange(X.shape[0])[:, None], local[seg]]
    rows = np.arange(X.shape[0], dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    votes = Votes(n_first, seg_lo, seg_hi, local, none, none, np.zeros((2, 0), np.int64), none)
    common = (packed, b, votes, seg)
    got = np.zeros((X.shape[0], local.shape[1]))
    decide(_csr(X), rows, prev, spec, *common, ALL_TERMS, got)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    # the pass's way: terms without the preceding classes first, theirs added per step
    two = np.zeros_like(got)
    decide(_csr(X), rows, np.full_like(prev, -1), spec, *common, BASE_TERMS, two)
    decide(_csr(X), rows, prev, spec, *common, PC_TERMS, two)
    np.testing.assert_allclose(two, want, rtol=1e-5, atol=1e-5)


# -- the estimator -------------------------------------------------------------------

POS = {"The": "DT", "gene": "NN", "in": "IN", "cells": "NNS", ".": ".", "bind": "VBP"}


def _toy(n=30, pos=True):
    X, y = toy_sentences(n=n, with_singletons=True)
    if pos:
        X = [Sentence(s, pos=[POS.get(w, "NNP") for w in s], doc_id=f"d{i // 3}")
             for i, s in enumerate(X)]
    else:
        X = [Sentence(s, doc_id=f"d{i // 3}") for i, s in enumerate(X)]
    f = TokenFeaturizer("kazama").fit(X)
    return f.transform(X), y


@pytest.fixture(scope="module")
def toy():
    return _toy()


@pytest.mark.parametrize("params", [{}, {"conjunctions": "pc-all"},
                                    {"conjunctions": "all"}, {"conjunctions": None},
                                    {"vote": "all"}])
def test_learns_the_toy_corpus(toy, params):
    F, y = toy
    m = PairwiseSVMTagger(C=10.0, random_state=0, **params).fit(F, y)
    assert m.predict(F) == y
    assert set(m.classes_) >= {lab for s in y for lab in s}
    # O split by part of speech: the merged outputs are plain IOB2
    assert any(c.startswith("O-") for c in m.internal_classes_)
    assert "O" not in set(m.internal_classes_)


def greedy_oracle(m, F):
    """The explicit model's greedy tagging, one token at a time: the mapped row of the token
    with the labels already predicted, times the stored weights, the vote of its classes."""

    D = m._n_mapped()
    W = np.zeros((D, len(m.pairs_)))
    for k, c in enumerate(m.coef_columns_):
        sl = slice(m.coef_ptr_[k], m.coef_ptr_[k + 1])
        W[c, m.coef_pairs_[sl]] = m.coef_values_[sl]
    seg = m._segments(F)
    classes = list(m.classes_)
    out = []
    for a, b in zip(F.offsets[:-1], F.offsets[1:]):
        labels = []
        for t in range(a, b):
            prev = np.full((1, m.history_), -1, dtype=np.int64)
            for j in range(min(m.history_, len(labels))):
                prev[0, j] = classes.index(labels[-1 - j])
            M = _mapped_matrix(F.matrix[t], prev, m._spec())
            dec = (M @ W)[0] + m.intercept_
            cls = m.segment_classes_[seg[t]]
            votes = dict.fromkeys(cls.tolist(), 0)
            for p, (c1, c2) in enumerate(m.pairs_):
                if c1 in votes and c2 in votes:
                    votes[c2 if dec[p] > 0 else c1] += 1
            win = max(votes, key=lambda c: (votes[c], -c))
            labels.append(classes[m.internal_to_label_[win]])
        out.append(labels)
    from skbioner.schemes import convert

    return [convert(s, "IOB2", "IOB2") for s in out]


@pytest.mark.parametrize("params", [{}, {"conjunctions": "pc-all", "split_outside": None},
                                    {"conjunctions": "all", "vote": "all"},
                                    {"conjunctions": None, "history": 1}])
def test_greedy_prediction_matches_the_oracle(params):
    F, y = _toy(n=12)
    # a weak model (small C): its mistakes make the preceding classes matter
    m = PairwiseSVMTagger(C=0.01, random_state=0, **params).fit(F, y)
    assert m.predict(F) == greedy_oracle(m, F)


def test_vote_among_the_own_outside_class(toy):
    F, y = toy
    m = PairwiseSVMTagger(random_state=0).fit(F, y)
    every = PairwiseSVMTagger(random_state=0, vote="all").fit(F, y)
    is_out = np.array([c.startswith("O-") for c in m.internal_classes_])
    n_ent, n_out = int((~is_out).sum()), int(is_out.sum())
    # pairs of two outside classes are neither trained nor consulted
    assert len(m.pairs_) == n_ent * (n_ent - 1) // 2 + n_ent * n_out
    assert len(every.pairs_) == len(m.internal_classes_) * (len(m.internal_classes_) - 1) // 2
    assert not is_out[m.pairs_].all(axis=1).any()
    # each token votes among the entity classes and the outside class of its POS
    seg = m._segments(F)
    for s, t in ((seg[0], 0), (seg[3], 3)):
        cls = m.internal_classes_[m.segment_classes_[s]]
        assert sum(c.startswith("O-") for c in cls) == 1
        assert f"O-{F.columns['pos'][t]}" in cls


def test_explicit_pairs_are_linear_svms_on_the_map(toy):
    """Each pair is liblinear's hinge-loss SVM on the mapped tokens."""
    from sklearn.svm import LinearSVC

    from skbioner.models._pairwise_svm import _gold_history

    F, y = toy
    m = PairwiseSVMTagger(conjunctions="all", split_outside=None, C=0.5, tol=1e-6,
                          random_state=0).fit(F, y)
    gold = np.asarray([list(m.classes_).index(lab) for s in y for lab in s])
    M = _mapped_matrix(F.matrix, _gold_history(gold, F.offsets, 2), m._spec())
    z = np.asarray([list(m.internal_classes_).index(lab) for s in y for lab in s])
    dec = m._all_decisions(F, None, np.arange(M.shape[0]), _gold_history(gold, F.offsets, 2))
    for p in (0, len(m.pairs_) // 2, len(m.pairs_) - 1):
        a, b = m.pairs_[p]
        rows = np.flatnonzero((z == a) | (z == b))
        svc = LinearSVC(loss="hinge", C=0.5, tol=1e-8, max_iter=200000).fit(
            M[rows], z[rows] == b)
        np.testing.assert_allclose(dec[:, p], svc.decision_function(M), atol=2e-3)


def test_parallel_training_is_identical(toy):
    F, y = toy
    a = PairwiseSVMTagger(random_state=0, n_jobs=1).fit(F, y)
    b = PairwiseSVMTagger(random_state=0, n_jobs=2).fit(F, y)
    np.testing.assert_array_equal(a.coef_values_, b.coef_values_)
    np.testing.assert_array_equal(a.coef_columns_, b.coef_columns_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    assert a.predict(F) == b.predict(F)


def test_viterbi_probabilities(toy):
    F, y = toy
    m = PairwiseSVMTagger(decoding="viterbi", validation_fraction=0.3,
                          random_state=0).fit(F, y)
    pred = m.predict(F)
    assert entity_f1_score(y, pred) > 0.9
    for labels in pred:
        assert all(is_valid_label(lab, "IOB2") for lab in labels)
        assert all(not (b.startswith("I-") and a[2:] != b[2:]) for a, b in
                   zip(["O", *labels], labels))
    marg = m.predict_marginals(F)
    assert all(np.allclose(p.sum(axis=1), 1.0) for p in marg)
    # the predicted label is the most probable one (the path is the best well-formed one)
    flat = np.concatenate(marg)
    cls = {c: k for k, c in enumerate(m.classes_)}
    chosen = np.asarray([cls[lab] for s in pred for lab in s])
    assert np.mean(flat.argmax(axis=1) == chosen) > 0.95
    # entities with their probability, the spans of predict
    ents = m.predict_entities(F)
    from skbioner.schemes import labels_to_spans

    for labels, spans in zip(pred, ents):
        assert [(t, s, e) for t, s, e, _ in spans] == [tuple(x) for x in
                                                       labels_to_spans(labels)]
        assert all(0.0 <= p <= 1.0 + 1e-9 for *_, p in spans)
    # greedy decoding of the same fitted model is the greedy model's
    greedy = PairwiseSVMTagger(random_state=0).fit(F, y)
    assert m.set_params(decoding="greedy").predict(F) == greedy.predict(F)
    # ... and offers what the greedy model offers: no entities of another (the Viterbi) path
    assert not hasattr(m, "predict_entities") and not hasattr(m, "predict_marginals")
    assert m.set_params(decoding="viterbi").predict_entities(F) == ents


def test_confidences_only_with_probabilities(toy):
    # a greedy model has no probabilities: no predict_entities, so `skbioner tag` and
    # tag_texts tag it without confidences instead of failing
    from skbioner.tagging import gives_confidences

    F, y = toy
    greedy = PairwiseSVMTagger(random_state=0).fit(F, y)
    assert not hasattr(greedy, "predict_entities")
    assert not hasattr(greedy, "predict_marginals")
    assert not gives_confidences(greedy)
    assert hasattr(PairwiseSVMTagger(decoding="viterbi"), "predict_entities")


def test_errors(toy):
    F, y = toy
    Fnopos, ynopos = _toy(pos=False)
    with pytest.raises(ValueError, match="pos"):
        PairwiseSVMTagger().fit(Fnopos, ynopos)
    assert PairwiseSVMTagger(split_outside=None).fit(Fnopos, ynopos).predict(Fnopos) == ynopos
    m = PairwiseSVMTagger(random_state=0).fit(F, y)
    with pytest.raises(ValueError, match="viterbi"):
        m.set_params(decoding="viterbi").predict(F)
    with pytest.raises(ValueError, match="probabilities"):
        m.predict_marginals(F)
    with pytest.raises(ValueError, match="int32"):
        PairwiseSVMTagger(conjunctions="all", n_hash=2 ** 31).fit(F, y)
    # a part of speech never seen in training votes with the outside class O-*
    Fpos = F[:2]
    Fpos.columns["pos"] = np.asarray(["XYZ"] * Fpos.matrix.shape[0], dtype=object)
    assert len(m.set_params(decoding="greedy").predict(Fpos)) == 2


def test_preceding_classes_are_features(toy):
    F, y = toy
    with_pc = PairwiseSVMTagger(random_state=0).fit(F, y)
    without = PairwiseSVMTagger(random_state=0, history=0).fit(F, y)
    # weights on the preceding-class columns (past the features)
    assert (with_pc.coef_columns_ >= F.n_features).any()
    assert (without.coef_columns_ < F.n_features).all()
    assert without.predict(F) == y


def test_saved_model_predicts_the_same(toy, tmp_path):
    from skbioner.io import load_model, save_model

    F, y = toy
    m = PairwiseSVMTagger(random_state=0).fit(F, y)
    pred = m.predict(F)
    path = save_model(m, tmp_path / "svm.skops")
    back = load_model(path)
    assert "_layout_cache" not in back.__dict__
    assert back.predict(F) == pred


def test_storing_the_weights_copies_no_entry_twice(rng):
    """Every pair's weights laid out by column holds the output and little more: sorting
    the entries held ten copies of them (10.6 GB with every product and every pair's vote
    on 200 sentences)."""
    import tracemalloc

    m = PairwiseSVMTagger()
    m.n_features_in_, m.classes_, m.history_ = 2000, np.array(["O", "B-x", "I-x"]), 2
    m.conj_mode_, m.n_hash_ = CONJ_NONE, 0
    n_pairs, per_pair = 3000, 1000
    results = [(np.sort(rng.choice(m._n_mapped(), per_pair, replace=False)).astype(np.int32),
                rng.standard_normal(per_pair).astype(np.float32), 0.0, 1)
               for _ in range(n_pairs)]
    want = {(int(c), p): v for p, (cols, vals, *_) in enumerate(results)
            for c, v in zip(cols[:3].tolist(), vals[:3].tolist())}
    tracemalloc.start()
    try:
        m._store_weights(results)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    out = m.coef_pairs_.nbytes + m.coef_values_.nbytes
    assert m.coef_values_.size == n_pairs * per_pair
    assert peak < 1.5 * out, (peak, out)
    # the layout: columns sorted, within each the pairs in order, each weight its own
    assert (np.diff(m.coef_columns_) > 0).all()
    for k in range(m.coef_columns_.size):
        pairs = m.coef_pairs_[m.coef_ptr_[k]:m.coef_ptr_[k + 1]]
        assert (np.diff(pairs) > 0).all()
    col_of = np.repeat(m.coef_columns_, np.diff(m.coef_ptr_))
    got = dict(zip(zip(col_of.tolist(), m.coef_pairs_.tolist()), m.coef_values_.tolist()))
    assert all(got[key] == v for key, v in want.items())


def _sample_features(n=200):
    from skbioner.annotate import POSTagger
    from skbioner.datasets import load_jnlpba_sample
    from skbioner.features import get_preset

    tr, te = load_jnlpba_sample("train"), load_jnlpba_sample("test")
    pos = POSTagger().fit(tr.X[:10])
    Xtr, Xte = pos.transform(tr.X[:n]), pos.transform(te.X[:n])
    f = TokenFeaturizer(get_preset("kazama"), min_count=2).fit(Xtr, tr.y[:n])
    return tr, te, f.transform(Xtr), f.transform(Xte), n


def _f1_of_every_product():
    """Run in a process of its own by the test below: its ~160 million weights (2.9 GB at
    the peak of fit and layout; 10.6 GB before test_storing_the_weights_copies_no_entry_twice)
    are given back to the system whole when it ends, on top of nothing the suite holds."""
    tr, te, Ftr, Fte, n = _sample_features()
    full = PairwiseSVMTagger(conjunctions="all", vote="all", random_state=0, n_jobs=2)
    return entity_f1_score(te.y[:n], full.fit(Ftr, tr.y[:n]).predict(Fte))


@pytest.mark.slow
def test_quality_on_the_bundled_sample():
    import json
    import subprocess
    import sys
    from pathlib import Path

    from skbioner.models import MajorityTagger

    tr, te, Ftr, Fte, n = _sample_features()
    m = PairwiseSVMTagger(random_state=0, n_jobs=2).fit(Ftr, tr.y[:n])
    f1 = entity_f1_score(te.y[:n], m.predict(Fte))
    base = MajorityTagger().fit(tr.X[:n], tr.y[:n]).score(te.X[:n], te.y[:n])
    # every product written out and the paper's vote: the kernel SVM up to hash collisions,
    # the intercept's regularisation and the solver's tolerance
    code = ("import json, warnings; warnings.simplefilter('ignore'); "
            "from tests.models.test_pairwise_svm import "
            "_f1_of_every_product as f; print(json.dumps(f()))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=1800)
    assert proc.returncode == 0, proc.stderr
    f1_full = json.loads(proc.stdout.splitlines()[-1])
    print(f"pairwise SVM {f1:.3f}; every product {f1_full:.3f}; majority {base:.3f}")
    assert f1 > base + 0.1
    assert f1_full > base + 0.1


def test_pipeline_and_grid_search():
    from sklearn.model_selection import GridSearchCV, GroupKFold
    from sklearn.pipeline import make_pipeline

    X, y = toy_sentences(n=24, with_singletons=False)
    X = [Sentence(s, pos=[POS.get(w, "NNP") for w in s]) for s in X]
    pipe = make_pipeline(TokenFeaturizer("kazama"), PairwiseSVMTagger(random_state=0))
    grid = GridSearchCV(pipe, {"pairwisesvmtagger__C": [0.01, 1.0]},
                        cv=GroupKFold(2), n_jobs=1).fit(X, y, groups=[i % 4 for i in range(24)])
    assert np.isfinite(grid.cv_results_["mean_test_score"]).all()
    assert grid.predict(X) == y


def test_repair_iob2_codes_is_convert(rng):
    """The repair on codes reads labels as the scheme does (convert IOB2 -> IOB2)."""
    from skbioner.models._pairwise_svm import repair_iob2_codes
    from skbioner.schemes import convert

    classes = ["O", "B-DNA", "I-DNA", "B-protein", "I-protein"]
    codes = rng.integers(0, len(classes), size=400)
    offsets = np.array([0, 0, 1, 7, 50, 51, 200, 200, 400])
    got = np.asarray(classes, dtype=object)[repair_iob2_codes(codes, offsets, classes)]
    labels = np.asarray(classes, dtype=object)[codes]
    want = [lab for a, b in zip(offsets[:-1], offsets[1:])
            for lab in convert(labels[a:b].tolist(), "IOB2", "IOB2")]
    assert got.tolist() == want
    assert (codes == 2).any() and (got == "B-DNA").sum() > (codes == 1).sum()
