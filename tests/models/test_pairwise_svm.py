"""PairwiseSVMTagger: compiled kernels against pure-Python oracles, switches, quality."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import SVC

from skbioner import Sentence
from skbioner.features import TokenFeaturizer
from skbioner.metrics import entity_f1_score
from skbioner.models import PairwiseSVMTagger
from skbioner.models._pairwise_svm_kernels import (
    LINEAR,
    POLY,
    couple_probabilities,
    degree2_map,
    pairwise_vote,
)
from skbioner.schemes import is_valid_label
from tests.models.toy import toy_sentences

# -- oracles ----------------------------------------------------------------------


def vote_oracle(X, SV, pair_ptr, pair_sv, coef, intercept, pairs, K, kind, gamma, coef0, deg):
    """Full majority vote, one token and one pair at a time (ties: the lower class)."""
    X, SV = X.toarray(), SV.toarray()
    out = []
    for x in X:
        votes = [0] * K
        for p, (a, b) in enumerate(pairs):
            d = intercept[p]
            for q in range(pair_ptr[p], pair_ptr[p + 1]):
                g = float(np.dot(x, SV[pair_sv[q]]))
                k = g if kind == LINEAR else (gamma * g + coef0) ** deg
                d += coef[q] * k
            votes[b if d > 0 else a] += 1
        out.append(max(range(K), key=lambda c: (votes[c], -c)))
    return out


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


def _random_model(rng, K=6, n_sv=40, n_feat=30, n_tok=60):
    pairs = np.array([(a, b) for a in range(K) for b in range(a + 1, K)], dtype=np.int64)
    SV = sp.random(n_sv, n_feat, density=0.2, format="csr", random_state=rng.integers(1 << 30))
    SV.data[:] = 1.0
    X = sp.random(n_tok, n_feat, density=0.2, format="csr", random_state=rng.integers(1 << 30))
    X.data[:] = 1.0
    sizes = rng.integers(1, 8, size=len(pairs))
    pair_ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    pair_sv = rng.integers(0, n_sv, size=pair_ptr[-1]).astype(np.int64)
    coef = rng.normal(size=pair_ptr[-1])
    intercept = rng.normal(size=len(pairs))
    # a strong class per token, so that fast winner finding has something to stop on
    return X, SV, pairs, pair_ptr, pair_sv, coef, intercept


def _vote(X, SV, pairs, pair_ptr, pair_sv, coef, intercept, K, kind, cache, fast, args):
    G = (X @ SV.T).toarray()
    if kind == POLY:
        G = (args[0] * G + args[1]) ** args[2]
    return pairwise_vote(X.indptr.astype(np.int64), X.indices.astype(np.int64), X.data,
                         X.shape[1], G if cache else np.zeros((0, 0)), cache,
                         SV.indptr.astype(np.int64), SV.indices.astype(np.int64), SV.data,
                         pair_ptr, pair_sv, coef, intercept, pairs[:, 0].copy(),
                         pairs[:, 1].copy(), K, kind, *args, fast, np.zeros((0, len(pairs))))


@pytest.mark.parametrize("kind", [LINEAR, POLY])
def test_vote_matches_oracle_with_every_switch(kind, rng):
    K = 6
    X, SV, pairs, pair_ptr, pair_sv, coef, intercept = _random_model(rng, K)
    args = (0.3, 1.0, 2)
    want = vote_oracle(X, SV, pair_ptr, pair_sv, coef, intercept, pairs, K, kind, *args)
    for cache in (True, False):
        for fast in (True, False):
            got, evaluated = _vote(X, SV, pairs, pair_ptr, pair_sv, coef, intercept, K, kind,
                                   cache, fast, args)
            assert got.tolist() == want
            if not fast:
                assert (evaluated == len(pairs)).all()


def test_fast_winner_stops_early_on_a_dominant_class(rng):
    K = 8
    X, SV, pairs, pair_ptr, pair_sv, coef, intercept = _random_model(rng, K)
    # class 0 beats everyone: its K-1 pairs settle the vote
    intercept = np.where(pairs[:, 0] == 0, -100.0, intercept)
    got, evaluated = _vote(X, SV, pairs, pair_ptr, pair_sv, coef, intercept, K, LINEAR, True,
                           True, (1.0, 0.0, 1))
    assert (got == 0).all()
    assert (evaluated == K - 1).all()
    want = vote_oracle(X, SV, pair_ptr, pair_sv, coef, intercept, pairs, K, LINEAR, 1, 0, 1)
    assert got.tolist() == want


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


def test_degree2_map_reproduces_the_polynomial_kernel(rng):
    X = sp.random(20, 50, density=0.15, format="csr", random_state=1)
    X.data[:] = 1.0
    g, r = 0.1, 1.0
    n_hash = 2 ** 24  # collisions all but impossible
    ptr, idx, val = degree2_map(X.indptr.astype(np.int64), X.indices.astype(np.int64), X.data,
                                50, n_hash, np.sqrt(2 * r * g + g * g), np.sqrt(2) * g)
    Phi = sp.csr_matrix((val, idx, ptr), shape=(20, 50 + n_hash))
    Phi.sum_duplicates()
    want = (g * (X @ X.T).toarray() + r) ** 2 - r * r
    np.testing.assert_allclose((Phi @ Phi.T).toarray(), want, rtol=1e-12, atol=1e-12)


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


@pytest.mark.parametrize("kernel", ["poly", "linear", "poly2-hashed"])
def test_learns_the_toy_corpus(toy, kernel):
    F, y = toy
    m = PairwiseSVMTagger(kernel=kernel, C=10.0, random_state=0).fit(F, y)
    assert m.predict(F) == y
    assert set(m.classes_) >= {lab for s in y for lab in s}
    # O split by part of speech: the merged outputs are plain IOB2
    assert any(c.startswith("O-") for c in m.internal_classes_)
    assert "O" not in set(m.internal_classes_)


def test_pair_decisions_are_libsvm_decisions(toy):
    F, y = toy
    m = PairwiseSVMTagger(random_state=0, split_outside=None, history=0).fit(F, y)
    M = m._augment(F.matrix, np.zeros((F.matrix.shape[0], 0), dtype=np.int64))
    dec = m._decisions(M)
    z = np.asarray([list(m.internal_classes_).index(lab) for s in y for lab in s])
    for p in (0, len(m.pairs_) - 1):
        a, b = m.pairs_[p]
        rows = np.flatnonzero((z == a) | (z == b))
        svc = SVC(kernel="poly", degree=2, gamma=m.gamma, coef0=m.coef0, C=m.C).fit(
            M[rows], (z[rows] == b).astype(int))
        np.testing.assert_allclose(dec[:, p], svc.decision_function(M), atol=1e-8)


def test_switches_do_not_change_predictions(toy):
    F, y = toy
    m = PairwiseSVMTagger(C=0.05, random_state=0).fit(F, y)
    ref = None
    for fw in (True, False):
        for sc in (True, False):
            out = m.set_params(fast_winner=fw, sv_cache=sc).predict(F)
            ref = out if ref is None else ref
            assert out == ref
    # the cache stores every support vector once
    assert m.support_vectors_.shape[0] < m.n_support_total_
    # fast winner finding evaluates fewer pairs
    assert m.set_params(fast_winner=True).pairs_evaluated(F).mean() < len(m.pairs_)
    assert (m.set_params(fast_winner=False).pairs_evaluated(F) == len(m.pairs_)).all()


def test_parallel_training_is_identical(toy):
    F, y = toy
    a = PairwiseSVMTagger(random_state=0, n_jobs=1).fit(F, y)
    b = PairwiseSVMTagger(random_state=0, n_jobs=2).fit(F, y)
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)
    assert a.predict(F) == b.predict(F)


def test_viterbi_probabilities(toy):
    F, y = toy
    m = PairwiseSVMTagger(decoding="viterbi", validation_fraction=0.3, random_state=0).fit(F, y)
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
    # greedy decoding of the same fitted model is the greedy model's
    greedy = PairwiseSVMTagger(random_state=0).fit(F, y)
    assert m.set_params(decoding="greedy").predict(F) == greedy.predict(F)


def test_errors(toy):
    F, y = toy
    Fnopos, ynopos = _toy(pos=False)
    with pytest.raises(ValueError, match="pos"):
        PairwiseSVMTagger().fit(Fnopos, ynopos)
    assert PairwiseSVMTagger(split_outside=None).fit(Fnopos, ynopos).predict(Fnopos) == ynopos
    m = PairwiseSVMTagger(random_state=0).fit(F, y)
    with pytest.raises(ValueError, match="viterbi"):
        m.set_params(decoding="viterbi").predict(F)
    with pytest.raises(ValueError, match="degree"):
        PairwiseSVMTagger(kernel="poly2-hashed", degree=3).fit(F, y)
    with pytest.raises(ValueError, match="greedy"):
        PairwiseSVMTagger(kernel="poly2-hashed", decoding="viterbi").fit(F, y)


def test_preceding_classes_are_features(toy):
    F, y = toy
    with_pc = PairwiseSVMTagger(random_state=0).fit(F, y)
    without = PairwiseSVMTagger(random_state=0, history=0).fit(F, y)
    assert with_pc.support_vectors_.shape[1] == F.n_features + 2 * len(with_pc.classes_)
    assert without.support_vectors_.shape[1] == F.n_features
    assert without.predict(F) == y


@pytest.mark.slow
def test_quality_on_the_bundled_sample():
    from skbioner.annotate import POSTagger
    from skbioner.datasets import load_jnlpba_sample
    from skbioner.features import get_preset
    from skbioner.models import MajorityTagger

    tr, te = load_jnlpba_sample("train"), load_jnlpba_sample("test")
    n = 200
    pos = POSTagger().fit(tr.X[:10])
    Xtr, Xte = pos.transform(tr.X[:n]), pos.transform(te.X[:n])
    # the lighter window of the paper's set, to keep the test fast
    groups = get_preset("kazama", window=2, affix_window=0, cache_window=2)
    f = TokenFeaturizer(groups, min_count=2).fit(Xtr, tr.y[:n])
    Ftr, Fte = f.transform(Xtr), f.transform(Xte)
    m = PairwiseSVMTagger(random_state=0, n_jobs=2).fit(Ftr, tr.y[:n])
    pred = m.predict(Fte)
    f1 = entity_f1_score(te.y[:n], pred)
    base = MajorityTagger().fit(tr.X[:n], tr.y[:n]).score(te.X[:n], te.y[:n])
    print(f"pairwise SVM {f1:.3f}, majority {base:.3f}")
    assert f1 > base + 0.1
    m.set_params(fast_winner=False, sv_cache=False)
    assert m.predict(Fte[:40]) == pred[:40]


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
