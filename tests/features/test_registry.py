"""The registry of feature kinds: a new kind declared here alone, used through TokenFeaturizer.

Nothing in the package knows the kinds defined in this module: they prove that
a kind (its parameters, checks, columns, supervision and channels) is declared
in one place.
"""

import pickle

import numpy as np
import pytest

from skbioner import Sentence
from skbioner.datasets import load_jnlpba_sample
from skbioner.features import (
    KINDS,
    BuildContext,
    Channel,
    FeatureGroup,
    TokenFeaturizer,
    _registry,
    register_kind,
)
from skbioner.schemes import labels_to_spans

WORDS = [
    ["NF-kappa", "B", "alpha", "and", "beta", "chains"],
    ["alpha", "alpha", "gene"],
    ["Beta", "cells"],
    ["x"],
]


# -- the new kinds: everything about them is here ---------------------------------------


class InWordSet(Channel):
    """``yes`` for the types in a word set (of the ``source`` column)."""

    def __init__(self, words, label, source="word"):
        self.words = frozenset(words)
        self.label = label
        self.source = source

    def values(self, types):
        return ["yes" if t in self.words else None for t in types]


def _check_words(value):
    if not isinstance(value, tuple) or not value or not all(isinstance(w, str) for w in value):
        raise ValueError(f"must be a non-empty set of str, got {value!r}")
    return value


def _build_in_word_set(group, params, context):
    return [InWordSet(params["words"], params["label"], params["column"])]


class EntityWords(Channel):
    """Multi-valued: the classes of the entities a word occurred in at least n times."""

    single = False

    def __init__(self, classes_of, label):
        self.classes_of = tuple(sorted(classes_of.items()))
        self.label = label

    def values(self, types):
        table = dict(self.classes_of)
        return [table.get(t, ()) for t in types]


def _build_entity_words(group, params, context):
    assert isinstance(context, BuildContext)
    counts = {}
    for sentence, labels in zip(context.sentences, context.y, strict=True):
        for cls, a, b in labels_to_spans(labels, params["scheme"]):
            for w in sentence[a:b]:
                counts[(w, cls)] = counts.get((w, cls), 0) + 1
    classes_of = {}
    for (w, cls), n in sorted(counts.items()):
        if n >= params["min_count"]:
            classes_of[w] = classes_of.get(w, ()) + (cls,)
    context.record_mined(sorted(classes_of))
    return [EntityWords(classes_of, params["label"])]


@pytest.fixture
def kinds():
    register_kind(
        "in_word_set",
        _build_in_word_set,
        required=("words",),
        params={"column": "word", "label": "inset"},
        checks={"words": _check_words},
        columns=lambda p: () if p["column"] == "word" else (p["column"],),
    )
    register_kind(
        "entity_words",
        _build_entity_words,
        params={"min_count": 2, "scheme": "IOB2", "label": "ent"},
        supervised=True,
    )
    yield
    for name in ("in_word_set", "entity_words"):
        _registry._REGISTRY.pop(name, None)


def expected_in_set(X, words, offsets, label="inset"):
    """Per-token names, one token at a time (a single-valued channel is padded)."""
    out = []
    for s in X:
        for i in range(len(s)):
            names = set()
            for k in offsets:
                j = i + k
                if j < 0 or j >= len(s):
                    names.add(f"{label}[{k}]={'<BOS>' if j < 0 else '<EOS>'}")
                elif s[j] in words:
                    names.add(f"{label}[{k}]=yes")
            out.append(names)
    return out


def active(featurizer, features):
    names = featurizer.get_feature_names_out()
    m = features.matrix
    return [set(names[m.indices[m.indptr[i] : m.indptr[i + 1]]]) for i in range(m.shape[0])]


# -- tests --------------------------------------------------------------------------------


def test_new_kind_in_kinds_and_validated(kinds):
    assert "in_word_set" in KINDS
    assert KINDS["in_word_set"] == {
        "words": _registry._REQUIRED,
        "column": "word",
        "label": "inset",
    }
    assert repr(KINDS["in_word_set"]["words"]) == "<required>"
    f = TokenFeaturizer(templates=[FeatureGroup("g", "in_word_set")])
    with pytest.raises(ValueError, match=r"'g' \(kind 'in_word_set'\).*required parameter 'words'"):
        f.fit(WORDS)
    bad = FeatureGroup("g", "in_word_set", params={"words": [3]})
    with pytest.raises(ValueError, match=r"'g'.*parameter 'words' must be a non-empty set"):
        TokenFeaturizer(templates=[bad]).fit(WORDS)
    typo = FeatureGroup("g", "in_word_set", params={"words": ["a"], "lable": "x"})
    with pytest.raises(ValueError, match=r"unknown parameter.*'lable'"):
        TokenFeaturizer(templates=[typo]).fit(WORDS)
    repeated = FeatureGroup("g", "in_word_set", (0, 0), {"words": ["a"]})
    with pytest.raises(ValueError, match="repeated offsets"):
        TokenFeaturizer(templates=[repeated]).fit(WORDS)


def test_new_kind_through_the_featurizer(kinds):
    greek = {"alpha", "beta"}
    groups = [
        FeatureGroup("w", "word", (0,)),
        FeatureGroup("greek", "in_word_set", (-1, 0, 2), {"words": greek}),
    ]
    f = TokenFeaturizer(templates=groups)
    Xt = f.fit_transform(WORDS)
    assert [g.name for g in f.groups_] == ["w", "greek"]
    got = active(f, Xt)
    expected = expected_in_set(WORDS, greek, (-1, 0, 2))
    assert [{n for n in g if n.startswith("inset")} for g in got] == expected
    assert {"inset[0]=yes", "inset[-1]=yes"} <= got[7]  # "alpha alpha gene": second alpha
    assert "inset[-1]=<BOS>" in got[0] and "inset[2]=<EOS>" in got[5]
    lo, hi = f.feature_ranges_["greek"]
    assert list(f.get_feature_names_out()[lo:hi]) == [
        "inset[-1]=yes", "inset[-1]=<BOS>", "inset[0]=yes", "inset[2]=yes", "inset[2]=<EOS>",
    ]  # fmt: skip
    # new sentences, pickling, group selection
    new = [["beta", "x", "alpha"], ["gamma"]]
    out = f.transform(new)
    got_new = [{n for n in a if n.startswith("inset")} for a in active(f, out)]
    assert got_new == expected_in_set(new, greek, (-1, 0, 2))
    assert got_new[1] == {"inset[-1]=yes", "inset[2]=<EOS>"}
    g = pickle.loads(pickle.dumps(f))
    assert (g.transform(new).matrix != out.matrix).nnz == 0
    only = f.select_groups(Xt, ["greek"])
    assert only.n_features == 5 and only.matrix.nnz == sum(map(len, expected))
    # hashing mode: the same (token, feature) pairs, in hashed columns
    h = TokenFeaturizer(templates=groups[1:], n_features=2**20).fit_transform(WORDS)
    assert h.matrix.nnz == only.matrix.nnz
    np.testing.assert_array_equal(np.diff(h.matrix.indptr), np.diff(only.matrix.indptr))


def test_fitted_featurizer_does_not_need_the_registry(kinds):
    group = FeatureGroup("greek", "in_word_set", (0,), {"words": ("alpha",)})
    f = TokenFeaturizer(templates=[group]).fit(WORDS)
    data = pickle.dumps(f)
    _registry._REGISTRY.pop("in_word_set")
    assert "in_word_set" not in KINDS
    loaded = pickle.loads(data)
    assert (loaded.transform(WORDS).matrix != f.transform(WORDS).matrix).nnz == 0
    with pytest.raises(ValueError, match="unknown kind"):
        TokenFeaturizer(templates=[group]).fit(WORDS)


def test_new_kind_reading_an_annotation_column(kinds):
    X = [Sentence(w, norm=[t.lower() for t in w]) for w in WORDS]
    group = FeatureGroup("g", "in_word_set", (0,), {"words": ("beta",), "column": "norm"})
    f = TokenFeaturizer(templates=[FeatureGroup("w", "word"), group]).fit(X)
    names = active(f, f.transform(X))
    assert "inset[0]=yes" in names[4] and "inset[0]=yes" in names[9]  # "beta", "Beta"
    # the declared column is required in every sentence, at fit and transform
    with pytest.raises(ValueError, match=r"group 'g' \(kind 'in_word_set'\).*'norm'.*X\[0\]"):
        TokenFeaturizer(templates=[group]).fit(WORDS)
    with pytest.raises(ValueError, match=r"group 'g'.*'norm'"):
        f.transform(WORDS)
    # an optional group without the column is dropped
    optional = FeatureGroup("g", "in_word_set", (0,), {"words": ("b",), "column": "norm"},
                            optional=True)  # fmt: skip
    kept = TokenFeaturizer(templates=[FeatureGroup("w", "word"), optional]).fit(WORDS)
    assert kept.get_template_names() == ["w"]


def test_new_supervised_kind(kinds):
    corpus = load_jnlpba_sample("train")
    X, y = corpus.X[:400], corpus.y[:400]
    group = FeatureGroup("ent", "entity_words", (0, 1), {"min_count": 3})
    with pytest.raises(ValueError, match=r"'ent' \(kind 'entity_words'\).*needs y"):
        TokenFeaturizer(templates=[group]).fit(X)
    f = TokenFeaturizer(templates=[group])
    Xt = f.fit_transform(X, y)
    mined = f.mined_["ent"]
    assert "cells" in mined and len(mined) > 20
    names = active(f, Xt)
    flat = [w for s in X for w in s]
    i = flat.index("cells")
    assert "ent[0]=cell_type" in names[i]
    assert "ent[1]=cell_type" in names[i - 1] or flat[i - 1] == "cells" or i == 0


def test_register_kind_errors(kinds):
    with pytest.raises(ValueError, match="already registered"):
        register_kind("in_word_set", _build_in_word_set)
    with pytest.raises(ValueError, match="already registered"):
        register_kind("word", _build_in_word_set)
    with pytest.raises(TypeError, match="callable"):
        register_kind("nope", "not a function")
    with pytest.raises(ValueError, match="undeclared"):
        register_kind("nope", _build_in_word_set, params={"a": 1}, checks={"b": str})
    with pytest.raises(ValueError, match="both required and with default"):
        register_kind("nope", _build_in_word_set, params={"a": 1}, required=("a",))
    assert "nope" not in KINDS
    register_kind("nope", lambda group, params, context: ["not a channel"])
    try:
        with pytest.raises(TypeError, match="expected Channel"):
            TokenFeaturizer(templates=[FeatureGroup("n", "nope")]).fit(WORDS)
    finally:
        _registry._REGISTRY.pop("nope")
    # replace=True swaps a kind's declaration
    register_kind("in_word_set", _build_in_word_set, required=("words",),
                  params={"column": "word", "label": "other"}, replace=True)  # fmt: skip
    group = FeatureGroup("g", "in_word_set", (0,), {"words": ("x",)})
    names = TokenFeaturizer(templates=[group]).fit(WORDS).get_feature_names_out()
    assert names.tolist() == ["other[0]=yes"]


def test_channel_key_and_contract():
    a, b = InWordSet({"a", "b"}, "s"), InWordSet(["b", "a"], "s")
    assert a.key == b.key and a.key != InWordSet({"a"}, "s").key
    assert a.key[0].endswith("test_registry.InWordSet")

    class Unhashable(Channel):
        def __init__(self):
            self.label = "u"
            self.words = ["a"]

    with pytest.raises(TypeError, match="hashable"):
        hash(Unhashable().key)
    with pytest.raises(NotImplementedError):
        Channel().values(["a"])
