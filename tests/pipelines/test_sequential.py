"""SequentialGroupSelector: forward selection over feature groups, featurizing once."""

import numpy as np
import pytest

from skbioner import Sentence
from skbioner.features import FeatureGroup, TokenFeaturizer
from skbioner.metrics import entity_f1_score
from skbioner.model_selection import document_splits
from skbioner.models import OnlinePACRF
from skbioner.pipelines import SequentialGroupSelector
from skbioner.text import NumericNormalizer


def _synthetic(rng, n=160):
    """Labels follow the ``sig`` column; the words and the ``noise*`` columns are random."""
    X, y = [], []
    for i in range(n):
        m = int(rng.integers(5, 10))
        words = [f"w{int(v)}" for v in rng.integers(0, 400, m)]
        is_ent = rng.random(m) < 0.3
        labels = ["B-protein" if e else "O" for e in is_ent]
        sig = ["E" if e else "o" for e in is_ent]
        noise = {f"noise{k}": tuple(f"v{int(v)}" for v in rng.integers(0, 3, m)) for k in (1, 2)}
        X.append(Sentence(words, doc_id=f"d{i // 4}", sig=tuple(sig), **noise))
        y.append(labels)
    return X, y


def _groups():
    return [FeatureGroup("w", "word", (0,)),
            FeatureGroup("noise1", "annotation", (0,), {"column": "noise1"}),
            FeatureGroup("sig", "annotation", (0,), {"column": "sig"}),
            FeatureGroup("noise2", "annotation", (0,), {"column": "noise2"})]


def _selector(**kw):
    return SequentialGroupSelector(OnlinePACRF(max_iter=3, random_state=0),
                                   TokenFeaturizer(templates=_groups()), **kw)


def test_selects_the_informative_group_and_stops(rng):
    X, y = _synthetic(rng)
    sel = _selector(dev_fraction=0.25).fit(X, y)
    assert sel.selected_groups_ == ["sig"]
    first = sel.trace_[0]
    assert first["best"] == "sig" and first["added"]
    assert first["scores"]["sig"] > 0.95
    assert max(v for k, v in first["scores"].items() if k != "sig") < 0.5
    assert not sel.trace_[-1]["added"]  # nothing added after sig (it is already perfect)
    assert sel.best_score_ == pytest.approx(first["scores"]["sig"])
    # the refitted pipeline reads only the chosen group and tags new data
    Xn, yn = _synthetic(np.random.default_rng(99), n=40)
    assert sel.best_estimator_.named_steps["features"].get_template_names() == ["sig"]
    assert entity_f1_score(yn, sel.predict(Xn)) > 0.95
    assert "B-protein" in sel.classes_


def test_base_groups_are_kept_and_scored_first(rng):
    X, y = _synthetic(rng)
    sel = _selector(base_groups=["w"], candidate_groups=["noise1", "sig", "noise2"],
                    dev_fraction=0.25).fit(X, y)
    assert sel.selected_groups_ == ["w", "sig"]
    assert sel.trace_[0]["step"] == 0 and sel.trace_[0]["best"] is None
    assert sel.trace_[1]["score"] > sel.trace_[0]["score"] + 0.3


def test_featurizes_once_whatever_the_number_of_candidates(rng, monkeypatch):
    X, y = _synthetic(rng, n=80)
    calls = {"fit": 0, "transform": 0}
    fit, transform = TokenFeaturizer._fit, TokenFeaturizer._transform

    def counting_fit(self, *a, **k):
        calls["fit"] += 1
        return fit(self, *a, **k)

    def counting_transform(self, *a, **k):
        calls["transform"] += 1
        return transform(self, *a, **k)

    monkeypatch.setattr(TokenFeaturizer, "_fit", counting_fit)
    monkeypatch.setattr(TokenFeaturizer, "_transform", counting_transform)
    sel = _selector(dev_fraction=0.25, tol=-1.0, refit=False).fit(X, y)  # tol<0: try all
    assert len(sel.trace_) == 4 and sel.selected_groups_ != []
    assert calls == {"fit": 1, "transform": 1}  # train part fitted, dev part transformed
    assert not hasattr(sel, "best_estimator_")


def test_grouped_cv_and_tol(rng):
    X, y = _synthetic(rng)
    sel = _selector(cv=3, tol=0.5, refit=False).fit(X, y)
    assert sel.selected_groups_ == ["sig"]
    splits = document_splits(X, 3)  # what cv=3 means: blocks of documents
    sel2 = _selector(cv=splits, tol=0.5, refit=False).fit(X, y)
    assert sel2.trace_[0]["scores"] == pytest.approx(sel.trace_[0]["scores"])
    one = _selector(dev_fraction=0.25, max_groups=1, tol=-1.0, refit=False).fit(X, y)
    assert one.selected_groups_ == ["sig"] and len(one.trace_) == 1


def test_scoring_and_errors(rng):
    X, y = _synthetic(rng, n=60)
    calls = []

    def scoring(est, Xt, yt):
        calls.append(len(yt))
        return -len(calls)  # earlier candidates score better: the first one is chosen

    sel = _selector(scoring=scoring, dev_fraction=0.25, refit=False).fit(X, y)
    assert sel.selected_groups_ == ["w"]
    with pytest.raises(ValueError, match="unknown feature group 'nope'"):
        _selector(candidate_groups=["nope"]).fit(X, y)
    with pytest.raises(TypeError, match="TokenFeaturizer"):
        SequentialGroupSelector(featurizer=NumericNormalizer()).fit(X, y)
    with pytest.raises(Exception, match="predict|fitted"):
        _selector().predict(X)
