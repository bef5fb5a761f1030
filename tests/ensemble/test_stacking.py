"""StackedTagger: a second pass over several members' out-of-fold outputs."""

import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from skbioner import Sentence
from skbioner.datasets import load_jnlpba_sample
from skbioner.ensemble import (
    StackedTagger,
    stacking_groups,
    with_feature_groups,
)
from skbioner.io import load_model, save_model
from skbioner.models import MajorityTagger
from skbioner.pipelines import make_tagger


def _crf(**options):
    return make_tagger("online-crf", model_params={"max_iter": 2}, **options)


@pytest.fixture(scope="module")
def sample():
    train = load_jnlpba_sample("train")
    return train.X[:240], train.y[:240], train.X[240:300], train.y[240:300]


def test_one_member_is_the_two_pass_system(sample):
    X, y, Xt, _ = sample
    two_pass = make_tagger("online-crf", model_params={"max_iter": 2}, two_pass=True,
                           combination_params={"cv": 3})
    assert isinstance(two_pass, StackedTagger) and len(two_pass.estimators) == 1
    two_pass.fit(X, y)
    # the training columns are out of fold: what the second pass learned from
    oof = clone(two_pass).fit_transform(X, y)
    assert [s.words for s in oof] == [s.words for s in X]
    assert set(oof[0].annotations) == {"fp_label", "fp_conf", "fp_memory", "fp_abbr",
                                       "fp_cascade", "fp_abbreviations", "fp_alias"}
    assert set(two_pass.transform(Xt)[0].annotations) == set(oof[0].annotations)
    assert [s.column("fp_label") for s in oof] != [s.column("fp_label")
                                                   for s in two_pass.transform(X)]


def test_several_members_add_their_own_columns(sample):
    X, y, Xt, yt = sample
    stack = StackedTagger([("crf", _crf()), ("memo", MajorityTagger())],
                          final_estimator=_crf(), cv=2, document_steps=[], member_memory=True)
    with pytest.raises(NotFittedError):
        stack.predict(Xt)
    stack.fit(X, y)
    s = stack.transform(Xt[:1])[0]
    assert set(s.annotations) == {"fp_label", "fp_conf", "fp_memory", "fp_abbr", "fp_m_crf",
                                  "fp_m_crf_conf", "fp_m_crf_memory", "fp_m_memo",
                                  "fp_m_memo_memory"}
    # the members' own labels are their predictions
    assert list(s.column("fp_m_memo")) == stack.named_estimators_["memo"].predict(Xt[:1])[0]
    assert list(s.column("fp_m_crf")) == stack.named_estimators_["crf"].predict(Xt[:1])[0]
    # the combined label: what both members propose (a majority of two)
    crf, memo = s.column("fp_m_crf"), s.column("fp_m_memo")
    assert all(c == "O" for c, a, b in zip(s.column("fp_label"), crf, memo) if a != b)
    pred = stack.predict(Xt)
    assert len(pred) == len(Xt) and all(len(p) == len(x) for p, x in zip(pred, Xt))
    entities = stack.predict_entities(Xt)
    assert [[e[:3] for e in sent] for sent in entities] == [
        [e[:3] for e in sent] for sent in stack.final_estimator_.predict_entities(
            stack.transform(Xt))]
    assert stack.predict_marginals(Xt)[0].shape == (len(Xt[0]), len(stack.classes_))
    assert set(stack.fit_seconds_) == {"crf", "memo", "final"}
    # the unfitted second pass is untouched (its featurizer's templates too)
    assert stack.final_estimator[0].templates == "chan"
    assert 0 <= stack.score(Xt, yt) <= 1


def test_the_second_pass_reads_the_columns(sample):
    X, y, _, _ = sample
    final = with_feature_groups(_crf(), stacking_groups())
    names = final[0].get_template_names()
    assert {"first_pass", "first_pass_bigram"} <= set(names)
    with pytest.raises(ValueError, match="'features' step"):
        with_feature_groups(MajorityTagger(), stacking_groups())
    with pytest.raises(ValueError, match="'features' step"):
        StackedTagger([("m", MajorityTagger())], final_estimator=MajorityTagger(),
                      cv=2).fit(X[:20], y[:20])


def test_member_names_that_would_collide_are_refused(sample):
    X, y, _, _ = sample
    for bad in ("crf_conf", "crf_memory"):
        with pytest.raises(ValueError, match="rename"):
            StackedTagger([(bad, MajorityTagger())], final_estimator=_crf(),
                          cv=2).fit(X[:20], y[:20])
    with pytest.raises(ValueError, match="confidence_bins"):
        StackedTagger([("m", MajorityTagger())], final_estimator=_crf(), cv=2,
                      confidence_bins=(0.5, 0.9)).fit(X[:20], y[:20])


def test_saved_and_loaded_as_one_safe_file(sample, tmp_path):
    X, y, Xt, _ = sample
    stack = StackedTagger([("crf", _crf()), ("cascade", make_tagger(
        "cascaded", model_params={"n_folds": 2, "segmenter__max_iter": 2}))],
        final_estimator=_crf(), cv=2, n_jobs=2).fit(X, y)
    path = save_model(stack, tmp_path / "stack.skops")
    loaded = load_model(path)
    assert loaded.predict(Xt) == stack.predict(Xt)
    assert loaded.predict_entities(Xt) == stack.predict_entities(Xt)
    # the clone of a fitted stack is unfitted
    assert not hasattr(clone(stack), "final_estimator_")
    assert Sentence(["x"]).annotations == {}  # inputs untouched: sentences are immutable


def test_members_and_the_second_pass_share_one_annotation_head(sample, monkeypatch):
    from skbioner.annotate import POSTagger, WordClassAnnotator
    from skbioner.ensemble import VotingTagger

    X, y, Xt, _ = sample
    calls = []
    for cls in (POSTagger, WordClassAnnotator):
        def counted(self, X, _orig=cls.transform, _name=cls.__name__):
            calls.append(_name)
            return _orig(self, X)
        monkeypatch.setattr(cls, "transform", counted)
    nerbio = {"model_params": {"max_iter": 1}, "n_jobs": 1}
    vote = VotingTagger([("a", make_tagger("nerbio", **nerbio)),
                         ("b", make_tagger("nerbio", scheme="IOE2", **nerbio))]).fit(X, y)
    assert [name for name, _ in vote.head_.steps] == ["pos"]
    assert vote.estimators_[0][0] is vote.estimators_[1][0] is vote.head_[0]
    calls.clear()
    assert len(vote.predict(Xt)) == len(Xt)
    assert calls == ["POSTagger"]  # POS-tagged once for both members
    # a member on its own still tags raw sentences (the head's steps are its own)
    assert len(vote.named_estimators_["a"].predict(Xt[:2])) == 2
    two_pass = make_tagger("online-crf", two_pass=True, word_classes="bundled", n_jobs=1,
                           model_params={"max_iter": 1}).fit(X, y)
    assert two_pass.final_estimator_[0] is two_pass.estimators_[0][0] is two_pass.head_[0]
    calls.clear()
    two_pass.predict(Xt)
    assert calls == ["WordClassAnnotator"]  # the classes looked up once for both passes
