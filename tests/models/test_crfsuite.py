"""CRFsuiteTagger: CRFsuite's L-BFGS CRF on the featurizer's output."""

import os
import pickle
import tempfile

import joblib
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import (
    check_get_params_invariance,
    check_no_attributes_set_in_init,
    check_parameters_default_constructible,
    check_set_params,
)

from skbioner.features import SentenceFeatures, TokenFeaturizer
from skbioner.metrics import entity_f1_scorer
from skbioner.models import CRFsuiteTagger
from skbioner.models._crfsuite import _iter_items
from tests.models.toy import toy_sentences as _toy


def toy_sentences(n=24, seed=0):
    return _toy(n, seed, with_singletons=True)


@pytest.fixture(scope="module")
def toy():
    X, y = toy_sentences()
    F = TokenFeaturizer().fit_transform(X)
    return X, y, F


@pytest.fixture(scope="module")
def fitted(toy):
    _, y, F = toy
    return CRFsuiteTagger(c2=0.1).fit(F, y)


def test_learns_the_training_data(toy, fitted):
    _, y, F = toy
    assert fitted.predict(F) == y
    assert fitted.score(F, y) == pytest.approx(1.0)
    assert fitted.n_features_in_ == F.n_features
    assert isinstance(fitted.model_bytes_, bytes) and fitted.model_bytes_
    # classes_: the IOB2 labels predict returns; labels_: the internal labels seen
    assert list(fitted.classes_) == ["O", "B-DNA", "I-DNA", "B-cell_type", "I-cell_type",
                                     "B-protein", "I-protein"]
    assert list(fitted.labels_) == ["O", "B-DNA", "I-DNA", "B-cell_type", "I-cell_type",
                                    "B-protein"]
    log = fitted.training_log_
    assert log["n_iter"] == fitted.n_iter_ == len(log["iterations"]) >= 1
    losses = [it["loss"] for it in log["iterations"]]
    assert losses[-1] < losses[0]
    assert log["seconds"] >= 0 and log["wall_seconds"] > 0 and log["n_features"] > 0


@pytest.mark.parametrize("scheme", ["IOB2", "IOBES", "BIES"])
def test_prediction_is_iob2_whatever_the_scheme(toy, scheme):
    _, y, F = toy
    m = CRFsuiteTagger(scheme=scheme, c2=0.1).fit(F, y)
    assert m.predict(F) == y
    assert set(m.classes_) == {lab for s in y for lab in s} | {"I-protein"}
    if scheme == "IOBES":
        assert "S-protein" in m.labels_ and "E-DNA" in m.labels_
    if scheme == "BIES":
        assert "O" not in m.labels_ and "S-O" in m.labels_


def test_items_are_names_or_weighted_dicts():
    m = sp.csr_matrix(np.array([[1, 0, 1], [0, 0, 0], [0, 1, 0]], dtype=np.float32))
    X = SentenceFeatures(m, [0, 2, 2, 3])
    assert list(_iter_items(X.matrix, X.offsets)) == [[[b"0", b"2"], []], [], [[b"1"]]]
    w = SentenceFeatures(sp.csr_matrix(np.array([[0.5, 2.0]])), [0, 1])
    assert list(_iter_items(w.matrix, w.offsets)) == [[{b"0": 0.5, b"1": 2.0}]]


def test_empty_sentences(toy, fitted):
    _, y, F = toy
    empty = SentenceFeatures(sp.csr_matrix((0, F.n_features), dtype=np.float32), [0, 0])
    both = SentenceFeatures.concatenate([F[:2], empty])
    assert fitted.predict(both) == y[:2] + [[]]


def test_joblib_round_trip_leaves_no_files(toy, tmp_path):
    _, y, F = toy
    tmp = tempfile.gettempdir()
    before = set(os.listdir(tmp))
    m = CRFsuiteTagger(c2=0.1).fit(F, y)
    pred = m.predict(F)
    joblib.dump(m, tmp_path / "m.joblib")
    loaded = joblib.load(tmp_path / "m.joblib")
    assert loaded.predict(F) == pred == y
    assert pickle.loads(pickle.dumps(loaded)).predict(F) == pred
    assert set(os.listdir(tmp)) == before
    # predict leaves the estimator as it was: the open tagger is cached outside it
    before = pickle.dumps(m)
    m.predict(F)
    assert pickle.dumps(m) == before and set(vars(m)) == set(vars(loaded))


def test_refit_replaces_the_cached_tagger(toy):
    _, y, F = toy
    m = CRFsuiteTagger(c2=0.1).fit(F, y)
    assert m.predict(F) == y
    y_o = [["O"] * len(s) for s in y]
    assert m.fit(F, y_o).predict(F) == y_o


def test_clone_get_set_params(fitted):
    m = CRFsuiteTagger(c1=0.05, c2=0.5, max_iter=7, scheme="IOBES")
    assert clone(m).get_params() == m.get_params()
    assert m.set_params(c2=2.0).c2 == 2.0
    c = clone(fitted)
    assert not hasattr(c, "model_bytes_") and c.get_params() == fitted.get_params()
    name = "CRFsuiteTagger"
    check_no_attributes_set_in_init(name, CRFsuiteTagger())
    check_parameters_default_constructible(name, CRFsuiteTagger())
    check_get_params_invariance(name, CRFsuiteTagger())
    check_set_params(name, CRFsuiteTagger())


def test_fit_does_not_overwrite_parameters(toy):
    _, y, F = toy
    m = CRFsuiteTagger(c2=0.1, max_iter=5)
    params = m.get_params()
    y_copy = [list(s) for s in y]
    matrix = F.matrix.copy()
    m.fit(F, y)
    assert m.get_params() == params
    added = set(vars(m)) - set(params)
    assert added and all(k.endswith("_") and not k.startswith("_") for k in added)
    assert y == y_copy and (F.matrix != matrix).nnz == 0


def test_not_fitted_and_wrong_width(toy, fitted):
    _, _, F = toy
    with pytest.raises(NotFittedError):
        CRFsuiteTagger().predict(F)
    narrow = SentenceFeatures(F.matrix[:, :-1], F.offsets)
    with pytest.raises(ValueError, match="features, but CRFsuiteTagger was fitted"):
        fitted.predict(narrow)
    with pytest.raises(TypeError, match="put a TokenFeaturizer before it"):
        fitted.predict([["IL-2", "gene"]])


def test_bad_labels_and_parameters(toy):
    _, y, F = toy
    bad = [list(s) for s in y]
    bad[3][1] = "B_DNA"
    with pytest.raises(ValueError, match=r"y\[3\]: label 'B_DNA' at token 1"):
        CRFsuiteTagger().fit(F, bad)
    with pytest.raises(ValueError, match="label sequences but there are"):
        CRFsuiteTagger().fit(F, y[:-1])
    for params, msg in [
        ({"algorithm": "sgd"}, "'algorithm' parameter of CRFsuiteTagger must be"),
        ({"c2": -1}, "'c2' parameter"),
        ({"c2": True}, "'c2' parameter"),
        ({"c1": 0.1, "algorithm": "l2sgd"}, "only available with algorithm='lbfgs'"),
        ({"max_iter": 0}, "'max_iter' parameter"),
        ({"min_freq": "2"}, "'min_freq' parameter"),
        ({"all_possible_states": 1}, "'all_possible_states' parameter"),
        ({"scheme": "XYZ"}, "'scheme' parameter"),
    ]:
        with pytest.raises(ValueError, match=msg):
            CRFsuiteTagger(**params).fit(F, y)


def test_options_reach_crfsuite(toy, capsys):
    _, y, F = toy
    m = CRFsuiteTagger(algorithm="l2sgd", c2=0.1, max_iter=3, all_possible_transitions=True,
                       all_possible_states=True, verbose=2).fit(F, y)
    err = capsys.readouterr()
    assert "-- iteration 1:" in err.err and err.out == ""
    L = len(m.labels_)
    n_attr = int(np.count_nonzero(F.matrix.getnnz(axis=0)))
    assert m.training_log_["n_features"] == n_attr * L + L * L
    m = CRFsuiteTagger(max_iter=2, verbose=3).fit(F, y)
    assert "L-BFGS optimization" in capsys.readouterr().err and m.n_iter_ == 2
    CRFsuiteTagger(max_iter=2, verbose=1).fit(F, y)  # a progress bar, no per-iteration lines
    err = capsys.readouterr().err
    assert "CRFsuiteTagger iterations" in err and "2/2" in err and "-- iteration" not in err


def test_pipeline_grid_search(toy):
    X, y, _ = toy
    pipe = make_pipeline(TokenFeaturizer(), CRFsuiteTagger(max_iter=50))
    gs = GridSearchCV(pipe, {"crfsuitetagger__c2": [0.1, 1.0]}, scoring=entity_f1_scorer,
                      cv=2, n_jobs=2)
    gs.fit(X, y)
    assert gs.best_score_ > 0.9
    assert gs.best_estimator_.predict(X) == y


def test_plain_labels_scheme_none():
    from sklearn.pipeline import make_pipeline

    from skbioner.features import TokenFeaturizer

    X = [["The", "cells", "grow", "."], ["The", "gene", "binds", "."]] * 5
    y = [["DT", "NNS", "VBP", "."], ["DT", "NN", "VBZ", "."]] * 5
    pipe = make_pipeline(TokenFeaturizer("chan"), CRFsuiteTagger(scheme=None, max_iter=30))
    pipe.fit(X, y)
    assert pipe.predict(X) == y
    assert list(pipe[-1].classes_) == [".", "DT", "NN", "NNS", "VBP", "VBZ"]
    assert pipe.score(X, y) == 1.0  # token accuracy
