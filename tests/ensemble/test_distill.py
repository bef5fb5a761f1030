"""DistilledTagger: a teacher's labels on unlabeled text teach one student, kept alone."""

import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from skbioner import Sentence
from skbioner.datasets import drop_copies
from skbioner.ensemble import DistilledTagger
from skbioner.models import MajorityTagger
from tests.conftest import data_path
from tests.ensemble.test_voting import FixedTagger
from tests.models.toy import toy_sentences

GOLD_X, GOLD_Y = toy_sentences(n=20)
#: sentences the gold never shows: "zeta" is a DNA word only the teacher knows
UNLABELED = [Sentence(["zeta", "binds", "here", str(k), "."]) for k in range(10)]
ZETA = ("DNA", 0, 1, 0.9)


def _fitted(unlabeled=UNLABELED, **params):
    return DistilledTagger(FixedTagger((ZETA,)), MajorityTagger(), **params).fit(
        GOLD_X, GOLD_Y, X_unlabeled=unlabeled)


def test_the_student_learns_the_teachers_labels():
    model = _fitted()
    assert model.predict([["zeta", "binds"]]) == [["B-DNA", "O"]]
    assert model.n_pseudo_sentences_ == 10 and model.n_pseudo_tokens_ == 50
    # the same student on gold alone does not know the word
    alone = MajorityTagger().fit(GOLD_X, GOLD_Y)
    assert alone.predict([["zeta", "binds"]]) == [["O", "O"]]
    # gold is learned too, and the teacher is not kept: only the student is prediction state
    assert model.predict(GOLD_X) == [list(y) for y in GOLD_Y]
    assert isinstance(model.student_, MajorityTagger)
    assert not any(isinstance(v, FixedTagger) for k, v in vars(model).items() if k.endswith("_"))
    assert list(model.classes_) == list(model.student_.classes_)
    assert model.predict_entities([["zeta", "binds"]])[0][0][:3] == ("DNA", 0, 1)
    assert set(model.fit_seconds_) == {"teacher", "labelling", "student"}


def test_sentences_copying_gold_are_dropped():
    copies = [Sentence(GOLD_X[0]), Sentence([t.upper() for t in GOLD_X[1]]),
              Sentence(GOLD_X[2][:6] + ["and", "more", "words", "after", "it"]),
              UNLABELED[0], UNLABELED[0]]
    kept, removed = drop_copies(copies, GOLD_X)
    # the third shares only 6 words in a row with a gold sentence: not a copy
    assert kept == [copies[2], UNLABELED[0]]
    assert removed == {"exact": 1, "normalized": 1, "ngram": 0, "repeat": 1}
    long_gold = [Sentence("a b c d e f g h i j".split())]
    kept, removed = drop_copies([Sentence("x a b c d e f g h y".split())], long_gold)
    assert kept == [] and removed["ngram"] == 1
    # a teacher labelling gold copies "all DNA" would spoil the student: none reaches it
    model = DistilledTagger(FixedTagger((("DNA", 0, 1, 1.0),)), MajorityTagger()).fit(
        GOLD_X, GOLD_Y, X_unlabeled=[Sentence(x) for x in GOLD_X])
    assert model.n_pseudo_sentences_ == 0
    assert model.removed_["exact"] == len(GOLD_X)
    assert model.predict(GOLD_X) == [list(y) for y in GOLD_Y]


def test_min_confidence_and_max_tokens():
    unsure = DistilledTagger(FixedTagger((("DNA", 0, 1, 0.4),)), MajorityTagger(),
                             min_confidence=0.5).fit(GOLD_X, GOLD_Y, X_unlabeled=UNLABELED)
    assert unsure.n_pseudo_sentences_ == 0
    assert unsure.predict([["zeta"]]) == [["O"]]
    sure = clone(unsure).set_params(min_confidence=0.4).fit(GOLD_X, GOLD_Y, UNLABELED)
    assert sure.n_pseudo_sentences_ == 10
    # sentences without a teacher entity are kept unless min_entities asks for one
    empty = DistilledTagger(FixedTagger(()), MajorityTagger())
    assert empty.fit(GOLD_X, GOLD_Y, UNLABELED).n_pseudo_sentences_ == 10
    assert empty.set_params(min_entities=1).fit(GOLD_X, GOLD_Y, UNLABELED).n_pseudo_sentences_ \
        == 0
    assert _fitted(min_entities=1).n_pseudo_sentences_ == 10
    few = _fitted(max_tokens=12)  # sentences of 5 tokens: three hold 12
    assert few.n_pseudo_sentences_ == 3 and few.n_pseudo_tokens_ == 15


def test_unlabeled_file(tmp_path):
    path = tmp_path / "u.txt"
    path.write_text("\n".join(" ".join(s) for s in UNLABELED) + "\n", encoding="utf-8")
    assert _fitted(unlabeled=str(path)).predict([["zeta"]]) == [["B-DNA"]]


def test_sklearn_citizenship(tmp_path):
    model = DistilledTagger(FixedTagger((ZETA,)), MajorityTagger(), max_tokens=100)
    assert clone(model).get_params()["max_tokens"] == 100
    assert "student__min_count" in model.get_params()
    model.set_params(student__min_count=1)
    with pytest.raises(NotFittedError):
        model.predict(GOLD_X)
    with pytest.raises(NotFittedError):
        model.predict_entities(GOLD_X)
    with pytest.raises(ValueError, match="min_confidence"):
        clone(model).set_params(min_confidence=2.0).fit(GOLD_X, GOLD_Y, UNLABELED)
    # the data comes to fit, never through a parameter (clones and files do not carry it)
    assert "unlabeled" not in " ".join(model.get_params())
    with pytest.raises(ValueError, match="needs X_unlabeled"):
        clone(model).fit(GOLD_X, GOLD_Y)
    model.fit(GOLD_X, GOLD_Y, X_unlabeled=UNLABELED)
    assert not hasattr(model.student, "vocabulary_")  # the given student is not fitted
    before = dict(vars(model))
    model.predict(UNLABELED)
    assert vars(model).keys() == before.keys()
    assert all(vars(model)[k] is v for k, v in before.items())
    from skbioner.io import load_model, save_model

    # one safe file: the student is the prediction state (the unlabeled text a path)
    path = tmp_path / "u.txt"
    path.write_text("\n".join(" ".join(s) for s in UNLABELED) + "\n", encoding="utf-8")
    saved = DistilledTagger(MajorityTagger(), MajorityTagger())
    saved.fit(GOLD_X, GOLD_Y, X_unlabeled=str(path))
    loaded = load_model(save_model(saved, tmp_path / "d.skops"))
    assert type(loaded) is DistilledTagger and loaded.n_pseudo_sentences_ == 10
    assert loaded.predict(UNLABELED + GOLD_X) == saved.predict(UNLABELED + GOLD_X)


def test_verbose_lines(capsys):
    _fitted(verbose=1)
    err = capsys.readouterr().err
    assert "teacher fitted" in err and "labelled by the teacher" in err and \
        "student fitted" in err


def test_real_unlabeled_text_copies_jnlpba_sentences():
    """The bundled unlabeled text holds GENIA abstracts: copies of JNLPBA training sentences."""
    from skbioner.io import read_columns, read_tokenized

    train = read_columns(data_path("jnlpba", "train.iob2"))
    unlabeled = read_tokenized(data_path("unlabeled", "biomed-sentences.txt"),
                               max_sentences=20000)
    kept, removed = drop_copies(unlabeled, train.X)
    assert removed["exact"] > 100
    gold = {tuple(s) for s in train.X}
    assert not any(tuple(s) in gold for s in kept)
    assert len(kept) + sum(removed.values()) == len(unlabeled)
