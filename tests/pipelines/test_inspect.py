"""describe_model and top_features: what `skbioner info` shows, checked against the weights."""

import numpy as np
import pytest

from skbioner.datasets import load_jnlpba_sample
from skbioner.pipelines import describe_model, make_tagger, parse_params, top_features
from tests.models.toy import toy_sentences


@pytest.fixture(scope="module")
def sample():
    train = load_jnlpba_sample("train")
    return train.X[:600], train.y[:600]


def test_top_features_are_the_largest_weights_of_each_label(sample):
    pipe = make_tagger("online-crf", model_params={"max_iter": 3, "calibrate": False})
    pipe.fit(*sample)
    names = list(pipe[0].get_feature_names_out())
    coef, labels = pipe[-1].coef_, pipe[-1].label_space_.labels
    top = top_features(pipe, n=5)
    assert list(top) == list(labels)
    for k, label in enumerate(labels):
        col = coef[:, k]
        pos, neg = top[label]["positive"], top[label]["negative"]
        for name, w in pos + neg:  # names and weights agree with the matrix
            assert col[names.index(name)] == w
        assert [w for _, w in pos] == sorted(col[col > 0], reverse=True)[:5]
        assert [w for _, w in neg] == sorted(col[col < 0])[:5]
    info = describe_model(pipe)
    assert info["types"] == ["DNA", "RNA", "cell_line", "cell_type", "protein"]
    assert info["model"]["scheme"] == "BIES" and info["model"]["extra_schemes"] == ["IO"]
    assert info["model"]["settings"]["max_iter"] == 3 and "C" not in info["model"]["settings"]
    assert info["features"]["n_features"] == len(names) and info["confidences"]
    assert info["model"]["weights"]["nonzero"] == np.count_nonzero(coef)


def test_cascade_names_its_segment_features(sample):
    pipe = make_tagger("cascaded", model_params=parse_params(
        ["n_folds=2", "segmenter__max_iter=2", "classifier__max_iter=2"])).fit(*sample)
    cascade = pipe[-1]
    token_names = pipe[0].get_feature_names_out()
    names = cascade.segment_featurizer_.get_feature_names_out(token_names)
    assert len(names) == cascade.classifier_.coef_.shape[0]
    assert {n.split(":", 1)[0] for n in names} == {"bag", "head", "first", "length", "type"}
    top = top_features(pipe, n=3)
    assert "segmenter B-ENT" in top and "classifier B-protein" in top
    info = describe_model(pipe)
    assert info["model"]["classifier"]["class"] == "OnlinePACRF"
    with pytest.raises(ValueError, match="not built from those token features"):
        cascade.segment_featurizer_.get_feature_names_out(token_names[:-1])


def test_models_without_chain_weights_are_refused(sample):
    majority = make_tagger("majority").fit(*sample)
    with pytest.raises(TypeError, match="MajorityTagger has no chain weights"):
        top_features(majority)
    assert describe_model(majority)["confidences"] is False
    with pytest.raises(ValueError, match="n must be a positive int"):
        top_features(majority, n=0)


def test_a_combination_says_how_its_wrapper_cuts_words():
    X, y = toy_sentences(30)
    for recut, key, value in (("pieces", "recut", None), ("learned", "raw_cuts", "learned")):
        vote = make_tagger("vote", members="majority,majority:name=m2", recut=recut).fit(X, y)
        info = describe_model(vote)
        assert info["combination"]["class"] == "VotingTagger" and info[key] == value
