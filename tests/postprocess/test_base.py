"""PostProcessedTagger: documents reach the steps, parameters route, sklearn citizenship."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, GroupKFold
from sklearn.pipeline import make_pipeline

from skbioner import Sentence
from skbioner.features import TokenFeaturizer
from skbioner.metrics import entity_f1_scorer
from skbioner.models import MajorityTagger, OnlinePACRF
from skbioner.postprocess import (
    CascadedEntityRules,
    PostProcessedTagger,
    PostprocessStep,
    apply_steps,
    group_documents,
)
from tests.models.toy import toy_sentences


def corpus():
    X, y = toy_sentences(n=24)
    X = [Sentence(s, doc_id=f"d{i // 3}") for i, s in enumerate(X)]
    return X, y


class Recorder(PostprocessStep):
    """Records what it is shown; tags nothing new."""

    uses_marginals = True

    def __init__(self, flag=0):
        self.flag = flag

    def correct(self, doc):
        self.seen_ = getattr(self, "seen_", []) + [doc]
        return [list(lab) for lab in doc.labels]


def test_group_documents_joins_by_id_and_isolates_unknown():
    X = [Sentence(["a"], doc_id="1"), Sentence(["b"]), Sentence(["c"], doc_id="2"),
         Sentence(["d"], doc_id="1"), ["e"]]
    assert group_documents(X) == [("1", [0, 3]), (None, [1]), ("2", [2]), (None, [4])]


def test_steps_see_whole_documents_with_marginals():
    X, y = corpus()
    tagger = make_pipeline(TokenFeaturizer(), OnlinePACRF(random_state=0, max_iter=3))
    pp = PostProcessedTagger(tagger, steps=[("rec", Recorder())]).fit(X, y)
    assert pp.predict(X) == pp.tagger_.predict(X) == y
    docs = pp.steps_[0][1].seen_
    assert [d.doc_id for d in docs] == [f"d{k}" for k in range(8)]
    assert all(len(d.sentences) == 3 and d.index == tuple(range(3 * k, 3 * k + 3))
               for k, d in enumerate(docs))
    d = docs[0]
    assert d.classes == tuple(pp.classes_) and d.marginals[0].shape == (7, len(pp.classes_))
    np.testing.assert_allclose(d.marginals[0].sum(axis=1), 1.0)
    assert np.argmax(d.marginals[0][0]) == d.classes.index("O")  # "The" is outside
    assert list(pp.classes_) == list(pp.tagger_[-1].classes_)


def test_a_tagger_without_marginals_gives_none():
    X, y = corpus()
    pp = PostProcessedTagger(MajorityTagger(), steps=[("rec", Recorder())]).fit(X, y)
    pp.predict(X)
    assert pp.steps_[0][1].seen_[0].marginals is None


def test_params_route_to_steps_and_clone():
    X, y = corpus()
    pp = PostProcessedTagger(make_pipeline(TokenFeaturizer(), OnlinePACRF(max_iter=2)),
                             steps=[("cascade", CascadedEntityRules())])
    assert pp.get_params()["cascade__min_precision"] == 0.9
    pp.set_params(cascade__min_precision=0.8, tagger__onlinepacrf__C=0.5)
    assert pp.steps[0][1].min_precision == 0.8 and pp.tagger[-1].C == 0.5
    c = clone(pp)
    assert c.get_params()["cascade__min_precision"] == 0.8 and c.steps[0][1] is not pp.steps[0][1]
    with pytest.raises(NotFittedError):
        pp.predict(X)
    groups = [s.doc_id for s in X]
    gs = GridSearchCV(pp, {"cascade__min_count": [1, 10]}, scoring=entity_f1_scorer,
                      cv=GroupKFold(2), n_jobs=2).fit(X, y, groups=groups)
    assert gs.best_score_ == pytest.approx(1.0)


def test_bad_steps_are_refused():
    X, y = corpus()
    with pytest.raises(TypeError, match="no correct"):
        PostProcessedTagger(MajorityTagger(), steps=[("x", MajorityTagger())]).fit(X, y)

    class Broken(PostprocessStep):
        def correct(self, doc):
            return [["O"] for _ in doc.labels]

    pp = PostProcessedTagger(MajorityTagger(), steps=[("b", Broken())]).fit(X, y)
    with pytest.raises(ValueError, match="do not fit document 'd0'"):
        pp.predict(X)


def test_apply_steps_repairs_ill_formed_output():
    class Sloppy(PostprocessStep):
        def correct(self, doc):
            return [["I-DNA"] + list(lab[1:]) for lab in doc.labels]

    X = [Sentence(["a", "b"], doc_id="1")]
    out = apply_steps([Sloppy().fit(X, [["O", "O"]])], X, [["O", "O"]])
    assert out == [["B-DNA", "O"]]
