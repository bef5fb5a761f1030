"""Sequence-aware versions of scikit-learn's common estimator checks, for every public estimator.

sklearn's own checks feed 2-D numeric arrays; these feed each estimator what it reads
(sentences, featurizer output or label lists) and check the same contract: parameters
declared and validated in ``fit`` (bools refused where numbers are meant), nothing set in
``__init__``, unfitted use raises ``NotFittedError``, ``fit`` changes no parameter and adds
only fitted (``_``-suffixed) or private attributes, the prediction methods change nothing,
fitting twice gives the same result, clones are unfitted, pickles round-trip, ``classes_``
are the labels ``predict`` returns, inputs are not modified, and ``cross_val_predict``
works on sequences.
"""

import copy
import pickle
from numbers import Integral, Real

import joblib
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GroupKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.utils._param_validation import InvalidParameterError
from sklearn.utils.estimator_checks import (
    check_get_params_invariance,
    check_no_attributes_set_in_init,
    check_parameters_default_constructible,
    check_set_params,
)

from skbioner import Sentence
from skbioner._validation import Interval
from skbioner.annotate import (
    BrownClusterer,
    EmbeddingClusterer,
    HMMStateClusterer,
    LexiconMatcher,
    POSTagger,
    RuleChunker,
    WordClassAnnotator,
)
from skbioner.ensemble import DistilledTagger, StackedTagger, VotingTagger
from skbioner.features import TokenFeaturizer
from skbioner.metrics import entity_f1_score
from skbioner.models import (
    CascadedNER,
    CRFsuiteTagger,
    HMMSVMTagger,
    LearnedCutTagger,
    MajorityTagger,
    OnlinePACRF,
    PairwiseSVMTagger,
    RecutTagger,
)
from skbioner.pipelines import SequentialGroupSelector, TaggerPipeline, TunedTagger
from skbioner.postprocess import (
    AbbreviationResolver,
    CascadedEntityRules,
    NameAlias,
    PatternPostProcessor,
    PostProcessedTagger,
)
from skbioner.schemes import SegmentEncoder
from skbioner.text import BioTokenizer, NumericNormalizer
from tests.models.toy import toy_sentences


def _data():
    X, y = toy_sentences(n=24, with_singletons=True)
    X = [Sentence(s, doc_id=f"d{i // 2}") for i, s in enumerate(X)]
    return X, y


X, Y = _data()
F = TokenFeaturizer().fit_transform(X)
XP = [s.with_annotations(pos=["NN", "VBZ", "IN"] * (len(s) // 3) + ["DT"] * (len(s) % 3))
      for s in X]


class Case:
    """An estimator and what it reads: ``fit(*fit_args)``, then ``method(method_arg)``."""

    def __init__(self, est, fit_args, method, arg, tagger=False):
        self.est, self.fit_args, self.method, self.arg, self.tagger = (
            est, fit_args, method, arg, tagger)

    def fit(self, est=None):
        return (est or clone(self.est)).fit(*self.fit_args)

    def output(self, est):
        return getattr(est, self.method)(self.arg)


CASES = {
    "OnlinePACRF": Case(OnlinePACRF(max_iter=3, random_state=0), (F, Y), "predict", F, True),
    "OnlinePACRF(label_pairs)": Case(OnlinePACRF(label_pairs=20, max_iter=3, random_state=0),
                                     (F, Y), "predict", F, True),
    "CascadedNER": Case(CascadedNER(n_folds=2, random_state=0), (F, Y), "predict", F, True),
    "CRFsuiteTagger": Case(CRFsuiteTagger(max_iter=20), (F, Y), "predict", F, True),
    "HMMSVMTagger": Case(HMMSVMTagger(cv=2, random_state=0), (F, Y), "predict", F, True),
    "MajorityTagger": Case(MajorityTagger(), (X, Y), "predict", X, True),
    "PairwiseSVMTagger": Case(PairwiseSVMTagger(split_outside=None, random_state=0), (F, Y),
                              "predict", F, True),
    "PostProcessedTagger": Case(
        PostProcessedTagger(make_pipeline(TokenFeaturizer(), OnlinePACRF(max_iter=2,
                                                                          random_state=0)),
                            steps=[("cascade", CascadedEntityRules(min_count=1))]),
        (X, Y), "predict", X, True),
    "LearnedCutTagger": Case(
        LearnedCutTagger(make_pipeline(TokenFeaturizer(), OnlinePACRF(max_iter=2,
                                                                       random_state=0))),
        (X, Y), "predict", X, True),
    "RecutTagger": Case(
        RecutTagger(make_pipeline(TokenFeaturizer(), OnlinePACRF(max_iter=2, random_state=0)),
                    cuts=None),
        (X, Y), "predict", X, True),
    "TaggerPipeline": Case(
        TaggerPipeline([("features", TokenFeaturizer()),
                        ("model", OnlinePACRF(max_iter=2, random_state=0))]),
        (X, Y), "predict", X, True),
    "TaggerPipeline.predict_entities": Case(
        TaggerPipeline([("features", TokenFeaturizer()),
                        ("model", OnlinePACRF(max_iter=2, random_state=0))]),
        (X, Y), "predict_entities", X),
    "VotingTagger": Case(
        VotingTagger([("crf", TaggerPipeline([("features", TokenFeaturizer()),
                                              ("model", OnlinePACRF(max_iter=2,
                                                                    random_state=0))])),
                      ("memo", MajorityTagger())], voting="hard", threshold=0.4),
        (X, Y), "predict", X, True),
    "DistilledTagger": Case(
        DistilledTagger(MajorityTagger(),
                        TaggerPipeline([("features", TokenFeaturizer()),
                                        ("model", OnlinePACRF(max_iter=2, random_state=0))]),
                        max_tokens=None),
        (X, Y, [Sentence(list(s)[::-1]) for s in X[:6]]), "predict", X, True),
    "StackedTagger": Case(
        StackedTagger([("crf", TaggerPipeline([("features", TokenFeaturizer()),
                                               ("model", OnlinePACRF(max_iter=2,
                                                                     random_state=0))])),
                       ("memo", MajorityTagger())], cv=2),
        (X, Y), "predict", X, True),
    "TokenFeaturizer": Case(TokenFeaturizer(), (X,), "transform", X),
    "LexiconMatcher(training)": Case(LexiconMatcher("training"), (X, Y), "transform", X),
    "LexiconMatcher(training, jackknife)": Case(LexiconMatcher("training", jackknife=3), (X, Y),
                                                "transform", X),
    "POSTagger": Case(POSTagger(), (X,), "transform", X),
    "RuleChunker": Case(RuleChunker(), (XP,), "transform", XP),
    "HMMStateClusterer": Case(HMMStateClusterer(n_states=4, max_iter=2, tol=None,
                                                random_state=0), (X,), "transform", X),
    "BrownClusterer": Case(BrownClusterer(n_clusters=4, min_count=1), (X,), "transform", X),
    "EmbeddingClusterer": Case(EmbeddingClusterer(n_clusters=(2, 3), n_components=2,
                                                  min_count=1, random_state=0),
                               (X,), "transform", X),
    "WordClassAnnotator": Case(WordClassAnnotator(), (X,), "transform", X),
    "LexiconMatcher": Case(LexiconMatcher(types=["gene", "cell_type"]), (X,), "transform", X),
    "NumericNormalizer": Case(NumericNormalizer(), (X,), "transform", X),
    "SegmentEncoder": Case(SegmentEncoder(), (Y,), "transform", Y),
    "AbbreviationResolver": Case(AbbreviationResolver(), (X, Y), None, None),
    "NameAlias": Case(NameAlias(), (X, Y), None, None),
    "CascadedEntityRules": Case(CascadedEntityRules(), (X, Y), None, None),
    "PatternPostProcessor": Case(PatternPostProcessor(), (X, Y), None, None),
    "TunedTagger": Case(TunedTagger(models=("online-crf",), pos=False, n_jobs=1),
                        (X * 5, Y * 5), "predict", X, True),  # 125 sentences
    "SequentialGroupSelector": Case(
        SequentialGroupSelector(OnlinePACRF(max_iter=3, random_state=0),
                                TokenFeaturizer(templates="nerbio"), base_groups=["w"],
                                candidate_groups=["suffix", "w-1&w0"], dev_fraction=0.25),
        (X, Y), "predict", X, True),
}
#: estimators that declare ``_parameter_constraints`` for every parameter
DECLARED = sorted(set(CASES)) + ["BioTokenizer"]
ALL = {**{k: c.est for k, c in CASES.items()}, "BioTokenizer": BioTokenizer()}


def _same(a, b):
    """Equality of method outputs (label lists, sentences, SentenceFeatures)."""
    if hasattr(a, "matrix"):
        return (a.matrix != b.matrix).nnz == 0 and np.array_equal(a.offsets, b.offsets)
    return a == b


@pytest.mark.parametrize("name", sorted(ALL))
@pytest.mark.parametrize(
    "check",
    [check_no_attributes_set_in_init, check_parameters_default_constructible,
     check_get_params_invariance, check_set_params],
    ids=lambda c: c.__name__,
)
def test_sklearn_checks(name, check):
    check(name, clone(ALL[name]))


@pytest.mark.parametrize("name", DECLARED)
def test_parameters_are_declared_and_bools_refused(name):
    est = ALL[name]
    constraints = type(est)._parameter_constraints
    assert set(constraints) == set(est.get_params(deep=False)), "undeclared parameters"
    numeric = [p for p, cs in constraints.items()
               if isinstance(cs, list) and any(isinstance(c, Interval) for c in cs)]
    for param in numeric:
        bad = clone(est).set_params(**{param: True})
        with pytest.raises(InvalidParameterError, match=f"'{param}' parameter"):
            bad._validate_params()
    for param, cs in constraints.items():  # a numpy scalar is a number
        for c in cs if isinstance(cs, list) else ():
            if isinstance(c, Interval) and c.type in (Integral, Real):
                value = getattr(est, param)
                if isinstance(value, int | float) and not isinstance(value, bool) \
                        and c.is_satisfied_by(value):
                    ok = clone(est).set_params(**{param: np.float64(value) if c.type is Real
                                                  else np.int64(value)})
                    ok._validate_params()


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c.method))
def test_unfitted_use_raises(name):
    case = CASES[name]
    if not getattr(case.est, "_requires_fit", True):
        pytest.skip("stateless transformer")
    with pytest.raises(NotFittedError):
        case.output(clone(case.est))


@pytest.mark.parametrize("name", sorted(CASES))
def test_fit_keeps_params_inputs_and_adds_only_fitted_attributes(name):
    case = CASES[name]
    est = clone(case.est)
    params = est.get_params(deep=False)
    before_attrs = set(vars(est))
    inputs = copy.deepcopy(case.fit_args)
    case.fit(est)
    assert est.get_params(deep=False).keys() == params.keys()
    for k, v in params.items():
        now = est.get_params(deep=False)[k]
        if k == "steps" and isinstance(est, TaggerPipeline):
            # sklearn's Pipeline contract: fit replaces its steps list by the fitted steps
            assert [(n, type(e)) for n, e in now] == [(n, type(e)) for n, e in v]
            continue
        assert now is v, f"fit changed parameter {k}"
    added = set(vars(est)) - before_attrs
    public = [a for a in added if not a.startswith("_")]
    assert all(a.endswith("_") for a in public), f"public attributes without '_': {public}"
    for a, b in zip(inputs, case.fit_args):
        assert _same(a, b) if hasattr(a, "matrix") else a == b, "fit modified its input"


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c.method))
def test_prediction_changes_nothing_and_round_trips(name, tmp_path):
    case = CASES[name]
    est = case.fit()
    out = case.output(est)
    state = joblib.hash(est)
    arg = copy.deepcopy(case.arg)
    again = case.output(est)
    assert joblib.hash(est) == state, f"{case.method} changed the estimator"
    assert _same(again, out)
    assert _same(arg, case.arg) if hasattr(arg, "matrix") else arg == case.arg
    joblib.dump(est, tmp_path / "m.joblib")
    assert _same(case.output(joblib.load(tmp_path / "m.joblib")), out)
    assert _same(case.output(pickle.loads(pickle.dumps(est))), out)


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c.method))
def test_fit_is_idempotent_and_clones_are_unfitted(name):
    case = CASES[name]
    est = case.fit()
    first = case.output(est)
    assert _same(case.output(case.fit(est)), first)
    if getattr(case.est, "_requires_fit", True):
        with pytest.raises(NotFittedError):
            case.output(clone(est))


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c.tagger))
def test_classes_are_the_labels_predict_returns(name):
    case = CASES[name]
    est = case.fit()
    pred = case.output(est)
    assert entity_f1_score(Y, pred) > 0.9  # every tagger (nearly) learns the toy corpus
    assert {lab for s in pred for lab in s} <= set(est.classes_)
    assert set(est.classes_) == {"O"} | {f"{p}-{t}" for t in ("DNA", "cell_type", "protein")
                                         for p in "BI"}


@pytest.mark.parametrize("name", ["OnlinePACRF", "MajorityTagger", "PostProcessedTagger",
                                  "RecutTagger", "LearnedCutTagger", "VotingTagger",
                                  "StackedTagger", "DistilledTagger"])
def test_cross_val_predict_on_sequences(name):
    case = CASES[name]
    est = case.est if case.arg is X else make_pipeline(TokenFeaturizer(), case.est)
    groups = [s.doc_id for s in X]
    params = dict(zip(["X_unlabeled"], case.fit_args[2:]))  # the data of fit beside X and y
    pred = cross_val_predict(est, X, Y, cv=GroupKFold(3), groups=groups, params=params)
    assert len(pred) == len(Y) and [len(p) for p in pred] == [len(s) for s in Y]
    assert entity_f1_score(Y, pred) > 0.5
