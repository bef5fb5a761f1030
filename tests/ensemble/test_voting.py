"""VotingTagger: members' entities put to a weighted vote."""

import pytest
from sklearn.base import BaseEstimator, clone
from sklearn.exceptions import NotFittedError

from skbioner import Sentence
from skbioner.base import SequenceTaggerMixin
from skbioner.ensemble import VotingTagger
from skbioner.models import MajorityTagger
from skbioner.pipelines import make_tagger
from skbioner.schemes import spans_to_labels
from tests.models.toy import toy_sentences


class FixedTagger(SequenceTaggerMixin, BaseEstimator):
    """Tags every sentence with the same entities (and confidences): a member under control."""

    def __init__(self, spans=()):
        self.spans = spans

    def fit(self, X, y):
        self.classes_ = ["O"]
        return self

    def predict_entities(self, X):
        return [[sp for sp in self.spans if sp[2] <= len(x)] for x in X]

    def predict(self, X):
        return [spans_to_labels([sp[:3] for sp in sent], len(x), "IOB2")
                for sent, x in zip(self.predict_entities(X), X)]


X = [Sentence("the IL-2 gene in T cells".split(), doc_id="a")]
Y = [["O", "B-DNA", "I-DNA", "O", "B-cell_type", "I-cell_type"]]


def _members(*spans):
    return [(f"m{k}", FixedTagger(tuple(s))) for k, s in enumerate(spans)]


def test_the_vote_keeps_what_a_majority_proposes():
    dna, protein = ("DNA", 1, 3, 0.9), ("protein", 1, 2, 0.8)
    cells = ("cell_type", 4, 6, 0.7)
    vote = VotingTagger(_members([dna, cells], [dna], [protein, cells]), voting="hard").fit(X, Y)
    assert vote.predict_entities(X) == [[("DNA", 1, 3, pytest.approx(2 / 3)),
                                         ("cell_type", 4, 6, pytest.approx(2 / 3))]]
    assert vote.predict(X) == Y
    assert list(vote.classes_) == ["O", "B-DNA", "I-DNA", "B-cell_type", "I-cell_type"]
    assert vote.score(X, Y) == 1.0


def test_soft_votes_and_threshold():
    a, b = ("DNA", 1, 3, 0.9), ("DNA", 1, 3, 0.2)
    members = _members([a], [b], [])
    # hard: 2 of 3 agree; soft: (0.9 + 0.2) / 3 < 0.5
    assert VotingTagger(members).fit(X, Y).predict_entities(X)[0] != []  # hard by default
    assert VotingTagger(members, voting="soft").fit(X, Y).predict_entities(X)[0] == []
    soft = VotingTagger(members, voting="soft", threshold=0.3).fit(X, Y)
    assert soft.predict_entities(X)[0][0][3] == pytest.approx(1.1 / 3)


def test_weights_per_member_and_per_class():
    a, b = ("DNA", 1, 3, 1.0), ("protein", 1, 2, 1.0)
    members = _members([a], [b])
    # equal weights: each 1/2, nothing above a half
    assert VotingTagger(members, voting="hard").fit(X, Y).predict(X) == [["O"] * 6]
    assert VotingTagger(members, voting="hard", weights=[2, 1]).fit(X, Y).predict(X) == \
        [["O", "B-DNA", "I-DNA", "O", "O", "O"]]
    # the second member is trusted on proteins, the first on DNA: both kept? they overlap,
    # so the better supported one wins
    vote = VotingTagger(members, voting="hard",
                        weights=[{"DNA": 1.0, "protein": 0.1}, {"DNA": 0.1, "protein": 3.0}])
    assert vote.fit(X + X, Y + [["O", "B-protein"] + ["O"] * 4]).weights_[1]["protein"] == 3.0
    assert vote.predict_entities(X)[0][0][:3] == ("protein", 1, 2)


def test_members_learn_and_parameters_reach_them():
    X, y = toy_sentences(n=30)
    vote = VotingTagger([("crf", make_tagger("online-crf", model_params={"max_iter": 3})),
                         ("memo", MajorityTagger())], voting="hard", threshold=0.4)
    assert "crf__model__C" in vote.get_params()
    vote.set_params(crf__model__max_iter=2)
    assert vote.estimators[0][1][-1].max_iter == 2
    with pytest.raises(NotFittedError):
        vote.predict(X)
    vote.fit(X, y)
    assert vote.score(X, y) == 1.0
    assert set(vote.named_estimators_) == {"crf", "memo"}
    assert len(vote.fit_seconds_) == 2
    # the members are clones: the unfitted ones are untouched
    assert not hasattr(vote.estimators[1][1], "classes_")
    # in parallel: the same
    two = clone(vote).set_params(n_jobs=2).fit(X, y)
    assert two.predict(X) == vote.predict(X)


def test_saved_and_loaded_as_one_safe_file(tmp_path):
    from skbioner.io import load_model, save_model

    X, y = toy_sentences(n=30)
    vote = make_tagger("vote", members=[
        {"model": "online-crf", "model_params": {"max_iter": 2}},
        {"model": "online-crf", "scheme": "IOE2", "model_params": {"max_iter": 2},
         "name": "ioe2"}, {"model": "majority"}],
        combination_params={"weights": [2, 1, 1]}).fit(X, y)
    loaded = load_model(save_model(vote, tmp_path / "vote.skops"))
    assert type(loaded) is VotingTagger
    assert loaded.predict(X) == vote.predict(X)
    assert loaded.predict_entities(X) == vote.predict_entities(X)
    assert list(loaded.named_estimators_) == ["online-crf", "ioe2", "majority"]


def test_bad_members():
    with pytest.raises(ValueError, match="at least one"):
        VotingTagger([]).fit(X, Y)
    with pytest.raises(TypeError, match="pairs"):
        VotingTagger([FixedTagger()]).fit(X, Y)
    with pytest.raises(ValueError, match="unique"):
        VotingTagger([("a", FixedTagger()), ("a", FixedTagger())]).fit(X, Y)
    with pytest.raises(ValueError, match="2 items for 1"):
        VotingTagger(_members([]), weights=[1, 2]).fit(X, Y)
    with pytest.raises(ValueError, match=r"y\[0\]"):
        VotingTagger(_members([])).fit(X, [["O", "S-DNA", "O", "O", "O", "O"]])


def test_verbose_lines(capsys):
    VotingTagger(_members([], []), verbose=1).fit(X, Y)
    err = capsys.readouterr().err
    assert "[VotingTagger] m0: fitted" in err and "2/2" in err
