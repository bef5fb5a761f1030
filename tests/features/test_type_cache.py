"""The fitted per-type cache: ``transform`` output is identical with and without it."""

import pickle

import numpy as np
import pytest

from skbioner import Sentence
from skbioner.datasets import load_jnlpba_sample
from skbioner.features import TEMPLATE_PRESETS, FeatureGroup, TokenFeaturizer


@pytest.fixture(scope="module")
def sample():
    train = load_jnlpba_sample("train")
    test = load_jnlpba_sample("test")
    return list(train.X), [list(t) for t in train.y], list(test.X)


def _cold(fz):
    """A copy of the fitted featurizer without its type cache (computes every type)."""
    cold = pickle.loads(pickle.dumps(fz))
    cold._type_cache = None
    return cold


def _assert_same(a, b):
    a, b = a.matrix, b.matrix
    assert a.shape == b.shape
    np.testing.assert_array_equal(a.indptr, b.indptr)
    np.testing.assert_array_equal(a.indices, b.indices)
    np.testing.assert_array_equal(a.data, b.data)


@pytest.mark.parametrize("preset", TEMPLATE_PRESETS)
@pytest.mark.parametrize("lowercase", [False, True])
def test_cached_transform_equals_cold(sample, preset, lowercase):
    X_train, y_train, X_test = sample
    fz = TokenFeaturizer(templates=preset, min_count=3, lowercase=lowercase)
    fitted = fz.fit_transform(X_train, y_train)
    assert fz._type_cache is not None and fz._type_cache.channels
    cold = _cold(fz)
    # new data (seen and unseen types), the training data, and a repeat call
    # (warm value indexes)
    for X in (X_test, X_train, X_test):
        _assert_same(fz.transform(X), cold.transform(X))
    _assert_same(fz.transform(X_train), fitted)


def test_cache_survives_pickling(sample):
    X_train, _, X_test = sample
    fz = TokenFeaturizer(min_count=3).fit(X_train)
    size = len(pickle.dumps(fz))
    expected = fz.transform(X_test)  # fills the transient indexes
    assert fz._type_cache.value_indexes
    assert len(pickle.dumps(fz)) == size  # ... which are not pickled
    again = pickle.loads(pickle.dumps(fz))
    _assert_same(again.transform(X_test), expected)


def test_older_pickles_without_cache(sample):
    X_train, _, X_test = sample
    fz = TokenFeaturizer(min_count=3).fit(X_train)
    old = pickle.loads(pickle.dumps(fz))
    del old._type_cache
    _assert_same(old.transform(X_test), fz.transform(X_test))


def test_cache_with_annotations_and_substrings():
    words = [["IL-2", "gene", "expression"], ["NF-kappaB", "binds", "IL-2"]]
    pos = [["NN", "NN", "NN"], ["NN", "VBZ", "NN"]]
    X = [Sentence(w, pos=p) for w, p in zip(words, pos, strict=True)]
    groups = [
        FeatureGroup("w", "word", (-1, 0, 1)),
        FeatureGroup("pos", "annotation", (-1, 0), {"column": "pos"}),
        FeatureGroup("sub", "substring", (0,), {"min_length": 2, "max_length": 4}),
        FeatureGroup("orth", "orthographic", (0,)),
        FeatureGroup("wp", "conjunction", (0, 0), {"of": ("word", "pos")}),
    ]
    fz = TokenFeaturizer(templates=groups).fit(X)
    new = [Sentence(["IL-2", "binds", "TNF-alpha"], pos=["NN", "VBZ", "JJ"])]
    for Xt in (new, X):
        _assert_same(fz.transform(Xt), _cold(fz).transform(Xt))


def test_hashing_mode_has_no_cache():
    fz = TokenFeaturizer(n_features=2**10).fit([["a", "b"]])
    assert fz._type_cache is None
