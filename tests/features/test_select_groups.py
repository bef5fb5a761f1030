"""TokenFeaturizer.select_groups: some groups' columns of an already-featurized matrix."""

import numpy as np
import pytest
import scipy.sparse as sp

from skbioner.annotate import LexiconMatcher
from skbioner.datasets import load_jnlpba_sample
from skbioner.features import FeatureGroup, SentenceFeatures, TokenFeaturizer

SUBSETS = {
    "chan": [
        ["w"],
        ["prefix", "w-1&w0&w1", "orthographic", "dictionary"],
        ["w0&w1", "w-2&w-1", "length", "suffix", "brief_word_class"],
    ],
    "zhou": [["head1", "morph"], ["w", "formation", "head2"]],
}


@pytest.fixture(scope="module")
def sample():
    train = load_jnlpba_sample("train")
    test = load_jnlpba_sample("test")
    # dict_* columns, so that the chan preset's dictionary group (columns found at fit) is used
    matcher = LexiconMatcher("training", column="dict_closed").fit(train.X, train.y)
    return matcher.transform(train.X), train.y, matcher.transform(test.X)


def _names(featurizer, ranges):
    """Names of the columns of a selection, from the full featurizer's names."""
    names = featurizer.get_feature_names_out()
    out = [names[a:b] for a, b in (featurizer.feature_ranges_[g] for g in ranges)]
    return np.concatenate(out) if out else np.zeros(0, dtype=object)


def _assert_same_up_to_column_order(selected, sel_names, reference, ref_names):
    assert selected.matrix.shape == reference.matrix.shape
    assert len(set(sel_names)) == len(sel_names)
    assert sorted(sel_names) == sorted(ref_names)
    position = {n: j for j, n in enumerate(sel_names)}
    perm = np.array([position[n] for n in ref_names], dtype=np.int64)
    permuted = selected.matrix[:, perm] if perm.size else selected.matrix
    assert (permuted != reference.matrix).nnz == 0
    np.testing.assert_array_equal(selected.offsets, reference.offsets)
    np.testing.assert_array_equal(selected.doc_ids, reference.doc_ids)


@pytest.mark.parametrize(
    ("preset", "subset"),
    [(p, s) for p, subsets in SUBSETS.items() for s in subsets],
)
def test_equals_a_featurizer_fitted_with_those_groups(sample, preset, subset):
    X, y, X_test = sample
    full = TokenFeaturizer(templates=preset, min_count=2)
    Xt = full.fit_transform(X, y)
    assert set(subset) <= {g.name for g in full.groups_}
    keep = [g for g in full.groups_ if g.name in subset]
    only = TokenFeaturizer(templates=keep, min_count=2)
    reference = only.fit_transform(X, y)
    selected, ranges = full.select_groups(Xt, subset, return_ranges=True)
    assert list(ranges) == [g.name for g in keep]  # layout in the order of groups_
    assert {g: b - a for g, (a, b) in ranges.items()} == {
        g: b - a for g, (a, b) in only.feature_ranges_.items()
    }
    assert selected.n_features < Xt.n_features
    names = _names(full, ranges)
    _assert_same_up_to_column_order(selected, names, reference, only.get_feature_names_out())
    # ... and on new sentences
    _assert_same_up_to_column_order(
        full.select_groups(full.transform(X_test), subset),
        names,
        only.transform(X_test),
        only.get_feature_names_out(),
    )
    # the same as excluding the other groups
    others = [g.name for g in full.groups_ if g.name not in subset]
    excluded = TokenFeaturizer(templates=preset, min_count=2, exclude=others)
    _assert_same_up_to_column_order(
        selected, names, excluded.fit_transform(X, y), excluded.get_feature_names_out()
    )


def test_layout_ranges_and_format(sample):
    X, y, _ = sample
    f = TokenFeaturizer(templates="nerbio", dtype=np.float64)
    Xt = f.fit_transform(X[:300])
    # names in any order, repeated, or one str: the groups_ order is kept
    a, ranges = f.select_groups(Xt, ["suffix", "w", "suffix"], return_ranges=True)
    b = f.select_groups(Xt, ("w", "suffix"))
    assert (a.matrix != b.matrix).nnz == 0
    assert list(ranges) == ["w", "suffix"]
    lo, hi = f.feature_ranges_["w"]
    assert ranges["w"] == (0, hi - lo)
    lo2, hi2 = f.feature_ranges_["suffix"]
    assert ranges["suffix"] == (hi - lo, hi - lo + hi2 - lo2)
    assert a.n_features == ranges["suffix"][1]
    # the columns are those of the full matrix, renumbered
    dense_full = Xt.matrix[:200].toarray()
    np.testing.assert_array_equal(
        a.matrix[:200].toarray(), np.hstack([dense_full[:, lo:hi], dense_full[:, lo2:hi2]])
    )
    assert isinstance(a.matrix, sp.csr_matrix) and a.matrix.dtype == np.float64
    assert a.matrix.has_canonical_format
    m = a.matrix.copy()
    m.has_sorted_indices = False
    m.sort_indices()
    np.testing.assert_array_equal(m.indices, a.matrix.indices)
    # one group as a str; every group: the matrix itself
    only_w = f.select_groups(Xt, "w")
    assert only_w.n_features == hi - lo
    everything = f.select_groups(Xt, f.get_template_names())
    assert (everything.matrix != Xt.matrix).nnz == 0
    empty = f.select_groups(Xt, [])
    assert empty.matrix.shape == (Xt.n_tokens, 0) and len(empty) == len(Xt)
    # selecting from a selection's sentences keeps the sentence structure
    sub = f.select_groups(Xt[5:9], ["w"])
    assert (sub.matrix != only_w[5:9].matrix).nnz == 0
    np.testing.assert_array_equal(sub.offsets, Xt[5:9].offsets)
    np.testing.assert_array_equal(sub.doc_ids, Xt.doc_ids[5:9])


def test_errors(sample):
    X, _, _ = sample
    f = TokenFeaturizer(templates="nerbio").fit(X[:50])
    Xt = f.transform(X[:50])
    with pytest.raises(ValueError, match=r"unknown feature group\(s\) \['pos'\]"):
        f.select_groups(Xt, ["w", "pos"])  # optional group dropped at fit: not in groups_
    with pytest.raises(TypeError, match="SentenceFeatures"):
        f.select_groups(Xt.matrix, ["w"])
    other = TokenFeaturizer(templates="chan").fit_transform(X[:50])
    with pytest.raises(ValueError, match="output of this featurizer"):
        f.select_groups(other, ["w"])
    with pytest.raises(TypeError, match="group names"):
        f.select_groups(Xt, 3)
    h = TokenFeaturizer(templates="nerbio", n_features=2**16).fit(X[:50])
    with pytest.raises(ValueError, match="vocabulary mode"):
        h.select_groups(h.transform(X[:50]), ["w"])
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        TokenFeaturizer().select_groups(Xt, ["w"])


def test_custom_groups_and_vectorised_size(sample):
    X, _, _ = sample
    groups = [
        FeatureGroup("w", "word", (-1, 0, 1)),
        FeatureGroup("sub", "substring", (0,), {"max_length": 4}),
        FeatureGroup("w0&wc1", "conjunction", (0, 1), {"of": ("word", "word_class")}),
    ]
    f = TokenFeaturizer(templates=groups, min_count=3)
    Xt = f.fit_transform(X)
    sel = f.select_groups(Xt, ["sub", "w0&wc1"])
    a, b = f.feature_ranges_["sub"][0], f.feature_ranges_["w0&wc1"][1]
    assert sel.n_features == b - a and sel.matrix.nnz == Xt.matrix[:, a:b].nnz
    assert isinstance(sel, SentenceFeatures)
