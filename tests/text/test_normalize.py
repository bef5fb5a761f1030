"""NumericNormalizer: NERBio's numeral normalization as a stateless transformer."""

import copy
import pickle

import joblib
import pytest
from sklearn.base import clone
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import (
    check_get_params_invariance,
    check_no_attributes_set_in_init,
    check_parameters_default_constructible,
    check_set_params,
)

from skbioner import Sentence
from skbioner.features import FeatureGroup, TokenFeaturizer
from skbioner.text import NumericNormalizer, normalize_numerals

PAPER = [  # Tsai et al. 2006 (NERBio)
    ("IL2", "IL1"),
    ("IL-3", "IL-1"),
    ("IL5", "IL1"),
    ("p53", "p1"),
    ("1997", "1"),
    ("2.5", "1.1"),
]


@pytest.mark.parametrize(("word", "expected"), PAPER)
def test_paper_examples(word, expected):
    assert normalize_numerals(word) == expected
    out = NumericNormalizer().fit_transform([[word]])
    assert list(out[0]) == [expected]
    assert out[0].column("orig") == (word,)


def test_runs_and_non_numeric_tokens():
    assert normalize_numerals("CD4+CD25+") == "CD1+CD1+"
    assert normalize_numerals("1,25-(OH)2D3") == "1,1-(OH)1D1"
    assert normalize_numerals("kappa") == "kappa"
    assert normalize_numerals("IL-12", digit="0") == "IL-0"
    assert normalize_numerals("a12b", digit="<NUM>") == "a<NUM>b"
    assert normalize_numerals("x1", digit="\\1") == "x\\1"  # not a regex backreference


def test_only_ascii_digits():
    # documented decision: Unicode decimal digits other than 0-9 are kept
    for word in ["IL-\u0663", "p\uff15\uff13", "\u0967\u0968"]:
        assert normalize_numerals(word) == word
    assert normalize_numerals("IL-\u0663 2") == "IL-\u0663 1"


def test_annotation_column_mode():
    X = [["IL-2", "binds", "p53"]]
    s = NumericNormalizer(annotation="norm").fit_transform(X)[0]
    assert list(s) == ["IL-2", "binds", "p53"]
    assert s.column("norm") == ("IL-1", "binds", "p1")
    assert not s.has("orig")


def test_annotations_carried_over_and_input_unchanged():
    s = Sentence(["IL-2", "gene"], pos=["NN", "NN"], chunk=["B-NP", "I-NP"])
    plain = ["p53", "2.5", "x"]
    X = [s, plain]
    before = copy.deepcopy(X)
    out = NumericNormalizer().transform(X)
    assert X == before and X[0] is s and X[1] is plain
    assert isinstance(out[0], Sentence) and out[0] is not s
    assert list(out[0]) == ["IL-1", "gene"]
    assert out[0].column("pos") == ("NN", "NN")
    assert out[0].column("chunk") == ("B-NP", "I-NP")
    assert out[0].column("orig") == ("IL-2", "gene")
    assert list(out[1]) == ["p1", "1.1", "x"]
    normed = NumericNormalizer(annotation="norm").transform(X)
    assert normed[0].annotations == {**s.annotations, "norm": ("IL-1", "gene")}


def test_chained_normalizers_keep_the_original_tokens():
    X = [["IL-22", "x"]]
    twice = make_pipeline(NumericNormalizer(), NumericNormalizer(digit="0")).fit_transform(X)
    assert list(twice[0]) == ["IL-0", "x"]
    assert twice[0].column("orig") == ("IL-22", "x")


def test_equal_tokens_equal_outputs():
    X = [["IL-2", "IL-2", "IL-23"], ["IL-2", "p53"], []]
    out = NumericNormalizer().transform(X)
    assert list(out[0]) == ["IL-1"] * 3
    assert out[1][0] == "IL-1"
    assert len(out[2]) == 0 and out[2].column("orig") == ()


def test_stateless_fit_and_tags():
    n = NumericNormalizer()
    assert n.__sklearn_tags__().requires_fit is False
    assert list(n.transform([["IL2"]])[0]) == ["IL1"]  # no fit needed
    assert n.fit([["a"]]) is n
    assert vars(n) == {"digit": "1", "mode": "run", "annotation": None}  # fit learns nothing


@pytest.mark.parametrize(
    "params",
    [{"digit": ""}, {"digit": 1}, {"annotation": ""}, {"annotation": "word"}, {"annotation": 3}],
)
def test_invalid_parameters(params):
    n = NumericNormalizer(**params)
    with pytest.raises(ValueError):
        n.fit([["a"]])
    with pytest.raises(ValueError):
        n.transform([["a"]])


def test_invalid_input():
    with pytest.raises(TypeError):
        NumericNormalizer().transform("IL-2 gene")
    with pytest.raises(TypeError):
        NumericNormalizer().transform([["IL-2", 3]])


@pytest.mark.parametrize(
    "check",
    [
        check_no_attributes_set_in_init,
        check_parameters_default_constructible,
        check_get_params_invariance,
        check_set_params,
    ],
    ids=lambda c: c.__name__,
)
def test_sklearn_checks(check):
    check("NumericNormalizer", NumericNormalizer())


def test_clone_pickle_joblib(tmp_path):
    n = NumericNormalizer(digit="0", annotation="norm").fit([["a"]])
    X = [["IL-12", "x"]]
    c = clone(n)
    assert c.get_params() == n.get_params()
    p = pickle.loads(pickle.dumps(n))
    joblib.dump(n, tmp_path / "n.joblib")
    j = joblib.load(tmp_path / "n.joblib")
    assert c.transform(X) == p.transform(X) == j.transform(X) == n.transform(X)


def test_pipeline_with_featurizer_reads_original_tokens():
    X = [["IL-2", "binds"], ["IL-5", "binds"]]
    groups = [
        FeatureGroup("w", "word", (0,)),
        FeatureGroup("orig", "annotation", (0,), {"column": "orig"}),
    ]
    pipe = make_pipeline(NumericNormalizer(), TokenFeaturizer(templates=groups)).fit(X)
    names = set(pipe[-1].get_feature_names_out())
    assert {"w[0]=IL-1", "orig[0]=IL-2", "orig[0]=IL-5"} <= names
    assert "w[0]=IL-2" not in names


def test_per_digit_mode():
    from skbioner.text import NumericNormalizer, normalize_numerals

    words = ["IL-12", "IL-2", "p53", "1997", "2.5", "kappa"]
    assert [normalize_numerals(w, mode="digit") for w in words] == [
        "IL-11", "IL-1", "p11", "1111", "1.1", "kappa"]
    assert [normalize_numerals(w, digit="0", mode="digit") for w in words][:2] == [
        "IL-00", "IL-0"]
    out = NumericNormalizer(mode="digit").fit_transform([words])[0]
    assert list(out) == ["IL-11", "IL-1", "p11", "1111", "1.1", "kappa"]
    run = NumericNormalizer().fit_transform([words])[0]
    assert list(run)[0] == "IL-1" and list(run)[3] == "1"  # the default: one numeral per run
    import pytest

    with pytest.raises(ValueError, match="mode"):
        normalize_numerals("IL2", mode="digits")
    with pytest.raises(ValueError, match="mode"):
        NumericNormalizer(mode="digits").fit([words])
