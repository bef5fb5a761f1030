"""TunedTagger: search, the significance guard, refit, and what it reports."""

import pytest

from skbioner import Sentence
from skbioner.datasets import load_jnlpba_sample
from skbioner.models import OnlinePACRF
from skbioner.pipelines import TunedTagger, search_space, tune


@pytest.fixture(scope="module")
def sample():
    return load_jnlpba_sample("train")


def test_space_is_the_documented_one():
    base, grid, default = search_space()
    sizes = [len(g["model"]) * len(g.get("model__max_iter", [0])) *
             len(g.get("model__classifier__C", [0])) * len(g["features__min_count"]) *
             len(g["pos"]) * len(g["word_classes"]) for g in grid]
    assert sum(sizes) == 96
    assert default["model"].scheme == "BIES" and default["features__min_count"] == 3
    assert default["word_classes"] == "passthrough"  # the preset: no classes
    assert [type(v).__name__ for v in grid[0]["word_classes"]] == ["str", "WordClassAnnotator"]
    _, grid, default = search_space(models=("cascaded",), pos=False, word_classes=False)
    assert len(grid) == 1 and grid[0]["pos"] == ["passthrough"]
    assert grid[0]["word_classes"] == ["passthrough"]
    assert "model__classifier__C" in default
    with pytest.raises(ValueError, match="models must be"):
        search_space(models=("svm",))
    _, grid, _ = search_space(pos_corpus="genia-pos/train.tsv")
    tagger = grid[0]["pos"][1]
    assert tagger.jackknife == 5 and tagger.corpus == "genia-pos/train.tsv"


def test_pos_column_is_not_searched_with_in_sample_tags(sample):
    # held-out JNLPBA sentences are GENIA POS training sentences: the bundled tagger's tags
    # there are in sample, so without its corpus (to jackknife) the POS column is left out
    t = TunedTagger(models=("online-crf",), n_jobs=1)
    searched, why = t._pos_searched(sample.X[-200:])
    assert not searched and "trained on" in why
    assert t._pos_searched([Sentence(["p53", "binds", "DNA", "."])] * 30) == (True, None)
    assert TunedTagger(pos_corpus="x.tsv")._pos_searched(sample.X[-200:]) == (True, None)


def test_tunes_refits_and_reports(sample):
    X, y = sample.X[:600], sample.y[:600]
    t = tune(X, y, models=("online-crf",), pos=False, n_jobs=1)
    assert t.predict(X[:5]) == t.best_estimator_.predict(X[:5])
    assert isinstance(t.best_estimator_.named_steps["model"], OnlinePACRF)
    assert t.best_estimator_.named_steps["model"].calibrate  # confidences calibrated
    rounds = sorted({r["round"] for r in t.results_})
    assert rounds[0] == 0 and len(t.results_) >= 12
    assert t.decision_["chosen"] in ("winner", "default") and 0 <= t.decision_["p_value"] <= 1
    if t.decision_["chosen"] == "default":  # noise does not displace the preset
        assert t.best_params_["features__min_count"] == 3
    assert set(t.seconds_) == {"search", "refit"} and list(t.classes_)[0] == "O"


def test_without_document_ids_the_last_sentences_are_held_out(sample):
    X = [Sentence(s) for s in sample.X[:300]]  # no doc ids
    t = TunedTagger(models=("online-crf",), pos=False, holdout=0.25, n_jobs=1)
    t.fit(X, sample.y[:300])
    assert t.results_[0]["n_sentences"] <= 300


def test_too_little_data_is_refused():
    with pytest.raises(ValueError, match="too few sentences"):
        tune([["a"]] * 10, [["O"]] * 10, pos=False)
