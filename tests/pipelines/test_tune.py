"""TunedTagger: search, the significance guard, refit, and what it reports."""

import itertools

import numpy as np
import pytest
from sklearn.base import BaseEstimator, clone
from sklearn.model_selection import ParameterGrid

from skbioner import Sentence
from skbioner.datasets import load_jnlpba_sample
from skbioner.model_selection import holdout_split
from skbioner.models import OnlinePACRF
from skbioner.pipelines import TunedTagger, _tune, search_space, tune
from skbioner.pipelines._tune import halving_schedule


@pytest.fixture(scope="module")
def sample():
    return load_jnlpba_sample("train")


def test_space_is_the_documented_one():
    base, grid, default = search_space()
    sizes = [len(g["model"]) * len(g.get("model__max_iter", [0])) *
             len(g.get("model__classifier__C", [0])) * len(g["features__min_count"]) *
             len(g["pos"]) * len(g["word_classes"]) * len(g["lexicons"]) for g in grid]
    assert sum(sizes) == 192
    assert default["model"].scheme == "BIES" and default["features__min_count"] == 3
    assert default["word_classes"] == "passthrough"  # the preset: no classes
    assert default["lexicons"] == "passthrough"  # nor lexicons
    assert [type(v).__name__ for v in grid[0]["word_classes"]] == ["str", "WordClassAnnotator"]
    assert [type(v).__name__ for v in grid[0]["lexicons"]] == ["str", "LexiconMatcher"]
    _, grid, default = search_space(models=("cascaded",), pos=False, word_classes=False,
                                    lexicons=False)
    assert len(grid) == 1 and grid[0]["pos"] == ["passthrough"]
    assert grid[0]["word_classes"] == ["passthrough"] == grid[0]["lexicons"]
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
    t = tune(X, y, models=("online-crf",), pos=False, min_held_out=100, min_resources=100,
             n_jobs=1)
    assert t.predict(X[:5]) == t.best_estimator_.predict(X[:5])
    assert isinstance(t.best_estimator_.named_steps["model"], OnlinePACRF)
    assert t.best_estimator_.named_steps["model"].calibrate  # confidences calibrated
    rounds = sorted({r["round"] for r in t.results_})
    assert rounds == [0, 1] and len(t.results_) >= 36 + 3
    assert t.decision_["chosen"] in ("winner", "default") and 0 <= t.decision_["p_value"] <= 1
    if t.decision_["chosen"] == "default":  # noise does not displace the preset
        assert t.best_params_["features__min_count"] == 3
    assert set(t.seconds_) == {"annotate", "search", "refit"} and list(t.classes_)[0] == "O"


def test_without_document_ids_the_last_sentences_are_held_out(sample):
    X = [Sentence(s) for s in sample.X[:300]]  # no doc ids
    t = TunedTagger(models=("online-crf",), pos=False, word_classes=False, lexicons=False,
                    holdout=0.25, min_held_out=50, n_jobs=1)
    t.fit(X, sample.y[:300])
    # the last quarter held out; too few left for two rounds: one round on all the rest
    assert t.decision_["n_held_out_sentences"] == 75
    assert t.decision_["n_held_out_documents"] is None
    assert {r["n_sentences"] for r in t.results_} == {225}


def test_too_little_data_is_refused():
    with pytest.raises(ValueError, match="too few sentences"):
        tune([["a"]] * 10, [["O"]] * 10, pos=False)


@pytest.mark.parametrize("factor", [2, 3, 4])
def test_no_round_repeats_its_resources(factor):
    # a round on the same sentences as the one before retrains the same candidates on the
    # same data (scikit-learn's aggressive_elimination does): the sizes must grow strictly
    for n_candidates, n_train, min_resources in itertools.product(
            [1, 2, 3, 12, 48, 96, 200], [1, 50, 300, 749, 750, 2426, 14800, 10 ** 5],
            [1, 100, 250]):
        rounds = halving_schedule(n_candidates, n_train, factor, min_resources)
        counts = [c for c, _ in rounds]
        sizes = [n for _, n in rounds]
        assert all(a < b for a, b in zip(sizes, sizes[1:])), rounds
        assert sizes[-1] == n_train and counts[0] == n_candidates
        assert all(a >= b >= 1 for a, b in zip(counts, counts[1:])), rounds
        if len(rounds) > 1:
            assert sizes[0] >= min_resources and counts[-1] <= factor
        else:  # too small for halving, or too few candidates: one plain grid on all of it
            assert n_train < factor * min_resources or n_candidates <= factor
    assert halving_schedule(96, 2426) == [(96, 270), (17, 809), (3, 2426)]
    assert halving_schedule(96, 600) == [(96, 600)]
    with pytest.raises(ValueError, match="halving needs"):
        halving_schedule(0, 10)


def test_bionlp13cg_size_search_cost_is_bounded():
    # what bounds the wall time without a clock: on a corpus of BioNLP13CG's size (3,033
    # sentences, no document ids) the search trains at most 22 pipelines' worth of the
    # whole tuning part (candidates x sentences, the preset scored beside them in every
    # round); the held-out part is the same for every round and at least 500 sentences
    train = np.arange(2426)  # the tuning part of 3,033 sentences (tests/model_selection)
    rounds = halving_schedule(96, train.size)
    cost = sum((n + 1) * size for n, size in rounds) / train.size
    assert len(rounds) == 3 and cost < 22


_SEEN = []


class _Spy(BaseEstimator):
    """Records the sentences and documents it is trained on and predicts.

    The candidate ``a=2`` predicts the ``GOLD`` labels of a set of that many sentences
    (the held-out part), so it wins every round; the others tag nothing.
    """

    GOLD = {}

    def __init__(self, a=0):
        self.a = a

    def fit(self, F, y):
        _SEEN.append(("fit", self.a, len(y), len(set(F.doc_ids))))
        self.classes_ = np.array(["O"])
        return self

    def predict(self, F):
        n = np.diff(F.offsets)
        _SEEN.append(("predict", self.a, len(n), len(set(F.doc_ids))))
        if self.a == 2 and len(n) in self.GOLD:
            return [list(t) for t in self.GOLD[len(n)]]
        return [["O"] * k for k in n]


def test_log_and_results_count_what_each_round_trained_on(sample, monkeypatch, capsys):
    from sklearn.pipeline import Pipeline

    from skbioner.features import TokenFeaturizer

    X, y = sample.X[:1200], sample.y[:1200]

    def space(models, pos, word_classes, pos_corpus, lexicons):
        base = Pipeline([("pos", "passthrough"), ("word_classes", "passthrough"),
                         ("lexicons", "passthrough"),
                         ("features", TokenFeaturizer(min_count=3)), ("model", _Spy())])
        grid = [{"model__a": list(range(9)), "features__min_count": [3],
                 "pos": ["passthrough"], "word_classes": ["passthrough"],
                 "lexicons": ["passthrough"]}]
        return base, grid, {"model__a": 8, "features__min_count": 3, "pos": "passthrough",
                            "word_classes": "passthrough", "lexicons": "passthrough"}

    monkeypatch.setattr(_tune, "search_space", space)
    keys = [s.doc_id for s in X]
    train, held = holdout_split(X, 0.2, 500)
    monkeypatch.setattr(_Spy, "GOLD", {held.size: [y[i] for i in held]})
    _SEEN.clear()
    t = TunedTagger(pos=False, word_classes=False, lexicons=False, min_resources=100, n_jobs=1,
                    verbose=1)
    t.fit(X, y)
    err = capsys.readouterr().err
    rounds = t.decision_["schedule"]
    assert [r["candidates"] for r in rounds] == [9, 3]
    fits = [s for s in _SEEN if s[0] == "fit"]
    preds = [s for s in _SEEN if s[0] == "predict"]
    # round 1: 9 candidates (the preset, a=8, among them); round 2: 3 (a=2 and, on ties, the
    # first ones) and the preset beside them; then the refit on everything
    sizes = [f[2] for f in fits]
    assert sizes[:9] == [rounds[0]["n_sentences"]] * 9
    assert sizes[9:13] == [rounds[1]["n_sentences"]] * 4 and sizes[13:] == [len(X)]
    assert rounds[1]["n_sentences"] == train.size > rounds[0]["n_sentences"] >= 100
    assert [f[3] for f in fits[:9]] == [rounds[0]["n_documents"]] * 9
    assert rounds[1]["n_documents"] == len({keys[i] for i in train})
    # every round scored on the whole held-out part
    assert {p[2] for p in preds} == {held.size} and len(preds) == 13
    assert {p[3] for p in preds} == {len({keys[i] for i in held})}
    assert t.decision_["n_held_out_sentences"] == held.size >= 500
    for r in rounds:
        assert f"trained on {r['n_sentences']} sentences ({r['n_documents']} documents)" in err
    assert f"{held.size} sentences ({t.decision_['n_held_out_documents']} documents) held" in err
    assert {(r["round"], r["n_sentences"]) for r in t.results_} == {
        (0, rounds[0]["n_sentences"]), (1, rounds[1]["n_sentences"])}
    assert t.decision_["chosen"] == "winner" and t.best_params_["model__a"] == 2
    last = [r for r in t.results_ if r["round"] == 1]
    assert [(r["preset"], r["candidate"]) for r in last].count((True, False)) == 1


def test_annotated_once_gives_what_the_pipeline_gives(sample):
    # the tuner annotates every sentence once per (POS, word classes) setting and shares
    # one featurization among the candidates that read the same: the same predictions as
    # the candidate's whole pipeline trained on the same sentences
    X, y = sample.X[:160], sample.y[:160]
    base, grid, default = search_space(models=("online-crf",))
    params = {**default, "pos": grid[0]["pos"][1], "word_classes": grid[0]["word_classes"][1],
              "features__min_count": 1, "model__max_iter": 3}
    annotated = _tune._annotations(base, [params], X)[("on", "on", "off")]
    pipe = clone(base).set_params(**params)
    (pred, _), = _tune._fit_front(pipe.named_steps["features"], [pipe.named_steps["model"]],
                                  annotated[:120], y[:120], annotated[120:])
    assert pred == clone(base).set_params(**params).fit(X[:120], y[:120]).predict(X[120:])


def test_every_candidate_trains_with_its_own_settings(sample, monkeypatch):
    # the grid's estimator objects are shared by many grid points: a candidate built with
    # set_params on them would change them for the others (every online CRF of a round
    # trained with the last max_iter set, every cascade with the last C)
    base, grid, default = search_space(pos=False, word_classes=False, lexicons=False)
    cands = list(enumerate(ParameterGrid(grid)))
    seen = []

    def record(features, models, Xtr, ytr, Xho):
        seen.extend(models)
        return [([], 0.0)] * len(models)

    monkeypatch.setattr(_tune, "_fit_front", record)
    X = sample.X[:20]
    off = ("off", "off", "off")
    TunedTagger(n_jobs=1)._round(base, cands, {off: X}, np.arange(10), sample.y[:10],
                                 {off: X[10:]})
    got = sorted((type(m).__name__, getattr(m, "max_iter", None),
                  getattr(getattr(m, "classifier", None), "C", None)) for m in seen)
    want = sorted((type(c["model"]).__name__, c.get("model__max_iter"),
                   c.get("model__classifier__C")) for _, c in cands)
    assert got == want
    assert {m.max_iter for m in seen if type(m) is OnlinePACRF} == {10, 20}
    assert grid[0]["model"][0].max_iter == 10  # the grid itself untouched


def test_epoch_twins_share_one_run_with_the_predictions_of_their_own_fits(sample):
    # candidates that differ only in the online CRF's max_iter share one training run; each
    # gets the predictions its own pipeline gives, the cascade and other schemes train alone
    X, y = sample.X[:200], sample.y[:200]
    base, grid, default = search_space()
    chains, cascade = grid[0]["model"], grid[1]["model"][0]
    cands = [{**default, "model": m, "model__max_iter": k}
             for m in (chains[0], chains[2]) for k in (3, 2)]
    front = {k: v for k, v in default.items() if k not in ("model", "model__max_iter")}
    cands.append({**front, "model": cascade, "model__classifier__C": 0.003})
    pipes = [_tune._pipeline(base, p) for p in cands]
    models = [p.named_steps["model"] for p in pipes]
    assert sorted(_tune._shared_runs(models)) == [[0, 1], [2, 3], [4]]
    assert _tune._shared_runs([clone(models[0]).set_params(random_state=None),
                               models[1]]) == [[0], [1]]  # unseeded: no two runs alike
    out = _tune._fit_front(pipes[0].named_steps["features"], models, X[:150], y[:150], X[150:])
    for pipe, (pred, seconds) in zip(pipes, out):
        assert pred == clone(pipe).fit(X[:150], y[:150]).predict(X[150:])
        assert seconds > 0
    assert out[1][1] < out[0][1]  # the 2-epoch snapshot came before the 3-epoch end


def test_the_users_development_data_is_the_held_out_part(sample, capsys):
    X, y = sample.X[:250], sample.y[:250]
    X_dev, y_dev = sample.X[250:330], sample.y[250:330]
    t = TunedTagger(models=("online-crf",), pos=False, word_classes=False, n_jobs=1,
                    min_resources=100, verbose=1)
    t.fit(X, y, X_dev, y_dev)
    err = capsys.readouterr().err
    assert t.decision_["n_held_out_sentences"] == 80 and "(the development data)" in err
    # the last round trains on all of X; the refit on X alone (not the development data)
    assert max(r["n_sentences"] for r in t.results_) == 250
    assert "refitting on all 250 training sentences" in err
    with pytest.raises(ValueError, match="give both"):
        TunedTagger(pos=False).fit(X, y, X_dev)


@pytest.mark.parametrize("pos_corpus", [None, "genia-pos/train.tsv"])
def test_tagger_options_build_each_candidate(pos_corpus):
    """The options (the command line) of a candidate build that candidate: the same model,
    scheme, epochs or C, cutoff and annotations."""
    from skbioner.pipelines import make_tagger
    from skbioner.pipelines._tune import describe, tagger_options

    _, grid, default = search_space(pos_corpus=pos_corpus)
    assert tagger_options(default) == {"model": "online-crf"}
    for params in ParameterGrid(grid):
        options = tagger_options(params, pos_corpus)
        built = make_tagger(**options)
        steps = dict(built.steps) if hasattr(built, "steps") else {}
        model = steps.get("model", built)
        assert type(model).__name__ == type(params["model"]).__name__, options
        if "model__max_iter" in params:
            assert (model.scheme, model.max_iter) == (params["model"].scheme,
                                                      params["model__max_iter"]), options
            assert tuple(model.extra_schemes) == tuple(params["model"].extra_schemes)
        else:
            assert model.classifier.C == params["model__classifier__C"]
        assert steps["features"].min_count == params["features__min_count"], describe(params)
        pos = params["pos"] != "passthrough"
        assert ("pos" in steps and steps["pos"] != "passthrough") == pos, options
        if pos and pos_corpus:
            assert steps["pos"].corpus == pos_corpus
        for step in ("word_classes", "lexicons"):
            on = params.get(step, "passthrough") != "passthrough"
            assert (step in steps and steps[step] != "passthrough") == on, options
