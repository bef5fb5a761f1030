"""Members of other families in a vote: the pairwise SVM, HMM + SVM, NERBio, the two-pass CRF."""

import numpy as np
import pytest

from skbioner.datasets import load_jnlpba_sample
from skbioner.ensemble import VotingTagger, tagger_outputs
from skbioner.io import load_model, save_model
from skbioner.pipelines import make_members, make_tagger

SVM = {"model_params": {"max_iter": 20}}
MEMBERS = [
    {"model": "pairwise-svm", "name": "svm-greedy", **SVM},
    {"model": "pairwise-svm", "name": "svm-viterbi",
     "model_params": {"max_iter": 20, "decoding": "viterbi"}},
    {"model": "hmm-svm", "name": "hmm-svm"},
    {"model": "nerbio", "name": "nerbio", "model_params": {"max_iter": 2}},
    {"model": "online-crf", "two_pass": True, "name": "two-pass",
     "model_params": {"max_iter": 2}},
]


@pytest.fixture(scope="module")
def sample():
    train = load_jnlpba_sample("train")
    return train.X[:240], train.y[:240], train.X[240:300]


@pytest.fixture(scope="module")
def vote(sample):
    X, y, _ = sample
    return make_tagger("vote", members=MEMBERS, combination_params={"voting": "soft"},
                       n_jobs=1).fit(X, y)


@pytest.mark.slow
def test_every_family_votes_and_round_trips_through_one_safe_file(vote, sample, tmp_path):
    _, _, X_new = sample
    assert type(vote) is VotingTagger
    assert list(vote.named_estimators_) == [m["name"] for m in MEMBERS]
    for name, member in vote.named_estimators_.items():  # each member tags on its own
        assert sum(map(len, tagger_outputs(member, X_new).entities)) > 0, name
    loaded = load_model(save_model(vote, tmp_path / "vote.skops"))
    assert loaded.predict(X_new) == vote.predict(X_new)
    assert loaded.predict_entities(X_new) == vote.predict_entities(X_new)


@pytest.mark.slow
def test_the_greedy_svm_has_no_confidences_and_the_viterbi_svm_has(vote, sample):
    # a greedy member's every entity counts 1.0 in a soft vote; the Viterbi variant
    # gives its entities their chain probability
    _, _, X_new = sample
    greedy = tagger_outputs(vote.named_estimators_["svm-greedy"], X_new)
    viterbi = tagger_outputs(vote.named_estimators_["svm-viterbi"], X_new)
    assert greedy.marginals is None
    assert {e[3] for s in greedy.entities for e in s} == {1.0}
    conf = np.array([e[3] for s in viterbi.entities for e in s])
    assert viterbi.marginals is not None and len(conf)
    assert (conf > 0).all() and (conf <= 1).all() and (conf < 0.999).any()


def test_members_reading_pos_get_the_jackknifed_tagger():
    # the bundled POS tagger saw the JNLPBA training abstracts (GENIA POS): the members
    # whose features read parts of speech tag them with the fold tagger that did not
    members = dict(make_members(["pairwise-svm", "nerbio", "online-crf"],
                                pos_jackknife="genia-pos/train.tsv"))
    for name in ("pairwise-svm", "nerbio"):
        pos = dict(members[name].steps)["pos"]
        assert (pos.jackknife, pos.corpus) == (5, "genia-pos/train.tsv"), name
    assert "pos" not in dict(members["online-crf"].steps)


def test_a_two_pass_member_with_a_scheme_trains_both_passes_in_it():
    # benchmarks/combination.py's two-pass-ioe2: the first pass (a clone of the tagger)
    # carries the scheme too, so both fitted models label IOE2 and nothing else
    from skbioner.base import final_estimator

    train = load_jnlpba_sample("train")
    model = make_tagger("online-crf", two_pass=True, scheme="IOE2",
                        model_params={"max_iter": 2}, n_jobs=1).fit(train.X[:120], train.y[:120])
    second, first = model.final_estimator_, model.estimators_[0]
    for crf in (final_estimator(second), final_estimator(first)):
        assert (crf.label_space_.scheme, crf.label_space_.extra_schemes) == ("IOE2", ())
    assert {lab[:2] for lab in final_estimator(second).label_space_.labels} == {"O", "I-", "E-"}
    assert any(e for s in tagger_outputs(model, train.X[120:160]).entities for e in s)
