"""OnlinePACRF against a slow, obvious reference of the PA update, plus estimator behaviour."""

import warnings

import joblib
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline

from skbioner.decoding import viterbi, viterbi_batch
from skbioner.features import SentenceFeatures, TokenFeaturizer
from skbioner.metrics import entity_f1_scorer
from skbioner.models import OnlinePACRF
from skbioner.models._linear_chain import ChainWeights, LabelSpace
from tests.models.toy import toy_sentences


def random_problem(rng, n_sent=12, n_feat=15, types=("A", "B")):
    rows, labels = [], []
    for _ in range(n_sent):
        n = int(rng.integers(1, 5))
        feats = (rng.random((n, n_feat)) < 0.3).astype(float)
        feats[:, 0] = 1.0  # a bias feature shared by all tokens of the sentence
        rows.append(feats)
        spans, i = [], 0
        while i < n:
            if rng.random() < 0.4:
                e = min(n, i + int(rng.integers(1, 3)))
                spans.append((types[int(rng.integers(len(types)))], i, e))
                i = e
            else:
                i += 1
        from skbioner.schemes import spans_to_labels
        labels.append(spans_to_labels(spans, n, "IOB2"))
    offsets = np.concatenate([[0], np.cumsum([len(r) for r in rows])])
    X = SentenceFeatures(sp.csr_matrix(np.vstack(rows), dtype=np.float32), offsets)
    return X, labels, rows


def averaged(m):
    """The unfolded averaged weights ``w - acc / t`` of a model that kept its training state."""
    return ChainWeights(*(np.asarray(getattr(m._w, n), float)
                          - np.asarray(getattr(m._acc, n), float) / m.t_
                          for n in ("W", "T", "start", "end")))


def reference_pa(X_rows, y, space, C, variant, cost, loss_augmented, epochs, label_pairs=None):
    """Dense, brute-force implementation of the documented update.

    With ``label_pairs=k``: the ``k`` features on most tokens (ties: lower
    index) also get a weight per allowed label pair, ``V[f, a, b]``; returns
    ``W, T, S, E`` and then ``V``.
    """
    F, Lt, L = X_rows[0].shape[1], space.n_columns, space.n_labels
    cols = space.cols
    W, T, S, E = np.zeros((F, Lt)), np.zeros((Lt, Lt)), np.zeros(Lt), np.zeros(Lt)
    Wa, Ta, Sa, Ea = np.zeros((F, Lt)), np.zeros((Lt, Lt)), np.zeros(Lt), np.zeros(Lt)
    V, Va = np.zeros((F, L, L)), np.zeros((F, L, L))
    mstart, mtrans, mend = space.mask()
    allowed = mtrans == 0
    on = np.zeros(F, dtype=bool)
    if label_pairs:
        counts = (np.vstack(X_rows) != 0).sum(axis=0)
        on[sorted(range(F), key=lambda f: (-counts[f], f))[:label_pairs]] = True
    codes = space.encode(y)
    off = np.concatenate([[0], np.cumsum([len(r) for r in X_rows])])
    counter = 0

    def phi(x, path):
        dW, dT, dS, dE = np.zeros((F, Lt)), np.zeros((Lt, Lt)), np.zeros(Lt), np.zeros(Lt)
        dV = np.zeros((F, L, L))
        for i in range(1, len(path)):
            if allowed[path[i - 1], path[i]]:
                dV[on, path[i - 1], path[i]] += x[i][on]
        for k in range(cols.shape[1]):
            c = cols[path, k]
            for i in range(len(path)):
                dW[:, c[i]] += x[i]
                if i:
                    dT[c[i - 1], c[i]] += 1
            dS[c[0]] += 1
            dE[c[-1]] += 1
        return dW, dT, dS, dE, dV

    def score(x, path):
        dW, dT, dS, dE, dV = phi(x, path)
        return (W * dW).sum() + (T * dT).sum() + (S * dS).sum() + (E * dE).sum() + (V * dV).sum()

    for _ in range(epochs):
        for s, x in enumerate(X_rows):
            gold = codes[off[s]:off[s + 1]]
            # decoding: the Viterbi kernel (tested against brute force on its own),
            # on scores built densely here; ties make brute force pick other paths
            n = len(gold)
            em = np.zeros((n, L))
            Tm, Sm, Em = np.zeros((L, L)), np.zeros(L), np.zeros(L)
            for k in range(cols.shape[1]):
                c = cols[:, k]
                em += x @ W[:, c]
                Tm += T[np.ix_(c, c)]
                Sm += S[c]
                Em += E[c]
            if loss_augmented:
                em += (np.arange(L)[None, :] != gold[:, None])
            pair = np.einsum("tf,fab->tab", x, V * on[:, None, None]) if label_pairs else None
            yhat, _ = viterbi(em, Tm + mtrans, Sm + mstart, Em + mend, pair)
            yhat = yhat.astype(np.int64)
            ham = int((yhat != gold).sum())
            if ham:
                rho = ham if cost == "hamming" else np.sqrt(ham)
                loss = score(x, yhat) - score(x, gold) + rho
                g, h = phi(x, gold), phi(x, yhat)
                d = [a - b for a, b in zip(g, h)]
                norm2 = sum((a ** 2).sum() for a in d)
                tau = {"PA": loss / norm2, "PA-I": min(C, loss / norm2),
                       "PA-II": loss / (norm2 + 1 / (2 * C))}[variant]
                for w, a, dd in zip((W, T, S, E, V), (Wa, Ta, Sa, Ea, Va), d):
                    w += tau * dd
                    a += counter * tau * dd
            counter += 1
    out = [w - a / counter for w, a in zip((W, T, S, E, V), (Wa, Ta, Sa, Ea, Va))]
    return out if label_pairs else out[:4]


@pytest.mark.parametrize(
    "scheme,extra,variant,cost,aug",
    [("IOB2", (), "PA-I", "hamming", False), ("IOBES", (), "PA-II", "sqrt_hamming", False),
     ("BIES", ("IO",), "PA-I", "hamming", True), ("IOB2", (), "PA", "hamming", True),
     ("BIES", ("IOBES", "IOB2", "IO"), "PA-I", "sqrt_hamming", False)],
)
def test_kernel_matches_reference(rng, scheme, extra, variant, cost, aug):
    X, y, rows = random_problem(rng, n_sent=8, n_feat=6)
    m = OnlinePACRF(scheme=scheme, extra_schemes=extra, C=0.5, variant=variant, cost=cost,
                    loss_augmented=aug, max_iter=2, tol=None, shuffle=False,
                    warm_start=True).fit(X, y)
    space = LabelSpace.build(scheme, ["A", "B"], extra)
    W, T, S, E = reference_pa(rows, y, space, 0.5, variant, cost, aug, epochs=2)
    avg = averaged(m)
    assert np.allclose(avg.W, W)
    assert np.allclose(avg.T, T)
    assert np.allclose(avg.start, S) and np.allclose(avg.end, E)


def test_kernel_matches_reference_where_the_pa1_cap_binds(rng):
    # at C=0.5 the cap of PA-I never binds on these problems: a kernel without it would pass
    # the test above; at C=0.2 it binds, and the result differs from the uncapped one (much
    # smaller C makes exact ties between paths, which the two decoders may break apart)
    X, y, rows = random_problem(rng, n_sent=8, n_feat=6)
    space = LabelSpace.build("IOB2", ["A", "B"], ())
    fits = {}
    for C in (0.2, 1e9):
        m = OnlinePACRF(scheme="IOB2", C=C, variant="PA-I", cost="hamming",
                        loss_augmented=False, max_iter=2, tol=None, shuffle=False,
                        warm_start=True).fit(X, y)
        W, T, S, E = reference_pa(rows, y, space, C, "PA-I", "hamming", False, epochs=2)
        avg = averaged(m)
        assert np.allclose(avg.W, W) and np.allclose(avg.T, T)
        assert np.allclose(avg.start, S) and np.allclose(avg.end, E)
        fits[C] = W
    assert not np.allclose(fits[0.2], fits[1e9])  # the cap changed the updates


@pytest.mark.parametrize("scheme,extra,variant,aug,k", [
    ("IOB2", (), "PA-I", False, 3), ("BIES", ("IO",), "PA-II", True, 6),
    ("IOBES", (), "PA", False, 1)])
def test_kernel_with_label_pairs_matches_reference(rng, scheme, extra, variant, aug, k):
    X, y, rows = random_problem(rng, n_sent=8, n_feat=6)
    m = OnlinePACRF(scheme=scheme, extra_schemes=extra, C=0.2, variant=variant,
                    loss_augmented=aug, label_pairs=k, max_iter=2, shuffle=False,
                    warm_start=True).fit(X, y)
    space = LabelSpace.build(scheme, ["A", "B"], extra)
    W, T, S, E, V = reference_pa(rows, y, space, 0.2, variant, "hamming", aug, epochs=2,
                                 label_pairs=k)
    avg = averaged(m)
    assert np.allclose(avg.W, W) and np.allclose(avg.T, T)
    assert np.allclose(avg.start, S) and np.allclose(avg.end, E)
    dense = np.zeros_like(V)
    f, (a, b) = m.pair_features_, m.label_pairs_.T
    dense[f[:, None], a[None, :], b[None, :]] = m.pair_coef_
    assert np.allclose(dense, V) and np.abs(V).max() > 0  # the pair weights were trained
    W0 = reference_pa(rows, y, space, 0.2, variant, "hamming", aug, epochs=2)[0]
    assert not np.allclose(W, W0)  # and they changed the updates


def test_label_pairs_predict_persist_and_refuse_probabilities(tmp_path):
    X, y = toy_sentences(30)
    F = TokenFeaturizer().fit_transform(X)
    m = OnlinePACRF(scheme="BIES", label_pairs=50, max_iter=5, random_state=0).fit(F, y)
    L = len(m.label_space_.labels)
    assert m.pair_coef_.shape == (50, len(m.label_pairs_)) and len(m.label_pairs_) < L * L
    assert m.predict(F) == y
    joblib.dump(m, tmp_path / "m.joblib")
    assert joblib.load(tmp_path / "m.joblib").predict(F) == y
    for method in ("predict_marginals", "predict_entities", "fit_temperature"):
        assert not hasattr(m, method)  # the tagging commands then report confidence 1
    with pytest.raises(ValueError, match="vary per token"):
        m._chain_scores(F).dense()
    with pytest.raises(ValueError, match="calibrate=False"):
        OnlinePACRF(label_pairs=5, calibrate=True).fit(F, y)
    for bad in (0, 2.5, True, "all"):
        with pytest.raises(ValueError, match="'label_pairs' parameter"):
            OnlinePACRF(label_pairs=bad).fit(F, y)
    w = OnlinePACRF(label_pairs=5, warm_start=True, max_iter=1).fit(F, y)
    with pytest.raises(ValueError, match="label_pairs=6, the model has 5"):
        w.set_params(label_pairs=6).fit(F, y)
    assert clone(w).get_params()["label_pairs"] == 6


def test_folded_and_unfolded_predictions_are_identical(rng):
    X, y, _ = random_problem(rng, n_sent=80, n_feat=30)
    m = OnlinePACRF(scheme="BIES", extra_schemes=("IOBES", "IOB2", "IO"), max_iter=3,
                    tol=None, random_state=0, warm_start=True).fit(X, y)
    assert m.coef_.shape == (30, len(m.label_space_.labels))
    # the unfolded chain: every block's columns of the averaged weights summed per main label
    space, avg = m.label_space_, averaged(m)
    cols = space.cols
    scores = np.asarray(X.matrix @ avg.W)[:, cols].sum(axis=2)
    trans = sum(avg.T[np.ix_(cols[:, k], cols[:, k])] for k in range(cols.shape[1]))
    start, end = avg.start[cols].sum(axis=1), avg.end[cols].sum(axis=1)
    assert np.allclose(X.matrix @ m.coef_, scores) and np.allclose(m.transition_, trans)
    assert np.allclose(m.start_, start) and np.allclose(m.end_, end)
    mstart, mtrans, mend = space.mask()
    paths = viterbi_batch(scores, X.offsets, trans + mtrans, start + mstart, end + mend)
    assert m.predict(X) == space.decode(paths, X.offsets, well_formed=True)


def test_learns_a_separable_problem(rng):
    X, y, rows = random_problem(rng, n_sent=60, n_feat=10)
    # append a one-hot of each token's gold label: the problem becomes separable
    vocab = sorted({lab for s in y for lab in s})
    onehot = np.array([[lab == v for v in vocab] for s in y for lab in s], dtype=float)
    X = SentenceFeatures(sp.hstack([X.matrix, sp.csr_matrix(onehot)]).tocsr(), X.offsets)
    m = OnlinePACRF(max_iter=30, random_state=0, C=1.0).fit(X, y)
    assert m.score(X, y) == 1.0
    assert m.history_[-1]["sentence_errors"] == 0




def test_pipeline_grid_search_and_persistence(tmp_path):
    X, y = toy_sentences()
    pipe = make_pipeline(TokenFeaturizer(), OnlinePACRF(max_iter=5, tol=None, random_state=0))
    gs = GridSearchCV(pipe, {"onlinepacrf__C": [0.01, 1.0]}, scoring=entity_f1_scorer, cv=2,
                      n_jobs=2)
    gs.fit(X, y)
    assert gs.best_score_ == pytest.approx(1.0)
    joblib.dump(gs.best_estimator_, tmp_path / "m.joblib")
    loaded = joblib.load(tmp_path / "m.joblib")
    assert loaded.predict(X) == gs.best_estimator_.predict(X) == y


def test_prediction_is_iob2_whatever_the_scheme():
    X, y = toy_sentences()
    for scheme in ("IOE1", "BIES", "IO"):
        pipe = make_pipeline(TokenFeaturizer(), OnlinePACRF(scheme=scheme, max_iter=5, tol=None,
                                                            random_state=0))
        assert pipe.fit(X, y).predict(X) == y


def test_partial_fit_and_warm_start():
    X, y = toy_sentences()
    fz = TokenFeaturizer().fit(X)
    F = fz.transform(X)
    m = OnlinePACRF(random_state=0)
    with pytest.raises(ValueError, match="classes must be passed"):
        m.partial_fit(F, y)
    for _ in range(3):
        m.partial_fit(F, y, classes=["O", "B-DNA", "I-DNA", "B-cell_type", "I-cell_type"])
    assert m.t_ == 3 * len(X) and m.predict(F) == y
    w = OnlinePACRF(warm_start=True, max_iter=1, tol=None, random_state=0).fit(F, y)
    t1 = w.t_
    w.fit(F, y)
    assert w.t_ == 2 * t1


def test_early_stopping_and_convergence_warning():
    X, y = toy_sentences()
    F = TokenFeaturizer().fit_transform(X)
    m = OnlinePACRF(early_stopping=True, max_iter=20, random_state=0).fit(F, y)
    assert "validation_f1" in m.history_[0] and m.n_iter_ < 20
    # a problem that cannot be solved in one epoch, with a tolerance: warns
    X2, y2 = toy_sentences(seed=1)
    y2 = [list(s) for s in y2]
    for i in range(0, len(y2), 2):
        y2[i][1:3] = ["O", "O"]
    F2 = TokenFeaturizer().fit_transform(X2)
    with pytest.warns(ConvergenceWarning):
        OnlinePACRF(max_iter=2, tol=0.0, n_iter_no_change=5, random_state=0).fit(F2, y2)


def test_estimator_hygiene_and_errors():
    X, y = toy_sentences()
    F = TokenFeaturizer().fit_transform(X)
    m = OnlinePACRF()
    assert clone(m).get_params() == m.get_params()
    with pytest.raises(NotFittedError):
        m.predict(F)
    with pytest.raises(TypeError, match="reads featurizer output"):
        m.fit(X, y)
    with pytest.raises(ValueError, match="'variant' parameter of OnlinePACRF must be a str"):
        OnlinePACRF(variant="PA-III").fit(F, y)
    # declared constraints: a bool is not a number, a numpy scalar is
    for bad in ({"C": True}, {"max_iter": True}, {"C": 0.0}, {"C": float("nan")},
                {"shuffle": 1}, {"scheme": "XYZ"}):
        with pytest.raises(ValueError, match=f"'{next(iter(bad))}' parameter"):
            OnlinePACRF(**bad).fit(F, y)
    assert OnlinePACRF(C=np.float32(0.1), max_iter=np.int64(2)).fit(F, y).n_iter_ == 2
    with pytest.raises(ValueError, match=r"y\[0\]: label 'S-DNA'"):
        OnlinePACRF().fit(F, [["S-DNA"] + s[1:] for s in y])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = OnlinePACRF(max_iter=3, tol=None).fit(F, y)
    with pytest.raises(ValueError, match="features"):
        m.predict(SentenceFeatures(sp.csr_matrix((7, 3), dtype=np.float32), [0, 7]))


@pytest.mark.parametrize("scheme", ["IOB2", "IOBES", "BIES", "BI", "IOE2", "IOB1"])
def test_table_decoding_equals_span_conversion(rng, scheme):
    space = LabelSpace.build(scheme, ["A", "B"])
    start, trans, end = space.mask()
    lengths = rng.integers(1, 8, size=50)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    scores = rng.normal(size=(offsets[-1], space.n_labels))
    codes = viterbi_batch(scores, offsets, trans, start, end)
    assert space.decode(codes, offsets, well_formed=True) == space.decode(codes, offsets)


def test_warm_start_refuses_a_changed_structure():
    X, y = toy_sentences()
    F = TokenFeaturizer().fit_transform(X)
    m = OnlinePACRF(scheme="BIES", extra_schemes=("IO",), warm_start=True, max_iter=1).fit(F, y)
    m.set_params(extra_schemes=("IOBES", "IOB2"))
    with pytest.raises(ValueError, match="cannot continue training.*extra_schemes"):
        m.fit(F, y)
    m.set_params(extra_schemes=("IO",))
    y_new = [["B-RNA"] + s[1:] for s in y]
    with pytest.raises(ValueError, match="entity types the model lacks: \\['RNA'\\]"):
        m.fit(F, y_new)
    m.set_params(warm_start=False)
    assert m.fit(F, y_new).label_space_.types == ("DNA", "RNA", "cell_type")


def test_partial_fit_draws_a_new_order_each_call():
    X, y = toy_sentences()
    F = TokenFeaturizer().fit_transform(X)
    classes = ["O", "B-DNA", "I-DNA", "B-cell_type", "I-cell_type"]
    m = OnlinePACRF(random_state=0).partial_fit(F, y, classes=classes)
    rng = m._rng
    state = rng.get_state()
    m.partial_fit(F, y)
    assert m._rng is rng  # one generator carried across calls, not re-seeded
    after = rng.get_state()
    assert state[2] != after[2] or not np.array_equal(state[1], after[1])


# --------------------------------------------------------------- plain tags (scheme=None)

def _pos_toy():
    X, _ = toy_sentences(30)
    tags = {"The": "DT", "gene": "NN", "in": "IN", "cells": "NNS", ".": "."}
    y = [[tags.get(w, "NNP") for w in s] for s in X]
    return X, y


def test_plain_tags_learn_and_keep_labels_as_given():
    X, y = _pos_toy()
    model = make_pipeline(TokenFeaturizer("chan"), OnlinePACRF(scheme=None, max_iter=5,
                                                               random_state=0))
    model.fit(X, y)
    assert model.predict(X) == y
    assert model.score(X, y) == 1.0  # token accuracy, not entity F1
    assert list(model[-1].classes_) == sorted({t for s in y for t in s})


def test_plain_tags_partial_fit_early_stopping_and_errors():
    X, y = _pos_toy()
    F = TokenFeaturizer("chan").fit(X).transform(X)
    m = OnlinePACRF(scheme=None, random_state=0)
    m.partial_fit(F, y, classes=["DT", "NN", "IN", "NNS", ".", "NNP"])
    m.partial_fit(F, y)
    assert m.predict(F) == y
    es = OnlinePACRF(scheme=None, early_stopping=True, max_iter=3, random_state=0).fit(F, y)
    assert "validation_accuracy" in es.history_[0]
    with pytest.raises(ValueError, match="labels the model lacks"):
        m.partial_fit(F, [["VB"] * len(s) for s in y])
    with pytest.raises(ValueError, match="extra_schemes need a segment scheme"):
        OnlinePACRF(scheme=None, extra_schemes=("IO",)).fit(F, y)


def test_sparsify_keeps_predictions_and_shrinks(tmp_path):
    X, y = toy_sentences(30)
    F = TokenFeaturizer("chan").fit(X).transform(X)
    m = OnlinePACRF(random_state=0, max_iter=3).fit(F, y)
    dense_pred = m.predict(F)
    joblib.dump(m, tmp_path / "dense.joblib")
    m.sparsify()
    assert sp.issparse(m.coef_) and m.coef_.dtype == np.float32
    assert m.predict(F) == dense_pred
    joblib.dump(m, tmp_path / "sparse.joblib")
    assert (tmp_path / "sparse.joblib").stat().st_size < (tmp_path / "dense.joblib").stat().st_size
    loaded = joblib.load(tmp_path / "sparse.joblib").densify()
    assert isinstance(loaded.coef_, np.ndarray) and loaded.predict(F) == dense_pred
    with pytest.raises(ValueError, match="sparsified"):
        m.partial_fit(F, y)
    with pytest.raises(ValueError, match="sparsified"):
        m.set_params(warm_start=True).fit(F, y)
    m.set_params(warm_start=False).fit(F, y)  # starting over is fine
    assert m.predict(F) == dense_pred


def test_verbose_one_shows_a_bar_two_a_line_per_epoch(capsys):
    from skbioner.features import TokenFeaturizer
    from tests.models.toy import toy_sentences

    X, y = toy_sentences(20)
    F = TokenFeaturizer().fit_transform(X)
    m = OnlinePACRF(max_iter=3, verbose=1, random_state=0).fit(F, y)
    err = capsys.readouterr().err
    assert "OnlinePACRF epochs" in err and f"{m.n_iter_}/3 [" in err and "-- epoch" not in err
    m = OnlinePACRF(max_iter=3, verbose=2, random_state=0).fit(F, y)
    err = capsys.readouterr().err
    assert err.count("-- epoch") == m.n_iter_ and "OnlinePACRF epochs" not in err
    OnlinePACRF(max_iter=3, random_state=0).fit(F, y)
    assert capsys.readouterr().err == ""


def test_calibrating_in_a_second_thread_gives_the_same_model():
    from skbioner.datasets import load_jnlpba_sample

    sample = load_jnlpba_sample("train")
    X = TokenFeaturizer().fit_transform(sample.X[:400])
    models = [OnlinePACRF(scheme="BIES", max_iter=3, calibrate=True, random_state=0,
                          n_jobs=n_jobs).fit(X, sample.y[:400]) for n_jobs in (None, 2)]
    assert models[0].temperature_ != 1.0  # the held-out model did decide something
    assert models[0].temperature_ == models[1].temperature_
    np.testing.assert_array_equal(models[0].coef_, models[1].coef_)
    assert models[1].get_params()["n_jobs"] == 2


def test_a_model_saved_before_n_jobs_existed_still_has_its_parameters():
    model = OnlinePACRF()
    del model.__dict__["n_jobs"]  # what loading a model file of an older version gives
    assert model.get_params()["n_jobs"] is None
    assert clone(model).n_jobs is None


@pytest.mark.parametrize("scheme,extra", [("BIES", ("IO",)), ("IOB2", ())])
def test_epoch_snapshots_are_the_shorter_fits(scheme, extra):
    # the tuner reads a k-epoch candidate's predictions from the snapshot at epoch k of a
    # longer run: they must be, label for label, those of a separate max_iter=k fit
    from skbioner.datasets import load_jnlpba_sample

    sample = load_jnlpba_sample("train")
    feats = TokenFeaturizer(min_count=2)
    F = feats.fit_transform(sample.X[:300], sample.y[:300])
    Fe = feats.transform(sample.X[300:450])
    model = OnlinePACRF(scheme=scheme, extra_schemes=extra, max_iter=4, random_state=0)
    alone = {k: clone(model).set_params(max_iter=k).fit(F, sample.y[:300]).predict(Fe)
             for k in (1, 2, 3, 4)}
    # each epoch predicts differently: a snapshot one epoch off would not match
    assert all(alone[k] != alone[k + 1] for k in (1, 2, 3))
    snaps = model._fit_predict_epochs(F, sample.y[:300], Fe, [1, 3, 2, 4])
    assert sorted(snaps) == [1, 2, 3, 4]
    for k in (1, 2, 3, 4):
        assert snaps[k][0] == alone[k], k
    assert snaps[1][1] < snaps[2][1] < snaps[3][1] < snaps[4][1]  # seconds from the start
    # the run's own model is the max_iter fit's (the snapshots leave no trace)
    full = clone(model).fit(F, sample.y[:300])
    np.testing.assert_array_equal(model.coef_, full.coef_)
    np.testing.assert_array_equal(model.transition_, full.transition_)
    assert model.n_iter_ == 4 and not hasattr(model, "_w")


def test_epoch_snapshots_after_an_early_stop_and_refusals():
    X, y = toy_sentences(40)
    feats = TokenFeaturizer(min_count=1)
    F = feats.fit_transform(X, y)
    model = OnlinePACRF(max_iter=8, random_state=0)
    snaps = model._fit_predict_epochs(F, y, F, [1, 5, 8])
    assert model.n_iter_ < 5  # no error left: stopped, as a 5-epoch fit stops
    five = clone(model).set_params(max_iter=5).fit(F, y)
    assert five.n_iter_ == model.n_iter_ and snaps[5][0] == five.predict(F) == snaps[8][0]
    with pytest.raises(ValueError, match="include it"):
        clone(model)._fit_predict_epochs(F, y, F, [1, 5])
    with pytest.raises(ValueError, match="early_stopping"):
        clone(model).set_params(early_stopping=True)._fit_predict_epochs(F, y, F, [2, 8])
