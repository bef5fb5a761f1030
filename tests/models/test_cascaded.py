import joblib
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline

from skbioner.features import SentenceFeatures, TokenFeaturizer
from skbioner.metrics import entity_f1_scorer
from skbioner.models import CascadedNER, OnlinePACRF
from skbioner.models._cascaded import SegmentFeaturizer
from tests.models.toy import toy_sentences


def corpus(n=60, seed=0):
    return toy_sentences(n, seed)


def small_cascade(**kw):
    return CascadedNER(segmenter=OnlinePACRF(max_iter=5, tol=None),
                       classifier=OnlinePACRF(max_iter=5, tol=None), n_folds=3,
                       random_state=0, **kw)


def test_learns_types_and_persists(tmp_path):
    X, y = corpus()
    pipe = make_pipeline(TokenFeaturizer(), small_cascade())
    pipe.fit(X, y)
    assert pipe.predict(X) == y
    joblib.dump(pipe, tmp_path / "c.joblib")
    assert joblib.load(tmp_path / "c.joblib").predict(X) == y


class OverSegmenter(BaseEstimator):
    """Always proposes 'The' as an extra segment besides the two true ones."""

    def __init__(self, random_state=None):
        self.random_state = random_state

    def fit(self, X, y):
        self.fitted_ = True
        return self

    def predict(self, X):
        return [["B-ENT", "B-ENT", "I-ENT", "O", "B-ENT", "I-ENT", "O"] for _ in range(len(X))]


def test_rejects_false_segments():
    X, y = corpus()
    cascade = CascadedNER(segmenter=OverSegmenter(), classifier=OnlinePACRF(max_iter=5, tol=None),
                          n_folds=3, random_state=0)
    cascade.fit(TokenFeaturizer().fit_transform(X), y)
    assert cascade.oof_segment_f1_ == pytest.approx(0.8)  # 2 of 3 proposed segments are right
    # the classifier learned to label the false 'The' segment Other: it is rejected
    assert cascade.predict(TokenFeaturizer().fit(X).transform(X)) == y
    assert set(cascade.types_) == {"DNA", "cell_type"}


def test_grid_search_over_segmenter_parameter():
    X, y = corpus()
    pipe = make_pipeline(TokenFeaturizer(), small_cascade())
    gs = GridSearchCV(pipe, {"cascadedner__segmenter__C": [0.01, 1.0]},
                      scoring=entity_f1_scorer, cv=2, n_jobs=2)
    gs.fit(X, y)
    assert gs.best_score_ == pytest.approx(1.0)


def test_hygiene():
    X, y = corpus(n=12)
    c = small_cascade()
    assert clone(c).get_params()["segmenter__max_iter"] == 5
    with pytest.raises(NotFittedError):
        c.predict(TokenFeaturizer().fit_transform(X))
    with pytest.raises(ValueError, match="n_folds"):
        CascadedNER(n_folds=1).fit(TokenFeaturizer().fit_transform(X), y)
    # the sub-estimator parameters are not modified by fit
    c.fit(TokenFeaturizer().fit_transform(X), y)
    assert c.segmenter.random_state is None and c.segmenter_.random_state is not None


def test_segment_featurizer_blocks():
    tok = sp.csr_matrix(np.eye(4, dtype=np.float32))  # token i has feature i
    spans = [[("ENT", 0, 2)], [("ENT", 1, 2)]]
    offsets = np.array([0, 2, 4])
    sf = SegmentFeaturizer()
    X, seg_off = sf.fit_transform(tok, spans, offsets)
    assert list(seg_off) == [0, 1, 2]
    dense = X.toarray()
    # segment 0 = tokens 0, 1: bag {0, 1}, head 1, first 0, length bucket "2", type ENT
    assert dense.shape[0] == 2 and dense[0].sum() == 6 and dense[1].sum() == 5
    # unseen columns are dropped at transform
    X2, _ = sf.transform(tok, [[("ENT", 0, 1)], []], offsets)
    assert X2.shape == (1, X.shape[1])
    assert isinstance(SentenceFeatures(X2, [0, 1, 1]), SentenceFeatures)


def test_typed_segmenter_passes_its_type_to_stage_two(tmp_path):
    X, y = corpus()
    F = TokenFeaturizer().fit_transform(X)
    c = small_cascade(typed_segmenter=True).fit(F, y)
    assert c.segment_featurizer_.types == ("DNA", "cell_type")
    assert c.predict(F) == y
    joblib.dump(c, tmp_path / "c.joblib")
    assert joblib.load(tmp_path / "c.joblib").predict(F) == y


def test_clear_errors_before_any_training():
    X, y = corpus(n=4)
    F = TokenFeaturizer().fit_transform(X)
    with pytest.raises(ValueError, match="at least 2 sentences"):
        small_cascade().fit(F[:1], y[:1])
    with pytest.raises(ValueError, match="segment feature blocks"):
        small_cascade(segment_features=("bag", "typo")).fit(F, y)


def test_sparsify_stores_both_stages_sparse_and_tags_the_same(tmp_path):
    from skbioner.io import load_model, save_model

    X, y = corpus()
    pipe = make_pipeline(TokenFeaturizer(), small_cascade()).fit(X, y)
    Xt = pipe[0].transform(X)
    before, conf = pipe.predict(X), pipe[-1].predict_entities(Xt)
    cascade = pipe[-1].sparsify()
    assert sp.issparse(cascade.segmenter_.coef_) and sp.issparse(cascade.classifier_.coef_)
    assert pipe.predict(X) == before
    np.testing.assert_allclose([p for s in cascade.predict_entities(Xt) for *_, p in s],
                               [p for s in conf for *_, p in s], atol=1e-5)
    loaded = load_model(save_model(pipe, tmp_path / "c.skops"))
    assert loaded.predict(X) == before
    loaded[-1].densify()
    assert not sp.issparse(loaded[-1].classifier_.coef_) and loaded.predict(X) == before
    with pytest.raises(NotFittedError):
        small_cascade().sparsify()
