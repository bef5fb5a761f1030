"""HMMStateClusterer: batched Baum-Welch against brute force, plus estimator behaviour."""

import copy
import itertools
import re

import joblib
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.pipeline import make_pipeline

from skbioner import Sentence
from skbioner.annotate import SHAPE_CLASSES, HMMStateClusterer, _hmm, shape_class
from skbioner.annotate._forward_backward import (
    forward_backward,
    make_batches,
    unpack_rows,
    viterbi_paths,
)
from skbioner.features import TokenFeaturizer
from skbioner.models import OnlinePACRF
from tests.conftest import data_path
from tests.models.toy import toy_sentences

# -- brute force over every state path ---------------------------------------------------


def random_hmm(rng, S, V):
    start = rng.dirichlet(np.ones(S))
    trans = rng.dirichlet(np.ones(S), size=S)
    emit = rng.dirichlet(np.ones(V), size=S)
    return start, trans, emit


def brute_force(x, start, trans, emit):
    """Likelihood, posteriors, expected counts and best path by enumerating all paths."""
    S, V = emit.shape
    n = len(x)
    paths = list(itertools.product(range(S), repeat=n))
    joint = np.array([
        start[z[0]] * np.prod([trans[z[t - 1], z[t]] for t in range(1, n)])
        * np.prod([emit[z[t], x[t]] for t in range(n)])
        for z in paths
    ])  # fmt: skip
    px = joint.sum()
    gamma = np.zeros((n, S))
    xi = np.zeros((S, S))
    em = np.zeros((V, S))
    for z, p in zip(paths, joint / px):
        for t in range(n):
            gamma[t, z[t]] += p
            em[x[t], z[t]] += p
        for t in range(1, n):
            xi[z[t - 1], z[t]] += p
    best = paths[int(joint.argmax())]
    return np.log(px), gamma, xi, em, best, np.log(joint.max())


def encode(seqs):
    ids = np.concatenate([np.asarray(x, dtype=np.int32) for x in seqs])
    offsets = np.concatenate([[0], np.cumsum([len(x) for x in seqs])]).astype(np.int64)
    return ids, offsets


@pytest.fixture
def small_problem(rng):
    S, V = 3, 4
    params = random_hmm(rng, S, V)
    seqs = [rng.integers(0, V, size=n) for n in (3, 1, 5, 2, 5, 4, 1, 6)]
    return S, V, params, seqs


@pytest.mark.parametrize("batch_tokens", [1, 7, 1000])
@pytest.mark.parametrize(("dtype", "rtol"), [(np.float64, 1e-10), (np.float32, 2e-5)])
def test_forward_backward_matches_brute_force(small_problem, batch_tokens, dtype, rtol):
    S, V, (start, trans, emit), seqs = small_problem
    ids, offsets = encode(seqs)
    batches = make_batches(ids, offsets, batch_tokens)
    acc = (np.zeros(S), np.zeros((S, S)), np.zeros((V, S)))
    gamma = np.zeros((len(ids), S))
    loglik = 0.0
    before = [p.copy() for p in (start, trans, emit)]
    for b in batches:
        ll, g = forward_backward(b, start, trans, emit.T, stats=acc, want_gamma=True,
                                 dtype=dtype)
        loglik += ll
        unpack_rows(b, g, offsets, gamma)
    assert all(np.array_equal(p, q) for p, q in zip(before, (start, trans, emit)))

    ref = [brute_force(x, start, trans, emit) for x in seqs]
    assert loglik == pytest.approx(sum(r[0] for r in ref), rel=rtol)
    ref_gamma = np.vstack([r[1] for r in ref])
    np.testing.assert_allclose(gamma, ref_gamma, rtol=rtol * 10, atol=rtol)
    np.testing.assert_allclose(acc[0], sum(r[1][0] for r in ref), rtol=rtol * 10, atol=rtol)
    np.testing.assert_allclose(acc[1], sum(r[2] for r in ref), rtol=rtol * 10, atol=rtol)
    np.testing.assert_allclose(acc[2], sum(r[3] for r in ref), rtol=rtol * 10, atol=rtol)


def test_batches_pack_every_token_once(rng):
    seqs = [rng.integers(0, 50, size=n) for n in rng.integers(0, 12, size=40)]
    ids, offsets = encode(seqs)
    for batch_tokens in (1, 10, 10_000):
        batches = make_batches(ids, offsets, batch_tokens)
        seen = np.concatenate([b.order for b in batches])
        nonempty = np.flatnonzero(np.diff(offsets) > 0)
        assert sorted(seen.tolist()) == nonempty.tolist()
        out = np.full(len(ids), -1)
        for b in batches:
            lens = np.diff(offsets)[b.order]
            assert np.all(np.diff(lens) <= 0)  # longest first
            assert b.steps[-1] == len(b.ids) == lens.sum()
            unpack_rows(b, b.ids, offsets, out)
        assert np.array_equal(out, ids)


def test_viterbi_matches_brute_force(small_problem):
    S, V, (start, trans, emit), seqs = small_problem
    ids, offsets = encode(seqs + [np.zeros(0, dtype=np.int64)])
    paths, scores = viterbi_paths(ids, offsets, start, trans, emit.T)
    for i, x in enumerate(seqs):
        _, _, _, _, best, best_score = brute_force(x, start, trans, emit)
        assert tuple(paths[offsets[i]:offsets[i + 1]]) == best
        assert scores[i] == pytest.approx(best_score, rel=1e-12)
    assert scores[-1] == 0.0


def test_viterbi_with_zero_probabilities_stays_finite():
    start = np.array([1.0, 0.0])
    trans = np.array([[0.0, 1.0], [1.0, 0.0]])
    emit = np.array([[1.0, 0.0], [0.0, 1.0]])
    paths, scores = viterbi_paths(np.array([0, 1, 0, 1]), np.array([0, 4]), start, trans, emit.T)
    assert paths.tolist() == [0, 1, 0, 1] and scores[0] == 0.0


# -- the estimator -------------------------------------------------------------------------


def corpus(n=60, seed=0):
    X, _ = toy_sentences(n, seed=seed)
    rng = np.random.default_rng(seed)
    extra = ["binds", "the", "promoter", "of", "IL-12", "and", "kinase", "alpha", "(", ")"]
    for _ in range(n // 2):
        X.append([str(w) for w in rng.choice(extra, size=int(rng.integers(1, 9)))])
    return X


def small(**kw):
    params = dict(n_states=4, max_vocab=30, max_iter=8, tol=None, random_state=0)
    params.update(kw)
    return HMMStateClusterer(**params)


def test_loglik_never_decreases():
    X = corpus()
    hmm = small(n_states=6, max_iter=25).fit(X)
    h = np.array(hmm.history_)
    assert hmm.n_iter_ == len(h) == 25 and np.all(np.isfinite(h))
    assert np.all(np.diff(h) >= -1e-6 * np.abs(h[1:])), np.diff(h)
    assert h[-1] > h[0]
    # the final re-estimation improves on the last recorded E-step too
    assert hmm.score(X) * hmm.n_tokens_ >= h[-1] - 1e-6 * abs(h[-1])


def test_estimator_posteriors_and_decoding_match_brute_force():
    X = corpus(20)
    hmm = small(n_states=3, max_vocab=8, max_iter=3).fit(X)
    probe = [["The", "IL-2", "gene", "in", "HeLa"], ["zzz", "kinase"], ["."]]
    ids, _ = hmm._encode([Sentence(s) for s in probe])
    post = hmm.posteriors(probe)
    states = hmm.predict_states(probe)
    out = hmm.transform(probe)
    pos = 0
    total = 0.0
    for s, p, z, o in zip(probe, post, states, out):
        x = ids[pos:pos + len(s)]
        pos += len(s)
        ll, gamma, _, _, best, _ = brute_force(x, hmm.startprob_, hmm.transmat_,
                                               hmm.emissionprob_)
        total += ll
        np.testing.assert_allclose(p, gamma, rtol=1e-9, atol=1e-12)
        assert tuple(z) == best
        assert o.column("hmm") == tuple(f"h{k}" for k in best)
    assert hmm.score(probe) == pytest.approx(total / pos, rel=1e-10)
    post_out = clone(hmm).set_params(output="posterior")
    post_out.__dict__.update({k: v for k, v in vars(hmm).items() if k.endswith("_")})
    expected = [tuple(f"h{k}" for k in p.argmax(axis=1)) for p in post]
    assert [s.column("hmm") for s in post_out.transform(probe)] == expected


def test_long_sentence_does_not_underflow(rng):
    words = ["IL-2", "binds", "the", "receptor", ".", "p53", "gene", "alpha"]
    long = [str(w) for w in rng.choice(words, size=2000)]
    X = [long, long[:5]]
    hmm = small(max_iter=3).fit(X)
    assert np.all(np.isfinite(hmm.history_))
    assert np.isfinite(hmm.startprob_).all() and np.isfinite(hmm.transmat_).all()
    assert np.isfinite(hmm.emissionprob_).all()
    post = hmm.posteriors([long])[0]
    assert post.shape == (2000, 4) and np.isfinite(post).all()
    np.testing.assert_allclose(post.sum(axis=1), 1.0)
    assert len(hmm.transform([long])[0].column("hmm")) == 2000
    assert np.isfinite(hmm.score([long]))
    # float32 recursions on the long sentence agree with float64
    ids, offsets = hmm._encode([Sentence(long)])
    (batch,) = make_batches(ids, offsets)
    args = (batch, hmm.startprob_, hmm.transmat_, hmm.emissionprob_.T)
    ll64 = forward_backward(*args, dtype=np.float64)[0]
    ll32 = forward_backward(*args, dtype=np.float32)[0]
    assert np.isfinite(ll64) and ll32 == pytest.approx(ll64, rel=1e-5)


SHAPES = [
    ("(", "<punct>"), ("+/-", "<punct>"), ("1997", "<number>"), ("2.5", "<number>"),
    ("1,000", "<number>"), ("kappa", "<greek>"), ("Alpha", "<greek>"), ("\u03b2", "<greek>"),
    ("PI", "<allcaps>"),
    ("IL-12", "<digit-hyphen>"), ("5-bromo", "<digit-hyphen>"), ("CD4", "<caps-digit>"),
    ("H3K27", "<caps-digit>"), ("p53", "<digit>"), ("mir21a", "<digit>"),
    ("NF-kappaB", "<hyphen>"), ("ice-cold", "<hyphen>"), ("DNA", "<allcaps>"),
    ("T", "<single-cap>"), ("Jurkat", "<initcap>"), ("mRNA", "<mixedcase>"),
    ("HeLa", "<mixedcase>"), ("activation", "<lower-ion>"), ("binding", "<lower-ing>"),
    ("induced", "<lower-ed>"), ("kinase", "<lower-ase>"), ("cells", "<lower-s>"),
    ("gene", "<lower>"), ("\u4e2d\u6587", "<other>"),
]  # fmt: skip


@pytest.mark.parametrize(("word", "expected"), SHAPES)
def test_shape_class(word, expected):
    assert shape_class(word) == expected


def test_every_shape_class_documented_and_reachable():
    assert {e for _, e in SHAPES} == set(SHAPE_CLASSES)
    assert len(SHAPE_CLASSES) == len(set(SHAPE_CLASSES)) == 18


def test_rare_words_are_observed_as_shape_classes():
    X = [["the", "the", "the", "of", "of", "IL-2", "kinase"], ["the", "of", "p53"]]
    hmm = small(max_vocab=2, max_iter=2).fit(X)
    assert hmm.vocabulary_ == {"the": 0, "of": 1}
    assert list(hmm.observations_) == ["the", "of", *SHAPE_CLASSES]
    assert hmm.emissionprob_.shape == (4, 2 + len(SHAPE_CLASSES))
    np.testing.assert_allclose(hmm.emissionprob_.sum(axis=1), 1.0)
    ids, _ = hmm._encode([Sentence(["the", "IL-2", "kinase", "unseen", "of", "P53"])])
    shape = {name: 2 + k for k, name in enumerate(SHAPE_CLASSES)}
    assert ids.tolist() == [0, shape["<digit-hyphen>"], shape["<lower-ase>"],
                            shape["<lower>"], 1, shape["<caps-digit>"]]
    # vocabulary ties are broken alphabetically; None keeps every word
    full = small(max_vocab=None, max_iter=1).fit(X)
    assert list(full.vocabulary_) == ["the", "of", "IL-2", "kinase", "p53"]
    assert small(max_vocab=0, max_iter=1).fit(X).vocabulary_ == {}


def test_determinism_with_random_state():
    X = corpus()
    a, b = small(random_state=3).fit(X), small(random_state=3).fit(X)
    c = small(random_state=4).fit(X)
    for name in ("startprob_", "transmat_", "emissionprob_"):
        assert np.array_equal(getattr(a, name), getattr(b, name))
    assert a.history_ == b.history_
    assert a.transform(X) == b.transform(X)
    assert not np.allclose(a.transmat_, c.transmat_)


def test_threads_agree_with_one_thread():
    X = corpus(200)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_hmm, "_BATCH_TOKENS", 64)  # several batches per thread
        one = small(n_jobs=1).fit(X)
        two = small(n_jobs=2).fit(X)
        np.testing.assert_allclose(one.history_, two.history_, rtol=1e-9)
        np.testing.assert_allclose(one.emissionprob_, two.emissionprob_, rtol=1e-6, atol=1e-12)
        assert two.transform(X) == one.transform(X)
        np.testing.assert_allclose(np.vstack(two.posteriors(X)), np.vstack(one.posteriors(X)),
                                   atol=1e-9)


def test_clone_get_set_params():
    hmm = HMMStateClusterer(n_states=7, random_state=1)
    params = hmm.get_params()
    assert params["n_states"] == 7 and params["annotation"] == "hmm"
    twin = clone(hmm)
    assert twin.get_params() == params and twin is not hmm
    assert twin.set_params(n_states=3, output="posterior") is twin
    assert twin.n_states == 3 and hmm.n_states == 7
    fitted = small().fit(corpus())
    assert not hasattr(clone(fitted), "transmat_")
    assert fitted.get_params() == small().get_params()  # fit does not touch params


def test_not_fitted():
    hmm = HMMStateClusterer()
    for method in (hmm.transform, hmm.posteriors, hmm.score, hmm.predict_states):
        with pytest.raises(NotFittedError):
            method([["a"]])


def test_joblib_round_trip(tmp_path):
    X = corpus()
    hmm = small().fit(X)
    joblib.dump(hmm, tmp_path / "hmm.joblib")
    loaded = joblib.load(tmp_path / "hmm.joblib")
    assert loaded.transform(X) == hmm.transform(X)
    assert loaded.history_ == hmm.history_


def test_input_not_modified_and_annotations_carried_over():
    X = [Sentence(["IL-2", "gene"], pos=["NN", "NN"], hmm=["old", "old"]), ["p53", "binds"]]
    before = copy.deepcopy(X)
    hmm = small(max_iter=2).fit(X)
    out = hmm.transform(X)
    assert X == before and X[1] == ["p53", "binds"]
    assert out[0].column("pos") == ("NN", "NN")
    assert out[0].column("hmm") != ("old", "old") and isinstance(out[1], Sentence)
    other = clone(hmm).set_params(annotation="cluster")
    other.__dict__.update({k: v for k, v in vars(hmm).items() if k.endswith("_")})
    s = other.transform(X)[0]
    assert s.column("hmm") == ("old", "old") and s.column("cluster") == out[0].column("hmm")


def test_empty_sentences_and_bad_input():
    hmm = small(max_iter=2).fit([["a", "b"], [], ["b"]])
    out = hmm.transform([[], ["a"]])
    assert out[0].column("hmm") == () and len(out[1].column("hmm")) == 1
    assert hmm.posteriors([[]])[0].shape == (0, 4)
    with pytest.raises(ValueError, match="no tokens"):
        small().fit([[], []])
    with pytest.raises(ValueError, match=re.escape("X[1][0] is an empty token")):
        hmm.transform([["a"], ["", "b"]])
    with pytest.raises(TypeError, match="X must be a list of sentences"):
        small().fit("a b c")


@pytest.mark.parametrize(
    ("param", "value"),
    [("n_states", 0), ("n_states", 2.5), ("max_iter", 0), ("max_vocab", -1), ("tol", -1.0),
     ("output", "map"), ("annotation", "word"), ("annotation", "")],
)
def test_bad_params(param, value):
    with pytest.raises(ValueError, match=param):
        small(**{param: value}).fit([["a", "b"]])


def test_convergence_and_warning():
    X = corpus()
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        hmm = small(max_iter=2, tol=0.0).fit(X)
    assert not hmm.converged_ and hmm.n_iter_ == 2
    hmm = small(max_iter=50, tol=10.0).fit(X)
    assert hmm.converged_ and hmm.n_iter_ == 2


def test_verbose_prints_each_iteration(capsys):
    small(max_iter=3, verbose=1).fit(corpus())
    err = capsys.readouterr().err
    assert len(re.findall(r"HMM iteration \d+: log-likelihood -[\d.e+]+ \(.* per token\), "
                          r"[\d.]+ s \([\d.]+ s CPU\)", err)) == 3


@pytest.mark.slow
def test_pipeline_before_kazama_featurizer_and_tagger():
    X, y = toy_sentences(40)
    pipe = make_pipeline(small(n_states=5, max_iter=3), TokenFeaturizer("kazama"),
                         OnlinePACRF(max_iter=2, random_state=0))
    pipe.fit(X, y)
    names = pipe[1].get_feature_names_out()
    assert any(n.startswith("hmm[0]=h") for n in names)
    pred = pipe.predict(X)
    assert len(pred) == len(X) and all(len(p) == len(s) for p, s in zip(pred, X))
    assert pipe.score(X, y) > 0.9


def test_real_unlabeled_sentences_subset():
    path = data_path("unlabeled", "biomed-sentences.txt")
    with open(path, encoding="utf-8") as fh:
        X = [line.rstrip("\n").split(" ") for _, line in zip(range(300), fh)]
    hmm = HMMStateClusterer(n_states=8, max_vocab=500, max_iter=4, tol=None,
                            random_state=0).fit(X)
    h = np.array(hmm.history_)
    assert np.all(np.diff(h) > 0)
    out = hmm.transform(X[:5])
    assert all(len(s.column("hmm")) == len(s) for s in out)


def test_concurrent_transforms_restore_blas_threads():
    import threading

    from threadpoolctl import threadpool_info

    X, _ = toy_sentences(60)
    hmm = HMMStateClusterer(n_states=4, max_iter=2, tol=None, output="posterior",
                            random_state=0, n_jobs=2).fit(X)

    def blas_threads():
        return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]

    before = blas_threads()
    threads = [threading.Thread(target=lambda: [hmm.transform(X) for _ in range(20)])
               for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert blas_threads() == before
